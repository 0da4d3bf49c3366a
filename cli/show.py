"""``stich show``: the hand diagram of each record of a file (after ``--play``), or the record as played."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import List, Optional

import typer

from solver.analysis import contract_header, record_header, show_report
from solver.diagram import diagram
from solver.formats.tbn import Record, write_late_comments
from solver.position import Position
from solver.scoring import read_pot

from .errors import file_name
from .options import ALL_MESSAGES, BOARD, JSON, POT, RECORD, VARIANT, parse_variant_options
from .records import GameNotes, pot_zero_line, run_over_records, with_what_if
from .render import Document, diagram_width, record_title, signs_shown, stdout_console, wrapped_at_words
from .whatif import PLAY


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
    as_json: bool = JSON,
) -> None:
    """Print each record's deal as a hand diagram: the hands around the table with suit signs, the trick in
    progress, who led it and who is to play, and what each seat has won. With --play, the position after those
    cards; with --tbn, the record itself as played, to save a what-if as a file. --pot sets a Kratzen record's pot
    (its [Pot] tag), shown under the title and written by --tbn. With --json, each record's position as a JSON line
    (docs/json.md: the hands, the trick, who is to play, what each seat has won, the cards played)."""
    if tbn and as_json:
        raise typer.BadParameter("--tbn writes the record as text and --json the position as JSON: give one",
                                 param_hint="'--json'")
    flags = parse_variant_options(variant)
    if tbn and isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.encoding.lower().replace("-", "") != "utf8":
        # a record is read back as UTF-8: an ASCII or Latin-1 stdout would write its tags' text (an [Event]'s names)
        # changed, a file that reads back as something else
        sys.stdout.flush()
        sys.stdout.reconfigure(encoding="utf-8", errors="surrogateescape")
    signs = signs_shown()
    console = stdout_console()
    width = diagram_width(console)  # a narrow terminal's: the hands stacked where the table does not fit

    made = [0]  # records made (printed but for one an interrupt stopped): a blank line ends the last one
    # the record being answered as read (before --play's cards copy it), then the last one written and its comments
    # then: comments after a file's last record reach it as read when the file ends, and are written after it then
    reading: list[Record | None] = [None]
    written: list = [None, 0]

    def note_read(item: Record) -> None:
        reading[0] = item

    notes = GameNotes()  # a record of a game paid from a pot without one: the way to give it, said once on stderr

    def document(position: Position) -> Document:
        made[0] += 1
        if tbn:
            written[:] = [reading[0], len(reading[0].comments) if reading[0] is not None else 0]
            return {"text": position.to_tbn()}
        if as_json:
            return show_report(position)
        # the title the other commands print over their diagram (record_title: board, file:line, game, contract,
        # what-if), not the diagram's own heading, which says less and differently; made of the headers it reads
        # alone, not of a whole show_report (hands, tricks, taken) per record
        headers = {**record_header(position), **contract_header(position)}
        title = record_title(with_what_if(headers, position, play)).plain
        if position.game.has_pot and read_pot(position.record, None) == 0:  # pot_zero_line: given on purpose or not
            notes.add(position, pot_zero_line(position, "deal"), "")
        return {"text": wrapped_at_words(f"{title}\n{diagram(position, signs=signs, heading=False, width=width)}",
                                         console)}

    try:  # each record's text as it is (a console would turn its tabs into spaces)
        run_over_records(file, variant=flags, board=board, record=record, play=play, as_json=as_json, pot=pot,
                         render=None, document=document, command="show", all_messages=all_messages,
                         as_read=note_read if tbn else None)  # only --tbn writes a record's late comments
        notes.say()
    finally:
        if tbn and made[0]:
            sys.stdout.write("\n")  # a blank line ends the last record too, so that saved files concatenate
            last, count = written
            if last is not None:
                write_late_comments(last, count, sys.stdout)
            sys.stdout.flush()
