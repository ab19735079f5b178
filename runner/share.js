/* "Copy link": an edited block's code travels in the URL's fragment, which browsers
 * never send to a server, and opening the link puts it back in that block.
 *
 * The fragment is `#mg-code=<block>.<fingerprint>.<code>`: the block's index on the
 * page, a fingerprint of the page's own code of that block (a link made before the
 * page gained or lost a block still finds its block, or says it cannot), and the
 * reader's code, deflated (CompressionStream, the browser's own) and base64url'd. */

const KEY = "mg-code=";
const MAX_LINK = 30000; // characters of code in a link: past this, browsers and chat apps cut URLs
const MAX_CODE = 200000; // characters a link may unpack to: a hand-made link cannot fill the page

/* FNV-1a over the UTF-16 code units: short, stable, enough to tell a page's blocks apart. */
export function fingerprint(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(36);
}

async function through(bytes, stream) {
  const piped = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(piped).arrayBuffer());
}

function toBase64url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/* The link to this page with `text` in block `index`, or null when it is too long. */
export async function linkFor(index, original, text) {
  const bytes = new TextEncoder().encode(text);
  const packed = typeof CompressionStream === "function"
    ? "z" + toBase64url(await through(bytes, new CompressionStream("deflate-raw")))
    : "u" + toBase64url(bytes); // a browser without CompressionStream: longer, still a link
  if (packed.length > MAX_LINK) return null;
  return `${location.origin}${location.pathname}${location.search}#${KEY}${index}.${fingerprint(original)}.${packed}`;
}

/* Whether the URL holds a shared block's code at all: the cheap test every page load makes. */
export function linkHasCode() {
  return location.hash.includes(KEY.slice(0, -1)); // "mg-code", its "=" perhaps percent-encoded
}

/* The code a link carries for this page's blocks: {index, text}, or {index, problem}
 * (a word of text.js), or null when the URL holds no code. `originals[i]` is block i's own code. */
export async function sharedCode(originals) {
  let hash = location.hash.slice(1);
  try { hash = decodeURIComponent(hash); } catch { /* a stray %: read it as it is */ }
  if (!hash.startsWith(KEY)) return null;
  const [index, mark, packed = ""] = hash.slice(KEY.length).split(".");
  let at = Number(index);
  if (!Number.isInteger(at) || at < 0 || at >= originals.length || fingerprint(originals[at]) !== mark) {
    at = originals.findIndex((code) => fingerprint(code) === mark);
    if (at < 0) return { index: 0, problem: "linkOtherVersion" };
  }
  try {
    const bytes = fromBase64url(packed.slice(1));
    const raw = packed[0] === "z" ? await through(bytes, new DecompressionStream("deflate-raw")) : packed[0] === "u" ? bytes : null;
    if (!raw) throw new Error(`unknown packing ${packed[0]}`);
    const text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
    if (text.length > MAX_CODE) throw new Error("too long");
    return { index: at, text };
  } catch (error) {
    console.warn(`minigrad: the link's code could not be read: ${error.message}`);
    return { index: at, problem: "linkUnreadable" };
  }
}

/* The fragment served its purpose once the code is in its block (and in this visit's
 * sessionStorage): the address bar goes back to the page's own URL. */
export function forgetSharedCode() {
  if (location.hash.startsWith("#" + KEY)) history.replaceState(history.state, "", location.pathname + location.search);
}

/* Copy `link` to the clipboard; where the browser refuses, show it in a field, selected,
 * for the reader to copy. Returns the word of text.js that says what happened. */
export async function copyLink(panel, link) {
  panel.querySelector(".mg-share-field")?.remove();
  try {
    await navigator.clipboard.writeText(link);
    return "linkCopied";
  } catch {
    const field = document.createElement("input");
    field.className = "mg-share-field";
    field.readOnly = true;
    field.value = link;
    panel.querySelector(".mg-toolbar").after(field);
    field.setAttribute("aria-label", panel.dataset.shareLabel || "Link");
    field.focus();
    field.select();
    return "linkInField";
  }
}
