/* One Pyodide for the whole visit, off the page's main thread.
 *
 * Messages in:  {type: "boot", indexURL, numpyURL, bundleURL, interruptBuffer?}
 *               {type: "run", id, blocks: [{code, name, first_line}], slug, lang}
 * Messages out: {type: "ready", ms} | {type: "failed", message}
 *               {type: "stream", id, stream: "stdout"|"stderr"|"notice", text}
 *                 ("notice" with text "truncated": output stopped being sent, Python still runs)
 *               {type: "done", id, error, traceback, exit_code, earlier, stopped}
 *                 (traceback: the reader's report, earlier failed blocks first;
 *                  exit_code: set when sys.exit() ended the run; earlier: names of
 *                  earlier blocks of the chain that raised)
 *               {type: "links", id, links: [{slug, title}]} (Python's `minigrad_page.links`)
 * Runs are handled one at a time, in order; the page queues them and posts the
 * next only after the last one's "done", so Stop can tell whose run it ends.
 * A message with an `id` belongs to that run: the page hands its type to the
 * block's handler of the same name, so a new kind of message needs no new routing.
 *
 * Blocks run through minigrad.breaks.blocks.run_chain, the function CI uses,
 * with the break applied by minigrad.breaks.applied when `slug` is set.
 */
"use strict";

const STREAM_LIMIT = 100000; // characters of output per run; the rest is dropped

let pyodide = null;
let runBlocks = null;
let current = null; // {id, sent, truncated}

const PRELUDE = `
import io, json
from minigrad.breaks.blocks import Block, run_chain

class _Stream(io.TextIOBase):
    """Line-buffered: print() writes the text and its newline separately; one message per line."""
    def __init__(self, write):
        self._write, self._pending = write, ""
    def writable(self):
        return True
    def write(self, text):
        self._pending += text
        if "\\n" in text:
            lines, _, self._pending = self._pending.rpartition("\\n")
            self._write(lines + "\\n")
        return len(text)
    def flush(self):
        if self._pending:
            self._write(self._pending)
            self._pending = ""

def _run_for_browser(blocks_json, slug, write):
    blocks = [Block(**b) for b in json.loads(blocks_json)]
    stream = _Stream(write)
    try:
        result = run_chain(blocks, slug=slug or None, stdout=stream)
    finally:
        stream.flush()  # a last line without a newline, or what was printed before Stop
    error = type(result.error).__name__ if result.error is not None else None
    return json.dumps({"error": error, "traceback": result.traceback,
                       "exit_code": result.exit_code, "earlier": result.earlier})

_run_for_browser
`;

function emit(stream, text) {
  // Posted at once, a line at a time (_Stream line-buffers; Python is busy, so
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
 * page turns the slugs into links, nothing else is trusted) and `language()`
 * (the page's, so a report can speak it). */
function postLinks(json) {
  if (!current) return;
  const links = JSON.parse(String(json));
  if (Array.isArray(links)) postMessage({ type: "links", id: current.id, links });
}

async function boot({ indexURL, numpyURL, bundleURL, interruptBuffer }) {
  const started = performance.now();
  try {
    importScripts(indexURL + "pyodide.js");
    const [py, bundle] = await Promise.all([
      loadPyodide({ indexURL, stdout: (t) => emit("stdout", t + "\n"), stderr: (t) => emit("stderr", t + "\n") }),
      fetch(bundleURL).then((r) => {
        if (!r.ok) throw new Error(`${bundleURL}: HTTP ${r.status}`);
        return r.json();
      }),
    ]);
    await py.loadPackage(numpyURL, { messageCallback: () => {}, errorCallback: (m) => { throw new Error(m); } });
    const lib = "/home/pyodide/lib/";
    for (const [path, text] of Object.entries(bundle)) {
      const dir = (lib + path).split("/").slice(0, -1).join("/");
      py.FS.mkdirTree(dir);
      py.FS.writeFile(lib + path, text);
    }
    py.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(lib)})`);
    py.registerJsModule("minigrad_page", { links: postLinks, language: () => (current && current.lang) || "en" });
    runBlocks = py.runPython(PRELUDE);
    if (interruptBuffer) py.setInterruptBuffer(interruptBuffer);
    pyodide = py;
    postMessage({ type: "ready", ms: performance.now() - started });
  } catch (error) {
    postMessage({ type: "failed", message: String(error && error.message ? error.message : error) });
  }
}

function run({ id, blocks, slug, lang }) {
  current = { id, sent: 0, truncated: false, lang };
  let done = { type: "done", id, error: null, traceback: "", exit_code: null, earlier: [], stopped: false };
  try {
    const write = (text) => emit("stdout", text);
    const result = JSON.parse(runBlocks(JSON.stringify(blocks), slug || "", write));
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

const HANDLERS = { boot, run }; // by message type

self.onmessage = (event) => {
  const handler = HANDLERS[event.data.type];
  if (handler) handler(event.data);
};
