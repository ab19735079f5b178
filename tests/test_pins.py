"""The site's build stack is bounded to its current majors in pyproject.toml.

MkDocs 2 is announced to break plugins, and Material for MkDocs reaches end
of life on 2027-05-05: an unbounded requirement would let `uv lock --upgrade`
take a new major unseen. The bound must keep today's locked version and
refuse the next major (MAINTAINERS.md, "Material's end of life").

The runtime's pins live in minigrad/runner/pins.json: npm's own copies of its
versions (package.json, package-lock.json) must agree with it, and what npm
installed must be what it pins (the wheel's bytes, Pyodide's numpy entry)."""

import hashlib
import json
import os
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from minigrad.runner import pins

ROOT = Path(__file__).resolve().parents[1]
BOUNDED = ("mkdocs", "mkdocs-material", "mkdocs-static-i18n")


def requirements(pyproject=None):
    """{name: Requirement} of every dependency group."""
    data = tomllib.loads(pyproject if pyproject is not None else (ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = [Requirement(r) for group in data["dependency-groups"].values() for r in group if isinstance(r, str)]
    return {r.name: r for r in found}


def locked(name):
    lock = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
    return Version(next(p["version"] for p in lock["package"] if p["name"] == name))


def problem(requirement, version, step="major"):
    """Why the requirement is not bounded to the locked version's major (or minor), or None."""
    following = f"{version.major + 1}.0" if step == "major" else f"{version.major}.{version.minor + 1}"
    if not any(s.operator in ("<", "<=", "==", "~=", "===") for s in requirement.specifier):
        return f"{requirement} has no upper bound: add <{following if step == 'minor' else version.major + 1}"
    if version not in requirement.specifier:
        return f"{requirement} refuses the locked {version}"
    if requirement.specifier.contains(following, prereleases=True):
        return f"{requirement} lets in {following}: bound it below the next {step}"
    return None


@pytest.mark.parametrize("name", BOUNDED)
def test_the_build_stack_is_bounded_to_its_current_major(name):
    assert (found := problem(requirements()[name], locked(name))) is None, f"pyproject.toml: {found}"


def test_pytest_markdown_docs_is_bounded_below_its_next_minor():
    """The root conftest.py imports its private `_runners`: a 0.x minor may move it."""
    name = "pytest-markdown-docs"
    assert (found := problem(requirements()[name], locked(name), "minor")) is None, f"pyproject.toml: {found}"
    assert "pytest_markdown_docs._runners" in (ROOT / "conftest.py").read_text(encoding="utf-8"), "no longer imported: the bound may go"


def test_an_unbounded_requirement_is_named():
    planted = '[dependency-groups]\ndocs = ["mkdocs>=1.6", "mkdocs-material>=9.6,<11"]\n'
    reqs = requirements(planted)
    assert problem(reqs["mkdocs"], Version("1.6.1")) == "mkdocs>=1.6 has no upper bound: add <2"
    assert problem(reqs["mkdocs-material"], Version("9.8.2")) == "mkdocs-material<11,>=9.6 lets in 10.0: bound it below the next major"
    planted = '[dependency-groups]\ntest = ["pytest-markdown-docs>=0.9", "pytest-markdown-docs-x>=0.9,<1"]\n'
    reqs = requirements(planted)
    assert problem(reqs["pytest-markdown-docs"], Version("0.9.2"), "minor") == "pytest-markdown-docs>=0.9 has no upper bound: add <0.10"
    assert problem(reqs["pytest-markdown-docs-x"], Version("0.9.2"), "minor") == "pytest-markdown-docs-x<1,>=0.9 lets in 0.10: bound it below the next minor"


def npm_pins(package_json, package_lock):
    """{npm package: version} for the runtime's pinned packages, as package.json and package-lock.json say."""
    wanted = {"pyodide": pins.PYODIDE, pins.WHEEL["npm"]: pins.WHEEL["version"]}
    declared = {name: package_json["devDependencies"].get(name) for name in wanted}
    locked = {name: package_lock["packages"].get(f"node_modules/{name}", {}).get("version") for name in wanted}
    return wanted, declared, locked


def test_package_json_and_its_lock_pin_what_pins_json_pins():
    package_json, package_lock = (json.loads((ROOT / n).read_text(encoding="utf-8")) for n in ("package.json", "package-lock.json"))
    wanted, declared, locked = npm_pins(package_json, package_lock)
    assert declared == wanted, "package.json's versions differ from minigrad/runner/pins.json's"
    assert locked == wanted, "package-lock.json's versions differ from minigrad/runner/pins.json's"


def test_a_version_that_differs_from_the_pin_is_seen():
    package_json = {"devDependencies": {"pyodide": "0.0.1", pins.WHEEL["npm"]: pins.WHEEL["version"]}}
    lock = {"packages": {"node_modules/pyodide": {"version": "0.0.1"}}}
    wanted, declared, locked = npm_pins(package_json, lock)
    assert declared != wanted and declared["pyodide"] == "0.0.1" and locked[pins.WHEEL["npm"]] is None


needs_npm = pytest.mark.skipif(not (ROOT / "node_modules/pyodide/pyodide-lock.json").exists() and not os.environ.get("CI"),
                               reason="needs npm ci (node_modules)")


@needs_npm
def test_the_installed_wheel_is_the_pinned_one():
    """Its bytes: the offline site, the browser tests and the Node harness load this file."""
    wheel = ROOT / pins.WHEEL_PATH
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == pins.WHEEL["sha256"], f"{wheel} is not the pinned wheel"


@needs_npm
def test_numpy_by_name_is_the_installed_pyodide_s_lock_entry():
    """From the CDN the worker loads NumPy by name (pyodide-lock.json's file and sha256), and the page
    fetches that file early at intent: another name would fetch 12 MB for nothing."""
    lock = json.loads((ROOT / "node_modules/pyodide/pyodide-lock.json").read_text(encoding="utf-8"))
    entry = lock["packages"]["numpy"]
    assert {"file_name": entry["file_name"], "sha256": entry["sha256"]} == {k: pins.BY_NAME[k] for k in ("file_name", "sha256")}
    assert entry["version"] == pins.WHEEL_NAME.split("-")[1]  # the same NumPy as our wheel, built apart


@needs_npm
def test_the_offline_site_s_lock_names_our_wheel_and_its_sha256():
    """The offline site's worker loads NumPy by name too: its lock must lead to the wheel it ships."""
    lock = json.loads((ROOT / "node_modules/pyodide/pyodide-lock.json").read_text(encoding="utf-8"))
    ours = pins.offline_lock(lock, pins.WHEEL["sha256"])
    assert {k: ours["packages"]["numpy"][k] for k in ("file_name", "sha256")} == {"file_name": pins.WHEEL_NAME, "sha256": pins.WHEEL["sha256"]}
    assert ours["packages"]["numpy"]["version"] == lock["packages"]["numpy"]["version"]
    assert {k: v for k, v in ours["packages"].items() if k != "numpy"} == {k: v for k, v in lock["packages"].items() if k != "numpy"}
    assert lock["packages"]["numpy"]["file_name"] == pins.BY_NAME["file_name"]  # Pyodide's own lock is left as it was
    with pytest.raises(ValueError, match="is not the wheel pinned"):
        pins.offline_lock(lock, hashlib.sha256(b"another wheel").hexdigest())
