"""Zwanzigerrufen (Austrian tarock): RULES.md section 1.

Four seats, 40 cards (20 tarocks, four suits of five), 10 tricks, 88 card points. Contracts: Normal (forehand calls
a tarock partner), Solo (tarocks trump, alone against three), Suit Solo (tarocks not trump).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import reduce
from operator import or_
from typing import Callable, Hashable, Mapping, Sequence, cast

from ..announcements import (Announcement, announcement_error, bad_announcement, pagat_announcer,
                             parse_announcements)
from ..cards import build_pack
from ..deal import Deal
from ..errors import ContractFormError, InvalidContractError, StichError, UnknownContractError, did_you_mean, quoted
from ..formats.tbn import Record
from ..state import PlayState
from ..variant import Flag, Variant
from .outcome import (DealtBonus, ScoreItem, Scored, card_seat, declarers_word, declaring_side_said, seats_of,
                      total_payments, two_sided)
from .tables import Level, Reservation, RuleTables, SpecialWinner
from .base import (Contract, Game, Objective, PayoffComponent, Rules, SettlementItems,
                   TrickEvent, parse_words, points_objective, require, tricks_objective, unknown_objective)

_ROMAN = {
    4: ["IV", "IIII"], 5: ["V"], 6: ["VI"], 7: ["VII"], 8: ["VIII"], 9: ["IX", "VIIII"], 10: ["X"], 11: ["XI"],
    12: ["XII"], 13: ["XIII"], 14: ["XIV", "XIIII"], 15: ["XV"], 16: ["XVI"], 17: ["XVII"], 18: ["XVIII"],
    19: ["XIX", "XVIIII"], 20: ["XX"],
}


def _tarocks() -> list[tuple[str, str, str, int, int, list[str]]]:
    """The tarocks, strongest first: (token, suit, rank, points, order, aliases)."""
    cards = [("TS", "T", "S", 5, 22, ["SKUS", "SKÜS", "SKYS", "T22"]),
             ("T21", "T", "21", 5, 21, ["XXI", "MOND"])]
    for number in range(20, 3, -1):
        cards.append((f"T{number}", "T", str(number), 1, number, _ROMAN[number]))
    cards.append(("T1", "T", "1", 5, 1, ["I", "PAGAT"]))
    return cards


def _suit_ranks(glatze: str) -> list[tuple[str, int, list[str]]]:
    return [("K", 5, []), ("Q", 4, []), ("N", 3, ["C", "R"]), ("J", 2, []), ("G", 0, [glatze])]


#: What players write for cards this pack does not have (RULES.md 1.1), and what a message tells them instead.
_NOT_IN_THE_PACK = "tarocks II and III are left out of this pack (it has TS, T21 .. T4 and T1)"
_ABSENT = {token: _NOT_IN_THE_PACK for token in ("T2", "T3", "II", "III")}
_ABSENT.update({f"{suit}A": f"the {name} Glatze is {suit}10 (or {suit}G); the ace is the Glatze only in hearts and "
                            "diamonds" for suit, name in (("S", "spade"), ("C", "club"))})
_ABSENT.update({f"{suit}10": f"the {name} Glatze is {suit}A (or {suit}G); the 10 is the Glatze only in spades and "
                             "clubs" for suit, name in (("H", "heart"), ("D", "diamond"))})

PACK = build_pack(
    "Zwanzigerrufen",
    [("S", _suit_ranks("10")), ("C", _suit_ranks("10")), ("H", _suit_ranks("A")), ("D", _suit_ranks("A"))],
    sign_letters={"spades": "S", "clubs": "C", "hearts": "H", "diamonds": "D"},
    extra=_tarocks(),
    absent=_ABSENT,
)

TOTAL_POINTS = 88
CALL_ORDER = ("T20", "T19", "T18", "T17", "T16")


class ZwanzigerrufenRules(Rules):
    """Rule methods of RULES.md 1.3-1.6."""

    def __init__(self, *args, partner: int | None, pagat_announcer: int | None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        pack = self.pack
        self.tarocks = sum(c.mask for c in pack if c.suit == "T")
        self.suit_masks = {s: sum(c.mask for c in pack if c.suit == s) for s in "SCHD"}
        self.suit_cards = pack.full_mask & ~self.tarocks
        self.skus, self.mond, self.pagat = (pack.parse(n).index for n in ("TS", "T21", "T1"))
        self.order = {c.index: c.order for c in pack}
        self.suit_solo = self.contract.kind == "suitsolo"
        self.pagat_announcer = pagat_announcer
        side = {self.declarer}
        if partner is not None:
            side.add(partner)
        self.declaring_side = frozenset(side)

    # RULES.md 1.3 / 1.4 ----------------------------------------------------------------------------------------

    def legal_cards(self, state: PlayState) -> int:
        seat = state.to_move
        hand = state.hands[seat]
        if not state.trick:
            legal = hand
            if self.suit_solo and hand & self.suit_cards:
                legal = hand & self.suit_cards  # Suit Solo: lead a suit card while you hold one
        else:
            led = self.pack[state.trick[0]]
            if led.suit == "T":
                legal = hand & self.tarocks or hand
            else:
                legal = hand & self.suit_masks[led.suit]
                if not legal:
                    if self.suit_solo and self.variant["suit_solo_follow"] == "strict":
                        legal = hand & self.suit_cards or hand
                    else:
                        legal = hand & self.tarocks or hand
        if (self.variant["hard_pagat_reservation"] and seat == self.pagat_announcer
                and legal >> self.pagat & 1 and hand.bit_count() > 1 and legal != 1 << self.pagat):
            legal &= ~(1 << self.pagat)  # the announcer keeps the Pagat for the last trick unless forced
        return legal

    # RULES.md 1.5 ----------------------------------------------------------------------------------------------

    def is_sagotrick(self, trick: tuple[int, ...]) -> bool:
        """TS, T21 and T1 in one trick (in the order T21, TS, T1 under ``sagotrick=mond_skus_pagat``)."""
        mode = self.variant["sagotrick"]
        if mode == "off" or not {self.skus, self.mond, self.pagat} <= set(trick):
            return False
        if mode == "mond_skus_pagat":
            return trick.index(self.mond) < trick.index(self.skus) < trick.index(self.pagat)
        return True

    def trick_winner(self, trick: tuple[int, ...]) -> int:
        led = self.pack[trick[0]]
        if self.suit_solo and led.suit != "T":
            same = [c for c in trick if self.pack[c].suit == led.suit]
            return trick.index(self.highest(same, self.order))  # a tarock never wins a suit lead
        if self.is_sagotrick(trick):
            return trick.index(self.pagat)
        tarocks = [c for c in trick if self.pack[c].suit == "T"]
        if tarocks:
            return trick.index(self.highest(tarocks, self.order))
        same = [c for c in trick if self.pack[c].suit == led.suit]
        return trick.index(self.highest(same, self.order))

    def compile_tables(self) -> RuleTables:
        """RULES.md 1.3-1.5 as tables: classes T S C H D; tarocks outrank every suit except in a Suit Solo."""
        classes = "TSCHD"
        pack = self.pack
        card_class = tuple(classes.index(c.suit) for c in pack)
        power = []
        for led in classes:
            row = []
            for card in pack:
                if card.suit == "T" and (not self.suit_solo or led == "T"):
                    row.append(100 + card.order)
                elif card.suit == led:
                    row.append(card.order)
                else:
                    row.append(0)
            power.append(tuple(row))
        follow: list[tuple[Level, ...]] = [(Level(self.tarocks),)]
        for suit in "SCHD":
            void = self.suit_cards if self.suit_solo and self.variant["suit_solo_follow"] == "strict" else self.tarocks
            follow.append((Level(self.suit_masks[suit]), Level(void)))
        specials: tuple[SpecialWinner, ...] = ()
        mode = self.variant["sagotrick"]
        if mode != "off":
            order = (self.mond, self.skus, self.pagat) if mode == "mond_skus_pagat" else ()
            specials = (SpecialWinner((1 << self.skus) | (1 << self.mond) | (1 << self.pagat), self.pagat, order,
                                      1 if self.suit_solo else (1 << len(classes)) - 1),)
        reservations: tuple[Reservation, ...] = ()
        if self.variant["hard_pagat_reservation"] and self.pagat_announcer is not None:
            reservations = (Reservation(self.pagat, self.pagat_announcer, "Pagat"),)
        return RuleTables(len(pack), self.seats, self.points, card_class, len(classes), tuple(power), tuple(follow),
                          lead=(Level(self.suit_cards),) if self.suit_solo else (), specials=specials,
                          reservations=reservations)

    # RULES.md 1.6 ----------------------------------------------------------------------------------------------

    def objective_names(self) -> list[str]:
        names = ["points", "game", "absolut", "absolut_against", "valat", "valat_against"]
        if not self.suit_solo:
            names += list(SOLO_AND_NORMAL_ONLY)
        return names

    def objectives_left_out(self) -> dict[str, str]:
        if self.suit_solo:
            return dict.fromkeys(SOLO_AND_NORMAL_ONLY, "not in a Suit Solo (RULES.md 1.6)")
        return {}

    @property
    def called_card(self) -> int | None:
        return self.contract.card if self.contract.kind == "normal" else None

    def holder_side(self, card: int) -> frozenset[int] | None:
        """The side of the seat that was dealt ``card`` in this deal, or None if no hand holds it."""
        seat = self.deal.holder(card)
        return None if seat is None else self.side_of(seat)

    def objective(self, name: str, seat: int | None = None) -> Objective:
        d, o = self.declaring_side, self.defending_side
        who = declaring_side_said(d)
        if name == "points":
            return points_objective(self, d, name, f"card points {who} can force", None, TOTAL_POINTS)
        if name == "game":
            return points_objective(self, d, name, f"{who} reaches 45", 45, TOTAL_POINTS)
        if name == "absolut":
            return points_objective(self, d, name, f"{who} reaches 56 (Absolut)", 56, TOTAL_POINTS)
        if name == "absolut_against":
            held = f"the {declarers_word(d)}"  # a soloist is one player
            return points_objective(self, o, name, f"the defenders hold {held} to 32 or less (Absolut against)",
                                    self.held_to(32), TOTAL_POINTS)
        if name == "valat":
            return tricks_objective(self, d, name, f"{who} takes every trick (Valat)",
                                    self.tricks_in_deal)
        if name == "valat_against":
            return tricks_objective(self, o, name, "the defenders take every trick (Valat against)",
                                    self.tricks_in_deal)
        if name in ("pagat_ultimo", "pagat_beaten") and not self.suit_solo:
            side = self.holder_side(self.pagat)
            if side is None:
                raise InvalidContractError("Pagat Ultimo is decided: the Pagat is in no hand")
            if name == "pagat_ultimo":
                # T1 wins the last trick; without pagat_via_sagotrick a win with the Sküs present (only a Sagotrick
                # can do that) does not count.
                absent = 0 if self.variant["pagat_via_sagotrick"] else 1 << self.skus
                event = TrickEvent(1 << self.pagat, absent=absent, winner_card=self.pagat, last_only=True)
                return Objective(name, side, "the Pagat holder's side wins the last trick with the Pagat "
                                 "(Pagat Ultimo)",
                                 events=(event,), target=1, maximum=1, game=self.game.name)
            event = TrickEvent(1 << self.pagat, not_winner_card=self.pagat, last_only=True)
            other = frozenset(range(self.seats)) - side
            return Objective(name, other, "the Pagat is played to the last trick and beaten (silent loss)",
                             events=(event,), target=1, maximum=1, game=self.game.name)
        if name == "mondfang" and not self.suit_solo:
            side = self.holder_side(self.mond)
            if side is None:
                raise InvalidContractError("Mondfang is decided: the Mond (T21) is in no hand")
            event = TrickEvent((1 << self.skus) | (1 << self.mond), winner_card=self.skus)
            other = frozenset(range(self.seats)) - side
            # The Mond's own side may hold the Sküs: the side that scores it need not be the one that catches it.
            return Objective(name, other, "the Sküs wins a trick with the Mond in it, charged to the Mond's side "
                             "(Mondfang)", events=(event,), target=1, maximum=1, game=self.game.name)
        raise unknown_objective(self, name)


#: The objectives RULES.md 1.6 leaves out of a Suit Solo.
SOLO_AND_NORMAL_ONLY = ("pagat_ultimo", "pagat_beaten", "mondfang")


# RULES.md 1.7: scoring -------------------------------------------------------------------------------------------


#: Kontra level names by multiplier, for the reason texts.
LEVEL_NAMES = {1: "", 2: "Kontra", 4: "Retour", 8: "Supra", 16: "Resupra"}
#: What a side says on the game or a bonus, by whether the game is its contract or the bonus its announcement, for a
#: seat that said the other side's word: a declarer's second "Kontra" meant the Retour.
LEVEL_WORDS = {True: "answers a Kontra with Retour and a Supra with Resupra",
               False: "says Kontra, and answers a Retour with Supra"}
#: Silent values of the Zwanzigerrufen bonuses (Valat is a multiple of the game value instead).
SILENT_VALUES = {"absolut": 1, "pagat_ultimo": 1, "trull": 1, "four_kings": 2, "mondfang": 1}
BONUS_LABELS = {"game": "Game", "absolut": "Absolut", "pagat_ultimo": "Pagat Ultimo", "valat": "Valat",
                "trull": "Trull", "four_kings": "4 Kings", "mondfang": "Mondfang"}
#: The score item each bonus objective of a side is paid as (the other side's achievement of it included).
OBJECTIVE_BONUSES = {"absolut": "absolut", "absolut_against": "absolut", "valat": "valat", "valat_against": "valat",
                     "pagat_ultimo": "pagat_ultimo", "pagat_beaten": "pagat_ultimo", "mondfang": "mondfang"}
#: The bonuses a defender must announce as a 'dagegen' (RULES.md 1.7), as the refusal of a bare one names them: a
#: bare "Absolut" from a defender would otherwise bring the Kontra on the game that only "Absolut dagegen" says. (A
#: defender's bare "Pagat" brings nothing: Pagat dagegen needs a Kontra said on its own.)
AGAINST_BONUSES = {"absolut": "'Absolut dagegen' (it includes a Kontra on the game)",
                   "valat": "'Valat dagegen' (it includes a Kontra on the game)"}
#: RULES.md 1.7 order of the items.
BONUS_ORDER = ("absolut", "pagat_ultimo", "valat", "trull", "four_kings", "mondfang")
#: Bonuses that count in a Suit Solo besides the game (RULES.md 1.7).
SUIT_SOLO_BONUSES = ("absolut", "valat", "four_kings")


class AnnouncementCheck:
    """Turns a bad announcement into an error pointing at it: the item's place in the ``[Announcements]`` tag when
    the announcements are the record's, else a plain StichError that quotes it."""

    def __init__(self, record: Record | None, from_record: bool) -> None:
        self.record = record if from_record else None

    def fail(self, item: Announcement, message: str) -> StichError:
        return announcement_error(bad_announcement(item, message), item, self.record)


