"""The Node harness's Python side (run_blocks.mjs): one chain per call, results as JSON text.

It runs a chain as CI does (minigrad.runner.blocks.run_chain) and reports what
conftest.py compares: the output and the raised exception's type.
"""

import json
import traceback

from minigrad.runner.blocks import Block, run_chain
from minigrad.runner.numpy_needs import numpy_needs


def type_name(error):
    kind = type(error)
    module = kind.__module__
    return kind.__qualname__ if module in ("builtins", "__main__") else f"{module}.{kind.__qualname__}"


def run_one(text):
    job = json.loads(text)
    chain = [Block(b["code"], b["name"], b["first_line"]) for b in job["blocks"]]
    try:
        run = run_chain(chain, slug=job.get("slug"), lang=job.get("lang"))
    except BaseException as error:  # the runner itself failed: report, keep going
        return json.dumps({"id": job["id"], "output": None, "error_type": None,
                           "runner_error": "".join(traceback.format_exception(error))})
    error_type = type_name(run.error) if run.error is not None else None
    return json.dumps({"id": job["id"], "output": run.output, "error_type": error_type, "runner_error": None})


def needs_json():
    """needs.json's "numpy", as the site's build writes it (minigrad_site/build/runtime.py), computed here in Pyodide."""
    return json.dumps(numpy_needs())
