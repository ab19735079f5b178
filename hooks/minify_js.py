"""MkDocs hook: the scripts every page loads before a reader's intent, minified in the built site.

The runner's scripts (runner.js on every page, mystery.js, and doctor-folder.js
on the doctor page) are the page-load budget's largest part (50 kB before
intent, tests/browser/test_runner.py); their comments say why the code is as
it is and stay in the repository. esbuild (pinned in package.json, already
there for the editor's bundle) minifies each file in place after the build,
keeping its name, so nothing that loads it changes. Scripts loaded only once a
reader asks for Python (worker.js, picture.js) are left as they are.
"""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
BEFORE_INTENT = ["runner.js", "mystery.js", "doctor-folder.js"]


def on_post_build(config):
    folder = Path(config["site_dir"]) / "assets" / "minigrad"
    files = [str(folder / name) for name in BEFORE_INTENT if (folder / name).exists()]
    if not files:
        return
    done = subprocess.run([str(ESBUILD), *files, "--minify", f"--outdir={folder}", "--allow-overwrite", "--log-level=warning"],
                          capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"esbuild could not minify {', '.join(BEFORE_INTENT)}:\n{done.stderr}")
