/* Small fixes to Material's own markup, applied on every page. */

import { language } from "./text.js";

export function labelSearchDialog() {
  // Material's search dialog has no accessible name (axe: aria-dialog-name).
  const dialog = document.querySelector(".md-search[role=dialog]");
  if (dialog && !dialog.hasAttribute("aria-label")) dialog.setAttribute("aria-label", language() === "es" ? "Buscar" : "Search");
}
