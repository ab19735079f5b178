"""A scalar chain needs no NumPy: the browser fetches its 12 MB wheel only for a run that does (issue 15).

Each check runs in a fresh interpreter, since this test session has NumPy loaded already.
"""

import subprocess
import sys

import pytest

SCALAR_CHAIN = '''
from minigrad.runner.blocks import Block, run_chain
code = """
from minigrad.scalar import Value
a = Value(2.0)
b = a * a
b.backward()
print(a.grad)
"""
result = run_chain([Block(code=code, name="<block 1>")], slug=SLUG)
assert result.error is None, result.traceback
print(result.output.strip())
'''


def _modules_after(code):
    probe = code + "\nimport sys\nprint('numpy' in sys.modules)\n"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return done.stdout.split()


@pytest.mark.parametrize("statement", ["import minigrad.scalar", "import minigrad", "from minigrad import Value"])
def test_importing_the_scalar_engine_leaves_numpy_out(statement):
    assert _modules_after(statement) == ["False"]


@pytest.mark.parametrize("slug, grad", [(None, "4.0"), ("overwrite-grad", "2.0")])
def test_a_scalar_chain_healthy_or_broken_leaves_numpy_out(slug, grad):
    # overwrite-grad's `=` instead of `+=` keeps only one of b's two paths to a: 2.0, not 4.0
    assert _modules_after(f"SLUG = {slug!r}\n" + SCALAR_CHAIN) == [grad, "False"]


def test_tensor_is_still_there_on_first_use():
    assert _modules_after("import minigrad\nprint(minigrad.Tensor.__name__)") == ["Tensor", "True"]
