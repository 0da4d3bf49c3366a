"""Kratzen: RULES.md section 3.

Three to six seats, 33 cards (German suits E G H S, ranks A K O U Z 9 8 7, and the Weli S6, a permanent trump second
only to the trump ace), 4 cards a hand, every player for himself: tricks count, no card points. Players must follow
suit and beat, else trump and overtrump.
"""

from __future__ import annotations

from fractions import Fraction

from ..deal import Deal
from ..errors import ContractFormError, InvalidContractError, InvalidSeatContractError, UnknownContractError, quoted
from ..state import PlayState
from ..variant import Flag, Variant
from .tables import Level, RuleTables
from ..formats.tbn import Record
from .outcome import EMPTY_POT, ScoreItem, Scored, pot_payments, read_pot
from .base import (Contract, Game, Objective, PayoffComponent, Rules, SettlementModel, TrumpSuitRules,
                   GERMAN_RANK_WORDS, GERMAN_SUIT_WORDS, SUIT_AFTER_CONTRACT, german_suit_of_word,
                   german_suit_word_error, german_suited_pack, misspelt_suit, parse_words, reads_contract, require,
                   tricks_objective, unknown_objective)

_RANKS = [("A", 0, []), ("K", 0, []), ("O", 0, []), ("U", 0, []), ("Z", 0, ["10", "T"]),
          ("9", 0, []), ("8", 0, []), ("7", 0, [])]

PACK = german_suited_pack("Kratzen", _RANKS, extra=[("S6", "S", "6", 0, 0, ["W", "WELI"])])

WELI = PACK.parse("S6").index
SUITS = "EGHS"
#: The words a contract starts with, lower-cased: Trump, as players also write it.
_TRUMP_WORDS = ("trump", "trumpf", "trumps")


def _near_trump(word: str) -> bool:
    """Whether ``word`` is a trump word with at most one letter added, dropped or changed ("Trumpp", "Trum"): the
    word a suit suggestion rests on. difflib's ratio lets "Rufr" pass for "Trumpf", which is no misspelling of it."""
    word = word.lower()
    for trump in _TRUMP_WORDS:
        if abs(len(word) - len(trump)) > 1:
            continue
        short, long = sorted((word, trump), key=len)
        start = next((i for i, (a, b) in enumerate(zip(short, long)) if a != b), len(short))
        rest = long[start + 1:]
        if short[start + (len(short) == len(long)):] == rest:
            return True
    return False


#: A contract's modifier as written (spaces and hyphens dropped, any case): Muss, or Seven-Muss (Siebenermuss).
_MODIFIERS = {"muss": "muss", "sevenmuss": "sevenmuss", "7muss": "sevenmuss", "siebenermuss": "sevenmuss",
              "siebenmuss": "sevenmuss"}


