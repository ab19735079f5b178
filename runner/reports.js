/* What a run adds under its output besides text: links to the pages of the doctor's
 * suspects and what the learner's engine printed. doctor-folder.js uses both too. */

import { LANGUAGE_ROOTS } from "./languages.js";
import { siteRoot } from "./settings.js";
import { TEXT, language } from "./text.js";

/* Links a run asked for (the doctor's suspects, through the worker's
 * `minigrad_page.links`), listed under the output. Built from slugs, in the
 * page's language; Python's text never becomes HTML. */
export function showLinks(panel, links) {
  const old = panel.querySelector(".mg-links");
  if (old) old.remove();
  const linked = new Set([...panel.querySelectorAll(".mg-verdict a[data-slug]")].map((a) => a.dataset.slug)); // not twice
  const valid = (links || []).filter((l) => l && /^[a-z0-9-]+$/.test(l.slug) && !linked.has(l.slug));
  if (!valid.length) return;
  const root = siteRoot();
  const list = document.createElement("ul");
  list.className = "mg-links";
  list.setAttribute("aria-label", TEXT[language()].suspectPages);
  for (const { slug, title, match } of valid) {
    const a = document.createElement("a");
    a.href = `${root}${LANGUAGE_ROOTS[language()]}breaks/${slug}/`;
    a.textContent = typeof title === "string" && title ? title : slug;
    const item = document.createElement("li");
    item.append(a);
    if (typeof match === "number" && match > 0) item.append(` (${Math.round(100 * match)}%)`);
    list.append(item);
  }
  const verdict = panel.querySelector(".mg-verdict"); // the suspects, when no break explains it all: in the verdict
  if (verdict) verdict.append(list);
  else panel.append(list);
}

/* What the learner's engine printed while the doctor checked it: apart from the
 * report, folded, as text (never HTML). */
export function showEngineOutput(panel, text) {
  const old = panel.querySelector(".mg-engine-output");
  if (old) old.remove();
  if (!text) return;
  const details = document.createElement("details");
  details.className = "mg-engine-output";
  const summary = document.createElement("summary");
  summary.textContent = TEXT[language()].enginePrinted;
  const pre = document.createElement("pre");
  pre.textContent = text;
  details.append(summary, pre);
  panel.append(details);
}
