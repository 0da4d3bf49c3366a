"""Throughput benches of the two jobs that use every core: ``stich batch`` and ``stich analyse``.

The targets: batch solving 1,000 Schafkopf deals on 2 local cores reaches >= 1.8x the single-core rate, and 1,000
``stich analyse`` samples of a Schafkopf hand take under 10 s on 2 cores. Run

    STICH_BENCH_BATCH_DEALS=1000 STICH_BENCH_SAMPLES=1000 \
        python -m pytest bench/test_bench_throughput.py --benchmark-only

for those figures (about 3 minutes on 2 cores); the defaults (200 deals, 200 samples) are a quicker check.
Each bench is one round of a whole job, timed from the call to the last result written, pool start-up included
(as a user waits for it); rates and the 2-core/1-core ratio go to ``extra_info`` (``--benchmark-json`` keeps
them). Nothing here asserts a speed: the benches check that the job's results are whole and the same whatever the
number of workers.
"""

from __future__ import annotations

import json
import os
import time

import pytest

from solver.batch import solve_batch
from solver.formats.tbn import format_record
from solver.generate import random_records
from solver.sampling import analyse_hand

#: The deals of the batch bench: what ``stich deal -g sk -s 12 -n N`` writes.
BATCH_SEED = 12

#: The hands of the analysis bench, each played by seat 1, who leads, so every sample also solves every opening
#: card: the README's Rufer hand, a strong and an ordinary Solo, and a Wenz a player would announce. (A hand that
#: wins everything whatever the others hold, such as three Unter with four aces and tens in Wenz, is decided by the
#: bounds at once and measures nothing.)
HANDS = {
    "Rufer E": ("Rufer E", "EU E8 E7 GK GO HA H9 SU"),
    "Solo H strong": ("Solo H", "EO GO HO SU HA HZ HK EA"),
    "Solo H": ("Solo H", "GO HO GU HA HZ HK H8 EA"),
    "Wenz": ("Wenz", "EU GU EA EZ EK GA GZ H9"),
}


def _count(name: str, default: int, most: int) -> int:
    text = os.environ.get(name, str(default)).strip()
    if not text.isdigit() or not 1 <= int(text) <= most:
        raise pytest.UsageError(f"{name} must be a number from 1 to {most}, not {text!r}")
    return int(text)


@pytest.fixture(scope="module")
def deals_file(tmp_path_factory):
    count = _count("STICH_BENCH_BATCH_DEALS", 200, 100_000)
    path = tmp_path_factory.mktemp("batch") / f"schafkopf-{count}.tbn"
    path.write_text("\n".join(format_record(record)
                              for record in random_records("Schafkopf", BATCH_SEED, count)), encoding="utf-8")
    return path, count


@pytest.fixture(scope="module")
def rates():
    """Deals per second of each worker count, shared by the batch benches for the ratio."""
    return {}


def _results(path) -> dict[str, object]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return {line["id"]: line.get("results") for line in lines}


@pytest.mark.parametrize("workers", [1, 2])
def test_batch_schafkopf_deals(workers, deals_file, rates, tmp_path, benchmark):
    source, count = deals_file
    out = tmp_path / "out.jsonl"

    def job():
        if out.exists():
            out.unlink()
        start = time.perf_counter()
        summary = solve_batch(source, out, workers=workers)
        return summary, time.perf_counter() - start

    summary, seconds = benchmark.pedantic(job, rounds=1, iterations=1)
    assert (summary.solved, summary.errors) == (count, 0)
    results = _results(out)
    assert len(results) == count and all(results.values())
    rates[workers] = (count / seconds, results)
    benchmark.extra_info.update(deals=count, workers=workers, deals_per_second=round(count / seconds, 2))
    if 1 in rates and 2 in rates:
        assert rates[1][1] == rates[2][1], "two workers solved the deals differently from one"
        ratio = rates[2][0] / rates[1][0]
        benchmark.extra_info.update(ratio_to_one_worker=round(ratio, 3), target_ratio=1.8)
        print(f"\nbatch of {count} Schafkopf deals: {rates[1][0]:.1f} deals/s on 1 worker, "
              f"{rates[2][0]:.1f} on 2: {ratio:.2f}x (target 1.8x)")


@pytest.mark.parametrize("name", list(HANDS))
def test_analyse_schafkopf_hand(name, benchmark):
    samples = _count("STICH_BENCH_SAMPLES", 200, 100_000)
    contract, hand = HANDS[name]

    def job():
        start = time.perf_counter()
        analysis = analyse_hand("Schafkopf", hand, 1, contract, samples=samples, seed=1, workers=2)
        return analysis, time.perf_counter() - start

    analysis, seconds = benchmark.pedantic(job, rounds=1, iterations=1)
    document = analysis.as_dict()
    assert document["samples"] == samples and document["openings"]
    assert 0.0 <= document["win_probability"] <= 1.0
    benchmark.extra_info.update(hand=hand, contract=contract, samples=samples, workers=2,
                                seconds=round(seconds, 2), samples_per_second=round(samples / seconds, 1),
                                seconds_per_1000=round(seconds * 1000 / samples, 2), target_seconds_per_1000=10)
    print(f"\nanalyse {contract} hand {hand!r}: {samples} samples in {seconds:.1f} s on 2 workers "
          f"({seconds * 1000 / samples:.1f} s per 1,000; target 10 s)")
