/* One Pyodide for the whole visit, off the page's main thread.
 *
 * Boot loads Pyodide and minigrad's files only; NumPy (12 MB) loads before the
 * first run whose blocks need it, decided from their imports and minigrad's own
 * import graph (_minigrad/needs.json), by minigrad.runner.numpy_needs. Its
 * wheel is fetched earlier, during the boot, when a block the build marked as
 * needing it (data-numpy) gets the reader's intent.
 *
 * Messages in:  {type: "boot", indexURL, numpyURL, wheelURL, bundleURL, needsURL, interruptBuffer?, stopHeard?}
 *                 (cross-origin isolated only: Stop writes 2 into interruptBuffer; Python
 *                 writes the run's id into stopHeard, an Int32Array, when it hears it)
 *               {type: "numpy"}: a block that needs NumPy got intent, the page is fetching
 *                 its wheel; then {type: "numpy", bytes: ArrayBuffer|null} (null: it failed)
 *               {type: "run", id, chain, slug, lang, picture}: chain is the JSON text of
 *                 [{code, name, first_line}], picture of {lang, slug, other} (text: the page
 *                 serialises once what Python parses anyway, and a string clones cheaply)
 *               {type: "files", files: [{path, text}]}: a reader's package folder (the doctor
 *                 page's "Load a folder", doctor-folder.js), posted right before the run that
 *                 checks it: its .py files go under /home/pyodide/learner/ (paths relative to
 *                 it), in place of the last folder, whose modules Python forgets
 * Messages out: {type: "ready", ms} | {type: "failed", message}
 *               {type: "stream", id, stream: "stdout"|"stderr"|"notice", text}
 *                 ("notice" with text "truncated": output stopped being sent, Python still runs)
 *               {type: "done", id, error, traceback, exit_code, earlier, stopped, pictures, python_ms}
 *                 (traceback: the last block's own, as the reader reads it;
 *                  exit_code: set when sys.exit() ended the run; earlier: the
 *                  earlier blocks of the chain that raised, [{name, error, traceback}]
 *                  (error: the exception's type name); pictures: what the last
 *                  block drew, [{kind: "graph", text, dot, alt, caption} | {kind: "curve", text, svg, alt, caption}],
 *                  (dot: the graph to render, a broken run's marked where the break changed it;
 *                  minigrad.runner.pictures decides, for the build and the browser alike),
 *                  drawn once the run has settled, so they ride on "done" (no message of
 *                  their own); python_ms: how long the blocks ran in Python, worker clock,
 *                  null if they did not finish)
 *               {type: "links", id, links: [{slug, title}]} (Python's `minigrad_page.links`)
 *               {type: "engine-output", id, text} (`minigrad_page.engine_output`: what the
 *                 learner's engine printed while it was checked, shown folded under the report)
 *               {type: "checking", id, check, case} (`minigrad_page.progress`: the doctor is
 *                 about to run this case of this check, titled in the page's language; every
 *                 case is posted, a few dozen per run, and the page paints the latest once
 *                 per frame, so a case that hangs is the one on screen)
 *               {type: "progress", id?, stage, loaded, total}: stage "download" or
 *                 "start" while booting (no id), "numpy" then "running" in a run;
 *                 loaded/total: bytes fetched so far (total 0 when unknown)
 * Runs are handled one at a time, in order; the page queues them and posts the
 * next only after the last one's "done", so Stop can tell whose run it ends.
 * A message with an `id` belongs to that run: the page hands its type to the
 * block's handler of the same name, so a new kind of message needs no new routing.
 *
 * Blocks run through minigrad.runner.blocks.run_chain, the function CI uses,
 * with the break applied by minigrad.breaks.applied when `slug` is set; what
 * the worker asks of Python is minigrad/runner/worker.py, a module of its own.
 */
"use strict";

const STREAM_LIMIT = 100000; // characters of output per run; the rest is dropped

let pyodide = null;
let runBlocks = null;
let current = null; // {id, sent, truncated}

