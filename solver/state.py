"""The dynamic play state: whose turn, what is on the table, who has won what.

:class:`PlayState` is game-agnostic (OpenSpiel's split): everything static about the game, contract, deal and flags
lives in the :class:`~solver.games.base.Rules` it points to, and every rule question (which cards are legal, who
wins a trick, what a trick changes in the rule history) is asked of those rules. States are immutable; ``play``
returns a new state, so a search can keep any state it has seen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Sequence, SupportsIndex

from .cards import Card, CardIndex, bits, union
from .errors import IllegalPlayError, UnknownCardError, UnknownCardPlayError, integral, is_whole_number

if TYPE_CHECKING:
    from .games.base import Rules


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: who led it, the cards in playing order, and the seat that won it (seats 0-based)."""

    leader: int
    cards: tuple[int, ...]
    winner: int

    def seat_of(self, position: int, seats: int) -> int:
        """The seat (0-based) that played the ``position``-th card of the trick (0: the leader)."""
        return (self.leader + position) % seats


@dataclass(frozen=True, slots=True)
class PlayState:
    """One position of the play. Seats are 0-based here; the text layer shows them 1-based."""

    rules: "Rules"
    hands: tuple[int, ...]
    leader: int
    trick: tuple[int, ...] = ()
    flags: int = 0
    points: tuple[int, ...] = ()
    tricks: tuple[int, ...] = ()
    history: tuple[Trick, ...] = ()

    @property
    def seats(self) -> int:
        """The number of seats at the table."""
        return len(self.hands)

    @property
    def to_move(self) -> int:
        """The seat (0-based) to play next."""
        return (self.leader + len(self.trick)) % len(self.hands)

    @property
    def is_over(self) -> bool:
        """Whether every card has been played."""
        return not self.trick and not any(self.hands)

    @property
    def cards_left(self) -> int:
        """Cards still in the hands (the trick on the table not counted)."""
        return union(self.hands)

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, the one in progress included."""
        return self.hands[self.to_move].bit_count() if not self.is_over else 0

    def __repr__(self) -> str:
        """One line with the cards by name; seats stay 0-based, as everywhere in a state, and are marked so."""
        try:
            pack = self.rules.pack

            def names(cards: Iterable[int]) -> str:
                return " ".join(pack[card].name if 0 <= card < len(pack) else f"#{card}" for card in cards) or "-"

            hands = ", ".join(f"[{seat}] {names(bits(hand))}" for seat, hand in enumerate(self.hands))
            where = "over" if self.is_over else f"[{self.to_move}] to play, trick {names(self.trick)}"
            return (f"<PlayState {self.rules.game.name} {self.rules.contract}, 0-based seats: hands {hands}; {where}; "
                    f"points {' '.join(map(str, self.points))}, tricks {' '.join(map(str, self.tricks))} after "
                    f"{len(self.history)} trick{'' if len(self.history) == 1 else 's'}; flags {self.flags}>")
        except (AttributeError, TypeError, ValueError, ZeroDivisionError):  # a state the boundary will refuse
            return (f"PlayState(rules={self.rules!r}, hands={self.hands!r}, leader={self.leader!r}, "
                    f"trick={self.trick!r}, flags={self.flags!r}, points={self.points!r}, tricks={self.tricks!r}, "
                    f"history={self.history!r})")

    def history_cards(self) -> tuple[int, ...]:
        """Every card played so far, in playing order: the completed tricks, then the trick on the table."""
        return tuple(card for trick in self.history for card in trick.cards) + self.trick

    def key(self) -> tuple:
        """Everything the rest of the play depends on (not what was already won)."""
        return (self.hands, self.leader, self.trick, self.flags)

    def legal_cards(self) -> int:
        """The mask of cards the player to move may play."""
        if self.is_over:
            return 0
        return self.rules.legal_cards(self)

    def play(self, card: "SupportsIndex | str | Card") -> "PlayState":
        """The state after the player to move plays ``card`` (a pack index, a Card or a card token);
        IllegalPlayError if the rules forbid it, with the cards the seat may play (UnknownCardPlayError, an
        IllegalPlayError too, for a card that is not in the pack)."""
        if isinstance(card, CardIndex):  # a result's pack index knows its card: another game's is refused, not played
            card = card.card
        if isinstance(card, (str, Card)):
            try:
                card = self.rules.pack.parse(card).index  # another game's card: the message names its game
            except UnknownCardError as error:
                raise UnknownCardPlayError(str(error)) from None
        if not is_whole_number(card):
            index = integral(card)  # a numpy integer (a bot's argmax) is a pack index too
            if not is_whole_number(index):
                raise IllegalPlayError(f"a card to play is a pack index, a Card or a card token, not {card!r}")
            card = index
        if not 0 <= card < len(self.rules.pack):
            raise UnknownCardPlayError(f"card index {card} is not a card of the {self.rules.game.name} pack "
                                       f"(0 to {len(self.rules.pack) - 1})")
        seat = self.to_move
        if self.is_over:
            raise IllegalPlayError("the deal is over: no card can be played")
        if not self.legal_cards() >> card & 1:  # either refusal says what the seat may play instead
            legal = " ".join(self.rules.pack.names(self.legal_cards()))
            if not self.hands[seat] >> card & 1:
                raise IllegalPlayError(f"seat {seat + 1} does not hold {self.rules.pack[card].name}"
                                       f"{card_whereabouts(self, card)} (legal: {legal})")
            raise IllegalPlayError(f"seat {seat + 1} may not play {self.rules.pack[card].name} here: "
                                   f"{self.rules.illegal_reason(self, card)} (legal: {legal})")
        return self.advance(int(card))  # an IntEnum's member is played as its number, as a CardIndex is

    def advance(self, card: int) -> "PlayState":
        """``play`` without the checks, for searches that only play legal cards."""
        seat = self.to_move
        hands = list(self.hands)
        hands[seat] &= ~(1 << card)
        trick = self.trick + (card,)
        if len(trick) < len(hands):
            return PlayState(self.rules, tuple(hands), self.leader, trick, self.flags,
                             self.points, self.tricks, self.history)
        rules = self.rules
        winner = (self.leader + rules.trick_winner(trick)) % len(hands)
        points = list(self.points)
        tricks = list(self.tricks)
        points[winner] += sum(rules.points[c] for c in trick)
        tricks[winner] += 1
        done = Trick(self.leader, trick, winner)
        return PlayState(rules, tuple(hands), winner, (), rules.next_flags(self.flags, trick),
                         tuple(points), tuple(tricks), self.history + (done,))

    def legal_list(self) -> list[int]:
        """The legal cards of the seat to move as pack indices, in pack order."""
        return list(bits(self.legal_cards()))

    def side_points(self, side: frozenset[int]) -> int:
        """The card points the seats of ``side`` (0-based) have won."""
        return sum(self.points[s] for s in side)

    def side_tricks(self, side: frozenset[int]) -> int:
        """The tricks the seats of ``side`` (0-based) have won."""
        return sum(self.tricks[s] for s in side)


def card_whereabouts(state: PlayState, card: int, lines: Sequence[int] | None = None) -> str:
    """Where a card the seat to move does not hold is, for the message that refuses it (``seat 1 does not hold
    EZ: on the table, played by seat 2``), one wording for a bot, ``--play`` and a record's Play section: on the
    table, played already in an earlier trick (a card written twice, a trick's cards read in the wrong order), in
    another hand, or, in no hand and no trick, played before this ending's start or, in a game that deals part of
    its pack (Kratzen), not dealt (in a whole deal, only that). ``lines`` (each card of the state's tricks, the one
    on the table last, in playing order: its line of the record) adds where it was played."""
    seats = len(state.hands)
    at = 0
    for leader, cards, where in [*((trick.leader, trick.cards, "played already,") for trick in state.history),
                                 (state.leader, state.trick, "on the table, played")]:
        if card in cards:
            on_line = f" on line {lines[at + cards.index(card)]}" if lines is not None else ""
            return f": {where} by seat {(leader + cards.index(card)) % seats + 1}{on_line}"
        at += len(cards)
    holder = next((seat for seat, hand in enumerate(state.hands) if hand >> card & 1), None)
    if holder is not None:
        return f": seat {holder + 1} holds it"
    rules = state.rules
    if rules.game.is_whole(rules.deal):  # every card of a whole deal is in a hand or a trick, or was never dealt
        return ": not dealt"
    part_dealt = not rules.game.deals_whole_pack(rules.seats)
    return f": played before this ending's start{', or not dealt' if part_dealt else ''}"
