"""The engine's quick bounds (everything in play, sure tricks, Pagat feasibility) always contain the true value."""

from __future__ import annotations

import random

import pytest

from game_cases import CONFIGS, config_id, random_rules, random_state
from solver.errors import InvalidContractError
from solver.search import reference
from solver.search.engine import EngineSolver
from solver.games import get_game

ENGINE = EngineSolver(1)
DECIDED: list[int] = []


def objectives(rules, every_seat=True):
    """(name, seat, objective) of each objective the rules have (tricks: one a seat, unless ``every_seat`` is
    off)."""
    for name in rules.objective_names():
        for seat in (range(rules.seats) if name == "tricks" and every_seat else [None]):
            try:
                objective = rules.objective(name, seat)
            except InvalidContractError:
                continue
            yield name, seat, objective


def quick_bounds(state, objective):
    """The engine's (lower, upper) quick bounds on ``state``'s value for ``objective``."""
    ENGINE._load(state, objective)
    return ENGINE.engine.quick_bounds()


def bounds_around(state, objective, value, *context):
    """The quick bounds, asserted to contain the true ``value`` (``context`` names the case on failure)."""
    lower, upper = quick_bounds(state, objective)
    assert lower <= value <= upper, (*context, lower, value, upper)
    return lower, upper


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_quick_bounds_contain_the_reference_value(config):
    rng = random.Random("bounds:" + config_id(config))
    tight = 0
    for number in range(24):
        rules = random_rules(config, rng)
        state = random_state(rules, rng, tricks_left=2 + number % 2)
        for name, seat, objective in objectives(rules):
            value = reference.ReferenceSolver(objective).value(state)
            lower, upper = bounds_around(state, objective, value, config_id(config), number, name, seat)
            tight += lower == value == upper
    DECIDED.append(tight)


def test_the_bounds_decide_some_positions_outright():
    assert sum(DECIDED) > 0


PLAIN = EngineSolver(1, use_bounds=False)


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_quick_bounds_contain_the_value_further_from_the_end(config):
    """Four to six tricks left, where the sure tricks of several seats and the cashed classes add up; the value is
    the engine's without bounds (itself checked against the reference solver elsewhere)."""
    rng = random.Random("deeper bounds:" + config_id(config))
    for number in range(12):
        rules = random_rules(config, rng)
        state = random_state(rules, rng, tricks_left=min(4 + number % 3, rules.tricks_in_deal))
        for name, seat, objective in objectives(rules):
            bounds_around(state, objective, PLAIN.value(state, objective), config_id(config), number, name, seat)


@pytest.mark.parametrize("config", [c if "hard_pagat_reservation" in c[2] else pytest.param(c, marks=pytest.mark.slow)
                                    for c in CONFIGS if c[0] == "Zwanzigerrufen" and c[1] != "SuitSolo"],
                         ids=config_id)  # the fast tier keeps the cheapest configuration
def test_quick_bounds_while_a_sagotrick_could_strike(config):
    """Skus, Mond and Pagat live in three hands: a top-trump trick is not sure, the Pagat may take it."""
    rng = random.Random("sagotrick bounds:" + config_id(config))
    pack = get_game(config[0]).pack
    sago = [pack.parse(token).index for token in ("TS", "T21", "T1")]
    found = 0
    while found < 30:
        rules = random_rules(config, rng)
        state = random_state(rules, rng, tricks_left=2 + found % 4)
        holders = {seat for card in sago for seat in range(rules.seats) if state.hands[seat] >> card & 1}
        if len(holders) < 3:
            continue
        found += 1
        for name, _, objective in objectives(rules, every_seat=False):
            bounds_around(state, objective, PLAIN.value(state, objective), config_id(config), found, name)


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_quick_bounds_inside_a_trick(config):
    """A trick on the table: a trick already decided for one side (no card of the other side to come beats it)."""
    rng = random.Random("trick bounds:" + config_id(config))
    decided = 0
    for number in range(16):
        rules = random_rules(config, rng)
        state = random_state(rules, rng, tricks_left=min(2 + number % 4, rules.tricks_in_deal), mid_trick=True)
        for name, seat, objective in objectives(rules):
            lower, upper = bounds_around(state, objective, PLAIN.value(state, objective), config_id(config), number,
                                         name, seat)
            decided += lower > 0 or upper < ENGINE.engine.upper_bound()
    assert decided


def _sagotrick_endings(count: int, tricks: int, seed: int):
    """Zwanzigerrufen Solo endings in which TS, T21 and T1 are in three different hands and the fourth hand holds
    tarocks only: the Pagat can win the last trick by a Sagotrick although that hand's every card beats it."""
    import solver

    game = get_game("Zwanzigerrufen")
    names = [card.name for card in game.pack]
    tarocks = [n for n in names if n.startswith("T") and n not in ("TS", "T21", "T1")]
    others = [n for n in names if n not in tarocks and n not in ("TS", "T21", "T1")]
    rng = random.Random(seed)
    for _ in range(count):
        seats = rng.sample(range(4), 4)
        hands: list[list[str]] = [[] for _ in range(4)]
        for seat, card in zip(seats, ("TS", "T21", "T1")):
            hands[seat].append(card)
        pool_t, pool_o = rng.sample(tarocks, len(tarocks)), rng.sample(others, len(others))
        hands[seats[3]] = [pool_t.pop() for _ in range(tricks)]
        for seat in seats[:3]:
            while len(hands[seat]) < tricks:
                hands[seat].append(pool_t.pop() if rng.random() < 0.4 else pool_o.pop())
        deal = "1: " + " / ".join(" ".join(hand) for hand in hands)
        yield solver.make_position("Zwanzigerrufen", deal, "Solo", declarer=rng.randrange(1, 5),
                                   leader=rng.randrange(1, 5))


@pytest.mark.parametrize("tricks", [1, 2, 3])
def test_a_pagat_that_wins_by_sagotrick_is_not_ruled_out_by_the_beaters(tricks):
    """The bound "a seat holding only cards that beat the Pagat beats it in the last trick" forgot the Sagotrick:
    the engine valued such a Pagat Ultimo 0 (and its line and the settlement failed as inconsistent)."""
    import solver

    engine = EngineSolver(8)
    for position in _sagotrick_endings(40, tricks, seed=tricks):
        for objective in ("pagat_ultimo", "pagat_beaten", "points"):
            expected = solver.solve(position, objective, cards=True, reference_solver=True)
            got = solver.solve(position, objective, cards=True, line=True, engine=engine)
            assert (got.total, got.card_values) == (expected.total, expected.card_values), (position, objective)


def test_endings_with_a_sagotrick_pagat() -> None:
    import solver
    from solver.settlement import dd_settlement

    ending = solver.make_position("Zwanzigerrufen", "1: HK TS / HQ T21 / T1 T6 / HN T5", "Normal T19",
                                  play=["HK", "HQ", "T6", "HN"], partner=2)
    assert solver.solve(ending, "pagat_ultimo", line=True).total == 1
    settle = next(iter(solver.parse_positions(
        '[Game "Zwanzigerrufen"]\n[Deal "1: SQ HQ TS / SN HN T21 / SK HK T1 / SJ HJ T5"]\n[Contract "Normal T19"]\n'
        '[Partner "3"]\n[Announcements "3: Pagat"]\n')))
    assert dd_settlement(settle).value == dd_settlement(settle, reference_solver=True).value == 14
