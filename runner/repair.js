/* A break page's "Repair it" (hooks/repair.py writes it): its block's Run is Check. The run
 * carries the break's slug as `repair`, and the worker runs minigrad.repair.check on the
 * reader's text instead of the text itself (minigrad/runner/worker.py). The verdict comes
 * back as a message (minigrad_page.repaired); the section's data-state says it, and a
 * repair is kept in the reader's progress. */

import { recordBreak } from "./progress.js";

export function showRepairVerdict(block, verdict) {
  const section = block.closest("[data-mg='repair']");
  if (!section || !verdict || verdict.slug !== section.dataset.break) return;
  section.dataset.state = verdict.repaired ? "repaired" : "not-repaired";
  recordBreak(verdict.slug, (entry) => {
    entry.checks = (entry.checks || 0) + 1;
    if (verdict.repaired && !entry.repaired) entry.repaired = new Date().toISOString();
  });
}
