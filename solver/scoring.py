"""Scoring a finished deal: the game-agnostic driver over each game's scoring (``Game.score``).

:func:`score_deal` turns a record whose Play section is complete into a :class:`Settlement`: the items scored (game,
bonuses, trick payouts, penalties, ...), who wins each and for how much, and the payment of every seat. Every
settlement sums to zero (together with the change of the pot, in a game paid from one), because each item is paid
out by a rule that balances on its own. Each game module scores its own deals (RULES.md's scoring sections); the
choices RULES.md leaves open are written down in docs/scoring.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any, Literal, Sequence

from .errors import InvalidPositionError, StichError, UnfinishedPlayError
from .games import games_with, get_game
from .games.base import Game, Rules
from .games.outcome import (ITEM_COLUMNS, ITEM_NUMBER_COLUMNS, MAX_POT, POT_ZERO_SCORE_GIVEN_NOTE, POT_ZERO_SCORE_NOTE,
                            ScoreItem, Scored, pot_after_said, pot_zero_note, read_pot, signed)
from .html_tables import html_table
from .position import Position, check_position, every_seat_for_itself

if TYPE_CHECKING:
    from .settlement import Announcements  # the tag text or a list of Announcements, as dd_settlement takes


@dataclass(frozen=True)
class Settlement:
    """The score of one deal: its items, the payment of every seat (1-based order) and, in a game paid from a pot,
    the pot."""

    game: str
    contract: str
    items: tuple[ScoreItem, ...]
    payments: tuple[int, ...]
    pot: int | None = None
    pot_change: int = 0
    notes: tuple[str, ...] = field(default=())
    #: the flags the deal was played under where they are not the game's defaults, as a title ends with them
    #: (``Variant.note``: ``; rules: runaway_count_at=deal``; empty under the defaults): the heading says them
    rules_note: str = field(default="", compare=False)
    #: False for an ending (docs/rules.md item 2): no next deal starts from its pot, so no line says what it holds
    whole_deal: bool = field(default=True, compare=False)

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready document of this result (what the command's ``--json`` prints of it)."""
        return {"game": self.game, "contract": self.contract, "items": [i.as_dict() for i in self.items],
                "payments": list(self.payments), "pot": self.pot, "pot_change": self.pot_change,
                "notes": list(self.notes)}

    def __str__(self) -> str:
        """The settlement for people (``print(settlement)``): the items, who wins each and for how much, every
        seat's payment (and, after a whole deal, what the pot then holds) and the notes, as ``stich score`` prints
        them."""
        return self._text(pot_after=True)

    def _text(self, *, pot_after: bool) -> str:
        """:meth:`__str__`'s lines; ``pot_after``: say what the pot holds after the deal, which a deal played out
        along a double-dummy line (:class:`~solver.settlement.DDSettlement`) does not, nor does an ending."""
        rows = self._item_rows()
        widths = [max(len(row[i]) for row in rows) for i in range(len(ITEM_COLUMNS))]
        lines = [self._heading()]
        for row in rows:
            cells = [cell.rjust(width) if column in ITEM_NUMBER_COLUMNS else cell.ljust(width)
                     for column, (cell, width) in enumerate(zip(row, widths))]
            lines.append("  ".join(cells).rstrip())
        lines.append(self._payments_said())
        if pot_after and self.pot is not None and self.whole_deal:
            lines.append(pot_after_said(self.pot, self.pot_change, get_game(self.game).score_unit))
        lines.extend(f"note: {note}" for note in self.notes)
        return "\n".join(lines)

    def __repr__(self) -> str:
        """One line that says what the settlement is, as every result's ``repr`` (``<Settlement Schafkopf Rufer G,
        payments: seat 1 -2, seat 2 +2, seat 3 -2, seat 4 +2>``): the items are ``print()``'s."""
        return f"<Settlement {self._heading(self._payments_said())}>"

    def _payments_said(self) -> str:
        """``payments: seat 1 -2, seat 2 +2, ...``, with the pot's change in a game paid from one."""
        return "payments: " + ", ".join(f"{seat} {paid}" for seat, paid in self._payment_cells())

    def _heading(self, said: str = "") -> str:
        """``Schafkopf Wenz Tout``: the game and the contract as the rule book names it (the document keeps the
        token), then what the caller says of it (``DDSettlement``: ``double dummy: declarer seat 1 net +20``), then
        the flags played under where they are not the game's defaults, as every command's title ends."""
        contract = f"{self.game} {get_game(self.game).contract_in_words(self.contract)}"
        return f"{contract}{f', {said}' if said else ''}{self.rules_note}"

    def _repr_html_(self) -> str:
        """The same as HTML tables, which Jupyter shows for a settlement (as it shows a position's diagram)."""
        return self._html()

    def _html(self, heading: str = "", lines: Sequence[str] = (), *, pot_after: bool = True) -> str:
        """The settlement as HTML: ``heading`` what the caller says in its heading (:meth:`_heading`), ``lines`` the
        paragraphs it adds under the tables and notes (:class:`~solver.settlement.DDSettlement`'s summary),
        ``pot_after`` as in :meth:`_text`."""
        head, *body = self._item_rows()
        payments = self._payment_cells()
        paid = html_table([seat for seat, _ in payments], [[value for _, value in payments]],
                          right=range(len(payments)))
        if pot_after and self.pot is not None and self.whole_deal:
            paid += f"<p>{escape(pot_after_said(self.pot, self.pot_change, get_game(self.game).score_unit))}</p>"
        notes = "".join(f"<p><small>note: {escape(note)}</small></p>" for note in self.notes)
        after = "".join(f"<p>{escape(line)}</p>" for line in lines)
        return (f'<div><p style="font-weight:bold">{escape(self._heading(heading))}</p>'
                f'{html_table(head, body, right=ITEM_NUMBER_COLUMNS)}<p>payments</p>{paid}{notes}{after}</div>')

    def _item_rows(self) -> list[tuple[str, ...]]:
        """The header and one row per item, as text (what both renderings show): the items as the game names them,
        ``pot`` for the pot's side of an item in a game paid from one."""
        title = get_game(self.game).sided_item_title
        return [ITEM_COLUMNS, *(item.cells(title, pot=self.pot is not None) for item in self.items)]

    def _payment_cells(self) -> list[tuple[str, str]]:
        """Each seat's payment signed (``+2``, ``-2``, ``0``), and the pot's change in a game paid from one."""
        cells = [(f"seat {seat}", signed(paid)) for seat, paid in enumerate(self.payments, 1)]
        if self.pot is not None:
            cells.append(("pot", signed(self.pot_change)))
        return cells


