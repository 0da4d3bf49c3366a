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


def test_bench_stopped_part_way_through_a_line_keeps_the_deals_it_measured(monkeypatch, tmp_path):
    """Ctrl-C in a line lost the deals it had measured: they are shown as its last row (``2 of 5``), saved in the
    partial run's ``partial.unfinished`` with the deals planned, and counted on stderr; ``--compare`` still reads
    the run's finished lines alone."""
    import json

    import solver.benchmark as benchmark
    from test_cli import SCHEMA, schema_errors

    calls: list[str] = []
    real = benchmark.run_line

    def stopped_after_two_deals(line, **options):
        calls.append(line.name)
        if len(calls) == 1:
            return real(line, **{**options, "limit_s": None})

        def progress(report):
            if report.done == 2:
                raise KeyboardInterrupt
        return real(line, **{**options, "limit_s": None, "progress": progress})

    monkeypatch.setattr("solver.benchmark.run_line", stopped_after_two_deals)
    saved = tmp_path / "run.json"
    result = runner.invoke(app, ["bench", "-g", "sk", "-n", "5", "--threads", "1", "--out", str(saved)])
    assert result.exit_code == 130 and "Traceback" not in result.stderr, result.stderr
    solo = "Schafkopf Solo H: points + every opening card"
    assert (f"stich: bench: stopped by the interrupt in the line '{solo}' after 2 of 5 deals: 1 of 3 lines finished "
            f"(above); the finished lines and the deals of the line stopped in saved to {saved}, marked partial"
            in result.stderr)
    assert "│ Schafkopf Rufer" in result.stdout and "│ Schafkopf Solo H" in result.stdout
    assert "2 of 5" in result.stdout and f"{solo}: stopped by the interrupt after 2 of 5 deals" in result.stdout
    kept = json.loads(saved.read_text())
    assert [line["line"] for line in kept["lines"]] == ["Schafkopf Rufer: points + every opening card"]
    assert kept["partial"]["planned_deals"] == 5 and kept["partial"]["interrupted_during"] == solo
    unfinished = kept["partial"]["unfinished"]
    assert (unfinished["line"], unfinished["deals"], len(unfinished["times_ms"])) == (solo, 2, 2)
    assert schema_errors(kept, SCHEMA) == []  # docs/stich-result.schema.json's benchRun
