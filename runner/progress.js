/* The reader's progress, kept in this browser only (localStorage; nothing is ever sent):
 * per break, the predictions made (answer, confidence, and whether it was right), whether
 * it was repaired, and whether it was found as a mystery. One key, one JSON object, so the
 * progress page can export, import and reset it whole. window.minigradProgress (main.js)
 * gives mystery.js and the progress page the same functions. */

export const KEY = "minigrad:progress";
const VERSION = 1;

function empty() {
  return { version: VERSION, breaks: {} };
}

/* What is stored, or an empty record when nothing (or nothing readable) is. */
export function readProgress() {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) || "null");
    return validProgress(parsed) ? parsed : empty();
  } catch {
    return empty(); // storage blocked (a private window's settings) or unreadable
  }
}

/* Whether `data` has the shape this file writes: what an import accepts. */
export function validProgress(data) {
  if (!data || typeof data !== "object" || data.version !== VERSION) return false;
  const breaks = data.breaks;
  if (!breaks || typeof breaks !== "object" || Array.isArray(breaks)) return false;
  return Object.entries(breaks).every(([slug, entry]) => /^[a-z0-9-]+$/.test(slug) && entry && typeof entry === "object"
    && (entry.predictions === undefined || (typeof entry.predictions === "object" && !Array.isArray(entry.predictions))));
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
