"""minigrad.viz: deterministic DOT, labels that stay text, curves that say what they show,
and pictures on pages that cannot go stale (conftest.py checks them like outputs)."""

import json
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from minigrad import Tensor
from minigrad.runner import pictures
from minigrad.runner.blocks import Block, run_chain
from minigrad.scalar import Value
from minigrad.viz import curve_svg, describe, dot, draw, plot, ticks
from minigrad_site.pages import pictures as picture_blocks

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = '<img src=x onerror=alert(1)> "quoted" \\N back\\slash\nnewline'


def diamond(label_a="a"):
    a, b, c = Value(2.0, label=label_a), Value(3.0, label="b"), Value(4.0, label="c")
    L = (a * b + c) * (a - c)
    L.label = "L"
    L.backward()
    return L


def render(sources):
    """SVG from viz.js under Node, as the site build does (minigrad_site/pages/render_dot.mjs)."""
    if shutil.which("node") is None or not (ROOT / "node_modules/@viz-js/viz/dist/viz.js").exists():
        pytest.skip("node and node_modules/@viz-js/viz are needed to render DOT (npm ci)")
    done = subprocess.run(["node", "minigrad_site/pages/render_dot.mjs"], input=json.dumps(sources), capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(done.stdout)


def test_dot_is_the_same_for_the_same_graph_built_twice():
    first, second = dot(diamond()), dot(diamond())
    assert first == second
    assert "0x" not in first and not re.search(r"\bn\d{5,}\b", first), "node ids come from the traversal, not id()"
    assert re.findall(r"^  (n\d+) \[label", first, re.M) == [f"n{i}" for i in range(9)]


def test_every_node_shows_label_data_and_grad_and_each_op_its_edges():
    text = dot(diamond())
    assert 'n0 [label="a\\ndata 2\\ngrad 4"]' in text
    assert 'n8 [label="L\\ndata -20\\ngrad 1"]' in text
    assert "n0 -> n2_op; n1 -> n2_op; n2_op -> n2;" in text  # a, b -> (*) -> a*b
    assert describe(diamond()).startswith("a: data 2, grad 4; b: data 3, grad -4; node 2 = *(a, b): data 6, grad -2")


def test_a_tensor_node_shows_its_shape_and_its_gradients_shape():
    a, b = Tensor([[1.0], [2.0]], requires_grad=True), Tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = (a * b).sum()
    out.backward()
    text = dot(out)
    assert 'label="shape (2, 1)\\ngrad (2, 1)"' in text and 'label="shape (3,)\\ngrad (3,)"' in text
    assert 'label="shape (2, 3)\\ngrad (2, 3)"' in text and 'label="sum"' in text


def test_a_hostile_label_is_text_in_the_dot_and_in_the_svg():
    text = dot(diamond(label_a=HOSTILE))
    assert '"<img src=x onerror=alert(1)> \\"quoted\\" \\\\N back\\\\slash\\nnewline\\ndata 2' in text
    assert "\nnewline" not in text.split("\n", 1)[1], "a newline in a label cannot end a DOT line"
    (svg,) = render([text])
    assert "<img" not in svg and "&lt;img src=x onerror=alert(1)&gt;" in svg
    assert "back\\slash" in svg, "\\N stays two characters, not Graphviz's node-name escape"


def test_draw_and_plot_hand_their_picture_to_the_runner():
    result = run_chain([Block("from minigrad.viz import draw, plot\nfrom minigrad.scalar import Value\n"
                              "x = Value(3.0, label='x'); y = x * x; y.backward(); draw(y); plot([1.0, 0.5, float('nan')])")])
    (kind, graph), (kind2, curve) = result.pictures
    assert kind == "graph" and 'label="x\\ndata 3\\ngrad 6"' in graph
    assert kind2 == "curve" and json.loads(curve) == {"label": "loss", "x": "step", "last": 2, "y": [1.0, 0.5, None]}
    assert draw(Value(1.0)) == dot(Value(1.0)) and json.loads(plot([2.0]))["y"] == [2.0]  # outside a runner: just text


def test_curve_svg_is_accessible_escaped_and_fills_its_width():
    svg = curve_svg([("healthy", [1.0, 0.5, 0.25]), ("<b>broken</b>", [1.0, None, 4.0])], label="<loss>")
    assert svg.startswith("<svg") and 'role="img"' in svg and ' width="100%" height="' in svg.split(">")[0]  # text unscaled
    assert "<title>&lt;loss&gt; per step</title>" in svg
    assert "healthy: from 1 to 0.25 (lowest 0.25, highest 1)" in svg and "&lt;b&gt;broken&lt;/b&gt;: from 1 to 4" in svg
    assert "<b>" not in svg and 'fill="currentColor"' in svg
    assert "por paso" in curve_svg([("sano", [1.0, 2.0])], lang="es")


def test_curve_ticks_are_round_numbers_and_span_the_values():
    assert ticks(2.114e-11, 9.378, log=True) == [10.0 ** k for k in range(-11, 2, 2)]  # 12 decades: every other one
    assert ticks(0.0007522, 0.7212, log=True) == [1e-4, 1e-3, 1e-2, 1e-1, 1.0]
    assert ticks(0.2503, 0.4989) == [0.25, 0.3, 0.35, 0.4, 0.45, 0.5]
    assert ticks(-0.0039, 0.5) == [-0.2, 0.0, 0.2, 0.4, 0.6]
    assert ticks(0, 59) == [0, 20, 40, 60]
    for lo, hi in [(0.825, 1.0), (0.07392, 0.5591), (3.0, 17.75), (-1.881, 17.75), (0.0, 40.28)]:
        found = ticks(lo, hi)
        assert 4 <= len(found) <= 7 and found[0] <= lo and found[-1] >= hi, (lo, hi, found)
        step = found[1] - found[0]
        assert f"{step / 10 ** math.floor(math.log10(step)):.6g}" in {"1", "2", "5"}, (lo, hi, found)


def test_a_curve_over_orders_of_magnitude_gets_a_log_axis_that_says_so():
    falling = [5.76 * 0.64 ** i for i in range(60)]  # zero-grad-does-nothing's healthy loss, to 2e-11
    svg = curve_svg([("healthy", falling)])
    assert "loss per step (log scale)" in svg and ">10⁻¹¹</text>" in svg and ">10¹</text>" in svg
    labels = re.findall(r">([^<]*)</text>", svg)
    assert not [t for t in labels if "e-" in t or "e+" in t], labels  # no 2.114e-11 on the axis
    assert "to 2.114e-11" in svg  # the text alternative keeps the numbers
    assert "(escala logarítmica)" in curve_svg([("sano", falling)], lang="es")
    linear = curve_svg([("healthy", [0.2503, 0.4989])])  # twice, not orders of magnitude
    assert "log scale" not in linear and ">0.25</text>" in linear and ">0.5</text>" in linear
    assert "log scale" not in curve_svg([("healthy", [0.0, 1.0, 1e-9])])  # zero: no log


def test_a_long_curve_keeps_its_shape_in_at_most_201_points():
    curve = json.loads(plot([float(i) for i in range(1001)]))
    assert len(curve["y"]) == 201 and curve["y"][0] == 0 and curve["y"][-1] == 1000 and curve["last"] == 1000
    assert '>1000</text>' in curve_svg([("healthy", curve["y"])], last=curve["last"])  # the x axis's last tick


# ---- pictures on pages: checked like outputs ---------------------------------

def run_docs(page, *extra):
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-q", "-c", "pyproject.toml", "--rootdir", str(ROOT), "-p", "conftest", str(page), *extra],
        cwd=ROOT, capture_output=True, text=True,
    )


