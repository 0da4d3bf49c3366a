"""The play post-mortem: the double-dummy cost of every card of a played deal, graded like a chess analysis.

:func:`analyse_play` replays a record's Play section from the deal's start and asks the engine, before each card, what
the best card would have kept and what the card played kept. The difference is what the player's side lost with that
card (card points, or where every seat plays for itself the tricks of the player's own seat); on top of that every
yes/no bonus of the contract (the game's ``bonus_names``, or a seat's own target) that was forceable before the card
and no longer after it, or that the card handed to the opponents, is listed. Cards are graded by :data:`POINT_GRADES`
/ :data:`TRICK_GRADES` (``docs/postmortem.md`` has the table).

Values are always totals (what is already won plus the double-dummy value of the rest) so that they can be read
against the final score: for card-point games from the declaring side's view, where every seat plays for itself the
mover's own tricks.
"""

from __future__ import annotations

import threading
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, Mapping, Sequence

from .diagram import card_names
from .errors import InvalidContractError, StichError
from .games import get_game
from .games.base import Objective, PayoffComponent, Rules, tricks_objective
from .games.outcome import measure_words, role_text, side_text
from .html_tables import html_lines, html_table
from .position import Position, check_position, every_seat_for_itself
from .scoring import score_counts_points_measure, scoring_inputs, uncounted_points_note, unscored_bonuses
from .search.boundary import Deadline
from .search.engine import EngineSolver, solver_for
from .search.settle import PayoffSpec
from .state import PlayState

#: Grades, from harmless to worst (the order the summaries count them in).
GRADES = ("ok", "inaccuracy", "mistake", "blunder")

#: Card-point games: (smallest cost, grade), checked from the top. Any lost bonus is a blunder whatever the cost.
POINT_GRADES = ((15, "blunder"), (6, "mistake"), (1, "inaccuracy"), (0, "ok"))

#: Trick-counting games (every seat for itself): a trick is a mistake, two or more, or a missed target, a blunder.
TRICK_GRADES = ((2, "blunder"), (1, "mistake"), (0, "ok"))

#: Grading by the score (the declaring side's net in game units): a lost game of a Normal or a Rufer costs 4.
SCORE_GRADES = ((4, "blunder"), (2, "mistake"), (1, "inaccuracy"), (0, "ok"))
#: Grading by the score in chips (a game paid from a pot), counted in a quarter of the pot (what a trick pays outside
#: a Muss) as the trick-counting grades count tricks: less than one an inaccuracy, one a mistake, two or more (a missed
#: target costs a defender the pot, 4 quarters, the attacker 8) a blunder. A Muss pays no trick: a card there costs
#: the attacker's missed target or nothing, a blunder or ok.
CHIP_GRADES = ((2, "blunder"), (1, "mistake"))
#: What the score counts in: game units, or chips where the game is paid from a pot (Kratzen: the attacker's own
#: payment, every seat playing for itself).
SCORE_MEASURES = ("game units", "chips")
#: The measures of a post-mortem where every seat plays for itself: each mover's own tricks, or (by the score) the
#: attacker's payment in chips from the pot (Kratzen); a post-mortem's tables name their columns by them.
OWN_MEASURES = ("tricks", "chips")
#: How the per-seat table heads each grade's count.
GRADE_PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


