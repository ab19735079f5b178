"""Build the runner from its modules, and minify what every page loads before intent.

The runner's source is small ES modules under runner/ (one concern each:
text.js, settings.js, runtime.js, editor.js, pictures.js, block.js,
reports.js, languages.js, patches.js; main.js wires them). esbuild (pinned in
package.json, already there for the editor's bundle) bundles them into one
classic script, `assets/minigrad/runner.js` in the built site, the name
mkdocs.yml loads; then it minifies that and the other scripts loaded before
a reader's intent (mystery.js, doctor-folder.js) in place. Together they are
the page-load budget's largest part (tests/browser/test_runner.py); their
comments say why the code is as it is and stay in the repository. The Python
worker is bundled the same way from runner/worker/main.js into
`assets/minigrad/worker.js`, a classic worker script (it loads Pyodide with
importScripts), and the progress page's script from runner/progress-page.js (it
shares progress.js with the runner); the page and the worker share runner/messages.js, the table
of their messages. picture.js, loaded once a reader asks for a picture, is
left as it is.
"""

import subprocess
from pathlib import Path

from minigrad_site import ROOT
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
RUNNER = ROOT / "runner" / "main.js"
WORKER = ROOT / "runner" / "worker" / "main.js"
PROGRESS_PAGE = ROOT / "runner" / "progress-page.js"  # the progress page's own script, loaded there only
BEFORE_INTENT = ["mystery.js", "doctor-folder.js", "symptoms.js"]


def esbuild(*args):
    done = subprocess.run([str(ESBUILD), *args, "--log-level=warning"], capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"esbuild failed on {args[0]}:\n{done.stderr}")


WATCH = ROOT / "runner"  # `mkdocs serve` rebuilds when a runner module changes, as it does for a page


def bundle(site_dir):
    folder = Path(site_dir) / "assets" / "minigrad"
    if not folder.is_dir():
        return
    for entry, name in ((RUNNER, "runner.js"), (WORKER, "worker.js"), (PROGRESS_PAGE, "progress-page.js")):
        esbuild(str(entry), "--bundle", "--format=iife", "--target=es2020", "--minify", f"--outfile={folder / name}")
    files = [str(folder / name) for name in BEFORE_INTENT if (folder / name).exists()]
    if files:
        esbuild(*files, "--minify", f"--outdir={folder}", "--allow-overwrite")
