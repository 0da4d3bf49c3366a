"""Cards, packs and card sets.

A card is an index into its game's pack (0..63), and a set of cards is a plain ``int`` bitmask with bit ``i`` for
card ``i``: the same representation the compiled engine uses, so nothing is converted on the way in. :class:`Card`
and :class:`CardSet` are small immutable wrappers for the Python side, in the manner of python-chess.

Each pack lists its cards from the strongest suit and rank down, so that sorting a hand by index displays it the way
players sort their hands.
"""

from __future__ import annotations

import importlib
import re
import unicodedata
from dataclasses import dataclass, field
from typing import (TYPE_CHECKING, Callable, Iterable, Iterator, Mapping, NoReturn, Sequence, TypeAlias, TypeVar,
                    overload)

from .errors import UnknownCardError, did_you_mean, integral, is_whole_number

MAX_CARDS = 64

#: Unicode suit signs, white and black, by the English suit they show.
_SIGN_SUITS = {
    "♠": "spades", "♤": "spades", "♣": "clubs", "♧": "clubs",
    "♥": "hearts", "♡": "hearts", "♦": "diamonds", "♢": "diamonds",
}


def trick_number_note(token: object, cards_alone: str) -> str:
    """``"; a trick's number? ..."`` for a token such as ``1.`` where a list of played cards is read (a Play section's
    line, ``--play``), ``cards_alone`` saying what holds the cards alone; ``""`` for any other token. Elsewhere such a
    token is no trick's number, and the closest cards' names (T1) would mislead here."""
    if re.fullmatch(r"[0-9]+[.):]", str(token).strip()):
        return f"; a trick's number? {cards_alone}, in playing order"
    return ""


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card of a pack. It prints as its name and compares equal to it (``card == "T21"``), as python-chess's
    squares do; it hashes as its name, so a dict keyed by cards is looked up by names too. Inside, cards stay the
    engine's pack indices and int masks (``index``, ``mask``): this type is for people.

    ``suit`` is the printed suit letter (``"T"`` for a trump suit of its own); ``order`` is the card's rank within its
    printed suit, higher is stronger, as the pack's natural order gives it (contracts may reorder: an Ober can be a
    trump).
    """

    index: int
    name: str
    suit: str
    rank: str
    points: int
    order: int

    @property
    def mask(self) -> int:
        """The card as a one-bit mask (bit ``index``), as hands and card sets hold cards."""
        return 1 << self.index

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        """As its name formats (``f"{card:>4}"``): object's own takes no spec."""
        return format(self.name, spec)

    def __repr__(self) -> str:
        """The expression that gives the card back (``Card.of('Schafkopf', 'GA')``, as python-chess's
        ``Move.from_uci('e2e4')``), where the card is a registered game's; else ``<Card GA of no game's pack>``.
        ``str()`` is the name."""
        game = pack_game(self)
        if game is None:
            return f"<Card {self.name} of no game's pack>"
        return f"Card.of({game!r}, {self.name!r})"

    @staticmethod
    def of(game: str, token: str) -> "Card":
        """The card ``token`` (any alias) of ``game``'s pack: what ``repr`` writes, so that it evaluates back."""
        return game_pack_named(game).parse(token)

    def _key(self) -> tuple:
        return (self.index, self.name, self.suit, self.rank, self.points, self.order)

    def __eq__(self, other: object) -> bool:
        """Another card (the same card of the same pack) or a name (the card's canonical name, exactly)."""
        if isinstance(other, Card):
            return self._key() == other._key()
        if isinstance(other, str):
            return other == self.name
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.name)  # equal names, equal hashes: what == with a name needs

    def __lt__(self, other: object) -> bool:
        """Cards sort in pack order (``sorted(hand)``), as their indices do; a name is not ordered against them."""
        return self.index < other.index if isinstance(other, Card) else NotImplemented

    def __le__(self, other: object) -> bool:
        return self.index <= other.index if isinstance(other, Card) else NotImplemented

    def __gt__(self, other: object) -> bool:
        return self.index > other.index if isinstance(other, Card) else NotImplemented

    def __ge__(self, other: object) -> bool:
        return self.index >= other.index if isinstance(other, Card) else NotImplemented


