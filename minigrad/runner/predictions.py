"""A break page's prediction questions, read in one place for its hook and its tests.

The contract (both languages): the section `## Your prediction { #prediction }` holds
numbered questions, `**N.** ...`, each followed by how the reader answers it and then by
its folded answer, `??? success "Answer"`:

- a list of choices, `- [ ] a wrong one` and `- [x] the right one` (exactly one right), or
- a value marker, `<!-- md:value answer=2 -->`: one number, right within 1 %, or
- nothing: the reader writes freely and judges it against the answer (a teacher's new page,
  before its choices are written).

The page grades the first two (minigrad_site/pages/predictions.py writes the form, runner/prediction.js
grades it), so the reader who was sure and wrong is told so without judging themselves.
"""

import re
from typing import NamedTuple

QUESTION = re.compile(r"^\*\*(\d+)\.\*\* \S")
CHOICE = re.compile(r"^- \[([ x])\] (\S.*)$")
VALUE = re.compile(r"^<!-- md:value answer=(\S+) -->\s*$")
ADMONITION = re.compile(r"^(\?\?\?\+?|!!!) ")  # folded, open, or not folded at all
SECTION = re.compile(r"^## .*\{ *#prediction *\}[ \t]*$", re.M)
NUMBER = re.compile(r"^[-−]?\d+(\.\d+)?(e[-+]?\d+)?$")
TOLERANCE = 0.01  # a value within 1 % of the answer's is right; the hook hands it to the page (data-tolerance)


class Question(NamedTuple):
    number: str
    text: str  # the question's lines, joined by spaces
    choices: tuple  # ((is_right, markdown), ...); empty unless a choice question
    value: str | None  # the number a value question expects
    opener: str  # the answer's first line, `??? success "Answer"`
    body: str  # the answer's text, unindented
    lines: tuple  # (first, end): the lines of the section from the question through its answer

    @property
    def kind(self):
        return "choice" if self.choices else "value" if self.value is not None else "free"

    @property
    def right(self):
        """The index of the right choice (None for other kinds, or when not exactly one is marked)."""
        marked = [i for i, (is_right, _) in enumerate(self.choices) if is_right]
        return marked[0] if len(marked) == 1 else None


def section(markdown):
    """(start, end): the character span of the prediction section's body, or None."""
    heading = SECTION.search(markdown)
    if heading is None:
        return None
    after = re.compile(r"^## ", re.M).search(markdown, heading.end())
    return heading.end(), after.start() if after else len(markdown)


def _skip_blank(lines, i):
    while i < len(lines) and not lines[i].strip():
        i += 1
    return i


def parse(lines):
    """([Question], [problem]) from the section's lines."""
    questions, problems, i = [], [], 0
    while i < len(lines):
        head = QUESTION.match(lines[i])
        if not head:
            i += 1
            continue
        first, text = i, [lines[i]]
        i += 1
        while i < len(lines) and lines[i].strip() and not ADMONITION.match(lines[i]) and not CHOICE.match(lines[i]) and not VALUE.match(lines[i]):
            text.append(lines[i])
            i += 1
        i = _skip_blank(lines, i)
        choices, value = [], None
        while i < len(lines) and CHOICE.match(lines[i]):
            mark, choice = CHOICE.match(lines[i]).groups()
            choices.append((mark == "x", choice.strip()))
            i += 1
        if not choices and i < len(lines) and VALUE.match(lines[i]):
            value = VALUE.match(lines[i])[1]
            i += 1
        i = _skip_blank(lines, i)
        if i >= len(lines) or not ADMONITION.match(lines[i]):
            problems.append(f"question {head[1]} is not followed by its folded answer (after its choices or value, if any)")
            continue
        opener, body = lines[i], []
        i += 1
        while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
            body.append(lines[i][4:])
            i += 1
        while body and not body[-1].strip():
            body.pop()
        questions.append(Question(head[1], " ".join(text), tuple(choices), value, opener, "\n".join(body).strip(), (first, i)))
    return questions, problems


def problems_of(question):
    """What is wrong with one question's way of answering (its answer's checks are the tests')."""
    found = []
    if question.choices and not 3 <= len(question.choices) <= 5:
        found.append(f"question {question.number} offers {len(question.choices)} choices (three to five)")
    if question.choices and question.right is None:
        found.append(f"question {question.number} marks {sum(r for r, _ in question.choices)} choices right (one)")
    if question.value is not None and not NUMBER.match(question.value):
        found.append(f"question {question.number}: answer={question.value} is not a number")
    return found

