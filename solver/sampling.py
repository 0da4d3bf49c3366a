"""Single-dummy analysis: what one hand can expect when the other hands are unknown.

The unseen cards are dealt at random many times under what is known (cards known to be in a given hand, the hand
sizes, what the contract implies), each sample is solved double-dummy, and the results are averaged. Why this way:

* Sample ``k`` is drawn from its own generator seeded with ``f"{seed}:{k}"``, so the analysis is the same whatever
  the number of workers and however the samples are split into chunks.
* What the contract implies (the Zwanzigerrufen forehand never holds the called tarock, a Rufer caller never holds
  the called ace, ...) is exactly what the game's ``rules(...)`` refuses, so a sample the rules refuse is redrawn
  from the same generator: no game-specific code here.
* Workers return integer sums per chunk (counts, sums, sums of squares), never per-sample tables: little to send
  back, and integer sums do not depend on the order in which chunks finish.
* When the analysed hand is to move, its cards' values are solved first and the sample's value is read off them
  (the best card's): one search fewer per sample.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Mapping

from .analysis import can_force, objectives_named
from .batch import local_workers, process_pool, stop_pool, worker_engine
from .deal import Deal, parse_hand
from .errors import InvalidContractError, InvalidDealError, StichError
from .games import get_game
from .games.base import Game, Objective, Rules
from .position import Position
from .search.engine import EngineSolver

#: Redraws of one sample before the constraints are declared impossible.
MAX_REDRAWS = 2_000
#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959964


@dataclass(frozen=True)
class Setup:
    """What every sample shares: the game, the fixed cards of each seat, the contract and who declares."""

    game: str
    seats: int
    fixed: tuple[int, ...]  # masks: the analysed hand and the known cards, by seat
    seat: int  # 0-based
    contract: str
    declarer: int  # 1-based
    variant: tuple[tuple[str, object], ...]
    seed: int


@dataclass(frozen=True)
class BonusChance:
    """How often a yes/no objective can be forced, and whether it is for the analysed hand's side or against it
    (decided per sample: a partner named by the deal changes the sides)."""

    name: str
    seat: int | None
    description: str
    for_side: int  # samples where the maximising side was the hand's
    forced_for: int
    forced_against: int
    samples: int

    @property
    def probability_for(self) -> float:
        return self.forced_for / self.samples if self.samples else 0.0

    @property
    def probability_against(self) -> float:
        return self.forced_against / self.samples if self.samples else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"objective": self.name, "seat": self.seat, "description": self.description,
                "probability_for": self.probability_for, "probability_against": self.probability_against,
                "samples_for_side": self.for_side}


@dataclass(frozen=True)
class OpeningCard:
    """A legal opening card of the hand: its mean value for the hand's side and how often it still wins."""

    card: str
    mean: float
    win_probability: float

    def as_dict(self) -> dict[str, Any]:
        return {"card": self.card, "mean": self.mean, "win_probability": self.win_probability}


