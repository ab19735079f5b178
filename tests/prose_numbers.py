"""Every number in a page's prose is checked (DESIGN.md, principle 1: "a number
on a page is either printed by a checked block or asserted by one").

*Prose* is a page (both languages, prose snippets included) without its front
matter, fenced blocks (code, outputs, pictures, diffs, shell), headings, its
References section, snippet include lines, HTML tags and comments, link
targets, and link texts that are the title of the page they link to (a
heading, quoted). Inline code is prose: a quoted output is a claim.

A *number* is

- a numeral: `3`, `-0.7` (`−` too), `0.6931`, `2.06e-9`, `10 000` (the
  pages group thousands with a space), not inside a word or a name
  (`float64`, `W1`, `x2`, `3D`, `2h`) nor a dotted version (`2.13.0`);
- a percentage, `0.1 %`, or a ratio: a numeral followed by `x`, `×`, `times`
  or `veces` (`3x`, `3.162 times`), or a number word before "times too
  large", "times the", "veces más" and the like ("four times too large");
- a number word from ten up (`twenty`, `ten thousand`, `veinte`, `mil`, in
  the page's language). Smaller ones count the page's own things ("two
  steps", "tres preguntas"); plural and vague ones ("thousands", "a few
  hundred", "millones de") are no value.

It is *covered* when the page's own blocks state it:

1. an output or picture block prints it (healthy or broken; `.text
   .output`, `.dot/.json .picture`, claims blocks' outputs), to the places
   the prose writes: `0.693` covers a printed `0.6931`, `2e-9` a printed
   `2.06e-09`, `5` a printed `5.0`. An integer covers only itself (a prose
   `0` is no printed `0.3`), unless the prose says it rounds ("about 37",
   "≈ 37", "unos 37");
2. or the page's code writes it exactly (a number token of its Python
   blocks or of the diff it includes, not a comment's or a string's): the
   code's own inputs, `lr=0.1`, `Value(3.0)`, are not claims about results;
3. a percentage or a ratio is a result, never an input: only a printed
   percentage (`66%`) or fraction (`0.001` for `0.1 %`) covers the first,
   and only a number printed as a ratio the second (`2x`, `3.162 times`, or
   on a line that divides: `healthy / broken: [9.3 8.2]`);
4. a number written with its name, `x.grad = 5`, `lr=0.5`, must be one that
   the blocks give that name, when they print that name at all: an output's
   `x.grad = 1` does not make a prose `x.grad = 2` right because a `2` is
   printed elsewhere. (Not a term, `a.grad = -6 + 10`, nor a tuple's last
   name, `a, b, c = 2, 3, 4`.);
5. an inline code span that the page's blocks contain word for word (spaces
   aside), with a name or a word in it, quotes them: its numbers are covered.
   A span of numbers only (`[0.09, 0.2447, -0.3348]`, `(4, 1)`, `2, 3, 4`),
   or such a bracketed part of a span, is a quoted vector: its numbers, in
   order, must be a run of one block's numbers, each to its places, or all
   of them are uncovered (one wrong element makes the whole quote wrong).
   A span of words and numbers that an output prints with other numbers
   (`step 63: loss 0.0385` where a block prints `step 63: loss 0.0384`) is
   a quote gone wrong: its numbers are uncovered together, however many of
   them are printed elsewhere on the page.

A claim that no block prints goes in a *claims block*: a `{.python .claims}`
block and its output in a folded note, `<details class="note" markdown>` with
the summary "How this page's claims are checked" / "Cómo se comprueban las
afirmaciones de esta página", at the end of a section. CI runs it like any
block (and Node in Pyodide), so it covers by rule 1, and the reader can run
it. What PyTorch does, the pages' claims blocks print from
minigrad/reference/facts.json (scripts/make_torch_reference.py).

What is not a claim is exempted by the rules in `EXEMPTIONS`, each with its
reason, and nowhere else. test_prose_numbers.py fails naming page and line
for every number that is neither covered nor exempted.
"""

import ast
import functools
import io
import re
import tokenize
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from markdown_blocks import parse_page

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

CLAIMS_TITLE = {"en": "How this page's claims are checked", "es": "Cómo se comprueban las afirmaciones de esta página"}

