"""The doctor: the catalogue's diagnostics, run on a learner's own engine.

`check_engine(Value, Tensor)` runs every diagnostic of minigrad/diagnostics.py
on the learner's classes (the engine protocol is on docs/doctor.md), prints
each check as passed / caught / skipped with its evidence, and ranks the
catalogue's breaks by how well their signatures (signatures.json, computed on
minigrad with each break applied) explain what was caught. On the site's page
(Pyodide) the suspects also become links, through the page's `minigrad_page`
module; in CPython that module does not exist and the report is text only.
`python -m minigrad.doctor` is the command-line form.
"""

import json
from dataclasses import dataclass

from . import ranking, report, signatures
from .evidence import examine, failures, ran


@dataclass
class Diagnosis:
    verdicts: dict  # check name -> diagnostics.Verdict
    suspects: list  # [(slug, match)], most likely first

    @property
    def caught(self):
        return any(v.status == "caught" for v in self.verdicts.values())


def diagnose(Value=None, Tensor=None, time_limit=3.0):
    """Every diagnostic on the learner's classes (time_limit: seconds per check, None for none), and the ranking."""
    if Value is None and Tensor is None:
        raise ValueError("the doctor needs a Value class, a Tensor class, or both")
    verdicts = examine(Value, Tensor, time_limit)
    suspects = ranking.rank(failures(verdicts), ran(verdicts), signatures.load())
    return Diagnosis(verdicts, suspects)


def _describe(Value, Tensor):
    return ", ".join(f"{kind} = {cls.__qualname__}"
                     for kind, cls in (("Value", Value), ("Tensor", Tensor)) if cls is not None)


def check_engine(Value=None, Tensor=None, lang=None, time_limit=3.0):
    """Print the doctor's report on a learner's classes; returns the Diagnosis.

    `lang` defaults to the page's language on the site, English elsewhere."""
    page = _page()
    lang = lang or (str(page.language()) if page else "en")
    diagnosis = diagnose(Value, Tensor, time_limit)
    print(report.as_text(diagnosis.verdicts, diagnosis.suspects, _describe(Value, Tensor), lang))
    if page:  # the page lists the suspects as links, built there from the slugs
        shown = report.as_dict(diagnosis.verdicts, diagnosis.suspects, lang)["suspects"][: report.SHOWN_SUSPECTS]
        page.links(json.dumps([{"slug": s["slug"], "title": s["title"]} for s in shown]))
    return diagnosis


def _page():
    """The site's `minigrad_page` module (registered by overrides/assets/minigrad/worker.js), or None."""
    try:
        import minigrad_page
    except ImportError:
        return None
    return minigrad_page
