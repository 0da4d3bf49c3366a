"""Throughput of contract advice and of the sampling bot (issue 35): contract advice over every contract a
Schafkopf and a Zwanzigerrufen hand may announce, and the sampling bot's card at the first trick. Run

    python -m pytest bench/test_bench_advice.py --benchmark-only

(``STICH_BENCH_ADVICE_SAMPLES`` sets the advice's samples, 200 by default; ``STICH_BENCH_BOT_HANDS`` the seeded
hands the bot's medians are over, 5 by default). Each advice bench is one round of the whole job on 2 workers, pool
start-up included; the bot benches time one card per seeded hand and keep the median in ``extra_info``, for the
score (the bot's default, its samples on 2 workers) and, in Zwanzigerrufen, for the card points too (one process:
that bot samples in its own loop). Nothing
here asserts a speed: the benches check that every sample was solved and every card is legal.
"""

from __future__ import annotations

import os
import statistics
import time

import pytest

from solver.advice import contract_advice
from solver.bots import SamplingBot
from solver.generate import random_record
from solver.position import position_from_record

SAMPLES = int(os.environ.get("STICH_BENCH_ADVICE_SAMPLES", "200"))
HANDS = int(os.environ.get("STICH_BENCH_BOT_HANDS", "5"))
#: The processes every job here runs on: the issue's targets are for 2 cores.
WORKERS = 2

#: A Schafkopf hand with four contracts (Solo E, its Tout, Wenz, WenzTout) and a Zwanzigerrufen hand with two
#: (Normal calling T17, Solo).
ADVICE = {"schafkopf": "EO GO HO SO EU GU EA E10", "zwanzigerrufen": "T21 T20 T19 T18 T15 T14 T13 T12 HK SK"}


@pytest.mark.parametrize("game", sorted(ADVICE))
def test_contract_advice_all_contracts(benchmark, game):
    def run():
        return contract_advice(game, ADVICE[game], 1, "all", samples=SAMPLES, seed=1, workers=WORKERS)

    advice = benchmark.pedantic(run, rounds=1, iterations=1)
    assert advice.samples == SAMPLES and advice.stopped is None
    benchmark.extra_info.update(contracts=len(advice.rows), samples=SAMPLES)


@pytest.mark.parametrize("game,contract,plays_for", [("schafkopf", "Rufer G", "score"),
                                                      ("zwanzigerrufen", "Normal", "score"),
                                                      ("zwanzigerrufen", "Normal", "points")])
def test_bot_card_at_the_first_trick(benchmark, game, contract, plays_for):
    positions = [position_from_record(random_record(game, 35, board, contract=contract, declarer=1))
                 for board in range(1, HANDS + 1)]
    seconds = []

    def run():
        for position in positions:
            bot = SamplingBot(samples=50, seed=1, plays_for=plays_for, workers=WORKERS)
            started = time.perf_counter()
            card = bot.choose(position)
            seconds.append(time.perf_counter() - started)
            assert position.state.legal_cards() >> card & 1

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(median_seconds=statistics.median(seconds), hands=HANDS, samples=50,
                                plays_for=plays_for)
    print(f"\n{game} bot card for the {plays_for}, 50 samples: median {statistics.median(seconds):.2f} s over "
          f"{HANDS} hands "
          f"({', '.join(f'{s:.2f}' for s in seconds)})")