def check_scoring_inputs(game: type[Game], pot: object, announcements: object = None) -> None:
    """A ``pot`` for a game without one (``Game.has_pot``) or ``announcements`` for a game without them
    (``Game.has_announcements``) are refused, not ignored."""
    if pot is not None and not game.has_pot:
        raise StichError(f"a pot belongs to {games_with('has_pot')}'s scoring; {game.name} has none (pot={pot!r})")
    if announcements is not None and not game.has_announcements:
        raise StichError(f"announcements belong to {games_with('has_announcements')}'s scoring; {game.name} has none "
                         f"(announcements={announcements!r})")


def _tricks_played(tricks: int, cards: int, in_deal: int) -> str:
    """``4 of 8 tricks`` and the cards of an unfinished trick (``4 of 8 tricks and 3 cards``)."""
    text = f"{tricks} of {in_deal} tricks"
    return text + (f" and {cards} card{'s' if cards != 1 else ''}" if cards else "")


def _play_so_far(position: Position) -> str:
    """How far a play that stops short goes: the record's Play section's own tricks, and apart from them the cards
    played after it (``--play``, Position.play), which the message had counted as the section's (``5 of 8 tricks``
    pointed at a section of 4)."""
    state, in_deal = position.state, position.rules.tricks_in_deal
    played = _tricks_played(len(state.history), len(state.trick), in_deal)
    play = position.record.play if position.record is not None else None
    after = sum(1 for line in play.tricks for token in line if not token.line) if play is not None else 0
    if not after or play is None:
        return f"{played} played"
    # the file's tokens of each trick line (a line the later cards complete holds both)
    in_file = [sum(1 for token in line if token.line) for line in play.tricks]
    whole = sum(1 for count in in_file if count == position.rules.seats)
    part = next((count for count in in_file if 0 < count < position.rules.seats), 0)
    return (f"{_tricks_played(whole, part, in_deal)} played in it; with the {after} card{'s' if after != 1 else ''} "
            f"played after it (--play), {played}")


