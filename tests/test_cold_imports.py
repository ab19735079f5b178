"""What the browser's worker imports as Python starts, and a first Run that draws, stays
light (issue 15: cold start). In Pyodide, importing `dataclasses` costs about 40 ms and
`html` (for its named entities) about 50 ms; neither is needed before a curve is drawn.

Each check runs in a fresh interpreter, since this test session has imported everything.
"""

import subprocess
import sys

# The worker's boot (worker.js's PRELUDE imports these), then the scalar page's first block.
FIRST_RUN = '''
from minigrad.breaks.blocks import Block, run_chain
from minigrad.breaks.numpy_needs import chain_json_needs_numpy
code = """
from minigrad.scalar import Value
from minigrad.viz import draw
a, b = Value(2.0, label="a"), Value(3.0, label="b")
L = a * b
L.backward()
draw(L)
print(a.grad)
"""
result = run_chain([Block(code, "<block 1>")])
assert result.error is None and result.output == "3.0\\n" and result.pictures, result.traceback
import sys
print(sorted(m for m in ("dataclasses", "html", "html.entities", "tomllib") if m in sys.modules))
'''


def test_the_workers_boot_and_a_first_drawing_run_import_neither_dataclasses_nor_html():
    done = subprocess.run([sys.executable, "-c", FIRST_RUN], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def test_a_curve_still_escapes_its_text():
    from minigrad.viz import curve_svg

    svg = curve_svg([("a <b> & 'c'", [1.0, 2.0])], label='loss "x"')
    assert "a &lt;b&gt; &amp; &#x27;c&#x27;" in svg and "loss &quot;x&quot;" in svg