_SPACE = "[ \u00a0\u202f]"
NUMERAL = re.compile(
    rf"""
    (?<![\w.\-−])                          # not the tail of a word, a name, a dotted version or another numeral
    (?P<sign>[-−](?=\d))?
    (?P<int>\d{{1,3}}(?:{_SPACE}\d{{3}})+(?![\d.])|\d+)
    (?P<frac>\.\d+)?
    (?P<exp>e[-+]?\d+)?
    (?:(?P<ratio>(?:x|{_SPACE}?×)(?!\s*[-+−*/^=²³(])|{_SPACE}(?:times|veces)\b)|(?P<percent>{_SPACE}?%))?
    (?![\w])                               # not the head of a word or a name (3D, 2h, 1st)
    (?!\.\d)                               # nor of a dotted version (2.13.0)
    """,
    re.X,
)
# Numerals in blocks: the same, without prose's ratios and percentages (a block's `66%` is 66).
BLOCK_NUMERAL = re.compile(r"(?<![\w.])(?P<sign>-)?(?P<int>\d+)(?P<frac>\.\d+)?(?P<exp>e[-+]?\d+)?(?![\w])")

_WORDS = {
    "en": {
        "units": {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
                  "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
                  "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90},
        "small": {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                  "eight": 8, "nine": 9},
        "scales": {"hundred": 100, "thousand": 1000, "million": 10**6},
        "joiner": "and",
        "vague": "few|several|many",
        "plural": {"hundreds", "thousands", "millions"},
    },
    "es": {
        "units": {"diez": 10, "once": 11, "doce": 12, "trece": 13, "catorce": 14, "quince": 15,
                  "dieciséis": 16, "diecisiete": 17, "dieciocho": 18, "diecinueve": 19, "veinte": 20,
                  "veintiuno": 21, "veintidós": 22, "veintitrés": 23, "veinticuatro": 24, "veinticinco": 25,
                  "veintiséis": 26, "veintisiete": 27, "veintiocho": 28, "veintinueve": 29, "treinta": 30,
                  "cuarenta": 40, "cincuenta": 50, "sesenta": 60, "setenta": 70, "ochenta": 80, "noventa": 90,
                  "cien": 100, "ciento": 100, "doscientos": 200, "trescientos": 300, "cuatrocientos": 400,
                  "quinientos": 500},
        "small": {"un": 1, "uno": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6,
                  "siete": 7, "ocho": 8, "nueve": 9},
        "scales": {"mil": 1000, "millón": 10**6, "millones": 10**6},
        "joiner": "y",
        "vague": "varios|varias|algunos|algunas|muchos|muchas",
        "plural": {"cientos", "miles", "millones"},
    },
}


def _number_words(lang):
    words = _WORDS[lang]
    vocabulary = "|".join(sorted(map(re.escape, [*words["units"], *words["small"], *words["scales"]]), key=len, reverse=True))
    gap = rf"(?:{_SPACE}+{words['joiner']}{_SPACE}+|[ \u00a0\u202f-]+)"
    return re.compile(rf"(?<![\w-])(?:(?:{vocabulary}){gap}(?=(?:{vocabulary})\b))*(?:{vocabulary})(?![\w-])", re.I), gap


NUMBER_WORDS = {lang: _number_words(lang) for lang in _WORDS}
_WORD_RATIO = re.compile(
    rf"{_SPACE}+(?:times{_SPACE}+(?:too|larger|smaller|less|more|as|bigger|greater|higher|lower|longer|shorter|the|what)"
    rf"|veces{_SPACE}+(?:demasiado|más|menos|mayor|menor|el{_SPACE}+valor|lo{_SPACE}+que))\b", re.I)


@dataclass
class Number:
    text: str
    value: Decimal
    places: int  # the decimal places it is written to (negative for 2e3: hundreds)
    kind: str = "plain"  # plain | ratio | percent | word
    label: str | None = None  # the name it is written with, `x.grad` in `x.grad = 5`
    line: int = 0
    in_code: bool = False  # inside an inline code span
    start: int = 0  # offset in its line's scanned text
    rounded: bool = False  # the prose says so: "about 37", "≈ 37", "unos 37"


def _number(match, line=0, in_code=False):
    sign = "-" if match.group("sign") else ""
    digits = re.sub(_SPACE, "", match.group("int"))
    frac = match.group("frac") or ""
    exp = int(match.group("exp")[1:]) if match.group("exp") else 0
    value = Decimal(f"{sign}{digits}{frac}").scaleb(exp)
    groups = match.groupdict()
    kind = "ratio" if groups.get("ratio") else "percent" if groups.get("percent") else "plain"
    return Number(match.group(0), value, (len(frac) - 1 if frac else 0) - exp, kind, None, line, in_code, match.start())


def _word_value(text, lang):
    """The value of a run of number words, 0 when it is vague (a scale word without a count: "hundreds")."""
    words, (_, gap) = _WORDS[lang], NUMBER_WORDS[lang]
    total, current = 0, 0
    for word in re.split(gap, text.lower()):
        if word in words["scales"]:
            current = max(current, 1) * words["scales"][word]
            total, current = total + current, 0
        else:
            current += words["units"].get(word, words["small"].get(word, 0))
    return total + current


# ---- what the blocks state ---------------------------------------------------------

# `name = 3`, `name=3`, `name: 3` (and `= +3`): the name a number is written with. Not after an
# operator: in `2 * w = 6` or `a - b = -1` the number is not w's or b's.
_LABEL = re.compile(r"(?:^|(?<=[\s(,;`=\[{]))(?<![*/+\-−·^]\s)(?<![*/+\-−·^])([A-Za-z_][\w.]*(?:\[[^\]\s]*\])?)\s*(?:=|:)\s*\+?$")


def _label(before, *more):
    """The name `before` ends by giving its number (`x.grad = `), or None; most numbers have none."""
    if not before.rstrip().rstrip("+").rstrip().endswith(("=", ":")):
        return None
    start = max(0, len(before) - 120)  # a name and its `=` are short; the whole line would make this quadratic
    return next((m for m in (p.search(before, start) for p in (_LABEL, *more)) if m), None)


@dataclass
class Stated:
    """The numbers a page's blocks state: printed (outputs, pictures) and written (code)."""

    printed: list = field(default_factory=list)  # [Number]
    written: list = field(default_factory=list)
    names: dict = field(default_factory=dict)  # label -> [(Number, printed?)]
    texts: list = field(default_factory=list)  # every block's text (code without comments), for rule 5
    printed_texts: list = field(default_factory=list)  # every output's, as printed, for a misquoted output line (rule 5)
    sequences: list = field(default_factory=list)  # every block's numbers in order, for a quoted vector (rule 5)


_RATIO_LINE = re.compile(r"(?<!/)/(?!/)|\bratio\b|\btimes\b|\bveces\b")
_GROUPED = re.compile(rf"(?<![\w.])\d{{1,3}}(?:{_SPACE}\d{{3}})+(?![\w.])")


_PERCENT_AFTER = re.compile(r"\s?%")
_RATIO_AFTER = re.compile(r"\s?[x×]\b|\s+times\b")


def block_numbers(text, printed, stated):
    for line in text.splitlines():
        divides = printed and _RATIO_LINE.search(line) is not None
        for match in BLOCK_NUMERAL.finditer(line):
            number = _number(match)
            if _PERCENT_AFTER.match(line, match.end()):
                number.kind = "percent"
            elif printed and (divides or _RATIO_AFTER.match(line, match.end())):
                number.kind = "ratio"  # printed as a ratio: `2x`, `3.162 times`, or on a line that divides (`a / b: 9.3`)
            (stated.printed if printed else stated.written).append(number)
            label = _label(line[: match.start()])
            if label:
                stated.names.setdefault(label.group(1), []).append((number, printed))
        for match in _GROUPED.finditer(line):  # `10 000` as the pages write it (its parts are read above too)
            value = Decimal(re.sub(_SPACE, "", match.group(0)))
            (stated.printed if printed else stated.written).append(Number(match.group(0), value, 0))
    stated.texts.append(text)
    if printed:
        stated.printed_texts.append(text)
    stated.sequences.append([_number(m) for m in BLOCK_NUMERAL.finditer(text)])


def code_numbers(code, stated):
    """The numbers the code itself writes: its number tokens, not its comments nor its strings
    (a comment's `# by hand: 5` is prose; a string's numbers count where the block prints them)."""
    values, text, plain = _written_in(code)
    stated.written.extend(Number(str(v), Decimal(repr(v)), 0) for v in values)
    stated.texts.append(text)
    stated.sequences.append([_number(m) for m in BLOCK_NUMERAL.finditer(plain)])


@functools.lru_cache(maxsize=None)
def _written_in(code):
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return tuple(float(m.group(0)) for m in BLOCK_NUMERAL.finditer(code)), code, code
    values, previous = [], None
    for token in tokens:
        if token.type == tokenize.NUMBER and not token.string.endswith(("j", "J")):
            value = float(ast.literal_eval(token.string.replace("_", "")))
            values.append(-value if previous is not None and previous.string == "-" else value)
            values.append(value)
        if token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
            previous = token
    without_comments = tokenize.untokenize(t for t in tokens if t.type != tokenize.COMMENT)
    return tuple(values), without_comments, without_comments


def _diff_code(diff):
    """A diff's code lines, without their `+`/`-`, hunk headers or comments."""
    lines = [line[1:] for line in diff.splitlines() if line[:1] in "+- " and not line.startswith(("+++", "---"))]
    return "\n".join(re.sub(r"#.*", "", line) for line in lines)


def _code_names(code, stated):
    for name, value in _names_in(code):
        stated.names.setdefault(name, []).append((Number(str(value), Decimal(repr(value)), 0), False))


@functools.lru_cache(maxsize=None)
def _names_in(code):
    """Names the code gives numbers: `a, b = Value(1.0), Value(4.0)`, `for c in (1.0, 2.0)`, `lr=0.5`.

    Cached: both languages have the same code."""
    found = []
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return ()  # a block that shows a syntax error: its numbers still count as written

    def constants(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return [node.value]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return [-v for v in constants(node.operand)]
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
            return constants(node.args[0])  # Value(3.0), Tensor(2.0), float(4)
        if isinstance(node, (ast.Tuple, ast.List)):
            return [v for element in node.elts for v in constants(element)]
        return []

    def name(node):
        return ast.unparse(node) if isinstance(node, (ast.Name, ast.Attribute)) else None

    def record(target, value):
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) and len(target.elts) == len(value.elts):
            for t, v in zip(target.elts, value.elts):
                record(t, v)
        elif name(target):
            found.extend((name(target), v) for v in constants(value))

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                record(target, node.value)
        elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.iter, (ast.Tuple, ast.List)):
            for element in node.iter.elts:
                record(node.target, element)
        elif isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg:
                    found.extend((keyword.arg, v) for v in constants(keyword.value))
    return tuple(found)


