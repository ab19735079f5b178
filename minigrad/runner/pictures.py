"""What a block drew, as a page shows it: one rule for the build and the browser.

The build (minigrad_site/pages/pictures.py) and a Run in the browser (worker.py) both call
these, so a static picture and a live one name, mark and caption alike; the
browser's JavaScript only renders what it is given.
"""

import json
import re
from ..words import by_language

WORDS = by_language("pictures")  # what the pictures call the two runs
CHANGED = ', color="#e65100", penwidth=2.5];'  # the broken curve's orange (minigrad.viz.STYLES)
NODE = re.compile(r'^  (n\d+) \[label=("(?:[^"\\]|\\.)*")\];$', re.M)
EDGES = re.compile(r"^  n\d.*->.*;$", re.M)  # the edge lines of minigrad.viz.dot


def words(lang):
    return WORDS.get(lang, WORDS["en"])


def run_name(lang, broken, slug=""):
    """A run's name under its picture: "healthy", or "broken (slug)" when the break is known."""
    said = words(lang)
    return said["broken"] + (f" ({slug})" if slug else "") if broken else said["healthy"]


def mark_changes(healthy, broken):
    """The broken DOT with the nodes whose label differs from the healthy one drawn thick and orange.

    The checked DOT stays what the code draws; this is presentation, added for
    the reader. Node ids follow the topological order, so `n5` is the same node
    in both pictures only when both graphs have the same edges; when the break
    changes the graph's shape (layernorm-stats-detached drops the edges into
    the mean), nothing is marked rather than nodes that merely moved."""
    if not healthy or EDGES.findall(healthy) != EDGES.findall(broken):
        return broken
    before = dict(NODE.findall(healthy))
    changed = lambda m: before.get(m[1]) not in (None, m[2])  # noqa: E731
    return NODE.sub(lambda m: m[0][:-2] + CHANGED if changed(m) else m[0], broken)


def alt_of_dot(dot):
    """minigrad.viz.dot puts the graph's description on its first line, as a comment."""
    first = dot.split("\n", 1)[0]
    return first[3:] if first.startswith("// ") else ""


def graph(dot, lang, broken=False, healthy=None, slug=""):
    """A graph as a page shows it: {dot, alt, caption}. On a broken run's graph, `healthy` (the
    same code's healthy DOT, or None) marks what the break changed."""
    shown = mark_changes(healthy, dot) if broken else dot
    return {"dot": shown, "alt": alt_of_dot(dot), "caption": run_name(lang, broken, slug)}


def curve(healthy, broken, lang, slug=""):
    """A curve's healthy and broken runs (minigrad.viz.plot's JSON, either may be None) on one
    plot: {svg, alt, caption}. The legend names the break; the caption names the runs."""
    from minigrad.viz import curve_description, curve_svg  # only when there is a curve to draw

    runs = [(json.loads(text), is_broken) for text, is_broken in ((healthy, False), (broken, True)) if text]
    series = [(run_name(lang, is_broken, slug), run["y"]) for run, is_broken in runs]
    first = runs[0][0]
    x = first.get("x", "step")
    return {
        "svg": curve_svg(series, first["label"], lang, x, first.get("last")),
        "alt": curve_description(series, first["label"], lang, x),
        "caption": " / ".join(run_name(lang, is_broken) for _, is_broken in runs),
    }
