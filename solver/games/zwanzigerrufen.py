"""Zwanzigerrufen (Austrian tarock): RULES.md section 1.

Four seats, 40 cards (20 tarocks, four suits of five), 10 tricks, 88 card points. Contracts: Normal (forehand calls
a tarock partner), Solo (tarocks trump, alone against three), Suit Solo (tarocks not trump).
"""

from __future__ import annotations

from typing import Mapping

from ..cards import build_pack
from ..deal import Deal
from ..errors import InvalidContractError
from ..state import PlayState
from ..variant import Flag, Variant
from .tables import Level, Reservation, RuleTables, SpecialWinner
from .base import (Contract, Game, Objective, Rules, TrickEvent, parse_words, points_objective, require,
                   tricks_objective, unknown_objective)

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


PACK = build_pack(
    "Zwanzigerrufen",
    [("S", _suit_ranks("10")), ("C", _suit_ranks("10")), ("H", _suit_ranks("A")), ("D", _suit_ranks("A"))],
    sign_letters={"spades": "S", "clubs": "C", "hearts": "H", "diamonds": "D"},
    extra=_tarocks(),
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
            reservations = (Reservation(self.pagat, self.pagat_announcer),)
        return RuleTables(len(pack), self.seats, self.points, card_class, len(classes), tuple(power), tuple(follow),
                          lead=(Level(self.suit_cards),) if self.suit_solo else (), specials=specials,
                          reservations=reservations)

    # RULES.md 1.6 ----------------------------------------------------------------------------------------------

    def objective_names(self) -> list[str]:
        names = ["points", "game", "absolut", "absolut_against", "valat", "valat_against"]
        if not self.suit_solo:
            names += ["pagat_ultimo", "pagat_beaten", "mondfang"]
        return names

    def holder_side(self, card: int) -> frozenset[int] | None:
        """The side of the seat that was dealt ``card`` in this deal, or None if no hand holds it."""
        seat = self.deal.holder(card)
        return None if seat is None else self.side_of(seat)

    def objective(self, name: str, seat: int | None = None) -> Objective:
        d, o = self.declaring_side, self.defending_side
        if name == "points":
            return points_objective(self, d, name, "card points the declaring side can force", None, TOTAL_POINTS)
        if name == "game":
            return points_objective(self, d, name, "the declaring side reaches 45", 45, TOTAL_POINTS)
        if name == "absolut":
            return points_objective(self, d, name, "the declaring side reaches 56 (Absolut)", 56, TOTAL_POINTS)
        if name == "absolut_against":
            return points_objective(self, o, name, "the defenders hold the declarers to 32 or less",
                                    self.held_to(32), TOTAL_POINTS)
        if name == "valat":
            return tricks_objective(self, d, name, "the declaring side takes every trick (Valat)",
                                    self.tricks_in_deal)
        if name == "valat_against":
            return tricks_objective(self, o, name, "the defenders take every trick (Valat against)",
                                    self.tricks_in_deal)
        if name in ("pagat_ultimo", "pagat_beaten") and not self.suit_solo:
            side = self.holder_side(self.pagat)
            if side is None:
                raise InvalidContractError("Pagat Ultimo is decided: the Pagat is in no hand")
            if name == "pagat_ultimo":
                # T1 wins the last trick; without pagat_via_sagotrick a win with the Skus present (only a Sagotrick
                # can do that) does not count.
                absent = 0 if self.variant["pagat_via_sagotrick"] else 1 << self.skus
                event = TrickEvent(1 << self.pagat, absent=absent, winner_card=self.pagat, last_only=True)
                return Objective(name, side, "the Pagat holder's side wins the last trick with the Pagat",
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
            return Objective(name, other, "the side without the Mond catches it with the Skus (Mondfang)",
                             events=(event,), target=1, maximum=1, game=self.game.name)
        raise unknown_objective(self, name)


class Zwanzigerrufen(Game):
    """Zwanzigerrufen, Austrian tarock (RULES.md 1): four players, ten cards each from the 40-card tarock pack;
    the Normal game (forehand calls a tarock's holder as partner), Solo and Suit Solo; 88 card points, 45 win."""

    name = "Zwanzigerrufen"
    aliases = ("zwanzigerrufen", "zr", "tarock", "tarok", "zwanzger")
    pack = PACK
    seat_counts = (4,)
    hand_size = 10
    has_announcements = True
    contract_help = "Normal [T20..T16] | Solo | SuitSolo"
    objectives = ("points", "game", "absolut", "absolut_against", "valat", "valat_against", "pagat_ultimo",
                  "pagat_beaten", "mondfang")
    flags = {f.name: f for f in [
        Flag("tie_44", ("declarers_lose", "no_score"), "declarers_lose", "44:44 loses for the declarers, or scores nothing"),
        Flag("solo_value", int, 4, "game value of a Solo", 4, 5),
        Flag("called_tarock", ("highest", "any"), "highest", "a Normal game calls the highest of T20..T16 forehand lacks, or any she lacks (bid check)"),
        Flag("suit_solo_min_suit_cards", int, 5, "suit cards a Suit Solo declarer must hold (bid check)", 0, 10),
        Flag("hard_pagat_reservation", bool, False, "a Pagat announcer may not play T1 before the last trick"),
        Flag("suit_solo_follow", ("tarockzwang", "strict"), "tarockzwang", "Suit Solo: void players must tarock, or must play a suit card"),
        Flag("sagotrick", ("any_order", "mond_skus_pagat", "off"), "any_order", "T1 wins a trick holding TS, T21, T1"),
        Flag("pagat_via_sagotrick", bool, True, "a Pagat won in the last trick by a Sagotrick counts"),
        Flag("mondfang", ("team", "player"), "team", "the Mondfang is charged to the T21 player's side or the player"),
        Flag("card_bonus_basis", ("dealt_hand", "captured"), "dealt_hand", "Trull and 4 Kings from dealt or captured cards"),
        Flag("valat_mode", ("separate", "replaces_game", "cancels_other_bonuses", "multiplies_total"), "separate", "how Valat combines with the other items"),
        Flag("double_valat_in_solo", bool, False, "a Solo doubles the Valat too"),
    ]}

    @classmethod
    def read_contract(cls, text: str) -> Contract:
        words = parse_words(text)
        if not words:
            raise InvalidContractError("empty contract (expected Normal, Normal T19, Solo or SuitSolo)")
        kind = words[0].lower()
        if kind in ("normal", "rufer", "call") :
            if len(words) == 1:
                return Contract(cls.name, "normal", text="Normal")
            require(len(words) == 2, f"contract {text!r}: expected Normal or Normal T20..T16")
            card = PACK.lookup(words[1])
            if card is None or PACK[card].name not in CALL_ORDER:
                raise InvalidContractError(f"contract {text!r}: the called card must be one of {', '.join(CALL_ORDER)}")
            return Contract(cls.name, "normal", card=card, text=f"Normal {PACK[card].name}")
        if kind in ("solo", "schwarzer") and len(words) == 1:
            return Contract(cls.name, "solo", text="Solo")
        if kind in ("suitsolo", "farbensolo") and len(words) == 1:
            return Contract(cls.name, "suitsolo", text="SuitSolo")
        if kind == "suit" and len(words) == 2 and words[1].lower() == "solo":
            return Contract(cls.name, "suitsolo", text="SuitSolo")
        raise InvalidContractError(f"unknown Zwanzigerrufen contract {text!r} (expected {cls.contract_help})")

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

    @classmethod
    def state_tags_for(cls, contract: Contract) -> frozenset[str]:
        return frozenset({"partner", "pagat_announcer"} if contract.kind == "normal" else {"pagat_announcer"})

    @classmethod
    def make_rules(cls, deal, contract, declarer, variant, leader, state_tags):
        whole = cls.is_whole(deal)
        partner = None
        if contract.kind == "normal":
            require(declarer == 0, "in a Normal game forehand (seat 1) is the declarer")
            if contract.card is None:
                require(whole, "an ending must name its called card (Normal T20..T16)")
                card = cls.called_card(deal)
            else:
                card = contract.card
            if deal.hands[0] >> card & 1:
                raise InvalidContractError(f"forehand holds {PACK[card].name}: she cannot call her own card")
            if whole and contract.card is not None and variant["called_tarock"] == "highest":
                highest = cls.called_card(deal)
                require(card == highest, f"forehand calls the highest of T20..T16 she does not hold: "
                                         f"{PACK[highest].name}, not {PACK[card].name} (variant flag "
                                         f"called_tarock=any allows any)")
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
                    f"(variant flag suit_solo_min_suit_cards)")
        announcer = state_tags.get("pagat_announcer")
        announcer = None if announcer is None else int(announcer) - 1  # type: ignore[arg-type]
        return ZwanzigerrufenRules(cls, deal, contract, declarer, variant, leader=0 if leader is None else leader,
                                   partner=partner, pagat_announcer=announcer)

    @classmethod
    def default_contracts(cls, rng) -> list[str]:
        return ["Normal"]

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
