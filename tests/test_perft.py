"""Move generation pinned by perft counts (tests/data/perft.txt) for every game and contract."""

from __future__ import annotations

import pytest

from perft_data import load_perft_cases
from solver import make_position
from solver.search.engine import EngineSolver
from solver.search.reference import divide, perft

#: two threads really run two, even on a one-core machine (conftest.py)
pytestmark = pytest.mark.usefixtures("two_cores_at_least")

CASES = load_perft_cases()
ENGINES = {threads: EngineSolver(1, threads=threads) for threads in (1, 2)}


def test_the_data_covers_every_game_and_many_contracts():
    assert {c.game for c in CASES} == {"Zwanzigerrufen", "Schafkopf", "Kratzen"}
    assert len({(c.game, c.contract) for c in CASES}) >= 12
    assert sum(len(c.counts) for c in CASES) >= 200


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_perft_counts(case):
    position = make_position(case.game, case.deal, case.contract, variant=case.variant, play=case.play)
    found = {depth: perft(position.state, depth) for depth in case.counts}
    assert found == case.counts


@pytest.mark.parametrize("threads", sorted(ENGINES))
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_engine_move_generator_gives_the_same_counts(case, threads):
    position = make_position(case.game, case.deal, case.contract, variant=case.variant, play=case.play)
    found = {depth: ENGINES[threads].perft(position.state, depth) for depth in case.counts}
    assert found == case.counts


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_divide_adds_up_to_perft(case):
    position = make_position(case.game, case.deal, case.contract, variant=case.variant, play=case.play)
    split = {position.pack[c].name: n for c, n in divide(position.state, case.divide_depth).items()}
    assert split == case.divide
    assert sum(split.values()) == case.counts[case.divide_depth]


def test_first_level_is_the_number_of_legal_cards():
    for case in CASES:
        position = make_position(case.game, case.deal, case.contract, variant=case.variant, play=case.play)
        assert case.counts[1] == position.state.legal_cards().bit_count()
