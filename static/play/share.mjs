/**
 * Share by link: the program travels in the URL's fragment (`#program=…`), compressed with the
 * browser's own CompressionStream ("deflate-raw") and written in base64url, so a teacher can hand a
 * program out as a link and no server ever sees it (a fragment is never sent). Opening such a link
 * only shows the program; nothing runs until the learner presses Run (play.mjs).
 *
 * Limits: a link carries at most MAX_LINK_CHARS characters of encoded program (longer links break in
 * chat tools and address bars); a link's program is read only up to MAX_PROGRAM_BYTES (the Python
 * side's own limit, lab/playground/program.py), so a crafted link cannot inflate without end.
 */

export const FRAGMENT_KEY = "program";
export const MAX_LINK_CHARS = 16_000;
export const MAX_PROGRAM_BYTES = 256 * 1024;

export class ShareError extends Error {
  /** @param {string} code the catalogue key of the message @param {Record<string, unknown>} params */
  constructor(code, params = {}) {
    super(code);
    this.code = code;
    this.params = params;
  }
}

/** @param {Uint8Array} bytes */
function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** @param {string} text */
function fromBase64Url(text) {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/**
 * The fragment that carries `program` (`program=…`); a ShareError "play.shareTooLong" past the limit.
 * @param {string} program
 */
export async function programFragment(program) {
  const compressed = new Blob([program]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const encoded = toBase64Url(new Uint8Array(await new Response(compressed).arrayBuffer()));
  if (encoded.length > MAX_LINK_CHARS) {
    throw new ShareError("play.shareTooLong", { size: encoded.length, limit: MAX_LINK_CHARS });
  }
  return `${FRAGMENT_KEY}=${encoded}`;
}

/**
 * The program a fragment carries, `null` when it carries none; a ShareError "play.linkUnreadable"
 * when it is damaged, "play.linkTooLarge" when it inflates past MAX_PROGRAM_BYTES.
 * @param {string} hash location.hash
 */
export async function programFromFragment(hash) {
  const encoded = new URLSearchParams(hash.replace(/^#/, "")).get(FRAGMENT_KEY);
  if (!encoded) return null;
  if (encoded.length > MAX_LINK_CHARS) throw new ShareError("play.linkTooLarge", { limit: MAX_PROGRAM_BYTES });
  let bytes;
  try {
    bytes = fromBase64Url(encoded);
  } catch {
    throw new ShareError("play.linkUnreadable");
  }
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const chunks = [];
  let size = 0;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.length;
      if (size > MAX_PROGRAM_BYTES) {
        await reader.cancel();
        throw new ShareError("play.linkTooLarge", { limit: MAX_PROGRAM_BYTES });
      }
      chunks.push(read.value);
    }
    return new TextDecoder("utf-8", { fatal: true }).decode(await new Blob(chunks).arrayBuffer());
  } catch (error) {
    throw error instanceof ShareError ? error : new ShareError("play.linkUnreadable");
  }
}
