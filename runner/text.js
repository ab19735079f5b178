/* What the runner says on the page, in the page's language (English or Spanish). */

import { fill, pageWords } from "./words.js";

/* TEXT[language()]: the runner's words (minigrad/words/<lang>.toml, page_scripts.runner, in the
 * page as JSON), with the few that take a value as functions. The page holds its own language's. */
function runnerWords() {
  const w = pageWords("runner");
  return {
    ...w,
    amount: (loaded, total) => (total ? fill(w.amount_of, { loaded: mb(loaded), total: mb(total) }) : fill(w.amount, { loaded: mb(loaded) })),
    exited: (code) => fill(w.exited, { code }),
    lines: (n) => (n === 0 ? w.lines_none : n === 1 ? w.lines_one : fill(w.lines_many, { n })),
    quoted: (text) => fill(w.quoted, { text }),
    repairedBefore: (day) => fill(w.repairedBefore, { day }),
  };
}

export const TEXT = {
  get en() { return runnerWords(); },
  get es() { return runnerWords(); },
};

/* The page's language: its <html lang>, either "en" or "es". */
export function language() {
  return (document.documentElement.lang || "en").slice(0, 2) === "es" ? "es" : "en";
}

export function mb(bytes) {
  return (bytes / 1e6).toLocaleString(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}
