"""Each question of a break page's "Your prediction" takes an answer and a confidence.

The page's Markdown keeps its contract (minigrad/runner/predictions.py reads it, for this transform
and for tests/test_predictions.py): `**N.** question`, its choices or value marker, then its
folded `??? success "Answer"`. Here each question is wrapped with a small form in place of its
choices or marker: the choices as radio buttons (or a box for a number), a
confidence (sure, unsure, guessing) and a button that commits both. runner/prediction.js keeps
the answer folded until then, grades the choice or the number, stores the prediction in this
browser only, and shows it beside what happened. The form is hidden until Material's script
marks the page as running scripts (`html.js`): without scripts the answers unfold as before.
"""

import html
from functools import lru_cache

import markdown as python_markdown

from minigrad.runner.predictions import TOLERANCE, parse, section
from minigrad.words import by_language

MARKERS = ("value",)  # <!-- md:value answer=N -->: consumed into the question's form
WORDS = by_language("site.predictions")


@lru_cache(maxsize=4096)  # the same choices on every rebuild of `mkdocs serve`
def _inline(text):
    """A choice's Markdown (code spans, emphasis) as inline HTML."""
    out = python_markdown.markdown(text)
    return out[3:-4] if out.startswith("<p>") and out.endswith("</p>") else out


def _answer_field(question, key, words):
    esc = html.escape
    if question.kind == "choice":
        options = "".join(f'<label><input type="radio" name="answer" value="{i}"> <span>{_inline(text)}</span></label>'
                          for i, (_, text) in enumerate(question.choices))
        return f'<fieldset class="mg-choices"><legend>{esc(words["answer"])}</legend>{options}</fieldset>'
    return (f'<p class="mg-prediction-answer"><label for="{key}">{esc(words["number"])}</label> '
            f'<input id="{key}" type="text" name="answer" autocomplete="off" maxlength="40" inputmode="decimal"></p>')


def form(slug, question, lang):
    words, esc = WORDS[lang], html.escape
    key = f"mg-predict-{question.number}"
    if question.kind == "choice":
        graded = f' data-right="{question.right}"'
    else:
        graded = f' data-value="{esc(question.value)}" data-tolerance="{TOLERANCE}"'
    levels = "".join(f'<label><input type="radio" name="confidence" value="{value}"> {esc(label)}</label>'
                     for value, label in words["levels"].items())
    return (f'<form class="mg-prediction" data-mg="prediction" data-break="{esc(slug)}" data-question="{question.number}" '
            f'data-kind="{question.kind}"{graded} aria-label="{esc(words["form"].format(n=question.number))}" onsubmit="return false">'
            f'{_answer_field(question, key, words)}'
            f'<fieldset class="mg-confidence"><legend>{esc(words["sure"])}</legend>{levels}</fieldset>'
            f'<p class="mg-prediction-commit"><button type="submit" class="md-button">{esc(words["commit"])}</button> '
            f'<span class="mg-prediction-status" role="status"></span></p></form>')


def with_forms(markdown, slug, lang):
    """The page's Markdown with every prediction question wrapped around its form."""
    span = section(markdown)
    if span is None:
        return markdown
    lines = markdown[span[0]:span[1]].split("\n")
    questions, _ = parse(lines)  # what does not parse, or cannot be graded, stays as written (tests/test_predictions.py names it)
    out, at = [], 0
    for q in (q for q in questions if q.kind != "free" and (q.kind == "value" or q.right is not None)):
        first, end = q.lines
        answer = next(i for i in range(first + 1, end) if lines[i].startswith(("???", "!!!")))
        own = [line for line in lines[first:answer] if line.strip() and not line.startswith(("- [", "<!-- md:value"))]
        out += lines[at:first] + ['<div class="mg-predict" markdown="1">', "", *own, form(slug, q, lang), "",
                                  *lines[answer:end], "", "</div>", ""]
        at = end
    return markdown[: span[0]] + "\n".join(out + lines[at:]) + markdown[span[1]:]


def transform(markdown, page):
    return with_forms(markdown, page.break_slug, page.lang) if page.break_slug else markdown
