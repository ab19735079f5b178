"""Pictures of what minigrad computes: Graphviz DOT for a graph, SVG for a curve.

`draw(L)` is micrograd's `draw_dot`: every node with its label, data and grad
(a tensor: its shape and its gradient's shape), an op node between operands
and result. It returns DOT text, deterministic (node ids follow the graph's
topological order, never id()), so a page's picture can be checked in CI like
its printed output. `plot(losses)` records a training curve. Both also hand the
picture to `minigrad_picture.show(kind, text)` when such a module is importable:
the doc runner (minigrad.breaks.blocks) records pictures that way, and the
browser turns them into images; plain Python just gets the text back.

Curves are SVG written here, not matplotlib: the offline Pyodide has no
matplotlib, and a plotting library would add bytes for one line chart.
"""

import json
import math

from .graph import topological_order


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

WIDTH, HEIGHT = 360, 240
LEFT, RIGHT, TOP, BOTTOM = 60, 350, 26, 188  # the plot area; ticks left and below, legend at the bottom
STYLES = [("#1e88e5", ""), ("#e65100", "6 4")]  # healthy blue solid, broken orange dashed: colour-blind safe


WORDS = {  # the plot's own words; the page's language picks them
    "en": {"per": "{} per step", "steps": "from {a} to {b} (lowest {lo}, highest {hi})", "step": "step"},
    "es": {"per": "{} por paso", "steps": "de {a} a {b} (mínimo {lo}, máximo {hi})", "step": "paso"},
}


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


def curve_svg(series, label="loss", lang="en", x="step", last=None):
    """An SVG line chart of [(name, [y per step]), ...] on shared axes (None: no point).

    Colour-blind-safe blue and orange, the second series also dashed; axes and
    text in `currentColor`; a viewBox, so it scales to any width.
    """
    from html import escape  # here: `html` loads its 2,231 named entities, about 50 ms in Pyodide on a cold start
    ys_all = [v for _, ys in series for v in ys if v is not None] or [0.0]
    lo, hi = min(ys_all), max(ys_all)
    hi = hi if hi > lo else lo + 1.0
    steps = max((len(ys) for _, ys in series), default=1)
    last = steps - 1 if last is None else last
    xs = lambda i: LEFT + (RIGHT - LEFT) * (i / max(steps - 1, 1))  # noqa: E731
    y = lambda v: TOP + (BOTTOM - TOP) * (hi - v) / (hi - lo)  # noqa: E731
    title = WORDS[lang]["per"].format(label) if x == "step" else label
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'font-family="sans-serif" font-size="11" fill="currentColor">',
        f"<title>{escape(title)}</title><desc>{escape(curve_description(series, label, lang, x))}</desc>",
        f'<text x="{LEFT}" y="14" font-weight="bold">{escape(title)}</text>',
        f'<path d="M{LEFT} {TOP}V{BOTTOM}H{RIGHT}" fill="none" stroke="currentColor" stroke-opacity="0.6"/>',
        f'<text x="{LEFT - 4}" y="{TOP + 4}" text-anchor="end">{_num(hi)}</text>',
        f'<text x="{LEFT - 4}" y="{BOTTOM}" text-anchor="end">{_num(lo)}</text>',
        f'<text x="{LEFT}" y="{BOTTOM + 14}">0</text>',
        f'<text x="{RIGHT}" y="{BOTTOM + 14}" text-anchor="end">{last}</text>',
        f'<text x="{(LEFT + RIGHT) / 2}" y="{BOTTOM + 14}" text-anchor="middle">{escape(WORDS[lang]["step"] if x == "step" else x)}</text>',
    ]
    for k, (name, ys) in enumerate(series):
        colour, dash = STYLES[k % len(STYLES)]
        points = " ".join(f"{xs(i):.1f},{y(v):.1f}" for i, v in enumerate(ys) if v is not None)
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"{dashes}/>')
        ly, lx = BOTTOM + 32 + 14 * k, LEFT
        out.append(f'<line x1="{lx}" y1="{ly - 4}" x2="{lx + 24}" y2="{ly - 4}" stroke="{colour}" stroke-width="2"{dashes}/>')
        out.append(f'<text x="{lx + 30}" y="{ly}">{escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
