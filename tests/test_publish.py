"""The publishing workflow (.github/workflows/pages.yml) builds the site here
as it will on GitHub: its `run` steps, run locally with its own environment,
without the `uses` steps (checkout, setup, artifact upload, deploy).

The steps run in a copy of the checkout, as on GitHub's fresh runner, not in
this repository: their `npm ci` deletes node_modules before reinstalling it,
and another pytest worker may be reading it at that moment (the site build,
the Node/Pyodide run); it did, and a concurrent site build failed.

That build is the suite's one strict build of the public site (CDN mode): the
tests below it read what it made, the pages in both languages, the runner's
attributes, the forms, the bundle (they were tests/test_site_build.py, which
built the same site a second time)."""

import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest
import yaml

from minigrad import breaks
from minigrad.breaks import ROOT
from minigrad.runner.predictions import parse, section
from minigrad_site.page import relative_url

WORKFLOW = ROOT / ".github/workflows/pages.yml"
PAGES_URL = "https://teacher.github.io/minigrad-breaks"  # a project site: its own path under the host
REPOSITORY = "teacher/minigrad-breaks"
EXPRESSIONS = {  # what GitHub gives the build
    "steps.pages.outputs.base_url": PAGES_URL,  # actions/configure-pages
    "github.repository": REPOSITORY,  # the repository the workflow runs in
}


def workflow():
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def substitute(value):
    """${{ ... }} filled in as GitHub would; an expression this test does not know fails it."""

    def known(match):
        name = match.group(1).strip()
        if name not in EXPRESSIONS:
            pytest.fail(f"{WORKFLOW.name} uses ${{{{ {name} }}}}, which this test cannot fill in: add it to EXPRESSIONS")
        return EXPRESSIONS[name]

    return re.sub(r"\$\{\{(.*?)\}\}", known, str(value))


