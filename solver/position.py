"""Positions: a deal under a contract, with the cards already played.

A :class:`Position` is what every solver call starts from: the game, its :class:`~solver.games.base.Rules` and the
:class:`~solver.state.PlayState` reached after the record's Play section. It is built either from a ``.tbn`` record
(:func:`position_from_record`, every error pointing at file, line and column) or from Python values
(:func:`make_position`).
"""

from __future__ import annotations

import functools
import re
from itertools import chain
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Mapping, Sequence, SupportsIndex, cast

from .announcements import (Announcement, AnnouncementSeatError, AnnouncementSyntaxError, announcement_error,
                            pagat_announcement, parse_announcements)
from .cards import Card, CardSet, Pack, card_items, trick_number_note
from .deal import MAX_SEATS, MIN_SEATS, Deal, small_number
from .errors import (shown_name, visible, CommandVariantError, ContractFormError, FlagGivenTwiceError, IllegalPlayError,
                     InvalidContractError, InvalidDealError, InvalidPositionError, InvalidSeatContractError,
                     InvalidSeatPositionError, ParseError, StichError, UnknownCardError, VariantError, close_matches,
                     did_you_mean, integral, is_whole_number, quoted)
from .formats.tbn import (BRIDGE_DEAL_EXPECTED, PlaySection, Record, Tag, Token, bridge_deal_said,
                          is_bridge_deal)
from .games import GAMES, games_with, get_game
from .games.base import RECORD_TAGS, STATE_TAGS, Contract, Game, Objective, Rules
from .games.tables import current_winner
from .state import PlayState, card_whereabouts
from .variant import Variant


@dataclass(frozen=True)
class PlayedTrick:
    """A completed trick as people count: its number, the seat that led it and the seat that won it (1-based), and
    its cards in playing order."""

    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int

    def __repr__(self) -> str:
        # the cards by name: a whole play's tricks spelt out card by card as Card.of(game, name) are unreadable
        return (f"<PlayedTrick {self.number}: {' '.join(card.name for card in self.cards)}, led by seat {self.leader},"
                f" won by seat {self.winner}>")


#: The score's name as an objective (``stich solve -o score``, :func:`solver.solve`): the settlement search's
#: (solver.score_objective), which the rules' objectives do not include.
SCORE = "score"


def names_score(name: object) -> bool:
    """Whether an objective argument asks for the score (any case and spacing, as :meth:`Position.objective` reads
    the rules' names)."""
    return isinstance(name, str) and name.strip().lower() == SCORE


