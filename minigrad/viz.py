"""Pictures of what minigrad computes: Graphviz DOT for a graph, SVG for a curve.

`draw(L)` is micrograd's `draw_dot`: every node with its label, data and grad
(a tensor: its shape and its gradient's shape), an op node between operands
and result. It returns DOT text, deterministic (node ids follow the graph's
topological order, never id()), so a page's picture can be checked in CI like
its printed output. `plot(losses)` records a training curve. Both also hand the
picture to `minigrad_picture.show(kind, text)` when such a module is importable:
the doc runner (minigrad.runner.blocks) records pictures that way, and the
browser turns them into images; plain Python just gets the text back.

Curves are SVG written here, not matplotlib: the offline Pyodide has no
matplotlib, and a plotting library would add bytes for one line chart.
"""

import json
import math

from .graph import topological_order
from .words import by_language


def _num(x):
    return f"{float(x):.4g}"


def _dot_string(text):
    """A DOT quoted string: a reader's label stays text (Graphviz escapes it again in SVG)."""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "") + '"'


def _facts(node):
    """(name, what it holds) of one node: a scalar's data and grad, a tensor's shapes."""
    name = getattr(node, "label", "") or ""
    shape = getattr(node, "shape", None)
    if shape is None:
        return name, f"data {_num(node.data)} | grad {_num(node.grad)}"
    grad = "None" if node.grad is None else str(tuple(node.grad.shape))
    return name, f"shape {tuple(shape)} | grad {grad}"


def describe(root):
    """The text alternative of `dot(root)`: every node with what it holds, in graph order."""
    order = topological_order(root)
    return _describe(order, {node: _facts(node) for node in order})


def _describe(order, facts):
    names = {node: facts[node][0] or f"node {i}" for i, node in enumerate(order)}
    parts = []
    for node in order:
        op = f" = {node._op}({', '.join(names[c] for c in node._prev)})" if node._op else ""
        parts.append(f"{names[node]}{op}: {facts[node][1].replace(' | ', ', ')}")
    return "; ".join(parts).replace("\n", " ").replace("\r", " ")


def dot(root):
    """Graphviz DOT of the graph that produced `root`, leaves first."""
    order = topological_order(root)
    facts = {node: _facts(node) for node in order}  # once per node: a Run that draws pays for this each time
    ids = {node: f"n{i}" for i, node in enumerate(order)}
    lines = [
        f"// {_describe(order, facts)}",
        "digraph minigrad {",
        '  graph [rankdir=TB, nodesep=0.25, ranksep=0.3, bgcolor="transparent"];',
        '  node [shape=box, style=rounded, fontname="Helvetica", fontsize=11, margin="0.08,0.04"];',
        '  edge [arrowsize=0.6];',
    ]
    ops, edges = [], []
    for node in order:
        name, held = facts[node]
        lines.append(f"  {ids[node]} [label={_dot_string(chr(10).join(filter(None, [name, *held.split(' | ')])))}];")
        if node._op:
            ops.append(f"  {ids[node]}_op [label={_dot_string(node._op)}];")
            edges.append("  " + " ".join(f"{ids[c]} -> {ids[node]}_op;" for c in node._prev) + f" {ids[node]}_op -> {ids[node]};")
    lines += ["  node [shape=circle, style=solid, width=0.3, margin=0.02];", *ops, *edges]
    lines.append("}")
    return "\n".join(lines) + "\n"


def draw(root):
    """`dot(root)`, shown as a picture where the runner can show one (see the module docstring)."""
    text = dot(root)
    _show("graph", text)
    return text


def plot(values, label="loss", x="step", points=201):
    """Record a curve (e.g. the loss per step); returns its JSON description.

    At most `points` evenly spaced values are kept (a picture shows a shape;
    the exact numbers are in the printed output), `last` is the x of the last.
    """
    values = [float(v) for v in values]
    keep = sorted({round(i * (len(values) - 1) / (points - 1)) for i in range(points)}) if len(values) > points else range(len(values))
    ys = [float(_num(values[i])) if math.isfinite(values[i]) else None for i in keep]  # JSON has no inf/nan
    text = json.dumps({"label": str(label), "x": str(x), "last": len(values) - 1, "y": ys})
    _show("curve", text)
    return text


def _show(kind, text):
    try:
        import minigrad_picture  # a page runner's picture channel, when there is one
    except ImportError:
        return
    minigrad_picture.show(kind, text)


# ---- the curve: a line chart drawn from its numbers ------------------------

# The width is the figure's own (the page's column, 100%), so text keeps its size at any width:
# x positions are in % of it, y in px; the lines are drawn in a 1000 x 1000 box stretched over
# the plot area, with strokes that do not stretch.
HEIGHT, TOP, BOTTOM = 250, 26, 184  # px: the plot area's top and bottom; ticks below, then the legend
LEFT, RIGHT = 11, 97  # % of the width: the plot area's sides; tick labels left of it
STYLES = [("#1e88e5", ""), ("#e65100", "6 4")]  # healthy blue solid, broken orange dashed: colour-blind safe
LOG_SPAN = 100  # a log axis when every value is positive and the largest is this many times the smallest
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


WORDS = by_language("viz")  # the plot's own words; the page's language picks them


