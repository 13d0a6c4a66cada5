/**
 * The playground's code editor: CodeMirror 6 with what a Python program needs, nothing more (no
 * autocompletion, search or lint panels: fewer bytes on a cold visit). build.py bundles this module
 * with esbuild into one self-hosted ES module, dist/play/editor.mjs (site_build/play.py); the page
 * imports `createEditor` from there.
 *
 * - Python highlighting (@codemirror/lang-python) with colours that are CSS variables (--code-*,
 *   static/play/play.css), so the page's light and dark themes (prefers-color-scheme) apply as they
 *   do everywhere else;
 * - line numbers, undo history, bracket matching, the active line;
 * - keyboard: Tab indents (indentWithTab); a keyboard user leaves the editor with Escape then Tab
 *   (CodeMirror's tab-focus mode; Ctrl-M / Shift-Alt-M toggles it for good), which the page says;
 * - `markProblem(line, column)` underlines the line of an error (the Python side reports it);
 *   `markHere(line)` marks the line where the program's script waits (stepping through it).
 *
 * The editor lives in a shadow root of `parent`: CodeMirror injects its styles as a `<style>` element
 * into a document (which the site's `style-src 'self'` forbids) but as constructed style sheets into a
 * shadow root (which CSP allows). The page's CSS variables still reach it (custom properties inherit).
 */

import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { EditorState, StateEffect, StateField } from "@codemirror/state";
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { tags } from "@lezer/highlight";

/** Token colours by CSS variable: the page's stylesheet decides them per theme. */
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.moduleKeyword], color: "var(--code-keyword)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--code-string)" },
  { tag: [tags.number, tags.bool, tags.null], color: "var(--code-number)" },
  { tag: [tags.comment], color: "var(--code-comment)", fontStyle: "italic" },
  { tag: [tags.function(tags.definition(tags.variableName)), tags.definition(tags.className)], color: "var(--code-definition)" },
  { tag: [tags.operator, tags.punctuation], color: "var(--code-punctuation)" },
]);

/** The editor's frame in the page's own colours (CSS variables of static/style.css). */
const theme = EditorView.theme({
  "&": {
    color: "var(--fg)",
    backgroundColor: "var(--panel)",
    border: "1px solid var(--line)",
    borderRadius: "6px",
    minHeight: "24rem",
    maxHeight: "70vh",
  },
  ".cm-scroller": { overflow: "auto" },
  "&.cm-focused": { outline: "2px solid var(--accent)", outlineOffset: "1px" },
  ".cm-content": { fontFamily: "var(--mono, monospace)", caretColor: "var(--fg)" },
  ".cm-gutters": { backgroundColor: "var(--soft, var(--panel))", color: "var(--muted)", borderRight: "1px solid var(--line)" },
  ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "var(--code-active-line)" },
  ".cm-problem-line": { backgroundColor: "var(--code-problem-line)", textDecoration: "underline wavy var(--bad)" },
  ".cm-here-line": { backgroundColor: "var(--code-here-line)", boxShadow: "inset 3px 0 var(--accent, #2f6fd6)" },
});

/** A marked line (a problem the Python side reported, the script's call that waits), kept until the
 * program changes or another mark replaces it. */
function markedLine(className, attribute) {
  const set = StateEffect.define();
  const field = StateField.define({
    create: () => Decoration.none,
    update(marks, transaction) {
      if (transaction.docChanged) return Decoration.none;
      for (const effect of transaction.effects) if (effect.is(set)) marks = effect.value;
      return marks;
    },
    provide: (marked) => EditorView.decorations.from(marked),
  });
  /** The effects that mark line `line` of `view` (null or out of range: none), scrolled into view. */
  function effects(view, line) {
    if (line == null || line < 1 || line > view.state.doc.lines) return [set.of(Decoration.none)];
    const at = view.state.doc.line(line);
    const mark = Decoration.line({ class: className, attributes: { [attribute]: String(line) } });
    return [set.of(Decoration.set([mark.range(at.from)])), EditorView.scrollIntoView(at.from, { y: "center" })];
  }
  return { field, effects };
}

const problemLine = markedLine("cm-problem-line", "data-problem-line");
const hereLine = markedLine("cm-here-line", "data-here-line");

/**
 * Make an editor in `parent`.
 * @param {HTMLElement} parent the element that hosts the editor's shadow root
 * @param {{doc?: string, label: string, describedBy?: string, onChange?: (doc: string) => void}} options
 */
export function createEditor(parent, { doc = "", label, describedBy, onChange }) {
  const attributes = { "aria-label": label, ...(describedBy ? { "aria-describedby": describedBy } : {}) };
  const root = parent.attachShadow({ mode: "open" });
  const view = new EditorView({
    parent: root,
    root,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        python(),
        syntaxHighlighting(highlight),
        theme,
        problemLine.field,
        hereLine.field,
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorView.contentAttributes.of(attributes),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange?.(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    view,
    /** The program as text. */
    getDoc: () => view.state.doc.toString(),
    /** Replace the whole program (a gallery pick, a shared link). */
    setDoc(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    /** Mark line `line` (1-based) and put the cursor at `column`; `null` clears the mark. */
    markProblem(line, column = 1) {
      const effects = problemLine.effects(view, line);
      if (effects.length === 1) return view.dispatch({ effects });
      const at = view.state.doc.line(line);
      view.dispatch({ effects, selection: { anchor: Math.min(at.from + Math.max(column - 1, 0), at.to) } });
    },
    /** Mark line `line` (1-based) as where the program's script waits (the cursor stays); `null` clears it. */
    markHere(line) {
      view.dispatch({ effects: hereLine.effects(view, line) });
    },
    focus: () => view.focus(),
  };
}
