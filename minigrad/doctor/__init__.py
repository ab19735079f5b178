"""The doctor: the site's checks, run on a learner's own engine.

`check_engine(Value, Tensor, nn=..., optim=..., functional=...)` runs every
check of minigrad.checks on the learner's parts (the protocol is on
docs/doctor.md; any part may be missing), prints each check as passed /
caught / skipped with its evidence, and ranks the catalogue's breaks by how
well their signatures (signatures.json, computed on minigrad with each break
applied) explain what was caught. `check_folder(path)` does the same for a
package folder, as `python -m minigrad.doctor --engine DIR` does in a process
of its own (isolated.py). On the site's page (Pyodide) the suspects also
become links, through the page's `minigrad_page` module.
"""

import contextlib
import io
import json
import sys

from .. import checks
from ..checks.words import name as named
from . import config, ranking, report, signatures
from .diagnoses import diagnoses
from .evidence import crashed_only, examine, hostile
from .loading import ImportFailure, TargetError, load_engine


class Diagnosis:
    def __init__(self, verdicts, suspects, ended=None, diagnoses=(), unexplained=()):
        self.verdicts = verdicts  # check name -> Verdict
        self.suspects = suspects  # [(slug, match)], most likely first
        self.ended = ended  # how the engine ended the doctor's process, if it did (the command line)
        self.diagnoses = list(diagnoses)  # [(slug, [check/case keys it explains], match)]: the verdict
        self.unexplained = list(unexplained)  # failed check/case keys that no break explains
        # cases near torch's numbers but not equal: another eps or formula, never a break's evidence
        self.near = [f"{name}/{c.name}" for name, v in verdicts.items() for c in v.cases if c.status == "near"]

    @property
    def crashed(self):
        """The first case that raised, when the engine raised in every case that ran."""
        return crashed_only(self.verdicts)

    @property
    def hostile(self):
        """(how, case) when the engine recursed without end, looped, or tried to exit in some case."""
        return hostile(self.verdicts)

    @property
    def caught(self):
        return bool(self.ended) or any(v.status == "caught" for v in self.verdicts.values())


def rank(verdicts, ended=None):
    """The Diagnosis of what the checks saw: the breaks that together explain it, the ranking of
    every signature below them; neither for an engine that only crashes or ended the process."""
    if crashed_only(verdicts) or hostile(verdicts) or ended:
        return Diagnosis(verdicts, [], ended)
    evidence, ran, signed = checks.failures(verdicts), checks.ran(verdicts), signatures.load()
    chosen, unexplained = diagnoses(evidence, ran, signed)
    return Diagnosis(verdicts, ranking.rank(evidence, ran, signed), ended, chosen, unexplained)


def diagnose(Value=None, Tensor=None, nn=None, optim=None, functional=None, time_limit=3.0, on_case=None, names=None):
    """Every check on the learner's parts (time_limit: seconds per check, None for none), and the verdict.
    `names` maps the protocol's attribute names ({"data": "value"}) for an engine that spells them otherwise."""
    parts = {"Value": Value, "Tensor": Tensor, "nn": nn, "optim": optim, "functional": functional}
    if not any(parts.values()):
        raise ValueError("the doctor needs a Value class, a Tensor class, or modules nn, optim, functional")
    return rank(examine(checks.Engine(**parts, **(names or {})), time_limit, on_case))


def _describe(parts):
    """`Tensor = Tensor, nn = namespace(Linear, Sequential)`: a class, a module, or the learner's
    classes gathered in a `types.SimpleNamespace` (which has no name of its own)."""
    def called(thing):
        return getattr(thing, "__qualname__", None) or getattr(thing, "__name__", None) or f"namespace({', '.join(vars(thing))})"
    return ", ".join(f"{name} = {called(thing)}" for name, thing in parts.items() if thing is not None)