@dataclass(frozen=True)
class CardAnalysis:
    """One card of the play: who played it, what it kept and what it cost.

    ``before``, ``best`` and ``after`` are totals of ``measure`` for ``view`` (the declaring side, or in a
    trick-counting game the mover's seat): the value before the card, the value the best legal card keeps, the value
    after the card played. ``cost`` is what the mover's side lost (never negative). ``bonuses_lost`` names the yes/no
    objectives the card threw away (its own side's) or handed over (the opponents'); ``bonuses_handed_over`` are
    those of them that were the opponents' to force."""

    number: int
    trick: int
    seat: int
    card: str
    before: int
    best: int
    after: int
    cost: int
    best_cards: tuple[str, ...]
    bonuses_lost: tuple[str, ...]
    grade: str
    measure: str
    view: tuple[int, ...]
    points_cost: int | None = None  # graded by the score: its cost in card points (or tricks)
    bonuses_handed_over: tuple[str, ...] = ()
    game: str = field(default="", compare=False)  # writes the cards as the diagram does (♠K); "": their names

    @property
    def is_mistake(self) -> bool:
        """Whether the card cost anything (any grade but ``ok``)."""
        return self.grade != "ok"

    def __str__(self) -> str:
        """Its line of the post-mortem printed (``print(analysis.cards[0])``): the value before, after and the best,
        the grade, and for a card that cost something the cost, the better cards and the bonuses lost; the
        dataclass ``repr`` stays for debugging."""
        line = (f"{self.number:3d}  trick {self.trick:2d}  seat {self.seat}  {card_names(self.game, [self.card]):<4} "
                f"{self.before:4d} -> {self.after:4d} (best {self.best:4d})  {self.grade}")
        if self.cost:
            line += f" (cost {self.cost}; better: {card_names(self.game, self.best_cards, '/')})"
        lost = lost_text(self.bonuses_lost, self.bonuses_handed_over, self.game)
        return line + (f"; lost: {lost}" if lost else "")

    def cells(self) -> list[str]:
        """Its row of ``stich postmortem``'s card table, under :func:`card_columns`."""
        cells = [str(self.number), str(self.trick), str(self.seat), card_names(self.game, [self.card]),
                 str(self.before), str(self.best), str(self.after), str(self.cost)]
        if self.measure in SCORE_MEASURES and self.points_cost is not None:  # (none without card points)
            cells.append(str(self.points_cost))
        better = card_names(self.game, self.best_cards, "/") if self.cost else ""
        return cells + [self.grade, better,
                        lost_cell(self.bonuses_lost, self.bonuses_handed_over, self.measure, self.game)]

    def _repr_html_(self) -> str:
        """Its row for Jupyter, under the card table's columns (:class:`PlayAnalysis` renders them all)."""
        columns = card_columns(self.measure, self.points_cost is not None)
        return html_table(columns, [self.cells()], right=number_columns(columns))

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready document of this result (what the command's ``--json`` prints of it)."""
        document = {"number": self.number, "trick": self.trick, "seat": self.seat, "card": self.card,
                    "before": self.before, "best": self.best, "after": self.after, "cost": self.cost,
                    "best_cards": list(self.best_cards), "bonuses_lost": list(self.bonuses_lost),
                    "bonuses_handed_over": list(self.bonuses_handed_over),
                    "grade": self.grade, "measure": self.measure, "view": list(self.view)}
        if self.points_cost is not None:
            document["points_cost"] = self.points_cost
        return document


@dataclass(frozen=True)
class PlayerSummary:
    """One seat's record over the play: cards played, how many of each grade, what they cost in all."""

    seat: int
    cards: int
    grades: dict[str, int] = field(hash=False)
    cost: int
    bonuses_lost: tuple[str, ...]
    points_cost: int | None = None
    bonuses_handed_over: tuple[str, ...] = ()  # those of bonuses_lost that were the opponents' to force
    measure: str = field(default="", compare=False)  # what ``cost`` counts (its cards'); names the table's columns
    game: str = field(default="", compare=False)  # names the bonuses lost as players do; "": by their objectives

    def __str__(self) -> str:
        """One line for people (``print(analysis.players[0])``), its row of ``stich postmortem``'s per-seat
        table, each figure after its column's name: ``seat 1  cards 6  inaccuracies 0  mistakes 1  blunders 0  cost
        (game units) 2  cost (points) 7``, the bonuses lost after; the dataclass ``repr`` stays."""
        columns, cells = player_columns(self.measure, self.points_cost is not None), self.cells()
        return "  ".join(f"{column} {cell}" for column, cell in zip(columns, cells) if cell)

    def cells(self) -> list[str]:
        """Its row of ``stich postmortem``'s per-seat table, under :func:`player_columns`."""
        points = [str(self.points_cost)] if self.measure in SCORE_MEASURES and self.points_cost is not None else []
        return [str(self.seat), str(self.cards), *(str(self.grades.get(name, 0)) for name in GRADES[1:]),
                str(self.cost), *points,
                lost_cell(self.bonuses_lost, self.bonuses_handed_over, self.measure, self.game)]

    def _repr_html_(self) -> str:
        """Its row for Jupyter, under the per-seat table's columns."""
        columns = player_columns(self.measure, self.points_cost is not None)
        return html_table(columns, [self.cells()], right=range(len(columns) - 1))

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready document of this result (what the command's ``--json`` prints of it)."""
        document = {"seat": self.seat, "cards": self.cards, "grades": dict(self.grades), "cost": self.cost,
                    "bonuses_lost": list(self.bonuses_lost), "bonuses_handed_over": list(self.bonuses_handed_over)}
        if self.points_cost is not None:
            document["points_cost"] = self.points_cost
        return document


@dataclass(frozen=True)
class PlayAnalysis:
    """The post-mortem of a played deal.

    ``curve`` is the declaring side's total (``measure``: points, or in a trick-counting game the declarer's tricks;
    graded by the score, game units, or in a game paid from a pot the declarer's payment in chips) before the first
    card and after each card, the line the plot draws; ``trick_ends`` the card numbers that complete a trick."""

    game: str
    contract: str
    declarer: int
    declaring_side: tuple[int, ...]
    measure: str
    cards: tuple[CardAnalysis, ...]
    curve: tuple[int, ...]
    trick_ends: tuple[int, ...]
    players: tuple[PlayerSummary, ...] = field(default=())
    #: the contract's marks on the curve's scale (the plot draws them): each yes/no
    #: objective counted like the curve, as (name, value) where the curve reaching the value decides it
    thresholds: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    #: the curve's maximum (every point of the deal, or every trick)
    maximum: int = field(default=0, compare=False)
    #: the declaring side's bonuses (Kratzen's per-seat targets: the attacker's) still made or forceable after the
    #: last card
    bonuses_kept: tuple[str, ...] = field(default=(), compare=False)
    points_curve: tuple[int, ...] = ()  # graded by the score: the card points' curve beside it
    #: the threshold that decides the game on the curve's scale, as (name, value): the declaring side's game
    #: ("target": the Kratzen attacker's) is won while the curve is at or above the value, lost below it; None
    #: where the measure has no such line (a Tout graded by points, Zwanzigerrufen by the score)
    winning: tuple[str, int] | None = field(default=None, compare=False)
    #: graded by the score where the settlement has no such line (Zwanzigerrufen scores the game apart from its
    #: bonuses, RULES.md 1.7): the game's threshold on ``points_curve`` (45), which still says who wins the game item
    points_winning: tuple[str, int] | None = field(default=None, compare=False)
    #: False for an ending: its game line is the whole deal's (61, 45) on the ending's own cards, which are scored as
    #: a whole deal's would be (docs/scoring.md), so a small ending's game is lost from the start
    whole_deal: bool = field(default=True, compare=False)
    #: where the rules end the deal though the Play section goes on (:func:`settled_after`), as (card number,
    #: trick); the cards after it are graded as if the deal went on. None where the play ends with the deal
    settled_after: tuple[int, int] | None = field(default=None, compare=False)
    #: graded by card points where the contract's score does not count them (a Schafkopf Tout, a Sie): the line
    #: that says so (:func:`~solver.scoring.uncounted_points_note`), which every view prints; None elsewhere
    points_note: str | None = field(default=None, compare=False)
    #: the flags the deal is played under where they are not the game's defaults, as a title ends with them
    #: (``Variant.note``; empty under the defaults), which the first line of the print and the notebook says
    rules_note: str = field(default="", compare=False)

    @property
    def game_line(self) -> tuple[str, int, tuple[int, ...]] | None:
        """The line the game changes hands at, as (name, value, the curve it is read on): :attr:`winning` on the
        curve, else :attr:`points_winning` on the points' curve (the score has no such line); None where neither
        is given. The JSON document's side is :func:`document_game_line`."""
        if self.winning is not None:
            return (*self.winning, self.curve)
        if self.points_winning is not None and self.points_curve:
            return (*self.points_winning, self.points_curve)
        return None

    @property
    def game_changes(self) -> tuple[tuple[int, bool], ...]:
        """The cards after which the curve of :attr:`game_line` crossed it, as (card number, whether the game is
        now won): where the game changed hands under double-dummy play."""
        if self.game_line is None:
            return ()
        _, value, curve = self.game_line
        return tuple((number, after >= value) for number, (before, after) in
                     enumerate(zip(curve, curve[1:]), 1) if (before >= value) != (after >= value))

    @property
    def graded_by_score(self) -> bool:
        """Whether the curve is the score (game units, or chips), not card points or tricks."""
        return self.measure in SCORE_MEASURES

    @property
    def mistakes(self) -> tuple[CardAnalysis, ...]:
        """The cards that cost something (``is_mistake``), in playing order."""
        return tuple(card for card in self.cards if card.is_mistake)

    def __repr__(self) -> str:
        counts = ", ".join(f"{name} {sum(card.grade == name for card in self.cards)}" for name in GRADES[1:])
        title = get_game(self.game).declarer_title  # Kratzen's attacker
        graded = (f"{len(self.cards)} cards graded by {self.measure}; {counts}" if self.cards
                  else "no Play section, nothing to analyse")  # as print() says it, not "0 cards ... blunder 0"
        return f"<PlayAnalysis {self.game} {self.contract}, {title} {self.declarer}: {graded}>"

    def __str__(self) -> str:
        """A line per card, as a reader of the game goes through it: the value before, the best and after, the cost
        and grade, and for a card that cost something the better cards and the bonuses it lost; then where the game
        changed hands (:func:`game_change_lines`), as ``stich postmortem`` says it; under the title, a record with no
        Play section says :data:`NO_PLAY`, as the command and the notebook's view do, not the title alone."""
        game = get_game(self.game)
        what = totals_view(self.game, self.measure, self.declarer, self.declaring_side)
        lines = [f"{self.game} {game.contract_in_words(self.contract)}, {game.declarer_title} {self.declarer}: {what}"
                 f"{self.rules_note}"]
        if not self.cards:
            return "\n".join(lines + [NO_PLAY])
        document = self.as_dict()
        said = [line for line in (self.points_note, no_cost_line(document), settled_line(document)) if line]
        return "\n".join(lines + [str(card) for card in self.cards] + said + game_change_text(document))

    def plot_svg(self) -> str:
        """The plot of the value over the play (:func:`solver.plot.plot_figure`) as SVG text, which the notebook's
        HTML shows above the tables. Not a ``_repr_svg_``: Jupyter stores every ``_repr_*_`` it finds in the
        notebook, and the plot (some 100 KB) would be kept twice, once alone and once in the HTML."""
        import io

        from .plot import plot_figure

        buffer = io.StringIO()
        plot_figure(self).savefig(buffer, format="svg")  # a Figure of its own, not pyplot's: nothing to close
        return buffer.getvalue()

    def _repr_html_(self) -> str:
        """What Jupyter shows (it prefers HTML to SVG): the plot, then ``stich postmortem``'s tables, every card and
        per seat, with the notes on the measure and the lines on where the game changed hands between them; a record
        with no Play section, the title and :data:`NO_PLAY`, as ``print()`` says it."""
        title = html_lines(str(self).splitlines()[:1], bold=True)
        if not self.cards:
            return f"<div>{title}{html_lines([NO_PLAY])}</div>"
        svg = self.plot_svg()
        columns = card_columns(self.measure, bool(self.points_curve))
        # the plot (some 990 px wide) shrinks to a narrower output area, by its viewBox, rather than run past it
        scaled = svg[svg.index("<svg"):].replace("<svg ", '<svg style="max-width:100%;height:auto" ', 1)
        parts = [title, scaled,
                 html_lines([card_table_title(self.game, self.measure, self.declarer, self.declaring_side)],
                            bold=True),
                 html_table(columns, [card.cells() for card in self.cards], right=number_columns(columns)),
                 html_lines([note for note in [self.points_note, measure_note(self.measure),
                                               grade_note(self.measure)] if note], small=True)]
        document = self.as_dict()
        said = [line for line in (no_cost_line(document), settled_line(document)) if line]
        if said:
            parts.append(html_lines(said))
        changes = game_change_text(document)
        if changes:  # the heading (whose game it was) bold, as the command prints it
            parts += [html_lines(changes[:1], bold=True), html_lines(changes[1:])]
        parts.append(html_lines([players_table_title(self.game, self.measure)], bold=True))
        columns = player_columns(self.measure, bool(self.points_curve))
        parts.append(html_table(columns, [player.cells() for player in self.players], right=range(len(columns) - 1)))
        return f"<div>{''.join(parts)}</div>"

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready document of this result (what the command's ``--json`` prints of it)."""
        return {"game": self.game, "contract": self.contract, "declarer": self.declarer,
                "declaring_side": list(self.declaring_side), "measure": self.measure,
                "cards": [card.as_dict() for card in self.cards], "curve": list(self.curve),
                "trick_ends": list(self.trick_ends), "players": [player.as_dict() for player in self.players],
                **({"points_curve": list(self.points_curve)} if self.points_curve else {}),
                # what the plot draws besides, so that a script can draw its own
                "maximum": self.maximum,
                "thresholds": [{"name": name, "value": value} for name, value in self.thresholds],
                "winning": None if self.winning is None else {"name": self.winning[0], "value": self.winning[1]},
                **({"points_winning": {"name": self.points_winning[0], "value": self.points_winning[1]}}
                   if self.points_winning is not None else {}),
                "game_changes": [{"number": number, "won": won} for number, won in self.game_changes],
                "bonuses_kept": list(self.bonuses_kept), "whole_deal": self.whole_deal,
                "settled_after": settled_after_document(self.settled_after), "points_note": self.points_note}


def settled_after_document(settled: tuple[int, int] | None) -> dict[str, int] | None:
    """:attr:`PlayAnalysis.settled_after` as the JSON documents write it: ``{card, trick}``, or None."""
    return None if settled is None else {"card": settled[0], "trick": settled[1]}


def document_game_line(document: Mapping[str, Any]) -> tuple[Mapping[str, Any], list[int]] | None:
    """:attr:`PlayAnalysis.game_line` read off its JSON document: the ``winning`` line and the ``curve``, else
    ``points_winning`` and ``points_curve``; None where neither is given."""
    if document["winning"] is not None:
        return document["winning"], document["curve"]
    if document.get("points_winning") and document.get("points_curve"):
        return document["points_winning"], document["points_curve"]
    return None


def game_change_lines(document: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """Where the game changed hands under double-dummy play (the document's ``game_changes``), in the words that
    ``stich postmortem`` prints under its card table, Jupyter's view and ``print()`` of a :class:`PlayAnalysis` too:
    whose game it was before the first card, then each card that lost it for its own side or handed it to the other,
    so that the card that lost the game is named and not only read off the ``before`` and ``after`` columns; in an
    ending, that the line is the whole deal's on the ending's own cards (``whole_deal`` false). Each line
    is (the words before the card, the card's name, the words after it), the card "" on a line that names none, so
    that a terminal can paint the card. Nothing where neither curve has a game line (``winning`` and
    ``points_winning`` null)."""
    game_line = document_game_line(document)  # Zwanzigerrufen by the score: the game's 45 on the points' curve
    if game_line is None or not document["cards"]:
        return []
    winning, curve = game_line
    # an ending's line is the whole deal's on the ending's cards: its points before are unknown (docs/scoring.md)
    where = "" if document.get("whole_deal", True) else ", on the ending's own cards"
    if winning["name"] == "target":  # Kratzen: the attacker's own target, every other seat plays against it
        title = get_game(document["game"]).declarer_title
        whose = f"Target (double dummy{where}): {{}} for {role_text(title, [document['declarer']])}"
        them = f"the {title}"
        made, missed, lose, hand = "made", "missed", "missed it", f"let the {title} make it"
    else:
        them = side_text(document["declaring_side"])
        whose = f"Game (double dummy{where}): {{}} for {them}"
        made, missed, lose, hand = "won", "lost", "lost it", f"handed it to {them}"
    start = curve[0] >= winning["value"]
    # short lines: a narrow terminal would fold a long one
    lines = [(whose.format(made if start else missed) + ", from the start", "", "")]
    if not document["game_changes"]:
        lines.append(("  no card changed that", "", ""))
    for change in document["game_changes"]:
        card = document["cards"][change["number"] - 1]
        own = card["seat"] in document["declaring_side"]
        verb = (lose if own else f"took it from {them}") if not change["won"] else ("made it" if own else hand)
        lines.append((f"  card {card['number']} (trick {card['trick']}): seat {card['seat']}'s ", card["card"],
                      f" {verb}"))
    return lines


def game_change_text(document: Mapping[str, Any]) -> list[str]:
    """:func:`game_change_lines` as plain lines, the cards written as the diagram writes them (``♠K``)."""
    return [before + (card_names(document["game"], [card]) if card else "") + after
            for before, card, after in game_change_lines(document)]


def no_cost_line(document: Mapping[str, Any]) -> str | None:
    """The line that says no card of the record cost anything by its measure, so that a reader need not scan every
    grade to learn it: the game's lines say only that no card changed the game. Said of the measure alone: where
    nothing could move the value (a Tout lost in trick 1, by the score) every card keeps it, so it is no praise of
    the play. None where a card is graded worse than ``ok`` or lost a bonus (by points a bonus lost at cost 0 is a
    blunder), or there are no cards; by the score the card points the cards cost (``points_cost``) are added, as a
    line saying nothing was lost would hide them: in Kratzen, which has no card points, the movers' own tricks, as
    the table's ``cost (tricks)`` column names them."""
    cards = document["cards"]
    if not cards or any(card["cost"] or card["grade"] != "ok" or card["bonuses_lost"] for card in cards):
        return None
    line = f"every card kept the double-dummy value: none cost anything in {measure_words(document['measure'])}"
    points = sum(card.get("points_cost") or 0 for card in cards)
    lost = "tricks" if document["measure"] in OWN_MEASURES else "card points"
    return line + (f" ({lost} lost: {points})" if points else "")


def lost_value_line(document: Mapping[str, Any]) -> str | None:
    """How many cards lost value in the measure shown (``cost`` above 0), the words under the board's graph. By card
    points a card that throws a bonus away is a blunder at cost 0 (``grade_note``: "or a bonus lost"): such cards
    are counted apart, as having lost a bonus alone, so the count says what the curve shows (the dots' colours still
    grade them). Where no card lost anything the line is :func:`no_cost_line`'s, in the same words as the command's
    (by the score with the card points lost beside); None where there are no cards."""
    cards = document["cards"]
    if not cards:
        return None
    unharmed = no_cost_line(document)
    if unharmed is not None:
        return unharmed
    measure = measure_words(document["measure"])
    lost = sum(1 for card in cards if card["cost"] > 0)
    # graded by a bonus (or a seat's own target) alone: no value lost in the measure shown
    by_bonus = sum(1 for card in cards if card["cost"] <= 0 and card["grade"] != "ok")
    line = (f"{lost} card{'s' if lost != 1 else ''} lost {measure}" if lost
            else f"no card lost {measure}")
    if by_bonus:
        line += (f"; {by_bonus}{' more' if lost else ''} card{'s' if by_bonus != 1 else ''} lost a bonus alone, "
                 f"at no cost in {measure}")
    return line


def settled_line(document: Mapping[str, Any]) -> str | None:
    """The line that says where the rules end the deal while its Play section goes on (the document's
    ``settled_after``): the cards after it are graded as if the deal went on, while ``stich score`` scores the deal
    where it ended, so a reader of the grades must know which cards count. None where the play ends with the deal."""
    settled = document.get("settled_after")
    if settled is None:
        return None
    after = len(document["cards"]) - settled["card"]
    where = f"after card {settled['card']} (trick {settled['trick']})" if settled["card"] else "before its first card"
    return (f"the rules end this deal {where}, where stich score scores it; the {after} card{'s' if after != 1 else ''}"
            f" played after that {'are' if after != 1 else 'is'} graded as if it went on")


def settled_after(position: Position) -> tuple[int, int] | None:
    """The card after which the rules end the deal though the record's play goes on, as (its number, its trick):
    a Schafkopf Tout ends at the first trick its declarer loses (RULES.md 2.5), a Sie before its first card (0, 0).
    None where the play ends where the deal does. The post-mortem grades every card of the Play section, and
    ``stich score`` scores the deal where it ends: this says which of the graded cards the score never sees."""
    game, rules, state = position.game, position.rules, position.rules.start()
    if position.played and game.play_settles(rules, state):
        return 0, 0
    for number, card in enumerate(position.played[:-1], 1):
        state = state.play(card)
        if not state.trick and game.play_settles(rules, state):
            return number, len(state.history)
    return None


def grade(cost: int, measure: str, bonus_lost: bool, payout: int = 1) -> str:
    """The grade of a card from its cost; a lost bonus (or a seat's trick target) makes any card a blunder, except when
    grading by the score, which already counts what the bonus is worth (giving one up can be the best play). In
    chips the cost is counted in ``payout``, a quarter of the pot (:data:`CHIP_GRADES`, what a trick pays outside a
    Muss): the same grades for any pot."""
    if bonus_lost and measure not in SCORE_MEASURES:
        return "blunder"
    if measure == "chips":
        if cost <= 0:
            return "ok"
        return next((name for threshold, name in CHIP_GRADES if cost >= threshold * payout), "inaccuracy")
    grades = SCORE_GRADES if measure in SCORE_MEASURES else POINT_GRADES if measure == "points" else TRICK_GRADES
    for threshold, name in grades:
        if cost >= threshold:
            return name
    return "ok"


def _value_objective(rules: Rules, seat: int) -> Objective:
    """What the cost is counted in for a card of ``seat`` (0-based)."""
    if every_seat_for_itself(rules):
        return rules.objective("tricks", seat)
    return _side_objective(rules)


def _side_objective(rules: Rules) -> Objective:
    """A team game's measure under the score: the declaring side's card points, or for a contract without them
    (one decided by tricks or events alone, which a game module may define) the side's tricks, so that it can still
    be graded by the score (``points_cost`` is then left out: there are no points to cost)."""
    if "points" in rules.objective_names():
        return rules.objective("points")
    return tricks_objective(rules, rules.declaring_side, "tricks", "tricks the declaring side can force", None)


def has_points(rules: Rules) -> bool:
    """Whether the contract counts card points (``--objective points`` grades by them), or is played for itself
    (Kratzen: each seat's own tricks)."""
    return every_seat_for_itself(rules) or "points" in rules.objective_names()


def _curve_objective(rules: Rules) -> Objective:
    """The plotted value: the declaring side's points, or the declarer's tricks in a trick-counting game."""
    return _value_objective(rules, rules.declarer)


def _bonuses(rules: Rules, seat: int, unscored: frozenset[str]) -> list[Objective]:
    """The yes/no objectives watched for a card of ``seat``: the contract's bonuses that arise in this deal and that
    the play can still make score (not those of ``unscored``: a side's silent bonus the other side announced), or
    the mover's own target where every seat plays for itself."""
    if every_seat_for_itself(rules):
        return [rules.objective("tricks", seat)]
    found = []
    for name in rules.objective_names():
        if name not in rules.game.bonus_names or name in unscored:
            continue
        try:
            objective = rules.objective(name)
        except InvalidContractError:  # decided already (the Pagat in no hand, ...)
            continue
        if objective.target is not None:
            found.append(objective)
    return found


def _forceable(engine: EngineSolver, state: PlayState, objective: Objective) -> bool:
    """Whether the objective's side can still force its target: achieved + the best future >= target, asked as the
    engine's cheaper yes/no search."""
    assert objective.target is not None
    needed = objective.target - objective.achieved(state.rules, state)
    return needed <= 0 or engine.reaches(state, objective, needed)


class _Together:
    """Whether one side can force two of its bonuses in one play, each forceable alone: a settlement search over a
    payoff that pays only when both are made (the declaring side maximises it: 1 for its own pair, -1 for the
    defenders'). Exact, as the single bonuses' searches are; remembered by position, since the position after one
    card is the one before the next."""

    def __init__(self, engine: EngineSolver | None) -> None:
        from .score_objective import settlement_engine_for  # the settlement search loads on first use

        self.searcher = settlement_engine_for(engine)
        self.known: dict[tuple, bool] = {}

    def __call__(self, state: PlayState, first: Objective, second: Objective) -> bool:
        assert first.target is not None and second.target is not None
        if first.target <= 0 or second.target <= 0:  # one is met whatever happens (a target in a small ending)
            return True
        key = (state.key(), first.name, second.name)
        if key not in self.known:
            declaring = state.rules.declaring_side
            prize = 1 if first.maximiser <= declaring else -1
            components = (PayoffComponent(first.name, first, (first.target,)),
                          PayoffComponent(second.name, second, (second.target,)))
            spec = PayoffSpec(declaring, components, (0, 0, 0, prize))  # the second component varies fastest
            self.known[key] = self.searcher.value(state, spec) == prize
        return self.known[key]


def _total(engine: EngineSolver, state: PlayState, objective: Objective) -> int:
    return objective.achieved(state.rules, state) + engine.value(state, objective)


def _lost_bonuses(engine: EngineSolver, before: PlayState, after: PlayState, seat: int,
                  unscored: frozenset[str], together: _Together) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The bonuses the card changed hands on, and which of them it handed over: a game tree's value only moves
    against the mover, so a change is always the mover's loss (thrown away if it was the mover's side's, handed
    over if the opponents'). Two bonuses of one side that stay forceable each alone but no longer both (or now
    both) are one more change, named ``first+second``: the card gave up, or handed over, having both."""
    lost, handed = [], []
    kept = []  # forceable before the card and after it: their pairs are asked next
    for objective in _bonuses(before.rules, seat, unscored):
        was = _forceable(engine, before, objective)
        if was != _forceable(engine, after, objective):
            name = "target" if every_seat_for_itself(before.rules) else objective.name
            lost.append(name)
            if seat not in objective.maximiser:
                handed.append(name)
        elif was and not every_seat_for_itself(before.rules):
            kept.append(objective)
    for first, second in combinations(kept, 2):
        if first.maximiser == second.maximiser and together(before, first, second) != together(after, first, second):
            lost.append(f"{first.name}+{second.name}")
            if seat not in first.maximiser:
                handed.append(lost[-1])
    return tuple(lost), tuple(handed)


def _analyse_card(engine: EngineSolver, state: PlayState, card: int, number: int,
                  unscored: frozenset[str], together: _Together) -> CardAnalysis:
    """The before / best / after values of one card and what it cost its player."""
    rules = state.rules
    seat = state.to_move
    objective = _value_objective(rules, seat)
    achieved = objective.achieved(rules, state)
    values = {cv.card: cv.value for cv in engine.card_values(state, objective)}
    mover_maximises = seat in objective.maximiser
    best_future = max(values.values()) if mover_maximises else min(values.values())
    before = achieved + best_future  # minimax: the value of a position is that of its best card
    after = achieved + values[card]
    best = achieved + best_future
    cost = best - after if mover_maximises else after - best
    following = state.advance(card)
    lost, handed = _lost_bonuses(engine, state, following, seat, unscored, together)
    measure = "points" if objective.points_weight else "tricks"
    pack = rules.pack
    return CardAnalysis(
        number=number, trick=len(state.history) + 1, seat=seat + 1, card=pack[card].name, before=before, best=best,
        after=after, cost=cost, best_cards=tuple(pack[c].name for c in sorted(values) if values[c] == best_future),
        bonuses_lost=lost, grade=grade(cost, measure, bool(lost)), measure=measure,
        view=tuple(sorted(s + 1 for s in objective.maximiser)), bonuses_handed_over=handed, game=rules.game.name)


def lost_text(lost: Sequence[str], handed: Sequence[str], game: str = "") -> str:
    """The bonuses a card (or a player) lost, for people, by the names players use (``Game.lost_bonus_title``:
    ``Schneider against`` for ``schneider_against``, as ``stich score`` names the item; the objective's own name where
    ``game`` is not given): a bonus handed to the opponents says so, since the mover's own side had no claim to it
    (read bare, "Pagat Ultimo" looked like the mover's own Pagat), and so says whose it was; a pair lost together
    is named so. The JSON keeps the objectives' names."""
    shown = get_game(game).lost_bonus_title if game else str
    return ", ".join(f"{shown(name)} (handed over)" if name in handed else shown(name) for name in lost)


#: What a post-mortem of a record without a Play section says (``stich postmortem`` and Jupyter).
NO_PLAY = "the record has no Play section: nothing to analyse"
#: The card table's columns aligned right: the numbers, up to the grade.
NUMBER_COLUMNS = frozenset(range(9)) - {3}


def number_columns(columns: Sequence[str]) -> frozenset[int]:
    """The card table's columns aligned right: the numbers, up to the grade (:data:`NUMBER_COLUMNS` where the points
    cost is shown)."""
    return frozenset(range(list(columns).index("grade"))) - {3}


def cost_columns(measure: str, points: bool, alone: bool, *, titled: bool = False) -> list[str]:
    """The cost columns of both post-mortem tables, one form: ``cost (game units)``, and graded by the score (where
    ``points``: the card points are known) ``cost (points)`` beside, ``cost (tricks)`` where every seat plays for
    itself (``alone``), the same words in both tables. ``titled``: the table's title names the
    measure (the card table's ``totals: game units of 1+3``), so its own cost is ``cost``, and the table fits 110
    columns boxed."""
    by_points = [f"cost ({'tricks' if alone else 'points'})"] if measure in SCORE_MEASURES and points else []
    return ["cost" if titled else f"cost ({measure or 'value'})", *by_points]


def card_columns(measure: str, points: bool = True) -> list[str]:
    """``stich postmortem``'s card table's columns (its wide layout): graded by the score, the card points (a
    Kratzen seat's tricks) a card cost beside; a game where every seat plays for itself loses targets, not bonuses."""
    alone = measure in OWN_MEASURES
    return ["#", "trick", "seat", "card", "before", "best", "after", *cost_columns(measure, points, alone, titled=True),
            "grade",
            "better", "target lost" if alone else "bonus lost"]


def player_columns(measure: str, points: bool = True) -> list[str]:
    """``stich postmortem``'s per-seat table's columns: the seat, its cards, each grade's count, the cost (and,
    graded by the score, in card points or a Kratzen seat's tricks) and the bonuses (targets) lost."""
    alone = measure in OWN_MEASURES
    return ["seat", "cards", *(GRADE_PLURALS[name] for name in GRADES[1:]), *cost_columns(measure, points, alone),
            "target lost" if alone else "bonuses lost"]


def lost_cell(lost: Sequence[str], handed: Sequence[str], measure: str, game: str = "") -> str:
    """The bonuses a card or a player lost (:func:`lost_text`); where every seat plays for itself the only one is
    the seat's own target, so the "target lost" column says "yes"."""
    if measure in OWN_MEASURES:
        return "yes" if lost else ""
    return lost_text(lost, handed, game)


def totals_view(game: str, measure: str, declarer: int, declaring_side: Sequence[int]) -> str:
    """Whose values a post-mortem's totals are, in the words its text, its card table and the command share: the
    declaring side's ``points of 1+3`` (:func:`side_text`, as every command writes a side), or where every seat
    plays for itself (OWN_MEASURES) the mover's own tricks or the attacker's own payment: not "tricks of seat 1"
    over every seat's cards."""
    if measure == "chips":
        return f"{role_text(get_game(game).declarer_title, [declarer])}'s own payment in chips"
    if measure in OWN_MEASURES:
        return "each mover's own tricks"
    return f"{measure} of {side_text(declaring_side)}"


def card_table_title(game: str, measure: str, declarer: int, declaring_side: Sequence[int]) -> str:
    """The card table's title: what its totals are of (:func:`totals_view`), and whose cost a card's is."""
    view = totals_view(game, measure, declarer, declaring_side)
    if measure == "chips":
        title = get_game(game).declarer_title
        cost = f"cost to the {title}, or what another seat's card added to the {title}'s payment"
    elif measure in OWN_MEASURES:
        cost = "cost to the mover"
    else:
        cost = "cost to the mover's side"
    return f"Every card (totals: {view}; {cost})"


def players_table_title(game: str, measure: str) -> str:
    """The per-seat table's title. In chips it says whose cost a seat's is, as the card table's title does: the
    table sums another seat's grades and costs, which read bare as what that seat lost of its own, where they are
    what its cards added to the attacker's payment (the others' own payments are not searched)."""
    if measure != "chips":
        return "Per seat"
    title = get_game(game).declarer_title
    return f"Per seat (cost: what the {title} lost, or what another seat's cards added to the {title}'s payment)"


def measure_note(measure: str) -> str | None:
    """The note under the card table on what the score counts (None: graded by card points or tricks)."""
    if measure == "game units":
        return ("game units: a side's total (each of its seats is paid its share: half in a 2 against 2, a soloist "
                "all of it)")
    if measure == "chips":
        return (f"{measure}: the attacker's own payment, from and into the pot (every seat plays for itself: the "
                "others' own payments are not searched; --objective tricks grades each seat by its own tricks)")
    return None


def grade_note(measure: str) -> str:
    """The line under the card table that says what each grade means in ``measure`` (read from the grade tables,
    so that the words cannot drift from :func:`grade`): a reader sees why a card of cost 4 is a blunder. Short
    enough for an 80-column terminal."""
    if measure == "chips":
        return (f"grades in pot/4 chips (at least 1): inaccuracy under 1, mistake {CHIP_GRADES[1][0]}, "
                f"blunder {CHIP_GRADES[0][0]}+")
    table = SCORE_GRADES if measure in SCORE_MEASURES else POINT_GRADES if measure == "points" else TRICK_GRADES
    floors = {name: threshold for threshold, name in table}
    parts = []
    for name in GRADES[1:]:
        if name in floors:
            above = [threshold for threshold, _ in table if threshold > floors[name]]
            top, low = (min(above) - 1 if above else None), floors[name]
            parts.append(f"{name} " + (f"{low}+" if top is None else f"{low}" if top == low else f"{low}-{top}"))
    # by the score a lost bonus weighs what it costs in the settlement; by points or tricks it is a blunder
    extra = "" if measure in SCORE_MEASURES else " or the mover's own target missed" if measure == "tricks" else (
        " or a bonus lost")
    return f"grades in {measure}: " + ", ".join(parts) + extra


def summarise(cards: tuple[CardAnalysis, ...], seats: int) -> tuple[PlayerSummary, ...]:
    """Per seat: cards played, counts per grade, total cost and the bonuses lost."""
    summaries = []
    for seat in range(1, seats + 1):
        own = [card for card in cards if card.seat == seat]
        grades = {name: sum(1 for card in own if card.grade == name) for name in GRADES}
        # each bonus once, though it can be thrown away, handed back by a mistake and thrown away again
        lost = tuple(dict.fromkeys(name for card in own for name in card.bonuses_lost))
        handed = tuple(dict.fromkeys(name for card in own for name in card.bonuses_handed_over))
        summaries.append(PlayerSummary(seat, len(own), grades, sum(card.cost for card in own), lost,
                                       bonuses_handed_over=handed, measure=cards[0].measure if cards else "",
                                       game=cards[0].game if cards else ""))
    return tuple(summaries)


def _counted_alike(objective: Objective, curve: Objective) -> bool:
    """Whether ``objective`` counts what the curve counts (the same weights of points and tricks), so that its
    target is a line on the curve's scale."""
    return objective.points_weight == curve.points_weight and objective.trick_weight == curve.trick_weight


def _thresholds(rules: Rules, curve: Objective, maximum: int,
                unscored: frozenset[str] = frozenset()) -> tuple[tuple[str, int], ...]:
    """The yes/no objectives counted as the curve is (same weights, no card events), on the curve's scale: the
    curve's side reaching ``target`` makes its objective; the other side's objective is made while the curve stays
    below ``maximum - target + 1`` (a Schneider against at 90 points of 120: the line at 31). The game
    module's objectives say which marks a contract has; nothing here knows a game by name. Those that score
    nothing here (``unscored``: a Tout's 61 and Schneider, :func:`unscored_bonuses`) have no mark: a line at 61
    read as a game won or lost that the Tout does not know. Nor has the game where its line does not decide it
    (``Game.game_line_decides``: Zwanzigerrufen's 45 under tie_44=no_score, where 44 scores nothing and 43 loses):
    the plot drew a game line there that :func:`_winning` and the game changes left out."""
    game = rules.game_objective()
    undecided = game.name if game is not None and not rules.game.game_line_decides(rules) else None
    marks = []
    for name in rules.objective_names():
        if name in unscored or name == undecided:
            continue
        try:
            objective = rules.objective(name, rules.declarer) if name == curve.name else rules.objective(name)
        except StichError:  # decided already, or a per-seat objective of another seat
            continue
        if objective.target is None or objective.events:
            continue
        if (curve.points_weight and not objective.points_weight and objective.trick_weight
                and objective.target == rules.tricks_in_deal and objective.maximiser == curve.maximiser):
            marks.append((f"{name} (all tricks)", maximum))  # every trick takes every point: the curve's top
            continue
        if not _counted_alike(objective, curve):
            continue
        if objective.maximiser == curve.maximiser:  # a seat's own tricks are its target, as "kept" names them
            marks.append(("target" if every_seat_for_itself(rules) else name, objective.target))
        elif not objective.maximiser & curve.maximiser:
            marks.append((name, maximum - objective.target + 1))
    return tuple(sorted(set(marks), key=lambda mark: (mark[1], mark[0])))


def _winning(rules: Rules, curve: Objective) -> tuple[str, int] | None:
    """The game's threshold on the curve's scale (the game module's :meth:`Rules.game_objective`), where it is
    counted as the curve is: Schafkopf's 61 and Zwanzigerrufen's 45 card points, the Kratzen attacker's 2 tricks;
    not a Tout's every trick on a scale of card points (120 points need not be every trick), nor a line a value
    below which need not lose the game (``Game.game_line_decides``: Zwanzigerrufen's 44 under tie_44=no_score)."""
    objective = rules.game_objective()
    if (objective is None or objective.target is None or objective.events or not _counted_alike(objective, curve)
            or objective.maximiser != curve.maximiser or not rules.game.game_line_decides(rules)):
        return None
    return ("target" if every_seat_for_itself(rules) else "game"), objective.target


def _kept(engine: EngineSolver, state: PlayState, unscored: frozenset[str]) -> tuple[str, ...]:
    """The declaring side's bonuses (Kratzen's per-seat targets: the attacker's) made or still forceable in
    ``state``."""
    rules = state.rules
    kept = []
    for objective in _bonuses(rules, rules.declarer, unscored):
        if objective.maximiser & rules.declaring_side and _forceable(engine, state, objective):
            kept.append("target" if every_seat_for_itself(rules) else objective.name)
    return tuple(kept)


def analyse_play(position: Position, *, engine: EngineSolver | None = None, objective: str = "points",
                 time_limit: float | None = None, stop: threading.Event | None = None) -> PlayAnalysis:
    """The post-mortem of the position's Play section, replayed from the deal's start (see the module doc).
    ``objective="score"`` grades by the score instead (:func:`by_score`). ``time_limit`` (seconds) and ``stop``
    bound every search of the call together, as :func:`~solver.analysis.check_bonuses`' do: past them it raises
    :class:`~solver.errors.SearchStopped` (a post-mortem of half the cards would grade nothing it did not reach)."""
    from .score_objective import settlement_engine_for  # the settlement search loads on first use

    check_position(position)
    if objective not in ("points", "score"):
        raise InvalidContractError(f"the post-mortem grades by 'score' or 'points', not {objective!r}")
    if objective == "points" and not has_points(position.rules):
        raise InvalidContractError(f"{position.game.name} {position.rules.contract} has no card points to grade by "
                                   "(no 'points' objective): grade it by the score, objective 'score'")
    deadline = Deadline(time_limit, stop)
    if not deadline.limited:
        return _analyse_play(position, engine, objective, deadline)
    with ExitStack() as limits:  # both engines' searches stop at the one deadline (_Together settles too)
        limits.enter_context(solver_for(engine).stopping(deadline.left(), stop))
        limits.enter_context(settlement_engine_for(engine).stopping(deadline.left(), stop))
        return _analyse_play(position, engine, objective, deadline)


def _look(deadline: Deadline) -> None:
    """Stop between cards too: a search of fewer nodes than the engine's stop check counts (an ending's) never asks
    it, and a post-mortem is hundreds of them."""
    deadline.check("the post-mortem was stopped")


def _analyse_play(position: Position, engine: EngineSolver | None, objective: str,
                  deadline: Deadline) -> PlayAnalysis:
    if objective == "score":
        return by_score(position, _analyse_play(position, engine, "points", deadline), engine, deadline)
    given, engine = engine, solver_for(engine)  # checked: an engine, or None for this thread's
    together = _Together(given)  # as given: None is this thread's shared settlement engine, the one the limit stops
    rules = position.rules
    state = rules.start()
    curve_objective = _curve_objective(rules)
    unscored = unscored_bonuses(position)
    curve = [_total(engine, state, curve_objective)]
    cards = []
    trick_ends = []
    for number, card in enumerate(position.played, 1):
        _look(deadline)
        analysis = _analyse_card(engine, state, card, number, unscored, together)
        cards.append(analysis)
        state = state.advance(card)
        same_view = set(analysis.view) == {s + 1 for s in curve_objective.maximiser}
        curve.append(analysis.after if same_view else _total(engine, state, curve_objective))
        if not state.trick:
            trick_ends.append(number)
    measure = "points" if curve_objective.points_weight else "tricks"
    maximum = rules.points_in_deal if curve_objective.points_weight else rules.tricks_in_deal
    analysed = tuple(cards)
    return PlayAnalysis(game=position.game.name, contract=str(rules.contract), declarer=rules.declarer + 1,
                        declaring_side=tuple(sorted(s + 1 for s in rules.declaring_side)), measure=measure,
                        cards=analysed, curve=tuple(curve), trick_ends=tuple(trick_ends),
                        players=summarise(analysed, rules.seats), maximum=maximum,
                        thresholds=_thresholds(rules, curve_objective, maximum, unscored),
                        winning=_winning(rules, curve_objective), bonuses_kept=_kept(engine, state, unscored),
                        whole_deal=position.game.is_whole(rules.deal), settled_after=settled_after(position),
                        points_note=uncounted_points_note(rules) if measure == "points" else None,
                        rules_note=rules.variant.note())


def by_score(position: Position, points: PlayAnalysis, engine: EngineSolver | None = None,
             deadline: Deadline | None = None) -> PlayAnalysis:
    """``points`` (the card-points post-mortem) graded by the score: each card's before / best / after are the
    declaring side's double-dummy settlement (``Game.score_unit``: game units, or the attacker's own payment in
    chips where every seat plays for itself and pays into a pot), its cost what the mover's side lost of it, the card
    points it cost stay beside (``points_cost``, where the score counts them:
    :func:`~solver.scoring.score_counts_points_measure`), and the curve is the score's (the points' in
    ``points_curve``).
    One settlement search a card: the value before a card is the value after the previous one, and the best card
    keeps it, so only the card played needs a search (and the best cards are searched only for a costly card).
    ``deadline`` is :func:`analyse_play`'s, looked at between cards."""
    from .score_objective import settlement_engine_for, solve_score  # the settlement search loads on first use

    searcher = settlement_engine_for(engine)
    rules = position.rules
    measure = position.game.score_unit
    inputs = scoring_inputs(position)
    payout = position.game.trick_payout(rules, inputs)
    state = rules.start()
    declaring = rules.declaring_side
    counted = score_counts_points_measure(rules)  # none beside where the score never counts them (a Tout, a Sie)
    before = solve_score(position_at(position, state), engine=searcher).total
    curve = [before]
    cards = []
    for analysis, card in zip(points.cards, position.played):
        if deadline is not None:
            _look(deadline)
        previous, state = state, state.advance(card)
        after = solve_score(position_at(position, state), engine=searcher).total
        cost = before - after if previous.to_move in declaring else after - before
        best_cards: tuple[str, ...] = (analysis.card,)
        if cost:
            result = solve_score(position_at(position, previous), cards=True, engine=searcher)
            best_cards = tuple(c.name for c in result.best_cards())
        cards.append(replace(analysis, before=before, best=before, after=after, cost=cost, best_cards=best_cards,
                             grade=grade(cost, measure, bool(analysis.bonuses_lost), payout), measure=measure,
                             view=tuple(sorted(s + 1 for s in declaring)),
                             points_cost=analysis.cost if counted else None))
        curve.append(after)
        before = after
    analysed = tuple(cards)
    players = tuple(replace(summary, points_cost=old.cost if counted else None) for summary, old in
                    zip(summarise(analysed, rules.seats), points.players))
    # the contract's thresholds are marks on the points' scale: the score's curve has only the game's, where the
    # settlement's sign says who won it
    won_from = position.game.winning_settlement(rules, inputs)
    winning = None if won_from is None else ("target" if every_seat_for_itself(rules) else "game", won_from)
    return replace(points, measure=measure, cards=analysed, curve=tuple(curve), players=players,
                   points_curve=points.curve if counted else (), thresholds=(), maximum=max(curve), winning=winning,
                   points_note=None,
                   points_winning=points.winning if winning is None and position.game.game_item_on_points(rules)
                   else None)


def trick_payout(position: Position) -> int:
    """The unit a card's cost in the score is graded in (``Game.trick_payout``: a quarter of a Kratzen pot, what a
    trick pays outside a Muss), 1 elsewhere."""
    return position.game.trick_payout(position.rules, scoring_inputs(position))


def position_at(position: Position, state: PlayState) -> Position:
    """The record's position (its announcements and pot) at another state of its deal."""
    return Position(position.game, position.rules, state, record=position.record)


__all__ = ["CHIP_GRADES", "CardAnalysis", "GRADES", "GRADE_PLURALS", "NO_PLAY", "OWN_MEASURES",
           "POINT_GRADES", "PlayAnalysis", "PlayerSummary", "SCORE_GRADES", "SCORE_MEASURES", "TRICK_GRADES",
           "analyse_play", "by_score", "card_columns", "card_table_title", "cost_columns", "game_change_lines",
           "game_change_text", "grade", "grade_note", "lost_cell", "lost_value_line", "measure_note", "no_cost_line",
           "player_columns", "players_table_title", "settled_after", "settled_after_document", "settled_line",
           "summarise", "totals_view", "unscored_bonuses"]