def _squeeze(text):
    return re.sub(r"\s+", "", text)


def stated_numbers(path, page=None):
    page = page or parse_page(path)
    stated = Stated()
    for block in page.blocks:
        code_numbers(block.code, stated)
        _code_names(block.code, stated)
        for out in block.outputs:
            block_numbers(out.text, True, stated)
    text = Path(path).read_text(encoding="utf-8")
    for include in re.findall(r'^--8<-- "(.*)"$', text, re.M):
        if include.endswith(".diff"):  # the break as code; an included prose snippet is scanned as a page of its own
            code_numbers(_diff_code((ROOT / include).read_text(encoding="utf-8")), stated)
    return stated


def _rounds_to(prose, printed):
    """A printed number, written to at least the prose's places, shown to those places."""
    if printed.value == prose.value:
        return True
    if prose.places <= 0 and not prose.rounded and not re.search(r"\de", prose.text):
        return False  # an integer covers only itself, unless the prose says it rounds ("about 37")
    if printed.places < prose.places:
        return False
    return abs(printed.value - prose.value) <= Decimal(1).scaleb(-prose.places) / 2


def covered(number, stated):
    """Why `number` is covered (a short phrase), or None."""
    if number.kind == "percent":  # printed as a percentage (`66%`), or as exactly that fraction (`0.001` for 0.1 %)
        if any(_rounds_to(number, p) if p.kind == "percent" else p.value == number.value / 100 for p in stated.printed):
            return "printed"
        return None
    if number.kind == "ratio":  # a result: printed as a ratio, not any printed number of that size
        return "printed as a ratio" if any(p.kind == "ratio" and _rounds_to(number, p) for p in stated.printed) else None
    named = stated.names.get(number.label, [])
    if any(printed for _, printed in named):  # the blocks print this name: the number must be one of its values
        if any((_rounds_to(number, n) if printed else n.value == number.value) for n, printed in named):
            return f"printed as {number.label}"
        return None
    if any(_rounds_to(number, p) for p in stated.printed):
        return "printed"
    if any(w.value == number.value for w in stated.written):
        return "written in the code"
    return None


