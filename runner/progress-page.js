/* The progress page (minigrad_site/pages/progress.py renders its list and tools; this fills them).
 *
 * Every break's line says what this browser's record holds for it: predictions and how they
 * went, a repair, a mystery found. Export saves the record as a file (a download made here:
 * nothing is sent); Import reads one back and merges it with what is here (the file is
 * checked whole first: a file that is not a record changes nothing; a break this site does not
 * have is set aside and named, not stored); Reset erases it after a
 * second, explicit press. Bundled on its own by minigrad_site/build/minify_js.py and loaded by this page
 * only; instant navigation evaluates it again, hence the guard. */

import { KEY, mergeProgress, readProgress, resetProgress, summarize, needsReview, validProgress, writeProgress } from "./progress.js";
import { language } from "./text.js";

const MAX_BYTES = 1_000_000; // a record of every break is a few kB: more is not ours

const WORDS = {
  en: {
    notStarted: "Not started",
    predicted: (n, of) => `Predicted ${n} of ${of}`,
    one: (n, verdict, confidence) => `question ${n} ${verdict} (${confidence})`,
    verdict: { right: "right", wrong: "wrong" }, confidence: { sure: "sure", unsure: "unsure", guessing: "guessing" },
    repaired: "Repaired", checked: (n) => `Checked ${n}×, not repaired yet`,
    found: "Found as a mystery", revealed: "Revealed as a mystery", unfolded: "answers seen before predicting",
    summary: (s) => `Predictions on ${s.predicted} of ${s.total} breaks (${s.wrong} with a wrong one), `
      + `${s.repaired} repaired, ${s.found} found as a mystery. Kept in this browser only.`,
    saved: (name, n) => `Saved ${name}: it holds ${n} ${n === 1 ? "break" : "breaks"}.`,
    imported: (name, n) => `Imported ${name}: ${n} ${n === 1 ? "break" : "breaks"}, merged with what this browser had.`,
    setAside: (slugs, n) => `Set aside, not stored (this site has no such ${n === 1 ? "break" : "breaks"}): ${slugs}.`,
    notOurs: (name, why) => `${name} is not a progress file of this site (${why}): nothing changed.`,
    tooBig: "larger than 1 MB", notJson: "not JSON", wrongShape: "not the shape this site writes",
    unreadable: "could not be read",
    erased: "Erased: this browser keeps no progress now.", kept: "Nothing was erased.",
    storageBlocked: "This browser refuses to store anything for this site (private mode or settings): nothing is kept.",
  },
  es: {
    notStarted: "Sin empezar",
    predicted: (n, of) => `${n} de ${of} predicciones`,
    one: (n, verdict, confidence) => `pregunta ${n} ${verdict} (${confidence})`,
    verdict: { right: "acertada", wrong: "fallada" }, confidence: { sure: "mucha confianza", unsure: "poca confianza", guessing: "adivinando" },
    repaired: "Reparada", checked: (n) => `Comprobada ${n}×, aún sin reparar`,
    found: "Encontrada como misterio", revealed: "Revelada como misterio", unfolded: "respuestas vistas antes de predecir",
    summary: (s) => `Predicciones en ${s.predicted} de ${s.total} roturas (${s.wrong} con alguna fallada), `
      + `${s.repaired} reparadas, ${s.found} encontradas como misterio. Solo se guarda en este navegador.`,
    saved: (name, n) => `Guardado ${name}: contiene ${n} ${n === 1 ? "rotura" : "roturas"}.`,
    imported: (name, n) => `Importado ${name}: ${n} ${n === 1 ? "rotura" : "roturas"}, combinadas con lo que tenía este navegador.`,
    setAside: (slugs, n) => (n === 1 ? `Apartada, sin guardar (este sitio no tiene esa rotura): ${slugs}.`
      : `Apartadas, sin guardar (este sitio no tiene esas roturas): ${slugs}.`),
    notOurs: (name, why) => `${name} no es un archivo de progreso de este sitio (${why}): no cambió nada.`,
    tooBig: "pasa de 1 MB", notJson: "no es JSON", wrongShape: "no tiene la forma que escribe este sitio",
    unreadable: "no se pudo leer",
    erased: "Borrado: este navegador ya no guarda progreso.", kept: "No se borró nada.",
    storageBlocked: "Este navegador no deja guardar nada a este sitio (modo privado o ajustes): no se guarda nada.",
  },
};