def copy_of(tmp_path, source, old=None, new=None):
    text = (ROOT / source).read_text(encoding="utf-8")
    if old is not None:
        assert old in text, f"{source} no longer contains {old!r}: update this test"
        text = text.replace(old, new, 1)
    page = tmp_path / Path(source).name
    page.write_text(text, encoding="utf-8")
    return page


def test_an_edited_drawn_number_fails_naming_the_page(tmp_path):
    page = copy_of(tmp_path, "docs/breaks/overwrite-grad.md", 'n0 [label="a\\ndata 2\\ngrad -6"]', 'n0 [label="a\\ndata 2\\ngrad -7"]')
    done = run_docs(page)
    assert done.returncode == 1, done.stdout
    assert re.search(rf"{re.escape(page.name)}:\d+: the broken \(overwrite-grad\) picture shown at line \d+ is not what the block draws now", done.stdout)
    assert '-  n0 [label="a\\ndata 2\\ngrad -7"];' in done.stdout and '+  n0 [label="a\\ndata 2\\ngrad -6"];' in done.stdout


def test_a_break_that_changes_a_drawn_number_fails_until_the_page_shows_it(tmp_path):
    """overwrite-grad turns a.grad 4 into -6 in the diamond's picture; a page without that picture fails."""
    original = (ROOT / "docs/breaks/overwrite-grad.md").read_text(encoding="utf-8")
    page = tmp_path / "overwrite-grad.md"
    page.write_text(re.sub(r"```\{\.dot \.picture \.broken\}\n.*?\n```\n\n?", "", original, count=1, flags=re.S), encoding="utf-8")
    done = run_docs(page)
    assert done.returncode == 1
    assert re.search(r"overwrite-grad\.md:\d+: the broken \(overwrite-grad\) picture is missing", done.stdout), done.stdout[-3000:]
    assert '+  n0 [label="a\\ndata 2\\ngrad -6"];' in done.stdout


def test_update_outputs_redraws_a_picture_removed_from_a_page(tmp_path):
    original = (ROOT / "docs/breaks/overwrite-grad.md").read_text(encoding="utf-8")
    without = re.sub(r"```\{\.dot \.picture( \.broken)?\}\n.*?\n```\n\n?", "", original, flags=re.S)
    assert without != original
    page = tmp_path / "overwrite-grad.md"
    page.write_text(without, encoding="utf-8")
    assert run_docs(page).returncode == 1
    done = run_docs(page, "--update-outputs")
    assert done.returncode == 0, done.stdout[-2000:]
    assert page.read_text(encoding="utf-8") == original


def test_the_build_marks_on_a_broken_graph_the_nodes_the_break_changed():
    hook = picture_blocks
    page = (ROOT / "docs/breaks/overwrite-grad.md").read_text(encoding="utf-8")
    drawn = next(p for p in hook.picture_blocks(page) if p.broken)
    marked = [line for line in pictures.mark_changes(drawn.healthy, drawn.broken).splitlines() if "penwidth" in line]
    assert [line.split(" [")[0].strip() for line in marked] == ["n0", "n3"]  # a and c; b (one path) is right
    assert pictures.mark_changes(drawn.healthy, drawn.healthy) == drawn.healthy


def test_the_build_marks_nothing_when_the_break_changes_the_graphs_shape():
    """layernorm-stats-detached drops the mean's and variance's edges: node ids no longer name the same node."""
    hook = picture_blocks
    page = (ROOT / "docs/breaks/layernorm-stats-detached.md").read_text(encoding="utf-8")
    drawn = next(p for p in hook.picture_blocks(page) if p.broken and p.lang == "dot")
    assert pictures.EDGES.findall(drawn.healthy) != pictures.EDGES.findall(drawn.broken)
    assert "penwidth" not in pictures.mark_changes(drawn.healthy, drawn.broken)
