/* Predict before you see. On a break page, what gives an answer away (the outputs with the
 * break applied, the broken picture, the Expected failure mode and Diagnosis sections) stays
 * folded until the reader has committed every prediction of the page, runs the broken code,
 * or asks ("Show me anyway"). The page remembers it in the progress record (progress.js):
 * committed predictions are there already, and an unfold before them is kept as
 * `unfolded: {at, by: "asked" | "ran"}`, which the progress page lists.
 *
 * The HTML holds everything (no script, search, print, CI): this script only marks the parts
 * (.mg-fold-part) and puts the class mg-folded on the page's content; the CSS hides the parts
 * under that class, on screen only. One setting for the whole site, kept in this browser
 * (localStorage `minigrad:fold` = "off"), turns the fold off for a reader who would rather
 * read straight through; the checkbox in each break page's prediction section sets it. */

import { breakProgress, recordBreak } from "./progress.js";
import { TEXT, language } from "./text.js";

const SETTING = "minigrad:fold";
const SECTIONS = ["expected-failure-mode", "diagnosis"]; // fixed anchors, the same in both languages
const GIVEAWAYS = "div.output.broken, figure.mg-picture.mg-broken";

let current = null; // this page's fold: {content, slug, forms}; instant navigation replaces it

/* Whether the reader wants answers folded (the default), on every page of the site. */
export function foldWanted() {
  try { return localStorage.getItem(SETTING) !== "off"; } catch { return true; }
}

function setFoldWanted(on) {
  try {
    if (on) localStorage.removeItem(SETTING);
    else localStorage.setItem(SETTING, "off");
  } catch { /* blocked storage: this page follows the box, the next one folds again */ }
  if (current) current.wanted = on;
  refresh();
}

/* The sections that give an answer away (their headings stay), then the elements elsewhere
 * that do: each folded part gets a note in its place that says so. */
function fold(content, t) {
  let count = 0;
  for (const id of SECTIONS) {
    const heading = content.querySelector(`h2#${id}`);
    if (!heading) continue;
    for (let el = heading.nextElementSibling; el && el.tagName !== "H2"; el = el.nextElementSibling) el.classList.add("mg-fold-part");
    heading.after(note(t.foldedSection));
    count += 1;
  }
  for (const part of content.querySelectorAll(GIVEAWAYS)) {
    if (part.closest(".mg-fold-part")) continue; // inside a folded section already
    part.classList.add("mg-fold-part");
    part.before(note(part.matches("figure") ? t.foldedPicture : t.foldedOutput));
    count += 1;
  }
  return count;
}

function note(text) {
  const t = TEXT[language()];
  const p = Object.assign(document.createElement("p"), { className: "mg-fold-note" });
  const why = Object.assign(document.createElement("span"), { textContent: text });
  const show = Object.assign(document.createElement("button"), { type: "button", className: "md-button mg-fold-show", textContent: t.showAnyway });
  show.addEventListener("click", () => unfold("asked", p));
  p.append(why, " ", show);
  return p;
}

function settingBox(t) {
  const p = Object.assign(document.createElement("p"), { className: "mg-fold-setting" });
  const label = document.createElement("label");
  const box = Object.assign(document.createElement("input"), { type: "checkbox", checked: foldWanted() });
  box.addEventListener("change", () => setFoldWanted(box.checked));
  label.append(box, ` ${t.foldSetting}`);
  p.append(label);
  return p;
}

/* Whether this page's answers are folded now. */
function folded() {
  if (!current || !current.wanted) return false;
  const entry = breakProgress(current.slug);
  if (entry.unfolded) return false;
  const made = entry.predictions || {};
  return !(current.forms.length && current.forms.every((form) => made[form.dataset.question]?.answer));
}

function refresh() {
  if (!current || !current.content.isConnected) return;
  current.content.classList.toggle("mg-folded", folded());
}

/* The reader asked, or ran the broken code: this page's answers open, and stay open. */
function unfold(by, from) {
  if (!current || !folded()) return;
  const at = new Date().toISOString();
  recordBreak(current.slug, (entry) => { entry.unfolded = { at, by }; }); // its "mg-progress" event refreshes
  refresh(); // storage blocked: open for this visit all the same
  if (from) { // the button disappears with its note: focus goes to what it showed
    const shown = from.nextElementSibling;
    if (shown) {
      shown.tabIndex = -1;
      shown.focus({ preventScroll: true });
    }
  }
}

/* block.js: a run of this page's broken code shows what it prints, so the page's answers open. */
export function unfoldAfterBrokenRun(slug) {
  if (current && current.slug === slug) unfold("ran");
}

export function attachFold(content, slug) {
  if (!slug || content.dataset.mgFold) return;
  const t = TEXT[language()];
  content.dataset.mgFold = "1";
  if (!fold(content, t)) return;
  const predictionHeading = content.querySelector("h2#prediction");
  const intro = predictionHeading && predictionHeading.nextElementSibling;
  if (intro) intro.after(settingBox(t));
  current = { content, slug, wanted: foldWanted(), forms: [...content.querySelectorAll("form[data-mg='prediction']")] };
  refresh();
}

window.addEventListener("mg-progress", refresh); // a prediction committed, the record reset
window.addEventListener("storage", (event) => { // another tab: the setting or the record changed
  if (!current) return;
  if (event.key === SETTING || event.key === null) current.wanted = foldWanted();
  refresh();
});
