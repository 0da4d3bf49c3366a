"""Contract advice and card advice: paired samples, seeds independent of workers, the time limit, the checkpoint
resume, and the CLI's exit codes."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import Any, Callable

import pytest

from solver.advice import (PASS, AdviceSums, ContractAdvice, add_sample, card_advice, contract_advice, make_setup,
                           other_side_wording, ranked_rows, settle_sample, told_apart)
from solver.sampling import SHARE_SCALE, analyse_hand, analyse_position, scaled_share
from solver.api import read_positions
from solver.errors import InvalidContractError, StichError, StichWarning
from stopping_helpers import signals_as_a_shell_gives_them
from test_cli import SCHEMA, schema_errors  # the validator of docs/stich-result.schema.json

ROOT = Path(__file__).resolve().parent.parent
HAND = "EO GO HO SO EU GU EA E10"  # a Schafkopf hand for Solo E, Wenz and their Touts
KRATZEN = dict(game="kratzen", hand="EO E9 SU SZ", seat=1, seats=3, pot=4)  # a fast question: 4 trump choices


def _row(advice, contract):
    return next(row for row in advice.rows if row.contract == contract)


def test_contracts_listed_for_the_hand():
    setup = make_setup("schafkopf", HAND, 1, "all")
    assert set(setup.contracts) == {"Solo E", "SoloTout E", "Wenz", "WenzTout"}
    zwanzig = make_setup("zwanzigerrufen", "T21 T20 T19 T18 T15 T14 T13 T12 HK SK", 1, "all")
    assert zwanzig.contracts == ("Normal T17", "Solo")  # the highest tarock it lacks is called (rule 1.2)
    kratzen = make_setup("kratzen", "EO E9 SU SZ", 1, "all", seats=3)  # every trump choice
    assert len(kratzen.contracts) >= 2
    with pytest.raises(InvalidContractError, match="cannot announce"):
        make_setup("schafkopf", HAND, 1, "Solo G")
    assert make_setup("schafkopf", "EO GO HO SO EU GU HU SU", 1, "all").contracts == ("Wenz", "WenzTout", "Sie")
    # under called_tarock=any forehand may call any tarock of T20..T16 she lacks
    anything = make_setup("zwanzigerrufen", "T21 T20 T19 T18 T15 T14 T13 T1 HK SK", 1, "all",
                          variant="called_tarock=any")
    assert anything.contracts == ("Normal T17", "Normal T16", "Solo")
    announced = make_setup("zwanzigerrufen", "T21 T20 T19 T18 T15 T14 T13 T1 HK SK", 1, "all",
                           announcements="1: Pagat Ultimo")
    assert announced.announcements == "1: Pagat Ultimo"
    with pytest.raises(Exception, match="seat and a colon"):
        make_setup("zwanzigerrufen", "T21 T20 T19 T18 T15 T14 T13 T1 HK SK", 1, "all", announcements="Pagat Ultimo")


def test_all_in_a_contract_list_is_refused_as_such():
    """'all' is every contract the seat may announce: in a list it is refused saying so, not as an unknown contract;
    beside a comma alone (``all,``) it is told to drop the comma, not said to be in a list."""
    with pytest.raises(InvalidContractError, match=r"'all' in a list \('Wenz, all'\): 'all', given alone, is every"):
        make_setup("schafkopf", HAND, 1, "Wenz, all")
    with pytest.raises(InvalidContractError, match=r"'all' in a list \('Wenz, all'\)"):
        make_setup("schafkopf", HAND, 1, ["Wenz", "all"])
    for stray in ("all,", " , all"):  # no other contract: the comma is what is wrong, said so
        with pytest.raises(InvalidContractError) as refused:
            make_setup("schafkopf", HAND, 1, stray)
        assert str(refused.value) == (f"'all' with a comma but no other contract ({stray!r}): 'all', given alone, is "
                                      "every contract the seat may announce; drop the comma")
    with pytest.raises(InvalidContractError, match=r"'all' in a list \('all, all'\)"):
        make_setup("schafkopf", HAND, 1, "all, all")


def test_schafkopf_advice_whose_every_contract_loses_says_what_passing_pays():
    """A Schafkopf seat cannot be offered a pass row (a deal every seat passes is thrown in), so where the best
    contract still loses on average the table's "best" would advise announcing it: a line under it says so beside
    what passing pays. A winning best has no such line."""
    from solver.advice import contract_advice_report

    weak = contract_advice("schafkopf", "E7 E8 G7 G8 H7 S7 S8 SK", 3, "Rufer E, Wenz", samples=6, seed=2, workers=1)
    best = weak.as_dict()["contracts"][0]
    assert (best["contract"], best["mean"], best["interval"]) == ("Rufer E", -1.3333, [-1.8753, -0.7914])
    lines = [part for part in contract_advice_report(weak.as_dict()) if isinstance(part, str)]
    assert lines[-1] == ("every contract ranked pays seat 3 less than 0 on average, the best, Rufer E, -1.33 (95%: "
                         "-1.88 to -0.79); passing, not ranked, pays 0 where the others pass too: a deal every seat "
                         "passes is thrown in, paying nobody")
    tied = contract_advice("schafkopf", "HO SU H9 EA E8 GK G7 S9", 1, "Rufer G, Rufer S, Wenz", samples=4, seed=1,
                           workers=1, known={2: "EO GO SO EU GU HU HA HZ", 3: "GA SA"})  # both Rufers lose 2 each
    assert [part for part in contract_advice_report(tied.as_dict()) if isinstance(part, str)][-1] == (
        "every contract ranked pays seat 1 less than 0 on average, the best, Rufer G, -2.00 (all alike) (tied with 1 "
        "more); passing, not ranked, pays 0 where the others pass too: a deal every seat passes is thrown in, paying "
        "nobody")
    strong = contract_advice("schafkopf", HAND, 1, "Solo E, Wenz", samples=6, seed=2, workers=1)
    assert strong.rows[0].mean > 0
    assert not any("passing" in part for part in contract_advice_report(strong.as_dict()) if isinstance(part, str))


def test_announcements_and_the_pot_are_settled():
    plain = contract_advice(contracts="Trump E", samples=10, seed=1, workers=1, **{**KRATZEN, "pot": None})
    with_pot = contract_advice(contracts="Trump E", samples=10, seed=1, workers=1, **KRATZEN)
    assert with_pot.pot == 4 and with_pot.as_dict()["pot"] == 4
    assert plain.rows[0].mean == 0  # without a pot a Kratzen deal settles nothing
    assert with_pot.rows[0].mean != 0


def test_pairing_gap_is_the_mean_of_per_sample_differences():
    setup = make_setup(contracts="Trump E, Trump H", seed=3, **KRATZEN)
    per_sample = [settle_sample(setup, k) for k in range(30)]
    sums = AdviceSums()
    for results in per_sample:
        add_sample(sums, results)
    gaps = [a[0] - b[0] for a, b in per_sample]
    assert sums.pairs[(0, 1)].n == 30 and sums.pairs[(0, 1)].total == sum(gaps)
    advice = contract_advice(contracts="Trump E, Trump H", samples=30, seed=3, workers=1, **KRATZEN)
    best, other = _row(advice, "Trump E"), _row(advice, "Trump H")
    assert advice.rows[0] is best and best.mean > other.mean
    # sums hold sixths of a game unit (a net shared by one, two or three seats stays whole)
    assert math.isclose(other.gap, sum(gaps) / 30 / SHARE_SCALE) and math.isclose(best.mean - other.mean, other.gap)
    assert other.told_apart and other.gap_low > 0
    # the paired interval is no wider than the two unpaired ones together
    assert other.gap_high - other.gap_low <= (best.high - best.low) + (other.high - other.low) + 1e-9


def _settled_along_the_line(setup, k):
    """Sample ``k`` settled as before the bonuses were read off the payoff table: the value, then a score-optimal
    line played out and scored (a Kratzen contract's tricks searched as the advice searches them)."""
    from solver.advice import bonuses_made, bonuses_possible, counts_tricks, draw_deal
    from solver.sampling import payment_range, searched_measure_and_win
    from solver.workers import worker_engine
    from solver.games import get_game
    from solver.position import Position
    from solver.scoring import scoring_inputs
    from solver.settlement import (bonuses_against, default_settlement_engine, final_net, payoff_spec, payoff_table,
                                   play_out)

    game, engine = get_game(setup.game), default_settlement_engine()
    results = []
    for contract in setup.contracts:
        rules = game.rules(draw_deal(setup, k), contract, declarer=setup.seat)
        position = Position(game, rules, rules.start())
        inputs = scoring_inputs(position, announcements=setup.announcements, pot=setup.pot)
        spec = payoff_spec(position, inputs=inputs)
        value = engine.value(position.state, spec)
        final = play_out(position.state, engine.line(position.state, spec, value))
        items = final_net(position, final, inputs=inputs)[1].items
        tricks = searched_measure_and_win(rules, position.state, setup.seat - 1, worker_engine(), win=False)[0] \
            if counts_tricks(setup.game) else 0
        results.append((scaled_share(position, setup.seat - 1, value), value > 0, bonuses_made(rules, items),
                        bonuses_against(rules, items), *bonuses_possible(payoff_table(position, inputs=inputs)),
                        tricks, payment_range(position, setup.seat - 1, spec.net_range)))
    return results


def test_bonuses_read_off_the_payoff_table_are_the_lines_where_the_net_names_them():
    # Schafkopf: every net of the table names one bonus set, so one search gives what value and line gave
    setup = make_setup("schafkopf", "EO HA H10 HK SO S9 E7 GU", 1, "all", seed=4)
    assert len(setup.contracts) == 10
    for k in range(6):
        assert settle_sample(setup, k) == _settled_along_the_line(setup, k)


def test_bonuses_are_read_off_the_net_only_where_it_names_them():
    from solver.advice import bonuses_of_value, draw_deal
    from solver.games import get_game
    from solver.position import Position
    from solver.scoring import scoring_inputs
    from solver.settlement import default_settlement_engine, payoff_table

    setup = make_setup("zwanzigerrufen", "T21 T20 T19 T18 T15 T14 T13 T12 HK SK", 1, "Normal T17", seed=3)
    game, engine = get_game(setup.game), default_settlement_engine()
    read = 0
    for k in range(8):
        rules = game.rules(draw_deal(setup, k), "Normal T17", declarer=1)
        position = Position(game, rules, rules.start())
        table = payoff_table(position, inputs=scoring_inputs(position))
        value = engine.value(position.state, table.spec)
        read += bonuses_of_value(table, value) is not None
        assert settle_sample(setup, k) == _settled_along_the_line(setup, k)
    # a Zwanzigerrufen net often stands for several bonus sets (a Pagat and an Absolut pay alike): the line decides
    assert read < 8
    rules = game.rules(draw_deal(setup, 0), "Normal T17", declarer=1)
    position = Position(game, rules, rules.start())
    assert bonuses_of_value(payoff_table(position, inputs=scoring_inputs(position)), 4) is None  # the net of both


def test_a_game_without_itemised_buckets_settles_its_bonuses_along_a_line():
    setup = make_setup(contracts="all", seed=2, **KRATZEN)
    for k in range(5):
        assert settle_sample(setup, k) == _settled_along_the_line(setup, k)


def test_same_result_with_one_and_two_workers(two_worker_cores):
    one = contract_advice(contracts="all", samples=40, seed=5, workers=1, **KRATZEN)
    two = contract_advice(contracts="all", samples=40, seed=5, workers=2, **KRATZEN)
    assert one == two and one.samples == 40 and len(one.rows) == 4


def test_bonus_odds_are_the_same_with_one_and_two_workers(two_worker_cores):
    one = contract_advice("schafkopf", HAND, 1, "Solo E, Wenz", samples=12, seed=6, workers=1)
    two = contract_advice("schafkopf", HAND, 1, "Solo E, Wenz", samples=12, seed=6, workers=2)
    assert one == two and one.samples == 12
    assert any(row.bonuses for row in one.rows)  # Schneider, Laufende: read off the settlement, no line
    per_sample = [settle_sample(make_setup("schafkopf", HAND, 1, "Solo E, Wenz", seed=6), k) for k in range(12)]
    solo = _row(one, "Solo E")
    for name, odds in solo.bonuses.items():
        assert odds == sum(name in results[0][2] for results in per_sample) / 12


def test_time_limit_gives_the_best_so_far():
    advice = contract_advice(contracts="all", samples=100_000, seed=1, workers=1, time_limit=1.0, **KRATZEN)
    assert advice.stopped == "time limit" and 1 <= advice.samples < 100_000
    assert advice.rows[0].samples >= 1


def _heavy_deal():
    """A Zwanzigerrufen Solo (board 30 of the benchmark's seed) whose every card the settlement values in over a
    second, and the other hands as known cards: every sample of card advice from it is that deal."""
    from solver.benchmark import SEEDS
    from solver.generate import random_record
    from solver.position import position_from_record

    position = position_from_record(random_record("Zwanzigerrufen", SEEDS["Zwanzigerrufen"], 30, contract="Solo"))
    seat = position.state.to_move
    known = {s + 1: " ".join(position.pack.names(hand)) for s, hand in enumerate(position.rules.deal.hands)
             if s != seat}
    return position, known


@pytest.mark.parametrize("workers", [1, 2])
def test_a_time_limit_stops_the_running_settlement(workers):
    """The first sample's search is cut at the limit (a worker process reads the same clock), not finished: no
    sample is solved, where a limit looked at between chunks only would have let the first one finish."""
    position, known = _heavy_deal()
    advice = card_advice(position, known=known, samples=3, seed=1, workers=workers, time_limit=0.2)
    assert advice.stopped == "time limit" and advice.samples == 0
    assert all(row.samples == 0 for row in advice.rows)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_stop_event_stops_the_running_settlement(workers):
    """In this process, or in a pool's worker processes (the run's Event is passed on to them as worker_stop): the
    samples in flight are cut, not finished."""
    position, known = _heavy_deal()
    stop = threading.Event()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    try:
        advice = card_advice(position, known=known, samples=3, seed=1, workers=workers, stop=stop)
    finally:
        timer.cancel()
    assert advice.stopped == "interrupt" and advice.samples == 0


@pytest.mark.parametrize("limit", [True, -1, float("nan"), float("inf")])
def test_a_time_limit_that_is_no_number_of_seconds_is_refused(limit):
    """True is no number of seconds, though a bool is an int: it is refused, in solve's message, as the meaning is
    solve's."""
    position = next(read_positions(ROOT / "examples" / "valat.tbn"))
    with pytest.raises(StichError, match=f"time_limit must be a number of seconds above 0 or None, not {limit!r}"):
        card_advice(position, samples=1, workers=1, time_limit=limit)
    with pytest.raises(StichError, match=f"time_limit must be a number of seconds above 0 or None, not {limit!r}"):
        contract_advice(contracts="all", samples=1, workers=1, time_limit=limit, **KRATZEN)


def test_a_time_limit_of_0_is_a_deadline_already_past():
    """As for solve and dd_settlement (a SearchStopped before any search): no sample is solved, and the advice says why.
    The advice takes it as solve does, not refused ("above 0"), so that one time_limit means one thing."""
    position = next(read_positions(ROOT / "examples" / "valat.tbn"))
    advice = card_advice(position, samples=3, workers=1, time_limit=1e-9)
    assert advice.stopped == "time limit" and advice.samples == 0
    advice = contract_advice(contracts="all", samples=3, workers=1, time_limit=1e-9, **KRATZEN)
    assert advice.stopped == "time limit" and all(row.samples == 0 for row in advice.rows)


def test_the_first_samples_a_bot_needs_are_solved_whatever_the_time_limit():
    from solver.advice import card_sums

    position, known = _heavy_deal()
    cards, sums, stopped = card_sums(position, known=known, samples=3, seed=1, workers=1, time_limit=0.2,
                                     at_least=1)
    assert stopped == "time limit" and sums.samples == 1
    assert all(sums.contracts[i].n == 1 for i in range(len(cards)))


class _StopAtAsking:
    """A stop event that is set from its ``at``-th question on: where a run stops, without a clock."""

    def __init__(self, at: int) -> None:
        self.at, self.asked = at, 0

    def is_set(self) -> bool:
        self.asked += 1
        return self.asked >= self.at


def test_a_chunk_cut_short_keeps_its_solved_samples_in_the_checkpoint(tmp_path, two_worker_cores):
    """Chunks of three samples here; the stop is first seen as sample 4 starts (asked before each chunk is handed
    out and as each sample's search starts), so the second chunk ends after sample 3: the checkpoint keeps samples
    0-3, and the resumed run equals an uninterrupted one."""
    whole = contract_advice(contracts="all", samples=200, seed=5, workers=1, **KRATZEN)
    journal = tmp_path / "advice.ckpt"
    part = contract_advice(contracts="all", samples=200, seed=5, workers=1, checkpoint=journal,
                           stop=_StopAtAsking(7), **KRATZEN)
    assert part.stopped == "interrupt" and part.samples == 4
    lines = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    assert [line["span"] for line in lines] == [[0, 3], [3, 1]]
    assert contract_advice(contracts="all", samples=200, seed=5, workers=2, checkpoint=journal, **KRATZEN) == whole


def test_checkpoint_resume_equals_an_uninterrupted_run(tmp_path, two_worker_cores):
    whole = contract_advice(contracts="all", samples=60, seed=2, workers=1, **KRATZEN)
    journal = tmp_path / "advice.ckpt"
    stop = threading.Event()
    part = contract_advice(contracts="all", samples=60, seed=2, workers=1, checkpoint=journal, stop=stop,
                           progress=lambda advice: advice.samples >= 20 and stop.set(), **KRATZEN)
    assert 20 <= part.samples < 60 and part.stopped == "interrupt"
    resumed = contract_advice(contracts="all", samples=60, seed=2, workers=2, checkpoint=journal, **KRATZEN)
    assert resumed == whole
    # a journal that is whole is read again without solving anything new
    assert contract_advice(contracts="all", samples=60, seed=2, workers=1, checkpoint=journal, **KRATZEN) == whole


def test_a_checkpoint_keeps_a_contracts_tricks_only_where_some_were_counted(tmp_path):
    """A contract's sums hold its tricks as an eighth number only where tricks were counted (Kratzen) and some were
    taken: a Schafkopf checkpoint keeps the seven numbers an older build reads, and reads back the same advice."""
    journal = tmp_path / "advice.ckpt"
    whole = contract_advice("schafkopf", "EO HU EA EK GZ G9 S7 HA", 1, contracts="Rufer G, Solo E", samples=6,
                            seed=2, workers=1, checkpoint=journal)
    lines = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    sums = [numbers for line in lines if "sums" in line for numbers in line["sums"]["contracts"].values()]
    assert sums and all(len(numbers) == 7 for numbers in sums), sums
    assert contract_advice("schafkopf", "EO HU EA EK GZ G9 S7 HA", 1, contracts="Rufer G, Solo E", samples=6,
                           seed=2, workers=1, checkpoint=journal) == whole
    kratzen = tmp_path / "kratzen.ckpt"
    contract_advice(contracts="all", samples=6, seed=2, workers=1, checkpoint=kratzen, **KRATZEN)
    assert '"tie_break"' in kratzen.read_text(encoding="utf-8")


def _position():
    return next(iter(read_positions(str(ROOT / "examples" / "schafkopf.tbn"))))


def test_card_advice_ranks_every_legal_card(two_worker_cores):
    position = _position()
    advice = card_advice(position, samples=12, seed=1, workers=1)
    legal = {position.pack[c].name for c in range(len(position.pack)) if position.state.legal_cards() >> c & 1}
    assert {row.contract for row in advice.rows} == legal
    assert all(row.samples == 12 for row in advice.rows)
    means = [row.mean for row in advice.rows]
    assert means == sorted(means, reverse=True)
    assert card_advice(position, samples=12, seed=1, workers=2) == advice
    with pytest.raises(Exception, match="seat to move"):
        card_advice(position, seat=1 if position.state.to_move != 0 else 2, samples=2)


def test_card_advice_gives_each_cards_bonus_odds_as_contract_advice_does():
    """Card advice gives each card's bonuses beside its mean payment and win rate: a player choosing a card also asks
    what it does to the Schneider. Board 1's declarers hold all but a few points: after GO or SO they make the
    Schneider on every sample (and never the Schwarz: seat 2 took a trick), each share with its Wilson interval, as
    in the report."""
    advice = card_advice(_position(), samples=12, seed=1, workers=1)
    rows = {row.contract: row for row in advice.rows}
    assert rows["GO"].bonuses == {"schneider": 1.0, "schwarz": 0.0} and rows["SO"].bonuses["schneider"] == 1.0
    document = advice.as_dict()
    assert all(set(card["bonuses"]) == {"schneider", "schwarz"} for card in document["cards"])
    assert document["cards"][0]["bonuses_intervals"]["schwarz"][0] == 0.0
    text = str(advice)
    assert "bonuses made" in text and "100% (76-100%) Schneider" in text
    assert "never made in 12 samples, so each below 24% (the top of its 95% interval): Schwarz (every card)" in text
    kratzen = next(iter(read_positions(str(ROOT / "examples" / "kratzen.tbn"))))
    assert all(not card["bonuses"] for card in card_advice(kratzen, samples=2, workers=1, pot=8).as_dict()["cards"])


def test_card_advice_names_the_cards_never_making_a_bonus_as_its_table_does():
    """The note under card advice's table names the cards that made no bonus as the table's rows write them, ``♠K`` in
    a French pack, not by their tokens (``SK``), which the table above never shows."""
    from solver.generate import random_position
    advice = card_advice(random_position("zwanzigerrufen", 2, 1), samples=2, seed=1, workers=1)
    note = str(advice).splitlines()[-1]
    assert note == ("never made in 2 samples, so each below 66% (the top of its 95% interval): Pagat Ultimo, Valat "
                    "(T20, T13, T9, ♠K, ♣N, ♣J, T1, T21); Valat (♠Q, ♥K)")


def test_card_advice_bonus_counts_are_those_of_each_cards_settlement():
    """Each card's bonus odds are the share of samples whose double-dummy settlement after the card
    (``dd_settlement``, its line played out and scored) pays the bonus: checked sample by sample on the Pagat Ultimo
    example, where many a card's net stands for several bonus sets, so the advice plays the line to see which."""
    from solver.advice import bonuses_of_value
    from solver.position import Position
    from solver.sampling import draw_sample, position_setup
    from solver.scoring import scoring_inputs
    from solver.settlement import bonuses_against, bonuses_made, dd_settlement, payoff_table

    position = next(iter(read_positions(str(ROOT / "examples" / "pagat_ultimo.tbn"))))
    samples = 8
    advice = card_advice(position, samples=samples, seed=3, workers=1)
    setup = position_setup(position, 1, seed=3)
    made = {row.contract: dict.fromkeys(row.bonuses, 0) for row in advice.rows}
    against = {row.contract: dict.fromkeys(row.against, 0) for row in advice.rows}
    lines_played = 0
    for k in range(samples):
        rules, state = draw_sample(setup, k)
        sample = Position(position.game, rules, state)
        table = payoff_table(sample, inputs=scoring_inputs(sample, announcements=setup.announcements))
        for name in made:
            after = Position(position.game, rules, state.advance(position.pack.parse(name).index))
            settled = dd_settlement(after, announcements=setup.announcements)
            lines_played += bonuses_of_value(table, settled.value, position.game) is None
            for bonus in bonuses_made(rules, settled.items):
                made[name][bonus] += 1  # a bonus the advice did not list fails here
            for bonus in bonuses_against(rules, settled.items):
                against[name][bonus] += 1
    assert lines_played > 0  # not only bonuses the net names
    assert {row.contract: row.bonuses for row in advice.rows} == {
        name: {bonus: count / samples for bonus, count in counts.items()} for name, counts in made.items()}
    assert {row.contract: row.against for row in advice.rows} == {
        name: {bonus: count / samples for bonus, count in counts.items()} for name, counts in against.items()}
    assert any(0 < odds < 1 for row in advice.rows for odds in row.bonuses.values())  # no bonus certain for all


def test_card_advice_refuses_known_cards_that_contradict_the_play_up_front():
    """Seat 2 played G7 and S7 to trumps led, so it holds no trump: --known 2:HA fits no deal, which card advice
    says after the feasibility search's 10,000 shuffles, as analyse_position does, not after a million (minutes)."""
    position = _position()
    with pytest.raises(StichError, match="in 10,000 shuffles.*seat 2 may not play"):
        card_advice(position, known={2: "HA"}, samples=2, workers=1)
    assert card_advice(position, known={4: "HA"}, samples=2, workers=1).samples == 2


def test_card_advice_says_the_known_cards_its_samples_were_drawn_with():
    """The advice itself says the known cards every sample kept, by seat in pack order, under the hand, so that
    ``print(advice)``, Jupyter and ``as_dict`` show them as the command does; none given, the document has no ``known``
    (a record's advice)."""
    from solver.sampling import hand_position

    position = hand_position("schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, "Rufer G", known={4: "EZ EA", 2: "SA"})
    advice = card_advice(position, 1, known={4: "EZ EA", 2: "SA"}, samples=2, seed=1, workers=1)
    document = advice.as_dict()
    assert advice.known == {2: ("SA",), 4: ("EA", "EZ")}
    assert document["known"] == {"2": ["SA"], "4": ["EA", "EZ"]} and schema_errors(document, SCHEMA) == []
    assert list(document)[list(document).index("hand") + 1] == "known"
    assert str(advice).splitlines()[1:3] == ["known in seat 2: SA", "known in seat 4: EA EZ"]
    assert "known in seat 2: SA" in advice._repr_html_()
    on_record = card_advice(_position(), known={4: "SK"}, samples=2, workers=1)
    assert on_record.as_dict()["known"] == {"4": ["SK"]} and "known in seat 4: SK" in str(on_record)
    assert "known" not in card_advice(_position(), samples=2, workers=1).as_dict()


def test_card_advice_checkpoint_resume(tmp_path):
    position = _position()
    whole = card_advice(position, samples=12, seed=4, workers=1)
    journal = tmp_path / "cards.ckpt"
    stop_after_one = threading.Event()
    part = card_advice(position, samples=12, seed=4, workers=1, checkpoint=journal, stop=stop_after_one,
                       progress=lambda advice: stop_after_one.set())
    assert part.stopped == "interrupt" and part.samples < 12
    assert card_advice(position, samples=12, seed=4, workers=1, checkpoint=journal) == whole


def test_a_card_advice_checkpoint_from_before_the_bonus_odds_is_said_to_be_solved_again(tmp_path):
    """Chunks journalled before card advice tallied each card's bonuses (a key without ``"bonuses": True``, as
    ``card_sums(bonuses=False)`` still writes it) hold no bonus odds, so they are solved again: the library warns
    (StichWarning) and the command says so on stderr, not solving them again without a word."""
    from solver.advice import card_sums
    from solver.errors import StichWarning

    position = _position()
    journal = tmp_path / "cards.ckpt"
    card_sums(position, samples=4, seed=4, workers=1, checkpoint=journal, bonuses=False)
    words = _without_bonus_odds_said(journal, 4, 4)
    with pytest.warns(StichWarning) as caught:
        advice = card_advice(position, samples=4, seed=4, workers=1, checkpoint=journal)
    assert [str(warning.message) for warning in caught] == [words]
    assert advice == card_advice(position, samples=4, seed=4, workers=1)  # solved again, with the bonus odds
    with pytest.warns(StichWarning) as caught:  # the same question asked apart: only its 4 samples resumed said
        card_advice(position, samples=6, seed=4, workers=1, checkpoint=journal)
    assert [str(warning.message) for warning in caught] == [
        f"{journal}: holds 4 samples of a run of 4, resumed (in a run of 6: sample k is the same whatever their "
        "number); 4 read back, 2 left to solve"]
    # once solved again, nothing is said on a rerun that solves nothing: the old lines stay, and the new job's
    # samples are there
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert card_advice(position, samples=4, seed=4, workers=1, checkpoint=journal) == advice
    fresh = tmp_path / "fresh.ckpt"
    card_sums(position, samples=4, seed=4, workers=1, checkpoint=fresh, bonuses=False)
    cli = ("analyse", "examples/schafkopf.tbn", "--board", "1", "--seat", "3", "--cards", "-n", "4", "--seed", "4",
           "-j", "1", "--checkpoint", str(fresh), "--json")
    shown = _stich(*cli)
    assert shown.returncode == 0 and shown.stderr == f"stich: analyse: {words.replace(str(journal), str(fresh))}\n"
    again = _stich(*cli)
    assert again.returncode == 0 and again.stderr == "" and again.stdout == shown.stdout


def _without_bonus_odds_said(journal, held: int, lacked: int) -> str:
    """The warning that ``lacked`` samples of a checkpoint's ``held`` written without bonus odds are solved again."""
    lacks = f"the {lacked} it lacks" if lacked > 1 else "the one it lacks"
    them = "them, which stay" if held > 1 else "it, which stays"
    return (f"{journal}: holds {held} sample{'s' if held > 1 else ''} of this card advice, not resumed (written "
            f"without bonus odds, which hold none); this run solves {lacks} beside {them} in the file")


def test_the_samples_without_bonus_odds_said_are_those_the_job_with_them_lacks(tmp_path):
    """A checkpoint written by runs of 4 and 6 samples with bonus odds and of 8 and 10 without: ``-n 10`` counts the
    samples the job with bonus odds lacks, not every sample written without them, and says both the file's 10 and the
    4 solved again, written without bonus odds (a bot writes such samples, not only an older stich)."""
    from solver.advice import card_sums
    from solver.errors import StichWarning

    position = _position()
    journal = tmp_path / "cards.ckpt"
    card_advice(position, samples=4, seed=4, workers=1, checkpoint=journal)
    with pytest.warns(StichWarning):  # the run of 10 resumes the run of 8's samples, and says so
        for samples in (8, 10):
            card_sums(position, samples=samples, seed=4, workers=1, checkpoint=journal, bonuses=False)
    with pytest.warns(StichWarning):
        card_advice(position, samples=6, seed=4, workers=1, checkpoint=journal)
    with pytest.warns(StichWarning) as caught:
        advice = card_advice(position, samples=10, seed=4, workers=1, checkpoint=journal)
    assert [str(warning.message) for warning in caught] == [  # the file's 10, the run's 4 the 6 with them lack
        _without_bonus_odds_said(journal, 10, 4),
        f"{journal}: holds 6 samples of runs of 4 and 6, resumed (in a run of 10: sample k is the same whatever "
        "their number); 6 read back, 4 left to solve"]
    assert advice == card_advice(position, samples=10, seed=4, workers=1)
    with pytest.warns(StichWarning) as caught:  # all 10 held with bonus odds now: none solved again, none said so
        card_advice(position, samples=10, seed=4, workers=1, checkpoint=journal)
    assert not any("without bonus odds" in str(warning.message) for warning in caught)


def test_the_samples_without_bonus_odds_are_said_only_once_the_checkpoint_has_room(tmp_path):
    """The warning that the samples without bonus odds are solved again comes after the checkpoint's room check, so that
    a run on a disk with room for no chunk does not say they are solved again and then get refused with none solved. It
    is said once the room is there, with the resumed samples' warning; a run from a smaller file than the one written
    without bonus odds counts the file's samples and the run's apart (here 10 and 4)."""
    from solver.advice import card_sums

    position = _position()
    journal = tmp_path / "cards.ckpt"
    card_sums(position, samples=10, seed=4, workers=1, checkpoint=journal, bonuses=False)
    limit = journal.stat().st_size + 50  # the header of the job with bonus odds fits, a chunk's line does not
    filled = subprocess.run(
        [sys.executable, "-c", _FILLED_DISK_CARDS.format(limit=limit, journal=str(journal))],
        capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert filled.returncode == 0, filled.stderr
    said = json.loads(filled.stdout)
    assert said["warnings"] == [] and said["error"].startswith("FileRefusedError: ")
    assert "no sample of this analysis solved" in said["error"]
    with pytest.warns(StichWarning) as caught:  # with room, the same run says it
        card_advice(position, samples=4, seed=4, workers=1, checkpoint=journal)
    assert [str(warning.message) for warning in caught] == [_without_bonus_odds_said(journal, 10, 4)]
    single = tmp_path / "single.ckpt"
    card_sums(position, samples=1, seed=4, workers=1, checkpoint=single, bonuses=False)
    with pytest.warns(StichWarning) as caught:
        card_advice(position, samples=1, seed=4, workers=1, checkpoint=single)
    assert [str(warning.message) for warning in caught] == [_without_bonus_odds_said(single, 1, 1)]


def test_a_last_line_without_its_newline_is_not_counted_among_the_samples_held(tmp_path):
    """A writer stopped on a line's last byte leaves a whole JSON object without its newline, which the journal does
    not read back (it solves those samples again): the count of the samples written without bonus odds leaves it out
    too, so the warning's figures are the samples the run really reads back."""
    from solver.advice import card_sums

    position = _position()
    journal = tmp_path / "cards.ckpt"
    card_sums(position, samples=4, seed=4, workers=1, checkpoint=journal, bonuses=False)
    data = journal.read_bytes()
    last = json.loads(data.rstrip(b"\n").rsplit(b"\n", 1)[1])
    journal.write_bytes(data.rstrip(b"\n"))
    kept = 4 - last["span"][1]
    assert 0 < kept < 4
    with pytest.warns(StichWarning) as caught:
        card_advice(position, samples=4, seed=4, workers=1, checkpoint=journal)
    assert [str(warning.message) for warning in caught] == [_without_bonus_odds_said(journal, kept, kept)]


_FILLED_DISK_CARDS = """
import json, resource, signal, warnings
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead of killing
resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
from solver.advice import card_advice
from solver.api import read_positions
position = next(iter(read_positions("examples/schafkopf.tbn")))
error = None
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        card_advice(position, samples=4, seed=4, workers=1, checkpoint={journal!r})
    except Exception as refused:
        error = f"{{type(refused).__name__}}: {{refused}}"
print(json.dumps({{"warnings": [str(warning.message) for warning in caught], "error": error}}))
"""


def test_card_advice_without_bonuses_does_not_read_the_samples_of_card_advice_with_them(tmp_path):
    """A header is the job's when its fields are the job's exactly, ``samples`` aside: card advice without bonuses
    (``{"cards": ...}``) does not read the samples of card advice with them (``{"cards": ..., "bonuses": true}``) as its
    own, so its sums are a fresh run's and it writes them, saying so."""
    from solver.advice import card_sums

    position = _position()
    journal = tmp_path / "cards.ckpt"
    card_sums(position, 3, samples=6, seed=1, workers=1, bonuses=True, checkpoint=journal)
    before = journal.read_bytes()
    with pytest.warns(StichWarning) as told:
        resumed = card_sums(position, 3, samples=6, seed=1, workers=1, bonuses=False, checkpoint=journal)
    assert [str(warning.message) for warning in told] == [
        f"{journal}: holds 1 other analysis, not resumed (its hand, contract, seed or settings differ); this run "
        "starts afresh beside it, which stays in the file"]
    assert resumed == card_sums(position, 3, samples=6, seed=1, workers=1, bonuses=False)
    headers = [json.loads(line) for line in journal.read_text().splitlines() if "stich-analysis" in line]
    assert journal.read_bytes().startswith(before) and [header.get("bonuses") for header in headers] == [True, None]


def test_the_notes_on_a_checkpoint_of_another_job_hold_for_another_sample_count(tmp_path):
    """The notes on samples a checkpoint holds that are not resumed (without the bonus odds; over other contracts) match
    a header by the journal's own rule, its ``samples`` aside, so that ``-n 6`` after ``-n 4`` says them too."""
    from solver.advice import card_sums
    from solver.errors import StichWarning
    from test_cli import run

    position = _position()
    journal = tmp_path / "cards.ckpt"
    card_sums(position, samples=4, seed=4, workers=1, checkpoint=journal, bonuses=False)
    with pytest.warns(StichWarning) as caught:
        card_advice(position, samples=6, seed=4, workers=1, checkpoint=journal)
    assert [str(warning.message) for warning in caught] == [_without_bonus_odds_said(journal, 4, 4)]
    advice = tmp_path / "advice.ckpt"
    args = ["analyse", "--game", "Schafkopf", "--hand", "EO GO HO EU HA HZ HK H9", "--seat", "1", "-j", "1",
            "--checkpoint", str(advice), "--json"]
    assert run(*args, "-c", "Wenz,Solo H", "-n", "3").exit_code == 0
    larger = run(*args, "-c", "all", "-n", "5")
    assert larger.exit_code == 0 and json.loads(larger.stdout)["samples"] == 5
    assert " ".join(larger.stderr.split()) == (
        f"stich: analyse: {advice}: holds 3 samples of this advice over other contracts (Wenz, Solo H), not resumed "
        "(another list: every contract is settled on the same samples); this run starts afresh beside them, which "
        "stay in the file; --contract \"Wenz, Solo H\" resumes them")


def _stich(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from cli.main import main; main()", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300, **kwargs)


def test_cli_contract_advice_json_and_time_limit():
    done = _stich("analyse", "--game", "schafkopf", "--hand", HAND, "--seat", "1", "--contract", "Solo E, Wenz",
                  "-n", "4", "-j", "1", "--json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert schema_errors(document, SCHEMA) == []
    assert document["command"] == "advice" and document["contracts"][0]["contract"] == "Solo E"
    assert document["samples"] == 4 and document["stopped"] is None
    limited = _stich("analyse", "--game", "kratzen", "--hand", "EO E9 SU SZ", "--seat", "1", "--seats", "3",
                     "--contract", "all", "-n", "100000", "-j", "1", "--time-limit", "1", "--json")
    assert limited.returncode == 0, limited.stderr
    document = json.loads(limited.stdout)
    assert schema_errors(document, SCHEMA) == []
    assert document["stopped"] == "time limit" and 1 <= document["samples"] < 100000


def test_cli_contract_advice_without_a_pot_says_the_payments_cannot_rank_the_contracts():
    """Kratzen is paid from the pot: without one every contract settles at 0, which the text says, and not where a pot
    was given; the win column still counts the attacker's target made (not 0%, "so none wins")."""
    args = ("analyse", "--game", "kratzen", "--hand", "EO E9 SU SZ", "--seat", "1", "--seats", "3", "--contract",
            "Trump E, Trump S", "-n", "3", "-j", "1")
    plain, paid, zero = _stich(*args), _stich(*args, "--pot", "8"), _stich(*args, "--pot", "0")
    assert plain.returncode == paid.returncode == zero.returncode == 0, plain.stderr + paid.stderr + zero.stderr
    said = ("note: pot 0: every contract settles at 0 chips, so the payments cannot rank them; win still counts the "
            "attacker's target made, and ranks them: the highest win first, an equal win by the attacker's mean "
            "tricks, then in the order the contracts were asked for (all: the game's order, as stich table lists "
            "them)")
    assert f"{said} (give the pot with --pot CHIPS)" in " ".join(plain.stdout.split())
    assert f"{said}\n" in zero.stdout and "--pot CHIPS" not in zero.stdout  # a pot given: no request for one
    assert "win: the samples where attacker seat 1 makes its own trick target;" in " ".join(plain.stdout.split())
    assert "note: pot 0" not in paid.stdout


def test_a_kratzen_win_is_the_target_made_with_a_pot_of_0_too(tmp_path):
    """With a pot of 0 every Kratzen line settles at 0, yet contract and card advice count a sample won where the
    attacker made his target, as ``analyse`` of the one contract does on the same samples, not no sample won (0%): the
    win is the target made whatever the pot, the same shares as with a pot, and as the one contract's analysis."""
    hand = dict(game="kratzen", hand="EA G7 HA HK", seat=1, seats=4, samples=20, seed=1, workers=1)
    contracts = "Trump E, Trump G, Trump H, Trump S"
    unpaid = {row.contract: row.win_probability for row in contract_advice(contracts=contracts, pot=0, **hand).rows}
    paid = {row.contract: row.win_probability for row in contract_advice(contracts=contracts, pot=12, **hand).rows}
    assert unpaid == paid and unpaid["Trump H"] == 1.0 and min(unpaid.values()) < 1.0
    one = analyse_hand("kratzen", "EA G7 HA HK", 1, "Trump H", seats=4, samples=20, seed=1, workers=1)
    assert one.win_probability == unpaid["Trump H"]
    record = tmp_path / "muss.tbn"  # the Muss of the test above, without its pot
    record.write_text('[Game "Kratzen"]\n[Seats "4"]\n[Deal "1: GA GZ SK SU / EA GO HK S7 / S6 E9 H8 H7 / GU G7 HU HZ"]'
                      '\n[Contract "Trump G Muss"]\n[Declarer "1"]\n')
    position = next(iter(read_positions(str(record))))
    cards = card_advice(position, samples=20, seed=1, workers=1)
    assert {row.contract: (row.mean, row.win_probability) for row in cards.rows} == {  # with the pot: the same wins
        "SU": (0.0, 1.0), "SK": (0.0, 0.95), "GA": (0.0, 0.85), "GZ": (0.0, 0.35)}


MUSS_WITHOUT_A_POT = ('[Game "Kratzen"]\n[Seats "4"]\n[Deal "1: GA GZ SK SU / EA GO HK S7 / S6 E9 H8 H7 / GU G7 HU HZ"]'
                      '\n[Contract "Trump G Muss"]\n[Declarer "1"]\n')


def _as_before_pot_0_wins(path: Path) -> None:
    """Rewrite a checkpoint as a version before a win at pot 0 was the target made wrote it: no ``pot_0_wins`` in
    its header (so another key) and no sample won; nor the tricks counted later (:func:`_as_before_tricks`)."""
    _as_before_tricks(path)
    _rewrite_checkpoint(path, "pot_0_wins", "target", lambda sums: sums.__setitem__(3, 0))  # wins


def _as_before_tricks(path: Path) -> None:
    """Rewrite a checkpoint as a version before advice counted each item's tricks wrote it: no ``tie_break`` in its
    header (so another key) and 7 sums a contract, without the tricks."""
    _rewrite_checkpoint(path, "tie_break", "tricks", lambda sums: sums.pop(7))


def _rewrite_checkpoint(path: Path, field: str, value: str, change: Any) -> None:
    """The checkpoint without the header's ``field`` (which holds ``value``) and its key made again, ``change``
    applied to each contract's sums (a list)."""
    from solver.checkpoint import _key_of

    header, *spans = [json.loads(line) for line in path.read_text().splitlines()]
    assert header.pop(field) == value
    header["key"] = _key_of({name: value for name, value in header.items() if name not in ("stich-analysis", "key")})
    for span in spans:
        span["key"] = header["key"]
        for sums in span["sums"]["contracts"].values():
            change(sums)
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *spans]))


def _kratzen_advice(tmp_path: Path, cards: bool, pot: int | None = None) -> tuple[Callable[..., Any], str]:
    """Kratzen advice of a given size and checkpoint, and its name: card advice on a Muss's record without a pot, or
    contract advice between two trumps of a four-seat hand; ``pot`` replaces the record's."""
    if cards:
        record = tmp_path / "muss.tbn"
        record.write_text(MUSS_WITHOUT_A_POT)
        position = next(iter(read_positions(str(record))))

        def advise(samples: int, checkpoint: Path | None = None) -> Any:
            return card_advice(position, samples=samples, seed=1, workers=1, checkpoint=checkpoint, pot=pot)
        return advise, "card advice"

    def advise_contracts(samples: int, checkpoint: Path | None = None) -> Any:
        return contract_advice("kratzen", "EA G7 HA HK", 1, "Trump E, Trump H", seats=4, samples=samples,
                               seed=1, workers=1, checkpoint=checkpoint, pot=pot)
    return advise_contracts, "contract advice"


@pytest.mark.parametrize("cards", [False, True], ids=["contract advice", "card advice"])
def test_a_checkpoint_counting_no_win_at_pot_0_is_another_job(tmp_path: Path, cards: bool) -> None:
    """A checkpoint of advice at pot 0 whose samples count no win there (none the attacker's target made) is another
    job's (``pot_0_wins`` in the header, only at a pot of 0): read back into a longer run, its wins would mix with the
    new ones (Trump H 50% where a fresh run says 100%). It is solved again beside it, and said in words true also of a
    checkpoint that counts such a win but does not name it (not "when none counted as won")."""
    path = tmp_path / "ck.jsonl"
    advise, what = _kratzen_advice(tmp_path, cards)
    advise(10, path)
    assert json.loads(path.read_text().splitlines()[0])["pot_0_wins"] == "target"
    _as_before_pot_0_wins(path)
    old_lines = path.read_text().splitlines()
    with pytest.warns(StichWarning) as caught:
        resumed = advise(20, path)
    assert [str(warning.message) for warning in caught] == [
        f"{path}: holds 10 samples of this {what}, not resumed (written before its header named how a win at pot 0 "
        "is counted); this run solves the 10 it lacks beside them, which stay in the file"]
    fresh = advise(20)
    assert resumed.as_dict() == fresh.as_dict() and max(row.win_probability for row in fresh.rows) == 1.0
    assert path.read_text().splitlines()[:len(old_lines)] == old_lines  # solved again beside the old lines
    paid = tmp_path / "paid.jsonl"  # with a pot the job is named as before, so older checkpoints resume
    contract_advice("kratzen", "EA G7 HA HK", 1, "Trump H", seats=4, samples=2, seed=1, workers=1, pot=8,
                    checkpoint=paid)
    assert "pot_0_wins" not in json.loads(paid.read_text().splitlines()[0])


@pytest.mark.parametrize("pot", [None, 8], ids=["pot 0", "pot 8"])
@pytest.mark.parametrize("cards", [False, True], ids=["contract advice", "card advice"])
def test_a_kratzen_checkpoint_without_the_tricks_is_another_job(tmp_path: Path, cards: bool, pot: int | None) -> None:
    """Kratzen advice ranks an equal win by the items' tricks, which a checkpoint written before they were counted
    holds none of: its job is another (``tie_break`` in the header), solved again beside it, and said."""
    path = tmp_path / "ck.jsonl"
    advise, what = _kratzen_advice(tmp_path, cards, pot)
    items = "cards" if cards else "contracts"
    advise(10, path)
    _as_before_tricks(path)
    with pytest.warns(StichWarning) as caught:
        resumed = advise(20, path)
    assert [str(warning.message) for warning in caught] == [
        f"{path}: holds 10 samples of this {what}, not resumed (written before it counted the {items}' tricks, which "
        "rank an equal win); this run solves the 10 it lacks beside them, which stay in the file"]
    assert resumed.as_dict() == advise(20).as_dict()


def test_cli_contract_advice_says_a_checkpoint_counting_no_win_at_pot_0_is_solved_again(tmp_path: Path) -> None:
    """The command line's run on a checkpoint whose lines count no win at pot 0: their samples are solved again, said
    once on stderr, and Trump H wins on every sample."""
    path = tmp_path / "ck.jsonl"
    args = ("analyse", "--game", "kratzen", "--hand", "EA G7 HA HK", "--seat", "1", "--seats", "4", "--contract",
            "Trump E, Trump H", "-j", "1", "--json", "--checkpoint", str(path))
    assert _stich(*args, "-n", "10").returncode == 0
    _as_before_pot_0_wins(path)
    resumed = _stich(*args, "-n", "20")
    assert resumed.returncode == 0 and "this run solves the 10 it lacks" in resumed.stderr \
        and resumed.stderr.count("\n") == 1
    rows = {row["contract"]: row["win_probability"] for row in json.loads(resumed.stdout)["contracts"]}
    assert rows["Trump H"] == 1.0


def test_at_pot_0_the_best_row_is_the_one_that_wins_most(tmp_path: Path) -> None:
    """At a pot of 0 every mean is 0, and the rows kept their index order: contract advice called Trump E (55%) best
    above Trump H (100%), card advice GA (85%) best and SU (100%) fourth. Ties on the mean are broken on the win
    share, as ``analyse`` ranks its opening cards; card advice's note says the win ranks them."""
    advice = contract_advice("kratzen", "EA G7 HA HK", 1, "Trump E, Trump H", seats=4, samples=20, seed=1, workers=1)
    assert [(row.contract, row.best, row.win_probability) for row in advice.rows] == [
        ("Trump H", True, 1.0), ("Trump E", False, 0.55)]
    record = tmp_path / "muss.tbn"
    record.write_text(MUSS_WITHOUT_A_POT)
    cards = card_advice(next(iter(read_positions(str(record)))), samples=20, seed=1, workers=1)
    assert [(row.contract, row.best, row.win_probability) for row in cards.rows] == [
        ("SU", True, 1.0), ("SK", False, 0.95), ("GA", False, 0.85), ("GZ", False, 0.35)]
    assert ("note: pot 0: every card settles at 0 chips, so the payments cannot rank them; win still counts the "
            "attacker's "
            "target made, and ranks them: the highest win first, an equal win by the attacker's mean tricks, "
            "then in the order the hand above lists them"
            ) in " ".join(str(cards).split())


def test_at_pot_0_an_equal_win_and_tricks_keep_the_order_the_contracts_were_asked_for() -> None:
    """The pot-0 note says an equal win and mean tricks keep the order the contracts were asked for: on these 3
    samples Trump E and Trump S both win every one with the same tricks, and each order asked is the order ranked."""
    for asked in (["Trump S", "Trump E"], ["Trump E", "Trump S"]):
        advice = contract_advice("kratzen", "EO E9 SU SZ", 1, asked, seats=3, samples=3, seed=1, workers=1)
        assert [(row.contract, row.win_probability) for row in advice.rows] == [(asked[0], 1.0), (asked[1], 1.0)]


def test_card_advice_ranks_an_equal_win_by_mean_tricks_as_analyse_ranks_its_opening_cards() -> None:
    """The Seven-Muss of examples/kratzen.tbn settles every card at 0 at any pot and every card wins: card advice, whose
    best card ``analyse``'s table footer sends the user to, breaks the tie by mean tricks as ``analyse`` ranks its
    opening cards (SA, SK, HA, S9), not by the hand's order (HA first), at pot 0 and with a pot."""
    position = next(position for position in read_positions(str(ROOT / "examples" / "kratzen.tbn"))
                    if position.record is not None and position.record.get("Board") == "4")
    for pot in (None, 20):
        analysis = analyse_position(position, 1, samples=100, seed=1, workers=1, pot=pot)
        opening = [card.card for card in analysis.openings]
        cards = card_advice(position, 1, samples=100, seed=1, workers=1, pot=pot)
        assert all(row.mean == 0 and row.win_probability == 1.0 for row in cards.rows)
        assert [row.contract for row in cards.rows] == opening == ["SA", "SK", "HA", "S9"]


def test_contract_advice_ranks_an_equal_win_by_the_attackers_mean_tricks() -> None:
    """At pot 0 Trump E and Trump H both win the first sample of this hand, Trump H with 3 tricks to Trump E's 2:
    Trump H ranks first whichever was asked first."""
    for asked in (["Trump E", "Trump H"], ["Trump H", "Trump E"]):
        advice = contract_advice("kratzen", "EA G7 HA HK", 1, asked, seats=4, samples=1, seed=1, workers=1)
        assert [(row.contract, row.win_probability) for row in advice.rows] == [("Trump H", 1.0), ("Trump E", 1.0)]


def test_cli_analyse_file_takes_a_pot_over_the_records_tag():
    """``analyse FILE --pot N`` takes --pot over a record's [Pot], as score and table do, so that a Kratzen record
    without one is not settled at 0 on every sample and card: the pot is the record's for the analysis and card advice;
    a record of a game without a pot is analysed as it is, said once."""
    kratzen = str(ROOT / "examples" / "kratzen.tbn")
    for extra in ((), ("--cards",)):
        plain = _stich("analyse", kratzen, "-r", "1", "--seat", "1", "-n", "6", "-j", "1", "--json", *extra)
        paid = _stich("analyse", kratzen, "-r", "1", "--seat", "1", "-n", "6", "-j", "1", "--json", "--pot", "9",
                      *extra)
        assert plain.returncode == paid.returncode == 0, plain.stderr + paid.stderr
        bare, potted = json.loads(plain.stdout), json.loads(paid.stdout)
        assert bare["pot"] is None and potted["pot"] == 9
        assert schema_errors(potted, SCHEMA) == []
        if extra:  # card advice: every card settled at 0 without the pot, not with it
            assert {row["mean"] for row in bare["cards"]} == {0} and {row["mean"] for row in potted["cards"]} != {0}
        else:
            assert bare["score_mean"] == 0 and potted["score_mean"] != 0
    text = _stich("analyse", kratzen, "-r", "1", "--seat", "1", "-n", "3", "-j", "1").stdout
    assert "note: pot 0: every sample settles at 0 chips: give the record a [Pot] tag, or --pot CHIPS\n" in text
    paid_text = _stich("analyse", kratzen, "-r", "1", "--seat", "1", "-n", "3", "-j", "1", "--pot", "9").stdout
    assert "note: pot 0" not in paid_text and "pot 9" in paid_text
    zero_text = _stich("analyse", kratzen, "-r", "1", "--seat", "1", "-n", "3", "-j", "1", "--pot", "0").stdout
    assert "note: pot 0: every sample settles at 0 chips\n" in zero_text  # given: no request for a pot
    zero_cards = _stich("analyse", kratzen, "-r", "1", "--seat", "1", "-n", "3", "-j", "1", "--cards", "--pot", "0")
    assert "note: pot 0: every card settles at 0 chips, so" in zero_cards.stdout
    assert "then in the order the hand above lists them\n" in zero_cards.stdout and "[Pot] tag" not in zero_cards.stdout
    other = _stich("analyse", str(ROOT / "examples" / "schafkopf.tbn"), "-r", "1", "--seat", "1", "-n", "2", "-j", "1",
                   "--pot", "9", "--json")
    assert other.returncode == 0 and json.loads(other.stdout)["pot"] is None
    assert other.stderr.count("--pot is for Kratzen records; Schafkopf has no pot, so it is not used there") == 1
    refused = _stich("analyse", kratzen, "-r", "1", "--seat", "1", "--announce", "1: Pagat Ultimo")
    assert refused.returncode == 2 and "its own [Announcements] tag" in refused.stderr


@pytest.mark.slow
@pytest.mark.parametrize("what, options", [
    ("contract advice", ["--contract", "all"]),
    ("card advice", ["--contract", "Trump S", "--cards"])])  # the opening lead of a hand: no FILE either
def test_cli_advice_sigterm_prints_the_partial_advice_says_so_and_exits_130(tmp_path, what, options):
    """Stopped by SIGTERM, the advice prints what its samples so far give, and (as every other command) says on stderr
    that it was interrupted and what the output holds: the exit (130) alone does not tell a script that the advice
    printed is of 84 samples, not of the million asked for."""
    journal = tmp_path / "advice.ckpt"
    process = subprocess.Popen([sys.executable, "-c", "from cli.main import main; main()", "analyse", "--game",
                                "kratzen", "--hand", "EO E9 SU SZ", "--seats", "3", "--seat", "1", *options,
                                "-n", "1000000", "-j", "1", "--json", "--checkpoint", str(journal)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=signals_as_a_shell_gives_them)
    # SIGTERM once samples are solved (their lines in the checkpoint, after the header), not after a fixed 6 s: on a
    # loaded machine the start alone can take that long, and an analysis stopped before any sample has none to show;
    # the second line, since a chunk's line is written just before the advice so far takes it in
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline and not (
            journal.exists() and journal.read_text(encoding="utf-8").count("\n") >= 3):
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    document = json.loads(out)
    assert schema_errors(document, SCHEMA) == []
    assert document["stopped"] == "interrupt" and 1 <= document["samples"] < 1000000
    assert err.splitlines()[-1] == (f"stich: analyse: stopped by the interrupt after {document['samples']:,} of "
                                    f"1,000,000 samples: the {what} of these is printed (the chunks solved are kept "
                                    f"in {journal}: rerun the command to resume)")


@pytest.mark.parametrize("checkpoint, in_record_loop, said", [
    (None, False, "--checkpoint FILE keeps them for a rerun"),
    ("ck.jsonl", False, "the chunks solved are kept in ck.jsonl: rerun the command to resume"),
    ("ck.jsonl", True, "the chunks solved are kept in ck.jsonl: rerun the command to resume"),
    (None, True, None),  # a FILE's record loop says the record is printed in part, and nothing is kept
])
def test_interrupted_advice_says_on_stderr_what_it_printed(capsys, checkpoint, in_record_loop, said):
    """Contract advice of a hand stopped by Ctrl-C or SIGTERM prints the advice so far, exits 130 and says on stderr
    what it stopped in, as the single analysis does ("stich: analyse: stopped by the interrupt after 20 of 2,000
    samples: ...", docs/cli.md: every command says in one line what it stopped in and what is whole)."""
    from cli.analyse import anytime
    from cli.records import InterruptedInPart

    advice = contract_advice("kratzen", "EO E9 SU SZ", 1, "Trump S", seats=3, samples=2, seed=1, workers=1)
    printed = []

    def run(show):
        show(advice)
        raise KeyboardInterrupt

    with pytest.raises(InterruptedInPart):
        anytime("contract advice", 50, run, printed.append, True, checkpoint and Path(checkpoint), in_record_loop)
    assert printed[0]["stopped"] == "interrupt" and printed[0]["samples"] == 2
    err = capsys.readouterr().err
    if said is None:
        assert err == ""
    else:
        assert err == "stich: analyse: stopped by the interrupt after 2 of 50 samples: the contract advice of " \
            f"these is printed ({said})\n"


def test_cli_card_advice_json_follows_the_schema():
    done = _stich("analyse", "examples/schafkopf.tbn", "--board", "1", "--seat", "3", "--cards", "-n", "6", "-j", "1",
                  "--json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert schema_errors(document, SCHEMA) == []
    assert document["command"] == "card-advice" and document["record"]["board"] == "1"
    assert {row["card"] for row in document["cards"]} == {"GA", "GO", "SA", "SO"}
    text = _stich("analyse", "examples/schafkopf.tbn", "--board", "1", "--seat", "3", "--cards", "-n", "6", "-j", "1")
    assert text.returncode == 0 and "best" in text.stdout and "6 samples" in text.stdout
    wrong = _stich("analyse", "examples/schafkopf.tbn", "--board", "1", "--seat", "1", "--cards", "-n", "2")
    assert wrong.returncode == 1 and "seat to move" in wrong.stderr and "Traceback" not in wrong.stderr


def test_cli_card_advice_says_which_record_it_answers():
    """``stich analyse FILE --seat N --cards`` answers every record of FILE: each text report is headed by its board
    and place, as ``stich analyse FILE`` heads its own (card advice said none, so the reports of a file could not be
    told apart)."""
    text = _stich("analyse", "examples/schafkopf.tbn", "--board", "1", "--seat", "3", "--cards", "-n", "2", "-j", "1")
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines()[:2] == ["board 1 (examples/schafkopf.tbn:10)",
                                            "Schafkopf, Rufer G (declarer seat 1): seat 3 to move after 16 cards "
                                            "played, holding GA GO SA SO"]


def test_cli_card_advice_from_a_file_names_the_declarer_in_its_json_as_its_text_does():
    """Board 3 is seat 2's Solo H with seat 4 to move: the title names the declarer, lest it read as seat 4's Solo,
    and the JSON says the same seat, as card advice from a hand does."""
    asked = ("analyse", "examples/schafkopf.tbn", "--board", "3", "--seat", "4", "--cards", "-n", "2", "-j", "1")
    text = _stich(*asked)
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines()[1].startswith("Schafkopf, Solo H (declarer seat 2): seat 4 to move after 16 cards")
    done = _stich(*asked, "--json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["declarer"] == 2 and document["seat"] == 4 and schema_errors(document, SCHEMA) == []


def test_a_run_stopped_before_its_first_sample_says_so_rather_than_ranking_refusals():
    from rich.console import Console

    from cli.analyse import render_advice, render_cards
    advice = contract_advice(contracts="all", samples=1, seed=1, workers=1, **KRATZEN).as_dict()
    position = _position()
    cards = card_advice(position, samples=1, seed=1, workers=1).as_dict()
    for document, render in ((advice, render_advice), (cards, render_cards)):
        console = Console(record=True, width=120)
        render(document, console)
        text = console.export_text()
        assert "nothing to rank" not in text and "1 sample" in text and "mean payment" in text
        document = dict(document, samples=0, stopped="time limit")
        console = Console(record=True, width=120)
        render(document, console)
        text = console.export_text()
        assert "no sample was solved before the time limit: nothing to rank" in text
        assert "refused" not in text and "mean payment" not in text


def test_contracts_are_ranked_by_what_the_seat_is_paid():
    """A Rufer's net is shared by its two seats, a Solo's is the soloist's alone: advice compares the seat's own
    payment, so the caller of a Rufer is paid half of the side's net."""
    from solver.advice import draw_deal
    from solver.games import get_game
    from solver.position import Position
    from solver.settlement import default_settlement_engine, payoff_spec

    hand = "EO GO HU SU HA HK EA S9"
    setup = make_setup("schafkopf", hand, 1, "Rufer S, Solo H", seed=3)
    game, engine = get_game("schafkopf"), default_settlement_engine()
    for k in range(4):
        for contract, result, seats in zip(setup.contracts, settle_sample(setup, k), (2, 1)):
            rules = game.rules(draw_deal(setup, k), contract, declarer=1)
            assert len(rules.declaring_side) == seats
            net = engine.value(rules.start(), payoff_spec(Position(game, rules, rules.start())))
            assert result[0] * seats == net * SHARE_SCALE
    advice = contract_advice("schafkopf", hand, 1, "Rufer S, Solo H", samples=100, seed=3, workers=1)
    assert [row.contract for row in advice.rows] == ["Solo H", "Rufer S"]
    assert advice.rows[0].mean == pytest.approx(4.20) and advice.rows[1].mean == pytest.approx(2.68)


def test_the_bonuses_the_other_side_is_paid_are_counted_too():
    """A contract's risk is also what the other side is paid along the way (Laufende held against it, a Schneider
    against it), counted beside the bonuses made and from the same line as those."""
    advice = contract_advice("schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, "Rufer G, Solo H", samples=30, seed=1,
                             workers=1)
    rufer, solo = _row(advice, "Rufer G"), _row(advice, "Solo H")
    assert solo.against["schneider"] > 0.9 and not any(solo.bonuses.values())  # a Solo this hand loses, mostly
    assert rufer.bonuses["schneider"] > 0 and rufer.against["schneider"] == 0  # Schneider
    document = advice.as_dict()
    assert document["contracts"][1]["bonuses_against"] == {"schneider": round(solo.against["schneider"], 4),
                                                           "schwarz": 0.0}
    assert schema_errors(document, SCHEMA) == []


def test_contract_advice_takes_only_the_seats_own_announcements():
    """Another seat's Kontra says who sits where, which contract advice's samples do not keep: it is refused at once.
    The seat's own announcements are taken, and a Pagat the hand lacks is refused, as the hand's analysis refuses it."""
    with pytest.raises(StichError, match="not seat 4's"):
        contract_advice("zwanzigerrufen", "T21 T19 T18 T15 T14 T13 T12 HK SK DK", 1, "Normal T20, Solo", samples=12,
                        workers=1, announcements="4: Kontra")
    own = contract_advice("zwanzigerrufen", "T21 T19 T18 T15 T14 T13 T12 HK SK DK", 1, "Solo", samples=2,
                          workers=1, announcements="1: Valat")
    assert own.announcements == "1: Valat" and own.rows[0].samples == 2
    # an announced Pagat the hand lacks is refused, as the hand's analysis refuses it
    with pytest.raises(StichError, match="seat 1 announced what needs T1"):
        contract_advice("zwanzigerrufen", "T21 T20 T18 T15 T9 T4 HK HQ SK CG", 1, "all", samples=2, workers=1,
                        announcements="1: Pagat")


def test_the_advice_table_lists_a_bonus_a_line_by_its_name():
    """Each bonus is a line of its own, the odds first and the name the rule book uses (Pagat Ultimo), not joined with
    commas under their JSON keys, which an 80-column terminal would break across lines ('pagat_ul|timo'). The command's
    console narrows a table to the terminal (the mean's interval wraps in its cell too)."""
    from cli.analyse import render_advice
    from cli.render import stdout_console
    document = {"game": "Zwanzigerrufen", "seat": 1, "hand": ["T21", "T20"], "known": {}, "samples": 40, "seed": 1,
                "stopped": None, "requested": 40, "announcements": None, "pot": None,
                "contracts": [{"contract": "Normal T18", "mean": 2.6, "interval": [1.84, 3.36], "behind": None,
                               "win_probability": 0.92, "bonuses": {"absolut": 0.72, "pagat_ultimo": 0.32},
                               "bonuses_against": {"mondfang": 0.05}}]}
    for width in (80, 120):
        console = stdout_console()
        console.width, console.narrows, console.record = width, True, True
        render_advice(document, console)
        text = console.export_text()
        assert "pagat_ul" not in text and "Ultimo" in text and "Absolut" in text and "Mondfang" in text
    assert "72% Absolut" in text and "32% Pagat Ultimo" in text and "5% Mondfang" in text


def test_every_share_of_the_advice_has_a_wilson_interval():
    """The win rate and the bonus odds of each contract (and each card's win rate) each have their 95% Wilson interval,
    in JSON and in the table, not a bare share (9 of 10: 0.5958 .. 0.9821, 2 of 10: 0.0567 .. 0.5098, 6 of 10: 0.3127 ..
    0.8318, by hand from the Wilson formula; the Schneider's 2 are a Schneider and a Schwarz, which includes it)."""
    from rich.console import Console

    from cli.analyse import render_advice
    advice = contract_advice("schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, "Rufer G, Solo E", samples=10, seed=1,
                             workers=1)
    rufer, solo = _row(advice, "Rufer G"), _row(advice, "Solo E")
    assert rufer.win_probability == 0.9 and rufer.win_interval == pytest.approx((0.5958, 0.9821), abs=1e-4)
    assert rufer.bonuses["schneider"] == 0.2 and rufer.bonuses["schwarz"] == 0.1
    assert rufer.bonus_intervals["schneider"] == pytest.approx((0.0567, 0.5098), abs=1e-4)
    assert solo.win_probability == 0.0 and solo.win_interval == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert solo.against["schneider"] == 0.6
    assert solo.against_intervals["schneider"] == pytest.approx((0.3127, 0.8318), abs=1e-4)
    document = advice.as_dict()
    assert schema_errors(document, SCHEMA) == []
    first = document["contracts"][0]
    assert first["contract"] == "Rufer G" and first["win_interval"] == [0.5958, 0.9821]
    assert first["bonuses_intervals"]["schneider"] == [0.0567, 0.5098]
    assert document["contracts"][1]["bonuses_against_intervals"] == {"schneider": [0.3127, 0.8318],
                                                                     "schwarz": [0.0, 0.2775]}  # 0 of 10
    console = Console(record=True, width=200)
    render_advice(document, console)
    text = console.export_text()
    assert "90% (60-98%)" in text and "20% (6-51%) Schneider" in text and "60% (31-83%) Schneider" in text
    assert "0% (0-28%)" in text and "each share with its 95% Wilson interval in brackets" in text
    assert "(95%:" not in text and "± and brackets: 95% intervals" in text  # said once, in the title


def test_every_card_of_card_advice_has_its_win_rates_wilson_interval():
    """Every card of this position wins all 6 samples: 6 of 6 is 0.6097 .. 1 by the Wilson formula, not 1 .. 1."""
    advice = card_advice(_position(), samples=6, seed=1, workers=1)
    assert {row.contract for row in advice.rows} == {"GA", "GO", "SA", "SO"}
    for row in advice.rows:
        assert row.win_probability == 1.0 and row.win_interval == pytest.approx((0.6097, 1.0), abs=1e-4)
    document = advice.as_dict()
    assert schema_errors(document, SCHEMA) == []
    assert all(card["win_interval"] == [0.6097, 1.0] for card in document["cards"])
    # each card's bonuses have their intervals too
    assert document["cards"][0]["bonuses_intervals"]["schneider"] == [0.6097, 1.0]


def test_an_interval_of_no_width_is_said_to_be_none():
    """Every card of this position pays +2 on all 6 samples: not '+2.00 ± 0.00' nor [2.0, 2.0], a certainty the
    samples do not show, but as the analysis's text says "all samples alike: no interval": the JSON has nulls and
    says why, and the table says "(all alike)"; the best card's own gap has no interval either (it is 0 by
    construction), and a gap of 0 on every sample does not tell the cards apart: they tie, so every one is ranked
    first, as the best."""
    from rich.console import Console

    from cli.analyse import render_cards
    advice = card_advice(_position(), samples=6, seed=1, workers=1)
    document = advice.as_dict()
    assert schema_errors(document, SCHEMA) == []
    best, *others = document["cards"]
    assert best["mean"] == 2.0 and best["interval"] == [None, None] and best["interval_note"] == "all samples alike"
    assert best["behind_interval"] == [None, None] and best["behind_interval_note"] == "the best itself"
    for row in others:
        assert row["behind_leader"] == 0.0 and row["behind_interval"] == [None, None]
        assert row["behind_interval_note"] == "all samples alike" and row["told_apart"] is False
    console = Console(record=True, width=160)
    render_cards(document, console)
    text = console.export_text()
    assert "± 0.00" not in text and "+2.00 (all alike)" in text and "~" not in text
    assert [row["rank"] for row in document["cards"]] == [1] * len(document["cards"]) and len(others) >= 1
    assert sum(" best " in line for line in text.splitlines() if "(all alike)" in line) == len(document["cards"])
    assert "a rank shared: a tie, cards equal on the exact figures (the table rounds them)" in text
    assert "all alike: every sample gave this value, so there is no interval" in text


def test_the_live_status_line_says_the_leaders_interval_as_the_table_does():
    """The status line on stderr while advice samples says the leader's mean through the table's
    :func:`mean_with_interval`: '(all alike)' when every sample so far paid the same (not '+2.00 (+2.00 .. +2.00)'), the
    mean alone after one sample, '(95%: low to high)' otherwise."""
    from types import SimpleNamespace

    from cli.analyse import advice_status
    alike = card_advice(_position(), samples=6, seed=1, workers=1)  # every card pays +2 on all 6 samples: a tie
    assert advice_status("card advice", alike, 20) == ("card advice: 6 of 20 samples; best so far GA +2.00 (all alike)"
                                                       " (tied with 3 more)")
    one = card_advice(_position(), samples=1, seed=1, workers=1)
    assert advice_status("card advice", one, 20) == ("card advice: 1 of 20 samples; best so far GA +2.00 (tied with 3 "
                                                     "more)")
    spread = contract_advice(**KRATZEN, contracts="all", samples=6, seed=1, workers=1)
    assert spread.rows[0].as_dict()["interval"] == [1.9252, 3.0748]
    assert advice_status("contract advice", spread, 20) == ("contract advice: 6 of 20 samples; best so far "
                                                            "Trump E +2.50 (95%: +1.93 to +3.07) (tied with 1 more)")
    nothing = SimpleNamespace(samples=0, rows=ranked_rows(["A", "B"], AdviceSums(), ""))  # no item settled yet
    assert advice_status("contract advice", nothing, 20) == "contract advice: 0 of 20 samples"


def test_a_line_writes_an_interval_at_length_and_a_table_cell_compactly():
    """A line (the status line, a row printed alone) writes an interval at length, '+1.25 (95%: +0.80 to +1.70)'; a
    table's cell, under a title that says once what ± and brackets are, writes the mean ± half its symmetric interval
    (the JSON's ends, rounded to 4 places, are symmetric within a cent), the ends where they are not, and a share in
    whole percent: not '95%:' in every cell, which would widen the contract table from 110 to 190 columns."""
    from cli.analyse import advice_status
    from solver.advice import AdviceTable, contract_advice_report
    from solver.games.outcome import FIGURE_SPACE, in_table_cell as joined, signed_with_interval

    def in_table_cell(*figure, **percent) -> str:  # as printed: a figure's no-break spaces (it stays whole) as spaces
        return joined(*figure, **percent).replace(FIGURE_SPACE, " ")

    assert in_table_cell(1.0, 0.48, 1.52) == "+1.00 ± 0.52" and in_table_cell(2.5, 1.9252, 3.0748) == "+2.50 ± 0.57"
    assert in_table_cell(1.0, 0.4, 1.52) == "+1.00 (+0.40 to +1.52)"  # not symmetric: its ends
    assert in_table_cell(0.8, 0.63, 0.9, percent=True) == "80% (63-90%)"
    assert in_table_cell(-0.001, None, None) == "0.00" and in_table_cell(1.0, math.nan, math.nan) == "+1.00"
    assert in_table_cell(0.5, None, None, percent=True) == "50%"
    assert signed_with_interval(1.0, 0.48, 1.52) == "+1.00 (95%: +0.48 to +1.52)"
    spread = contract_advice(**KRATZEN, contracts="all", samples=6, seed=1, workers=1)
    assert advice_status("contract advice", spread, 20).endswith("Trump E +2.50 (95%: +1.93 to +3.07) (tied with 1 "
                                                                 "more)")
    assert str(spread.rows[0]).startswith("Trump E  mean payment: +2.50 (95%: +1.93 to +3.07)  best  win: ")
    table = next(part for part in contract_advice_report(spread.as_dict()) if isinstance(part, AdviceTable))
    title, rows = table.title, table.rows
    assert "± and brackets: 95% intervals" in title and rows[0][2] == "+2.50\u00a0±\u00a00.57"
    assert "95%" not in rows[0][4]
    assert all("95%" not in cell for row in rows for cell in row)


def test_a_gap_the_same_on_every_sample_is_told_apart_by_the_sign_test():
    """A gap of +5 on both of 2 samples has an interval of no width, [5, 5], which does not tell the item apart from the
    best at 2 samples: the exact sign test decides there, one sign on all n samples having p = 2 / 2^n, 0.0625 at 5
    samples and 0.03125 at 6, so from 6 samples on."""
    assert told_apart(2, 5.0, 5.0, 5.0) is False
    assert told_apart(5, 5.0, 5.0, 5.0) is False and told_apart(6, 5.0, 5.0, 5.0) is True
    assert told_apart(30, 0.0, 0.0, 0.0) is False  # the same as the best on every sample
    assert told_apart(30, 1.0, 0.2, 1.8) is True and told_apart(30, 1.0, -0.2, 2.2) is False
    assert told_apart(1, 5.0, math.nan, math.nan) is False
    sums = AdviceSums()
    for _ in range(2):  # the first item pays 6 sixths (1 unit) more than the second on both samples
        add_sample(sums, [(12, True, (), (), (), (), 0, None), (6, True, (), (), (), (), 0, None)])
    first, second = ranked_rows(["A", "B"], sums, "")
    assert (second.gap, second.gap_low, second.gap_high) == (1.0, 1.0, 1.0) and not second.told_apart
    assert second.as_dict()["behind_interval"] == [None, None]


def test_the_gaps_to_the_best_are_corrected_for_how_many_there_are():
    """'behind the best' and its '~' answer which items the samples rule out as the best; with m items compared at once,
    m uncorrected 95% intervals would rule out an equal item far more often than one time in twenty. Each gap's interval
    is at Bonferroni's 1 - 0.05 / m. By hand, B's gaps to A are 0, 1, 1, 2, 0, 2 (mean 1, s² = 0.8, standard error
    0.36515): alone, t(5) at 95% is 2.5706 and the interval 0.0613 .. 1.9387 would tell B apart; beside C (m = 2), t(5)
    at 97.5% is 3.1634: -0.1551 .. 2.1551, not apart."""
    a = [10, 10, 10, 10, 10, 10]
    b = [10, 9, 9, 8, 10, 8]
    c = [0, 0, 0, 1, 0, 0]

    def rows(*items):
        sums = AdviceSums()
        for k in range(6):
            add_sample(sums, [(6 * item[k], item[k] > 0, (), (), (), (), 0, None)  # sixths of a unit
                              for item in items])
        return ranked_rows(["A", "B", "C"][:len(items)], sums, "")

    _, alone = rows(a, b)
    assert alone.contract == "B" and alone.gap == 1.0 and alone.told_apart
    assert (alone.gap_low, alone.gap_high) == pytest.approx((0.0613, 1.9387), abs=1e-4)
    best, together, far = rows(a, b, c)
    # beside C each interval is at 97.5%, where even a gap of one sign on all samples needs 7 (the sign test: 2 / 2^6
    # = 3.1% is not below 2.5%): on 6, neither B nor C (9.83 behind on every sample) is told apart, and neither has
    # an interval, as a gap all alike has none
    assert together.contract == "B" and not together.told_apart and not far.told_apart
    assert far.gap == pytest.approx(9.8333, abs=1e-4) and math.isnan(far.gap_low) and math.isnan(together.gap_high)
    assert [row.as_dict()["behind_interval_note"] for row in (together, far)] == ["too few samples"] * 2
    from solver.sampling import mean_interval
    assert mean_interval(6, 6.0, 10.0, 0.975)[1:] == pytest.approx((-0.1551, 2.1551), abs=1e-4)  # B's, at 97.5%
    assert (together.low, together.high) == pytest.approx((8.0613, 9.9387), abs=1e-4)  # each mean: 95% alone
    from solver.intervals import t_quantile
    assert t_quantile(5, 0.975) == pytest.approx(3.16338, abs=1e-5)  # the tables' t(0.0125; 5)
    assert t_quantile(1, 1 - 0.05 / 9) == pytest.approx(1 / math.tan(math.pi * 0.05 / 18), rel=1e-12)
    assert t_quantile(9, 0.99) == pytest.approx(3.24984, abs=1e-5) and t_quantile(1000, 0.99) == \
        pytest.approx(2.58075, abs=1e-5)
    advice = ContractAdvice("Schafkopf", 1, (), {}, 0, 6, 6, (best, together, far))
    document = advice.as_dict()
    assert document["behind_comparisons"] == 2 and document["behind_confidence"] == 0.975
    assert schema_errors(document, SCHEMA) == []
    from rich.console import Console

    from cli.analyse import render_advice
    console = Console(record=True, width=200)
    render_advice({**document, "known": {}, "hand": ["EO"]}, console)
    text = console.export_text()
    assert "+1.00 (too few samples) ~" in text and "+9.83 (too few samples) ~" in text
    assert ("behind the best: 95% for the 2 contracts compared with it together (Bonferroni: each interval 97.50%); "
            "each mean payment's interval is 95% on its own") in text


def test_a_bonus_the_contract_could_make_but_never_made_is_listed_at_0_with_its_interval():
    """A bonus never made still says something: a Wenz that never made Schneider in 30 samples puts it below 11%
    (the Wilson interval 0 .. 0.1135, by hand: z^2 / (30 + z^2)). Every bonus the game's scoring of the contract
    could pay is listed (the payoff table's items), not only those made at least once: in the JSON at 0 with its
    interval and in the table on one line under it."""
    from rich.console import Console

    from cli.analyse import render_advice
    advice = contract_advice("schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, "Rufer G, Wenz, Solo E", samples=30,
                             seed=1, workers=1)
    rufer, wenz, solo = _row(advice, "Rufer G"), _row(advice, "Wenz"), _row(advice, "Solo E")
    assert wenz.bonuses == solo.bonuses == {"schneider": 0.0, "schwarz": 0.0}
    assert wenz.bonus_intervals["schwarz"] == pytest.approx((0.0, 0.1135), abs=1e-4)
    assert rufer.bonuses["schwarz"] == pytest.approx(1 / 30) and rufer.bonuses["schneider"] == pytest.approx(8 / 30)
    assert wenz.against["schneider"] == 0.6 and wenz.against["schwarz"] == 0.0
    document = advice.as_dict()
    row = next(row for row in document["contracts"] if row["contract"] == "Wenz")
    assert row["bonuses"] == {"schneider": 0.0, "schwarz": 0.0}
    assert row["bonuses_intervals"] == {"schneider": [0.0, 0.1135], "schwarz": [0.0, 0.1135]}
    assert schema_errors(document, SCHEMA) == []
    console = Console(width=200, record=True)
    render_advice(document, console)
    text = console.export_text()
    assert ("never made in 30 samples, so each below 11% (the top of its 95% interval): Schneider, Schwarz (Wenz, "
            "Solo E)") in text
    assert "0% (0-11%) schneider" not in text  # the table's cells keep the bonuses made
    # one sample is said in the singular (not 'never made in 1 samples')
    one = contract_advice("schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, "Wenz, Solo E", samples=1, seed=1, workers=1)
    console = Console(width=200, record=True)
    render_advice(one.as_dict(), console)
    assert "never made in 1 sample, so each below 79% (the top of its 95% interval)" in console.export_text()


def test_a_kratzen_attacker_paid_nothing_for_his_target_has_won(tmp_path):
    """A Kratzen attacker who makes his target in a Muss (no trick payouts) or from a pot under 4 chips (P/4 = 0) is
    paid 0: the advice counted that as a loss (win 0% where `analyse` of the one contract said 100%). RULES.md 3.4:
    only a missed target pays, so the win is the target made, the settlement at or above 0."""
    hand = dict(game="kratzen", hand="EA G7 HA HK", seat=1, seats=4, samples=20, seed=1, workers=1)
    muss = contract_advice(contracts="Trump H Muss", pot=12, **hand).rows[0]  # type: ignore[arg-type]
    small = contract_advice(contracts="Trump H", pot=3, **hand).rows[0]  # type: ignore[arg-type]
    paid = contract_advice(contracts="Trump H", pot=12, **hand).rows[0]  # type: ignore[arg-type]
    assert (muss.mean, muss.win_probability) == (0, 1.0)
    assert (small.mean, small.win_probability) == (0, 1.0)
    assert (paid.mean, paid.win_probability) == (8.25, 1.0)  # 2.75 tricks at 3 chips
    record = tmp_path / "muss.tbn"
    record.write_text('[Game "Kratzen"]\n[Seats "4"]\n[Deal "1: GA GZ SK SU / EA GO HK S7 / S6 E9 H8 H7 / GU G7 HU HZ"]'
                      '\n[Contract "Trump G Muss"]\n[Declarer "1"]\n[Pot "12"]\n')
    cards = card_advice(next(iter(read_positions(str(record)))), samples=20, seed=1, workers=1)
    # a missed target pays 2P = 24 in a Muss and a made one 0: each card's mean is -24 x its losses
    assert [(row.contract, row.mean, row.win_probability) for row in cards.rows] == [
        ("SU", 0.0, 1.0), ("SK", -1.2, 0.95), ("GA", -3.6, 0.85), ("GZ", -15.6, 0.35)]
    shown = _stich("analyse", str(record), "--seat", "1", "--cards", "-n", "20", "--seed", "1", "-j", "1",
                   env={**os.environ, "COLUMNS": "120"})
    assert shown.returncode == 0, shown.stderr
    text = " ".join(shown.stdout.split())
    assert "│ 1 │ SU │ 0.00 (all alike) │ best │ 100% (84-100%) │" in text
    assert "win: the samples where attacker seat 1 makes its own trick target (paid 0 or more)" in text


def test_kratzen_advice_plays_no_line_for_bonuses_it_has_none_of(monkeypatch):
    """Kratzen has no bonus items and its payoff table no items at all, so no net names its bonuses: card advice plays
    no line after a card, nor contract advice one per contract, and the advice is the same as one that played them."""
    import solver.advice as advice_module
    from solver.games.kratzen import Kratzen

    kratzen = next(iter(read_positions(str(ROOT / "examples" / "kratzen.tbn"))))
    setup = make_setup(contracts="all", seed=2, **KRATZEN)
    monkeypatch.setattr(Kratzen, "has_bonus_items", True)  # as before: a line played for each card and contract
    along_lines = card_advice(kratzen, samples=6, seed=1, workers=1, pot=8), settle_sample(setup, 0)
    monkeypatch.undo()
    lines: list[object] = []
    real_play_out = advice_module.play_out
    monkeypatch.setattr(advice_module, "play_out", lambda *args: lines.append(args) or real_play_out(*args))
    assert (card_advice(kratzen, samples=6, seed=1, workers=1, pot=8), settle_sample(setup, 0)) == along_lines
    assert lines == []
    assert along_lines[0].rows and all(not row.bonuses and not row.against for row in along_lines[0].rows)


def test_kratzen_advice_lists_no_trick_of_a_line_as_a_bonus():
    """Kratzen has no bonuses: its trick payouts and penalties are the pot's game (RULES.md 3.4). The advice lists no
    contract's bonuses, and the text no columns, not the pot's trick payouts as bonuses ("trick 2 made 55%" beside a win
    of 100%), which would say which trick of one principal line the attacker took, an arbitrary choice among equal
    lines."""
    advice = contract_advice(game="kratzen", hand="EA G7 HA HK", seat=1, seats=4, pot=12, contracts="all", samples=40,
                             seed=0, workers=1)
    assert [(row.contract, row.mean, row.win_probability, row.bonuses, row.against) for row in advice.rows] == [
        ("Trump H", 8.475, 1.0, {}, {}), ("Trump E", -3.0, 0.625, {}, {}), ("Trump G", -8.1, 0.475, {}, {}),
        ("Trump S", -16.5, 0.2, {}, {})]
    shown = _stich("analyse", "--game", "kratzen", "--hand", "EA G7 HA HK", "--seat", "1", "--seats", "4",
                   "--contract", "all", "-n", "40", "--pot", "12", "-j", "1", "--seed", "0",
                   env={**os.environ, "COLUMNS": "160"})
    assert shown.returncode == 0, shown.stderr
    assert "bonuses made" not in shown.stdout and "trick 1" not in shown.stdout
    assert "│ 1 │ Trump H  │  +8.48 ± 0.43 │          best │ 100% (91-100%) │" in shown.stdout


def test_a_schwarz_counts_as_the_schneider_it_includes():
    """RULES.md 2.5: a Schwarz is paid instead of the Schneider, and counts as the Schneider it includes: a hand taken
    Schwarz on every sample made its Schneider on every sample too, not "below 39%"."""
    done = _stich("analyse", "--game", "schafkopf", "--hand", "EO GO HO SO EU GU EA EZ", "--seat", "1", "--contract",
                  "Solo E, Wenz", "-n", "6", "-j", "1", "--json")
    assert done.returncode == 0, done.stderr
    row = json.loads(done.stdout)["contracts"][0]
    assert row["bonuses"]["schwarz"] == row["bonuses"]["schneider"] == 1.0
    assert row["bonuses_intervals"]["schneider"] == [0.6097, 1.0]


def test_the_notes_under_the_advice_say_only_what_its_table_shows():
    """The notes under the advice explain only what its table shows: the '~' line is printed only where a row wears it
    (a Zwanzigerrufen table whose every contract is told apart from the best has none), and the payment note names the
    two-seat contract of the game in front of the player, not Schafkopf's Rufer."""
    from rich.console import Console

    from cli.analyse import render_advice
    rows = [{"contract": "Solo", "mean": 14.4, "interval": [11.19, 17.61], "win_probability": 0.95,
             "bonuses": {}, "bonuses_against": {}, "told_apart": False},
            {"contract": "Normal T17", "mean": 4.1, "interval": [2.73, 5.47], "win_probability": 1.0,
             "behind_leader": 10.3, "behind_interval": [6.83, 13.77], "behind_samples": 20, "bonuses": {},
             "bonuses_against": {}, "told_apart": True}]
    document = {"game": "Zwanzigerrufen", "seat": 1, "hand": ["T21", "T20"], "known": {}, "samples": 20, "seed": 1,
                "stopped": None, "requested": 20, "announcements": None, "pot": None, "contracts": rows}

    def rendered(document: dict) -> str:
        console = Console(record=True, width=160)
        render_advice(document, console)
        return console.export_text()

    text = rendered(document)
    assert "~" not in text
    assert "payment: the seat's share of its side's settlement (two seats share a Normal game's)" in text
    assert "Rufer" not in text
    rows[1]["told_apart"] = False
    text = rendered(document)
    assert "+10.30 ± 3.47 ~" in text
    assert "~ : not told apart from the best at this sample size (its interval behind the best holds 0)" in text
    schafkopf = {**document, "game": "Schafkopf", "hand": ["EO", "GO"],
                 "contracts": [{**rows[0], "contract": "Solo E"}, {**rows[1], "contract": "Rufer G"}]}
    assert "(two seats share a Rufer's)" in rendered(schafkopf)
    # where no row is a Rufer (or a Normal game) no two seats share a listed contract's settlement
    solos = {**schafkopf, "contracts": [{**rows[0], "contract": "Solo E"}, {**rows[1], "contract": "Wenz"}]}
    assert "payment: the seat's share of its side's settlement\n" in rendered(solos)
    assert "two seats share" not in rendered(solos)
    suit_solos = {**document, "contracts": [rows[0], {**rows[1], "contract": "SuitSolo"}]}
    assert "two seats share" not in rendered(suit_solos)
    passed = {**document, "contracts": [rows[0], {**rows[1], "contract": "pass", "refused": 0, "samples": 20,
                                                           "refused_reason": None}]}  # forehand's Normal game
    assert "(two seats share a Normal game's)" in rendered(passed)


def test_contract_advice_with_a_pagat_announced_ranks_every_contract_that_counts_it():
    """`--contract all --announce "1: Pagat Ultimo"` with a hand that may bid a Suit Solo: the Suit Solo, which does not
    count the Pagat, is left out and said so, the others ranked, rather than no advice at all after 'Pagat Ultimo does
    not count in a Suit Solo' in the first sample; a list naming it fails."""
    from rich.console import Console

    from cli.analyse import render_advice
    hand = "TS T21 T1 T17 T12 HK HQ HN DK DQ"  # five suit cards: a Suit Solo is biddable
    assert "SuitSolo" in {row.contract for row in contract_advice("zwanzigerrufen", hand, 1, "all", samples=1,
                                                                   workers=1).rows}
    advice = contract_advice("zwanzigerrufen", hand, 1, "all", samples=2, workers=1,
                             announcements="1: Pagat Ultimo")
    reason = "bad announcement: seat 1: Pagat Ultimo does not count in a Suit Solo (only Valat, Absolut and 4 Kings)"
    assert sorted(row.contract for row in advice.rows) == ["Normal T20", "Solo"]
    assert advice.left_out == {"SuitSolo": reason}
    document = advice.as_dict()
    assert document["left_out"] == {"SuitSolo": reason} and schema_errors(document, SCHEMA) == []
    console = Console(record=True, width=300)
    render_advice(document, console)
    assert f"not ranked: Suit Solo, which the announcements do not fit ({reason})" in console.export_text()
    assert contract_advice("zwanzigerrufen", hand, 1, "all", samples=1, workers=1).as_dict()["left_out"] == {}
    with pytest.raises(StichError, match="Pagat Ultimo does not count in a Suit Solo"):
        contract_advice("zwanzigerrufen", hand, 1, "Solo, SuitSolo", samples=1, workers=1,
                        announcements="1: Pagat Ultimo")


def test_a_seat_other_than_forehand_may_pass_and_play_in_forehands_game():
    """Announcing nothing is a choice too, for a seat whose weak hand is otherwise offered only its own Solo and Suit
    Solo: the 'pass' row settles forehand's Normal game on each sample (her call derived from her sampled hand, a Solo
    where she holds T20..T16), seat 2 her partner where it holds the called tarock (here T20: always), valued by seat
    2's share; forehand herself cannot pass (rule 1.2)."""
    from solver.advice import PASS, draw_deal
    from solver.games import get_game
    from solver.position import Position
    from solver.settlement import default_settlement_engine, payoff_spec

    hand = "T20 T5 SG SJ CG CJ HG HJ DG DJ"
    setup = make_setup("zwanzigerrufen", hand, 2, "all")
    assert setup.contracts == ("Solo", "SuitSolo", PASS)
    game, engine = get_game("zwanzigerrufen"), default_settlement_engine()
    shares = []
    for k in range(6):
        rules = game.rules(draw_deal(setup, k), "Normal", declarer=1)
        assert rules.declaring_side == frozenset({0, 1})  # forehand calls T20, which seat 2 holds
        position = Position(game, rules, rules.start())
        shares.append(scaled_share(position, 1, engine.value(position.state, payoff_spec(position))))
    advice = contract_advice("zwanzigerrufen", hand, 2, "all", samples=6, workers=1)
    passing = _row(advice, PASS)
    assert advice.rows[0].contract == PASS and passing.samples == 6
    assert passing.mean == pytest.approx(sum(shares) / 6 / SHARE_SCALE)
    assert _row(advice, "Solo").mean < -80 and _row(advice, "SuitSolo").mean < -80
    document = advice.as_dict()
    assert schema_errors(document, SCHEMA) == [] and document["contracts"][0]["contract"] == "pass"
    from rich.console import Console

    from cli.analyse import render_advice
    console = Console(record=True, width=300)
    render_advice(document, console)
    assert ("pass: seat 2 announces nothing, nor does anyone else, and plays in forehand's Normal game (a Solo where "
            "she holds T20..T16), the seat her partner where it holds the called tarock, else against her; its "
            "bonuses made are that declarer's side's") in console.export_text()
    with pytest.raises(InvalidContractError, match="seat 1 cannot pass in Zwanzigerrufen"):
        make_setup("zwanzigerrufen", hand, 1, "pass, Solo")
    assert PASS not in make_setup("zwanzigerrufen", hand, 1, "all").contracts
    assert make_setup("zwanzigerrufen", hand, 3, "Pass").contracts == (PASS,)
    assert PASS not in make_setup("schafkopf", HAND, 2, "all").contracts  # a passed-out deal pays nobody


def test_passing_against_forehand_in_her_normal_game_or_her_solo():
    """The pass row's other cases: seat 3 without the called tarock plays against forehand; against a forehand who holds
    T20..T16 it defends her Solo; each valued by seat 3's share, sample by sample."""
    from solver.advice import PASS, draw_deal
    from solver.games import get_game
    from solver.position import Position
    from solver.settlement import default_settlement_engine, payoff_spec

    game, engine = get_game("zwanzigerrufen"), default_settlement_engine()
    hand = "T21 T15 T14 SG SJ CG CJ HG HJ DG"
    for known, contract, sides in (({4: "T20"}, "Normal", frozenset({0, 3})),  # forehand calls T20: seat 4's
                                   ({1: "T20 T19 T18 T17 T16"}, "Solo", frozenset({0}))):  # she must play Solo
        setup = make_setup("zwanzigerrufen", hand, 3, "pass", known=known)
        shares = []
        for k in range(4):
            deal = draw_deal(setup, k)
            assert game.passed_game(deal, 3) == (contract, 1)
            rules = game.rules(deal, contract, declarer=1)
            assert 2 not in rules.declaring_side and rules.declaring_side == sides
            position = Position(game, rules, rules.start())
            shares.append(scaled_share(position, 2, engine.value(position.state, payoff_spec(position))))
        advice = contract_advice("zwanzigerrufen", hand, 3, "pass", samples=4, workers=1, known=known)
        assert _row(advice, PASS).mean == pytest.approx(sum(shares) / 4 / SHARE_SCALE)


def test_pass_on_the_command_line():
    """``--contract pass`` alone is ranked as a contract, and a pass the seat cannot make is a usage error in each
    game's words (not Zwanzigerrufen's in every game, exit 1); a run whose announcements fit no contract on any sample
    fails instead of printing an empty ranking."""
    from test_cli import run

    zr = ["analyse", "--game", "zwanzigerrufen", "--hand", "T20 T5 SG SJ CG CJ HG HJ DG DJ", "-n", "4"]
    alone = run(*zr, "--seat", "2", "--contract", "pass").stdout
    assert "│ 1 │ pass" in alone
    forehand = run(*zr, "--seat", "1", "--contract", "pass, Solo", code=2).stderr
    assert "seat 1 cannot pass in Zwanzigerrufen" in forehand
    schafkopf = run("analyse", "--game", "schafkopf", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat", "2",
                    "--contract", "pass, Wenz", "-n", "4", code=2).stderr
    assert "Schafkopf's contract advice has no 'pass': it compares the contracts the seat may announce" in schafkopf
    nothing = run(*zr, "--seat", "2", "--contract", "all", "--announce", "2: Kontra", code=1).stderr
    assert "stich: no contract was settled on any of the 4 samples: the announcements fit none of them (pass)" \
        in nothing


def test_a_dazu_is_worded_for_the_other_side_as_a_dagegen():
    """A pass row tries the seat's announcement as the other side says it: "Absolut dazu" (seed 000's explicit word for
    the declarers' own) is "Absolut dagegen", not "Absolut dazu dagegen", which does not parse, and the row settles as
    the bare Absolut's does. Any other bonus said 'dazu' (or 'dagegen') is said bare by the other side, which may not
    say that word (else "2: Trull dazu" is refused on every sample where seat 2 defends: all 3 here), and the row
    settles as the bare Trull's does."""
    from solver.games import get_game

    game = get_game("zwanzigerrufen")
    assert other_side_wording(game, "2: Absolut dazu; 2: Kontra", 4) == "2: Absolut dagegen; 2: Kontra"
    assert other_side_wording(game, "2: Valat dagegen, Pagat dazu", 4) == "2: Valat; 2: Pagat"
    assert other_side_wording(game, "2: Trull dazu, Koenige dagegen; 3: Mondfang", 4) == \
        "2: Trull; 2: Koenige; 3: Mondfang"
    hand = "TS T21 T15 T14 T13 T12 T11 SK HK DG"
    dazu, bare = (contract_advice("zwanzigerrufen", hand, 2, "pass", samples=3, seed=1, workers=1,
                                  announcements=text).rows[0] for text in ("2: Absolut dazu", "2: Absolut"))
    assert dazu.samples == 3 and dazu.mean == bare.mean
    trull_dazu, trull = (contract_advice("zwanzigerrufen", hand, 2, "pass", samples=3, seed=1, workers=1,
                                         announcements=text).rows[0] for text in ("2: Trull dazu", "2: Trull"))
    assert (trull_dazu.samples, trull_dazu.refused, trull_dazu.refused_reason) == (3, 0, None)
    assert trull_dazu.mean == trull.mean and trull_dazu.bonuses == trull.bonuses and "trull" in trull.bonuses


def test_a_defenders_bare_absolut_is_refused_naming_absolut_dagegen():
    """A defender's 'Absolut' (not 'Absolut dagegen') would bring the Kontra on the game that only 'Absolut dagegen'
    says (RULES.md 1.7): it is refused, naming the announcement meant. In advice's pass row, whose side the cards
    decide, the seat says its Absolut as its side does in each sample (seat 2 without T20..T16 always defends: 'Absolut
    dagegen'), so both wordings give the same row, settled on every sample; where no wording fits (a defender's Pagat
    without a Kontra) the row is refused and the run says why."""
    from test_cli import run

    hand = "TS T21 T15 T14 T13 T12 T11 SK HK DG"
    bare = contract_advice("zwanzigerrufen", hand, 2, "pass, Solo", samples=3, seed=1, workers=1,
                           announcements="2: Absolut")
    dagegen = contract_advice("zwanzigerrufen", hand, 2, "pass", samples=3, seed=1, workers=1,
                              announcements="2: Absolut dagegen")
    assert _row(bare, PASS).samples == 3 and _row(bare, PASS).refused_reason is None
    assert _row(bare, PASS).mean == dagegen.rows[0].mean and _row(bare, "Solo").samples == 3
    pagat = "TS T21 T15 T14 T13 T12 T1 SK HK DG"
    refused = contract_advice("zwanzigerrufen", pagat, 2, "pass, Solo", samples=3, seed=1, workers=1,
                              announcements="2: Pagat Ultimo")
    passing = _row(refused, PASS)
    assert passing.samples == 0 and passing.refused == 3
    assert passing.refused_reason == "bad announcement: seat 2: Pagat dagegen needs a Kontra on the game"
    document = refused.as_dict()
    assert schema_errors(document, SCHEMA) == []
    assert [row["refused_reason"] for row in document["contracts"] if row["contract"] == "pass"] == \
        [passing.refused_reason]
    failed = run("analyse", "--game", "zwanzigerrufen", "--hand", pagat, "--seat", "2", "--contract", "pass",
                 "-n", "3", "--announce", "2: Pagat Ultimo", code=1)
    assert "fit none of them (pass); bad announcement: seat 2: Pagat dagegen needs a Kontra on the game" \
        in " ".join(failed.stderr.split())
    with pytest.raises(StichError, match="seat 2: this seat defends: a defender announces 'Absolut dagegen' "
                                         "\\(it includes a Kontra on the game\\)"):
        solver_api_parse(RECORD_WITH.format(announcements="2: Absolut"))
    with pytest.raises(StichError, match="seat 2: this seat defends: a defender announces 'Valat dagegen'"):
        solver_api_parse(RECORD_WITH.format(announcements="2: Valat"))
    assert solver_api_parse(RECORD_WITH.format(announcements="2: Valat dagegen")) is not None


#: A Solo of seat 1 with seat 2, a defender, holding the Pagat.
RECORD_WITH = """[Game "Zwanzigerrufen"]
[Deal "1: T10 SQ / T1 T4 / T9 SG / CK CQ"]
[Contract "Solo"]
[Announcements "{announcements}"]
"""


def solver_api_parse(text: str):
    from solver.api import parse_positions
    from solver.scoring import scoring_inputs

    (position,) = parse_positions(text)
    return scoring_inputs(position)


def test_a_checkpoint_of_other_contracts_says_why_it_is_not_resumed(tmp_path):
    """Seat 2's ``--contract all`` checkpoints of a list without the pass row cannot be resumed (a new contract pairs
    with the others on every sample, and the journal keeps sums only), so the run starts afresh beside them and stderr
    says so, naming the list that resumes them."""
    from test_cli import run

    hand = "TS T21 T15 T14 T13 T12 T11 SK HK DG"
    journal = tmp_path / "advice.ckpt"
    old = contract_advice("zwanzigerrufen", hand, 2, "Solo, SuitSolo", samples=3, seed=1, workers=1,
                          checkpoint=journal, variant="suit_solo_min_suit_cards=0")
    assert old.samples == 3
    args = ["analyse", "--game", "zwanzigerrufen", "--hand", hand, "--seat", "2", "-n", "3", "--seed", "1", "-j", "1",
            "--variant", "suit_solo_min_suit_cards=0", "--checkpoint", str(journal), "--json"]
    fresh = run(*args, "--contract", "all")
    note = " ".join(fresh.stderr.split())
    assert (f"stich: analyse: {journal}: holds 3 samples of this advice over other contracts (Solo, SuitSolo), not "
            "resumed (written before 'pass' was offered to seat 2: every contract is settled on the same samples); "
            "this run starts afresh beside them, which stay in the file; --contract \"Solo, SuitSolo\" resumes "
            "them") in note
    assert "other analys" not in note  # said once, in the words of the other lists
    assert json.loads(fresh.stdout)["samples"] == 3
    resumed = run(*args, "--contract", "Solo, SuitSolo")
    assert "(Solo, SuitSolo)," not in resumed.stderr  # its own section is resumed; the pass run's is named instead
    assert "(Solo, SuitSolo, pass), not resumed (another list:" in " ".join(resumed.stderr.split())
    assert json.loads(resumed.stdout) == {**old.as_dict()}


def test_each_announcement_settles_every_contract_with_and_without_it_on_the_same_samples(monkeypatch):
    """--each-announcement settles each contract announcing nothing and with each announcement on the same samples, and
    each announced row says what it adds, paired. The gain is the paired mean of (with - without), so it equals the
    difference of the two rows' means on the same samples, and a run with --announce alone gives the announced row's own
    figures."""
    from test_cli import run

    hand = "TS T21 T20 T18 T15 T12 T1 SK HK DG"
    advice = contract_advice("zwanzigerrufen", hand, 1, "Solo, Normal T19", samples=4, seed=1, workers=1,
                             announcements="1: Pagat Ultimo, Absolut", each_announcement=True)
    rows = {(row.contract, row.announced): row for row in advice.rows}
    together = "1: Pagat Ultimo, Absolut"
    assert set(rows) == {(contract, announced) for contract in ("Solo", "Normal T19")
                         for announced in (None, "1: Pagat Ultimo", "1: Absolut", together)}
    for contract in ("Solo", "Normal T19"):
        bare = rows[(contract, None)]
        assert bare.gain is None
        for announced in ("1: Pagat Ultimo", "1: Absolut", together):
            row = rows[(contract, announced)]
            assert row.gain_samples == 4 and row.gain is not None
            assert row.gain[0] == pytest.approx(row.mean - bare.mean)
    single = contract_advice("zwanzigerrufen", hand, 1, "Solo, Normal T19", samples=4, seed=1, workers=1,
                             announcements="1: Absolut")
    assert _row(single, "Solo").mean == rows[("Solo", "1: Absolut")].mean
    plain = contract_advice("zwanzigerrufen", hand, 1, "Solo, Normal T19", samples=4, seed=1, workers=1)
    assert _row(plain, "Solo").mean == rows[("Solo", None)].mean
    document = advice.as_dict()
    assert schema_errors(document, SCHEMA) == [] and document["each_announcement"] is True
    gains = {(row["contract"], row["announced"]): row["announcement_gain"] for row in document["contracts"]}
    assert gains[("Solo", None)] is None and gains[("Solo", "1: Absolut")]["samples"] == 4
    # without --announce: each bonus the hand allows (the Pagat with T1; no Trull without it, no 4 Kings)
    chosen = make_setup("zwanzigerrufen", hand, 1, "Solo", each_announcement=True)
    assert chosen.announced == (None, "1: Absolut", "1: Valat", "1: Pagat Ultimo", "1: Trull")
    no_pagat = make_setup("zwanzigerrufen", "TS T21 T20 T18 T15 T12 T11 SK HK DG", 1, "Solo", each_announcement=True)
    assert no_pagat.announced == (None, "1: Absolut", "1: Valat")
    # the four Kings are offered as the score's item and RULES.md name them ("4 Kings", not "Koenige"), so that
    # the row and the "4 Kings" bonus column give one bonus one name
    kings = make_setup("zwanzigerrufen", "TS T21 T20 T18 T15 SK CK HK DK DG", 1, "Solo", each_announcement=True)
    assert kings.announced == (None, "1: Absolut", "1: Valat", "1: 4 Kings")
    # passing, the side is the cards': each announcement with what a defender says instead, the one the sample's
    # sides allow announced, so every pass row is settled on every sample (a row of announcements that fit one side
    # only would be ranked best from its one sample where the seat is forehand's partner)
    passing = contract_advice("zwanzigerrufen", "TS T21 T17 T15 T12 T1 SK HK DG CK", 2, "pass", samples=16, seed=4,
                              workers=1, each_announcement=True)
    assert {row.announced for row in passing.rows} == {
        None, "2: Absolut | 2: Absolut dagegen", "2: Valat | 2: Valat dagegen",
        "2: Pagat Ultimo | 2: Kontra, Pagat dagegen", "2: Trull", "2: Kontra | "}
    assert all(row.samples == 16 and row.refused == 0 for row in passing.rows)
    rows = {row.announced: row for row in passing.rows}
    # the seat defends on 15 samples and wins each game: the Kontra doubles it (+1), and as partner says nothing
    assert rows["2: Kontra | "].gain[0] == pytest.approx(15 / 16)
    from cli.analyse import render_advice
    from rich.console import Console
    console = Console(record=True, width=200)
    render_advice(passing.as_dict(), console)
    text = console.export_text()
    assert "│ pass + Kontra | nothing " in text and "│ pass + Absolut | Absolut dagegen " in text
    assert "pass + A | B: the seat announces A where its side allows it, else B" in text
    monkeypatch.setenv("COLUMNS", "200")  # the table's rows unwrapped
    out = run("analyse", "--game", "zwanzigerrufen", "--hand", hand, "--seat", "1", "--contract", "Solo, Normal T19",
              "-n", "4", "--seed", "1", "-j", "1", "--announce", "1: Absolut", "--each-announcement").stdout
    assert "│ 1 │ Solo + Absolut " in out
    from cli.analyse import advice_status
    assert advice_status("contract advice", advice, 8).startswith(
        f"contract advice: 4 of 8 samples; best so far {advice.rows[0].contract} + ")  # the leader's announcement
    assert "what each announcement adds to the same contract announcing nothing" in " ".join(out.split())
    assert "adds: the mean over the samples both were settled on, ± its 95% interval (each on its own)" in out
    usage = run("analyse", "--game", "schafkopf", "--hand", HAND, "--seat", "1", "--contract", "all", "-n", "2",
                "--each-announcement", code=2).stderr
    assert "Schafkopf has no announcements to compare" in usage
    single_contract = run("analyse", "--game", "zwanzigerrufen", "--hand", hand, "--seat", "1", "--contract", "Solo",
                          "-n", "2", "--each-announcement", code=2).stderr
    assert "contract advice only" in single_contract
    # from a FILE, --contract all is there already: the message does not name it as missing
    from_file = run("analyse", str(ROOT / "examples" / "kratzen.tbn"), "-b", "2", "--seat", "1", "--contract", "all",
                    "--each-announcement", code=2).stderr
    assert "contract advice only (--game and --hand, not a FILE)" in " ".join(from_file.split())


def test_a_row_with_several_announcements_names_each_without_its_seat():
    """``--announce "2: Pagat Ultimo; 2: Valat" --each-announcement``: every item of a row is named without its seat, as
    in the comma form."""
    from solver.advice import row_name

    assert row_name("Solo", "2: Pagat Ultimo; 2: Valat") == "Solo + Pagat Ultimo, Valat"
    assert row_name("Solo", "2: Pagat Ultimo, Valat") == "Solo + Pagat Ultimo, Valat"
    assert row_name("pass", "2: Absolut | 2: Absolut dagegen") == "pass + Absolut | Absolut dagegen"
    assert row_name("pass", "2: Kontra | ") == "pass + Kontra | nothing"
    assert row_name("Solo", None) == "Solo"


def test_a_pass_row_refused_says_on_how_many_samples():
    """A pass row refused says on how many samples: one refused on every sample says 'pass refused on every sample, for
    instance: ...'."""
    from test_cli import run

    failed = run("analyse", "--game", "zwanzigerrufen", "--hand", "T20 T14 T13 T12 T11 T10 SK HK DK CK", "--seat", "2",
                 "--contract", "pass", "-n", "3", "--announce", "2: Kontra", code=1)
    assert "pass refused on every sample, for instance: bad announcement: seat 2: Kontra on the game is said by " \
           "the defenders only" in failed.stdout


def test_a_checkpoint_resumes_whatever_way_the_variant_is_spelt(tmp_path, monkeypatch):
    """``variant={"weli_also_bells": True}`` (the API) and ``--variant weli_also_bells=true`` (the CLI's text) are one
    checkpoint key, the variant as the game reads it, so each resumes the other's checkpoint; a checkpoint keyed by the
    variant as given is resumed too, not orphaned."""
    import solver.advice as advice_module
    from solver.sampling import checkpoint_identity

    def ask(variant, journal, samples=12):
        return contract_advice(contracts="all", samples=samples, seed=3, workers=1, checkpoint=journal,
                               variant=variant, **KRATZEN)

    journal = tmp_path / "api.ckpt"
    whole = ask({"weli_also_bells": True}, journal)
    written = journal.read_text()
    for spelling in ({"weli_also_bells": "true"}, "Weli_Also_Bells=TRUE", {"weli_also_bells": "yes",
                                                                           "must_undertrump": "true"}):
        assert ask(spelling, journal) == whole and journal.read_text() == written  # nothing solved, no new header
    header = json.loads(written.splitlines()[0])
    assert header["advice"]["variant"] == [["weli_also_bells", True]]

    # the old key: the variant as the CLI gave it, text values and all
    old = tmp_path / "old.ckpt"
    monkeypatch.setattr(advice_module, "checkpoint_identity", lambda document: (document, []))
    assert ask({"weli_also_bells": "true"}, old) == whole
    monkeypatch.undo()
    before = old.read_text()
    assert json.loads(before.splitlines()[0])["advice"]["variant"] == [["weli_also_bells", "true"]]
    assert ask({"weli_also_bells": "true"}, old) == whole  # nothing solved, so nothing written (not even a header)
    assert old.read_text() == before
    api, _ = checkpoint_identity({"game": "Zwanzigerrufen", "variant": (("suit_solo_min_suit_cards", 0),)})
    cli, _ = checkpoint_identity({"game": "Zwanzigerrufen", "variant": (("suit_solo_min_suit_cards", "0"),)})
    assert api == cli == {"game": "Zwanzigerrufen", "variant": [("suit_solo_min_suit_cards", 0)]}
    identity, aliases = checkpoint_identity({"game": "Kratzen", "variant": (("weli_also_bells", 1 == 1),)})
    assert identity["variant"] == [("weli_also_bells", True)] and aliases[0]["variant"] == [("weli_also_bells", "True")]


def test_a_game_without_bonus_items_settles_no_item_that_is_a_bonus():
    """``Game.has_bonus_items`` lets the advice skip the line a value's bonuses are read from; it says again what
    ``is_bonus_item`` says of the items the game settles, and this ties the two. Each game's settled items on a few
    seeded deals: a game without bonus items pays none, the others pay some."""
    import solver
    from solver.games.outcome import GAMES
    from solver.position import position_from_record

    for game in [game for game in GAMES if game.name in ("Zwanzigerrufen", "Schafkopf", "Kratzen")]:
        names: set[str] = set()
        for record in solver.random_records(game.name, 7, 4):
            position = position_from_record(record)
            names |= {item.name for item in solver.dd_settlement(position, pot=4 if game.has_pot else None).items}
        bonuses = {name for name in names if game.is_bonus_item(name)}
        assert bool(bonuses) == game.has_bonus_items, (game.name, sorted(names))


def test_the_tilde_note_says_why_an_all_alike_gap_is_not_told_apart():
    """``+210.00 (all alike) ~``: a gap every sample gave alike has no interval, so the note under the table does not
    say "its interval behind the best holds 0": 6 samples of one sign are too few for the sign test with two comparisons
    (p = 2 / 2^6 = 0.031 above 0.025). The note says so where such a row wears the ~."""
    advice = contract_advice("schafkopf", "EO GO HO SO EU GU HU SU", 1, "all", samples=6, workers=1)
    lines = str(advice).splitlines()
    tout = next(line for line in lines if "Wenz Tout" in line)
    assert "(all alike) ~" in tout
    assert ("~ : not told apart from the best at this sample size (too few samples: no gap is told apart below 7, the "
            "fewest on which the exact sign test (p = 2 / 2^n) can tell one at the level of each interval behind the "
            "best)") in " ".join(" ".join(lines).split())  # no row with an interval wears the ~ here


def test_no_item_is_told_apart_on_fewer_samples_than_the_sign_test_needs():
    """Below the sign test's floor (p = 2 / 2^n: 6 samples at 95%, 9 at the 99.44% of 9 comparisons) no gap is told
    apart nor given an interval, and the note under the table says why: else, on 3 samples, Wenz Tout's varying gap to
    Rufer S (mean +33, Student's interval 25.3 .. 40.7 at the corrected 99.44%) would be told apart where the same +33
    on all 3 samples would not, a varying gap counted as stronger evidence than a constant one."""
    from solver.advice import fewest_to_tell

    assert (fewest_to_tell(0.95), fewest_to_tell(0.975), fewest_to_tell(1 - 0.05 / 9)) == (6, 7, 9)
    # the docs' one wording: 9 with seven to twelve comparisons
    assert [fewest_to_tell(1 - 0.05 / m) for m in (6, 7, 12, 13)] == [8, 9, 9, 10]
    advice = contract_advice("schafkopf", "EO GO HA HZ EU SK S9 E7", 1, "all", samples=3, seed=1, workers=1)
    tout = next(row for row in advice.rows if row.contract == "WenzTout")
    assert tout.gap == 33.0 and math.isnan(tout.gap_low) and tout.as_dict()["behind_interval_note"] == "too few samples"
    assert advice.as_dict()["behind_confidence"] == 0.994444 and not any(row.told_apart for row in advice.rows)
    assert told_apart(3, 33.0, 25.3, 40.7, 1 - 0.05 / 9) is False and told_apart(9, 33.0, 25.3, 40.7, 1 - 0.05 / 9)
    assert ("(too few samples: no gap is told apart below 9, the fewest on which the exact sign test (p = 2 / 2^n) "
            "can tell one at the level of each interval behind the best)") in " ".join(str(advice).split())


def test_cards_the_ranking_cannot_order_share_their_rank():
    """Six trumps of a Solo pay +39 on every one of 5 samples: they tie, so they share rank 1 and each reads 'best', not
    ranked 1 to 6 in the pack's order as a preference; the two suit cards, +36 on all, share rank 7."""
    from solver.sampling import hand_position

    position = hand_position("schafkopf", "EO GO HO SO EU GU EA EZ", 1, "Solo E")
    advice = card_advice(position, 1, samples=5, seed=1, workers=1)
    document = advice.as_dict()
    assert schema_errors(document, SCHEMA) == []
    assert [(row["card"], row["rank"], row["mean"]) for row in document["cards"]] == [
        ("EO", 1, 39.0), ("EU", 1, 39.0), ("GO", 1, 39.0), ("GU", 1, 39.0), ("HO", 1, 39.0), ("SO", 1, 39.0),
        ("EA", 7, 36.0), ("EZ", 7, 36.0)]
    lines = str(advice).splitlines()
    assert sum(line.startswith("1 ") and " best " in line for line in lines) == 6
    assert "a rank shared: a tie, cards equal on the exact figures (the table rounds them) the ranking reads (the " \
           "mean payment, the win), listed in the order the hand above lists them" in " ".join(" ".join(lines).split())
    # the one-line repr and the live status line name one card of six: they say it is a tie
    assert repr(advice).endswith(": best EO +39.00 (tied with 5 more)>")
    from cli.analyse import advice_status
    assert advice_status("card advice", advice, 5) == (
        "card advice: 5 of 5 samples; best so far EO +39.00 (all alike) (tied with 5 more)")


def test_kratzen_advice_shows_the_mean_tricks_it_ranks_by():
    """At pot 0 Kratzen contract advice ranks by the win, then by the attacker's mean tricks, so the table shows them in
    a column: the same as the analysis of one contract counts on the same samples (Trump H: 2.75, 'mean tricks 2.8' in
    analyse -c 'Trump H'), to 2 decimals, since they rank the rows; the notes name the attacker by the game's own title.
    """
    advice = contract_advice("kratzen", "EA G7 HA HK", 1, "all", samples=20, seed=1, workers=1, seats=4)
    document = advice.as_dict()
    assert schema_errors(document, SCHEMA) == []
    assert [(row["contract"], row["rank"], row["mean_tricks"], row["win_probability"])
            for row in document["contracts"]] == [("Trump H", 1, 2.75, 1.0), ("Trump E", 2, 1.75, 0.55),
                                                  ("Trump S", 3, 1.0, 0.3), ("Trump G", 4, 1.2, 0.25)]
    analysis = analyse_hand("kratzen", "EA G7 HA HK", 1, "Trump H", samples=20, seed=1, workers=1, seats=4)
    assert analysis.as_dict()["mean"] == 2.75
    text = str(advice)
    lines = text.splitlines()
    assert "mean tricks" in lines[3] and next(line for line in lines if "Trump H" in line).endswith(" 2.75")
    assert next(line for line in lines if "Trump G" in line).endswith(" 1.20")
    assert repr(advice).endswith("Trump H 0.00>")
    assert "mean tricks: attacker seat 1's, each sample played double dummy" in " ".join(text.split())
    schafkopf = contract_advice("schafkopf", "EO GO HA HZ EU SK S9 E7", 1, "Wenz", samples=2, seed=1, workers=1)
    assert schafkopf.as_dict()["contracts"][0]["mean_tricks"] is None and "mean tricks" not in str(schafkopf)


def _mondfangs_along_the_line(setup, samples):
    """How many of ``samples`` put the Sküs and the Mond in one trick without the Pagat (a Sagotrick, which the Pagat
    wins), counted from the cards of the settlement-optimal line itself, trick by trick."""
    from solver.advice import contract_rules, draw_deal
    from solver.games import get_game
    from solver.position import Position
    from solver.scoring import scoring_inputs
    from solver.settlement import payoff_table
    from solver.workers import worker_settlement_engine

    game, engine, caught = get_game(setup.game), worker_settlement_engine(), 0
    for k in range(samples):
        rules = contract_rules(game, draw_deal(setup, k), setup.contracts[0], setup.seat, None)
        position = Position(game, rules, rules.start())
        spec = payoff_table(position, inputs=scoring_inputs(position)).spec
        names = [game.pack.names(1 << card)[0] for card in engine.line(position.state, spec,
                                                                       engine.value(position.state, spec))]
        tricks = [set(names[at:at + 4]) for at in range(0, len(names), 4)]
        caught += any({"TS", "T21"} <= trick and "T1" not in trick for trick in tricks)
    return caught


@pytest.mark.parametrize("known, share", [("T21 SK SQ SJ SN CK CQ CJ CN HK", 1.0),  # the Mond alone: caught
                                          ("T21 T12 SQ SJ SN CK CQ CJ CN HK", 0.0)])  # T12 saves it
def test_the_mondfang_share_is_the_count_of_the_lines_that_catch_the_mond(known, share):
    """The soloist holds the Sküs and the Pagat; seat 2 the Mond, alone among its cards (led the Sküs, it must
    fall: every sample a Mondfang) or beside T12 (it follows with T12 and keeps the Mond: none). The advice's
    Mondfang share equals a count of the tricks of each sample's line, made by the declarers, none against."""
    hand = "TS T20 T19 T18 T17 T16 T15 T14 T13 T1"
    advice = contract_advice("zwanzigerrufen", hand, 1, "Solo", known={2: known}, samples=3, seed=1, workers=1)
    row = advice.rows[0]
    assert row.bonuses["mondfang"] == share and "mondfang" not in row.against
    setup = make_setup("zwanzigerrufen", hand, 1, "Solo", known={2: known}, seed=1)
    assert _mondfangs_along_the_line(setup, 3) == 3 * share


def test_a_gap_below_the_sign_tests_floor_has_no_interval():
    """On 5 samples Wenz is 20 behind Rufer G, its gaps varied: below the sign test's floor (6 samples at 95%) a gap has
    no interval, as one all alike has none (nulls in JSON with the reason, and the reason in the cell), not a cell
    reading '+20.00 ± 2.78' beside a '~' that says the samples tell nothing, an interval that looks like evidence."""
    advice = contract_advice("schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, "Rufer G,Wenz", samples=5, seed=1, workers=1)
    wenz = advice.as_dict()["contracts"][1]
    assert (wenz["contract"], wenz["behind_leader"], wenz["behind_interval"], wenz["behind_interval_note"],
            wenz["behind_samples"], wenz["told_apart"]) == ("Wenz", 20.0, [None, None], "too few samples", 5, False)
    assert schema_errors(advice.as_dict(), SCHEMA) == []
    line = next(line for line in str(advice).splitlines() if " Wenz " in line)
    assert "+20.00 (too few samples) ~" in line and "±" not in line.split("(all alike)")[1]


def test_too_few_samples_is_decided_from_the_samples_the_gap_is_paired_over():
    """A is settled on samples 0-7 and B on 4-11 (each refused on the others): each has 8 samples, above the 6 the sign
    test needs with one comparison, but their gap is paired over the 4 they share, and it is those 4 that decide, not
    the row's own 8: too few samples, said in the '~' note."""
    from rich.console import Console

    from cli.analyse import render_advice
    a = [10, 11, 10, 12, 10, 11, 10, 12]  # samples 0-7
    b = [3, 5, 3, 4, 4, 3, 4, 5]  # samples 4-11
    sums = AdviceSums()
    for k in range(12):
        add_sample(sums, [(6 * a[k], True, (), (), (), (), 0, None) if k < 8 else None,
                          (6 * b[k - 4], True, (), (), (), (), 0, None) if k >= 4 else None])
    best, second = ranked_rows(["A", "B"], sums, "")
    row = second.as_dict()
    assert (best.samples, second.samples, row["behind_samples"], row["behind_leader"]) == (8, 8, 4, 7.0)
    assert row["behind_interval"] == [None, None] and row["behind_interval_note"] == "too few samples"
    document = ContractAdvice("Schafkopf", 1, ("EO",), {}, 0, 12, 12, (best, second)).as_dict()
    assert schema_errors(document, SCHEMA) == []
    console = Console(record=True, width=200)
    render_advice(document, console)
    text = console.export_text()
    assert "+7.00 (too few samples) ~" in text and "holds 0" not in text
    assert ("~ : not told apart from the best at this sample size (too few samples: no gap is told apart below 6, "
            "the fewest on which the exact sign test (p = 2 / 2^n) can tell one at the level of each interval behind "
            "the best)") in " ".join(text.split())


def test_an_item_no_sample_settled_has_no_rank():
    """B and C are refused on every sample: a row no sample settled has no rank (JSON null), not a tie of rows with no
    figure (2, 2, or rank 1 for every row where no sample was solved), and the table gives it its place, shared with
    none."""
    from rich.console import Console

    from cli.analyse import render_advice
    sums = AdviceSums()
    for k in range(3):
        add_sample(sums, [(6 * (k + 1), True, (), (), (), (), 0, None), None, None])
    rows = ranked_rows(["A", "B", "C"], sums, "")
    assert [(row.contract, row.rank) for row in rows] == [("A", 1), ("B", None), ("C", None)]
    document = ContractAdvice("Schafkopf", 1, ("EO",), {}, 0, 3, 3, rows).as_dict()
    assert [row["rank"] for row in document["contracts"]] == [1, None, None]
    assert schema_errors(document, SCHEMA) == []
    assert [row.rank for row in ranked_rows(["A", "B"], AdviceSums(), "")] == [None, None]
    console = Console(record=True, width=200)
    render_advice(document, console)
    lines = console.export_text().splitlines()
    assert [line.split()[:2] for line in lines if "refused on every sample" in line and "│" in line] == [
        ["│", "2"], ["│", "3"]] and "a rank shared" not in " ".join(lines)


def test_the_schema_requires_every_items_rank_and_mean_tricks():
    """The schema described rank and mean_tricks but required neither, so a document without them passed: both
    item definitions (contracts and cards) require them, and a row missing either fails."""
    advice = contract_advice("schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, "Rufer G,Wenz", samples=2, seed=1, workers=1)
    document = advice.as_dict()
    assert schema_errors(document, SCHEMA) == []
    for key in ("rank", "mean_tricks"):
        row = {name: value for name, value in document["contracts"][0].items() if name != key}
        assert schema_errors({**document, "contracts": [row]}, SCHEMA) != []
    from solver.sampling import hand_position
    cards = card_advice(hand_position("schafkopf", "EO GO HO SO EU GU EA EZ", 1, "Solo E"), 1, samples=2, seed=1,
                        workers=1).as_dict()
    assert schema_errors(cards, SCHEMA) == []
    for key in ("rank", "mean_tricks"):
        row = {name: value for name, value in cards["cards"][0].items() if name != key}
        assert schema_errors({**cards, "cards": [row]}, SCHEMA) != []


def test_a_kratzen_row_alone_shows_the_mean_tricks_its_table_shows():
    """A row of Kratzen advice printed alone or rendered in a notebook has the mean tricks its table shows beside the
    win (Trump H: 2.75 on 20 samples)."""
    advice = contract_advice("kratzen", "EA G7 HA HK", 1, "all", samples=20, seed=1, workers=1, seats=4)
    best = advice.rows[0]
    assert str(best) == ("Trump H  mean payment: 0.00 (all alike)  best  win: 100.0% (95%: 83.9% to 100.0%)  "
                         "mean tricks: 2.75")
    assert best.columns() == ("contract", "mean payment", "behind the best", "win", "mean tricks")
    assert len(best.cells()) == 5
    html = best._repr_html_()
    assert ">mean tricks</th>" in html and '<td style="padding:2px 8px;text-align:right">2.75</td>' in html
    assert '<td style="padding:2px 8px;text-align:right">2.75</td>' in advice._repr_html_()
    schafkopf = contract_advice("schafkopf", "EO GO HA HZ EU SK S9 E7", 1, "Wenz", samples=2, seed=1, workers=1)
    assert "mean tricks" not in schafkopf.rows[0].columns() and "tricks" not in str(schafkopf.rows[0])


def test_a_kratzen_row_alone_has_no_bonus_columns_as_its_table_has_none():
    """Kratzen has no bonuses and its advice table no bonus columns, and a row alone in a notebook has none either, not
    'bonuses made' and 'against' with empty cells; a Schafkopf row alone keeps them, as its table does."""
    advice = contract_advice("kratzen", "EA G7 HA HK", 1, "all", samples=4, seed=1, workers=1, seats=4)
    assert "bonuses made" not in str(advice) and "bonuses made" not in advice._repr_html_()
    for row in advice.rows:
        assert row.columns() == ("contract", "mean payment", "behind the best", "win", "mean tricks")
        assert ">bonuses made</th>" not in row._repr_html_() and ">against</th>" not in row._repr_html_()
    schafkopf = contract_advice("schafkopf", "EO GO HA HZ EU SK S9 E7", 1, "Wenz", samples=2, seed=1, workers=1)
    wenz = schafkopf.rows[0]
    assert wenz.columns() == ("contract", "mean payment", "behind the best", "win", "bonuses made", "against")
    assert wenz.cells()[4:] == ["", "50%\xa0(9-91%) Schneider"]
    assert ">bonuses made</th>" in wenz._repr_html_() and "against: 50.0% (95%: 9.5% to 90.5%) Schneider" in str(wenz)


def test_the_tilde_note_says_the_same_payment_as_the_best_and_joins_its_reasons():
    """At a Kratzen pot of 0 every contract pays 0 on every sample: those behind the best (by the win and the tricks)
    are not told apart from it because each paid the same as the best on every sample, which the note says. Where
    rows are not told apart for different reasons, the note gives each, joined in one bracket."""
    advice = contract_advice("kratzen", "EA G7 HA HK", 1, "all", samples=40, seed=3, workers=1, seats=4)
    rows = advice.as_dict()["contracts"]
    assert [(row["contract"], row["rank"], row["behind_leader"], row["behind_interval_note"], row["told_apart"])
            for row in rows[1:]] == [(name, rank, 0.0, "all samples alike", False)
                                     for name, rank in (("Trump E", 2), ("Trump G", 3), ("Trump S", 4))]
    assert ("~ : not told apart from the best at this sample size (the same payment as the best on every sample)"
            in str(advice).splitlines())
    a = [10, 11, 10, 12, 10, 11, 10, 12]
    same = a  # 0 behind on every sample, ranked below by its win
    close = [x - gap for x, gap in zip(a, [1, -1, 2, 0, 1, -1, 0, 1])]  # 0.38 behind, its interval holds 0
    few = [None, None, None, None, 4, 6, 5, 7]  # paired with the best on 4 samples, below the 7 needed
    sums = AdviceSums()
    for k in range(8):
        add_sample(sums, [(6 * a[k], True, (), (), (), (), 0, None), (6 * same[k], k > 0, (), (), (), (), 0, None),
                          (6 * close[k], True, (), (), (), (), 0, None),
                          None if few[k] is None else (6 * few[k], True, (), (), (), (), 0, None)])
    ranked = ranked_rows(["A", "B", "C", "D"], sums, "")
    document = ContractAdvice("Schafkopf", 1, ("EO",), {}, 0, 8, 8, ranked).as_dict()
    assert document["behind_confidence"] == 0.983333
    assert [(row["contract"], row["behind_samples"], row["told_apart"]) for row in document["contracts"][1:]] == [
        ("B", 8, False), ("C", 8, False), ("D", 4, False)]
    from solver.advice import tilde_note
    assert tilde_note(document, document["contracts"], "the best") == (
        "~ : not told apart from the best at this sample size (too few samples: no gap is told apart below 7, the "
        "fewest on which the exact sign test (p = 2 / 2^n) can tell one at the level of each interval behind the "
        "best; the same payment as the best on every sample; its interval behind the best holds 0)")
