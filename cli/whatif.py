"""``--play``: what if these cards were played next? The option and its reading, shared by the commands that read
positions (the hand diagram they print is drawn in :mod:`cli.render`)."""

from __future__ import annotations

from typing import Optional

import typer

from solver.errors import ParseError, StichError
from solver.position import Position

PLAY = typer.Option(None, "--play", metavar="CARDS",
                    help="What if: play these cards (one quoted string, e.g. \"T17 T1\") after the record's Play "
                         "section; the command then works on the position they reach.")


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
