"""The publishing workflow (.github/workflows/pages.yml) builds the site here
as it will on GitHub: its `run` steps, run locally with its own environment,
without the `uses` steps (checkout, setup, artifact upload, deploy).

The steps run in a copy of the checkout, as on GitHub's fresh runner, not in
this repository: their `npm ci` deletes node_modules before reinstalling it,
and another pytest worker may be reading it at that moment (the site build,
the Node/Pyodide run); it did, and a concurrent site build failed."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from minigrad.breaks import ROOT

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


@pytest.fixture
def checkout(tmp_path):
    """What actions/checkout gives the workflow: the repository's files, without
    what the steps make (or git's own)."""

    def left_out(folder, names):
        return set(names) & (MADE_BY_THE_STEPS if Path(folder) == ROOT else {"__pycache__"})

    copy = tmp_path / "repo"
    shutil.copytree(ROOT, copy, ignore=left_out, symlinks=True)
    return copy


def test_workflow_build_steps_run_here_and_build_the_public_site(checkout):
    steps = [s for s in workflow()["jobs"]["build"]["steps"] if "run" in s]
    assert any("mkdocs build --strict" in s["run"] for s in steps)
    runs = [s["run"] for s in steps]
    # the pictures are rendered by @viz-js/viz under Node at build time: a fresh runner needs npm ci first
    assert any(r.startswith("npm ci") for r in runs[: next(i for i, r in enumerate(runs) if "mkdocs build" in r)])
    outside = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}  # uv: the copy's own .venv
    for step in steps:
        env = {**outside, **{k: substitute(v) for k, v in step.get("env", {}).items()}}
        done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=checkout, env=env, capture_output=True, text=True)
        assert done.returncode == 0, f"step {step.get('name', step['run'])!r} failed:\n{done.stderr[-3000:]}"
        assert "end of life" not in done.stderr  # NO_MKDOCS_2_WARNING keeps the log quiet
    site = checkout / "site"
    assert (site / "index.html").exists() and (site / "es/index.html").exists()
    assert not (site / "_minigrad/pyodide").exists()  # CDN mode: the runtime is not shipped
    assert (site / "coi-serviceworker.js").exists()  # at the root: Stop keeps Python alive on Pages
    assert 'data-cdn="https://cdn.jsdelivr.net/pyodide/' in (site / "index.html").read_text(encoding="utf-8")
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<loc>{PAGES_URL}/breaks/skip-unbroadcast/</loc>" in sitemap  # instant navigation needs the real URL
    assert f"<loc>{PAGES_URL}/es/breaks/skip-unbroadcast/</loc>" in (site / "es/sitemap.xml").read_text(encoding="utf-8")
    for page in ("getting-started/index.html", "es/getting-started/index.html"):  # hooks/repo_url.py
        html = (site / page).read_text(encoding="utf-8")
        assert re.search(rf'<a href="https://github\.com/{re.escape(REPOSITORY)}" title="[^"]+" class="md-source">', html)  # the header
        assert f"git clone https://github.com/{REPOSITORY} minigrad-breaks" in re.sub(r"<[^>]+>", "", html)
