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