class CardIndex(int):
    """A card's pack index that knows its card, as an ``IntEnum`` member knows its name: an int wherever it is used
    (``pack[index]``, a dict key, arithmetic, JSON, ``str`` and f-strings give the digits, as they did), whose
    ``repr`` is the card's name, so a :class:`CardValue` in a result prints ``CardValue(card=T17, value=5)`` and not
    a number a reader must look up. ``card`` is the :class:`Card`."""

    card: Card

    def __new__(cls, index: int, card: Card) -> CardIndex:
        made = super().__new__(cls, index)
        made.card = card
        return made

    def __repr__(self) -> str:
        return self.card.name

    __str__ = int.__repr__  # the digits, as before: a script's f"{cv.card}" or str() keeps its text

    def __reduce__(self) -> tuple[type[CardIndex], tuple[int, Card]]:
        return CardIndex, (int(self), self.card)


#: Cards as the API takes them (:func:`card_items`): one string of tokens, or a collection of tokens and Cards (a
#: :class:`CardSet`, ``position.hand(seat)``, among them).
CardTokens: TypeAlias = "str | Iterable[str | Card]"

_Value = TypeVar("_Value")
_Default = TypeVar("_Default")


class CardDict(dict[Card, _Value]):
    """A dict keyed by :class:`Card` s, which a card's name finds too (a Card hashes and compares as its name): the
    type says so, so that ``result.values_by_card()["T17"]`` type-checks as it runs. A subclass of dict
    (``type()`` says CardDict) that adds no behaviour: its methods are dict's, only their types take a name."""

    if TYPE_CHECKING:  # the lookups a name may make; dict's own do them
        def __getitem__(self, card: Card | str, /) -> _Value: ...

        def __delitem__(self, card: Card | str, /) -> None: ...

        def __contains__(self, card: object, /) -> bool: ...

        def setdefault(self, card: Card | str, default: _Value, /) -> _Value: ...  # type: ignore[override]

        @overload  # type: ignore[override]
        def pop(self, card: Card | str, /) -> _Value: ...

        @overload
        def pop(self, card: Card | str, default: _Value | _Default, /) -> _Value | _Default: ...

        def pop(self, card: Card | str, default: object = None, /) -> object: ...

        @overload
        def get(self, card: Card | str, default: None = None, /) -> _Value | None: ...

        @overload
        def get(self, card: Card | str, default: _Value | _Default, /) -> _Value | _Default: ...

        def get(self, card: Card | str, default: object = None, /) -> object: ...


def card_items(cards: object) -> list | None:
    """Cards as the API takes them in a collection: one string of tokens (split on white space), or any iterable
    (a list, a tuple, a CardSet, a generator) of tokens, Cards or pack indices, as a list; None for anything else,
    so that the caller's message names what was given."""
    if isinstance(cards, str):
        return cards.split()
    if isinstance(cards, (bytes, dict)) or not hasattr(cards, "__iter__"):
        return None
    items = [item if isinstance(item, (str, Card)) else integral(item)  # a numpy index too, as play takes one
             for item in cards]
    return items if all(isinstance(item, (str, Card)) or is_whole_number(item) for item in items) else None


def run_together_note(token: object, is_card: Callable[[str], bool]) -> str:
    """``"; cards are separated by spaces, not ',': SG SJ"`` for cards run together in one token (``SG,SJ``, or
    ``SG,`` of ``"SG, SJ"``), every part a card by ``is_card``: not a misspelt card, which the closest names would
    suggest; empty for any other token."""
    text = str(token)
    for separator in ",;":
        parts = [part.strip() for part in text.split(separator) if part.strip()]
        if separator in text and parts and all(is_card(part) for part in parts):
            return f"; cards are separated by spaces, not {separator!r}: {' '.join(parts)}"
    return ""


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def union(masks: Iterable[int]) -> int:
    """The cards of every mask in ``masks``, as one mask: a deal's cards, the cards still in the hands."""
    every = 0
    for mask in masks:
        every |= mask
    return every


