// worker.js's early NumPy wheel, in Node with the browser's globals stubbed:
// loadPackage's fetch of the wheel gets the prefetched bytes only when they are
// the wheel's (its URL; by name, the sha256 pyodide-lock.json gives), else a
// real request goes out, which reports what is wrong. And the download's bytes
// are counted without replacing fetch's own response.
//
//   node --test tests/worker/prefetch.test.mjs   (tests/test_worker_prefetch.py runs it)

import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import vm from "node:vm";

const WORKER = new URL("../../overrides/assets/minigrad/worker.js", import.meta.url);
const WHEEL = "http://127.0.0.1:1/_minigrad/pyodide/numpy.whl";

function workerWith(bytes) {
  const requests = [];
  const context = { postMessage() {}, importScripts() {}, performance, Response, URL, crypto, btoa };
  context.self = context;
  context.fetch = async (url) => {
    requests.push(String(url));
    context.lastResponse = new Response("from the network", { status: 200, headers: { "content-length": "16" } });
    return context.lastResponse;
  };
  vm.createContext(context);
  vm.runInContext(readFileSync(WORKER, "utf-8"), context);
  context.bytes = bytes;
  vm.runInContext(`wheelURL = ${JSON.stringify(WHEEL)}; numpyEarly = Promise.resolve(bytes);`, context);
  return { fetch: (...args) => context.self.fetch(...args), requests, context };
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
  const worker = workerWith(null);
  vm.runInContext("numpyEarly = null;", worker.context);
  worker.context.onmessage({ data: { type: "numpy" } });
  const asked = worker.fetch(new URL(WHEEL)); // asked before the bytes are here
  worker.context.onmessage({ data: { type: "numpy", bytes } });
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
  const worker = workerWith(null);
  vm.runInContext('numpyEarly = null; track("download");', worker.context);
  const response = await worker.fetch(new URL("http://127.0.0.1:1/_minigrad/pyodide/pyodide.asm.wasm"));
  assert.equal(response, worker.context.lastResponse);
  assert.equal(await response.text(), "from the network");
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(vm.runInContext("download.loaded", worker.context), 16);
  assert.equal(vm.runInContext("download.open", worker.context), 0);
});
