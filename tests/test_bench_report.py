"""``bench/report.py``'s Machine section: which package, commit and engine sources a report says it measured.

The report measures the installed package (its docstring), which is another checkout's when the one the script lives in
is not installed (a second clone or a git worktree beside an editable install): the commit and the engine sources it
names are that package's, not this checkout's beside the other package's build, which would label figures of one commit
with another.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from stopping_helpers import signals_as_a_shell_gives_them

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def report(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "bench"))  # report.py imports its neighbour dds.py as the script does
    spec = importlib.util.spec_from_file_location("bench_report", ROOT / "bench" / "report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_report", module)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "engine_build", lambda package=None: "sha256 0123456789ab")  # no pinned copy
    return module


def _git(directory: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(directory), *args], capture_output=True, text=True, check=True,
                          env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                               "GIT_COMMITTER_EMAIL": "t@t",
                               "PATH": os.environ.get("PATH", "/usr/bin:/bin")}).stdout.strip()  # git where it is


def test_the_machine_names_the_measured_package_and_its_commit_not_this_checkouts(report, monkeypatch, tmp_path):
    other = tmp_path / "other-checkout"
    (other / "solver").mkdir(parents=True)
    (other / "src_ext").mkdir()
    (other / "src_ext" / "search.pxd").write_text("# edited after the build\n")
    (other / "solver" / "_engine.so").write_bytes(b"")
    os.utime(other / "solver" / "_engine.so", (1, 1))  # built long before the source was edited
    _git(other, "init", "-q")
    _git(other, "add", "-A")
    _git(other, "commit", "-q", "-m", "other")
    monkeypatch.setattr(report, "live_package", lambda: other / "solver")
    info = report.machine()
    assert info["commit"] == _git(other, "rev-parse", "--short", "HEAD")
    assert info["package"] == (f"{other / 'solver'} (not this checkout's {ROOT / 'solver'}: the installed package "
                               f"is measured; PYTHONPATH={ROOT} measures this one)")
    assert info["engine sources newer than the build"] == "search.pxd"


def test_the_machine_of_this_checkout_says_its_own_package(report, monkeypatch):
    monkeypatch.setattr(report, "live_package", lambda: ROOT / "solver")
    info = report.machine()
    assert info["package"] == str(ROOT / "solver")
    assert info["commit"].split()[0] == subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                                       capture_output=True, text=True).stdout.strip()


def test_bad_options_are_said_before_the_run_not_as_a_traceback_after_it(report, monkeypatch, tmp_path, capsys):
    """--limit nan ended in a ValueError traceback at the first solve; an --out or --json that cannot be written in
    a FileNotFoundError traceback after the whole run (an hour of it at the default sizes); --dds-only without bridge
    DDS, or with --dds-deals 0, measured nothing and exited 0."""
    ran: list[object] = []
    monkeypatch.setattr(report, "run", lambda *args: ran.append(args))
    missing = tmp_path / "no such directory" / "report.json"
    for args, said in ((["--limit", "nan"], "--limit must be a number of seconds above 0 and at most 1,000,000, "
                                            "not nan"),
                       (["--limit", "inf"], "--limit must be a number of seconds above 0"),
                       (["--json", str(missing)], f"{missing}: cannot be written: the folder {missing.parent} does "
                                                  "not exist (make it, or choose another file)"),
                       (["--out", str(missing.with_suffix(".md"))], f"the folder {missing.parent} does not exist"),
                       (["--dds-only", "--dds-deals", "0"], "--dds-only measures only the lines paired with bridge "
                                                            "DDS, and --dds-deals is 0")):
        with pytest.raises(SystemExit) as exit_:
            report.main(args)
        assert exit_.value.code == 2 and said in capsys.readouterr().err
    monkeypatch.setattr(report, "dds_missing", lambda: "not installed (pip install -e '.[bench]')")
    with pytest.raises(SystemExit):
        report.main(["--dds-only", "--dds-deals", "3"])
    assert "and bridge DDS is not installed (pip install -e '.[bench]')" in capsys.readouterr().err
    assert not ran


def test_progress_in_a_log_is_one_line_a_minute_and_each_lines_last_deal(report, capsys, monkeypatch):
    """With stderr in a log the report says the first deal, then one line every LOG_SECONDS, each line's last deal and a
    deal stopped at the limit, not a line per deal (300 a run, several a second: `1/100`, `2/100`, ...); on a terminal
    every deal."""
    clock = [100.0]
    monkeypatch.setattr(report.time, "monotonic", lambda: clock[0])
    deals = [report.Progress("Kratzen", done, 150, done, 1.5, done == 40) for done in range(1, 151)]
    progress = report._progress(report._progress_log(100.0, terminal=False))
    for deal in deals:
        clock[0] += 1.0  # a deal a second: one line a minute
        progress(deal)
    said = capsys.readouterr().err.splitlines()
    assert [line.split("] ")[1].split(" (")[0] for line in said] == [
        "Kratzen: 1/150", "Kratzen: 40/150", "Kratzen: 100/150", "Kratzen: 150/150"]
    assert said[1] == "[     40 s] Kratzen: 40/150 (board 40) stopped at the limit"
    terminal = report._progress(report._progress_log(100.0, terminal=True))
    for deal in deals:
        terminal(deal)
    assert len(capsys.readouterr().err.splitlines()) == 150


def test_ctrl_c_stops_the_report_with_a_word_and_130(report, monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(report, "run", interrupted)
    assert report.main(["--deals", "1", "--dds-deals", "0", "--ablation-deals", "0"]) == 130
    assert capsys.readouterr().err == "report.py: interrupted: stopped before its first line: no report written\n"


def test_a_stop_as_the_run_sets_up_names_no_line_and_no_total(report, monkeypatch, capsys):
    """A stop while the run asks for bridge DDS, its plan half made, says the run stopped before its first line and
    wrote no report: it names no line (none was begun) and no total of a plan not yet whole."""
    def stopped():
        raise KeyboardInterrupt

    monkeypatch.setattr(report, "pinned_package", lambda: None)
    monkeypatch.setattr(report, "machine", lambda: {})
    monkeypatch.setattr(report, "dds_missing", stopped)
    assert report.main(["--deals", "1", "--dds-deals", "1", "--ablation-deals", "0"]) == 130
    assert capsys.readouterr().err == "report.py: interrupted: stopped before its first line: no report written\n"


def test_a_stop_signal_as_the_whole_report_is_rendered_waits_for_its_writes(report, monkeypatch, tmp_path, capsys):
    """A SIGTERM after the last line, as the report is rendered, keeps every measured line: the stop signals are
    held through the render and the writes of --out and --json, which are done and said, then stop the script with
    its word (the whole report is written) and 130."""
    readme, results = tmp_path / "README.md", tmp_path / "results.json"
    readme.write_text("old\n", encoding="utf-8")

    def measured(*args, report):
        report.planned = []

    def rendered(measured):
        os.kill(os.getpid(), signal.SIGTERM)
        return "new\n"

    monkeypatch.setattr(report, "run", measured)
    monkeypatch.setattr(report, "render", rendered)
    assert report.main(["--deals", "1", "--dds-deals", "0", "--ablation-deals", "0", "--out", str(readme),
                        "--json", str(results)]) == 130
    assert capsys.readouterr().err == (f"wrote {readme}\nwrote {results}\nreport.py: interrupted by SIGTERM: stopped "
                                       "as the report was finished: the whole report is written\n")
    assert "new" in readme.read_text(encoding="utf-8") and json.loads(results.read_text())["lines"] == []


def test_a_completed_run_removes_the_partial_files_a_stopped_one_left_beside_its_reports(report, monkeypatch,
                                                                                         tmp_path, capsys):
    """A completed run removes a stopped run's README.partial.md and results.partial.json beside its fresh report, as
    ``stich bench --out`` does, and says so; a file of the same name that is no partial report stays."""
    readme, results = tmp_path / "README.md", tmp_path / "results.json"
    (tmp_path / "README.partial.md").write_text(f"{report.PARTIAL_MARK}stopped during 'A': ...**\n", encoding="utf-8")
    (tmp_path / "results.partial.json").write_text(json.dumps({"partial": {}, "lines": [{"line": "A"}]}))

    def measured(*args, report):
        report.planned = ["A"]

    monkeypatch.setattr(report, "run", measured)
    monkeypatch.setattr(report, "render", lambda measured: "new\n")
    arguments = ["--deals", "1", "--dds-deals", "0", "--ablation-deals", "0", "--out", str(readme), "--json",
                 str(results)]
    assert report.main(arguments) == 0
    said = capsys.readouterr().err.splitlines()
    assert said[2:] == [f"report.py: {tmp_path / name}: removed, it held the lines a run stopped by the interrupt "
                        "finished (each measured again by this run)" for name in ("results.partial.json",
                                                                                 "README.partial.md")]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["README.md", "results.json"]
    (tmp_path / "README.partial.md").write_text("my own notes\n", encoding="utf-8")
    assert report.main(arguments) == 0 and capsys.readouterr().err == f"wrote {readme}\nwrote {results}\n"
    assert (tmp_path / "README.partial.md").read_text(encoding="utf-8") == "my own notes\n"


def _report_stopped(arguments: list[str], lines: int, stop: str) -> tuple[list[str], int, str, str]:
    """bench/report.py run with ``arguments`` (no ablation, no DDS lines) and sent the signal named ``stop`` once it
    wrote ``lines`` progress lines on stderr, with its signals as a shell gives them (not ignored, as under nohup):
    those lines, its exit code, its stdout and the rest of its stderr."""
    process = subprocess.Popen([sys.executable, str(ROOT / "bench" / "report.py"), "--ablation-deals", "0",
                                "--dds-deals", "0", *arguments],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=signals_as_a_shell_gives_them)
    try:
        progress = [process.stderr.readline() for _ in range(lines)]
        process.send_signal(getattr(signal, stop))
        stdout, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return progress, process.returncode, stdout, stderr


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_stop_signal_after_the_first_deal_stops_the_report_with_a_word_and_130(stop, tmp_path):
    """SIGTERM and SIGHUP stop the report as SIGINT does and as they stop a stich command, not killing it without a word
    (exit 143, 129): one line naming the signal, the line it stopped in and the deals of it measured, exit 130, no
    traceback; no line finished, so those deals are all the partial report beside --out holds."""
    out = tmp_path / "report.md"
    (first,), returncode, stdout, stderr = _report_stopped(["--deals", "100", "--out", str(out)], 1, stop)
    assert "1/100" in first, first  # the first deal's progress line: the run was under way
    assert (returncode, stdout) == (130, ""), stderr
    said = re.fullmatch(rf"report.py: interrupted by {stop}: stopped during 'Zwanzigerrufen Normal: exact points' "
                        r"after (\d+) of 100 deals: 0 of 10 lines finished; the deals of the line stopped in "
                        rf"kept, marked partial, in {re.escape(str(tmp_path / 'report.partial.md'))} "
                        rf"\({re.escape(str(out))} left as it was\); run the same command again for the whole report "
                        r"\(a run measures every line anew\)\n", stderr)
    assert said is not None and int(said[1]) >= 1, stderr
    partial = (tmp_path / "report.partial.md").read_text(encoding="utf-8")
    assert f"#### Stopped part way: Zwanzigerrufen Normal: exact points ({said[1]} of 100 deals)\n" in partial
    assert f"| engine | {said[1]} of 100 | " in partial and not out.exists()


@pytest.mark.parametrize(("out", "stop"), [(True, "SIGTERM"), (False, "SIGINT")], ids=["--out", "stdout"])
def test_a_stop_after_the_first_lines_keeps_them_marked_partial_and_leaves_the_whole_report(out, stop, tmp_path):
    """The lines finished before a SIGTERM or Ctrl-C are kept, marked partial: beside ``--out`` (and ``--json``),
    the whole report in the README left as it was, or on stdout; the last line of stderr says how many lines were
    finished and where they are."""
    readme = tmp_path / "README.md"
    kept = "# Bench\n<!-- report:begin -->\nthe whole report\n<!-- report:end -->\nbelow\n"
    readme.write_text(kept, encoding="utf-8")
    files = ["--out", str(readme), "--json", str(tmp_path / "results.json")] if out else []
    progress, returncode, stdout, stderr = _report_stopped(["--deals", "1", *files], 2, stop)
    assert all(": 1/1 (board 1)" in line for line in progress), progress  # the second line begun: the first kept
    said = stderr.splitlines()[-1]
    assert returncode == 130 and "Traceback" not in stderr, stderr
    finished = int(re.search(r"['s]: (\d+) of \d+ lines finished; ", said)[1])
    assert said.startswith(f"report.py: interrupted by {stop}: stopped during '") and finished >= 1, said
    first = progress[0].split("] ", 1)[1].split(": 1/1")[0]
    if out:
        partial = (tmp_path / "README.partial.md").read_text(encoding="utf-8")
        assert stdout == "" and readme.read_text(encoding="utf-8") == kept
        assert said.endswith(f"in {tmp_path / 'README.partial.md'} ({readme} left as it was) and in "
                             f"{tmp_path / 'results.partial.json'}; run the same command again for the whole report "
                             "(a run measures every line anew)"), said
        measured = json.loads((tmp_path / "results.partial.json").read_text(encoding="utf-8"))
        assert measured["partial"]["finished"] == finished == len(measured["lines"])
        assert measured["lines"][0]["line"] == first and measured["lines"][0]["deals"] == 1
    else:
        partial = stdout
        assert "marked partial, on stdout;" in said
    assert "**A partial run, stopped during " in partial and f"| 1. {first} | 1 |" in partial
    assert sum(line.startswith("| ") and line[2].isdigit() for line in partial.splitlines()) == finished
    assert "#### 9. Engine vs reference" not in partial and "#### Machine" in partial


def test_the_dds_worker_leaves_ctrl_c_to_the_report(report):
    """The terminal sends Ctrl-C to the DDS worker too: it ignores it, not dying of it with a KeyboardInterrupt
    traceback of its own, and answers on, until the report closes it."""
    dds = importlib.import_module("dds")
    if dds.dds_missing() is not None:
        pytest.skip(f"bridge DDS is {dds.dds_missing()}")
    worker = dds.DDSWorker()
    try:
        worker._process.send_signal(signal.SIGINT)
        assert worker.solve(1, "value") > 0 and worker._process.poll() is None
    finally:
        worker.close()
    assert worker._process.returncode == 0


def test_out_and_json_are_written_atomically_so_a_failed_write_keeps_the_old_file(report, monkeypatch, tmp_path):
    """``--out`` and ``--json`` go through a temporary file renamed into place, as ``stich bench --out`` does, so that a
    kill during the write leaves the old file whole, not a README cut off in the middle."""
    readme = tmp_path / "README.md"
    readme.write_text(f"# Bench\nabove\n{report.BEGIN}\nold figures\n{report.END}\nbelow\n", encoding="utf-8")
    report.write(readme, "new figures\n")
    assert readme.read_text(encoding="utf-8") == (f"# Bench\nabove\n{report.BEGIN}\nnew figures\n{report.END}\n"
                                                  "below\n")

    def killed(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", killed)  # the write is stopped before the file is renamed into place
    with pytest.raises(KeyboardInterrupt):
        report.write(readme, "half-written figures\n")
    assert "new figures" in readme.read_text(encoding="utf-8")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["README.md"]  # no temporary left behind


def test_ctrl_c_while_the_report_is_written_is_said_too(report, monkeypatch, tmp_path, capsys):
    """A Ctrl-C after the run, while the report is rendered and written, is said without a KeyboardInterrupt traceback:
    the handler covers the writes, which keep the old file whole."""
    readme = tmp_path / "README.md"
    readme.write_text("old\n", encoding="utf-8")
    def measured(*args, report):
        report.whole = True

    monkeypatch.setattr(report, "run", measured)
    monkeypatch.setattr(report, "render", lambda measured: "new\n")

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(report, "write", interrupted)
    assert report.main(["--deals", "1", "--dds-deals", "0", "--ablation-deals", "0", "--out", str(readme)]) == 130
    assert capsys.readouterr().err == "report.py: interrupted: the report is written only where 'wrote' says so\n"
    assert readme.read_text(encoding="utf-8") == "old\n"


def test_a_line_whose_every_deal_ran_over_the_limit_has_no_nodes_per_second(report):
    from solver.benchmark import BenchStats

    stopped = BenchStats("line", times_ms=[50.0, 50.0], nodes=[10, 10], timed_out=[True, True], limit_ms=50.0)
    finished = BenchStats("line", times_ms=[1000.0], nodes=[2500], timed_out=[False])
    assert (report.fmt_rate(stopped.nodes_per_second), report.fmt_rate(finished.nodes_per_second)) == ("-", "2.50 k")


def test_a_run_stopped_in_the_ablation_shows_the_configurations_it_finished_and_says_where_it_stopped(report):
    """A run stopped after the ablation's first configurations: their table, with the lines before them, under a
    note naming the configuration stopped in; the DDS lines it never reached are not shown as skipped."""
    from solver.benchmark import standard_lines

    line = standard_lines()[0]
    all_on, table_off = _measured(line.name, [2.0], 1), _measured(line.name, [8.0], 1)
    stopped = report.Report(1, 60.0, {"engine": "sha256 0123456789ab"}, [(line, _measured(line.name, [2.0], 1))], [],
                            line, {"all on": all_on, "table off": table_off})
    stopped.planned = [line.name, f"{line.name} [all on]", f"{line.name} [table off]", f"{line.name} [ordering off]",
                       f"{line.name} [vs DDS]"]
    text = report.render(stopped)
    assert (f"**A partial run, stopped during '{line.name} [ordering off]': 3 of 5 lines finished: every figure below "
            "is of a finished line; the lines after it were not measured.**") in text
    assert f"| 1. {line.name} | 1 | 2.00 |" in text and "| table off | " in text and "| 4.00x |" in text
    assert "#### 9. Engine vs reference" not in text and "bridge DDS" not in text and "#### Machine" in text
    measured = report.as_json(stopped)
    assert measured["partial"] == {"lines": 5, "finished": 3, "interrupted_during": f"{line.name} [ordering off]"}
    assert list(measured["ablation"]) == ["all on", "table off"] and "endings" not in measured  # as the Markdown
    assert "dds" not in measured and len(measured["lines"]) == 1


def _measured(name: str, times: list[float], planned: int) -> "BenchStats":
    from solver.benchmark import BenchStats, DealResult

    stats = BenchStats(name, table_allocated_bytes=64 << 20, planned=planned, limit_ms=60_000.0)
    for board, ms in enumerate(times, 1):
        stats.add(DealResult(board, ms, 1000, 64, (1,)))
    return stats


def test_a_run_stopped_part_way_through_a_line_keeps_its_deals_with_their_count(report):
    """A line stopped part way keeps the deals it measured (a line of 100 deals is minutes): in a
    section of their own headed with their count, and in the JSON's ``unfinished``; an ending stopped in its
    reference half keeps the engine's deals and the reference solver's so far, and one stopped as its reference run
    starts keeps the engine's, each run's count said."""
    from solver.benchmark import endings_lines, standard_lines

    line, ending = standard_lines()[0], endings_lines()[0]
    stopped = report.Report(100, 60.0, {"engine": "sha256 0123456789ab"}, [], [], None, {})
    stopped.planned = [line.name, ending.name]
    stopped.measuring = (line.name, [_measured(line.name, [2.0, 4.0, 6.0], 100)])
    assert report.stopped_text(stopped) == f"stopped during {line.name!r} after 3 of 100 deals: 0 of 2 lines finished"
    text = report.render(stopped)
    assert f"#### Stopped part way: {line.name} (3 of 100 deals)" in text
    assert "| engine | 3 of 100 | 4.00 | 6.00 | 6.00 | 6.00 |" in text and "| line | deals |" not in text
    assert report.as_json(stopped)["unfinished"]["runs"][0]["deals"] == 3
    assert report.as_json(stopped)["unfinished"]["runs"][0]["planned"] == 100

    stopped.lines = [(line, _measured(line.name, [1.0] * 100, 100))]
    engine = _measured(ending.name, [0.5] * 100, 100)
    stopped.measuring = (ending.name, [engine, _measured(ending.name, [30.0] * 37, 100)])
    text = report.render(stopped)
    assert (f"stopped during {ending.name!r} after 100 of 100 deals of the engine, 37 of the reference solver: 1 of 2 "
            "lines finished") in text
    assert "| engine | 100 of 100 | 0.500 |" in text and "| reference solver | 37 of 100 | 30.0 |" in text
    assert f"| 1. {line.name} | 100 | 1.00 |" in text
    measured = report.as_json(stopped)
    assert measured["partial"]["finished"] == 1
    assert [run["deals"] for run in measured["unfinished"]["runs"]] == [100, 37]
    # a stop inside BenchStats.add, one list a deal ahead of the others: the deal is not counted
    stopped.measuring[1][1].times_ms.append(99.0)
    assert report.unfinished_text(stopped) == "100 of 100 deals of the engine, 37 of the reference solver"
    # stopped as the reference run starts: the engine's deals are kept all the same
    stopped.measuring = (ending.name, [engine, _measured(ending.name, [], 100)])
    assert report.unfinished_text(stopped) == "100 of 100 deals of the engine, 0 of the reference solver"
    text = report.render(stopped)
    assert "| engine | 100 of 100 | 0.500 |" in text and "| reference solver | 0 of 100 | - |" in text
    assert [run["deals"] for run in report.as_json(stopped)["unfinished"]["runs"]] == [100, 0]
    # once the line is among the finished ones its runs are not shown twice
    stopped.endings.append((ending, engine, _measured(ending.name, [30.0] * 100, 100), 60.0))
    stopped.planned.append("a third line")
    assert report.unfinished_text(stopped) == "" and "Stopped part way" not in report.render(stopped)


def test_a_run_stopped_part_way_through_a_dds_line_keeps_its_whole_deals(report):
    """The DDS lines keep their deals too: those whose four times are all measured."""
    dds = importlib.import_module("dds")
    from solver.benchmark import standard_lines

    line = standard_lines()[0]
    stopped = report.Report(5, 60.0, {"engine": "sha256 0123456789ab"}, [], [], None, {}, dds_only=True, dds_deals=5)
    stopped.planned = [f"{line.name} [vs DDS]"]
    stopped.measuring = (stopped.planned[0], [dds.Paired(line, [4.0, 6.0, 8.0], [2.0, 3.0, 4.0], [10.0, 10.0],
                                                        [1.0, 1.0], [3])])
    assert report.unfinished_text(stopped) == "2 of 5 deals"
    text = report.render(stopped)
    assert f"#### Stopped part way: {line.name} [vs DDS] (2 of 5 deals)" in text
    assert "| 2 of 5 | 5.00 | 2.50 | 10.0 | 1.00 |" in text
    assert report.as_json(stopped)["unfinished"]["runs"][0]["deals"] == 2
    # a solve stopped at the limit in the deal cut off is not counted among the deals kept
    assert stopped.measuring[1][0].timed_out == 1 and report.unfinished_dds(stopped).timed_out == 0


def test_a_run_holds_the_runs_of_the_line_it_measures_by_name(report):
    """Every run is given to ``Report.started`` as it starts: it is held with the line being measured, an ending's
    reference run beside its engine's, and a run of the next line replaces them."""
    from solver.benchmark import endings_lines, standard_lines

    line, ending = standard_lines()[0], endings_lines()[0]
    run = report.Report(100, 60.0, {}, [], [], None, {})
    run.planned = [line.name, ending.name]
    first = _measured(line.name, [1.0], 100)
    run.started(first)
    assert run.measuring == (line.name, [first])
    run.lines.append((line, first))
    engine, reference = _measured(ending.name, [], 100), _measured(ending.name, [], 100)
    run.started(engine)
    run.started(reference)
    assert run.measuring[0] == ending.name and run.measuring[1] == [engine, reference]
    assert report.unfinished_runs(run) == [engine, reference]
