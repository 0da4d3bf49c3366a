"""``stich score``: the settlement of every finished deal of a file (RULES.md 1.7, 2.5, 3.4)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from solver.scoring import score_report

from .render import Document, parse_variant_options, record_title, run_over_records, seats_text
from .solve import BOARD, FILE, JSON, VARIANT

POT = typer.Option(None, "--pot", min=0, help="Kratzen: the pot at the start of the deal (overrides a [Pot] tag).")


def _signed(value: int) -> Text:
    """A payment, green when received and red when paid."""
    if value > 0:
        return Text(f"+{value}", style="bold green")
    if value < 0:
        return Text(str(value), style="bold red")
    return Text("0")


def _items_table(document: Document) -> Table:
    """One row per item: who wins it, its value with the multipliers, and why."""
    table = Table(title="Items", title_justify="left", show_edge=False)
    for name, justify in [("item", "left"), ("to", "left"), ("from", "left"), ("base", "right"),
                          ("x", "right"), ("value", "right"), ("", "left")]:
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    pot_game = document["pot"] is not None
    for item in document["items"]:
        name = item["name"] + (" (announced)" if item["announced"] else "")
        winners = seats_text(item["winners"]) if item["winners"] else ("pot" if pot_game else "-")
        losers = seats_text(item["losers"]) if item["losers"] else ("pot" if pot_game else "-")
        table.add_row(name, winners, losers, str(item["base"]), str(item["multiplier"]), str(item["value"]),
                      item["reason"])
    return table


def _payments_table(document: Document) -> Table:
    table = Table(title="Payments", title_justify="left", show_edge=False)
    seats = len(document["payments"])
    for seat in range(1, seats + 1):
        table.add_column(f"seat {seat}", justify="right")
    row = [_signed(value) for value in document["payments"]]
    if document["pot"] is not None:
        table.add_column("pot", justify="right")
        row.append(_signed(document["pot_change"]))
    table.add_row(*row)
    return table


def render_score(document: Document, console: Console) -> None:
    """A settlement for people: the title, the items, the payments and any notes."""
    console.print(record_title(document))
    if document["pot"] is not None:
        console.print(f"pot {document['pot']}")
    if document["items"]:
        console.print(_items_table(document))
    else:
        console.print("no items")
    console.print(_payments_table(document))
    for note in document["notes"]:
        console.print(Text(note, style="dim"))


def score(
    file: Path = FILE,
    board: Optional[str] = BOARD,
    variant: Optional[List[str]] = VARIANT,
    pot: Optional[int] = POT,
    as_json: bool = JSON,
) -> None:
    """Score each finished deal of a file: every item, who wins it, its value with the Kontra multipliers, and the
    payment of every seat (Kratzen: and the pot)."""
    flags = parse_variant_options(variant)
    run_over_records(file, variant=flags, board=board, as_json=as_json, render=render_score,
                     document=lambda position: score_report(position, pot=pot))
