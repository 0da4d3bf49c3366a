"""The compiled engine's boundary: every malformed input is a ValueError, never a crash."""

from __future__ import annotations

import copy

import pytest

from solver import _engine, make_position
from solver.search.engine import EngineSolver, compile_rules

POSITION = make_position("Schafkopf", "1: EO GO / HO SO / EU GU / HU SU", "Solo H")


def loaded_engine():
    engine = _engine.Engine(1)
    compiled = compile_rules(POSITION.rules)
    engine.load_tables(compiled.tables)
    engine.load_objective(0b0001, 1, 0, [])
    return engine, compiled


def test_a_valid_load_solves():
    engine, compiled = loaded_engine()
    hands = [compiled.mask(h) for h in POSITION.state.hands]
    engine.load_state(hands, 0, [], 0)
    assert engine.value() == POSITION.rules.pack.points(POSITION.rules.deal.cards)  # seat 1 holds EO GO: all


@pytest.mark.parametrize("field, value", [
    ("n_cards", 65), ("n_cards", 0), ("n_seats", 2), ("n_seats", 7), ("n_classes", 9),
])
def test_bad_table_sizes(field, value):
    engine = _engine.Engine(1)
    tables = copy.deepcopy(compile_rules(POSITION.rules).tables)
    tables[field] = value
    with pytest.raises(ValueError, match="out of range"):
        engine.load_tables(tables)


def test_bad_table_contents():
    engine = _engine.Engine(1)
    base = compile_rules(POSITION.rules).tables
    for mutate in (
        lambda t: t["card_class"].__setitem__(0, 99),
        lambda t: t["points"].__setitem__(0, -1),
        lambda t: t["stronger"].__setitem__(0, 1 << 40),
        lambda t: t["follow"][0].append((1, 0)) or t["follow"][0].extend([(1, 0)] * 4),
        lambda t: t["follow"][0].__setitem__(0, (1, 7)),
        lambda t: t.__setitem__("specials", [(1, 99, [], 1)]),
        lambda t: t.__setitem__("called", (0, 9, 0, 4, -1, 1)),
        lambda t: t.__setitem__("reservations", [(0, 0)] * 5),
        lambda t: t.__setitem__("chain", [70]),
    ):
        tables = copy.deepcopy(base)
        mutate(tables)
        with pytest.raises(ValueError):
            engine.load_tables(tables)


def test_bad_objectives():
    engine, _ = loaded_engine()
    with pytest.raises(ValueError):
        engine.load_objective(1 << 7, 1, 0, [])
    with pytest.raises(ValueError):
        engine.load_objective(1, 1, 0, [(0, 0, 99, -1, False, 1, 0)])
    with pytest.raises(ValueError):
        engine.load_objective(1, 1, 0, [(0, 0, -1, -1, False, 1, 0)] * 9)
    with pytest.raises(OverflowError):
        engine.load_objective(-1, 1, 0, [])


def test_bad_states():
    engine, compiled = loaded_engine()
    hands = [compiled.mask(h) for h in POSITION.state.hands]
    with pytest.raises(ValueError, match="two hands"):
        engine.load_state([hands[0], hands[0], hands[2], hands[3]], 0, [], 0)
    with pytest.raises(ValueError, match="number of hands"):
        engine.load_state(hands[:3], 0, [], 0)
    with pytest.raises(ValueError, match="leader"):
        engine.load_state(hands, 4, [], 0)
    with pytest.raises(ValueError, match="do not fit"):
        engine.load_state([hands[0] & (hands[0] - 1), hands[1], hands[2], hands[3]], 0, [], 0)
    with pytest.raises(ValueError, match="table and in a hand"):
        engine.load_state(hands, 0, [(hands[0] & -hands[0]).bit_length() - 1], 0)
    with pytest.raises(ValueError):
        engine.load_state([1 << 40, 0, 0, 0], 0, [], 0)


def test_queries_need_a_loaded_position_and_legal_cards():
    engine = _engine.Engine(1)
    with pytest.raises(ValueError):
        engine.value()
    engine, compiled = loaded_engine()
    engine.load_state([compiled.mask(h) for h in POSITION.state.hands], 0, [], 0)
    with pytest.raises(ValueError, match="not a legal card"):
        engine.after(compiled.to_engine[POSITION.pack.parse("HO").index])
    with pytest.raises(ValueError, match="not a legal card"):
        engine.values_after([compiled.to_engine[POSITION.pack.parse("HO").index]])
    with pytest.raises(ValueError):
        engine.perft(-1)


def test_engine_options_are_checked():
    with pytest.raises(ValueError):
        EngineSolver(0)
    with pytest.raises(ValueError):
        EngineSolver(5000)
    with pytest.raises(ValueError, match="driver"):
        EngineSolver(1, driver="magic")
    assert EngineSolver(2).table_bytes <= 2 * 1024 * 1024
