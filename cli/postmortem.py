"""``stich postmortem``: the double-dummy cost of every card of each record's Play section, graded."""

from __future__ import annotations

import re
from itertools import islice
from pathlib import Path
from typing import List, Optional

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from solver.analysis import every_seat_for_itself, postmortem_report
from solver.errors import did_you_mean, shown_name
from solver.formats.tbn import iter_records
from solver.games.base import score_or_measure
from solver.position import Position
from solver.search.engine import EngineSolver
from solver.scoring import scoring_inputs
from solver.settlement import settlement_unsupported

from .errors import file_name, input_errors, message, objective_refused
from .output import checked_folder, checked_output, names_stdout
from .options import (ALL_MESSAGES,
                      BOARD, FILE, JSON, POT, RECORD, SCORE_OR_MEASURE, TABLE_MB, THREADS, TIME_LIMIT, VARIANT,
                      engine_for, parse_variant_options, score_or_measure_names)
from .records import GameNotes, pot_zero_line, record_place, run_over_records
from .render import CardPainter, CellNotes, Document, print_fitting, progress_on_stderr, short_headers
from .whatif import PLAY

_GRADE_STYLES = {"ok": "", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


class PlotNames:
    """The file each record's plot goes to, named so that a reader can match it to its board: ``OUT`` with the
    record's ``[Board]`` in its name (boards 7, 12, 3 give ``out-7.png``, ``out-12.png``, ``out-3.png``), a record
    without one named by the line it starts on (``out-line40.png``, the place the messages give it), a board met
    again numbered on (the second record of board 7 is ``out-7-2.png``). Where ``--board`` or ``--record`` chose the
    records, or the file holds one record, the name is already theirs: the first plot is ``OUT`` itself, a repeated
    board's next ``OUT-2``."""

    def __init__(self, base: Path, chosen: bool) -> None:
        self.base = base
        self.chosen = chosen
        self.used: set[str] = set()  # casefolded: boards "A" and "a" are one file where names ignore case

    def path_for(self, position: Position) -> Path:
        stem = self.base.stem
        record = position.record
        if not self.chosen and record is not None:
            board = record.board
            # a board is free text: what a file name cannot hold (a slash, a space) becomes "_"
            stem += "-" + (re.sub(r"[^\w.+-]+", "_", board)[:64] if board else f"line{record.line}")
        name, number = stem, 1
        while name.casefold() in self.used:
            number += 1
            name = f"{stem}-{number}"
        self.used.add(name.casefold())
        return self.base.with_name(name + self.base.suffix)


def one_record(file: Path) -> bool:
    """Whether a named file holds a single record (read up to its second; standard input is read once, so it
    counts as several): its plot then keeps the name given."""
    if str(file) == "-":
        return False
    with input_errors():
        return len(list(islice(iter_records(file), 2))) == 1


def postmortem_document(position: Position, plot: PlotNames | None,
                        engine: EngineSolver | None = None, objective: str | None = None,
                        time_limit: float | None = None, *, notes: GameNotes) -> Document:
    """The post-mortem of one record as a JSON-ready document; the plot written on the side if asked. Graded by
    ``objective``; by default the score, but where every seat plays for itself (Kratzen) by each mover's own tricks,
    since the score is the attacker's payment and grades nobody else's cards; by card points where the rules have
    no settlement search (said on stderr). ``time_limit`` bounds the record's searches together (SearchStopped: no
    plot is written). What the game's rules make the same for every record of it (graded by card points, pot 0) is
    noted in ``notes``, said once a game and note after the records (counted once the record is answered: its plot
    written too)."""
    from solver.postmortem import analyse_play, settled_line
    from solver.plot import write_plot

    if objective is None:
        objective = "points" if every_seat_for_itself(position) else "score"
    else:
        with objective_refused(True):
            objective = graded_by(position, objective)
    reason = settlement_unsupported(position) if objective == "score" else None
    said: list[str] = []  # notes on the record, counted in ``notes`` once it is answered (a refused record is not)
    if reason is not None:
        said.append(f"graded by card points: {reason}")
        objective = "points"
    if objective == "score" and position.game.has_pot and not scoring_inputs(position):
        said.append(pot_zero_line(position, "card"))
    with progress_on_stderr(f"post-mortem of {position.label}"):
        analysis = analyse_play(position, engine=engine, objective=objective, time_limit=time_limit)
    document: Document = postmortem_report(position, analysis)
    if plot is not None and not position.played:
        message(f"stich: {position.label}: no Play section, so no plot")
    elif plot is not None:
        written = plot.path_for(position)
        write_plot(analysis, written)  # through a temporary file: no half-written plot
        message(f"stich: wrote {written} ({position.label})")
    settled = settled_line(document)  # the library's line, which JSON carries as settled_after
    if settled is not None:
        message(f"stich: {record_place(position)}: {settled}")
    for note in said:
        notes.add(position, note)
    return document


def graded_by(position: Position, objective: str) -> str:
    """``--objective`` as :func:`analyse_play` takes it, ``score`` or ``points`` (the game's own measure); a name
    that is not this game's measure (``points`` for Kratzen, ``tricks`` elsewhere) is an InvalidContractError, as
    ``stich solve`` refuses it: said as ``--objective``'s error for the record (:func:`~cli.errors.objective_refused`),
    not as the record's."""
    return score_or_measure(position.game, objective, f"{position.game.name} "
                            f"{position.game.contract_in_words(position.rules.contract)}")


def render_postmortem(document: Document, console: Console) -> None:
    """A row per card (before / best / after / cost / grade), then a row per seat; each table in the narrow
    layout where its boxes do not fit the console."""
    from solver.postmortem import NO_PLAY, card_table_title, grade_note, measure_note, no_cost_line

    painter = CardPainter.for_game(document["game"])
    cards = document["cards"]
    if not cards:
        console.print(Text(NO_PLAY, style="dim"))
        return
    unit = document["measure"]
    alone = document["every_seat_for_itself"]
    title = card_table_title(document["game"], unit, document["declarer"], document["declaring_side"])
    # Kratzen has no bonuses: the one objective watched is the mover's own trick target (RULES.md 3.3)
    lost_column, lost_summary = ("target lost", "target lost") if alone else ("bonus lost", "bonuses lost")
    print_fitting(console, lambda narrow, notes: _cards_table(document, painter, title, lost_column, narrow, notes))
    if document.get("points_note"):  # graded by card points that the contract's score does not count (a Tout)
        console.print(Text(document["points_note"], style="bold"))
    note = measure_note(unit)  # the library's words, which a PlayAnalysis renders in Jupyter too
    if note:
        console.print(Text(note, style="dim"))
    console.print(Text(grade_note(unit), style="dim"))
    unharmed = no_cost_line(document)
    if unharmed:
        console.print(Text(unharmed, style="bold"))
    for line in painted_game_changes(document, painter):
        console.print(line)
    print_fitting(console, lambda narrow, notes: _players_table(document, lost_summary, narrow, notes))


def painted_game_changes(document: Document, painter: CardPainter) -> list[Text]:
    """The library's lines on where the game changed hands (:func:`solver.postmortem.game_change_lines`, which
    Jupyter's view prints too), the first bold and each card painted in its suit's colour."""
    from solver.postmortem import game_change_lines

    lines = []
    for number, (before, card, after) in enumerate(game_change_lines(document)):
        line = Text(before, style="bold" if number == 0 else "")
        if card:
            line.append_text(painter.card(card))
        line.append(after)
        lines.append(line)
    return lines


def _table(title: str, narrow: bool) -> Table:
    """The post-mortem's tables: rich's boxes, or where they do not fit (``narrow``) no borders but the header's
    rule and two spaces between the columns: twelve columns of boxes take 37 of 80 columns."""
    if narrow:
        return Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD, show_edge=False,
                     pad_edge=False, collapse_padding=True)
    return Table(title=title, title_justify="left", title_style="bold")


