/* The bare page's worker: the physical limit of this machine for the site's runner.
 *
 * The same Pyodide and NumPy wheel as the site (_minigrad/pyodide/), booted the
 * plainest way, with nothing of minigrad. Messages in:
 *   {type: "boot", indexURL, numpyURL}   (a "run" may be posted right behind it)
 *   {type: "run", id, code, via?}   via "exec" (default): exec(compile(code)) in a fresh
 *                                    namespace, the least any runner does; "runPython":
 *                                    pyodide.runPython(code), Pyodide's own entry point
 * Messages out:
 *   {type: "ready", stages: {importScripts, loadPyodide, loadPackage}}   (ms, worker clock)
 *   {type: "stream", id, text}   one per line printed
 *   {type: "done", id, error, ms}   ms: Python's own run time, worker clock
 */
"use strict";

let booted = null;
let pyodide = null;
let execCode = null;
let current = null;

function emit(text) {
  if (current !== null) postMessage({ type: "stream", id: current, text: text + "\n" });
}

async function boot({ indexURL, numpyURL }) {
  const t0 = performance.now();
  importScripts(indexURL + "pyodide.js");
  const t1 = performance.now();
  const py = await loadPyodide({ indexURL, stdout: emit, stderr: emit });
  const t2 = performance.now();
  await py.loadPackage(numpyURL, { messageCallback: () => {} });
  const t3 = performance.now();
  pyodide = py;
  const builtins = py.pyimport("builtins"); // exec(compile(code), a fresh namespace): no Python source in JS
  execCode = (code) => {
    const namespace = builtins.dict();
    namespace.set("__name__", "__main__");
    let compiled = null;
    try {
      compiled = builtins.compile(code, "<bare>", "exec");
      builtins.exec(compiled, namespace);
    } finally {
      if (compiled) compiled.destroy();
      namespace.destroy();
    }
  };
  postMessage({ type: "ready", stages: { importScripts: t1 - t0, loadPyodide: t2 - t1, loadPackage: t3 - t2 } });
}

async function run({ id, code, via }) {
  await booted;
  current = id;
  const t0 = performance.now();
  let error = null;
  try {
    if (via === "runPython") pyodide.runPython(code);
    else execCode(code);
  } catch (e) {
    error = String(e && e.message ? e.message : e);
  }
  current = null;
  postMessage({ type: "done", id, error, ms: performance.now() - t0 });
}

self.onmessage = (event) => {
  const m = event.data;
  if (m.type === "boot") booted = boot(m).catch((e) => postMessage({ type: "failed", message: String(e) }));
  else if (m.type === "run") run(m);
};