def curve_description(series, label="loss", lang="en", x="step"):
    """Text alternative of a curve plot: per series, its steps, first, last, lowest and highest value."""
    words, parts = WORDS[lang], []
    for name, ys in series:
        ys = [v for v in ys if v is not None]
        if ys:
            facts = dict(a=_num(ys[0]), b=_num(ys[-1]), lo=_num(min(ys)), hi=_num(max(ys)))
            parts.append(f"{name}: " + words["steps"].format(**facts))
    per = words["per"].format(label) if x == "step" else f"{label} / {x}"
    return per + ". " + "; ".join(parts) + "."


def ticks(lo, hi, log=False):
    """Round values an axis from about lo to hi is labelled at, 4 to 7 of them, the first at or
    below lo and the last at or above hi: powers of ten on a log axis (every k-th, for many), else
    steps of 1, 2 or 5 times a power of ten."""
    if log:
        a, b = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
        k = max(1, math.ceil((b - a) / 6))
        return [10.0 ** (a + k * i) for i in range(math.ceil((b - a) / k) + 1)]
    unit = 10 ** math.floor(math.log10((hi - lo) / 5))
    step = next(m * unit for m in (1, 2, 5, 10) if m * unit >= (hi - lo) / 5)
    first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
    return [round(i * step, 12) for i in range(first, last + 1)]


def curve_svg(series, label="loss", lang="en", x="step", last=None):
    """An SVG line chart of [(name, [y per step]), ...] on shared axes (None: no point).

    It fills its box's width at a fixed height. Round ticks on both axes, with light grid lines;
    a log y axis, said in the title, when the values span orders of magnitude (LOG_SPAN).
    Colour-blind-safe blue and orange, the second series also dashed; axes and text in
    `currentColor`.
    """
    from html import escape  # here: `html` loads its 2,231 named entities, about 50 ms in Pyodide on a cold start
    words = WORDS[lang]
    ys_all = [v for _, ys in series for v in ys if v is not None] or [0.0]
    lo, hi = min(ys_all), max(ys_all)
    lo, hi = (lo, hi) if hi > lo else (lo - 1.0, hi + 1.0)
    log = lo > 0 and hi >= LOG_SPAN * lo
    f = math.log10 if log else float
    y_ticks = ticks(lo, hi, log)
    bottom, top = f(y_ticks[0]), f(y_ticks[-1])
    steps = max((len(ys) for _, ys in series), default=1)
    last = steps - 1 if last is None else last
    x_ticks = [t for t in ticks(0, last) if t <= last] if last > 0 else [0]
    y = lambda v: TOP + (BOTTOM - TOP) * (top - f(v)) / (top - bottom)  # noqa: E731 (px)
    title = (words["per"].format(label) if x == "step" else label) + (f" ({words['log']})" if log else "")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="100%" height="{HEIGHT}" role="img" '
        f'font-family="sans-serif" font-size="12" fill="currentColor">',
        f"<title>{escape(title)}</title><desc>{escape(curve_description(series, label, lang, x))}</desc>",
        f'<text x="{LEFT}%" y="14" font-weight="bold">{escape(title)}</text>',
    ]
    for t in y_ticks:
        text = "10" + str(round(math.log10(t))).translate(SUPERSCRIPT) if log else _num(t)
        out.append(f'<line x1="{LEFT}%" x2="{RIGHT}%" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="currentColor" stroke-opacity="0.15"/>'
                   f'<text x="{LEFT - 1}%" y="{y(t) + 4:.1f}" text-anchor="end">{text}</text>')
    for t in x_ticks:
        out.append(f'<text x="{LEFT + (RIGHT - LEFT) * t / max(last, 1):.2f}%" y="{BOTTOM + 15}" text-anchor="middle">{_num(t)}</text>')
    out += [
        f'<line x1="{LEFT}%" y1="{TOP}" x2="{LEFT}%" y2="{BOTTOM}" stroke="currentColor" stroke-opacity="0.6"/>'
        f'<line x1="{LEFT}%" y1="{BOTTOM}" x2="{RIGHT}%" y2="{BOTTOM}" stroke="currentColor" stroke-opacity="0.6"/>',
        f'<text x="{(LEFT + RIGHT) / 2}%" y="{BOTTOM + 30}" text-anchor="middle">{escape(words["step"] if x == "step" else x)}</text>',
        f'<svg x="{LEFT}%" y="{TOP}" width="{RIGHT - LEFT}%" height="{BOTTOM - TOP}" viewBox="0 0 1000 1000" '
        'preserveAspectRatio="none" overflow="visible">',
    ]
    legend = []
    for k, (name, ys) in enumerate(series):
        colour, dash = STYLES[k % len(STYLES)]
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        points = " ".join(f"{1000 * i / max(steps - 1, 1):.1f},{1000 * (y(v) - TOP) / (BOTTOM - TOP):.1f}" for i, v in enumerate(ys) if v is not None)
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"{dashes} vector-effect="non-scaling-stroke"/>')
        legend.append(f'<line x1="0" y1="{14 * k - 4}" x2="24" y2="{14 * k - 4}" stroke="{colour}" stroke-width="2"{dashes}/>'
                      f'<text x="30" y="{14 * k}">{escape(name)}</text>')
    out += ["</svg>", f'<svg x="{LEFT}%" y="{BOTTOM + 48}" overflow="visible">', *legend, "</svg>", "</svg>"]
    return "\n".join(out) + "\n"
