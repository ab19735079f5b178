/* The progress page (minigrad_site/pages/progress.py renders its list and tools; this fills them).
 *
 * Every break's line says what this browser's record holds for it: predictions and how they
 * went, a repair, a mystery found. Export saves the record as a file (a download made here:
 * nothing is sent); Import reads one back and merges it with what is here (the file is
 * checked whole first: a file that is not a record changes nothing; a break this site does not
 * have is set aside and named, not stored); Reset erases it after a
 * second, explicit press. Bundled on its own by minigrad_site/build/minify_js.py and loaded by this page
 * only; instant navigation evaluates it again, hence the guard. */

import { KEY, mergeProgress, readProgress, resetProgress, summarize, needsReview, validProgress, writeProgress } from "./progress.js";
import { fill as fillIn, pageWords } from "./words.js";

const MAX_BYTES = 1_000_000; // a record of every break is a few kB: more is not ours

/* minigrad/words/<lang>.toml, page_scripts.progress_page; the words that take values as functions. */
function progressWords() {
  const w = pageWords("progress_page");
  const counted = (key, n, values) => fillIn(w[`${key}_${n === 1 ? "one" : "many"}`], { n, ...values });
  return {
    ...w,
    predicted: (n, of) => fillIn(w.predicted, { n, of }),
    one: (n, verdict, confidence) => fillIn(w.one, { n, verdict, confidence }),
    checked: (n) => fillIn(w.checked, { n }),
    summary: (s) => fillIn(w.summary, s),
    saved: (name, n) => counted("saved", n, { name }),
    imported: (name, n) => counted("imported", n, { name }),
    setAside: (slugs, n) => counted("setAside", n, { slugs }),
    notOurs: (name, why) => fillIn(w.notOurs, { name, why }),
  };
}

/* One break's line and data attributes (the tests read the attributes, the reader the text). */
function describe(entry, questions, w) {
  const s = summarize(entry);
  const parts = [];
  if (s.predicted) {
    const each = Object.entries(entry.predictions).filter(([, p]) => p && p.answer).sort(([a], [b]) => a - b)
      .map(([n, p]) => w.one(n, w.verdict[p.verdict], w.confidence[p.confidence]));
    parts.push(`${w.predicted(s.predicted, Math.max(questions, s.predicted))}: ${each.join(", ")}`);
  }
  if (s.unfolded) parts.push(w.unfolded);
  if (s.repaired) parts.push(w.repaired);
  else if (entry.checks) parts.push(w.checked(entry.checks));
  if (s.found) parts.push(w.found);
  else if (s.revealed) parts.push(w.revealed);
  const predicted = !s.predicted ? "none" : s.wrong ? "wrong" : "right";
  return {
    text: parts.length ? parts.join(" · ") : w.notStarted,
    data: { predicted, repaired: s.repaired ? "yes" : "no", mystery: s.found ? "found" : s.revealed ? "revealed" : "no",
      unfolded: s.unfolded ? "yes" : "no", review: needsReview(entry) ? "yes" : "no" },
  };
}

function fill(root, w) {
  const data = readProgress();
  const total = { total: 0, predicted: 0, wrong: 0, repaired: 0, found: 0 };
  for (const item of root.querySelectorAll("[data-mg='progress'] li[data-break]")) {
    const entry = data.breaks[item.dataset.break] || {};
    const { text, data: attributes } = describe(entry, Number(item.dataset.questions) || 0, w);
    item.querySelector(".mg-progress-state").textContent = text;
    Object.assign(item.dataset, attributes);
    total.total += 1;
    total.predicted += attributes.predicted !== "none";
    total.wrong += attributes.predicted === "wrong";
    total.repaired += attributes.repaired === "yes";
    total.found += attributes.mystery === "found";
  }
  root.querySelector(".mg-progress-summary").textContent = w.summary(total);
}

function exportRecord(root, w, say) {
  const data = readProgress();
  const name = `minigrad-progress-${new Date().toISOString().slice(0, 10)}.json`;
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name, hidden: true });
  root.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  say(w.saved(name, Object.keys(data.breaks).length));
}

async function importFile(file, w, say, known) {
  const refuse = (why) => say(w.notOurs(file.name, why));
  if (file.size > MAX_BYTES) return refuse(w.tooBig);
  let text;
  try { text = await file.text(); } catch { return refuse(w.unreadable); }
  let data;
  try { data = JSON.parse(text); } catch { return refuse(w.notJson); }
  if (!validProgress(data)) return refuse(w.wrongShape);
  // A break this site does not have (renamed, removed, another site's) is set aside, named, not stored.
  const unknown = Object.keys(data.breaks).filter((slug) => !known.has(slug));
  const kept = { ...data, breaks: Object.fromEntries(Object.entries(data.breaks).filter(([slug]) => known.has(slug))) };
  if (!writeProgress(mergeProgress(readProgress(), kept))) return say(w.storageBlocked);
  say(w.imported(file.name, Object.keys(kept.breaks).length) + (unknown.length ? ` ${w.setAside(unknown.sort().join(", "), unknown.length)}` : ""));
}

function setUp(root) {
  const w = progressWords();
  const message = root.querySelector(".mg-progress-message");
  const say = (text) => { message.textContent = text; };
  const confirm = root.querySelector(".mg-progress-confirm");
  const reset = root.querySelector(".mg-progress-reset");
  const file = root.querySelector(".mg-progress-file");
  root.querySelector(".mg-progress-export").addEventListener("click", () => exportRecord(root, w, say));
  root.querySelector(".mg-progress-import").addEventListener("click", () => file.click());
  file.addEventListener("change", async () => {
    const chosen = file.files[0];
    file.value = ""; // the same file can be chosen again
    if (chosen) await importFile(chosen, w, say, new Set([...root.querySelectorAll("[data-mg='progress'] li[data-break]")].map((li) => li.dataset.break)));
    fill(root, w);
  });
  reset.addEventListener("click", () => {
    confirm.hidden = false;
    confirm.querySelector(".mg-progress-erase").focus();
  });
  const close = (text) => { confirm.hidden = true; say(text); reset.focus(); };
  confirm.querySelector(".mg-progress-erase").addEventListener("click", () => { resetProgress(); close(w.erased); fill(root, w); });
  confirm.querySelector(".mg-progress-keep").addEventListener("click", () => close(w.kept));
  confirm.addEventListener("keydown", (event) => { if (event.key === "Escape") close(w.kept); });
  fill(root, w);
}

function onPage() {
  for (const root of document.querySelectorAll(".mg-record:not([data-mg-ready])")) {
    root.dataset.mgReady = "1";
    setUp(root);
  }
}

if (!window.minigradProgressPage) {
  window.minigradProgressPage = true;
  // Another tab (a break page) changed the record: the list follows.
  window.addEventListener("storage", (event) => {
    if (event.key !== KEY && event.key !== null) return;
    for (const root of document.querySelectorAll(".mg-record[data-mg-ready]")) fill(root, progressWords());
  });
  const start = () => (window.document$ && window.document$.subscribe ? window.document$.subscribe(onPage) : onPage());
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
