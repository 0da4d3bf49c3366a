"""Rule tables: the only thing the compiled engine knows of a game.

Each game's :class:`~solver.games.base.Rules` compiles itself into a :class:`RuleTables` of small integers and card
masks, built from a handful of general primitives:

* ``points[card]`` and ``card_class[card]``: the card's points and its *effective suit* (class).
* ``power[led_class][card]``: how strongly a card plays to a trick led in a class; 0 = it cannot win. The winner of
  a trick is the card of greatest power, unless a *special winner* applies.
* ``follow[led_class]``: ordered fallback levels ``(mask, beat)``: the legal cards are ``hand & mask`` of the first
  level that the hand meets; ``beat`` 1 = of those, the ones that beat the trick's current winner if any
  (Kratzen's follow-and-beat), ``beat`` 2 = those that beat it, else the whole hand (no duty to undertrump). A hand
  that meets no level plays any card. ``lead`` does the same for the first card of a trick (Suit Solo).
* ``specials``: (cards, winner, order, led classes): when every card of ``cards`` is in a trick led in one of the
  classes (and, with ``order``, they fell in that order), ``winner`` takes it (the Sagotrick).
* ``called``: a card its holder must play to the first trick led in its class, may not discard before that class
  was led (unless it is his last card) and, when leading the class first, must lead unless he holds
  ``runaway_min`` cards of the class (the Schafkopf called ace); ``led_flags[class]`` are the history bits set when
  a trick is led in a class.
* ``reservations``: a card a seat may not play before the last trick unless forced (hard Pagat reservation).

:func:`legal_cards` and :func:`trick_winner` below walk the tables in plain Python: the tests check them against the
rule methods (which are written straight from RULES.md) and against the engine, three ways.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import bits


@dataclass(frozen=True)
class Level:
    """One fallback level of a follow (or lead) rule."""

    mask: int
    beat: int = 0  # 0: any of the level; 1: beat if possible, else any of the level; 2: beat if possible, else any


@dataclass(frozen=True)
class SpecialWinner:
    cards: int
    winner: int
    order: tuple[int, ...] = ()
    led_classes: int = ~0


@dataclass(frozen=True)
class CalledCard:
    card: int
    holder: int
    card_class: int
    runaway_min: int
    runaway_at_deal: int  # -1: counted when leading; 0 / 1: decided at the deal (may not / may run away)
    flag: int  # the history bit that says the class has been led
    name: str = field(default="called card", compare=False)  # what players call it ("called ace"), for refusals


@dataclass(frozen=True)
class Reservation:
    card: int
    seat: int
    name: str = field(default="", compare=False)  # what players call the card ("Pagat"), for the refusal's words


@dataclass(frozen=True)
class RuleTables:
    n_cards: int
    n_seats: int
    points: tuple[int, ...]
    card_class: tuple[int, ...]
    n_classes: int
    power: tuple[tuple[int, ...], ...]
    follow: tuple[tuple[Level, ...], ...]
    lead: tuple[Level, ...] = ()
    specials: tuple[SpecialWinner, ...] = ()
    called: CalledCard | None = None
    reservations: tuple[Reservation, ...] = ()
    led_flags: tuple[int, ...] = ()
    class_masks: tuple[int, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        masks = [0] * self.n_classes
        for card, cls in enumerate(self.card_class):
            if cls >= 0:
                masks[cls] |= 1 << card
        object.__setattr__(self, "class_masks", tuple(masks))


def _apply_levels(levels: tuple[Level, ...], hand: int, power: tuple[int, ...] | None, best: int) -> int:
    for level in levels:
        cards = hand & level.mask
        if not cards:
            continue
        if level.beat and power is not None:
            beating = 0
            for card in bits(cards):
                if power[card] > best:
                    beating |= 1 << card
            if beating:
                return beating
            return cards if level.beat == 1 else hand
        return cards
    return hand


def current_winner(tables: RuleTables, trick: tuple[int, ...]) -> int:
    """The position of the card winning the (possibly incomplete) trick so far."""
    led = tables.card_class[trick[0]]
    for special in tables.specials:
        if not special.led_classes >> led & 1:
            continue
        mask = 0
        for card in trick:
            mask |= 1 << card
        if mask & special.cards != special.cards:
            continue
        if special.order and [c for c in trick if c in special.order] != list(special.order):
            continue
        return trick.index(special.winner)
    powers = [tables.power[led][c] for c in trick]
    return powers.index(max(powers))


def trick_winner(tables: RuleTables, trick: tuple[int, ...]) -> int:
    return current_winner(tables, trick)


def legal_cards(tables: RuleTables, seat: int, hand: int, trick: tuple[int, ...], flags: int) -> int:
    """The legal cards by the tables alone (the reference semantics of every primitive)."""
    called = tables.called
    holds_called = called is not None and seat == called.holder and hand >> called.card & 1 \
        and not flags & called.flag
    if not trick:
        legal = _apply_levels(tables.lead, hand, None, 0)
        if holds_called and called is not None:
            class_cards = hand & tables.class_masks[called.card_class]
            may_run = called.runaway_at_deal == 1 or (
                called.runaway_at_deal == -1 and class_cards.bit_count() >= called.runaway_min)
            if not may_run:
                legal &= ~(tables.class_masks[called.card_class] & ~(1 << called.card))
    else:
        led = tables.card_class[trick[0]]
        power = tables.power[led]
        best = power[trick[current_winner(tables, trick)]]
        legal = _apply_levels(tables.follow[led], hand, power, best)
        if holds_called and called is not None:
            if led == called.card_class:
                return 1 << called.card
            if hand.bit_count() > 1:
                legal &= ~(1 << called.card)
    for reservation in tables.reservations:
        if (seat == reservation.seat and legal >> reservation.card & 1 and hand.bit_count() > 1
                and legal != 1 << reservation.card):
            legal &= ~(1 << reservation.card)
    return legal


def next_flags(tables: RuleTables, flags: int, trick: tuple[int, ...]) -> int:
    if tables.led_flags:
        flags |= tables.led_flags[tables.card_class[trick[0]]]
    return flags