class ReadOnlyDict(dict):
    """A dict whose items are fixed once made: a mapping many objects share (a pack's tokens). A dict, not a
    ``MappingProxyType``, so that ``dataclasses.asdict`` of what holds it (a Deal, a CardSet, a SolveResult) still
    copies it."""

    def _refuse(self, *arguments: object, **keywords: object) -> NoReturn:
        raise TypeError("this mapping is read-only: it is shared by every position of the game")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore

    def __reduce__(self) -> tuple:
        """A copy (``copy``, ``deepcopy``, pickle) is a plain dict: it is the caller's to change."""
        return (dict, (dict(self),))


@dataclass(frozen=True, eq=False)
class Pack:
    """The cards of one game, with every token that names them.

    ``sign_letters`` maps a Unicode suit sign's suit (spades, clubs, hearts, diamonds) to this pack's suit letter, so
    that ``♠K`` and ``K♠`` read as the pack's own token. Packs compare and hash by identity: there is one per game,
    shared by every position of it, so its mappings are read-only (``pack.aliases["X"] = 0`` would have
    taught every deal of the game a new token).
    """

    game: str
    cards: tuple[Card, ...]
    aliases: Mapping[str, int]
    sign_letters: Mapping[str, str] = field(default_factory=dict)
    #: Tokens players write for cards this pack leaves out (upper case), each with what to tell them instead.
    absent: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.cards) > MAX_CARDS:
            raise ValueError("a pack holds at most 64 cards")
        for name in ("aliases", "sign_letters", "absent"):  # copies: a caller's dict changed later changes none
            object.__setattr__(self, name, ReadOnlyDict(getattr(self, name)))

    def __repr__(self) -> str:
        """One line: the game and its cards in pack order (not its aliases, some 3 KB)."""
        return f"<Pack {self.game}: {len(self.cards)} cards {' '.join(card.name for card in self.cards)}>"

    def __reduce__(self) -> tuple:
        """A game's pack unpickles as that game's pack (identity is what packs compare by), so that a Deal, state
        or Position sent to another process still equals the original and mixes with its objects there."""
        if _GAME_PACKS.get(self.game) is self:
            return (_game_loader(), (self.game,))
        return (Pack, (self.game, self.cards, dict(self.aliases), dict(self.sign_letters), dict(self.absent)))

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __getitem__(self, index: int | str) -> Card:
        """A card by its pack index, or by a token (``pack["T17"]``, as :meth:`parse` reads it)."""
        if isinstance(index, str):
            return self.parse(index)
        return self.cards[index]

    def example(self) -> str:
        """Two of the pack's cards, as a message's example of cards to give (``T17 HK`` in Zwanzigerrufen, ``E9 SA``
        in Schafkopf): the game's own, since another game's would be refused."""
        return f"{self.cards[5].name} {self.cards[len(self.cards) * 3 // 4].name}"

    def holds(self, card: Card) -> bool:
        """Whether ``card`` is this pack's own (a Card knows only its index, which another pack also has)."""
        return 0 <= card.index < len(self.cards) and self.cards[card.index] == card

    @property
    def full_mask(self) -> int:
        """Every card of the pack, as one mask."""
        return (1 << len(self.cards)) - 1

    def parse(self, token: str | Card) -> Card:
        """The card a token names (case-insensitive, aliases and Unicode suit signs allowed)."""
        index = self.lookup(token)
        if index is None and isinstance(token, Card):  # another pack's card: not "EA is not a card" of a pack with EA
            owner = pack_game(token) or "another"
            raise UnknownCardError(f"{token.name} is a card of the {owner} pack, not of the {self.game} pack (a "
                                   "game takes its own pack's cards, or tokens)")
        if index is None:
            raise UnknownCardError(f"{token!r} is not a card of the {self.game} pack{self.unknown_note(token)}")
        return self.cards[index]

    def unknown_note(self, token: object) -> str:
        """What follows "not a card of the pack" in a message: why a token names no card here when players
        write it for a card the pack leaves out (``absent``), else the closest cards' names."""
        note = self.absent.get(unicodedata.normalize("NFC", str(token).strip()).upper())
        if note is not None:
            return f"; {note}"
        return run_together_note(token, lambda part: self.lookup(part) is not None) or self._shape_note(token) or \
            did_you_mean(token, [card.name for card in self.cards], cutoff=0.5)

    def _shape_note(self, token: object) -> str:
        """What a token that is no misspelt card was meant as: a suit alone (a hand copied from the diagram, which
        groups cards by suit: ``T 21 17 ♠ K Q``), where the closest cards' names would mislead (``T``: TS)."""
        key = unicodedata.normalize("NFC", str(token).strip()).upper()
        suits = {card.suit for card in self.cards} | {sign for sign, suit in _SIGN_SUITS.items()
                                                      if suit in self.sign_letters}
        if key in suits:
            return (f"; a suit alone: each card is written whole, suit and rank together ({self.example()}), not "
                    "grouped by suit as the hand diagram prints them")
        return ""

    def lookup(self, token: str | Card) -> int | None:
        """The index a token (or this pack's Card, as the API hands them out) names, or None (also for anything
        else, another pack's card among them)."""
        if isinstance(token, Card):
            return token.index if self.holds(token) else None
        if not isinstance(token, str):
            return None
        key = unicodedata.normalize("NFC", token.strip()).upper()
        if key in self.aliases:
            return self.aliases[key]
        for sign, suit in _SIGN_SUITS.items():
            if sign in key and suit in self.sign_letters:
                letter = self.sign_letters[suit]
                candidate = letter + key.replace(sign, "", 1)  # the sign before or after the rank
                if candidate in self.aliases:
                    return self.aliases[candidate]
        return None

    def card_set(self, tokens: Iterable[str | Card] | str) -> "CardSet":
        """A card set from tokens or this pack's Cards (a string is split on white space)."""
        if isinstance(tokens, str):
            tokens = tokens.split()
        mask = 0
        for token in tokens:
            mask |= 1 << self.parse(token).index
        return CardSet(self, mask)

    def names(self, mask: int) -> list[str]:
        """The names of a mask's cards, in pack order."""
        return [self.cards[i].name for i in bits(self._checked_mask(mask))]

    def points(self, mask: int) -> int:
        """The card points of the cards of ``mask``."""
        return sum(self.cards[i].points for i in bits(self._checked_mask(mask)))

    def _checked_mask(self, mask: object) -> int:
        if not is_whole_number(mask) or not 0 <= mask < 1 << len(self.cards):
            raise UnknownCardError(f"a mask of the {self.game} pack is a whole number from 0 to "
                                   f"2**{len(self.cards)} - 1, not {mask!r}")
        return mask