@dataclass
class Claims:
    """The announcements sorted out: which side announced which bonus, and the Kontra level on each item.

    Keys are (bonus, owning side); the game is owned by the declaring side."""

    announced: dict[tuple[str, frozenset[int]], Announcement] = field(default_factory=dict)
    levels: dict[tuple[str, frozenset[int]], int] = field(default_factory=dict)

    def level(self, bonus: str, side: frozenset[int]) -> int:
        return self.levels.get((bonus, side), 1)

    def owners(self, bonus: str) -> list[frozenset[int]]:
        return [side for (name, side) in self.announced if name == bonus]

    def __hash__(self) -> int:  # settlement tables are cached by the scoring inputs (Game.scoring_inputs)
        return hash((frozenset(self.announced.items()), frozenset(self.levels.items())))


def pagat_announcement_refusal(deal: Deal, seat: int) -> str | None:
    """Why ``seat`` (0-based) may not announce Pagat Ultimo on ``deal``, or None: the announcer commits to take the
    last trick with the Pagat (docs/scoring.md, "Reading chosen"), so only its holder announces it. An ending whose
    hands hold no Pagat accepts any seat's (it fails)."""
    holder = deal.holder(PACK.parse("T1").index)
    if holder is None or holder == seat:
        return None
    return (f"Pagat Ultimo is announced by the Pagat's holder, seat {holder + 1} (who announces it plays T1 to the "
            "last trick)")