function emit(stream, text) {
  // Posted at once, a line at a time (worker.py's LineStream line-buffers; Python is busy, so
  // no timer could flush a buffer later); the page repaints once per frame.
  if (!current || current.truncated || !text) return;
  if (current.sent + text.length > STREAM_LIMIT) {
    text = text.slice(0, STREAM_LIMIT - current.sent);
    current.truncated = true;
  }
  current.sent += text.length;
  if (text) postMessage({ type: "stream", id: current.id, stream, text });
  if (current.truncated) postMessage({ type: "stream", id: current.id, stream: "notice", text: "truncated" });
}

/* `import minigrad_page` from Python: `links(json)` (the doctor's suspects; the
 * page turns the slugs into links, nothing else is trusted), `language()`
 * (the page's, so a report can speak it) and `progress(check, case)` (the
 * doctor's, before each case). */
function postLinks(json) {
  if (!current) return;
  const links = JSON.parse(String(json));
  if (Array.isArray(links)) postMessage({ type: "links", id: current.id, links });
}

function postEngineOutput(text) { // what a learner's engine printed while the doctor checked it (bounded in Python)
  if (current) postMessage({ type: "engine-output", id: current.id, text: String(text) });
}

function postChecking(check, name) {
  if (current) postMessage({ type: "checking", id: current.id, check: String(check), case: String(name) });
}

/* Bytes of Python's download as they arrive, for the page's progress. Neither
 * loadPyodide nor loadPackage takes a progress callback (their options: stdout,
 * stderr, messageCallback, ...), so the worker's fetch is wrapped: a clone of
 * each body is counted, and the response itself goes back untouched. A rebuilt
 * Response (new Response(body)) would stream as well, but V8 caches compiled
 * wasm only for a fetch's own response: a second visit would compile Python's
 * 9 MB again (measured: no faster than the first). */
const PROGRESS_EVERY_MS = 250;
const download = { id: undefined, stage: null, loaded: 0, total: 0, open: 0, sentAt: 0 };

function progress(stage, force) {
  if (stage && stage !== download.stage) {
    download.stage = stage;
    force = true;
  }
  const now = performance.now();
  if (!download.stage || (!force && now - download.sentAt < PROGRESS_EVERY_MS)) return;
  download.sentAt = now;
  const { id, loaded } = download;
  postMessage({ type: "progress", id, stage: download.stage, loaded, total: Math.max(download.total, loaded) });
}

const plainFetch = self.fetch.bind(self);
self.fetch = async (...args) => {
  const early = await prefetched(args);
  if (early) return early;
  const response = await plainFetch(...args);
  if (!download.stage || !response.ok || !response.body) return response;
  download.total += Number(response.headers.get("content-length")) || 0;
  download.open += 1;
  if (download.stage === "start") progress("download");
  countBytes(response.clone().body);
  return response;
};

async function countBytes(body) {
  const reader = body.getReader();
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      download.loaded += chunk.value.byteLength;
      progress(null, false);
    }
  } catch {
    // the response's own reader reports a broken download
  }
  download.open -= 1;
  if (!download.open && download.stage === "download") progress("start"); // all here: Python starts
}

function track(stage, id) {
  Object.assign(download, { id, stage: null, loaded: 0, total: 0, open: 0 });
  progress(stage, true);
}

let numpyURL = null; // what loadPackage gets: the wheel's URL (offline build) or "numpy" (by name, from the CDN)
let wheelURL = null; // where the wheel is, either way
let needs = null; // _minigrad/needs.json
let numpyLoaded = false;

/* NumPy's wheel, fetched by the page as soon as a block that needs it gets
 * intent, in parallel with Python's own download; loadPackage's fetch of that
 * URL later gets these bytes instead of a second request. */
let numpyEarly = null; // Promise<ArrayBuffer|null>
let numpyArrived = null; // resolves numpyEarly

function prefetchNumpy({ bytes }) {
  if (bytes !== undefined) return numpyArrived && numpyArrived(bytes);
  if (!numpyLoaded && !numpyEarly) numpyEarly = new Promise((resolve) => { numpyArrived = resolve; });
}

async function prefetched([url, options]) {
  if (!numpyEarly || String(url) !== wheelURL) return null;
  const bytes = await numpyEarly;
  numpyEarly = null; // used once: were loadPackage to fetch again, it would go to the network
  if (!bytes) return null; // the early fetch failed: loadPackage fetches, and reports what fails
  // By name (CDN), loadPackage asks fetch to check pyodide-lock.json's sha256; so do we.
  const integrity = options && options.integrity;
  if (integrity && integrity !== "sha256-" + btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))))) return null;
  return new Response(bytes, { status: 200, headers: { "content-type": "application/zip" } });
}