@dataclass(frozen=True, slots=True)
class CardSet:
    """An immutable set of cards of one pack: an int mask with the pack that reads it."""

    pack: Pack
    mask: int

    def __post_init__(self) -> None:
        if not isinstance(self.pack, Pack):
            raise UnknownCardError("a card set's pack is a game's Pack (such as solver.get_game(name).pack), "
                                   f"not {self.pack!r}")
        if not is_whole_number(self.mask) or not 0 <= self.mask < 1 << len(self.pack.cards):
            raise UnknownCardError(f"card set mask {self.mask!r} is not a set of the {self.pack.game} pack's "
                                   f"{len(self.pack.cards)} cards")

    def __iter__(self) -> Iterator[Card]:
        return (self.pack.cards[i] for i in bits(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        """A Card of this pack, its index (as the solver's results give cards; a numpy integer too, as ``play``
        takes one) or a token; another pack's card is not in the set, whatever its index (a result's
        :class:`CardIndex` knows its card)."""
        if isinstance(card, CardIndex):
            card = card.card
        elif not isinstance(card, (Card, str)):
            card = integral(card)  # a bot's np.argmax, not silently in no set
        if isinstance(card, Card):
            return self.pack.holds(card) and bool(self.mask >> card.index & 1)
        if isinstance(card, str):
            index = self.pack.lookup(card)
            return index is not None and bool(self.mask >> index & 1)
        if is_whole_number(card):
            return 0 <= card < len(self.pack.cards) and bool(self.mask >> card & 1)  # type: ignore[operator]
        return False

    def _other(self, other: "CardSet") -> int:
        """The mask of ``other``, a set of the same pack (UnknownCardError for another pack's)."""
        if other.pack is not self.pack:
            raise UnknownCardError(f"a set of the {other.pack.game} pack does not combine with one of the "
                                   f"{self.pack.game} pack")
        return other.mask

    def __or__(self, other: "CardSet") -> "CardSet":
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.pack, self.mask | self._other(other))

    def __and__(self, other: "CardSet") -> "CardSet":
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.pack, self.mask & self._other(other))

    def __sub__(self, other: "CardSet") -> "CardSet":
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.pack, self.mask & ~self._other(other))

    def __xor__(self, other: "CardSet") -> "CardSet":
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.pack, self.mask ^ self._other(other))

    def __le__(self, other: "CardSet") -> bool:
        """Subset, as for Python's sets (``hand <= dealt``)."""
        if not isinstance(other, CardSet):
            return NotImplemented
        return self.mask & ~self._other(other) == 0

    def __ge__(self, other: "CardSet") -> bool:
        if not isinstance(other, CardSet):
            return NotImplemented
        return self._other(other) & ~self.mask == 0

    def __lt__(self, other: "CardSet") -> bool:
        if not isinstance(other, CardSet):
            return NotImplemented
        return self <= other and self.mask != other.mask

    def __gt__(self, other: "CardSet") -> bool:
        if not isinstance(other, CardSet):
            return NotImplemented
        return self >= other and self.mask != other.mask

    def isdisjoint(self, other: "CardSet | Iterable[str | Card]") -> bool:
        """No card in common with ``other``, a card set or any collection of this pack's cards or tokens."""
        mask = self._other(other) if isinstance(other, CardSet) else self.pack.card_set(other).mask
        return self.mask & mask == 0

    def __bool__(self) -> bool:
        return self.mask != 0

    @property
    def points(self) -> int:
        """The card points of the set's cards."""
        return self.pack.points(self.mask)

    def names(self) -> list[str]:
        """The cards' names, in pack order."""
        return self.pack.names(self.mask)

    def __str__(self) -> str:
        return " ".join(self.names())

    def __format__(self, spec: str) -> str:
        """As its text formats (``f"{hand:>30}"``), as a Card's does."""
        return format(str(self), spec)

    def __repr__(self) -> str:
        """The expression that gives the set back (``CardSet.of('Schafkopf', 'GA GZ')``), where its pack is a
        registered game's; else ``<CardSet GA GZ of the X pack>``. ``str()`` is the names."""
        if _GAME_PACKS.get(self.pack.game) is not self.pack:
            return f"<CardSet {self} of the {self.pack.game} pack>"
        return f"CardSet.of({self.pack.game!r}, {str(self)!r})"

    @staticmethod
    def of(game: str, tokens: "Iterable[str | Card] | str") -> "CardSet":
        """The cards ``tokens`` of ``game``'s pack (``Pack.card_set``): what ``repr`` writes, so that it evaluates
        back."""
        return game_pack_named(game).card_set(tokens)


