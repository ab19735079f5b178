import { language } from "./text.js";
import { assetURL, settings } from "./settings.js";

/* ---- live pictures (minigrad.viz), drawn by picture.js ------------------
 * A run that draws sends a picture message; picture.js (and, for a graph,
 * Graphviz) loads only then. A curve is plotted beside the same block's last
 * curve with the break the other way, as on the static page; a broken graph
 * comes marked where the break changed it (minigrad/runner/pictures.py). */

export function livePictures(panel, slug) {
  const box = document.createElement("div");
  box.className = "mg-pictures mg-live-pictures";
  box.hidden = true;
  panel.append(box);
  const curves = {}; // "healthy"|"broken" -> the last curve's JSON
  let shown = 0;
  let onScreen = null; // what the picture on screen was drawn from
  return {
    clear(keep) {
      shown += 1; // a drawing still in progress is for a run that is over
      if (keep) return; // a new picture is coming: the old one stays until it replaces it, no flash
      for (const img of box.querySelectorAll("img")) URL.revokeObjectURL(img.src);
      box.replaceChildren();
      box.hidden = true;
      onScreen = null;
    },
    options(broken) { // Python names and marks the runs (minigrad/runner/pictures.py)
      return { lang: language(), slug, other: curves[broken ? "healthy" : "broken"] || null };
    },
    async show(message, broken) {
      const run = shown;
      if (message.kind === "curve") curves[broken ? "broken" : "healthy"] = message.text;
      // The same picture as the one on screen (a re-run of an unchanged block): nothing to draw.
      const key = [message.kind, message.text, message.svg, message.caption, language(), broken, message.dot];
      if (onScreen && !box.hidden && key.every((part, i) => part === onScreen[i])) return;
      const options = { root: settings().root, lang: key[4], broken };
      const module = await import(assetURL("picture.js"));
      const node = await module.draw(message, options);
      if (run !== shown) return; // cleared (new run, Reset) while it was drawing
      for (const img of box.querySelectorAll("img")) URL.revokeObjectURL(img.src);
      box.replaceChildren(node);
      onScreen = key;
      box.hidden = false;
    },
  };
}
