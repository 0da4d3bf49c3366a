"""Why a card may not be played: the rule it breaks, in words.

The reasons are read from the rule tables (:mod:`solver.games.tables`), the same data the engine plays by, walking
them as :func:`~solver.games.tables.legal_cards` does: a lead rule (Suit Solo), a follow level (follow suit, else
trump), the duty to beat, the called card (Schafkopf's called ace) and a reserved card (the announced Pagat). So
every game's refusals are explained without game code, and the words cannot disagree with the rules applied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .tables import RuleTables, current_winner

if TYPE_CHECKING:
    from ..state import PlayState


def _names(state: "PlayState", mask: int) -> str:
    return " ".join(state.rules.pack.names(mask))


def _tables(state: "PlayState") -> RuleTables:
    return state.rules.tables()


def _follow_mask(tables: RuleTables, lead: int) -> int:
    """The cards that follow suit to ``lead``: a hand holding one breaks the duty to follow before any other."""
    levels = tables.follow[tables.card_class[lead]]
    return levels[0].mask if levels else 0


def illegal_reason(state: "PlayState", card: int) -> str:
    """The rule that forbids the player to move ``card`` (a card of his hand that is not legal here)."""
    tables = _tables(state)
    pack = state.rules.pack
    seat = state.to_move
    hand = state.hands[seat]
    trick = state.trick
    called = tables.called
    if called is not None and seat == called.holder and hand >> called.card & 1 and not state.flags & called.flag:
        called_name = f"{called.name} {pack[called.card].name}"
        class_cards = hand & tables.class_masks[called.card_class]
        if trick and tables.card_class[trick[0]] == called.card_class:
            return f"the {called_name} must be played to the first trick of its suit"
        if trick and card == called.card and not hand & _follow_mask(tables, trick[0]):
            return f"the {called_name} may not be discarded before its suit was led"
        if not trick and class_cards >> card & 1 and card != called.card:
            return (f"the holder of the {called_name} leads its suit with it, unless he holds "
                    f"{called.runaway_min} or more plain cards of the suit (running away)")
    for reservation in tables.reservations:
        if seat == reservation.seat and card == reservation.card:
            name = f"{reservation.name} ({pack[card].name})" if reservation.name else pack[card].name
            return f"the announced {name} is kept for the last trick unless it is the only legal card"
    if not trick:
        for level in tables.lead:
            if hand & level.mask:
                return f"the lead must be one of {_names(state, hand & level.mask)} while the hand holds one"
        return "this lead is not allowed here"
    led = tables.card_class[trick[0]]
    power = tables.power[led]
    winner = trick[current_winner(tables, trick)]
    lead_card = pack[trick[0]].name
    for number, level in enumerate(tables.follow[led]):
        cards = hand & level.mask
        if not cards:
            continue
        if number and any(power[c] == 0 for c in range(len(pack)) if cards >> c & 1):
            # a fallback that cannot win the trick is no trump: a Suit Solo's tarocks, or under
            # suit_solo_follow=strict another suit's cards
            return f"cannot follow suit to the lead {lead_card} and must play one of {_names(state, cards)} instead"
        duty = (f"must follow suit to the lead {lead_card}" if number == 0
                else f"cannot follow suit to the lead {lead_card} and must trump")
        beating = sum(1 << c for c in range(len(pack)) if cards >> c & 1 and power[c] > power[winner])
        if level.beat and beating:
            return f"{duty} and beat {pack[winner].name} if he can: with one of {_names(state, beating)}"
        return f"{duty}: with one of {_names(state, cards)}"
    return "this card is not allowed here"


__all__ = ["illegal_reason"]
