"""``stich table``: the double-dummy contract table of each deal of a file."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

from solver.analysis import table_report
from solver.position import Position

from .render import Document, parse_variant_options, progress_on_stderr, render_table, run_over_records
from .solve import BOARD, FILE, JSON, VARIANT


def _table_document(position: Position) -> Document:
    with progress_on_stderr(f"table of {position.label}") as progress:
        return table_report(position, progress=progress)


def table(
    file: Path = FILE,
    board: Optional[str] = BOARD,
    variant: Optional[List[str]] = VARIANT,
    as_json: bool = JSON,
) -> None:
    """Every contract each seat could bid on the dealt hands, with the declaring side's double-dummy points (or
    tricks) and whether it wins; Kratzen: every trump suit with every seat's guaranteed tricks. Endings are
    rejected (bids are made on whole deals); a record's Play section is ignored."""
    flags = parse_variant_options(variant)
    run_over_records(file, variant=flags, board=board, as_json=as_json, render=render_table,
                     document=_table_document)
