"""The API's results print for people: a card in a result shows its name, not the engine's pack index."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

import solver
from solver.search.results import CardIndex, CardValue

VALAT = Path(__file__).resolve().parents[1] / "examples" / "valat.tbn"


@pytest.fixture(scope="module")
def valat():
    return next(solver.read_positions(VALAT))


@pytest.mark.parametrize("how", [{"objective": "valat"}, {"objective": "valat", "reference_solver": True},
                                 {"objective": "score"}])
def test_card_values_print_by_name_and_stay_pack_indices(valat, how):
    """``print(result.card_values)`` showed ``CardValue(card=5, value=5)``: a number the reader had to look up in the
    pack. The card is now a CardIndex, printed by name and still the int a script keys, plays and writes."""
    result = solver.solve(valat, how.pop("objective"), cards=True, **how)
    first = result.card_values[0]
    assert repr(first).startswith("CardValue(card=T17, value=")
    assert "card=5" not in repr(result.card_values)
    assert first.card == 5 and isinstance(first.card, int) and first.card.card == "T17"
    assert str(first.card) == f"{first.card}" == "5"  # str and f-strings keep the digits, as an IntEnum's do
    assert dict(result.card_values)[5] == first.value  # keyed by pack indices, as docs/api.md says
    assert json.loads(json.dumps(result.card_values))[0] == [5, first.value]
    assert valat.play(first.card).played[-1] == 5
    copy = pickle.loads(pickle.dumps(result))
    assert copy == result and repr(copy.card_values) == repr(result.card_values)


def test_a_result_made_without_a_pack_keeps_plain_indices():
    made = solver.SolveResult(objective=solver.Objective("points", frozenset({0}), "points"), achieved=0, future=3,
                              card_values=(CardValue(4, 3),))
    assert repr(made.card_values) == "(CardValue(card=4, value=3),)"
    assert not isinstance(made.card_values[0].card, CardIndex)
