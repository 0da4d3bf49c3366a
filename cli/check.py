"""``stich check``: which bonuses can be forced in each record of a file, and by whom."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

from solver.analysis import check_report
from solver.position import Position

from .options import (ALL_MESSAGES,
                      BOARD, FILE, JSON, POT, RECORD, TABLE_MB, THREADS, TIME_LIMIT, VARIANT, engine_for,
                      parse_variant_options)
from .records import GameNotes, run_over_records
from .render import Document, render_check
from .whatif import FROM_START, PLAY


def check(
    file: Path = FILE,
    board: Optional[str] = BOARD,
    record: Optional[int] = RECORD,
    variant: Optional[List[str]] = VARIANT,
    as_json: bool = JSON,
    all_messages: bool = ALL_MESSAGES,
    table_mb: Optional[int] = TABLE_MB,
    threads: Optional[int] = THREADS,
    play: Optional[str] = PLAY,
    from_start: bool = FROM_START,
    time_limit: Optional[float] = TIME_LIMIT,
    pot: Optional[int] = POT,
) -> None:
    """Can the game, each bonus of the contract (Valat, Pagat Ultimo, Schneider, Tout, ...) or each seat's own
    target be forced from the position? Each is answered both ways: one side forces it or
    the other side stops it."""
    flags = parse_variant_options(variant)
    engine = engine_for(table_mb, threads)
    notes = GameNotes(pot_zero=not as_json)  # the text's pot-0 note, said once a game on stderr

    def document(position: Position) -> Document:
        report = check_report(position, engine=engine, time_limit=time_limit)
        notes.add_if_pot_zero(position, (report.get("score") or {}).get("notes", ()), "line")
        return report

    run_over_records(file, variant=flags, board=board, record=record, play=play, from_start=from_start,
                     diagram="position", as_json=as_json, render=render_check, time_limit=time_limit, pot=pot,
                     command="check", all_messages=all_messages, document=document, notes=notes)