def test_workflow_uses_the_official_pages_actions():
    jobs = workflow()["jobs"]
    uses = [step["uses"].split("@")[0] for job in jobs.values() for step in job["steps"] if "uses" in step]
    assert uses == ["actions/checkout", "astral-sh/setup-uv", "actions/setup-node", "actions/configure-pages", "actions/upload-pages-artifact", "actions/deploy-pages"]
    upload = next(s for s in jobs["build"]["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert upload["with"]["path"] == "site"
    assert jobs["deploy"]["needs"] == "build"
    assert workflow()["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}


MADE_BY_THE_STEPS = {".git", ".venv", "node_modules", "site", ".pytest_cache", ".hypothesis", "test-results"}


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    """What actions/checkout gives the workflow: the repository's files, without
    what the steps make (or git's own)."""

    def left_out(folder, names):
        return set(names) & (MADE_BY_THE_STEPS if Path(folder) == ROOT else {"__pycache__"})

    copy = tmp_path_factory.mktemp("publish") / "repo"
    shutil.copytree(ROOT, copy, ignore=left_out, symlinks=True)
    return copy


@pytest.fixture(scope="module")
def steps_run(checkout):
    """The workflow's `run` steps, in order, in the checkout: [(step, finished process)]; they stop at the first failure."""
    steps = [s for s in workflow()["jobs"]["build"]["steps"] if "run" in s]
    outside = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}  # uv: the copy's own .venv
    ran = []
    for step in steps:
        env = {**outside, **{k: substitute(v) for k, v in step.get("env", {}).items()}}
        ran.append((step, subprocess.run(["bash", "-e", "-c", step["run"]], cwd=checkout, env=env, capture_output=True, text=True)))
        if ran[-1][1].returncode:
            break
    return ran


@pytest.fixture(scope="module")
def site(checkout, steps_run):
    """The public site the workflow built, or a failure naming the step that failed."""
    for step, done in steps_run:
        if done.returncode:
            pytest.fail(f"step {step.get('name', step['run'])!r} failed:\n{done.stderr[-3000:]}")
    return checkout / "site"


def test_workflow_build_steps_run_here_and_build_the_public_site(steps_run, site):
    runs = [step["run"] for step, _ in steps_run]
    assert any("mkdocs build --strict" in r for r in runs)
    # the pictures are rendered by @viz-js/viz under Node at build time: a fresh runner needs npm ci first
    assert any(r.startswith("npm ci") for r in runs[: next(i for i, r in enumerate(runs) if "mkdocs build" in r)])
    for _, done in steps_run:
        assert "end of life" not in done.stderr  # NO_MKDOCS_2_WARNING keeps the log quiet
        assert "not compatible with theme.features = navigation.instant" not in done.stderr
    assert (site / "index.html").exists() and (site / "es/index.html").exists()
    assert not (site / "_minigrad/pyodide").exists()  # CDN mode: the runtime is not shipped
    assert (site / "coi-serviceworker.js").exists()  # at the root: Stop keeps Python alive on Pages
    assert 'data-cdn="https://cdn.jsdelivr.net/pyodide/' in (site / "index.html").read_text(encoding="utf-8")
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<loc>{PAGES_URL}/breaks/skip-unbroadcast/</loc>" in sitemap  # instant navigation needs the real URL
    assert f"<loc>{PAGES_URL}/es/breaks/skip-unbroadcast/</loc>" in (site / "es/sitemap.xml").read_text(encoding="utf-8")
    for page in ("getting-started/index.html", "es/getting-started/index.html"):  # minigrad_site/pages/repo_url.py
        html = (site / page).read_text(encoding="utf-8")
        # the header's link to the repository (overrides/partials/source.html: Material's, minus the
        # data-md-component that fetches stars from api.github.com), and the clone command
        assert re.search(rf'<a href="https://github\.com/{re.escape(REPOSITORY)}" title="[^"]+" class="md-source">', html)
        assert 'data-md-component="source"' not in html
        assert f"git clone https://github.com/{REPOSITORY} minigrad-breaks" in re.sub(r"<[^>]+>", "", html)


PYTHON_BLOCK = re.compile(r'<div class="language-python highlight"([^>]*)>')
BLOCK_AND_CHAIN = re.compile(r'data-block="(\d+)" data-chain="([\d ]*)"')
FORM = re.compile(r'<form [^>]*data-mg="prediction"[^>]*>')
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')


def test_the_pages_in_both_languages_carry_what_the_runner_needs(site):
    for page in ("breaks/skip-unbroadcast/index.html", "es/breaks/skip-unbroadcast/index.html"):
        html = (site / page).read_text(encoding="utf-8")
        assert 'data-minigrad-break="skip-unbroadcast"' in html
        assert 'data-broken="raises ValueError' in html  # the block options reach the runner
    assert '<html lang="es"' in (site / "es/index.html").read_text(encoding="utf-8")
    # the page's scripts' words (minigrad/words, page_scripts): the runner's everywhere, a page's own script's there only
    for page, own in (("index.html", None), ("mystery/index.html", "mystery"), ("es/progress/index.html", "progress_page")):
        found = re.search(r'id="minigrad-words" data-words="([^"]*)"', (site / page).read_text(encoding="utf-8"))
        parts = set(json.loads(unescape(found[1])))
        assert {"runner", "verdict", "editor", "picture"} <= parts and parts - {"runner", "verdict", "editor", "picture"} == ({own} if own else set())
    bundle = json.loads((site / "_minigrad/bundle.json").read_text())
    assert "minigrad/breaks/skip-unbroadcast.diff" in bundle and "minigrad/tensor.py" in bundle
    shipped = {p for p in bundle if p.startswith("minigrad/reference/")}  # what the checks read, not the tests' share
    assert shipped == {"minigrad/reference/checks.json", "minigrad/reference/facts.json"}
    assert not (site / "_minigrad/pyodide").exists()  # cdn mode ships no runtime
    assert not (site / "es/_minigrad").exists()  # shipped once, at the root
    english, spanish = ((site / p / "theory/02-graphs/index.html").read_text(encoding="utf-8") for p in ("", "es"))
    assert 'title="Permanent link"' in english and 'title="Permanent link"' not in spanish  # the plugin sets toc's permalink_title per language
    assert 'title="Enlace permanente"' in spanish
    unserved = [str(p.relative_to(site)) for p in site.rglob("*.html") if "<!-- md:" in p.read_text(encoding="utf-8")]
    assert not unserved, f"a <!-- md:name --> marker no transform replaced reached the site: {unserved}"  # tests/test_markers.py
    for page in site.rglob("*.html"):  # minigrad_site/pages/fences.py: the runner runs the chain it is given
        found = [BLOCK_AND_CHAIN.search(attrs) for attrs in PYTHON_BLOCK.findall(page.read_text(encoding="utf-8"))]
        assert all(found), f"{page}: a Python block without data-block and data-chain"
        blocks = {m[1] for m in found}
        assert all(set(m[2].split()) <= blocks for m in found), f"{page}: a chain names a block the page does not show"

    for b in breaks.catalogue():  # every break page, both languages: its graded questions and its Repair it
        for prefix, suffix in (("", ""), ("es/", ".es")):
            html = (site / prefix / f"breaks/{b.slug}/index.html").read_text(encoding="utf-8")
            text = (ROOT / "docs/breaks" / f"{b.slug}{suffix}.md").read_text(encoding="utf-8")
            start, end = section(text)
            asked = [(b.slug, q.number, q.kind, None if q.right is None else str(q.right), q.value)
                     for q in parse(text[start:end].split("\n"))[0]]
            forms = [dict(ATTRIBUTE.findall(m[0])) for m in FORM.finditer(html)]
            shown = [(f["data-break"], f["data-question"], f["data-kind"], f.get("data-right"), f.get("data-value")) for f in forms]
            assert shown == asked, f"{prefix}{b.slug}: the forms are not its questions"
            assert html.count('data-mg="repair"') == 1 and f'data-break="{b.slug}"' in html
    for prefix in ("", "es/"):
        listed = re.findall(r'<li data-break="([^"]+)"', (site / prefix / "progress/index.html").read_text(encoding="utf-8"))
        assert listed == [b.slug for b in breaks.catalogue()]


class _AnyTag(yaml.SafeLoader):
    """mkdocs.yml read as data: its !ENV and python tags are MkDocs's, not this test's."""


_AnyTag.add_multi_constructor("!", lambda loader, suffix, node: None)
_AnyTag.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
MD_LINK = re.compile(r'href="(?![a-z]+:|#|/)([^"#]*?\.md)(#[^"]*)?"')


def _as_mkdocs_links(html, src_uri, url):
    """What MkDocs's own link rewriting does to a rendered page (links to .md sources become the
    pages' URLs): the one step of the build that is MkDocs's, not the extension's."""
    def url_of(match):
        target = posixpath.normpath(posixpath.join(posixpath.dirname(src_uri), match[1]))
        stem = target[: -len(".md")]
        dest = "./" if stem == "index" else (stem[: -len("index")] if stem.endswith("/index") else stem + "/")
        return f'href="{relative_url(dest, url)}{match[2] or ""}"'
    return MD_LINK.sub(url_of, html)


def _render_alone(source, lang, url, pictures, planted=None):
    """The page's body from Python-Markdown with mkdocs.yml's extensions and the options the plugin
    would hand it, in a process that fails if anything imports MkDocs; links as MkDocs writes them."""
    settings = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_AnyTag)
    names, configs = [], {}
    for item in settings["markdown_extensions"]:
        name, config = next(iter(item.items())) if isinstance(item, dict) else (item, {})
        names.append(name)
        configs[name] = dict(config or {})
    text = (ROOT / "docs" / source).read_text(encoding="utf-8")
    slug = re.match(r"---\nminigrad_break: (\S+)\n---\n", text)
    page_url, src_uri = url.removeprefix("es/"), source.replace(".es.md", ".md")
    configs["toc"]["permalink_title"] = {"en": "Permanent link", "es": "Enlace permanente"}[lang]
    configs["minigrad_site.extension"] = {
        "lang": lang, "url": page_url, "src_uri": src_uri, "break_slug": slug[1] if slug else "",
        "pictures_dir": str(pictures), "pictures_url": posixpath.relpath("_minigrad/pictures", url or "."), **(planted or {}),
    }
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "render_without_mkdocs.py")], cwd=ROOT, capture_output=True,
                          text=True, input=json.dumps({"page": source, "extensions": names, "configs": configs}))
    assert done.returncode == 0, done.stderr[-3000:]
    return _as_mkdocs_links(done.stdout, src_uri, page_url)


