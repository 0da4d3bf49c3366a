"""Whole deals are too big for the reference solver, so the engine is checked against itself: every technique
switch, driver and table size must give the same values (the table fills, grows and evicts on these)."""

from __future__ import annotations

import random

import pytest

from solver.cards import bits
from solver.generate import random_record
from solver.position import position_from_record
from solver.search import reference
from solver.search.engine import EngineSolver, compile_rules

#: two threads really run two, even on a one-core machine (conftest.py)
pytestmark = pytest.mark.usefixtures("two_cores_at_least")

CONFIGURATIONS = [
    dict(tt_megabytes=1),
    dict(tt_megabytes=64, use_canonical=False),
    dict(tt_megabytes=64, driver="bisect"),
    dict(tt_megabytes=64, driver="window", use_equivalence=False),
    dict(tt_megabytes=2, use_bounds=False, use_ordering=False),
    dict(tt_megabytes=64, use_lookahead=False, use_fast_end=False),
    dict(tt_megabytes=64, use_quasi=False),
]
DEALS = [("Schafkopf", "Rufer E", b) for b in range(1, 5)] + [("Schafkopf", "Wenz", 1), ("Schafkopf", "Solo H", 2)] \
    + [("Zwanzigerrufen", "Normal", 4), ("Zwanzigerrufen", "Normal", 6)] + [("Kratzen", "Trump H", 1)]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("game, contract, board", DEALS)
def test_every_configuration_agrees_on_whole_deals(game, contract, board, threads):
    """On one thread and on two (sharing the table: the small tables' evictions and the lazy SMP threads'
    bounds meet there), each configuration gives the one-thread default's answers."""
    position = position_from_record(random_record(game, 77, board, contract=contract))
    objective = position.objective("tricks" if game == "Kratzen" else "points", 1 if game == "Kratzen" else None)
    default = EngineSolver(threads=1).solve(position.state, objective, cards=True)
    assert EngineSolver(threads=threads).value(position.state, objective) == default.future
    for options in CONFIGURATIONS:
        other = EngineSolver(**options, threads=threads).solve(position.state, objective, cards=True)
        assert (other.future, other.card_values) == (default.future, default.card_values), options


@pytest.mark.parametrize("threads", [1, 2])
def test_every_configuration_agrees_on_pagat_ultimo_of_whole_deals(threads):
    """Pagat Ultimo's moves are ordered by the event (the Pagat kept, the cards that beat it kept by the other side;
    order.pxd): on whole deals, where the differential run's endings cannot reach, every configuration, ordering off
    included, must give the same answers, and both answers occur."""
    answers = []
    for board in range(1, 9):
        position = position_from_record(random_record("Zwanzigerrufen", 77, board, contract="Normal"))
        objective = position.objective("pagat_ultimo")
        default = EngineSolver(threads=1).solve(position.state, objective)
        for options in CONFIGURATIONS:
            other = EngineSolver(**options, threads=threads).solve(position.state, objective)
            assert other.future == default.future, (board, options)
        answers.append(default.future)
    assert sorted(set(answers)) == [0, 1]


def test_one_engine_reused_across_deals_and_objectives_agrees_with_fresh_ones():
    shared = EngineSolver(4)
    for board in range(1, 6):
        position = position_from_record(random_record("Schafkopf", 78, board))
        for name in ("points", "schwarz", "game"):
            objective = position.objective(name)
            assert shared.value(position.state, objective) == EngineSolver(4).value(position.state, objective)


def test_the_quasi_table_finds_positions_of_the_same_shape_and_changes_no_value():
    """On a whole Schafkopf deal most of the table's work is done by positions that differ from one seen before
    only in the points of paired cards (an Ace played instead of a Ten): the quasi table must find them, cut the
    search, and give the values the exact table alone gives."""
    position = position_from_record(random_record("Schafkopf", 79, 3, contract="Rufer E"))
    objective = position.objective("points")
    with_quasi, without = EngineSolver(), EngineSolver(use_quasi=False)
    result = with_quasi.solve(position.state, objective, cards=True)
    assert with_quasi.engine.quasi_hits > 0
    plain = without.solve(position.state, objective, cards=True)
    assert without.engine.quasi_hits == 0
    assert (result.future, result.card_values) == (plain.future, plain.card_values)
    assert result.nodes < plain.nodes


