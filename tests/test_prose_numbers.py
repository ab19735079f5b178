"""Every number in the prose of every page, both languages, is printed by one of
the page's checked blocks, written in its code, or not a claim by a rule
(tests/prose_numbers.py says what a number is, what covers it, and the rules).

A number that no block states goes in the page's claims block: a
`{.python .claims}` block, folded at the end of a section, that CI runs like
any other; these tests also check that each claims block is folded, titled in
the page's language, has its output, and stands alone (no chain joins it).
The checker itself is tested by planting false numbers in pages' prose.
"""

import re
from decimal import Decimal
from pathlib import Path

import pytest

import prose_numbers as pn
from markdown_blocks import parse_page

PAGES = pn.pages()


@pytest.mark.parametrize("path", PAGES, ids=pn.relative)
def test_every_prose_number_is_printed_written_or_exempted(path):
    problems = pn.problems(path)
    assert not problems, (
        f"{len(problems)} number(s) in the prose that no checked block of the page states "
        "(print it in the page's claims block, correct the prose, or see the rules in tests/prose_numbers.py):\n"
        + "\n".join(problems)
    )


# ---- the claims blocks --------------------------------------------------------------


def claims_problems(path):
    lang, lines = pn.language(path), path.read_text(encoding="utf-8").splitlines()
    page, name, problems = parse_page(path), pn.relative(path), []
    notes = [i for i, line in enumerate(lines) if line == '<details class="note" markdown>']
    for i in notes:
        if i + 1 >= len(lines) or lines[i + 1] != f"<summary>{pn.CLAIMS_TITLE[lang]}</summary>":
            problems.append(f"{name}:{i + 1}: a claims note must open with <summary>{pn.CLAIMS_TITLE[lang]}</summary>")
    closes = [i for i, line in enumerate(lines) if line == "</details>"]
    for index, block in enumerate(page.blocks):
        if not block.claims:
            continue
        at = block.line - 1
        opening = max((i for i in notes if i < at), default=None)
        closing = min((i for i in closes if i > at), default=None)
        if opening is None or closing is None or any(opening < i < at for i in closes):
            problems.append(f"{name}:{block.line}: a claims block must sit in a folded note (<details class=\"note\" markdown>)")
        if block.output(False) is None:
            problems.append(f"{name}:{block.line}: a claims block shows what it prints (an output block under it)")
        if block.continuation or block.notest:
            problems.append(f"{name}:{block.line}: a claims block runs on its own (no continuation, no notest)")
        later = page.blocks[index + 1 : index + 2]
        if later and later[0].continuation:
            problems.append(f"{name}:{later[0].line}: continues a claims block: put the claims after the chain")
    for i in notes:
        closing = min((c for c in closes if c > i), default=len(lines))
        if not any(b.claims and i < b.line - 1 < closing for b in page.blocks):
            problems.append(f"{name}:{i + 1}: a claims note without a claims block")
    return problems


@pytest.mark.parametrize("path", PAGES, ids=pn.relative)
def test_claims_blocks_are_folded_titled_and_stand_alone(path):
    problems = claims_problems(path)
    assert not problems, "\n".join(problems)


def test_a_claims_block_outside_its_note_or_joined_by_a_chain_fails(tmp_path):
    page = pn.DOCS / "theory" / "02-graphs.md"
    text = page.read_text(encoding="utf-8")
    copy = tmp_path / "02-graphs.md"
    copy.write_text(text.replace('<details class="note" markdown>\n', "", 1), encoding="utf-8")
    assert any("must sit in a folded note" in p for p in claims_problems(copy))
    claims_end = text.index("</details>")
    joined = text[:claims_end] + "</details>\n\n```{.python continuation}\nprint(1)\n```\n" + text[claims_end + len("</details>"):]
    copy.write_text(joined, encoding="utf-8")
    assert any("continues a claims block" in p for p in claims_problems(copy))


# ---- the checker, on planted numbers ------------------------------------------------

