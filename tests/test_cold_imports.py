"""What the browser's worker imports as Python starts, and a first Run that draws, stays
light (issue 15: cold start). In Pyodide, importing `dataclasses` costs about 40 ms and
`html` (for its named entities) about 50 ms; neither is needed before a curve is drawn.

Each check runs in a fresh interpreter, since this test session has imported everything.
"""

import subprocess
import sys

from minigrad_site.build.runtime import bundle

# The worker's boot (worker.js imports minigrad.runner.worker), then the scalar page's first block, run as the worker runs it.
FIRST_RUN = '''
import json
from minigrad.runner import worker
code = """
from minigrad.scalar import Value
from minigrad.viz import draw
a, b = Value(2.0, label="a"), Value(3.0, label="b")
L = a * b
L.backward()
draw(L)
print(a.grad)
"""
printed = []
result = json.loads(worker.runner(printed.append)(json.dumps([{"code": code, "name": "<block 1>"}]), "", "{}"))
assert result["error"] is None and printed == ["3.0\\n"] and result["pictures"][0]["kind"] == "graph", result
import sys
print(sorted(m for m in ("dataclasses", "html", "html.entities", "tomllib") if m in sys.modules))
'''


def test_the_workers_boot_and_a_first_drawing_run_import_neither_dataclasses_nor_html(tmp_path):
    """On the files the browser gets (the site's bundle: the words as JSON), as the worker runs them."""
    for path, text in bundle().items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", FIRST_RUN], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def test_a_curve_still_escapes_its_text():
    from minigrad.viz import curve_svg

    svg = curve_svg([("a <b> & 'c'", [1.0, 2.0])], label='loss "x"')
    assert "a &lt;b&gt; &amp; &#x27;c&#x27;" in svg and "loss &quot;x&quot;" in svg
