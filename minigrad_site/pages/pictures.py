"""Turn a page's picture blocks into pictures, and ship the renderer.

A block that draws (minigrad.viz) has its picture written under it, like its
output, and checked by the doc tests (conftest.py), so it is what the code
draws now:

    ```{.dot .picture}            DOT of a graph, healthy
    ```{.dot .picture .broken}    the same with the page's break applied
    ```{.json .picture}           a curve's numbers (then .broken)

This transform replaces them with `<img>` tags of SVG files in the page's
`pictures_dir` (the root site's `_minigrad/pictures/`, named by content hash): graphs side by side (healthy,
broken), a curve's healthy and broken runs on one plot. Graphs are rendered by
Graphviz's WebAssembly build (@viz-js/viz, pinned in package.json) under Node,
one process for every picture of the site; the browser loads the same file,
copied to `_minigrad/viz/viz.js`, only when a Run draws a picture. Curves are
drawn by minigrad.viz.curve_svg. What a picture marks, says and is called is
decided by minigrad.runner.pictures, the rules a Run in the browser uses too.
An `<img>` runs no script, whatever a label says; the alt text says what the
picture shows.
"""

import base64
import hashlib
import html
import json
import re
import shutil
import subprocess
from pathlib import Path

from minigrad.runner import pictures

from minigrad_site import ROOT
VIZ_JS = ROOT / "node_modules/@viz-js/viz/dist/viz.js"
RENDER = Path(__file__).with_name("render_dot.mjs")
PICTURE = re.compile(
    r"^```\{\.(?P<lang>dot|json) \.picture\}\n(?P<healthy>.*?)\n```[ \t]*\n"
    r"(?:\n```\{\.(?P=lang) \.picture \.broken\}\n(?P<broken>.*?)\n```[ \t]*\n)?",
    re.M | re.S,
)
BLOCK_BREAK = re.compile(r'^```\{\.python\b[^}\n]*\bbreak="(?P<slug>[^"]+)"', re.M)

_svg_of_dot = {}  # DOT -> SVG, by content, for the whole process (both languages, every rebuild of `mkdocs serve`)


def render_dots(sources):
    """SVG of each DOT source, by one Node process running viz.js."""
    missing = sorted({s for s in sources if s not in _svg_of_dot})
    if not missing:
        return
    if not VIZ_JS.exists():
        raise FileNotFoundError(f"{VIZ_JS.relative_to(ROOT)} is missing: run `npm ci` (pictures are drawn by @viz-js/viz)")
    done = subprocess.run(["node", str(RENDER)], input=json.dumps(missing), capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"rendering pictures failed:\n{done.stderr}")
    _svg_of_dot.update(zip(missing, json.loads(done.stdout)))


def prerender(docs_dir):
    """Render every graph of the site at once: one Node start instead of one per page."""
    sources = []
    for page in Path(docs_dir).rglob("*.md"):
        for match in PICTURE.finditer(page.read_text(encoding="utf-8")):
            if match["lang"] == "dot":
                sources += [match["healthy"] + "\n"] + ([pictures.mark_changes(match["healthy"], match["broken"]) + "\n"] if match["broken"] else [])
    render_dots(sources)


def _store(svg, page):
    """Write the SVG into the page's pictures_dir; return its URL relative to the page."""
    if not page.pictures_dir:  # a builder that gives no folder (no per-page options): the picture travels in the page
        return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")
    name = hashlib.sha256(svg.encode("utf-8")).hexdigest()[:16] + ".svg"
    folder = Path(page.pictures_dir)
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / name).exists():  # by content: the same picture is written once
        (folder / name).write_text(svg, encoding="utf-8")
    return f"{page.pictures_url.rstrip('/')}/{name}"


def _size(svg):
    """width and height in CSS pixels, so the page reserves the picture's place before it loads;
    a curve's width is its box's (100%): None, its height only."""
    curve = re.match(r'<svg[^>]*? width="100%" height="(\d+)"', svg)
    if curve:
        return None, int(curve[1])
    match = re.search(r'<svg[^>]*?width="([\d.]+)(pt)?"[^>]*?height="([\d.]+)(pt)?"', svg)
    if match:
        scale = 4 / 3 if match[2] else 1
        return round(float(match[1]) * scale), round(float(match[3]) * scale)
    box = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    return round(float(box[1])), round(float(box[2]))


def _figure(src, svg, alt, caption, css):
    width, height = _size(svg)
    return (
        f'<figure class="mg-picture {css}"><img src="{html.escape(src)}" alt="{html.escape(alt)}" '
        + (f'width="{width}" ' if width else "")
        + f'height="{height}" loading="lazy"><figcaption>{html.escape(caption)}</figcaption></figure>'
    )


def _curve_html(match, page, slug):
    drawn = pictures.curve(match["healthy"], match["broken"], page.lang, slug)
    return _figure(_store(drawn["svg"], page), drawn["svg"], drawn["alt"], drawn["caption"], "mg-curve")


def transform(markdown, page):
    lang, page_slug = page.lang, page.break_slug

    def replace(match):
        own = [m["slug"] for m in BLOCK_BREAK.finditer(markdown, 0, match.start())]
        slug = page_slug or (own[-1] if own else "")  # the page's break, else the block's own (home page)
        if match["lang"] == "json":
            figures = _curve_html(match, page, slug)
        else:
            graphs = [(pictures.graph(match["healthy"], lang), "mg-healthy")]
            if match["broken"]:
                graphs.append((pictures.graph(match["broken"], lang, True, match["healthy"], slug), "mg-broken"))
            dots = [(g["dot"] + "\n", g, css) for g, css in graphs]
            render_dots([d for d, _, _ in dots])
            figures = "".join(_figure(_store(_svg_of_dot[d], page), _svg_of_dot[d], g["alt"], g["caption"], css) for d, g, css in dots)
        return f'<div class="mg-pictures" markdown="0">{figures}</div>\n'

    return PICTURE.sub(replace, markdown)


def ship_renderer(site_dir):
    """The renderer for live pictures, beside the runner's other files (root site only)."""
    target = Path(site_dir) / "_minigrad" / "viz"
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(VIZ_JS, target / "viz.js")
