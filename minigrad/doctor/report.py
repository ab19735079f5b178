"""The doctor's report: text in English or Spanish, or one JSON object.

Titles of checks and breaks come from minigrad/breaks/catalogue.toml, so the
report speaks the site's words; a suspect's page is docs/breaks/<slug>.md (or
.es.md), printed on the command line (on the site the page shows links).
Case details are the checks' own, with their numbers; skip reasons are worded
here, in the report's language, from the names the engine lacks.
"""

import json
import os
import re

from ..breaks import load
from ..checks.reasons import describe
from ..checks.words import name as named, say
from ..words import by_language

WORDS = by_language("doctor.report")
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
    if not case and diagnosis.hostile:
        how, case = diagnosis.hostile
        check = next(name for name, v in diagnosis.verdicts.items() if case in v.cases)
        return {"message": words[f"hostile-{how}"].format(check=check_titles[check][lang], case=named(case.name, lang)),
                "trace": case.trace}
    if case:
        check = next(name for name, v in diagnosis.verdicts.items() if case in v.cases)
        raised = re.search(r"raised (\w+)", case.detail)
        error = raised.group(1) if raised else case.trace.strip().splitlines()[-1].split(":")[0]
        return {"message": words["crashed"].format(error=error, check=check_titles[check][lang], case=named(case.name, lang)),
                "trace": case.trace}
    return None


SITE = "http://127.0.0.1:8000/"  # where `uv run mkdocs serve` shows the site; MINIGRAD_SITE_URL names a published one


def page_url(slug, lang="en", site=None):
    """The break's page on the site, in the report's language (the site's own address scheme)."""
    base = (site or os.environ.get("MINIGRAD_SITE_URL") or SITE).rstrip("/") + "/"
    return f"{base}{'' if lang == 'en' else lang + '/'}breaks/{slug}/"


def as_dict(diagnosis, lang="en", site=None):
    """What --json prints: {"verdict", "diagnoses", "unexplained", "fix_first", "suspects", "checks"}."""
    check_titles, break_titles = titles()
    checks = [
        {
            "name": name,
            "title": check_titles[name][lang],
            "status": verdict.status,
            "detail": say(verdict.detail, lang),
            "cases": [{"id": f"{name}/{c.name}", "name": c.name, "shown": named(c.name, lang), "status": c.status,
                       "detail": _detail(c, lang), "wrong": [named(w, lang) for w in c.wrong],
                       "numbers": "; ".join(say(n, lang) for n in c.numbers), "missing": list(c.missing)} for c in verdict.cases],
        }
        for name, verdict in diagnosis.verdicts.items()
    ]
    cases = {case["id"]: (check, case) for check in checks for case in check["cases"]}
    suspects = [{"slug": slug, "title": break_titles[slug][lang], "url": page_url(slug, lang, site), "match": score}
                for slug, score in diagnosis.suspects]
    diagnoses = [{"slug": slug, "title": break_titles[slug][lang], "url": page_url(slug, lang, site), "match": match,
                  "explains": explains, "evidence": _evidence_line(cases, explains[0])}
                 for slug, explains, match in diagnosis.diagnoses]
    unexplained = [{"id": key, "evidence": _evidence_line(cases, key)} for key in diagnosis.unexplained if key in cases]
    near = [{"id": key, "evidence": _evidence_line(cases, key)} for key in diagnosis.near if key in cases]
    fix_first = _fix_first(diagnosis, lang, check_titles)
    return {"verdict": _verdict(diagnosis, lang, fix_first), "diagnoses": diagnoses, "unexplained": unexplained,
            "near": near, "fix_first": fix_first, "suspects": suspects, "checks": checks}


def _evidence_line(cases, key):
    check, case = cases[key]
    line = f"{check['title']}: {case['detail']}"
    return f"{line} ({case['numbers']})" if case["numbers"] else line


def _verdict(diagnosis, lang, fix_first):
    words = WORDS[lang]
    if fix_first:
        return fix_first["message"]
    if not diagnosis.caught:
        return words["none"]
    if not diagnosis.diagnoses:
        return words["unexplained"]
    n = len(diagnosis.diagnoses)
    return words["verdict-one"] if n == 1 else words["verdict-many"].format(n=n)


def _detail(case, lang):
    """The case's detail in `lang`, always starting with the case's name."""
    if case.status == "skipped":
        return describe(case.missing, lang)
    detail = say(case.detail, lang)
    return detail if str(case.detail).startswith(case.name) else f"{named(case.name, lang)}: {detail}"


def verdict_of(report):
    """What the page shows first, from as_dict(): the verdict, each diagnosis with its evidence line and
    match, what nothing explains, and what to fix first. Slugs only: the page builds each link itself."""
    return {
        "verdict": report["verdict"],
        "diagnoses": [{k: d[k] for k in ("slug", "title", "match", "evidence")} | {"explains": len(d["explains"])}
                      for d in report["diagnoses"]],
        "unexplained": [u["evidence"] for u in report["unexplained"]],
        "near": [u["evidence"] for u in report["near"]],
        "fix_first": report["fix_first"],
        "caught": any(c["status"] == "caught" for c in report["checks"]),
    }


def as_json(diagnosis, lang="en", site=None):
    return json.dumps(as_dict(diagnosis, lang, site), ensure_ascii=False)


def as_text(diagnosis, engines, lang="en", paths=True, site=None):
    """The verdict first (the diagnoses with their evidence, then what nothing explains), then the
    checks one by one, then the ranking of every signature. `paths`: print each page's address."""
    words, report = WORDS[lang], as_dict(diagnosis, lang, site)
    lines = [words["engine"].format(engines=engines), "", report["verdict"]]
    if report["fix_first"]:
        lines += report["fix_first"]["trace"].rstrip().splitlines()
    for i, d in enumerate(report["diagnoses"], 1):
        lines.append(words["diagnosis"].format(i=i, title=d["title"], match=round(100 * d["match"]), n=len(d["explains"])))
        lines.append(f"   {d['evidence']}")
        if paths:
            lines.append("   " + words["page"].format(url=d["url"]))
    if report["unexplained"]:
        lines.append(words["unexplained-cases"].format(n=len(report["unexplained"])))
        lines += [f"   - {u['evidence']}" for u in report["unexplained"]]
    if report["near"]:
        lines.append(words["near-cases"].format(n=len(report["near"])))
        lines += [f"   - {u['evidence']}" for u in report["near"]]
    lines += ["", words["details"]]
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
    if report["suspects"]:
        lines += ["", words["ranking"]]
        lines += [f"  {s['title']} ({round(100 * s['match'])}%)" for s in report["suspects"][:SHOWN_SUSPECTS]]
    return "\n".join(lines)