def suit_solo_refusal(bonus: str) -> str:
    """Why ``bonus`` may not be announced in a Suit Solo: one wording for scoring and the rules of play, so that a
    Pagat Ultimo there is refused for the contract, not for its announcer."""
    return f"{BONUS_LABELS[bonus]} does not count in a Suit Solo (only Valat, Absolut and 4 Kings)"


def read_claims(rules: Rules, items: Sequence[Announcement], check: AnnouncementCheck) -> Claims:
    """Check the announcements against RULES.md 1.7 and collect them.

    A defender's Absolut or Valat is "dagegen" (a declarer's may not be; a declarer's bonus may be said "dazu", a
    defender's not); Absolut/Valat dagegen include a Kontra on the game, Pagat dagegen needs one. Pagat Ultimo is
    announced by the seat dealt the Pagat (:func:`pagat_announcement_refusal`; the rules of play refuse it too, but
    these announcements may be another list than the record's). A Kontra or Supra comes from the side opposing the
    item, a Retour or Resupra from its owner, each level only on top of the one below. A Suit Solo knows only Valat,
    Absolut and 4 Kings."""
    declarers = rules.declaring_side
    claims = Claims()
    suit_solo = rules.contract.kind == "suitsolo"
    for item in items:
        if item.level != 1:
            continue
        side = rules.side_of(item.seat - 1)
        if item.bonus == "game":
            raise check.fail(item, "the game is the contract and is not announced (say Kontra to double it)")
        if suit_solo and item.bonus not in SUIT_SOLO_BONUSES:
            raise check.fail(item, suit_solo_refusal(item.bonus))
        if item.against and side == declarers:
            raise check.fail(item, "'dagegen' is said by a defender; this seat declares")
        if item.dazu and side != declarers:
            needs = " with a Kontra on the game" if item.bonus == "pagat_ultimo" else ""
            raise check.fail(item, "'dazu' is said by a declarer; this seat defends (say "
                                   f"'{BONUS_LABELS[item.bonus]} dagegen'{needs})")
        if not item.against and side != declarers and item.bonus in AGAINST_BONUSES:
            raise check.fail(item, f"this seat defends: a defender announces {AGAINST_BONUSES[item.bonus]}")
        refusal = pagat_announcement_refusal(rules.deal, item.seat - 1) if item.bonus == "pagat_ultimo" else None
        if refusal is not None:
            raise check.fail(item, refusal)
        others = [owner for owner in claims.owners(item.bonus) if owner != side]
        if item.bonus == "pagat_ultimo" and others:
            raise check.fail(item, "Pagat Ultimo was already announced by the other side")
        if (item.bonus, side) in claims.announced:
            raise check.fail(item, f"{BONUS_LABELS[item.bonus]} was already announced by this side")
        claims.announced[(item.bonus, side)] = item
        if side != declarers and item.bonus in ("absolut", "valat"):
            claims.levels[("game", declarers)] = max(claims.level("game", declarers), 2)
    said: set[tuple[str, frozenset[int], int]] = set()
    for item in sorted((i for i in items if i.level != 1), key=lambda i: i.level):
        side = rules.side_of(item.seat - 1)
        owner_side = item.level in (4, 16)  # Retour and Resupra belong to the item's owner
        owner = side if owner_side else frozenset(range(rules.seats)) - side
        if (item.bonus, owner, item.level) in said:
            raise check.fail(item, f"{LEVEL_NAMES[item.level]} on {BONUS_LABELS[item.bonus]} was already said")
        said.add((item.bonus, owner, item.level))
        if item.bonus == "game":
            if owner != declarers:
                who = "declarers" if owner_side else "defenders"
                raise check.fail(item, f"{LEVEL_NAMES[item.level]} on the game is said by the {who} only; this seat "
                                       f"{'declares' if side == declarers else 'defends'}: its side "
                                       f"{LEVEL_WORDS[side == declarers]}")
        elif (item.bonus, owner) not in claims.announced:
            announcer = frozenset(range(rules.seats)) - owner
            if (item.bonus, announcer) in claims.announced:  # the word of the side that did not announce it
                whose = ("other side only; this seat's side announced it, and" if announcer == side else
                         "side that announced it only; the other side announced it: this seat's side")
                raise check.fail(item, f"{LEVEL_NAMES[item.level]} on {BONUS_LABELS[item.bonus]} is said by the "
                                       f"{whose} {LEVEL_WORDS[announcer == side]}")
            raise check.fail(item, f"{LEVEL_NAMES[item.level]} on {BONUS_LABELS[item.bonus]}, which "
                                   f"{'this' if owner_side else 'the other'} side did not announce")
        key = (item.bonus, owner)
        if item.level > 2 and claims.level(*key) < item.level // 2:
            raise check.fail(item, f"{LEVEL_NAMES[item.level]} needs a {LEVEL_NAMES[item.level // 2]} first")
        claims.levels[key] = max(claims.level(*key), item.level)
    for (bonus, side), item in claims.announced.items():
        if bonus == "pagat_ultimo" and side != declarers and claims.level("game", declarers) < 2:
            raise check.fail(item, "Pagat dagegen needs a Kontra on the game")
    return claims


