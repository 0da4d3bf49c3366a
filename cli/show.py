"""``stich show``: the hand diagram of each record of a file (after ``--play``), or the record as played."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer

from solver.diagram import diagram
from solver.position import Position

from .errors import file_name
from .options import ALL_MESSAGES, BOARD, POT, RECORD, VARIANT, parse_variant_options
from .records import run_over_records
from .render import Document, diagram_width, signs_shown, stdout_console
from .whatif import PLAY, played_names, what_if_note


def show(
    file: Path = typer.Argument(..., metavar="FILE", show_default=False, parser=file_name,
                                help="A .tbn file (- for standard input); every record is shown (see --board, "
                                     "--record)."),
    board: Optional[str] = BOARD,
    record: Optional[int] = RECORD,
    play: Optional[str] = PLAY,
    variant: Optional[List[str]] = VARIANT,
    pot: Optional[int] = POT,
    all_messages: bool = ALL_MESSAGES,
    tbn: bool = typer.Option(False, "--tbn", help="Write each record as played (with --play's cards) as .tbn text "
                                                  "instead of the diagram."),
) -> None:
    """Print each record's deal as a hand diagram: the hands around the table with suit signs, the trick in
    progress, who led it and who is to play, and what each seat has won. With --play, the position after those
    cards; with --tbn, the record itself as played, to save a what-if as a file. --pot sets a Kratzen record's pot
    (its [Pot] tag), shown under the title and written by --tbn."""
    flags = parse_variant_options(variant)
    signs = signs_shown()
    width = diagram_width(stdout_console())  # a narrow terminal's: the hands stacked where the table does not fit

    made = [0]  # records made (printed but for one an interrupt stopped): a blank line ends the last one

    def document(position: Position) -> Document:
        made[0] += 1
        if tbn:
            return {"text": position.to_tbn()}
        heading, rest = diagram(position, signs=signs, width=width).split("\n", 1)
        # the heading says the what-if, as the other commands' titles do: not the record's own position
        return {"text": f"{heading}{what_if_note(played_names(position, play))}\n{rest}"}

    try:  # each record's text as it is (a console would turn its tabs into spaces)
        run_over_records(file, variant=flags, board=board, record=record, play=play, as_json=False, pot=pot,
                         render=None, document=document, command="show", all_messages=all_messages)
    finally:
        if tbn and made[0]:
            sys.stdout.write("\n")  # a blank line ends the last record too, so that saved files concatenate
            sys.stdout.flush()
