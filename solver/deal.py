"""Deals: the hands of 3 to 6 seats, whole or an ending.

A :class:`Deal` is the cards each seat holds at the start of the position (a whole deal, or an ending of equal
shorter hands). It is validated once, here, with a reason a player can act on: duplicated cards, cards of another
game's pack, unequal hands, a seat count the game does not have.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from .cards import Card, Pack, union
from .errors import InvalidDealError, InvalidSeatError, UnknownCardError, integral, is_whole_number

MIN_SEATS = 3
MAX_SEATS = 6

_PREFIX = re.compile(r"^\s*([0-9]+)\s*:")
#: The most digits a seat, a count or a pot may have. Python refuses to convert more than 4,300 digits (and a seat
#: number never needs more than one); longer numbers are rejected as numbers, not passed to int().
MAX_NUMBER_DIGITS = 9
_NUMBER = re.compile(r"[0-9]{1,%d}" % MAX_NUMBER_DIGITS)


def small_number(text: str) -> int | None:
    """``text`` (surrounding spaces ignored) as a whole number of ASCII digits, or None.

    ``str.isdigit`` is true for superscripts and other Unicode digits that ``int`` refuses, and ``int`` refuses
    numbers of more than 4,300 digits: either would escape as a bare ValueError instead of a located error.
    """
    text = text.strip()
    return int(text) if _NUMBER.fullmatch(text) else None


@dataclass(frozen=True)
class Deal:
    """The hands, seat 1 first, as int masks over ``pack``."""

    pack: Pack
    hands: tuple[int, ...]

    def __post_init__(self) -> None:
        check_pack(self.pack)
        if isinstance(self.hands, list):  # kept as a tuple, so that the deal stays hashable
            object.__setattr__(self, "hands", tuple(self.hands))
        if not isinstance(self.hands, tuple):
            raise InvalidDealError(f"a deal's hands are a tuple of card masks, not {type(self.hands).__name__}")
        validate_hands(self.pack, self.hands)

    @property
    def seats(self) -> int:
        """The number of hands (seats) dealt."""
        return len(self.hands)

    @property
    def hand_size(self) -> int:
        """The number of cards in each hand (seat 1's; every hand holds as many)."""
        return self.hands[0].bit_count()

    @property
    def cards(self) -> int:
        """Every card dealt, as one mask."""
        return union(self.hands)

    def holder(self, card: int) -> int | None:
        """The seat index (0-based) holding card index ``card``, or None."""
        for seat, hand in enumerate(self.hands):
            if hand >> card & 1:
                return seat
        return None

    def hand_names(self, seat: int) -> list[str]:
        """The card names of the hand of ``seat`` (0-based, as ``hands`` is indexed), in pack order. A seat out of
        range is an InvalidSeatError saying so (it was an IndexError, and -1 quietly the last hand)."""
        seat = integral(seat)  # type: ignore[assignment]  # a numpy integer is a seat too
        if not is_whole_number(seat) or not 0 <= seat < len(self.hands):
            raise InvalidSeatError(f"seat index {seat!r} is not one of this deal's 0 to {len(self.hands) - 1} (a Deal "
                                   "counts seats from 0, as its hands; Position.hand takes the 1-based seat)")
        return self.pack.names(self.hands[seat])

    def text(self) -> str:
        """The deal as a ``[Deal]`` tag value: ``1: ... / ... / ...``."""
        return "1: " + " / ".join(" ".join(self.hand_names(s)) for s in range(self.seats))

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Deal({self.pack.game}: {self.text()})"

    @classmethod
    def from_text(cls, pack: Pack, text: str) -> "Deal":
        """Read ``"[N:] hand / hand / ..."`` (cards separated by spaces; ``N:`` names the seat of the first hand)."""
        check_pack(pack)
        if not isinstance(text, str):
            raise InvalidDealError(f"a deal is text ('1: ... / ...'), not {text!r}")
        first = 1
        match = _PREFIX.match(text)
        if match:
            first = small_number(match.group(1)) or 0  # 0: too many digits, reported as not a seat below
            text = text[match.end():]
        parts = text.split("/")
        if not MIN_SEATS <= len(parts) <= MAX_SEATS:
            raise InvalidDealError(f"a deal has {MIN_SEATS} to {MAX_SEATS} hands separated by '/', found {len(parts)}")
        if not 1 <= first <= len(parts):
            raise InvalidDealError(f"the first hand's seat {first} is not a seat of a {len(parts)}-hand deal")
        hands = [0] * len(parts)
        for offset, part in enumerate(parts):
            seat = (first - 1 + offset) % len(parts)
            hands[seat] = parse_hand(pack, part, seat)
        return cls(pack, tuple(hands))

    @classmethod
    def from_lists(cls, pack: Pack, hands: Sequence[str | Iterable[str | Card]]) -> "Deal":
        """Hands as space-separated strings or as collections of tokens or of this pack's Cards (a hand's CardSet
        too), seat 1 first."""
        check_pack(pack)
        masks = []
        for seat, hand in enumerate(hands):
            masks.append(parse_hand(pack, hand if isinstance(hand, str) else list(hand), seat))
        return cls(pack, tuple(masks))


def written_as(name: str, *tokens: object) -> str:
    """`` (written 'HC')`` where a card met twice was written by another of its names (HC for HN, XX for T20): the
    message names the card once, which the player may not have typed twice; empty where every token is its name (t20
    is T20 in other letters, no other name)."""
    names = {str(token).upper(): str(token) for token in tokens if str(token).upper() != name.upper()}.values()
    return f" (written {' and '.join(repr(other) for other in sorted(names))})" if names else ""


def parse_hand(pack: Pack, text: str | Sequence[str | Card], seat: int, label: str | None = None) -> int:
    """One hand's cards as a mask (a string of tokens, or a list of tokens and Cards); duplicates within the hand
    and unknown tokens are errors naming the seat (0-based ``seat``: "seat 1: ..."), or ``label`` for cards that are
    no seat's hand of a deal (a hand given alone, a seat's known cards)."""
    label = f"seat {seat + 1}" if label is None else label
    mask = 0
    written: dict[int, str] = {}
    for token in text.split() if isinstance(text, str) else text:
        try:
            card = pack.parse(token)
        except UnknownCardError as error:
            raise InvalidDealError(f"{label}: {error}") from None
        if mask >> card.index & 1:
            again = written_as(card.name, written[card.index], token)  # XX for T20: which two tokens met
            raise InvalidDealError(f"{label}: {card.name} appears twice{again}")
        written[card.index] = str(token)
        mask |= card.mask
    return mask


def check_pack(pack: object) -> Pack:
    """``pack`` if it is a game's Pack (``solver.get_game(name).pack``), else InvalidDealError."""
    if not isinstance(pack, Pack):
        raise InvalidDealError(f"a deal's pack is a game's Pack (such as solver.get_game(name).pack), not {pack!r}")
    return pack


def validate_hands(pack: Pack, hands: tuple[int, ...]) -> None:
    """Reject what no game allows: too few or many seats, foreign bits, a card in two hands, unequal hands."""
    if not MIN_SEATS <= len(hands) <= MAX_SEATS:
        raise InvalidDealError(f"a deal has {MIN_SEATS} to {MAX_SEATS} hands, not {len(hands)}")
    seen = 0
    for seat, hand in enumerate(hands):
        if not isinstance(hand, int) or hand < 0 or hand & ~pack.full_mask:
            raise InvalidDealError(f"seat {seat + 1}: the hand holds cards outside the {pack.game} pack")
        twice = seen & hand
        if twice:
            names = ", ".join(pack.names(twice))
            raise InvalidDealError(f"seat {seat + 1}: {names} already dealt to another seat")
        seen |= hand
    sizes = [hand.bit_count() for hand in hands]
    if len(set(sizes)) != 1:
        listing = ", ".join(f"seat {s + 1} has {n}" for s, n in enumerate(sizes))
        raise InvalidDealError(f"hands of unequal length: {listing}")
    if sizes[0] == 0:
        raise InvalidDealError("the hands are empty")

