"""``stich score``: the settlement of every finished deal of a file (RULES.md 1.7, 2.5, 3.4)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, List, Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from solver.analysis import score_report
from solver.errors import SearchStopped
from solver.games import get_game
from solver.games.outcome import pot_after_said, role_text, signed
from solver.position import Position
from solver.search.engine import EngineSolver
from solver.search.settle import SettlementEngine
from solver.settlement import points_comparison, settlement_unsupported

from .options import (ALL_MESSAGES,
                      BOARD, FILE, JSON, POT, RECORD, SCORE_TIME_LIMIT, TABLE_MB, THREADS, VARIANT, engine_for,
                      parse_variant_options)
from .records import GameNotes, PartlyAnswered, run_over_records
from .render import (CardPainter, CellNotes, Document, for_stdout, noted_table, plural, print_notes, record_title,
                     seats_text, side_name)
from .whatif import PLAY

DD = typer.Option(False, "--dd", help="Also the double-dummy settlement: from the deal's start when its play is "
                                      "complete, else from the end of its Play section (off by default, unlike "
                                      "table's --settlement: without it score searches nothing, and answers at "
                                      "once).")


def _signed(value: int) -> Text:
    """A payment as the library writes it (:func:`solver.games.outcome.signed`), green when received and red when
    paid."""
    return Text(signed(value), style="bold green" if value > 0 else "bold red" if value < 0 else "")


def _print_items(document: Document, game: str, console: Console) -> None:
    """The items' table, its long reasons below it as numbered notes where the console is narrow (CellNotes)."""
    table, notes = noted_table(console, lambda notes: _items_table(document, game, notes))
    console.print(table)
    notes.print(console)


def _items_table(document: Document, game: str, notes: CellNotes) -> Table:
    """One row per item (by the name players use, ``Game.sided_item_title``: ``Absolut against``): who wins it, its
    value with the multipliers, and why (in ``notes`` where they are moved below the table)."""
    table = Table(title="Items", title_justify="left", title_style="bold")
    columns = [("item", "left"), ("to", "left"), ("from", "left"), ("base", "right"), ("x", "right"),
               ("value", "right"), ("why", "left")]
    for name, justify in columns:
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    why = [name for name, _ in columns].index("why")
    pot_game = document["pot"] is not None
    for item in document["items"]:
        name = (get_game(game).sided_item_title(item["name"], item.get("against", False))
                + (" (announced)" if item["announced"] else ""))
        winners = seats_text(item["winners"]) if item["winners"] else ("pot" if pot_game else "-")
        losers = seats_text(item["losers"]) if item["losers"] else ("pot" if pot_game else "-")
        table.add_row(name, winners, losers, str(item["base"]), str(item["multiplier"]), str(item["value"]),
                      notes.cell(for_stdout(item["reason"]), why))
    return table


def _payments_table(document: Document, title: str = "Payments") -> Table:
    table = Table(title=title, title_justify="left", title_style="bold")
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
    """A settlement for people: the title, the items, the payments and any notes (and with --dd the double-dummy
    settlement)."""
    console.print(record_title(document))
    pot = document["pot"] if "items" in document else (document.get("dd") or {}).get("pot")
    headed: list[str] = []  # what the pot line says, which no note under it says again
    if pot is not None:  # as show and solve write it over the diagram (an unfinished deal's said none)
        # what the pot pays, in the diagram's words, finished or not (a Muss pays no trick: the title's contract
        # names the Muss, this says what it means; a pot of 0 settles every seat at 0, said once on stderr with the
        # way to give one); a note in the same words is not said again under the payments
        game = get_game(document["game"])
        pot_words = game.pot_words(game.parse_contract(document["contract"]), pot)
        console.print(f"pot: {plural(pot, 'chip')}, {pot_words}")
        headed.append(pot_words)
    if "items" not in document:
        console.print(Text("the play is not complete: no score yet", style="dim"))
    else:
        if document["items"]:
            _print_items(document, document["game"], console)
        else:
            console.print("no items")
        console.print(_payments_table(document))
        # the pot the next deal starts from, not only its signed change; an ending's starts none
        if document["pot"] is not None and document.get("whole_deal", True):
            console.print(pot_after_said(document["pot"], document["pot_change"],
                                         get_game(document["game"]).score_unit))
        print_notes([note for note in document["notes"] if note not in headed], console, style="dim")
    if document.get("dd") is not None:
        _render_dd(document["dd"], console, document["every_seat_for_itself"], document["game"],
                   [*document.get("notes", ()), *headed])
    elif "dd" in document:
        console.print()
        console.print(Text("Double-dummy settlement: not answered in the time limit", style="dim"))


