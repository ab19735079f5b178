/* Live pictures: what a Run drew with minigrad.viz, shown under its block.
 *
 * Loaded by runner.js with import() only when a run draws a picture; Graphviz
 * (viz.js, ~1.2 MB, from the site's own _minigrad/viz/) is imported only for
 * a graph. Whatever the reader's labels say, the SVG is shown through an <img>
 * from a blob: URL, so no script or handler inside it can run, and the alt
 * text is set as text (the first line of minigrad.viz's DOT describes the
 * graph; a curve's SVG comes with its description).
 */

const WORDS = {
  en: { healthy: "healthy", broken: "broken", failed: "The picture could not be drawn: " },
  es: { healthy: "sano", broken: "roto", failed: "No se pudo dibujar: " },
};

let graphviz = null; // one viz.js instance per visit

function renderer(root) {
  if (!graphviz) {
    graphviz = import(root + "_minigrad/viz/viz.js").then((viz) => viz.instance());
    graphviz.catch(() => { graphviz = null; }); // a failed load may be retried by the next run
  }
  return graphviz;
}

/* As hooks/pictures.py's mark_changes: on a broken graph, the nodes whose
 * label differs from the same block's healthy run are drawn thick and orange. */
const NODE = /^  (n\d+) \[label=("(?:[^"\\]|\\.)*")\];$/gm;

function markChanges(healthy, broken) {
  if (!healthy) return broken;
  const before = new Map([...healthy.matchAll(NODE)].map((m) => [m[1], m[2]]));
  return broken.replace(NODE, (line, id, label) =>
    before.has(id) && before.get(id) !== label ? `${line.slice(0, -2)}, color="#e65100", penwidth=2.5];` : line);
}

function altOfDot(dot) {
  const first = dot.split("\n", 1)[0];
  return first.startsWith("// ") ? first.slice(3) : "";
}

function figure(svg, alt, caption, broken) {
  const fig = document.createElement("figure");
  fig.className = `mg-picture ${broken ? "mg-broken" : "mg-healthy"}`;
  const img = document.createElement("img");
  img.src = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  img.alt = alt; // text, never markup (runner.js revokes the URL when the picture is replaced)
  const cap = document.createElement("figcaption");
  cap.textContent = caption;
  fig.append(img, cap);
  return fig;
}

/* message: {kind: "graph", text: DOT} | {kind: "curve", svg, alt, caption};
 * healthy: the same block's last healthy DOT, if any. Returns a <figure>. */
export async function draw(message, { root, lang, broken, slug, healthy }) {
  const words = WORDS[lang] || WORDS.en;
  const caption = broken ? `${words.broken} (${slug})` : words.healthy;
  try {
    if (message.kind === "curve") return figure(message.svg, message.alt, message.caption, broken);
    const viz = await renderer(root);
    const dot = broken ? markChanges(healthy, message.text) : message.text;
    return figure(viz.renderString(dot, { format: "svg" }), altOfDot(message.text), caption, broken);
  } catch (error) {
    const p = document.createElement("p");
    p.className = "mg-picture-failed";
    p.textContent = words.failed + (error && error.message ? error.message : String(error));
    return p;
  }
}
