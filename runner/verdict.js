/* The doctor's verdict, first in a run's output (issue 37 item 12): Python's
 * `minigrad_page.verdict(json)` (report.verdict_of) becomes the verdict sentence,
 * each diagnosis as a link to its break's page with its match and its evidence
 * line, what no break explains, and what to fix first; the report's text, check
 * by check, is folded below it. Links are built from slugs in the page's language
 * and every text of Python's is set as text, never as HTML. A block's run and
 * "Load a folder" (doctor-folder.js) show it alike.
 *
 * On the doctor page a block's run also finds a pasted engine by itself
 * (doctorChain): minigrad.doctor.pasted checks the classes the code defined when
 * the code did not call the doctor, or says which lines to add.
 */

import { LANGUAGE_ROOTS } from "./languages.js";
import { siteRoot } from "./settings.js";
import { language } from "./text.js";
import { fill, pageWords } from "./words.js";

function verdictWords() {
  const w = pageWords("verdict"); // minigrad/words/<lang>.toml, page_scripts.verdict
  return {
    ...w,
    match: (match, explains) => fill(w.match, { match, explains }),
    unexplained: (n) => fill(w.unexplained, { n }),
    near: (n) => fill(w.near, { n }),
  };
}

const SLUG = /^[a-z0-9-]+$/;

function element(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = String(text);
  return e;
}

/* The panel's verdict (null: none, and the report's text unfolded again, as before a run). */
export function showVerdict(panel, verdict) {
  const output = panel.querySelector(".mg-output");
  const folded = panel.querySelector("details.mg-report");
  panel.querySelector(".mg-verdict")?.remove();
  if (folded) folded.replaceWith(output); // the output goes back where it was
  if (!verdict || typeof verdict.verdict !== "string") return;
  const words = verdictWords();
  const root = `${siteRoot()}${LANGUAGE_ROOTS[language()]}breaks/`;
  const section = element("section", "mg-verdict");
  section.setAttribute("aria-label", words.region);
  section.dataset.caught = String(Boolean(verdict.caught || verdict.fix_first));
  section.append(element("p", "mg-verdict-sentence", verdict.verdict));

  const diagnoses = (Array.isArray(verdict.diagnoses) ? verdict.diagnoses : []).filter((d) => d && SLUG.test(d.slug));
  if (diagnoses.length) {
    const list = element("ol", "mg-diagnoses");
    for (const d of diagnoses) {
      const item = element("li");
      const a = element("a", null, typeof d.title === "string" && d.title ? d.title : d.slug);
      a.href = `${root}${d.slug}/`;
      a.dataset.slug = d.slug;
      const match = typeof d.match === "number" ? Math.round(100 * d.match) : 0;
      item.append(a, " ", element("span", "mg-match", `(${words.match(match, Number(d.explains) || 0)})`));
      if (d.evidence) item.append(element("div", "mg-evidence", d.evidence));
      list.append(item);
    }
    section.append(list);
  }
  // What no break explains, then what is near torch's numbers but not equal: a title and its evidence lines.
  for (const [lines, title] of [[verdict.unexplained, words.unexplained], [verdict.near, words.near]]) {
    if (!Array.isArray(lines) || !lines.length) continue;
    section.append(element("p", "mg-unexplained-title", title(lines.length)));
    const list = element("ul", "mg-unexplained");
    for (const line of lines) list.append(element("li", "mg-evidence", line));
    section.append(list);
  }
  const fix = verdict.fix_first;
  if (fix && typeof fix === "object" && fix.trace) { // its message is the verdict's sentence
    section.append(element("pre", "mg-fix-first", fix.trace));
  }

  const details = element("details", "mg-report");
  details.append(element("summary", null, words.details));
  output.replaceWith(details);
  details.append(output);
  details.before(section);
}

/* A block's chain on the doctor page (the page with "Load a folder"): pasted code
 * that does not call the doctor still gets a report. Its lines keep their numbers:
 * one block runs before it, and one line is added after its last. */
export function doctorChain(blocks) {
  if (!document.querySelector(".mg-folder") || !blocks.length) return blocks;
  const last = blocks[blocks.length - 1];
  return [
    { code: "import minigrad.doctor.pasted\nminigrad.doctor.pasted.begin()\n", name: "<doctor>", first_line: 1 },
    ...blocks.slice(0, -1),
    { ...last, code: `${last.code}\n__import__("minigrad.doctor.pasted").doctor.pasted.after(globals())\n` },
  ];
}