class KratzenRules(TrumpSuitRules):
    """Rule methods of RULES.md 3.2: follow and beat, else trump and overtrump."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        trump = self.contract.suit
        if trump is None:  # parse_contract gives every Kratzen contract a suit
            raise InvalidContractError("a Kratzen contract names its trump suit")
        self.trump_suit = trump
        order = "AKOUZ987"
        ranks = {c.index: len(order) - order.index(c.rank) for c in self.pack if c.index != WELI}
        # Trump order: A > Weli > K > ... ; give the trump ace 20, the Weli 19, the rest their plain rank + 10.
        self.trump_rank = {c: r + 10 for c, r in ranks.items() if self.pack[c].suit == trump}
        self.trump_rank[PACK.parse(trump + "A").index] = 20
        self.trump_rank[WELI] = 19
        self.plain_rank = ranks
        self.trump_mask = sum(1 << c for c in self.trump_rank)
        self.effective = {c.index: "T" if c.index in self.trump_rank else c.suit for c in self.pack}
        self.eff_masks = {s: sum(1 << c for c, e in self.effective.items() if e == s) for s in "T" + SUITS}
        if self.variant["weli_also_bells"] and trump != "S":
            self.eff_masks["S"] |= 1 << WELI  # the Weli may (and must) follow a bells lead as well

    def side_of(self, seat: int) -> frozenset[int]:
        """Every seat plays for itself (RULES.md 3.3): the defenders are no side, each counts his own tricks."""
        return frozenset({seat})

    def legal_cards(self, state: PlayState) -> int:
        hand = state.hands[state.to_move]
        if not state.trick:
            return hand
        led = self.effective[state.trick[0]]
        best = self.power(state.trick[self.trick_winner(state.trick)], led)
        follow = hand & self.eff_masks[led]
        if follow:  # follow, and beat if you can
            return self._beating(follow, led, best) or follow
        trumps = hand & self.trump_mask
        if trumps:  # trump, and overtrump if you can
            return self._beating(trumps, led, best) or (trumps if self.variant["must_undertrump"] else hand)
        return hand

    def _beating(self, cards: int, led: str, best: int) -> int:
        mask = 0
        while cards:
            low = cards & -cards
            card = low.bit_length() - 1
            if self.power(card, led) > best:
                mask |= low
            cards ^= low
        return mask

    def compile_tables(self) -> RuleTables:
        """RULES.md 3.2 as tables: follow and beat, else trump and overtrump (else undertrump, by the flag)."""
        classes = "T" + SUITS
        pack = self.pack
        card_class = tuple(classes.index(self.effective[c.index]) for c in pack)
        power = tuple(tuple(self.power(c.index, led) for c in pack) for led in classes)
        void = 1 if self.variant["must_undertrump"] else 2
        follow = tuple((Level(self.eff_masks[led], beat=1), Level(self.trump_mask, beat=void)) for led in classes)
        return RuleTables(len(pack), self.seats, self.points, card_class, len(classes), power, follow)

    # RULES.md 3.3 ----------------------------------------------------------------------------------------------

    def target(self, seat: int) -> int:
        """Tricks a seat needs: the attacker 2, everyone else 1; in a Seven-Muss everyone 1."""
        if seat == self.declarer and self.contract.modifier != "sevenmuss":
            return 2
        return 1

    def objective_names(self) -> list[str]:
        return ["tricks"]

    def game_objective(self) -> Objective | None:
        """The attacker's game is his own target (RULES.md 3.3: 2 tricks; a Seven-Muss 1)."""
        return self.objective("tricks", self.declarer)

    def objective(self, name: str, seat: int | None = None) -> Objective:
        if name != "tricks":
            raise unknown_objective(self, name)
        if seat is None or not 0 <= seat < self.seats:
            raise InvalidSeatContractError(f"the Kratzen objective 'tricks' needs a seat from 1 to {self.seats}",
                                           about="seat")
        return tricks_objective(self, frozenset({seat}), name,
                                f"tricks seat {seat + 1} can guarantee against everyone", self.target(seat))


# RULES.md 3.4: scoring -----------------------------------------------------------------------------------------


#: What a Muss means for the pot, in the words the pot line over a diagram or score says it (:meth:`Kratzen.pot_words`)
#: and a Muss deal's score notes it: one wording, so that the score's text, which prints both, says it once.
MUSS_POT_WORDS = "a Muss: tricks pay nothing"


def is_muss(contract: Contract) -> bool:
    return contract.modifier in ("muss", "sevenmuss")


def trick_share(contract: Contract, pot: int) -> int:
    """P/4, what each trick pays its winner from the pot; nothing in a Muss deal (RULES.md 3.4)."""
    return 0 if is_muss(contract) else pot // 4


def score_items(rules: KratzenRules, pot: int, winners: list[int]) -> tuple[list[ScoreItem], list[str]]:
    """Tricks paid from the pot (not in a Muss), penalties paid into it; ``winners`` is the seat that took each
    trick, in order."""
    muss = is_muss(rules.contract)
    items = []
    share = trick_share(rules.contract, pot)
    if not muss:
        for number, winner in enumerate(winners, 1):
            items.append(ScoreItem(f"trick {number}", (winner + 1,), share, 1, False, share,
                                   f"seat {winner + 1} won trick {number}: P/4 from the pot"))
    for seat in range(rules.seats):
        target = rules.target(seat)
        taken = sum(1 for winner in winners if winner == seat)
        if taken < target:
            attacker = seat == rules.declarer
            penalty = pot * (2 if attacker else 1)
            items.append(ScoreItem("penalty", (), pot, 2 if attacker else 1, False, penalty,
                                   f"seat {seat + 1} took {taken} trick{'' if taken == 1 else 's'} ({target} needed"
                                   + ("; the attacker pays 2P)" if attacker else ")"), (seat + 1,)))
    notes = [MUSS_POT_WORDS] if muss else []
    left = pot - 4 * share
    if not muss and left:  # the items say P/4; this says what it came to (RULES.md 3.4)
        chips = "1 chip stays" if left == 1 else f"{left} chips stay"
        notes.append(f"pot {pot:,} does not divide by 4: each trick pays {share:,}, and {chips} in the pot")
    return items, notes


