"""The Typer app behind the ``stich`` command. Each command lives in its own module."""

from __future__ import annotations

import sys
from typing import Optional

import click
import typer

from solver import __version__
from solver.search.engine import implementation, table_megabytes

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
from .errors import EXIT_BAD_INPUT, EXIT_PIPE_CLOSED, input_errors

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
    with input_errors():  # said once here, not once per record when the first engine is made
        implementation()
        table_megabytes()


# One line each for `stich --help` (each command's own --help has its whole docstring).
COMMANDS = (
    ("deal", deal_command.deal,
     "Write seeded random deals as a .tbn file."),
    ("solve", solve_command.solve,
     "Solve each record: what each side has taken, the value of the rest, the total."),
    ("check", check_command.check,
     "Which bonuses (game, Valat, Pagat Ultimo, Schneider, a Kratzen target...) can be forced, and by whom."),
    ("table", table_command.table,
     "Every contract each seat could bid on the dealt hands, solved double dummy."),
    ("score", score_command.score,
     "Score finished deals; with --dd the double-dummy settlement."),
    ("bench", bench_command.bench,
     "Time the engine on seeded deals (median, p90, p99, nodes/s, memory)."),
    ("postmortem", postmortem_command.postmortem,
     "Grade every card played by what it cost under double-dummy play."),
    ("tree", tree_command.tree,
     "Write the game tree of DEPTH cards with double-dummy values as a graph file."),
    ("analyse", analyse_command.analyse,
     "Single-dummy odds of one hand, by sampling the unseen cards."),
    ("batch", batch_command.batch,
     "Solve every record of a file on all cores (or a Dask cluster), resumably."),
)
for name, command, short_help in COMMANDS:
    app.command(name, short_help=short_help)(command)


def main() -> None:
    try:
        app()
    except SystemExit as done:
        # Typer exits 1 when stdout's reader closed it (``stich ... | head``), having swapped in flush-pacifying
        # streams: that is no bad input, so exit as a command killed by SIGPIPE would, and say nothing
        if done.code == EXIT_BAD_INPUT and isinstance(sys.stdout, click.utils.PacifyFlushWrapper):
            raise SystemExit(EXIT_PIPE_CLOSED) from None
        raise
