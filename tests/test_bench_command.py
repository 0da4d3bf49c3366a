"""``stich bench``'s bounds and what a stopped line keeps (cli/bench.py); the report script's are in
tests/test_bench_report.py."""

from __future__ import annotations

from typer.testing import CliRunner

from solver.cli.main import app
from solver.limits import MAX_BENCH_DEALS

runner = CliRunner()


def test_bench_count_has_a_cap_said_as_the_other_counts_say_theirs(tmp_path):
    """``-n`` has an upper bound, so that ``-n 1000000000`` neither runs for ever nor saves a run past what
    ``--compare`` reads: past MAX_BENCH_DEALS it is a usage error, said as ``match -n`` says its own, and nothing
    runs or is written; the old name ``--deals`` has the same bound."""
    saved = tmp_path / "run.json"
    for flag in ("-n", "--deals"):
        result = runner.invoke(app, ["bench", "-g", "kr", flag, str(MAX_BENCH_DEALS + 1), "--out", str(saved)])
        assert result.exit_code == 2 and "Traceback" not in result.stderr, result.stderr
        assert f"{MAX_BENCH_DEALS + 1} is not in the range 1<=x<={MAX_BENCH_DEALS}." in result.stderr
        assert result.stdout == "" and not saved.exists()
    page = " ".join(runner.invoke(app, ["bench", "--help"]).stdout.split())
    assert f"How many deals per line (the full benchmark uses 100). [default: 10; 1<=x<={MAX_BENCH_DEALS}]" in page


def _stopped_in_line(monkeypatch, stopped_line: int) -> None:
    """``stich bench``'s lines run whole, without a limit, but the ``stopped_line``-th (from 1), which a Ctrl-C stops
    after its second deal."""
    import solver.benchmark as benchmark

    calls: list[str] = []
    real = benchmark.run_line

    def stopped_after_two_deals(line, **options):
        calls.append(line.name)
        if len(calls) != stopped_line:
            return real(line, **{**options, "limit_s": None})

        def progress(report):
            if report.done == 2:
                raise KeyboardInterrupt
        return real(line, **{**options, "limit_s": None, "progress": progress})

    monkeypatch.setattr("solver.benchmark.run_line", stopped_after_two_deals)


RUFER = "Schafkopf Rufer: points + every opening card"
SOLO = "Schafkopf Solo H: points + every opening card"


def test_bench_stopped_part_way_through_a_line_keeps_the_deals_it_measured(monkeypatch, tmp_path):
    """Ctrl-C in a line keeps the deals it measured: they are shown as its last row (``2 of 5``), saved in the
    partial run's ``partial.unfinished`` with the deals planned, and counted on stderr; ``--compare`` reads the
    run's finished lines (with ``--json`` the stopped line is only counted, on stderr)."""
    import json

    from test_cli import SCHEMA, schema_errors

    _stopped_in_line(monkeypatch, 2)
    saved = tmp_path / "run.json"
    result = runner.invoke(app, ["bench", "-g", "sk", "-n", "5", "--threads", "1", "--out", str(saved)])
    assert result.exit_code == 130 and "Traceback" not in result.stderr, result.stderr
    assert (f"stich: bench: stopped by the interrupt in the line '{SOLO}' after 2 of 5 deals: 1 of 3 lines finished "
            f"(above); the finished lines and the deals of the line stopped in saved to {saved}, marked partial"
            in result.stderr)
    assert "│ Schafkopf Rufer" in result.stdout and "│ Schafkopf Solo H" in result.stdout
    assert "2 of 5" in result.stdout and f"{SOLO}: stopped by the interrupt after 2 of 5 deals" in result.stdout
    kept = json.loads(saved.read_text())
    assert [line["line"] for line in kept["lines"]] == [RUFER]
    assert kept["partial"]["planned_deals"] == 5 and kept["partial"]["interrupted_during"] == SOLO
    unfinished = kept["partial"]["unfinished"]
    assert (unfinished["line"], unfinished["deals"], len(unfinished["times_ms"])) == (SOLO, 2, 2)
    assert schema_errors(kept, SCHEMA) == []  # docs/stich-result.schema.json's benchRun

    _stopped_in_line(monkeypatch, 2)
    result = runner.invoke(app, ["bench", "-g", "sk", "-n", "5", "--threads", "1", "--json", "--compare", str(saved)])
    assert result.exit_code == 130 and "Traceback" not in result.stderr, result.stderr
    (rufer,) = map(json.loads, result.stdout.splitlines())  # the finished line alone: the stopped one is counted
    assert rufer["line"] == RUFER and rufer["compared"]["median_ms"] > 0, rufer
    assert (f"holds a run stopped early, partial: 1 of 3 lines (stopped by the interrupt during '{SOLO}')"
            in result.stderr)
    assert f"in the line '{SOLO}' after 2 of 5 deals: 1 of 3 lines finished" in result.stderr  # on stderr alone
    assert "(above)" not in result.stderr


def test_bench_stopped_in_its_first_line_keeps_a_run_with_finished_lines(monkeypatch, tmp_path):
    """A run stopped before any line finished does not replace a file with finished lines (which --compare reads);
    where it saves its deals, --compare says what that partial run of no finished line is."""
    import json

    saved = tmp_path / "run.json"
    _stopped_in_line(monkeypatch, 2)
    runner.invoke(app, ["bench", "-g", "sk", "-n", "3", "--threads", "1", "--out", str(saved)])
    before = saved.read_text()
    assert [line["line"] for line in json.loads(before)["lines"]] == [RUFER]

    _stopped_in_line(monkeypatch, 1)
    result = runner.invoke(app, ["bench", "-g", "sk", "-n", "3", "--threads", "1", "--out", str(saved)])
    assert result.exit_code == 130 and "Traceback" not in result.stderr, result.stderr
    assert (f"stich: bench: stopped by the interrupt in the line '{RUFER}' after 2 of 3 deals (above): 0 of 3 lines "
            f"finished; nothing saved to {saved}: it holds finished lines, which this run has none of (kept)"
            in result.stderr)
    assert saved.read_text() == before

    first = tmp_path / "first.json"
    _stopped_in_line(monkeypatch, 1)
    result = runner.invoke(app, ["bench", "-g", "sk", "-n", "3", "--threads", "1", "--out", str(first)])
    assert (f"after 2 of 3 deals (above): 0 of 3 lines finished; the deals of the line stopped in saved to {first}, "
            "marked partial" in result.stderr)
    assert json.loads(first.read_text())["lines"] == []
    result = runner.invoke(app, ["bench", "-g", "sk", "-n", "3", "--compare", str(first)])
    assert result.exit_code == 1 and "Traceback" not in result.stderr and result.stdout == "", result.stderr
    assert (f"{first}: a partial run: stopped in '{RUFER}' after 2 of 3 deals, no finished line to compare; write a "
            "whole run with stich bench --out FILE" in result.stderr)
