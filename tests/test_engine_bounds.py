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


@pytest.mark.parametrize("config", [c for c in CONFIGS if c[0] == "Zwanzigerrufen" and c[1] != "SuitSolo"],
                         ids=config_id)
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
