"""The benchmarks' reports are rendered from their data: BROWSER.md is what
benchmarks/browser_report.md.jinja makes of the committed browser.json, so the
report's words can change without a run and its numbers never without one."""

import json
from pathlib import Path

from benchmarks import bench_suite, browser_report

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
BLOCKS_SECTION = "<!-- bench_blocks.py: begin -->"  # bench_blocks.py's own section, appended after


def test_browser_md_is_the_template_rendered_from_browser_json():
    report = browser_report
    data = json.loads((BENCHMARKS / "browser.json").read_text(encoding="utf-8"))
    committed = (BENCHMARKS / "BROWSER.md").read_text(encoding="utf-8").split("\n" + BLOCKS_SECTION)[0]
    assert report.render(data) == committed


def test_a_missed_goal_says_so():
    report = browser_report
    data = json.loads((BENCHMARKS / "browser.json").read_text(encoding="utf-8"))
    data["results"]["site"]["warm"] = [x * 100 for x in data["results"]["site"]["warm"]]
    line = next(row for row in report.render(data).splitlines() if row.startswith("| Warm Run of the tensor page's block"))
    assert line.endswith("| <= 1.5x bare warm | **missed** |")


def test_suite_times_md_is_rendered_from_suite_times_json():
    """benchmarks/SUITE_TIMES.md says what benchmarks/bench_suite.py measured, nothing else."""
    bench = bench_suite
    data = json.loads((BENCHMARKS / "suite_times.json").read_text(encoding="utf-8"))
    assert bench.markdown(data) == (BENCHMARKS / "SUITE_TIMES.md").read_text(encoding="utf-8")


def test_the_edit_loop_figures_in_prose_are_the_committed_runs():
    """README, MAINTAINERS and EDIT_LOOP.md quote the edit loop's medians: each is its JSON's, and the goal is met."""
    root = BENCHMARKS.parent
    both = json.loads((BENCHMARKS / "edit_loop.json").read_text(encoding="utf-8"))
    english = json.loads((BENCHMARKS / "edit_loop_one_language.json").read_text(encoding="utf-8"))
    assert both["met"]["edit_served"] and english["met"]["edit_served"] and both["met"]["first_start"]
    for quoted_in in ("README.md", "MAINTAINERS.md", "benchmarks/EDIT_LOOP.md"):
        text = " ".join((root / quoted_in).read_text(encoding="utf-8").split())
        for run in (both, english):
            assert f"{run['edit_served_median_s']} s" in text, (quoted_in, run["edit_served_median_s"])


def test_the_readme_s_suite_time_is_the_committed_run():
    """The README's "how long it takes" restates benchmarks/suite_times.json: its date, seconds,
    test count and boots, its CPU-seconds and the floor they set (a new run of bench_suite.py means
    a new sentence)."""
    data = json.loads((BENCHMARKS / "suite_times.json").read_text(encoding="utf-8"))
    text = " ".join((BENCHMARKS.parent / "README.md").read_text(encoding="utf-8").split())
    day, hour = data["date"].split()[:2]
    passed = int(data["summary"].split(" passed")[0].split()[-1])
    said = (f"on {day} at {hour} UTC, on this project's 2-core machine with nothing else running, "
            f"`uv run pytest` took {round(data['pytest_seconds'], 1)} s for {passed:,} tests, "
            f"Python booting {data['boots']} times")
    assert said in text, said
    cpu = data["cpu"]
    chromium = sum(seconds for kind, seconds in cpu["by_kind"].items() if kind.startswith("chromium"))
    floor = (f"Its processes used {cpu['run_cpu_seconds']} CPU-seconds, Chromium's {round(100 * chromium / cpu['run_cpu_seconds'])} % "
             f"of them: on 2 cores it cannot take less than {cpu['floor_seconds']} s doing this work")
    assert floor in text, floor
