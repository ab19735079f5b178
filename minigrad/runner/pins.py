"""The runtime's pins (pins.json beside this file), for the build, the tests and the benchmarks.

The Node harness (tests/pyodide/run_blocks.mjs) reads the same JSON itself."""

import json
from pathlib import Path

PINS = json.loads(Path(__file__).with_name("pins.json").read_text(encoding="utf-8"))
PYODIDE = PINS["pyodide"]["version"]
CDN = PINS["pyodide"]["cdn"].format(version=PYODIDE)
WHEEL = PINS["numpy_wheel"]
WHEEL_NAME = Path(WHEEL["file"]).name  # numpy-<version>-...whl
WHEEL_PATH = f"node_modules/{WHEEL['npm']}/{WHEEL['file']}"  # relative to the repository's root
BY_NAME = PINS["pyodide"]["numpy_by_name"]  # pyodide-lock.json's numpy entry: file_name, sha256


def offline_lock(lock, wheel_sha256):
    """Pyodide's lock (a dict) with numpy's entry made our wheel's, for the offline site: loadPackage("numpy")
    then fetches the wheel the site ships, and the browser checks its sha256 (the CDN's wheel is another file)."""
    numpy = lock["packages"]["numpy"]
    if wheel_sha256 != WHEEL["sha256"] or numpy["version"] != WHEEL_NAME.split("-")[1]:
        raise ValueError(f"{WHEEL_PATH} is not the wheel pinned in minigrad/runner/pins.json for numpy {numpy['version']} (npm ci)")
    return lock | {"packages": lock["packages"] | {"numpy": numpy | {"file_name": WHEEL_NAME, "sha256": wheel_sha256}}}