def _players_table(document: Document, lost_summary: str, narrow: bool, notes: CellNotes) -> Table:
    """A row per seat: cards played, each grade's count, the cost and the bonuses lost (in ``notes`` where they are
    moved below the table)."""
    from solver.postmortem import GRADES, GRADE_PLURALS, SCORE_MEASURES, cost_columns, players_table_title

    unit = document["measure"]
    by_score = unit in SCORE_MEASURES and _has_points_cost(document)
    summary = short_headers(_table(players_table_title(document["game"], unit), narrow),
                            {"inaccuracies": "inacc.", "cost (points)": "cost (pts)", "cost (tricks)": "cost (tr.)"})
    summary.add_column("seat", justify="right")
    summary.add_column("cards", justify="right")
    for name in GRADES[1:]:
        summary.add_column(GRADE_PLURALS[name], justify="right")
    for column in cost_columns(unit, _has_points_cost(document), document["every_seat_for_itself"]):
        summary.add_column(column, justify="right")
    summary.add_column(lost_summary)
    for player in document["players"]:
        costs = [str(player["cost"])] + ([str(player["points_cost"])] if by_score else [])
        summary.add_row(str(player["seat"]), str(player["cards"]),
                        *(str(player["grades"][name]) for name in GRADES[1:]), *costs,
                        _lost_cell(player, document["every_seat_for_itself"], notes, len(summary.columns) - 1,
                                   document["game"]))
    return summary