@dataclass(frozen=True)
class TarockFacts:
    """Everything the Zwanzigerrufen items are decided by, as plain numbers: the declarers' card points and tricks,
    the Pagat in the last trick, the Monds caught. A played deal gives them (:meth:`from_state`); the double-dummy
    settlement makes them from the engine's component totals (solver/settlement.py), so both are scored by the same
    code and cannot disagree."""

    declarer_points: int
    declarer_tricks: int
    pagat_seat: int | None = None  # the seat that played T1 to the last trick
    pagat_wins: bool = False  # ... and won it in a way that counts (RULES.md 1.7, pagat_via_sagotrick)
    pagat_beaten: bool = False  # ... and another seat took that trick
    mond_losers: tuple[int, ...] = ()  # the seats whose T21 the Sküs caught
    declarer_captured: int | None = None  # cards the declarers took (only read under card_bonus_basis=captured)

    @classmethod
    def from_state(cls, rules: Rules, state: PlayState) -> "TarockFacts":
        pack = rules.pack
        skus, mond, pagat = (pack.parse(n).index for n in ("TS", "T21", "T1"))
        pagat_seat, wins, beaten = None, False, False
        last = state.history[-1] if state.history else None
        if last is not None and pagat in last.cards:
            pagat_seat = last.seat_of(last.cards.index(pagat), rules.seats)
            wins = last.winner == pagat_seat
            if wins and skus in last.cards and not rules.variant["pagat_via_sagotrick"]:
                wins = False
            beaten = last.winner != pagat_seat
        losers = []
        captured = 0
        for trick in state.history:
            if trick.winner in rules.declaring_side:
                for card in trick.cards:
                    captured |= 1 << card
            if skus in trick.cards and mond in trick.cards:
                if trick.winner == trick.seat_of(trick.cards.index(skus), rules.seats):
                    losers.append(trick.seat_of(trick.cards.index(mond), rules.seats))
        return cls(state.side_points(rules.declaring_side), state.side_tricks(rules.declaring_side), pagat_seat,
                   wins, beaten, tuple(losers), captured)


class TarockOutcome:
    """What the play achieved, per side: the facts every Zwanzigerrufen item is decided by."""

    def __init__(self, rules: Rules, facts: TarockFacts) -> None:
        self.rules = rules
        self.facts = facts
        self.everyone = frozenset(range(rules.seats))
        pack = rules.pack
        self.skus, self.mond, self.pagat = (pack.parse(n).index for n in ("TS", "T21", "T1"))
        self.kings = [pack.parse(s + "K").index for s in "SCHD"]
        self.declarer_points = facts.declarer_points

    def other(self, side: frozenset[int]) -> frozenset[int]:
        return self.everyone - side

    def side_tricks(self, side: frozenset[int]) -> int:
        tricks = self.facts.declarer_tricks
        return tricks if side == self.rules.declaring_side else self.rules.tricks_in_deal - tricks

    def pagat_last(self) -> tuple[int | None, bool]:
        """(seat that played T1 in the last trick or None, whether that T1 counts as winning it)."""
        return self.facts.pagat_seat, self.facts.pagat_wins

    def mondfangs(self) -> list[int]:
        """The seats whose T21 was caught by the Sküs (a Sagotrick is no Mondfang)."""
        return list(self.facts.mond_losers)

    def holds_together(self, side: frozenset[int], cards: list[int]) -> bool:
        """Trull / 4 Kings: one player of ``side`` was dealt them all, or (``captured``) the side took them all."""
        if self.rules.variant["card_bonus_basis"] == "captured":
            if self.facts.declarer_captured is None:
                raise StichError("Trull and 4 Kings from captured cards need the whole play (card_bonus_basis)")
            wanted = sum(1 << c for c in cards)
            taken = self.facts.declarer_captured
            if side != self.rules.declaring_side:
                # the dealt cards the declarers did not take: an ending's absent cards were taken by nobody
                taken = self.rules.deal.cards & ~taken
            return taken & wanted == wanted
        return dealt_together(self.rules.deal, cards) in side

    def achieved(self, bonus: str, side: frozenset[int]) -> bool:
        """Did ``side`` achieve ``bonus``? (Mondfang: catch the other side's Mond.)"""
        declaring = side == self.rules.declaring_side
        if bonus == "absolut":
            return self.declarer_points >= 56 if declaring else self.declarer_points <= 32
        if bonus == "valat":
            return self.side_tricks(side) == self.rules.tricks_in_deal
        if bonus == "pagat_ultimo":
            seat, wins = self.pagat_last()
            return seat is not None and seat in side and wins
        if bonus == "trull":
            return self.holds_together(side, [self.skus, self.mond, self.pagat])
        if bonus == "four_kings":
            return self.holds_together(side, self.kings)
        if bonus == "mondfang":
            return any(seat not in side for seat in self.mondfangs())
        raise ValueError(bonus)


def card_bonus_holder(rules: Rules, side: frozenset[int], bonus: str) -> str:
    """Who had the cards of a Trull or 4 Kings that ``side`` made: the seat dealt them (``card_bonus_basis=
    dealt_hand``), or the side that took them in its tricks (``captured``)."""
    names, what, how_many, _ = CARD_BONUSES[bonus]
    if rules.variant["card_bonus_basis"] == "captured":
        return f"{rules.describe_side(side)} took {how_many} in the tricks"  # as stich check says it
    seat = dealt_together(rules.deal, [rules.pack.parse(name).index for name in names])
    return f"seat {(seat or 0) + 1} was dealt {what}"


def dealt_together(deal: Deal, cards: Sequence[int]) -> int | None:
    """The seat dealt every one of ``cards`` (what :meth:`TarockOutcome.holds_together` asks of each seat of a
    side), or None."""
    wanted = sum(1 << card for card in cards)
    return next((seat for seat, hand in enumerate(deal.hands) if hand & wanted == wanted), None)


#: The bonuses the cards decide (RULES.md 1.6), with their cards and how a player says what they are.
CARD_BONUSES = {"trull": (("TS", "T21", "T1"), "TS T21 T1", "all three", "Trull"),
                "four_kings": (("SK", "CK", "HK", "DK"), "the four Kings", "all four", "4 Kings")}


def dealt_bonus(rules: Rules, state: PlayState, bonus: str) -> DealtBonus:
    """Trull or 4 Kings from the dealt hands (or, under ``card_bonus_basis=captured``, the tricks taken so far)."""
    names, what, how_many, title = CARD_BONUSES[bonus]
    cards = [rules.pack.parse(name).index for name in names]
    counts = rules.contract.kind != "suitsolo" or bonus in SUIT_SOLO_BONUSES
    if rules.variant["card_bonus_basis"] == "captured":
        description = f"one side takes {what} in its tricks ({title})"
        taken = [0] * rules.seats  # cards by the seat whose trick took them
        for trick in state.history:
            for card in trick.cards:
                taken[trick.winner] |= 1 << card
        wanted = sum(1 << card for card in cards)
        sides = {rules.side_of(seat) for seat in range(rules.seats) if taken[seat] & wanted}
        if wanted & ~rules.deal.cards:
            made, side, reason = False, frozenset[int](), f"the ending does not hold {how_many}"
        elif len(sides) > 1:
            made, side, reason = False, frozenset[int](), "the sides split them in the tricks"
        elif sides and reduce(or_, (taken[s] for s in next(iter(sides)))) & wanted == wanted:
            side = next(iter(sides))
            made, reason = True, f"{rules.describe_side(side)} took {how_many} in the tricks"
        else:
            made, side, reason = None, frozenset(), "the tricks still to come decide it (not searched)"
        seat = None
    else:
        description = f"one player was dealt {what} ({title})"
        dealt = dealt_together(rules.deal, cards)
        side = frozenset() if dealt is None else rules.side_of(dealt)
        made, seat = dealt is not None, None if dealt is None else dealt + 1
        reason = (f"seat {seat} was dealt them" if made else f"nobody was dealt {how_many}") + \
            "; decided by the deal, no search"
    if not counts:
        reason += "; does not count in a Suit Solo"
    return DealtBonus(bonus, description, seats_of(side), seat, made, counts,
                      "tricks" if rules.variant["card_bonus_basis"] == "captured" else "deal", reason)


