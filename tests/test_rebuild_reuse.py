"""What a rebuild of `mkdocs serve` reuses from the one before (issue 41's edit loop), and that
each reuse gives what the work it skips would have given, and is done again when its input changes:
Pygments' highlighting by block, Material's search entries by page, the theme's compiled
templates, and a save noticed within 0.15 s. The transformed Markdown's reuse:
test_site_package.py."""

import os
import subprocess
import sys
from pathlib import Path

import markdown
import pymdownx.highlight
import pytest
from jinja2 import DictLoader, Environment
from material.plugins.search import plugin as material_search
from mkdocs.livereload import LiveReloadServer
from mkdocs.structure.toc import get_toc

from minigrad_site import highlight_cache
from minigrad_site.build import search_reuse, template_memory, watch_often
from minigrad_site.plugin import MinigradSitePlugin

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs/breaks/overwrite-grad.md").read_text(encoding="utf-8").split("\n---\n", 1)[1]
EXTENSIONS = ["attr_list", "md_in_html", "toc", "pymdownx.highlight", "pymdownx.superfences", "minigrad_site.extension"]


@pytest.fixture
def pygments_calls(monkeypatch):
    """How many blocks Pygments highlighted, from an empty memory."""
    calls = []
    real = pymdownx.highlight.highlight
    monkeypatch.setattr(pymdownx.highlight, "highlight", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    monkeypatch.setattr(highlight_cache, "_highlighted", {})
    return calls


def render(text, extensions=EXTENSIONS, **highlight):
    return markdown.Markdown(extensions=extensions, extension_configs={"pymdownx.highlight": highlight}).convert(text)


def test_a_code_block_is_highlighted_once_then_again_only_when_it_changes(pygments_calls):
    first = render(PAGE)
    highlighted = len(pygments_calls)
    assert highlighted >= 5  # the page's code blocks and its diff
    assert render(PAGE) == first and len(pygments_calls) == highlighted  # a rebuild: nothing highlighted again
    edited = PAGE.replace('L.label = "L"', 'L.label = "loss"', 1)
    assert edited != PAGE
    again = render(edited)
    assert len(pygments_calls) == highlighted + 1 and "\"loss\"" in again and "\"loss\"" not in first


def test_what_changes_a_block_s_html_besides_its_source_is_in_the_key(pygments_calls):
    """The fence's options and the highlighter's settings: a remembered block is never shown with another's."""
    code = "```js\nx = 1\ny = 2\n```\n\n```js hl_lines=\"2\"\nx = 1\ny = 2\n```\n\n```js linenums=\"1\"\nx = 1\ny = 2\n```\n"
    html = render(code)
    assert html.count('<span class="hll">') == 1 and html.count("linenos") >= 1 and len(pygments_calls) == 3
    assert render(code, pygments_lang_class=True) != html and len(pygments_calls) == 6  # another setting, other HTML
    plain = render(code, extensions=["pymdownx.highlight", "pymdownx.superfences"])
    assert plain == html  # what Material's own highlighting gives (the extension only adds the memory)


def test_a_title_and_inline_code_are_highlighted_each_time(pygments_calls):
    """A title may be stored in the page's HTML stash, and inline code is an element: neither is remembered."""
    text = '```python title="step.py"\nx = 1\n```\n\nAnd `#!python x = 1` inline.\n'
    extensions = ["pymdownx.highlight", "pymdownx.inlinehilite", "pymdownx.superfences", "minigrad_site.extension"]
    first = render(text, extensions)
    assert render(text, extensions) == first and len(pygments_calls) == 4 and "step.py" in first


def _page(content_md):
    """A page as Material's search plugin reads it: its HTML, table of contents, address, title and metadata."""
    md = markdown.Markdown(extensions=["toc", "attr_list"])
    content = md.convert(content_md)

    class Page:
        url, title, meta = "breaks/x/", "X", {}

    page = Page()
    page.content, page.toc = content, get_toc(md.toc_tokens)
    return page


class _Config:
    def __init__(self, index):
        self.plugins = {"material/search": type("Search", (), {"search_index": index})()}


PAGES = ["# Overwrite\n\nThe gradient is **replaced**.\n\n## Diagnose\n\nRun it twice.\n\n## Lesson\n\nAccumulate.\n",
         "# Another\n\nText with `code`.\n\n## Where\n\nHere.\n"]


def test_an_unchanged_page_s_search_entries_are_not_parsed_again_and_are_the_same(monkeypatch):
    monkeypatch.setattr(search_reuse, "_entries", {})
    plain = material_search.SearchIndex()
    for text in PAGES:
        plain.add_entry_from_context(_page(text))

    def entries_of_a_build():
        index = material_search.SearchIndex()
        search_reuse.reuse_entries(_Config(index))
        search_reuse.reuse_entries(_Config(index))  # wrapped once, however often asked
        for text in PAGES:
            index.add_entry_from_context(_page(text))
        return index.entries

    assert entries_of_a_build() == plain.entries
    real_parser = material_search.Parser
    monkeypatch.setattr(material_search, "Parser", lambda: pytest.fail("an unchanged page was parsed again"))
    second = entries_of_a_build()
    assert second == plain.entries
    second[0]["title"] = "changed by a later step"  # the index's entries are its own: the memory keeps the first
    assert entries_of_a_build() == plain.entries
    edited = PAGES[0].replace("Run it twice.", "Run it three times.")  # prose only: the headings are as before
    index = material_search.SearchIndex()
    search_reuse.reuse_entries(_Config(index))
    with pytest.raises(pytest.fail.Exception, match="parsed again"):  # an edited page is parsed, not remembered
        index.add_entry_from_context(_page(edited))
    monkeypatch.setattr(material_search, "Parser", real_parser)
    index.add_entry_from_context(_page(edited))
    assert [e["text"] for e in index.entries if e["title"] == "Diagnose"] == ["<p>Run it three times.</p>"]


def test_a_site_without_search_is_built_as_before():
    search_reuse.reuse_entries(type("Config", (), {"plugins": {}})())  # nothing to wrap, nothing raised


def test_the_theme_s_templates_are_compiled_once_and_again_when_one_is_edited(monkeypatch):
    memory = template_memory.TemplatesInMemory()
    sources = {"base.html": "<h1>{{ title }}</h1>{% block body %}{% endblock %}", "page.html": "{% extends 'base.html' %}{% block body %}<p>{{ text }}</p>{% endblock %}"}

    def environment():
        return Environment(loader=DictLoader(sources), bytecode_cache=memory)

    assert environment().get_template("page.html").render(title="T", text="x") == "<h1>T</h1><p>x</p>"
    rebuilt = environment()  # a rebuild's new environment
    monkeypatch.setattr(rebuilt, "compile", lambda *a, **k: pytest.fail("compiled again"))
    assert rebuilt.get_template("page.html").render(title="T", text="x") == "<h1>T</h1><p>x</p>"
    sources["page.html"] = sources["page.html"].replace("<p>", "<p class='edited'>")
    edited = environment()
    monkeypatch.setattr(edited, "compile", lambda *a, **k: pytest.fail("compiled again"))
    with pytest.raises(pytest.fail.Exception, match="compiled again"):
        edited.get_template("page.html")


def test_an_environment_configured_otherwise_compiles_its_own(monkeypatch):
    memory = template_memory.TemplatesInMemory()
    sources = {"t.html": "  {% if x %}\n<p>{{ x }}</p>\n  {% endif %}\n"}
    plain = Environment(loader=DictLoader(sources), bytecode_cache=memory).get_template("t.html").render(x="<b>")
    trimmed = Environment(loader=DictLoader(sources), bytecode_cache=memory, trim_blocks=True, lstrip_blocks=True, autoescape=True)
    assert trimmed.get_template("t.html").render(x="<b>") == "<p>&lt;b&gt;</p>\n" != plain


def test_the_plugin_gives_every_build_s_environment_the_memory():
    env = Environment()
    assert MinigradSitePlugin().on_env(env, config=None, files=None).bytecode_cache is template_memory.REMEMBERED


def test_the_server_looks_for_saves_every_0_15_s(tmp_path):
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path))
    try:
        server.watch(str(tmp_path))  # as MkDocs watches docs/ before on_serve
        assert {e.timeout for e in server.observer.emitters} == {0.5}
        assert MinigradSitePlugin().on_serve(server, config=None, builder=None) is server
        (tmp_path / "runner").mkdir()
        server.watch(str(tmp_path / "runner"))  # as mkdocs.yml's and the plugin's `watch`, after on_serve
        assert server.observer.timeout == watch_often.POLL_S
        assert {e.timeout for e in server.observer.emitters} == {watch_often.POLL_S} and len(server.observer.emitters) == 2
    finally:
        server.server_close()


