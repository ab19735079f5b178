/* The worker's downloads: Python's bytes counted as they arrive, for the page's
 * progress, and NumPy's wheel handed to loadPackage from the page's early fetch.
 *
 * Neither loadPyodide nor loadPackage takes a progress callback (their options:
 * stdout, stderr, messageCallback, ...), so the worker's fetch is wrapped: a clone
 * of each body is counted, and the response itself goes back untouched. A rebuilt
 * Response (new Response(body)) would stream as well, but V8 caches compiled wasm
 * only for a fetch's own response: a second visit would compile Python's 9 MB
 * again (measured: no faster than the first).
 *
 * NumPy's wheel is fetched by the page as soon as a block that needs it gets
 * intent, in parallel with Python's own download; loadPackage's fetch of that URL
 * later gets these bytes instead of a second request.
 * (tests/node/prefetch.test.mjs runs this in Node, with a stub for `scope`.)
 */

import { message } from "../messages.js";

const PROGRESS_EVERY_MS = 250;

export function downloads(scope) {
  const download = { id: undefined, stage: null, loaded: 0, total: 0, open: 0, sentAt: 0 };
  const numpy = { wheelURL: null, loaded: false, early: null, arrived: null }; // early: Promise<ArrayBuffer|null>

  function progress(stage, force) {
    if (stage && stage !== download.stage) {
      download.stage = stage;
      force = true;
    }
    const now = scope.performance.now();
    if (!download.stage || (!force && now - download.sentAt < PROGRESS_EVERY_MS)) return;
    download.sentAt = now;
    const { id, loaded } = download;
    scope.postMessage(message("progress", { id, stage: download.stage, loaded, total: Math.max(download.total, loaded) }));
  }

  async function countBytes(body) {
    const reader = body.getReader();
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        download.loaded += chunk.value.byteLength;
        progress(null, false);
      }
    } catch {
      // the response's own reader reports a broken download
    }
    download.open -= 1;
    if (!download.open && download.stage === "download") progress("start"); // all here: Python starts
  }

  async function prefetched([url, options]) {
    if (!numpy.early || String(url) !== numpy.wheelURL) return null;
    const bytes = await numpy.early;
    numpy.early = null; // used once: were loadPackage to fetch again, it would go to the network
    if (!bytes) return null; // the early fetch failed: loadPackage fetches, and reports what fails
    // By name, loadPackage asks fetch to check pyodide-lock.json's sha256; so do we.
    const integrity = options && options.integrity;
    const digest = async () => "sha256-" + btoa(String.fromCharCode(...new Uint8Array(await scope.crypto.subtle.digest("SHA-256", bytes))));
    if (integrity && integrity !== (await digest())) return null;
    return new Response(bytes, { status: 200, headers: { "content-type": "application/zip" } });
  }

  const plainFetch = scope.fetch.bind(scope);
  scope.fetch = async (...args) => {
    const early = await prefetched(args);
    if (early) return early;
    const response = await plainFetch(...args);
    if (!download.stage || !response.ok || !response.body) return response;
    download.total += Number(response.headers.get("content-length")) || 0;
    download.open += 1;
    if (download.stage === "start") progress("download");
    countBytes(response.clone().body);
    return response;
  };

  return {
    download, // read by the tests
    /* Count what is fetched from now on as `stage` of run `id` (none while booting). */
    track(stage, id) {
      Object.assign(download, { id, stage: null, loaded: 0, total: 0, open: 0 });
      progress(stage, true);
    },
    untrack() {
      download.stage = null;
    },
    expectWheel(url) {
      numpy.wheelURL = url;
    },
    numpyLoaded() {
      numpy.loaded = true;
    },
    /* The page's "numpy" messages: first without bytes (coming: loadPackage waits), then with them. */
    numpyMessage({ bytes }) {
      if (bytes !== undefined) return numpy.arrived && numpy.arrived(bytes);
      if (!numpy.loaded && !numpy.early) numpy.early = new Promise((resolve) => { numpy.arrived = resolve; });
    },
  };
}
