/* One Pyodide for the whole visit, off the page's main thread: the worker's entry
 * point, bundled by minigrad_site/build/minify_js.py into the site's assets/minigrad/worker.js
 * (a classic worker script: importScripts loads Pyodide). Its messages, in and
 * out, are runner/messages.js's table.
 *
 * Boot loads Pyodide and minigrad's files only; NumPy (12 MB) loads before the
 * first run whose blocks need it, decided from their imports and minigrad's own
 * import graph (_minigrad/needs.json), by minigrad.runner.numpy_needs. Its wheel
 * is fetched earlier, during the boot, when a block the build marked as needing
 * it (data-numpy) gets the reader's intent (downloads.js).
 *
 * Blocks run through minigrad.runner.blocks.run_chain, the function CI uses,
 * with the break applied by minigrad.breaks.applied when `slug` is set; what
 * the worker asks of Python is minigrad/runner/worker.py, a module of its own.
 */

import { message } from "../messages.js";
import { downloads } from "./downloads.js";

const STREAM_LIMIT = 100000; // characters of output per run; the rest is dropped

const fetched = downloads(self);
let pyodide = null;
let runBlocks = null; // Python's runner
let needsNumpy = null; // Python's chain_json_needs_numpy
let putFiles = null; // Python's learner_files
let numpyURL = null; // what loadPackage gets: "numpy", by name (pyodide-lock.json: the CDN's, or the offline site's own)
let needs = null; // _minigrad/needs.json
let numpyLoaded = false;
let current = null; // {id, sent, truncated, lang}
// The last chain found to need no NumPy: Run again (the common case) skips parsing it,
// which costs about as much as a small block's own run.
let noNumpyChain = null;

function emit(stream, text) {
  // Posted at once, a line at a time (worker.py's LineStream line-buffers; Python is busy, so
  // no timer could flush a buffer later); the page repaints once per frame.
  if (!current || current.truncated || !text) return;
  if (current.sent + text.length > STREAM_LIMIT) {
    text = text.slice(0, STREAM_LIMIT - current.sent);
    current.truncated = true;
  }
  current.sent += text.length;
  if (text) postMessage(message("stream", { id: current.id, stream, text }));
  if (current.truncated) postMessage(message("stream", { id: current.id, stream: "notice", text: "truncated" }));
}

/* `import minigrad_page` from Python: `links(json)` (the doctor's suspects; the
 * page turns the slugs into links, nothing else is trusted), `language()` (the
 * page's, so a report can speak it), `progress(check, case)` (the doctor's,
 * before each case) and `engine_output(text)` (what a learner's engine printed
 * while the doctor checked it, bounded in Python) and `repaired(json)` (a repair's verdict);
 * `verdict(json)`: the doctor's verdict, which the page shows first (runner/verdict.js). */
const PAGE = {
  links(json) {
    const links = current ? JSON.parse(String(json)) : null;
    if (Array.isArray(links)) postMessage(message("links", { id: current.id, links }));
  },
  language: () => (current && current.lang) || "en",
  progress(check, name) {
    if (current) postMessage(message("checking", { id: current.id, check: String(check), case: String(name) }));
  },
  repaired(json) {
    const verdict = current ? JSON.parse(String(json)) : null;
    if (verdict && typeof verdict === "object") postMessage(message("repaired", { id: current.id, verdict }));
  },
  verdict(json) {
    const verdict = current ? JSON.parse(String(json)) : null;
    if (verdict && typeof verdict === "object") postMessage(message("verdict", { id: current.id, verdict }));
  },
  engine_output(text) {
    if (current) postMessage(message("engine-output", { id: current.id, text: String(text) }));
  },
};

