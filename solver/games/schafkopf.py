"""Schafkopf as the CARDAVIA site plays it: RULES.md section 2.

Four seats, 32 cards (Salisburghesi pack: acorns E, leaves G, hearts H, bells S), 8 tricks, 120 card points.
Contracts: Rufer (call an ace), Wenz, Solo in a suit, the two Touts, Sie.
"""

from __future__ import annotations

import functools
from typing import Hashable

from ..cards import Pack
from ..deal import Deal
from ..errors import InvalidContractError, UnknownContractError, close_matches, quoted
from ..state import PlayState
from ..variant import Flag, Variant
from .tables import CalledCard, Level, RuleTables
from .outcome import (DealtBonus, ScoreItem, declarers_word, declaring_side_said, Scored, seats_of, total_payments,
                      two_sided)
from .base import (Contract, Game, Objective, PayoffComponent, Rules, SettlementItems, TrumpSuitRules,
                   GERMAN_RANK_WORDS, GERMAN_SUIT_WORDS, SUIT_AFTER_CONTRACT, german_suit_of_word,
                   german_suit_word_error, german_suited_pack, misspelt_suit, parse_words, points_objective, require,
                   tricks_objective, unknown_objective)

_RANKS = [("A", 11, []), ("Z", 10, ["10", "T"]), ("K", 4, []), ("O", 3, []), ("U", 2, []),
          ("9", 0, []), ("8", 0, []), ("7", 0, [])]

PACK = german_suited_pack("Schafkopf", _RANKS)
#: The words read_contract reads each kind of contract from, lower-cased.
_RUFER_WORDS = ("rufer", "ruf", "sauspiel", "call")
_SOLO_WORDS = ("solo", "solotout")
_WENZ_WORDS = ("wenz", "wenztout", "sie")
#: All of them: a suit after one of them that is refused is noted as read (german_suit_word_error), where after
#: another game's word ("Herz Trump") it is not.
_CONTRACT_WORDS = frozenset(_RUFER_WORDS + _SOLO_WORDS + _WENZ_WORDS)

TOTAL_POINTS = 120
SUITS = "EGHS"
PLAIN_ORDER = "AZKOU987"  # plain ranks, highest first; trumps (Obers, Unters) never use it

#: The first flag bit: a trick has been led with a plain card of the called suit (RULES.md 2.3, ``r_led``).
CALLED_SUIT_LED = 1

#: The score items as players name them (the text tables; the JSON keeps the names).
ITEM_TITLES = {"game": "Game", "schneider": "Schneider", "schwarz": "Schwarz", "laufende": "Laufende", "tout": "Tout"}

#: The contracts won by every trick (RULES.md 2.2, 2.5), and those whose trumps are the Unters alone.
TOUTS = frozenset({"wenztout", "solotout"})
WENZ_KINDS = frozenset({"wenz", "wenztout"})


def trump_order(kind: str, suit: str | None) -> list[str]:
    """The trumps of a contract, highest first (RULES.md 2.2)."""
    unters = [s + "U" for s in SUITS]
    if kind in WENZ_KINDS:
        return unters
    if suit is None:
        raise InvalidContractError(f"a {kind} names its trump suit")
    obers = [s + "O" for s in SUITS]
    return obers + unters + [suit + r for r in "AZK987"]


@functools.lru_cache(maxsize=None)
def _card_ranks(pack: Pack, kind: str, trump_suit: str | None) -> tuple[dict[int, int], int, dict[int, str],
                                                                          dict[str, int], dict[int, int]]:
    """A contract's trump ranks, trump mask, effective suits ('T' for a trump, else the printed suit), their masks
    and the plain ranks: the same for every deal of the contract, so shared by every deal of the contract: never
    mutate them. They stay dicts (rules are pickled to the -j workers, and a MappingProxyType cannot be pickled).
    A sampling bot's or an analysis's redraws build rules for thousands of deals, and none of these depends on the
    deal (the called ace's holder, which does, is the rules' own)."""
    trumps = trump_order(kind, trump_suit)
    trump_rank = {pack.parse(n).index: len(trumps) - i for i, n in enumerate(trumps)}
    trump_mask = sum(1 << c for c in trump_rank)
    effective = {c.index: "T" if c.index in trump_rank else c.suit for c in pack}
    eff_masks = {s: sum(1 << c for c, e in effective.items() if e == s) for s in "TEGHS"}
    plain_rank = {c.index: len(PLAIN_ORDER) - PLAIN_ORDER.index(c.rank) for c in pack}
    return trump_rank, trump_mask, effective, eff_masks, plain_rank


