"""The mystery break: every break of the catalogue can be drawn, is caught by the
page's own diagnostics block, and is revealed with a link to its page.

The draw and the verdict live in runner/pages/mystery.js; they are
pure functions, run here with Node (the same file the browser loads) on the
options minigrad_site/pages/mystery.py renders from the catalogue."""

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from markdown_blocks import parse_page
from minigrad import breaks
from minigrad.runner.blocks import run_chain

ROOT = Path(__file__).resolve().parents[1]
MYSTERY_JS = ROOT / "runner" / "pages" / "mystery.js"
CATALOGUE = breaks.catalogue()


from minigrad_site.pages import mystery as hook  # noqa: E402


def candidates(lang="en"):
    """The guessable breaks as the page renders them: {slug, phase, href, title}."""
    options = re.findall(r'<option value="([^"]+)" data-phase="(\d+)" data-href="([^"]+)">([^<]*)</option>', hook.render(lang))
    return [{"slug": s, "phase": p, "href": h, "title": html.unescape(t)} for s, p, h, t in options]


def test_the_page_offers_every_break_of_the_catalogue_to_guess_with_its_page():
    for lang in ("en", "es"):
        shown = candidates(lang)
        assert [c["slug"] for c in shown] == [b.slug for b in CATALOGUE]
        for c, b in zip(shown, CATALOGUE):
            assert c["title"] == hook.plain(b.title[lang]) and c["phase"] == str(b.phase)  # an <option> holds text: Markdown read, not shown
            assert c["href"] == f"../breaks/{b.slug}/"  # the mystery page sits at the docs root
            assert (ROOT / "docs" / "breaks" / f"{b.slug}.md").exists()


@pytest.fixture(scope="module")
def node_results():
    """draw() and verdict() of mystery.js on every break, in one Node process."""
    if shutil.which("node") is None:
        pytest.fail("node is needed to test mystery.js (it is installed with npm)")
    script = """
    const { draw, verdict, mulberry32 } = require(process.argv[1]);
    const options = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const n = options.length, out = { drawn: [], withinPhase: [], right: [], wrong: [], seeded: [] };
    options.forEach((c, i) => {
      out.drawn.push(draw(options, "", (i + 0.5) / n).slug);
      const pool = options.filter((o) => o.phase === c.phase);
      out.withinPhase.push(draw(options, c.phase, (pool.indexOf(c) + 0.5) / pool.length).slug);
      out.right.push(verdict(options, c.slug, c.slug));
      out.wrong.push(verdict(options, c.slug, options[(i + 1) % n].slug));
    });
    const a = mulberry32(7), b = mulberry32(7);
    for (let k = 0; k < 5; k++) out.seeded.push([draw(options, "", a()).slug, draw(options, "", b()).slug]);
    out.phaseOnly = [...new Set(Array.from({ length: 200 }, (_, k) => draw(options, "8", k / 200).phase))];
    console.log(JSON.stringify(out));
    """
    done = subprocess.run(
        ["node", "-e", script, str(MYSTERY_JS)], input=json.dumps(candidates()), capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def test_every_break_can_be_drawn_in_any_phase_and_within_its_own(node_results):
    slugs = [b.slug for b in CATALOGUE]
    assert node_results["drawn"] == slugs
    assert node_results["withinPhase"] == slugs
    assert node_results["phaseOnly"] == ["8"]  # a phase draws only that phase's breaks
    assert all(x == y for x, y in node_results["seeded"])  # a seed gives the same draws


def test_every_break_is_revealed_with_a_link_to_its_page_and_a_wrong_guess_is_wrong(node_results):
    for b, right, wrong in zip(CATALOGUE, node_results["right"], node_results["wrong"]):
        title = hook.plain(b.title["en"])
        assert right == {"right": True, "guessTitle": title, "link": {"href": f"../breaks/{b.slug}/", "title": title}}
        assert wrong["right"] is False and wrong["link"] is None


def diagnostics_block():
    page = parse_page(ROOT / "docs" / "mystery.md")
    block = page.blocks[0]
    assert "DIAGNOSTICS" in block.code, "the mystery page's first block runs the standard diagnostics"
    return page, block


@pytest.mark.parametrize("slug", [b.slug for b in CATALOGUE])
def test_every_break_is_caught_by_the_diagnostics_the_page_runs(slug):
    page, block = diagnostics_block()
    result = run_chain(page.runnable_chain(block), slug=slug)
    assert result.error is None, result.traceback
    caught = [line for line in result.output.splitlines() if " caught: " in line]
    assert caught, f"no diagnostic on docs/mystery.md catches {slug}:\n{result.output}"
    assert "caught" not in block.output(False).text  # healthy, the same block catches nothing
