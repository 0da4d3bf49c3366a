"""The settlement on several threads (src_ext/parallel.pxd, "The settlement"): the same settlements as one thread on
whole deals, where the root split and the deferring marks really share the work; bounds and guesses; a helper
retired mid-question; a stop that reaches every thread; the thread settings of the engine and its callers."""

from __future__ import annotations

import threading

import pytest

import solver
from solver.errors import SearchStopped
from solver.generate import random_record
from solver.position import position_from_record
from solver import score_objective
from solver.score_objective import settlement_engine_for
from solver.search.engine import EngineSolver
from solver.search.settle import SettlementEngine
from solver.settlement import keeping_points, payoff_spec, points_objective_of

#: two threads really run two, even on a one-core machine (conftest.py)
pytestmark = pytest.mark.usefixtures("two_cores_at_least")

DEALS = [("Zwanzigerrufen", "Normal"), ("Zwanzigerrufen", "Solo"), ("Schafkopf", None), ("Schafkopf", "Wenz"),
         ("Kratzen", None)]


def _deal(game: str, board: int, contract: str | None = None) -> solver.Position:
    return position_from_record(random_record(game, 91, board, contract=contract))


def _spec(position: solver.Position):
    """The deal's payoff table (Kratzen's with a pot: without one the attacker pays nothing whatever happens)."""
    return payoff_spec(position, pot=8 if position.game.has_pot else None)


def _two_threads(megabytes: int = 16) -> SettlementEngine:
    engine = SettlementEngine(megabytes, threads=2)
    engine.engine.parallel_min_tricks = 2  # Kratzen deals have 4 tricks: below the settlement's bound of 9
    return engine


@pytest.mark.parametrize("game, contract", DEALS)
def test_two_threads_settle_whole_deals_as_one(game, contract) -> None:
    # the declaring side to move at the root, and a card later the other side (a trick in progress)
    for board in (1, 2):
        start = _deal(game, board, contract)
        after = max((start.play(card) for card in start.state.legal_list()),
                    key=lambda child: len(child.state.legal_list()))  # the next hand with the most choice
        for position in (start, after):
            spec = _spec(position)
            one = SettlementEngine(16, threads=1)
            two = _two_threads()
            expected = one.value(position.state, spec)
            assert two.value(position.state, spec) == expected, board
            if two.engine.groups()[1].bit_count() > 1:  # a choice of cards (not a forced or equivalent one)
                assert len(two.engine.thread_nodes) == 2 and min(two.engine.thread_nodes) > 0  # both searched
            assert two.engine.helpers_searching == 0  # joined before the answer
            # the settlement keeping the points-optimal play's points: another payoff on the same deal
            if spec.components:
                objective = points_objective_of(position)
                points = EngineSolver(16, threads=1).value(position.state, objective)
                kept = keeping_points(spec, objective.name, points + objective.achieved(position.rules,
                                                                                        position.state))
                assert two.value(position.state, kept) == one.value(position.state, kept), board


@pytest.mark.parametrize("game, contract", DEALS[:3])
def test_two_threads_give_every_card_s_settlement(game, contract) -> None:
    position = _deal(game, 3, contract)
    spec = _spec(position)
    expected = SettlementEngine(16, threads=1).card_values(position.state, spec)
    assert _two_threads().card_values(position.state, spec) == expected


def test_bounds_and_guesses_leave_the_settlement_alone() -> None:
    # the root's settlement known to lie in [lower, upper], and a first probe anywhere: the split searches each card
    # within the bounds, which changes no settlement that lies there
    position = _deal("Zwanzigerrufen", 1, "Normal")
    spec = _spec(position)
    one = SettlementEngine(16, threads=1)
    value = one.value(position.state, spec)
    values = sorted(set(spec.table))
    below = max(v for v in values if v < value)
    above = min(v for v in values if v > value)  # the deal's settlement lies inside the table's values
    two = _two_threads()
    for lower, upper in ((None, None), (value, None), (None, value), (below, above), (value, value)):
        for guess in (None, values[0], value, values[-1]):
            assert two._value(position.state, spec, lower, upper, guess) == value, (lower, upper, guess)


@pytest.mark.parametrize("delay", [0.001, 0.005, 0.02])
def test_a_helper_retired_mid_settlement_leaves_it_alone(delay) -> None:
    # parallel.pxd, Retiring: the helper unwinds at its next look, and thread 0 finishes the cards it left
    cut_short = 0
    for board in (1, 2):
        position = _deal("Zwanzigerrufen", board, "Solo")
        spec = _spec(position)
        expected = SettlementEngine(16, threads=1).value(position.state, spec)
        two = _two_threads()
        timer = threading.Timer(delay, two.engine.cap_threads, [1])
        timer.start()
        got = two.value(position.state, spec)
        timer.join()
        assert got == expected, (board, delay)
        assert two.engine.helpers_searching == 0
        nodes = list(two.engine.thread_nodes) + [0, 0]
        cut_short += nodes[1] < nodes[0] // 2  # the helper stopped well before thread 0 (about even without)
    assert cut_short or delay > 0.005  # the 5-30 ms settlements really lost their helper early


