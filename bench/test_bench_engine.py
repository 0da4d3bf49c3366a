"""pytest-benchmark benches, one per standard line: ``python -m pytest bench/ --benchmark-only``.

Each bench times one solve per round over a line's fixed deals (a fresh engine per deal, built untimed), so the
reported min/median/max are per-deal figures. Every bench also checks its answers: against the same question answered
by another driver (or, on the endings, by the reference solver), so a fast but wrong engine fails here. The lines'
targets are recorded in each bench's ``extra_info``; ``bench/report.py`` is what says whether they are met.
"""

from __future__ import annotations

import pytest

from solver.benchmark import EVERY_SEAT, VALUE, Answer, BenchDeal, BenchLine, endings_lines, standard_lines

LINES = {line.name: line for line in standard_lines()}
EXACT = LINES["Zwanzigerrufen Normal: exact points"]
WITH_CARDS = LINES["Zwanzigerrufen Normal: points + every opening card"]


def _ids(lines: list[BenchLine]) -> list[str]:
    return [line.name.replace(" ", "_").replace(":", "").replace("'", "") for line in lines]


def _best_card_value(maximising: bool, values: tuple[int, ...]) -> int:
    return max(values) if maximising else min(values)


def _answered(line: BenchLine, fixed: list[BenchDeal], bench_deals_once) -> list[tuple[BenchDeal, Answer]]:
    """Bench ``line`` on its ``fixed`` deals, each answer paired with the deal of ``fixed`` it answers."""
    by_board = {deal.board: deal for deal in fixed}
    return [(by_board[board], answer) for board, answer in bench_deals_once(line, fixed)]


@pytest.mark.parametrize("line", [EXACT], ids=_ids([EXACT]))
def test_zwanzigerrufen_exact_points(line, deals, expected, bench_deals_once):
    for deal, answer in _answered(line, deals(line), bench_deals_once):
        assert answer == expected.engine(line, deal), f"board {deal.board}"
        assert 0 <= answer[0] <= 120, f"board {deal.board}: {answer[0]} is not a number of card points"


@pytest.mark.parametrize("line", [WITH_CARDS], ids=_ids([WITH_CARDS]))
def test_zwanzigerrufen_every_opening_card(line, deals, expected, bench_deals_once):
    """Checked against line 1's value of the same deal (by the other driver) and for internal consistency: the best
    opening card keeps the value, no card beats it."""
    for deal, answer in _answered(line, deals(line), bench_deals_once):
        value, cards = answer[0], answer[1:]
        assert value == expected.engine(EXACT, deal)[0], f"board {deal.board}"
        maximising = deal.position.state.to_move in deal.objectives[0].maximiser
        assert cards and _best_card_value(maximising, cards) == value, f"board {deal.board}"


YES_NO = [LINES["Zwanzigerrufen Normal: Valat yes/no"], LINES["Zwanzigerrufen Normal: Pagat Ultimo yes/no"]]


@pytest.mark.parametrize("line", YES_NO, ids=_ids(YES_NO))
def test_zwanzigerrufen_yes_no(line, deals, expected, bench_deals_once):
    """The yes/no search against the exact value compared with the target."""
    for deal, answer in _answered(line, deals(line), bench_deals_once):
        assert answer in ((0,), (1,))
        assert answer == expected.engine(line, deal), f"board {deal.board}"


OTHERS = [line for line in standard_lines() if line.game != "Zwanzigerrufen"]


@pytest.mark.parametrize("line", OTHERS, ids=_ids(OTHERS))
def test_schafkopf_and_kratzen(line, deals, expected, bench_deals_once):
    for deal, answer in _answered(line, deals(line), bench_deals_once):
        assert answer == expected.engine(line, deal), f"board {deal.board}"
        if line.question == VALUE and line.cards:
            maximising = deal.position.state.to_move in deal.objectives[0].maximiser
            assert _best_card_value(maximising, answer[1:]) == answer[0], f"board {deal.board}"
        if line.question == EVERY_SEAT:
            assert len(answer) == deal.position.rules.seats
            assert sum(answer) <= deal.position.rules.tricks_in_deal, \
                f"board {deal.board}: guarantees exceed the tricks"


ENDINGS = endings_lines()


@pytest.mark.parametrize("line", ENDINGS, ids=_ids(ENDINGS))
def test_endings_against_reference(line, deals, expected, bench_deals_once, benchmark):
    """Line 9: the engine on 5-trick endings, every value equal to the reference solver's. The reference's median
    and the ratio of medians (target: >= 1,000x) go to extra_info; the bench asserts only that the engine is faster,
    the report says whether the target is met."""
    fixed = deals(line)
    for deal in fixed:  # the reference first, untimed by the benchmark (it times itself for the ratio)
        expected.reference(line, deal)
    for deal, answer in _answered(line, fixed, bench_deals_once):
        assert answer == expected.reference(line, deal), f"board {deal.board}"
    reference_ms = expected.reference_median_ms(line, fixed)
    benchmark.extra_info["reference_median_ms"] = reference_ms
    if benchmark.stats is not None:  # None when benchmarks are disabled
        engine_ms = benchmark.stats.stats.median * 1000
        ratio = reference_ms / engine_ms
        benchmark.extra_info["ratio_of_medians"] = ratio
        assert ratio > 1, f"the engine ({engine_ms:.3f} ms) is not faster than the reference ({reference_ms:.1f} ms)"
