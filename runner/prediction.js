/* Predict first (hooks/predictions.py writes the forms): a question's folded answer stays
 * folded until the reader commits an answer and a confidence. Then it unfolds beside what
 * they predicted, they say whether they were right, and a confident miss is named as such.
 * Everything is kept in this browser (progress.js); a reload shows it again, and a broken
 * run on the page lists the predictions under its output. */

import { breakProgress, recordBreak } from "./progress.js";
import { TEXT, language } from "./text.js";

const VERDICTS = ["right", "partly", "wrong"];

export function attachPredictions(content) {
  for (const form of content.querySelectorAll("form[data-mg='prediction']")) {
    if (form.dataset.mgReady) continue;
    form.dataset.mgReady = "1";
    wire(form, TEXT[language()]);
  }
}

function wire(form, t) {
  const { break: slug, question } = form.dataset;
  const details = form.closest(".mg-predict").querySelector("details");
  const status = form.querySelector(".mg-prediction-status");
  const answer = form.querySelector("input[name=answer]");
  const refuse = (event) => {
    if (form.dataset.state) return;
    event.preventDefault();
    status.textContent = t.predictFirst;
    answer.focus();
  };
  details.querySelector("summary").addEventListener("click", refuse);
  details.addEventListener("toggle", () => { if (!form.dataset.state && details.open) details.open = false; });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const confidence = form.querySelector("input[name=confidence]:checked");
    const text = answer.value.trim();
    if (!text || !confidence) {
      status.textContent = !text ? t.needAnswer : t.needConfidence;
      (!text ? answer : form.querySelector("input[name=confidence]")).focus();
      return;
    }
    const made = { answer: text, confidence: confidence.value, at: new Date().toISOString() };
    recordBreak(slug, (entry) => { entry.predictions = { ...entry.predictions, [question]: made }; });
    show(form, details, made, t);
    form.querySelector(".mg-predicted button").focus();
  });
  const stored = (breakProgress(slug).predictions || {})[question];
  if (stored && stored.answer) show(form, details, stored, t);
}

/* The committed prediction, beside the answer now unfolded, and the reader's own verdict. */
function show(form, details, made, t) {
  form.dataset.state = made.verdict || "committed";
  form.querySelector(".mg-prediction-status").textContent = "";
  form.querySelector("input[name=answer]").value = made.answer;
  form.querySelector("input[name=answer]").readOnly = true;
  for (const radio of form.querySelectorAll("input[name=confidence]")) {
    radio.checked = radio.value === made.confidence;
    radio.disabled = !radio.checked;
  }
  form.querySelector(".mg-prediction-commit button").hidden = true;
  details.open = true;
  const box = form.querySelector(".mg-predicted") || document.createElement("div");
  box.className = "mg-predicted";
  const said = document.createElement("p");
  said.textContent = `${t.youPredicted} ${t.quoted(made.answer)} (${t.confidence[made.confidence]}). ${t.wereYouRight}`;
  const buttons = document.createElement("p");
  buttons.setAttribute("role", "group");
  buttons.setAttribute("aria-label", t.wereYouRight);
  const feedback = document.createElement("p");
  feedback.className = "mg-predicted-feedback";
  feedback.setAttribute("role", "status");
  for (const verdict of VERDICTS) {
    const b = Object.assign(document.createElement("button"), { type: "button", className: "md-button", textContent: t.verdicts[verdict] });
    b.setAttribute("aria-pressed", String(made.verdict === verdict));
    b.addEventListener("click", () => {
      made.verdict = verdict;
      recordBreak(form.dataset.break, (entry) => { entry.predictions = { ...entry.predictions, [form.dataset.question]: made }; });
      for (const other of buttons.children) other.setAttribute("aria-pressed", String(other === b));
      form.dataset.state = verdict;
      feedback.textContent = judged(made, t);
    });
    buttons.append(b);
  }
  feedback.textContent = made.verdict ? judged(made, t) : "";
  box.replaceChildren(said, buttons, feedback);
  form.append(box);
}

function judged(made, t) {
  if (made.verdict === "wrong" && made.confidence === "sure") return t.confidentMiss;
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
    item.textContent = `${n}. ${t.quoted(p.answer)} (${t.confidence[p.confidence] || p.confidence}${p.verdict ? `; ${t.verdicts[p.verdict]}` : ""})`;
    list.append(item);
  }
  box.append(summary, list);
  panel.append(box);
}
