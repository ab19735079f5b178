"""Predict first: every break page asks two or three questions before the reader
sees the failure, and every folded answer restates what CI checks.

The contract (shared by every break page, both languages): a section
`## Your prediction { #prediction }` / `## Tu predicción { #prediction }` right
after "The break" and before "Procedure", holding numbered questions
(`**1.** ...`), each directly followed by its folded answer
(`??? success "Answer"` / `??? success "Respuesta"`, pymdownx.details), with what the reader
answers in between: choices (`- [ ]`, one `- [x]`) or a value marker (`<!-- md:value
answer=N -->`, a number the answer's inline code states), so that the page grades the
prediction; the Spanish page grades each question the same way. Every
answer has at least one inline code span, and each span is found verbatim in
one of the page's checked output blocks (healthy or broken), or is the name of
a diagnostic that minigrad/breaks/matrix.json says catches the page's break.
So an answer can only restate a number the doc tests check.
"""

import re
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from markdown_blocks import parse_page
from minigrad import breaks
from minigrad.checks import DIAGNOSTICS
from minigrad.runner.predictions import NUMBER, parse, problems_of, section

ROOT = Path(__file__).resolve().parents[1]
BREAKS_DIR = ROOT / "docs" / "breaks"
PAGES = sorted(BREAKS_DIR.glob("*.md"))
MATRIX = breaks.matrix()
HEADING = {"en": "## Your prediction { #prediction }", "es": "## Tu predicción { #prediction }"}
ANSWER = {"en": '??? success "Answer"', "es": '??? success "Respuesta"'}
CODE_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
SPAN_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def language(path):
    return "es" if path.name.endswith(".es.md") else "en"


def catching_diagnostics(slug):
    """Names of the diagnostics that the matrix says catch this break."""
    row = MATRIX["breaks"].get(slug, {})
    return {name for name, cell in row.items() if cell["caught"] and name in DIAGNOSTICS}


def questions_of(text):
    """([Question], [problem]) of a page's prediction section (minigrad.runner.predictions reads it)."""
    span = section(text)
    return parse(text[span[0]:span[1]].split("\n")) if span else ([], [])


def how_it_is_graded(question):
    """What both languages must share: the kind, the number of choices, the right one, the value."""
    return question.kind, len(question.choices), question.right, question.value


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
    if HEADING[lang] not in text.splitlines():
        return problems + [f"{name}: the prediction heading must read {HEADING[lang]!r}"]
    questions, found = questions_of(text)
    problems += [f"{name}: {p}" for p in found]
    if not 2 <= len(questions) <= 3:
        problems.append(f"{name}: {len(questions)} questions with answers, the contract asks for two or three")
    pairs = [(q.number, q.text, q.opener, q.body) for q in questions]
    numbers = [n for n, *_ in pairs]
    if numbers != [str(k) for k in range(1, len(pairs) + 1)]:
        problems.append(f"{name}: questions numbered {numbers}")
    outputs = [out.text for block in page.blocks for out in block.outputs]
    diagnostics = catching_diagnostics(slug)
    for q in questions:
        problems += [f"{name}: {p}" for p in problems_of(q)]
        if q.kind == "free":
            problems.append(f"{name}: question {q.number} has neither choices nor a value marker: the page cannot grade it")
        numbers = {Decimal(n) for span in CODE_SPAN.findall(q.body) for n in SPAN_NUMBER.findall(span)}
        if q.value is not None and NUMBER.match(q.value) and Decimal(q.value.replace("−", "-")) not in numbers:
            problems.append(f"{name}: question {q.number}: answer={q.value} is a number none of its answer's inline code states")
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


def test_both_languages_ask_the_same_questions_graded_the_same_way():
    for english in (p for p in PAGES if language(p) == "en"):
        spanish = english.with_name(english.stem + ".es.md")
        graded = [[how_it_is_graded(q) for q in questions_of(p.read_text(encoding="utf-8"))[0]] for p in (english, spanish)]
        assert graded[0] == graded[1], f"{english.name} and its Spanish page grade their questions differently: {graded}"


def _copy(tmp_path, name):
    target = tmp_path / "docs" / "breaks" / name
    target.parent.mkdir(parents=True)
    shutil.copy(BREAKS_DIR / name, target)
    return target


def _answer_spans(path):
    return [CODE_SPAN.findall(q.body) for q in questions_of(path.read_text(encoding="utf-8"))[0]]


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


def test_a_question_the_page_cannot_grade_fails_naming_it(tmp_path):
    copy = _copy(tmp_path, "mean-forgets-n.md")
    text = copy.read_text(encoding="utf-8")
    questions, _ = questions_of(text)
    first, end = questions[0].lines
    lines = text[section(text)[0]:].split("\n")
    stripped = "\n".join(line for line in lines[first:end] if not line.startswith(("- [", "<!-- md:value")))
    copy.write_text(text.replace("\n".join(lines[first:end]), stripped, 1), encoding="utf-8")
    assert any("question 1 has neither choices nor a value marker" in p for p in check_page(copy)), check_page(copy)


def test_two_right_choices_or_a_value_the_answer_does_not_state_fail(tmp_path):
    copy = _copy(tmp_path, "mean-forgets-n.md")
    text = copy.read_text(encoding="utf-8")
    copy.write_text(text.replace("- [ ] ", "- [x] ", 1), encoding="utf-8")
    assert any("marks 2 choices right (one)" in p for p in check_page(copy)), check_page(copy)
    question = questions_of(text)[0][0]
    marker = "<!-- md:value answer=123.456 -->"  # a number no answer states, in place of question 1's choices
    lines = text[section(text)[0]:].split("\n")
    choices = "\n".join(line for line in lines[question.lines[0]:question.lines[1]] if line.startswith("- ["))
    copy.write_text(text.replace(choices, marker, 1), encoding="utf-8")
    assert any("answer=123.456 is a number none of its answer's inline code states" in p for p in check_page(copy)), check_page(copy)


def test_a_spanish_page_that_marks_another_choice_right_grades_differently():
    english = (BREAKS_DIR / "mean-forgets-n.md").read_text(encoding="utf-8")
    spanish = (BREAKS_DIR / "mean-forgets-n.es.md").read_text(encoding="utf-8")
    same = [[how_it_is_graded(q) for q in questions_of(t)[0]] for t in (english, spanish)]
    assert same[0] == same[1] and same[0][0][0] == "choice"
    right = questions_of(spanish)[0][0].right
    lines = spanish.split("\n")
    marks = [i for i, line in enumerate(lines) if line.startswith("- [")]
    lines[marks[right]] = lines[marks[right]].replace("- [x]", "- [ ]")
    lines[marks[(right + 1) % 3]] = lines[marks[(right + 1) % 3]].replace("- [ ]", "- [x]")
    moved = [how_it_is_graded(q) for q in questions_of("\n".join(lines))[0]]
    assert moved != same[0]