def check_engine(Value=None, Tensor=None, nn=None, optim=None, functional=None, lang=None, time_limit=3.0, names=None):
    """Print the doctor's report on a learner's parts; returns the Diagnosis.

    `lang` defaults to the page's language on the site, English elsewhere; `names` as in diagnose()."""
    parts = {"Value": Value, "Tensor": Tensor, "nn": nn, "optim": optim, "functional": functional}
    return _report(lambda: (parts, _describe(parts), names), lang, time_limit)


def check_folder(folder, lang=None, time_limit=3.0):
    """The doctor on a learner's package folder, in this process (the page's "Load a folder")."""

    def load():
        found, targets, names, settings = config.settings(folder, folder)
        parts, where = load_engine(found, **targets)
        where.pop("not loaded traceback", None)  # the report names each file that failed, in one line
        if settings:
            where["settings"] = f"{settings}" + "".join(f", {k} = {v!r}" for k, v in names.items())
        return parts, ", ".join(f"{p} = {w}" for p, w in where.items()), names

    return _report(load, lang, time_limit)


def check_loaded_folder(folder, lang=None):
    """`check_folder` as the page's "Load a folder" runs it (doctor-folder.js): a folder that holds
    no engine, or whose code fails to import, is said in one line as the command line says it (with
    the learner's own traceback), not raised through the doctor's frames."""
    try:
        return check_folder(folder, lang)
    except TargetError as e:
        print(f"minigrad.doctor: {e}")
    except ImportFailure as e:
        print(f"minigrad.doctor: {e}:\n{e.traceback}", end="")
    return None


reports = 0  # reports begun in this Python: the page's pasted code (pasted.py) sees whether its code called the doctor


def _report(load, lang, time_limit):
    """`load()` gives the parts and how to name them; what the engine prints, importing it included, is kept apart."""
    global reports
    reports += 1
    page = page_module()
    lang = lang or (str(page.language()) if page else "en")
    if page and hasattr(page, "progress"):  # the page shows each case as it starts, under its check's title
        titles = {name: title[lang] for name, title in report.titles()[0].items()}
        on_case = lambda check, case: page.progress(titles.get(check, check), named(case, lang))  # noqa: E731
    else:
        on_case = None
    printed = _Bounded()
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):  # the engine's prints, kept apart
            parts, described, names = load()
            diagnosis = diagnose(**parts, time_limit=time_limit, on_case=on_case, names=names)
    except Exception:
        sys.stderr.write(printed.text)  # a folder that fails to load: what it printed, before its error
        raise
    print(report.as_text(diagnosis, described, lang, paths=page is None))
    if printed.text:
        if page and hasattr(page, "engine_output"):
            page.engine_output(printed.text)  # the page folds it under the report
        else:
            print("\n" + report.WORDS[lang]["printed"].format(n=printed.size) + "\n" + printed.text, file=sys.stderr)
    if page:  # the page shows the verdict first, and lists the diagnoses as links with their match
        said = report.as_dict(diagnosis, lang)
        if hasattr(page, "verdict"):
            page.verdict(json.dumps(report.verdict_of(said)))
        shown = said["diagnoses"] or said["suspects"][: report.SHOWN_SUSPECTS]
        page.links(json.dumps([{"slug": s["slug"], "title": s["title"], "match": s["match"]} for s in shown]))
    return diagnosis


class _Bounded(io.StringIO):
    """What the engine printed, the first LIMIT characters of it (a loop that prints must not fill memory)."""

    LIMIT = 5000

    def __init__(self):
        super().__init__()
        self.size = 0

    def write(self, text):
        self.size += len(text)
        room = self.LIMIT - self.tell()
        return super().write(text[:room]) if room > 0 else len(text)

    @property
    def text(self):
        return self.getvalue() + (" [...]" if self.size > self.LIMIT else "")


def page_module():
    """The site's `minigrad_page` module (registered by runner/worker/main.js), or None."""
    try:
        import minigrad_page
    except ImportError:
        return None
    return minigrad_page