def _cards_table(document: Document, painter: CardPainter, title: str, lost_column: str, narrow: bool,
                 notes: CellNotes) -> Table:
    """A row per card. ``narrow``: the layout for a terminal the full table does not fit (116 columns wide, at 80): no
    ``best`` column (always ``before``'s number), the ``better`` cards separated by spaces so that they fold, and no
    borders but the header's rule (``_table``). The bonuses lost go in ``notes`` where they are moved below the table. A
    grade never folds (``mistak`` over ``e`` is no grade): a table too wide with its grades whole is printed at its
    least width."""
    from solver.postmortem import SCORE_MEASURES, cost_columns

    by_score = document["measure"] in SCORE_MEASURES and _has_points_cost(document)
    costs = cost_columns(document["measure"], _has_points_cost(document), document["every_seat_for_itself"],
                         titled=True)
    table = short_headers(_table(title, narrow), {_header("cost (points)"): _header("cost (pts)"),
                                                  ("before", "after"): ("from", "to"),
                                                  _header("cost (tricks)"): _header("cost (tr.)"),
                                                  "bonus lost": "lost"})
    numbers = ("#", "trick", "seat", "card", "before") + (() if narrow else ("best",)) + ("after", *costs)
    for column in (*numbers, "grade", "better", lost_column):  # a cost's unit under it: the table fits 110 boxed
        table.add_column(_header(column), no_wrap=column == "grade",
                         justify="left" if column in ("card", "grade", "better", lost_column) else "right")
    for card in document["cards"]:
        better = painter.cards(card["best_cards"], " " if narrow else "/") if card["cost"] else Text("")
        row: list[Text | str] = [str(card["number"]), str(card["trick"]), str(card["seat"]),
                                 painter.card(card["card"]), str(card["before"]),
                                 *(() if narrow else (str(card["best"]),)), str(card["after"]), str(card["cost"])]
        if by_score:
            row.append(str(card["points_cost"]))
        table.add_row(*row, Text(card["grade"], style=_GRADE_STYLES[card["grade"]]), better,
                      _lost_cell(card, document["every_seat_for_itself"], notes, len(table.columns) - 1,
                                 document["game"]))
    return table


def _header(column: str) -> str:
    """A cost column's header, its unit on a line under it (``cost`` over ``(points)``): the tables fit 110 boxed."""
    return column.replace(" (", "\n(") if column.startswith("cost") else column


def _has_points_cost(document: Document) -> bool:
    """Whether the cards graded by the score have their card points' cost beside (a team contract without card
    points, which a game module may define, has none: no column of blanks)."""
    return all("points_cost" in card for card in document["cards"])


