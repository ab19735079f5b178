/* minigrad breaks: run the page's Python blocks in the browser.
 *
 * The entry point of runner.js, which minigrad_site/build/minify_js.py bundles from these
 * modules (one concern each) into one classic script. Everything per page runs
 * inside Material's document$ (idempotent), so instant navigation keeps one
 * Python worker for the visit. Nothing of Pyodide loads until the reader shows
 * intent (pointer or focus on a Run button). Output is always text, never HTML.
 */

import { attach } from "./block.js";
import { attachFold } from "./fold.js";
import { fixLanguageSwitcher, loadOtherLanguagesFully } from "./languages.js";
import { focusableScrollers, labelSearchDialog } from "./patches.js";
import { attachPredictions } from "./prediction.js";
import { breakProgress, needsReview, recordBreak } from "./progress.js";
import { noteEarlierRepairs } from "./repair.js";
import { showEngineOutput, showLinks } from "./reports.js";
import { runtime } from "./runtime.js";
import { forgetSharedCode, linkHasCode, sharedCode } from "./share.js";
import { TEXT } from "./text.js";
import { showVerdict } from "./verdict.js";

window.minigradRunner = { runtime, showLinks, showEngineOutput, showVerdict, TEXT }; // doctor-folder.js
// mystery.js: the reader's progress, in this browser only (the progress page bundles progress.js itself)
window.minigradProgress = { of: breakProgress, record: recordBreak, needsReview };

/* The page's Python blocks, in order: their indexes are the build's data-block. */
function pageBlocks() {
  const content = document.querySelector(".md-content") || document.body;
  return [...content.querySelectorAll("div.language-python.highlight")];
}

function enhance() {
  const content = document.querySelector(".md-content") || document.body;
  const all = pageBlocks();
  const page = content.querySelector(".mg-page");
  const slug = page ? page.dataset.minigradBreak : "";
  all.forEach((block, index) => {
    if (block.dataset.mgReady || block.dataset.notest) return;
    block.dataset.mgReady = "1";
    attach(all, index, block.dataset.break || slug); // a block's own break (the home page's), else the page's
  });
  attachPredictions(content);
  attachFold(content, slug); // after attach: a folded section's runner panels fold with it
  noteEarlierRepairs(content);
  restoreShared(all);
}

/* A link made by a block's "Copy link": its code goes back into its block. */
async function restoreShared(all) {
  if (!linkHasCode()) return; // every page load passes here: nothing to read, nothing done
  const found = await sharedCode(all.map((b) => b.mgOriginal ?? b.querySelector("code").textContent.replace(/\n$/, "")));
  const target = found && all[found.index];
  if (!target || !target.mgShared) return;
  target.mgShared(found);
  if (!found.problem) forgetSharedCode(); // kept when it could not be read: nothing of the reader's is lost
}

function onPage() {
  if (window.__minigradRuntime) window.__minigradRuntime.prune();
  enhance();
  fixLanguageSwitcher();
  labelSearchDialog();
  focusableScrollers();
}

loadOtherLanguagesFully();
if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(onPage);
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", onPage);
} else {
  onPage();
}
window.addEventListener("hashchange", fixLanguageSwitcher);
window.addEventListener("hashchange", () => restoreShared(pageBlocks())); // a link pasted into its own page's address bar