# (page, what the prose says, a false version of it, the number that must be reported)
PLANTED = [
    # a hand calculation, wrong: a.grad is printed (as 4), so a 5 printed elsewhere does not cover it
    ("theory/03-worked-backprop.md", "- `a.grad = -6 + 10 = 4`", "- `a.grad = -6 + 10 = 5`", "5"),
    ("theory/03-worked-backprop.es.md", "- `a.grad = -6 + 10 = 4`", "- `a.grad = -6 + 10 = 5`", "5"),
    # a quoted output, one digit off
    ("breaks/topological-order-not-reversed.md", "`tanh(0.5)` gives `0.7864`", "`tanh(0.5)` gives `0.7865`", "0.7865"),
    ("breaks/topological-order-not-reversed.es.md", "`tanh(0.5)` da `0.7864`", "`tanh(0.5)` da `0.7865`", "0.7865"),
    # a result no block prints, and a ratio where 3 is printed but no ratio of 3
    ("breaks/sgd-sign-flipped.md", "Healthy, all four runs learn:", "Healthy, all four runs learn, the loss falls to 0.37:", "0.37"),
    ("breaks/skip-unbroadcast.md", "it only uses scalars,", "it only uses scalars, and misses a 3x error,", "3x"),
    # one wrong element of a quoted vector, though 9 is printed elsewhere on the page
    ("breaks/dropout-on-in-eval.md", "`eval:  [2. 4. 6. 8.]`", "`eval:  [2. 4. 6. 9.]`", "[2. 4. 6. 9.]"),
    ("diagnostics.es.md", "en `2, 3, 4`", "en `2, 3, 5`", "2, 3, 5"),
    # a number word, and a percentage, in Spanish
    ("theory/07-testing-autograd.es.md", "para los casos de los diagnósticos", "para veinte casos", "veinte"),
    ("breaks/adamw-decay-in-the-gradient.es.md", "en torno al 0.1 % por paso", "en torno al 0.2 % por paso", "0.2 %"),
    # a quoted output line with one number off, though that number is printed on the next line
    ("breaks/bce-log-of-sigmoid.md", "`step 63: loss 0.0384  largest logit 36.7`", "`step 63: loss 0.0384  largest logit 36.8`",
     "step 63: loss 0.0384  largest logit 36.8"),
    ("breaks/clip-grad-norm-per-tensor.es.md", "`returned norm: 50.0001`", "`returned norm: 50.001`", "returned norm: 50.001"),
]


@pytest.mark.parametrize("where, said, planted, number", PLANTED, ids=[f"{p[0]}:{p[3]}" for p in PLANTED])
def test_a_planted_false_number_fails_naming_page_and_line(where, said, planted, number):
    path = pn.DOCS / where
    text = path.read_text(encoding="utf-8")
    assert said in text, f"{where} no longer says {said!r}: choose another plant"
    line = text[: text.index(said)].count("\n") + 1
    problems = pn.problems(path, text.replace(said, planted, 1))
    assert [p for p in problems if p.startswith(f"docs/{where}:{line}: ") and f"{number}'" in p], problems
    assert len(problems) == 1, f"only the planted number should be reported: {problems}"


# ---- the rules, one by one ----------------------------------------------------------


def numbers(line, lang="en"):
    return pn.numbers_in_line(line, 1, lang)[2]


def stated(*printed, written=()):
    s = pn.Stated()
    for text in printed:
        pn.block_numbers(text, True, s)
    for text in written:
        pn.block_numbers(text, False, s)
    return s


def is_covered(prose, *printed, written=(), lang="en"):
    [number] = numbers(prose, lang)
    return pn.covered(number, stated(*printed, written=written)) is not None


def test_what_counts_as_a_number():
    assert [n.text for n in numbers("`x.grad = 5` and 0.6931, -0.7, −3, 2.06e-9, 10 000 and 1.25 %")] == [
        "5", "0.6931", "-0.7", "−3", "2.06e-9", "10 000", "1.25 %"]
    assert [n.text for n in numbers("float64, W1, x2, a 3D plot, 2h, PyTorch 2.13.0, `y = 3x - 20`")] == ["20"]
    assert [(n.text, n.kind) for n in numbers("a 3x error, 3.162 times what it should be")] == [("3x", "ratio"), ("3.162 times", "ratio")]
    assert [(n.value, n.kind) for n in numbers("more than ten thousand times smaller, four times too large")] == [
        (Decimal(10000), "ratio"), (Decimal(4), "ratio")]
    assert [n.value for n in numbers("twenty cases, two steps, a few hundred steps, thousands of them")] == [Decimal(20)]
    assert [n.value for n in numbers("veinte casos, dos veces, mil pasos, millones de parámetros", "es")] == [Decimal(20), Decimal(1000)]


def test_rounding_covers_the_places_the_prose_writes_and_no_more():
    assert is_covered("the loss is 0.693", "loss 0.6931")
    assert not is_covered("the loss is 0.694", "loss 0.6931")
    assert is_covered("about `2e-9`", "2.0612e-09")
    assert is_covered("it is 5", "x.grad = 5.0")
    assert not is_covered("it is 0", "0.3")  # an integer covers only itself
    assert is_covered("past about 37", "36.8") and not is_covered("past 37", "36.8")


def test_code_states_inputs_but_not_results():
    assert is_covered("with lr 0.5", written=["opt = SGD(ps, lr=0.5)"])
    assert not is_covered("a 3x error", "b.grad = 3", written=["x = 3"])  # a ratio is printed as one, or not covered
    assert is_covered("a 3x error", "healthy / broken: 3.0")
    assert is_covered("loses 0.1 % per step", "it loses 0.1%") and is_covered("loses 0.1 % per step", "factor 0.001")
    assert not is_covered("loses 0.1 % per step", "lr = 0.1", written=["lr = 0.1"])


def test_a_quoted_vector_stands_or_falls_whole():
    s = stated("x.grad [[0.09, 0.2447, -0.3348]]", written=["x = np.array([1.0, 2.0, 4.0, 7.0])"])
    vector = lambda text: pn.quotes_vector(pn.vector_of(text), s)  # noqa: E731
    assert vector("[0.09, 0.2447, -0.3348]") and vector("[0.09 0.245]") and vector("[1, 2, 4, 7]")
    assert not vector("[0.09, 0.2447, -0.3349]") and not vector("[1, 2, 7, 4]") and not vector("[2, 4, 7, 8]")


