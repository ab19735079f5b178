/* Predict first (minigrad_site/pages/predictions.py writes the forms): a question's folded answer stays
 * folded until the reader commits an answer and a confidence. Then it unfolds beside what
 * they predicted, graded here against what the page's Markdown marks right (a choice, or a
 * number within the page's tolerance; CI checks those against the answer). A confident miss
 * is named as such. Everything is kept in this browser (progress.js); a reload shows it
 * again, and a broken run on the page lists the predictions under its output. */

import { foldWanted } from "./fold.js";
import { breakProgress, recordBreak } from "./progress.js";
import { TEXT, language } from "./text.js";

export function attachPredictions(content) {
  for (const form of content.querySelectorAll("form[data-mg='prediction']")) {
    if (form.dataset.mgReady) continue;
    form.dataset.mgReady = "1";
    wire(form, TEXT[language()]);
  }
}

/* A number as a reader writes it: "1,5" as well as "1.5", "−3" as well as "-3". */
function readNumber(text) {
  const plain = text.replace(/\s/g, "").replace("−", "-").replace(/^(-?\d+),(\d+)$/, "$1.$2");
  return /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(plain) ? Number(plain) : null;
}

/* What the reader answered, {answer, choice?, verdict}, or a reason to refuse it. */
function answerOf(form, t) {
  const kind = form.dataset.kind;
  if (kind === "choice") {
    const chosen = form.querySelector("input[name=answer]:checked");
    if (!chosen) return { refused: t.needChoice, focus: form.querySelector("input[name=answer]") };
    const choice = Number(chosen.value);
    return { answer: chosen.closest("label").textContent.trim(), choice, verdict: choice === Number(form.dataset.right) ? "right" : "wrong" };
  }
  const input = form.querySelector("input[name=answer]");
  const text = input.value.trim();
  if (!text) return { refused: t.needAnswer, focus: input };
  const value = readNumber(text), expected = Number(form.dataset.value);
  if (value === null) return { refused: t.needNumber, focus: input };
  const close = Math.abs(value - expected) <= Math.max(1e-9, Number(form.dataset.tolerance) * Math.abs(expected));
  return { answer: text, verdict: close ? "right" : "wrong" };
}

function wire(form, t) {
  const { break: slug, question } = form.dataset;
  const details = form.closest(".mg-predict").querySelector("details");
  const status = form.querySelector(".mg-prediction-status");
  const waits = () => !form.dataset.state && foldWanted(); // the fold off: the reader reads straight through
  const refuse = (event) => {
    if (!waits()) return;
    event.preventDefault();
    status.textContent = t.predictFirst;
    form.querySelector("input[name=answer]").focus();
  };
  details.querySelector("summary").addEventListener("click", refuse);
  details.addEventListener("toggle", () => { if (waits() && details.open) details.open = false; });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const given = answerOf(form, t);
    const confidence = form.querySelector("input[name=confidence]:checked");
    if (given.refused || !confidence) {
      status.textContent = given.refused || t.needConfidence;
      (given.focus || form.querySelector("input[name=confidence]")).focus();
      return;
    }
    const made = { answer: given.answer, confidence: confidence.value, at: new Date().toISOString() };
    if (given.choice !== undefined) made.choice = given.choice;
    made.verdict = given.verdict;
    recordBreak(slug, (entry) => { entry.predictions = { ...entry.predictions, [question]: made }; });
    show(form, details, made, t);
    form.querySelector(".mg-predicted").focus(); // a screen reader reads the verdict and what it means
  });
  const stored = (breakProgress(slug).predictions || {})[question];
  if (stored && stored.answer && stored.verdict) show(form, details, stored, t);
}

/* The committed prediction, locked and graded, beside the answer now unfolded. */
function show(form, details, made, t) {
  form.dataset.state = made.verdict;
  form.querySelector(".mg-prediction-status").textContent = "";
  for (const input of form.querySelectorAll("input[name=answer]")) {
    if (input.type === "radio") {
      input.checked = Number(input.value) === made.choice;
      input.disabled = !input.checked;
      const label = input.closest("label");
      if (Number(input.value) === Number(form.dataset.right) && !label.querySelector(".mg-right-choice")) {
        // In the choice's text, not beside it: a flex item of its own becomes a narrow column on a phone.
        label.querySelector("span").append(Object.assign(document.createElement("strong"), { className: "mg-right-choice", textContent: ` (${t.rightChoice})` }));
      }
    } else {
      input.value = made.answer;
      input.readOnly = true;
    }
  }
  for (const radio of form.querySelectorAll("input[name=confidence]")) {
    radio.checked = radio.value === made.confidence;
    radio.disabled = !radio.checked;
  }
  form.querySelector(".mg-prediction-commit button").hidden = true;
  details.open = true;
  const box = form.querySelector(".mg-predicted") || document.createElement("div");
  Object.assign(box, { className: "mg-predicted", tabIndex: -1 });
  const said = document.createElement("p");
  said.textContent = `${t.youPredicted} ${t.quoted(made.answer)} (${t.confidence[made.confidence]}): ${t.graded[made.verdict]}.`;
  const feedback = Object.assign(document.createElement("p"), { className: "mg-predicted-feedback", textContent: judged(made, t) });
  box.replaceChildren(said, feedback);
  form.append(box);
}

function judged(made, t) {
  if (made.verdict === "wrong" && made.confidence === "sure") return t.confidentMiss;
  if (made.verdict === "right" && made.confidence === "guessing") return t.luckyGuess;
  return t.judged[made.verdict];
}

/* Under a broken run's output: what the reader predicted for this page, if anything. */
export function showPredictionsBeside(panel, slug) {
  panel.querySelector(".mg-predictions-beside")?.remove();
  const t = TEXT[language()];
  const made = Object.entries((slug && breakProgress(slug).predictions) || {}).filter(([, p]) => p && p.answer);
  if (!made.length) return;
  const box = document.createElement("details");
  box.className = "mg-predictions-beside";
  box.open = true;
  const summary = document.createElement("summary");
  summary.textContent = t.yourPredictions;
  const list = document.createElement("ul");
  for (const [n, p] of made.sort(([a], [b]) => a - b)) {
    const item = document.createElement("li");
    item.textContent = `${n}. ${t.quoted(p.answer)} (${t.confidence[p.confidence] || p.confidence}${p.verdict ? `; ${t.graded[p.verdict]}` : ""})`;
    list.append(item);
  }
  box.append(summary, list);
  panel.append(box);
}
