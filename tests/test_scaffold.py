"""`python -m minigrad.breaks new` (scripts/new_break.py), in a git clone of
this repository's HEAD: every bad input refused with nothing written, and a
teacher's whole path from an edit of minigrad/ to a break the suite checks.

The clone is of the committed HEAD, as a teacher's would be: commit a change
to the scaffold before these tests can see it."""

import os
import shutil
import subprocess
import sys

import pytest
import clones

from minigrad.breaks import ROOT, load

SLUG = "mul-grad-swapped"
HEALTHY_LINE = "            self.grad += other.data * out.grad\n"
BROKEN_LINE = "            self.grad += self.data * out.grad\n"
TITLES = ["--title-en", "mul's backward uses its own input", "--title-es", "El backward de mul usa su propia entrada"]
BLOCK = """```{.python broken="silent"}
from minigrad.scalar import Value
a, b = Value(2.0), Value(3.0)
(a * b).backward()
print(a.grad, b.grad)
```
"""


def git(repo, *args):
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    return clones.fresh_clone(tmp_path_factory, "`new` reads the healthy file from git")


@pytest.fixture
def clone(pristine):
    """The clone, back to HEAD with nothing untracked, for each test."""
    git(pristine, "checkout", "--quiet", "--", ".")
    git(pristine, "clean", "-fdq")  # (a symlink is no folder to .gitignore's `node_modules/`: made again below)
    if (ROOT / "node_modules").is_dir() and not (pristine / "node_modules").exists():  # a teacher's clone has run `npm ci` too
        (pristine / "node_modules").symlink_to(ROOT / "node_modules")  # (minigrad_site/build/node_modules.py leaves a link alone)
    return pristine


def without_node_modules(repo):
    """As a fresh clone has it, so that its first build runs `npm ci` (minigrad_site/build/node_modules.py)."""
    modules = repo / "node_modules"
    if modules.is_symlink():
        modules.unlink()
    elif modules.is_dir():
        shutil.rmtree(modules)


def edit(repo, path, old, new):
    file = repo / path
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


def new(repo, *args):
    return subprocess.run([sys.executable, "-m", "minigrad.breaks", "new", *args], cwd=repo, capture_output=True, text=True)


def snapshot(repo):
    """Every file's bytes but git's own: what a refused command must leave as it was."""
    return {p.relative_to(repo).as_posix(): p.read_bytes() for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts and "__pycache__" not in p.parts}


def refused(repo, args, message):
    before = snapshot(repo)
    done = new(repo, *args)
    assert done.returncode == 1, done.stdout + done.stderr
    assert message in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert snapshot(repo) == before


@pytest.mark.parametrize("slug", ["Mul-Grad", "mul_grad", "mul/grad", "../mul", "-mul", "mul-", "mul--grad", "multiplicación", "mul grad"])
def test_a_slug_that_is_not_a_url_segment_is_refused(clone, slug):
    edit(clone, "minigrad/scalar.py", HEALTHY_LINE, BROKEN_LINE)
    refused(clone, ["--phase", "7", *TITLES, "--", slug], "is not a valid slug: use lowercase letters, digits and single hyphens")


def test_an_existing_slug_is_refused(clone):
    edit(clone, "minigrad/scalar.py", HEALTHY_LINE, BROKEN_LINE)
    refused(clone, ["skip-unbroadcast", "--phase", "8", *TITLES], "a break named skip-unbroadcast is already in minigrad/breaks/catalogue.toml")


def test_an_existing_page_is_refused(clone):
    edit(clone, "minigrad/scalar.py", HEALTHY_LINE, BROKEN_LINE)
    (clone / "docs/breaks" / f"{SLUG}.es.md").write_text("mine\n", encoding="utf-8")
    refused(clone, [SLUG, "--phase", "7", *TITLES], f"docs/breaks/{SLUG}.es.md already exists")


def test_refusals_speak_spanish_with_lang_es(clone):
    edit(clone, "minigrad/scalar.py", HEALTHY_LINE, BROKEN_LINE)
    refused(clone, [SLUG, "--phase", "11", *TITLES, "--lang", "es"], "error: la fase 11 no es una de las fases del sitio (7-10)")


@pytest.mark.parametrize("phase", ["6", "11", "0"])
def test_a_phase_outside_7_to_10_is_refused(clone, phase):
    edit(clone, "minigrad/scalar.py", HEALTHY_LINE, BROKEN_LINE)
    refused(clone, [SLUG, "--phase", phase, *TITLES], f"phase {phase} is not one of the site's phases (7-10)")


def test_an_empty_title_is_refused(clone):
    edit(clone, "minigrad/scalar.py", HEALTHY_LINE, BROKEN_LINE)
    refused(clone, [SLUG, "--phase", "7", "--title-en", "  ", "--title-es", "x"], "--title-en must be one line of text")


def test_no_change_in_minigrad_is_refused(clone):
    refused(clone, [SLUG, "--phase", "7", *TITLES], "nothing in minigrad/ differs from git's HEAD: edit the file to introduce the bug first")