# ---- prose ---------------------------------------------------------------------------

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_HEADING = re.compile(r"^#{1,6} ")
_REFERENCES = re.compile(r"^## .*\{ ?#references ?\}\s*$")
_CODE_SPAN = re.compile(r"(?<!`)`([^`]+)`(?!`)")
_MARKUP = [
    re.compile(r"<!--.*?-->"),  # comments: markers for hooks, not text
    re.compile(r"\]\([^)\s]*\)"),  # a link's target: an address, not text (the link text stays prose)
    re.compile(r"</?[A-Za-z][^>]*>"),  # HTML tags and their attributes
    re.compile(r"https?://\S+"),  # bare addresses
    re.compile(r"\{ ?#[\w-]+ ?\}|\{:[^}]*\}"),  # attribute lists
]


def prose_lines(text):
    """(1-based line, text) of every prose line: no front matter, fences, headings, References, includes."""
    lines = text.splitlines()
    start = lines.index("---", 1) + 1 if lines and lines[0] == "---" else 0
    fence, references = None, False
    for index in range(start, len(lines)):
        line = lines[index]
        if fence:
            if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                fence = None
            continue
        opening = _FENCE.match(line)
        if opening:
            fence = opening.group(1)
            continue
        if line.startswith("## "):
            references = bool(_REFERENCES.match(line))
        if references or _HEADING.match(line) or line.lstrip().startswith("--8<--"):
            continue
        yield index + 1, line


