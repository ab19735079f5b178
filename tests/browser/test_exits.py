"""A block that ends the program says so in its status, whatever the code: `sys.exit(0)` and
`os._exit(0)` alike read "Exited with code 0" (not a red error), `os._exit(3)` "Exited with
code 3". os._exit ends Pyodide itself, as it ends a process on a computer: the status says
Python restarts, and the next Run does. Both languages."""

import pytest
from playwright.sync_api import expect
from running import block_panel, run_and_wait
from warm import visit

pytestmark = pytest.mark.browser


@pytest.fixture
def page(warm_page):
    """Python booted once for the module's tests (tests/browser/warm.py)."""
    return warm_page



def ends(page, replace_code, code, state, said, timeout=90_000):
    replace_code(page, 0, code)
    output = run_and_wait(block_panel(page, 0), timeout=timeout)
    expect(block_panel(page, 0)).to_have_attribute("data-state", state)
    expect(block_panel(page, 0).locator(".mg-status")).to_have_text(said)
    return output


def test_exits_say_their_code_and_python_comes_back_after_os_exit(page, site_url, replace_code, watch):
    visit(page, site_url + "theory/01-derivatives/")
    output = ends(page, replace_code, "print('bye')\nimport os\nos._exit(0)\n", "done", "Exited with code 0; Python restarts on the next run")
    assert output == "bye\n", output
    assert ends(page, replace_code, "print('back', 1 + 1)\n", "done", "Done: 1 line of output") == "back 2\n"
    ends(page, replace_code, "import os\nos._exit(3)\n", "error", "Exited with code 3; Python restarts on the next run")
    output = ends(page, replace_code, "import sys\nsys.exit(0)\n", "done", "Exited with code 0")
    assert output == "SystemExit: the program exited with code 0\n", output
    assert len([u for u in watch.requests if u.endswith("pyodide.asm.wasm")]) >= 1
    assert not watch.errors, watch.errors


def test_exits_in_spanish(page, site_url, replace_code):
    visit(page, site_url + "es/theory/01-derivatives/")
    ends(page, replace_code, "import os\nos._exit(0)\n", "done", "Terminó con código 0; Python se reinicia en la próxima ejecución")
    ends(page, replace_code, "import sys\nsys.exit(0)\n", "done", "Terminó con código 0")
