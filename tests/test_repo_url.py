"""The site names its repository: `repo_url` in mkdocs.yml (MINIGRAD_REPO_URL,
which the GitHub Pages workflow sets from the repository it runs in), shown in
the header, and put into Getting started's clone command by hooks/repo_url.py.
The built pages are checked in tests/test_publish.py."""

import importlib.util
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("repo_url_hook", ROOT / "hooks" / "repo_url.py")
hook = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hook)
PAGE = SimpleNamespace(file=SimpleNamespace(src_path="getting-started.md"))


def test_the_marker_becomes_the_repo_url():
    config = SimpleNamespace(repo_url="https://github.com/teacher/minigrad-breaks/")
    out = hook.on_page_markdown("git clone {{ repo_url }} minigrad-breaks", PAGE, config, None)
    assert out == "git clone https://github.com/teacher/minigrad-breaks minigrad-breaks"
    assert hook.on_page_markdown("no marker here", PAGE, SimpleNamespace(repo_url=None), None) == "no marker here"


def test_a_page_with_the_marker_and_no_repo_url_fails_the_build():
    with pytest.raises(PluginError, match="MINIGRAD_REPO_URL"):
        hook.on_page_markdown("git clone {{ repo_url }}", PAGE, SimpleNamespace(repo_url=""), None)


def test_the_repo_url_comes_from_the_environment_and_the_workflow_sets_it():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r'^repo_url: !ENV \[MINIGRAD_REPO_URL, "https://github\.com/[^"]+"\]$', config, re.M)
    assert "hooks/repo_url.py" in config
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
    config = SimpleNamespace(repo_url=hook.PLACEHOLDER, repo_name="GitHub")
    hook.on_config(config)
    assert (config.repo_url, config.repo_name) == ("https://codeberg.org/teacher/minigrad-breaks", "Codeberg")
    monkeypatch.setattr(hook, "origin_remote", lambda: "")  # no remote: the placeholder stays
    config = SimpleNamespace(repo_url=hook.PLACEHOLDER, repo_name="GitHub")
    assert hook.on_config(config).repo_url == hook.PLACEHOLDER
    monkeypatch.setenv("MINIGRAD_REPO_URL", "https://example.org/course.git")  # set: it wins, as written
    config = SimpleNamespace(repo_url="https://example.org/course.git", repo_name="example.org")
    assert hook.on_config(config).repo_url == "https://example.org/course.git"


def test_the_placeholder_is_mkdocs_yml_s_default():
    assert f'"{hook.PLACEHOLDER}"]' in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_this_clone_s_origin_is_read_by_git(tmp_path):
    import subprocess

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert hook.origin_remote(tmp_path) == ""
    subprocess.run(["git", "-C", str(tmp_path), "remote", "add", "origin", "git@github.com:teacher/minigrad-breaks.git"], check=True)
    assert hook.origin_remote(tmp_path) == "git@github.com:teacher/minigrad-breaks.git"
