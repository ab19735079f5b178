// The worker's early NumPy wheel (runner/worker/downloads.js), in Node with a stub
// for the worker's scope: loadPackage's fetch of the wheel gets the prefetched
// bytes only when they are the wheel's (its URL; by name, the sha256
// pyodide-lock.json gives), else a real request goes out, which reports what is
// wrong. And the download's bytes are counted without replacing fetch's own
// response. The module is bundled with the site's own esbuild, as the build does.
//
//   node --test tests/node/   (tests/test_node.py runs every file there)

import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { buildSync } from "esbuild";

const ENTRY = new URL("../../runner/worker/downloads.js", import.meta.url).pathname;
const WHEEL = "http://127.0.0.1:1/_minigrad/pyodide/numpy.whl";
const bundled = buildSync({ entryPoints: [ENTRY], bundle: true, format: "esm", write: false }).outputFiles[0].text;
const { downloads } = await import("data:text/javascript;base64," + Buffer.from(bundled).toString("base64"));

function workerWith(bytes) {
  const requests = [];
  const posted = [];
  const scope = { postMessage: (m) => posted.push(m), performance, crypto };
  scope.fetch = async (url) => {
    requests.push(String(url));
    scope.lastResponse = new Response("from the network", { status: 200, headers: { "content-length": "16" } });
    return scope.lastResponse;
  };
  const fetched = downloads(scope);
  fetched.expectWheel(WHEEL);
  if (bytes !== undefined) {
    fetched.numpyMessage({}); // the page: the wheel is coming
    fetched.numpyMessage({ bytes }); // and here are its bytes (null: its fetch failed)
  }
  return { fetch: (...args) => scope.fetch(...args), requests, posted, scope, fetched };
}

const bytes = new TextEncoder().encode("a wheel's bytes").buffer;
const sha = "sha256-" + createHash("sha256").update(Buffer.from(bytes)).digest("base64");

test("the wheel's URL gets the early bytes, once", async () => {
  const worker = workerWith(bytes);
  assert.equal(await (await worker.fetch(new URL(WHEEL))).text(), "a wheel's bytes");
  assert.deepEqual(worker.requests, []);
  assert.equal(await (await worker.fetch(new URL(WHEEL))).text(), "from the network");
  assert.deepEqual(worker.requests, [WHEEL]);
});

test("by name, the early bytes must match pyodide-lock.json's sha256", async () => {
  const worker = workerWith(bytes);
  assert.equal(await (await worker.fetch(new URL(WHEEL), { integrity: sha })).text(), "a wheel's bytes");
  const other = workerWith(bytes);
  const wrong = "sha256-" + createHash("sha256").update("another wheel").digest("base64");
  assert.equal(await (await other.fetch(new URL(WHEEL), { integrity: wrong })).text(), "from the network");
  assert.deepEqual(other.requests, [WHEEL]);
});

test("the page's two messages: the wheel is coming (loadPackage waits), then its bytes", async () => {
  const worker = workerWith(undefined);
  worker.fetched.numpyMessage({});
  const asked = worker.fetch(new URL(WHEEL)); // asked before the bytes are here
  worker.fetched.numpyMessage({ bytes });
  assert.equal(await (await asked).text(), "a wheel's bytes");
  assert.deepEqual(worker.requests, []);
});

test("another URL, or an early fetch that failed, goes to the network", async () => {
  const worker = workerWith(bytes);
  await worker.fetch(new URL("http://127.0.0.1:1/_minigrad/pyodide/pyodide.asm.wasm"));
  assert.deepEqual(worker.requests, ["http://127.0.0.1:1/_minigrad/pyodide/pyodide.asm.wasm"]);
  const failed = workerWith(null);
  assert.equal(await (await failed.fetch(new URL(WHEEL))).text(), "from the network");
});

test("while Python downloads, the bytes are counted on a clone and fetch's own response goes back", async () => {
  // V8 caches compiled wasm only for a fetch's own response, not for a rebuilt one.
  const worker = workerWith(undefined);
  worker.fetched.track("download");
  const response = await worker.fetch(new URL("http://127.0.0.1:1/_minigrad/pyodide/pyodide.asm.wasm"));
  assert.equal(response, worker.scope.lastResponse);
  assert.equal(await response.text(), "from the network");
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(worker.fetched.download.loaded, 16);
  assert.equal(worker.fetched.download.open, 0);
  assert.deepEqual(worker.posted.map((m) => m.stage), ["download", "start"]); // messages.js's "progress", as the page reads it
});

test("a message the table does not list is refused, on either side", async () => {
  const { message } = await import("data:text/javascript;base64," + Buffer.from(
    buildSync({ entryPoints: [new URL("../../runner/messages.js", import.meta.url).pathname], bundle: true, format: "esm", write: false }).outputFiles[0].text,
  ).toString("base64"));
  assert.deepEqual(message("stream", { id: 1, stream: "stdout", text: "x" }), { type: "stream", id: 1, stream: "stdout", text: "x" });
  assert.throws(() => message("streem", {}), /no message of type "streem"/);
  assert.throws(() => message("run", { id: 1, chian: "[]" }), /a "run" message has no field chian/);
});