def announced_dealt_bonus(rules: Rules, bonus: DealtBonus, claims: Claims | None) -> DealtBonus:
    """``bonus`` with its announcement said: made when the announcing side has it, else failed, which pays the other
    side (RULES.md 1.7), where the deal has decided it; an announcement it does not count under is said too."""
    owners = [] if claims is None else claims.owners(bonus.bonus)
    if not owners:
        return bonus
    side = owners[0]
    who = rules.describe_side(side)
    if not bonus.counts:
        said = f"announced by {who}, but it does not count here"
    elif bonus.made is None:
        said = f"announced by {who}: the tricks to come decide whether it is made"
    elif bonus.made and set(bonus.side) == {seat + 1 for seat in side}:
        said = f"announced by {who}: made"
    else:
        said = f"announced by {who}: fails, so the other side scores it"
    return replace(bonus, reason=f"{bonus.reason}; {said}")


def game_value(rules: Rules) -> int:
    kind = rules.contract.kind
    if kind == "solo":
        return cast(int, rules.variant["solo_value"])  # an int flag, checked when the variant was read
    return 4 if kind == "suitsolo" else 1


def bonus_base(rules: Rules, bonus: str, announced: bool) -> int:
    """Silent or announced value, with the Solo doubling (Valat only under ``double_valat_in_solo``)."""
    if bonus == "valat":
        base = game_value(rules) * (12 if announced else 6)
        doubled = rules.variant["double_valat_in_solo"]
    else:
        base = SILENT_VALUES[bonus] * (2 if announced else 1)
        doubled = True
    if rules.contract.kind == "solo" and doubled:
        base *= 2
    return base


def side_name(rules: Rules, side: frozenset[int]) -> str:
    """A side in a score reason: ``declarers 1+3``, ``defenders 2+3+4``, a soloist ``declarer, seat 1``."""
    if side != rules.declaring_side:
        return f"defenders {rules.describe_side(side)}"
    return f"declarer, {rules.describe_side(side)}" if len(side) == 1 else f"declarers {rules.describe_side(side)}"


def tarock_game_item(rules: Rules, outcome: TarockOutcome, claims: Claims) -> ScoreItem:
    declarers = rules.declaring_side
    points = outcome.declarer_points
    level = claims.level("game", declarers)
    value = game_value(rules)
    if points == 44 and rules.variant["tie_44"] == "no_score":
        return ScoreItem("game", (), value, level, False, 0, "44:44 scores nothing (tie_44=no_score)")
    who = f"the {declarers_word(declarers)}"  # a soloist is one player
    took = f"{who} took {points} point{'' if points == 1 else 's'} (45 needed)"  # T20..T4 count 1 point each
    if points >= 45:
        return _two_sided("game", rules, declarers, value, level, False, took)
    return _two_sided("game", rules, outcome.other(declarers), value, level, False, took)


def tarock_bonus_items(rules: Rules, outcome: TarockOutcome, claims: Claims, bonus: str) -> list[ScoreItem]:
    """The items of one bonus: each announcement settled (made, or failed to the other side); when nobody announced
    it, a silent achievement, or the silent Pagat beaten in the last trick."""
    label = BONUS_LABELS[bonus]
    items = []
    owners = claims.owners(bonus)
    for side in owners:
        base = bonus_base(rules, bonus, True)
        level = claims.level(bonus, side)
        against = side != rules.declaring_side
        if outcome.achieved(bonus, side):
            items.append(_two_sided(bonus, rules, side, base, level, True,
                                   f"{label} announced by the {side_name(rules, side)}: made", against))
        else:
            items.append(_two_sided(bonus, rules, outcome.other(side), base, level, True,
                                   f"{label} announced by the {side_name(rules, side)}: failed", against))
    if owners:
        return items
    base = bonus_base(rules, bonus, False)
    if bonus == "mondfang" and rules.variant["mondfang"] == "player":
        for seat in outcome.mondfangs():
            winners = outcome.everyone - {seat}
            items.append(ScoreItem(bonus, seats_of(winners), base, 1, False, base,
                                   f"seat {seat + 1} lost the Mond (charged to the player)", (seat + 1,)))
        return items
    for side in (rules.declaring_side, rules.defending_side):
        if outcome.achieved(bonus, side):
            reason = f"{label} made silently"
            if bonus == "mondfang":  # says whose Mond it was: a side can lose it to its own Sküs
                reason += ": the Sküs caught the Mond of " + " and ".join(f"seat {s + 1}" for s in outcome.mondfangs())
            elif bonus in CARD_BONUSES:  # the cards decide it, not the play: says whose cards they were
                reason += ": " + card_bonus_holder(rules, side, bonus)
            items.append(_two_sided(bonus, rules, side, base, 1, False, reason, side != rules.declaring_side))
    if bonus == "pagat_ultimo":
        pagat_seat = outcome.facts.pagat_seat
        if pagat_seat is not None and outcome.facts.pagat_beaten:
            side = rules.side_of(pagat_seat)
            items.append(_two_sided(bonus, rules, outcome.other(side), base, 1, False,
                                   f"silent Pagat of seat {pagat_seat + 1} beaten in the last trick",
                                   side != rules.declaring_side))
    return items


def apply_valat_mode(rules: Rules, outcome: TarockOutcome, items: list[ScoreItem]) -> tuple[list[ScoreItem], list[str]]:
    """``valat_mode``: what an achieved Valat does to the other items (a failed announced Valat is an ordinary
    item in every mode, even when the other side took every trick: it did not announce that Valat).

    A Valat item is made when its side achieved it: the side that announced it, or made it silently, which is the
    defenders for the item marked ``against`` (:func:`tarock_bonus_items`)."""
    mode = rules.variant["valat_mode"]
    made = [i for i in items if i.name == "valat" and outcome.achieved(
        "valat", rules.defending_side if i.against else rules.declaring_side)]
    if not made or mode == "separate":
        return items, []
    if mode == "replaces_game":
        return [i for i in items if i.name != "game"], ["the Valat replaces the game (valat_mode=replaces_game)"]
    if mode == "cancels_other_bonuses":
        return ([i for i in items if i.name in ("game", "valat")],
                ["the Valat cancels every other bonus (valat_mode=cancels_other_bonuses)"])
    valat = made[0]
    times = 12 if valat.announced else 6
    factor = times * valat.multiplier
    # the row keeps its own Kontra in the x column, as every other row does, and says how the factor is made
    made_of = f" ({times} x{valat.multiplier} {LEVEL_NAMES[valat.multiplier]})" if valat.multiplier > 1 else ""
    result = []
    for item in items:
        if item is valat:
            result.append(ScoreItem("valat", item.winners, times, item.multiplier, item.announced, 0,
                                    f"{item.reason}; multiplies every other item by {factor}{made_of}",
                                    item.losers, item.against))
        else:
            result.append(ScoreItem(item.name, item.winners, item.base * factor, item.multiplier, item.announced,
                                    item.value * factor, f"{item.reason}; x{factor} for the Valat", item.losers,
                                    item.against))
    return result, [f"the Valat multiplies every other item by {factor} (valat_mode=multiplies_total)"]


def score_items(rules: Rules, claims: Claims, facts: TarockFacts) -> tuple[list[ScoreItem], list[str]]:
    """The items of a deal from what its play achieved (``facts``: a played deal's, or an outcome the settlement
    search considers)."""
    outcome = TarockOutcome(rules, facts)
    items = [tarock_game_item(rules, outcome, claims)]
    bonuses = SUIT_SOLO_BONUSES if rules.contract.kind == "suitsolo" else BONUS_ORDER
    for bonus in BONUS_ORDER:
        if bonus in bonuses:
            items.extend(tarock_bonus_items(rules, outcome, claims, bonus))
    return apply_valat_mode(rules, outcome, items)


