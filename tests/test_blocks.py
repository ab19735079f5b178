"""minigrad.runner.blocks, the runner CI, Node and the browser share: what a
reader sees when their code fails in one of the ways a new reader's does."""

from minigrad.runner.blocks import Block, run_chain


def run(*codes):
    return run_chain([Block(code, f"<block {i + 1}>") for i, code in enumerate(codes)])


def test_a_syntax_error_shows_only_the_readers_line():
    result = run("def f(:\n")
    assert result.traceback == '  File "<block 1>", line 1\n    def f(:\n          ^\nSyntaxError: invalid syntax\n'
    assert result.output.endswith("SyntaxError: invalid syntax\n")


def test_sys_exit_reads_as_the_program_exiting_with_its_code():
    result = run("import sys\nprint('before')\nsys.exit(3)\n")
    assert result.output == "before\nSystemExit: the program exited with code 3\n"
    assert result.traceback == "SystemExit: the program exited with code 3\n"
    assert result.exit_code == 3
    assert run("import sys\nsys.exit()\n").exit_code == 0
    assert run("import sys\nsys.exit('bye')\n").summary == "SystemExit: the program exited with code 1: bye\n"


def test_an_exception_shows_the_readers_frames_only():
    result = run("def g():\n    return 1 / 0\ng()\n")
    assert result.traceback.startswith('Traceback (most recent call last):\n  File "<block 1>", line 3, in <module>\n')
    assert 'File "<block 1>", line 2, in g' in result.traceback
    assert "blocks.py" not in result.traceback
    assert result.traceback.endswith("ZeroDivisionError: division by zero\n")


def test_a_failing_earlier_block_is_kept_apart_from_the_later_error():
    result = run("d = 1\n1 / 0\ne = 2\n", "print(e)\n")
    assert result.earlier == ["<block 1>"]
    (failure,) = result.earlier_failures
    assert isinstance(failure.error, ZeroDivisionError)
    assert 'File "<block 1>", line 2, in <module>' in failure.traceback
    assert failure.traceback.endswith("ZeroDivisionError: division by zero\n")
    # the last block's own traceback, as for a block that raised alone: the earlier one is not in it
    assert result.traceback.startswith("Traceback (most recent call last):\n") and "<block 1>" not in result.traceback
    assert result.traceback.endswith("NameError: name 'e' is not defined\n")
    assert result.output == "NameError: name 'e' is not defined\n"  # what a page shows is unchanged
    first, _, then = result.report.partition("Then this block raised:\n")  # the whole story, for logs
    assert first.startswith("The earlier block <block 1> raised an error, so the rest of it did not run:\n")
    assert "ZeroDivisionError" in first and then == result.traceback


def test_a_failing_earlier_block_is_reported_even_when_the_last_one_succeeds():
    result = run("1 / 0\n", "print('ok')\n")
    assert result.error is None and result.output == "ok\n" and result.traceback == ""
    assert result.earlier == ["<block 1>"]
    assert result.report.startswith("The earlier block <block 1> raised")


def test_input_says_to_assign_the_value():
    result = run("name = input('name? ')\n")
    assert isinstance(result.error, EOFError)
    assert "Assign the value in the code instead" in result.summary
    assert "blocks.py" not in result.traceback  # _no_input's own frame is ours


def test_a_missing_package_lists_what_there_is():
    result = run("import matplotlib.pyplot as plt\n")
    assert "No module named 'matplotlib'" in result.summary
    assert "These blocks can import numpy, minigrad and Python's standard library" in result.summary
    assert "These blocks can import" not in run("import minigrad.nope\n").summary  # our own package: no advice


def test_keyboard_interrupt_still_ends_the_run():
    """Stop in the browser raises KeyboardInterrupt: it must reach the worker, not become the block's error."""
    import pytest

    with pytest.raises(KeyboardInterrupt):
        run("raise KeyboardInterrupt\n")


def test_a_page_language_gives_the_chain_a_stand_in_of_the_workers_page_module():
    """CI and Node run a page's blocks as the page does: `minigrad_page` says its language, and its
    links() and progress() (the page's links and status) do nothing; no chain without `lang` sees one."""
    code = "import minigrad_page\nprint(minigrad_page.language(), minigrad_page.links('[]'), minigrad_page.progress('c', 'k'))\n"
    from minigrad.runner.blocks import page_language

    assert page_language("docs/doctor.es.md") == "es" and page_language("docs/doctor.md") == "en"
    assert run_chain([Block(code)], lang="es").output == "es None None\n"
    assert run_chain([Block("x = 1\n"), Block(code)], lang="en").output == "en None None\n"
    assert run_chain([Block(code)]).error.name == "minigrad_page"  # ModuleNotFoundError: none is left behind
