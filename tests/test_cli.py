"""The learner's CLI as a new user meets it (issue 13, items 13-15): read-only
files and folders, a refusal that names the line really edited, `| head`,
columns, Spanish, and where to run it."""

import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

import pytest
from learner_cli import cli

from minigrad import breaks
from minigrad.breaks import ROOT

ROOT_PLAIN = str(ROOT)


# ---- 13: read-only file, unwritable folder ------------------------------------


def test_read_only_target_is_refused_and_left_alone(tree):
    """chmod 444 is checked from the mode bits: root (as in CI) may write anyway,
    but a learner who made the file read-only meant it."""
    target = tree / "minigrad/tensor.py"
    before = target.read_bytes()
    target.chmod(0o444)
    code, out, err = cli(tree, "apply", "skip-unbroadcast")
    assert code == 1 and out == ""
    assert "minigrad/tensor.py is read-only; nothing was changed" in err
    assert target.read_bytes() == before
    assert stat.S_IMODE(target.stat().st_mode) == 0o444
    assert [p.name for p in target.parent.iterdir() if p.name.startswith(".tensor.py.")] == []  # no temporary left


def test_unwritable_folder_is_one_clear_line(tree, monkeypatch):
    """Root can write in a chmod 555 folder, so the folder's refusal is simulated
    where it happens: creating the temporary file beside the target."""

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied", kwargs.get("dir"))

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    target = tree / "minigrad/tensor.py"
    before = target.read_bytes()
    code, out, err = cli(tree, "apply", "skip-unbroadcast")
    assert code == 1
    assert err == f"error: cannot apply skip-unbroadcast: cannot write in {target.parent} (Permission denied); nothing was changed.\n"
    assert target.read_bytes() == before


def test_unreadable_file_is_one_clear_line(tree, monkeypatch):
    """Root reads a chmod 000 file anyway, so the refusal is simulated at the read."""
    import minigrad.breaks.__main__ as cli_module

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied", args[0])

    monkeypatch.setattr(cli_module, "open", refuse, raising=False)
    code, out, err = cli(tree, "list", "--lang", "es")
    assert code == 1 and out == ""
    assert err == "error: no se puede leer minigrad/scalar.py (Permission denied); no se cambió nada.\n"


def test_unwritable_folder_for_real_prints_no_traceback(tree):
    """The same with a real refusal from the file system: an immutable folder
    (chattr +i) refuses even root, where the file system and privileges allow it."""
    folder = tree / "minigrad"
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode:
        pytest.skip("chattr +i is not available here (needs root and a file system with the immutable flag); the simulated test above covers it")
    try:
        done = subprocess.run([sys.executable, "-m", "minigrad.breaks", "apply", "skip-unbroadcast"], cwd=tree, capture_output=True, text=True)
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert re.fullmatch(r"error: cannot apply skip-unbroadcast: cannot write in .*minigrad \(.+\); nothing was changed\.\n", done.stderr)


# ---- 14: the refusal names the line that differs ------------------------------


@pytest.mark.parametrize("command", ["apply", "revert"])
def test_refusal_names_the_edited_line_after_lines_added_above(tree, command):
    target = tree / "minigrad/tensor.py"
    if command == "revert":
        assert cli(tree, "apply", "skip-unbroadcast")[0] == 0
    line = "            a.grad += out.grad\n" if command == "revert" else "            a.grad += unbroadcast(out.grad, a.shape)\n"
    text = "# my notes\n" * 6 + target.read_text()
    text = text.replace(line, line.rstrip("\n") + "  # mine\n", 1)
    target.write_text(text)
    edited_at = text.splitlines().index(line.rstrip("\n") + "  # mine") + 1
    code, _, err = cli(tree, command, "skip-unbroadcast")
    assert code == 1
    assert f"line {edited_at} is '{line.strip()}  # mine', the diff expects '{line.strip()}'" in err
    assert target.read_text() == text


def test_refusal_names_the_edited_line_when_nothing_moved(tree):
    target = tree / "minigrad/tensor.py"
    line = "            b.grad += unbroadcast(out.grad, b.shape)\n"
    text = target.read_text().replace(line, line.rstrip("\n") + "  # mine\n", 1)
    target.write_text(text)
    edited_at = text.splitlines().index(line.rstrip("\n") + "  # mine") + 1
    code, _, err = cli(tree, "apply", "skip-unbroadcast")
    assert code == 1 and f"line {edited_at} is '{line.strip()}  # mine'" in err


# ---- 15: | head, columns, --lang, where to run ---------------------------------


