"""``stich bench``'s bounds and what a stopped line keeps (cli/bench.py); the report script's are in
tests/test_bench_report.py."""

from __future__ import annotations

from typer.testing import CliRunner

from solver.cli.main import app
from solver.limits import MAX_BENCH_DEALS

runner = CliRunner()


def test_bench_count_has_a_cap_said_as_the_other_counts_say_theirs(tmp_path):
    """``-n`` had no upper bound: ``-n 1000000000`` ran for ever and its saved run was past what ``--compare``
    reads. Past MAX_BENCH_DEALS it is a usage error, said as ``match -n`` says its own, and nothing runs or is
    written; the old name ``--deals`` has the same bound."""
    saved = tmp_path / "run.json"
    for flag in ("-n", "--deals"):
        result = runner.invoke(app, ["bench", "-g", "kr", flag, str(MAX_BENCH_DEALS + 1), "--out", str(saved)])
        assert result.exit_code == 2 and "Traceback" not in result.stderr, result.stderr
        assert f"{MAX_BENCH_DEALS + 1} is not in the range 1<=x<={MAX_BENCH_DEALS}." in result.stderr
        assert result.stdout == "" and not saved.exists()
    page = " ".join(runner.invoke(app, ["bench", "--help"]).stdout.split())
    assert f"How many deals per line (the full benchmark uses 100). [default: 10; 1<=x<={MAX_BENCH_DEALS}]" in page
