/* A break page's "Repair it" (minigrad_site/pages/repair.py writes it): its block's Run is Check. The run
 * carries the break's slug as `repair`, and the worker runs minigrad.repair.check on the
 * reader's text instead of the text itself (minigrad/runner/worker.py). The verdict comes
 * back as a message (minigrad_page.repaired); the section's data-state says it, and a
 * repair is kept in the reader's progress. */

import { breakProgress, recordBreak } from "./progress.js";
import { TEXT, language } from "./text.js";

/* A break repaired before, in this browser: said above the editor, which shows the broken code
 * again (Check still judges only what is in it). */
export function noteEarlierRepairs(content) {
  for (const section of content.querySelectorAll("[data-mg='repair']")) {
    const when = breakProgress(section.dataset.break).repaired;
    if (!when || section.querySelector(".mg-repair-earlier")) continue;
    const day = new Date(when).toLocaleDateString(language(), { year: "numeric", month: "long", day: "numeric" });
    const note = Object.assign(document.createElement("p"), { className: "mg-repair-earlier", textContent: TEXT[language()].repairedBefore(day) });
    section.prepend(note);
  }
}

export function showRepairVerdict(block, verdict) {
  const section = block.closest("[data-mg='repair']");
  if (!section || !verdict || verdict.slug !== section.dataset.break) return;
  section.dataset.state = verdict.repaired ? "repaired" : "not-repaired";
  recordBreak(verdict.slug, (entry) => {
    entry.checks = (entry.checks || 0) + 1;
    if (verdict.repaired && !entry.repaired) entry.repaired = new Date().toISOString();
  });
}