class SchafkopfRules(TrumpSuitRules):
    """Rule methods of RULES.md 2.3, including the called-ace rules of a Rufer."""

    def __init__(self, *args, partner: int | None, runaway_allowed_at_deal: bool, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        kind, pack = self.contract.kind, self.pack
        trump_suit = self.contract.suit if kind != "rufer" else "H"
        if kind == "sie":
            trump_suit = "H"  # Sie is not played; its cards are ranked as a hearts Solo
        self.trump_rank, self.trump_mask, self.effective, self.eff_masks, self.plain_rank = _card_ranks(
            pack, "solo" if kind == "sie" else kind, trump_suit)
        side = {self.declarer}
        if partner is not None:
            side.add(partner)
        self.declaring_side = frozenset(side)
        self.partner = partner
        self.rufer = kind == "rufer"
        if self.rufer:
            if self.contract.suit is None or partner is None:  # parse_contract and make_rules give both
                raise InvalidContractError("a Rufer names the called suit and the called ace's holder")
            self.called_suit: str = self.contract.suit
            self.called_holder: int = partner
            self.called_ace = pack.parse(self.called_suit + "A").index
            self.called_plain = self.eff_masks[self.called_suit]
            self.runaway_allowed_at_deal = runaway_allowed_at_deal

    @property
    def called_card(self) -> int | None:
        return self.called_ace if self.rufer else None

    # RULES.md 2.3 ----------------------------------------------------------------------------------------------

    def legal_cards(self, state: PlayState) -> int:
        seat = state.to_move
        hand = state.hands[seat]
        holds_ace = self.rufer and seat == self.partner and hand >> self.called_ace & 1
        r_led = state.flags & CALLED_SUIT_LED
        if not state.trick:
            legal = hand
            if holds_ace and not r_led:
                # Rule 3: leading the called suit before it was led: with rA + 3 he may run away, else only rA.
                if self.variant["runaway_count_at"] == "lead":
                    may_run = (hand & self.called_plain).bit_count() >= 4
                else:
                    may_run = self.runaway_allowed_at_deal
                if not may_run:
                    legal &= ~(self.called_plain & ~(1 << self.called_ace))
            return legal
        led_suit = self.effective[state.trick[0]]
        legal = hand & self.eff_masks[led_suit] or hand
        if holds_ace and not r_led:
            if led_suit == self.called_suit:
                return 1 << self.called_ace  # Rule 1: the called ace must be played to the first called-suit trick
            if hand.bit_count() > 1:
                legal &= ~(1 << self.called_ace)  # Rule 2: no discarding the called ace before the suit was led
        return legal

    def next_flags(self, flags: int, trick: tuple[int, ...]) -> int:
        if self.rufer and self.effective[trick[0]] == self.called_suit:
            flags |= CALLED_SUIT_LED
        return flags

    def compile_tables(self) -> RuleTables:
        """RULES.md 2.3 as tables: classes trump E G H S; the called ace as a called-card primitive."""
        classes = "TEGHS"
        pack = self.pack
        card_class = tuple(classes.index(self.effective[c.index]) for c in pack)
        power = tuple(tuple(self.power(c.index, led) for c in pack) for led in classes)
        follow = tuple((Level(self.eff_masks[led]),) for led in classes)
        called = None
        led_flags: tuple[int, ...] = ()
        if self.rufer:
            runaway = -1 if self.variant["runaway_count_at"] == "lead" else int(self.runaway_allowed_at_deal)
            called = CalledCard(self.called_ace, self.called_holder, classes.index(self.called_suit), 4, runaway,
                                CALLED_SUIT_LED, name="called ace")
            led_flags = tuple(CALLED_SUIT_LED if led == self.called_suit else 0 for led in classes)
        return RuleTables(len(pack), self.seats, self.points, card_class, len(classes), power, follow,
                          called=called, led_flags=led_flags)

    # RULES.md 2.4 ----------------------------------------------------------------------------------------------

    def objective_names(self) -> list[str]:
        names = ["points", "game", "schneider", "schneider_against", "schwarz", "schwarz_against"]
        if self.contract.kind in TOUTS:
            names.append("tout")
        return names

    def objective(self, name: str, seat: int | None = None) -> Objective:
        d, o = self.declaring_side, self.defending_side
        who = declaring_side_said(d)
        if name == "points":
            return points_objective(self, d, name, f"card points {who} can force", None, TOTAL_POINTS)
        if name == "game":
            return points_objective(self, d, name, f"{who} reaches 61", 61, TOTAL_POINTS)
        if name == "schneider":
            return points_objective(self, d, name, f"{who} reaches 91 (Schneider)", 91, TOTAL_POINTS)
        if name == "schneider_against":
            held = f"the {declarers_word(d)}"  # a Solo's, a Wenz's or a Tout's declarer is one seat
            return points_objective(self, o, name, f"the defenders hold {held} to 30 or less (Schneider against)",
                                    self.held_to(30), TOTAL_POINTS)
        if name == "schwarz":
            return tricks_objective(self, d, name, f"{who} takes every trick (Schwarz)",
                                    self.tricks_in_deal)
        if name == "schwarz_against":
            return tricks_objective(self, o, name, "the defenders take every trick (Schwarz against)",
                                    self.tricks_in_deal)
        if name == "tout" and self.contract.kind in TOUTS:
            return tricks_objective(self, d, name, "the declarer takes every trick (Tout)", self.tricks_in_deal)
        raise unknown_objective(self, name)

    def game_objective(self) -> Objective | None:
        """A Tout is won by every trick, not by 61 points (RULES.md 2.5); a Sie is won by the deal alone."""
        kind = self.contract.kind
        if kind == "sie":
            return None
        return self.objective("tout" if kind in TOUTS else "game")


# RULES.md 2.5: scoring -----------------------------------------------------------------------------------------


def laufende(rules: Rules) -> tuple[int, frozenset[int]]:
    """(run length, holding side): the trumps from the top that one side was dealt, counted only from 3 (Rufer,
    Solo, Solo Tout) or 2 (Wenz, Wenz Tout); (0, side) below that."""
    kind = rules.contract.kind
    order = trump_order(kind, rules.contract.suit if kind != "rufer" else "H")
    deal = rules.deal
    holders = [deal.holder(rules.pack.parse(name).index) for name in order]
    if holders[0] is None:
        return 0, frozenset()
    side = rules.side_of(holders[0])
    count = 0
    for seat in holders:
        if seat is None or seat not in side:
            break
        count += 1
    minimum = 2 if kind in WENZ_KINDS else 3
    return (count if count >= minimum else 0), side


def laufende_bonus(rules: Rules) -> DealtBonus:
    """The Laufende as ``stich check`` lists them beside the searched bonuses: the deal decides them (RULES.md 2.5)."""
    count, side = laufende(rules)
    minimum = 2 if rules.contract.kind in WENZ_KINDS else 3
    description = f"one side was dealt the top trumps, {minimum} or more in a row (Laufende)"
    if count:
        per_run = "2 each in a Tout" if rules.contract.kind in TOUTS else "1 each"
        reason = f"{rules.describe_side(side)} was dealt {count} from the top; they raise the value ({per_run})"
        if rules.variant["laufende_mode"] == "only_if_holder_wins":
            reason += " if that side wins the game"
    else:
        reason = f"no side was dealt {minimum} from the top"
    return DealtBonus("laufende", description, seats_of(side) if count else (), None, bool(count), True, "deal",
                      reason + "; decided by the deal, no search")


def tout_lost_at(rules: Rules, state: PlayState) -> int | None:
    """The number of the first trick (1-based) the declarer did not win, None while he has won every one."""
    return next((number for number, trick in enumerate(state.history, 1) if trick.winner != rules.declarer), None)


def score_items(rules: Rules, outcome: tuple[int, int] | None) -> tuple[list[ScoreItem], list[str]]:
    """The game, Schneider/Schwarz and Laufende as items of one value v, all to the winning side, from the
    declarers' card points and tricks (``outcome``; None for a Sie, which the deal alone settles). Schwarz goes to
    the side that took every trick: in a whole deal the winner, in an ending not always (docs/rules.md, Reading 2:
    a small ending holds fewer than the 61 points the game needs)."""
    kind = rules.contract.kind
    declarers, defenders = rules.declaring_side, rules.defending_side
    seats = rules.seats
    if kind == "sie" or outcome is None:
        return [two_sided("game", seats, declarers, 52, 1, False, "Sie: 20 + 4 x 8")], []
    points, tricks = outcome
    who = f"the {declarers_word(declarers)}"  # a Rufer's two, a Wenz's or Solo's one
    run, holder = laufende(rules)
    tout = kind in TOUTS
    if tout:
        won = tricks == rules.tricks_in_deal
        reason = (f"the declarer took all {tricks} tricks (Tout)" if won else  # a lost Tout ends at that trick
                  f"the declarer lost a trick (a Tout needs all {rules.tricks_in_deal})")
    else:
        won = points >= 61
        reason = f"{who} took {points} points (61 needed)"
    winner = declarers if won else defenders
    notes = []
    if run and rules.variant["laufende_mode"] == "only_if_holder_wins" and holder != winner:
        notes.append(f"{run} Laufende of the losing side do not count (laufende_mode=only_if_holder_wins)")
        run = 0
    base = {"rufer": 1, "wenz": 5, "solo": 5, "wenztout": 10, "solotout": 10}[kind]
    items = [two_sided("game", seats, winner, base, 1, False, reason)]
    if not tout:
        if tricks in (0, rules.tricks_in_deal):
            # to the side that took every trick: the winner in a whole deal (120 points), not always in an ending
            took_all = declarers if tricks else defenders
            items.append(two_sided("schwarz", seats, took_all, 2, 1, False,
                                   f"{rules.describe_side(took_all)} took every trick",
                                   against=took_all == defenders))
        elif points >= 91 or points <= 30:
            items.append(two_sided("schneider", seats, winner, 1, 1, False,
                                   f"{who} took {points} points "
                                   + ("(91 or more)" if points >= 91 else "(30 or less)"),
                                   against=winner == defenders))
    if run:
        per_run = 2 if tout else 1
        items.append(two_sided("laufende", seats, winner, per_run * run, 1, False,
                               f"{run} Laufende held by {rules.describe_side(holder)}"
                               + (" (x2 in a Tout)" if tout else "")))
    return items, notes


class Schafkopf(Game):
    """Schafkopf as CARDAVIA plays it (RULES.md 2): four players, eight cards each from the 32-card German pack; Rufer
    (a called ace's holder partners the caller), Wenz, Solo, the Touts and Sie; 120 card points, 61 win."""

    name = "Schafkopf"
    shared_contract_text = "a Rufer's"  # the payment note of contract advice
    shared_contract_kind = "rufer"
    passed_out_text = "a deal every seat passes is thrown in, paying nobody"  # the losing note of contract advice
    aliases = ("schafkopf", "sk", "schafkopfen", "cardavia")
    pack = PACK
    suit_words = GERMAN_SUIT_WORDS
    rank_words = GERMAN_RANK_WORDS
    seat_counts = (4,)
    hand_size = 8
    contract_words = {"WenzTout": "Wenz Tout", "SoloTout": "Solo Tout"}  # RULES.md 2.2
    contract_help = "Rufer E|G|S, Wenz, Solo E|G|H|S, WenzTout, SoloTout E|G|H|S, Sie"
    objectives = ("points", "game", "schneider", "schneider_against", "schwarz", "schwarz_against", "tout")
    flags = {f.name: f for f in [
        Flag("solo_requires_plain_trump_card", bool, True, "a Solo declarer must hold a plain card of the trump suit"),
        Flag("runaway_count_at", ("lead", "deal"), "lead", "when the called-suit cards are counted for running away"),
        Flag("laufende_mode", ("standard", "only_if_holder_wins"), "standard", "when Laufende raise the value"),
    ]}

    @classmethod
    def _unknown_contract(cls, text: str, kind: str, suit: str = "") -> InvalidContractError:
        """A misspelt contract's message, suggesting only what reads: a suit given after it is kept in the names that
        take one ("Sollo G": 'Solo G' or 'SoloTout G'); where none is given ("Sollo") or that suit is refused ("Rufr
        H"), the name with a note on the suit ('Solo' or 'SoloTout' with a suit, 'Rufer' with another suit), whose
        suits the expected form that follows lists (a pattern offered as a contract would say the form twice)."""
        forms = {form.split()[0]: form for form in cls.contract_help.split(", ")}
        suggested = []
        uses_suit = False  # whether a suggestion takes the suit given ('Solo H', 'Rufer' with another suit)
        for name in close_matches(kind, list(forms)):
            whole = f"{name} {suit}" if suit and " " in forms[name] else name
            try:
                cls.read_contract(whole)
                suggested.append((whole, ""))
                uses_suit = uses_suit or whole != name
            except InvalidContractError:
                suggested.append((name, "with another suit" if suit else "with a suit"))
                uses_suit = uses_suit or bool(suit)
        notes = {note for _, note in suggested}
        shared = notes.pop() if len(notes) == 1 else ""  # one note said once, after every name
        named = [quoted(whole) + (f" {note}" if note and not shared else "") for whole, note in suggested]
        close = "; did you mean " + " or ".join(named) + (f" {shared}" if shared else "") + "?" if suggested else ""
        return UnknownContractError(cls.name, text, close, cls.contract_help,
                                    name_known=kind.lower() in _CONTRACT_WORDS, uses_suit=uses_suit)

    @classmethod
    def read_contract(cls, text: str) -> Contract:
        words = parse_words(text)
        kind = words[0].lower()
        if kind == "wenz" and len(words) == 2 and words[1].lower() == "tout":
            return Contract(cls.name, "wenztout", text="WenzTout")
        if kind == "solo" and len(words) in (2, 3) and words[1].lower() == "tout":  # "Solo Tout E" as "SoloTout E"
            kind, words = "solotout", [words[0]] + words[2:]
        if len(words) > 2:
            raise cls._unknown_contract(text, words[0])
        suit = None
        if len(words) == 2:
            ace = PACK.lookup(words[1] + "A")
            suit = PACK[ace].suit if ace is not None else None
            if suit is None:
                name = "SoloTout" if kind == "solotout" else words[0]
                first_is_suit = german_suit_of_word(PACK, words[0]) is not None or misspelt_suit(words[0]) is not None
                if german_suit_of_word(PACK, words[1]) is None and first_is_suit:
                    # the Bavarian order, the suit first ("Herz Solo", "Hertz Solo"): the contract it names
                    raise german_suit_word_error(cls, text, words[1], lambda named: f"{words[1]} {named}",
                                                 suit_first=words[0])
                if words[1].lower() in _RUFER_WORDS + _SOLO_WORDS:  # "Blau Solo": the first word is no suit
                    raise InvalidContractError(f"contract {quoted(text)}: {quoted(words[0])} is not a suit"
                                               f" (E, G, H or S); {SUIT_AFTER_CONTRACT}")
                raise german_suit_word_error(cls, text, words[1], lambda named: f"{name} {named}")
        if kind in _RUFER_WORDS:
            require(suit is not None, f"contract {quoted(text)}: name the called ace's suit (Rufer E, G or S)")
            require(suit != "H", "hearts cannot be called in a Rufer")
            return Contract(cls.name, "rufer", suit=suit, text=f"Rufer {suit}")
        if kind in _SOLO_WORDS:
            require(suit is not None, f"contract {quoted(text)}: name the trump suit (E, G, H or S)")
            name = "Solo" if kind == "solo" else "SoloTout"
            return Contract(cls.name, kind, suit=suit, text=f"{name} {suit}")
        if kind in _WENZ_WORDS and suit is None:
            return Contract(cls.name, kind, text={"wenz": "Wenz", "wenztout": "WenzTout", "sie": "Sie"}[kind])
        raise cls._unknown_contract(text, words[0], suit or "")

    state_tags = {"partner": int, "called_suit_led": bool}
    record_tags = {"partner": "Partner", "called_suit_led": "CalledSuitLed"}
    hidden_state_tags = frozenset({"partner", "called_suit_led"})
    ending_state_tags = frozenset({"called_suit_led"})
    dealt_bonus_names = ("laufende",)  # laufende_bonus (RULES.md 2.5)
    bonus_names = ("schneider", "schneider_against", "schwarz", "schwarz_against", "tout")
    bench_seed = 1849

    @classmethod
    def implied_items(cls, name: str) -> tuple[str, ...]:
        """RULES.md 2.5: "S = 1 Schneider, 2 Schwarz (instead)": a Schwarz is paid in place of the Schneider it
        includes."""
        return ("schneider",) if name == "schwarz" else ()
    bench_lines = (
        dict(name="Schafkopf Rufer: points + every opening card", contract=None, objective="points", cards=True,
             target_median_ms=5),
        dict(name="Schafkopf Solo H: points + every opening card", contract="Solo H", objective="points", cards=True,
             target_median_ms=5),
        dict(name="Schafkopf Wenz: points + every opening card", contract="Wenz", objective="points", cards=True,
             target_median_ms=5),
    )
    bench_endings = ((None, "Rufer"),)  # a random deal's default contract is a Rufer
    bench_calls = ("Rufer E", "Rufer G", "Rufer S")  # the first callable ace, as the bench has always dealt

    @classmethod
    def state_tags_for(cls, contract: Contract) -> frozenset[str]:
        return frozenset({"partner", "called_suit_led"} if contract.kind == "rufer" else ())

    @classmethod
    def play_settles(cls, rules: Rules, state: PlayState) -> bool:
        """A Sie is settled by the deal alone; a Tout at the first trick its declarer loses, where CARDAVIA ends
        the deal in defeat (seeds/001: "tap av ett avslutter utdelingen i nederlag")."""
        kind = rules.contract.kind
        return state.is_over or kind == "sie" or (kind in TOUTS and tout_lost_at(rules, state) is not None)

    @classmethod
    def settled_words(cls, rules: Rules, state: PlayState) -> str | None:
        """A Sie wins at once, with no play (RULES.md 2.2); a Tout is lost at the first trick its declarer loses."""
        kind = rules.contract.kind
        if state.is_over:
            return None
        if kind == "sie":
            return "a Sie wins as dealt"
        lost = tout_lost_at(rules, state) if kind in TOUTS else None
        return None if lost is None else f"the Tout lost trick {lost}"

    @classmethod
    def item_title(cls, name: str) -> str:
        """The players' names of the score items (RULES.md 2.5): Game, Schneider, Schwarz, Laufende."""
        return ITEM_TITLES.get(name, name)

    @classmethod
    def dealt_bonuses(cls, rules: Rules, state: PlayState, inputs: object = None) -> tuple[DealtBonus, ...]:
        """The Laufende (RULES.md 2.5): the dealt hands decide them, an ending's own hands those the score of an
        ending counts (docs/scoring.md); a Sie has none to count."""
        return (laufende_bonus(rules),) if rules.contract.kind != "sie" else ()

    @classmethod
    def unscored_bonuses(cls, rules: Rules, inputs: object) -> frozenset[str]:
        """A Tout is worth 10 + 2L whatever else happens (RULES.md 2.5: no S) and is won by every trick, not by
        61 points: only the Tout itself scores, so its ``game`` (61) is listed with the Schneider and Schwarz. A Sie
        is won at once (RULES.md 2.2), 52 whatever the play: none of them scores either."""
        return cls.contract_unscored_bonuses(rules)

    @classmethod
    def contract_unscored_bonuses(cls, rules: Rules) -> frozenset[str]:
        """A Tout's and a Sie's 61, Schneider and Schwarz (:meth:`unscored_bonuses`): Schafkopf has no
        announcements, so the contract alone decides them."""
        if rules.contract.kind in TOUTS or rules.contract.kind == "sie":
            return frozenset({"game", "schneider", "schneider_against", "schwarz", "schwarz_against"})
        return frozenset()

    @classmethod
    def winning_settlement(cls, rules: Rules, inputs: object) -> int | None:
        """0: every item of a whole deal goes to the side that won the game (RULES.md 2.5, v >= 1), so the declaring
        side's net is positive when it won and negative when it lost. Not in an ending, where the Schwarz goes to the
        side that took every trick, which need not be the winner (:func:`score_items`)."""
        return 0 if cls.is_whole(rules.deal) else None

    @classmethod
    def score(cls, rules: Rules, state: PlayState, inputs: object) -> Scored:
        declarers = rules.declaring_side
        outcome = None if rules.contract.kind == "sie" else (state.side_points(declarers),
                                                              state.side_tricks(declarers))
        items, notes = score_items(rules, outcome)
        if not state.is_over and rules.contract.kind in TOUTS:
            notes.append(f"the Tout was lost in trick {tout_lost_at(rules, state)}: the deal ends there")
        return Scored(tuple(items), total_payments(items, rules.seats), tuple(notes))

    @classmethod
    def settlement_items(cls, rules: Rules, state: PlayState, inputs: object) -> SettlementItems:
        """Points (thresholds 31, 61, 91) and tricks (0, all); a Sie has none."""
        declarers = rules.declaring_side
        components = [] if rules.contract.kind == "sie" else [
            PayoffComponent("points", Objective("points", declarers, "declarer card points", points_weight=1),
                            (31, 61, 91)),
            PayoffComponent("tricks", Objective("tricks", declarers, "declarer tricks", trick_weight=1),
                            tuple(sorted({1, rules.tricks_in_deal})))]
        return components, lambda values: score_items(rules, (values[0], values[1]) if values else None)[0]

    @classmethod
    def settlement_key(cls, rules: Rules, state: PlayState, inputs: object) -> Hashable:
        """What :func:`score_items` reads besides the component values: the contract kind, the seats and the sides
        (a Sie: nothing else), the variant (laufende_mode), the tricks and the Laufende (count and holding side)."""
        if rules.contract.kind == "sie":
            return rules.contract.kind, rules.seats, rules.declaring_side
        return rules.contract.kind, rules.variant, rules.seats, rules.declaring_side, rules.tricks_in_deal, \
            laufende(rules)

    @classmethod
    def make_rules(cls, deal, contract, declarer, variant, leader, state_tags):
        whole = cls.is_whole(deal)
        hand = deal.hands[declarer]
        partner = None
        runaway_at_deal = False
        flags = 0
        if contract.kind == "rufer":
            ace = PACK.parse(contract.suit + "A").index
            plain = sum(1 << c.index for c in PACK if c.suit == contract.suit and c.rank not in "OU")
            if whole:
                require(not hand >> ace & 1, f"the caller (seat {declarer + 1}) holds the called ace {PACK[ace].name}")
                require(bool(hand & plain & ~(1 << ace)),
                        f"the caller (seat {declarer + 1}) holds no plain {contract.suit} card: that ace cannot be "
                        "called")
            partner = deal.holder(ace)
            require(partner != declarer, f"the caller holds the called ace {PACK[ace].name}")
            if state_tags.get("partner") is not None:
                named = int(state_tags["partner"]) - 1  # type: ignore[arg-type]
                require(partner is None or partner == named,
                        f"the partner is the holder of {PACK[ace].name}, seat {(partner or 0) + 1}", "partner")
                partner = named
            if partner is None:
                raise InvalidContractError(
                    f"the called ace {PACK[ace].name} is in no hand: name the partner with [Partner \"N\"]")
            require(partner != declarer, f"the caller holds the called ace {PACK[ace].name}")
            runaway_at_deal = (deal.hands[partner] & plain).bit_count() >= 4
            if state_tags.get("called_suit_led"):
                flags |= CALLED_SUIT_LED
        if contract.kind in ("solo", "solotout") and whole and variant["solo_requires_plain_trump_card"]:
            plain_trump = sum(1 << c.index for c in PACK if c.suit == contract.suit and c.rank not in "OU")
            require(bool(hand & plain_trump),
                    f"a Solo declarer must hold a plain {contract.suit} card; seat {declarer + 1} holds none "
                    "(variant flag solo_requires_plain_trump_card=false lifts this)")
        if contract.kind == "sie" and whole:
            ou = cls.cards_to_bid(contract)
            require(hand & ou == ou, "Sie needs all eight Obers and Unters (the four Obers and the four Unters); "
                                     f"seat {declarer + 1} lacks some")
        return SchafkopfRules(cls, deal, contract, declarer, variant, leader=0 if leader is None else leader,
                              flags=flags, partner=partner, runaway_allowed_at_deal=runaway_at_deal)

    @classmethod
    def cards_to_bid(cls, contract: Contract) -> int:
        """A Sie's eight Obers and Unters (RULES.md 2.2); no other contract needs given cards."""
        return sum(1 << c.index for c in PACK if c.rank in "OU") if contract.kind == "sie" else 0

    @classmethod
    def default_contracts(cls, rng) -> list[str]:
        """A Rufer on an ace the declarer may call, each callable suit alike (in order, the acorn ace was called
        on two deals in three)."""
        calls = ["Rufer E", "Rufer G", "Rufer S"]
        rng.shuffle(calls)
        return calls

    @classmethod
    def _contracts(cls, deal: Deal, variant: Variant, like: Contract | None,
                   declarer: int | None) -> list[tuple[Contract, int]]:
        result = []
        for seat in range(1, 5):
            for text in ["Rufer E", "Rufer G", "Rufer S", "Wenz", "Solo E", "Solo G", "Solo H", "Solo S",
                         "WenzTout", "SoloTout E", "SoloTout G", "SoloTout H", "SoloTout S", "Sie"]:
                contract = cls.parse_contract(text)
                try:
                    cls.rules(deal, contract, declarer=seat, variant=variant)
                except InvalidContractError:
                    continue
                result.append((contract, seat))
        return result
