"""MkDocs hook: turn a page's picture blocks into pictures, and ship the renderer.

A block that draws (minigrad.viz) has its picture written under it, like its
output, and checked by the doc tests (conftest.py), so it is what the code
draws now:

    ```{.dot .picture}            DOT of a graph, healthy
    ```{.dot .picture .broken}    the same with the page's break applied
    ```{.json .picture}           a curve's numbers (then .broken)

This hook replaces them with `<img>` tags of SVG files under the root site's
`_minigrad/pictures/` (named by content hash): graphs side by side (healthy,
broken), a curve's healthy and broken runs on one plot. Graphs are rendered by
Graphviz's WebAssembly build (@viz-js/viz, pinned in package.json) under Node,
one process for every picture of the site; the browser loads the same file,
copied to `_minigrad/viz/viz.js`, only when a Run draws a picture. Curves are
drawn by minigrad.viz.curve_svg. What a picture marks, says and is called is
decided by minigrad.runner.pictures, the rules a Run in the browser uses too.
An `<img>` runs no script, whatever a label says; the alt text says what the
picture shows.
"""

import hashlib
import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

from minigrad.runner import pictures
from minigrad.runner.languages import build_language

ROOT = Path(__file__).resolve().parents[1]
VIZ_JS = ROOT / "node_modules/@viz-js/viz/dist/viz.js"
RENDER = Path(__file__).with_name("render_dot.mjs")
PICTURE = re.compile(
    r"^```\{\.(?P<lang>dot|json) \.picture\}\n(?P<healthy>.*?)\n```[ \t]*\n"
    r"(?:\n```\{\.(?P=lang) \.picture \.broken\}\n(?P<broken>.*?)\n```[ \t]*\n)?",
    re.M | re.S,
)
BLOCK_BREAK = re.compile(r'^```\{\.python\b[^}\n]*\bbreak="(?P<slug>[^"]+)"', re.M)

_svg_of_dot = {}  # DOT -> SVG, for the whole `mkdocs build`/`serve` run (both languages)
_root_site_dir = None


def on_config(config):
    global _root_site_dir
    if _root_site_dir is None or not config.site_dir.startswith(_root_site_dir):
        _root_site_dir = config.site_dir  # the first (default-language) build of this run
    return config


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


def on_pre_build(config):
    """Render every graph of the site at once: one Node start instead of one per page."""
    sources = []
    for page in Path(config.docs_dir).rglob("*.md"):
        for match in PICTURE.finditer(page.read_text(encoding="utf-8")):
            if match["lang"] == "dot":
                sources += [match["healthy"] + "\n"] + ([pictures.mark_changes(match["healthy"], match["broken"]) + "\n"] if match["broken"] else [])
    render_dots(sources)


def _store(svg, page, config):
    """Write the SVG under the root site; return its URL relative to the page."""
    name = hashlib.sha256(svg.encode("utf-8")).hexdigest()[:16] + ".svg"
    folder = Path(_root_site_dir or config.site_dir) / "_minigrad" / "pictures"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(svg, encoding="utf-8")
    page_dir = (Path(config.site_dir) / page.file.dest_uri).parent
    return Path(os.path.relpath(folder / name, page_dir)).as_posix()


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


def _curve_html(match, page, config, slug):
    drawn = pictures.curve(match["healthy"], match["broken"], build_language(page, config), slug)
    return _figure(_store(drawn["svg"], page, config), drawn["svg"], drawn["alt"], drawn["caption"], "mg-curve")


def on_page_markdown(markdown, page, config, files):
    lang = build_language(page, config)
    page_slug = page.meta.get("minigrad_break") or ""

    def replace(match):
        own = [m["slug"] for m in BLOCK_BREAK.finditer(markdown, 0, match.start())]
        slug = page_slug or (own[-1] if own else "")  # the page's break, else the block's own (home page)
        if match["lang"] == "json":
            figures = _curve_html(match, page, config, slug)
        else:
            graphs = [(pictures.graph(match["healthy"], lang), "mg-healthy")]
            if match["broken"]:
                graphs.append((pictures.graph(match["broken"], lang, True, match["healthy"], slug), "mg-broken"))
            dots = [(g["dot"] + "\n", g, css) for g, css in graphs]
            render_dots([d for d, _, _ in dots])
            figures = "".join(_figure(_store(_svg_of_dot[d], page, config), _svg_of_dot[d], g["alt"], g["caption"], css) for d, g, css in dots)
        return f'<div class="mg-pictures" markdown="0">{figures}</div>\n'

    return PICTURE.sub(replace, markdown)


def on_post_build(config):
    """The renderer for live pictures, beside the runner's other files (root site only)."""
    if config.site_dir != _root_site_dir:
        return
    target = Path(config.site_dir) / "_minigrad" / "viz"
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(VIZ_JS, target / "viz.js")
