"""The code editor's bundle is committed (overrides/assets/minigrad/editor.bundle.js),
so `uv run mkdocs serve|build` needs no Node. It must never go stale: rebuilt
from editor/editor.js and the pinned packages in package-lock.json, it must be
byte for byte the committed file."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUNDLE = ROOT / "overrides/assets/minigrad/editor.bundle.js"


def test_committed_editor_bundle_is_what_its_source_builds(tmp_path):
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules/esbuild").exists():
        reason = "node or node_modules/esbuild is missing (npm ci)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI installs it: see .ci/run")
        pytest.skip(reason)
    fresh = tmp_path / "editor.bundle.js"
    subprocess.run([node, "scripts/build_editor.mjs", "--outfile", str(fresh)], cwd=ROOT, check=True)
    assert fresh.read_bytes() == BUNDLE.read_bytes(), "stale bundle: run `npm run build:editor` and commit it"


def test_the_site_ships_the_editor_and_no_cdn_for_it():
    text = BUNDLE.read_text(encoding="utf-8")
    assert "window.minigradEditor" in text or "minigradEditor=" in text
    assert "http://" not in text.replace("http://www.w3.org", "") and "cdn" not in text.lower()
