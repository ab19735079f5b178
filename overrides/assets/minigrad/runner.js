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
      breakOff: "Break: off", breakOn: "Break: on", breakLabel: "Apply this page's break",
      code: "Python code, editable", output: "Output of this run",
      loading: "Loading Python…", running: "Running…", done: "Done", error: "Raised an error",
      stopped: "Stopped", restarting: "Stopped; Python restarts on the next run", failed: "Python could not start: ",
      truncated: "\n[output truncated]\n", waiting: "Waiting for the run before…",
    },
    es: {
      toolbar: "Ejecutar este código", run: "Ejecutar", stop: "Detener", reset: "Restablecer",
      breakOff: "Rotura: no", breakOn: "Rotura: sí", breakLabel: "Aplicar la rotura de esta página",
      code: "Código Python, editable", output: "Salida de esta ejecución",
      loading: "Cargando Python…", running: "Ejecutando…", done: "Listo", error: "Lanzó un error",
      stopped: "Detenido", restarting: "Detenido; Python se reinicia en la próxima ejecución", failed: "Python no pudo arrancar: ",
      truncated: "\n[salida truncada]\n", waiting: "Esperando a la ejecución anterior…",
    },
  };
  const OUTPUT_LIMIT = 100000; // characters kept under one block
  const STOP_GRACE_MS = 1000; // an interrupt not honoured by then terminates the worker

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
      numpyURL: local ? indexURL + py.dataset.numpyWheel : "numpy",
      bundleURL: root + "_minigrad/bundle.json",
    };
  }

  /* ---- the Python worker, one per visit -------------------------------- */

  class Runtime {
    constructor(config) {
      this.config = config;
      this.worker = null;
      this.ready = null;
      this.jobs = new Map();
      this.nextId = 1;
      this.interrupt = self.crossOriginIsolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
      this.bootMs = null;
    }

    start() {
      if (this.ready) return this.ready;
      const worker = new Worker(this.config.workerURL);
      this.worker = worker;
      this.ready = new Promise((resolve, reject) => {
        worker.onmessage = (event) => {
          const m = event.data;
          if (m.type === "ready") { this.bootMs = m.ms; resolve(); }
          else if (m.type === "failed") reject(new Error(m.message));
          else this.dispatch(m);
        };
        worker.onerror = (event) => reject(new Error(event.message || "worker error"));
      });
      this.ready.catch(() => this.reset());
      const { indexURL, numpyURL, bundleURL } = this.config;
      worker.postMessage({ type: "boot", indexURL, numpyURL, bundleURL, interruptBuffer: this.interrupt });
      return this.ready;
    }

    async run(blocks, slug, handlers) {
      await this.start();
      const id = this.nextId++;
      return new Promise((resolve) => {
        this.jobs.set(id, { handlers, resolve });
        if (this.interrupt) this.interrupt[0] = 0;
        this.worker.postMessage({ type: "run", id, blocks, slug, lang: language() });
      });
    }

    dispatch(m) {
      const job = this.jobs.get(m.id);
      if (!job) return;
      if (m.type === "stream") job.handlers.stream(m.stream, m.text);
      if (m.type === "links" && job.handlers.links) job.handlers.links(m.links);
      if (m.type === "done") { this.jobs.delete(m.id); job.resolve(m); }
    }

    stop() {
      if (!this.worker) return;
      if (this.interrupt) {
        this.interrupt[0] = 2; // SIGINT: Python raises KeyboardInterrupt at the next bytecode
        const worker = this.worker;
        setTimeout(() => { if (this.worker === worker && this.jobs.size) this.terminate(); }, STOP_GRACE_MS);
      } else {
        this.terminate();
      }
    }

    terminate() {
      this.worker.terminate();
      for (const [id, job] of this.jobs) job.resolve({ type: "done", id, stopped: true, restarted: true });
      this.reset();
    }

    reset() {
      this.worker = null;
      this.ready = null;
      this.bootMs = null; // the next run boots again: its status says "Loading Python…"
      this.jobs.clear();
    }
  }

  function runtime() {
    if (!window.__minigradRuntime) window.__minigradRuntime = new Runtime(settings());
    return window.__minigradRuntime;
  }

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
    const toggle = slug ? button("break", t.breakLabel, t.breakOff) : null;
    const stop = button("stop", null, t.stop);
    const reset = button("reset", null, t.reset);
    stop.disabled = true;
    const status = document.createElement("span");
    status.className = "mg-status";
    status.setAttribute("role", "status");
    const output = document.createElement("pre");
    output.className = "mg-output";
    output.hidden = true;
    output.tabIndex = 0;
    output.setAttribute("role", "region");
    output.setAttribute("aria-label", t.output);
    if (toggle) toggle.setAttribute("aria-pressed", "false");
    toolbar.append(...[run, toggle, stop, reset].filter(Boolean), status);
    panel.append(toolbar, output);
    block.after(panel);

    let shown = 0;
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
    const write = (stream, text) => {
      if (stream === "notice") {
        text = t.truncated; // always shown, past the limit
      } else {
        if (shown >= OUTPUT_LIMIT) return;
        text = text.slice(0, OUTPUT_LIMIT - shown);
        shown += text.length;
      }
      if (!queued.length) requestAnimationFrame(paint);
      queued.push([stream, text]);
    };
    const settle = (state, message) => {
      paint(); // everything printed is on screen before the state says so
      status.textContent = message;
      panel.dataset.state = state;
    };

    const execute = async () => {
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
      output.replaceChildren();
      showLinks(panel, []);
      output.hidden = false;
      shown = 0;
      run.disabled = true;
      stop.disabled = false;
      panel.dataset.state = "running";
      status.textContent = rt.bootMs !== null ? t.running : t.loading;
      try {
        const started = rt.start();
        if (rt.bootMs === null) await started;
        status.textContent = rt.jobs.size ? t.waiting : t.running;
        const result = await rt.run(blocks, hidden || (broken ? slug : ""), { stream: (s, text) => write(s, masked(text)), links: (l) => showLinks(panel, l) });
        if (result.stopped) {
          settle("stopped", result.restarted ? t.restarting : t.stopped);
        } else if (result.error) {
          write("stderr", masked(result.traceback));
          settle("error", t.error);
        } else {
          settle("done", t.done);
        }
      } catch (error) {
        write("stderr", t.failed + error.message + "\n");
        settle("error", t.failed + error.message);
      } finally {
        run.disabled = false;
        stop.disabled = true;
      }
    };

    const warmUp = () => runtime().start().catch(() => {}); // intent: start loading now
    run.addEventListener("pointerenter", warmUp, { once: true });
    run.addEventListener("focus", warmUp, { once: true });
    run.addEventListener("click", execute);
    stop.addEventListener("click", () => runtime().stop());
    reset.addEventListener("click", () => {
      if (editors.has(block)) editors.get(block).setText(original);
      try { sessionStorage.removeItem(storageKey); } catch { /* nothing stored */ }
      if (toggle && toggle.getAttribute("aria-pressed") === "true") toggle.click();
      output.replaceChildren();
      output.hidden = true;
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

  function enhance() {
    const content = document.querySelector(".md-content") || document.body;
    const all = [...content.querySelectorAll("div.language-python.highlight")];
    const page = content.querySelector(".mg-page");
    const slug = page ? page.dataset.minigradBreak : "";
    all.forEach((block, index) => {
      if (block.dataset.mgReady || block.dataset.notest) return;
      block.dataset.mgReady = "1";
      attach(all, index, slug);
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
