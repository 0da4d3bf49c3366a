"""Scoring a finished deal: RULES.md 1.7 (Zwanzigerrufen), 2.5 (Schafkopf) and 3.4 (Kratzen).

:func:`score_deal` turns a record whose Play section is complete into a :class:`Settlement`: the items scored (game,
bonuses, Laufende, trick payouts, penalties), who wins each and for how much, and the payment of every seat. Every
settlement sums to zero (Kratzen: together with the change of the pot), because each item is paid out by a rule that
balances on its own. The choices RULES.md leaves open are written down in docs/scoring.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence, cast

from .announcements import Announcement, parse_announcements
from .deal import MAX_NUMBER_DIGITS, small_number
from .errors import ParseError, StichError, is_whole_number
from .games import games_with
from .games.base import Game, Rules
from .position import Position, check_position
from .state import PlayState

#: Kontra level names by multiplier, for the reason texts.
LEVEL_NAMES = {1: "", 2: "Kontra", 4: "Retour", 8: "Supra", 16: "Resupra"}
#: Silent values of the Zwanzigerrufen bonuses (Valat is a multiple of the game value instead).
SILENT_VALUES = {"absolut": 1, "pagat_ultimo": 1, "trull": 1, "four_kings": 2, "mondfang": 1}
BONUS_LABELS = {"game": "Game", "absolut": "Absolut", "pagat_ultimo": "Pagat Ultimo", "valat": "Valat",
                "trull": "Trull", "four_kings": "4 Kings", "mondfang": "Mondfang"}
#: RULES.md 1.7 order of the items.
BONUS_ORDER = ("absolut", "pagat_ultimo", "valat", "trull", "four_kings", "mondfang")
#: Bonuses that count in a Suit Solo besides the game (RULES.md 1.7).
SUIT_SOLO_BONUSES = ("absolut", "valat", "four_kings")


@dataclass(frozen=True)
class ScoreItem:
    """One scored item: ``winners`` (1-based seats) receive ``value`` = ``base`` x ``multiplier`` from ``losers``.

    The pot is the side left empty: a Kratzen trick payout has empty ``losers`` (the pot pays its winner), a
    penalty empty ``winners`` (the pot receives it). ``value`` 0 marks an item listed for information only (e.g. a
    44:44 under ``tie_44=no_score``, or Kratzen with an empty pot)."""

    name: str
    winners: tuple[int, ...]
    base: int
    multiplier: int
    announced: bool
    value: int
    reason: str
    losers: tuple[int, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "winners": list(self.winners), "losers": list(self.losers), "base": self.base,
                "multiplier": self.multiplier, "announced": self.announced, "value": self.value,
                "reason": self.reason}


@dataclass(frozen=True)
class Settlement:
    """The score of one deal: its items, the payment of every seat (1-based order) and, in Kratzen, the pot."""

    game: str
    contract: str
    items: tuple[ScoreItem, ...]
    payments: tuple[int, ...]
    pot: int | None = None
    pot_change: int = 0
    notes: tuple[str, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "contract": self.contract, "items": [i.as_dict() for i in self.items],
                "payments": list(self.payments), "pot": self.pot, "pot_change": self.pot_change,
                "notes": list(self.notes)}


# --- shared -----------------------------------------------------------------------------------------------------


def seats_of(side: frozenset[int]) -> tuple[int, ...]:
    """0-based seats as the sorted 1-based tuple that documents show."""
    return tuple(s + 1 for s in sorted(side))


def item_payments(item: ScoreItem, seats: int) -> list[int]:
    """What one two-sided item pays each seat.

    The larger side moves ``value`` a seat (both sides in a 2 against 2); the smaller side balances it, so a solo
    item gives the soloist +-3v and each defender -+v, and the item always sums to zero."""
    result = [0] * seats
    winners, losers = item.winners, item.losers
    if not item.value or not winners or not losers:
        return result
    if len(winners) >= len(losers):
        total = item.value * len(winners)
        for seat in winners:
            result[seat - 1] += item.value
        for seat in losers:
            result[seat - 1] -= total // len(losers)
    else:
        total = item.value * len(losers)
        for seat in losers:
            result[seat - 1] -= item.value
        for seat in winners:
            result[seat - 1] += total // len(winners)
    return result


def total_payments(items: Sequence[ScoreItem], seats: int) -> tuple[int, ...]:
    totals = [0] * seats
    for item in items:
        for seat, amount in enumerate(item_payments(item, seats)):
            totals[seat] += amount
    return tuple(totals)


def two_sided(name: str, rules: Rules, winner: frozenset[int], base: int, multiplier: int, announced: bool,
              reason: str) -> ScoreItem:
    """An item won by the side ``winner`` (0-based) and lost by everyone else."""
    loser = frozenset(range(rules.seats)) - winner
    return ScoreItem(name, seats_of(winner), base, multiplier, announced, base * multiplier, reason,
                     seats_of(loser))


def require_complete(position: Position) -> None:
    """Scoring reads the whole play: a record that stops early cannot be scored."""
    if not position.state.is_over:
        text = (f"scoring needs a complete Play section ({len(position.state.history)} of "
                f"{position.rules.tricks_in_deal} tricks played)")
        record = position.record
        if record is None:
            raise StichError(f"{position.label}: {text}")
        # pointed at the play's last card (where it stops), else at the record: no Play section at all
        tokens = [token for line in record.play.tricks for token in line] if record.play is not None else []
        place = tokens[-1] if tokens else (record.play.leader if record.play is not None else None)
        raise ParseError(text, source=record.source, line=place.line if place else record.line,
                         column=place.column if place else 1, expected="every card of the deal played")


# --- Zwanzigerrufen ---------------------------------------------------------------------------------------------


class AnnouncementCheck:
    """Turns a bad announcement into an error pointing at it: the item's place in the ``[Announcements]`` tag when
    the position comes from a file, else a plain StichError that quotes it."""

    def __init__(self, position: Position, from_record: bool) -> None:
        record = position.record
        self.tag = record.tag("Announcements") if record is not None and from_record else None
        self.record = record

    def fail(self, item: Announcement, message: str) -> StichError:
        text = f"seat {item.seat}: {message}"
        if self.tag is None or self.record is None:
            return StichError(f"bad announcement: {text}")
        line, column = self.tag.value_line, self.tag.value_column
        token = self.tag.value
        if 0 <= item.offset < len(self.tag.value):
            line, column = self.tag.position(item.offset)
            token = self.tag.value[item.offset:].split(",")[0].split(";")[0].strip()
        return ParseError(f"bad announcement: {text}", source=self.record.source, line=line, column=column,
                          token=token, expected="announcements that RULES.md 1.7 allows")


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


def read_claims(position: Position, items: Sequence[Announcement], check: AnnouncementCheck) -> Claims:
    """Check the announcements against RULES.md 1.7 and collect them.

    A defender's bonus is "dagegen" (a declarer's may not be); Absolut/Valat dagegen include a Kontra on the game,
    Pagat dagegen needs one. A Kontra or Supra comes from the side opposing the item, a Retour or Resupra from its
    owner, each level only on top of the one below. A Suit Solo knows only Valat, Absolut and 4 Kings."""
    rules = position.rules
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
            raise check.fail(item, f"{BONUS_LABELS[item.bonus]} does not count in a Suit Solo "
                                   "(only Valat, Absolut and 4 Kings)")
        if item.against and side == declarers:
            raise check.fail(item, "'dagegen' is said by a defender; this seat declares")
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
                raise check.fail(item, f"{LEVEL_NAMES[item.level]} on the game is said by the {who} only")
        elif (item.bonus, owner) not in claims.announced:
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
    mond_losers: tuple[int, ...] = ()  # the seats whose T21 the Skus caught
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
        """The seats whose T21 was caught by the Skus (a Sagotrick is no Mondfang)."""
        return list(self.facts.mond_losers)

    def holds_together(self, side: frozenset[int], cards: list[int]) -> bool:
        """Trull / 4 Kings: one player of ``side`` was dealt them all, or (``captured``) the side took them all."""
        if self.rules.variant["card_bonus_basis"] == "captured":
            if self.facts.declarer_captured is None:
                raise StichError("Trull and 4 Kings from captured cards need the whole play (card_bonus_basis)")
            wanted = sum(1 << c for c in cards)
            taken = self.facts.declarer_captured
            if side != self.rules.declaring_side:
                taken = ~taken
            return taken & wanted == wanted
        deal = self.rules.deal
        return any(all(deal.hands[seat] >> c & 1 for c in cards) for seat in side)

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
    who = "declarers" if side == rules.declaring_side else "defenders"
    return f"{who} {rules.describe_side(side)}"


def tarock_game_item(rules: Rules, outcome: TarockOutcome, claims: Claims) -> ScoreItem:
    declarers = rules.declaring_side
    points = outcome.declarer_points
    level = claims.level("game", declarers)
    value = game_value(rules)
    if points == 44 and rules.variant["tie_44"] == "no_score":
        return ScoreItem("game", (), value, level, False, 0, "44:44 scores nothing (tie_44=no_score)")
    if points >= 45:
        return two_sided("game", rules, declarers, value, level, False,
                         f"the declarers took {points} points (45 needed)")
    return two_sided("game", rules, outcome.other(declarers), value, level, False,
                     f"the declarers took {points} points (45 needed)")


def tarock_bonus_items(rules: Rules, outcome: TarockOutcome, claims: Claims, bonus: str) -> list[ScoreItem]:
    """The items of one bonus: each announcement settled (made, or failed to the other side); when nobody announced
    it, a silent achievement, or the silent Pagat beaten in the last trick."""
    label = BONUS_LABELS[bonus]
    items = []
    owners = claims.owners(bonus)
    for side in owners:
        base = bonus_base(rules, bonus, True)
        level = claims.level(bonus, side)
        if outcome.achieved(bonus, side):
            items.append(two_sided(bonus, rules, side, base, level, True,
                                   f"{label} announced by the {side_name(rules, side)}: made"))
        else:
            items.append(two_sided(bonus, rules, outcome.other(side), base, level, True,
                                   f"{label} announced by the {side_name(rules, side)}: failed"))
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
            items.append(two_sided(bonus, rules, side, base, 1, False, f"{label} made silently"))
    if bonus == "pagat_ultimo":
        pagat_seat = outcome.facts.pagat_seat
        if pagat_seat is not None and outcome.facts.pagat_beaten:
            side = rules.side_of(pagat_seat)
            items.append(two_sided(bonus, rules, outcome.other(side), base, 1, False,
                                   f"silent Pagat of seat {pagat_seat + 1} beaten in the last trick"))
    return items


def apply_valat_mode(rules: Rules, items: list[ScoreItem]) -> tuple[list[ScoreItem], list[str]]:
    """``valat_mode``: what an achieved Valat does to the other items (a failed announced Valat is an ordinary
    item in every mode)."""
    mode = rules.variant["valat_mode"]
    made = [i for i in items if i.name == "valat" and i.reason.endswith(("made", "made silently"))]
    if not made or mode == "separate":
        return items, []
    if mode == "replaces_game":
        return [i for i in items if i.name != "game"], ["the Valat replaces the game (valat_mode=replaces_game)"]
    if mode == "cancels_other_bonuses":
        return ([i for i in items if i.name in ("game", "valat")],
                ["the Valat cancels every other bonus (valat_mode=cancels_other_bonuses)"])
    valat = made[0]
    factor = (12 if valat.announced else 6) * valat.multiplier
    result = []
    for item in items:
        if item is valat:
            result.append(ScoreItem("valat", item.winners, factor, 1, item.announced, 0,
                                    f"{item.reason}; multiplies every other item by {factor}", item.losers))
        else:
            result.append(ScoreItem(item.name, item.winners, item.base * factor, item.multiplier, item.announced,
                                    item.value * factor, f"{item.reason}; x{factor} for the Valat", item.losers))
    return result, [f"the Valat multiplies every other item by {factor} (valat_mode=multiplies_total)"]


def score_zwanzigerrufen(position: Position, announcements: Sequence[Announcement], from_record: bool,
                         facts: TarockFacts | None = None) -> tuple[list[ScoreItem], list[str]]:
    """The items of a Zwanzigerrufen deal: from its play, or from ``facts`` (an outcome the settlement search
    considers)."""
    rules = position.rules
    claims = read_claims(position, announcements, AnnouncementCheck(position, from_record))
    outcome = TarockOutcome(rules, facts if facts is not None else TarockFacts.from_state(rules, position.state))
    items = [tarock_game_item(rules, outcome, claims)]
    bonuses = SUIT_SOLO_BONUSES if rules.contract.kind == "suitsolo" else BONUS_ORDER
    for bonus in BONUS_ORDER:
        if bonus in bonuses:
            items.extend(tarock_bonus_items(rules, outcome, claims, bonus))
    return apply_valat_mode(rules, items)


# --- Schafkopf --------------------------------------------------------------------------------------------------


def laufende(rules: Rules) -> tuple[int, frozenset[int]]:
    """(run length, holding side): the trumps from the top that one side was dealt, counted only from 3 (Rufer,
    Solo, Solo Tout) or 2 (Wenz, Wenz Tout); (0, side) below that."""
    from .games.schafkopf import trump_order

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
    minimum = 2 if kind in ("wenz", "wenztout") else 3
    return (count if count >= minimum else 0), side


def score_schafkopf(position: Position, outcome: tuple[int, int] | None = None) -> tuple[list[ScoreItem], list[str]]:
    """RULES.md 2.5: the game, Schneider/Schwarz and Laufende as items of one value v, all to the winning side.

    ``outcome`` (the declarers' card points and tricks) replaces the play's, for the settlement search."""
    rules = position.rules
    kind = rules.contract.kind
    declarers, defenders = rules.declaring_side, rules.defending_side
    if kind == "sie":
        return [two_sided("game", rules, declarers, 52, 1, False, "Sie: 20 + 4 x 8")], []
    if outcome is None:
        outcome = position.state.side_points(declarers), position.state.side_tricks(declarers)
    points, tricks = outcome
    run, holder = laufende(rules)
    tout = kind in ("wenztout", "solotout")
    if tout:
        won = tricks == rules.tricks_in_deal
        reason = f"the declarer took {tricks} of {rules.tricks_in_deal} tricks (Tout)"
    else:
        won = points >= 61
        reason = f"the declarers took {points} points (61 needed)"
    winner = declarers if won else defenders
    notes = []
    if run and rules.variant["laufende_mode"] == "only_if_holder_wins" and holder != winner:
        notes.append(f"{run} Laufende of the losing side do not count (laufende_mode=only_if_holder_wins)")
        run = 0
    base = {"rufer": 1, "wenz": 5, "solo": 5, "wenztout": 10, "solotout": 10}[kind]
    items = [two_sided("game", rules, winner, base, 1, False, reason)]
    if not tout:
        if tricks in (0, rules.tricks_in_deal):
            items.append(two_sided("schwarz", rules, winner, 2, 1, False, "one side took every trick"))
        elif points >= 91 or points <= 30:
            items.append(two_sided("schneider", rules, winner, 1, 1, False,
                                   f"the declarers took {points} points (91 or 30 and less)"))
    if run:
        per_run = 2 if tout else 1
        items.append(two_sided("laufende", rules, winner, per_run * run, 1, False,
                               f"{run} Laufende held by {rules.describe_side(holder)}"
                               + (" (x2 in a Tout)" if tout else "")))
    return items, notes


# --- Kratzen ----------------------------------------------------------------------------------------------------


def check_scoring_inputs(game: type[Game], pot: object, announcements: object = None) -> None:
    """A ``pot`` for a game without one (``Game.has_pot``) or ``announcements`` for a game without them
    (``Game.has_announcements``) are refused, not ignored."""
    if pot is not None and not game.has_pot:
        raise StichError(f"a pot belongs to {games_with('has_pot')}'s scoring; {game.name} has none (pot={pot!r})")
    if announcements is not None and not game.has_announcements:
        raise StichError(f"announcements belong to {games_with('has_announcements')}'s scoring; {game.name} has none "
                         f"(announcements={announcements!r})")


#: The largest pot: the tag's limit of nine digits (``solver.deal.MAX_NUMBER_DIGITS``), for the argument too.
MAX_POT = 10 ** MAX_NUMBER_DIGITS - 1


def read_pot(position: Position, pot: int | None) -> int:
    """The pot from the argument, else the ``[Pot]`` tag, else 0."""
    if pot is not None:
        if not is_whole_number(pot):
            raise StichError(f"the pot is a whole number of chips, not {pot!r}")
        if not 0 <= pot <= MAX_POT:
            raise StichError(f"the pot is from 0 to {MAX_POT:,} chips, not {pot}")
        return pot
    record = position.record
    tag = record.tag("Pot") if record is not None else None
    if tag is None:
        return 0
    chips = small_number(tag.value)
    if chips is None:
        source = record.source if record is not None else "<input>"
        raise ParseError("[Pot] is not a number of chips", source=source, line=tag.value_line,
                         column=tag.value_column, token=tag.value, expected=f"a whole number from 0 to {MAX_POT:,}")
    return chips


def score_kratzen(position: Position, pot: int, winners: Sequence[int] | None = None
                  ) -> tuple[list[ScoreItem], list[str]]:
    """RULES.md 3.4: tricks paid from the pot (not in a Muss), penalties paid into it.

    ``winners`` (the seat that took each trick, in order) replaces the play's, for the settlement search."""
    rules = position.rules
    muss = rules.contract.modifier in ("muss", "sevenmuss")
    items = []
    share = pot // 4
    if winners is None:
        winners = [trick.winner for trick in position.state.history]
    if not muss:
        for number, winner in enumerate(winners, 1):
            items.append(ScoreItem(f"trick {number}", (winner + 1,), share, 1, False, share,
                                   f"seat {winner + 1} won trick {number}: P/4 from the pot"))
    for seat in range(rules.seats):
        target = rules.target(seat)  # type: ignore[attr-defined]
        taken = sum(1 for winner in winners if winner == seat)
        if taken < target:
            attacker = seat == rules.declarer
            penalty = pot * (2 if attacker else 1)
            items.append(ScoreItem("penalty", (), pot, 2 if attacker else 1, False, penalty,
                                   f"seat {seat + 1} took {taken} of {target} tricks"
                                   + (" (the attacker pays 2P)" if attacker else ""), (seat + 1,)))
    notes = ["a Muss deal: no trick payouts"] if muss else []
    if pot == 0:
        notes.append("pot 0: tricks and targets only (give --pot or a [Pot] tag)")
    return items, notes


def kratzen_payments(items: Sequence[ScoreItem], seats: int) -> tuple[tuple[int, ...], int]:
    """Payments between the seats and the pot: trick payouts leave it, penalties go into it."""
    totals = [0] * seats
    pot_change = 0
    for item in items:
        for seat in item.winners:
            totals[seat - 1] += item.value
            pot_change -= item.value
        for seat in item.losers:
            totals[seat - 1] -= item.value
            pot_change += item.value
    return tuple(totals), pot_change


# --- entry point ------------------------------------------------------------------------------------------------


def record_announcements(position: Position) -> list[Announcement]:
    record = position.record
    text = record.get("Announcements") if record is not None else None
    return parse_announcements(text, position.rules.seats) if text else []


def choose_announcements(position: Position, announcements: str | Sequence[Announcement] | None
                         ) -> tuple[list[Announcement], bool]:
    """The announcements to score with, and whether they are the record's: the argument (tag text or a list of
    Announcement) overrides the record's ``[Announcements]`` tag."""
    if announcements is None:
        return record_announcements(position), True
    if isinstance(announcements, str):
        return parse_announcements(announcements, position.rules.seats), False
    if isinstance(announcements, (list, tuple)) and all(isinstance(a, Announcement) for a in announcements):
        return list(announcements), False
    raise StichError(f"announcements are the [Announcements] tag's text ('2: Kontra; 1: Pagat') or a list of "
                     f"Announcement, not {announcements!r}")


def score_deal(position: Position, *, pot: int | None = None,
               announcements: str | Sequence[Announcement] | None = None) -> Settlement:
    """The settlement of a finished deal (RULES.md 1.7, 2.5, 3.4).

    ``announcements`` (Zwanzigerrufen) overrides the record's ``[Announcements]`` tag; ``pot`` (Kratzen) overrides
    its ``[Pot]`` tag. Raises StichError when the Play section is not complete (a Schafkopf Sie needs none) and
    ParseError, pointing into the tag, for announcements RULES.md 1.7 does not allow."""
    rules = check_position(position).rules
    check_scoring_inputs(position.game, pot, announcements)
    game = position.game.name
    if not (game == "Schafkopf" and rules.contract.kind == "sie"):
        require_complete(position)
    notes: list[str]
    pot_value: int | None = None
    pot_change = 0
    if game == "Zwanzigerrufen":
        chosen, from_record = choose_announcements(position, announcements)
        items, notes = score_zwanzigerrufen(position, chosen, from_record)
        payments = total_payments(items, rules.seats)
    elif game == "Schafkopf":
        items, notes = score_schafkopf(position)
        payments = total_payments(items, rules.seats)
    else:
        pot_value = read_pot(position, pot)
        items, notes = score_kratzen(position, pot_value)
        payments, pot_change = kratzen_payments(items, rules.seats)
    if not position.game.is_whole(rules.deal):
        notes.append("an ending: scored on the cards it holds, as a whole deal would be (docs/scoring.md)")
    if sum(payments) + pot_change != 0:  # every rule above balances; a failure here is a bug, not bad input
        raise AssertionError(f"settlement does not sum to zero: {payments} {pot_change}")
    return Settlement(game, str(rules.contract), tuple(items), payments, pot_value, pot_change, tuple(notes))


def score_report(position: Position, *, pot: int | None = None) -> dict[str, Any]:
    """``stich score``'s JSON document for one position: the record header and the settlement, under the same
    ``schema`` and ``command`` keys as every other document, so that a reader of mixed JSON Lines can tell it apart."""
    from .analysis import SCHEMA, contract_header, record_header

    document = {"schema": SCHEMA, "command": "score", **record_header(position), **contract_header(position)}
    document.update(score_deal(position, pot=pot).as_dict())
    return document


__all__ = ["ScoreItem", "Settlement", "score_deal", "score_report"]