# Words that say a number is rounded, right before it: "about 37", "≈ 37", "unos 37", "en torno al 0.1 %".
_ROUNDED = re.compile(r"(?:\b(?:about|around|roughly|nearly|almost|some|unos|unas|cerca de|alrededor de|aproximadamente|casi|en torno a(?:l)?)|≈|~)\s*`?(?:x\s*(?:≈|=)\s*)?$", re.I)


_CHAINED = re.compile(r"(?:^|(?<=[\s(,;`]))([A-Za-z_][\w.]*)\s*=\s*[-−+*/·()\d.\s]+=\s*\+?$")  # a.grad = -6 + 10 = 4
_TUPLE_TARGET = re.compile(r"[A-Za-z_][\w.]*\s*,\s*$")  # `a, b, c = 2, 3, 4`: c is not 2


def _blank(text, pattern):
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def _unmarked(line):
    for pattern in _MARKUP:
        line = _blank(line, pattern)
    return line


def numbers_in_line(line, number=0, lang="en", spans=None):
    """Every number of one prose line, with its name and whether it sits in inline code.

    `spans`: the line's inline code, (start, end), when a span crosses lines (scan finds them
    per paragraph); by default the line's own."""
    line = _unmarked(line)
    if spans is None:
        spans = [(m.start(1), m.end(1)) for m in _CODE_SPAN.finditer(line)]
    # emphasis marks outside code are markup, not multiplication: `*momentum* 0.1` is no formula
    line = "".join(" " if c == "*" and not any(a <= i < b for a, b in spans) else c for i, c in enumerate(line))
    found = []
    for match in NUMERAL.finditer(line):
        n = _number(match, number, any(a <= match.start() < b for a, b in spans))
        label = _label(line[: match.start()], _CHAINED)
        # `a.grad = -6 + 10 = 4`: -6 is a term, not a.grad's value; 4 is a.grad's
        term = re.match(rf"\s*{_OPERATOR}", line[match.end() :])
        if label and n.kind != "ratio" and not term and not _TUPLE_TARGET.search(line[: label.start()]):
            n.label = label.group(1)
        n.rounded = _ROUNDED.search(line[: match.start()]) is not None
        found.append(n)
    pattern, _ = NUMBER_WORDS[lang]
    for match in pattern.finditer(line):
        vague = re.search(rf"\b(?:{_WORDS[lang]['vague']}){_SPACE}+$", line[: match.start()], re.I)
        value = _word_value(match.group(0), lang)
        # "four times too large" is a result, whatever its size; "used two times" ("dos veces") counts
        ratio = _WORD_RATIO.match(line[match.end() :]) and match.group(0).lower() not in ("a", "un", "una")
        plural = match.group(0).lower() in _WORDS[lang]["plural"]  # "millones de parámetros": many, not a value
        if (value >= 10 or ratio) and not vague and not plural:
            found.append(Number(match.group(0), Decimal(value), 0, "ratio" if ratio else "word", None, number, False,
                                match.start(), _ROUNDED.search(line[: match.start()]) is not None))
    return line, spans, found


