/* minigrad breaks: a code editor for a page's Python block.
 *
 * Bundled with CodeMirror from node_modules into the site's
 * assets/minigrad/editor.bundle.js at build time (minigrad_site/build/minify_js.py;
 * nothing generated is committed). runner.js loads the bundle only
 * when a reader first focuses, presses a key or a pointer on a block's code,
 * then calls window.minigradEditor.attach(code, {onRun, onChange, storageKey}).
 *
 * CodeMirror 6 does the editing (Python highlighting that follows typing,
 * indentation after ':', Tab indents, Escape then Tab leaves: its documented
 * escape hatch, https://codemirror.net/examples/tab/). What is ours: the
 * theme's colours (Material's --md-code-hl-* variables, see editor.css), the
 * visit's copy of edits in sessionStorage, and Ctrl/Cmd+Enter to run.
 */
import { EditorState } from "@codemirror/state";
import { EditorView, keymap, drawSelection } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { python } from "@codemirror/lang-python";
import { classHighlighter } from "@lezer/highlight";
import { fill, pageWords } from "../words.js";

const MAC = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
let hints = 0;

function words() {
  const w = pageWords("editor"); // minigrad/words/<lang>.toml, page_scripts.editor
  return { ...w, hint: fill(w.hint, { mod: MAC ? "⌘" : "Ctrl" }) };
}

/* sessionStorage can refuse (privacy modes, quota): editing then still works,
 * only the copy for the visit is lost. */
function load(key) {
  try {
    return key ? sessionStorage.getItem(key) : null;
  } catch {
    return null;
  }
}

function store(key, text, original) {
  if (!key) return;
  try {
    if (text === original) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, text);
  } catch {
    /* see load() */
  }
}

/* Where the DOM selection sits inside `code`, as text offsets: a click or a
 * drag made before the editor loaded lands at the same place in the editor. */
function offsetsIn(code) {
  const selection = document.getSelection();
  if (!selection || !selection.rangeCount) return null;
  const at = (node, offset) => {
    if (!code.contains(node)) return null;
    const range = document.createRange();
    range.setStart(code, 0);
    range.setEnd(node, offset);
    return range.toString().length;
  };
  const anchor = at(selection.anchorNode, selection.anchorOffset);
  const head = at(selection.focusNode, selection.focusOffset);
  return anchor === null || head === null ? null : { anchor, head };
}

/**
 * Replace a block's <code> view by an editor, in place.
 *
 * @param {HTMLElement} code the block's <code> (kept, hidden, its text kept
 *   equal to the editor's so Material's copy button copies the edit)
 * @param {{onRun?: () => void, onChange?: (text: string) => void, storageKey?: string}} options
 *   (onChange: after every edit, with the new text)
 * @returns {{getText(): string, setText(text: string): void, view: EditorView}}
 */
function attach(code, { onRun, onChange, storageKey } = {}) {
  const original = code.textContent.replace(/\n$/, "");
  const stored = load(storageKey);
  const t = words();
  const hadFocus = document.activeElement === code;
  const selected = offsetsIn(code);
  const hintId = `mg-editor-hint-${++hints}`;

  const run = () => {
    if (onRun) onRun();
    return true;
  };
  const state = EditorState.create({
    doc: stored ?? original,
    extensions: [
      keymap.of([{ key: "Mod-Enter", run, preventDefault: true }]), // before defaultKeymap's Mod-Enter
      history(),
      drawSelection(),
      indentOnInput(),
      bracketMatching(),
      indentUnit.of("    "),
      python(),
      syntaxHighlighting(classHighlighter), // tok-* classes, coloured by editor.css
      keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
      // tabindex: lines scroll sideways now (never wrapped), and axe asks a scrollable region to hold
      // something focusable; the content is (contenteditable), this says so to axe, same tab order.
      EditorView.contentAttributes.of({ "aria-label": t.label, "aria-describedby": hintId, tabindex: "0" }),
      EditorView.updateListener.of((update) => {
        if (!update.docChanged) return;
        const text = update.state.doc.toString();
        code.textContent = text + "\n";
        store(storageKey, text, original);
        if (onChange) onChange(text);
      }),
    ],
  });
  const view = new EditorView({ state });
  const hint = document.createElement("div");
  hint.className = "mg-editor-hint";
  hint.id = hintId;
  hint.setAttribute("aria-hidden", "true"); // read through aria-describedby, not twice
  hint.textContent = t.hint;
  view.dom.append(hint);

  code.after(view.dom);
  code.hidden = true;
  code.removeAttribute("tabindex");
  if (stored !== null) code.textContent = stored + "\n";

  if (selected && stored === null) {
    const clamp = (n) => Math.min(n, state.doc.length);
    view.dispatch({ selection: { anchor: clamp(selected.anchor), head: clamp(selected.head) } });
  }
  if (hadFocus || (selected && stored === null)) view.focus();

  return {
    view,
    getText: () => view.state.doc.toString(),
    setText: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
  };
}

window.minigradEditor = { attach };