def build_pack(game: str, suits: list[tuple[str, list[tuple[str, int, list[str]]]]],
               sign_letters: dict[str, str], suit_aliases: dict[str, list[str]] | None = None,
               extra: Sequence[tuple[str, str, str, int, int, list[str]]] = (),
               absent: dict[str, str] | None = None) -> Pack:
    """Build a pack from its suits, strongest first.

    ``suits`` lists (suit letter, [(rank, points, rank aliases), ...] strongest rank first). Each card's canonical token
    is suit letter + rank; the aliases combine every spelling of the suit with every spelling of the rank.
    ``extra`` lists cards outside the suit grid: (name, suit, rank, points, order, aliases), placed first.
    ``absent`` maps tokens of cards the pack leaves out to what a message says instead (:attr:`Pack.absent`).
    """
    suit_aliases = suit_aliases or {}
    cards: list[Card] = []
    aliases: dict[str, int] = {}

    def add_alias(token: str, index: int) -> None:
        key = token.upper()
        if key in aliases and aliases[key] != index:
            raise ValueError(f"alias {token} names two cards")
        aliases[key] = index

    for name, suit, rank, points, order, names in extra:
        index = len(cards)
        cards.append(Card(index, name, suit, rank, points, order))
        for token in [name, *names]:
            add_alias(token, index)
    for suit, ranks in suits:
        for position, (rank, points, rank_aliases) in enumerate(ranks):
            index = len(cards)
            cards.append(Card(index, suit + rank, suit, rank, points, len(ranks) - position))
            for s in [suit, *suit_aliases.get(suit, [])]:
                for r in [rank, *rank_aliases]:
                    add_alias(s + r, index)
    absent = {token.upper(): note for token, note in (absent or {}).items()}
    if absent.keys() & aliases.keys():
        raise ValueError(f"absent tokens name cards: {sorted(absent.keys() & aliases.keys())}")
    return Pack(game, tuple(cards), aliases, sign_letters, absent)