# ---- the exemptions: what is not a claim, in one place ---------------------------------

# Parts of the course or of a cited work; "step" is not one: "the loss at step 386" is a claim.
_PARTS = (r"phases?|theory|section|sections|question|questions|lecture|chapter|issue|"
          r"fases?|teoría|sección|secciones|pregunta|preguntas|clase|capítulo")
_SOFTWARE = r"Python|PyTorch|torch|NumPy|numpy|Pyodide|Node(?:\.js)?|MkDocs|Material"
_OPERATOR = r"(?:\*\*|->|[-−+*/·^→])"
_NAME_END = r"[A-Za-z_\u0370-\u03ff)\]]"  # a name (Greek letters too: σ, β1), or a call or an index closing
_NAME_START = r"[A-Za-z_\u0370-\u03ff]"
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s")


@dataclass
class At:
    """A number where it stands: its page, its line (markup blanked), the line above."""

    path: Path
    line: str
    previous: str
    n: Number

    @property
    def before(self):
        return self.line[: self.n.start]

    @property
    def after(self):
        return self.line[self.n.start + len(self.n.text) :]

    def preceded_by(self, pattern):
        return re.search(rf"(?:{pattern})$", self.before, re.I) is not None


@dataclass
class Exemption:
    name: str
    reason: str
    test: object  # At -> bool


WRONG_CHOICE = "a wrong choice of a prediction question"
EXEMPTIONS = [
    Exemption(
        WRONG_CHOICE,
        "`- [ ] ...` is an option a question offers the reader, wrong on purpose (the mistake a learner "
        "makes), not a claim; the right choice, `- [x] ...`, is prose like any other and is checked",
        lambda at: re.match(r"^- \[ \] ", at.line) is not None,
    ),
    Exemption(
        "constant of a formula",
        "a number joined to a name by an operator (1 − σ(x), n − 1, x**2, 1/sqrt(in), h -> 0) belongs to "
        "the formula's definition; the values a page computes come out of it, after an `=` or in an output",
        lambda at: at.n.kind == "plain" and (
            re.search(rf"{_NAME_END}\s*{_OPERATOR}\s*$", at.before) is not None
            or re.match(rf"\s*{_OPERATOR}\s*{_NAME_START}", at.after) is not None),
    ),
    Exemption(
        "part of the course or of a source",
        "a number after phase, theory, section, question, lecture, chapter or issue (fase, teoría, "
        "sección, pregunta, clase, capítulo) names a part, as a title does: phase 7 is the course's seventh",
        lambda at: not at.n.in_code and at.n.kind == "plain" and (
            at.preceded_by(rf"\b(?:{_PARTS})\s+(?:\*\*)?")
            or at.preceded_by(rf"\b(?:{_PARTS})\s+\d+\s*(?:,|and|to|or|y|a|o|-|–)\s*(?:la\s+)?")),
    ),
    Exemption(
        "list or question marker",
        "`1.` opening a list item and `**1.**` opening a question give the item's place in its list",
        lambda at: re.match(r"^\s*(?:\*\*)?$", at.before) is not None
        and re.match(r"^\.(?:\*\*)?\s", at.after) is not None
        and (not at.previous.strip() or _LIST_ITEM.match(at.previous) is not None or at.previous.startswith(" ")),
    ),
    Exemption(
        "software version",
        "a number right after Python, PyTorch, NumPy, Pyodide, Node.js or MkDocs names a release",
        lambda at: at.preceded_by(rf"\b(?:{_SOFTWARE})\s+v?"),
    ),
    Exemption(
        "year",
        "a year in a citation, (2015) or Kingma & Ba, 2015, dates a source",
        lambda at: at.n.kind == "plain" and at.n.places <= 0 and 1900 <= at.n.value <= 2099
        and at.preceded_by(r"\(|,\s|al\.\s"),
    ),
    Exemption(
        "the translation guide",
        "its numbers show how to write a number (0.1 %, never 0,1 %), not what minigrad does",
        lambda at: at.path.parent.name == "contributing" and at.path.name.startswith("translation."),
    ),
]


