"""Why a case was skipped, in words: from the dotted names the engine lacks.

Worded from the checks' words (minigrad/words/{en,es}.toml): "Tensor" is a whole part missing, "nn.LayerNorm"
one name in a part ("your nn has no LayerNorm"), grouped per part; "call: ..."
a call that does not fit the engine (an argument it does not take).
"""

from .words import sentence


def describe(missing, lang="en"):
    words = {k: sentence(f"missing-{k}", lang) for k in ("part", "name", "call")}
    absent, names = [], {}
    calls = [words["call"].format(error=m[len("call: "):]) for m in missing if m.startswith("call: ")]
    for dotted in (m for m in missing if not m.startswith("call: ")):
        part, _, name = dotted.partition(".")
        if name:
            names.setdefault(part, []).append(name)
        else:
            absent.append(part)
    phrases = [words["part"].format(name=", ".join(absent))] if absent else []
    phrases += [words["name"].format(part=p, names=", ".join(n)) for p, n in names.items()]
    mapped = sorted({n for ns in names.values() for n in ns if n in MAPPABLE})
    phrases += [sentence("missing-mappable", lang).format(name=n) for n in mapped]
    return "; ".join(phrases + calls)


MAPPABLE = ("data", "grad")  # attributes a learner may name otherwise, and map (minigrad/doctor/config.py)