/* One break's line and data attributes (the tests read the attributes, the reader the text). */
function describe(entry, questions, w) {
  const s = summarize(entry);
  const parts = [];
  if (s.predicted) {
    const each = Object.entries(entry.predictions).filter(([, p]) => p && p.answer).sort(([a], [b]) => a - b)
      .map(([n, p]) => w.one(n, w.verdict[p.verdict], w.confidence[p.confidence]));
    parts.push(`${w.predicted(s.predicted, Math.max(questions, s.predicted))}: ${each.join(", ")}`);
  }
  if (s.unfolded) parts.push(w.unfolded);
  if (s.repaired) parts.push(w.repaired);
  else if (entry.checks) parts.push(w.checked(entry.checks));
  if (s.found) parts.push(w.found);
  else if (s.revealed) parts.push(w.revealed);
  const predicted = !s.predicted ? "none" : s.wrong ? "wrong" : "right";
  return {
    text: parts.length ? parts.join(" · ") : w.notStarted,
    data: { predicted, repaired: s.repaired ? "yes" : "no", mystery: s.found ? "found" : s.revealed ? "revealed" : "no",
      unfolded: s.unfolded ? "yes" : "no", review: needsReview(entry) ? "yes" : "no" },
  };
}

function fill(root, w) {
  const data = readProgress();
  const total = { total: 0, predicted: 0, wrong: 0, repaired: 0, found: 0 };
  for (const item of root.querySelectorAll("[data-mg='progress'] li[data-break]")) {
    const entry = data.breaks[item.dataset.break] || {};
    const { text, data: attributes } = describe(entry, Number(item.dataset.questions) || 0, w);
    item.querySelector(".mg-progress-state").textContent = text;
    Object.assign(item.dataset, attributes);
    total.total += 1;
    total.predicted += attributes.predicted !== "none";
    total.wrong += attributes.predicted === "wrong";
    total.repaired += attributes.repaired === "yes";
    total.found += attributes.mystery === "found";
  }
  root.querySelector(".mg-progress-summary").textContent = w.summary(total);
}

function exportRecord(root, w, say) {
  const data = readProgress();
  const name = `minigrad-progress-${new Date().toISOString().slice(0, 10)}.json`;
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name, hidden: true });
  root.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  say(w.saved(name, Object.keys(data.breaks).length));
}

async function importFile(file, w, say, known) {
  const refuse = (why) => say(w.notOurs(file.name, why));
  if (file.size > MAX_BYTES) return refuse(w.tooBig);
  let text;
  try { text = await file.text(); } catch { return refuse(w.unreadable); }
  let data;
  try { data = JSON.parse(text); } catch { return refuse(w.notJson); }
  if (!validProgress(data)) return refuse(w.wrongShape);
  // A break this site does not have (renamed, removed, another site's) is set aside, named, not stored.
  const unknown = Object.keys(data.breaks).filter((slug) => !known.has(slug));
  const kept = { ...data, breaks: Object.fromEntries(Object.entries(data.breaks).filter(([slug]) => known.has(slug))) };
  if (!writeProgress(mergeProgress(readProgress(), kept))) return say(w.storageBlocked);
  say(w.imported(file.name, Object.keys(kept.breaks).length) + (unknown.length ? ` ${w.setAside(unknown.sort().join(", "), unknown.length)}` : ""));
}

function setUp(root) {
  const w = WORDS[language()];
  const message = root.querySelector(".mg-progress-message");
  const say = (text) => { message.textContent = text; };
  const confirm = root.querySelector(".mg-progress-confirm");
  const reset = root.querySelector(".mg-progress-reset");
  const file = root.querySelector(".mg-progress-file");
  root.querySelector(".mg-progress-export").addEventListener("click", () => exportRecord(root, w, say));
  root.querySelector(".mg-progress-import").addEventListener("click", () => file.click());
  file.addEventListener("change", async () => {
    const chosen = file.files[0];
    file.value = ""; // the same file can be chosen again
    if (chosen) await importFile(chosen, w, say, new Set([...root.querySelectorAll("[data-mg='progress'] li[data-break]")].map((li) => li.dataset.break)));
    fill(root, w);
  });
  reset.addEventListener("click", () => {
    confirm.hidden = false;
    confirm.querySelector(".mg-progress-erase").focus();
  });
  const close = (text) => { confirm.hidden = true; say(text); reset.focus(); };
  confirm.querySelector(".mg-progress-erase").addEventListener("click", () => { resetProgress(); close(w.erased); fill(root, w); });
  confirm.querySelector(".mg-progress-keep").addEventListener("click", () => close(w.kept));
  confirm.addEventListener("keydown", (event) => { if (event.key === "Escape") close(w.kept); });
  fill(root, w);
}

function onPage() {
  for (const root of document.querySelectorAll(".mg-record:not([data-mg-ready])")) {
    root.dataset.mgReady = "1";
    setUp(root);
  }
}

if (!window.minigradProgressPage) {
  window.minigradProgressPage = true;
  // Another tab (a break page) changed the record: the list follows.
  window.addEventListener("storage", (event) => {
    if (event.key !== KEY && event.key !== null) return;
    for (const root of document.querySelectorAll(".mg-record[data-mg-ready]")) fill(root, WORDS[language()]);
  });
  const start = () => (window.document$ && window.document$.subscribe ? window.document$.subscribe(onPage) : onPage());
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