@dataclass(frozen=True)
class HandAnalysis:
    """The single-dummy report of one hand: win chance, bonus chances, mean points (or tricks) with a 95%
    interval, and every opening card's value when the hand leads."""

    game: str
    contract: str
    seat: int
    hand: tuple[str, ...]
    known: dict[int, tuple[str, ...]]
    samples: int
    seed: int
    measure: str
    win_probability: float
    mean: float
    interval: tuple[float, float]
    bonuses: tuple[BonusChance, ...] = ()
    openings: tuple[OpeningCard, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        return {"command": "analyse", "game": self.game, "contract": self.contract, "seat": self.seat,
                "hand": list(self.hand), "known": {str(s): list(c) for s, c in self.known.items()},
                "samples": self.samples, "seed": self.seed, "measure": self.measure,
                "win_probability": self.win_probability, "mean": self.mean, "interval": list(self.interval),
                "bonuses": [b.as_dict() for b in self.bonuses], "openings": [o.as_dict() for o in self.openings]}


# --- drawing ----------------------------------------------------------------------------------------------------


def draw_rules(setup: Setup, k: int) -> Rules:
    """Sample ``k``: the unseen cards dealt uniformly to fill every hand, redrawn until the rules accept the deal."""
    game = get_game(setup.game)
    rng = random.Random(f"{setup.seed}:{k}")
    used = 0
    for mask in setup.fixed:
        used |= mask
    unseen = [card for card in range(len(game.pack)) if not used >> card & 1]
    for _ in range(MAX_REDRAWS):
        rng.shuffle(unseen)
        hands = list(setup.fixed)
        position = 0
        for s in range(setup.seats):
            missing = game.hand_size - hands[s].bit_count()
            for card in unseen[position:position + missing]:
                hands[s] |= 1 << card
            position += missing
        try:
            return game.rules(Deal(game.pack, tuple(hands)), setup.contract, declarer=setup.declarer,
                              variant=dict(setup.variant) or None)
        except (InvalidContractError, InvalidDealError):
            continue
    raise StichError(f"no deal of the unseen cards suits {game.name} {setup.contract} with declarer "
                     f"{setup.declarer} and the cards given ({MAX_REDRAWS} tries): check the hand and --known")


# --- one sample --------------------------------------------------------------------------------------------------


def _win_objective(rules: Rules, seat: int) -> Objective:
    """What winning means for the hand: the contract's ``game`` where there is one, else the seat's own target
    (Kratzen)."""
    if "game" in rules.objective_names():
        return rules.objective("game")
    return rules.objective(rules.objective_names()[0], seat)


def _measure_objective(rules: Rules, seat: int) -> tuple[str, Objective]:
    """Card points where the game counts them, else the seat's tricks."""
    if "points" in rules.objective_names():
        return "points", rules.objective("points")
    return "tricks", rules.objective(rules.objective_names()[0], seat)


def _for_hand(value: int, objective: Objective, seat: int, everything: int) -> int:
    """A maximiser's value as the hand's side sees it (zero-sum: the rest goes to the other side)."""
    return value if seat in objective.maximiser else everything - value


def _wins(total: int, objective: Objective, seat: int) -> bool:
    """Whether the hand's side wins when the maximiser's total is ``total``: the target reached, or for the
    defenders the target missed."""
    assert objective.target is not None
    reached = total >= objective.target
    return reached if seat in objective.maximiser else not reached


def _empty_sums() -> dict[str, Any]:
    return {"n": 0, "sum": 0, "squares": 0, "wins": 0, "bonuses": {}, "cards": {}}


def _from_measure(objective: Objective, measure: Objective, value: int, everything: int) -> int | None:
    """The maximiser's total for ``objective`` read off the measure's exact value, when both count the same thing
    (card points with a target, for the same side or for the other one): one search instead of one per bonus."""
    if (objective.points_weight, objective.trick_weight, objective.events) != \
            (measure.points_weight, measure.trick_weight, measure.events) or objective.events:
        return None
    if objective.maximiser == measure.maximiser:
        return value
    if not objective.maximiser & measure.maximiser:
        return everything - value
    return None


def _add_sample(sums: dict[str, Any], rules: Rules, seat: int, engine: EngineSolver) -> None:
    """Solve one sample and add it to the chunk's integer sums. Targets counted in the measure's own unit are read
    off its exact value; the others (tricks, events) get a yes/no search each."""
    state = rules.start()
    position = Position(rules.game, rules, state)
    name, measure = _measure_objective(rules, seat)
    everything = rules.pack.points(rules.deal.cards) if name == "points" else rules.tricks_in_deal
    win = _win_objective(rules, seat)
    measure_cards = None
    if state.to_move == seat:  # the cards' values give the value too, in less time than a search of its own
        measure_value, measure_cards = engine.value_and_cards(state, measure)
    else:
        measure_value = engine.value(state, measure)
    value = _for_hand(measure_value, measure, seat, everything)
    win_value = _from_measure(win, measure, measure_value, everything)
    if win_value is None:
        win_value = engine.value(state, win)
    sums["n"] += 1
    sums["sum"] += value
    sums["squares"] += value * value
    sums["wins"] += int(_wins(win_value, win, seat))
    if state.to_move == seat:
        assert measure_cards is not None
        if _from_measure(win, measure, 0, everything) is None:
            win_values = {cv.card: cv.value for cv in engine.card_values(state, win, win_value)}
        else:
            win_values = {cv.card: _from_measure(win, measure, cv.value, everything) for cv in measure_cards}
        for cv in measure_cards:
            entry = sums["cards"].setdefault(cv.card, [0, 0, 0])
            entry[0] += 1
            entry[1] += _for_hand(cv.value, measure, seat, everything)
            entry[2] += int(_wins(win_values[cv.card], win, seat))
    for bonus in rules.objective_names():
        try:
            pairs = objectives_named(position, bonus)
        except InvalidContractError:
            continue  # the bonus cannot arise on this sample (the Pagat in no hand, ...)
        for bonus_seat, objective in pairs:
            if objective.target is None:
                continue
            total = _from_measure(objective, measure, measure_value, everything)
            forced = total >= objective.target if total is not None else can_force(position, objective,
                                                                                 engine=engine)
            mine = seat in objective.maximiser
            entry = sums["bonuses"].setdefault((bonus, bonus_seat), [objective.description, 0, 0, 0])
            entry[1] += int(mine)
            if forced:
                entry[2 if mine else 3] += 1


def sample_chunk(setup: Setup, first: int, count: int) -> dict[str, Any]:
    """Samples ``first`` .. ``first + count - 1``, solved by one worker, as integer sums."""
    engine = worker_engine()
    sums = _empty_sums()
    for k in range(first, first + count):
        _add_sample(sums, draw_rules(setup, k), setup.seat, engine)
    return sums


def _merge(total: dict[str, Any], part: dict[str, Any]) -> None:
    for key in ("n", "sum", "squares", "wins"):
        total[key] += part[key]
    for key, (description, *counts) in part["bonuses"].items():
        entry = total["bonuses"].setdefault(key, [description, 0, 0, 0])
        for i, count in enumerate(counts, 1):
            entry[i] += count
    for card, counts in part["cards"].items():
        entry = total["cards"].setdefault(card, [0, 0, 0])
        for i, count in enumerate(counts):
            entry[i] += count


# --- the analysis -------------------------------------------------------------------------------------------------


def _setup(game: type[Game], hand: str, seat: int, contract: str, known: Mapping[int, str] | None, declarer: int,
           variant: Mapping[str, object] | None, seats: int, seed: int) -> Setup:
    """Check the hand and the known cards once, before any sampling, with messages a player can act on."""
    if not 1 <= seat <= seats:
        raise StichError(f"seat {seat} is not a seat of a {seats}-seat {game.name} deal")
    game.parse_contract(contract)  # a bad contract fails at once, not after every redraw
    fixed = [0] * seats
    fixed[seat - 1] = parse_hand(game.pack, hand, seat - 1)
    if fixed[seat - 1].bit_count() != game.hand_size:
        raise InvalidDealError(f"seat {seat}: a {game.name} hand holds {game.hand_size} cards, "
                               f"this one {fixed[seat - 1].bit_count()}")
    for other, cards in (known or {}).items():
        if not 1 <= other <= seats:
            raise StichError(f"known cards for seat {other}: not a seat of a {seats}-seat deal")
        if other == seat:
            raise StichError(f"known cards for seat {other}: that is the analysed hand")
        mask = parse_hand(game.pack, cards, other - 1)
        for s, held in enumerate(fixed):
            if held & mask:
                raise InvalidDealError(f"seat {other}: {', '.join(game.pack.names(held & mask))} already in "
                                       f"seat {s + 1}")
        fixed[other - 1] |= mask
        if fixed[other - 1].bit_count() > game.hand_size:
            raise InvalidDealError(f"seat {other}: more than {game.hand_size} known cards")
    return Setup(game.name, seats, tuple(fixed), seat - 1, contract, declarer,
                 tuple(sorted((variant or {}).items())), seed)


def analyse_hand(game: str | type[Game], hand: str, seat: int, contract: str, *,
                 known: Mapping[int, str] | None = None, samples: int = 200, seed: int = 0,
                 workers: int | None = None, declarer: int = 1, variant: Mapping[str, object] | None = None,
                 seats: int | None = None) -> HandAnalysis:
    """The single-dummy analysis of ``hand`` held by ``seat`` (1-based) under ``contract`` (declared by
    ``declarer``): ``samples`` deals of the unseen cards, each solved double-dummy.

    ``known`` maps seats to cards known to be in their hands. The result is the same for a given ``seed`` whatever
    ``workers`` is (default: every local core; 1 runs in this process). Raises StichError for an impossible hand or
    constraints."""
    game = get_game(game)
    if samples < 1:
        raise StichError(f"samples must be at least 1, not {samples}")
    setup = _setup(game, hand, seat, contract, known, declarer, variant, seats or game.seat_counts[0],
                   seed)
    count = min(local_workers(workers), samples)
    size = max(1, min(50, -(-samples // (4 * count))))
    spans = [(first, min(size, samples - first)) for first in range(0, samples, size)]
    total = _empty_sums()
    if count == 1:
        for first, n in spans:
            _merge(total, sample_chunk(setup, first, n))
    else:
        pool = process_pool(count)
        try:
            for part in pool.map(sample_chunk, *zip(*[(setup, f, n) for f, n in spans])):
                _merge(total, part)
        except BaseException:
            stop_pool(pool)
            raise
        pool.shutdown(wait=True)
    return _report(game, setup, total, seed, known)


def _report(game: type[Game], setup: Setup, total: dict[str, Any], seed: int,
            known: Mapping[int, str] | None) -> HandAnalysis:
    n = total["n"]
    mean = total["sum"] / n
    variance = max(0.0, (total["squares"] - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    half = Z95 * math.sqrt(variance / n)
    bonuses = tuple(BonusChance(name, s, description, mine, forced_for, forced_against, n)
                    for (name, s), (description, mine, forced_for, forced_against)
                    in sorted(total["bonuses"].items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)))
    openings = tuple(sorted((OpeningCard(game.pack[card].name, count_sum / count, wins / count)
                             for card, (count, count_sum, wins) in total["cards"].items()),
                            key=lambda o: (-o.win_probability, -o.mean, o.card)))
    measure = "points" if "points" in draw_rules(setup, 0).objective_names() else "tricks"
    return HandAnalysis(game.name, setup.contract, setup.seat + 1, tuple(game.pack.names(setup.fixed[setup.seat])),
                        {s: tuple(game.pack.names(setup.fixed[s - 1])) for s in sorted(known or {})}, n, seed,
                        measure, total["wins"] / n, mean, (mean - half, mean + half), bonuses, openings)


__all__ = ["BonusChance", "HandAnalysis", "OpeningCard", "analyse_hand"]
