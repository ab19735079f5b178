"""The doctor's report: text in English or Spanish, or one JSON object.

Titles of checks and breaks come from minigrad/breaks/catalogue.toml, so the
report speaks the site's words; a suspect's page is docs/breaks/<slug>.md (or
.es.md). Case details are the diagnostics' own, with their numbers.
"""

import json
import tomllib

from ..breaks import HERE, catalogue

WORDS = {
    "en": {
        "passed": "passed", "caught": "caught", "skipped": "skipped",
        "wrong values": "wrong values", "wrong shape": "wrong shape", "raised": "raised", "timed out": "timed out",
        "engine": "Engine under test: {engines}.", "cases": "{n} cases",
        "none": "Nothing caught: no break in the catalogue explains what these checks saw.",
        "unexplained": "Something is caught, but no break in the catalogue matches it.",
        "suspects": "Likely breaks, most likely first (match in %):",
    },
    "es": {
        "passed": "pasa", "caught": "detectado", "skipped": "omitido",
        "wrong values": "valores incorrectos", "wrong shape": "forma incorrecta", "raised": "lanzó",
        "timed out": "tiempo agotado",
        "engine": "Motor bajo prueba: {engines}.", "cases": "{n} casos",
        "none": "Nada detectado: ninguna rotura del catálogo explica lo que vieron estas comprobaciones.",
        "unexplained": "Algo se detecta, pero ninguna rotura del catálogo coincide.",
        "suspects": "Roturas probables, la más probable primero (coincidencia en %):",
    },
}
# Why a case was skipped, in Spanish (the diagnostics give it in English).
REASONS_ES = {
    "no Value class": "sin clase Value",
    "no Tensor class": "sin clase Tensor",
    "needs minigrad's nn and functional": "necesita nn y functional de minigrad",
    "needs minigrad's nn and optim": "necesita nn y optim de minigrad",
}
SHOWN_SUSPECTS = 3


def _reason(detail, lang):
    if lang != "es":
        return detail
    return REASONS_ES.get(detail) or detail.replace("needs ", "necesita ", 1)


def _titles():
    diagnostics = tomllib.loads((HERE / "catalogue.toml").read_text(encoding="utf-8"))["diagnostic"]
    return {name: d["title"] for name, d in diagnostics.items()}, {b.slug: b.title for b in catalogue()}


def as_dict(verdicts, ranked, lang="en"):
    """What --json prints: {"checks": [...], "suspects": [...]}, suspects most likely first."""
    check_titles, break_titles = _titles()
    suffix = "" if lang == "en" else f".{lang}"
    checks = [
        {
            "name": name,
            "title": check_titles[name][lang],
            "status": verdict.status,
            "detail": verdict.detail,
            "cases": [{"name": c.name, "status": c.status, "detail": c.detail, "wrong": list(c.wrong), "numbers": c.numbers}
                      for c in verdict.cases],
        }
        for name, verdict in verdicts.items()
    ]
    suspects = [
        {"slug": slug, "title": break_titles[slug][lang], "page": f"docs/breaks/{slug}{suffix}.md", "match": score}
        for slug, score in ranked
    ]
    return {"checks": checks, "suspects": suspects}


def as_json(verdicts, ranked, lang="en"):
    return json.dumps(as_dict(verdicts, ranked, lang), ensure_ascii=False)


def as_text(verdicts, ranked, engines, lang="en"):
    words, report = WORDS[lang], as_dict(verdicts, ranked, lang)
    lines = [words["engine"].format(engines=engines), ""]
    for check in report["checks"]:
        lines.append(f"{words[check['status']]:<10} {check['title']}")
        skipped = {}
        for case in check["cases"]:
            if case["status"] == "passed":
                continue
            if case["status"] == "skipped":  # grouped by reason: missing ops are named once
                skipped.setdefault(_reason(case["detail"], lang), []).append(case["name"])
                continue
            parts = f" [{', '.join(case['wrong'])}]" if case["wrong"] else ""
            detail = case["detail"] if case["detail"].startswith(case["name"]) else f"{case['name']}: {case['detail']}"
            lines.append(f"{'':<10} - {words[case['status']]}{parts}: {detail}")
            if case["numbers"]:
                lines.append(f"{'':<10}   {case['numbers']}")
        for reason, names in skipped.items():
            listed = "; ".join(names) if len(names) <= 2 else words["cases"].format(n=len(names))
            lines.append(f"{'':<10} - {words['skipped']} ({reason}): {listed}")
    lines.append("")
    caught = any(c["status"] == "caught" for c in report["checks"])
    if not caught:
        lines.append(words["none"])
    elif not report["suspects"]:
        lines.append(words["unexplained"])
    else:
        lines.append(words["suspects"])
        for i, s in enumerate(report["suspects"][:SHOWN_SUSPECTS], 1):
            lines.append(f"  {i}. {s['title']} ({round(100 * s['match'])}%)")
            lines.append(f"     {s['page']}")
    return "\n".join(lines)