def _two_sided(name: str, rules: Rules, winner: frozenset[int], base: int, multiplier: int, announced: bool,
               reason: str, against: bool = False) -> ScoreItem:
    return two_sided(name, rules.seats, winner, base, multiplier, announced, reason, against)


def choose_announcements(rules: Rules, record: Record | None, announcements: object
                         ) -> tuple[list[Announcement], bool]:
    """The announcements to score with, and whether they are the record's: the argument (tag text or a list of
    Announcement) overrides the record's ``[Announcements]`` tag."""
    if announcements is None:
        text = record.get("Announcements") if record is not None else None
        return (parse_announcements(text, rules.seats) if text else []), True
    if isinstance(announcements, str):
        return parse_announcements(announcements, rules.seats), False
    if isinstance(announcements, (list, tuple)) and all(isinstance(a, Announcement) for a in announcements):
        return list(announcements), False
    raise StichError("announcements are the [Announcements] tag's text ('2: Kontra; 1: Pagat') or a list of "
                     f"Announcement, not {announcements!r}")


def settlement_components(rules: Rules, state: PlayState
                          ) -> tuple[list[PayoffComponent], Callable[[tuple[int, ...]], TarockFacts]]:
    """Points (thresholds 33, 44, 45, 56), tricks (0, all), and where the Pagat and the Mond can still be decided,
    the Pagat-ultimo, Pagat-beaten and Mondfang events; with the facts a tuple of component values stands for."""
    declarers = rules.declaring_side
    tricks = rules.tricks_in_deal
    skus, mond, pagat = (PACK.parse(n).index for n in ("TS", "T21", "T1"))
    game = rules.game.name
    components = [
        PayoffComponent("points", Objective("points", declarers, "declarer card points", points_weight=1),
                        (33, 44, 45, 56)),
        PayoffComponent("tricks", Objective("tricks", declarers, "declarer tricks", trick_weight=1),
                        tuple(sorted({1, tricks}))),
    ]
    bonuses = rules.contract.kind != "suitsolo"
    pagat_seat = card_seat(state, pagat)
    mond_seat = card_seat(state, mond)
    if bonuses and pagat_seat is not None:
        absent = 0 if rules.variant["pagat_via_sagotrick"] else 1 << skus
        components.append(PayoffComponent("pagat_ultimo", Objective(
            "pagat_ultimo", declarers, "T1 wins the last trick",
            events=(TrickEvent(1 << pagat, absent=absent, winner_card=pagat, last_only=True),), game=game), (1,)))
        components.append(PayoffComponent("pagat_beaten", Objective(
            "pagat_beaten", declarers, "T1 is beaten in the last trick",
            events=(TrickEvent(1 << pagat, not_winner_card=pagat, last_only=True),), game=game), (1,)))
    if bonuses and mond_seat is not None:
        components.append(PayoffComponent("mondfang", Objective(
            "mondfang", declarers, "the Sküs catches the Mond",
            events=(TrickEvent((1 << skus) | (1 << mond), winner_card=skus),), game=game), (1,)))

    def facts(values: tuple[int, ...]) -> TarockFacts:
        named = dict(zip((c.name for c in components), values))
        wins, beaten = bool(named.get("pagat_ultimo")), bool(named.get("pagat_beaten"))
        return TarockFacts(named["points"], named["tricks"], pagat_seat if (wins or beaten) else None, wins,
                           beaten and not wins, (mond_seat,) if named.get("mondfang") and mond_seat is not None else ())

    return components, facts


