"""The Typer app behind the ``stich`` command. Each command lives in its own module."""

from __future__ import annotations

import sys
from typing import Optional

import click
import typer

from solver import __version__

from . import analyse as analyse_command
from . import batch as batch_command
from . import bench as bench_command
from . import check as check_command
from . import deal as deal_command
from . import postmortem as postmortem_command
from . import score as score_command
from . import solve as solve_command
from . import table as table_command
from . import tree as tree_command
from .errors import EXIT_BAD_INPUT, EXIT_PIPE_CLOSED

app = typer.Typer(
    name="stich",
    help="Exact double-dummy solver and hand analyser for Zwanzigerrufen, Schafkopf and Kratzen.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        print(f"stich {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Optional[bool] = typer.Option(None, "--version", callback=_version, is_eager=True,
                                           help="Print the version and exit."),
) -> None:
    """Exact double-dummy solver and hand analyser for Zwanzigerrufen, Schafkopf and Kratzen."""


app.command("deal")(deal_command.deal)
app.command("solve")(solve_command.solve)
app.command("check")(check_command.check)
app.command("table")(table_command.table)
app.command("score")(score_command.score)
app.command("bench")(bench_command.bench)
app.command("postmortem")(postmortem_command.postmortem)
app.command("tree")(tree_command.tree)
app.command("analyse")(analyse_command.analyse)
app.command("batch")(batch_command.batch)


def main() -> None:
    try:
        app()
    except SystemExit as done:
        # Typer exits 1 when stdout's reader closed it (``stich ... | head``), having swapped in flush-pacifying
        # streams: that is no bad input, so exit as a command killed by SIGPIPE would, and say nothing
        if done.code == EXIT_BAD_INPUT and isinstance(sys.stdout, click.utils.PacifyFlushWrapper):
            raise SystemExit(EXIT_PIPE_CLOSED) from None
        raise
