/**
 * A QR code of a short text (the room's join address, docs/ROOM.md), drawn as SVG: ISO/IEC 18004 in
 * its smallest useful part. Byte mode, error correction level M (15% of the code may be lost), versions
 * 1 to 6 (21x21 to 41x41 modules, up to 106 bytes: no version-information blocks are needed below 7).
 *
 * The steps, each a function below: the text's bytes become data codewords (mode, length, bytes, pad);
 * Reed-Solomon adds error-correction codewords per block, and the blocks are interleaved; the function
 * patterns (finders, timing, alignment) are drawn, the codewords laid in the two-column zigzag, and each
 * of the 8 masks tried: the one with the lowest penalty is kept, and its format bits written.
 * `tests/browser/test_room_qr.py` checks the matrix against the `segno` encoder.
 */
import { s } from "./views/dom.mjs";

/** Per version (index 1..6) at level M: [total codewords, error-correction codewords per block, blocks]. */
const VERSIONS = [null, [26, 10, 1], [44, 16, 1], [70, 26, 1], [100, 18, 2], [134, 24, 2], [172, 16, 4]];
const FORMAT_M = 0; // level M's two format bits
const MASKS = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

/** Data codewords of a version: all codewords less the error-correction ones. */
function dataCapacity(version) {
  const [total, ecPerBlock, blocks] = VERSIONS[version];
  return total - ecPerBlock * blocks;
}

/** The bytes as data codewords: mode 0100 (byte), an 8-bit length, the bytes, a terminator, pad bytes. */
function dataCodewords(bytes, version) {
  const capacity = dataCapacity(version) * 8;
  const bits = [];
  const push = (value, length) => {
    for (let i = length - 1; i >= 0; i -= 1) bits.push((value >>> i) & 1);
  };
  push(0b0100, 4);
  push(bytes.length, 8);
  for (const byte of bytes) push(byte, 8);
  push(0, Math.min(4, capacity - bits.length));
  push(0, (8 - (bits.length % 8)) % 8);
  for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) push(pad, 8);
  const codewords = [];
  for (let i = 0; i < bits.length; i += 8) codewords.push(bits.slice(i, i + 8).reduce((a, bit) => (a << 1) | bit, 0));
  return codewords;
}

/** a * b in GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1. */
function gfMultiply(a, b) {
  let product = 0;
  for (let i = 7; i >= 0; i -= 1) {
    product = (product << 1) ^ ((product >>> 7) * 0x11d);
    product ^= ((b >>> i) & 1) * a;
  }
  return product;
}

/** The generator polynomial (x - α^0)(x - α^1)…(x - α^(degree-1)), its leading 1 left out. */
function generator(degree) {
  const poly = new Array(degree).fill(0);
  poly[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i += 1) {
    for (let j = 0; j < degree; j += 1) {
      poly[j] = gfMultiply(poly[j], root) ^ (j + 1 < degree ? poly[j + 1] : 0);
    }
    root = gfMultiply(root, 2);
  }
  return poly;
}

/** The Reed-Solomon error-correction codewords of one block: the remainder of data(x)·x^n by the generator. */
function errorCorrection(data, degree) {
  const poly = generator(degree);
  const remainder = new Array(degree).fill(0);
  for (const byte of data) {
    const factor = byte ^ remainder.shift();
    remainder.push(0);
    poly.forEach((coefficient, i) => {
      remainder[i] ^= gfMultiply(coefficient, factor);
    });
  }
  return remainder;
}

/** Split the data into the version's blocks, add each block's error correction, interleave them. */
function interleaved(data, version) {
  const [, ecPerBlock, blocks] = VERSIONS[version];
  const size = data.length / blocks; // every block has the same length at level M, versions 1-6
  const parts = Array.from({ length: blocks }, (_, b) => data.slice(b * size, (b + 1) * size));
  const corrections = parts.map((part) => errorCorrection(part, ecPerBlock));
  const out = [];
  for (let i = 0; i < size; i += 1) for (const part of parts) out.push(part[i]);
  for (let i = 0; i < ecPerBlock; i += 1) for (const correction of corrections) out.push(correction[i]);
  return out;
}