def test_changes_in_two_files_need_a_target(clone):
    edit(clone, "minigrad/scalar.py", HEALTHY_LINE, BROKEN_LINE)
    edit(clone, "minigrad/optim.py", "\n", "\n# a note\n")
    refused(clone, [SLUG, "--phase", "7", *TITLES],
            "minigrad/ has changes in 2 files (minigrad/optim.py, minigrad/scalar.py): give --target with the one the break edits")
    refused(clone, [SLUG, "--phase", "7", *TITLES, "--target", "minigrad/nn.py"],
            "--target minigrad/nn.py has no change: the changed files are minigrad/optim.py, minigrad/scalar.py")
    optim = (clone / "minigrad/optim.py").read_bytes()
    done = new(clone, SLUG, "--phase", "7", *TITLES, "--target", "minigrad/scalar.py", "--lang", "es")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"nueva rotura {SLUG} (fase 7): minigrad/scalar.py vuelve a estar sano") and "Siguientes pasos:" in done.stdout
    assert (clone / "minigrad/optim.py").read_bytes() == optim  # the other edit is the teacher's: left alone
    assert git(clone, "diff", "--name-only", "HEAD", "--", "minigrad/scalar.py") == ""


def strict_build(repo):
    """The README's build, as the teacher runs it in the clone (npm ci included, when needed)."""
    site = repo.parent / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "MINIGRAD_PYODIDE": "cdn"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)], cwd=repo, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return site, done.stderr


def symptom_keys(repo):
    return list(load((repo / "minigrad/breaks/catalogue.toml").read_text(encoding="utf-8")).symptoms)


def test_symptoms_given_to_new_go_into_its_entry_and_help_lists_every_key(clone):
    edit(clone, "minigrad/scalar.py", HEALTHY_LINE, BROKEN_LINE)
    done = new(clone, SLUG, "--phase", "7", *TITLES, "--symptom", "loss-stuck", "--symptom", "gradient-wrong-sign", "--symptom", "loss-stuck")
    assert done.returncode == 0, done.stderr
    entry = 'title.es = "El backward de mul usa su propia entrada"\nsymptoms = ["loss-stuck", "gradient-wrong-sign"]\n'
    assert entry in (clone / "minigrad/breaks/catalogue.toml").read_text(encoding="utf-8")
    assert "4. Its symptoms: loss-stuck, gradient-wrong-sign" in done.stdout
    for lang in ("en", "es"):
        shown = " ".join(new(clone, "--help", "--lang", lang).stdout.split())
        assert all(f" {key}," in shown or f" {key} " in shown for key in symptom_keys(clone)), shown


