/* minigrad breaks: the mystery break (docs/mystery.md).
 *
 * Draws a break among the options minigrad_site/pages/mystery.py rendered from the catalogue
 * (optionally within a phase), keeps its slug in this closure (never in the
 * page: it is a game, not a secret, but the answer should not sit on screen),
 * and tells the runner to apply it to every block: runner.js asks
 * `window.minigradMystery.hiddenBreak()` before each run. The reader guesses;
 * the verdict says right or wrong and, when right or revealed, links the
 * break's page.
 *
 * `?seed=N` in the URL makes the draws reproducible (a shared puzzle, the
 * browser test). The pure part (mulberry32, draw, verdict) is exported for
 * Node so tests/test_mystery_page.py checks it on every break of the catalogue.
 */
(() => {
  "use strict";

  // The page's words (minigrad/words/<lang>.toml, page_scripts, written into the page as JSON), as runner/words.js reads them.
  const pageWords = (part) => JSON.parse(((document.getElementById("minigrad-words") || {}).dataset || {}).words || "{}")[part] || {};
  const fill = (template, values) => String(template ?? "").replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
  function texts() {
    const w = pageWords("mystery");
    return {
      ...w,
      hidden: (n, phase, review) => fill(w.hidden, { n, among: review ? w.among_review : w.among_all, phase: phase ? fill(w.of_phase, { phase }) : "" }),
      wrong: (title) => fill(w.wrong, { title }),
    };
  }


  /* A small seeded generator (public domain, Tommy Ettinger's mulberry32):
   * Math.random cannot be seeded, and a reproducible draw needs a seed. */
  function mulberry32(seed) {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  /* One of `candidates` ({slug, phase, ...}), within `phase` if given and among those `keep`
   * accepts (the review draw: breaks predicted wrong or not repaired); `random` is in [0, 1). */
  function draw(candidates, phase, random, keep = () => true) {
    const pool = candidates.filter((c) => (!phase || String(c.phase) === String(phase)) && keep(c));
    if (!pool.length) return null;
    return pool[Math.min(pool.length - 1, Math.floor(random * pool.length))];
  }

  /* The verdict on a guess: right or not, and the page to read when right. */
  function verdict(candidates, hidden, guess) {
    const answer = candidates.find((c) => c.slug === hidden);
    const guessed = candidates.find((c) => c.slug === guess);
    if (!answer) throw new Error(`no break ${hidden} to reveal`);
    const right = guess === hidden;
    return { right, guessTitle: guessed ? guessed.title : String(guess), link: right ? { href: answer.href, title: answer.title } : null };
  }

  if (typeof module !== "undefined" && module.exports) {
    module.exports = { mulberry32, draw, verdict };
  }
  if (typeof document === "undefined") return;

  let state = null; // {form, slug, random}: the mystery of the page on screen

  function candidatesOf(form) {
    return [...form.querySelectorAll(".mg-mystery-guess option")].map((o) => ({
      slug: o.value, phase: o.dataset.phase, href: o.dataset.href, title: o.textContent,
    }));
  }

  function say(element, parts) {
    // Text and links only, built as nodes: nothing here is parsed as HTML.
    element.replaceChildren(...parts.map((p) => {
      if (typeof p === "string") return document.createTextNode(p);
      const a = document.createElement("a");
      a.href = p.href;
      a.textContent = p.title;
      a.className = "mg-mystery-link";
      return a;
    }));
  }

  /* The reader's record (runner/progress.js, through runner.js): kept in this browser only. */
  const progress = () => window.minigradProgress;

  function newMystery() {
    const { form, random } = state;
    const t = texts();
    const phase = form.querySelector(".mg-mystery-phase").value;
    const candidates = candidatesOf(form);
    const inPhase = (c) => !phase || c.phase === phase;
    const toReview = (c) => !progress() || progress().needsReview(progress().of(c.slug));
    let review = form.querySelector(".mg-mystery-review").checked;
    const none = review && !candidates.some((c) => inPhase(c) && toReview(c));
    if (none) review = false; // nothing left to review: drawn among them all, and said so
    const keep = review ? toReview : () => true;
    const drawn = draw(candidates, phase, random(), keep);
    state.slug = drawn ? drawn.slug : "";
    const n = candidates.filter((c) => inPhase(c) && keep(c)).length;
    say(form.querySelector(".mg-mystery-status"), [(none ? t.nothingToReview : "") + t.hidden(n, phase, review)]);
    say(form.querySelector(".mg-mystery-verdict"), []);
    form.dataset.state = "hidden";
  }

  function judge(reveal) {
    const { form } = state;
    const t = texts();
    const guess = form.querySelector(".mg-mystery-guess").value;
    const out = form.querySelector(".mg-mystery-verdict");
    const result = verdict(candidatesOf(form), state.slug, reveal ? state.slug : guess);
    const keep = (what) => progress() && progress().record(state.slug, (entry) => {
      entry.mystery = { ...entry.mystery, [what]: (entry.mystery && entry.mystery[what]) || new Date().toISOString() };
    });
    if (reveal) {
      say(out, [t.revealed, result.link, "."]);
      form.dataset.state = "revealed";
      keep("revealed");
    } else if (result.right) {
      say(out, [t.right, result.link, "."]);
      form.dataset.state = "right";
      keep("found");
    } else {
      say(out, [t.wrong(result.guessTitle)]);
      form.dataset.state = "wrong";
    }
  }

  function setUp() {
    const form = document.querySelector(".md-content form.mg-mystery");
    if (!form) { state = null; return; }
    if (state && state.form === form) return;
    const seed = new URLSearchParams(location.search).get("seed");
    const random = seed !== null && /^\d+$/.test(seed) ? mulberry32(Number(seed))
      : () => crypto.getRandomValues(new Uint32Array(1))[0] / 4294967296;
    state = { form, slug: "", random };
    form.querySelector(".mg-mystery-draw").addEventListener("click", newMystery);
    form.querySelector(".mg-mystery-phase").addEventListener("change", newMystery);
    form.querySelector(".mg-mystery-review").addEventListener("change", newMystery);
    form.querySelector(".mg-mystery-check").addEventListener("click", () => judge(false));
    form.querySelector(".mg-mystery-reveal").addEventListener("click", () => judge(true));
    newMystery();
  }

  if (window.minigradMystery) return; // loaded again by a second visit (instant navigation): set up once
  window.minigradMystery = {
    /* The slug the runner applies on the mystery page; "" anywhere else. */
    hiddenBreak: () => (state && state.form.isConnected ? state.slug : ""),
  };

  // On a first load this script runs before Material's bundle defines document$: subscribe once the
  // page is parsed, or the next instant visit to this page finds the script loaded and nothing set up.
  const start = () => (window.document$ && window.document$.subscribe ? window.document$.subscribe(setUp) : setUp());
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