async function boot({ indexURL, numpyURL: wheel, wheelURL: wheelAt, bundleURL, needsURL, interruptBuffer, stopHeard }) {
  const started = performance.now();
  numpyURL = wheel;
  wheelURL = wheelAt;
  track("download");
  try {
    importScripts(indexURL + "pyodide.js");
    const json = (url) => fetch(url).then((r) => {
      if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
      return r.text();
    });
    const [py, bundle, needsText] = await Promise.all([
      loadPyodide({ indexURL, stdout: (t) => emit("stdout", t + "\n"), stderr: (t) => emit("stderr", t + "\n") }),
      json(bundleURL).then(JSON.parse),
      json(needsURL),
    ]);
    needs = JSON.stringify(JSON.parse(needsText).numpy);
    const lib = "/home/pyodide/lib/";
    for (const [path, text] of Object.entries(bundle)) {
      const dir = (lib + path).split("/").slice(0, -1).join("/");
      py.FS.mkdirTree(dir);
      py.FS.writeFile(lib + path, text);
    }
    py.pyimport("sys").path.insert(0, lib);
    py.registerJsModule("minigrad_page", { links: postLinks, language: () => (current && current.lang) || "en", progress: postChecking, engine_output: postEngineOutput });
    const side = py.pyimport("minigrad.runner.worker"); // the worker's Python side, kept for the visit
    runBlocks = side.runner((text) => emit("stdout", text));
    needsNumpy = side.chain_json_needs_numpy;
    putFiles = side.learner_files;
    if (interruptBuffer) {
      side.hear_stops(() => Atomics.store(stopHeard, 0, current ? current.id : 0));
      py.setInterruptBuffer(interruptBuffer);
    }
    pyodide = py;
    download.stage = null;
    postMessage({ type: "ready", ms: performance.now() - started });
  } catch (error) {
    download.stage = null;
    postMessage({ type: "failed", message: String(error && error.message ? error.message : error) });
  }
}

let needsNumpy = null;
let putFiles = null; // Python's learner_files
// The last chain found to need no NumPy: Run again (the common case) skips parsing it,
// which costs about as much as a small block's own run.
let noNumpyChain = null;

async function loadNumpy(id) {
  track("numpy", id);
  try {
    await pyodide.loadPackage(numpyURL, { messageCallback: () => {}, errorCallback: (m) => { throw new Error(m); } });
    numpyLoaded = true;
  } finally {
    download.stage = null;
  }
  postMessage({ type: "progress", id, stage: "running", loaded: 0, total: 0 });
}

async function run({ id, chain, slug, lang, picture }) {
  current = { id, sent: 0, truncated: false, lang };
  let done = { type: "done", id, error: null, traceback: "", exit_code: null, earlier: [], stopped: false, pictures: [], python_ms: null };
  try {
    if (!numpyLoaded && chain !== noNumpyChain) {
      if (needsNumpy(chain, needs)) await loadNumpy(id);
      else noNumpyChain = chain;
    }
    const started = performance.now();
    const result = JSON.parse(runBlocks(chain, slug || "", picture || "{}"));
    done.python_ms = performance.now() - started; // for benchmarks: Python's share of a run
    Object.assign(done, result);
  } catch (error) {
    // KeyboardInterrupt from Stop (interrupt buffer) ends here; so would a bug of ours.
    const message = String(error && error.message ? error.message : error);
    done.stopped = message.includes("KeyboardInterrupt");
    done.error = done.stopped ? "KeyboardInterrupt" : "RunnerError";
    done.traceback = done.stopped ? "" : message;
  } finally {
    current = null;
  }
  postMessage(done);
}

function files({ files }) {
  putFiles(JSON.stringify(files)); // before the run that follows it: messages are handled in order
}

const HANDLERS = { boot, run, numpy: prefetchNumpy, files }; // by message type

self.onmessage = (event) => {
  const handler = HANDLERS[event.data.type];
  if (handler) handler(event.data);
};
