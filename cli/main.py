"""The Typer app behind the ``stich`` command. Each command lives in its own module."""

from __future__ import annotations

import io
import os
import signal
import sys
import threading
from typing import Optional

import typer

from solver import __version__
from solver.deal import small_number
from solver.games import game_list

from . import analyse as analyse_command
from . import batch as batch_command
from . import board as board_command
from . import bench as bench_command
from . import check as check_command
from . import deal as deal_command
from . import postmortem as postmortem_command
from . import score as score_command
from . import show as show_command
from . import solve as solve_command
from . import table as table_command
from . import tree as tree_command
from .errors import EXIT_BAD_INPUT, EXIT_PIPE_CLOSED

app = typer.Typer(
    name="stich",
    help=f"Exact double-dummy solver and hand analyser for {game_list('and')}.",
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
    """Exact double-dummy solver and hand analyser for trick-taking games."""


# One line each for `stich --help` (each command's own --help has its whole docstring).
COMMANDS = (
    ("deal", deal_command.deal,
     "Write seeded random deals as a .tbn file."),
    ("show", show_command.show,
     "Print each record's deal as a hand diagram (after --play's cards, if given)."),
    ("solve", solve_command.solve,
     "Solve each record: what each side has taken, the value of the rest, the total."),
    ("check", check_command.check,
     "Which bonuses (game, Valat, Pagat Ultimo, Schneider, a seat's target...) can be forced, and by whom."),
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
    ("board", board_command.board,
     "A local web board: the hands on a table, every card's value, click to play, the evaluation graph."),
)
for name, command, short_help in COMMANDS:
    app.command(name, short_help=short_help)(command)


def _stdout_file() -> tuple[int, int] | None:
    """What file descriptor 1 is (device and inode), or None if it is closed."""
    try:
        status = os.fstat(1)
    except OSError:
        return None
    return status.st_dev, status.st_ino


def _stdout_pointed_at_null(before: tuple[int, int] | None) -> bool:
    """Whether rich, finding stdout's reader gone, pointed descriptor 1 at /dev/null (it does so before exiting 1,
    as when ``stich --help | head -1`` closes the pipe during the help)."""
    now = _stdout_file()
    if now is None or now == before:
        return False
    null = os.stat(os.devnull)
    return now == (null.st_dev, null.st_ino)


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM stops a command as Ctrl-C does: its pools stopped, its temporary files gone


def _safe_streams() -> None:
    """What rich and the streams would fail on before any command runs: a COLUMNS or LINES that is no ASCII number
    (rich reads it with ``int`` after ``str.isdigit``, which takes "²") is dropped, as if unset; and a stdout whose
    encoding lacks a character (ASCII, Latin-1) shows it as "?" instead of failing on a card sign, a file name or a
    tag's text (JSON stays exact: it escapes what the encoding lacks)."""
    for name in ("COLUMNS", "LINES"):
        value = os.environ.get(name)
        if value is not None and small_number(value) is None:
            del os.environ[name]
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="replace")


def main() -> None:
    _safe_streams()
    stdout_before = _stdout_file()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminate)  # (batch installs its own for its run, and restores this after)
    try:
        app()
    except SystemExit as done:
        # Typer and rich exit 1 when stdout's reader closed it (``stich ... | head``), having swapped in
        # flush-pacifying streams or pointed stdout at /dev/null: that is no bad input, so exit as a command killed by
        # SIGPIPE would, and say nothing (the wrapper is known by name: typer may bring its own copy of click's)
        pacified = type(sys.stdout).__name__ == "PacifyFlushWrapper"
        if done.code == EXIT_BAD_INPUT and (pacified or _stdout_pointed_at_null(stdout_before)):
            raise SystemExit(EXIT_PIPE_CLOSED) from None
        raise
