"""The pages as a whole: both languages, same code and anchors, every block run,
every break with its page and every page with its break."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from markdown_blocks import PYTHON, parse_info, parse_page, split_comments
from minigrad import breaks

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
ENGLISH = sorted(p for p in DOCS.rglob("*.md") if not p.name.endswith(".es.md"))
SPANISH = sorted(DOCS.rglob("*.es.md"))
BREAK_SECTIONS = ["hypothesis", "the-break", "prediction", "procedure", "expected-failure-mode", "diagnosis", "lesson", "references"]


def spanish_of(page):
    return page.with_name(page.name[:-3] + ".es.md")


def english_of(page):
    return page.with_name(page.name[: -len(".es.md")] + ".md")


def rel(p):
    return p.relative_to(ROOT).as_posix()


def test_every_page_exists_in_both_languages():
    missing = [rel(spanish_of(p)) for p in ENGLISH if not spanish_of(p).exists()]
    missing += [rel(english_of(p)) for p in SPANISH if not english_of(p).exists()]
    assert not missing, f"pages missing: {missing}"


# The outputs a translation may word differently: what our own code prints in the page's language,
# the doctor's report and its command's usage (DESIGN.md, principle 5). CI runs a chain in its page's
# language (conftest.py) and checks the output each page shows; here both pages must show one, each in
# its own words.
SPEAKS_THE_PAGE_LANGUAGE = re.compile(r"\bcheck_(engine|folder)\(|\bcommand\.usage\(")


def _shown(page, block, output):
    worded = any(SPEAKS_THE_PAGE_LANGUAGE.search(b.code) for b in [*page.chain(block), block])
    return (output.broken, None if worded else output.text)


def structure(path):
    """What must be identical in both languages: code (comments aside), outputs, anchors, includes, markers."""
    text = path.read_text(encoding="utf-8")
    page = parse_page(path)
    fences = [parse_info(m.group(1)) for m in re.finditer(r"^```(.*)$", text, re.M) if m.group(1).strip()]
    return {
        "front matter": page.front_matter,
        "anchors": re.findall(r"^#+ .*\{ ?#([\w-]+) ?\}\s*$", text, re.M),
        "fence kinds": [(lang, sorted(opts), sorted((k, v) for k, v in attrs.items() if k != "title"), sorted(cls)) for lang, opts, attrs, cls in fences],
        "python code": [split_comments(b.code) for b in page.blocks],
        "outputs": [[_shown(page, b, o) for o in b.outputs] for b in page.blocks],
        # an included prose snippet has one file per language (docs/snippets/x.md, x.es.md)
        "includes": [re.sub(r'\.es\.md"$', '.md"', i) for i in re.findall(r'^--8<-- ".*"$', text, re.M)],
        "markers": re.findall(r"<!-- .*? -->", text),
        "links": sorted(set(re.findall(r"\]\(([^)#\s]+\.md)(?:#[\w-]+)?\)", text))),
    }


@pytest.mark.parametrize("english", ENGLISH, ids=rel)
def test_translation_has_the_same_code_outputs_and_anchors(english):
    spanish = spanish_of(english)
    if not spanish.exists():
        pytest.fail(f"{rel(spanish)} is missing")
    en, es = structure(english), structure(spanish)
    for key in en:
        assert en[key] == es[key], f"{rel(spanish)} differs from {rel(english)} in its {key}"


def python_fences():
    """(page, line, options) of every Python fence on every page, read independently of pytest."""
    for path in ENGLISH + SPANISH:
        for block in parse_page(path).blocks:
            yield path, block


def test_every_python_block_is_collected_and_none_escapes():
    expected = {(rel(p), b.line) for p, b in python_fences() if not b.notest}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "--collect-only", "-q", "-p", "no:cacheprovider", "docs"],
        cwd=ROOT, capture_output=True, text=True,
    )
    collected = set()
    for line in done.stdout.splitlines():
        m = re.match(r"(docs/\S+\.md)::\[CodeFence#\d+\]\[line:(\d+)\]", line)
        if m:
            collected.add((m.group(1), int(m.group(2))))
    assert collected == expected, (
        f"collected but not a Python block: {sorted(collected - expected)}; "
        f"Python blocks never run: {sorted(expected - collected)}"
    )


def test_blocks_marked_not_to_run_say_why_visibly():
    marked = [(rel(p), b.line, b.attrs.get("title", "")) for p, b in python_fences() if b.notest]
    silent = [m for m in marked if not m[2].strip()]
    assert not silent, f"notest blocks need a visible title=\"...\" saying why they do not run: {silent}"
    print(f"{len(marked)} Python blocks are marked not to run")


def test_no_stray_python_fence_spelling():
    """A block spelled ```py3 or ```Python would escape both the runner and the count."""
    for path in ENGLISH + SPANISH:
        for m in re.finditer(r"^```\{?\.?([\w-]+)", path.read_text(encoding="utf-8"), re.M):
            lang = m.group(1)
            known = PYTHON | {"text", "bash", "diff", "console", "toml", "yaml", "python", "dot", "json"}  # dot, json: pictures
            assert lang in known, f"{rel(path)}: unknown fence language {lang}"


# ---- the catalogue and the break pages ---------------------------------------------------

CATALOGUE = {b.slug: b for b in breaks.catalogue()}
BREAK_PAGES = sorted(p for p in (DOCS / "breaks").glob("*.md") if not p.name.endswith(".es.md"))


def test_every_break_has_a_page_and_every_page_a_break():
    pages = {p.stem for p in BREAK_PAGES}
    assert pages == set(CATALOGUE), f"breaks without a page: {set(CATALOGUE) - pages}; pages without a break: {pages - set(CATALOGUE)}"


def test_every_break_page_is_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text()
    missing = [slug for slug in CATALOGUE if f"breaks/{slug}.md" not in nav]
    assert not missing, f"break pages missing from mkdocs.yml nav: {missing}"


@pytest.mark.parametrize("path", BREAK_PAGES + [spanish_of(p) for p in BREAK_PAGES], ids=rel)
def test_break_page_follows_the_template(path):
    slug = path.name.split(".")[0]
    text = path.read_text(encoding="utf-8")
    page = parse_page(path)
    assert page.break_slug == slug, f"{rel(path)}: front matter minigrad_break should be {slug}"
    anchors = re.findall(r"^## .*\{ ?#([\w-]+) ?\}\s*$", text, re.M)
    assert anchors == BREAK_SECTIONS, f"{rel(path)}: sections {anchors}, the template is {BREAK_SECTIONS}"
    assert f'--8<-- "minigrad/breaks/{slug}.diff"' in text, f"{rel(path)}: must include its diff from the catalogue"
    shows_failure = [b for b in page.blocks if b.broken[0] != "same"]
    assert shows_failure, f"{rel(path)}: no block shows what the break does"
    assert page.blocks and all(not b.notest for b in page.blocks), f"{rel(path)}: every procedure block must run"