class Kratzen(Game):
    """Kratzen (RULES.md 3): 3 to 6 players, four cards each from the 33-card German pack with the Weli; a trump
    suit, follow and beat, and each seat's own trick target (the attacker's two)."""

    name = "Kratzen"
    aliases = ("kratzen", "kr", "krotzn")
    pack = PACK
    suit_words = GERMAN_SUIT_WORDS
    rank_words = GERMAN_RANK_WORDS
    seat_counts = (3, 4, 5, 6)
    hand_size = 4
    contract_words = {"SevenMuss": "Seven-Muss"}  # RULES.md 3.3
    contract_help = "Trump E|G|H|S [Muss|SevenMuss]"
    objectives = ("tricks",)
    has_pot = True
    has_bonus_items = False  # is_bonus_item: none
    score_unit = "chips"
    declarer_title = "attacker"
    named_cards = {"S6": ("Weli", "a permanent trump, second only to the trump ace")}
    flags = {f.name: f for f in [
        Flag("weli_also_bells", bool, False, "the Weli also counts as a bell for following"),
        Flag("first_leader", ("attacker", "forehand"), "attacker", "who leads to trick 1"),
        Flag("must_undertrump", bool, True, "a void player who cannot overtrump must still trump"),
    ]}

    bench_seed = 1766
    bench_lines = (
        dict(name="Kratzen 6 seats: every seat's guaranteed tricks", contract=None, objective="tricks", seats=6,
             question="every_seat", target_median_ms=0.5),
    )

    @classmethod
    def scoring_inputs(cls, rules: Rules, record: Record | None, *, pot: object = None,
                       announcements: object = None) -> int:
        """The pot: the argument, else the record's [Pot] tag, else 0."""
        return read_pot(record, pot)

    @classmethod
    def score(cls, rules: Rules, state: PlayState, inputs: object) -> Scored:
        pot = int(inputs)  # type: ignore[call-overload]  # scoring_inputs' pot
        items, notes = score_items(rules, pot, [trick.winner for trick in state.history])  # type: ignore[arg-type]
        payments, pot_change = pot_payments(items, rules.seats)
        return Scored(tuple(items), payments, tuple(notes), pot, pot_change)

    @classmethod
    def settlement_model(cls, rules: Rules, state: PlayState, inputs: object) -> SettlementModel:
        """The attacker's tricks, every count a threshold; the other tricks go to one other seat, which settles
        alike for the attacker (her payment depends on her own tricks only)."""
        pot = int(inputs)  # type: ignore[call-overload]
        attacker = rules.declarer
        other = (attacker + 1) % rules.seats
        tricks = rules.tricks_in_deal
        components = [PayoffComponent("tricks", Objective("tricks", frozenset({attacker}), "attacker tricks",
                                                          trick_weight=1), tuple(range(1, tricks + 1)))]

        def net(values: tuple[int, ...]) -> int:
            winners = [attacker] * values[0] + [other] * (tricks - values[0])
            items, _ = score_items(rules, pot, winners)  # type: ignore[arg-type]
            return pot_payments(items, rules.seats)[0][attacker]

        return components, net

    @classmethod
    def is_bonus_item(cls, name: str) -> bool:
        """None: the trick payouts and the penalties are the pot's game itself (RULES.md 3.4), and which trick of a
        principal line the attacker took says nothing about the hand."""
        return False

    @classmethod
    def winning_settlement(cls, rules: Rules, inputs: object) -> int | None:
        """0 with a pot: the attacker who makes its own trick target is paid its tricks' shares (0 or more), one who
        misses it pays 2P and is paid at most one trick's P/4 (RULES.md 3.4). Without a pot every payment is 0."""
        return 0 if int(inputs) > 0 else None  # type: ignore[call-overload]  # scoring_inputs' pot

    @classmethod
    def trick_payout(cls, rules: Rules, inputs: object) -> int:
        """P/4 (RULES.md 3.4), at least 1 chip: the unit chip costs are graded in, what a trick pays outside a Muss
        (the pot shared over a whole deal's tricks, an ending's too). A Muss pays no trick but keeps the unit, in
        which its missed target (2P for the attacker) is 8."""
        return max(1, int(inputs) // cls.hand_size)  # type: ignore[call-overload]  # scoring_inputs' pot

    @classmethod
    def pot_share(cls, rules: Rules, inputs: object) -> int:
        return trick_share(rules.contract, int(inputs))  # type: ignore[call-overload]  # scoring_inputs' pot

    @classmethod
    def pot_words(cls, contract: Contract, pot: int) -> str:
        """A Muss pays no trick whatever the pot (RULES.md 3.4), which is said before a pot of 0 or one whose quarter
        is under a chip is blamed."""
        if is_muss(contract):
            return MUSS_POT_WORDS
        if not pot:
            return EMPTY_POT
        share = trick_share(contract, pot)
        return f"each trick pays {share:,}" if share else "a quarter of it is under a chip: tricks pay nothing"

    first_leader_flags = frozenset({"first_leader"})

    @classmethod
    def first_leader_said(cls, rules: Rules) -> str:
        """The attacker, or forehand (seat 1), leads to trick 1 by the flag ``first_leader`` (RULES.md 3.2): the
        flag is said, so that a record written the other way is read with ``--variant first_leader=...``."""
        if rules.variant["first_leader"] == "attacker":
            return "under first_leader=attacker: the attacker leads"
        return "under first_leader=forehand: seat 1 leads, whoever attacks"

    @classmethod
    def seat_share(cls, rules: Rules, seat: int, net: int) -> Fraction | None:
        """The attacker's payment is the settlement; every other seat plays for itself against the pot, and its own
        payment is not searched (the attacker's, negated, is not it)."""
        return Fraction(net) if seat == rules.declarer else None

    @classmethod
    def points_objective(cls, rules: Rules) -> Objective:
        return rules.objective("tricks", rules.declarer)  # tricks count, not card points

    @classmethod
    def _unknown_contract(cls, text: str, words: list[str]) -> InvalidContractError:
        """A misspelt contract's message, suggesting only what reads: the rest of what was given kept after
        ``Trump``, a suit named in words by its letter ("Trumpp H", "Trumpp Herz": 'Trump H'), where the misspelt
        word is within one letter of a trump word ("Rufr Herz" is offered nothing); a word before ``Trump`` that is
        no suit ("Blau Trump"), only that the suit comes after it (a pattern offered as a contract would repeat the
        expected form); where nothing reads, the expected form alone says it."""
        suit = german_suit_of_word(PACK, words[1]) if len(words) > 1 else None
        whole = " ".join(("Trump", *([suit] if suit else words[1:2]), *words[2:]))
        close = (f"; did you mean {quoted(whole)}?"
                 if words and words[0].lower() not in _TRUMP_WORDS and _near_trump(words[0])
                 and reads_contract(cls, whole)
                 else "")
        if len(words) >= 2 and _near_trump(words[1]):
            # the Bavarian order, the suit first ("Herz Trumpp": 'Trump H'), or a word that is no suit ("Blau")
            first = german_suit_of_word(PACK, words[0])
            if first is None:
                close = f"; {SUIT_AFTER_CONTRACT}"
            else:
                bavarian = " ".join(("Trump", first, *words[2:]))
                close = f"; did you mean {quoted(bavarian)}?" if reads_contract(cls, bavarian) else ""
        return UnknownContractError(cls.name, text, close, cls.contract_help)

    @classmethod
    def read_contract(cls, text: str) -> Contract:
        words = parse_words(text)
        if len(words) < 2 or words[0].lower() not in _TRUMP_WORDS:
            first_is_suit = german_suit_of_word(PACK, words[0]) is not None or misspelt_suit(words[0]) is not None
            if len(words) >= 2 and words[1].lower() in _TRUMP_WORDS and first_is_suit:
                # the Bavarian order, the suit first ("Herz Trump", "Hertz Trump"): the contract it names
                raise german_suit_word_error(cls, text, words[1], lambda suit: " ".join(("Trump", suit, *words[2:])),
                                             suit_first=words[0])
            raise cls._unknown_contract(text, words)
        index = PACK.lookup(words[1] + "A")
        if index is None:
            raise german_suit_word_error(cls, text, words[1], lambda suit: " ".join(("Trump", suit, *words[2:])))
        suit = PACK[index].suit
        modifier = None
        if len(words) > 4:
            raise ContractFormError(f"contract {quoted(text)}: expected {cls.contract_help}")
        if len(words) > 2:  # one word or two: RULES.md writes Seven-Muss, which parse_words splits
            written = " ".join(words[2:])
            modifier = _MODIFIERS.get(written.replace(" ", "").lower())
            require(modifier is not None, f"contract {quoted(text)}: {quoted(written)} is not Muss or SevenMuss")
        label = f"Trump {suit}" + {None: "", "muss": " Muss", "sevenmuss": " SevenMuss"}[modifier]
        return Contract(cls.name, "trump", suit=suit, modifier=modifier, text=label)

    @classmethod
    def make_rules(cls, deal, contract, declarer, variant, leader, state_tags):
        if leader is None:
            leader = declarer if variant["first_leader"] == "attacker" else 0
        return KratzenRules(cls, deal, contract, declarer, variant, leader=leader)

    @classmethod
    def default_contracts(cls, rng) -> list[str]:
        return [f"Trump {rng.choice(SUITS)}"]

    @classmethod
    def _contracts(cls, deal: Deal, variant: Variant, like: Contract | None,
                   declarer: int | None) -> list[tuple[Contract, int]]:
        modifier = {None: "", "muss": " Muss", "sevenmuss": " SevenMuss"}[like.modifier if like else None]
        declarer = declarer or 1  # the record's attacker, else seat 1 (RULES.md 3.1)
        return [(cls.parse_contract(f"Trump {s}{modifier}"), declarer) for s in SUITS]
