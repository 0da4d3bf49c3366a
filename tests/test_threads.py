"""Threads: the compiled search runs without the GIL, so two threads on one engine would search each other's tables
(it crashed the interpreter or gave wrong card values). The functions called without ``engine=`` use one engine
per thread; an engine shared on purpose makes its threads take turns. Every answer must equal the one-thread one."""

from __future__ import annotations

import threading

import pytest

import solver
import solver.search.engine
from solver.search.engine import EngineSolver, default_solver, open_limits
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


def test_a_stopping_block_stops_only_its_own_thread_s_searches_on_a_shared_engine() -> None:
    """A block's limit (``EngineSolver.stopping``) is its thread's, not the whole engine's: another thread's search on a
    shared engine that asked for no limit is not stopped by it, and blocks of two threads closing out of order leave no
    limit behind for later searches. (Holding the engine for the block instead would hang a block that waits on other
    threads' searches of the engine.) The other thread's search inside it answers, the block's own search stops, and the
    engine has no check left once both blocks have closed."""
    from concurrent.futures import ThreadPoolExecutor

    # whole Zwanzigerrufen deals, a new one for each search (a position the table holds is answered before the
    # engine's first poll, at 16,384 nodes), their values from an engine of their own
    positions = [solver.random_position("zwanzigerrufen", 5, board) for board in range(1, 8)]
    objective = positions[0].objective("points")
    expected = [EngineSolver(8, threads=1).value(p.state, objective) for p in positions]
    engine = EngineSolver(8, threads=1)
    first_stop, second_stop, own_stop = threading.Event(), threading.Event(), threading.Event()
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, object] = {}

    def value(index: int) -> object:
        try:
            return engine.value(positions[index].state, objective)
        except solver.SearchStopped:
            return "stopped"

    def first() -> None:  # its block closes first, then says stop: that must not reach anyone
        with engine.stopping(stop=first_stop):
            first_in.set()
            second_in.wait()
        first_out.set()

    def second() -> None:
        first_in.wait()
        with engine.stopping(stop=second_stop):
            second_in.set()
            first_out.wait()
            first_stop.set()
            seen["second, going"] = value(0)
            second_stop.set()
            seen["second, stopped"] = value(1)

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {"second, going": expected[0], "second, stopped": "stopped"}
    assert open_limits(engine.engine) == 0 and value(2) == expected[2]

    with engine.stopping(stop=own_stop):  # this thread's searches stop; the pool's threads have no limit
        own_stop.set()
        with ThreadPoolExecutor(2) as pool:
            assert list(pool.map(value, [3, 4])) == expected[3:5]
        assert value(5) == "stopped"
    assert open_limits(engine.engine) == 0 and value(6) == expected[6]


def _a_long_search():
    """A Zwanzigerrufen position four cards in, its points objective and value, and an engine without a table, on
    which the search takes a tenth of a second or more (time for another thread to act while it runs)."""
    position = solver.random_position("zwanzigerrufen", 5, 1)
    state = position.state
    for _ in range(4):
        state = state.play(state.legal_list()[0])
    objective = position.objective("points")
    return position, state, objective, EngineSolver(8, threads=1).value(state, objective), \
        EngineSolver(8, threads=1, use_table=False)


def test_a_search_outlives_the_block_it_started_in_and_an_outer_block_s_limit_holds_in_an_inner_one() -> None:
    """A search holds the stop check it started with without a reference of its own, so a check put away when the
    last block closed, while another thread's search begun inside it still ran, would be called after it was freed
    (a segmentation fault): the check stays the engine's. An outer block's stop holds inside an inner block with a
    limit of its own. A settlement engine's block lets another thread settle on it (a block that held the engine
    would wait for that thread for ever). A thread's open blocks go with the thread: a block left open by a
    generator whose thread ended does not stop a later thread, which may be given the same id."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    from solver.search.settle import SettlementEngine

    position, state, objective, expected, engine = _a_long_search()
    answers: list = []
    with engine.stopping(time_limit=3600):
        worker = threading.Thread(target=lambda: answers.append(engine.value(state, objective)))
        worker.start()
        time.sleep(0.02)
    garbage = [[index] * 8 for index in range(100_000)]  # what reuses the memory of a check freed too soon
    worker.join()
    assert answers == [expected] and open_limits(engine.engine) == 0 and len(garbage) == 100_000

    cancel = threading.Event()
    with engine.stopping(stop=cancel):
        cancel.set()
        with engine.stopping(time_limit=3600):
            try:
                engine.value(state, objective)
            except solver.SearchStopped:
                answers.append("stopped")
    assert answers == [expected, "stopped"]

    settlement = SettlementEngine(8, threads=1)
    ending = solver.Position(position.game, position.rules, state)
    alone = solver.dd_settlement(ending).value
    with settlement.stopping(time_limit=3600), ThreadPoolExecutor(1) as pool:
        assert pool.submit(lambda: solver.dd_settlement(ending, engine=settlement).value).result(timeout=60) == alone

    stop = threading.Event()

    def held_open():
        with engine.stopping(stop=stop):
            yield

    left_open = held_open()
    opener = threading.Thread(target=lambda: next(left_open))
    opener.start()
    opener.join()
    stop.set()
    later: list = []
    for _ in range(3):  # new threads, some of which are given the ended thread's id
        worker = threading.Thread(target=lambda: later.append(engine.value(state, objective)))
        worker.start()
        worker.join()
    assert later == [expected] * 3 and open_limits(engine.engine) == 1
    left_open.close()
    assert open_limits(engine.engine) == 0


def test_the_compiled_engine_holds_the_stop_check_its_search_began_with_and_a_check_that_raises_stops_it() -> None:
    """The compiled engine's ``stop_check`` is an attribute anyone can set: a search borrows the check it began with, so
    the engine holds it until its next search, and a check changed and dropped while a search runs is not freed under it
    (else the search calls freed memory). A check that raises stops the search with its exception, on one thread or
    several, not printed as unraisable with the search going on."""
    import gc
    import weakref

    _, state, objective, expected, engine = _a_long_search()
    asked = threading.Event()

    class Check:
        def __call__(self) -> bool:
            asked.set()
            return False

    check = Check()
    kept = weakref.ref(check)
    engine.engine.stop_check = check
    del check
    answers: list = []
    worker = threading.Thread(target=lambda: answers.append(engine.value(state, objective)))
    worker.start()
    assert asked.wait(60)
    engine.engine.stop_check = None
    gc.collect()
    held = kept() is not None
    garbage = [[index] * 8 for index in range(100_000)]  # what reuses the memory of a check freed too soon
    worker.join()
    assert held and answers == [expected] and len(garbage) == 100_000
    assert engine.value(state, objective) == expected and kept() is None  # the next search lets it go

    def failing() -> bool:
        raise ValueError("the caller's check failed")

    for threads in (1, 2):
        engine = EngineSolver(8, threads=threads)
        engine.engine.stop_check = failing
        with pytest.raises(ValueError, match="the caller's check failed"):
            engine.value(state, objective)
        engine.engine.stop_check = None
        assert engine.value(state, objective) == expected  # the table kept only what was proved