async function boot({ indexURL, numpyURL: wheel, wheelURL, bundleURL, needsURL, interruptBuffer, stopHeard }) {
  const started = performance.now();
  numpyURL = wheel;
  fetched.expectWheel(wheelURL);
  fetched.track("download");
  try {
    importScripts(indexURL + "pyodide.js");
    const text = (url) => fetch(url).then((r) => {
      if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
      return r.text();
    });
    const [py, bundle, needsText] = await Promise.all([
      loadPyodide({ indexURL, stdout: (t) => emit("stdout", t + "\n"), stderr: (t) => emit("stderr", t + "\n") }),
      text(bundleURL).then(JSON.parse),
      text(needsURL),
    ]);
    needs = JSON.stringify(JSON.parse(needsText).numpy);
    const lib = "/home/pyodide/lib/";
    for (const [path, source] of Object.entries(bundle)) {
      py.FS.mkdirTree((lib + path).split("/").slice(0, -1).join("/"));
      py.FS.writeFile(lib + path, source);
    }
    py.pyimport("sys").path.insert(0, lib);
    py.registerJsModule("minigrad_page", PAGE);
    const side = py.pyimport("minigrad.runner.worker"); // the worker's Python side, kept for the visit
    runBlocks = side.runner((t) => emit("stdout", t));
    needsNumpy = side.chain_json_needs_numpy;
    putFiles = side.learner_files;
    if (interruptBuffer) {
      side.hear_stops(() => Atomics.store(stopHeard, 0, current ? current.id : 0));
      py.setInterruptBuffer(interruptBuffer);
    }
    pyodide = py;
    fetched.untrack();
    postMessage(message("ready", { ms: performance.now() - started }));
  } catch (error) {
    fetched.untrack();
    postMessage(message("failed", { message: String(error && error.message ? error.message : error) }));
  }
}

async function loadNumpy(id) {
  fetched.track("numpy", id);
  try {
    await pyodide.loadPackage(numpyURL, { messageCallback: () => {}, errorCallback: (m) => { throw new Error(m); } });
    numpyLoaded = true;
    fetched.numpyLoaded();
  } finally {
    fetched.untrack();
  }
  postMessage(message("progress", { id, stage: "running", loaded: 0, total: 0 }));
}

async function run({ id, chain, slug, lang, picture, repair }) {
  current = { id, sent: 0, truncated: false, lang };
  const done = { id, error: null, traceback: "", exit_code: null, ended: false, earlier: [], stopped: false, pictures: [], python_ms: null };
  try {
    if (!numpyLoaded && chain !== noNumpyChain) {
      if (repair || needsNumpy(chain, needs)) await loadNumpy(id); // a repair's checks need NumPy, whatever the reader's code imports
      else noNumpyChain = chain;
    }
    const started = performance.now();
    const result = JSON.parse(runBlocks(chain, slug || "", picture || "{}", repair || ""));
    done.python_ms = performance.now() - started; // for benchmarks: Python's share of a run
    Object.assign(done, result);
  } catch (error) {
    // KeyboardInterrupt from Stop (interrupt buffer) ends here; so would a bug of ours.
    const text = String(error && error.message ? error.message : error);
    if (error && Number.isInteger(error.status) && text.startsWith("Program terminated with exit(")) {
      // os._exit(n): not an exception but the end of Python's process, as on a computer; this
      // Pyodide cannot run again ("Pyodide already exited"), so the page starts a new one.
      Object.assign(done, { error: "Exit", exit_code: error.status, ended: true });
    } else {
      done.stopped = text.includes("KeyboardInterrupt");
      done.error = done.stopped ? "KeyboardInterrupt" : "RunnerError";
      done.traceback = done.stopped ? "" : text;
    }
  } finally {
    current = null;
  }
  postMessage(message("done", done));
}

function files({ files: folder }) {
  putFiles(JSON.stringify(folder)); // before the run that follows it: messages are handled in order
}

const HANDLERS = { boot, run, numpy: fetched.numpyMessage, files }; // by message type: messages.js's TO_WORKER

self.onmessage = (event) => {
  const handler = HANDLERS[event.data.type];
  if (handler) handler(event.data);
};
