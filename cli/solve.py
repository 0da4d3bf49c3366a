"""``stich solve``: the double-dummy value of the position each record of a file reaches."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from solver.analysis import solve_report
from solver.position import Position

from .errors import objective_refused
from .options import (ALL_MESSAGES,
                      BOARD, FILE, JSON, POT, OBJECTIVES, RECORD, TABLE_MB, THREADS, TIME_LIMIT, VARIANT, engine_for,
                      parse_variant_options)
from .records import GameNotes, run_over_records
from .render import Document, render_solve
from .whatif import FROM_START, PLAY


def solve(
    file: Path = FILE,
    board: Optional[str] = BOARD,
    record: Optional[int] = RECORD,
    objective: Optional[List[str]] = OBJECTIVES,
    cards: bool = typer.Option(False, "--cards", help="Also the value of every legal card (equal ones grouped)."),
    line: bool = typer.Option(False, "--line", help="Also an optimal line to the end, trick by trick."),
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
    """Solve the position after each record's Play section (or its ending): what each side (Kratzen: each seat) has
    taken, the double-dummy value of the rest, and the final total."""
    flags = parse_variant_options(variant)
    engine = engine_for(table_mb, threads)
    notes = GameNotes(pot_zero=not as_json)  # the text's pot-0 note, said once a game on stderr

    def document(position: Position) -> Document:
        with objective_refused(objective is not None):
            report = solve_report(position, objective, cards, line, engine=engine, time_limit=time_limit)
        notes.add_if_pot_zero(position, report.get("notes", ()), "line")
        return report

    run_over_records(file, variant=flags, board=board, record=record, play=play, from_start=from_start,
                     diagram="position", as_json=as_json, render=render_solve, time_limit=time_limit, pot=pot,
                     command="solve", all_messages=all_messages, document=document, notes=notes)
