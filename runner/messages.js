/* Every message between the page (runtime.js) and the Python worker (worker/main.js),
 * in one table, as Material types its search worker's messages (SearchMessageType):
 * a message is {type, ...fields}, and `message(type, fields)` makes one, refusing a
 * type or a field the table does not list, so both sides are held to it. Both
 * bundles import this file (minigrad_site/build/minify_js.py): runner.js and worker.js.
 *
 * Runs are handled one at a time, in order; the page queues them and posts the
 * next only after the last one's "done", so Stop can tell whose run it ends. A
 * message with an `id` belongs to that run: the page hands it to the block's
 * handler of the same type, so a new kind of message needs no new routing.
 */

export const TO_WORKER = {
  /* Start Python. Cross-origin isolated only: Stop writes 2 into interruptBuffer, and
   * Python writes the run's id into stopHeard (an Int32Array) when it hears it. */
  boot: ["indexURL", "numpyURL", "wheelURL", "bundleURL", "needsURL", "interruptBuffer", "stopHeard"],
  /* A block that needs NumPy got intent and the page is fetching its wheel (no bytes:
   * loadPackage waits for them); then its bytes, an ArrayBuffer, or null if it failed. */
  numpy: ["bytes"],
  /* chain: the JSON text of [{code, name, first_line}]; picture: of {lang, slug, other}
   * (text: the page serialises once what Python parses anyway, and a string clones cheaply). */
  /* repair: a break's slug when the chain is a reader's repair of it ("Repair it"'s Check). */
  run: ["id", "chain", "slug", "lang", "picture", "repair"],
  /* A reader's package folder (the doctor page's "Load a folder", doctor-folder.js),
   * [{path, text}], posted right before the run that checks it: its .py files go under
   * /home/pyodide/learner/ in place of the last folder, whose modules Python forgets. */
  files: ["files"],
};

export const FROM_WORKER = {
  ready: ["ms"], // booted, in ms
  failed: ["message"], // the boot failed
  /* stream: "stdout" | "stderr" | "notice" (text "truncated": output stopped being sent,
   * Python still runs). */
  stream: ["id", "stream", "text"],
  /* The run ended. traceback: the last block's own, as the reader reads it; exit_code: set
   * when sys.exit() or os._exit() ended it; ended: os._exit() ended Python itself (the page
   * starts a new one for the next run); earlier: the earlier blocks of the chain that raised,
   * [{name, error, traceback}]; pictures: what the last block drew, [{kind: "graph", text,
   * dot, alt, caption} | {kind: "curve", text, svg, alt, caption}] (minigrad.runner.pictures
   * decides, for the build and the browser alike), drawn once the run settled, so they ride
   * here; python_ms: how long the blocks ran in Python, worker clock, null if unfinished. */
  done: ["id", "error", "traceback", "exit_code", "ended", "earlier", "stopped", "pictures", "python_ms"],
  links: ["id", "links"], // Python's minigrad_page.links: the doctor's suspects, [{slug, title}]
  "engine-output": ["id", "text"], // what the learner's engine printed while it was checked
  /* minigrad_page.verdict: the doctor's verdict (minigrad.doctor.report.verdict_of), parsed here:
   * {verdict, diagnoses: [{slug, title, match, evidence, explains}], unexplained, fix_first, caught}. */
  verdict: ["id", "verdict"],
  /* minigrad_page.progress: the doctor is about to run this case of this check, titled in
   * the page's language; the page paints the latest once per frame, so a case that hangs
   * is the one on screen. */
  checking: ["id", "check", "case"],
  /* minigrad_page.repaired: a "Repair it" Check's verdict (minigrad.repair), parsed
   * here: {slug, repaired, problem, checks: {name: passed}}. */
  repaired: ["id", "verdict"],
  /* stage "download" or "start" while booting (no id), "numpy" then "running" in a run;
   * loaded/total: bytes fetched so far (total 0 when unknown). */
  progress: ["id", "stage", "loaded", "total"],
};

export function message(type, fields = {}) {
  const known = Object.hasOwn(TO_WORKER, type) ? TO_WORKER[type] : Object.hasOwn(FROM_WORKER, type) ? FROM_WORKER[type] : null;
  if (!known) throw new Error(`no message of type "${type}" (runner/messages.js)`);
  const unknown = Object.keys(fields).filter((field) => !known.includes(field));
  if (unknown.length) throw new Error(`a "${type}" message has no field ${unknown.join(", ")} (runner/messages.js)`);
  return { type, ...fields };
}