def require_complete(position: Position) -> None:
    """Scoring reads the whole play: a record that stops early cannot be scored."""
    if not position.state.is_over:
        record = position.record
        if record is None:  # made by make_position: it has no Play section, and no command made it
            raise InvalidPositionError(f"scoring needs every card of the deal played ({_play_so_far(position)}; "
                                       "dd_settlement settles the rest double dummy)")
        # what was expected in the sentence itself: a ParseError's ``expected`` adds a second bracket after the first
        text = (f"scoring needs a complete Play section, every card of the deal played ({_play_so_far(position)}); "
                "the double-dummy settlement plays the rest: stich score --dd, dd_settlement")
        # pointed at the file's last card of the play (where it stops), else at its [Play] tag's leader, else at the
        # record; cards played after the file's (``--play``, Position.play) have no place in the file (line 0)
        play = record.play
        tokens = [token for line in play.tricks for token in line if token.line] if play is not None else []
        leader = play.leader if play is not None else None
        place = tokens[-1] if tokens else (leader if leader is not None and leader.line else None)
        raise UnfinishedPlayError(text, source=record.source, line=place.line if place else record.line,
                                  column=place.column if place else 1)


def scoring_inputs(position: Position, *, pot: object = None, announcements: object = None) -> object:
    """What the position's game scores with besides the play (``Game.scoring_inputs``), checked once."""
    check_scoring_inputs(position.game, pot, announcements)
    return position.game.scoring_inputs(position.rules, position.record, pot=pot, announcements=announcements)


def unscored_bonuses(position: Position, *, pot: object = None, announcements: object = None,
                     tolerate_errors: bool = False) -> frozenset[str]:
    """The contract's bonuses that no play of this record (or of ``announcements``) can make score
    (``Game.unscored_bonuses``: a silent Absolut against after the declarers announced Absolut, Schneider in a
    Tout). Wrong scoring tags raise, or with ``tolerate_errors`` give none: ``stich check`` still checks the play,
    and its score says what is wrong with the tags."""
    try:
        return frozenset(position.game.unscored_bonuses(
            position.rules, scoring_inputs(position, pot=pot, announcements=announcements)))
    except StichError:
        if not tolerate_errors:
            raise
        return frozenset()


def bonuses_scored_as(position: Position, *, pot: object = None, announcements: object = None,
                      tolerate_errors: bool = False) -> dict[str, str]:
    """Of :func:`unscored_bonuses`, each one whose outcome an announced bonus's row scores, with that bonus
    (``Game.scored_as``: a Pagat beaten after an announced Pagat is ``pagat_ultimo`` failed). Wrong scoring tags raise,
    or with ``tolerate_errors`` give none, as there: ``stich check`` still checks the play, and its score says what
    is wrong with the tags; a caller of its own is told."""
    try:
        return position.game.scored_as(position.rules, scoring_inputs(position, pot=pot, announcements=announcements))
    except StichError:
        if not tolerate_errors:
            raise
        return {}


#: What the score of an ending means (every settlement of one says so).
ENDING_NOTE = "an ending: scored on the cards it holds, as a whole deal would be (docs/scoring.md)"


def score_notes(position: Position, what: Literal["line", "contract"] = "line") -> list[str]:
    """What a reader of the position's double-dummy score should know before reading it: that an ending is scored
    as a whole deal would be, and that at pot 0 a game paid from a pot settles every ``what`` at 0 (a line of
    ``solve``'s and ``check``'s score, a contract of ``table``'s settlement column: one of
    :data:`~solver.games.outcome.POT_ZERO_NOTES`); where no pot was given the note says how to give one."""
    notes = [] if position.game.is_whole(position.rules.deal) else [ENDING_NOTE]
    if position.game.has_pot:
        try:
            pot = scoring_inputs(position)
        except StichError:
            return notes  # the score itself says what is wrong with the tag
        if not pot:
            notes.append(pot_zero_note(what, pot_given(position)))
    return notes


def pot_given(position: Position, pot: int | None = None) -> bool:
    """Whether the pot was given, by the argument ``pot`` or the record's ``[Pot]`` tag (``--pot`` sets it): a pot
    of 0 given on purpose is noted without asking for a pot."""
    return pot is not None or (position.record is not None and position.record.tag("Pot") is not None)


def score_counts_points_measure(rules: Rules) -> bool:
    """Whether the contract's score looks at what a points column measures: the card points, where its game is
    decided by them (the game module's :meth:`Rules.game_objective` counts them: 61, 45); or, where every seat
    plays for itself (Kratzen, which has no card points), each seat's own tricks, which the points column counts
    there. Not where the game is decided by tricks (a Schafkopf Tout: every trick, RULES.md 2.5) or by the deal
    alone (a Sie), nor where the contract has no card points at all. Read from the game's data, not its name."""
    if every_seat_for_itself(rules):
        return True
    game = rules.game_objective()
    return "points" in rules.objective_names() and game is not None and bool(game.points_weight)


