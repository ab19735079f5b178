"""The site's Python: what runs a page's blocks, wherever they run.

`blocks` runs a chain of blocks (CI, the Node harness and the browser's worker
all call it); `chains` says which blocks a block's run executes; `numpy_needs` decides whether a chain needs NumPy's 12 MB wheel;
`pictures` turns what a block drew into what a page shows (the build's static
pictures and a Run's live ones alike); `worker` is the browser worker's Python
side, imported by worker.js once Pyodide starts; `pins` reads the runtime's
pins (pins.json: Pyodide, its CDN, the NumPy wheel) for the build, the tests
and the benchmarks.
"""
