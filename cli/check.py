"""``stich check``: which bonuses can be forced in each record of a file, and by whom."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

from solver.analysis import check_report

from .whatif import PLAY
from .render import parse_variant_options, render_check, run_over_records, use_table_megabytes
from .solve import BOARD, FILE, JSON, TABLE_MB, VARIANT


def check(
    file: Path = FILE,
    board: Optional[str] = BOARD,
    variant: Optional[List[str]] = VARIANT,
    as_json: bool = JSON,
    table_mb: Optional[int] = TABLE_MB,
    play: Optional[str] = PLAY,
) -> None:
    """Can the game, each bonus of the contract (Valat, Pagat Ultimo, Schneider, Tout, ...) or each seat's own
    target be forced from the position? Each is answered both ways: one side forces it or
    the other side stops it."""
    flags = parse_variant_options(variant)
    use_table_megabytes(table_mb)
    run_over_records(file, variant=flags, board=board, play=play, diagram="position", as_json=as_json,
                     render=render_check, document=check_report)
