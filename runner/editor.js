import { assetURL } from "./settings.js";

/* ---- the code editor, loaded on intent --------------------------------------
 * editor.bundle.js (CodeMirror; source in runner/editor/codemirror.js) replaces a block's
 * code view when the reader first focuses, presses a key or a pointer on it,
 * or at once where this visit holds an edit of the block (sessionStorage). */

const EDITOR_URL = assetURL("editor.bundle.js");
export const editors = new WeakMap(); // block element -> the editor's {getText, setText}
let editorScript = null;

export function loadEditor() {
  if (window.minigradEditor) return Promise.resolve(window.minigradEditor);
  editorScript ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = EDITOR_URL;
    script.onload = () => resolve(window.minigradEditor);
    script.onerror = () => { editorScript = null; reject(new Error(`could not load ${EDITOR_URL}`)); };
    document.head.append(script);
  });
  return editorScript;
}

export function editKey(index) {
  return `minigrad:edit:${location.pathname}:${index}`;
}

export function storedEdit(key) {
  try { return sessionStorage.getItem(key); } catch { return null; }
}

export function codeOf(all, index) {
  const editor = editors.get(all[index]);
  return editor ? editor.getText() : all[index].querySelector("code").textContent;
}
