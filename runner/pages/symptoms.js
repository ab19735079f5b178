/* minigrad breaks: the symptom index's filter (minigrad_site/pages/symptoms.py renders the form and marks the
 * headings: h2[data-mg="group"], h3[data-mg="symptom"], each symptom's list of breaks after it).
 *
 * As the reader types, a symptom stays when its title matches, with all its breaks; otherwise it
 * stays with the breaks whose title, phase or page name match, and goes when none does. A group
 * goes when none of its symptoms stays. Matching ignores case and accents ("diferencias" finds
 * "diferencias finitas", "evaluacion" finds "Evaluación"), finds a symptom by the phrases the
 * catalogue gives it besides its title (data-also: "grad is None"), and takes a word for the one
 * the index uses (the box's data-synonyms: "difusión" finds broadcast). Escape clears. No Python, no request:
 * the page's own text is what it reads. Loaded by the symptom index only; instant navigation
 * evaluates it again, hence the guard: everything per page happens in onPage.
 */
(() => {
  "use strict";
  if (window.minigradSymptomFilter) return;
  window.minigradSymptomFilter = true;

  // The page's words (minigrad/words/<lang>.toml, page_scripts, written into the page as JSON), as runner/words.js reads them.
  const pageWords = (part) => JSON.parse(((document.getElementById("minigrad-words") || {}).dataset || {}).words || "{}")[part] || {};
  const fill = (template, values) => String(template ?? "").replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
  function counted(symptoms, breaks) {
    const w = pageWords("symptom_filter");
    const one = (key, n) => fill(w[`${key}_${n === 1 ? "one" : "many"}`], { n });
    return fill(w.count, { symptoms: one("symptoms", symptoms), breaks: one("breaks", breaks) });
  }

  const plain = (text) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

  function sections(content) {
    // [{group, symptoms: [{heading, list, items: [{item, text}]}]}], from the page as rendered.
    const groups = [];
    for (const heading of content.querySelectorAll('h2[data-mg="group"], h3[data-mg="symptom"]')) {
      if (heading.dataset.mg === "group") {
        groups.push({ heading, symptoms: [] });
        continue;
      }
      const list = heading.nextElementSibling && heading.nextElementSibling.tagName === "UL" ? heading.nextElementSibling : null;
      const items = list ? [...list.children].map((item) => ({ item, text: plain(item.textContent + " " + linkName(item)) })) : [];
      const text = plain(heading.textContent + " " + (heading.dataset.also || ""));
      if (groups.length) groups[groups.length - 1].symptoms.push({ heading, list, items, text });
    }
    return groups;
  }

  function linkName(item) {
    const link = item.querySelector("a");
    return link ? link.getAttribute("href").replace(/.*breaks\/|\/$|\.html$/g, " ") : "";
  }

  /* The words a query word stands for: itself, and what a synonym it begins (4 letters or more) means. */
  function meanings(word, synonyms) {
    const more = Object.entries(synonyms).filter(([key]) => key === word || (word.length >= 4 && key.startsWith(word)));
    return [word, ...more.flatMap(([, words]) => words)];
  }

  function apply(groups, query, count, synonyms) {
    const words = plain(query).split(/\s+/).filter(Boolean).map((w) => meanings(w, synonyms));
    const matches = (text) => words.every((alternatives) => alternatives.some((w) => text.includes(w)));
    let symptoms = 0;
    const breaks = new Set();
    for (const group of groups) {
      let shown = 0;
      for (const s of group.symptoms) {
        const whole = !words.length || matches(s.text);
        let kept = 0;
        for (const { item, text } of s.items) {
          const keep = whole || matches(text);
          item.hidden = !keep;
          if (keep) {
            kept += 1;
            breaks.add(item.querySelector("a") ? item.querySelector("a").getAttribute("href") : item.textContent);
          }
        }
        const visible = whole || kept > 0;
        s.heading.hidden = !visible;
        if (s.list) s.list.hidden = !visible;
        shown += visible;
      }
      group.heading.hidden = shown === 0;
      symptoms += shown;
    }
    count.textContent = counted(symptoms, breaks.size);
  }

  function onPage() {
    const box = document.querySelector('[data-mg="symptom-filter"]:not([data-mg-ready])');
    if (!box) return;
    box.dataset.mgReady = "1";
    const input = box.querySelector("input");
    const count = box.querySelector(".mg-symptom-count");
    const groups = sections(document.querySelector(".md-content") || document.body);
    const synonyms = JSON.parse(box.dataset.synonyms || "{}");
    box.hidden = false; // JavaScript is here: the filter works (without it, the list is whole)
    input.addEventListener("input", () => apply(groups, input.value, count, synonyms));
    input.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || !input.value) return;
      input.value = "";
      apply(groups, "", count, synonyms);
      event.preventDefault();
    });
    apply(groups, input.value, count, synonyms); // a value the browser restored on back/forward
  }

  const start = () => (window.document$ && window.document$.subscribe ? window.document$.subscribe(onPage) : onPage());
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
