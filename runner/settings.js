/* Where the runner's files are: read once from the page (its <meta> tags) and from
 * this script's own URL, so the site works under any path it is published at. */

// Read while the bundle's script runs: document.currentScript is set only then.
export const SCRIPT_URL = document.currentScript.src;

/* A file beside runner.js in the built site (worker.js, picture.js, editor.bundle.js). */
export function assetURL(name) {
  return SCRIPT_URL.replace(/runner\.js(\?.*)?$/, name);
}

export function meta(name) {
  return document.querySelector(`meta[name="${name}"]`);
}

/* The site's root URL (both languages' parts hang under it). */
export function siteRoot() {
  return new URL(meta("minigrad:root").content, location.href).href;
}

export function settings() {
  const root = siteRoot();
  const py = meta("minigrad:pyodide");
  const local = py.content === "local";
  const indexURL = local ? root + "_minigrad/pyodide/" : py.dataset.cdn;
  return {
    root,
    workerURL: assetURL("worker.js"),
    indexURL,
    numpyURL: "numpy", // by name: pyodide-lock.json (the offline site's own entry for its wheel) checks its sha256
    wheelURL: indexURL + py.dataset.numpyWheel, // where either loads it from, fetched early at intent
    bundleURL: root + "_minigrad/bundle.json",
    needsURL: root + "_minigrad/needs.json",
  };
}
