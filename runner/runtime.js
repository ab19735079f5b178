import { message } from "./messages.js";
import { language } from "./text.js";
import { settings } from "./settings.js";

// Stop when isolated (see Runtime.endOrTerminate): pressed again every STOP_PRESS_MS
// until Python says it heard it; not heard by STOP_GRACE_MS, or heard and the run
// not over by STOP_UNWIND_MS (both from the click), the worker is terminated.
const STOP_PRESS_MS = 50;
const STOP_GRACE_MS = 1000;
const STOP_UNWIND_MS = 3000;

/* ---- the Python worker, one per visit --------------------------------
 * Its messages are runner/messages.js's table. Runs wait in this queue, not in the worker's: the worker gets one run at a
 * time, so Stop knows whose run it ends. Stop on a run that has not started
 * (Python still loading, or another run first) only takes it off the queue;
 * Stop on the running one interrupts it (cross-origin isolated) or
 * terminates the worker, and the queue goes on in a new one. */

export class Runtime {
  constructor(config) {
    this.config = config;
    this.worker = null;
    this.numpyAsked = false; // NumPy's wheel was fetched early for this worker
    this.ready = null;
    this.queue = []; // jobs not yet sent to the worker
    this.active = null; // the job the worker is running
    this.nextId = 1;
    this.interrupt = self.crossOriginIsolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
    this.heard = self.crossOriginIsolated ? new Int32Array(new SharedArrayBuffer(4)) : null; // the id of the run whose Stop Python heard
    this.bootMs = null;
    this.lastRestart = null; // why the last Stop terminated Python: {heard, ms}, for bug reports and tests
  }

