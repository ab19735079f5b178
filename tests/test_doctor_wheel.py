"""The doctor without cloning this repository (issue 37): `minigrad-doctor`, a console script of the
built wheel, in a fresh virtual environment, run in a learner's project whose own package is also
called `minigrad` (which `python -m minigrad.doctor` from that folder would import instead of ours)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.learner_engines.harness import package_copy

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    uv = shutil.which("uv")
    if not uv:
        pytest.skip("uv is not on the PATH: the wheel cannot be built here (.ci/run installs it)")
    where = tmp_path_factory.mktemp("wheel")
    subprocess.run([uv, "build", "--wheel", "--out-dir", str(where / "dist"), str(ROOT)], check=True, capture_output=True)
    wheel = next((where / "dist").glob("minigrad-*.whl"))
    subprocess.run([uv, "venv", "--python", sys.executable, str(where / "venv")], check=True, capture_output=True)
    python = where / "venv" / "bin" / "python"
    subprocess.run([uv, "pip", "install", "--python", str(python), str(wheel)], check=True, capture_output=True)
    return where / "venv" / "bin" / "minigrad-doctor"


def _run(script, cwd, *args):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run([str(script), *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=300)


def test_the_console_script_checks_a_learners_package_called_minigrad_from_its_own_project(installed, tmp_path):
    package = package_copy("classic", tmp_path, "sgd-sign-flipped")  # .../classic/src/minigrad, the learner's own
    project = package.parents[1]
    result = _run(installed, project, "--engine", "src/minigrad", "--json")
    assert result.returncode == 1, result.stderr
    import json

    report = json.loads(result.stdout)
    assert report["diagnoses"][0]["slug"] == "sgd-sign-flipped"


def test_the_console_script_runs_from_a_folder_holding_a_package_called_minigrad(installed, tmp_path):
    """cwd holds `minigrad/`: the console script's path starts at its own bin folder, not at the cwd."""
    project = tmp_path / "flat"
    package = package_copy("classic", tmp_path / "copy")
    shutil.copytree(package, project / "minigrad")
    (project / "pyproject.toml").write_text('[project]\nname = "mine"\n\n[tool.minigrad-doctor]\nengine = "minigrad"\n')
    result = _run(installed, project, "--junit", "doctor.xml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Nothing caught" in result.stdout and (project / "doctor.xml").is_file()
    usage = _run(installed, project, "--help")
    assert usage.stdout.startswith("usage: minigrad-doctor")