def test_a_symptom_the_catalogue_does_not_define_is_refused(clone):
    edit(clone, "minigrad/scalar.py", HEALTHY_LINE, BROKEN_LINE)
    before = snapshot(clone)
    done = new(clone, SLUG, "--phase", "7", *TITLES, "--symptom", "my-loss-is-sad")
    assert done.returncode == 2 and "argument --symptom: invalid choice: 'my-loss-is-sad'" in done.stderr, done.stderr
    called = (f"import sys; from scripts.new_break import scaffold; "  # the clone's own, without the CLI's choices
              f"sys.exit(scaffold({SLUG!r}, 7, 't', 't', symptoms=['my-loss-is-sad']))")
    done = subprocess.run([sys.executable, "-c", called], cwd=clone, capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    assert snapshot(clone) == before


def test_a_teacher_scaffolds_serves_it_at_once_fills_one_block_and_the_suite_passes(clone):
    without_node_modules(clone)  # a fresh clone: the README's commands do all the set-up
    healthy = (clone / "minigrad/scalar.py").read_bytes()
    edit(clone, "minigrad/scalar.py", HEALTHY_LINE, BROKEN_LINE)
    done = new(clone, SLUG, "--phase", "7", *TITLES)  # no --symptom: to choose later
    assert done.returncode == 0, done.stderr

    # what it wrote
    assert (clone / "minigrad/scalar.py").read_bytes() == healthy  # healthy again, byte for byte
    diff = (clone / f"minigrad/breaks/{SLUG}.diff").read_text(encoding="utf-8")
    assert diff.startswith("diff --git a/minigrad/scalar.py b/minigrad/scalar.py\n--- a/minigrad/scalar.py\n+++ b/minigrad/scalar.py\n@@ ")
    assert f"-{HEALTHY_LINE}+{BROKEN_LINE}" in diff
    git(clone, "apply", "--check", f"minigrad/breaks/{SLUG}.diff")
    catalogue = (clone / "minigrad/breaks/catalogue.toml").read_text(encoding="utf-8")
    assert f'slug = "{SLUG}"\nphase = 7\ntarget = "minigrad/scalar.py"\n' in catalogue and "symptoms = []  # to choose:" in catalogue
    nav = (clone / "mkdocs.yml").read_text(encoding="utf-8")
    assert nav.index("breaks/pow-exponent-off-by-one.md") < nav.index(f"breaks/{SLUG}.md") < nav.index("breaks/skip-unbroadcast.md")
    english = (clone / f"docs/breaks/{SLUG}.md").read_text(encoding="utf-8")
    spanish = (clone / f"docs/breaks/{SLUG}.es.md").read_text(encoding="utf-8")
    assert english.startswith(f"---\nminigrad_break: {SLUG}\n---\n\n# mul's backward uses its own input\n")
    assert "## Hypothesis { #hypothesis }" in english and "## Hipótesis { #hypothesis }" in spanish
    assert "## Your prediction { #prediction }" in english and "## Tu predicción { #prediction }" in spanish
    assert f'--8<-- "minigrad/breaks/{SLUG}.diff"' in english and f'--8<-- "minigrad/breaks/{SLUG}.diff"' in spanish
    assert "uv run pytest --update-outputs" in done.stdout and "translate" in done.stdout
    assert "mkdocs serve" in done.stdout and '"symptoms not chosen yet"' in done.stdout

    # the site builds at once, strictly: the skeleton in both languages, waiting in the symptom index and the matrix;
    # the fresh clone's first build runs npm ci itself, once, saying so in one line
    site, log = strict_build(clone)
    assert log.count("node_modules is missing: running npm ci (package-lock.json's packages, once)") == 1, log[-3000:]
    assert not [line for line in log.splitlines() if "npm" in line and "running npm ci" not in line], log[-3000:]
    assert (site / "_minigrad/viz/viz.js").exists() and (site / "coi-serviceworker.js").exists()  # from the node_modules it installed
    link = f'href="../breaks/{SLUG}/"'
    for prefix, waiting, pending in [("", "symptoms not chosen yet", "not computed yet:"), ("es/", "síntomas aún sin elegir", "aún sin calcular:")]:
        assert (site / f"{prefix}breaks/{SLUG}/index.html").exists()
        symptoms = (site / f"{prefix}symptoms/index.html").read_text(encoding="utf-8")
        assert f'<h2 id="not-chosen-yet">{waiting}' in symptoms and link in symptoms.split('id="not-chosen-yet"', 1)[1]
        matrix = (site / f"{prefix}diagnostics/index.html").read_text(encoding="utf-8")
        row = matrix.split('class="mg-matrix"', 1)[1].split(link, 1)[1].split("</tr>", 1)[0]  # its row, not the nav's link
        assert 'class="mg-pending"' in row and pending in row

    # the teacher writes one block, in both languages, and updates the outputs
    edit(clone, f"docs/breaks/{SLUG}.md", "## Procedure { #procedure }\n", "## Procedure { #procedure }\n\n" + BLOCK)
    edit(clone, f"docs/breaks/{SLUG}.es.md", "## Procedimiento { #procedure }\n", "## Procedimiento { #procedure }\n\n" + BLOCK)
    pages = [f"docs/breaks/{SLUG}.md", f"docs/breaks/{SLUG}.es.md"]
    pytest_args = [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider"]
    # (with the symptom tests: one of them, not the build, holds out for its symptoms, naming the break and where to choose them)
    update = subprocess.run([*pytest_args, "-q", "--update-outputs", *pages, "tests/test_diagnostics_matrix.py", "tests/test_symptoms.py"],
                            cwd=clone, capture_output=True, text=True)
    assert update.returncode == 1 and "1 failed" in update.stdout, update.stdout[-3000:]
    assert "FAILED tests/test_symptoms.py::test_every_break_has_chosen_its_symptoms" in update.stdout, update.stdout[-3000:]
    assert f"AssertionError: break '{SLUG}' declares no symptoms: choose them in its entry of minigrad/breaks/catalogue.toml" in update.stdout
    assert "```{.text .output}\n3.0 2.0\n```" in (clone / pages[0]).read_text(encoding="utf-8")
    assert "```{.text .output .broken}\n2.0 2.0\n```" in (clone / pages[1]).read_text(encoding="utf-8")
    edit(clone, "minigrad/breaks/catalogue.toml", "symptoms = []  # to choose:", 'symptoms = ["gradients-disagree-with-finite-differences"]  # chosen:')

    # and what checks a break passes for it: its pages, its diff, the matrix, the template, its symptoms (the strict build is above)
    check = subprocess.run(
        [*pytest_args, "-v", *pages, "tests/test_breaks.py", "tests/test_diagnostics_matrix.py", "tests/test_docs_pages.py", "tests/test_symptoms.py",
         "-k", f"{SLUG} or every_break or matrix"],
        cwd=clone, capture_output=True, text=True,
    )
    assert check.returncode == 0, check.stdout[-3000:]
    for ran in [f"test_diff_applies_cleanly_to_todays_source[{SLUG}] PASSED", f"test_break_page_follows_the_template[docs/breaks/{SLUG}.es.md] PASSED",
                f"test_every_break_is_caught_and_leaves_a_signature[{SLUG}] PASSED", "test_every_break_has_chosen_its_symptoms PASSED", f"docs/breaks/{SLUG}.md::"]:
        assert ran in check.stdout, f"{ran!r} did not run"
