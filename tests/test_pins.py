"""The site's build stack is bounded to its current majors in pyproject.toml.

MkDocs 2 is announced to break plugins, and Material for MkDocs reaches end
of life on 2027-05-05: an unbounded requirement would let `uv lock --upgrade`
take a new major unseen. The bound must keep today's locked version and
refuse the next major (MAINTAINERS.md, "Material's end of life")."""

import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

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


def problem(requirement, version):
    """Why the requirement is not bounded to the locked version's major, or None."""
    if not any(s.operator in ("<", "<=", "==", "~=", "===") for s in requirement.specifier):
        return f"{requirement} has no upper bound: add <{version.major + 1}"
    if version not in requirement.specifier:
        return f"{requirement} refuses the locked {version}"
    if requirement.specifier.contains(f"{version.major + 1}.0", prereleases=True):
        return f"{requirement} lets in {version.major + 1}.0: bound it below the next major"
    return None


@pytest.mark.parametrize("name", BOUNDED)
def test_the_build_stack_is_bounded_to_its_current_major(name):
    assert (found := problem(requirements()[name], locked(name))) is None, f"pyproject.toml: {found}"


def test_an_unbounded_requirement_is_named():
    planted = '[dependency-groups]\ndocs = ["mkdocs>=1.6", "mkdocs-material>=9.6,<11"]\n'
    reqs = requirements(planted)
    assert problem(reqs["mkdocs"], Version("1.6.1")) == "mkdocs>=1.6 has no upper bound: add <2"
    assert problem(reqs["mkdocs-material"], Version("9.8.2")) == "mkdocs-material<11,>=9.6 lets in 10.0: bound it below the next major"
