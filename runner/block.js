/* One code block's runner: its toolbar, output, status and live pictures, and the
 * run it queues on the visit's one Python (runtime.js). */

import { codeOf, editKey, editors, loadEditor, storedEdit } from "./editor.js";
import { unfoldAfterBrokenRun } from "./fold.js";
import { livePictures } from "./pictures.js";
import { showEngineOutput, showLinks } from "./reports.js";
import { runtime } from "./runtime.js";
import { showPredictionsBeside } from "./prediction.js";
import { showRepairVerdict } from "./repair.js";
import { doctorChain, showVerdict } from "./verdict.js";
import { copyLink, linkFor } from "./share.js";
import { TEXT, language } from "./text.js";

const OUTPUT_LIMIT = 100000; // characters kept under one block
const QUIET_MS = 100; // a run shows that it started (output cleared, "Running…") only after this
const ANNOUNCE_EVERY_MS = 4000; // a download's amount, in the status region, at most this often

function button(className, label, text) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `md-button mg-${className}`;
  b.textContent = text;
  if (label) b.setAttribute("aria-label", label);
  return b;
}

/* The blocks this block's run executes, as indexes into `all`: the build wrote them
 * (minigrad_site/pages/fences.py's data-chain, by minigrad.runner.chains' rule); this only finds them. */
function chainOf(all, index) {
  const chain = all[index].dataset.chain;
  if (chain === undefined) return [index]; // a block the build did not write (none today): it runs alone
  return chain.split(" ").filter(Boolean).map((id) => all.findIndex((b) => b.dataset.block === id));
}

export function attach(all, index, slug) {
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
  const repair = block.dataset.repair || ""; // "Repair it": Run is Check (repair.js)
  const run = button("run", null, repair ? t.check : t.run);
  // Its name is its visible text, the action; its state is aria-pressed, announced with it, and a ✓ on screen.
  const toggle = slug && !repair ? button("break", null, t.breakIt) : null;
  const stop = button("stop", null, t.stop);
  const reset = button("reset", null, t.reset);
  const share = button("share", null, t.share); // shown once the code differs from the page's
  share.hidden = true;
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
  toolbar.append(...[run, toggle, stop, reset, share].filter(Boolean), meter, status);
  panel.append(toolbar, live);
  block.after(panel);
  panel.dataset.shareLabel = t.shareField;
  block.mgOriginal = original; // main.js finds a shared link's block by it
  const edited = (text) => {
    share.hidden = text === original;
    panel.toggleAttribute("data-edited", text !== original);
  };
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
      // A Check's report: a span per line, which wraps under its own start (runner.css), not at column 0.
      for (const piece of repair ? text.split(/(?<=\n)/) : [text]) {
        const span = document.createElement("span");
        span.className = `mg-${stream}`;
        span.textContent = piece; // text only: output is never parsed as HTML
        fragment.append(span);
      }
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
  let verdict = ""; // a Check's verdict line (minigrad.repair): the status says it, not "Done: 13 lines"
  const summary = (result) => {
    // The end of a run, announced once by the status region: state and a short summary.
    if (result.stopped) return result.restarted ? t.restarting : t.stopped;
    if (result.failed) return t.failed + result.failed;
    if (verdict) return verdict;
    const earlier = result.earlier && result.earlier.length ? t.earlier : "";
    if (result.exit_code !== null && result.exit_code !== undefined) return t.exited(result.exit_code) + (result.ended ? t.ended : "") + earlier;
    if (result.error) return `${t.error}: ${lastLine(result.traceback)}` + earlier;
    return `${t.done}: ${truncated ? t.truncatedSummary : t.lines(lines)}` + earlier;
  };

  const execute = async () => {
    if (job) return; // already running or queued (Run is aria-disabled)
    const rt = runtime();
    const chain = (repair ? [index] : chainOf(all, index)).map((i) => ({
      code: codeOf(all, i),
      name: `<block ${i + 1}>`,
      first_line: 1,
    }));
    const blocks = repair ? chain : doctorChain(chain); // the doctor page: a pasted engine needs no calling lines
    const broken = toggle && toggle.getAttribute("aria-pressed") === "true";
    if (broken) unfoldAfterBrokenRun(slug); // what the broken code prints is on screen now: the page's answers open
    // On the mystery page, mystery.js's hidden draw; its name stays out of what the run prints.
    const hidden = window.minigradMystery ? window.minigradMystery.hiddenBreak() : "";
    const masked = hidden ? (text) => text.replaceAll(hidden, "?") : (text) => text;
    queued = [];
    shown = 0;
    lines = 0;
    verdict = "";
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
      showVerdict(panel, null);
      panel.querySelector(".mg-predictions-beside")?.remove();
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
      "engine-output": (m) => { begin(); showEngineOutput(panel, m.text); }, repaired: (m) => { verdict = m.verdict.said || ""; showRepairVerdict(block, m.verdict); },
      verdict: (m) => { begin(); showVerdict(panel, m.verdict); } }; // the doctor's verdict, first (verdict.js)
    job = rt.submit(blocks, hidden || (broken ? slug : ""), handlers, pictures.options(broken), undefined, repair);
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
    if (broken && !result.stopped) showPredictionsBeside(panel, slug); // what the reader predicted, beside what happened
  };
  const stopRun = () => { if (job) runtime().stop(job); };

  const warmUp = () => { // intent: start loading now
    runtime().start().catch(() => {});
    if (block.dataset.numpy || repair) runtime().prefetchNumpy(); // the checks need NumPy
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
    edited(original);
    panel.querySelector(".mg-share-field")?.remove();
    if (toggle && toggle.getAttribute("aria-pressed") === "true") toggle.click();
    showVerdict(panel, null);
    output.replaceChildren();
    showEarlier();
    live.hidden = true;
    pictures.clear();
    status.textContent = "";
    delete panel.dataset.state;
    block.closest("[data-mg='repair']")?.removeAttribute("data-state"); // the broken code again: not repaired
  });
  if (toggle) {
    toggle.addEventListener("click", () => {
      const on = toggle.getAttribute("aria-pressed") !== "true";
      toggle.setAttribute("aria-pressed", String(on));
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

  share.addEventListener("click", async () => {
    const link = await linkFor(index, original, codeOf(all, index));
    status.textContent = link ? t[await copyLink(panel, link)] : t.linkTooLong;
  });

  let editing = null;
  let fromLink = null; // a shared link's code, waiting for the editor
  const openEditor = (released) => {
    editing ??= Promise.all([loadEditor(), released])
      .then(([editor]) => {
        const view = editor.attach(code, { onRun: execute, onChange: edited, storageKey });
        editors.set(block, view);
        if (fromLink !== null) view.setText(fromLink); // stored for the visit like any edit
        fromLink = null;
        edited(view.getText());
      })
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

  block.mgShared = ({ text, problem }) => { // main.js: the code a link carries for this block
    status.textContent = problem ? t[problem] : t.fromLink;
    if (problem) return;
    if (editors.has(block)) editors.get(block).setText(text);
    else fromLink = text;
    openEditor(null);
    block.scrollIntoView({ block: "center" });
  };
}

function lastLine(text) {
  const line = (text || "").trim().split("\n").pop() || "";
  return line.length > 160 ? line.slice(0, 159) + "…" : line;
}
