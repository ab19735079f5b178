"""Why a case was skipped, in words: from the dotted names the engine lacks.

One table for both languages: "Tensor" is a whole part missing, "nn.LayerNorm"
one name in a part ("your nn has no LayerNorm"), grouped per part.
"""

WORDS = {
    "en": {"part": "your engine has no {name}", "name": "your {part} has no {names}"},
    "es": {"part": "tu motor no tiene {name}", "name": "tu {part} no tiene {names}"},
}


def describe(missing, lang="en"):
    words, absent, names = WORDS[lang], [], {}
    for dotted in missing:
        part, _, name = dotted.partition(".")
        if name:
            names.setdefault(part, []).append(name)
        else:
            absent.append(part)
    phrases = [words["part"].format(name=", ".join(absent))] if absent else []
    phrases += [words["name"].format(part=p, names=", ".join(n)) for p, n in names.items()]
    return "; ".join(phrases)
