/* minigrad breaks: the doctor page's "Load a folder" (minigrad_site/pages/doctor_folder.py renders its controls).
 *
 * The reader chooses their package folder (the zone is the picker's button) or
 * drops it on the zone. Its .py files are read here, bounded as the zone's data
 * says (hidden folders, __pycache__, site-packages and node_modules skipped), and
 * go with the run to the worker ("files": written under /home/pyodide/learner/);
 * the run is check_folder(that folder), queued by runner.js (window.minigradRunner),
 * so Stop, streaming and the suspects' links work as for a block. Nothing leaves
 * the browser. Python loads on intent (pointer, focus or a drag over the zone),
 * never before. On this page the doctor's current check and case (the worker's
 * "checking" messages) are shown beside a run's status, at most once per frame.
 * Loaded by the doctor pages only; instant navigation evaluates it again, hence
 * the guard: everything per page happens in onPage.
 */
(() => {
  "use strict";
  if (window.minigradDoctorFolder) return;
  window.minigradDoctorFolder = true;

  const LEARNER = "/home/pyodide/learner/";
  const SKIPPED = /^(\..+|__pycache__|site-packages|node_modules)$/; // folders never read
  // This zone's own words; Python's loading, stopping and failing are the runner's (runner/text.js),
  // said alike under every block.
  // The page's words (minigrad/words/<lang>.toml, page_scripts, written into the page as JSON), as runner/words.js reads them.
  const pageWords = (part) => JSON.parse(((document.getElementById("minigrad-words") || {}).dataset || {}).words || "{}")[part] || {};
  const fill = (template, values) => String(template ?? "").replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
  function texts() {
    const w = pageWords("doctor_folder");
    return {
      ...w,
      reading: (n) => fill(w.reading, { n }),
      tooMany: (max) => fill(w.tooMany, { max }),
      tooBig: (mb) => fill(w.tooBig, { mb }),
    };
  }


  const language = () => ((document.documentElement.lang || "en").slice(0, 2) === "es" ? "es" : "en");
  const runner = () => window.minigradRunner;

  /* The doctor's current check and case beside a run's status: not a live region
   * (it would announce every case), painted once per frame, cleared when it ends. */
  function showChecking(panel, m) {
    let shown = panel.querySelector(".mg-checking");
    if (!shown) {
      shown = document.createElement("span");
      shown.className = "mg-checking";
      panel.querySelector(".mg-status").after(" ", shown);
    }
    shown.dataset.pending = `${m.check}: ${m.case}`;
    if (shown.dataset.painting) return;
    shown.dataset.painting = "1";
    requestAnimationFrame(() => {
      delete shown.dataset.painting;
      shown.textContent = panel.dataset.state === "running" ? shown.dataset.pending : "";
    });
    if (!panel.mgWatched) { // a block's panel: clear the case when its run ends
      panel.mgWatched = new MutationObserver(() => { if (panel.dataset.state !== "running") shown.textContent = ""; });
      panel.mgWatched.observe(panel, { attributes: true, attributeFilter: ["data-state"] });
    }
  }

  /* ---- reading what the reader chose: [{path, file}] ------------------------ */

  const wanted = (path) => path.endsWith(".py") && !path.split("/").slice(0, -1).some((d) => SKIPPED.test(d));

  function fromPicker(input) {
    return [...input.files].map((file) => ({ path: file.webkitRelativePath || file.name, file })).filter((f) => wanted(f.path));
  }

  async function fromDrop(entries, loose, limit) {
    const found = [];
    const walk = async (entry, dir) => {
      if (found.length > limit) return; // enough to refuse: a whole disk is not walked
      if (entry.isFile && wanted(dir + entry.name)) found.push({ path: dir + entry.name, file: await new Promise((ok, no) => entry.file(ok, no)) });
      if (!entry.isDirectory || SKIPPED.test(entry.name)) return;
      const reader = entry.createReader(); // readEntries gives a folder's entries in batches, then []
      for (let batch; (batch = await new Promise((ok, no) => reader.readEntries(ok, no))).length;) {
        for (const child of batch) await walk(child, `${dir}${entry.name}/`);
      }
    };
    for (const entry of entries) await walk(entry, "");
    if (!entries.length) for (const file of loose) if (wanted(file.name)) found.push({ path: file.name, file });
    return found;
  }

  /* ---- one folder, checked -------------------------------------------------- */

  function setup(zone) {
    const t = { ...runner().TEXT[language()], ...texts() }; // runner.js ran first: it is in every page's scripts
    const button = zone.querySelector(".mg-folder-zone");
    const input = zone.querySelector(".mg-folder-input");
    const panel = zone.querySelector(".mg-folder-run");
    const stop = panel.querySelector(".mg-stop");
    const status = panel.querySelector(".mg-status");
    const output = panel.querySelector(".mg-output");
    const maxFiles = Number(zone.dataset.maxFiles);
    const maxBytes = Number(zone.dataset.maxBytes);
    let job = null;

    const warmUp = () => { // intent, as on a Run button: Python (and NumPy, which the checks need) start loading
      runner().runtime().start().catch(() => {});
      runner().runtime().prefetchNumpy();
    };
    const say = (text, state) => {
      panel.hidden = false;
      status.textContent = text;
      if (state) panel.dataset.state = state;
    };
    const write = (stream, text) => {
      const s = document.createElement("span");
      s.className = `mg-${stream}`;
      s.textContent = stream === "notice" ? t.truncated : text; // text only, never HTML
      output.append(s);
    };

    const check = async (found) => {
      if (job) return; // one at a time: Stop first
      output.replaceChildren();
      runner().showLinks(panel, []);
      runner().showEngineOutput(panel, "");
      runner().showVerdict(panel, null);
      if (!found.length) return say(t.none, "error");
      if (found.length > maxFiles) return say(t.tooMany(maxFiles), "error");
      if (found.reduce((n, f) => n + f.file.size, 0) > maxBytes) return say(t.tooBig(maxBytes / 1e6), "error");
      say(t.reading(found.length), "running");
      const files = await Promise.all(found.map(async ({ path, file }) => ({ path, text: await file.text() })));
      const tops = new Set(files.map((f) => f.path.split("/")[0]));
      const one = tops.size === 1 && files[0].path.includes("/") ? [...tops][0] : ""; // one folder: that one
      // The run is one call; what it does is Python's (minigrad.doctor.check_loaded_folder).
      const code = `import minigrad.doctor\nminigrad.doctor.check_loaded_folder(${JSON.stringify(LEARNER + one)})`;
      const handlers = {
        stream: (m) => write(m.stream, m.text),
        links: (m) => runner().showLinks(panel, m.links),
        "engine-output": (m) => runner().showEngineOutput(panel, m.text),
        verdict: (m) => runner().showVerdict(panel, m.verdict), // first, the report's text folded under it
        checking: (m) => showChecking(panel, m),
        phase: (name) => say(t[name]),
        progress: (m) => say(t[m.stage]),
        alive: () => panel.isConnected,
      };
      stop.setAttribute("aria-disabled", "false");
      job = runner().runtime().submit([{ code, name: "<folder>", first_line: 1 }], "", handlers, {}, files);
      const result = await job.done;
      job = null;
      stop.setAttribute("aria-disabled", "true");
      panel.querySelector(".mg-checking").textContent = "";
      if (result.traceback && !result.stopped) write("stderr", result.traceback);
      if (result.failed) write("stderr", t.failed + result.failed + "\n");
      if (result.stopped) return say(result.restarted ? t.restarting : t.stopped, "stopped");
      if (result.failed || result.error) return say(result.failed ? t.failed + result.failed : t.error, "error");
      say(t.done, "done");
    };

    button.addEventListener("pointerenter", warmUp, { once: true });
    button.addEventListener("focus", warmUp, { once: true });
    button.addEventListener("click", () => input.click());
    // data-state says "running" at once, as a block's does: whoever waits for the end sees the start.
    const started = () => { if (!job) panel.dataset.state = "running"; };
    input.addEventListener("change", () => {
      started();
      const found = fromPicker(input);
      input.value = ""; // the same folder, chosen again, is read again
      check(found);
    });
    stop.addEventListener("click", () => { if (job) runner().runtime().stop(job); });
    button.addEventListener("dragenter", (event) => { event.preventDefault(); button.classList.add("mg-dragging"); warmUp(); });
    button.addEventListener("dragover", (event) => { event.preventDefault(); event.dataTransfer.dropEffect = "copy"; });
    button.addEventListener("dragleave", () => button.classList.remove("mg-dragging"));
    button.addEventListener("drop", (event) => {
      event.preventDefault();
      button.classList.remove("mg-dragging");
      started();
      // Read while the event lasts: the DataTransfer is empty once it is over.
      const items = [...event.dataTransfer.items].filter((i) => i.kind === "file");
      const entries = items.map((i) => i.webkitGetAsEntry && i.webkitGetAsEntry()).filter(Boolean);
      fromDrop(entries, [...event.dataTransfer.files], maxFiles).then(check, (error) => say(`${t.error}: ${error.message}`, "error"));
    });
  }

  function onPage() {
    for (const zone of document.querySelectorAll(".mg-folder:not([data-mg-ready])")) {
      zone.dataset.mgReady = "1";
      setup(zone);
    }
  }

  // A block's doctor run on this page (runner.js dispatches its "checking" messages).
  document.addEventListener("mg-checking", (event) => showChecking(event.target, event.detail));
  const start = () => (window.document$ && window.document$.subscribe ? window.document$.subscribe(onPage) : onPage());
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
