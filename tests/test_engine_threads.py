"""One question on several threads (src_ext/parallel.pxd): the same values as one thread, on whole deals where the
threads really share the table; one thread stays the old search node for node; the thread settings."""

from __future__ import annotations

import os

import pytest

import solver
from solver.cards import bits
from solver.generate import random_record
from solver.position import position_from_record
from solver.search import engine as engine_module
from solver.search.engine import EngineSolver, default_solver, set_default_threads

#: two threads really run two, even on a one-core machine (conftest.py)
pytestmark = pytest.mark.usefixtures("two_cores_at_least")


def _deal(game: str, board: int, contract: str | None = None) -> solver.Position:
    return position_from_record(random_record(game, 91, board, contract=contract))


@pytest.mark.parametrize("game, contract", [("Zwanzigerrufen", "Normal"), ("Schafkopf", None),
                                            ("Schafkopf", "Wenz"), ("Kratzen", None)])
def test_three_threads_give_one_thread_s_values_and_card_values(game, contract, monkeypatch) -> None:
    monkeypatch.setattr(engine_module, "usable_cores", lambda: 4)  # three threads even on a two-core machine
    for board in (1, 2):
        position = _deal(game, board, contract)
        objective = position.objective("tricks" if game == "Kratzen" else "points",
                                       1 if game == "Kratzen" else None)
        one = EngineSolver(16, threads=1).solve(position.state, objective, cards=True)
        three = EngineSolver(16, threads=3)
        three.engine.parallel_min_tricks = 2  # Kratzen deals have 4 tricks: below the default's 5
        assert three.value(position.state, objective) == one.future
        assert len(three.engine.thread_seconds) == 3  # the value really ran on three threads
        many = three.solve(position.state, objective, cards=True, line=True)
        assert (many.future, many.card_values) == (one.future, one.card_values), board
        assert len(many.line) == sum(hand.bit_count() for hand in position.state.hands)  # a line to the end


@pytest.mark.parametrize("game, contract", [("Zwanzigerrufen", "Normal"), ("Schafkopf", None)])
def test_deferring_busy_cards_keeps_the_value(game, contract) -> None:
    # the value's threads defer the cards another is searching (parallel.pxd, Deferring): a different order, the
    # same value, with the marks on and off, on whole deals where the nodes near the root defer
    for board in (3, 4, 5):
        position = _deal(game, board, contract)
        objective = position.objective("points")
        expected = EngineSolver(16, threads=1).value(position.state, objective)
        for defer in (True, False, True):
            two = EngineSolver(16, threads=2)
            two.engine.defer_busy = defer
            assert two.value(position.state, objective) == expected, (board, defer)
            assert len(two.engine.thread_nodes) == 2 and min(two.engine.thread_nodes) >= 0


@pytest.mark.parametrize("game, contract", [("Zwanzigerrufen", "Normal"), ("Schafkopf", None),
                                            ("Schafkopf", "Wenz")])
def test_the_root_split_gives_the_value_and_a_card_that_keeps_it(game, contract) -> None:
    # the exact value on several threads: the first card exact on every thread, then the others only asked whether
    # they beat it (parallel.pxd, The root split); with the maximising side to move and, a card later, the other
    for board in (1, 2, 3):
        start = _deal(game, board, contract)
        for position in (start, start.play(start.state.legal_list()[0])):
            objective = position.objective("points")
            expected = EngineSolver(16, threads=1).value(position.state, objective)
            for split in (True, False):
                two = EngineSolver(16, threads=2)
                two.engine.root_split = split
                value = two.value(position.state, objective)
                assert value == expected, (board, split)
                assert min(two.engine.thread_nodes) > 0  # both threads searched
                card = two.engine.proved_best(value)  # the split always knows it; lazy SMP's winner may not
                assert (card is None and not split) or two.engine.keeps(card, value)[1], (board, split)


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs Linux's processor affinity")
def test_a_caller_allowed_one_core_still_gets_its_helper() -> None:
    # a helper starts on a core other than its caller's (atomic.pxd, thread_start); a caller allowed only one has
    # no other, and the helper shares its core: the same values, both threads searching. A whole Zwanzigerrufen deal
    # (some 100 ms): a Schafkopf deal's few milliseconds could end before the shared core ever ran the helper
    position = _deal("Zwanzigerrufen", 1, "Normal")
    objective = position.objective("points")
    expected = EngineSolver(16, threads=1).solve(position.state, objective, cards=True)
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    try:
        two = EngineSolver(16, threads=2)
        result = two.solve(position.state, objective, cards=True)
    finally:
        os.sched_setaffinity(0, allowed)
    assert os.sched_getaffinity(0) == allowed
    assert (result.future, result.card_values) == (expected.future, expected.card_values)
    assert len(two.engine.thread_nodes) == 2 and min(two.engine.thread_nodes) > 0


