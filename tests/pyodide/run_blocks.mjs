// Run doc code blocks in Pyodide, the way the browser runs them (its Python side: run_one.py).
//
//   node tests/pyodide/run_blocks.mjs RESULTS.json < job.json
//
// The job (stdin) is a JSON list of
//   {id, blocks: [{code, name, first_line}], slug: "<break slug>" | null, lang: "en" | "es"}
// Each entry is one chain: the blocks run in order in a fresh namespace with
// minigrad.runner.blocks.run_chain (inside `applied(slug)` when slug is set, in
// the page's language `lang`), exactly as CI does in CPython. The results are a JSON list of
//   {id, output, error_type, runner_error}
// written to RESULTS.json; without an argument they go to stdout after a line
// holding only MARKER, so Pyodide's own chatter ("Loading numpy") can't be
// mistaken for them. error_type is the raised exception's type as
// traceback.format_exception_only names it, or null; runner_error is set (and
// output is null) only when run_chain itself failed (a stale diff, a syntax
// error), which CI would report as a failure as well.
//
// Everything loads from node_modules: Pyodide from node_modules/pyodide, NumPy
// from the wheel pinned in minigrad/runner/pins.json, shipped in an npm package
// (loaded by path, because its file and checksum differ from pyodide-lock.json's;
// its sha256 is checked against the pin first). Nothing is fetched.
//
// NumPy loads as in the browser: not at boot, but before the first chain that
// needs it, decided by the worker's own `chain_json_needs_numpy`
// (minigrad/runner/worker.py) on the import graph minigrad.runner.numpy_needs computes (run here, in Pyodide). The
// chains said to need none run first, without NumPy: a need it missed fails
// here with ModuleNotFoundError: numpy.
// Each result also carries `ms`, the chain's warm run time, and `cpu_ms`, the
// CPU time this process spent on it (benchmarks).

import { readFileSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const MARKER = "=== minigrad run_blocks results ===";
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PYODIDE_DIR = join(ROOT, "node_modules", "pyodide");
const PINS = JSON.parse(readFileSync(join(ROOT, "minigrad", "runner", "pins.json"), "utf-8"));
const NUMPY_WHEEL = join(ROOT, "node_modules", PINS.numpy_wheel.npm, PINS.numpy_wheel.file);
const PACKAGE_EXTENSIONS = [".py", ".toml", ".diff", ".json"];
const FS_ROOT = "/home/pyodide/repo"; // minigrad/ goes here, like the repo root in CPython
const RUN_ONE = join(ROOT, "tests", "pyodide", "run_one.py"); // this harness's Python side

const log = (text) => process.stderr.write(text.endsWith("\n") ? text : text + "\n");

function packageFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "__pycache__") out.push(...packageFiles(path));
    } else if (PACKAGE_EXTENSIONS.some((ext) => entry.name.endsWith(ext))) {
      out.push(path);
    }
  }
  return out;
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf-8");
}

async function main() {
  const resultsPath = process.argv[2];
  for (const need of [join(PYODIDE_DIR, "pyodide.mjs"), NUMPY_WHEEL, join(ROOT, "minigrad")]) {
    if (!existsSync(need)) throw new Error(`missing ${need} (run npm ci)`);
  }
  const sha256 = createHash("sha256").update(readFileSync(NUMPY_WHEEL)).digest("hex");
  if (sha256 !== PINS.numpy_wheel.sha256) throw new Error(`${NUMPY_WHEEL}: sha256 ${sha256}, not the pinned one (run npm ci)`);
  const job = await readStdin();

  const { loadPyodide } = await import(join(PYODIDE_DIR, "pyodide.mjs"));
  const pyodide = await loadPyodide({
    indexURL: PYODIDE_DIR + "/",
    stdout: log, // Python's own prints (none expected: run_chain captures the blocks')
    stderr: log,
  });

  const packageDir = join(ROOT, "minigrad");
  for (const file of packageFiles(packageDir)) {
    const target = `${FS_ROOT}/minigrad/${relative(packageDir, file).split("\\").join("/")}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, readFileSync(file));
  }
  pyodide.FS.writeFile(`${FS_ROOT}/run_one.py`, readFileSync(RUN_ONE));
  pyodide.pyimport("sys").path.insert(0, FS_ROOT);
  const harness = pyodide.pyimport("run_one");
  const needsNumpy = pyodide.pyimport("minigrad.runner.worker").chain_json_needs_numpy; // the worker's own decision
  const needs = harness.needs_json();

  // Chains said to need no NumPy run first, before it is loaded: one said so
  // wrongly fails (ModuleNotFoundError), and its output differs from CPython's.
  const entries = JSON.parse(job);
  const needing = new Set(entries.filter((e) => needsNumpy(JSON.stringify(e.blocks), needs)).map((e) => e.id));
  const runOne = harness.run_one;
  let numpyLoaded = false;
  const out = [];
  for (const entry of [...entries.filter((e) => !needing.has(e.id)), ...entries.filter((e) => needing.has(e.id))]) {
    if (!numpyLoaded && needing.has(entry.id)) {
      await pyodide.loadPackage(NUMPY_WHEEL, { messageCallback: log, errorCallback: log });
      pyodide.pyimport("numpy"); // its first import belongs to loading NumPy, not to the first chain's time
      numpyLoaded = true;
    }
    const started = performance.now();
    const cpu = process.cpuUsage(); // this process's CPU time: less inflated than wall time on a shared machine
    const result = JSON.parse(runOne(JSON.stringify(entry)));
    const used = process.cpuUsage(cpu);
    out.push({ ...result, ms: performance.now() - started, cpu_ms: (used.user + used.system) / 1000 });
  }
  runOne.destroy();
  const results = JSON.stringify(out);

  if (resultsPath) {
    writeFileSync(resultsPath, results, "utf-8");
  } else {
    process.stdout.write(`\n${MARKER}\n${results}\n`);
  }
}

main().catch((error) => {
  log(error && error.stack ? error.stack : String(error));
  process.exit(1);
});
