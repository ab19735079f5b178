"""The site names its repository: `repo_url` in mkdocs.yml (MINIGRAD_REPO_URL,
which the GitHub Pages workflow sets from the repository it runs in), shown in
the header, and put into Getting started's clone command by hooks/repo_url.py.
The built pages are checked in tests/test_site_build.py and tests/test_publish.py."""

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
