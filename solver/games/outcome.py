"""The pieces every game's scoring is built from: scored items, their payments, the pot.

A game owns its outcome (``Game.score``, ``Game.settlement_components``, ...); what the games share lives here, below
them, so that a game module imports it and nothing above the games knows which game scores what. The drivers over
these hooks are solver/scoring.py (the score of a finished deal) and solver/settlement.py (the double-dummy
settlement).
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Context, Decimal
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from ..deal import MAX_NUMBER_DIGITS, small_number
from ..errors import ParseError, StichError, is_whole_number
from ..formats.tbn import Record
from ..html_tables import html_table
from ..state import PlayState

if TYPE_CHECKING:
    from .base import Game  # the games import this module

#: The largest pot: the tag's limit of nine digits (``solver.deal.MAX_NUMBER_DIGITS``), for the argument too.
MAX_POT = 10 ** MAX_NUMBER_DIGITS - 1


#: Every registered game, in the order commands list them (filled by :func:`solver.games.register_game`; kept here,
#: under the games, so that a game's own messages can name the others and an item that knows its ``game`` is shown
#: in that game's words without importing the registry).
GAMES: list[type[Game]] = []


@dataclass(frozen=True)
class ScoreItem:
    """One scored item: ``winners`` (1-based seats) receive ``value`` = ``base`` x ``multiplier`` from ``losers``.

    The pot is the side left empty: a trick paid from the pot has empty ``losers``, a penalty paid into it empty
    ``winners``. ``value`` 0 marks an item listed for information only (e.g. a tie that scores nothing, or a trick
    payout from an empty pot). ``against`` marks the defenders' bonus (announced or made by them: "Absolut
    dagegen"), which its winners cannot tell, a declarers' failed announcement being paid to the defenders too.
    ``game`` is the name of the game that scored it (set by :func:`solver.scoring.settle`, which every settlement's
    items pass through; empty in an item made by hand), so that an item shown alone is named and its empty side said
    as its settlement's table does; not compared and not in :meth:`as_dict`."""

    name: str
    winners: tuple[int, ...]
    base: int
    multiplier: int
    announced: bool
    value: int
    reason: str
    losers: tuple[int, ...] = ()
    against: bool = False
    game: str = field(default="", compare=False, repr=False)

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready document of this result (what the command's ``--json`` prints of it)."""
        return {"name": self.name, "winners": list(self.winners), "losers": list(self.losers), "base": self.base,
                "multiplier": self.multiplier, "announced": self.announced, "value": self.value,
                "reason": self.reason, "against": self.against}

    def cells(self, title: Callable[[str, bool], str] | None = None, *, pot: bool | None = None) -> tuple[str, ...]:
        """Its row under a settlement's columns (:data:`ITEM_COLUMNS`), as ``stich score`` writes it: ``title`` names
        the item as its game does (``Game.sided_item_title``: ``Absolut against`` for the defenders'), and an empty
        side is ``pot`` in a game paid from one (``-`` elsewhere); by default both as the item's ``game`` says (its
        key and ``-`` for an item without one)."""
        game = (next((game for game in GAMES if game.name == self.game), None)
                if self.game and (title is None or pot is None) else None)
        if game is not None:
            title = game.sided_item_title if title is None else title
            pot = game.has_pot if pot is None else pot

        def seats(side: tuple[int, ...]) -> str:
            return side_text(side) if side else "pot" if pot else "-"
        name = title(self.name, self.against) if title else self.name
        return (name + (" (announced)" if self.announced else ""), seats(self.winners),
                seats(self.losers), str(self.base), str(self.multiplier), str(self.value), self.reason)

    def __str__(self) -> str:
        """Its row of ``stich score``'s items, each cell after its column's name: ``Absolut  to 1+2  from 3+4  base 1
        x 1  value 1  why the declarers took 64 points (the contract's target)``."""
        name, *cells = self.cells()
        return "  ".join([name, *(f"{column} {cell}" for column, cell in zip(ITEM_COLUMNS[1:], cells))])

    def of_game(self, game: str) -> "ScoreItem":
        """The item told the name of the game that scored it: every field copied whole, a field added later too, and
        without the frozen ``__init__``'s setting of each in turn (:func:`solver.scoring.settle` makes one an item,
        on every leaf of the reference solver's search)."""
        item = object.__new__(ScoreItem)
        item.__dict__.update(self.__dict__, game=game)
        return item

    def _repr_html_(self) -> str:
        """The item for Jupyter: its row under a settlement's columns, as a settlement's table shows it."""
        return html_table(ITEM_COLUMNS, [self.cells()], right=ITEM_NUMBER_COLUMNS)


#: The columns of a settlement's items as people read them (``stich score`` prints the same), and the numeric ones
#: by their place.
ITEM_COLUMNS = ("item", "to", "from", "base", "x", "value", "why")
ITEM_NUMBER_COLUMNS = frozenset(ITEM_COLUMNS.index(name) for name in ("base", "x", "value"))


@dataclass(frozen=True)
class DealtBonus:
    """A bonus the cards decide without a search (RULES.md 1.6: Zwanzigerrufen's Trull and 4 Kings, from the dealt
    hands or, under ``card_bonus_basis=captured``, the tricks; 2.5: Schafkopf's Laufende), listed by ``stich check``
    beside the searched ones so that a player sees every bonus of the contract in one table.

    ``made`` is True when ``side`` has it (``seat``: the player dealt the cards), False when no side can have it,
    None while the tricks still to come decide it (``captured`` only; not searched). ``counts`` is False where the
    contract does not score it (the Trull in a Suit Solo, RULES.md 1.7); ``reason`` says so in words."""

    bonus: str  # the score item's name (``trull``, ``four_kings``)
    description: str
    side: tuple[int, ...]  # 1-based seats; () when no side has it
    seat: int | None  # the player dealt every card of it (dealt_hand), else None
    made: bool | None
    counts: bool
    decided_by: str  # "deal" or "tricks" (card_bonus_basis)
    reason: str
    #: what players call it (``Game.sided_objective_title``: ``4 Kings``), which the text shows; the JSON keeps
    #: ``bonus``
    title: str = field(default="", compare=False, repr=False)

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready document of this result (``stich check --json``'s ``dealt_bonuses`` entries)."""
        return {"bonus": self.bonus, "description": self.description, "side": list(self.side), "seat": self.seat,
                "made": self.made, "counts": self.counts, "decided_by": self.decided_by, "reason": self.reason}

    def answer(self) -> str:
        """Its answer as ``stich check`` words it: ``yes - seat 4 was dealt them; decided by the deal, no search``
        (``open`` while the tricks to come decide it)."""
        return dealt_bonus_cells(self.as_dict())[3]

    def __str__(self) -> str:
        """The row ``stich check`` prints for it: ``4 Kings for seat 4: one player was dealt the four Kings: yes -
        seat 4 was dealt them; decided by the deal, no search`` (the name once, :func:`without_title`)."""
        who = f" for {side_text(self.side)}" if self.side else ""
        return f"{self.title or self.bonus}{who}: {without_title(self.description, self.title)}: {self.answer()}"

    def cells(self) -> tuple[str, str, str, str]:
        """Its row under ``stich check``'s columns (:data:`CHECK_COLUMNS`), as the command writes it."""
        return dealt_bonus_cells(self.as_dict(), self.title)

    def _repr_html_(self) -> str:
        """The same row for Jupyter, under ``stich check``'s columns (:data:`CHECK_COLUMNS`)."""
        return html_table(CHECK_COLUMNS, [self.cells()])


def dealt_bonus_cells(bonus: Mapping[str, Any], title: str = "") -> tuple[str, str, str, str]:
    """A dealt bonus's row under ``stich check``'s columns (:data:`CHECK_COLUMNS`) from its document
    (:meth:`DealtBonus.as_dict`, what the command renders), the bonus by ``title`` (what players call it; its name
    without one): one wording, which a notebook shows as it is and the command colours (from
    :func:`dealt_bonus_answer`'s parts); its description without the name the first cell says
    (:func:`without_title`)."""
    answer, after = dealt_bonus_answer(bonus)
    return (title or bonus["bonus"], side_text(bonus["side"]), without_title(bonus["description"], title),
            answer + after)


def without_title(description: str, title: str) -> str:
    """An objective's description beside its title, as a row that names it already says it: without the title in
    brackets at its end (``the defenders take every trick`` beside ``Valat against``), so that the name is said
    once; any other bracket (``(silent loss)``) stays. The title as a row writes it (``Tricks``) or as the
    description does (``tricks``)."""
    said = f" ({title})"
    return description[:-len(said)] if title and description.lower().endswith(said.lower()) else description


def dealt_bonus_answer(bonus: Mapping[str, Any]) -> tuple[str, str]:
    """A dealt bonus's answer in its two parts: ``yes``, ``no`` or ``open``, and the words after it (`` - `` and why
    no search was needed), so that the command colours the first without cutting the text apart."""
    return "open" if bonus["made"] is None else "yes" if bonus["made"] else "no", f" - {bonus['reason']}"


#: The columns of ``stich check``'s table, which a bonus check and a dealt bonus render under in Jupyter.
CHECK_COLUMNS = ("bonus", "for", "what", "forced alone?")


@dataclass(frozen=True)
class Scored:
    """What a game's scorer makes of a finished deal: the items, notes, every seat's payment (0-based order) and,
    for a game paid from a pot, the pot and its change (payments plus ``pot_change`` sum to zero)."""

    items: tuple[ScoreItem, ...]
    payments: tuple[int, ...]
    notes: tuple[str, ...] = field(default=())
    pot: int | None = None
    pot_change: int = 0


def declarers_word(side: Sequence[int] | frozenset[int], title: str = "declarer") -> str:
    """``declarers`` for a side of two, ``declarer`` for the one seat of a Solo, Wenz or Tout; ``title`` is the
    game's word for one declaring seat (Kratzen's ``attacker``)."""
    return title if len(side) == 1 else f"{title}s"


def declaring_side_said(side: Sequence[int] | frozenset[int]) -> str:
    """``the declaring side`` for a side of two or more, ``the declarer`` for the one seat of a Solo, Wenz or Tout:
    the words a bonus's description names the side by, as "the defenders hold the declarer to ..." does."""
    return "the declarer" if len(side) == 1 else "the declaring side"


def side_text(seats: Sequence[int]) -> str:
    """1-based ``seats`` for people, as the commands write them: ``1+3`` for a side, ``seat 2`` for one seat, ``-``
    for none."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "+".join(str(seat) for seat in seats) if seats else "-"


def other_side(side: Iterable[int], seats: int) -> list[int]:
    """The 1-based seats of a deal of ``seats`` not in ``side`` (1-based): whoever plays against it, the one way
    ``solve``'s ``other_side`` and ``check``'s either-or lines work it out."""
    taken = set(side)
    return [seat for seat in range(1, seats + 1) if seat not in taken]


def role_text(title: str, seats: Sequence[int]) -> str:
    """The declaring seat or side with its role, one form in the commands' sentences: ``attacker seat 1`` (Kratzen),
    ``declarer seat 1`` (a Solo), ``declarers 1+3`` (1-based seats, ``title`` the game's word for one seat), in
    every sentence that names it; a record's title and a match's setup line keep their shorter ``attacker 1``."""
    return f"{declarers_word(seats, title)} {side_text(seats)}"


def signed(value: int) -> str:
    """A settlement as every table of payments and every report writes it: ``+6``, ``-6``, and ``0`` unsigned (a
    ``+0`` reads as a payment that was not made)."""
    return f"{value:+d}" if value else "0"


#: The decimals a report's JSON writes a mean, an interval's end and a share to (a match's and advice's documents).
JSON_PLACES = 4


def half_up(value: float, places: int = 2, scale: int = 1) -> Decimal | float:
    """``value`` times ``scale`` rounded to ``places`` half away from zero, as a reader rounds a figure: 0.625 (two
    boards of 0 and +1.25) is +0.63, 62.5% is 63%, -0.625 is -0.63. The decimal rounded is the float's shortest repr,
    so 0.615 (a hair below it in binary) is +0.62 too. The exact figure is rounded, not the JSON's four places: a mean
    of 0.62496 is +0.62 though the JSON writes 0.625 (rounding a rounded figure again can be off by one in the last
    place). Not finite: ``value`` as it is."""
    if not math.isfinite(value):
        return value
    written = Decimal(repr(float(value))) * scale
    # as many digits as the rounded figure has, however large: the default 28 would fail on a huge value
    digits = Context(prec=max(written.adjusted(), 0) + places + 2)
    rounded = written.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP, context=digits)
    return rounded + 0  # -0 as 0


def decimal_text(value: float, places: int, scale: int = 1) -> str:
    """``value`` times ``scale`` written to ``places`` decimals, rounded as :func:`half_up` rounds: a mean of card
    points ``70.3`` for 70.25, a share ``62.5`` for 0.625 at ``scale`` 100. Every figure a report writes with a fixed
    number of decimals goes through it, so that all round alike."""
    return f"{half_up(value, places, scale):.{places}f}"


def percent_text(value: float, places: int = 0) -> str:
    """A share ``value`` (0 to 1) as a figure of percent to ``places`` decimals (:func:`decimal_text`), without the
    sign, which a range writes once: ``63`` for 0.625, ``(31-88%)``."""
    return decimal_text(value, places, 100)


def signed_mean(value: float) -> str:
    """A mean payment to two places (:func:`half_up`), signed as :func:`signed` signs a settlement: ``+1.25``,
    ``-0.40``, and ``0.00`` for a mean that rounds to zero (``+0.00`` read as a gain, ``-0.00`` of a tiny negative
    as a loss)."""
    text = f"{half_up(value):+.2f}"
    return "0.00" if text in ("+0.00", "-0.00") else text


def measure_words(measure: str) -> str:
    """What a measure counts in players' words: ``card points`` for the ``points`` objective (the board says so
    too), ``tricks`` for Kratzen's; the others (``game units``, ``chips``) are words already."""
    return "card points" if measure == "points" else measure


def interval_words(low: str, high: str) -> str:
    """A 95% interval as every report writes one, in the brackets after its figure: ``95%: +0.80 to +1.70`` (the
    caller formats both ends as the figure is)."""
    return f"95%: {low} to {high}"


def with_interval(value: str, low: str, high: str) -> str:
    """A figure with its 95% interval: ``+1.25 (95%: +0.80 to +1.70)``, ``80.0% (95%: 62.7% to 90.5%)``, one form in
    every line of analyse, advice and a match, so that their figures read alike; a table's cells write theirs
    compactly (:func:`in_table_cell`)."""
    return f"{value} ({interval_words(low, high)})"


def has_interval(low: float | None, high: float | None) -> bool:
    """Whether a figure has an interval to write: None or nan ends mean none (one sample, or none)."""
    return low is not None and high is not None and not math.isnan(low) and not math.isnan(high)


def signed_with_interval(value: float, low: float | None, high: float | None) -> str:
    """A mean payment with its 95% interval (:func:`with_interval`, each number by :func:`signed_mean`), or the mean
    alone where it has none (None or nan)."""
    if not has_interval(low, high):
        return signed_mean(value)
    assert low is not None and high is not None
    return with_interval(signed_mean(value), signed_mean(low), signed_mean(high))


#: Half a unit of the last place :func:`signed_mean` writes: ends closer than this to symmetric read as symmetric.
HALF_LAST_PLACE = 0.005


#: The space inside a figure with its interval as a table cell writes it (:func:`in_table_cell`): a no-break space, so
#: that whoever lays the table out keeps the figure whole (the command line's tables wrap their cells at spaces, a
#: notebook's HTML at spaces too) without reading the figure's wording back; plain text writes it as a space.
FIGURE_SPACE = "\u00a0"


def unbroken(text: str) -> str:
    """``text`` as one piece a table's layout does not break: its spaces written as :data:`FIGURE_SPACE`."""
    return text.replace(" ", FIGURE_SPACE)


def in_table_cell(value: float, low: float | None, high: float | None, *, percent: bool = False) -> str:
    """A figure with its 95% interval in a table cell, whose title says once what the brackets and ± are (the long
    form of :func:`with_interval` would repeat ``95%:`` in every cell and widen a table of ten contracts past a
    terminal's width): a mean payment with a symmetric interval ``+1.00 ± 0.52``, with another ``+1.00 (+0.48 to
    +1.52)``; a share (``percent``) in whole percent, ``80% (63-90%)``; the figure alone where it has no interval.
    Its spaces are :data:`FIGURE_SPACE`: a figure and its interval read as one."""
    if percent:
        if not has_interval(low, high):
            return f"{percent_text(value)}%"
        assert low is not None and high is not None
        return unbroken(f"{percent_text(value)}% ({percent_text(low)}-{percent_text(high)}%)")
    if not has_interval(low, high):
        return signed_mean(value)
    assert low is not None and high is not None
    if abs((value - low) - (high - value)) < HALF_LAST_PLACE:
        return unbroken(f"{signed_mean(value)} ± {decimal_text((high - low) / 2, 2)}")
    return unbroken(f"{signed_mean(value)} ({signed_mean(low)} to {signed_mean(high)})")


def mean_in_words(value: float, low: float | None, high: float | None, *, all_alike: str | None = None,
                  compact: bool = False) -> str:
    """A mean payment with its 95% interval, as a report's line writes it (:func:`signed_with_interval`) or
    ``compact`` as a table cell does (:func:`in_table_cell`); where every sample gave the same value, the mean with
    ``all_alike``'s words in brackets instead: an interval of no width would claim a certainty the samples do not
    show. Advice's and a match's figures are all written by it; ``compact``, the words with the mean as one piece
    (:func:`unbroken`), as a figure's interval is."""
    if all_alike is not None:
        written = f"{signed_mean(value)} ({all_alike})"
        return unbroken(written) if compact else written
    return in_table_cell(value, low, high) if compact else signed_with_interval(value, low, high)


def net_amount(value: int, unit: str) -> str:
    """A double-dummy net with its unit, as ``stich score --dd`` and ``print(dd_settlement(...))`` both write it:
    ``+12 game units``, ``0 chips``."""
    return f"{signed(value)} {unit}"


def seats_of(side: frozenset[int]) -> tuple[int, ...]:
    """0-based seats as the sorted 1-based tuple that documents show."""
    return tuple(s + 1 for s in sorted(side))


def card_seat(state: PlayState, card: int) -> int | None:
    """The seat that holds or played ``card`` (None when no hand of this deal had it)."""
    for seat, hand in enumerate(state.hands):
        if hand >> card & 1:
            return seat
    if card in state.trick:
        return (state.leader + state.trick.index(card)) % state.seats
    for trick in state.history:
        if card in trick.cards:
            return trick.seat_of(trick.cards.index(card), state.seats)
    return None


def side_net(payments: Sequence[int], side: frozenset[int]) -> int:
    """What the seats of ``side`` (0-based) receive together."""
    return sum(payments[seat] for seat in side)


def item_payments(item: ScoreItem, seats: int) -> list[int]:
    """What one two-sided item pays each seat.

    The larger side moves ``value`` a seat (both sides in a 2 against 2); the smaller side balances it, so a solo
    item gives the soloist +-3v and each defender -+v, and the item always sums to zero."""
    result = [0] * seats
    winners, losers = item.winners, item.losers
    if not item.value or not winners or not losers:
        return result
    if len(winners) >= len(losers):
        total = item.value * len(winners)
        for seat in winners:
            result[seat - 1] += item.value
        for seat in losers:
            result[seat - 1] -= total // len(losers)
    else:
        total = item.value * len(losers)
        for seat in losers:
            result[seat - 1] -= item.value
        for seat in winners:
            result[seat - 1] += total // len(winners)
    return result


def total_payments(items: Sequence[ScoreItem], seats: int) -> tuple[int, ...]:
    """The payments of items settled between the seats (each item balances on its own)."""
    totals = [0] * seats
    for item in items:
        for seat, amount in enumerate(item_payments(item, seats)):
            totals[seat] += amount
    return tuple(totals)


def pot_payments(items: Sequence[ScoreItem], seats: int) -> tuple[tuple[int, ...], int]:
    """Payments between the seats and the pot: an item's winners are paid from it, its losers pay into it.
    Returns (every seat's payment, the pot's change)."""
    totals = [0] * seats
    pot_change = 0
    for item in items:
        for seat in item.winners:
            totals[seat - 1] += item.value
            pot_change -= item.value
        for seat in item.losers:
            totals[seat - 1] -= item.value
            pot_change += item.value
    return tuple(totals), pot_change


def pot_after_said(pot: int, pot_change: int, unit: str) -> str:
    """``pot after the deal: 40 chips (20 + 20)``: what the pot holds once a deal is paid, the pot the next deal
    starts from (RULES.md 3.4's P is the pot at a deal's start), which the payments' signed change alone leaves to
    the reader's sum."""
    change = f"{pot:,} {'+' if pot_change > 0 else '-'} {abs(pot_change):,}" if pot_change else "unchanged"
    return f"pot after the deal: {pot + pot_change:,} {unit} ({change})"


def two_sided(name: str, seats: int, winner: frozenset[int], base: int, multiplier: int, announced: bool,
              reason: str, against: bool = False) -> ScoreItem:
    """An item won by the side ``winner`` (0-based) and lost by everyone else (``against``: the defenders' bonus)."""
    loser = frozenset(range(seats)) - winner
    return ScoreItem(name, seats_of(winner), base, multiplier, announced, base * multiplier, reason,
                     seats_of(loser), against)


#: How a pot is given, in a note that asks for one: ``stich``'s flag (the API's argument: ``analysis.POT_BY_ARGUMENT``).
POT_BY_FLAG = "--pot CHIPS"
#: What a pot of 0 (a record of a game paid from a pot without a ``[Pot]`` tag has one: docs/scoring.md) pays, in the
#: words of every place that shows it beside the pot (``stich show``'s diagram, the board's table)
EMPTY_POT = "tricks and targets only"


def pot_zero_note(what: str, given: bool) -> str:
    """A document's note on a settlement at pot 0: every ``what`` settles at 0 (a ``line`` of the double-dummy score,
    a ``contract`` of the table, a ``deal`` of ``score``, as ``stich`` says each on stderr: :func:`pot_zero_said`),
    and, where no pot was ``given``, how to give one."""
    said = f"pot 0: every {what} settles at 0"
    return said if given else f"{said} (give the record a [Pot] tag, or {POT_BY_FLAG})"


#: The notes of a settlement at pot 0, which every record of the game without a pot shares: the double-dummy
#: score's, the contract table's and a finished deal's score's. ``stich``'s text says them once on stderr, not under
#: each record: it knows them by these values (``cli.render.is_pot_zero_note``), not by their words.
POT_ZERO_LINES_NOTE = pot_zero_note("line", given=False)
POT_ZERO_CONTRACTS_NOTE = pot_zero_note("contract", given=False)
POT_ZERO_SCORE_NOTE = pot_zero_note("deal", given=False)
#: The same notes where a pot of 0 was given (a ``[Pot "0"]`` tag, ``--pot 0``, the argument ``pot=0``): they ask
#: for no pot, as ``stich``'s line on stderr does not (``cli.records.pot_zero_line``).
POT_ZERO_LINES_GIVEN_NOTE = pot_zero_note("line", given=True)
POT_ZERO_CONTRACTS_GIVEN_NOTE = pot_zero_note("contract", given=True)
POT_ZERO_SCORE_GIVEN_NOTE = pot_zero_note("deal", given=True)
POT_ZERO_NOTES = (POT_ZERO_LINES_NOTE, POT_ZERO_CONTRACTS_NOTE, POT_ZERO_SCORE_NOTE, POT_ZERO_LINES_GIVEN_NOTE,
                  POT_ZERO_CONTRACTS_GIVEN_NOTE, POT_ZERO_SCORE_GIVEN_NOTE)


def pot_zero_said(what: str, unit: str, given: bool) -> str:
    """A pot of 0 as ``stich`` says it once on stderr for many records: every ``what`` (a line, a contract, a card)
    settles at 0 ``unit``, and, where no pot was ``given`` (a ``[Pot "0"]`` tag or ``--pot 0`` gives one), how to
    give one."""
    said = f"pot 0: every {what} settles at 0 {unit}"
    return said if given else f"{said}: give the record a [Pot] tag, or {POT_BY_FLAG}"


def read_pot(record: Record | None, pot: object) -> int:
    """The pot from the argument, else the record's ``[Pot]`` tag, else 0."""
    if pot is not None:
        if not is_whole_number(pot):
            raise StichError(f"the pot is a whole number of chips, not {pot!r}")
        if not 0 <= pot <= MAX_POT:
            raise StichError(f"the pot is from 0 to {MAX_POT:,} chips, not {pot}")
        return pot
    tag = record.tag("Pot") if record is not None else None
    if tag is None:
        return 0
    chips = small_number(tag.value)
    if chips is None:
        source = record.source if record is not None else "<input>"
        blank = not tag.value.strip()  # said as empty, not as "(got '')"
        raise ParseError("[Pot] is empty" if blank else "[Pot] is not a number of chips", source=source,
                         line=tag.value_line, column=tag.value_column, token=None if blank else tag.value,
                         expected=f"a whole number from 0 to {MAX_POT:,}")
    return chips
