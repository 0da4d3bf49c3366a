"""Issue 32's speed lines: the score with every opening card beside card points with every opening card, on the same
fixed deals, timed in the same run: ``python -m pytest bench/test_bench_score.py --benchmark-only``.

Zwanzigerrufen Normal is scored with a Pagat Ultimo announced by its holder ("Pagat dagegen" from a defender) and a
Kontra on the game by the first defender (so the settlement has every component: points, tricks, the Pagat and
Mondfang events, a doubled game); Schafkopf Rufer with the record's contract. The points bench of a deal set runs
first and records each deal's time; the score bench then records the median of the per-deal ratios score / points
and the ratio of the medians in ``extra_info`` (issue target: median <= 1.5x). Each round builds a fresh engine
untimed, as bench/conftest.py does. Both lines search on one thread (both engines' default is every core), so the
ratio compares the searches, not the thread counts. The last bench times the score on every core beside one thread,
deal by deal in turns, and records the speed-up.
"""

from __future__ import annotations

import itertools
import statistics
import time
from typing import Any, Callable

import pytest

from solver.benchmark import BenchDeal, BenchLine, standard_lines
from solver.position import Position
from solver.score_objective import solve_score
from solver.search.engine import EngineSolver
from solver.search.settle import SettlementEngine

LINES = {line.name: line for line in standard_lines()}
#: The score lines, each over the deals of a points line of bench/test_bench_engine.py.
SCORE_LINES = {
    "Zwanzigerrufen Normal, Pagat Ultimo and Kontra": LINES["Zwanzigerrufen Normal: points + every opening card"],
    "Schafkopf Rufer": LINES["Schafkopf Rufer: points + every opening card"],
}
TARGET_RATIO = 1.5
#: Per-deal points timings of this run (ms by board), filled by the points bench of each line.
POINTS_MS: dict[str, dict[int, float]] = {}


def announcements_of(position: Position) -> str | None:
    """Zwanzigerrufen: the Pagat's holder announces it (the only seat that may, docs/scoring.md), the first defender
    says Kontra (on the game). A defending holder says "Pagat dagegen", which needs that Kontra; with T1 in no hand
    the declarer announces it (it fails)."""
    if position.game.name != "Zwanzigerrufen":
        return None
    rules = position.rules
    holder = rules.deal.holder(rules.pack.parse("T1").index)
    kontra = f"{min(rules.defending_side) + 1}: Kontra"
    if holder is None:
        return f"{rules.declarer + 1}: Pagat; {kontra}"
    if holder in rules.declaring_side:
        return f"{holder + 1}: Pagat; {kontra}"
    return f"{kontra}; {holder + 1}: Pagat dagegen"


def timed_rounds(benchmark, name: str, fixed: list[BenchDeal], make_engine, ask) -> dict[int, tuple[float, tuple]]:
    """One round per deal with a fresh engine (built untimed); returns each board's ms and answer (every deal's, also
    under --benchmark-disable, where pytest-benchmark runs a single round)."""
    results: dict[int, tuple[float, tuple]] = {}
    pending = itertools.cycle(fixed)

    def setup():
        return (make_engine(), next(pending)), {}

    def solve(engine, deal: BenchDeal) -> None:
        start = time.perf_counter()
        answer = ask(engine, deal)
        results[deal.board] = ((time.perf_counter() - start) * 1000, answer)

    benchmark.group = f"score vs points: {name}"
    benchmark.extra_info["deals"] = len(fixed)
    benchmark.pedantic(solve, setup=setup, rounds=len(fixed), iterations=1, warmup_rounds=0)
    for deal in fixed:  # --benchmark-disable runs one round only: answer the other deals too, for the checks
        if deal.board not in results:
            solve(make_engine(), deal)
    return results


def _best(maximising: bool, values) -> int:
    return max(values) if maximising else min(values)


@pytest.mark.parametrize("name", SCORE_LINES, ids=[n.replace(" ", "_").replace(",", "") for n in SCORE_LINES])
def test_points_with_every_opening_card(name, deals, benchmark):
    fixed = deals(SCORE_LINES[name])

    def ask(engine: EngineSolver, deal: BenchDeal) -> tuple:
        result = engine.solve(deal.position.state, deal.objectives[0], cards=True)
        return (result.total, *(cv.value for cv in result.card_values))

    results = timed_rounds(benchmark, name, fixed, lambda: EngineSolver(threads=1), ask)
    POINTS_MS[name] = {board: ms for board, (ms, _) in results.items()}
    for deal in fixed:
        value, *cards = results[deal.board][1]
        maximising = deal.position.state.to_move in deal.objectives[0].maximiser
        assert cards and _best(maximising, cards) == value, f"board {deal.board}"


