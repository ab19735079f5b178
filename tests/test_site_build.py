"""The site builds with --strict (links, #anchors, nav) in both languages, and
ships what the browser runner needs."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from minigrad import breaks
from minigrad.runner.predictions import parse, section

ROOT = Path(__file__).resolve().parents[1]
REPO = "https://github.com/example/minigrad-breaks"
PYTHON_BLOCK = re.compile(r'<div class="language-python highlight"([^>]*)>')
BLOCK_AND_CHAIN = re.compile(r'data-block="(\d+)" data-chain="([\d ]*)"')
FORM = re.compile(r'<form [^>]*data-mg="prediction"[^>]*>')
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')


def test_strict_build_in_both_languages(tmp_path):
    # Without NO_MKDOCS_2_WARNING, as the README's `uv run mkdocs serve`: mkdocs.yml keeps Material's banner quiet.
    env = {k: v for k, v in os.environ.items() if k != "NO_MKDOCS_2_WARNING"} | {"MINIGRAD_PYODIDE": "cdn", "MINIGRAD_REPO_URL": REPO}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path)], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "end of life" not in done.stderr, done.stderr[:500]
    assert "not compatible with theme.features = navigation.instant" not in done.stderr
    for page in ("breaks/skip-unbroadcast/index.html", "es/breaks/skip-unbroadcast/index.html"):
        html = (tmp_path / page).read_text(encoding="utf-8")
        assert 'data-minigrad-break="skip-unbroadcast"' in html
        assert 'data-broken="raises ValueError' in html  # the block options reach the runner
    assert '<html lang="es"' in (tmp_path / "es/index.html").read_text(encoding="utf-8")
    bundle = json.loads((tmp_path / "_minigrad/bundle.json").read_text())
    assert "minigrad/breaks/skip-unbroadcast.diff" in bundle and "minigrad/tensor.py" in bundle
    shipped = {p for p in bundle if p.startswith("minigrad/reference/")}  # what the checks read, not the tests' share
    assert shipped == {"minigrad/reference/checks.json", "minigrad/reference/facts.json"}
    assert not (tmp_path / "_minigrad/pyodide").exists()  # cdn mode ships no runtime
    assert not (tmp_path / "es/_minigrad").exists()  # shipped once, at the root
    english, spanish = ((tmp_path / p / "theory/02-graphs/index.html").read_text(encoding="utf-8") for p in ("", "es"))
    assert 'title="Permanent link"' in english and 'title="Permanent link"' not in spanish  # hooks/permalink_title.py
    assert 'title="Enlace permanente"' in spanish
    for page in ("getting-started/index.html", "es/getting-started/index.html"):
        html = (tmp_path / page).read_text(encoding="utf-8")
        # the header's link to the repository (overrides/partials/source.html: Material's, minus the
        # data-md-component that fetches stars from api.github.com), and the clone command (hooks/repo_url.py)
        assert re.search(rf'<a href="{re.escape(REPO)}" title="[^"]+" class="md-source">', html)
        assert 'data-md-component="source"' not in html
        assert f"git clone {REPO} minigrad-breaks" in re.sub(r"<[^>]+>", "", html)
    unserved = [str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.html") if "<!-- md:" in p.read_text(encoding="utf-8")]
    assert not unserved, f"a <!-- md:name --> marker no hook replaced reached the site: {unserved}"  # tests/test_markers.py
    for page in tmp_path.rglob("*.html"):  # hooks/fences.py: the runner runs the chain it is given
        found = [BLOCK_AND_CHAIN.search(attrs) for attrs in PYTHON_BLOCK.findall(page.read_text(encoding="utf-8"))]
        assert all(found), f"{page}: a Python block without data-block and data-chain"
        blocks = {m[1] for m in found}
        assert all(set(m[2].split()) <= blocks for m in found), f"{page}: a chain names a block the page does not show"

    for b in breaks.catalogue():  # every break page, both languages: its graded questions and its Repair it
        for prefix, suffix in (("", ""), ("es/", ".es")):
            html = (tmp_path / prefix / f"breaks/{b.slug}/index.html").read_text(encoding="utf-8")
            text = (ROOT / "docs/breaks" / f"{b.slug}{suffix}.md").read_text(encoding="utf-8")
            start, end = section(text)
            asked = [(b.slug, q.number, q.kind, None if q.right is None else str(q.right), q.value)
                     for q in parse(text[start:end].split("\n"))[0]]
            forms = [dict(ATTRIBUTE.findall(m[0])) for m in FORM.finditer(html)]
            shown = [(f["data-break"], f["data-question"], f["data-kind"], f.get("data-right"), f.get("data-value")) for f in forms]
            assert shown == asked, f"{prefix}{b.slug}: the forms are not its questions"
            assert html.count('data-mg="repair"') == 1 and f'data-break="{b.slug}"' in html
    for prefix in ("", "es/"):
        listed = re.findall(r'<li data-break="([^"]+)"', (tmp_path / prefix / "progress/index.html").read_text(encoding="utf-8"))
        assert listed == [b.slug for b in breaks.catalogue()]
