"""The compiled engine against the reference solver: seeded random positions, every game x contract x objective.

Each position is an ending of 3-5 tricks (a third of them with a trick in progress) reached by random legal play
from a seeded deal. Position k of a configuration is checked for the k-th objective of its contract in rotation
(every seat in turn for Kratzen), so all objectives are covered without solving every position nine times: the
engine must give the reference's value, the value of every legal card and the same principal variation. The default
run checks 100 positions for each of the 20 configurations, 2,000 in all; ``STICH_LONG=1`` makes it ten times
larger. Zero disagreements are allowed.
"""

from __future__ import annotations

import os
import random

import pytest

from game_cases import CONFIGS, config_id, random_rules, random_state
from solver.errors import InvalidContractError
from solver.search import reference
from solver.search.engine import EngineSolver

SCALE = 10 if os.environ.get("STICH_LONG") else 1
POSITIONS_PER_CONFIG = 100 * SCALE
ENGINE = EngineSolver(8)


#: Tricks left, position by position: mostly 3 (cheap for the reference), every sixth 4, every twelfth 5.
TRICKS_CYCLE = (3, 3, 4, 3, 3, 5, 3, 3, 4, 3, 3, 3)


def _tricks(rules, number: int) -> int:
    """Endings of 3 to 5 tricks (Kratzen deals have 4 tricks: at most 4)."""
    return min(TRICKS_CYCLE[number % len(TRICKS_CYCLE)], rules.tricks_in_deal)


def _objectives(rules):
    for name in rules.objective_names():
        for seat in (range(rules.seats) if name == "tricks" else [None]):
            try:
                yield rules.objective(name, seat)
            except InvalidContractError:
                continue  # e.g. Pagat Ultimo when the Pagat was already played


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_engine_agrees_with_reference(config):
    rng = random.Random("differential:" + config_id(config))
    names = set()
    for number in range(POSITIONS_PER_CONFIG):
        rules = random_rules(config, rng)
        state = random_state(rules, rng, tricks_left=_tricks(rules, number), mid_trick=number % 3 == 0)
        objectives = list(_objectives(rules))
        objective = objectives[number % len(objectives)]
        expected = reference.solve(state, objective, cards=True, line=True)
        got = ENGINE.solve(state, objective, cards=True, line=True)
        where = f"{config_id(config)} #{number} {objective.name} {sorted(objective.maximiser)}"
        assert got.future == expected.future, where
        assert got.card_values == expected.card_values, where
        assert got.line == expected.line, where
        assert got.success == expected.success, where
        names.add(objective.name)
    assert names == set(rules.objective_names())  # every objective of the contract was checked


def test_the_default_run_checks_2000_positions():
    assert len(CONFIGS) * POSITIONS_PER_CONFIG >= 2000 * SCALE