/** An empty matrix of `size`, with the function patterns drawn and reserved (format areas too). */
function functionPatterns(version) {
  const size = 17 + 4 * version;
  const dark = Array.from({ length: size }, () => new Array(size).fill(false));
  const reserved = Array.from({ length: size }, () => new Array(size).fill(false));
  const set = (r, c, value) => {
    dark[r][c] = value;
    reserved[r][c] = true;
  };
  for (let i = 0; i < size; i += 1) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  for (const [top, left] of [[3, 3], [3, size - 4], [size - 4, 3]]) {
    for (let dr = -4; dr <= 4; dr += 1) {
      for (let dc = -4; dc <= 4; dc += 1) {
        const r = top + dr;
        const c = left + dc;
        const ring = Math.max(Math.abs(dr), Math.abs(dc));
        if (r >= 0 && r < size && c >= 0 && c < size) set(r, c, ring !== 2 && ring !== 4);
      }
    }
  }
  if (version >= 2) {
    const centre = size - 7;
    for (let dr = -2; dr <= 2; dr += 1) {
      for (let dc = -2; dc <= 2; dc += 1) set(centre + dr, centre + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
    }
  }
  drawFormat(dark, reserved, 0); // reserves the format areas (and draws the dark module)
  return { size, dark, reserved };
}

/** The 15 format bits of level M with `mask`: 5 data bits, a BCH(15,5) remainder, XOR 101010000010010. */
function formatBits(mask) {
  const data = (FORMAT_M << 3) | mask;
  let remainder = data;
  for (let i = 0; i < 10; i += 1) remainder = (remainder << 1) ^ ((remainder >>> 9) * 0x537);
  return ((data << 10) | remainder) ^ 0x5412;
}

/** Write the format bits twice (around the top-left finder; split by the other two) and the dark module. */
function drawFormat(dark, reserved, mask) {
  const size = dark.length;
  const bits = formatBits(mask);
  const set = (r, c, i) => {
    dark[r][c] = ((bits >>> i) & 1) === 1;
    reserved[r][c] = true;
  };
  for (let i = 0; i <= 5; i += 1) set(i, 8, i);
  set(7, 8, 6);
  set(8, 8, 7);
  set(8, 7, 8);
  for (let i = 9; i < 15; i += 1) set(8, 14 - i, i);
  for (let i = 0; i < 8; i += 1) set(8, size - 1 - i, i);
  for (let i = 8; i < 15; i += 1) set(size - 15 + i, 8, i);
  dark[size - 8][8] = true;
  reserved[size - 8][8] = true;
}

/** Lay the codewords' bits in the zigzag: two columns at a time from the right, up then down. */
function placeData(matrix, codewords) {
  const { size, dark, reserved } = matrix;
  let bit = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5; // the vertical timing pattern's column is skipped
    const upward = ((right + 1) & 2) === 0;
    for (let step = 0; step < size; step += 1) {
      const r = upward ? size - 1 - step : step;
      for (const c of [right, right - 1]) {
        if (reserved[r][c]) continue;
        dark[r][c] = bit < codewords.length * 8 && ((codewords[bit >>> 3] >>> (7 - (bit & 7))) & 1) === 1;
        bit += 1;
      }
    }
  }
}

/** The matrix with `mask` applied to every data module, and its format bits. */
function masked(matrix, mask) {
  const { size, reserved } = matrix;
  const dark = matrix.dark.map((row, r) => row.map((value, c) => (reserved[r][c] ? value : value !== MASKS[mask](r, c))));
  drawFormat(dark, reserved.map((row) => [...row]), mask);
  return { size, dark, mask };
}

/**
 * Rule 1 (runs of 5+ alike: 3 + length - 5) and rule 3 (a 1:1:3:1:1 finder-alike beside 4 light modules,
 * the margin counting as light: 40) on one row or column.
 */
function linePenalty(line) {
  let penalty = 0;
  let run = 1;
  for (let i = 1; i <= line.length; i += 1) {
    if (i < line.length && line[i] === line[i - 1]) run += 1;
    else {
      if (run >= 5) penalty += run - 2;
      run = 1;
    }
  }
  const text = `0000${line.map((value) => (value ? "1" : "0")).join("")}0000`; // the margin is light
  for (let at = text.indexOf("1011101"); at !== -1; ) {
    const besideLight = text.slice(at - 4, at) === "0000" || text.slice(at + 7, at + 11) === "0000";
    if (besideLight) penalty += 40;
    at = text.indexOf("1011101", at + (besideLight ? 7 : 4));
  }
  return penalty;
}

/** The mask penalty of ISO/IEC 18004 section 7.8.3: the lower, the easier to scan. */
function penalty(dark) {
  const size = dark.length;
  let total = 0;
  for (let i = 0; i < size; i += 1) {
    total += linePenalty(dark[i]);
    total += linePenalty(dark.map((row) => row[i]));
  }
  let darkCount = 0;
  for (let r = 0; r < size; r += 1) {
    for (let c = 0; c < size; c += 1) {
      darkCount += dark[r][c] ? 1 : 0;
      const same = r + 1 < size && c + 1 < size && dark[r][c] === dark[r][c + 1] && dark[r][c] === dark[r + 1][c] && dark[r][c] === dark[r + 1][c + 1];
      if (same) total += 3;
    }
  }
  total += 10 * Math.floor(Math.abs(darkCount * 20 - size * size * 10) / (size * size));
  return total;
}

/**
 * The QR code of `text` at level M, in the smallest version that holds it.
 * @returns {{version: number, mask: number, size: number, dark: boolean[][]}} the modules, `dark[row][column]`
 */
export function qrMatrix(text) {
  const bytes = new TextEncoder().encode(text);
  const version = VERSIONS.findIndex((entry, v) => entry && dataCapacity(v) >= bytes.length + 2);
  if (version < 1) throw new RangeError(`a QR code here holds at most ${dataCapacity(6) - 2} bytes, not ${bytes.length}`);
  const matrix = functionPatterns(version);
  placeData(matrix, interleaved(dataCodewords(bytes, version), version));
  const candidates = MASKS.map((_, mask) => masked(matrix, mask));
  const best = candidates.reduce((a, b) => (penalty(b.dark) < penalty(a.dark) ? b : a));
  return { version, ...best };
}

/** The QR code of `text` as an SVG element (dark modules one path, a 4-module light margin), `label` its name. */
export function qrSvg(text, label) {
  const { size, dark, version, mask } = qrMatrix(text);
  const path = [];
  dark.forEach((row, r) => row.forEach((on, c) => on && path.push(`M${c + 4} ${r + 4}h1v1h-1z`)));
  const full = size + 8;
  const attributes = { viewBox: `0 0 ${full} ${full}`, role: "img", "aria-label": label, "shape-rendering": "crispEdges" };
  return s(
    "svg",
    { ...attributes, dataset: { qr: text, qrVersion: version, qrMask: mask } },
    s("rect", { width: full, height: full, fill: "#fff" }),
    s("path", { d: path.join(""), fill: "#000" }),
  );
}
