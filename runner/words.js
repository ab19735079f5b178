/* The page's words: its language's `page_scripts` of minigrad/words/<lang>.toml, which the build
 * writes into the page as JSON (overrides/main.html, #minigrad-words's data-words). One table per language for
 * Python and JavaScript alike; a template's {name} is filled by fill(). */

let table = null; // read once from the first page that has the words (a 404 page has none)

export function pageWords(part) {
  if (table === null) {
    const found = typeof document !== "undefined" && document.getElementById("minigrad-words");
    const read = found ? JSON.parse(found.dataset.words || "{}") : {};
    if (!Object.keys(read).length) return {};
    table = read;
  }
  return table[part] || {};
}

export function fill(template, values) {
  return String(template ?? "").replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}