def exemption(at):
    return next((e for e in EXEMPTIONS if e.test(at)), None)


# ---- the check -----------------------------------------------------------------------


@dataclass
class Finding:
    line: int
    number: Number
    why: str  # covered: why; uncovered: ""
    exempt: Exemption | None = None
    vector: str | None = None  # the quoted vector it belongs to, when that is no run of a block's numbers


_BRACKETED = re.compile(r"[\[(][\s\[\](),.\d\-−e]*[\])]")
_VECTOR = re.compile(r"[\s\[\](),.\d\-−e]+")


def vector_of(span):
    """A span that is only numbers (a vector, a shape, a list of values): its numbers, or None."""
    if not _VECTOR.fullmatch(span):
        return None
    found = [_number(m) for m in NUMERAL.finditer(span.replace("−", "-"))]
    return found if len(found) >= 2 else None


def quotes_vector(numbers, stated):
    """Rule 5 for a vector: its numbers, in order, are a run of one block's numbers (each to its places)."""
    k = len(numbers)
    for sequence in stated.sequences:
        for i in range(len(sequence) - k + 1):
            if all(_rounds_to(n, sequence[i + j]) for j, n in enumerate(numbers)):
                return True
    return False


def quotes_a_block(span, texts):
    """Rule 5: a span with a name or a word in it, found in a block as a whole, spaces aside
    (`x.grad=1` quotes `x.grad = 1`, not `x.grad = 12` nor `w.x.grad = 1`), each end at a
    boundary of the block's own text."""
    if not re.search(r"[A-Za-z_]", span):
        return False  # a bare numeral, a shape: its numbers go through rules 1-3
    head = r"(?<![\w.])" if re.match(r"[\w.]", span) else ""
    tail = r"(?![\w]|\.\d)" if re.search(r"\w$", span) else ""
    pattern = re.compile(head + r"\s*".join(map(re.escape, span)) + tail)
    return any(pattern.search(text) for text in texts)


_SPAN_NUMERAL = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?![\w])")


def misquotes(span, texts):
    """A span that is an output's words with other numbers (`step 63: loss 0.0385` where a block
    prints `step 63: loss 0.0384`; a span of words and spaces, as an output line is, not a call
    such as `sum(axis=1)`): a quote gone wrong. Its numbers are then uncovered together, however
    many of them are printed elsewhere."""
    span = span.strip()
    parts = _SPAN_NUMERAL.split(span)
    if len(parts) < 2 or " " not in span or len(re.findall(r"[A-Za-z]{2,}", "".join(parts))) < 2:
        return False  # no number, or fewer than two words to place it by: `x = 20` states a value, it quotes nothing
    words = [r"\s+".join(map(re.escape, part.split())) + (r"\s*" if part[-1:].isspace() else "") for part in parts]
    words = [(r"\s*" if part[:1].isspace() else "") + w for part, w in zip(parts, words)]
    skeleton = re.compile(_SPAN_NUMERAL.pattern.join(words))
    return any(skeleton.search(text) for text in texts)


_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s#]+\.md)(?:#[^)\s]*)?\)")


@functools.lru_cache(maxsize=None)
def _title(path):
    """A page's title: its first `# ` heading, markup aside."""
    path = Path(path)
    if not path.exists():
        return None
    heading = next((line[2:] for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("# ")), None)
    return _plain(heading) if heading else None


def _plain(text):
    return re.sub(r"\s+", " ", re.sub(r"[*_`]", "", text)).strip().lower()


def _titles_blanked(path, line):
    """A link whose text is the title of the page it links to is that page's heading: not prose (headings aren't)."""
    if "](" not in line:
        return line

    def blank(match):
        title = _target_title(path.parent, match.group(2), language(path))
        return " " * len(match.group(0)) if title == _plain(match.group(1)) else match.group(0)

    return _LINK.sub(blank, line)


@functools.lru_cache(maxsize=None)
def _target_title(folder, link, lang):
    target = (folder / link).resolve()
    return _title(target.with_name(target.name[:-3] + ".es.md") if lang == "es" else target)


