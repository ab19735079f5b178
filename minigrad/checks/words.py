"""Everything a check says, in English and Spanish, from minigrad's one table per language (minigrad/words).

A check's sentence is `Said(key, **params)`: a str (its English, which the
pages print and the matrix shows) that also knows how to say itself in
Spanish, for the doctor's report. Case names and wrong parts are names, not
sentences: the table's [name] gives their Spanish. What a learner's code raises stays in
Python's English, as on every page.
"""

from ..words import section


def sentence(key, lang):
    return section("checks.sentence", lang)[key]


def name(text, lang="en"):
    """A case name or a wrong part in `lang`: "input 0 (zero)" -> "entrada 0 (cero)"."""
    if lang == "en":
        return text
    if text.startswith("input "):
        return text.replace("input", "entrada", 1).replace("(zero)", "(cero)")
    return section("checks.name", "es").get(text, text).replace("(zero)", "(cero)")


class Said(str):
    """A sentence of SENTENCES: its English as a str, its key and parameters to say it again."""

    def __new__(cls, key, **params):
        params = {k: v if isinstance(v, Said) else str(v) for k, v in params.items()}
        said = super().__new__(cls, sentence(key, "en").format(**params))
        said.key, said.params = key, params
        return said

    def to(self, lang):
        if lang == "en":
            return str(self)
        template = sentence(self.key, lang)
        return template.format(**{k: v.to(lang) if isinstance(v, Said) else _named(k, v, lang) for k, v in self.params.items()})

    def as_data(self):
        return {"key": self.key, "params": {k: v.as_data() if isinstance(v, Said) else v for k, v in self.params.items()}}

    @classmethod
    def from_data(cls, data):
        if isinstance(data, str):
            return data
        return cls(data["key"], **{k: cls.from_data(v) for k, v in data["params"].items()})


def _named(key, value, lang):
    """Parameters that are names (a case's, a wrong part's) are said in `lang`; numbers and code are not."""
    return name(value, lang) if key in ("name", "label", "prefix", "case") else value


def error_of(e):
    """`Type: message`, keeping a message that is itself a Said (the doctor's own time limits)."""
    message = e.args[0] if len(e.args) == 1 and isinstance(e.args[0], Said) else str(e)
    return Said("exception", type=type(e).__name__, message=message) if isinstance(message, Said) else f"{type(e).__name__}: {message}"


def say(text, lang):
    """Any detail in `lang`: a Said in its words, anything else (a learner's own message) as it is."""
    return text.to(lang) if isinstance(text, Said) else text
