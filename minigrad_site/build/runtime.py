"""Ship what the browser runner needs into the built site.

- `_minigrad/bundle.json`: minigrad's source, break diffs and data, read from
  the package at build time (no second copy is committed). The worker writes
  these files into Pyodide's file system, so the browser applies a break with
  the same `minigrad.breaks` code that CI uses.
- `_minigrad/needs.json`: which of minigrad's modules load NumPy, from the
  package's import graph (minigrad.runner.numpy_needs), so the worker loads
  the 12 MB wheel only for a run whose chain needs it.
- With the plugin's `pyodide: local` (env MINIGRAD_PYODIDE=local), Pyodide
  from node_modules/pyodide and the NumPy wheel from the npm package that
  ships it, under `_minigrad/pyodide/`: an offline site whose requests never
  leave its own host; its pyodide-lock.json names our wheel and its sha256 for
  numpy (the CDN's lists another file), so the worker loads NumPy by name, its
  bytes checked, either way. With `cdn` (the default), the pinned CDN URL is used.
  The pins (Pyodide's version, its CDN, the wheel) are minigrad/runner/pins.json's:
  the plugin hands the page its CDN URL and the wheel's name (extra.pyodide).

- `coi-serviceworker.js` (npm package coi-serviceworker, pinned in
  package.json) at the site's root, so its scope covers every page of both
  languages: on a host that sends no COOP/COEP headers (GitHub Pages) it makes
  the pages cross-origin isolated after one reload, and Stop interrupts Python
  instead of restarting it. Without node_modules the site is built without it
  (Stop then restarts Python, as on any host without isolation). It is
  narrowed to documents and workers (sw_documents_and_workers_only.js, beside this file),
  so Python's files reach the page as the server sent them and V8 can reuse
  their compiled wasm.

Both go to the root site only: the Spanish build (site/es/) reads them from
there, so the 10 MB runtime is not copied twice.
"""

import hashlib
import json
import logging
import tomllib
import shutil
from pathlib import Path

from minigrad.checks import reference as torch_numbers
from minigrad.runner import pins
from minigrad_site.pages.fences import package_needs

from minigrad_site import ROOT
PACKAGE = ROOT / "minigrad"
PYODIDE = ROOT / "node_modules" / "pyodide"
NUMPY_WHEEL = ROOT / pins.WHEEL_PATH
PYODIDE_FILES = ["pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip"]  # and our pyodide-lock.json
SHIPPED = ("*.py", "*.toml", "*.diff", "*.json")
COI_SERVICEWORKER = ROOT / "node_modules" / "coi-serviceworker" / "coi-serviceworker.min.js"
SW_DOCUMENTS_AND_WORKERS_ONLY = Path(__file__).with_name("sw_documents_and_workers_only.js")  # put before it: see the file

class _KnownConflictSolved(logging.Filter):
    """mkdocs-static-i18n warns that Material's instant navigation breaks its
    language switcher (its issue #115). runner/languages.js
    rewrites the switcher's links on every navigation and makes them full page
    loads, which solves that (tests/browser checks it), so the warning would
    only mislead whoever reads the build log."""

    def filter(self, record):
        return "not compatible with theme.features = navigation.instant" not in record.getMessage()


# get_plugin_logger(__name__) in mkdocs_static_i18n/reconfigure.py
logging.getLogger("mkdocs.plugins.mkdocs_static_i18n.reconfigure").addFilter(_KnownConflictSolved())


def page_settings(source):
    """What overrides/main.html hands the runner (config.extra.pyodide): the source, and NumPy by
    name from the CDN or our wheel from the site. Pyodide's CDN and the wheel are pinned in pins.json."""
    if source not in ("cdn", "local"):
        raise ValueError(f"the pyodide option must be 'cdn' or 'local', not {source!r}")
    if source == "local" and not (PYODIDE / "pyodide.js").exists():
        raise FileNotFoundError("pyodide is 'local' but node_modules/pyodide is missing: run `npm ci` first")
    return {"source": source, "cdn": pins.CDN, "numpy_wheel": pins.BY_NAME["file_name"] if source == "cdn" else pins.WHEEL_NAME}


def has_coi_serviceworker():
    """Whether the site ships coi-serviceworker (main.html loads it when it does)."""
    if not COI_SERVICEWORKER.exists():
        logging.getLogger("mkdocs.plugins.minigrad_site").info(
            "node_modules/coi-serviceworker is missing (npm ci): built without it, Stop restarts Python on hosts without COOP/COEP")
    return COI_SERVICEWORKER.exists()


def bundle():
    """{path relative to the repo root: text} for the minigrad package, less the tests' share of PyTorch's numbers."""
    files = sorted(p for pattern in SHIPPED for p in PACKAGE.rglob(pattern) if "__pycache__" not in p.parts
                   and (p.parent != torch_numbers.HOME or p in torch_numbers.SHIPPED))
    shipped = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in files}
    for path in [p for p in shipped if p.startswith("minigrad/words/") and p.endswith(".toml")]:
        # the words as JSON, which the browser's Python reads without importing tomllib (a first Run stays light)
        shipped[path.removesuffix(".toml") + ".json"] = json.dumps(tomllib.loads(shipped.pop(path)), ensure_ascii=False)
    return shipped


def ship(site_dir, pyodide_source, coi_serviceworker):
    """Into the root site (the Spanish build reads them from there): the bundle, needs.json, the
    service worker and, for a local source, Pyodide and the NumPy wheel."""
    out = Path(site_dir) / "_minigrad"
    out.mkdir(parents=True, exist_ok=True)
    (out / "bundle.json").write_text(json.dumps(bundle(), separators=(",", ":")), encoding="utf-8")
    (out / "needs.json").write_text(json.dumps({"numpy": package_needs()}, separators=(",", ":")), encoding="utf-8")
    if coi_serviceworker:
        narrowed = SW_DOCUMENTS_AND_WORKERS_ONLY.read_text(encoding="utf-8") + COI_SERVICEWORKER.read_text(encoding="utf-8")
        (Path(site_dir) / "coi-serviceworker.js").write_text(narrowed, encoding="utf-8")
    if pyodide_source == "local":
        target = out / "pyodide"
        target.mkdir(exist_ok=True)
        for name in PYODIDE_FILES:
            shutil.copy2(PYODIDE / name, target / name)
        wheel = NUMPY_WHEEL.read_bytes()
        lock = pins.offline_lock(json.loads((PYODIDE / "pyodide-lock.json").read_text(encoding="utf-8")), hashlib.sha256(wheel).hexdigest())
        (target / "pyodide-lock.json").write_text(json.dumps(lock, separators=(",", ":")), encoding="utf-8")
        (target / NUMPY_WHEEL.name).write_bytes(wheel)
