"""The compiled engine against the reference solver: seeded random positions, every game x contract x objective.

Each position is an ending of 3-5 tricks (a third of them with a trick in progress) reached by random legal play
from a seeded deal. Position k of a configuration is checked for the k-th objective of its contract in rotation
(every seat in turn for Kratzen), so all objectives are covered without solving every position nine times: the
engine must give the reference's value, the value of every legal card and the same principal variation. Zero
disagreements are allowed.

The fast tier (``-m "not slow"``) checks a small sample of its own: 12 endings a configuration, 240 in all, each
objective at least once, of 3 tricks (one of 4), which the reference solves in milliseconds. The full sample is marked
slow: 100 positions for each of the 20 configurations, 2,000 in all; ``STICH_LONG=1`` makes it ten times larger.
"""

from __future__ import annotations

import os
import random

import pytest

from game_cases import CONFIGS, config_id, random_rules, random_state
from solver.errors import InvalidContractError
from solver.search import reference
from solver.search.engine import EngineSolver

#: two threads really run two, even on a one-core machine (conftest.py)
pytestmark = pytest.mark.usefixtures("two_cores_at_least")

SCALE = 10 if os.environ.get("STICH_LONG") else 1
POSITIONS_PER_CONFIG = 100 * SCALE
#: One thread and two sharing the table (every ending searched on both: they are shorter than the default's 5 tricks)
ENGINES = (EngineSolver(8, threads=1), EngineSolver(8, threads=2))
ENGINES[1].engine.parallel_min_tricks = 2


#: Tricks left, position by position: mostly 3 (cheap for the reference), every sixth 4, every twelfth 5.
TRICKS_CYCLE = (3, 3, 4, 3, 3, 5, 3, 3, 4, 3, 3, 3)
#: The small sample's tricks left: a 4-trick ending costs the reference some twenty times a 3-trick one.
SAMPLE_TRICKS_CYCLE = (3, 3, 3, 3, 3, 4, 3, 3, 3, 3, 3, 3)


def _tricks(rules, number: int, cycle: tuple[int, ...] = TRICKS_CYCLE) -> int:
    """Endings of 3 to 5 tricks (Kratzen deals have 4 tricks: at most 4)."""
    return min(cycle[number % len(cycle)], rules.tricks_in_deal)


def _objectives(rules):
    for name in rules.objective_names():
        for seat in (range(rules.seats) if name == "tricks" else [None]):
            try:
                yield rules.objective(name, seat)
            except InvalidContractError:
                continue  # e.g. Pagat Ultimo when the Pagat was already played


def _agree(config, seed: str, positions: int, cycle: tuple[int, ...]) -> None:
    rng = random.Random(seed + config_id(config))
    names = set()
    for number in range(positions):
        rules = random_rules(config, rng)
        state = random_state(rules, rng, tricks_left=_tricks(rules, number, cycle), mid_trick=number % 3 == 0)
        objectives = list(_objectives(rules))
        objective = objectives[number % len(objectives)]
        expected = reference.solve(state, objective, cards=True, line=True)
        for engine in ENGINES:  # the reference's answer computed once for both
            got = engine.solve(state, objective, cards=True, line=True)
            where = f"{config_id(config)} #{number} {objective.name} {sorted(objective.maximiser)} x{engine.threads}"
            assert got.future == expected.future, where
            assert got.card_values == expected.card_values, where
            assert got.line == expected.line, where
            assert got.success == expected.success, where
        names.add(objective.name)
    assert names == set(rules.objective_names())  # every objective of the contract was checked


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_engine_agrees_with_reference_on_a_small_sample(config):
    _agree(config, "differential sample:", len(SAMPLE_TRICKS_CYCLE), SAMPLE_TRICKS_CYCLE)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_engine_agrees_with_reference(config):
    _agree(config, "differential:", POSITIONS_PER_CONFIG, TRICKS_CYCLE)


def test_the_default_run_checks_2000_positions():
    assert len(CONFIGS) * POSITIONS_PER_CONFIG >= 2000 * SCALE