def test_one_thread_searches_exactly_as_before_whatever_the_default() -> None:
    position = _deal("Schafkopf", 3)
    objective = position.objective("points")
    first = EngineSolver(threads=1).solve(position.state, objective, cards=True)
    again = EngineSolver(threads=1).solve(position.state, objective, cards=True)
    assert first.nodes == again.nodes  # no thread's timing in it
    assert EngineSolver(threads=1).engine.thread_seconds == []
    assert EngineSolver(threads=1).engine.thread_nodes == []


def test_short_endings_stay_on_one_thread() -> None:
    position = _deal("Schafkopf", 4)
    state = position.state
    for _ in range(4 * position.rules.seats):  # four tricks left
        state = state.advance(min(bits(state.legal_cards())))
    engine = EngineSolver(8, threads=2)
    engine.value(state, position.objective("points"))
    assert engine.engine.thread_seconds == []


@pytest.mark.parametrize("threads", [0, -1, 65, 1.5, "2", True])
def test_bad_thread_counts_are_refused(threads) -> None:
    with pytest.raises(solver.InvalidPositionError, match="threads must be a whole number from 1 to 64"):
        EngineSolver(1, threads=threads)
    with pytest.raises(solver.InvalidPositionError, match="threads must be a whole number"):
        set_default_threads(threads)


def test_the_default_is_every_core_unless_a_pool_sets_one() -> None:
    try:
        assert EngineSolver(1).threads == min(engine_module.usable_cores(), engine_module.MAX_THREADS)
        set_default_threads(1)
        assert EngineSolver(1).threads == 1
        assert default_solver().threads == 1  # the shared engine is made again for the new setting
        set_default_threads(None)
        assert default_solver().threads == min(engine_module.usable_cores(), engine_module.MAX_THREADS)
    finally:
        set_default_threads(None)
    solver_ = EngineSolver(1, threads=1)
    solver_.threads = 2
    assert solver_.threads == 2


def test_helpers_start_only_on_free_cores(monkeypatch) -> None:
    # the process's core budget (engine.CORES): a question's own thread always searches; its helpers take only the
    # cores no other question holds, and give them back however the question ends
    monkeypatch.setattr(engine_module, "usable_cores", lambda: 2)
    position = _deal("Schafkopf", 1)
    objective = position.objective("points")
    one = EngineSolver(16, threads=1).solve(position.state, objective, cards=True)
    two = EngineSolver(16, threads=2)
    two.engine.reset_counters()
    assert two.value(position.state, objective) == one.future
    assert len(two.engine.thread_seconds) == 2 and engine_module.CORES.busy == 0  # alone: both cores
    with engine_module.CORES.held(1) as held:  # another question's thread holds a core
        assert held == 1 and engine_module.CORES.busy == 1
        crowded = EngineSolver(16, threads=2)
        crowded.engine.reset_counters()
        result = crowded.solve(position.state, objective, cards=True)
        assert (result.future, result.card_values) == (one.future, one.card_values)
        assert len(crowded.engine.thread_seconds) <= 1 and crowded.threads == 2  # no helper; the setting kept
        assert engine_module.CORES.busy == 1
    with pytest.raises(solver.SearchStopped):
        two.solve(position.state, objective, cards=True, time_limit=1e-9)
    assert engine_module.CORES.busy == 0


