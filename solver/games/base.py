"""What every game module provides: a static game description, contracts, rules and objectives.

A game is one module with three layers (see docs/architecture.md):

1. **Static description**: a :class:`Game` subclass with class-level metadata (name, aliases, pack, seat counts,
   hand size, variant flags) and the contract parser.
2. **Rule methods** written straight from RULES.md on a :class:`Rules` subclass, one per game: ``legal_cards``,
   ``trick_winner``, ``next_flags``. They drive :class:`~solver.state.PlayState`, perft and the reference solver.
3. **Objectives** as data (:class:`Objective`): which seats maximise, and what each completed trick is worth to
   them. Every question the solver answers is "the most reward the maximising side can force", optionally compared
   with a target; yes/no questions (Valat, Pagat Ultimo, ...) are rewards of 0 or 1 per trick event.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import FrozenInstanceError, dataclass
from fractions import Fraction
from typing import Any, Callable, ClassVar, Hashable, Mapping, Sequence

from ..announcements import Announcement
from ..cards import Card, Pack, build_pack
from ..deal import Deal
from ..errors import (ContractFormError, ForeignObjective, InvalidContractError, InvalidDealError,
                      InvalidSeatContractError, StichError, UnknownContractError, VariantError, close_matches,
                      did_you_mean, integral, is_whole_number, objective_meant, quoted)
from ..formats.tbn import Record
from ..state import PlayState, Trick
from ..variant import Flag, Variant
from .outcome import GAMES, DealtBonus, ScoreItem, Scored, seats_of, side_net, side_text, total_payments
from .illegal import illegal_reason
from .tables import RuleTables


#: The rule state an ending cannot derive, as keyword arguments of :meth:`Game.rules` (seats are 1-based), and its
#: type: every game's ``Game.state_tags``, collected as each game class is defined. A game ignores the ones it has
#: no use for.
STATE_TAGS: dict[str, type] = {}
#: Where a record gives each state tag: a tag of its own (``"Partner"``: ``[Partner "3"]``), or ``"Announcements"``
#: for a state the announcements imply (``Game.announced_state``); every game's ``Game.record_tags``, collected.
RECORD_TAGS: dict[str, str] = {}


def _check_seat(name: str, value: object, seats: int) -> None:
    """A 1-based seat given as a keyword: a whole number (not a bool) from 1 to ``seats``."""
    if not is_whole_number(value):
        raise InvalidSeatContractError(f"{name} must be a seat number from 1 to {seats}, not {value!r}", about=name)
    if not 1 <= value <= seats:
        raise InvalidSeatContractError(f"{name} seat {value} is not a seat of this {seats}-seat deal", about=name)


@dataclass(frozen=True)
class Contract:
    """A contract of one game: its kind (``normal``, ``rufer``, ``trump``, ...), and its suit or called card."""

    game: str
    kind: str
    suit: str | None = None
    card: int | None = None  # the called card's index (Zwanzigerrufen Normal), when named
    modifier: str | None = None  # Kratzen: muss / sevenmuss
    text: str = ""

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class TrickEvent:
    """A reward for a trick in which certain cards fall and a certain card wins.

    The event happens when every card of ``present`` is in the trick, none of ``absent`` is, the winning card is
    ``winner_card`` (when >= 0) and not ``loser_card`` (when >= 0), and, with ``last_only``, the trick is the deal's
    last. It pays ``reward`` to the maximising side whoever takes the trick.
    """

    present: int
    absent: int = 0
    winner_card: int = -1
    not_winner_card: int = -1
    last_only: bool = False
    reward: int = 1

    def happens(self, trick: tuple[int, ...], winner_card: int, last: bool) -> bool:
        """Whether the event happens in a completed ``trick`` won by ``winner_card`` (``last``: the deal's last
        trick)."""
        mask = 0
        for card in trick:
            mask |= 1 << card
        if mask & self.present != self.present or mask & self.absent:
            return False
        if self.winner_card >= 0 and winner_card != self.winner_card:
            return False
        if self.not_winner_card >= 0 and winner_card == self.not_winner_card:
            return False
        return not self.last_only or last

    def can_still_happen(self, state: PlayState) -> bool:
        """Whether some play of the rest could still make the event happen, by where its cards are: none fell in an
        earlier trick, no two sit in one hand (a trick takes one card of each seat), and once one is on the table
        the trick in progress must be able to take the others (each in the hand of a seat yet to play to it, no
        ``absent`` card there, and the deal's last trick for a ``last_only`` event). A bound, not a search: ``stich
        check`` says a bonus whose event cannot happen any more ``missed``, not stopped (and plays a last trick's
        forced cards through before asking, :func:`solver.analysis.forced_to_the_end`)."""
        if state.is_over:
            return False
        on_table = 0
        for card in state.trick:
            on_table |= 1 << card
        if self.present & ~(state.cards_left | on_table):
            return False  # a card of it fell in an earlier trick
        if any((hand & self.present).bit_count() > 1 for hand in state.hands):
            return False  # two of its cards in one hand never fall in one trick
        if not self.present & on_table:
            return True
        if self.absent & on_table or (self.last_only and state.tricks_left > 1):
            return False  # an absent card in the trick, or a last-trick event in another trick
        played = {(state.leader + k) % state.seats for k in range(len(state.trick))}
        return not any(state.hands[seat] & self.present for seat in played)


@dataclass(frozen=True)
class Objective:
    """A question the solver answers: the most reward ``maximiser`` can force from a position.

    The reward of a completed trick won by a seat of ``maximiser`` is ``points_weight`` x its card points plus
    ``trick_weight``; every :class:`TrickEvent` adds its reward whoever wins. With a ``target`` the objective is a
    yes/no question: does the total (what is already won plus the rest) reach it? An objective a game's rules make
    records that ``game``: its target and maximum are measured on that game's deal and its events name cards by
    their index in that game's pack, so asked of another game's deal it would answer another question, and the
    engine refuses it. One made by hand without ``game`` is any game's question.
    """

    name: str
    maximiser: frozenset[int]
    description: str
    points_weight: int = 0
    trick_weight: int = 0
    events: tuple[TrickEvent, ...] = ()
    target: int | None = None
    maximum: int = 0  # the largest total possible from the deal's start
    game: str = ""  # the game whose rules made it, whose pack numbers its events' cards ("": any game's)

    def trick_reward(self, rules: "Rules", trick: Trick, last: bool) -> int:
        """The reward of one completed ``trick`` (``last``: the deal's last): its weights if the maximiser won it,
        plus the events it makes happen."""
        reward = 0
        if trick.winner in self.maximiser:
            reward += self.trick_weight + self.points_weight * sum(rules.points[c] for c in trick.cards)
        if self.events:
            position = (trick.winner - trick.leader) % rules.seats
            winner_card = trick.cards[position]
            for event in self.events:
                if event.happens(trick.cards, winner_card, last):
                    reward += event.reward
        return reward

    def achieved(self, rules: "Rules", state: PlayState) -> int:
        """The reward already earned by the completed tricks of ``state``."""
        total = 0
        count = len(state.history)
        for number, trick in enumerate(state.history):
            total += self.trick_reward(rules, trick, last=number == count - 1 and state.is_over)
        return total


@dataclass(frozen=True)
class PayoffComponent:
    """One additive quantity a game's settlement depends on (an :class:`Objective` of the declaring side: card
    points, tricks, a trick event), and the values at which the settlement can change."""

    name: str
    objective: Objective
    thresholds: tuple[int, ...]

    def bucket(self, value: int) -> int:
        return bisect_right(self.thresholds, value)

    def representative(self, bucket: int) -> int:
        """The smallest value of a bucket (every value of it settles alike)."""
        return 0 if bucket == 0 else self.thresholds[bucket - 1]


#: A game's settlement as the double-dummy search sees it (``Game.settlement_model``): its components, and the
#: declaring side's net for final component values (one representative value per bucket).
SettlementModel = tuple[list[PayoffComponent], Callable[[tuple[int, ...]], int]]
#: The same components with the score items of final component values (``Game.settlement_items``): what each
#: bucket pays for, item by item, so a caller can tell which bonuses a settlement value stands for.
SettlementItems = tuple[list[PayoffComponent], Callable[[tuple[int, ...]], Sequence[ScoreItem]]]


def items_net(rules: "Rules", items: Sequence[ScoreItem]) -> int:
    """The declaring side's net of settled items: the payoff of a bucket whose items ``Game.settlement_items``
    gives."""
    return side_net(total_payments(items, rules.seats), rules.declaring_side)


class Rules:
    """The static rules of one deal: game, contract, variant, sides, first leader, and the rule methods.

    Subclasses implement ``legal_cards``, ``trick_winner`` and (where history matters) ``next_flags``, and list their
    objectives in ``objective``.
    """

    game: "type[Game]"

    def __init__(self, game: "type[Game]", deal: Deal, contract: Contract, declarer: int, variant: Variant,
                 leader: int, flags: int = 0) -> None:
        self.game = game
        self.pack: Pack = game.pack
        self.deal = deal
        self.contract = contract
        self.declarer = declarer
        self.variant = variant
        self.seats = deal.seats
        self.first_leader = leader
        self.initial_flags = flags
        self.points: tuple[int, ...] = tuple(card.points for card in game.pack)
        self.declaring_side: frozenset[int] = frozenset({declarer})
        self.state_tags: dict[str, object] = {}  # Game.rules' state tags (1-based seats), those given a value

    def __setattr__(self, name: str, value: object) -> None:
        """Rules are frozen once :meth:`Game.rules` has made them: states, positions and the engine's compiled tables
        hold them (and their hash), and would go on answering for rules that no longer are. Frozen one level deep:
        ``state_tags`` is a plain dict (kept so that rules pickle, which a mapping proxy does not) and must
        not be changed either."""
        if self.__dict__.get("_frozen"):
            raise FrozenInstanceError(f"cannot assign to {name!r}: rules are immutable (make others with Game.rules)")
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        if self.__dict__.get("_frozen"):
            raise FrozenInstanceError(f"cannot delete {name!r}: rules are immutable (make others with Game.rules)")
        super().__delattr__(name)

    # Equality ------------------------------------------------------------------------------------------------------

    def _public(self) -> dict[str, object]:
        """Every attribute but the caches (names with a leading underscore), which the others determine."""
        return {name: value for name, value in vars(self).items() if not name.startswith("_")}

    def __eq__(self, other: object) -> bool:
        """Equal rules are the same rules of the same deal, whatever object holds them: a state sent to another
        process (pickled) and back equals the original."""
        if self is other:
            return True
        if type(other) is not type(self):
            return NotImplemented
        return self._public() == other._public()  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.game.name} {self.contract}, {self.game.declarer_title} "
                f"{self.declarer + 1}, {self.seats} seats>")  # Kratzen's attacker

    def __hash__(self) -> int:
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = self.__dict__["_hash"] = hash((type(self), self.deal, self.contract, self.declarer,
                                                    self.first_leader, self.initial_flags))
        return cached

    # Rule methods ------------------------------------------------------------------------------------------------

    def legal_cards(self, state: PlayState) -> int:
        """The cards the seat to move may play, as a mask (bit ``i`` is card index ``i``)."""
        raise NotImplementedError

    def trick_winner(self, trick: tuple[int, ...]) -> int:
        """The position (0 = the leader's card) of the card that wins a complete trick."""
        raise NotImplementedError

    def next_flags(self, flags: int, trick: tuple[int, ...]) -> int:
        """The rule-history word after a completed trick (0 for games without history)."""
        return flags

    def compile_tables(self) -> RuleTables:
        """These rules as the engine's tables (``solver/games/tables.py``), which the reference checks."""
        raise NotImplementedError

    def illegal_reason(self, state: PlayState, card: int) -> str:
        """The rule that forbids the player to move ``card``, in words (read from the rule tables)."""
        return illegal_reason(state, card)

    def tables(self) -> RuleTables:
        """:meth:`compile_tables`, compiled once per rules object (the engine and the explanations share it)."""
        tables = self.__dict__.get("_tables")
        if tables is None:
            tables = self.__dict__["_tables"] = self.compile_tables()
        return tables

    def trump_cards(self) -> int:
        """The contract's whole trump set as a mask, cards played included: the cards that can win a trick led in
        another suit, read from :meth:`tables` (so no game's trump rule is repeated), once per rules object."""
        trumps = self.__dict__.get("_trumps")
        if trumps is None:
            tables = self.tables()
            trumps = self.__dict__["_trumps"] = sum(
                1 << card for card in range(tables.n_cards)
                if any(tables.power[led][card] > 0 for led in range(tables.n_classes)
                       if led != tables.card_class[card]))
        return trumps

    def trump_order(self) -> tuple[int, ...]:
        """The contract's trumps (:meth:`trump_cards`), the highest first: the order in which they beat each other
        on a trick led in another suit, read from :meth:`tables`, once per rules object."""
        order = self.__dict__.get("_trump_order")
        if order is None:
            tables = self.tables()

            def power(card: int) -> int:
                return max(tables.power[led][card] for led in range(tables.n_classes) if led != tables.card_class[card])

            mask = self.trump_cards()
            trumps = [card for card in range(tables.n_cards) if mask >> card & 1]
            order = self.__dict__["_trump_order"] = tuple(sorted(trumps, key=power, reverse=True))
        return order

    # Sides and objectives ---------------------------------------------------------------------------------------

    @property
    def defending_side(self) -> frozenset[int]:
        """The seats (0-based) not of the declaring side."""
        return frozenset(range(self.seats)) - self.declaring_side

    def objective_names(self) -> list[str]:
        """The names of the objectives this contract can be asked (``Position.objective`` takes them)."""
        raise NotImplementedError

    def objectives_left_out(self) -> dict[str, str]:
        """The game's bonuses that this contract leaves out, each with why (a Suit Solo has no Pagat, RULES.md 1.6):
        ``stich check`` lists them as not arising, so a reader looking for the row learns why it has no answer.
        None by default."""
        return {}

    def objective(self, name: str, seat: int | None = None) -> Objective:
        """The objective ``name`` of these rules, for ``seat`` (0-based) where it is a seat's own;
        InvalidContractError for one the contract has not."""
        raise NotImplementedError

    def game_objective(self) -> Objective | None:
        """The objective whose success is the declaring side's game (RULES.md 1.6 and 2.4: "D reaches 45", "61"),
        or None where the contract has none; a post-mortem's plot draws its target as the winning line."""
        return self.objective("game") if "game" in self.objective_names() else None

    def start(self) -> PlayState:
        """The state before the first card: the dealt hands, the first leader, no tricks."""
        zeros = (0,) * self.seats
        return PlayState(self, self.deal.hands, self.first_leader, (), self.initial_flags, zeros, zeros, ())

    @property
    def tricks_in_deal(self) -> int:
        """The number of tricks the deal holds (the hand size: fewer in an ending)."""
        return self.deal.hand_size

    @property
    def points_in_deal(self) -> int:
        """The card points the hands hold: the pack's total in a whole deal, what is left of it in an ending."""
        return self.pack.points(self.deal.cards)

    def held_to(self, most: int) -> int:
        """The defenders' target for "the declarers are held to ``most`` points or less": the rest of the points the
        deal holds (RULES.md: targets are measured on what an ending still holds), never below 0."""
        return max(0, self.points_in_deal - most)

    def side_of(self, seat: int) -> frozenset[int]:
        """The side (0-based seats) that ``seat`` (0-based) plays on."""
        return self.declaring_side if seat in self.declaring_side else self.defending_side

    @property
    def called_card(self) -> int | None:
        """The card (pack index) whose holder partners the declarer, where the contract calls one; None otherwise. A
        bot at the table learns the declaring side from it: the holder is known to the others once it is played."""
        return None

    def describe_side(self, side: frozenset[int]) -> str:
        """A side for people, as the command line writes it: its 1-based seats joined by ``+`` (``1+3``), a single
        seat as ``seat 2`` (a bare "held by 2" reads as a count)."""
        return side_text(seats_of(side)) if side else ""

    # Helpers for subclasses ----------------------------------------------------------------------------------------

    def highest(self, cards: list[int], order: Mapping[int, int]) -> int:
        """The card of ``cards`` with the greatest ``order``."""
        return max(cards, key=lambda c: order[c])


class TrumpSuitRules(Rules):
    """Rules where every card has an effective suit and trumps outrank every other suit (Schafkopf, Kratzen).

    Subclasses fill ``trump_rank`` (card -> rank among trumps, higher wins), ``plain_rank`` (card -> rank within its
    suit) and ``effective`` (card -> ``"T"`` for a trump, else its printed suit).
    """

    trump_rank: dict[int, int]
    plain_rank: dict[int, int]
    effective: dict[int, str]

    def power(self, card: int, led_suit: str) -> int:
        """0 = cannot win; a trump always outranks a card of the led suit."""
        if card in self.trump_rank:
            return 100 + self.trump_rank[card]
        return self.plain_rank[card] if self.effective[card] == led_suit else 0

    def trick_winner(self, trick: tuple[int, ...]) -> int:
        """The highest trump, else the highest card of the suit led (also for a trick still in progress)."""
        led_suit = self.effective[trick[0]]
        powers = [self.power(c, led_suit) for c in trick]
        return powers.index(max(powers))


class GameType(type):
    """The type of game classes: a game prints as its name (``print(position.game)`` shows ``Zwanzigerrufen``, and
    ``solver.GAMES`` reads ``[Zwanzigerrufen, Schafkopf, Kratzen]``), as the name ``solver`` exports it under, rather
    than as the path of the module it is defined in. Only printing changes: a game is still a class (pickled by
    reference, compared by identity, ``issubclass(game, Game)``)."""

    def __repr__(cls) -> str:
        name = cls.__dict__.get("name")
        return name if isinstance(name, str) else super().__repr__()  # Game itself, or a game still being written

    __str__ = __repr__


class Game(metaclass=GameType):
    """A game's static description. Subclasses set the class metadata and implement the contract parser and
    ``make_rules``; nothing else in stich needs to know which game it plays."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    pack: ClassVar[Pack]
    seat_counts: ClassVar[tuple[int, ...]] = (4,)
    hand_size: ClassVar[int]
    flags: ClassVar[dict[str, Flag]] = {}
    contract_help: ClassVar[str] = ""
    #: Every objective some contract of the game answers (a contract answers ``Rules.objective_names()`` of them):
    #: a name among these that a contract does not answer "does not apply" to it, any other is a typo.
    objectives: ClassVar[tuple[str, ...]] = ()
    #: Whether deals are paid from a pot (Kratzen): scoring takes a ``pot`` only then.
    has_pot: ClassVar[bool] = False
    #: What the score is paid in: game units, or chips where deals are paid from a pot.
    score_unit: ClassVar[str] = "game units"
    #: What the players call the seat that declares (Kratzen's is the attacker, RULES.md 3): the text a player
    #: reads says it so; the JSON keys stay ``declarer`` and ``declarers`` in every game (docs/json.md).
    declarer_title: ClassVar[str] = "declarer"
    #: The contract whose settlement two seats share, as the payment note of contract advice names it ("a Rufer's");
    #: empty where no contract is shared
    shared_contract_text: ClassVar[str] = ""
    #: That contract's kind (:attr:`Contract.kind`): the note is said only under a table that lists one
    shared_contract_kind: ClassVar[str] = ""
    #: The cards the players call by a name of their own, token -> (name, what it is): a new player at the board
    #: sees which card the Weli is (Kratzen's S6, RULES.md 3.1), not a plain bell six.
    named_cards: ClassVar[dict[str, tuple[str, str]]] = {}
    #: A card in words, as a screen reader says it (a face alone reads "X I X" or "G ♥"): the pack's suit letters and
    #: ranks in words, and the cards said otherwise (the tarocks, "Tarock 21, the Mond"). ``rank_first`` says "King
    #: of hearts", else the suit comes first, as the German packs' players say "Eichel Ober".
    suit_words: ClassVar[dict[str, str]] = {}
    rank_words: ClassVar[dict[str, str]] = {}
    card_words: ClassVar[dict[str, str]] = {}
    rank_first: ClassVar[bool] = False
    #: The words of the contracts' tokens that the rule book writes otherwise, token -> RULES.md's name: a report
    #: for people says "Suit Solo" where a record, ``--contract`` and ``--json`` keep the token "SuitSolo".
    contract_words: ClassVar[dict[str, str]] = {}
    #: Whether any score item is a bonus beside the game (:meth:`is_bonus_item`): contract and card advice play a
    #: settlement's line out for its bonuses only then (Kratzen: never, its trick payouts are the pot's game).
    has_bonus_items: ClassVar[bool] = True
    #: Whether bonuses are announced and Kontra'd: scoring takes ``announcements`` only then.
    has_announcements: ClassVar[bool] = False
    #: The names of the bonuses :meth:`dealt_bonuses` lists (the cards decide them, no search answers them): an
    #: ``--objective`` naming one is told where its answer is.
    dealt_bonus_names: ClassVar[tuple[str, ...]] = ()
    #: The bonuses a declarer may announce, each with the cards it needs in the announcer's hand (names, space
    #: separated; "" for none): what contract advice compares with and without (``each_announcement``).
    own_announcements: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: What a defender says instead of each of those (a bonus's 'dagegen'; "" where a defender does not announce
    #: it), and what only a defender says (a Kontra): contract advice's ``pass`` row, whose side the cards decide,
    #: announces the one its side allows in each sample, as a player who knows his side would.
    defender_forms: ClassVar[dict[str, str]] = {}
    defender_only: ClassVar[tuple[str, ...]] = ()
    #: The bonuses (their ``Announcement.bonus``) a declarer announces bare and a defender as a 'dagegen' only:
    #: a pass row says the seat's one in the form its side takes in each sample.
    side_worded_bonuses: ClassVar[frozenset[str]] = frozenset()
    #: The rule state an ending cannot derive that the game takes (keyword arguments of :meth:`rules`, 1-based
    #: seats), with its type (``int`` for a seat, ``bool``).
    state_tags: ClassVar[dict[str, type]] = {}
    #: The state tags a seat at the table does not know (who holds a called card) or that the play of a whole deal
    #: determines; a hand analysis keeps only the others.
    hidden_state_tags: ClassVar[frozenset[str]] = frozenset()
    #: The record tag each of the game's state tags is read from (see :data:`RECORD_TAGS`).
    record_tags: ClassVar[dict[str, str]] = {}
    #: The state tags only an ending takes: a whole deal's play says them, as it says who leads.
    ending_state_tags: ClassVar[frozenset[str]] = frozenset()
    #: The yes/no objectives a post-mortem watches for every card (the game itself is watched through its measure).
    bonus_names: ClassVar[tuple[str, ...]] = ()
    #: The seed of the deals ``stich bench`` draws for the game (fixed, so that runs compare).
    bench_seed: ClassVar[int] = 1
    #: The game's lines of ``stich bench``, as keyword arguments of ``solver.benchmark.BenchLine`` (its game aside).
    bench_lines: ClassVar[tuple[Mapping[str, Any], ...]] = ()
    #: The contracts whose 5-trick endings the bench compares with the reference: (contract or None for the
    #: game's default, the label of that default).
    bench_endings: ClassVar[tuple[tuple[str | None, str], ...]] = ()
    #: The contracts a bench deal tries in order where its line leaves the contract to the deal (None: the game's
    #: :meth:`default_contracts`), so that the lines keep timing the deals they always have.
    bench_calls: ClassVar[tuple[str, ...] | None] = None

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)  # type: ignore[arg-type]
        STATE_TAGS.update(cls.__dict__.get("state_tags", {}))
        RECORD_TAGS.update(cls.__dict__.get("record_tags", {}))

    @classmethod
    def card_in_words(cls, card: Card) -> str:
        """``card`` as a screen reader says it, with its token, which the play list and every command use: "King
        of hearts (HK)", "Tarock 21, the Mond (T21)", "the Weli (S6)"; the token alone where the game has no words
        for it. The board sends it with each card, so the page keeps no table of names of its own."""
        if card.name in cls.named_cards:
            words = f"the {cls.named_cards[card.name][0]}"
        elif card.name in cls.card_words:
            words = cls.card_words[card.name]
        elif card.suit in cls.suit_words and card.rank in cls.rank_words:
            suit, rank = cls.suit_words[card.suit], cls.rank_words[card.rank]
            words = f"{rank} of {suit}" if cls.rank_first else f"{suit} {rank}"
        else:
            return card.name
        return f"{words} ({card.name})"

    @classmethod
    def contract_in_words(cls, contract: Contract | str) -> str:
        """``contract`` (or its token text, as a document holds it) as the rule book names it, for the reports
        people read: "Solo Tout E" for ``SoloTout E``, "Trump H Seven-Muss" for ``Trump H SevenMuss``; other words
        (a called card, "pass", an announcement after " + ") are kept. ``read_contract`` reads both forms."""
        return " ".join(cls.contract_words.get(word, word) for word in str(contract).split(" "))

    # Outcome: the game's scoring, which solver/scoring.py and solver/settlement.py drive -----------------------

    @classmethod
    def play_settles(cls, rules: Rules, state: PlayState) -> bool:
        """Whether the play so far settles the deal, so that it can be scored: when every trick is played, unless
        the game ends a deal sooner (a Schafkopf Sie is settled by the deal alone, a lost Tout at its lost trick)."""
        return state.is_over

    @classmethod
    def settled_words(cls, rules: Rules, state: PlayState) -> str | None:
        """Why the deal is over before its last trick, in the game's words, where :meth:`play_settles` ends it
        sooner: the diagram says so in place of whose turn it is. None while the deal goes on, and where every
        trick is played (the diagram's own "the deal is over")."""
        return None

    @classmethod
    def scoring_inputs(cls, rules: Rules, record: Record | None, *, pot: object = None,
                       announcements: object = None) -> object:
        """What scoring reads besides the play, checked: from the arguments, else the record's tags (a pot, the
        announcements). The value is handed to :meth:`score` and :meth:`settlement_model`; it must be hashable
        (settlement tables are cached by it). Raises ParseError pointing into the record for a bad tag."""
        return None

    @classmethod
    def score(cls, rules: Rules, state: PlayState, inputs: object) -> Scored:
        """The settlement of the finished deal ``state`` (see solver/games/outcome.py)."""
        raise StichError(f"{cls.name} has no scoring")

    @classmethod
    def settlement_model(cls, rules: Rules, state: PlayState, inputs: object) -> SettlementModel:
        """The settlement from ``state`` on as components and a payoff (see :data:`SettlementModel`): the
        double-dummy settlement searches it. The payoff must agree with :meth:`score` on every deal, and with
        :func:`items_net` of :meth:`settlement_items`' items where the game itemises its buckets (the settlement
        scores such a table from the items, once for its payoff and its bonuses). By default it is that net."""
        components, items = cls.settlement_items(rules, state, inputs)
        return components, lambda values: items_net(rules, items(values))

    @classmethod
    def settlement_items(cls, rules: Rules, state: PlayState, inputs: object) -> SettlementItems:
        """The components of :meth:`settlement_model` and the score items their final values settle (the payoff
        is those items' net for the declaring side)."""
        raise StichError(f"{cls.name} has no double-dummy settlement")

    @classmethod
    def settlement_key(cls, rules: Rules, state: PlayState, inputs: object) -> Hashable | None:
        """Everything the payoff of :meth:`settlement_model` (and :meth:`settlement_items`' items) reads besides
        the component values, as a hashable value: deals with equal keys and equal components share one payoff
        table, scored once (solver/settlement.py keeps a few hundred). It must name every rule, variant flag,
        scoring input and fact of the deal or the position that the payoff reads (reading more only costs cache
        hits). None (the default): no such key, the table is scored for each deal."""
        return None

    @classmethod
    def trick_payout(cls, rules: Rules, inputs: object) -> int:
        """The unit of :attr:`score_unit` the post-mortem grades a card's cost in, so that the grades hold for any
        stake (what one trick pays, where tricks are paid): 1 by default."""
        return 1

    @classmethod
    def pot_share(cls, rules: Rules, inputs: object) -> int:
        """What the pot pays the winner of each trick as it is taken, in :attr:`score_unit`, where the game has a
        pot (:attr:`has_pot`): the board shows it, and the pot left, throughout the deal. 0 by default."""
        return 0

    #: The variant flags whose setting :meth:`first_leader_said`'s words state (a refused leader's message names
    #: the other flags given, not these again).
    first_leader_flags: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def first_leader_said(cls, rules: Rules) -> str:
        """Why seat ``rules.leader`` leads a whole deal's first trick, in the words a refused ``[Play]`` leader's
        message says after the seat: ``under these rules`` where the rule book fixes the leader; a game whose leader
        a flag chooses names the seat's role and the flag, which a player can switch."""
        return "under these rules"

    @classmethod
    def pot_words(cls, contract: Contract, pot: int) -> str:
        """What a pot of ``pot`` chips pays the tricks under ``contract``, in a game paid from one (:attr:`has_pot`),
        in the words ``stich show``'s diagram, ``score``'s header and the board's table say beside the pot (``each
        trick pays 3``; a pot of 0 :data:`~solver.games.outcome.EMPTY_POT`), one wording for all of them. Only a
        game with a pot is asked."""
        raise NotImplementedError

    @classmethod
    def implied_items(cls, name: str) -> tuple[str, ...]:
        """The items a paid item of this name stands in for (a Schafkopf Schwarz is paid instead of the Schneider it
        includes, RULES.md 2.5): contract advice counts them as made with it, so that a hand taken Schwarz on every
        sample is not said never to have made its Schneider. None by default."""
        return ()

    @classmethod
    def dealt_bonuses(cls, rules: Rules, state: PlayState, inputs: object = None) -> tuple[DealtBonus, ...]:
        """The bonuses of the contract that the cards decide without a search (Zwanzigerrufen's Trull and 4 Kings,
        Schafkopf's Laufende), for ``stich check`` to list beside the searched ones; ``inputs`` (the scoring
        inputs, :meth:`scoring_inputs`, where they read) say which were announced. None by default."""
        return ()

    @classmethod
    def item_title(cls, name: str) -> str:
        """What players call a score item of this name (``Pagat Ultimo`` for ``pagat_ultimo``), for the text tables;
        the JSON keeps the name. The name itself by default."""
        return name

    @classmethod
    def sided_item_title(cls, name: str, against: bool) -> str:
        """A score item as the text tables name it, so that ``score`` and ``check`` call one bonus alike: the
        defenders' (``against``) by ``stich check``'s row for their objective where the game has one
        (``schneider_against`` among :attr:`objectives`: ``Schneider against``, :meth:`row_title`), the rest by
        :meth:`item_title` (a defenders' Trull or Pagat Ultimo has no other name there either)."""
        if against and f"{name}_against" in cls.objectives:
            return cls.row_title(f"{name}_against")
        return cls.item_title(name)

    @classmethod
    def objective_title(cls, name: str) -> str:
        """What players call the bonus an objective asks about, for the text tables (the JSON keeps the name): its
        score item's :meth:`item_title`, the side it is for said beside it (``schneider_against`` is the other
        side's ``Schneider``)."""
        return cls.item_title(name.removesuffix("_against"))

    @classmethod
    def sided_objective_title(cls, name: str) -> str:
        """What players call an objective, one name for each side's (a line of the post-mortem's plot, a row of
        ``stich check``, a note): :meth:`objective_title`, with ``against`` after the other side's, as the
        objectives' descriptions say it (``Schneider against`` for ``schneider_against``, ``Schneider`` for
        ``schneider``)."""
        title = cls.objective_title(name)
        return f"{title} against" if name.endswith("_against") else title

    @classmethod
    def row_title(cls, name: str) -> str:
        """An objective named as a table's row label or a heading (``stich solve``'s and ``check``'s rows,
        ``analyse``'s bonus table): :meth:`sided_objective_title` capitalised as the bonuses' titles are, so that a
        measure (``Score``, ``Points``, ``Tricks``) reads as ``Schneider`` beside it; the JSON keeps the identifier."""
        title = cls.sided_objective_title(name)
        return title[:1].upper() + title[1:]

    @classmethod
    def lost_bonus_title(cls, name: str) -> str:
        """A bonus the post-mortem says a card lost, by :meth:`sided_objective_title` as ``stich check`` and
        ``analyse`` name it (``Schneider against``: the table's "handed over" says whose it was only beside the
        mover's side, which the reader must know); a pair of them lost together
        (``valat_against+pagat_ultimo``) is named so: ``Valat against + Pagat Ultimo together``."""
        titles = " + ".join(cls.sided_objective_title(part) for part in name.split("+"))
        return titles + " together" if "+" in name else titles

    @classmethod
    def is_bonus_item(cls, name: str) -> bool:
        """Whether a score item of this name is a bonus beside the game (what contract advice counts as a bonus made
        or paid against): every item but the ``game`` by default."""
        return name != "game"

    @classmethod
    def winning_settlement(cls, rules: Rules, inputs: object) -> int | None:
        """The settlement (in :attr:`score_unit`, the declaring side's; where every seat plays for itself the
        attacker's) at or above which the declaring side has won its game and below which it has lost it, where the
        settlement says that on every deal of these rules; None where it does not (items scored apart, so that a
        lost game can be outweighed by bonuses). A post-mortem graded by the score draws it as the winning line."""
        return None

    @classmethod
    def game_line_decides(cls, rules: Rules) -> bool:
        """Whether the line of :meth:`Rules.game_objective` decides the game item both ways: won at its target, lost
        below it. Not where a value just below scores nothing (Zwanzigerrufen's 44:44 under ``tie_44=no_score``,
        RULES.md 1.1): a post-mortem would call a card taking the declarers from 45 to 44 one that lost the game, so
        it draws no game line there. The same as a drawn total (:meth:`drawn_game_total`), so that a game states
        only its drawn total and the two cannot disagree."""
        return cls.drawn_game_total(rules) is None

    @classmethod
    def drawn_game_total(cls, rules: Rules) -> int | None:
        """The total of :meth:`Rules.game_objective`'s measure at which the game item goes to neither side
        (Zwanzigerrufen's 44:44 under ``tie_44=no_score``), or None where every total below the target loses it:
        the defenders win the game only below this total, and an analysis counts their wins so."""
        return None

    @classmethod
    def game_item_on_points(cls, rules: Rules) -> bool:
        """Whether, graded by the score where :meth:`winning_settlement` is None, the game item is still decided by
        the game's line on the card points' curve (Zwanzigerrufen scores the game apart from its bonuses, RULES.md
        1.7), so that a post-mortem reads who has the game there (``PlayAnalysis.points_winning``). False by default:
        Schafkopf's and Kratzen's settlement either has its own line or none that the points decide."""
        return False

    @classmethod
    def unscored_bonuses(cls, rules: Rules, inputs: object) -> frozenset[str]:
        """The objectives of :attr:`bonus_names` (and the ``game`` where the contract is won otherwise, a Tout's
        61) that no play can make score under these rules and scoring inputs (:meth:`scoring_inputs`): a post-mortem
        does not watch them, as a card cannot throw them away or hand them over, and ``stich check`` says so under
        its table. None of them by default."""
        return frozenset()

    @classmethod
    def scored_as(cls, rules: Rules, inputs: object) -> dict[str, str]:
        """Of :meth:`unscored_bonuses`, those whose outcome another, announced, objective's row scores (a Pagat
        beaten after the Pagat was announced is that announcement failed), each with that objective's name:
        ``stich check`` says where they count rather than calling them worthless. None by default."""
        return {}

    @classmethod
    def contract_unscored_bonuses(cls, rules: Rules) -> frozenset[str]:
        """Those of :meth:`unscored_bonuses` that the contract alone leaves out, whatever the announcements or the
        cards (a Schafkopf Tout's 61, Schneider and Schwarz): ``stich analyse`` does not count their odds, which no
        sample could make pay. None of them by default."""
        return frozenset()

    @classmethod
    def settlement_unsupported(cls, rules: Rules) -> str | None:
        """Why the double-dummy settlement cannot be had under these rules, or None when it can."""
        return None

    @classmethod
    def seat_share(cls, rules: Rules, seat: int, net: int) -> Fraction | None:
        """``seat``'s (0-based) share of its side's net when the declaring side's net is ``net``: what a player
        compares between contracts, as a Rufer's net is shared by two seats and a Solo's is the soloist's alone.
        Every item is settled between the declaring side and the other seats, each seat of a side paid alike
        (:func:`~solver.games.outcome.item_payments`), so this is the seat's own payment; only an item charged to
        one player (a Mondfang under ``mondfang=player``) is shared out over the side here. None where the seat's
        own payment is not what the settlement search answers (a game where every seat plays for itself). A share
        rises or falls with the net, so the shares of the least and greatest net a position can settle at are the
        least and greatest payment (:func:`solver.sampling.payment_range`)."""
        declares = seat in rules.declaring_side
        side = rules.declaring_side if declares else rules.defending_side
        return Fraction(net if declares else -net, len(side))

    @classmethod
    def points_objective(cls, rules: Rules) -> Objective:
        """What "points-optimal" means for the settlement's comparison: the declaring side's card points, or what
        the game counts instead. Its name is also the settlement component it is compared on."""
        return rules.objective("points")

    @classmethod
    def variant(cls, values: Mapping[str, object] | str | None = None) -> Variant:
        """The game's :class:`Variant` with ``values`` (a mapping, or ``"NAME=VALUE, ..."``) over the defaults;
        VariantError for a flag the game has not or a value it does not take."""
        if isinstance(values, str):
            values = Variant.parse_pairs(values, cls.flags)
        if isinstance(values, Mapping):
            for name in values:
                cls._refuse_unknown_flag(name)
        return Variant(cls.flags, values)

    @classmethod
    def _refuse_unknown_flag(cls, name: object) -> None:
        """VariantError for a flag this game has not, with the game's flags by its name: a flag of another game
        says whose it is, and a misspelling of only another game's flag suggests that one ("unknown flag" alone
        would send the user hunting for a typo in a flag that is spelt right)."""
        if not isinstance(name, str) or name.strip().lower() in cls.flags:
            return  # a name that is not text: Variant says so
        key = name.strip().lower()
        own = f"{cls.name}'s flags: {', '.join(sorted(cls.flags)) or 'none'}"
        owners = [game.name for game in GAMES if key in game.flags]
        if owners:
            raise VariantError(f"variant flag {key} is {' and '.join(owners)}'s, not {cls.name}'s ({own})")
        close = did_you_mean(key, list(cls.flags))
        others = {flag: game.name for game in GAMES if game is not cls for flag in game.flags}
        named = [] if close else close_matches(key, others.keys())
        if named:
            games = " and ".join(sorted({others[flag] for flag in named}))
            raise VariantError(f"unknown variant flag {quoted(name)}{did_you_mean(key, named)} (a flag of {games}, "
                               f"not of {cls.name}; {own})")
        raise VariantError(f"unknown variant flag {quoted(name)}{close} ({own})")

    @classmethod
    def parse_contract(cls, text: str) -> Contract:
        """The contract ``text`` names (see ``contract_help``); InvalidContractError if none."""
        if not isinstance(text, str):
            raise InvalidContractError(f"a contract is text such as {cls.contract_help}, not {text!r}")
        if not parse_words(text):
            raise ContractFormError(f"empty contract (expected {cls.contract_help})")
        return cls.read_contract(text)

    @classmethod
    def read_contract(cls, text: str) -> Contract:
        """The contract ``text`` names, read by the game (:meth:`parse_contract` checks the type first, and that it
        has a word)."""
        raise NotImplementedError

    @classmethod
    def check_contract(cls, contract: Contract) -> None:
        """A :class:`Contract` made by hand must be one :meth:`parse_contract` gives (its text read back gives it):
        a Solo without a suit or a kind the game has not would otherwise reach the rules half made."""
        if contract.game != cls.name:
            raise InvalidContractError(f"{contract.text or contract.kind!r} is a {contract.game} contract, "
                                       f"not a {cls.name} one")
        try:
            again = cls.parse_contract(contract.text)
        except InvalidContractError:
            again = None
        if again != contract:
            raise InvalidContractError(f"{contract!r} is not a {cls.name} contract: make one with "
                                       f"{cls.name}.parse_contract('...') ({cls.contract_help})")

    @classmethod
    def parse_deal(cls, text: str) -> Deal:
        """The deal a ``[Deal]`` value (``"1: ... / ..."``) gives, checked against the game (:meth:`check_deal`)."""
        deal = Deal.from_text(cls.pack, text)
        cls.check_deal(deal)
        return deal

    @classmethod
    def seat_counts_text(cls) -> str:
        """The numbers of seats the game is played by, in words: ``4``, ``3 or 4``, ``3 to 6``."""
        counts = sorted(cls.seat_counts)
        if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
            return f"{counts[0]} to {counts[-1]}"
        return " or ".join(str(n) for n in counts)

    @classmethod
    def check_deal(cls, deal: Deal) -> None:
        """InvalidDealError unless ``deal`` is of this game's pack, with a seat count and hand size the game is
        played with."""
        if deal.pack is not cls.pack:
            raise InvalidDealError(f"the deal is not of the {cls.name} pack")
        if deal.seats not in cls.seat_counts:
            raise InvalidDealError(f"{cls.name} is played by {cls.seat_counts_text()} seats, the deal has "
                                   f"{deal.seats} hands")
        if deal.hand_size > cls.hand_size:
            raise InvalidDealError(
                f"{cls.name} hands hold at most {cls.hand_size} cards, these hold {deal.hand_size}")

    @classmethod
    def is_whole(cls, deal: Deal) -> bool:
        """Whether ``deal`` is a whole deal (full hands), not an ending: a whole deal is led as the rules say."""
        return deal.hand_size == cls.hand_size

    @classmethod
    def deals_whole_pack(cls, seats: int) -> bool:
        """Whether ``seats`` full hands take the whole pack: where they do not (Kratzen), a card in no hand may
        never have been dealt, which a message about a missing card must allow for."""
        return seats * cls.hand_size == len(cls.pack)

    @classmethod
    def rules(cls, deal: Deal | str, contract: Contract | str, *, declarer: int = 1,
              variant: Variant | Mapping[str, object] | str | None = None, leader: int | None = None,
              **state_tags: object) -> Rules:
        """The rules of a deal under a contract. ``declarer`` and ``leader`` are 1-based seats (``leader`` is for
        endings only, seat 1 when not given: who led the trick before is not known, and the whole deal's first-lead
        rule, such as Kratzen's ``first_leader``, is about the deal's first trick); ``state_tags`` carry
        rule state an ending cannot derive (``called_suit_led``, ``partner``) and scoring input that changes play
        (``pagat_announcer``). Raises InvalidContractError / InvalidDealError / VariantError with the reason."""
        if isinstance(deal, str):
            deal = cls.parse_deal(deal)
        elif not isinstance(deal, Deal):
            raise InvalidDealError(f"a deal is text ('1: ... / ...') or a Deal, not {type(deal).__name__}")
        elif deal.pack is not cls.pack:
            raise InvalidDealError(f"the deal is of the {deal.pack.game} pack, not {cls.name}'s")
        if isinstance(contract, Contract):
            cls.check_contract(contract)
        else:
            contract = cls.parse_contract(contract)
        if not isinstance(variant, Variant):
            variant = cls.variant(variant)
        cls.check_deal(deal)
        declarer, leader = integral(declarer), integral(leader)  # type: ignore[assignment]  # numpy seats too
        state_tags = {name: integral(value) for name, value in state_tags.items()}
        _check_seat("declarer", declarer, deal.seats)
        if leader is not None:
            _check_seat("leader", leader, deal.seats)
            if cls.is_whole(deal):  # as the record's [Leader] tag: a different lead would be another game
                raise InvalidContractError("a leader is for endings; a whole deal is led as the rules say",
                                           about="leader")
        for name, value in state_tags.items():
            if name not in STATE_TAGS:
                raise InvalidContractError(f"unknown rule state {name!r}: the known ones are {', '.join(STATE_TAGS)}")
            if value is None:
                continue
            if name not in cls.state_tags_for(contract):  # given for nothing: the caller meant something else
                raise InvalidContractError(f"{name} does not apply to {cls.name} {contract}", about=name)
            if name in cls.ending_state_tags and cls.is_whole(deal):
                raise InvalidContractError(f"{name} is for endings; a whole deal's play says it", about=name)
            if STATE_TAGS[name] is bool:
                if not isinstance(value, bool):
                    raise InvalidContractError(f"{name} must be True or False, not {value!r}", about=name)
            else:
                _check_seat(name, value, deal.seats)
        if leader is None and not cls.is_whole(deal):
            leader = 1  # FORMAT.md: an ending's first trick is led by seat 1 unless it says otherwise
        rules = cls.make_rules(deal, contract, declarer - 1, variant, None if leader is None else leader - 1,
                               dict(state_tags))
        # kept so that rules made again for another deal of the same game (an analysis's samples) keep them
        rules.state_tags = {name: value for name, value in state_tags.items() if value is not None}
        rules.__dict__["_frozen"] = True  # Rules.__setattr__ refuses any change from here on
        return rules

    @classmethod
    def state_tags_for(cls, contract: Contract) -> frozenset[str]:
        """The rule state (``STATE_TAGS``) the contract uses; any other given is refused."""
        return frozenset()

    @classmethod
    def state_tag_text(cls, name: str, value: object) -> tuple[str, str]:
        """The record tag, and its text, that give state tag ``name`` its ``value`` (seats 1-based): what a record
        written from a position says, read back as the same rule state."""
        return cls.record_tags[name], ("yes" if value else "no") if isinstance(value, bool) else str(value)

    @classmethod
    def announced_state(cls, announcements: Sequence[Announcement]) -> dict[str, object]:
        """The state tags a record's ``[Announcements]`` imply (Zwanzigerrufen: the Pagat's announcer, who keeps the
        Pagat under ``hard_pagat_reservation``)."""
        return {}

    @classmethod
    def idle_flags(cls, variant: Variant, tags: Mapping[str, object], contract: Contract) -> list[str]:
        """What to say of each flag set in ``variant`` that cannot change the play of ``contract`` for want of the
        rule state ``tags`` would give (a hand analysis has no record), or at all in that contract: a user would
        else read the answer as the flag's."""
        return []

    @classmethod
    def hidden_in_contract(cls, contract: Contract) -> str | None:
        """What the contract as written leaves to the declarer's hand though the table hears it (Zwanzigerrufen's
        ``Normal``: the called card), or None. Another seat's analysis must be told it: every sample would else
        derive it from a different hand."""
        return None

    @classmethod
    def cards_announced(cls, state_tags: Mapping[str, object]) -> dict[int, int]:
        """The cards a public announcement places in a hand (0-based seat: card mask): what a hand analysis keeps in
        that seat's hand in every sample, as the table would infer it (Zwanzigerrufen: who announces Pagat Ultimo
        holds the Pagat)."""
        return {}

    @classmethod
    def declarer_refusal(cls, contract: Contract, declarer: int) -> str | None:
        """Why seat ``declarer`` (1-based) never declares ``contract``, whatever the cards (Zwanzigerrufen's Normal
        game is forehand's), or None: a rule of seats, said at once rather than after a search of deals."""
        return None

    @classmethod
    def cards_to_bid(cls, contract: Contract) -> int:
        """The cards (a mask) the declarer must hold to bid ``contract`` whatever the rest of the deal (Schafkopf's
        Sie: the eight Obers and Unters), 0 where none: a random deal for the contract deals them to the declarer
        first, since a search of deals would almost never find them (one deal in ten million for a Sie)."""
        return 0

    @classmethod
    def make_rules(cls, deal: Deal, contract: Contract, declarer: int, variant: Variant, leader: int | None,
                   state_tags: dict[str, object]) -> Rules:
        """The game's rules from checked arguments (0-based seats): what each game implements, and :meth:`rules`
        calls after checking what a user gave."""
        raise NotImplementedError

    @classmethod
    def default_contracts(cls, rng) -> list[str]:
        """The everyday contracts a random deal is dealt for when none is asked for, tried in order."""
        raise NotImplementedError

    @classmethod
    def contracts(cls, deal: Deal, variant: Mapping[str, object] | str | None = None,
                  like: Contract | None = None, declarer: int | None = None) -> list[tuple[Contract, int]]:
        """Every (contract, declarer seat 1-based) that could be bid on a whole deal under ``variant``'s bid checks
        (``like``: the record's own contract, whose modifiers carry over, e.g. a Kratzen Muss; ``declarer``: the
        record's declarer, where a game's contracts are all one seat's, e.g. the Kratzen attacker). The arguments
        are checked here; each game lists its contracts in :meth:`_contracts`."""
        if not isinstance(deal, Deal):
            raise InvalidDealError(f"the contracts are of a Deal, not {type(deal).__name__}")
        cls.check_deal(deal)
        if not cls.is_whole(deal):
            raise InvalidDealError("contracts are bid on a whole deal, not an ending")
        if not isinstance(variant, Variant):
            variant = cls.variant(variant)
        elif set(variant) != set(cls.flags):
            raise InvalidContractError(f"the variant is another game's, not {cls.name}'s")
        if like is not None:
            if not isinstance(like, Contract):
                raise InvalidContractError(f"like is a Contract (parse_contract gives one), not {like!r}")
            cls.check_contract(like)
        if declarer is not None and (not is_whole_number(declarer) or not 1 <= declarer <= deal.seats):
            raise InvalidSeatContractError(f"declarer {declarer!r} is not a seat of this {deal.seats}-seat deal",
                                           about="declarer")
        return cls._contracts(deal, variant, like, declarer)

    @classmethod
    def _contracts(cls, deal: Deal, variant: Variant, like: Contract | None,
                   declarer: int | None) -> list[tuple[Contract, int]]:
        raise NotImplementedError

    #: What :meth:`passed_game` plays, in words, for the note under contract advice that has a ``pass`` row.
    passed_game_text = ""
    #: What a deal every seat passes pays, in words, where passing is no contract advice can rank (a Schafkopf deal
    #: passed out is thrown in): the note under advice whose every contract loses on average says it beside the
    #: best's mean, as what passing pays where the others pass too.
    passed_out_text: ClassVar[str] = ""

    @classmethod
    def passed_game(cls, deal: Deal, seat: int, variant: Variant | Mapping[str, object] | None = None
                    ) -> tuple[str, int] | None:
        """The (contract, declarer 1-based) ``seat`` plays in on ``deal`` when it announces nothing and nobody else
        does, for contract advice's ``pass`` row; None where the game offers the seat no such choice (its own
        contract is the default, or a passed-out deal is thrown in, which pays nobody)."""
        return None

    @classmethod
    def contract_choices(cls, contract: Contract) -> list[str]:
        """The contracts a player chooses among where :meth:`contracts` lists ``contract``: its own text, unless
        the game lets the declarer name a card the listing leaves to the rules (a called card). Contract advice
        tries each; the rules refuse those the variant does not allow."""
        return [contract.text]

    @classmethod
    def deal_random(cls, rng, seats: int | None = None) -> Deal:
        """A uniformly random whole deal."""
        seats = seats or cls.seat_counts[0]
        if seats not in cls.seat_counts:
            raise InvalidDealError(f"{cls.name} is played by {cls.seat_counts_text()} seats, not {seats}")
        cards = list(range(len(cls.pack)))
        rng.shuffle(cards)
        hands = []
        for seat in range(seats):
            mask = 0
            for card in cards[seat * cls.hand_size:(seat + 1) * cls.hand_size]:
                mask |= 1 << card
            hands.append(mask)
        return Deal(cls.pack, tuple(hands))


#: The German packs' suits and ranks in words (Schafkopf, Kratzen): "Eichel Ober", "Schellen Ten".
#: what a contract with its suit before its name ("Herz Solo", "Blau Trump") is told, in every game alike
SUIT_AFTER_CONTRACT = "the suit comes after the contract"
GERMAN_SUIT_WORDS = {"E": "Eichel", "G": "Gras", "H": "Herz", "S": "Schellen"}
#: The names players call the German suits by, lower-cased, each with its letter, in German and in the English the
#: examples' comments use: a contract that names its suit so ("Trump Herz", "Solo Hearts") is told the letter it is
#: written with.
SUIT_NAMES = {**{word.lower(): letter for letter, word in GERMAN_SUIT_WORDS.items()},
              "grün": "G", "gruen": "G", "laub": "G", "blatt": "G", "schelle": "S", "schelln": "S",
              "eicheln": "E", "rot": "H",
              "acorns": "E", "acorn": "E", "leaves": "G", "leaf": "G", "hearts": "H", "heart": "H", "bells": "S",
              "bell": "S"}
GERMAN_RANK_WORDS = {"A": "Ace", "Z": "Ten", "K": "King", "O": "Ober", "U": "Unter", "9": "Nine", "8": "Eight",
                     "7": "Seven"}


def german_suit_of_word(pack: Pack, word: str) -> str | None:
    """The suit a contract's word names that is no suit letter: by one of its cards of a plain suit, as a Rufer's
    called ace ("GA"), or by its name ("Herz", "Schelln", "Bells"); None for any other word. A card outside the suit
    grid (Kratzen's Weli, printed S6 but a permanent trump) names no suit."""
    card = pack.lookup(word)
    if card is None:
        return SUIT_NAMES.get(word.lower())
    rank = pack[card].rank
    suits = {other.suit for other in pack}
    in_every_suit = all(any(other.suit == suit and other.rank == rank for other in pack) for suit in suits)
    return pack[card].suit if in_every_suit else None


def german_suit_word_error(game: type[Game], text: str, word: str, written: Callable[[str], str],
                           suit_first: str | None = None) -> InvalidContractError:
    """The refusal of contract ``text``, whose suit is given as ``word``, no suit letter: ``'Blau' is not a suit (E, G,
    H or S)``, or, where ``word`` names a suit, the letter it is and the contract it means, ``written(suit)``: ``'Herz'
    is H: a suit is written as its letter (E, G, H or S); did you mean 'Solo H'?`` (where it misspells a suit's name,
    "Hertz", that it is no suit, and the contract). ``suit_first`` is the word naming the suit where it stands before
    the contract, the Bavarian order ("Herz Solo", "Hertz Solo"; ``word`` then being the contract's own word): that
    order is what the message corrects. Where the meant contract is refused for its suit, as a Rufer is for hearts (the
    same contract in another suit reads), its own reason is said: ``'Herz' is H: hearts cannot be called in a Rufer``,
    as it is where the meant contract reads in no suit (``'Eichel' is E: 'Mus' is not Muss or SevenMuss``); where it is
    of no form the game reads (a misspelt name, "Rufr Herz"), its game's unknown-contract message is said of ``text``,
    the suit read in passing: ``unknown Schafkopf contract 'Rufr Herz' ('Herz' is H); did you mean 'Rufer' with another
    suit? (expected ...)``, one sentence, not one message quoted inside another; the suit is noted only where the
    suggestion uses it or the contract's name is the game's ("Herz Trump" in Schafkopf is an unknown contract, nothing
    more)."""
    named_by = word if suit_first is None else suit_first
    suit = german_suit_of_word(game.pack, named_by)
    if suit is None:
        no_suit = f"contract {quoted(text)}: {quoted(named_by)} is not a suit (E, G, H or S)"
        # a suit's name misspelt ("Hertz", "Eichl"), before the contract too: the contract its closest name means
        near = misspelt_suit(named_by)
        guess = written(near) if near else ""
        if not guess or not reads_contract(game, guess):
            return InvalidContractError(no_suit)
        if suit_first is not None:
            return InvalidContractError(f"contract {quoted(text)}: {SUIT_AFTER_CONTRACT}; "
                                        f"did you mean {quoted(guess)}?")
        return InvalidContractError(f"{no_suit}; did you mean {quoted(guess)}?")
    guess = written(suit)
    try:
        game.read_contract(guess)
    except InvalidContractError as refused:
        if isinstance(refused, UnknownContractError):  # said of the text written, the suit noted where suggested
            note = f" ({quoted(named_by)} is {suit})" if refused.uses_suit or refused.name_known else ""
            return UnknownContractError(refused.game, text, refused.suggestion, refused.expected,
                                        name_known=refused.name_known, uses_suit=refused.uses_suit, note=note)
        reason = str(refused).removeprefix(f"contract {quoted(guess)}: ")
        if isinstance(refused, ContractFormError):  # it says the form expected
            return ContractFormError(f"contract {quoted(text)} ({quoted(named_by)} is {suit}): {reason}")
        said = ContractFormError if isinstance(refused, ContractFormError) else InvalidContractError  # the form too
        return said(f"contract {quoted(text)}: {quoted(named_by)} is {suit}: {reason}")
    if suit_first is not None:
        return InvalidContractError(f"contract {quoted(text)}: {SUIT_AFTER_CONTRACT}; "
                                    f"did you mean {quoted(guess)}?")
    return InvalidContractError(f"contract {quoted(text)}: {quoted(word)} is {suit}: a suit is written as its letter "
                                f"(E, G, H or S); did you mean {quoted(guess)}?")


def misspelt_suit(word: str) -> str | None:
    """The letter of the suit whose name ``word`` misspells ("Hertz", "Eichl", "Grass"), or None: a name spelt right
    is :func:`german_suit_of_word`'s."""
    near = close_matches(word, SUIT_NAMES, cutoff=0.8)
    return near[0] if near else None


def reads_contract(game: type[Game], text: str) -> bool:
    """Whether ``text`` is a contract of ``game``."""
    try:
        game.read_contract(text)
    except InvalidContractError:
        return False
    return True


def german_suited_pack(game: str, ranks: list[tuple[str, int, list[str]]],
                       extra: Sequence[tuple[str, str, str, int, int, list[str]]] = ()) -> Pack:
    """A pack of the German suits, acorns E, leaves G (also L, B), hearts H and bells S, each with ``ranks``
    (strongest first, as :func:`~solver.cards.build_pack` takes them) and the ``extra`` cards: one place for the
    suit letters and signs that Schafkopf and Kratzen read alike."""
    return build_pack(game, [(suit, ranks) for suit in "EGHS"],
                      sign_letters={"clubs": "E", "spades": "G", "hearts": "H", "diamonds": "S"},
                      suit_aliases={"G": ["L", "B"]}, extra=extra)


def parse_words(text: str) -> list[str]:
    return text.replace("-", " ").split()


def require(condition: bool, message: str, about: str | None = None) -> None:
    if not condition:
        raise InvalidContractError(message, about=about)


def points_objective(rules: Rules, side: frozenset[int], name: str, description: str, target: int | None,
                     total: int) -> Objective:
    return Objective(name, side, description, points_weight=1, target=target, maximum=total, game=rules.game.name)


def tricks_objective(rules: Rules, side: frozenset[int], name: str, description: str, target: int | None) -> Objective:
    return Objective(name, side, description, trick_weight=1, target=target, maximum=rules.tricks_in_deal,
                     game=rules.game.name)


def objective_owners(name: str) -> list[str]:
    """The registered games that have an objective ``name``, by name (a Game subclass a test or an app defined and
    took out of the registry again is not one)."""
    return sorted(game.name for game in GAMES if name in game.objectives)


def own_measure(game: type[Game]) -> str:
    """The name ``-o`` gives a game's own measure where a command grades or plays by it (the post-mortem, the bots):
    ``points`` (card points), or ``tricks`` in a game without card points (Kratzen, RULES.md 3.1)."""
    return "points" if "points" in game.objectives else "tricks"


def score_or_measure(game: type[Game], objective: str, where: str) -> str:
    """``-o`` as the post-mortem and the bots take it: ``score``, or ``points`` for the game's own measure under either
    name it has (:func:`own_measure`); another game's measure raises :class:`InvalidContractError` in solve's words
    (``where``: the game, or the game and its contract, that the choices are said for)."""
    own = own_measure(game)
    if objective in ("score", own):
        return "points" if objective == own else objective
    foreign = f"objective {objective!r} belongs to {' and '.join(objective_owners(objective))}, not to {game.name}"
    raise ForeignObjective(f"{foreign} (for {where} choose from: score, {own})",
                           bare=f"{foreign} (for {game.name} choose from: score, {own})", game=game.name)


def unknown_objective(rules: Rules, name: str) -> InvalidContractError:
    """Why ``name`` is no objective of ``rules``, with the names that are: the rules' own, then the score apart
    (position.SCORE, which every game's solve, tree and board take, the rules themselves not), so that Kratzen's
    list is not a lone 'tricks' and rules.objective is not offered a name it refuses."""
    named = f"{rules.game.name} {rules.game.contract_in_words(rules.contract)}"  # for people: RULES.md's name
    if name == "score":  # asked of the rules themselves (Position.objective), which have no settlement objective
        return InvalidContractError("the score is the settlement that solve searches (solve(position, 'score')), not "
                                    f"an objective of the rules (for {named}: "
                                    f"{', '.join(rules.objective_names())})")
    names = ["score", *rules.objective_names()]
    # the rules refuse 'score' (above): listed among their choices it would read as one they take
    known = f"{', '.join(rules.objective_names())}; solve and tree also take 'score'"
    if name in rules.game.objectives:
        why = rules.objectives_left_out().get(name)  # the contract's own reason, naming it (a Suit Solo has no Pagat)
        if why:  # worded as stich check's row, so the contract is named once: "not in a Suit Solo (RULES.md 1.6)"
            return InvalidContractError(f"objective {name!r} of {rules.game.name} does not arise: {why} "
                                        f"(choose from: {known})")
        return InvalidContractError(f"objective {name!r} does not apply to {named} (choose from: {known})")
    # the other games' objectives are no typo but the wrong game's question
    owners = objective_owners(name)
    if owners:
        foreign = f"objective {name!r} belongs to {' and '.join(owners)}, not to {rules.game.name}"
        game_wide = ", ".join(rules.game.objectives) + ("" if len(rules.game.objectives) == 1 else
                                                        ", each where the contract has it")
        return ForeignObjective(f"{foreign} (for {named} choose from: {known})", game=rules.game.name,
                                bare=f"{foreign} (for {rules.game.name} choose from: {game_wide}; solve and tree "
                                     "also take 'score')")
    return InvalidContractError(f"unknown objective {name!r}{objective_meant(name, names)} (for "
                                f"{named} choose from: {known})")