def _lost_cell(row: Document, alone: bool, notes: CellNotes, column: int, game: str) -> str:
    """The bonuses a card or a player lost, by the names players use in ``game``, or the number of their note
    (``notes``, the table's ``column``); in
    Kratzen the only one is the seat's own target, so the "target lost" column says "yes" (its JSON name stays
    "target", the plot's "seat N's target")."""
    from solver.postmortem import lost_text

    if alone:
        return "yes" if row["bonuses_lost"] else ""
    lost = lost_text(row["bonuses_lost"], row["bonuses_handed_over"], game)
    return notes.cell(lost, column) if lost else ""


def postmortem(
    file: Path = FILE,
    board: Optional[str] = BOARD,
    record: Optional[int] = RECORD,
    as_json: bool = JSON,
    all_messages: bool = ALL_MESSAGES,
    plot: Optional[Path] = typer.Option(
        None, "--plot", metavar="OUT.png|OUT.svg|OUT.pdf", parser=file_name,
        help="Also draw the value over the play: cards, tricks, thresholds, mistakes and bonuses marked (one file "
             "per record, named by its board: OUT-7.png for [Board \"7\"], OUT-line40.png for a record without "
             "one; OUT itself with --board or --record, or for a file of one record)."),
    objective: Optional[str] = typer.Option(
        None, "--objective", "-o", metavar="NAME", autocompletion=score_or_measure_names,
        help="Grade by 'score' (game units, the card points beside; the default) or by the game's own measure, "
             "as solve names it: 'points' (card points), or 'tricks' in Kratzen (each mover's own, the default "
             "there: every seat plays for itself and the score is the attacker's own payment in chips)."),
    variant: Optional[List[str]] = VARIANT,
    table_mb: Optional[int] = TABLE_MB,
    threads: Optional[int] = THREADS,
    play: Optional[str] = PLAY,
    pot: Optional[int] = POT,
    time_limit: Optional[float] = TIME_LIMIT,
) -> None:
    """Replay each record's Play section and grade every card by what it cost under double-dummy play: the value
    before it, the best card's value, the value after it, and any bonus thrown away or handed over
    (docs/postmortem.md). By default the value is the score (the declaring side's settlement in game units); in
    Kratzen, where every seat plays for itself, each mover's own tricks (its score: the attacker's payment in
    chips)."""
    from solver.plot import PLOT_FORMATS, load_matplotlib

    flags = parse_variant_options(variant)
    engine = engine_for(table_mb, threads)
    name = None if objective is None else objective.strip().lower()
    if name is not None and name not in SCORE_OR_MEASURE:
        raise typer.BadParameter("the post-mortem grades by 'score', 'points' or (Kratzen) 'tricks', not "
                                 f"{objective!r}{did_you_mean(name, SCORE_OR_MEASURE)}",
                                 param_hint="'--objective' / '-o'")
    names: PlotNames | None = None
    if plot is not None:  # said at once, not after the analysis it would be drawn from
        with input_errors():
            names = PlotNames(plot, chosen=board is not None or record is not None or one_record(file))
            # the suffix before the folder: it must change wherever the plot goes (stdout's names say stdout)
            if not names_stdout(plot) and plot.suffix.lower() not in PLOT_FORMATS:
                raise typer.BadParameter(f"{shown_name(plot)}: the plot is written as .png, .svg or .pdf",
                                         param_hint="'--plot'")
            if names.chosen or names_stdout(plot):
                checked_output(plot, "--plot", inputs=[file], stdout_holds="the post-mortem is printed")
            else:
                checked_folder(plot)  # each record's plot is X-<board> beside it: X itself is never written
            load_matplotlib()
    notes = GameNotes()  # the notes say what became of the records
    run_over_records(file, variant=flags, board=board, record=record, play=play, diagram="dealt", as_json=as_json,
                     render=render_postmortem, pot=pot, time_limit=time_limit, command="postmortem", notes=notes,
                     all_messages=all_messages,
                     document=lambda position: postmortem_document(position, names, engine, name, time_limit,
                                                                   notes=notes))
