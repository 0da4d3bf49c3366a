"""Stopping a search from outside the signal path: ``time_limit`` and a ``stop`` event, with which a bot or a server
solving in a worker thread (where no signal reaches) bounds a move's time. The search asks the question's stop check
at the same look at which it runs signal handlers (every 16,384 nodes), unwinds and raises SearchStopped.
The engine stays usable and its next answers are a fresh engine's. The settlement search (the score objective)
stops the same way."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

import solver
from solver.benchmark import SEEDS
from solver.search.engine import open_limits
from stopping_helpers import StopAtLook, stopped_from_another_thread

VALAT = Path(__file__).resolve().parent.parent / "examples" / "valat.tbn"


def _heavy() -> solver.Position:
    """Board 26 of the Zwanzigerrufen benchmark: seconds with every card's value and no quasi table."""
    record = solver.random_record("Zwanzigerrufen", SEEDS["Zwanzigerrufen"], 26, contract="Normal")
    return solver.position_from_record(record)


def _long_settlement() -> solver.Position:
    """Board 30 of the Zwanzigerrufen benchmark as a Solo: over a second for the score of every card."""
    record = solver.random_record("Zwanzigerrufen", SEEDS["Zwanzigerrufen"], 30, contract="Solo")
    return solver.position_from_record(record)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("cards", [False, True])
def test_a_time_limit_stops_a_search_and_the_engine_answers_right_afterwards(cards, threads) -> None:
    """On two threads the limit stops both (the helper reads the stop flag the calling thread raises)."""
    position = _heavy()
    engine = solver.EngineSolver(16, use_quasi=False, threads=threads)
    with pytest.raises(solver.SearchStopped):
        solver.solve(position, "points", cards=cards, engine=engine, time_limit=0.02)
    after = solver.solve(position, "points", cards=cards, engine=engine)
    fresh = solver.solve(position, "points", cards=cards)
    assert (after.total, after.card_values) == (fresh.total, fresh.card_values)


@pytest.mark.parametrize("objective", ["points", "score"])
def test_a_stop_event_set_by_another_thread_stops_a_search_in_a_worker_thread(objective) -> None:
    """The points search on two threads; the settlement search (the score) on its own engine."""
    from solver.search.settle import SettlementEngine

    if objective == "points":
        position, engine = _heavy(), solver.EngineSolver(16, use_quasi=False, threads=2)
    else:
        position, engine = _long_settlement(), SettlementEngine(4)
    stopped_from_another_thread(lambda stop: solver.solve(position, objective, cards=True, engine=engine, stop=stop))
    if objective == "points":
        assert solver.solve(position, engine=engine).total == solver.solve(position).total


def test_a_generous_limit_changes_nothing_and_the_limit_is_not_kept() -> None:
    position = next(solver.read_positions(VALAT))
    engine = solver.EngineSolver(8)
    limited = solver.solve(position, cards=True, line=True, engine=engine, time_limit=60, stop=threading.Event())
    plain = solver.solve(position, cards=True, line=True)
    assert (limited.total, limited.card_values, limited.line) == (plain.total, plain.card_values, plain.line)
    with pytest.raises(solver.SearchStopped, match=r"before it started: its time limit was up \(time_limit=1e-09 "):
        solver.solve(position, engine=engine, time_limit=1e-9)
    stop = threading.Event()
    stop.set()
    with pytest.raises(solver.SearchStopped, match="before it started: its stop event was set"):
        solver.solve(position, engine=engine, time_limit=1e-9, stop=stop)
    assert solver.solve(position, engine=engine).total == plain.total  # the check went with the call


@pytest.mark.parametrize("arguments, message", [
    (dict(time_limit=-1), "time_limit must be a number of seconds"),
    (dict(time_limit="1"), "time_limit must be a number of seconds"),
    (dict(time_limit=True), "time_limit must be a number of seconds"),
    (dict(time_limit=float("nan")), "time_limit must be a number of seconds"),
    (dict(stop=5), "stop must be a threading.Event"),
])
def test_bad_stop_arguments_are_refused(arguments, message) -> None:
    position = next(solver.read_positions(VALAT))
    with pytest.raises(solver.InvalidPositionError, match=message):
        solver.solve(position, **arguments)
    with pytest.raises(solver.StichError, match="the reference solver runs to the end"):
        solver.solve(position, reference_solver=True, time_limit=1)


def test_a_chunks_search_stopped_at_the_runs_deadline_names_the_runs_limit(monkeypatch) -> None:
    """A chunk of an analysis or advice solves its sample under what the run's deadline leaves: the search it stops
    names the run's limit, and a deadline that does not say its limit words the reason without a number (never
    ``time_limit=None seconds``)."""
    from solver import workers
    from solver.search.boundary import Deadline, TimeLeft
    from solver.search.settle import SettlementEngine
    from solver.workers import ChunkLimits

    engine = SettlementEngine(4)
    monkeypatch.setattr(workers, "worker_settlement_engine", lambda: engine)
    position = next(solver.read_positions(VALAT))
    with pytest.raises(solver.SearchStopped, match=r"its time limit was up \(time_limit=2\.5 seconds\)$"):
        with ChunkLimits(2.5, started=time.monotonic() - 3.5).stopping(5):
            solver.solve(position, "score", engine=engine)
    assert Deadline(TimeLeft(0.0)).reason() == "its time limit was up"


