"""minigrad_site, the site's own package: one Markdown extension for every page transform, one
MkDocs plugin for the builder's steps, no `hooks:` list. The page bodies they make are compared
with the build's in tests/test_publish.py; here, the package's seams."""

import os
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
    assert "hooks" not in config and "site_url" not in config and "repo_url" not in config  # the plugin's options
    ours = [p for p in config["plugins"] if isinstance(p, dict) and "minigrad-site" in p]
    assert len(ours) == 1 and set(ours[0]["minigrad-site"]) == {"pyodide", "repo_url", "site_url"}
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


def test_a_page_s_transforms_are_reused_while_it_and_minigrad_are_unchanged(tmp_path, monkeypatch):
    """Each save under `mkdocs serve` renders every page again: an unchanged page reuses its transformed
    Markdown, and its pictures are written again into a site folder the rebuild cleaned."""
    import markdown

    from minigrad_site import extension

    text = (ROOT / "docs/breaks/overwrite-grad.md").read_text(encoding="utf-8").split("\n---\n", 1)[1]
    options = {"break_slug": "overwrite-grad", "pictures_dir": str(tmp_path / "pictures"), "pictures_url": "../../_minigrad/pictures"}

    def render():
        return markdown.Markdown(extensions=["attr_list", "md_in_html", "pymdownx.superfences", "minigrad_site.extension"],
                                 extension_configs={"minigrad_site.extension": options}).convert(text)

    first = render()
    drawn = sorted((tmp_path / "pictures").iterdir())
    for picture in drawn:
        picture.unlink()  # the rebuild's clean site folder
    monkeypatch.setattr(extension, "transformed", lambda *_: pytest.fail("transformed again, nothing changed"))
    assert render() == first and sorted((tmp_path / "pictures").iterdir()) == drawn and drawn
    monkeypatch.setattr(extension, "package_stamp", lambda: "minigrad's files changed")
    with pytest.raises(pytest.fail.Exception, match="transformed again"):
        render()


def test_one_language_is_english_alone_and_another_is_refused_in_one_line(tmp_path):
    """MINIGRAD_LANGUAGE=en (mkdocs-static-i18n's build_only_locale) halves a rebuild for a teacher editing
    English prose; Spanish alone would render the English sources under Spanish chrome, so it is refused."""
    site = tmp_path / "site"
    env = {**os.environ, "MINIGRAD_LANGUAGE": "es"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(site)], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 1 and "MINIGRAD_LANGUAGE=es: only en can be built alone" in done.stderr and "Traceback" not in done.stderr
    assert "build_only_locale: !ENV [MINIGRAD_LANGUAGE, null]" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    env["MINIGRAD_LANGUAGE"] = "en"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(site)], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (site / "breaks/overwrite-grad/index.html").exists() and not (site / "es").exists()


def test_the_site_address_is_checked_and_ends_with_a_slash():
    """As MkDocs's own site_url: sitemap-here.html compares it with the served address, so a final "/" matters."""
    from minigrad_site.plugin import MinigradSiteConfig

    given = MinigradSiteConfig()
    given.load_dict({"site_url": "https://example.org/course"})
    errors, _ = given.validate()
    assert not errors and given.site_url == "https://example.org/course/"
    given = MinigradSiteConfig()
    given.load_dict({"site_url": "example.org/course"})
    errors, _ = given.validate()
    assert errors and "site_url" in str(errors[0])


def test_a_translator_s_edit_to_the_words_is_served_again():
    """`mkdocs serve` watches minigrad/words/, and a table is read again when its file changed."""
    from mkdocs.config import load_config

    from minigrad import words
    from minigrad_site.plugin import WORDS

    config = load_config(str(ROOT / "mkdocs.yml"))
    config.plugins.on_startup(command="serve", dirty=False)
    assert str(WORDS) in config.plugins.on_config(config).watch
    source = WORDS / "en.toml"
    before, stat = words.table("en"), source.stat()
    assert words.table("en") is before  # unchanged: read once
    try:
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        assert words.table("en") is not before and words.table("en") == before
    finally:
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