def test_list_into_a_closed_pipe_prints_no_traceback():
    """`list | head -3` where head has gone before Python writes: the pipe's
    reading end is closed first, so the write fails every time, not by chance."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-m", "minigrad.breaks", "list"], cwd=ROOT, stdout=write_end, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(write_end)
    assert done.stderr == ""
    assert done.returncode == 1


@pytest.mark.parametrize("lang", ["en", "es"])
def test_list_columns_fit_the_longest_slug(tree, lang):
    _, out, _ = cli(tree, "list", "--lang", lang)
    rows = out.splitlines()
    assert len(rows) == len(breaks.catalogue())
    longest = max(len(b.slug) for b in breaks.catalogue())
    word = {"en": "phase", "es": "fase"}[lang]
    assert {row.index(f"  {word} ") for row in rows} == {longest}  # every row's phase starts in one column
    titles = {row.split("  ")[-1].strip() for row in rows}
    assert titles == {b.title[lang] for b in breaks.catalogue()}
    starts = {row.index(b.title[lang]) for row, b in zip(rows, breaks.catalogue())}
    assert len(starts) == 1  # and so does every title


def test_lang_goes_before_or_after_the_command(tree):
    assert cli(tree, "--lang", "es", "list") == cli(tree, "list", "--lang", "es") == cli(tree, "list", "--lang=es")
    assert cli(tree, "show", "overwrite-grad", "--lang", "es")[1].startswith("Reemplazar += con = en _backward (fase 7,")


def test_spanish_cli_speaks_spanish(tree):
    _, listing, _ = cli(tree, "list", "--lang", "es")
    assert "fase 7" in listing and "sano" in listing
    assert not re.search(r"\b(phase|healthy|applied)\b", listing)
    assert cli(tree, "status", "--lang", "es")[1] == "ninguna rotura aplicada: minigrad está sano\n"
    assert cli(tree, "apply", "skip-unbroadcast", "--lang", "es")[1] == "se aplicó skip-unbroadcast: se editó minigrad/tensor.py\n"
    _, status, _ = cli(tree, "status", "--lang", "es")
    assert "aplicada" in status and "applied" not in status
    code, _, err = cli(tree, "apply", "skip-unbroadcast", "--lang", "es")
    assert code == 1 and err.startswith("error: skip-unbroadcast ya está aplicada;")
    code, _, err = cli(tree, "apply", "no-such-break", "--lang", "es")
    assert code == 2 and "no hay ninguna rotura llamada 'no-such-break'" in err
    (tree / "minigrad/tensor.py").write_text((tree / "minigrad/tensor.py").read_text().replace("b.grad += out.grad", "b.grad += out.grad  # mío"))
    code, _, err = cli(tree, "revert", "skip-unbroadcast", "--lang", "es")
    assert code == 1
    assert "no se puede revertir skip-unbroadcast: el fragmento 1 del diff no encaja en minigrad/tensor.py: la línea" in err
    assert "se editó a mano ahí; no se cambió nada" in err


def test_help_says_where_to_run_it():
    done = subprocess.run([sys.executable, "-m", "minigrad.breaks", "--help"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "Run it from the repository's folder" in text and "uv run --project" in text
    assert f"It edits {ROOT_PLAIN}." in text


def test_runs_from_outside_the_repository_with_uv_project(tmp_path):
    """`python -m minigrad.breaks` needs the repository's environment, where
    minigrad is installed: `uv run --project REPO` gives it from any folder."""
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not on PATH (the README's commands need it)")
    done = subprocess.run([uv, "run", "--project", ROOT_PLAIN, "python", "-m", "minigrad.breaks", "list"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "skip-unbroadcast" in done.stdout


def test_setup_messages_say_npm_ci():
    """README, CI and the Pyodide tests' skip message agree: `npm ci`, never `npm install`."""
    for path in [ROOT / "README.md", ROOT / ".ci/run", ROOT / "tests/test_pyodide_blocks.py", ROOT / "tests/pyodide/run_blocks.mjs"]:
        text = path.read_text(encoding="utf-8")
        assert "npm install" not in text.replace("npm install --save-dev", ""), path
    assert "missing (run `npm ci`)" in (ROOT / "tests/test_pyodide_blocks.py").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_new_help_explains_each_argument_and_lists_the_symptom_keys_by_section(lang):
    """Issue 38: `new --help` named its arguments without saying what they were, and listed the
    symptom keys as one run-on line; now each argument says what it takes and the keys stand
    under their section of the symptom index, in the reader's language."""
    done = subprocess.run([sys.executable, "-m", "minigrad.breaks", "new", "--help", "--lang", lang], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    read = breaks.load()
    for argument in ("slug", "--phase PHASE", "--title-en TITLE_EN", "--title-es TITLE_ES", "--symptom KEY", "--target TARGET"):
        assert re.search(rf"^  {re.escape(argument)} +\S.{{10,}}$", text, re.M), argument  # followed by what it is, on its line
    assert all(f"{n} {names[lang]}" in " ".join(text.split()) for n, names in read.phases.items())
    sections = text.split("\n\n  ")[1:]  # the epilog: one block per section of the symptom index
    assert [s.split(":")[0] for s in sections] == [t[lang] for t in read.symptom_groups.values()]
    for section, group in zip(sections, read.symptom_groups):
        listed = {key.strip(" ,.") for key in " ".join(section.split("\n", 1)[1].split("\n\n")[0].split()).split(", ")}
        assert listed == {k for k in read.symptoms if read.symptom_group[k] == group}, (group, listed)