def uncounted_points_note(rules: Rules) -> str | None:
    """The one line that says a contract's score does not count card points, where it has them to measure and still
    does not (a Schafkopf Tout, a Sie): ``solve``'s ``points`` and the post-mortem graded by card points measure
    something its score never counts, and the reader is told so and what measures what counts. None elsewhere."""
    if "points" not in rules.objective_names() or score_counts_points_measure(rules):  # Kratzen among the counted
        return None
    game = rules.game_objective()
    if game is None:
        decided = "decided by the deal alone"
    elif game.trick_weight and not game.points_weight and not game.events and game.target is not None:
        decided = ("won by every trick" if game.target >= rules.tricks_in_deal
                   else f"won by {game.target} trick{'' if game.target == 1 else 's'}")
    else:
        decided = f"decided by its {game.name!r}"
    named = rules.game.contract_in_words(rules.contract)
    return f"card points: a {named}'s score does not count them ({decided}); objective 'score' measures it"


def settle(position: Position, inputs: object, *, pot: int | None = None) -> Settlement:
    """The settlement of the position's finished deal under checked ``inputs`` (:func:`scoring_inputs`; ``pot``
    the argument they were read with). A game paid from a pot notes a pot of 0, asking for one where none was
    given: every line, the double-dummy one too, settles at 0."""
    rules = position.rules
    game = position.game
    scored: Scored = game.score(rules, position.state, inputs)
    notes = list(scored.notes)
    if game.has_pot and not scored.pot:
        notes.append(POT_ZERO_SCORE_GIVEN_NOTE if pot_given(position, pot) else POT_ZERO_SCORE_NOTE)
    whole_deal = game.is_whole(rules.deal)
    if not whole_deal:
        notes.append(ENDING_NOTE)
    if sum(scored.payments) + scored.pot_change != 0:  # every rule balances; a failure here is a bug, not bad input
        raise AssertionError(f"settlement does not sum to zero: {scored.payments} {scored.pot_change}")
    items = tuple(item.of_game(game.name) for item in scored.items)  # read alone as here
    return Settlement(game.name, str(rules.contract), items, scored.payments, scored.pot, scored.pot_change,
                      tuple(notes), rules.variant.note(), whole_deal)


def score_deal(position: Position, *, pot: int | None = None, announcements: Announcements = None) -> Settlement:
    """The settlement of a finished deal, by its game's scoring (RULES.md 1.7, 2.5, 3.4).

    ``announcements`` (tag text or a list of :class:`~solver.announcements.Announcement`) overrides the record's
    ``[Announcements]`` tag, ``pot`` its ``[Pot]`` tag, for the games that have them (``Game.has_announcements``,
    ``Game.has_pot``). Raises InvalidPositionError when the Play section is not complete, unless the play so far
    settles the deal (``Game.play_settles``): for a record read from a file its subclass UnfinishedPlayError, also a
    ParseError pointing where the play stops; and ParseError, pointing into the tag, for announcements the rules do
    not allow."""
    rules = check_position(position).rules
    check_scoring_inputs(position.game, pot, announcements)
    if not position.game.play_settles(rules, position.state):
        require_complete(position)
    return settle(position, scoring_inputs(position, pot=pot, announcements=announcements), pot=pot)


def set_or_check_pot(position: Position, chips: int | None) -> None:
    """Give a record the pot ``chips`` where the game reads its ``[Pot]``, as the record's own tag would (the
    commands' ``--pot``); without it read the record's own tag, so that a bad one is the record's error at its line
    and column whatever a command asks of it, not only where the pot is paid (the board opens such a record and says
    it beside the score, the one answer it spoils). Nothing for a game paid from no pot."""
    if not position.game.has_pot:
        return
    if chips is not None and position.record is not None:
        position.record.set("Pot", str(chips))
    else:
        read_pot(position.record, None)  # a ParseError at the tag


__all__ = ["ENDING_NOTE", "MAX_POT", "ScoreItem", "Settlement", "bonuses_scored_as", "pot_given", "read_pot",
           "score_counts_points_measure", "score_deal", "score_notes", "scoring_inputs", "set_or_check_pot", "settle",
           "uncounted_points_note", "unscored_bonuses"]