def test_a_time_limit_stops_every_thread_and_the_engine_stays_usable() -> None:
    position = _deal("Zwanzigerrufen", 2, "Solo")
    spec = _spec(position)
    expected = SettlementEngine(16, threads=1).value(position.state, spec)
    two = _two_threads()
    with pytest.raises(SearchStopped):
        with two.stopping(0.002):
            two.value(position.state, spec)
    assert two.engine.helpers_searching == 0
    stop = threading.Event()
    stop.set()
    with pytest.raises(SearchStopped):
        with two.stopping(stop=stop):
            two.value(position.state, spec)
    assert two.value(position.state, spec) == expected  # what the stopped searches stored was proved


def test_one_thread_settles_node_for_node_as_before() -> None:
    # one thread never marks or defers: the settlement search of old, whatever the default
    position = _deal("Schafkopf", 5)
    spec = _spec(position)
    first = SettlementEngine(16, threads=1)
    first.value(position.state, spec)
    again = SettlementEngine(16, threads=1)
    again.value(position.state, spec)
    assert first.nodes == again.nodes > 0
    assert first.engine.thread_nodes == []


def test_the_settlement_engines_follow_the_threads_they_are_given() -> None:
    assert SettlementEngine(8, threads=1).threads == 1
    assert SettlementEngine(8, threads=3).engine.threads == 3
    assert settlement_engine_for(EngineSolver(8, threads=1)).threads == 1  # a command's --threads 1
    assert settlement_engine_for(EngineSolver(8, threads=2)).threads == 2
    with pytest.raises(solver.InvalidPositionError, match="threads must be a whole number from 1 to 64"):
        SettlementEngine(8, threads=0)


def test_a_thread_keeps_the_settlement_engines_of_its_last_two_sizes() -> None:
    def made() -> list[int]:
        return list(score_objective._ENGINES.by_size)

    one, two, four = (settlement_engine_for(EngineSolver(megabytes, threads=1)) for megabytes in (1, 2, 4))
    assert made() == [2, 4] and score_objective.SHAPES_KEPT == 2
    assert settlement_engine_for(EngineSolver(2, threads=1)) is two  # kept, and now the most recent
    assert made() == [4, 2] and one.table_bytes == 1 << 20
    assert settlement_engine_for(EngineSolver(1, threads=1)) is not one  # forgotten: made again
    assert made() == [2, 1] and four.threads == 1
    # another thread count for the same size: the same engine on those threads (whatever stops it still does)
    assert settlement_engine_for(EngineSolver(2, threads=2)) is two and two.threads == 2


def test_a_serial_run_s_engines_are_the_ones_stopped_outside_it() -> None:
    """The board stops the odds by the worker's two engines, then runs the samples with one worker (``-j 1``: one
    thread): inside, the same engines on one thread, not a new points engine for the run's thread count, so the stop
    reaches every search."""
    from solver.workers import Pool, worker_engine, worker_settlement_engine

    outside = worker_engine(), worker_settlement_engine()
    seen: list[tuple] = []
    Pool(1).run([1], lambda job: (worker_engine(), worker_settlement_engine(), worker_engine().threads,
                                  worker_settlement_engine().threads), (), lambda _, result: seen.append(result))
    assert seen == [(outside[0], outside[1], 1, 1)]
    assert worker_engine() is outside[0] and worker_engine().threads == solver.search.engine.default_threads()


def test_a_line_holds_one_core_and_a_value_every_core(monkeypatch) -> None:
    # a line is one null-window question after another on the calling thread: it leaves the other cores to other
    # questions of the process (engine.CORES), where a value takes them
    from solver.search import engine as engine_module

    asked: list[int] = []
    take = engine_module.CORES.take

    def recording(threads, *args):
        asked.append(threads)
        return take(threads, *args)

    monkeypatch.setattr(engine_module.CORES, "take", recording)
    position = _deal("Schafkopf", 2)
    spec = _spec(position)
    two = _two_threads()
    value = two.value(position.state, spec)
    two.line(position.state, spec, value)
    points = EngineSolver(8, threads=2)
    objective = position.objective("points")
    points.line(position.state, objective, points.value(position.state, objective))
    assert asked == [2, 1, 2, 1]


def test_short_settlements_stay_on_one_thread() -> None:
    # a settlement with fewer than 9 tricks left takes a millisecond or less, which a helper would not shorten
    position = _deal("Zwanzigerrufen", 3, "Solo")
    spec = _spec(position)
    state = position.state
    for tricks_left in (10, 9, 8):
        engine = SettlementEngine(16, threads=2)
        assert engine.value(state, spec) == SettlementEngine(16, threads=1).value(state, spec), tricks_left
        assert len(engine.engine.thread_nodes) == (2 if tricks_left >= 9 else 0), tricks_left
        for _ in range(position.rules.seats):  # a trick played
            state = state.advance(min(state.legal_list()))
