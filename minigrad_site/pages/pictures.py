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
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from minigrad.runner import pictures
from minigrad_site import fence_reader

from minigrad_site import ROOT
VIZ_JS = ROOT / "node_modules/@viz-js/viz/dist/viz.js"
RENDER = Path(__file__).with_name("render_dot.mjs")
PICTURE_LANGS = ("dot", "json")

_svg_of_dot = {}  # DOT -> SVG, by content, for the whole process (both languages, every rebuild of `mkdocs serve`)
_svg_by_name = {}  # file name (its content's hash) -> SVG, for the pictures written in this process
SHOWN = re.compile(r'<img src="[^"]*?/([0-9a-f]{16}\.svg)"')


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


@dataclass(frozen=True)
class Picture:
    lang: str  # dot (a graph) or json (a curve's numbers)
    healthy: str
    broken: str | None  # the same drawn with the break applied, when the page shows it
    start: int  # the span of the page's Markdown the picture replaces
    end: int
    slug: str  # the break of the Python block above it that says `break=` (the home page's), or ""


@lru_cache(maxsize=512)  # by the page's text: a rebuild reads every page, and both prerender and transform read them
def picture_blocks(markdown):
    """Every picture of the page (a tuple), read by minigrad_site.fence_reader: a `{.dot .picture}` or
    `{.json .picture}` fence at the start of a line, then its `.broken` twin if only blank lines part them."""
    fences, found, own, lines = fence_reader.read(markdown), [], "", markdown.splitlines()
    for i, fence in enumerate(fences):
        if fence.python and (fence.attrs.get("break") or fence.attrs.get("data-break")):  # as written, or as fences.py left it
            own = fence.attrs.get("break") or fence.attrs["data-break"]
        if fence.start != fence.ticks_at or fence.lang not in PICTURE_LANGS or fence.classes != {"picture"}:
            continue
        twin = fences[i + 1] if i + 1 < len(fences) else None
        if not (twin and twin.lang == fence.lang and twin.classes == {"picture", "broken"} and twin.start == twin.ticks_at
                and fence_reader.blank_between(lines, fence.end_line, twin.line - 1)):
            twin = None
        found.append(Picture(fence.lang, _text(fence), twin and _text(twin), fence.start, (twin or fence).end, own))
    return tuple(found)


def _text(fence):
    return fence.content[:-1] if fence.content.endswith("\n") else fence.content


def prerender(docs_dir):
    """Render every graph of the site at once: one Node start instead of one per page."""
    sources = []
    for page in Path(docs_dir).rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        if ".picture" not in text:  # most pages draw nothing: their fences need not be read
            continue
        for drawn in picture_blocks(text):
            if drawn.lang == "dot":
                sources += [drawn.healthy + "\n"] + ([pictures.mark_changes(drawn.healthy, drawn.broken) + "\n"] if drawn.broken else [])
    render_dots(sources)


def _store(svg, page):
    """Write the SVG into the page's pictures_dir; return its URL relative to the page."""
    if not page.pictures_dir:  # a builder that gives no folder (no per-page options): the picture travels in the page
        return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")
    name = hashlib.sha256(svg.encode("utf-8")).hexdigest()[:16] + ".svg"
    _svg_by_name[name] = svg
    _write(Path(page.pictures_dir), name)
    return f"{page.pictures_url.rstrip('/')}/{name}"


def _write(folder, name):
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / name).exists():  # by content: the same picture is written once
        (folder / name).write_text(_svg_by_name[name], encoding="utf-8")


def restore(markdown, page):
    """Write again the pictures a page's transformed Markdown shows (a page whose transforms
    were reused after the site folder was cleaned, on a rebuild of `mkdocs serve`)."""
    if page.pictures_dir:
        for name in SHOWN.findall(markdown):
            _write(Path(page.pictures_dir), name)


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


def _curve_html(block, page, slug):
    drawn = pictures.curve(block.healthy, block.broken, page.lang, slug)
    return _figure(_store(drawn["svg"], page), drawn["svg"], drawn["alt"], drawn["caption"], "mg-curve")


def transform(markdown, page):
    lang, page_slug = page.lang, page.break_slug

    def replace(block):
        slug = page_slug or block.slug  # the page's break, else the block's own (home page)
        if block.lang == "json":
            figures = _curve_html(block, page, slug)
        else:
            graphs = [(pictures.graph(block.healthy, lang), "mg-healthy")]
            if block.broken:
                graphs.append((pictures.graph(block.broken, lang, True, block.healthy, slug), "mg-broken"))
            dots = [(g["dot"] + "\n", g, css) for g, css in graphs]
            render_dots([d for d, _, _ in dots])
            figures = "".join(_figure(_store(_svg_of_dot[d], page), _svg_of_dot[d], g["alt"], g["caption"], css) for d, g, css in dots)
        return f'<div class="mg-pictures" markdown="0">{figures}</div>\n'

    pieces, last = [], 0
    for block in picture_blocks(markdown):
        pieces += [markdown[last:block.start], replace(block)]
        last = block.end
    return "".join(pieces) + markdown[last:]


def ship_renderer(site_dir):
    """The renderer for live pictures, beside the runner's other files (root site only)."""
    target = Path(site_dir) / "_minigrad" / "viz"
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(VIZ_JS, target / "viz.js")