@dataclass(frozen=True)
class Position:
    """A position to solve: the rules of the deal, the state after the cards played, and where it came from.
    Immutable and hashable, like the state. ``played`` is the state's play (filled from it when not given), which
    the post-mortem and the analysis from a position read; :meth:`play` makes the next position with both in step,
    and the functions that take one check that its parts belong together."""

    game: type[Game]
    rules: Rules
    state: PlayState
    played: tuple[int, ...] = ()
    record: Record | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        # a position made from a state alone (Position(game, rules, state)) has the state's play as its own
        if not self.played and isinstance(self.state, PlayState):
            try:
                object.__setattr__(self, "played", self.state.history_cards())
            except (AttributeError, TypeError):
                pass  # a broken history: check_position says what is wrong with it
        # plain ints, so that equal positions print (and seed a bot) alike: a state advanced with a result's
        # CardIndex, or a played tuple of IntEnums or numpy integers, holds cards that print otherwise
        if isinstance(self.played, tuple) and any(type(card) is not int for card in self.played):
            plain = tuple(int(card) if isinstance(card, int) and not isinstance(card, bool) else integral(card)
                          for card in self.played)
            if all(type(card) is int for card in plain):  # else check_position says what is wrong
                object.__setattr__(self, "played", plain)

    @property
    def pack(self) -> Pack:
        """The game's pack: what card indices and tokens are read by."""
        return self.rules.pack

    @property
    def to_move(self) -> int | None:
        """The seat to play (1-based), None when the deal is over."""
        return None if self.state.is_over else self.state.to_move + 1

    def _seat_index(self, seat: SupportsIndex) -> int:
        """``seat`` (1-based; any integral type, a numpy integer too, hence ``SupportsIndex``) as a 0-based index;
        InvalidSeatPositionError for one that is no seat of the deal."""
        number = integral(seat)
        if not is_whole_number(number) or not 1 <= number <= self.rules.seats:
            raise InvalidSeatPositionError(f"seat {number!r} is not a seat of this {self.rules.seats}-seat deal")
        return int(number) - 1

    def hand(self, seat: SupportsIndex) -> CardSet:
        """The cards seat ``seat`` (1-based; any integral type, a numpy integer too) still holds."""
        return CardSet(self.pack, self.state.hands[self._seat_index(seat)])

    def legal_cards(self) -> CardSet:
        """The cards the seat to move may play (none when the deal is over)."""
        return CardSet(self.pack, self.state.legal_cards())

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards on the table, in playing order."""
        return tuple(self.pack[card] for card in self.state.trick)

    @property
    def trumps(self) -> CardSet:
        """The contract's whole trump set, cards already played included (``position.trumps & position.hand(seat)``
        for a hand's): the cards that can win a trick led in another suit (none in a game without trumps, as a
        Zwanzigerrufen Suit Solo), read from the rule tables the engine plays by, so that a bot needs no game's
        rules of its own to tell them."""
        return CardSet(self.pack, self.rules.trump_cards())

    @property
    def trump_order(self) -> tuple[Card, ...]:
        """The contract's trumps (:attr:`trumps`), the highest first: the order in which they beat each other on a
        trick led in another suit, read from the rule tables as :attr:`trumps` is (a special winner, the
        Zwanzigerrufen Sagotrick, aside: :attr:`winning_seat` says who wins the trick on the table), ranked once per
        rules object (:meth:`Rules.trump_order`)."""
        return tuple(self.pack[card] for card in self.rules.trump_order())

    @property
    def declarer(self) -> int:
        """The declarer's seat (1-based; Kratzen's attacker), as :attr:`to_move` and the hands count seats: the
        rules' own ``declarer`` is the engine's 0-based seat."""
        return self.rules.declarer + 1

    @property
    def winning_seat(self) -> int | None:
        """The seat (1-based) whose card wins the trick on the table so far, None with no card on it."""
        trick = self.state.trick
        if not trick:
            return None
        return (self.state.leader + current_winner(self.rules.tables(), tuple(trick))) % self.rules.seats + 1

    def true_side(self, seat: SupportsIndex) -> frozenset[int]:
        """The seats (1-based) of ``seat``'s side, the double-dummy truth (the deal's hands decide it): a Rufer's or
        a Normal game's partner is in the declarer's side from the first card, though at the table the others learn
        him only when :attr:`called_card` is played, so a fair bot reads this only once that card is in
        ``history`` or ``trick`` (in Kratzen every seat is a side of its own)."""
        return frozenset(other + 1 for other in self.rules.side_of(self._seat_index(seat)))

    @property
    def called_card(self) -> Card | None:
        """The card whose holder partners the declarer (a Schafkopf Rufer's called ace, a Zwanzigerrufen Normal
        game's called tarock), None where the contract calls none: the card that tells the table the sides."""
        card = self.rules.called_card
        return None if card is None else self.pack[card]

    @property
    def history(self) -> tuple[PlayedTrick, ...]:
        """The completed tricks, seats 1-based and cards as Cards (the state's ``history`` is the engine's view:
        0-based seats and pack indices)."""
        return tuple(PlayedTrick(number, trick.leader + 1, tuple(self.pack[c] for c in trick.cards), trick.winner + 1)
                     for number, trick in enumerate(self.state.history, 1))

    def __repr__(self) -> str:
        """A line that says which position it is (the diagram is ``str()``); the fields as given for one whose
        parts are no game, rules and state (made by hand: every function refuses it, and a debugger shows it)."""
        try:
            state, rules = self.state, self.rules
            where = "over" if state.is_over else (f"trick {len(state.history) + 1} of {rules.tricks_in_deal}, "
                                                  f"seat {state.to_move + 1} to play")
            title = self.game.declarer_title  # Kratzen's attacker: it has no declarer
            label = "" if self.record is None else f"{self.label}: "  # not '<Position position: ...>' for one made
            return f"<Position {label}{self.game.name} {rules.contract}, {title} {rules.declarer + 1}; {where}>"
        except (AttributeError, TypeError, ValueError, ZeroDivisionError):  # a position check_position refuses
            return (f"Position(game={self.game!r}, rules={self.rules!r}, state={self.state!r}, "
                    f"played={self.played!r})")

    def __str__(self) -> str:
        """The hand diagram (:mod:`solver.diagram`): the hands around the table, the trick, who is to play."""
        from .diagram import diagram

        return diagram(self)

    def _repr_html_(self) -> str:
        """The hand diagram as HTML, which Jupyter shows for a position."""
        from .diagram import diagram_html

        return diagram_html(self)

    def play(self, card: SupportsIndex | str | Card) -> "Position":
        """The position after the player to move plays ``card`` (a pack index, a Card or a card token), its
        ``played`` and its record's Play section kept in step with its state (so :meth:`to_tbn` saves the game as
        played); IllegalPlayError, with the rule broken, if the rules forbid the card."""
        state = check_position(self).state.play(card)
        record = None if self.record is None else _record_playing(self.record, self.rules, state.history_cards()[-1])
        return replace(self, state=state, played=state.history_cards(), record=record)

    def play_cards(self, cards: Iterable[SupportsIndex | str | Card] | str) -> "Position":
        """The position after ``cards`` are played in turn (card tokens in one string, or any iterable of tokens,
        Cards or pack indices); an illegal one is IllegalPlayError naming its number in the list, the card and the
        rule it breaks."""
        tokens = card_items(cards)
        if tokens is None:
            raise IllegalPlayError(f"the cards to play are card tokens, as one string or a list, not {cards!r}")
        position = self
        for number, card in enumerate(tokens, 1):
            try:
                position = position.play(card)
            except (IllegalPlayError, UnknownCardError) as error:
                raise type(error)(f"card {number} of the play ({card}): {error}") from None
        return position

    def at_start(self) -> "Position":
        """The position at its deal's start (an ending's start), no card played: to ask what the deal as dealt
        allows (could a bonus have been forced?), not what is left after the play. Its record, where it has one, is
        kept without the Play section."""
        record = None
        if self.record is not None:
            record = _copy_record(self.record)
            record.remove("Play")
        return replace(self, state=self.rules.start(), played=(), record=record)

    def to_record(self) -> Record:
        """The position as a ``.tbn`` record: its own record (tags and comments kept, the Play section as played),
        or one made from its rules and play for a position made in Python."""
        if self.record is not None:
            return _copy_record(self.record)
        return _new_record(self)

    def to_tbn(self) -> str:
        """The position as the text of one ``.tbn`` record (see :meth:`to_record`); ``write_records`` saves many."""
        from .formats.tbn import format_record

        return format_record(self.to_record())

    def objective(self, name: str, seat: SupportsIndex | None = None) -> Objective:
        """An objective of this position's rules by name; ``seat`` (1-based, any integral type) for a per-seat
        question."""
        if not isinstance(name, str):
            known = ", ".join(self.rules.objective_names())
            raise InvalidContractError(f"an objective is named by text (one of {known}), not {name!r}")
        name = name.strip().lower()  # as game names, contracts and card tokens are read
        number = integral(seat)  # a numpy integer is a seat too
        if number is not None and (not is_whole_number(number)
                                   or not 1 <= number <= self.rules.seats):
            self._check_objective_name(name)  # an objective of another game is said first: no seat would mend it
            raise InvalidSeatContractError(f"seat {number!r} is not a seat of this {self.rules.seats}-seat deal",
                                           about="seat")
        if number is not None:
            try:
                self.rules.objective(name)
            except StichError:
                pass  # a per-seat objective (or none at all: the call below says which)
            else:
                raise InvalidSeatContractError(f"objective {name!r} is a side's and takes no seat (a seat picks the "
                                               "player of a per-seat objective, such as a seat's own tricks)",
                                               about="seat")
        return self.rules.objective(name, None if number is None else cast(int, number) - 1)

    def _check_objective_name(self, name: str) -> None:
        """The rules' refusal of ``name`` (lower case) where it is the name of no objective of this deal, asked with
        a seat or without (a game's objective that is a seat's own refuses to be asked without one)."""
        if name in self.rules.objective_names():
            return
        try:
            self.rules.objective(name)
        except StichError as error:
            try:
                self.rules.objective(name, 0)
            except StichError:
                raise error from None

    @property
    def label(self) -> str:
        """What messages call the position: ``board N``, else its record's ``file:line``, else ``position``; their
        control characters made visible (:func:`~solver.errors.visible`), as it is printed for people."""
        if self.record is not None:
            board = self.record.get("Board")
            if board:
                return f"board {visible(board)}"
            return f"{shown_name(self.record.source)}:{self.record.line}"
        return "position"


def check_position(value: object, name: str = "position") -> Position:
    """``value`` if it is a Position, else InvalidPositionError naming the argument: the first check of every public
    function that takes one, so that a wrong argument is refused before any attribute of it is read."""
    if not isinstance(value, Position):
        raise InvalidPositionError(f"{name} must be a Position (from read_positions, parse_positions or make_position),"
                                   f" not {type(value).__name__}")
    if not isinstance(value.rules, Rules) or not isinstance(value.state, PlayState):
        raise InvalidPositionError(f"{name} must hold Rules and a PlayState, not {type(value.rules).__name__} and "
                                   f"{type(value.state).__name__}")
    if value.rules.game is not value.game or value.state.rules != value.rules:
        raise InvalidPositionError(f"{name}'s game, rules and state are of different deals or games: a position's "
                                   "state is played under its own rules")
    try:
        in_step = value.played == value.state.history_cards()
    except (AttributeError, TypeError):  # a history that is no tricks: check_state below says what is wrong
        in_step = False
    if not in_step:
        from .search.boundary import check_state

        check_state(value.state)  # a broken state is said first: its play is no measure of anything
        raise InvalidPositionError(f"{name}'s played cards are not its state's play (the completed tricks and the "
                                   "trick on the table): make the next position with Position.play, which keeps "
                                   "them in step")
    return value


def objectives_named(position: Position, name: str) -> list[tuple[int | None, Objective]]:
    """The objective ``name`` of a position, as (seat, objective) pairs: one pair with seat None for a side's
    question, one pair per seat (1-based) for a per-seat question (a game where every seat plays for itself).

    Raises the rules' InvalidContractError when the objective does not apply (a name the game does not know,
    Pagat Ultimo when the Pagat is in no hand, ...)."""
    try:
        return [(None, position.objective(name))]
    except InvalidContractError as error:
        try:  # a per-seat objective refuses to be asked without a seat
            position.objective(name, 1)
        except StichError:
            raise error from None
        return [(seat, position.objective(name, seat)) for seat in range(1, position.rules.seats + 1)]


def every_seat_for_itself(of: Position | Rules) -> bool:
    """True when every objective of the rules is asked per seat: there are no teams, and the "sides" of a document
    are only the declarer and everybody else. ``of`` is a position or its rules (the post-mortem and the board ask
    with rules), so that every part of stich tells a per-seat game by this one criterion, not by its objectives'
    names (a team game may have no "points")."""
    rules = of.rules if isinstance(of, Position) else of
    for name in rules.objective_names():
        try:
            rules.objective(name)  # a side's question: there are teams
        except InvalidContractError:  # a seat's own (it needs a seat), or one that does not arise here (no Pagat
            continue                  # in an ending), which says nothing about teams
        return False
    return True


def _hand_lists(deal: object) -> list[str | list[str | Card]] | None:
    """A deal given as a list (or tuple) of hands, each a string of tokens or a collection of tokens and Cards (a
    ``CardSet``, ``position.hand(seat)``, too), as :meth:`Deal.from_lists` takes it; None for anything else."""
    if not isinstance(deal, (list, tuple)):
        return None
    hands: list[str | list[str | Card]] = []
    for hand in deal:
        items = hand if isinstance(hand, str) else card_items(hand)
        if items is None or not isinstance(items, str) and not all(isinstance(item, (str, Card)) for item in items):
            return None
        hands.append(items)
    return hands


def make_position(game: str | type[Game], deal: Deal | str | Sequence[str | Iterable[str | Card]], contract: str,
                  *, declarer: SupportsIndex = 1,
                  variant: Mapping[str, object] | str | Variant | None = None, play: Iterable[str | Card] | str = (),
                  leader: SupportsIndex | None = None, **state_tags: object) -> Position:
    """A position from Python values: ``deal`` as text (``"1: TS T21 ... / ..."``), a list of hands (each a
    string, or a list or CardSet of tokens or Cards: another position's ``hand(seat)``), or a Deal; ``play`` as
    card tokens (or Cards) in playing order from the first trick. Raises a StichError naming what is wrong."""
    game = get_game(game)
    if isinstance(deal, str):
        deal = game.parse_deal(deal)
    elif not isinstance(deal, Deal) and (hands := _hand_lists(deal)) is not None:
        deal = Deal.from_lists(game.pack, hands)
    elif not isinstance(deal, Deal):
        raise InvalidDealError("a deal is text ('1: ... / ...'), a list of hands (each a string, or a list or "
                               f"CardSet of card tokens or Cards) or a Deal, not {deal!r}")
    if not isinstance(contract, (str, Contract)):
        raise InvalidContractError(f"a contract is text such as {game.contract_help}, not {contract!r}")
    # any integral seat (a numpy integer too): rules() makes it an int and checks it, naming what was given
    rules = game.rules(deal, contract, declarer=cast(int, declarer), variant=variant, leader=cast("int | None", leader),
                       **state_tags)
    state = rules.start()
    tokens = card_items(play)
    if tokens is None:
        raise IllegalPlayError(f"the play is card tokens, as one string or a list, not {play!r}")
    return Position(game, rules, state).play_cards(tokens)


# --- records ------------------------------------------------------------------------------------------------------

def _copy_record(record: Record) -> Record:
    """A copy that can be changed without changing ``record`` (tags, Play section and comments copied)."""
    play = record.play
    return Record([replace(tag) for tag in record.tags],
                  None if play is None else PlaySection(play.leader, [list(line) for line in play.tricks],
                                                        play.terminated),
                  record.source, record.line, [replace(comment) for comment in record.comments],
                  record.follows_record)


def _record_playing(record: Record, rules: Rules, card: int) -> Record:
    """A copy of ``record`` with ``card`` added to its Play section (which is made if it has none)."""
    copy = _copy_record(record)
    if copy.play is None:
        copy.set("Play", str(rules.first_leader + 1))
        assert copy.play is not None
        copy.play.terminated = True  # a section made here ends with '*', as FORMAT.md writes it
    assert copy.play is not None
    token = Token(rules.pack[card].name, 0, 0)
    tricks = copy.play.tricks
    if tricks and len(tricks[-1]) < rules.seats:
        last, cards = len(tricks) - 1, len(tricks[-1])
        for comment in copy.comments:  # a ';' or '%' comment runs to the line's end: it stays after the new card
            if comment.play_line == last and comment.play_token == cards and comment.text[:1] in "%;":
                comment.play_token += 1
        tricks[-1].append(token)
    else:
        tricks.append([token])
    return copy


def _new_record(position: Position) -> Record:
    rules = position.rules
    record = Record([])
    record.set("Game", position.game.name)
    record.set("Deal", rules.deal.text())
    record.set("Contract", str(rules.contract))
    record.set("Declarer", str(rules.declarer + 1))
    if not position.game.is_whole(rules.deal):
        record.set("Leader", str(rules.first_leader + 1))
    if rules.variant.text():
        record.set("Variant", rules.variant.text())
    for name, value in rules.state_tags.items():
        record.set(*position.game.state_tag_text(name, value))
    start = replace(position.at_start(), record=record)
    for card in position.played:
        start = start.play(card)
    assert start.record is not None
    return start.record


_WORD = re.compile(r"[^\s/]+|/")


def _error(record: Record, message: str, line: int, column: int, token: str | None = None,
           expected: str | None = None) -> ParseError:
    return ParseError(message, source=record.source, line=line, column=column, token=token, expected=expected)


def _deal_word_note(pack: Pack, word: str) -> str:
    """What follows "not a card of the pack" for a word of the Deal tag: a seat number within the tag (``2:``) is
    said as one, since FORMAT.md's ``N:`` stands only before the first hand; else the pack's own note."""
    if re.fullmatch(r"[0-9]+:.*", word):
        return "; a seat number N: stands only before the first hand, the others following in seat order"
    return pack.unknown_note(word)


def _tag_error(record: Record, tag: Tag, message: str, expected: str | None = None) -> ParseError:
    """The error at a tag's value; an empty value is not shown as "(got '')", which tells the reader nothing."""
    return _error(record, message, tag.value_line, tag.value_column, tag.value if tag.value.strip() else None, expected)


def _empty_tag_error(record: Record, tag: Tag, expected: str) -> ParseError:
    """``[Declarer] is empty (expected ...)``: a tag given with no value, said as such rather than as a value that
    is not a seat (or game, or number) followed by "(got '')"."""
    return _tag_error(record, tag, f"[{tag.name}] is empty", expected)


def _value_words(tag: Tag) -> list[tuple[str, int]]:
    """The words of a tag value with their columns ('/' is a word of its own)."""
    return [(m.group(0), tag.position(m.start())[1]) for m in _WORD.finditer(tag.value)]


#: The tags a record may leave out that change what is solved: a misspelt one would be passed over unsaid, and the
#: deal solved as if it were absent (seat 1 declaring where [Declarer "3"] was meant); the games' own record tags
#: among them. [Seats] is not: it only cross-checks the deal.
OPTIONAL_READ_TAGS = tuple(dict.fromkeys(("Declarer", "Leader", *RECORD_TAGS.values(), "Pot", "Variant")))

#: The tags stich reads or writes, lower-cased (FORMAT.md's and those stich writes): a tag of these is never taken for
#: a misspelling of another.
READ_TAGS = frozenset({"game", "deal", "contract", "board", "dealer", "date", "event", "play", "result", "seats",
                       "seed", "site", "note", "name"} | {name.lower() for name in OPTIONAL_READ_TAGS})


def _required(record: Record, name: str) -> Tag:
    tag = record.tag(name)
    deal = record.tag("Deal") if name == "Game" else None
    if tag is None and deal is not None and is_bridge_deal(deal.value):
        # a file another program wrote: the user is told what it is, not only the tag a record of stich's has
        raise _tag_error(record, deal, bridge_deal_said(), BRIDGE_DEAL_EXPECTED)
    if tag is None:
        # a misspelt tag ([Gmae "Schafkopf"]) is pointed at with the name it was meant to be: the closest of the
        # record's tags that are no tag of their own
        from difflib import SequenceMatcher

        unknown = [other for other in record.tags if other.name.lower() not in READ_TAGS]
        near = max(unknown, default=None, key=lambda other: SequenceMatcher(None, other.name.lower(),
                                                                             name.lower()).ratio())
        if near is not None and did_you_mean(near.name, [name]):
            raise _error(record, f"the record has no [{name}] tag; [{near.name}] on line {near.line}"
                         f"{did_you_mean(near.name, [name])}", near.line, near.column, near.name,
                         f"a [{name} \"...\"] tag")
        # a record that starts with its Play section, after another record: a blank line (PGN's, between tags and
        # moves) cut it from its tags
        starts_with_play = bool(record.tags) and record.tags[0].name.lower() == "play"
        cut = " (a blank line ends a record: one between the tags above and this [Play] section?)" if (
            name == "Game" and record.follows_record and starts_with_play) else ""
        raise _error(record, f"the record has no [{name}] tag{cut}", record.line, 1, None, f"a [{name} \"...\"] tag")
    return tag


def _tags_applying(game: type[Game], deal: Deal, contract: Contract) -> frozenset[str]:
    """The optional tags that would be read in a record of ``game`` with this deal and contract: only these are named
    for a near spelling, for a tag that would be refused there is no better guess than one of another program."""
    names = {"Declarer", "Variant"}
    if not game.is_whole(deal):
        names.add("Leader")
    names.update(game.record_tags[state] for state in game.state_tags_for(contract)
                 if not (state in game.ending_state_tags and game.is_whole(deal)))
    if game.has_announcements:
        names.add("Announcements")
    if game.has_pot:
        names.add("Pot")
    return frozenset(names)


@functools.lru_cache(maxsize=1024)
def _close_optional_tags(lowered: str) -> tuple[str, ...]:
    """The optional tags ``lowered`` (a tag name stich does not read, lower-cased) is a near spelling of, closest
    first: a file of many records carries the same few foreign tags in each. The bar is high (``difflib``'s 0.85),
    so that tags of other programs ([Lead], [Variation]) are not taken for them; a cut-short name ([Announce]) is
    near the tag it begins."""
    close = close_matches(lowered, OPTIONAL_READ_TAGS, cutoff=0.85)
    return tuple(dict.fromkeys((*close, *(name for name in OPTIONAL_READ_TAGS if _cut_short(lowered, name)))))


def _one_transposition(name: str, meant: str) -> bool:
    """Whether ``name`` is ``meant`` with two neighbouring letters swapped (case aside): [Delcarer]."""
    name, meant = name.lower(), meant.lower()
    if len(name) != len(meant):
        return False
    differ = [i for i, (a, b) in enumerate(zip(name, meant)) if a != b]
    return len(differ) == 2 and differ[1] == differ[0] + 1 and name[differ[0]] == meant[differ[1]] \
        and name[differ[1]] == meant[differ[0]]


#: The fewest letters a cut-short tag name keeps: fewer ([Part], [Lead]) could as well be another program's word.
_CUT_SHORT_LETTERS = 6


def _cut_short(name: str, meant: str) -> bool:
    """Whether ``name`` is the start of ``meant``, of :data:`_CUT_SHORT_LETTERS` letters or more (case aside):
    [Announce]."""
    name, meant = name.lower(), meant.lower()
    return _CUT_SHORT_LETTERS <= len(name) < len(meant) and meant.startswith(name)


def _reads_as(name: str, value: str, game: type[Game], seats: int) -> bool:
    """Whether ``value`` would be read as a value of the optional tag ``name``: a seat, yes or no, a number of
    chips, announcements or flags, as that tag is read."""
    if name == "Variant":
        try:
            Variant.parse_pairs(value, game.flags)
        except StichError:
            return False
        return bool(value.strip())
    if name == "Announcements":
        if re.match(r"\s*\d+\s*:", value):  # a seat and a colon: meant as announcements, even with a word misspelt
            return True
        try:
            return bool(parse_announcements(value, seats))
        except StichError:
            return False
    if name == "Pot":
        return small_number(value) is not None
    state = next((state for state, tag_name in RECORD_TAGS.items() if tag_name == name), None)
    if state is not None and STATE_TAGS[state] is bool:
        return _yes_or_no(value) is not None
    return _seat_of(value, seats) is not None  # Declarer, Leader, Partner


def _refuse_misspelt_optional_tag(record: Record, tags_applying: Callable[[], frozenset[str]], game: type[Game],
                                  seats: int) -> None:
    """A tag of no meaning to stich that is a near spelling of an optional tag the record lacks and would read
    (``tags_applying``, asked only when a tag is near one) ([Declaerer "3"]) is an error naming the tag meant: kept
    as an unknown tag, it would change the answer without a word. Only where it is likely a misspelling: its value
    reads as the meant tag's, or its name is the meant one with two letters swapped or cut short within a word
    ([Announce]); a tag of the user's own whose value could not be the near tag's ([Plot "x"] near [Pot], [Called
    "GA"] near [CalledSuitLed], cut where a word of it ends) is kept."""
    applying: frozenset[str] | None = None
    for tag in record.tags:
        lowered = tag.name.lower()
        if lowered in READ_TAGS or not (near := _close_optional_tags(lowered)):
            continue
        if applying is None:
            applying = tags_applying()
        meant = [name for name in near if name in applying and record.tag(name) is None
                 and (_one_transposition(tag.name, name)
                      or (_cut_short(tag.name, name) and not name[len(tag.name)].isupper())
                      or _reads_as(name, tag.value, game, seats))]
        if meant:
            raise _error(record, f"[{tag.name}] is no tag stich reads{did_you_mean(tag.name, meant, cutoff=0)}",
                         tag.line, tag.column, tag.name,
                         f'[{meant[0]} "{tag.value if len(tag.value) <= 20 else "..."}"] if that is what it means; '
                         "another program's tag can be renamed")


#: The words a yes-or-no tag ([CalledSuitLed]) is read from, each with what it says.
_YES_NO_WORDS = {"yes": True, "true": True, "no": False, "false": False}


def _yes_or_no(value: str) -> bool | None:
    """A yes-or-no tag's ``value`` (:data:`_YES_NO_WORDS`, case and spaces aside), or None where it is neither."""
    return _YES_NO_WORDS.get(value.strip().lower())


def _seat_of(value: str, seats: int) -> int | None:
    """A seat tag's ``value`` as its seat, 1 to ``seats``, or None where it is no seat of the game."""
    seat = small_number(value)
    return seat if seat is not None and 1 <= seat <= seats else None


def _seat_number(record: Record, tag: Tag, seats: int) -> int:
    seat = _seat_of(tag.value, seats)
    if seat is None and not tag.value.strip():
        raise _empty_tag_error(record, tag, f"a seat number from 1 to {seats}")
    if seat is None:
        raise _tag_error(record, tag, f"[{tag.name}] is not a seat", f"a seat number from 1 to {seats}")
    return seat


def _unheld_note(game: type[Game], hands: list[list[tuple[str, int]]]) -> str:
    """``"; no hand holds T12"``: the cards of a deal that deals the whole pack which no hand holds, for a card
    written twice or left out of a hand (the card meant), when there are at most three; ``""`` for an ending or a
    deal that misses more (where the list would be no help)."""
    if not game.deals_whole_pack(len(hands)):
        return ""
    held = {game.pack.lookup(word) for hand in hands for word, _column in hand}
    unheld = [card.name for card in game.pack if card.index not in held]
    if not 1 <= len(unheld) <= 3 or sum(map(len, hands)) < len(game.pack) - 3:
        return ""
    return f"; no hand holds {' '.join(unheld)}"


def _read_deal(record: Record, game: type[Game], tag: Tag) -> Deal:
    """The Deal tag, with every error pointing at the card or separator that causes it."""
    if not tag.value.strip():
        raise _empty_tag_error(record, tag, "the cards of every hand")
    words = _value_words(tag)
    first = 1
    prefix: tuple[str, int] | None = None  # the first seat's number as written, for an error that points at it
    glued = re.fullmatch(r"([0-9]+):(.*)", words[0][0]) if words else None
    if glued:  # "1: T19", or "1:T19" as PBN writes it
        prefix = (glued.group(1), words[0][1])
        rest = glued.group(2)
        words = ([(rest, words[0][1] + len(glued.group(1)) + 1)] if rest else []) + words[1:]
    elif len(words) >= 2 and re.fullmatch(r"[0-9]+", words[0][0]) and words[1][0].startswith(":"):  # "1 :T19"
        prefix = words[0]
        rest = words[1][0][1:]
        words = ([(rest, words[1][1] + 1)] if rest else []) + words[2:]
    if prefix is not None:
        first = small_number(prefix[0]) or 0  # 0: too many digits, reported as not a seat below
    hands: list[list[tuple[str, int]]] = [[]]
    slashes: list[int] = []  # the column of each '/'
    for word, column in words:
        if word == "/":
            hands.append([])
            slashes.append(column)
        else:
            hands[-1].append((word, column))
    if not MIN_SEATS <= len(hands) <= MAX_SEATS or len(hands) not in game.seat_counts:
        counts = game.seat_counts_text()
        raise _tag_error(record, tag, f"{game.name} deals have {counts} hands separated by '/', found {len(hands)}",
                         f"{counts} hands")
    if not 1 <= first <= len(hands):
        assert prefix is not None  # seat 1 is the default
        raise _error(record, f"the first hand's seat {prefix[0]} is not a seat of {len(hands)} hands",
                     tag.value_line, prefix[1], prefix[0] + ":", f"1..{len(hands)}")
    masks = [0] * len(hands)
    seen: dict[int, int] = {}
    for offset, hand in enumerate(hands):
        seat = (first - 1 + offset) % len(hands)
        for word, column in hand:
            index = game.pack.lookup(word)
            if index is None:
                raise _error(record, f"seat {seat + 1}: not a card of the {game.name} pack"
                             f"{_deal_word_note(game.pack, word)}", tag.value_line, column, word, f"a {game.name} card")
            if index in seen:
                raise _error(record, f"duplicate card {game.pack[index].name} (also in seat {seen[index] + 1})"
                             f"{_unheld_note(game, hands)}",
                             tag.value_line, column, word, "each card once")
            seen[index] = seat
            masks[seat] |= 1 << index
    sizes = [m.bit_count() for m in masks]
    if len(set(sizes)) != 1 or sizes[0] == 0:
        listing = ", ".join(f"seat {s + 1} has {n}" for s, n in enumerate(sizes))
        if not any(sizes):
            raise _tag_error(record, tag, "the deal holds no cards", "the cards of every hand")
        # point at the first hand (as written) whose size differs from the most common one, or at an empty one
        usual = max(set(sizes), key=sizes.count) or max(sizes)
        odd = next(i for i, hand in enumerate(hands) if len(hand) != usual)
        word, column = hands[odd][0] if hands[odd] else ("/", slashes[odd - 1] if odd else slashes[0])
        raise _error(record, f"hands of unequal length: {listing}{_unheld_note(game, hands)}", tag.value_line,
                     column, word, f"{usual} cards in every hand")
    if sizes[0] > game.hand_size:
        raise _tag_error(record, tag, f"{game.name} hands hold at most {game.hand_size} cards",
                         f"at most {game.hand_size} cards a hand")
    return Deal(game.pack, tuple(masks))


def position_from_record(record: Record, *, variant: Mapping[str, object] | str | None = None) -> Position:
    """The position after the record's Play section (or the ending it gives).

    ``variant`` overrides the record's ``[Variant]`` tag flag by flag; the position's record (a copy) then carries the
    flags it is played under, so that what it writes reads back the same. Every error is a ParseError with the file,
    line, column, offending token and what was expected.
    """
    if not isinstance(record, Record):
        raise ParseError(f"expected a Record (from read_records or parse_records), not {type(record).__name__}")
    game_tag = _required(record, "Game")
    if not game_tag.value.strip():
        raise _empty_tag_error(record, game_tag, f"one of {', '.join(known.name for known in GAMES)}")
    try:
        game = get_game(game_tag.value)
    except StichError as error:
        raise _tag_error(record, game_tag, str(error)) from None  # the message names the known games
    deal_tag = _required(record, "Deal")
    deal = _read_deal(record, game, deal_tag)
    seats_tag = record.tag("Seats")
    if seats_tag is not None and not seats_tag.value.strip():
        raise _empty_tag_error(record, seats_tag, str(deal.seats))
    if seats_tag is not None and (seats_given := small_number(seats_tag.value)) != deal.seats:
        what = "disagrees with" if seats_given is not None else "is not a number of players for"
        raise _tag_error(record, seats_tag, f"[Seats] {what} the deal's {deal.seats} hands", str(deal.seats))

    def tag_value(name: str, parse, expected: str):
        """The tag's value as ``parse`` reads it, None without the tag; its error pointed at the value, which is
        shown unless the message quotes it or is blank (as :func:`_tag_error`)."""
        tag = record.tag(name)
        if tag is None:
            return None
        try:
            return parse(tag)
        except StichError as error:
            if isinstance(error, ParseError):
                raise
            said = str(error)
            token = None if quoted(tag.value) in said or not tag.value.strip() else tag.value
            raise _error(record, said, tag.value_line, tag.value_column, token,
                         None if isinstance(error, ContractFormError) else expected) from None

    contract_tag = _required(record, "Contract")
    contract = tag_value("Contract", lambda t: game.parse_contract(t.value), game.contract_help)
    _refuse_misspelt_optional_tag(record, lambda: _tags_applying(game, deal, contract), game, deal.seats)
    declarer = tag_value("Declarer", lambda t: _seat_number(record, t, deal.seats), "a seat") or 1
    leader = tag_value("Leader", lambda t: _seat_number(record, t, deal.seats), "a seat")
    if leader is not None and game.is_whole(deal):
        leader_tag = record.tag("Leader")
        raise _tag_error(record, leader_tag,  # type: ignore[arg-type]
                         "[Leader] is for endings; a whole deal is led as the rules say",
                         "no [Leader] tag on a whole deal")
    flags: dict[str, object] = dict(tag_value("Variant", lambda t: _variant_pairs(record, t, game),
                                              "NAME=VALUE pairs, separated by commas") or {})
    override = Variant.parse_pairs(variant, game.flags) if isinstance(variant, str) else (variant or {})
    try:
        game.variant(override)  # the caller's flags alone: their mistake is not the file's
    except StichError as error:  # pointed at the record's game, whose flags they are not
        raise CommandVariantError(str(error), game.name, source=record.source, line=game_tag.value_line,
                                  column=game_tag.value_column) from None
    override = {name.strip().lower(): value for name, value in override.items()}  # as the tag's names: one key a flag
    from_tag = dict(flags)
    flags.update(override)
    variant_tag = record.tag("Variant") or contract_tag
    try:
        chosen = game.variant(flags)
    except StichError as error:
        raise _variant_tag_error(record, game, variant_tag, error, from_tag, override) from None
    as_written = chosen
    if override:
        try:  # a bad value of the tag's own is the file's mistake, said at the tag even where a flag given replaces it
            as_written = game.variant(from_tag)
        except StichError as error:
            raise _variant_tag_error(record, game, variant_tag, error, from_tag, {}) from None
    state_tags: dict[str, object] = {}
    for name, tag_name in RECORD_TAGS.items():  # the rule state a tag of its own gives, of any game: the rules
        tag = record.tag(tag_name)                # refuse what does not apply to this one
        if tag is None or tag_name == "Announcements":
            continue
        if STATE_TAGS[name] is bool:
            said = _yes_or_no(tag.value)
            if said is None and not tag.value.strip():
                raise _empty_tag_error(record, tag, "yes or no")
            if said is None:
                raise _tag_error(record, tag, f"[{tag_name}] is yes or no", "yes or no")
            state_tags[name] = said
        else:
            state_tags[name] = tag_value(tag_name, lambda t: _seat_number(record, t, deal.seats), "a seat")
    for name, feature in (("Announcements", "has_announcements"), ("Pot", "has_pot")):
        unused = record.tag(name)
        if unused is not None and not getattr(game, feature):  # scoring would refuse it, and solving ignore it
            raise _tag_error(record, unused, f"[{name}] belongs to {games_with(feature)}'s scoring; {game.name} has "
                             "none", f"no [{name}] tag in a {game.name} record")

    def read_announcements(tag: Tag) -> list[Announcement]:
        try:
            return parse_announcements(tag.value, deal.seats)
        except AnnouncementSyntaxError as error:  # pointed at the item that does not parse, not the tag's start
            if not 0 <= error.offset < len(tag.value):
                raise
            line, column = tag.position(error.offset)
            # a seat the deal has not: the entry has the expected shape
            expected = None if "expected" in str(error) or isinstance(error, AnnouncementSeatError) else \
                "seat: announcement; ..."
            # the message quotes the item already: no "(got ...)" saying it twice
            raise _error(record, str(error), line, column, None, expected) from None

    announcements = tag_value("Announcements", read_announcements, "seat: announcement; ...")
    if announcements:
        state_tags.update(game.announced_state(announcements))
    try:
        rules = game.rules(deal, contract, declarer=declarer, variant=chosen, leader=leader, **state_tags)
    except StichError as error:  # a contract that parsed but cannot be played with this deal: the reason says why
        raise _rules_error(record, contract_tag, error, declarer, announcements or []) from None
    state, played = _replay(record, rules, override)
    if as_written != chosen:
        # the record the position writes (to_tbn) says the flags it is played under, or it reads back under others;
        # its [Result] was worked out under the file's flags
        record = _copy_record(record)
        if chosen.text():
            record.set("Variant", chosen.text())
        else:
            record.remove("Variant")
        record.remove("Result")
    return Position(game, rules, state, played, record)


def _variant_tag_error(record: Record, game: type[Game], variant_tag: Tag, error: StichError,
                       from_tag: Mapping[str, object], given: Mapping[str, object]) -> ParseError:
    """The game's refusal of a record's flags, pointed at the ``[Variant]`` tag's pair at fault (the first of its own
    flags, those ``given`` by the caller left out, that the game refuses alone), as a card of a deal is; at the whole
    tag where none is at fault alone."""
    line, column, token = variant_tag.value_line, variant_tag.value_column, variant_tag.value
    for name, value in from_tag.items():
        if name in given:
            continue
        try:
            game.variant({name: value})
        except StichError:
            named = [(offset, pair) for offset, pair in _pair_offsets(variant_tag.value)
                     if pair.partition("=")[0].strip().lower() == str(name).strip().lower()]
            if named:  # the pair at fault as the token (its last, the one read), not the whole tag cut short
                offset, token = named[-1]
                line, column = variant_tag.position(offset)
            break
    return _error(record, str(error), line, column, token,
                  None if "expected" in str(error) else "flags of docs/rules.md")


def _pair_offsets(text: str) -> list[tuple[int, str]]:
    """Each comma-separated pair of a ``[Variant]`` tag's value, stripped, with its offset in the value."""
    pairs, start = [], 0
    for item in text.split(","):
        pairs.append((start + len(item) - len(item.lstrip()), item.strip()))
        start += len(item) + 1
    return pairs


def _variant_pairs(record: Record, tag: Tag, game: type[Game]) -> dict[str, str]:
    """The ``[Variant]`` tag's pairs (:meth:`Variant.parse_pairs`); a pair not of the form, or a flag named twice,
    pointed at that pair as a card of a deal is, each said with what belongs there."""
    try:
        return Variant.parse_pairs(tag.value, game.flags)
    except VariantError as error:
        if error.pair is None:
            raise
        offset, pair = _pair_offsets(tag.value)[error.pair]
        line, column = tag.position(offset)
        expected = ("each flag once" if isinstance(error, FlagGivenTwiceError)
                    else "NAME=VALUE pairs, separated by commas")
        raise _error(record, str(error), line, column, pair, expected) from None


#: The tag that gives each argument of Game.rules an InvalidContractError can be about: the seats' and every game's
#: state tags' (``RECORD_TAGS``).
_ABOUT_TAGS = {"declarer": "Declarer", "leader": "Leader"}


def _rules_error(record: Record, contract_tag: Tag, error: StichError, declarer: int,
                 announcements: list[Announcement]) -> StichError:
    """A refusal of the rules, pointed at the tag it is about: the contract's, unless a state tag is at fault; the
    Pagat's announcer at its item, as scoring points at it."""
    about = str(getattr(error, "about", None) or "")
    text = str(error)
    pagat = pagat_announcement(announcements) if about == "pagat_announcer" else None
    if pagat is not None:
        return announcement_error(text, pagat, record)
    name = _ABOUT_TAGS.get(about) or RECORD_TAGS.get(about)
    if about and name is not None and record.tag(name) is not None:
        if text.startswith(about):
            text = f"[{name}]" + text[len(about):]
        if "does not apply" in text or "is for endings" in text:
            expected = f"no [{name}] tag here"
        else:
            expected = "the called card's holder" if about == "partner" else "a seat of this deal"
        return _tag_error(record, record.tag(name), text, expected)  # type: ignore[arg-type]
    return _tag_error(record, contract_tag, text, f"a contract seat {declarer} can play with these hands")


def _replay(record: Record, rules: Rules,
            override: Mapping[str, object] | None = None) -> tuple[PlayState, tuple[int, ...]]:
    """Play the record's Play section, checking every card against the hands and the rules."""
    state = rules.start()
    play = record.play
    if play is None:
        return state, ()
    leader = play.leader
    seat = small_number(leader.text)
    if not leader.text.strip():
        raise _error(record, "[Play] is empty", leader.line, leader.column, None,
                     f"a seat number from 1 to {rules.seats}")
    if seat is None or not 1 <= seat <= rules.seats:
        raise _error(record, "[Play] does not name a seat", leader.line, leader.column, leader.text,
                     f"a seat number from 1 to {rules.seats}")
    # flags given with the command or call (or a board's --variant) may be why the record's own rules are not met
    given = [f"{name}={value}" for name, value in (override or {}).items()]
    under = f" (with the variant flags given: {', '.join(given)})" if given else ""
    if seat - 1 != state.leader:
        if rules.game.is_whole(rules.deal):
            said = rules.game.first_leader_said(rules)
            # a flag the rule's words already state (Kratzen's first_leader) is not named again after them
            unsaid = [f"{name}={value}" for name, value in (override or {}).items()
                      if name not in rules.game.first_leader_flags]
            why = f"{said} (with the variant flags given: {', '.join(unsaid)})" if unsaid else said
        else:  # an ending is led as its [Leader] tag says, not as the rules would lead a whole deal
            why = "as [Leader] says" if record.tag("Leader") is not None else "in an ending without a [Leader] tag"
        raise _error(record, f"the first trick is led by seat {state.leader + 1} {why}",
                     leader.line, leader.column, leader.text, str(state.leader + 1))
    played: list[int] = []
    for number, line in enumerate(play.tricks):
        indices = [rules.pack.lookup(token.text) for token in line]
        for token, index in zip(line, indices):  # a word that is no card (a trick number, a '-') is named before it
            if index is None:  # miscounts its trick
                note = trick_number_note(token.text, "A line of the Play section holds the trick's cards alone") \
                    or rules.pack.unknown_note(token.text)
                raise _error(record, f"not a card of the {rules.game.name} pack{note}", token.line, token.column,
                             token.text, f"a {rules.game.name} card")
        if len(line) > rules.seats or (len(line) < rules.seats and number < len(play.tricks) - 1):
            token = line[-1] if line else leader
            raise _error(record, f"a trick has {rules.seats} cards; this line has {len(line)}", token.line,
                         token.column, token.text, f"{rules.seats} cards (only the last line may be shorter)")
        for token, index in zip(line, indices):
            assert index is not None  # refused above
            if state.is_over:
                raise _error(record, "the deal is over", token.line, token.column, token.text, "no more cards")
            seat = state.to_move
            if not state.hands[seat] >> index & 1:
                raise _error(record, f"seat {seat + 1} does not hold this card"
                             f"{card_whereabouts(state, index, [t.line for t in chain(*play.tricks)])}"
                             f"{_order_hint(rules, state, line)}",
                             token.line, token.column, token.text,
                             f"a card of seat {seat + 1}: {' '.join(rules.pack.names(state.hands[seat]))}")
            legal = state.legal_cards()
            if not legal >> index & 1:
                raise _error(record, f"seat {seat + 1} may not play this card here{under}: "
                             f"{rules.illegal_reason(state, index)}{_order_hint(rules, state, line)}", token.line,
                             token.column, token.text, f"one of {' '.join(rules.pack.names(legal))}")
            state = state.advance(index)
            played.append(index)
    return state, tuple(played)


def _order_hint(rules: Rules, state: PlayState, line: list) -> str:
    """What a refused card's trick line says about the reading order: who led the trick and the seats its cards are
    read as (a line is in playing order, the leader's card first), and the line in playing order when it was
    written in seat order (seat 1 first) and reads legally that way."""
    seats = rules.seats
    start = state.leader
    order = ", ".join(str((start + i) % seats + 1) for i in range(len(line)))
    hint = f"; seat {start + 1} led this trick, so its cards are read as seats {order} (playing order)"
    if start == 0 or len(line) != seats:
        return hint
    looked_up = [rules.pack.lookup(token.text) for token in line]
    indices = [index for index in looked_up if index is not None]
    if len(indices) != seats:
        return hint
    playing = [indices[(start + i) % seats] for i in range(seats)]  # the line taken as seat 1, 2, ... in turn
    hands = list(state.hands)
    for offset, card in enumerate(state.trick):  # back to the start of the trick
        hands[(start + offset) % seats] |= 1 << card
    trial = replace(state, hands=tuple(hands), trick=())
    for card in playing:
        if not trial.hands[trial.to_move] >> card & 1 or not trial.legal_cards() >> card & 1:
            return hint
        trial = trial.advance(card)
    written = " ".join(rules.pack[card].name for card in playing)
    return f"{hint}; written in seat order? In playing order it is legal: {written}"