def test_a_server_without_a_polling_observer_is_left_as_it_is():
    other = type("Server", (), {})()
    assert watch_often.watch_often(other) is other


REBUILD = """
import shutil, sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
site, fresh = sys.argv[1:]
first = load_config("mkdocs.yml", site_dir=site)
first.plugins.on_startup(command="serve", dirty=False)
build(first)
shutil.copytree(site, fresh)
build(load_config("mkdocs.yml", site_dir=site))  # as `mkdocs serve` rebuilds: a new config, the same plugins and folder
"""


def test_a_rebuild_that_reuses_writes_the_site_a_fresh_build_writes(tmp_path):
    """The whole site, in one language: every page, search index and picture of the second build
    (everything above reused) is byte for byte the first build's (nothing reused yet)."""
    rebuilt, fresh = tmp_path / "site", tmp_path / "fresh"
    env = {**os.environ, "MINIGRAD_LANGUAGE": "en"}
    done = subprocess.run([sys.executable, "-c", REBUILD, str(rebuilt), str(fresh)], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    files = sorted(p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file())
    assert len(files) > 100 and files == sorted(p.relative_to(rebuilt) for p in rebuilt.rglob("*") if p.is_file())
    differ = [str(f) for f in files if (fresh / f).read_bytes() != (rebuilt / f).read_bytes()]
    assert not differ, differ[:10]