def test_a_time_limit_stops_a_settlement_and_the_engine_answers_right_afterwards() -> None:
    from solver.search.settle import SettlementEngine

    position = _long_settlement()
    engine = SettlementEngine(4)
    with pytest.raises(solver.SearchStopped):
        solver.solve(position, "score", cards=True, engine=engine, time_limit=0.05)
    after = solver.solve(position, "score", line=True, engine=engine)
    fresh = solver.solve(position, "score", line=True, engine=SettlementEngine(4))
    assert (after.total, after.line) == (fresh.total, fresh.line)
    with engine.stopping(time_limit=60):  # a generous limit changes nothing, and goes with the block
        assert solver.solve(position, "score", engine=engine).total == fresh.total
    assert open_limits(engine.engine) == 0


def wait_for_the_pool_stop(job: int) -> tuple[int, float | None]:
    """A pool task that waits (20 s at most) for the run's stop to reach its worker: when it saw it (the monotonic
    clock, one for every process of the machine), None if it never did."""
    from solver.workers import worker_stop

    flag = worker_stop()
    end = time.monotonic() + 20
    while flag is not None and not flag.is_set() and time.monotonic() < end:
        time.sleep(0.002)
    return job, time.monotonic() if flag is not None and flag.is_set() else None


def test_a_time_limit_stops_every_search_of_a_check() -> None:
    """``stich check --time-limit``: the bonuses' yes/no searches and the score's settlements alike (some three
    seconds on this Solo without a limit); both engines answer right afterwards, and the report equals a fresh one."""
    from solver.analysis import check_report

    position, engine = _long_settlement(), solver.EngineSolver(16, threads=1)
    # stopped in a search, or before the next one where a loaded machine took the 0.05 s before it: by the limit
    with pytest.raises(solver.SearchStopped, match=r"stopped before it (finished \(its time limit or stop event\)|"
                                                   r"started: its time limit was up \(time_limit=0\.05 seconds\))$"):
        check_report(position, engine=engine, time_limit=0.05)
    assert check_report(position, engine=engine) == check_report(position, engine=solver.EngineSolver(16, threads=1))
    stopped_from_another_thread(lambda stop: check_report(position, engine=solver.EngineSolver(16, threads=1),
                                                          stop=stop))


@pytest.mark.parametrize("check, position, look", [("check_bonuses", _heavy, 4), ("check_report", _long_settlement, 4)])
def test_a_check_s_searches_look_at_its_stop_within_the_search(check, position, look) -> None:
    """``check_bonuses`` and ``check_report`` hand their ``stop`` to every search: a stop saying yes at its fourth
    look ends the check inside a search (not before one started), at that look; the engine then answers as a fresh
    one."""
    from solver import analysis

    checked, engine, stop = getattr(analysis, check), solver.EngineSolver(16, threads=1), StopAtLook(look)
    with pytest.raises(solver.SearchStopped, match=r"stopped before it finished \(its time limit or stop event\)$"):
        checked(position(), engine=engine, stop=stop)
    assert stop.looks == look
    assert checked(position(), engine=engine) == checked(position(), engine=solver.EngineSolver(16, threads=1))


@pytest.mark.parametrize("memory_mb", [None, 3000])
def test_a_run_s_stop_reaches_its_pool_workers(memory_mb) -> None:
    # forked workers, and spawned ones (a memory cap): the run's threading.Event is relayed to them (worker_stop),
    # not before it is set
    from solver.workers import Pool, worker_stop

    stop = threading.Event()
    fired: list[float] = []

    def fire() -> None:
        fired.append(time.monotonic())
        stop.set()

    timer = threading.Timer(0.3, fire)
    answers: list = []
    timer.start()
    try:
        Pool(2, memory_mb=memory_mb, stop=stop).run(range(2), wait_for_the_pool_stop, (),
                                                    lambda job, answer: answers.append(answer))
    finally:
        timer.cancel()
    assert sorted(job for job, _ in answers) == [0, 1]
    assert all(seen is not None and fired[0] <= seen < fired[0] + 10 for _, seen in answers)
    assert worker_stop() is None  # this process is no worker
    with pytest.raises(solver.StichError, match="stop must be a threading.Event"):
        Pool(2, stop=5)


def test_an_analysis_and_advice_read_one_kind_of_chunk_limits(monkeypatch) -> None:
    """An analysis's chunks and advice's share one ``ChunkLimits``, its deadline the time limit counted from when
    it is made, and the pool says which stop its tasks read (``Pool.task_stop``: the run's Event in this process,
    ``worker_stop()`` in a local worker, whatever the memory cap), so that the two cannot choose apart."""
    from contextlib import nullcontext

    from solver import workers
    from solver.workers import ChunkLimits, Pool

    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    stop = threading.Event()
    assert Pool(1, stop=stop).task_stop is stop  # run in this process: the Event itself
    for elsewhere in (Pool(2, stop=stop), Pool(1, memory_mb=3000, stop=stop),
                      Pool(1, scheduler="tcp://x:1", stop=stop)):
        assert elsewhere.task_stop is None  # a local worker reads worker_stop(), a cluster's nothing
    limits = ChunkLimits(None, stop, at_least=1)
    assert not limits.passed(1)
    stop.set()
    assert not limits.passed(0) and limits.passed(1)  # sample 0 always runs
    assert isinstance(limits.stopping(0), nullcontext)
    assert ChunkLimits(1.0, started=time.monotonic() - 2).passed(5) and not ChunkLimits(60.0).passed(5)
    assert ChunkLimits(2.5, started=100.0).deadline == 102.5 and ChunkLimits(None, stop).deadline is None
