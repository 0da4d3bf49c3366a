"""Threads: the compiled search runs without the GIL, so two threads on one engine would search each other's tables
(it crashed the interpreter or gave wrong card values). The functions called without ``engine=`` use one engine
per thread; an engine shared on purpose makes its threads take turns. Every answer must equal the one-thread one."""

from __future__ import annotations

import threading

import solver
import solver.search.engine
from solver.search.engine import EngineSolver, default_solver
from solver.settlement import dd_settlement


def _positions(count: int = 12) -> list[solver.Position]:
    positions = []
    for board in range(1, count + 1):
        position = solver.position_from_record(solver.random_record("Schafkopf", 1, board))
        state = position.state
        for _ in range(8):  # two tricks, each seat's lowest legal card
            state = state.play(state.legal_list()[0])
        positions.append(solver.Position(position.game, position.rules, state))
    return positions


def _in_threads(work, threads: int = 2) -> list:
    """Run ``work()`` in ``threads`` threads at once; every result or exception, in thread order."""
    results: list = [None] * threads

    def run(i: int) -> None:
        try:
            results[i] = work()
        except BaseException as error:  # noqa: BLE001 - the test reports it
            results[i] = error
    workers = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return results


def _answers(positions, engine=None) -> list:
    return [(r.total, r.card_values, r.line) for r in
            (solver.solve(p, "points", cards=True, line=True, engine=engine) for p in positions for _ in range(2))]


def test_threads_without_an_engine_each_get_their_own_and_the_right_answers() -> None:
    positions = _positions()
    expected = _answers(positions)
    assert _in_threads(lambda: _answers(positions), 3) == [expected] * 3
    engines = _in_threads(default_solver)
    assert engines[0] is not engines[1] and default_solver() is default_solver()


def test_threads_sharing_one_engine_take_turns() -> None:
    positions = _positions()
    shared = EngineSolver(8)
    expected = _answers(positions, EngineSolver(8))
    assert _in_threads(lambda: _answers(positions, shared), 3) == [expected] * 3


def test_settlements_in_threads() -> None:
    positions = _positions(6)
    expected = [(dd_settlement(p).value, dd_settlement(p).line) for p in positions]
    assert _in_threads(lambda: [(dd_settlement(p).value, dd_settlement(p).line) for p in positions]) == [expected] * 2