def scan(path, text=None):
    """Every number of the page's prose, covered, exempted or neither.

    `text` replaces the page's prose (the planted-number tests: never write a page another
    worker may be reading); the blocks are the page's own."""
    path = Path(path)
    stated = stated_numbers(path)
    findings, lines = [], (path.read_text(encoding="utf-8") if text is None else text).splitlines()
    for paragraph in _paragraphs(prose_lines("\n".join(lines))):
        unmarked = [_unmarked(_titles_blanked(path, line)) for _, line in paragraph]
        joined, starts = "\n".join(unmarked), [0]
        for line in unmarked:
            starts.append(starts[-1] + len(line) + 1)
        code = []  # (start, end, quoted: True/False, or None when rule 5 does not apply) per inline code span
        for m in _CODE_SPAN.finditer(joined):
            vector = vector_of(m.group(1))
            squeezed = _squeeze(m.group(1))
            quoted = quotes_vector(vector, stated) if vector else (
                quotes_a_block(squeezed, stated.texts) or (False if misquotes(m.group(1), stated.printed_texts) else None))
            code.append((m.start(1), m.end(1), quoted))
            if quoted is None:  # `eval:  [2. 4. 6. 8.]` not found whole: its vector must still be a block's
                for part in _BRACKETED.finditer(m.group(1)):
                    numbers = vector_of(part.group(0))
                    if numbers:
                        code.append((m.start(1) + part.start(), m.start(1) + part.end(), quotes_vector(numbers, stated)))
        for (number, _), line, start in zip(paragraph, unmarked, starts):
            end = start + len(line)
            spans = [(max(a, start) - start, min(b, end) - start, q) for a, b, q in code if a < end and b > start]
            scanned, _, found = numbers_in_line(line, number, language(path), [(a, b) for a, b, _ in spans])
            quoted = [(a, b) for a, b, q in spans if q is True]
            wrong = [(a, b) for a, b, q in spans if q is False]  # a vector no block has: a wrong quote
            for n in found:
                vector = next((line[a:b] for a, b in wrong if a <= n.start < b), None)
                if vector is not None:  # a vector stands or falls whole, unless the line is no claim at all
                    at = At(path, scanned, lines[number - 2] if number > 1 else "", n)
                    rule = next((e for e in EXEMPTIONS if e.name == WRONG_CHOICE and e.test(at)), None)
                    findings.append(Finding(number, n, "", rule, vector=None if rule else vector))
                    continue
                if any(a <= n.start < b for a, b in quoted):
                    findings.append(Finding(number, n, "quotes a block"))
                    continue
                why = covered(n, stated)
                rule = None if why else exemption(At(path, scanned, lines[number - 2] if number > 1 else "", n))
                findings.append(Finding(number, n, why or "", rule))
    return findings


def _paragraphs(numbered_lines):
    """Runs of consecutive, non-blank prose lines: an inline code span never leaves its paragraph."""
    paragraph, last = [], None
    for number, line in numbered_lines:
        if not line.strip() or (last is not None and number != last + 1):
            if paragraph:
                yield paragraph
            paragraph = []
        if line.strip():
            paragraph.append((number, line))
        last = number
    if paragraph:
        yield paragraph


def language(path):
    return "es" if Path(path).name.endswith(".es.md") else "en"


def pages():
    """Every page and prose snippet, both languages."""
    return sorted(DOCS.rglob("*.md"))


def relative(path):
    try:
        return Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def problems(path, text=None):
    """One message per uncovered number, naming page and line."""
    out, vectors = [], set()
    for f in scan(path, text):
        if f.vector is not None:
            if (f.line, f.vector) not in vectors:
                vectors.add((f.line, f.vector))
                out.append(f"{relative(path)}:{f.line}: the quoted numbers {f.vector.strip()!r} are, in that order, "
                           "no run of the numbers any block of the page prints or writes")
        elif not f.why and not f.exempt:
            kind = {"ratio": "ratio ", "percent": "percentage ", "word": "number word "}.get(f.number.kind, "")
            named = f" (written as {f.number.label} = ..., and no block states {f.number.label} with it)" if f.number.label else ""
            out.append(f"{relative(path)}:{f.line}: {kind}{f.number.text.strip()!r}{named} is printed by no checked block of the page, "
                       "stated by none of its code, and no rule exempts it")
    return out
