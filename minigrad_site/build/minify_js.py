"""The site's scripts, built from the one front-end tree, runner/, by the pinned esbuild at build time.

runner/ holds every script a page runs, as small modules by concern; nothing built is committed:

- `runner/main.js` (text.js, settings.js, runtime.js, editor.js, pictures.js, block.js,
  reports.js, languages.js, patches.js, ...) -> `assets/minigrad/runner.js`, the classic
  script mkdocs.yml loads on every page;
- `runner/worker/main.js` -> `worker.js`, the Python worker (it loads Pyodide with
  importScripts); the page and the worker share runner/messages.js;
- `runner/progress-page.js` -> `progress-page.js`, the progress page's own (it shares
  progress.js with the runner);
- `runner/editor/codemirror.js` -> `editor.bundle.js`, the code editor with CodeMirror from
  node_modules, loaded on a reader's intent;
- `runner/pages/` -> the scripts one page loads before intent (mystery.js, doctor-folder.js,
  symptoms.js), minified, and those loaded on intent (picture.js, picture-worker.js), as written.

Each bundle is minified: with the CSS, they are the page-load budget (tests/browser/test_runner.py);
their comments say why the code is as it is and stay in the repository. Built once per process
for a given content of runner/ and package-lock.json: the Spanish build, and each rebuild of
`mkdocs serve` that changed no script, copy the bytes instead of starting esbuild again.
"""

import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

from minigrad_site import ROOT

ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
FRONT_END = ROOT / "runner"
WATCH = FRONT_END  # `mkdocs serve` rebuilds when a script changes, as it does for a page
BUNDLED = {  # site name: entry point (bundled as one classic script, minified)
    "runner.js": FRONT_END / "main.js",
    "worker.js": FRONT_END / "worker" / "main.js",
    "progress-page.js": FRONT_END / "progress-page.js",
    "editor.bundle.js": FRONT_END / "editor" / "codemirror.js",
}
MINIFIED = ["mystery.js", "doctor-folder.js", "symptoms.js"]  # runner/pages/, loaded before intent
AS_WRITTEN = ["picture.js", "picture-worker.js"]  # runner/pages/, loaded once a reader asks for a picture
LEGAL = {"editor.bundle.js"}  # a package's legal comments (/*! or @license), if any, kept at the end

_built = {}  # fingerprint of runner/ and the lockfile -> {site name: bytes}


def esbuild(*args):
    done = subprocess.run([str(ESBUILD), *args, "--log-level=warning"], capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"esbuild failed on {args[0]}:\n{done.stderr}")


def fingerprint():
    digest = hashlib.sha256()
    for path in sorted([*FRONT_END.rglob("*.js"), ROOT / "package-lock.json"]):
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def build_scripts():
    """{site name: bytes} of every script, built now or earlier in this process from the same sources."""
    key = fingerprint()
    if key not in _built:
        with tempfile.TemporaryDirectory() as out:
            for name, entry in BUNDLED.items():
                legal = ["--legal-comments=eof"] if name in LEGAL else []
                esbuild(str(entry), "--bundle", "--format=iife", "--target=es2020", "--minify", *legal, f"--outfile={Path(out) / name}")
            esbuild(*[str(FRONT_END / "pages" / name) for name in MINIFIED], "--minify", f"--outdir={out}")
            for name in AS_WRITTEN:
                shutil.copy2(FRONT_END / "pages" / name, Path(out) / name)
            _built.clear()  # one generation kept: the sources of this build
            _built[key] = {p.name: p.read_bytes() for p in Path(out).iterdir()}
    return _built[key]


def bundle(site_dir):
    folder = Path(site_dir) / "assets" / "minigrad"
    if not folder.is_dir():
        return
    for name, data in build_scripts().items():
        (folder / name).write_bytes(data)
