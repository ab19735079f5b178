/* Graphviz for picture.js, off the page's main thread.
 *
 * Laying out even a small graph is milliseconds of WebAssembly; on the page it
 * held the main thread (and the Run's own result) up on every Run that draws.
 * A module worker, started by picture.js with the first graph of the visit;
 * viz.js (~1.2 MB, the site's _minigrad/viz/viz.js) loads here, once.
 *
 * In: {id, root, dot}. Out: {id, svg} | {id, error}.
 */

let graphviz = null; // viz.js's instance, once loaded

self.onmessage = async ({ data: { id, root, dot } }) => {
  try {
    graphviz ??= import(root + "_minigrad/viz/viz.js")
      .then((viz) => viz.instance())
      .catch((error) => { graphviz = null; throw error; }); // a failed load may be retried by the next run
    const viz = await graphviz;
    postMessage({ id, svg: viz.renderString(dot, { format: "svg" }) });
  } catch (error) {
    postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
};