  start() {
    if (this.ready) return this.ready;
    const worker = new Worker(this.config.workerURL);
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      const handlers = {
        ready: (m) => { this.bootMs = m.ms; resolve(); },
        failed: (m) => reject(new Error(m.message)),
        // Booting (no id) concerns every queued run; NumPy's load, the running one.
        progress: (m) => (m.id ? this.dispatch(m) : this.queue.forEach((job) => job.handlers.progress && job.handlers.progress(m))),
      };
      worker.onmessage = (event) => {
        const m = event.data;
        if (handlers[m.type]) handlers[m.type](m);
        else this.dispatch(m);
      };
      worker.onerror = (event) => {
        const error = new Error(event.message || "worker error");
        reject(error);
        if (this.worker !== worker || !this.active) return;
        const job = this.active;
        worker.terminate();
        this.reset();
        this.finish(job, { type: "done", id: job.id, failed: error.message });
      };
    });
    const ready = this.ready;
    ready.catch((error) => {
      if (this.ready !== ready) return;
      worker.terminate(); // a half-booted worker is no use: the next run boots a new one
      this.reset();
      for (const job of this.queue.splice(0)) job.resolve({ type: "done", id: job.id, failed: error.message });
    });
    const { indexURL, numpyURL, wheelURL, bundleURL, needsURL } = this.config;
    worker.postMessage(message("boot", { indexURL, numpyURL, wheelURL, bundleURL, needsURL, interruptBuffer: this.interrupt, stopHeard: this.heard }));
    return ready;
  }

  /* Intent on a block whose chain needs NumPy (the build's data-numpy): its
   * wheel is fetched now, alongside Python's own download, not after Python
   * has started. Here, not in the worker: the worker's thread is busy starting
   * Python and would read the body only between its tasks. Once per worker. */
  prefetchNumpy() {
    this.start();
    if (this.numpyAsked) return;
    this.numpyAsked = true;
    const worker = this.worker;
    worker.postMessage(message("numpy")); // coming: loadPackage waits for these bytes
    fetch(this.config.wheelURL)
      .then((r) => (r.ok ? r.arrayBuffer() : null))
      .catch(() => null)
      .then((bytes) => { if (this.worker === worker) worker.postMessage(message("numpy", { bytes }), bytes ? [bytes] : []); });
  }

  /* Queue a run; `handlers` get its messages by type (stream, progress, ...)
   * and its phase ("loading", "waiting", "running"). Returns the job: `job.done`
   * resolves with the worker's "done" message (or {stopped} / {failed}).
   * `files` (doctor-folder.js) go to the worker right before the run; `repair`, a break's
   * slug, makes the run a Check of the reader's repair of it (repair.js). */
  submit(blocks, slug, handlers, picture, files, repair) {
    const job = { id: this.nextId++, blocks, slug, handlers, picture, files, repair };
    job.done = new Promise((resolve) => { job.resolve = resolve; });
    this.queue.push(job);
    this.phase(job);
    this.pump();
    return job;
  }

  phase(job, name) {
    const phase = name || (this.bootMs === null ? "loading" : this.active ? "waiting" : "running");
    if (job.handlers.phase) job.handlers.phase(phase);
  }

  async pump() {
    if (this.active || !this.queue.length) return;
    const ready = this.start();
    if (this.bootMs === null) for (const job of this.queue) this.phase(job, "loading");
    try {
      await ready;
    } catch {
      return; // start() settled the queue
    }
    if (this.active || !this.queue.length || this.ready !== ready) return;
    const job = this.queue.shift();
    this.active = job;
    if (this.interrupt) this.interrupt[0] = 0;
    this.phase(job, "running");
    for (const waiting of this.queue) this.phase(waiting, "waiting");
    // As JSON text: Python parses it anyway, and a string clones faster than objects.
    const { id, blocks, slug, picture, files, repair } = job;
    if (files) this.worker.postMessage(message("files", { files }));
    this.worker.postMessage(message("run", { id, chain: JSON.stringify(blocks), slug, lang: language(), picture: JSON.stringify(picture), repair: repair || "" }));
  }

  dispatch(m) {
    const job = this.active;
    if (!job || job.id !== m.id) return;
    if (m.type === "done") {
      if (m.ended) { // os._exit(): that Python is gone; the next run boots a new one
        this.worker.terminate();
        this.reset();
      }
      this.finish(job, m);
    } else if (job.handlers[m.type]) job.handlers[m.type](m); // e.g. stream: {stream, text}
  }

  finish(job, result) {
    if (this.active === job) this.active = null;
    job.resolve(result);
    this.pump();
  }

  stop(job) {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      job.resolve({ type: "done", id: job.id, stopped: true, restarted: false });
    } else if (this.active === job && this.interrupt) {
      this.interrupt[0] = 2; // SIGINT: Python raises KeyboardInterrupt at the next bytecode
      this.endOrTerminate(job, performance.now());
    } else if (this.active === job) {
      this.terminate();
    }
  }

  /* After an interrupt. Pyodide 0.28 takes a signal from its buffer in two steps,
   * read then clear, and a Stop written between them is lost (CPython gh-157548;
   * 1 Stop in 32 in a trial here, under load): so Stop is pressed again until
   * Python says it heard it (the worker's SIGINT handler writes the run's id into
   * `heard`). Not heard by STOP_GRACE_MS: Python is stuck outside its bytecode (a
   * long call into C). Heard: the run ends through its `finally` blocks, or code
   * that catches KeyboardInterrupt goes on; it gets until STOP_UNWIND_MS. */
  endOrTerminate(job, stoppedAt) {
    setTimeout(() => {
      if (this.active !== job) return; // it ended as asked
      const heard = Atomics.load(this.heard, 0) === job.id;
      const ms = performance.now() - stoppedAt;
      if (ms < (heard ? STOP_UNWIND_MS : STOP_GRACE_MS)) {
        if (!heard) this.interrupt[0] = 2;
        return this.endOrTerminate(job, stoppedAt);
      }
      this.lastRestart = { heard, ms: Math.round(ms) };
      this.terminate();
    }, STOP_PRESS_MS);
  }

  /* After instant navigation: runs whose block left the page cannot be
   * stopped by the reader any more, so they end here (a queued one leaves
   * the queue). Otherwise an endless loop there would hold every run here. */
  prune() {
    for (const job of [...this.queue, this.active]) {
      if (job && job.handlers.alive && !job.handlers.alive()) this.stop(job);
    }
  }

  terminate() {
    const job = this.active;
    this.worker.terminate();
    this.reset();
    if (job) this.finish(job, { type: "done", id: job.id, stopped: true, restarted: true });
  }

  reset() {
    this.worker = null;
    this.numpyAsked = false;
    this.ready = null;
    this.active = null;
    this.bootMs = null; // the next run boots again: its status says "Loading Python…"
  }
}

/* The visit's one Runtime, kept on window so instant navigation (a new page, the
 * same script) finds it. */
export function runtime() {
  if (!window.__minigradRuntime) window.__minigradRuntime = new Runtime(settings());
  return window.__minigradRuntime;
}
