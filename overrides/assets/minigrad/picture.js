/* Live pictures: what a Run drew with minigrad.viz, shown under its block.
 *
 * Loaded by runner.js with import() only when a run draws a picture; Graphviz
 * (viz.js, ~1.2 MB, from the site's own _minigrad/viz/) is imported only for
 * a graph, and runs in picture-worker.js, so its layout never holds the page's
 * main thread. Whatever the reader's labels say, the SVG is shown through an
 * <img> from a blob: URL, so no script or handler inside it can run, and the
 * alt text is set as text (the first line of minigrad.viz's DOT describes the
 * graph; a curve's SVG comes with its description).
 */

const WORDS = {
  en: { healthy: "healthy", broken: "broken", failed: "The picture could not be drawn: " },
  es: { healthy: "sano", broken: "roto", failed: "No se pudo dibujar: " },
};

let graphviz = null; // one Graphviz worker per visit: {worker, pending: Map(id -> {resolve, reject})}
let nextId = 1;

/* The SVG of `dot`, laid out by picture-worker.js (Graphviz in a worker: the
 * page's main thread never runs it). */
function render(root, dot) {
  if (!graphviz) {
    const worker = new Worker(new URL("picture-worker.js", import.meta.url), { type: "module" });
    const pending = new Map();
    graphviz = { worker, pending };
    worker.onmessage = ({ data }) => {
      const job = pending.get(data.id);
      pending.delete(data.id);
      if (job) data.error === undefined ? job.resolve(data.svg) : job.reject(new Error(data.error));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      if (graphviz && graphviz.worker === worker) graphviz = null; // the next run starts a new one
      worker.terminate();
      for (const job of pending.values()) job.reject(new Error(event.message || "the picture worker failed"));
      pending.clear();
    };
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    graphviz.pending.set(id, { resolve, reject });
    graphviz.worker.postMessage({ id, root, dot });
  });
}

/* As hooks/pictures.py's mark_changes: on a broken graph, the nodes whose
 * label differs from the same block's healthy run are drawn thick and orange;
 * nothing is marked when the break changed the graph's edges (node ids, given
 * in topological order, then no longer name the same node). */
const NODE = /^  (n\d+) \[label=("(?:[^"\\]|\\.)*")\];$/gm;
const EDGES = /^  n\d.*->.*;$/gm;
const edges = (dot) => (dot.match(EDGES) || []).join("\n");

function markChanges(healthy, broken) {
  if (!healthy || edges(healthy) !== edges(broken)) return broken;
  const before = new Map([...healthy.matchAll(NODE)].map((m) => [m[1], m[2]]));
  return broken.replace(NODE, (line, id, label) =>
    before.has(id) && before.get(id) !== label ? `${line.slice(0, -2)}, color="#e65100", penwidth=2.5];` : line);
}

function altOfDot(dot) {
  const first = dot.split("\n", 1)[0];
  return first.startsWith("// ") ? first.slice(3) : "";
}

function figure(svg, alt, caption, broken, kind = "") {
  const fig = document.createElement("figure");
  fig.className = `mg-picture ${broken ? "mg-broken" : "mg-healthy"} ${kind}`;
  const img = document.createElement("img");
  img.src = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  img.alt = alt; // text, never markup (runner.js revokes the URL when the picture is replaced)
  const cap = document.createElement("figcaption");
  cap.textContent = caption;
  fig.append(img, cap);
  return fig;
}

/* message: {kind: "graph", text: DOT, healthy: the same code's healthy DOT (a broken run's)}
 * | {kind: "curve", svg, alt, caption}. Returns a <figure>. */
export async function draw(message, { root, lang, broken, slug }) {
  const words = WORDS[lang] || WORDS.en;
  const caption = broken ? `${words.broken} (${slug})` : words.healthy;
  try {
    if (message.kind === "curve") return figure(message.svg, message.alt, message.caption, broken, "mg-curve");
    const dot = broken ? markChanges(message.healthy, message.text) : message.text;
    return figure(await render(root, dot), altOfDot(message.text), caption, broken);
  } catch (error) {
    const p = document.createElement("p");
    p.className = "mg-picture-failed";
    p.textContent = words.failed + (error && error.message ? error.message : String(error));
    return p;
  }
}
