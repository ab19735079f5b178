"""MkDocs hook: each question of a break page's "Your prediction" takes an answer and a confidence.

The page's Markdown keeps its contract (tests/test_predictions.py): `**N.** question`, then its
folded `??? success "Answer"`. Here each pair is wrapped with a small form between them:
a short answer, a confidence (sure, unsure, guessing) and a button that commits both.
runner/prediction.js keeps the answer folded until then, stores the prediction in this
browser only, and shows it beside what happened. The form is hidden until Material's script
marks the page as running scripts (`html.js`): without scripts the answers unfold as before.
"""

import html
import re

from minigrad.runner.languages import build_language

QUESTION = re.compile(r"^\*\*(\d+)\.\*\* \S")
ANSWER = re.compile(r'^\?\?\?\+? success ')
SECTION = re.compile(r"^## .*\{ *#prediction *\}[ \t]*$", re.M)
WORDS = {
    "en": {"form": "Your prediction for question {n}", "answer": "Your answer", "sure": "How sure are you?",
           "levels": {"sure": "Sure", "unsure": "Unsure", "guessing": "Guessing"},
           "commit": "Commit, then show the answer"},
    "es": {"form": "Tu predicción para la pregunta {n}", "answer": "Tu respuesta", "sure": "¿Cuánto confías en tu respuesta?",
           "levels": {"sure": "Mucho", "unsure": "Poco", "guessing": "Nada: adivino"},
           "commit": "Fijar mi predicción y ver la respuesta"},
}


def form(slug, number, lang):
    words, esc = WORDS[lang], html.escape
    key = f"mg-predict-{number}"
    levels = "".join(f'<label><input type="radio" name="confidence" value="{value}"> {esc(label)}</label>'
                     for value, label in words["levels"].items())
    return (f'<form class="mg-prediction" data-mg="prediction" data-break="{esc(slug)}" data-question="{number}" '
            f'aria-label="{esc(words["form"].format(n=number))}" onsubmit="return false">'
            f'<p class="mg-prediction-answer"><label for="{key}">{esc(words["answer"])}</label> '
            f'<input id="{key}" type="text" name="answer" autocomplete="off" maxlength="300"></p>'
            f'<fieldset class="mg-confidence"><legend>{esc(words["sure"])}</legend>{levels}</fieldset>'
            f'<p class="mg-prediction-commit"><button type="submit" class="md-button">{esc(words["commit"])}</button> '
            f'<span class="mg-prediction-status" role="status"></span></p></form>')


def with_forms(markdown, slug, lang):
    """The page's Markdown with every prediction question wrapped around its form."""
    section = SECTION.search(markdown)
    if section is None:
        return markdown
    end = re.compile(r"^## ", re.M).search(markdown, section.end())
    end = end.start() if end else len(markdown)
    lines, out, i = markdown[section.end():end].split("\n"), [], 0
    while i < len(lines):
        question = QUESTION.match(lines[i])
        answer = next((j for j in range(i + 1, len(lines)) if ANSWER.match(lines[j])), None) if question else None
        if answer is None or any(QUESTION.match(line) for line in lines[i + 1 : answer]):
            out.append(lines[i])
            i += 1
            continue
        body_end = next((j for j in range(answer + 1, len(lines)) if lines[j].strip() and not lines[j].startswith("    ")), len(lines))
        out += [f'<div class="mg-predict" markdown="1">', "", *lines[i:answer], form(slug, question[1], lang), "",
                *lines[answer:body_end], "", "</div>", ""]
        i = body_end
    return markdown[: section.end()] + "\n".join(out) + markdown[end:]


def on_page_markdown(markdown, page, config, files):
    slug = (page.meta or {}).get("minigrad_break")
    return with_forms(markdown, slug, build_language(page, config)) if slug else markdown
