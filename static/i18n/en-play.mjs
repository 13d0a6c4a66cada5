/**
 * The playground's words in English (/play: static/play.html, static/play/*.mjs), and the sentences
 * of its Python side (`py.play.<kind>`: lab/playground/problems.py's TEXTS, each problem by kind):
 * part of the `en` catalogue in ./en.mjs.
 */

/** @type {Record<string, string>} */
export const enPlay = {
  "play.title": "Checkpoint Lab: playground",
  "play.heading": "Playground: bring your own graph",
  "play.tagline": "Write or paste a LangGraph program; the lab runs it in your browser and shows every checkpoint.",
  "play.note": "Runs on lab, a LangGraph re-implementation;",
  "play.differsLink": "see what differs",
  "play.nav": "Pages",
  "play.navLab": "The lab",
  "play.program": "Your program",
  "play.gallery": "Gallery",
  "play.galleryPick": "Open a program…",
  "play.run": "Run",
  "play.share": "Share by link",
  "play.shareLink": "Link to this program",
  "play.editorLabel": "Your LangGraph program (Python)",
  "play.keys": "Tab indents. To leave the editor with the keyboard, press Esc, then Tab.",
  "play.instruments": "Instruments",
  "play.notRun": "Nothing has run yet: press Run.",
  "play.notConnected": "The program is ready, but this page's instruments are not connected to the lab's Python yet.",
  "play.fromLink": "This program came from a link. Read it first: nothing runs until you press Run.",
  "play.shareCopied": "The link is copied: it carries the whole program.",
  "play.shareReady": "Copy the link below: it carries the whole program.",
  "play.shareTooLong": "This program is too long to share by link ({size} characters once compressed; a link takes {limit}).",
  "play.linkUnreadable": "The link's program could not be read: the link is damaged or cut short.",
  "play.linkTooLarge": "The link's program is larger than the playground takes ({limit} bytes): it was not opened.",
  "play.differsTitle": "Where lab differs from LangGraph",
  "play.differsIntro": "From the project's README (in English):",
  "py.play.too_large": "The program is {size} bytes; the playground takes programs of up to {limit} bytes.",
  "py.play.syntax": "{error}",
  "py.play.load": "The program raised while loading, at line {line}: {error}",
  "py.play.missing_module":
    "The program imports {module}, which the browser does not have: a program here can use Python's standard library, langgraph (answered by lab) and lab.world. Replace those calls with plain functions.",
  "py.play.network_module":
    "The program imports {module}, which needs the network: a program here runs in the browser with no network and no LLM. Replace those calls with plain functions.",
  "py.play.not_in_lab": "lab does not re-implement {module}; it has {mirrored}.",
  "py.play.no_graph": "The program compiles no graph: build a StateGraph and call its compile() (name it graph).",
  "py.play.not_compiled": "{name} is a StateGraph that is never compiled: add graph = {name}.compile().",
  "py.play.several_graphs": "The program compiles {count} graphs ({names}): name the one to run graph.",
  "py.play.node": "Node {name} raised at line {line}: {error}",
  "py.play.router": "The router {name} raised at line {line}: {error}",
  "py.play.run": "The run failed: {error}",
};
