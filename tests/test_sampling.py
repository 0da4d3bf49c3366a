"""Single-dummy analysis: reproducibility, the constraints of the draw, and a case known exactly."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import solver
from solver.advice import make_setup
from solver.deal import parse_hand
from solver.errors import InvalidContractError, InvalidDealError, StichError
from solver.position import Position
from solver.sampling import (_setup, analyse_hand, analyse_position, draw_rules, draw_sample, mean_interval,
                             position_setup, report_text)

DATA = Path(__file__).parent / "data"

KRATZEN_HAND = "GA GK G9 HZ"  # seat 1 of Kratzen board 1, seed 1: Trump S


def test_the_same_seed_gives_the_same_analysis_with_one_or_two_workers(two_worker_cores) -> None:
    one = analyse_hand("Kratzen", KRATZEN_HAND, 1, "Trump S", samples=40, seed=5, workers=1)
    two = analyse_hand("Kratzen", KRATZEN_HAND, 1, "Trump S", samples=40, seed=5, workers=2)
    assert one == two
    assert one.as_dict() == two.as_dict()
    other = analyse_hand("Kratzen", KRATZEN_HAND, 1, "Trump S", samples=40, seed=6, workers=1)
    assert other.samples == 40 and other.seed == 6


def test_an_analysis_on_a_dask_cluster_equals_the_local_one(tmp_path: Path) -> None:
    """The samples run on the same worker pool as batch's records, Dask included; the chunks' integer sums make the
    report the same wherever they ran, and the checkpoint works the same."""
    distributed = pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")
    local = analyse_hand("Kratzen", KRATZEN_HAND, 1, "Trump S", samples=30, seed=5, workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        remote = analyse_hand("Kratzen", KRATZEN_HAND, 1, "Trump S", samples=30, seed=5,
                              scheduler=cluster.scheduler_address, checkpoint=tmp_path / "ck.jsonl")
    assert remote.as_dict() == local.as_dict()
    again = analyse_hand("Kratzen", KRATZEN_HAND, 1, "Trump S", samples=30, seed=5, workers=1,
                         checkpoint=tmp_path / "ck.jsonl")  # read back from the checkpoint the cluster wrote
    assert again.as_dict() == local.as_dict()


def test_known_cards_stay_in_their_hands_and_the_hand_is_never_dealt_elsewhere() -> None:
    game = solver.get_game("Kratzen")
    setup = _setup(game, KRATZEN_HAND, 1, "Trump S", {2: "S6 EK", 3: "H8"}, 1, None, 3, 0)
    hand = parse_hand(game.pack, KRATZEN_HAND, 0)
    known2, known3 = setup.fixed[1], setup.fixed[2]
    seen = set()
    for k in range(60):
        deal = draw_rules(setup, k).deal
        assert deal.hands[0] == hand
        assert deal.hands[1] & known2 == known2 and deal.hands[2] & known3 == known3
        assert not (deal.hands[1] | deal.hands[2]) & hand
        assert all(h.bit_count() == game.hand_size for h in deal.hands)
        seen.add(deal.hands)
    assert len(seen) > 50  # the unseen cards really are shuffled


@pytest.mark.parametrize("game, hand, seat, contract, said, reason", [
    ("Schafkopf", "EA EZ EK EO EU E9 E8 E7", 1, "Rufer E", "Rufer E", "the caller (seat 1) holds the called ace EA"),
    ("Zwanzigerrufen", "T20 T5 SG SJ CG CJ HG HJ DG DJ", 1, "Normal T20", "Normal T20",
     "forehand holds T20: she cannot call her own card"),
    ("Zwanzigerrufen", "T20 T5 SG SJ CG CJ HG HJ DG DJ", 1, "Normal T17", "Normal T17",
     "forehand calls the highest of T20..T16 she does not hold: T19, not T17"),
    ("Zwanzigerrufen", "T20 T19 T18 T17 T16 T5 T6 T7 CG CJ", 3, "SuitSolo", "Suit Solo",
     "a Suit Solo declarer needs at least 5 suit cards, seat 3 holds 2"),
    ("Schafkopf", "EO GO HO SO EU GU HU SU", 1, "SoloTout H", "Solo Tout H",
     "a Solo declarer must hold a plain H card; seat 1 holds none"),
])
def test_a_contract_the_declarers_own_hand_forbids_is_refused_before_sampling(game, hand, seat, contract, said,
                                                                                reason) -> None:
    """A forehand holding T20 who asks for Normal T20 is refused at once, saying why, since the declarer's own cards
    decide a bid check: not told that 10,000 shuffles of the unseen cards found no deal that 'may not exist, or be too
    rare to sample', which blames the unseen cards. The contract is named as the rule book does, as the reason names it
    (not 'cannot announce SuitSolo' beside the token)."""
    with pytest.raises(InvalidContractError, match=re.escape(f"seat {seat} cannot announce {said} with this hand: "
                                                             f"{reason}")):
        analyse_hand(game, hand, seat, contract, declarer=seat, samples=2, workers=1)
    with pytest.raises(InvalidContractError, match=re.escape(f"seat {seat} cannot announce {said} with this hand: "
                                                             f"{reason}")):
        make_setup(game, hand, seat, contract)  # contract advice says it in the same words (one function)


def test_a_contract_the_announcements_forbid_blames_them_not_the_hand() -> None:
    """A Pagat Ultimo does not count in a Suit Solo: a hand of five suit cards may announce the Suit Solo, so the
    refusal says the announcements are why, not "with this hand"; a hand the bid check refuses is still blamed with
    the announcements given."""
    hand = "T1 T21 T20 T19 T18 HK HQ HN HJ HA"  # five suit cards: a Suit Solo's bid check passes
    with pytest.raises(InvalidContractError, match=re.escape(
            "seat 1 cannot announce Suit Solo with these announcements: bad announcement: seat 1: Pagat Ultimo does "
            "not count in a Suit Solo (only Valat, Absolut and 4 Kings)")):
        analyse_hand("zwanzigerrufen", hand, 1, "SuitSolo", samples=2, workers=1, announcements="1: Pagat Ultimo")
    with pytest.raises(InvalidContractError, match=re.escape(
            "seat 1 cannot announce Suit Solo with this hand: a Suit Solo declarer needs at least 5 suit cards, "
            "seat 1 holds 2")):
        analyse_hand("zwanzigerrufen", "T1 T21 T20 T19 T18 T17 T16 T15 HK HQ", 1, "SuitSolo", samples=2, workers=1,
                     announcements="1: Pagat Ultimo")


def test_what_the_contract_implies_is_respected() -> None:
    """A Rufer caller never holds the called ace: seat 1 calls the Eichel ace while seat 2 is analysed."""
    game = solver.get_game("Schafkopf")
    ace = game.pack.parse("EA").mask
    setup = _setup(game, "GA GZ GK HA HZ HK SA SZ", 2, "Rufer E", None, 1, None, 4, 0)
    for k in range(40):
        assert not draw_rules(setup, k).deal.hands[0] & ace


def test_impossible_constraints_raise_a_clear_error() -> None:
    with pytest.raises(solver.StichError, match="no deal of the unseen cards.*holds the called ace EA"):
        analyse_hand("Schafkopf", "GA GZ GK HA HZ HK SA SZ", 2, "Rufer E", known={1: "EA"}, samples=2, workers=1)
    with pytest.raises(solver.StichError, match="must play Solo"):
        analyse_hand("Zwanzigerrufen", "T20 T19 T18 T17 T16 T1 SK SQ HK DK", 1, "Normal", samples=2, workers=1)
    for samples in (0, 10_000_001, 2.5, True):
        with pytest.raises(solver.StichError, match="samples must be a whole number from 1 to 10,000,000"):
            analyse_hand("Kratzen", KRATZEN_HAND, 1, "Trump S", samples=samples, workers=1)
    with pytest.raises(solver.StichError, match="already in seat 1"):
        analyse_hand("Kratzen", KRATZEN_HAND, 1, "Trump S", known={2: "GA"}, samples=2, workers=1)


def test_known_cards_that_cannot_be_are_said_as_known_cards():
    """``--known 2:EU`` with EU in the hand said "seat 2: EU already in seat 1", and nine known cards "seat 2: more
    than 8 known cards": neither named the known cards, nor whose hand seat 1 is."""
    hand = "EU E8 E7 GK GO HA H9 SU"
    cases = [({2: "EU"}, "known cards for seat 2: EU is already in seat 1 (the analysed hand)"),
             # the seat is said once (never "already in seat 2 (known in seat 2)")
             ({2: "EA", 3: "EA EZ"}, "known cards for seat 3: EA is already given to seat 2 as a known card"),
             ({2: "EA EZ", 3: "EA EZ"}, "known cards for seat 3: EA, EZ are already given to seat 2 as a known card"),
             ({2: "EA EZ EK EO GA GZ G9 G8 G7"}, "known cards for seat 2: 9, more than a Schafkopf hand of 8")]
    for known, words in cases:
        with pytest.raises(solver.StichError) as caught:
            analyse_hand("Schafkopf", hand, 1, "Rufer E", known=known, samples=2, workers=1)
        assert str(caught.value) == words


