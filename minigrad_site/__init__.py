"""The site around minigrad: what turns docs/ into the bilingual site.

Two layers, so that the page machinery outlives its builder:

- `minigrad_site.pages`: every transform of a page's Markdown (fences and their
  Run blocks, predictions, Repair it, pictures, the markers' generated content),
  run by one Python-Markdown extension (`minigrad_site.extension`). They import
  nothing from MkDocs: what they need of the page comes through the extension's
  options (`minigrad_site.page.Page`).
- `minigrad_site.build`: what only a builder can do (the runtime copied into the
  site, search per language, bundling, npm ci), run in an explicit order by one
  MkDocs plugin (`minigrad_site.plugin`), which also hands each page its options.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # the repository: docs/, node_modules/, minigrad/
