"""What the commands that read positions share for people: ``--play`` (what if these cards were played next?) and
the hand diagram printed above each record's analysis."""

from __future__ import annotations

from typing import Optional

import typer
from rich.console import Console
from rich.text import Text

from solver.diagram import SIGNS, diagram
from solver.errors import ParseError, StichError
from solver.position import Position

PLAY = typer.Option(None, "--play", metavar="CARDS",
                    help="What if: play these cards (one quoted string, e.g. \"T17 T1\") after the record's Play "
                         "section, then analyse.")


def what_if(position: Position, play: Optional[str]) -> Position:
    """``position`` with the ``--play`` cards played; an illegal or unknown card is a ParseError at the record,
    naming the card, its number and the rule it breaks."""
    if not play:
        return position
    try:
        return position.play_cards(play)
    except StichError as error:
        record = position.record
        if record is None:
            raise StichError(f"--play: {error}") from None
        tag = record.tag("Play")
        line, column = (tag.line, tag.column) if tag is not None and tag.line else (record.line, 1)
        raise ParseError(f"--play: {error}", source=record.source, line=line, column=column) from None


def signs_shown() -> bool:
    """Whether stdout can show the suit signs (else the diagram writes suit letters)."""
    from .render import stdout_encodes

    return stdout_encodes("".join(SIGNS.values()))


def print_diagram(position: Position, console: Console, *, dealt: bool = False) -> None:
    """The hand diagram (``dealt``: of the hands as dealt, before the Play section)."""
    if dealt:
        position = Position(position.game, position.rules, position.rules.start(), record=position.record)
    console.print(Text(diagram(position, signs=signs_shown())), soft_wrap=True)