def test_a_quote_is_found_spaces_aside_and_ends_at_the_block_s_own_boundaries():
    """Rule 5 reads the block's text as it is: a quoted line ends where the block's line does."""
    texts = ["step 64: loss nan  largest logit 36.8\nreturned norm: 50.0001\nw.grad: [[0.6 0.8]]", "x.grad = 12"]
    assert pn.quotes_a_block("largestlogit36.8", texts) and pn.quotes_a_block("returnednorm:50.0001", texts)
    assert not pn.quotes_a_block("x.grad=1", texts) and not pn.quotes_a_block("grad:[[0.6", ["ww.grad: [[0.6"])
    assert pn.misquotes("largest logit 36.9", texts) and not pn.misquotes("x = 20", ["x = 2"])
    assert not pn.misquotes("sum(axis=1)", ["sum(axis=0)"])  # a call, not an output line


def test_a_comment_or_a_string_in_the_code_states_nothing():
    s = pn.Stated()
    pn.code_numbers('x = 3.0  # by hand: 17\nprint("and 23")\n', s)
    assert {float(n.value) for n in s.written} == {3.0}


def test_a_named_number_must_be_one_of_that_name():
    assert not is_covered("`x.grad = 2`", "x.grad = 1", "y.grad = 2")
    assert is_covered("`x.grad = 1`", "x.grad = 1", "y.grad = 2")
    assert [pn.covered(n, stated("a.grad = 4", "via e: a -6", "via f: a 10")) for n in numbers("`a.grad = -6 + 10 = 4`")] == [
        "printed", "printed", "printed as a.grad"]  # -6 and 10 are terms; 4 is a.grad's
    assert [n.label for n in numbers("`a.grad = -6 + 10 = 5`")] == [None, None, "a.grad"]
    assert is_covered("`w = 3`", "loss 3", written=["w = Value(0.0)"])  # w is never printed by name: any 3 will do


EXAMPLES = [  # (exemption, a number it exempts, a number it must not)
    ("a wrong choice of a prediction question", "- [ ] It ends at 0.25", "- [x] It ends at 0.25"),
    ("constant of a formula", "`1 - σ(x)` at 20", "the loss is 1"),
    ("part of the course or of a source", "phase 7 and theory 03", "the loss at step 386"),
    ("list or question marker", "\n**3.** Which diagnostic?", "\nwhich prints\n100. On a quadratic"),
    ("software version", "Python 3.11 or newer", "a loss of 3.11"),
    ("year", "Kingma & Ba, 2015", "after 2015 steps"),
]


@pytest.mark.parametrize("name, exempt, claim", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_each_exemption_exempts_what_it_names_and_not_a_claim_next_to_it(name, exempt, claim):
    def exempted(text):
        previous, _, line = text.rpartition("\n")
        rules = [pn.exemption(pn.At(Path("docs/page.md"), pn.numbers_in_line(line)[0], previous, n)) for n in numbers(line)]
        return [rule.name if rule else None for rule in rules]

    assert name in exempted(exempt), exempted(exempt)
    assert name not in exempted(claim), exempted(claim)


def test_every_exemption_says_why():
    assert len({e.name for e in pn.EXEMPTIONS}) == len(pn.EXEMPTIONS)
    assert all(len(e.reason) > 30 for e in pn.EXEMPTIONS)


def test_a_wrong_choice_quoting_a_vector_no_block_prints_is_exempt_and_the_right_one_is_not(tmp_path):
    page = pn.DOCS / "breaks" / "mean-forgets-n.md"
    text = page.read_text(encoding="utf-8")
    planted = text.replace("## Procedure { #procedure }", "**9.** Planted?\n\n- [ ] `[7.5 8.25 9.125]`\n- [x] `[7.5 8.25 9.125]`\n\n## Procedure { #procedure }", 1)
    at = planted.split("\n").index("- [ ] `[7.5 8.25 9.125]`") + 1
    findings = pn.scan(page, planted)
    wrong = [f for f in findings if f.line == at]
    right = [f for f in findings if f.line == at + 1]
    assert wrong and all(f.exempt is not None and f.vector is None for f in wrong), wrong
    assert right and all(f.vector is not None for f in right), right


def test_a_number_planted_in_a_right_choice_is_caught():
    page = pn.DOCS / "breaks" / "overwrite-grad.md"
    text = page.read_text(encoding="utf-8")
    right = next(line for line in text.splitlines() if line.startswith("- [x] ") and "-2.0" in line)
    planted = text.replace(right, right.replace("-2.0", "-2.5"), 1)
    at = planted.splitlines().index(right.replace("-2.0", "-2.5")) + 1
    assert [f.number.text for f in pn.scan(page, planted) if f.line == at and not f.why and not f.exempt] == ["-2.5"]
    assert not [f for f in pn.scan(page, text) if f.line == at and not f.why and not f.exempt]
