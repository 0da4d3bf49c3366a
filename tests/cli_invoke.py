"""The command line run in-process as the CLI tests run it: a command's arguments, the exit code it must give, and
never a traceback on either stream (the brief's bad-input standard holds for every command a test runs)."""

from __future__ import annotations

from typer.testing import CliRunner, Result

from cli.main import app

runner = CliRunner()


def run(*args: object, code: int = 0) -> Result:
    """The result of ``stich ARGS``, checked to exit with ``code`` and to show no traceback."""
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr, result.exception)
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    return result