def test_a_certain_hand_has_probability_one() -> None:
    """The four top trumps take every trick whatever the others hold."""
    analysis = analyse_hand("Kratzen", "S6 SA SK SO", 1, "Trump S", samples=25, workers=1)
    assert analysis.win_probability == 1.0
    assert analysis.mean == 4.0 and analysis.interval == (4.0, 4.0)
    assert {o.card for o in analysis.openings} == {"S6", "SA", "SK", "SO"}
    assert all(o.win_probability == 1.0 and o.mean == 4.0 for o in analysis.openings)
    own = [b for b in analysis.bonuses if b.seat == 1]
    assert own and own[0].probability_for == 1.0


def test_the_report_of_a_schafkopf_hand() -> None:
    analysis = analyse_hand("Schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, "Rufer E", samples=6, seed=1, workers=1)
    document = analysis.as_dict()
    assert document["measure"] == "points" and 0 <= document["win_probability"] <= 1
    low, high = document["interval"]
    assert low <= document["mean"] <= high
    assert {b["objective"] for b in document["bonuses"]} >= {"game", "schneider", "schwarz"}
    assert len(document["openings"]) == 8


def test_the_mean_score_is_the_samples_settlement_and_ranks_the_cards() -> None:
    """The mean score and each opening card's are the double-dummy settlements of the samples (the hand's seat's
    share of its side's), and the cards are ranked by them."""
    from solver.games import get_game
    from solver.score_objective import solve_score

    analysis = analyse_hand("Schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, "Rufer E", samples=6, seed=1, workers=1)
    setup = _setup(get_game("Schafkopf"), "EU E8 E7 GK GO HA H9 SU", 1, "Rufer E", None, 1, None, 4, 1)
    totals, cards = [], {}
    for k in range(6):
        rules, state = draw_sample(setup, k)
        result = solve_score(Position(rules.game, rules, state), cards=True, reference_solver=False)
        # seat 1's share of its side's net: a Rufer's net is shared by its two seats, a defender's side's by two
        totals.append(rules.game.seat_share(rules, 0, result.total))
        assert 2 * totals[-1] == (result.total if 0 in rules.declaring_side else -result.total)
        for cv in result.card_values:
            cards.setdefault(rules.pack[cv.card].name, []).append(rules.game.seat_share(rules, 0, cv.value))
    assert analysis.score_mean == pytest.approx(sum(totals) / 6)
    low, high = analysis.score_interval
    assert low <= analysis.score_mean <= high
    assert {o.card: o.mean_score for o in analysis.openings} == pytest.approx(
        {card: sum(v) / 6 for card, v in cards.items()})
    ranked = [o.mean_score for o in analysis.openings]
    assert ranked == sorted(ranked, reverse=True)


# --- analysis from a position mid-play -----------------------------------------------------------------------------

MIDPLAY = """[Game "Schafkopf"]
[Board "6"]
[Deal "1: EZ G7 G8 GO H9 HZ S9 SU / EO GK GU GZ H7 HK HO SZ / E7 E8 EK S7 S8 SA SK SO / E9 EA EU G9 GA H8 HA HU"]
[Contract "Solo H"]
[Declarer "1"]
[Play "1"]
G7 GK S7 GA
EA
*
"""
PLAIN_GRAS = {"GA", "GZ", "GK", "G9", "G8", "G7"}  # Gras cards that are not trumps in a hearts Solo


def _midplay_position():
    return solver.parse_positions(MIDPLAY, name="midplay.tbn")[0]


def _midplay_setup(known: dict[int, str] | None = None):
    """The mid-play position's rules, and the setup that samples it for seat 2 (its hand fixed, ``known`` cards
    held where said)."""
    position = _midplay_position()
    rules = position.rules
    return rules, _setup(position.game, " ".join(rules.pack.names(rules.deal.hands[1])), 2, rules.contract.text,
                         known, 1, None, 4, 3, None, position.played)


def test_samples_mid_play_keep_the_hand_the_play_and_what_the_play_showed() -> None:
    """Seat 3 discarded S7 on a Gras lead: no sample may give seat 3 a Gras card. Seat 2 is analysed: its hand is
    fixed; the cards played are in the hands that played them; the state is the one after the play."""
    from solver.sampling import _setup, draw_sample
    position = _midplay_position()
    rules = position.rules
    pack = rules.pack
    played = {}
    state = rules.start()
    for card in position.played:
        played[state.to_move] = played.get(state.to_move, 0) | 1 << card
        state = state.advance(card)
    game = position.game
    setup = _setup(game, " ".join(pack.names(rules.deal.hands[1])), 2, rules.contract.text, None, 1, None, 4, 3,
                   played, position.played)
    for k in range(60):
        sample_rules, sample_state = draw_sample(setup, k)
        hands = sample_rules.deal.hands
        assert hands[1] == rules.deal.hands[1]
        for seat, mask in played.items():
            assert hands[seat] & mask == mask
        assert not set(pack.names(hands[2])) & PLAIN_GRAS
        assert sample_state.trick == position.state.trick and sample_state.leader == position.state.leader
        assert sample_state.hands[1] == position.state.hands[1]


def test_analysis_mid_play_is_reproducible_and_reports_the_play(two_worker_cores) -> None:
    from solver.sampling import analyse_position
    position = _midplay_position()
    one = analyse_position(position, 2, samples=12, seed=4, workers=1)
    two = analyse_position(position, 2, samples=12, seed=4, workers=2)
    assert one.as_dict() == two.as_dict()
    assert one.played == ("G7", "GK", "S7", "GA", "EA")
    assert {o.card for o in one.openings} <= {"EO", "GU", "GZ", "H7", "HK", "HO", "SZ"}  # seat 2 must follow E
    assert 0 <= one.win_probability <= 1 and 0 <= one.mean <= 120


def test_analysis_mid_play_needs_a_whole_deal_and_a_seat() -> None:
    from solver.sampling import analyse_position
    with pytest.raises(StichError, match="not a seat"):
        analyse_position(_midplay_position(), 5, samples=2, workers=1)
    ending = solver.parse_positions('''[Game "Schafkopf"]
[Deal "EO GK / E7 E8 / E9 EA / SZ S7"]
[Contract "Solo H"]
''', name="ending.tbn")[0]
    with pytest.raises(StichError, match="whole deal"):
        analyse_position(ending, 1, samples=2, workers=1)


@pytest.mark.slow
def test_a_zwanzigerrufen_hand() -> None:
    """Zwanzigerrufen: every bonus of the game is reported, and the figures are probabilities and points."""
    record = solver.random_record("Zwanzigerrufen", 1, 1, contract="Normal")
    position = solver.position_from_record(record)
    hand = " ".join(position.rules.pack.names(position.rules.deal.hands[0]))
    analysis = analyse_hand("Zwanzigerrufen", hand, 1, "Normal", samples=3, seed=2, workers=1)
    names = {bonus.name for bonus in analysis.bonuses}
    assert {"valat", "absolut"} <= names
    assert analysis.measure == "points" and 0 <= analysis.mean <= 88
    assert all(0 <= b.probability_for <= 1 and 0 <= b.probability_against <= 1 for b in analysis.bonuses)
    assert len(analysis.openings) >= 1 and analysis.samples == 3


@pytest.mark.slow
@pytest.mark.parametrize("game, hand, contract, samples", [
    ("Schafkopf", "GO HO GU HA HZ HK H8 EA", "Solo H", 24),
    ("Schafkopf", "EU GU HU SU EA EZ GA GZ", "Wenz", 24),
    ("Zwanzigerrufen", None, "Normal", 3),
])
def test_every_trick_bonuses_read_off_the_points_agree_with_their_own_search(game, hand, contract, samples,
                                                                           monkeypatch) -> None:
    """Schwarz and Valat are settled from the points' exact value where it rules them out (a side that cannot
    force every point cannot force every trick); the analysis must equal the one that searches each of them."""
    from solver import sampling
    if hand is None:
        record = solver.random_record(game, 1, 4, contract=contract)
        position = solver.position_from_record(record)
        hand = " ".join(position.rules.pack.names(position.rules.deal.hands[0]))
    calls = []
    real_can_force = sampling.can_force
    monkeypatch.setattr(sampling, "can_force", lambda *a, **k: calls.append(1) or real_can_force(*a, **k))
    shortcut = analyse_hand(game, hand, 1, contract, samples=samples, seed=5, workers=1).as_dict()
    searched_with_shortcut = len(calls)
    monkeypatch.setattr(sampling, "_all_tricks_ruled_out", lambda *a, **k: False)
    searched = analyse_hand(game, hand, 1, contract, samples=samples, seed=5, workers=1).as_dict()
    assert shortcut == searched
    assert searched_with_shortcut < len(calls) - searched_with_shortcut


def test_a_tout_is_won_only_by_every_trick() -> None:
    """A Tout's win is its Tout objective (every trick), not the 61 points of a game: the win rate equals the tout
    bonus's, and an opening card that loses a trick in a sample is not a win there."""
    report = analyse_hand("Schafkopf", "EO GO HO EU GU HA HZ HK", 1, "SoloTout H", samples=30, seed=3, workers=1)
    tout = next(b for b in report.bonuses if b.name == "tout")
    assert report.win_probability == tout.probability_for < 1.0
    assert report.mean > 61  # every sample makes the points of a game; not every one the Tout
    openings = {o.card: o for o in report.openings}
    assert openings["EO"].win_probability == tout.probability_for
    assert openings["EU"].win_probability == 0.0  # the Schell-Ober beats it in every sample
    # RULES.md 2.5: a Tout has no Schneider or Schwarz and is not won by 61: the odds list the Tout alone (not
    # 'Schneider 100%' for a Tout, which a CARDAVIA player reads as the Tout's)
    assert [bonus.name for bonus in report.bonuses] == ["tout"]
    solo = analyse_hand("Schafkopf", "EO GO HO EU GU HA HZ HK", 1, "Solo H", samples=4, seed=3, workers=1)
    assert {bonus.name for bonus in solo.bonuses} >= {"game", "schneider", "schwarz"}
    # a Sie pays 52 whatever the play: no odds at all, and no empty table of them
    sie = analyse_hand("Schafkopf", "EO GO HO SO EU GU HU SU", 1, "Sie", samples=4, seed=3, workers=1)
    assert sie.bonuses == () or list(sie.bonuses) == []
    assert "bonuses forced" not in str(sie) and "opening cards" in str(sie)


def test_the_contract_s_unscored_bonuses_are_found_once_an_analysis(monkeypatch) -> None:
    """What the contract alone leaves unscored (a Tout's Schneider) is the same on every sample, so it is asked of the
    game once an analysis (on the setup the workers get), not once a sample; the odds still leave it out."""
    from solver.games.schafkopf import Schafkopf

    asked = []
    unscored = Schafkopf.contract_unscored_bonuses.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(Schafkopf, "contract_unscored_bonuses",
                        classmethod(lambda cls, rules: asked.append(rules.contract) or unscored(cls, rules)))
    import solver.sampling

    drawn = []
    draw = solver.sampling.draw_sample
    monkeypatch.setattr(solver.sampling, "draw_sample",
                        lambda setup, k, *tries: drawn.append(k) or draw(setup, k, *tries))
    report = analyse_hand("Schafkopf", "EO GO HO EU GU HA HZ HK", 1, "SoloTout H", samples=12, seed=3, workers=1)
    assert report.samples == 12 and len(asked) == 1
    # the feasibility draw gives the unscored bonuses and the report's measure (sample 0's objective names), then
    # the samples in order (one process): sample 0 is drawn once for the setup, not again for the report
    assert drawn == [0, *range(12)]
    assert report.measure == "points"
    assert [bonus.name for bonus in report.bonuses] == ["tout"]


def test_progress_reports_read_the_measure_without_drawing_sample_0_again(monkeypatch) -> None:
    """Each progress report names the measure (Kratzen's tricks): it is kept from the first draw, so the reports
    draw no sample of their own; once they drew sample 0 each."""
    import solver.sampling

    drawn = []
    draw = solver.sampling.draw_sample
    monkeypatch.setattr(solver.sampling, "draw_sample",
                        lambda setup, k, *tries: drawn.append(k) or draw(setup, k, *tries))
    reports = []
    report = analyse_hand("Kratzen", KRATZEN_HAND, 1, "Trump S", samples=40, seed=5, workers=1,
                          progress=reports.append)
    assert reports and {progress.measure for progress in reports} == {"tricks"} and report.measure == "tricks"
    assert drawn == [0, *range(40)]


def test_kratzen_other_seats_targets_are_solved_not_read_off_the_hands_tricks() -> None:
    """In Kratzen every seat plays for itself: another seat's target is not 'every trick the hand does not take',
    so each is counted from its own search. Checked sample by sample against solve()."""
    game = solver.get_game("Kratzen")
    report = analyse_hand(game, "EA EO HA S7", 2, "Trump H", declarer=3, samples=24, seed=7, workers=1)
    setup = _setup(game, "EA EO HA S7", 2, "Trump H", None, 3, None, 3, 7)
    forced = {1: 0, 2: 0, 3: 0}
    for k in range(24):
        rules, state = draw_sample(setup, k)
        for seat in forced:
            forced[seat] += solver.solve(Position(game, rules, state), "tricks", seat=seat).success
    chances = {b.seat: b for b in report.bonuses}
    assert chances[2].forced_for == forced[2]
    assert chances[1].forced_against == forced[1] and chances[3].forced_against == forced[3]
    assert 0 < forced[1] < 24 and 0 < forced[3] < 24  # a real test: neither is all or nothing


def test_an_analysis_from_a_record_keeps_the_pagat_announcement() -> None:
    """Under hard_pagat_reservation the announcer must keep the Pagat: with every hand known, the analysis's one deal is
    the record's and its value is solve()'s, which it would not be were the samples to drop [Announcements]."""
    position = next(iter(solver.read_positions(DATA / "analyse_pagat_announced.tbn")))
    assert position.rules.state_tags == {"pagat_announcer": 4}
    declarers = solver.solve(position, "points").total
    pack, hands = position.game.pack, position.rules.deal.hands
    known = {seat: " ".join(pack.names(hands[seat - 1])) for seat in (1, 2, 3)}
    report = analyse_position(position, 4, known=known, samples=2, seed=1, workers=1)
    assert declarers == 61
    assert report.mean == report.interval[0] == 88 - declarers  # seat 4 defends


PAGAT_ANNOUNCED_BY_SEAT_3 = """[Game "Zwanzigerrufen"]
[Deal "1: T18 T9 T7 T6 T4 SQ CJ CG HJ DG / T17 T14 T11 T10 SK SN SJ HK DQ DN / \
T21 T20 T16 T12 T8 T1 CN HQ HN DJ / TS T19 T15 T13 T5 SG CK CQ HG DK"]
[Contract "Normal T20"]
[Variant "hard_pagat_reservation=true"]
[Announcements "3: Pagat"]
[Play "1"]
T7 T17 T16 TS
HG HJ HK HN
"""


@pytest.mark.parametrize("seat", [1, 2, 4])
def test_every_sample_gives_the_pagat_to_its_announcer(seat) -> None:
    # the table infers that who announces Pagat Ultimo holds the Pagat: the samples dealt it to seat 3 only a third
    # of the time, so two samples in three analysed a Pagat game nobody could play
    (position,) = solver.parse_positions(PAGAT_ANNOUNCED_BY_SEAT_3)
    pagat = position.game.pack.parse("T1").index
    report = analyse_position(position, seat, samples=3, seed=2, workers=1)
    assert "T1" in report.known[3]
    played = {s - 1: 0 for s in range(1, 5)}
    state = position.rules.start()
    for card in position.played:
        played[state.to_move] |= 1 << card
        state = state.advance(card)
    hand = " ".join(position.game.pack.names(position.rules.deal.hands[seat - 1]))
    setup = _setup(position.game, hand, seat, "Normal T20", None, 1, {"hard_pagat_reservation": True}, 4, 2,
                   played, position.played, {"pagat_announcer": 3})
    for k in range(40):
        rules, _ = draw_sample(setup, k)
        assert rules.deal.hands[2] >> pagat & 1


def test_an_announced_pagat_seen_elsewhere_is_refused() -> None:
    # the analysed seat holds the Pagat another seat announced: the record's announcement is wrong (its announcer
    # holds the Pagat), said at the tag when the record is read, before any analysis of a world where seat 2 holds it
    with pytest.raises(StichError, match=r":5:28: bad announcement: seat 2: Pagat Ultimo is announced by the Pagat's "
                                         r"holder, seat 3"):
        solver.parse_positions(PAGAT_ANNOUNCED_BY_SEAT_3.replace('"3: Pagat"', '"2: Kontra, Pagat dagegen"'))


def _counting_rules(monkeypatch) -> dict[str, int]:
    """Count the rule tables compiled (``Rules.tables``, which compiles them once per rules object) and the illegal
    cards put in words (``Rules.illegal_reason``) from now on."""
    from solver.games.base import Rules

    counts = {"tables": 0, "illegal_reason": 0}
    for name in counts:
        real = getattr(Rules, name)

        def counted(self, *args, _real=real, _name=name):
            counts[_name] += 1
            return _real(self, *args)

        monkeypatch.setattr(Rules, name, counted)
    return counts


def test_a_sample_puts_no_refused_shuffle_in_words(monkeypatch) -> None:
    """Most shuffles of a deal mid-play are refused by a card of the play (seat 3 discarded on a Gras lead: every
    deal giving it a Gras card). Putting a refusal in words compiles the refused deal's rule tables, dearer than
    the shuffle, and a sample needs no words: nothing is compiled or put in words for the refused shuffles, and
    the samples are seed 3's deals."""
    rules, setup = _midplay_setup()
    counts = _counting_rules(monkeypatch)
    drawn = [draw_sample(setup, k) for k in range(30)]
    assert counts == {"tables": 0, "illegal_reason": 0}
    # seed 3's first samples (the fixed hand of seat 2, seat 3 without a plain Gras card)
    assert [rules.pack.names(sample.deal.hands[2]) for sample, _ in drawn[:2]] == [
        ['E9', 'E8', 'HU', 'H8', 'SK', 'SO', 'S9', 'S7'], ['EK', 'HA', 'HZ', 'SA', 'SO', 'SU', 'S9', 'S7']]
    assert all(not set(rules.pack.names(sample.deal.hands[2])) & PLAIN_GRAS for sample, _ in drawn)


def test_a_setup_no_deal_fits_names_its_commonest_refusal_with_its_count() -> None:
    """Where no shuffle fits, the error names the commonest refusal in words with how many shuffles it refused,
    however the shuffles were drawn (draw_sample puts them in words only to say why none fitted): seat 3 is known
    to hold G9 yet discarded S7 on the Gras lead, so no shuffle fits; the illegal cards' words name each deal's
    other cards, so the commonest is a rule of the deal."""
    rules, setup = _midplay_setup({3: "G9"})
    with pytest.raises(StichError) as refused:
        draw_sample(setup, 0, 40)
    message = str(refused.value)
    assert "no deal of the unseen cards found in 40 shuffles" in message
    assert ("the commonest refusal (5 of them): a Solo declarer must hold a plain H card; seat 1 holds none"
            in message)


def _counting_shuffles(monkeypatch) -> list[int]:
    """Count the shuffles :func:`draw_sample` deals from now on (one item a shuffle)."""
    from solver import sampling

    shuffles: list[int] = []
    real = sampling.shuffled_deal

    def counted(*args):
        shuffles.append(1)
        return real(*args)

    monkeypatch.setattr(sampling, "shuffled_deal", counted)
    return shuffles


def test_a_small_budget_without_a_fit_shuffles_once_a_large_one_twice(monkeypatch) -> None:
    """Within FEASIBILITY_TRIES each refusal is counted as it is drawn, so a search that finds no deal shuffles
    each deal once; above it the shuffles are drawn without words and drawn again to count them only where none
    fitted. The error is the same either way (seat 3 holds G9 yet discarded S7 on the Gras lead: nothing fits)."""
    from solver import sampling

    rules, setup = _midplay_setup({3: "G9"})
    shuffles = _counting_shuffles(monkeypatch)
    messages = []
    for budget, shuffled in ((sampling.FEASIBILITY_TRIES, 40), (39, 80)):
        monkeypatch.setattr(sampling, "FEASIBILITY_TRIES", budget)
        shuffles.clear()
        with pytest.raises(StichError) as refused:
            draw_sample(setup, 0, 40)
        assert len(shuffles) == shuffled
        messages.append(str(refused.value))
    assert messages[0] == messages[1]
    assert "the commonest refusal (5 of them): a Solo declarer must hold a plain H card" in messages[0]


def test_a_small_budget_draws_the_deals_a_large_one_does(monkeypatch) -> None:
    """Counting the refusals as they are drawn (a budget within FEASIBILITY_TRIES) changes no deal drawn: seed 3's
    samples mid-play, most of their shuffles refused by a card of the play, are the same with 1,000 tries as with
    the default MAX_REDRAWS, and with the same number of shuffles each."""
    rules, setup = _midplay_setup()
    shuffles = _counting_shuffles(monkeypatch)
    large = [draw_sample(setup, k) for k in range(8)]
    counted = len(shuffles)
    small = [draw_sample(setup, k, 1000) for k in range(8)]
    assert [sample.deal.hands for sample, _ in small] == [sample.deal.hands for sample, _ in large]
    assert [state.history for _, state in small] == [state.history for _, state in large]
    assert len(shuffles) == 2 * counted > 16  # some shuffles refused: the counting pass explained them


def test_the_redrawn_deals_rules_share_the_contracts_card_ranks() -> None:
    """Each shuffle builds the rules of its deal, and a Schafkopf contract's trump ranks, effective suits and plain
    ranks do not depend on the deal: they are built once per contract and shared, the called ace's holder (a
    deal's own) still each deal's."""
    from solver.games.schafkopf import _card_ranks

    rules, setup = _midplay_setup()
    built = _card_ranks.cache_info().misses
    drawn = [sample for sample, _ in (draw_sample(setup, k) for k in range(10))]
    assert _card_ranks.cache_info().misses <= built + 1
    assert all(sample.trump_rank is rules.trump_rank and sample.effective is rules.effective for sample in drawn)
    assert len(rules.trump_rank) == 14 and rules.effective[rules.pack.parse("HA").index] == "T"  # a hearts Solo
    rufer = [solver.position_from_record(solver.random_record("Schafkopf", seed, 1, contract="Rufer E")).rules
             for seed in (1, 2, 3)]
    assert len({id(r.eff_masks) for r in rufer}) == 1 and rufer[0].effective[rules.pack.parse("HA").index] == "T"
    assert len({r.called_holder for r in rufer}) > 1


WENZ_THREE_LEFT = """[Game "Schafkopf"]
[Deal "1: GA GU HK SZ SK SO SU S8 / EU GZ G9 G7 HA HO H9 H8 / EZ EK E8 E7 GK GO H7 SA / EA EO E9 G8 HZ HU S9 S7"]
[Contract "Wenz"]
[Declarer "1"]
[Play "1"]
SU EU GO HU
G9 GK G8 GA
SK HA SA S9
EK EA GU H9
HK H8 H7
*
"""


def test_a_play_that_few_deals_fit_is_still_sampled() -> None:
    """Seat 4 to play three tricks from the end: one deal in 1,680 of the unseen cards fits the play, which 2,000
    shuffles a sample would often miss ("no deal suits"): it is still sampled. With seats 1-3 known the one fitting deal
    is the record's, so the analysis equals solve()."""
    position = next(iter(solver.parse_positions(WENZ_THREE_LEFT)))
    report = analyse_position(position, 4, samples=3, seed=2, workers=1)
    assert report.samples == 3
    pack, hands = position.game.pack, position.rules.deal.hands
    known = {seat: " ".join(pack.names(hands[seat - 1] & ~sum(1 << c for c in position.played)))
             for seat in (1, 2, 3)}
    exact = analyse_position(position, 4, known=known, samples=2, seed=0, workers=1)
    taken = position.state.points
    declarers = taken[0] + solver.solve(position, "points").future
    assert exact.mean == exact.interval[1] == 120 - declarers


def test_an_analysis_from_a_record_does_not_know_the_partner() -> None:
    """A [Partner] tag names who holds the called ace, which the analysed seat cannot know: the samples give the
    ace to either possible holder (they all gave it to the tagged seat)."""
    record = next(iter(solver.random_records("Schafkopf", 11, 40, contract="Rufer E")))
    position = solver.position_from_record(record)
    ace = position.game.pack.parse("EA").index
    holder = position.rules.deal.holder(ace)
    text = (f'[Game "Schafkopf"]\n[Deal "{position.rules.deal.text()}"]\n[Contract "Rufer E"]\n[Declarer "1"]\n'
            f'[Partner "{holder + 1}"]\n')
    tagged = next(iter(solver.parse_positions(text)))
    assert tagged.rules.state_tags == {"partner": holder + 1}
    seat = next(s for s in (2, 3, 4) if s != holder + 1)
    setup = _setup(tagged.game, " ".join(tagged.game.pack.names(tagged.rules.deal.hands[seat - 1])), seat,
                   "Rufer E", None, 1, None, 4, 0,
                   tags={k: v for k, v in tagged.rules.state_tags.items() if k not in tagged.game.hidden_state_tags})
    holders = {draw_rules(setup, k).deal.holder(ace) for k in range(60)}
    assert holders == {1, 2, 3} - {seat - 1}
    analysed = analyse_position(tagged, seat, samples=20, seed=3, workers=1)
    untagged = analyse_position(next(iter(solver.parse_positions(text.replace(f'[Partner "{holder + 1}"]\n', "")))),
                                seat, samples=20, seed=3, workers=1)
    assert analysed == untagged


# Known cards and analysis arguments that are refused up front -------------------------------------------------------

MID_KRATZEN = '''[Game "Kratzen"]
[Seats "3"]
[Deal "1: EO E9 SU SZ / GA HA HU G7 / EK G8 HO SK"]
[Contract "Trump S"]
[Play "1"]
EO HA EK
*
'''


@pytest.mark.parametrize("known, words", [
    ({2: "EK"}, "seat 2: EK was played by seat 3"),
    ({2: "GA HU G7 E7"}, "seat 2: the known cards and the cards it played are more than a hand of 4"),
    ({2: "EA"}, "in 10,000 shuffles"),  # seat 2 showed out of E: the feasibility search says so at once
])
def test_known_cards_that_contradict_the_play_are_refused_up_front(known, words):
    """From a record the real deal fits the play, but cards given with --known may not: they are checked before
    any sample is drawn (a known card of a suit its seat showed out of would otherwise cost a million shuffles)."""
    position = solver.parse_positions(MID_KRATZEN)[0]
    with pytest.raises(StichError, match=words):
        solver.analyse_position(position, 1, known=known, samples=3, workers=1)
    assert solver.analyse_position(position, 1, known={3: "G8"}, samples=3, workers=1).samples == 3


def test_another_seat_must_be_told_the_called_card():
    """"Normal" leaves the called card to forehand's hand; another seat heard it at the table, and each sample
    would derive it from a different hand."""
    hand = "TS T21 T12 T9 T4 SK SQ HN DJ DG"
    with pytest.raises(InvalidContractError, match="leaves the called card"):
        solver.analyse_hand("zr", hand, 2, "Normal", samples=2, workers=1)
    assert solver.analyse_hand("zr", hand, 2, "Normal T19", samples=2, workers=1).contract == "Normal T19"


@pytest.mark.parametrize("arguments, words", [
    (dict(workers="a"), "workers must be a whole number"), (dict(workers=2.5), "workers must be a whole number"),
    (dict(checkpoint=5), "the checkpoint is a file path"),
])
def test_analysis_arguments_are_checked(arguments, words):
    with pytest.raises(StichError, match=words):
        solver.analyse_hand("kratzen", "EO E9 SU SZ", 1, "Trump S", seats=3, samples=2, **arguments)


ANNOUNCED = """[Game "Zwanzigerrufen"]
[Deal "1: HQ T20 T15 T6 CG T11 DN HJ CN T16 / SQ CQ HK CJ T10 HG T5 T12 T9 SN / \
SJ DJ T19 SG T7 T17 SK DG T21 DQ / TS T18 CK DK T1 T14 HN T13 T8 T4"]
[Contract "Normal"]
[Declarer "1"]
[Announcements "{announcements}"]
[Play "1"]
T15 T5 T21 T18
DQ DK DN T10
SN SK T8 T11
*
"""


def _announced(announcements: str) -> Position:
    from solver.formats.tbn import parse_records

    return solver.position_from_record(parse_records(ANNOUNCED.replace("{announcements}", announcements))[0])


def test_the_announcements_say_who_sits_on_which_side_and_score_every_sample() -> None:
    """A Kontra on the game and a 'dagegen' are the defenders', a Kontra on their Absolut the declarers': the samples
    fit them (seat 3, the partner, holds the called T19 in every sample), and every sample is scored with them, Kontra
    levels included, by the analysis and by card advice."""
    position = _announced("2: Kontra, Absolut dagegen; 3: Kontra Absolut; 4: Pagat dagegen; 1: Kontra Pagat")
    from solver.sampling import position_setup

    setup = position_setup(position, 2, seed=1)
    assert setup.announcements == "2: Kontra, Absolut dagegen; 3: Kontra Absolut; 4: Pagat dagegen; 1: Kontra Pagat"
    for k in range(12):
        rules, _ = draw_sample(setup, k)
        assert rules.declaring_side == frozenset({0, 2})  # seat 3 is the partner: it holds the called T19
    plain, doubled = _announced(""), _announced("2: Kontra; 1: Retour; 2: Supra")
    quiet = analyse_position(plain, 1, samples=6, seed=1, workers=1)
    loud = analyse_position(doubled, 1, samples=6, seed=1, workers=1)
    assert quiet.announcements is None and loud.announcements == "2: Kontra; 1: Retour; 2: Supra"
    assert loud.as_dict()["announcements"] == loud.announcements
    from solver.advice import card_advice, child_values
    from solver.sampling import SHARE_SCALE, scaled_share
    from solver.score_objective import solve_score

    expected = 0
    setup = position_setup(doubled, 1, seed=1)
    for k in range(6):  # the same deals (nothing in these announcements places a card), scored at Supra
        rules, state = draw_sample(setup, k)
        sample = Position(rules.game, rules, state)
        scored = solve_score(sample, cards=True, announcements=setup.announcements)
        expected += scaled_share(sample, 0, scored.total)
        # card advice values each card with them too
        assert child_values(sample, setup) == {cv.card: cv.value for cv in scored.card_values}
    assert loud.score_mean == pytest.approx(expected / SHARE_SCALE / 6) and loud.score_mean != quiet.score_mean
    advice = card_advice(doubled, samples=2, seed=1, workers=1).as_dict()
    assert (advice["announcements"], advice["pot"]) == ("2: Kontra; 1: Retour; 2: Supra", None)


def test_a_hand_is_scored_with_the_announcements_and_the_pot_given() -> None:
    without = analyse_hand("kratzen", "HA EA EK GA", 1, "Trump H", seats=3, samples=8, seed=2, workers=1)
    with_pot = analyse_hand("kratzen", "HA EA EK GA", 1, "Trump H", seats=3, samples=8, seed=2, workers=1, pot=12)
    assert without.score_mean == 0 and with_pot.score_mean > 0 and with_pot.pot == 12
    with pytest.raises(StichError, match="pot"):
        analyse_hand("schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, "Rufer E", samples=2, pot=3)
    # seat 1 declares: no 'dagegen' for it, whoever holds the unseen cards; said as the announcements' fault, not
    # as a hand or play that may not exist
    with pytest.raises(StichError, match="the announcements fit none of 10,000 deals.*'dagegen' is said by a defender"):
        analyse_hand("zwanzigerrufen", "T21 T20 T19 T18 T15 T14 T13 T12 HK SK", 1, "Normal T17", samples=2,
                     announcements="1: Absolut dagegen")
    # seat 2 says Pagat dagegen without a Kontra on the game, and is the partner in some deals, where a 'dagegen'
    # does not fit either: both reasons are named
    with pytest.raises(StichError, match="fit none.*needs a Kontra on the game.*'dagegen' is said by a defender"):
        analyse_hand("zwanzigerrufen", "T19 T14 T4 SK SN HQ HN HJ DJ DG", 1, "Normal", samples=2,
                     announcements="2: Pagat Ultimo dagegen")
    # seat 1 holds the Pagat seat 2 announces (or seat 3 is known to): refused at once, where it sampled 10,000
    # deals (about a second) that all put T1 outside the announcer's hand and said they "fit none"
    with pytest.raises(StichError, match="^seat 2 announced what needs T1, which seat 1's hand as given holds$"):
        analyse_hand("zwanzigerrufen", "T19 T14 T1 SK SN HQ HN HJ DJ DG", 1, "Normal", samples=2,
                     announcements="2: Kontra, Pagat Ultimo dagegen")
    with pytest.raises(StichError, match="^seat 2 announced what needs T1, which seat 3's hand as given holds$"):
        analyse_hand("zwanzigerrufen", "T19 T14 T4 SK SN HQ HN HJ DJ DG", 1, "Normal", known={3: "T1"}, samples=2,
                     announcements="2: Kontra, Pagat Ultimo dagegen")
    # an announced Pagat is in its announcer's hand, as a record's is, not anywhere;
    # one the announcing hand as given lacks is refused at once
    hand = "T21 T19 T18 T15 T14 T13 T12 HK SK DK"
    placed = analyse_hand("zwanzigerrufen", hand, 1, "Normal T20", samples=2, workers=1, announcements="3: Pagat")
    assert placed.known == {3: ("T1",)}
    with pytest.raises(StichError, match="seat 1 announced what needs T1, which its hand as given does not hold"):
        analyse_hand("zwanzigerrufen", hand, 1, "Normal T20", samples=2, announcements="1: Pagat")


def test_a_kratzen_seat_that_does_not_declare_has_no_payment_of_its_own():
    """Only the attacker's payment is searched where every seat plays for itself, and the attacker's negated is not what
    another seat is paid: that seat's analysis has no payment, and card advice for it is refused with the command that
    ranks its cards by its own tricks."""
    from solver.advice import card_advice

    defender = analyse_hand("kratzen", "HA EA EK GA", 2, "Trump H", seats=3, samples=4, seed=1, workers=1, pot=12)
    attacker = analyse_hand("kratzen", "HA EA EK GA", 1, "Trump H", seats=3, samples=4, seed=1, workers=1, pot=12)
    assert defender.score_mean is None and all(o.mean_score is None for o in defender.openings)
    assert attacker.score_mean is not None
    position = solver.position_from_record(solver.random_record("kratzen", 2, 1, seats=3))
    after = position.play(next(iter(position.legal_cards())))
    with pytest.raises(StichError,
                       match=r"in Kratzen only the attacker's payment is searched .* stich analyse FILE --seat 2"):
        card_advice(after, samples=2, workers=1)


def test_an_analysis_stops_at_its_time_limit_or_stop_event_after_the_first_chunk():
    """analyse_hand and analyse_position take a time limit and a stop event, as the advice and every search do, so that
    an app can bound an analysis: no chunk is handed out after them but the first, so a report has samples."""
    import threading

    stop = threading.Event()
    stop.set()
    hand = dict(game="kratzen", hand="EO E9 SU SZ", seat=1, contract="Trump E", seats=3, workers=1)
    stopped = analyse_hand(samples=200, stop=stop, **hand)
    assert stopped.stopped == "interrupt" and 1 <= stopped.samples < 200
    assert stopped.as_dict()["stopped"] == "interrupt"
    from test_cli import SCHEMA, schema_errors  # the validator of docs/stich-result.schema.json

    assert schema_errors(stopped.as_dict(), SCHEMA) == []
    timed = analyse_hand(samples=200, time_limit=1e-9, **hand)
    assert timed.stopped == "time limit" and timed.samples == stopped.samples  # the first chunk, as 0 says
    whole = analyse_hand(samples=20, time_limit=60, stop=threading.Event(), **hand)
    assert whole.stopped is None and whole.samples == 20 and "stopped" not in whole.as_dict()
    position = next(solver.read_positions(Path(__file__).resolve().parents[1] / "examples" / "valat.tbn"))
    mid = analyse_position(position, 1, samples=100, workers=1, time_limit=1e-9)
    assert mid.stopped == "time limit" and 1 <= mid.samples < 100
    for bad in (-1, float("inf"), True):
        with pytest.raises(StichError, match="time_limit must be a number of seconds above 0"):
            analyse_hand(samples=2, time_limit=bad, **hand)
    with pytest.raises(StichError, match="stop must be a threading.Event"):
        analyse_position(position, 1, samples=2, stop=True)


def test_an_analysis_stops_before_the_next_sample_not_after_every_chunk_handed_out(tmp_path: Path) -> None:
    """A time limit or stop event is looked at before each sample of a chunk, in this process and in a pool's workers
    alike, not only between chunks (on 2 workers 8 chunks of 4 samples in flight would make a Zwanzigerrufen analysis
    stopped after 2 s return after 21 s): a run stopped at once solves its first sample only, a chunk cut short is kept
    as the samples it solved, and a resume completes it exactly."""
    import threading

    hand = dict(game="kratzen", hand=KRATZEN_HAND, seat=1, contract="Trump S", seed=5)
    stop = threading.Event()
    stop.set()
    for workers in (1, 2):  # 200 samples: chunks of 7 on one worker, of 4 on two
        stopped = analyse_hand(samples=200, workers=workers, stop=stop, **hand)
        assert (stopped.samples, stopped.stopped) == (1, "interrupt")
        timed = analyse_hand(samples=200, workers=workers, time_limit=1e-9, **hand)
        assert (timed.samples, timed.stopped) == (1, "time limit")
    checkpoint = tmp_path / "ck.jsonl"
    cut = analyse_hand(samples=40, workers=1, time_limit=1e-9, checkpoint=checkpoint, **hand)
    assert cut.samples == 1 and cut.stopped == "time limit"
    resumed = analyse_hand(samples=40, workers=1, checkpoint=checkpoint, **hand)
    assert resumed.as_dict() == analyse_hand(samples=40, workers=1, **hand).as_dict()


def test_a_checkpoint_of_other_jobs_only_says_so_as_the_analysis_starts_beside_them(tmp_path: Path) -> None:
    """A checkpoint of another seed's analysis, or of a match, is appended to afresh: an OtherJobsNotResumed warning
    names what it holds, by kind, as a match's does; one that holds this analysis says nothing of the others."""
    from solver.errors import OtherJobsNotResumed
    from solver.bots import make_bot
    from solver.match import play_match

    path = tmp_path / "a.ckpt"
    args = ("kratzen", "EA G7 HA HK", 1, "Trump H")
    analyse_hand(*args, seats=4, samples=2, seed=1, workers=1, checkpoint=path)
    with pytest.warns(OtherJobsNotResumed) as told:
        analyse_hand(*args, seats=4, samples=2, seed=2, workers=1, checkpoint=path)
    assert [str(warning.message) for warning in told] == [
        f"{path}: holds 1 other analysis, not resumed (its hand, contract, seed or settings differ); this run starts "
        "afresh beside it, which stays in the file"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", OtherJobsNotResumed)
        analyse_hand(*args, seats=4, samples=2, seed=1, workers=1, checkpoint=path)  # its own, resumed
    matches = tmp_path / "m.ckpt"
    play_match("kratzen", [make_bot("random")] * 3, boards=1, seed=3, checkpoint=matches)
    with pytest.warns(OtherJobsNotResumed) as told:
        analyse_hand(*args, seats=4, samples=2, seed=1, workers=1, checkpoint=matches)
    assert [str(warning.message) for warning in told] == [
        f"{matches}: holds 1 match, not resumed (an analysis resumes only its own samples); this run starts afresh "
        "beside it, which stays in the file"]


def test_a_checkpoint_keyed_by_the_contract_as_typed_is_resumed(tmp_path):
    """The setup names the contract by its name (``Rufer G``), as the reports do; a checkpoint with the contract as
    typed (``rufer g``) in its key is resumed whole, not started afresh beside."""
    from solver.checkpoint import _key_of

    path = tmp_path / "ck.jsonl"
    first = analyse_hand("schafkopf", "EA EO E9 GZ G8 HZ HK H9", 1, "Rufer G", samples=4, seed=0, workers=1,
                         checkpoint=path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    header = lines[0]
    header["setup"]["contract"] = "rufer g"  # as the older version keyed it
    old_key = _key_of({name: header[name] for name in ("setup", "samples", "share_scale")})
    for line in lines:
        line["key"] = old_key
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    again = analyse_hand("schafkopf", "EA EO E9 GZ G8 HZ HK H9", 1, "rufer g", samples=4, seed=0, workers=1,
                         checkpoint=path)
    # no sample solved again, and nothing written: a header goes out only with a span of samples
    assert [json.loads(line) for line in path.read_text().splitlines()] == lines
    assert again.as_dict() == first.as_dict() and again.contract == "Rufer G"


def test_a_hand_analysis_checkpoint_resumes_whatever_way_the_variant_is_spelt(tmp_path: Path) -> None:
    """analyse_hand's checkpoint is keyed by the variant as the game reads it: ``{"weli_also_bells": True}`` from the
    API and ``weli_also_bells=true`` from ``--variant`` resume each other."""
    def ask(variant: object) -> object:
        return analyse_hand("kratzen", "EO E9 SU SZ", 1, "Trump S", samples=6, seed=2, workers=1, seats=3,
                            variant=variant, checkpoint=tmp_path / "hand.ckpt")

    whole = ask({"weli_also_bells": True})
    written = (tmp_path / "hand.ckpt").read_text()
    assert ask("weli_also_bells=TRUE") == ask({"Weli_Also_Bells": "true"}) == whole
    assert (tmp_path / "hand.ckpt").read_text() == written  # nothing solved again, no second header


def test_hand_position_keeps_the_hand_and_redeals_within_the_contract():
    """:func:`solver.sampling.hand_position`, behind card advice from a hand: its deal holds the hand, and card advice's
    samples from it (the seat's view) keep the hand on every sample and redeal the rest within the contract (a Rufer's
    declarer, seat 3, never holds the called Ace); a seat not on lead is refused."""
    from solver.advice import SeatNotAdvised, card_advice
    from solver.sampling import draw_sample, hand_position, position_setup

    hand = "EU E8 E7 GK GO HA H9 SU"
    position = hand_position("Schafkopf", hand, 1, "Rufer G", declarer=3, known={2: "SA"})
    game = position.game
    mask = parse_hand(game.pack, hand, 0)
    called = game.pack.parse("GA").index
    assert position.rules.deal.hands[0] == mask and position.played == () and position.state.to_move == 0
    assert position.rules.declarer == 2 and str(position.rules.contract) == "Rufer G"
    spade_ace = game.pack.parse("SA").index
    assert position.rules.deal.hands[1] >> spade_ace & 1  # the known card where it was given
    setup = position_setup(position, 1, known={2: "SA"})  # as card advice samples it
    deals = [draw_sample(setup, k)[0].deal for k in range(30)]
    assert all(deal.hands[0] == mask for deal in deals)
    assert all(deal.hands[1] >> spade_ace & 1 for deal in deals)
    assert not any(deal.hands[2] >> called & 1 for deal in deals)  # the declarer never holds the called Ace
    assert len({deal.hands[2] for deal in deals}) > 20  # and the other hands are redealt
    later = hand_position("Schafkopf", hand, 2, "Rufer G", declarer=3)
    assert later.rules.deal.hands[1] == parse_hand(game.pack, hand, 1)
    with pytest.raises(SeatNotAdvised, match="card advice is for the seat to move, seat 1, not seat 2"):
        card_advice(later, 2, samples=2, workers=1)


def test_a_card_given_twice_is_said_of_the_hand_or_the_known_cards_it_is_in():
    """A card twice in the analysed hand is said of the hand given (``--hand``), not as "seat 1: H9 appears twice",
    which reads as a deal's seat 1 (a record's); in known cards it says they are the known ones."""
    with pytest.raises(InvalidDealError, match=r"^the analysed hand \(seat 1\): H9 appears twice$"):
        analyse_hand("schafkopf", "EU E8 E7 GK GO HA H9 H9", 1, "Rufer E", samples=1, workers=1)
    with pytest.raises(InvalidDealError, match=r"^known cards for seat 2: GO appears twice$"):
        analyse_hand("kratzen", "GA GK G9 HZ", 1, "Trump S", known={2: "GO go"}, samples=1, workers=1)
    with pytest.raises(InvalidDealError, match=r"^known cards for seat 3: 'T1' is not a card of the Kratzen pack"):
        analyse_hand("kratzen", "GA GK G9 HZ", 1, "Trump S", known={3: "T1"}, samples=1, workers=1)
    done = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", "analyse", "--game", "schafkopf",
                           "--hand", "EU E8 E7 GK GO HA H9 H9", "--seat", "1", "--contract", "Rufer E"],
                          capture_output=True, text=True, cwd=Path(__file__).resolve().parent.parent)
    # the command says it as its option's usage error, as a hand of the wrong size is (exit 2)
    assert done.returncode == 2 and "Invalid value for '--hand': H9 appears twice" in done.stderr


def test_the_deal_parser_names_the_seat_or_the_label_it_is_given():
    """The deal parser takes the label for its message, so the message is built once: "seat N" for a deal's seat, the
    label for cards that are no seat of a deal, and a hand alone does not cut "seat N: " off its text."""
    pack = solver.get_game("schafkopf").pack
    assert parse_hand(pack, "EU e8", 1, label="the analysed hand (seat 2)") == parse_hand(pack, "EU E8", 1)
    with pytest.raises(InvalidDealError, match=r"^seat 2: H9 appears twice$"):
        parse_hand(pack, "H9 EU H9", 1)
    with pytest.raises(InvalidDealError, match=r"^the analysed hand \(seat 2\): 'T1' is not a card of the Schafkopf "):
        parse_hand(pack, "EU T1", 1, label="the analysed hand (seat 2)")


# The 44:44 deal of tests/data/tie44_whole.tbn under tie_44=no_score, six tricks and two cards played: seat 4, a
# defender, is to move, and some deals of the unseen cards end 44:44 whatever it plays
TIE_44_MIDPLAY = """[Game "Zwanzigerrufen"]
[Deal "1: T17 T15 T12 SK SN SG CJ CG DN DG / T20 T19 T16 T13 T11 T1 HQ HJ HG DJ / T18 T8 T5 SJ CK CN HK HN DK DQ / \
TS T21 T14 T10 T9 T7 T6 T4 SQ CQ"]
[Contract "Normal T20"]
[Declarer "1"]
[Variant "tie_44=no_score"]
[Play "1"]
DG DJ DK T7
T21 T17 T13 T5
CQ CJ T11 CK
HJ HK T9 T12
CG T20 CN TS
T6 T15 T19 T18
HG HN
*
"""


def test_a_44_44_that_scores_nothing_is_no_win_for_the_defenders() -> None:
    """Under tie_44=no_score a 44:44 gives the game to neither side (RULES.md 1.1): a defender's win is the
    declarers held to 43, not to 44, for the headline and for every card to play alike. Each sample is solved here
    on its own and its wins counted by that rule; the seed is one that meets a 44."""
    position = solver.parse_positions(TIE_44_MIDPLAY)[0]
    setup = position_setup(position, 4, seed=3)
    totals, card_wins = [], {}
    for k in range(10):
        rules, state = draw_sample(setup, k)
        result = solver.solve(Position(position.game, rules, state), "points", cards=True)
        totals.append(result.total)
        for value in result.card_values:
            name = position.pack[value.card].name
            card_wins[name] = card_wins.get(name, 0) + (result.achieved + value.value < 44)
    assert totals.count(44) == 3
    analysis = analyse_position(position, 4, samples=10, seed=3, workers=1)
    assert analysis.win_probability == sum(total < 44 for total in totals) / 10
    assert {opening.card: round(opening.win_probability * 10) for opening in analysis.openings} == card_wins


def test_a_checkpoint_counting_a_44_44_as_a_defenders_win_is_another_job(tmp_path: Path) -> None:
    """A checkpoint written under tie_44=no_score before a 44:44 was no win for the defenders counted it as one: read
    back, its counts would report 0.7 where the samples give 0.4. The drawn total is in the job's identity (only
    where there is one, so that other variants' checkpoints still resume), so the older job's spans are another
    job's, solved again beside them, and the report is a fresh run's; the run says so (StichWarning, as card advice
    says of samples without bonus odds), since a rerun that solves everything again is otherwise a surprise."""
    from solver.checkpoint import _key_of
    from solver.errors import StichWarning

    position = solver.parse_positions(TIE_44_MIDPLAY)[0]
    path = tmp_path / "ck.jsonl"
    fresh = analyse_position(position, 4, samples=10, seed=3, workers=1, checkpoint=path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["drawn_total"] == 44
    old = {name: value for name, value in lines[0].items() if name != "drawn_total"}
    old["key"] = _key_of({name: old[name] for name in ("setup", "samples", "share_scale")})
    spans = [json.loads(json.dumps(line)) | {"key": old["key"]} for line in lines[1:]]
    for span in spans:  # as the older version counted: the declarers held to 44 (of 88), a defenders' win
        span["sums"]["wins"] = int(span["sums"]["sum"] >= 44)
    assert sum(span["sums"]["wins"] for span in spans) == 7 and fresh.win_probability == 0.4
    path.write_text("".join(json.dumps(line) + "\n" for line in [old, *spans]))
    with pytest.warns(StichWarning) as caught:
        again = analyse_position(position, 4, samples=10, seed=3, workers=1, checkpoint=path)
    assert [str(warning.message) for warning in caught] == [
        f"{path}: holds 10 samples of this analysis, not resumed (written before its job named the drawn total, 44, "
        "when a total of 44 counted as the defenders' win); this run solves the 10 it lacks beside them, which stay "
        "in the file"]
    assert again.as_dict() == fresh.as_dict()
    written = [json.loads(line) for line in path.read_text().splitlines()]
    assert written[:len(spans) + 1] == [old, *spans] and written[len(spans) + 1:] == lines  # solved again, beside
    record, older = tmp_path / "r.tbn", tmp_path / "older.jsonl"  # the command says it on stderr, once
    record.write_text(TIE_44_MIDPLAY)
    older.write_text("".join(json.dumps(line) + "\n" for line in [old, *spans]))
    command = [sys.executable, "-c", "from cli.main import main; main()", "analyse", str(record), "--seat", "4", "-n",
               "10", "--seed", "3", "--checkpoint", str(older)]
    shown, again_shown = (subprocess.run(command, capture_output=True, text=True,
                                         cwd=Path(__file__).resolve().parent.parent) for _ in range(2))
    said = str(caught[0].message).replace(str(path), str(older))
    assert (shown.returncode, shown.stderr) == (0, f"stich: analyse: {said}\n")
    assert (again_shown.returncode, again_shown.stderr, again_shown.stdout) == (0, "", shown.stdout)
    plain = tmp_path / "plain.jsonl"  # no drawn total: the job's identity as before, which older files resume
    analyse_position(solver.parse_positions(TIE_44_MIDPLAY.replace('[Variant "tie_44=no_score"]\n', ""))[0], 4,
                     samples=2, seed=3, workers=1, checkpoint=plain)
    assert "drawn_total" not in json.loads(plain.read_text().splitlines()[0])


@pytest.mark.parametrize("cards", [False, True], ids=["analysis", "card advice"])
def test_a_pipe_named_as_the_checkpoint_is_refused_before_it_is_read(tmp_path: Path, cards: bool) -> None:
    """What a checkpoint holds under an older job (a drawn total, bonus odds) is worked out only once the journal has
    accepted the file: a named pipe is refused at once with nothing on stdout (read before, it would wait for a writer
    that never comes), and /dev/zero, which the journal writes to as a file, is not read without end: it holds no
    journal. The timeout only ends a hanging run: it is no measure of speed."""
    record, pipe = tmp_path / "t44.tbn", tmp_path / "ck.fifo"
    record.write_text(TIE_44_MIDPLAY)
    os.mkfifo(pipe)
    command = [sys.executable, "-c", "from cli.main import main; main()", "analyse", str(record), "--seat", "4", "-n",
               "4", "-j", "1", *(["--cards"] if cards else []), "--checkpoint"]
    root = Path(__file__).resolve().parent.parent
    refused = subprocess.run([*command, str(pipe)], capture_output=True, text=True, cwd=root, timeout=60)
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr == (f"stich: {pipe}: a pipe, not a regular file: a checkpoint is read back to "
                              "resume and appended to, which a pipe cannot be; give a file's name\n")
    device = subprocess.run([*command, "/dev/zero"], capture_output=True, text=True, cwd=root, timeout=60)
    plain = subprocess.run(command[:-1], capture_output=True, text=True, cwd=root, timeout=60)
    assert (device.returncode, device.stderr, device.stdout) == (0, "", plain.stdout)  # a device is written as a file


@pytest.mark.parametrize("cards", [False, True], ids=["analysis", "card advice"])
def test_a_resumed_run_reads_its_checkpoint_for_the_older_job_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    cards: bool) -> None:
    """Whether a checkpoint holds samples of an older job (before the drawn total, without bonus odds) is one reading
    of the file, which may hold many records' runs, not one for each job asked about; the file's count of the older
    job's samples is read only when there is something to say."""
    import solver.checkpoint
    from solver.advice import card_advice

    position = solver.parse_positions(TIE_44_MIDPLAY)[0]
    path = tmp_path / "ck.jsonl"

    def run() -> object:
        if cards:
            return card_advice(position, 4, samples=2, seed=3, workers=1, checkpoint=path).as_dict()
        return analyse_position(position, 4, samples=2, seed=3, workers=1, checkpoint=path).as_dict()

    first = run()
    readings: list[str] = []
    read_once = solver.checkpoint.samples_held

    def counted(checkpoint, job_of, end=None):  # type: ignore[no-untyped-def]
        readings.append(str(checkpoint))
        return read_once(checkpoint, job_of, end)

    monkeypatch.setattr(solver.checkpoint, "samples_held", counted)
    assert run() == first
    assert readings == [str(path)]


def test_the_best_single_card_says_the_cards_it_ties_with() -> None:
    """Seat 3 to move in the first Zwanzigerrufen example: SG and CQ are equal on the exact figures over the samples
    (payment, win and card points), so the headline's "best single card" says that another does as well rather
    than crowning the first in pack order (SG, spades before clubs: the pack's order, not the names'); CN, a
    twentieth of a card point behind, is not tied, though the table's one decimal shows it alike, which the
    headline's "exact figures" says."""
    position = next(solver.read_positions(Path(__file__).parent.parent / "examples" / "zwanzigerrufen.tbn"))
    analysis = analyse_position(position, 3, samples=20, workers=1)
    figures = [(o.card, o.mean_score, o.win_probability, o.mean) for o in analysis.openings]
    assert figures[:3] == [("SG", -1.95, 0.0, 16.9), ("CQ", -1.95, 0.0, 16.9), ("CN", -1.95, 0.0, 16.85)]
    line = next(line for line in report_text(analysis.as_dict()).splitlines() if line.startswith("best single"))
    assert line.startswith("best single card to play now over all samples, tied on the exact figures with 1 other "
                           "(the table below): ♠G, mean payment -1.95"), line


def test_the_mean_tricks_interval_stays_within_what_a_seat_can_take():
    """A seat takes 0 to 4 tricks in Kratzen, so its mean's interval is kept within 0 to 4: Student's t is symmetric
    about the mean, so a mean near a bound (seat 2 of the six-seat example, a strong attacker) would reach past it
    ("-0.0", above 4), a number of tricks no seat can take."""
    position = next(p for p in solver.read_positions(Path(__file__).parent.parent / "examples" / "kratzen.tbn")
                    if p.record.get("Board") == "5")
    weak = analyse_position(position, 2, samples=30, seed=1, workers=1)
    assert 0 < weak.mean < 0.1 and weak.interval[0] == 0.0 < weak.interval[1]
    assert "(95%: 0.0 to 0.1)" in report_text(weak.as_dict())
    strong = analyse_hand("kratzen", "HA S6 HO EA", 1, "Trump H", seats=4, samples=30, seed=1, workers=1)
    assert 3.9 < strong.mean < 4 and strong.interval[0] < strong.mean and strong.interval[1] == 4.0


def test_a_rufer_sample_is_redrawn_where_the_call_could_not_have_been_made():
    """A sampled Schafkopf match redraws many shuffles of a Rufer from a defender's seat (here 190 for 100 samples):
    each that gives the caller the called ace, or no plain card of its suit, is refused, since he could not have
    called it. That is the call's information, and rejection keeps every deal the call allows equally likely."""
    from collections import Counter

    from solver.generate import random_position
    from solver.sampling import _draw

    position = random_position("schafkopf", 1, 4)  # Rufer E, declarer 1
    assert str(position.rules.contract) == "Rufer E"
    setup = position_setup(position, 3, seed=1)
    refusals: Counter[str] = Counter()
    drawn = [_draw(setup, k, 1000, refusals) for k in range(100)]
    assert set(refusals) == {"the caller (seat 1) holds the called ace EA",
                             "the caller (seat 1) holds no plain E card: that ace cannot be called"}
    assert refusals.total() == 190
    ace = position.pack.parse("EA").index
    plain = [position.pack.parse(token).index for token in "EZ EK E9 E8 E7".split()]
    for sample in drawn:
        assert sample is not None
        rules, _ = sample
        caller = rules.deal.hands[0]
        assert not caller >> ace & 1 and any(caller >> card & 1 for card in plain)


def test_the_mean_tricks_interval_of_four_samples_is_cut_at_no_trick():
    """At n = 4 Student's t is 3.18: the Muss of example 3, where the attacker takes 2 tricks in one sample of four
    and none in the others (mean 0.5), has a t interval from -1.09, below the no trick any seat can take; the
    analysis cuts it there and keeps its upper end."""
    position = next(p for p in solver.read_positions(Path(__file__).parent.parent / "examples" / "kratzen.tbn")
                    if p.record.get("Board") == "3")
    analysis = analyse_position(position, 1, samples=4, seed=2, workers=1)
    mean, low, high = mean_interval(4, 2, 4)  # the tricks 2, 0, 0, 0: their sum and sum of squares
    assert (analysis.mean, mean) == (0.5, 0.5) and low < -1 and analysis.interval == (0.0, high)
    assert "mean tricks 0.5 (95%: 0.0 to 2.1)" in report_text(analysis.as_dict())


def test_a_setup_reads_in_the_caller_s_words() -> None:
    """A bot author prints the setup ``position_setup`` gave him: it names the seat he passed (1-based, where the field
    holds the engine's 0-based seat beside a 1-based declarer) and the cards by name, not as masks and pack indices.
    A setup of no game, or with a card its pack has not, shows its fields as they are."""
    from solver.generate import random_position

    rufer = random_position("schafkopf", 1, 1).play_cards("EZ EA")
    setup = position_setup(rufer, 3, seed=1)
    assert setup.seat == 2 and repr(setup) == (
        "<Setup Schafkopf Rufer E, declarer 1, 4 seats, seed 1: sampled for seat 3; known: seat 1 EZ, seat 2 EA, "
        "seat 3 EO E9 GA GO GU G9 HK SK; played EZ EA>")
    kratzen = position_setup(random_position("kratzen", 1, 1, seats=3), 2, seed=1)
    assert repr(kratzen) == ("<Setup Kratzen Trump S, declarer 1, 3 seats, seed 1: sampled for seat 2; "
                             "known: seat 2 EU G7 H9 SU>")
    import dataclasses

    nope = dataclasses.replace(kratzen, game="Nope")
    assert repr(nope).startswith("Setup(game='Nope', seats=3, fixed=(") and repr(nope).endswith("pot=None)")
    beyond = dataclasses.replace(kratzen, played=(99,))  # no card of the pack
    assert repr(beyond).startswith("Setup(game='Kratzen', seats=3, fixed=(") and "played=(99,)" in repr(beyond)
