/* minigrad breaks: put before coi-serviceworker in the site's coi-serviceworker.js
 * (minigrad_site/build/runtime.py). Only documents and workers need the isolation headers
 * coi-serviceworker adds (COOP/COEP make the page cross-origin isolated, so Stop
 * can interrupt Python; a worker's script must carry COEP too). Every other
 * request is left to the browser: coi-serviceworker would rebuild its response,
 * and V8 caches compiled WebAssembly only for the server's own response, so a
 * second visit would compile Python's 9 MB again. Same-origin subresources need
 * no header under COEP; cross-origin ones it cannot change (they are opaque).
 * coi-serviceworker has no option for this: a listener registered first stops
 * its own for those requests, and the browser fetches them as if no service
 * worker were there. */
if (typeof window === "undefined") {
  self.addEventListener("fetch", (event) => {
    const { mode, destination } = event.request;
    if (mode !== "navigate" && destination !== "worker" && destination !== "sharedworker") event.stopImmediatePropagation();
  });
}