@pytest.mark.parametrize("game, contract", [("Schafkopf", "Rufer E"), ("Zwanzigerrufen", "Normal")])
def test_the_card_proved_by_the_value_search_keeps_the_value_for_either_side(game, contract):
    """``card_values`` given the root's value skips the search of the card the value's own search proved best. That
    card must really keep the value, also where the minimising side moves: there the proof is the probe that held
    the value down (its best card is worth at most the value), not the one that raised it (whose best card only has
    the least fail-soft bound, and can be worth more in deals like these)."""
    rng = random.Random(f"proved:{game}")
    minimising = 0
    for board in range(1, 41):
        position = position_from_record(random_record(game, 555, board, contract=contract))
        state = position.state
        for _ in range(rng.randrange(0, 4 * position.rules.tricks_in_deal - 12)):
            state = state.advance(rng.choice(sorted(bits(state.legal_cards()))))
        objective = position.objective("points")
        engine = EngineSolver(8)
        value = engine.value(state, objective)
        proved = engine.engine.proved_best(value)
        minimising += state.to_move not in objective.maximiser and proved is not None
        reward, future = engine.engine.after(proved) if proved is not None else (0, value)
        assert reward + future == value, board
        assert engine.card_values(state, objective, value) == EngineSolver(8).card_values(state, objective), board
    assert minimising >= 10


def test_a_question_without_card_points_merges_cards_that_differ_only_in_points():
    """Valat counts tricks, not points: a King and a Queen of one suit in one hand, with no card of another hand
    between them, then play alike, so they share a signature (searched once, one table key for the positions that
    differ in which of them fell), while a points question keeps them apart. Values stay those of the reference."""
    position = position_from_record(random_record("Zwanzigerrufen", 81, 1, contract="Normal"))
    rules = position.rules
    king, queen = rules.pack.lookup("HK"), rules.pack.lookup("HQ")
    for counts_points, merged in ((True, False), (False, True)):
        compiled = compile_rules(rules, 0, counts_points)
        signature = compiled.tables["signature"]
        assert (signature[compiled.to_engine[king]] == signature[compiled.to_engine[queen]]) is merged
    for board in range(1, 30):
        position = position_from_record(random_record("Zwanzigerrufen", 81, board, contract="Normal"))
        state = position.state
        while len(state.history) < rules.tricks_in_deal - 3:
            state = state.advance(min(bits(state.legal_cards())))
        for name in ("valat", "points"):
            objective = position.objective(name)
            expected = reference.solve(state, objective, cards=True)
            assert EngineSolver(8).solve(state, objective, cards=True).card_values == expected.card_values, board


def test_the_table_generation_counter_wraps_without_stale_entries():
    """Each question starts a table generation (an 8-bit counter); when it wraps, the part of the tables in use is
    cleared. Entries of one objective left from the generation before the wrap would otherwise look current to a
    later question with another objective on the same deal: for every number of questions in between around the
    wrap, the second objective must still get the value a fresh engine gives."""
    from solver.benchmark import bench_deals, endings_line
    for deal in bench_deals(endings_line("Schafkopf", "Rufer E"), 20):
        position = deal.position
        first, second = position.objective("points"), position.objective("schwarz")
        if EngineSolver(2).value(position.state, first) >= 20:  # the two questions' bounds far apart
            break
    expected = EngineSolver(2).value(position.state, second)
    for between in range(250, 259):
        engine = EngineSolver(2)
        engine.value(position.state, first)
        for _ in range(between):
            engine.engine.new_generation()
        assert engine.value(position.state, second) == expected, between


def test_a_wrap_clears_the_part_a_larger_question_used_before_the_table_shrank():
    """A question starts on the part of the table the last one needed (tt.pxd, Growth): a whole deal grows it, the
    questions after shrink it, and when the generation counter wraps the clearing must still reach the larger part,
    or a later whole deal that grows into it again would find the first question's entries as its own. Here the
    first is the declarers' points, the second the defenders' (the same positions, bounds for the other side)."""
    import solver

    position = solver.position_from_record(solver.random_record("Schafkopf", 5, 2))
    first, second = position.objective("points"), position.objective("schneider_against")
    assert sorted(first.maximiser) != sorted(second.maximiser)
    expected = EngineSolver(2).value(position.state, second)
    for between in range(250, 259):
        engine = EngineSolver(2, threads=1)
        engine.value(position.state, first)
        assert engine.engine.table_bytes_used > 256 * 1024  # the part grew past the first 256 KB
        for _ in range(between):
            engine.engine.new_generation()
        assert engine.value(position.state, second) == expected, between


def test_equal_answers_compare_equal_whatever_the_effort() -> None:
    """nodes and seconds are the effort, not the answer: two solves of one question are equal and hash alike (a
    cache or a dedup can key on them)."""
    from pathlib import Path

    import solver
    from solver.settlement import dd_settlement

    position = next(iter(solver.read_positions(Path(__file__).parent.parent / "examples" / "valat.tbn")))
    first = solver.solve(position, "points", cards=True, line=True)
    second = solver.solve(position, "points", cards=True, line=True, engine=solver.EngineSolver(8))
    assert first == second and hash(first) == hash(second)
    assert dd_settlement(position) == dd_settlement(position, engine=None)
