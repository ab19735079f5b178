"""Why a case was skipped, in words: from the dotted names the engine lacks.

One table for both languages: "Tensor" is a whole part missing, "nn.LayerNorm"
one name in a part ("your nn has no LayerNorm"), grouped per part; "call: ..."
a call that does not fit the engine (an argument it does not take).
"""

WORDS = {
    "en": {"part": "your engine has no {name}", "name": "your {part} has no {names}",
           "call": "a call the check makes does not fit your engine: {error}"},
    "es": {"part": "tu motor no tiene {name}", "name": "tu {part} no tiene {names}",
           "call": "una llamada de la comprobación no encaja con tu motor: {error}"},
}


def describe(missing, lang="en"):
    words, absent, names = WORDS[lang], [], {}
    calls = [words["call"].format(error=m[len("call: "):]) for m in missing if m.startswith("call: ")]
    for dotted in (m for m in missing if not m.startswith("call: ")):
        part, _, name = dotted.partition(".")
        if name:
            names.setdefault(part, []).append(name)
        else:
            absent.append(part)
    phrases = [words["part"].format(name=", ".join(absent))] if absent else []
    phrases += [words["name"].format(part=p, names=", ".join(n)) for p, n in names.items()]
    return "; ".join(phrases + calls)