def test_concurrent_questions_share_the_cores(monkeypatch) -> None:
    import threading

    monkeypatch.setattr(engine_module, "usable_cores", lambda: 2)
    positions = [_deal("Schafkopf", board) for board in (1, 2, 3)]
    expected = [EngineSolver(16, threads=1).solve(p.state, p.objective("points"), cards=True) for p in positions]
    engine_module.CORES.reset_peak()
    answers: dict[int, list] = {0: [], 1: []}

    def work(index: int) -> None:
        mine = EngineSolver(16, threads=2)
        for _ in range(2):
            for p in positions:
                answers[index].append(mine.solve(p.state, p.objective("points"), cards=True))

    threads = [threading.Thread(target=work, args=(i,)) for i in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for got in answers.values():
        assert [(r.future, r.card_values) for r in got] == [(r.future, r.card_values) for r in expected] * 2
    # two callers on two cores: a helper only while the other caller was not searching, and given back when it
    # starts, so never more than two search threads
    assert engine_module.CORES.peak <= 2 and engine_module.CORES.busy == 0


@pytest.mark.parametrize("delay", [0.0005, 0.001, 0.003, 0.006])
def test_retired_helpers_leave_the_values_alone(delay) -> None:
    # a helper retired mid-question (parallel.pxd, Retiring): the value's lazy SMP goes on with thread 0's driver,
    # and a card the helper left unfinished is finished by thread 0 from the empty queue
    import threading

    cut_short = 0
    for board in (1, 2, 3):
        position = _deal("Zwanzigerrufen", board, "Normal")
        objective = position.objective("points")
        one = EngineSolver(16, threads=1).solve(position.state, objective, cards=True)
        two = EngineSolver(16, threads=2)
        for ask in (lambda: two.value(position.state, objective),
                    lambda: two.card_values(position.state, objective)):
            two.engine.new_generation()
            two.engine.reset_counters()
            timer = threading.Timer(delay, two.engine.cap_threads, [1])
            timer.start()
            got = ask()
            timer.join()
            assert got == one.future if isinstance(got, int) else list(got) == list(one.card_values), (board, delay)
            nodes = list(two.engine.thread_nodes) + [0, 0]
            cut_short += nodes[1] < nodes[0] // 2  # the helper stopped well before thread 0 (about even without)
    assert cut_short or delay > 0.001  # the 8-15 ms questions really lost their helper early


def test_a_new_question_takes_a_core_back_from_a_helper(monkeypatch) -> None:
    # a question holding both cores (its own thread and a helper) when another thread's question arrives: the helper
    # stops while its question goes on searching on its own thread, so two search threads run on two cores, not three
    import threading
    import time

    monkeypatch.setattr(engine_module, "usable_cores", lambda: 2)
    budget = engine_module.CORES
    from solver.benchmark import SEEDS

    record = solver.random_record("Zwanzigerrufen", SEEDS["Zwanzigerrufen"], 26, contract="Normal")
    position = position_from_record(record)  # seconds with every card's value and no quasi table
    long_one = EngineSolver(16, use_quasi=False, threads=2)
    stop = threading.Event()
    outcome: dict[str, object] = {}

    def work() -> None:
        try:
            outcome["result"] = solver.solve(position, "points", cards=True, engine=long_one, stop=stop)
        except solver.SearchStopped:
            outcome["stopped"] = True

    def waited(condition, seconds: float) -> bool:
        end = time.monotonic() + seconds
        while not condition() and time.monotonic() < end:
            time.sleep(0.0005)
        return condition()

    worker = threading.Thread(target=work)
    worker.start()
    try:
        assert waited(lambda: long_one.engine.helpers_searching == 1, 30)  # its helper is searching
        with budget.held(1) as held:  # this thread's question arrives
            assert held == 1 and budget.busy == 2 and budget.retired == 1
            assert waited(lambda: long_one.engine.helpers_searching == 0, 5)  # the helper stopped at its next look
            assert worker.is_alive() and not outcome  # while its question searches on
            time.sleep(0.05)
            assert long_one.engine.helpers_searching == 0  # and the rest of the question started no other
    finally:
        stop.set()
        worker.join(timeout=60)
    assert outcome == {"stopped": True} and budget.busy == 0 and budget.peak <= 2


def _child_busy(queue) -> None:
    queue.put(engine_module.CORES.busy)


def test_a_forked_worker_starts_with_every_core_free() -> None:
    import multiprocessing

    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    with engine_module.CORES.held(2):  # the parent is searching while it forks a worker
        child = context.Process(target=_child_busy, args=(queue,))
        child.start()
        busy = queue.get(timeout=60)
        child.join(timeout=60)
    assert busy == 0 and child.exitcode == 0 and engine_module.CORES.busy == 0
