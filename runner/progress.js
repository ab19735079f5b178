/* The reader's progress, kept in this browser only (localStorage; nothing is ever sent):
 * per break, the predictions made (answer, confidence, and whether the page graded it right), whether
 * its answers were unfolded before every prediction was made (fold.js), whether it was repaired,
 * and whether it was found as a mystery. One key, one JSON object, so the
 * progress page can export, import and reset it whole (it bundles this file; mystery.js reads
 * it through window.minigradProgress, main.js). */

export const KEY = "minigrad:progress";
const VERSION = 1;

function empty() {
  return { version: VERSION, breaks: {} };
}

/* What is stored, or an empty record when nothing (or nothing readable) is. An entry this
 * version cannot read is left out, not the whole record with it. */
export function readProgress() {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) || "null");
    if (!isObject(parsed) || parsed.version !== VERSION || !isObject(parsed.breaks)) return empty();
    const kept = Object.entries(parsed.breaks).filter(([slug, entry]) => validBreak(slug, entry));
    return { version: VERSION, breaks: Object.fromEntries(kept) };
  } catch {
    return empty(); // storage blocked (a private window's settings) or unreadable
  }
}

const CONFIDENCES = ["sure", "unsure", "guessing"];
const VERDICTS = ["right", "wrong"];
const UNFOLDED_BY = ["asked", "ran"]; // "Show me anyway", or a run of the broken code
const isTime = (value) => value === undefined || (typeof value === "string" && value.length <= 40);
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

function validPrediction(p) {
  return isObject(p) && typeof p.answer === "string" && p.answer.length <= 300 && CONFIDENCES.includes(p.confidence)
    && VERDICTS.includes(p.verdict) && isTime(p.at) && (p.choice === undefined || Number.isInteger(p.choice));
}

function validEntry(entry) {
  return isObject(entry)
    && (entry.predictions === undefined || (isObject(entry.predictions)
      && Object.entries(entry.predictions).every(([n, p]) => /^\d{1,2}$/.test(n) && validPrediction(p))))
    && isTime(entry.repaired) && (entry.checks === undefined || Number.isInteger(entry.checks))
    && (entry.mystery === undefined || (isObject(entry.mystery) && isTime(entry.mystery.found) && isTime(entry.mystery.revealed)))
    && (entry.unfolded === undefined || (isObject(entry.unfolded) && isTime(entry.unfolded.at) && UNFOLDED_BY.includes(entry.unfolded.by)));
}

const validBreak = (slug, entry) => /^[a-z0-9-]{1,80}$/.test(slug) && validEntry(entry);

/* Whether `data` has the shape this file writes: what an import accepts, whole or not at all. */
export function validProgress(data) {
  if (!isObject(data) || data.version !== VERSION || !isObject(data.breaks)) return false;
  return Object.entries(data.breaks).every(([slug, entry]) => validBreak(slug, entry));
}

const earliest = (a, b) => (a && b ? (a < b ? a : b) : a || b);

/* Two records as one (an import into a browser that has progress of its own): per question
 * the later prediction, the earliest repair, mystery and unfold, the most checks. Nothing is lost. */
export function mergeProgress(mine, theirs) {
  const out = empty();
  for (const slug of new Set([...Object.keys(mine.breaks), ...Object.keys(theirs.breaks)])) {
    const a = mine.breaks[slug] || {}, b = theirs.breaks[slug] || {};
    const entry = {};
    const predictions = { ...a.predictions };
    for (const [n, p] of Object.entries(b.predictions || {})) {
      if (!predictions[n] || (p.at || "") > (predictions[n].at || "")) predictions[n] = p;
    }
    if (Object.keys(predictions).length) entry.predictions = predictions;
    const repaired = earliest(a.repaired, b.repaired);
    if (repaired) entry.repaired = repaired;
    if (a.checks || b.checks) entry.checks = Math.max(a.checks || 0, b.checks || 0);
    const found = earliest(a.mystery?.found, b.mystery?.found), revealed = earliest(a.mystery?.revealed, b.mystery?.revealed);
    if (found || revealed) entry.mystery = { ...(found && { found }), ...(revealed && { revealed }) };
    const unfolded = [a.unfolded, b.unfolded].filter(Boolean).sort((x, y) => ((x.at || "") < (y.at || "") ? -1 : 1))[0];
    if (unfolded) entry.unfolded = unfolded; // the first time counts: it was seen before predicting
    out.breaks[slug] = entry;
  }
  return out;
}

/* What one break's entry adds up to: the progress page's line, the mystery's review draw. */
export function summarize(entry = {}) {
  const made = Object.values(entry.predictions || {}).filter((p) => p && p.answer);
  const count = (verdict) => made.filter((p) => p.verdict === verdict).length;
  return {
    predicted: made.length, right: count("right"), wrong: count("wrong"),
    unfolded: Boolean(entry.unfolded), repaired: Boolean(entry.repaired), found: Boolean(entry.mystery?.found), revealed: Boolean(entry.mystery?.revealed),
  };
}

/* To review: a break predicted wrong, or not repaired yet. */
export function needsReview(entry) {
  const s = summarize(entry);
  return s.wrong > 0 || !s.repaired;
}

export function writeProgress(data) {
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    return false; // full or blocked: the page goes on, unrecorded
  }
  window.dispatchEvent(new CustomEvent("mg-progress"));
  return true;
}

/* One break's entry, changed by `change(entry)` and stored. */
export function recordBreak(slug, change) {
  const data = readProgress();
  const entry = data.breaks[slug] || {};
  change(entry);
  data.breaks[slug] = entry;
  return writeProgress(data);
}

export function breakProgress(slug) {
  return readProgress().breaks[slug] || {};
}

export function resetProgress() {
  try { localStorage.removeItem(KEY); } catch { return false; }
  window.dispatchEvent(new CustomEvent("mg-progress"));
  return true;
}
