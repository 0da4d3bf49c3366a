"""``stich table``: the double-dummy contract table of each deal of a file."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from solver.analysis import table_report
from solver.position import Position
from solver.search.engine import EngineSolver
from solver.search.settle import SettlementEngine
from solver.settlement import settlement_unsupported

from .options import (ALL_MESSAGES,
                      BOARD, FILE, JSON, POT, RECORD, TABLE_MB, THREADS, TIME_LIMIT, VARIANT, engine_for,
                      parse_variant_options)
from .records import GameNotes, run_over_records
from .render import Document, progress_on_stderr, render_table


SETTLEMENT = typer.Option(True, "--settlement/--no-settlement",
                          help="Add the double-dummy settlement column (the declaring side's net score without "
                               "announcements; with the pot, in a game paid from one: --pot, else the record's). On "
                               "by default, unlike score's --dd: a table searches every contract anyway, and "
                               "--no-settlement makes it faster.")


def _table_document(position: Position, settlement: bool, engine: EngineSolver | None,
                    time_limit: float | None = None, settlement_engine: SettlementEngine | None = None,
                    *, notes: GameNotes) -> Document:
    """One record's table; a settlement column the rules cannot give is left out, noted in ``notes`` (said once a
    game and reason after the records: the same for every record of the game), as a pot of 0 is."""
    reason = settlement_unsupported(position) if settlement else None
    with progress_on_stderr(f"table of {position.label}") as progress:
        # the default column is left out, not the whole table
        document = table_report(position, progress=progress, settlement=settlement and reason is None, engine=engine,
                                time_limit=time_limit, settlement_engine=settlement_engine)
    if reason is not None:  # counted once tabled: a record refused (an ending) is not
        notes.add(position, f"no settlement column: {reason}")
    notes.add_if_pot_zero(position, document.get("notes", ()), "contract")  # none without the settlement column
    return document


def table(
    file: Path = FILE,
    board: Optional[str] = BOARD,
    record: Optional[int] = RECORD,
    variant: Optional[List[str]] = VARIANT,
    settlement: bool = SETTLEMENT,
    as_json: bool = JSON,
    all_messages: bool = ALL_MESSAGES,
    table_mb: Optional[int] = TABLE_MB,
    threads: Optional[int] = THREADS,
    time_limit: Optional[float] = TIME_LIMIT,
    pot: Optional[int] = POT,
) -> None:
    """Every contract each seat could bid on the dealt hands, with the declaring side's double-dummy points (or
    tricks) and whether it wins, and its double-dummy settlement; where every seat plays for itself (Kratzen), every
    trump suit for the record's attacker, with every seat's guaranteed tricks. Endings are rejected (bids are made on
    whole deals); a record's Play section is ignored."""
    if pot is not None and not settlement:  # the pot is paid in the settlement column alone
        raise typer.BadParameter("the pot only changes the settlement column, and --no-settlement leaves it out",
                                 param_hint="'--pot'")
    flags = parse_variant_options(variant)
    engine = engine_for(table_mb, threads)
    settlement_engine = SettlementEngine(table_mb, threads=threads) if engine is not None and settlement else None
    notes = GameNotes("tabled without it", pot_zero=not as_json)
    run_over_records(file, variant=flags, board=board, record=record, as_json=as_json, render=render_table,
                     document=lambda position: _table_document(position, settlement, engine, time_limit,
                                                               settlement_engine, notes=notes),
                     time_limit=time_limit, pot=pot, command="table", all_messages=all_messages, notes=notes)