@pytest.mark.parametrize(("source", "lang", "url"), [
    ("breaks/overwrite-grad.md", "en", "breaks/overwrite-grad/"),
    ("breaks/batchnorm-batch-stats-in-eval.es.md", "es", "es/breaks/batchnorm-batch-stats-in-eval/"),
    ("index.md", "en", ""),  # the home page: a block's own break= draws its pictures
])
def test_python_markdown_alone_renders_a_page_as_the_site_build_does(site, tmp_path, source, lang, url):
    """minigrad_site.extension outlives MkDocs: Python-Markdown with mkdocs.yml's extensions and the
    page's options (what the plugin hands it), no MkDocs imported, gives the body the build wrote:
    Run blocks, predictions, Repair it and pictures included."""
    body = _render_alone(source, lang, url, tmp_path / "pictures")
    built = (site / url / "index.html").read_text(encoding="utf-8")
    assert body in built, _first_difference(body, built)
    assert 'data-block="0"' in body and "mg-picture" in body
    assert ('data-mg="repair"' in body and 'data-mg="prediction"' in body) == url.endswith(("grad/", "eval/"))
    drawn = sorted(p.name for p in (tmp_path / "pictures").glob("*.svg"))
    assert drawn and all((site / "_minigrad/pictures" / name).read_bytes() == (tmp_path / "pictures" / name).read_bytes() for name in drawn)


@pytest.mark.parametrize("planted", [{"lang": "es"}, {"break_slug": "skip-unbroadcast"}, {"pictures_url": "../_minigrad/pictures"}],
                         ids=["language", "break", "pictures"])
def test_a_page_rendered_with_other_options_is_not_the_built_page(site, tmp_path, planted):
    """The comparison above can fail: one option off (the language, the break, where pictures are) and it does."""
    body = _render_alone("breaks/overwrite-grad.md", "en", "breaks/overwrite-grad/", tmp_path / "pictures", planted)
    assert body not in (site / "breaks/overwrite-grad/index.html").read_text(encoding="utf-8")


def _first_difference(body, built):
    start = built.find(body[:200])
    if start < 0:
        return f"the body's start is not in the built page: {body[:300]!r}"
    at = next((i for i, (a, b) in enumerate(zip(body, built[start:])) if a != b), len(body))
    return f"differs at {at}: rendered {body[max(0, at - 150):at + 150]!r}\nbuilt {built[start + max(0, at - 150):start + at + 150]!r}"
