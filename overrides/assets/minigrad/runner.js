/* minigrad breaks: run the page's Python blocks in the browser.
 *
 * Configuration first, then everything per page inside Material's document$
 * (idempotent), so instant navigation keeps one Python worker for the visit.
 * Nothing of Pyodide loads until the reader shows intent (pointer or focus on
 * a Run button). Output is always text, never HTML.
 */
(() => {
  "use strict";

  const SCRIPT_URL = document.currentScript.src;
  const TEXT = {
    en: {
      toolbar: "Run this code", run: "Run", stop: "Stop", reset: "Reset",
      // The pages' prose calls it the healthy/broken toggle: the button says which code runs.
      breakOff: "Code: healthy", breakOn: "Code: broken",
      code: "Python code, editable", output: "Your run",
      loading: "Loading Python…", running: "Running…",
      download: "Downloading Python…", start: "Starting Python…", numpy: "Loading NumPy…",
      amount: (loaded, total) => (total ? `${mb(loaded)} of ${mb(total)} MB` : `${mb(loaded)} MB`), waiting: "Waiting for the run before…",
      done: "Done", error: "Raised an error", exited: (code) => `Exited with code ${code}`,
      lines: (n) => (n === 0 ? "no output" : n === 1 ? "1 line of output" : `${n} lines of output`),
      earlier: "; an earlier block raised an error (see the output)",
      raisedBefore: "Earlier blocks that raised: ",
      stopped: "Stopped", restarting: "Stopped; Python restarts on the next run", failed: "Python could not start: ",
      truncated: "\n[output truncated: only the first 100,000 characters are shown]\n",
      stillRunning: "Output truncated at 100,000 characters; the program is still running. Stop ends it.",
      truncatedSummary: "output truncated at 100,000 characters",
    },
    es: {
      toolbar: "Ejecutar este código", run: "Ejecutar", stop: "Detener", reset: "Restablecer",
      // La prosa de las páginas lo llama el interruptor sano/roto: el botón dice qué código se ejecuta.
      breakOff: "Código: sano", breakOn: "Código: roto",
      code: "Código Python, editable", output: "Tu ejecución",
      loading: "Cargando Python…", running: "Ejecutando…",
      download: "Descargando Python…", start: "Arrancando Python…", numpy: "Cargando NumPy…",
      amount: (loaded, total) => (total ? `${mb(loaded)} de ${mb(total)} MB` : `${mb(loaded)} MB`), waiting: "Esperando a la ejecución anterior…",
      done: "Listo", error: "Lanzó un error", exited: (code) => `Terminó con código ${code}`,
      lines: (n) => (n === 0 ? "sin salida" : n === 1 ? "1 línea de salida" : `${n} líneas de salida`),
      earlier: "; un bloque anterior lanzó un error (mira la salida)",
      raisedBefore: "Bloques anteriores que lanzaron un error: ",
      stopped: "Detenido", restarting: "Detenido; Python se reinicia en la próxima ejecución", failed: "Python no pudo arrancar: ",
      truncated: "\n[salida truncada: solo se muestran los primeros 100.000 caracteres]\n",
      stillRunning: "Salida truncada a 100.000 caracteres; el programa sigue ejecutándose. Detener lo termina.",
      truncatedSummary: "salida truncada a 100.000 caracteres",
    },
  };
  const OUTPUT_LIMIT = 100000; // characters kept under one block
  const QUIET_MS = 100; // a run shows that it started (output cleared, "Running…") only after this
  const ANNOUNCE_EVERY_MS = 4000; // a download's amount, in the status region, at most this often
  // Stop when isolated (see Runtime.endOrTerminate): pressed again every STOP_PRESS_MS
  // until Python says it heard it; not heard by STOP_GRACE_MS, or heard and the run
  // not over by STOP_UNWIND_MS (both from the click), the worker is terminated.
  const STOP_PRESS_MS = 50;
  const STOP_GRACE_MS = 1000;
  const STOP_UNWIND_MS = 3000;

  function mb(bytes) {
    return (bytes / 1e6).toLocaleString(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  }

  function meta(name) {
    return document.querySelector(`meta[name="${name}"]`);
  }

  function settings() {
    const root = new URL(meta("minigrad:root").content, location.href).href;
    const py = meta("minigrad:pyodide");
    const local = py.content === "local";
    const indexURL = local ? root + "_minigrad/pyodide/" : py.dataset.cdn;
    return {
      root,
      workerURL: SCRIPT_URL.replace(/runner\.js(\?.*)?$/, "worker.js"),
      indexURL,
      numpyURL: local ? indexURL + py.dataset.numpyWheel : "numpy", // by name: the CDN's pyodide-lock.json checks its sha256
      wheelURL: indexURL + py.dataset.numpyWheel, // where either loads it from, fetched early at intent
      bundleURL: root + "_minigrad/bundle.json",
      needsURL: root + "_minigrad/needs.json",
    };
  }

  /* ---- the Python worker, one per visit --------------------------------
   * Runs wait in this queue, not in the worker's: the worker gets one run at a
   * time, so Stop knows whose run it ends. Stop on a run that has not started
   * (Python still loading, or another run first) only takes it off the queue;
   * Stop on the running one interrupts it (cross-origin isolated) or
   * terminates the worker, and the queue goes on in a new one. */

  class Runtime {
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
      worker.postMessage({ type: "boot", indexURL, numpyURL, wheelURL, bundleURL, needsURL, interruptBuffer: this.interrupt, stopHeard: this.heard });
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
      worker.postMessage({ type: "numpy" }); // coming: loadPackage waits for these bytes
      fetch(this.config.wheelURL)
        .then((r) => (r.ok ? r.arrayBuffer() : null))
        .catch(() => null)
        .then((bytes) => { if (this.worker === worker) worker.postMessage({ type: "numpy", bytes }, bytes ? [bytes] : []); });
    }

    /* Queue a run; `handlers` get its messages by type (stream, progress, ...)
     * and its phase ("loading", "waiting", "running"). Returns the job: `job.done`
     * resolves with the worker's "done" message (or {stopped} / {failed}).
     * `files` (doctor-folder.js) go to the worker right before the run. */
    submit(blocks, slug, handlers, picture, files) {
      const job = { id: this.nextId++, blocks, slug, handlers, picture, files };
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
      const { id, blocks, slug, picture, files } = job;
      if (files) this.worker.postMessage({ type: "files", files });
      this.worker.postMessage({ type: "run", id, chain: JSON.stringify(blocks), slug, lang: language(), picture: JSON.stringify(picture) });
    }

    dispatch(m) {
      const job = this.active;
      if (!job || job.id !== m.id) return;
      if (m.type === "done") this.finish(job, m);
      else if (job.handlers[m.type]) job.handlers[m.type](m); // e.g. stream: {stream, text}
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

  function runtime() {
    if (!window.__minigradRuntime) window.__minigradRuntime = new Runtime(settings());
    return window.__minigradRuntime;
  }
  window.minigradRunner = { runtime: () => runtime(), showLinks: (panel, links) => showLinks(panel, links), // doctor-folder.js
    showEngineOutput: (panel, text) => showEngineOutput(panel, text) };

  /* ---- the code editor, loaded on intent --------------------------------------
   * editor.bundle.js (CodeMirror; source in editor/editor.js) replaces a block's
   * code view when the reader first focuses, presses a key or a pointer on it,
   * or at once where this visit holds an edit of the block (sessionStorage). */

  const EDITOR_URL = SCRIPT_URL.replace(/runner\.js(\?.*)?$/, "editor.bundle.js");
  const editors = new WeakMap(); // block element -> the editor's {getText, setText}
  let editorScript = null;

  function loadEditor() {
    if (window.minigradEditor) return Promise.resolve(window.minigradEditor);
    editorScript ??= new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = EDITOR_URL;
      script.onload = () => resolve(window.minigradEditor);
      script.onerror = () => { editorScript = null; reject(new Error(`could not load ${EDITOR_URL}`)); };
      document.head.append(script);
    });
    return editorScript;
  }

  function editKey(index) {
    return `minigrad:edit:${location.pathname}:${index}`;
  }

  function storedEdit(key) {
    try { return sessionStorage.getItem(key); } catch { return null; }
  }

  function codeOf(all, index) {
    const editor = editors.get(all[index]);
    return editor ? editor.getText() : all[index].querySelector("code").textContent;
  }

  /* ---- live pictures (minigrad.viz), drawn by picture.js ------------------
   * A run that draws sends a picture message; picture.js (and, for a graph,
   * Graphviz) loads only then. A curve is plotted beside the same block's last
   * curve with the break the other way, as on the static page; a broken graph
   * comes marked where the break changed it (minigrad/runner/pictures.py). */

  function livePictures(panel, slug) {
    const box = document.createElement("div");
    box.className = "mg-pictures mg-live-pictures";
    box.hidden = true;
    panel.append(box);
    const curves = {}; // "healthy"|"broken" -> the last curve's JSON
    let shown = 0;
    let onScreen = null; // what the picture on screen was drawn from
    return {
      clear(keep) {
        shown += 1; // a drawing still in progress is for a run that is over
        if (keep) return; // a new picture is coming: the old one stays until it replaces it, no flash
        for (const img of box.querySelectorAll("img")) URL.revokeObjectURL(img.src);
        box.replaceChildren();
        box.hidden = true;
        onScreen = null;
      },
      options(broken) { // Python names and marks the runs (minigrad/runner/pictures.py)
        return { lang: language(), slug, other: curves[broken ? "healthy" : "broken"] || null };
      },
      async show(message, broken) {
        const run = shown;
        if (message.kind === "curve") curves[broken ? "broken" : "healthy"] = message.text;
        // The same picture as the one on screen (a re-run of an unchanged block): nothing to draw.
        const key = [message.kind, message.text, message.svg, message.caption, language(), broken, message.dot];
        if (onScreen && !box.hidden && key.every((part, i) => part === onScreen[i])) return;
        const options = { root: settings().root, lang: key[4], broken };
        const module = await import(SCRIPT_URL.replace(/runner\.js(\?.*)?$/, "picture.js"));
        const node = await module.draw(message, options);
        if (run !== shown) return; // cleared (new run, Reset) while it was drawing
        for (const img of box.querySelectorAll("img")) URL.revokeObjectURL(img.src);
        box.replaceChildren(node);
        onScreen = key;
        box.hidden = false;
      },
    };
  }

  /* ---- one code block ------------------------------------------------------ */

  function language() {
    return (document.documentElement.lang || "en").slice(0, 2) === "es" ? "es" : "en";
  }

  function button(className, label, text) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `md-button mg-${className}`;
    b.textContent = text;
    if (label) b.setAttribute("aria-label", label);
    return b;
  }

  function chainOf(all, index) {
    let start = index;
    while (start > 0 && all[start].dataset.continuation) start -= 1;
    const chain = [];
    for (let i = start; i <= index; i++) {
      if (!all[i].dataset.notest) chain.push(i);
    }
    return chain;
  }

  function attach(all, index, slug) {
    const block = all[index];
    const t = TEXT[language()];
    const code = block.querySelector("code");
    const original = code.textContent.replace(/\n$/, "");
    const storageKey = editKey(index);
    code.tabIndex = 0; // focus is intent: the editor loads and takes over
    code.classList.add("mg-editable");
    code.setAttribute("role", "textbox");
    code.setAttribute("aria-multiline", "true");
    code.setAttribute("aria-label", t.code);

    const panel = document.createElement("div");
    panel.className = "mg-runner";
    const toolbar = document.createElement("div");
    toolbar.className = "mg-toolbar";
    toolbar.setAttribute("role", "toolbar");
    toolbar.setAttribute("aria-label", t.toolbar);
    const run = button("run", null, t.run);
    const toggle = slug ? button("break", null, t.breakOff) : null; // its name is its visible text (label in name)
    const stop = button("stop", null, t.stop);
    const reset = button("reset", null, t.reset);
    // aria-disabled, not disabled: a disabled button drops keyboard focus to <body>.
    const enable = (b, on) => b.setAttribute("aria-disabled", String(!on));
    enable(stop, false);
    const status = document.createElement("span");
    status.className = "mg-status";
    status.setAttribute("role", "status"); // polite: announces each state change, never the output
    // The download's amount, visible; the status region repeats it only now and then.
    const meter = document.createElement("progress");
    meter.className = "mg-progress";
    meter.hidden = true;
    meter.setAttribute("aria-hidden", "true");
    const live = document.createElement("div");
    live.className = "mg-live";
    live.hidden = true;
    const label = document.createElement("div");
    label.className = "mg-live-label";
    label.id = `mg-live-${index}-${Math.random().toString(36).slice(2, 8)}`;
    label.textContent = t.output;
    const output = document.createElement("pre");
    output.className = "mg-output";
    output.tabIndex = 0; // scrollable with the keyboard
    output.setAttribute("role", "region");
    output.setAttribute("aria-labelledby", label.id);
    live.append(label, output);
    // Earlier blocks of the chain that raised: one line above the output (this block's own),
    // their tracebacks folded under it.
    const earlier = document.createElement("details");
    earlier.className = "mg-earlier";
    const showEarlier = (failures, masked) => {
      earlier.remove();
      if (!failures || !failures.length) return;
      const [line, text, code] = ["summary", "pre", "code"].map((tag) => document.createElement(tag));
      line.textContent = t.raisedBefore + failures.map((f) => `${f.name} (${f.error})`).join(", ");
      code.textContent = failures.map((f) => `${f.name}:\n${masked(f.traceback)}`).join("\n");
      text.append(code);
      earlier.replaceChildren(line, text);
      output.before(earlier);
    };
    if (toggle) toggle.setAttribute("aria-pressed", "false");
    toolbar.append(...[run, toggle, stop, reset].filter(Boolean), meter, status);
    panel.append(toolbar, live);
    block.after(panel);
    const pictures = livePictures(panel, slug);

    let job = null; // this block's run, queued or running
    let begun = true; // whether the current run has shown that it started (see begin)
    let begin = () => {};
    let shown = 0;
    let lines = 0;
    let truncated = false;
    let queued = [];
    const paint = () => {
      // One repaint per frame, however fast Python prints.
      const fragment = document.createDocumentFragment();
      for (const [stream, text] of queued) {
        const span = document.createElement("span");
        span.className = `mg-${stream}`;
        span.textContent = text; // text only: output is never parsed as HTML
        fragment.append(span);
      }
      queued = [];
      output.append(fragment);
    };
    const show = (stream, text) => {
      if (!queued.length && begun) requestAnimationFrame(paint);
      queued.push([stream, text]);
    };
    const write = (stream, text) => {
      if (stream === "notice") {
        if (truncated) return;
        begin();
        truncated = true;
        show("notice", t.truncated); // always shown, past the limit
        status.textContent = t.stillRunning; // the run goes on: say so, Stop is enabled
        return;
      }
      if (shown >= OUTPUT_LIMIT) return;
      text = text.slice(0, OUTPUT_LIMIT - shown);
      shown += text.length;
      lines += (text.match(/\n/g) || []).length;
      show(stream, text);
    };
    let announced = { stage: null, at: 0 };
    const progress = (m) => {
      // Stage changes are announced at once; the amount at most every ANNOUNCE_EVERY_MS.
      if (truncated) return;
      begin();
      if (m.stage === "running") {
        meter.hidden = true;
        status.textContent = t.running;
        return;
      }
      meter.hidden = false;
      if (m.total) {
        meter.max = m.total;
        meter.value = m.loaded;
      } else {
        meter.removeAttribute("value"); // indeterminate
      }
      const now = performance.now();
      if (m.stage === announced.stage && now - announced.at < ANNOUNCE_EVERY_MS) return;
      announced = { stage: m.stage, at: now };
      const amount = m.stage !== "start" && m.loaded ? ` ${t.amount(m.loaded, m.total)}` : "";
      status.textContent = t[m.stage] + amount;
    };
    const settle = (state, message, keepPicture) => {
      begin(keepPicture, true);
      meter.hidden = true;
      paint(); // everything printed is on screen before the state says so
      status.textContent = message;
      panel.dataset.state = state;
    };
    const summary = (result) => {
      // The end of a run, announced once by the status region: state and a short summary.
      if (result.stopped) return result.restarted ? t.restarting : t.stopped;
      if (result.failed) return t.failed + result.failed;
      const earlier = result.earlier && result.earlier.length ? t.earlier : "";
      if (result.exit_code !== null && result.exit_code !== undefined) return t.exited(result.exit_code) + earlier;
      if (result.error) return `${t.error}: ${lastLine(result.traceback)}` + earlier;
      return `${t.done}: ${truncated ? t.truncatedSummary : t.lines(lines)}` + earlier;
    };

    const execute = async () => {
      if (job) return; // already running or queued (Run is aria-disabled)
      const rt = runtime();
      const blocks = chainOf(all, index).map((i) => ({
        code: codeOf(all, i),
        name: `<block ${i + 1}>`,
        first_line: 1,
      }));
      const broken = toggle && toggle.getAttribute("aria-pressed") === "true";
      // On the mystery page, mystery.js's hidden draw; its name stays out of what the run prints.
      const hidden = window.minigradMystery ? window.minigradMystery.hiddenBreak() : "";
      const masked = hidden ? (text) => text.replaceAll(hidden, "?") : (text) => text;
      queued = [];
      shown = 0;
      lines = 0;
      truncated = false;
      let phaseName = null;
      const showPhase = () => {
        if (phaseName !== "loading") meter.hidden = true;
        if (!truncated) status.textContent = t[phaseName];
      };
      /* The run shows that it started (old output cleared, Stop enabled, "Running…")
       * on screen after QUIET_MS, or as soon as it has more to show: a fast run's result
       * replaces the last one in one repaint, with no flash of an empty panel and
       * no layout of the page between the click and the result. */
      begun = false;
      begin = (keepPicture, over) => {
        if (begun) return;
        begun = true;
        clearTimeout(timer);
        output.replaceChildren();
        showEarlier();
        showLinks(panel, []);
        showEngineOutput(panel, "");
        live.hidden = false;
        pictures.clear(keepPicture);
        if (!over) { // a run over before it showed that it started: settle() says how it ended
          enable(run, false);
          enable(stop, true);
          if (phaseName) showPhase();
        }
        paint();
      };
      const timer = setTimeout(begin, QUIET_MS);
      panel.dataset.state = "running"; // at once (no style depends on it): whoever waits for this run's end sees it start
      const phase = (name) => {
        phaseName = name;
        if (begun) showPhase();
      };
      announced = { stage: null, at: 0 };
      const alive = () => panel.isConnected;
      const handlers = { stream: (m) => write(m.stream, masked(m.text)), links: (m) => { begin(); showLinks(panel, m.links); }, phase, progress, alive,
        checking: (m) => panel.dispatchEvent(new CustomEvent("mg-checking", { bubbles: true, detail: m })), // the doctor's case: doctor-folder.js shows it
        "engine-output": (m) => { begin(); showEngineOutput(panel, m.text); } };
      job = rt.submit(blocks, hidden || (broken ? slug : ""), handlers, pictures.options(broken));
      const result = await job.done;
      job = null;
      if (result.traceback && !result.stopped) show("stderr", masked(result.traceback)); // never cut: the reader needs it
      if (result.failed) show("stderr", t.failed + result.failed + "\n");
      const state = result.stopped ? "stopped" : result.failed || (result.error && result.exit_code !== 0) ? "error" : "done";
      const toDraw = result.pictures || []; // what the block drew: drawn once the run has settled
      settle(state, summary(result), toDraw.length > 0);
      if (!result.stopped) showEarlier(result.earlier, masked);
      enable(run, true);
      enable(stop, false);
      for (const m of toDraw) pictures.show(m, broken);
    };
    const stopRun = () => { if (job) runtime().stop(job); };

    const warmUp = () => { // intent: start loading now
      runtime().start().catch(() => {});
      if (block.dataset.numpy) runtime().prefetchNumpy();
    };
    run.addEventListener("pointerenter", warmUp, { once: true });
    run.addEventListener("focus", warmUp, { once: true });
    run.addEventListener("click", execute);
    stop.addEventListener("click", stopRun);
    reset.addEventListener("click", () => {
      begin(); // a run in its quiet start: what follows clears the panel, and its end does not show it again
      stopRun();
      if (editors.has(block)) editors.get(block).setText(original);
      try { sessionStorage.removeItem(storageKey); } catch { /* nothing stored */ }
      if (toggle && toggle.getAttribute("aria-pressed") === "true") toggle.click();
      output.replaceChildren();
      showEarlier();
      live.hidden = true;
      pictures.clear();
      status.textContent = "";
      delete panel.dataset.state;
    });
    if (toggle) {
      toggle.addEventListener("click", () => {
        const on = toggle.getAttribute("aria-pressed") !== "true";
        toggle.setAttribute("aria-pressed", String(on));
        toggle.textContent = on ? t.breakOn : t.breakOff;
        panel.classList.toggle("mg-broken", on);
      });
    }
    code.addEventListener("keydown", (event) => {
      // Before the editor has loaded; then the editor's own Ctrl/Cmd+Enter runs (onRun).
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        execute();
      }
    });

    let editing = null;
    const openEditor = (released) => {
      editing ??= Promise.all([loadEditor(), released])
        .then(([editor]) => editors.set(block, editor.attach(code, { onRun: execute, storageKey })))
        .catch((error) => { editing = null; console.warn(`minigrad: the code stays read-only: ${error.message}`); });
    };
    const intent = (event) => {
      // A press waits for its release: a drag selecting text is not cut short.
      const released = event.type !== "pointerdown" ? null : new Promise((resolve) => {
        const done = () => setTimeout(resolve);
        window.addEventListener("pointerup", done, { once: true });
        window.addEventListener("pointercancel", done, { once: true });
      });
      openEditor(released);
    };
    for (const type of ["focus", "pointerdown", "keydown"]) code.addEventListener(type, intent);
    if (storedEdit(storageKey) !== null) openEditor(null); // this visit's edit, back on screen
  }

  /* Links a run asked for (the doctor's suspects, through the worker's
   * `minigrad_page.links`), listed under the output. Built from slugs, in the
   * page's language; Python's text never becomes HTML. */
  function showLinks(panel, links) {
    const old = panel.querySelector(".mg-links");
    if (old) old.remove();
    const valid = (links || []).filter((l) => l && /^[a-z0-9-]+$/.test(l.slug));
    if (!valid.length) return;
    const root = new URL(meta("minigrad:root").content, location.href).href;
    const list = document.createElement("ul");
    list.className = "mg-links";
    list.setAttribute("aria-label", language() === "es" ? "Páginas de las roturas sospechosas" : "Pages of the suspected breaks");
    for (const { slug, title } of valid) {
      const a = document.createElement("a");
      a.href = `${root}${LANGUAGE_ROOTS[language()]}breaks/${slug}/`;
      a.textContent = typeof title === "string" && title ? title : slug;
      const item = document.createElement("li");
      item.append(a);
      list.append(item);
    }
    panel.append(list);
  }

  /* What the learner's engine printed while the doctor checked it: apart from the
   * report, folded, as text (never HTML). */
  function showEngineOutput(panel, text) {
    const old = panel.querySelector(".mg-engine-output");
    if (old) old.remove();
    if (!text) return;
    const details = document.createElement("details");
    details.className = "mg-engine-output";
    const summary = document.createElement("summary");
    summary.textContent = language() === "es" ? "Lo que imprimió tu motor mientras se comprobaba" : "What your engine printed while it was checked";
    const pre = document.createElement("pre");
    pre.textContent = text;
    details.append(summary, pre);
    panel.append(details);
  }

  function lastLine(text) {
    const line = (text || "").trim().split("\n").pop() || "";
    return line.length > 160 ? line.slice(0, 159) + "…" : line;
  }

  function enhance() {
    const content = document.querySelector(".md-content") || document.body;
    const all = [...content.querySelectorAll("div.language-python.highlight")];
    const page = content.querySelector(".mg-page");
    const slug = page ? page.dataset.minigradBreak : "";
    all.forEach((block, index) => {
      if (block.dataset.mgReady || block.dataset.notest) return;
      block.dataset.mgReady = "1";
      attach(all, index, block.dataset.break || slug); // a block's own break (the home page's), else the page's
    });
  }

  /* ---- the language switcher under instant navigation ----------------------
   * mkdocs-static-i18n writes the switcher's links for the page first loaded;
   * instant navigation does not replace the header, so they go stale (its
   * issue #115). Rewrite them on every page, and make them full page loads:
   * the other language is another site (search index, header, lang). */

  const LANGUAGE_ROOTS = { en: "", es: "es/" };

  function pathWithinLanguage() {
    const root = new URL(meta("minigrad:root").content, location.href).pathname;
    let rest = location.pathname.startsWith(root) ? location.pathname.slice(root.length) : "";
    for (const prefix of Object.values(LANGUAGE_ROOTS)) {
      if (prefix && rest.startsWith(prefix)) return { root, rest: rest.slice(prefix.length) };
    }
    return { root, rest };
  }

  function fixLanguageSwitcher() {
    const { root, rest } = pathWithinLanguage();
    for (const link of document.querySelectorAll("a.md-select__link[hreflang]")) {
      const prefix = LANGUAGE_ROOTS[link.hreflang];
      if (prefix !== undefined) link.href = root + prefix + rest + location.hash;
    }
  }

  function languageOfLink(link) {
    // Which language's part of this site a link leads to ("en" for the root part).
    const url = new URL(link.href, location.href);
    const root = new URL(meta("minigrad:root").content, location.href).pathname;
    if (url.origin !== location.origin || !url.pathname.startsWith(root)) return language();
    const rest = url.pathname.slice(root.length);
    const found = Object.entries(LANGUAGE_ROOTS).find(([, prefix]) => prefix && rest.startsWith(prefix));
    return found ? found[0] : "en";
  }

  // The switcher, and any other link into the other language (a search result,
  // a link in the text), is a full page load: instant navigation would keep
  // this page's lang, labels and search index.
  document.addEventListener(
    "click",
    (event) => {
      const link = event.target instanceof Element && event.target.closest("a[href]");
      if (!link || link.target || event.metaKey || event.ctrlKey) return;
      const switcher = link.matches("a.md-select__link[hreflang]");
      if (!switcher && languageOfLink(link) === language()) return;
      if (switcher) fixLanguageSwitcher();
      event.preventDefault();
      event.stopImmediatePropagation();
      location.assign(link.href);
    },
    true,
  );

  function labelSearchDialog() {
    // Material's search dialog has no accessible name (axe: aria-dialog-name).
    const dialog = document.querySelector(".md-search[role=dialog]");
    if (dialog && !dialog.hasAttribute("aria-label")) dialog.setAttribute("aria-label", language() === "es" ? "Buscar" : "Search");
  }

  function onPage() {
    if (window.__minigradRuntime) window.__minigradRuntime.prune();
    enhance();
    fixLanguageSwitcher();
    labelSearchDialog();
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(onPage);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", onPage);
  } else {
    onPage();
  }
  window.addEventListener("hashchange", fixLanguageSwitcher);
})();
