import { meta } from "./settings.js";
import { language } from "./text.js";

/* ---- the language switcher under instant navigation ----------------------
 * mkdocs-static-i18n writes the switcher's links for the page first loaded;
 * instant navigation does not replace the header, so they go stale (its
 * issue #115). Rewrite them on every page, and make them full page loads:
 * the other language is another site (search index, header, lang). */

export const LANGUAGE_ROOTS = { en: "", es: "es/" };

function pathWithinLanguage() {
  const root = new URL(meta("minigrad:root").content, location.href).pathname;
  let rest = location.pathname.startsWith(root) ? location.pathname.slice(root.length) : "";
  for (const prefix of Object.values(LANGUAGE_ROOTS)) {
    if (prefix && rest.startsWith(prefix)) return { root, rest: rest.slice(prefix.length) };
  }
  return { root, rest };
}

export function fixLanguageSwitcher() {
  const { root, rest } = pathWithinLanguage();
  for (const link of document.querySelectorAll("a.md-select__link[hreflang]")) {
    const prefix = LANGUAGE_ROOTS[link.hreflang];
    if (prefix !== undefined) link.href = root + prefix + rest + location.hash;
  }
}

function languageOfLink(link) {
  // Which language's part of this site a link leads to ("en" for the root part).
  const url = new URL(link.href, location.href);
  const root = new URL(meta("minigrad:root").content, location.href).pathname;
  if (url.origin !== location.origin || !url.pathname.startsWith(root)) return language();
  const rest = url.pathname.slice(root.length);
  const found = Object.entries(LANGUAGE_ROOTS).find(([, prefix]) => prefix && rest.startsWith(prefix));
  return found ? found[0] : "en";
}

/* The switcher, and any other link into the other language (a search result,
 * a link in the text), is a full page load: instant navigation would keep
 * this page's lang, labels and search index. */
export function loadOtherLanguagesFully() {
  document.addEventListener(
    "click",
    (event) => {
      const link = event.target instanceof Element && event.target.closest("a[href]");
      if (!link || link.target || event.metaKey || event.ctrlKey) return;
      const switcher = link.matches("a.md-select__link[hreflang]");
      if (!switcher && languageOfLink(link) === language()) return;
      if (switcher) fixLanguageSwitcher();
      event.preventDefault();
      event.stopImmediatePropagation();
      location.assign(link.href);
    },
    true,
  );
}