def _render_dd(dd: Document, console: Console, every_seat_for_itself: bool, game: str,
               said: Iterable[str]) -> None:
    """The double-dummy settlement, its items and line, and what playing for the most points would settle; its
    notes but those the score above it already ``said`` (a Muss deal's, in the pot line's words)."""
    console.print()
    # where every seat plays for itself, the settlement is the declarer's, against everyone
    who = (role_text(get_game(game).declarer_title, dd['declaring_side']) if every_seat_for_itself
           else side_name(dd['declaring_side']))
    head = Text("Double-dummy settlement", style="bold")
    head.append(f" ({'from the start' if dd['from'] == 'start' else 'from where the play stops'}): {who} net ")
    head.append_text(_signed(dd["value"]))  # coloured; the words as print(dd_settlement(...)) writes them
    head.append(f" {get_game(game).score_unit}")
    console.print(head)
    if dd["items"]:
        _print_items(dd, game, console)
    console.print(_payments_table(dd, "Payments (double dummy)"))
    if dd["line"]:
        seats, cards = len(dd["payments"]), dd["line"]
        first = (seats - dd["cards_on_table"]) % seats or seats  # the cards that complete the trick on the table
        tricks = [cards[:first]] + [cards[i:i + seats] for i in range(first, len(cards), seats)]
        painter = CardPainter.for_game(game)
        console.print(Text("line: ") + Text(" | ").join(painter.cards(trick) for trick in tricks if trick))
    comparison = points_comparison(dd, every_seat_for_itself)
    for number, (words, value) in enumerate(comparison):
        text = Text(words, style="bold" if number == 3 else "")  # the fourth: the settlement gives up points
        if value is not None:
            text.append_text(_signed(value))
        console.print(text)
    print_notes([note for note in dd["notes"] if note not in said], console, style="dim")


def score_document(position: Position, dd: bool,
                   engines: tuple[SettlementEngine | None, EngineSolver | None] = (None, None),
                   time_limit: float | None = None, *, notes: GameNotes) -> Document:
    """``stich score``'s document (:func:`solver.analysis.score_report`); a settlement the rules cannot have is
    noted in ``notes``, said once a game and reason after the records (the same for every record of the game: a
    line a record repeated it), and the score still given; so is a pot of 0. ``engines`` (the
    settlement's and the points') are the library's shared ones unless ``--table-mb`` made them; ``time_limit``
    bounds the double-dummy settlement's searches: past it, a finished deal's score is still given
    (PartlyAnswered), and a deal whose play stops short is not answered."""
    rules = position.rules
    complete = position.game.play_settles(rules, position.state)
    reason = settlement_unsupported(position) if dd and complete else None
    if reason is not None:  # the score is still given; only the settlement cannot be
        notes.add(position, f"no double-dummy settlement: {reason}")
        dd = False
    try:
        document = score_report(position, dd=dd, engine=engines[0], points_engine=engines[1],
                                time_limit=time_limit)
    except SearchStopped:
        if not (dd and complete):
            raise  # the settlement from where the play stops is the whole answer
        # a finished deal's score needs no search: it is still given, the settlement marked as not answered
        partly = {**score_report(position), "dd": None}
        notes.add_if_pot_zero(position, partly.get("notes", ()), "deal")  # its dd is None: no notes of its own
        raise PartlyAnswered(partly, "no double-dummy settlement") from None
    # the score's pot-0 note or the double-dummy settlement's
    notes.add_if_pot_zero(position, [*document.get("notes", ()), *(document.get("dd") or {}).get("notes", ())], "deal")
    return document


def score(
    file: Path = FILE,
    board: Optional[str] = BOARD,
    record: Optional[int] = RECORD,
    variant: Optional[List[str]] = VARIANT,
    pot: Optional[int] = POT,
    dd: bool = DD,
    as_json: bool = JSON,
    all_messages: bool = ALL_MESSAGES,
    table_mb: Optional[int] = TABLE_MB,
    threads: Optional[int] = THREADS,
    time_limit: Optional[float] = SCORE_TIME_LIMIT,
    play: Optional[str] = PLAY,
) -> None:
    """Score each finished deal of a file: every item, who wins it, its value with the Kontra multipliers, and the
    payment of every seat (and the pot, in a game paid from one). With --dd also the double-dummy settlement, the
    net the declarers can force when both sides play for the score, beside what playing for the most points would
    settle; --time-limit bounds each record's double-dummy searches (a finished deal's score is still given when
    they run out of time)."""
    flags = parse_variant_options(variant)
    for given, flag, what in ((time_limit, "--time-limit", "a time limit"), (table_mb, "--table-mb", "a table size"),
                              (threads, "--threads", "threads")):
        if given is not None and not dd:
            raise typer.BadParameter(f"only the double-dummy settlement (--dd) searches, so only it takes {what}",
                                     param_hint=f"'{flag}'")
    points_engine = engine_for(table_mb, threads) if dd else None  # only --dd searches
    engines = (SettlementEngine(table_mb, threads=threads) if points_engine is not None else None, points_engine)

    notes = GameNotes("scored without it", pot_zero=not as_json)

    def document(position: Position) -> Document:
        return score_document(position, dd, engines, time_limit, notes=notes)

    run_over_records(file, variant=flags, board=board, record=record, as_json=as_json, render=render_score,
                     document=document, time_limit=time_limit, play=play, pot=pot, command="score", notes=notes,
                     all_messages=all_messages)
