"""minigrad_site, the site's own package: one Markdown extension for every page transform, one
MkDocs plugin for the builder's steps, no `hooks:` list. The page bodies they make are compared
with the build's in tests/test_publish.py; here, the package's seams."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from mkdocs.utils import get_relative_url

from minigrad_site.extension import TRANSFORMS
from minigrad_site.page import Page, relative_url

ROOT = Path(__file__).resolve().parents[1]
LOADED_BY_PATH = re.compile(r"spec_from_file_location|SourceFileLoader|run_path\(|module_at\(")


@pytest.mark.parametrize("url", ["", "./", "assets/minigrad/matrix.min.css", "breaks/x/", "_minigrad/pictures", "a/b/../c/", "/abs/x.css"])
@pytest.mark.parametrize("page", ["", "index.html", "breaks/overwrite-grad/", "es/breaks/x/", "breaks/x.html", "mystery/", "a/b/c/d/"])
def test_relative_url_answers_as_mkdocs_does(url, page):
    assert relative_url(url, page) == get_relative_url(url, page)


def test_the_site_has_no_hooks_and_one_plugin_entry():
    assert not (ROOT / "hooks").exists()
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)  # tags stay text
    assert "hooks" not in config
    ours = [p for p in config["plugins"] if isinstance(p, dict) and "minigrad-site" in p]
    assert len(ours) == 1 and set(ours[0]["minigrad-site"]) == {"pyodide", "repo_url"}
    assert "minigrad_site.extension" in config["markdown_extensions"]


def test_no_test_loads_a_module_by_its_file_path():
    found = [f"{p.relative_to(ROOT)}:{n}" for p in [ROOT / "conftest.py", *sorted((ROOT / "tests").rglob("*.py"))]
             if p != Path(__file__) for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if LOADED_BY_PATH.search(line)]
    assert not found, f"import it as a module (minigrad_site, scripts, benchmarks are importable): {found}"


def test_every_transform_takes_the_markdown_and_the_page_and_imports_no_mkdocs():
    for transform in TRANSFORMS:
        assert transform.transform("no marker, no block\n", Page()) == "no marker, no block\n", transform.__name__
    done = subprocess.run([sys.executable, "-c", "import sys, minigrad_site.extension; "
                           "found = sorted(m for m in sys.modules if m.split('.')[0] == 'mkdocs'); sys.exit(str(found) if found else 0)"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def _build(tmp_path, plugins, extensions="[minigrad_site.extension]"):
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(f"site_name: t\nmarkdown_extensions: {extensions}\nplugins:\n{plugins}", encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=tmp_path, capture_output=True, text=True)


def test_the_plugin_refuses_what_it_cannot_build_in_one_line(tmp_path):
    done = _build(tmp_path, "  - minigrad-site:\n      pyodide: nearby\n")
    assert done.returncode == 1 and "pyodide" in done.stderr and "'cdn'" in done.stderr and "Traceback" not in done.stderr
    done = _build(tmp_path, "  - minigrad-site\n", extensions="[]")
    assert done.returncode == 1 and "list it under markdown_extensions" in done.stderr and "Traceback" not in done.stderr
    done = _build(tmp_path, "  - minigrad-site\n")
    assert done.returncode == 0, done.stderr


def test_without_a_pictures_folder_a_picture_travels_in_the_page():
    """A builder that hands no per-page options (Zensical, MAINTAINERS.md) still gets every picture."""
    import markdown

    text = (ROOT / "docs/breaks/overwrite-grad.md").read_text(encoding="utf-8").split("\n---\n", 1)[1]
    html = markdown.Markdown(extensions=["attr_list", "md_in_html", "pymdownx.superfences", "minigrad_site.extension"]).convert(text)
    shown = re.findall(r'<img src="([^"]+)"', html)
    assert shown and all(src.startswith("data:image/svg+xml;base64,") for src in shown)


def test_every_script_is_built_from_runner_at_build_time_and_none_is_committed(monkeypatch):
    from minigrad_site.build import minify_js

    tracked = subprocess.run(["git", "ls-files", "*.js"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    outside = [p for p in tracked if not p.startswith(("runner/", "tests/", "minigrad_site/", "benchmarks/"))]
    assert not outside, f"every script of the site lives in runner/ and is built into the site: {outside}"
    built = minify_js.build_scripts()
    assert set(built) == {*minify_js.BUNDLED, *minify_js.MINIFIED, *minify_js.AS_WRITTEN}
    assert b"window.minigradEditor={attach:" in built["editor.bundle.js"]  # CodeMirror bundled with our entry point
    monkeypatch.setattr(minify_js, "esbuild", lambda *args: pytest.fail("built again from the same sources"))
    assert minify_js.build_scripts() is built  # the Spanish build and an unchanged rebuild copy the bytes
    monkeypatch.setattr(minify_js, "fingerprint", lambda: "a script changed")
    with pytest.raises(pytest.fail.Exception, match="built again"):
        minify_js.build_scripts()
