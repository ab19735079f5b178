/* Small fixes to Material's own markup, applied on every page. */

import { TEXT, language } from "./text.js";

export function labelSearchDialog() {
  // Material's search dialog has no accessible name (axe: aria-dialog-name).
  const dialog = document.querySelector(".md-search[role=dialog]");
  if (dialog && !dialog.hasAttribute("aria-label")) dialog.setAttribute("aria-label", TEXT[language()].searchDialog);
}

/* A code block wider than the screen (a diff or an output, on a phone) scrolls sideways: it
 * takes keyboard focus so it can be scrolled without a pointer (axe: scrollable-region-focusable).
 * Checked on each page, on resize and when a folded block opens; only blocks that overflow. */
export function focusableScrollers() {
  for (const code of document.querySelectorAll(".md-typeset pre > code:not([tabindex])")) {
    if (code.scrollWidth > code.clientWidth) code.tabIndex = 0;
  }
}

let resizing = null;
window.addEventListener("resize", () => { clearTimeout(resizing); resizing = setTimeout(focusableScrollers, 200); });
document.addEventListener("toggle", (event) => { if (event.target.open) focusableScrollers(); }, true);
