"""The engine's quick bounds (everything in play, sure tricks, Pagat feasibility) always contain the true value."""

from __future__ import annotations

import random

import pytest

from game_cases import CONFIGS, config_id, random_rules, random_state
from solver.errors import InvalidContractError
from solver.search import reference
from solver.search.engine import EngineSolver

ENGINE = EngineSolver(1)
DECIDED: list[int] = []


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_quick_bounds_contain_the_reference_value(config):
    rng = random.Random("bounds:" + config_id(config))
    tight = 0
    for number in range(24):
        rules = random_rules(config, rng)
        state = random_state(rules, rng, tricks_left=2 + number % 2)
        for name in rules.objective_names():
            for seat in (range(rules.seats) if name == "tricks" else [None]):
                try:
                    objective = rules.objective(name, seat)
                except InvalidContractError:
                    continue
                ENGINE._load(state, objective)
                lower, upper = ENGINE.engine.quick_bounds()
                value = reference.ReferenceSolver(objective).value(state)
                assert lower <= value <= upper, (config_id(config), number, name, seat, lower, value, upper)
                tight += lower == value == upper
    DECIDED.append(tight)


def test_the_bounds_decide_some_positions_outright():
    assert sum(DECIDED) > 0
