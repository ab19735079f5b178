/* Live pictures: what a Run drew with minigrad.viz, shown under its block.
 *
 * Loaded by runner.js with import() only when a run draws a picture; Graphviz
 * (viz.js, ~1.2 MB, from the site's own _minigrad/viz/) is imported only for
 * a graph, and runs in picture-worker.js, so its layout never holds the page's
 * main thread. Whatever the reader's labels say, the SVG is shown through an
 * <img> from a blob: URL, so no script or handler inside it can run, and the
 * alt text is set as text. What to draw, its marks, alt text and caption come
 * from Python (minigrad/runner/pictures.py, the build's own rules).
 */

// The page's words (minigrad/words/<lang>.toml, page_scripts.picture, written into the page as JSON).
const failedWords = () => (JSON.parse(((document.getElementById("minigrad-words") || {}).dataset || {}).words || "{}").picture || {}).failed || "";

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

/* message: {kind: "graph", dot, alt, caption} | {kind: "curve", svg, alt, caption}, as
 * minigrad.runner.pictures made it (the build's rules: what is marked, what it is called).
 * Returns a <figure>. */
export async function draw(message, { root, lang, broken }) {
  try {
    const svg = message.kind === "curve" ? message.svg : await render(root, message.dot);
    return figure(svg, message.alt, message.caption, broken, message.kind === "curve" ? "mg-curve" : "");
  } catch (error) {
    const p = document.createElement("p");
    p.className = "mg-picture-failed";
    p.textContent = failedWords() + (error && error.message ? error.message : String(error));
    return p;
  }
}
