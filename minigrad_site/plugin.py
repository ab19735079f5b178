"""The site's one MkDocs plugin (`minigrad-site` in mkdocs.yml): what only a builder can do.

The page transforms are a Python-Markdown extension (minigrad_site.extension, listed under
`markdown_extensions:`); this plugin hands it each page's options before MkDocs renders the
page, and does the rest, in this order:

1. on_startup: node_modules as package-lock.json pins it (npm ci when missing or stale).
2. on_config: the catalogue's symptoms are consistent; the repository and the address the site names; what
   the page template hands the runner (Pyodide's source and pins); `serve` watches runner/.
3. on_pre_build: every graph of the site drawn by one Node process.
   on_env: the theme's templates compiled once per process (a rebuild makes a new Jinja environment).
4. on_page_markdown: the page's options for the extension; the headings' permalink title in
   the page's language (toc's `permalink_title`, which mkdocs-static-i18n cannot set per language).
5. on_page_context: the page's scripts' words in its language (overrides/main.html writes them as JSON);
   an unchanged page's search entries reused (Material's search parses every page on every rebuild).
   on_post_page: a translated page's search base points at its language's index.
6. on_post_build: into the root site only (the Spanish build, inside it, reads them there):
   the runtime, the bundle, the picture renderer; in every build: the scripts bundled and
   minified; last, after mkdocs-static-i18n has built every language: search and sitemap per language.
7. on_serve (`mkdocs serve`, after the first build): the server notices a save sooner (it polls every 0.15 s).

State lives on the instance: MkDocs runs one plugin object through the default language's
build and mkdocs-static-i18n's builds of the others (site/es/ inside site/).
"""

import os
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import Abort, PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority

from minigrad import words
from minigrad.runner.languages import build_language
from minigrad.words import section
from minigrad_site.build import (minify_js, node_modules, runtime, search_per_language, search_reuse, template_memory,
                                 watch_often)
from minigrad_site.page import Page
from minigrad_site.pages import pictures, repo_url, symptoms

EXTENSION = "minigrad_site.extension"
WORDS = Path(words.__file__).parent  # minigrad/words/{en,es}.toml
# The words of a script that one page loads, by the marker of that page: only that page carries them.
ONE_PAGE_ONLY = {"mystery": "mystery", "doctor_folder": "doctor-folder", "progress_page": "progress", "symptom_filter": "symptoms"}
ONE_LANGUAGE = "en"  # MINIGRAD_LANGUAGE=en (mkdocs.yml): the default language alone, for a faster edit loop


class MinigradSiteConfig(base.Config):
    # cdn for the public site; local copies Pyodide and the NumPy wheel from node_modules into the
    # site, for offline builds and the browser tests. Versions and hashes: minigrad/runner/pins.json.
    pyodide = c.Choice(("cdn", "local"), default="cdn")
    # The repository the header links to and Getting started clones; the placeholder stands for
    # "the clone's origin remote" (minigrad_site/pages/repo_url.py).
    repo_url = c.Type(str, default=repo_url.PLACEHOLDER)
    # The site's address (MkDocs's site_url): what the sitemap and the canonical links are built from.
    site_url = c.Optional(c.URL(is_dir=True))  # as MkDocs's own: a scheme, and a final "/" added


class MinigradSitePlugin(BasePlugin[MinigradSiteConfig]):
    def __init__(self):
        self.root_site_dir = None  # the first (default-language) build's site_dir in this run
        self.serving = False

    def on_startup(self, *, command, dirty):
        self.serving = command == "serve"  # `mkdocs serve` sets site_url to the address it serves at
        problem = node_modules.ensure_or_say_why()
        if problem:
            raise Abort(problem)

    @event_priority(100)  # before mkdocs-static-i18n reads repo_url and the theme
    def on_config(self, config):
        if EXTENSION not in config.markdown_extensions:
            raise PluginError(f"the minigrad-site plugin renders pages with {EXTENSION}: list it under markdown_extensions")
        i18n = config.plugins.get("i18n")
        only = i18n and i18n.config.build_only_locale
        if only and only != ONE_LANGUAGE:
            raise PluginError(f"MINIGRAD_LANGUAGE={only}: only {ONE_LANGUAGE} can be built alone (the other languages' "
                              "pages live inside its site); serve both with `uv run mkdocs serve`")
        if self.root_site_dir is None or not config.site_dir.startswith(self.root_site_dir):
            self.root_site_dir = config.site_dir
        symptoms.check_catalogue()
        url, name = repo_url.resolve(self.config.repo_url)
        config.repo_url, config.repo_name = url, name or _host_name(url)
        if self.config.site_url and not self.serving:
            config.site_url = self.config.site_url
        config.extra["pyodide"] = runtime.page_settings(self.config.pyodide)
        config.extra["coi_serviceworker"] = runtime.has_coi_serviceworker()
        for folder in (minify_js.WATCH, WORDS):  # `serve` rebuilds when a script or a word changes
            if str(folder) not in config.watch:
                config.watch.append(str(folder))
        return config

    def on_serve(self, server, *, config, builder):
        return watch_often.watch_often(server)  # a save noticed within 0.15 s, not 0.5 s

    def on_pre_build(self, *, config):
        pictures.prerender(config.docs_dir)

    def on_env(self, env, *, config, files):
        env.bytecode_cache = template_memory.REMEMBERED  # the theme's templates compiled once per process
        return env

    def on_page_markdown(self, markdown, *, page, config, files):
        lang = build_language(page, config)
        options = Page(
            lang=lang, url=page.url, src_uri=page.file.src_uri, break_slug=(page.meta or {}).get("minigrad_break") or "",
            use_directory_urls=config.use_directory_urls, repo_url=config.repo_url or "",
            pictures_dir=str(Path(self.root_site_dir) / "_minigrad" / "pictures"),
            pictures_url=Path(os.path.relpath(Path(self.root_site_dir) / "_minigrad" / "pictures",
                                              (Path(config.site_dir) / page.file.dest_uri).parent)).as_posix(),
        )
        try:
            repo_url.transform(markdown, options)  # its error as the build's, before the page is rendered
        except repo_url.NoRepoUrl as error:
            raise PluginError(str(error)) from None
        config.mdx_configs[EXTENSION] = vars(options)
        config.mdx_configs.setdefault("toc", {})["permalink_title"] = section("site.headings", lang)["permalink_title"]
        return markdown

    @event_priority(50)  # before Material's search indexes the page
    def on_page_context(self, context, *, page, config, nav):
        search_reuse.reuse_entries(config)  # an unchanged page's search entries are not parsed again
        scripts = section("page_scripts", build_language(page, config))
        context["minigrad_words"] = {part: said for part, said in scripts.items()  # overrides/main.html
                                     if part not in ONE_PAGE_ONLY or f"<!-- md:{ONE_PAGE_ONLY[part]}" in (page.markdown or "")}
        return context

    def on_post_page(self, output, *, page, config):
        return search_per_language.rebase_search(output, page.file.dest_uri, config)

    def _ship(self, *, config):
        if config.site_dir == self.root_site_dir:
            runtime.ship(config.site_dir, self.config.pyodide, config.extra.get("coi_serviceworker"))
            pictures.ship_renderer(config.site_dir)
        minify_js.bundle(config.site_dir)

    @event_priority(-200)  # after mkdocs-static-i18n's on_post_build (-100) has built every language
    def _split_search(self, *, config):
        search_per_language.split(config)

    on_post_build = CombinedEvent(_ship, _split_search)


def _host_name(url):
    host = urlsplit(url or "").hostname or ""
    return repo_url.NAMES.get(host, host)
