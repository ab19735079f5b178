"""Predict first: every break page asks two or three questions before the reader
sees the failure, and every folded answer restates what CI checks.

The contract (shared by every break page, both languages): a section
`## Your prediction { #prediction }` / `## Tu predicción { #prediction }` right
after "The break" and before "Procedure", holding numbered questions
(`**1.** ...`), each directly followed by its folded answer
(`??? success "Answer"` / `??? success "Respuesta"`, pymdownx.details). Every
answer has at least one inline code span, and each span is found verbatim in
one of the page's checked output blocks (healthy or broken), or is the name of
a diagnostic that minigrad/breaks/matrix.json says catches the page's break.
So an answer can only restate a number the doc tests check.
"""

import json
import re
import shutil
from pathlib import Path

import pytest

from markdown_blocks import parse_page
from minigrad.checks import DIAGNOSTICS

ROOT = Path(__file__).resolve().parents[1]
BREAKS_DIR = ROOT / "docs" / "breaks"
PAGES = sorted(BREAKS_DIR.glob("*.md"))
MATRIX = json.loads((ROOT / "minigrad" / "breaks" / "matrix.json").read_text(encoding="utf-8"))
HEADING = {"en": "## Your prediction { #prediction }", "es": "## Tu predicción { #prediction }"}
ANSWER = {"en": '??? success "Answer"', "es": '??? success "Respuesta"'}
QUESTION = re.compile(r"^\*\*(\d)\.\*\* \S")
ADMONITION = re.compile(r"^(\?\?\?\+?|!!!) ")  # folded, open, or not folded at all
CODE_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")


def language(path):
    return "es" if path.name.endswith(".es.md") else "en"


def catching_diagnostics(slug):
    """Names of the diagnostics that the matrix says catch this break."""
    row = MATRIX["breaks"].get(slug, {})
    return {name for name, cell in row.items() if cell["caught"] and name in DIAGNOSTICS}


def questions_and_answers(section):
    """[(question, answer body)] from the section's lines; problems for what does not fit."""
    lines, pairs, problems, i = section, [], [], 0
    while i < len(lines):
        if not QUESTION.match(lines[i]):
            i += 1
            continue
        number, question = QUESTION.match(lines[i]).group(1), [lines[i]]
        i += 1
        while i < len(lines) and lines[i].strip() and not ADMONITION.match(lines[i]):
            question.append(lines[i])
            i += 1
        while i < len(lines) and not lines[i].strip():
            i += 1
        if i >= len(lines) or not ADMONITION.match(lines[i]):
            problems.append(f"question {number} is not directly followed by its folded answer")
            continue
        opener, body = lines[i], []
        i += 1
        while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
            body.append(lines[i])
            i += 1
        pairs.append((number, " ".join(question), opener, "\n".join(body).strip()))
    return pairs, problems


