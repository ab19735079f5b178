"""The site names its repository: `repo_url` in mkdocs.yml (MINIGRAD_REPO_URL,
which the GitHub Pages workflow sets from the repository it runs in), shown in
the header, and put into Getting started's clone command by minigrad_site/pages/repo_url.py.
The built pages are checked in tests/test_publish.py."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from minigrad_site.page import Page
from minigrad_site.pages import repo_url as hook

ROOT = Path(__file__).resolve().parents[1]
PAGE = Page(src_uri="getting-started.md")


def test_the_marker_becomes_the_repo_url():
    page = Page(src_uri="getting-started.md", repo_url="https://github.com/teacher/minigrad-breaks/")
    out = hook.transform("git clone {{ repo_url }} minigrad-breaks", page)
    assert out == "git clone https://github.com/teacher/minigrad-breaks minigrad-breaks"
    assert hook.transform("no marker here", PAGE) == "no marker here"


def test_a_page_with_the_marker_and_no_repo_url_fails_the_build(tmp_path):
    with pytest.raises(hook.NoRepoUrl, match="MINIGRAD_REPO_URL"):
        hook.transform("git clone {{ repo_url }}", PAGE)
    # and the build stops with that one line, no traceback: the plugin says it as a PluginError
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("git clone {{ repo_url }}\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nmarkdown_extensions: [minigrad_site.extension]\n"
                                         "plugins:\n  - minigrad-site:\n      repo_url: ''\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 1 and "index.md uses {{ repo_url }}, but repo_url is empty" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_repo_url_comes_from_the_environment_and_the_workflow_sets_it():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    plugin = config.split("  - minigrad-site:\n", 1)[1].split("\n  - ", 1)[0]  # the plugin's own options
    assert re.search(r'^      repo_url: !ENV \[MINIGRAD_REPO_URL, "https://github\.com/[^"]+"\]$', plugin, re.M)
    workflow = yaml.safe_load((ROOT / ".github/workflows/pages.yml").read_text(encoding="utf-8"))
    build = next(s for s in workflow["jobs"]["build"]["steps"] if "mkdocs build" in s.get("run", ""))
    assert build["env"]["MINIGRAD_REPO_URL"] == "https://github.com/${{ github.repository }}"


@pytest.mark.parametrize("page", ["getting-started.md", "getting-started.es.md"])
def test_getting_started_clones_the_repo_url(page):
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    assert "git clone {{ repo_url }} minigrad-breaks && cd minigrad-breaks" in text
    assert "<this repository>" not in text
    assert "(theory/01-derivatives.md)" in text.split("## ")[0]  # where to start reading, before anything else


@pytest.mark.parametrize(("remote", "url"), [
    ("git@github.com:teacher/minigrad-breaks.git", "https://github.com/teacher/minigrad-breaks"),
    ("ssh://git@gitlab.com/school/course/minigrad-breaks.git", "https://gitlab.com/school/course/minigrad-breaks"),
    ("https://github.com/teacher/minigrad-breaks.git", "https://github.com/teacher/minigrad-breaks"),
    ("https://teacher:ghp_secret@github.com/teacher/minigrad-breaks", "https://github.com/teacher/minigrad-breaks"),  # no token
    ("/home/teacher/minigrad-breaks", None), ("file:///srv/git/minigrad-breaks", None), ("", None)])
def test_a_remote_reads_as_its_web_address(remote, url):
    assert hook.web_url(remote) == url


def test_without_minigrad_repo_url_the_clone_s_origin_names_the_repository(monkeypatch):
    monkeypatch.delenv("MINIGRAD_REPO_URL", raising=False)
    monkeypatch.setattr(hook, "origin_remote", lambda: "git@codeberg.org:teacher/minigrad-breaks.git")
    assert hook.resolve(hook.PLACEHOLDER) == ("https://codeberg.org/teacher/minigrad-breaks", "Codeberg")
    monkeypatch.setattr(hook, "origin_remote", lambda: "")  # no remote: the placeholder stays
    assert hook.resolve(hook.PLACEHOLDER)[0] == hook.PLACEHOLDER
    monkeypatch.setenv("MINIGRAD_REPO_URL", "https://example.org/course.git")  # set: it wins, as written
    assert hook.resolve("https://example.org/course.git")[0] == "https://example.org/course.git"


def test_the_placeholder_is_mkdocs_yml_s_default():
    assert f'"{hook.PLACEHOLDER}"]' in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_this_clone_s_origin_is_read_by_git(tmp_path):
    import subprocess

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert hook.origin_remote(tmp_path) == ""
    subprocess.run(["git", "-C", str(tmp_path), "remote", "add", "origin", "git@github.com:teacher/minigrad-breaks.git"], check=True)
    assert hook.origin_remote(tmp_path) == "git@github.com:teacher/minigrad-breaks.git"
