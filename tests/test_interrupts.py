"""Signals during a search: the compiled search runs without the GIL, and a handler that raises (Ctrl-C's
KeyboardInterrupt, an alarm a bot sets as a time limit) must not wait for the whole question. The search looks
at the interpreter's signals every 16,384 nodes, unwinds, and raises the handler's exception; the engine stays
usable and its next answers are a fresh engine's (the bounds stored while unwinding are dropped)."""

from __future__ import annotations

import signal

import pytest

import solver
import solver.search.settle
from solver.benchmark import SEEDS
from solver.search.settle import SettlementEngine
from solver.settlement import dd_settlement

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs signal.setitimer")


class Alarm(Exception):
    pass


@pytest.fixture
def alarm():
    """``alarm(seconds)`` raises Alarm in the main thread after that long."""
    def ring(*_):
        raise Alarm
    previous = signal.signal(signal.SIGALRM, ring)
    yield lambda seconds: signal.setitimer(signal.ITIMER_REAL, seconds)
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def _heavy() -> solver.Position:
    """A whole Zwanzigerrufen deal of the benchmark (board 26: one of its dearest, seconds with every card's value
    and no quasi table)."""
    record = solver.random_record("Zwanzigerrufen", SEEDS["Zwanzigerrufen"], 26, contract="Normal")
    return solver.position_from_record(record)


@pytest.mark.parametrize("cards", [False, True])
def test_a_signal_stops_a_search_and_the_engine_answers_right_afterwards(alarm, cards) -> None:
    position = _heavy()
    engine = solver.EngineSolver(16, use_quasi=False)
    alarm(0.05)
    with pytest.raises(Alarm):
        solver.solve(position, "points", cards=cards, engine=engine)
    after = solver.solve(position, "points", cards=cards, engine=engine)
    fresh = solver.solve(position, "points", cards=cards)
    assert (after.total, after.card_values) == (fresh.total, fresh.card_values)


def test_a_signal_stops_a_settlement_search(alarm) -> None:
    position = _heavy()
    engine = SettlementEngine(16)
    alarm(0.05)
    with pytest.raises(Alarm):
        dd_settlement(position, engine=engine)