def check_page(path):
    """Every way `path` breaks the prediction contract, each message naming the page."""
    lang, text = language(path), path.read_text(encoding="utf-8")
    name = path.relative_to(path.parents[2]).as_posix() if len(path.parents) > 2 else path.name
    page = parse_page(path)
    slug = page.break_slug
    anchors = re.findall(r"^## .*\{ ?#([\w-]+) ?\}\s*$", text, re.M)
    problems = []
    if "prediction" not in anchors:
        return [f"{name}: no section {HEADING[lang]!r}"]
    at = anchors.index("prediction")
    if anchors[at - 1 : at] != ["the-break"] or anchors[at + 1 : at + 2] != ["procedure"]:
        problems.append(f"{name}: the prediction section must come right after #the-break and before #procedure (sections: {anchors})")
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == HEADING[lang]), None)
    if start is None:
        return problems + [f"{name}: the prediction heading must read {HEADING[lang]!r}"]
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    pairs, found = questions_and_answers(lines[start + 1 : end])
    problems += [f"{name}: {p}" for p in found]
    if not 2 <= len(pairs) <= 3:
        problems.append(f"{name}: {len(pairs)} questions with answers, the contract asks for two or three")
    numbers = [n for n, *_ in pairs]
    if numbers != [str(k) for k in range(1, len(pairs) + 1)]:
        problems.append(f"{name}: questions numbered {numbers}")
    outputs = [out.text for block in page.blocks for out in block.outputs]
    diagnostics = catching_diagnostics(slug)
    for number, _, opener, body in pairs:
        if opener != ANSWER[lang]:
            problems.append(f"{name}: answer {number} opens with {opener!r}, not {ANSWER[lang]!r} (folded)")
        spans = CODE_SPAN.findall(body)
        if not spans:
            problems.append(f"{name}: answer {number} restates no checked output (no inline code)")
        for span in spans:
            if span not in diagnostics and not any(span in out for out in outputs):
                problems.append(
                    f"{name}: answer {number}: `{span}` is in none of the page's output blocks"
                    f" and is not a diagnostic that catches {slug} ({sorted(diagnostics)})"
                )
    return problems


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_break_page_asks_for_a_prediction_and_every_answer_is_checked(path):
    problems = check_page(path)
    assert not problems, "\n".join(problems)


def test_both_languages_ask_the_same_number_of_questions():
    for english in (p for p in PAGES if language(p) == "en"):
        spanish = english.with_name(english.stem + ".es.md")
        count = [len(questions_and_answers(p.read_text(encoding="utf-8").splitlines())[0]) for p in (english, spanish)]
        assert count[0] == count[1], f"{english.name}: {count[0]} questions, its Spanish page {count[1]}"


def _copy(tmp_path, name):
    target = tmp_path / "docs" / "breaks" / name
    target.parent.mkdir(parents=True)
    shutil.copy(BREAKS_DIR / name, target)
    return target


def _answer_spans(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if "{ #prediction }" in line)
    pairs, _ = questions_and_answers(lines[start + 1 :])
    return [CODE_SPAN.findall(body) for *_, body in pairs]


@pytest.mark.parametrize("name", ["skip-unbroadcast.md", "zero-initialisation.es.md"])
def test_a_planted_wrong_answer_fails_naming_the_page(tmp_path, name):
    copy = _copy(tmp_path, name)
    span = next(s for spans in _answer_spans(copy) for s in spans if s not in DIAGNOSTICS)
    text = copy.read_text(encoding="utf-8")
    wrong = span + "17"  # a number no output block prints
    copy.write_text(text.replace(f"`{span}`", f"`{wrong}`", 1), encoding="utf-8")
    problems = check_page(copy)
    assert any(p.startswith(f"docs/breaks/{name}: answer ") and f"`{wrong}`" in p for p in problems), problems


def test_a_diagnostic_that_misses_the_break_is_not_an_answer(tmp_path):
    copy = _copy(tmp_path, "skip-unbroadcast.md")
    assert "diamond-test" not in catching_diagnostics("skip-unbroadcast")
    text = copy.read_text(encoding="utf-8").replace('??? success "Answer"\n    ', '??? success "Answer"\n    `diamond-test` ', 1)
    copy.write_text(text, encoding="utf-8")
    assert any("`diamond-test` is in none" in p for p in check_page(copy))


def test_an_unfolded_answer_or_a_missing_section_fails(tmp_path):
    copy = _copy(tmp_path, "mean-forgets-n.md")
    text = copy.read_text(encoding="utf-8")
    copy.write_text(text.replace('??? success "Answer"', '!!! success "Answer"', 1), encoding="utf-8")
    assert any("opens with '!!! success" in p for p in check_page(copy))
    copy.write_text(text.replace("## Your prediction { #prediction }", "## Your guess { #guess }"), encoding="utf-8")
    assert check_page(copy) == ["docs/breaks/mean-forgets-n.md: no section '## Your prediction { #prediction }'"]