@pytest.mark.parametrize("name", SCORE_LINES, ids=[n.replace(" ", "_").replace(",", "") for n in SCORE_LINES])
def test_score_with_every_opening_card(name, deals, benchmark):
    """The answers are checked for consistency (the best card keeps the value, the value is what a fresh engine's
    plain value search says on the first deals); the ratios go to extra_info and are printed."""
    fixed = deals(SCORE_LINES[name])

    def ask(engine: SettlementEngine, deal: BenchDeal) -> tuple:
        result = solve_score(deal.position, cards=True, engine=engine, reference_solver=False,
                             announcements=announcements_of(deal.position))
        return (result.total, *(cv.value for cv in result.card_values))

    results = timed_rounds(benchmark, name, fixed, lambda: SettlementEngine(threads=1), ask)
    for deal in fixed:
        value, *cards = results[deal.board][1]
        maximising = deal.position.state.to_move in deal.position.rules.declaring_side
        assert cards and _best(maximising, cards) == value, f"board {deal.board}"
    for deal in fixed[:3]:
        plain = solve_score(deal.position, engine=SettlementEngine(threads=1), reference_solver=False,
                            announcements=announcements_of(deal.position))
        assert plain.total == results[deal.board][1][0], f"board {deal.board}"
    points = POINTS_MS.get(name)
    if points is None or benchmark.stats is None:  # the points bench was deselected, or benchmarks are off
        return
    score_ms = {board: ms for board, (ms, _) in results.items()}
    ratios = [score_ms[board] / points[board] for board in score_ms]
    median_ratio = statistics.median(ratios)
    ratio_of_medians = statistics.median(score_ms.values()) / statistics.median(points.values())
    benchmark.extra_info.update({"points_median_ms": statistics.median(points.values()),
                                 "score_median_ms": statistics.median(score_ms.values()),
                                 "median_ratio": median_ratio, "ratio_of_medians": ratio_of_medians,
                                 "target": f"median ratio <= {TARGET_RATIO}x"})
    print(f"\n{name}: points {statistics.median(points.values()):.1f} ms, score "
          f"{statistics.median(score_ms.values()):.1f} ms (medians of {len(ratios)} deals); median ratio "
          f"{median_ratio:.2f}x, ratio of medians {ratio_of_medians:.2f}x (target <= {TARGET_RATIO}x)")


@pytest.mark.parametrize("name", SCORE_LINES, ids=[n.replace(" ", "_").replace(",", "") for n in SCORE_LINES])
def test_score_on_every_core(name: str, deals: Callable[[BenchLine], list[BenchDeal]], benchmark: Any) -> None:
    """The score with every opening card on one thread and on every core (src_ext/parallel.pxd, "The settlement"):
    each round solves one deal both ways, a fresh engine each, in turns which goes first, so that both meet the same
    load; the same answers, and the medians and the speed-up in extra_info (the round's own time is the two)."""
    from solver.search.engine import usable_cores

    fixed = deals(SCORE_LINES[name])
    cores = usable_cores()
    times: dict[int, dict[int, float]] = {1: {}, cores: {}}

    def ask(_engine: None, deal: BenchDeal) -> tuple:
        answers = {}
        for threads in ((1, cores) if deal.board % 2 else (cores, 1)):
            engine = SettlementEngine(threads=threads)
            start = time.perf_counter()
            result = solve_score(deal.position, cards=True, engine=engine, reference_solver=False,
                                 announcements=announcements_of(deal.position))
            times[threads][deal.board] = (time.perf_counter() - start) * 1000
            answers[threads] = (result.total, *(cv.value for cv in result.card_values))
        assert answers[1] == answers[cores], f"board {deal.board}"
        return answers[1]

    timed_rounds(benchmark, f"{name}, one thread and {cores}", fixed, lambda: None, ask)
    one, every = times[1], times[cores]
    speedups = [one[board] / every[board] for board in one]
    benchmark.extra_info.update({"threads": cores, "one_thread_median_ms": statistics.median(one.values()),
                                 "every_core_median_ms": statistics.median(every.values()),
                                 "median_speedup": statistics.median(speedups),
                                 "speedup_of_medians":
                                     statistics.median(one.values()) / statistics.median(every.values())})
    print(f"\n{name}: the score with every opening card on one thread {statistics.median(one.values()):.1f} ms, on "
          f"{cores} {statistics.median(every.values()):.1f} ms (medians of {len(speedups)} deals); median speed-up "
          f"{statistics.median(speedups):.2f}x, of the medians "
          f"{statistics.median(one.values()) / statistics.median(every.values()):.2f}x")