class Zwanzigerrufen(Game):
    """Zwanzigerrufen, Austrian tarock (RULES.md 1): four players, ten cards each from the 40-card tarock pack;
    the Normal game (forehand calls a tarock's holder as partner), Solo and Suit Solo; 88 card points, 45 win."""

    name = "Zwanzigerrufen"
    shared_contract_text = "a Normal game's"  # the payment note of contract advice
    shared_contract_kind = "normal"
    aliases = ("zwanzigerrufen", "zr", "zw", "tarock", "tarok", "zwanzger")
    pack = PACK
    suit_words = {"S": "spades", "C": "clubs", "H": "hearts", "D": "diamonds"}
    rank_words = {"K": "King", "Q": "Queen", "N": "Knight", "J": "Jack", "G": "Glatze"}
    rank_first = True
    card_words = {card.name: f"Tarock {card.rank}" for card in PACK if card.suit == "T"} | {
        "TS": "the Sküs", "T21": "Tarock 21, the Mond", "T1": "Tarock 1, the Pagat"}
    seat_counts = (4,)
    hand_size = 10
    has_announcements = True
    own_announcements = (("Absolut", ""), ("Valat", ""), ("Pagat Ultimo", "T1"), ("Trull", "TS T21 T1"),
                         ("4 Kings", "SK CK HK DK"))
    defender_forms = {"Absolut": "Absolut dagegen", "Valat": "Valat dagegen", "Pagat Ultimo": "Kontra, Pagat dagegen"}
    defender_only = ("Kontra",)
    side_worded_bonuses = frozenset(AGAINST_BONUSES)
    contract_words = {"SuitSolo": "Suit Solo"}  # RULES.md 1.2
    contract_help = "Normal [T20..T16] | Solo | SuitSolo"
    objectives = ("points", "game", "absolut", "absolut_against", "valat", "valat_against", "pagat_ultimo",
                  "pagat_beaten", "mondfang")
    flags = {f.name: f for f in [
        Flag("tie_44", ("declarers_lose", "no_score"), "declarers_lose",
             "44:44 loses for the declarers, or scores nothing"),
        Flag("solo_value", int, 4, "game value of a Solo", 4, 5),
        Flag("called_tarock", ("highest", "any"), "highest",
             "a Normal game calls the highest of T20..T16 forehand lacks, or any she lacks (bid check)"),
        Flag("suit_solo_min_suit_cards", int, 5, "suit cards a Suit Solo declarer must hold (bid check)", 0, 10),
        Flag("hard_pagat_reservation", bool, False, "a Pagat announcer may not play T1 before the last trick"),
        Flag("suit_solo_follow", ("tarockzwang", "strict"), "tarockzwang",
             "Suit Solo: void players must tarock, or must play a suit card"),
        Flag("sagotrick", ("any_order", "mond_skus_pagat", "off"), "any_order", "T1 wins a trick holding TS, T21, T1"),
        Flag("pagat_via_sagotrick", bool, True, "a Pagat won in the last trick by a Sagotrick counts"),
        Flag("mondfang", ("team", "player"), "team", "the Mondfang is charged to the T21 player's side or the player"),
        Flag("card_bonus_basis", ("dealt_hand", "captured"), "dealt_hand",
             "Trull and 4 Kings from dealt or captured cards"),
        Flag("valat_mode", ("separate", "replaces_game", "cancels_other_bonuses", "multiplies_total"), "separate",
             "how Valat combines with the other items"),
        Flag("double_valat_in_solo", bool, False, "a Solo doubles the Valat too"),
    ]}

    @classmethod
    def read_contract(cls, text: str) -> Contract:
        words = parse_words(text)
        kind = words[0].lower()
        if kind in ("normal", "rufer", "call") :
            if len(words) == 1:
                return Contract(cls.name, "normal", text="Normal")
            if len(words) != 2:
                raise ContractFormError(f"contract {quoted(text)}: expected Normal or Normal T20..T16")
            card = PACK.lookup(words[1])
            if card is None or PACK[card].name not in CALL_ORDER:
                raise InvalidContractError(f"contract {quoted(text)}: the called card must be one of "
                                           f"{', '.join(CALL_ORDER)}")
            return Contract(cls.name, "normal", card=card, text=f"Normal {PACK[card].name}")
        if kind in ("solo", "schwarzer") and len(words) == 1:
            return Contract(cls.name, "solo", text="Solo")
        if kind in ("suitsolo", "farbensolo") and len(words) == 1:
            return Contract(cls.name, "suitsolo", text="SuitSolo")
        if kind == "suit" and len(words) == 2 and words[1].lower() == "solo":
            return Contract(cls.name, "suitsolo", text="SuitSolo")
        # the other words read for each contract ("Rufr": 'Normal'), naming the contract
        close = did_you_mean(words[0], {"Normal": "Normal", "Rufer": "Normal", "Call": "Normal", "Solo": "Solo",
                                        "Schwarzer": "Solo", "SuitSolo": "SuitSolo", "Farbensolo": "SuitSolo"})
        raise UnknownContractError(cls.name, text, close, cls.contract_help)

    @classmethod
    def called_card(cls, deal: Deal) -> int:
        """RULES.md 1.2: the highest of T20..T16 that forehand does not hold."""
        for name in CALL_ORDER:
            card = PACK.parse(name).index
            if not deal.hands[0] >> card & 1:
                return card
        raise InvalidContractError("forehand holds T20, T19, T18, T17 and T16: she must play Solo")

    @classmethod
    def hidden_in_contract(cls, contract: Contract) -> str | None:
        return "the called card (Normal T20..T16)" if contract.kind == "normal" and contract.card is None else None

    @classmethod
    def cards_announced(cls, state_tags: Mapping[str, object]) -> dict[int, int]:
        announcer = state_tags.get("pagat_announcer")  # a 1-based seat (Game.rules checked it)
        if announcer is None:
            return {}
        return {int(announcer) - 1: 1 << PACK.parse("T1").index}  # type: ignore[call-overload]

    state_tags = {"partner": int, "pagat_announcer": int}
    record_tags = {"partner": "Partner", "pagat_announcer": "Announcements"}
    hidden_state_tags = frozenset({"partner"})
    dealt_bonus_names = tuple(CARD_BONUSES)  # RULES.md 1.6: the Trull and the 4 Kings
    bonus_names = ("valat", "valat_against", "absolut", "absolut_against", "pagat_ultimo", "pagat_beaten",
                   "mondfang")
    bench_seed = 2020
    bench_lines = (
        dict(name="Zwanzigerrufen Normal: exact points", contract="Normal", objective="points",
             target_median_ms=10, target_p99_ms=200),
        dict(name="Zwanzigerrufen Normal: points + every opening card", contract="Normal", objective="points",
             cards=True, target_median_ms=50),
        dict(name="Zwanzigerrufen Normal: Valat yes/no", contract="Normal", objective="valat", question="reaches",
             target_median_ms=2),
        dict(name="Zwanzigerrufen Normal: Pagat Ultimo yes/no", contract="Normal", objective="pagat_ultimo",
             question="reaches", target_median_ms=2),
    )
    bench_endings = (("Normal", "Normal"),)

    @classmethod
    def state_tag_text(cls, name: str, value: object) -> tuple[str, str]:
        if name == "pagat_announcer":  # the announcement that places the Pagat (1.7)
            return "Announcements", f"{value}: Pagat Ultimo"
        return super().state_tag_text(name, value)

    @classmethod
    def announced_state(cls, announcements: Sequence[Announcement]) -> dict[str, object]:
        return {"pagat_announcer": pagat_announcer(list(announcements))} if announcements else {}

    @classmethod
    def idle_flags(cls, variant: Variant, tags: Mapping[str, object], contract: Contract) -> list[str]:
        if not variant["hard_pagat_reservation"]:
            return []
        if contract.kind == "suitsolo":  # RULES.md 1.6-1.7: no Pagat Ultimo in a Suit Solo, so none announced
            return ["hard_pagat_reservation changes nothing here: a Suit Solo has no Pagat Ultimo to announce"]
        if tags.get("pagat_announcer") is None:
            return ["hard_pagat_reservation changes nothing here: nobody announced the Pagat (announce it with "
                    "--announce 'N: Pagat', or analyse from a record with [Announcements])"]
        return []

    @classmethod
    def state_tags_for(cls, contract: Contract) -> frozenset[str]:
        return frozenset({"partner", "pagat_announcer"} if contract.kind == "normal" else {"pagat_announcer"})

    @classmethod
    def scoring_inputs(cls, rules: Rules, record: Record | None, *, pot: object = None,
                       announcements: object = None) -> Claims:
        """The announcements (the argument, else the record's tag) checked against RULES.md 1.7."""
        chosen, from_record = choose_announcements(rules, record, announcements)
        return read_claims(rules, chosen, AnnouncementCheck(record, from_record))

    @classmethod
    def score(cls, rules: Rules, state: PlayState, inputs: object) -> Scored:
        items, notes = score_items(rules, cast(Claims, inputs), TarockFacts.from_state(rules, state))
        return Scored(tuple(items), total_payments(items, rules.seats), tuple(notes))

    @classmethod
    def drawn_game_total(cls, rules: Rules) -> int | None:
        """44 under ``tie_44=no_score``: 44:44 scores nothing (RULES.md 1.1), a win for neither side."""
        return 44 if rules.variant["tie_44"] == "no_score" else None

    @classmethod
    def game_item_on_points(cls, rules: Rules) -> bool:
        """The game item is the declarers' at 45 card points (RULES.md 1.7), whatever the bonuses; an ending's too,
        which is scored on the cards it holds as a whole deal would be (docs/json.md), as its points' post-mortem
        draws the 45."""
        return cls.game_line_decides(rules)

    @classmethod
    def unscored_bonuses(cls, rules: Rules, inputs: object) -> frozenset[str]:
        """A bonus one side announced is settled by that announcement alone (RULES.md 1.7: made, or failed to the
        other side): the other side's silent achievement of it (an Absolut against after the declarers announced
        Absolut, a silent Pagat beaten after the Pagat was announced, by its holder's side or as a 'dagegen' by
        the other) scores nothing."""
        claims = cast(Claims, inputs)
        unscored = set()
        for name, bonus in OBJECTIVE_BONUSES.items():
            owners = claims.owners(bonus)
            if not owners or name not in rules.objective_names():
                continue
            try:
                side = rules.objective(name).maximiser
            except InvalidContractError:  # decided already (the Pagat in no hand)
                continue
            if side not in owners or name == "pagat_beaten":  # the silent loss: an announced Pagat fails however
                unscored.add(name)
        return frozenset(unscored)

    @classmethod
    def scored_as(cls, rules: Rules, inputs: object) -> dict[str, str]:
        """An unscored bonus whose item an announcement settles (:data:`OBJECTIVE_BONUSES`: the same item) is
        scored as the announced objective of that item that does score: a silent Pagat beaten after the Pagat was
        announced is the announced ``pagat_ultimo`` failed, an Absolut against after an announced Absolut the
        ``absolut`` failed (RULES.md 1.7)."""
        unscored = cls.unscored_bonuses(rules, inputs)
        scored = [name for name in OBJECTIVE_BONUSES if name in rules.objective_names() and name not in unscored]
        return {name: other for name in sorted(unscored) if name in OBJECTIVE_BONUSES
                for other in scored if OBJECTIVE_BONUSES[other] == OBJECTIVE_BONUSES[name]}

    @classmethod
    def dealt_bonuses(cls, rules: Rules, state: PlayState, inputs: object = None) -> tuple[DealtBonus, ...]:
        """Trull and 4 Kings (RULES.md 1.6): decided by the deal, or under ``captured`` by the tricks; an announced
        one says whether the announcement is made or fails (RULES.md 1.7: a failed one goes to the other side)."""
        claims = inputs if isinstance(inputs, Claims) else None
        return tuple(announced_dealt_bonus(rules, dealt_bonus(rules, state, bonus), claims) for bonus in CARD_BONUSES)

    @classmethod
    def item_title(cls, name: str) -> str:
        """The rule book's names (docs/scoring.md): Pagat Ultimo, 4 Kings, ..."""
        return BONUS_LABELS.get(name, name)

    @classmethod
    def objective_title(cls, name: str) -> str:
        """The item each bonus objective is paid as (:data:`OBJECTIVE_BONUSES`); ``pagat_beaten``, the Pagat played
        to the last trick and beaten (its silent loss, RULES.md 1.6), is ``Pagat Ultimo beaten``."""
        if name == "pagat_beaten":
            return f"{cls.item_title('pagat_ultimo')} beaten"
        return cls.item_title(OBJECTIVE_BONUSES.get(name, name))

    @classmethod
    def settlement_unsupported(cls, rules: Rules) -> str | None:
        if rules.variant["card_bonus_basis"] == "captured":
            return ("the double-dummy settlement does not support card_bonus_basis=captured (Trull and 4 Kings "
                    "would depend on every captured card)")
        return None

    @classmethod
    def settlement_items(cls, rules: Rules, state: PlayState, inputs: object) -> SettlementItems:
        reason = cls.settlement_unsupported(rules)
        if reason is not None:
            raise StichError(reason)
        claims = cast(Claims, inputs)
        components, facts = settlement_components(rules, state)
        return components, lambda values: score_items(rules, claims, facts(values))[0]

    @classmethod
    def settlement_key(cls, rules: Rules, state: PlayState, inputs: object) -> Hashable:
        """What :func:`score_items` reads besides the component values: the contract kind and the variant (game
        value, tie_44, the bonus values, valat_mode, mondfang), the seats, the sides and the tricks, the claims,
        the seats of the Pagat and the Mond (the facts of the components) and who was dealt the Trull and the four
        Kings together (card_bonus_basis=dealt_hand; ``captured`` has no settlement)."""
        skus, mond, pagat = (PACK.parse(n).index for n in ("TS", "T21", "T1"))
        kings = [PACK.parse(s + "K").index for s in "SCHD"]
        return (rules.contract.kind, rules.variant, rules.seats, rules.declaring_side, rules.tricks_in_deal, inputs,
                card_seat(state, pagat), card_seat(state, mond), dealt_together(rules.deal, [skus, mond, pagat]),
                dealt_together(rules.deal, kings))

    @classmethod
    def declarer_refusal(cls, contract: Contract, declarer: int) -> str | None:
        return "in a Normal game forehand (seat 1) is the declarer" if contract.kind == "normal" and declarer != 1 \
            else None

    @classmethod
    def make_rules(cls, deal, contract, declarer, variant, leader, state_tags):
        whole = cls.is_whole(deal)
        partner = None
        refusal = cls.declarer_refusal(contract, declarer + 1)
        if refusal is not None:
            raise InvalidContractError(refusal)
        if contract.kind == "normal":
            if contract.card is None:
                require(whole, "an ending must name its called card (Normal T20..T16)")
                card = cls.called_card(deal)
            else:
                card = contract.card
            if deal.hands[0] >> card & 1:
                raise InvalidContractError(f"forehand holds {PACK[card].name}: she cannot call her own card")
            if whole and contract.card is not None and variant["called_tarock"] == "highest":
                highest = cls.called_card(deal)
                require(card == highest, "forehand calls the highest of T20..T16 she does not hold: "
                                         f"{PACK[highest].name}, not {PACK[card].name} (variant flag "
                                         "called_tarock=any allows any)")
            partner = deal.holder(card)
            if state_tags.get("partner") is not None:
                named = int(state_tags["partner"]) - 1  # type: ignore[arg-type]
                require(partner is None or partner == named,
                        f"the partner is the holder of {PACK[card].name}, seat {(partner or 0) + 1}", "partner")
                require(0 < named < deal.seats, f"partner seat {named + 1} is not a seat other than forehand's",
                        "partner")
                partner = named
            if partner is None:
                raise InvalidContractError(
                    f"the called card {PACK[card].name} is in no hand: name the partner with [Partner \"N\"]")
            contract = Contract(cls.name, "normal", card=card, text=f"Normal {PACK[card].name}")
        if contract.kind == "suitsolo" and whole:
            needed = variant["suit_solo_min_suit_cards"]
            suit_cards = sum(1 for c in PACK if c.suit != "T" and deal.hands[declarer] >> c.index & 1)
            require(suit_cards >= needed,
                    f"a Suit Solo declarer needs at least {needed} suit cards, seat {declarer + 1} holds {suit_cards} "
                    "(variant flag suit_solo_min_suit_cards)")
        announcer = state_tags.get("pagat_announcer")
        announcer = None if announcer is None else int(announcer) - 1  # type: ignore[arg-type]
        # the contract first: a Suit Solo counts no Pagat, whoever holds it (as read_claims says)
        refusal = (None if announcer is None else suit_solo_refusal("pagat_ultimo") if contract.kind == "suitsolo"
                   else pagat_announcement_refusal(deal, announcer))
        if refusal is not None:  # as scoring refuses it: play would reserve T1 for a seat without it
            raise InvalidContractError(bad_announcement(Announcement(announcer + 1, "pagat_ultimo"), refusal),
                                       about="pagat_announcer")
        return ZwanzigerrufenRules(cls, deal, contract, declarer, variant, leader=0 if leader is None else leader,
                                   partner=partner, pagat_announcer=announcer)

    @classmethod
    def default_contracts(cls, rng) -> list[str]:
        return ["Normal"]

    passed_game_text = ("forehand's Normal game (a Solo where she holds T20..T16), the seat her partner where it "
                        "holds the called tarock, else against her")

    @classmethod
    def passed_game(cls, deal: Deal, seat: int, variant: Variant | Mapping[str, object] | None = None
                    ) -> tuple[str, int] | None:
        # 1.2: when nobody announces, forehand plays her Normal game (a Solo where she holds T20..T16); she herself
        # cannot pass, her Normal game is what she announces
        if seat == 1:
            return None
        try:
            cls.rules(deal, "Normal", declarer=1, variant=variant)
        except InvalidContractError:
            return "Solo", 1
        return "Normal", 1

    @classmethod
    def contract_choices(cls, contract: Contract) -> list[str]:
        # 1.2: forehand calls one of T20..T16 (the highest she lacks, or any under called_tarock=any)
        if contract.kind == "normal" and contract.card is None:
            return [f"Normal T{rank}" for rank in range(20, 15, -1)]
        return [contract.text]

    @classmethod
    def _contracts(cls, deal: Deal, variant: Variant, like: Contract | None,
                   declarer: int | None) -> list[tuple[Contract, int]]:
        # The Normal game always has its row: where forehand holds T20..T16 the table lists it as not biddable.
        result: list[tuple[Contract, int]] = [(Contract(cls.name, "normal", text="Normal"), 1)]
        for seat in range(1, 5):
            result.append((Contract(cls.name, "solo", text="Solo"), seat))
        for seat in range(1, 5):
            result.append((Contract(cls.name, "suitsolo", text="SuitSolo"), seat))
        return result
