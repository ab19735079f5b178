"""The doctor's report: text in English or Spanish, or one JSON object.

Titles of checks and breaks come from minigrad/breaks/catalogue.toml, so the
report speaks the site's words; a suspect's page is docs/breaks/<slug>.md (or
.es.md), printed on the command line (on the site the page shows links).
Case details are the checks' own, with their numbers; skip reasons are worded
here, in the report's language, from the names the engine lacks.
"""

import json
import re

from ..breaks import load
from ..checks.reasons import describe
from ..checks.words import name as named, say

WORDS = {
    "en": {
        "passed": "passed", "caught": "caught", "skipped": "skipped",
        "wrong values": "wrong values", "wrong shape": "wrong shape", "raised": "raised", "timed out": "timed out",
        "engine": "Engine under test: {engines}.", "cases": "{n} cases",
        "none": "Nothing caught: no break in the catalogue explains what these checks saw.",
        "unexplained": "Something is caught, but no break in the catalogue matches it.",
        "suspects": "Likely breaks, most likely first (match in %):",
        "crashed": "Your engine raised {error} in every case that ran (first: {check}, {case}): fix that first.",
        "ended": "Your engine ended the doctor's process during {check}, case {case} ({how}): fix that first.",
        "exit": "exit code {code}", "signal": "signal {name}", "loading": "loading the engine",
        "printed": "What your engine printed while it was checked ({n} characters):",
    },
    "es": {
        "passed": "pasa", "caught": "detectado", "skipped": "omitido",
        "wrong values": "valores incorrectos", "wrong shape": "forma incorrecta", "raised": "lanzó",
        "timed out": "tiempo agotado",
        "engine": "Motor bajo prueba: {engines}.", "cases": "{n} casos",
        "none": "Nada detectado: ninguna rotura del catálogo explica lo que vieron estas comprobaciones.",
        "unexplained": "Algo se detecta, pero ninguna rotura del catálogo coincide.",
        "suspects": "Roturas probables, la más probable primero (coincidencia en %):",
        "crashed": "Tu motor lanzó {error} en todos los casos que se ejecutaron (el primero: {check}, {case}): arregla eso primero.",
        "ended": "Tu motor terminó el proceso del doctor durante {check}, caso {case} ({how}): arregla eso primero.",
        "exit": "código de salida {code}", "signal": "señal {name}", "loading": "la carga del motor",
        "printed": "Lo que imprimió tu motor mientras se comprobaba ({n} caracteres):",
    },
}
SHOWN_SUSPECTS = 3


def titles():
    """(each check's title, each break's title), by language: the catalogue's, as a report words them."""
    read = load()
    return read.diagnostics, {b.slug: b.title for b in read.breaks}


def _fix_first(diagnosis, lang, check_titles):
    """What the learner must fix before any diagnosis: a process ended by the engine, or nothing but errors."""
    words = WORDS[lang]
    if diagnosis.ended:
        ended = diagnosis.ended
        how = words["signal"].format(name=ended["signal"]) if ended.get("signal") else words["exit"].format(code=ended["code"])
        check = check_titles[ended["check"]][lang] if ended.get("check") in check_titles else words["loading"]
        return {"message": words["ended"].format(check=check, case=named(ended.get("case") or "-", lang), how=how), "trace": ""}
    case = diagnosis.crashed
    if case:
        check = next(name for name, v in diagnosis.verdicts.items() if case in v.cases)
        raised = re.search(r"raised (\w+)", case.detail)
        error = raised.group(1) if raised else case.trace.strip().splitlines()[-1].split(":")[0]
        return {"message": words["crashed"].format(error=error, check=check_titles[check][lang], case=named(case.name, lang)),
                "trace": case.trace}
    return None


def as_dict(diagnosis, lang="en"):
    """What --json prints: {"checks": [...], "suspects": [...], "fix_first": null or {...}}."""
    check_titles, break_titles = titles()
    suffix = "" if lang == "en" else f".{lang}"
    checks = [
        {
            "name": name,
            "title": check_titles[name][lang],
            "status": verdict.status,
            "detail": verdict.detail,
            "cases": [{"name": c.name, "shown": named(c.name, lang), "status": c.status,
                       "detail": _detail(c, lang), "wrong": [named(w, lang) for w in c.wrong],
                       "numbers": "; ".join(say(n, lang) for n in c.numbers), "missing": list(c.missing)} for c in verdict.cases],
        }
        for name, verdict in diagnosis.verdicts.items()
    ]
    suspects = [
        {"slug": slug, "title": break_titles[slug][lang], "page": f"docs/breaks/{slug}{suffix}.md", "match": score}
        for slug, score in diagnosis.suspects
    ]
    return {"checks": checks, "suspects": suspects, "fix_first": _fix_first(diagnosis, lang, check_titles)}


def _detail(case, lang):
    """The case's detail in `lang`, always starting with the case's name."""
    if case.status == "skipped":
        return describe(case.missing, lang)
    detail = say(case.detail, lang)
    return detail if str(case.detail).startswith(case.name) else f"{named(case.name, lang)}: {detail}"


def as_json(diagnosis, lang="en"):
    return json.dumps(as_dict(diagnosis, lang), ensure_ascii=False)


def as_text(diagnosis, engines, lang="en", paths=True):
    words, report = WORDS[lang], as_dict(diagnosis, lang)
    lines = [words["engine"].format(engines=engines), ""]
    for check in report["checks"]:
        lines.append(f"{words[check['status']]:<10} {check['title']}")
        skipped = {}
        for case in check["cases"]:
            if case["status"] == "passed":
                continue
            if case["status"] == "skipped":  # grouped by reason: missing names are said once
                skipped.setdefault(case["detail"], []).append(case["shown"])
                continue
            parts = f" [{', '.join(case['wrong'])}]" if case["wrong"] else ""
            lines.append(f"{'':<10} - {words[case['status']]}{parts}: {case['detail']}")
            if case["numbers"]:
                lines.append(f"{'':<10}   {case['numbers']}")
        for reason, names in skipped.items():
            listed = "; ".join(names) if len(names) <= 2 else words["cases"].format(n=len(names))
            lines.append(f"{'':<10} - {words['skipped']} ({reason}): {listed}")
    lines.append("")
    if report["fix_first"]:
        lines.append(report["fix_first"]["message"])
        lines += report["fix_first"]["trace"].rstrip().splitlines()
    elif not any(c["status"] == "caught" for c in report["checks"]):
        lines.append(words["none"])
    elif not report["suspects"]:
        lines.append(words["unexplained"])
    else:
        lines.append(words["suspects"])
        for i, s in enumerate(report["suspects"][:SHOWN_SUSPECTS], 1):
            lines.append(f"  {i}. {s['title']} ({round(100 * s['match'])}%)")
            if paths:
                lines.append(f"     {s['page']}")
    return "\n".join(lines)
