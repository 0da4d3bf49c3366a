"""``stich solve``: the double-dummy value of the position each record of a file reaches."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from solver.analysis import solve_report
from solver.search.engine import DEFAULT_TT_MEGABYTES, MAX_TT_MEGABYTES

from .errors import file_name
from .whatif import PLAY
from .render import parse_variant_options, render_solve, run_over_records, use_table_megabytes

FILE = typer.Argument(..., metavar="FILE", show_default=False, parser=file_name,
                      help="A .tbn file (- for standard input); every record is analysed (see --board).")
BOARD = typer.Option(None, "--board", "-b", metavar="BOARD", help="Only the records whose [Board] tag is this.")
VARIANT = typer.Option(None, "--variant", metavar="NAME=VALUE",
                       help="A variant flag (repeatable); overrides the file's [Variant] tag.")
JSON = typer.Option(False, "--json", help="One JSON document per record on stdout (JSON Lines, docs/json.md).")
TABLE_MB = typer.Option(None, "--table-mb", metavar="MB", min=1, max=MAX_TT_MEGABYTES,
                        help=f"The transposition table's size in MB (default {DEFAULT_TT_MEGABYTES}, or "
                             "STICH_TABLE_MB).")


def solve(
    file: Path = FILE,
    board: Optional[str] = BOARD,
    objective: Optional[List[str]] = typer.Option(
        None, "--objective", "-o", metavar="NAME",
        help="What to solve (repeatable): points, game, valat, ... or 'all'. Default: points (in a game without "
             "them, every seat's tricks)."),
    cards: bool = typer.Option(False, "--cards", help="Also the value of every legal card (equal ones grouped)."),
    line: bool = typer.Option(False, "--line", help="Also an optimal line to the end, trick by trick."),
    variant: Optional[List[str]] = VARIANT,
    as_json: bool = JSON,
    table_mb: Optional[int] = TABLE_MB,
    play: Optional[str] = PLAY,
) -> None:
    """Solve the position after each record's Play section (or its ending): what each side has taken, the
    double-dummy value of the rest, and the final total."""
    flags = parse_variant_options(variant)
    use_table_megabytes(table_mb)
    run_over_records(file, variant=flags, board=board, play=play, diagram="position", as_json=as_json,
                     render=render_solve,
                     document=lambda position: solve_report(position, objective, cards, line))
