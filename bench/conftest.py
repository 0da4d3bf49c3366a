"""Fixtures of the pytest-benchmark benches: the fixed deals of every line, and answers to check the timed solves
against, computed once by another path (another search driver, or the reference solver on the endings).

``STICH_BENCH_DEALS`` (default 20) chooses how many of a line's 100 fixed deals a bench solves; the default run of
``python -m pytest bench/ --benchmark-only`` stays within about ten minutes on a 2-core machine.
"""

from __future__ import annotations

import itertools
import os
import statistics
import time
from typing import Any, Callable

import pytest

from solver.benchmark import (REACHES, STANDARD_DEALS, Answer, BenchDeal, BenchLine, ask, ask_reference,
                              bench_deals, line_seed, prepare_deal)
from solver.search.engine import EngineSolver

DEFAULT_BENCH_DEALS = 20

#: The checking engine searches with another driver than the benchmarked one (mtdf), so that a driver bug shows
#: as a disagreement instead of being compared with itself.
CHECK_OPTIONS: dict[str, Any] = {"driver": "window"}


def bench_deal_count() -> int:
    """How many of each line's fixed deals to solve, from STICH_BENCH_DEALS."""
    text = os.environ.get("STICH_BENCH_DEALS", str(DEFAULT_BENCH_DEALS)).strip()
    if not text.isdigit() or not 1 <= int(text) <= STANDARD_DEALS:
        raise pytest.UsageError(f"STICH_BENCH_DEALS must be a number from 1 to {STANDARD_DEALS}, not {text!r}")
    return int(text)


class Deals:
    """Each line's fixed deals, prepared once per session (outside every timed part)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._deals: dict[str, list[BenchDeal]] = {}

    def __call__(self, line: BenchLine) -> list[BenchDeal]:
        if line.name not in self._deals:
            self._deals[line.name] = bench_deals(line, self.count)
        return self._deals[line.name]


def independent_answer(line: BenchLine, deal: BenchDeal) -> Answer:
    """The line's answer by another route: the window driver, and for yes/no lines the exact value compared with the
    target instead of the engine's yes/no search."""
    solver = EngineSolver(**CHECK_OPTIONS)
    if line.question == REACHES:
        state = deal.position.state
        objective = deal.objectives[0]
        assert objective.target is not None
        total = objective.achieved(state.rules, state) + solver.value(state, objective)
        return (int(total >= objective.target),)
    return ask(solver, line, deal).answer


class Expected:
    """Answers computed once per session and shared by the benches (line 2 reuses line 1's values)."""

    def __init__(self) -> None:
        self._answers: dict[tuple[str, int], Answer] = {}
        self.reference_ms: dict[tuple[str, int], float] = {}

    def engine(self, line: BenchLine, deal: BenchDeal) -> Answer:
        key = (line.name, deal.board)
        if key not in self._answers:
            self._answers[key] = independent_answer(line, deal)
        return self._answers[key]

    def reference(self, line: BenchLine, deal: BenchDeal) -> Answer:
        """The reference solver's answer, timed (for the ratio of medians in the endings benches)."""
        key = (line.name + " (reference)", deal.board)
        if key not in self._answers:
            start = time.perf_counter()
            self._answers[key] = ask_reference(line, deal).answer
            self.reference_ms[key] = (time.perf_counter() - start) * 1000
        return self._answers[key]

    def reference_median_ms(self, line: BenchLine, deals: list[BenchDeal]) -> float:
        return statistics.median(self.reference_ms[(line.name + " (reference)", d.board)] for d in deals)


@pytest.fixture(scope="session")
def deals() -> Deals:
    return Deals(bench_deal_count())


@pytest.fixture(scope="session")
def expected() -> Expected:
    return Expected()


@pytest.fixture
def bench_deals_once(benchmark) -> Callable[[BenchLine, list[BenchDeal]], list[tuple[int, Answer]]]:
    """Benchmark a line: one round per deal, each round's setup building a fresh engine and a fresh copy of the deal
    (untimed) exactly as the library's run_line does, so no transposition table is reused between deals. The
    rounds' statistics are then per-deal statistics. Returns (board, answer) for every solved deal."""

    def run(line: BenchLine, fixed: list[BenchDeal]) -> list[tuple[int, Answer]]:
        answers: list[tuple[int, Answer]] = []
        pending = itertools.cycle(fixed)  # cycled: --benchmark-cprofile asks for extra rounds

        def setup():
            deal = next(pending)
            return (EngineSolver(), prepare_deal(line, deal.board, line_seed(line))), {}

        def solve(solver: EngineSolver, deal: BenchDeal) -> None:
            answers.append((deal.board, ask(solver, line, deal).answer))

        benchmark.group = "endings" if line.tricks_left is not None else line.game
        benchmark.extra_info["deals"] = len(fixed)
        benchmark.extra_info["target"] = line.target
        benchmark.pedantic(solve, setup=setup, rounds=len(fixed), iterations=1, warmup_rounds=0)
        return answers

    return run