#: The packs of the registered games by game name (``register_pack``; the game registry fills it).
_GAME_PACKS: dict[str, Pack] = {}
#: The games' registry's function that finds a game's pack by the game's name, which a pickled pack is read back
#: with: a function of the registry, so that reading the pickle imports the registry first (a spawned worker has
#: not). One for every game (``register_pack`` sets it); None until a game registers.
_GAME_LOADER: Callable[[str], Pack] | None = None


def pack_game(card: Card) -> str | None:
    """The game whose registered pack holds ``card`` (a Card knows only its index and names, and no two games'
    packs share a card), or None."""
    return next((game for game, pack in _GAME_PACKS.items() if pack.holds(card)), None)


def names_a_card(token: str) -> bool:
    """Whether ``token`` names a card of any game's pack (the games' registry loaded where none has registered):
    text of cards a user wrote, not of some other program's."""
    _game_loader()
    return any(pack.lookup(token) is not None for pack in _GAME_PACKS.values())


def game_pack_named(game: str) -> Pack:
    """The pack of the game ``game`` names (any spelling the games' registry takes), through the registry's loader:
    the games are built on the cards, so the registry is loaded by name where no game has registered yet, as
    reading a pickled pack loads it (:meth:`Pack.__reduce__`)."""
    return _game_loader()(game)


def _game_loader() -> Callable[[str], Pack]:
    """The games' registry's loader of a pack by its game's name, the registry imported first where no game has
    registered yet (the cards module is imported before it)."""
    if _GAME_LOADER is None:
        importlib.import_module(".games", __package__)  # registering its games sets the loader
    if _GAME_LOADER is None:
        raise LookupError("the games' registry registered no game, so no pack can be found by its game's name")
    return _GAME_LOADER


def register_pack(pack: Pack, loader: Callable[[str], Pack]) -> None:
    """Make ``pack`` the one pack of its game: it unpickles as that very object, through ``loader(game name)``
    (see :meth:`Pack.__reduce__`), the registry's one loader for every game's pack."""
    global _GAME_LOADER
    _GAME_PACKS[pack.game] = pack
    _GAME_LOADER = loader
