// The reader's record (runner/progress.js), in Node: what an import accepts (whole or not at
// all), how two records merge (nothing lost: the later prediction per question, the earliest
// repair and find, the most checks), what a break's entry adds up to, and which breaks the
// mystery's review draw keeps. Bundled with the site's own esbuild, as the build does.
//
//   node --test tests/node/   (tests/test_node.py runs every file there)

import { test } from "node:test";
import assert from "node:assert/strict";
import { buildSync } from "esbuild";

const ENTRY = new URL("../../runner/progress.js", import.meta.url).pathname;
const bundled = buildSync({ entryPoints: [ENTRY], bundle: true, format: "esm", write: false }).outputFiles[0].text;
const { readProgress, validProgress, mergeProgress, summarize, needsReview } = await import("data:text/javascript;base64," + Buffer.from(bundled).toString("base64"));

const sureWrong = { answer: "it raises", choice: 0, confidence: "sure", verdict: "wrong", at: "2026-12-01T10:00:00.000Z" };
const unsureRight = { answer: "four times", choice: 2, confidence: "unsure", verdict: "right", at: "2026-12-03T10:00:00.000Z" };

test("an import is accepted whole only when it has the shape the site writes", () => {
  assert.ok(validProgress({ version: 1, breaks: {} }));
  assert.ok(validProgress({ version: 1, breaks: { "overwrite-grad": { unfolded: { at: "2026-12-01T10:00:00.000Z", by: "asked" } } } }));
  assert.ok(validProgress({ version: 1, breaks: { "mean-forgets-n": { predictions: { 1: sureWrong }, repaired: "2026-12-01", checks: 2, mystery: { found: "2026-12-02" } } } }));
  for (const bad of [null, [], "x", { version: 2, breaks: {} }, { version: 1, breaks: [] }, { version: 1 },
    { version: 1, breaks: { "Not A Slug": {} } },
    { version: 1, breaks: { a: { predictions: { 1: { ...sureWrong, confidence: "very" } } } } },
    { version: 1, breaks: { a: { predictions: { 1: { ...sureWrong, verdict: undefined } } } } },
    { version: 1, breaks: { a: { predictions: { 1: { ...sureWrong, answer: "x".repeat(301) } } } } },
    { version: 1, breaks: { a: { predictions: { one: sureWrong } } } },
    { version: 1, breaks: { a: { repaired: 5 } } },
    { version: 1, breaks: { a: { mystery: "found" } } },
    { version: 1, breaks: { a: { unfolded: { at: "2026-12-01", by: "peeked" } } } },
    { version: 1, breaks: { a: { unfolded: "2026-12-01" } } }]) {
    assert.equal(validProgress(bad), false, JSON.stringify(bad));
  }
});

test("two records merge without losing anything", () => {
  const mine = { version: 1, breaks: {
    "mean-forgets-n": { predictions: { 1: sureWrong }, repaired: "2026-12-05T00:00:00.000Z", checks: 4 },
    "overwrite-grad": { mystery: { revealed: "2026-12-04" }, unfolded: { at: "2026-12-04", by: "ran" } } } };
  const theirs = { version: 1, breaks: {
    "mean-forgets-n": { predictions: { 1: { ...unsureRight, choice: 1 }, 2: unsureRight }, repaired: "2026-12-02T00:00:00.000Z", checks: 1 },
    "overwrite-grad": { mystery: { found: "2026-12-01" }, unfolded: { at: "2026-12-02", by: "asked" } },
    "sgd-sign-flipped": { checks: 3 } } };
  const merged = mergeProgress(mine, theirs);
  assert.ok(validProgress(merged));
  const mean = merged.breaks["mean-forgets-n"];
  assert.deepEqual(mean.predictions[1], { ...unsureRight, choice: 1 }); // the later one
  assert.deepEqual(mean.predictions[2], unsureRight);
  assert.equal(mean.repaired, "2026-12-02T00:00:00.000Z"); // the earliest
  assert.equal(mean.checks, 4);
  assert.deepEqual(merged.breaks["overwrite-grad"].mystery, { found: "2026-12-01", revealed: "2026-12-04" });
  assert.deepEqual(merged.breaks["overwrite-grad"].unfolded, { at: "2026-12-02", by: "asked" }); // the first unfold
  assert.deepEqual(merged.breaks["sgd-sign-flipped"], { checks: 3 });
  assert.deepEqual(mergeProgress(merged, merged), merged); // merging twice changes nothing
});

test("an entry adds up, and the review keeps what was predicted wrong or is not repaired", () => {
  assert.deepEqual(summarize({}), { predicted: 0, right: 0, wrong: 0, unfolded: false, repaired: false, found: false, revealed: false });
  const entry = { predictions: { 1: sureWrong, 2: unsureRight }, repaired: "2026-12-01", mystery: { found: "2026-12-02" } };
  assert.deepEqual(summarize(entry), { predicted: 2, right: 1, wrong: 1, unfolded: false, repaired: true, found: true, revealed: false });
  assert.equal(summarize({ unfolded: { at: "2026-12-01", by: "asked" } }).unfolded, true);
  assert.equal(needsReview(entry), true); // repaired, but predicted wrong
  assert.equal(needsReview({ predictions: { 2: unsureRight }, repaired: "2026-12-01" }), false);
  assert.equal(needsReview({ predictions: { 2: unsureRight } }), true); // not repaired
  assert.equal(needsReview({}), true);
});

test("reading keeps every entry it can read, leaving out only one it cannot", () => {
  const stored = new Map();
  globalThis.localStorage = { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => stored.set(k, v) };
  stored.set("minigrad:progress", JSON.stringify({ version: 1, breaks: {
    "mean-forgets-n": { predictions: { 1: sureWrong } }, "overwrite-grad": { repaired: 42 } } }));
  assert.deepEqual(readProgress(), { version: 1, breaks: { "mean-forgets-n": { predictions: { 1: sureWrong } } } });
  stored.set("minigrad:progress", "{not json");
  assert.deepEqual(readProgress(), { version: 1, breaks: {} });
  delete globalThis.localStorage;
  assert.deepEqual(readProgress(), { version: 1, breaks: {} }); // no storage at all: an empty record, no error
});
