"""Wrong arguments to the public functions: each is refused with a StichError (a ValueError) that names the argument,
before anything is solved, written or left half done.

The cases call every public function with the values a library user gets wrong: None or a string where a
Position is expected, floats and bools for seats, out-of-range seats in rule state, a value that is not the
position's, an output file that is the input file. Unchecked, they raise AttributeError or IndexError, are silently
accepted, or (a float tree depth) never return.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import solver
import solver.search.settle
from solver import (EngineSolver, IllegalPlayError, InvalidContractError, InvalidDealError, InvalidPositionError,
                    StichError, make_position)
from solver.errors import ContractFormError, ForeignObjective, UnknownContractError, check_callback
from solver.search.settle import SettlementEngine

ROOT = Path(__file__).resolve().parents[1]
VALAT = ROOT / "examples" / "valat.tbn"
KRATZEN = ROOT / "examples" / "kratzen.tbn"

RUFER_ENDING = "1: G7 E7 / G8 E8 / G9 E9 / GK EK"
ZR_ENDING = "1: TS SK / T21 SQ / T4 SN / T1 SJ"


@pytest.fixture(scope="module")
def valat():
    return next(solver.read_positions(VALAT))


@pytest.fixture(scope="module")
def kratzen():
    return next(solver.read_positions(KRATZEN))


POSITION_FUNCTIONS = [
    ("solve", lambda p: solver.solve(p, "points")),
    ("perft", lambda p: solver.perft(p, 1)),
    ("check_bonuses", lambda p: solver.check_bonuses(p)),
    ("check_report", lambda p: solver.check_report(p)),
    ("solve_report", lambda p: solver.solve_report(p)),
    ("table_report", lambda p: solver.table_report(p)),
    ("dd_settlement", lambda p: solver.dd_settlement(p)),
    ("score_deal", lambda p: solver.score_deal(p)),
    ("analyse_play", lambda p: solver.analyse_play(p)),
    ("strategy_tree", lambda p: solver.strategy_tree(p, 1)),
    ("analyse_position", lambda p: solver.analyse_position(p, 1, samples=1)),
]


@pytest.mark.parametrize("call", [c for _, c in POSITION_FUNCTIONS], ids=[n for n, _ in POSITION_FUNCTIONS])
@pytest.mark.parametrize("value", [None, "examples/valat.tbn", 5])
def test_a_position_argument_that_is_no_position_is_named(call, value):
    with pytest.raises(InvalidPositionError, match="position must be a Position"):
        call(value)


def test_contract_table_of_neither_position_nor_deal():
    with pytest.raises(InvalidDealError, match="Position or a Deal, not str"):
        solver.contract_table("abc", game="zr")


@pytest.mark.parametrize("call", [
    lambda p: solver.solve(p, "points", engine="x"),
    lambda p: solver.check_bonuses(p, engine="x"),
    lambda p: solver.analyse_play(p, engine="x"),
    lambda p: solver.strategy_tree(p, 1, engine="x"),
    lambda p: solver.dd_settlement(p, points_engine="x"),
])
def test_an_engine_argument_of_the_wrong_type_is_named(valat, call):
    with pytest.raises(InvalidPositionError, match="engine must be an EngineSolver, not str"):
        call(valat)


def test_dd_settlement_refuses_a_settlement_engine_of_the_wrong_type(valat):
    with pytest.raises(InvalidPositionError, match="engine must be a SettlementEngine"):
        solver.dd_settlement(valat, engine=EngineSolver(1))


@pytest.mark.parametrize("call, message", [
    (lambda p: solver.solve(p, "points", cards="yes"), "cards must be True or False, not 'yes'"),
    (lambda p: solver.solve(p, "points", line=2), "line must be True or False, not 2"),
    (lambda p: solver.solve(p, "points", reference_solver="x"), "reference_solver must be True, False or None"),
    (lambda p: solver.perft(p, 1, reference_solver=1), "reference_solver must be True, False or None, not 1"),
    (lambda p: solver.check_bonuses(p, reference_solver="no"), "reference_solver must be True, False or None"),
    (lambda p: solver.dd_settlement(p, reference_solver=1), "reference_solver must be True, False or None, not 1"),
])
def test_a_switch_is_true_or_false_not_anything_truthy(valat, call, message):
    # "yes", 2 or "no" must not pass as true: "no" would ask for the reference solver
    with pytest.raises(InvalidPositionError, match=message):
        call(valat)


@pytest.mark.parametrize("call", [lambda p: solver.dd_settlement(p, pot=3), lambda p: solver.score_deal(p, pot=3)])
def test_a_pot_is_refused_where_the_game_has_none(valat, call):
    with pytest.raises(StichError, match="a pot belongs to Kratzen's scoring; Zwanzigerrufen has none"):
        call(valat)


def test_deal_text_and_plot_arguments_of_the_wrong_type_are_named(tmp_path):
    from solver.deal import Deal
    from solver.plot import write_plot

    with pytest.raises(InvalidDealError, match="a deal is text"):
        Deal.from_text(solver.get_game("zr").pack, None)
    with pytest.raises(StichError, match="the plot is of a PlayAnalysis"):
        write_plot(None, tmp_path / "plot.svg")
    assert not (tmp_path / "plot.svg").exists()


@pytest.mark.parametrize("depth", [1.5, -1, "2", None, True])
def test_strategy_tree_depth_is_a_whole_number(valat, depth):
    # 1.5 passes a "depth < 0" check and never reaches depth 0: the whole game tree would be built
    with pytest.raises(InvalidPositionError, match="tree depth"):
        solver.strategy_tree(valat, depth)


@pytest.mark.parametrize("state_change, message", [
    (dict(leader=7), "the leader must be from 0 to 3"),
    (dict(trick=(999,)), "a card on the table must be from 0"),
    (dict(hands=(1 << 70, 0, 0, 0)), "hand 1 must be from 0"),
    (dict(hands=(1, 1, 2, 4)), "which it was not dealt"),
])
@pytest.mark.parametrize("reference_solver", [False, True])
def test_dd_settlement_checks_the_state_like_solve(valat, state_change, message, reference_solver):
    import dataclasses

    broken = dataclasses.replace(valat, state=dataclasses.replace(valat.state, **state_change))
    with pytest.raises(InvalidPositionError, match=message):
        solver.dd_settlement(broken, reference_solver=reference_solver)
    with pytest.raises(InvalidPositionError, match=message):
        SettlementEngine(1).value(broken.state, solver.settlement.payoff_spec(valat))


@pytest.mark.parametrize("game, deal, contract, tags, message", [
    ("Schafkopf", RUFER_ENDING, "Rufer G", dict(partner=9), "partner seat 9 is not a seat"),
    ("Schafkopf", RUFER_ENDING, "Rufer G", dict(partner=-3), "partner seat -3 is not a seat"),
    ("Schafkopf", RUFER_ENDING, "Rufer G", dict(partner=2.5), "partner must be a seat number"),
    ("Zwanzigerrufen", ZR_ENDING, "Solo", dict(pagat_announcer=9), "pagat_announcer seat 9 is not a seat"),
    ("Zwanzigerrufen", ZR_ENDING, "Solo", dict(pagat_announcer="x"), "pagat_announcer must be a seat number"),
    ("Zwanzigerrufen", ZR_ENDING, "Solo", dict(declarer=1.5), "declarer must be a seat number"),
    ("Zwanzigerrufen", ZR_ENDING, "Solo", dict(declarer=True), "declarer must be a seat number"),
    ("Zwanzigerrufen", ZR_ENDING, "Solo", dict(leader=1.5), "leader must be a seat number"),
    ("Schafkopf", RUFER_ENDING, "Rufer G", dict(partnr=2), "unknown rule state 'partnr'"),
    ("Schafkopf", RUFER_ENDING, "Rufer G", dict(called_suit_led="maybe"), "called_suit_led must be True or False"),
])
def test_rule_state_keywords_are_checked(game, deal, contract, tags, message):
    with pytest.raises(InvalidContractError, match=message):
        make_position(game, deal, contract, **tags)


def test_rule_state_keywords_in_range_still_work():
    position = make_position("Schafkopf", RUFER_ENDING, "Rufer G", partner=2)
    assert position.rules.declaring_side == frozenset({0, 1})
    position = make_position("Zwanzigerrufen", ZR_ENDING, "Solo", pagat_announcer=4,
                             variant={"hard_pagat_reservation": True})
    assert position.rules.pagat_announcer == 3


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(deal=None), InvalidDealError, "a deal is text"),
    (dict(deal=5), InvalidDealError, "a deal is text"),
    (dict(deal=[1, 2, 4, 8]), InvalidDealError, "a deal is text"),
    (dict(contract=None), InvalidContractError, "a contract is text"),
    (dict(contract=5), InvalidContractError, "a contract is text"),
    (dict(play=[5.5]), StichError, "play is card tokens"),  # a pack index (an int) is a card, as play() takes it
    (dict(variant=5), StichError, "a variant is a mapping"),
])
def test_make_position_argument_types(kwargs, error, message):
    arguments = dict(game="Zwanzigerrufen", deal=ZR_ENDING, contract="Solo")
    arguments.update(kwargs)
    with pytest.raises(error, match=message):
        make_position(**arguments)


def test_make_position_takes_hands_as_lists_and_variant_as_text():
    position = make_position("Zwanzigerrufen", [["TS", "SK"], "T21 SQ", ("T4", "SN"), "T1 SJ"], "Solo",
                             variant="hard_pagat_reservation=true")
    assert position.rules.variant["hard_pagat_reservation"] is True
    assert set(position.rules.deal.hand_names(0)) == {"SK", "TS"}
    assert set(position.rules.deal.hand_names(2)) == {"T4", "SN"}


@pytest.mark.parametrize("seat", [5, 0, -1, 1.5, True, "1"])
def test_solve_seat_out_of_range_or_not_a_number(valat, seat):
    with pytest.raises(InvalidContractError, match="is not a seat"):
        solver.solve(valat, "points", seat=seat)


def test_solve_objective_must_be_a_name(valat):
    with pytest.raises(InvalidContractError, match="an objective is named by text"):
        solver.solve(valat, None)


@pytest.mark.parametrize("wrong", [9999, 0, -5])
def test_a_line_for_a_value_that_is_not_the_positions_is_the_callers_mistake(valat, wrong):
    engine = EngineSolver(8)
    objective = valat.objective("points")
    exact = engine.value(valat.state, objective)
    assert exact not in (9999, 0, -5)
    with pytest.raises(InvalidPositionError, match=f"the value {wrong} is not this position's: .* is {exact}"):
        engine.line(valat.state, objective, wrong)
    assert len(engine.line(valat.state, objective, exact)) == valat.state.hands[valat.state.to_move].bit_count() * 4


@pytest.mark.parametrize("options, message", [
    (dict(tt_megabytes=0), "tt_megabytes must be from 1 to 4096"),
    (dict(tt_megabytes=10**12), "tt_megabytes must be from 1 to 4096"),
    (dict(tt_megabytes=True), "tt_megabytes must be a whole number"),
    (dict(tt_megabytes="64"), "tt_megabytes must be a whole number"),
    (dict(driver="fast"), "driver must be one of mtdf, bisect, window"),
    (dict(use_table=1), "use_table must be True or False"),
])
def test_engine_options_are_checked(options, message):
    with pytest.raises(InvalidPositionError, match=message):
        EngineSolver(**options)


@pytest.mark.parametrize("size", [0, "x", 10**12])
def test_settlement_engine_table_size_is_checked(size):
    with pytest.raises(InvalidPositionError, match="tt_megabytes"):
        SettlementEngine(size)


@pytest.mark.parametrize("source", [None, 3.5, b"[Game \"zr\"]", ["x"]])
def test_reading_from_something_that_is_no_file(source):
    with pytest.raises(StichError, match="read from a path or an open stream"):
        list(solver.read_positions(source))
    with pytest.raises(StichError, match="read from a path or an open stream"):
        list(solver.iter_positions(source))


def test_parse_positions_needs_a_string():
    with pytest.raises(StichError, match="parsed from a string, not NoneType"):
        solver.parse_positions(None)


def test_variant_as_text_in_parse_positions():
    text = VALAT.read_text(encoding="utf-8")
    position = solver.parse_positions(text, variant="tie_44=no_score")[0]
    assert position.rules.variant["tie_44"] == "no_score"


def test_solve_report_takes_one_objective_name_as_a_string(valat):
    document = solver.solve_report(valat, "points")
    assert [answer["objective"] for answer in document["results"]] == ["points"]


def test_batch_refuses_to_write_into_its_own_input(tmp_path):
    source = tmp_path / "deals.tbn"
    source.write_text(KRATZEN.read_text(encoding="utf-8"), encoding="utf-8")
    before = source.read_bytes()
    with pytest.raises(StichError, match="would be appended to the deal file being read"):
        solver.solve_batch(source, source, workers=1)
    with pytest.raises(StichError, match="would be appended to the deal file being read"):
        solver.solve_batch(source, tmp_path / "." / "deals.tbn", workers=1)
    assert source.read_bytes() == before


def test_batch_argument_types(tmp_path):
    with pytest.raises(StichError, match="chunk_size must be a whole number"):
        solver.solve_batch(KRATZEN, tmp_path / "out.jsonl", chunk_size=1.5)
    with pytest.raises(StichError, match="source must be a file path"):
        solver.solve_batch(None, tmp_path / "out.jsonl")


def test_batch_takes_one_objective_name_as_a_string(tmp_path):
    out = tmp_path / "out.jsonl"
    summary = solver.solve_batch(KRATZEN, out, objectives="tricks", workers=1)
    assert summary.errors == 0 and summary.solved >= 1
    assert '"error"' not in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("kwargs, message", [
    (dict(board=1.5), "board must be a whole number"),
    (dict(board=0), "board must be a whole number, at least 1"),
    (dict(seed="x"), "seed must be a whole number"),
    (dict(declarer=9), "declarer must be a seat from 1 to 4"),
    (dict(contract=5), "a contract is text"),
    (dict(seats=2), "played by 4 seats, not 2"),
])
def test_random_record_arguments(kwargs, message):
    arguments = dict(game="Zwanzigerrufen", seed=1, board=1)
    arguments.update(kwargs)
    with pytest.raises(StichError, match=message):
        solver.random_record(**arguments)


def test_a_negative_seed_is_a_seed():
    assert solver.random_record("Kratzen", -1, 1).get("Seed") == "-1"


def test_random_records_count_is_not_negative():
    with pytest.raises(StichError, match="count must be a whole number, at least 0"):
        list(solver.random_records("Kratzen", 1, -1))


@pytest.mark.parametrize("kwargs, message", [
    (dict(hand=None), "hand is card tokens"),
    (dict(seat="1"), "seat '1' is not a seat"),
    (dict(declarer=9), "declarer 9 is not a seat"),
    (dict(seats=9), "played by 4 seats, not 9"),
    (dict(contract=None), "a contract is text"),
    (dict(known="x"), "known cards are a mapping"),
    (dict(known={2: 5}), "the known cards of seat 2 is card tokens"),
    (dict(known={2: ""}), "names no cards of seat 2"),
    (dict(variant="nonsense=1"), "unknown variant flag 'nonsense'"),
])
def test_analyse_hand_arguments_fail_before_any_sample(kwargs, message):
    arguments = dict(game="Schafkopf", hand="EU E8 E7 GK GO HA H9 SU", seat=1, contract="Rufer E", samples=1)
    arguments.update(kwargs)
    with pytest.raises(StichError, match=message):
        solver.analyse_hand(**arguments)


def test_analyse_hand_takes_the_hand_as_a_list():
    result = solver.analyse_hand("Schafkopf", ["EU", "E8", "E7", "GK", "GO", "HA", "H9", "SU"], 1, "Rufer E",
                                 samples=2, seed=1, workers=1)
    assert result.samples == 2


@pytest.mark.parametrize("pot", [1.5, "x", True])
def test_the_pot_is_a_whole_number(kratzen, pot):
    with pytest.raises(StichError, match="the pot is a whole number of chips"):
        solver.dd_settlement(kratzen, pot=pot)


ZR_CHOICES = ("(for Zwanzigerrufen Normal T20 choose from: points, game, absolut, absolut_against, valat, "
              "valat_against, pagat_ultimo, pagat_beaten, mondfang; solve and tree also take 'score')")


@pytest.mark.parametrize("objective, seat, message", [
    ("tricks", 0, f"objective 'tricks' belongs to Kratzen, not to Zwanzigerrufen {ZR_CHOICES}"),
    (" Tricks ", 9, f"objective 'tricks' belongs to Kratzen, not to Zwanzigerrufen {ZR_CHOICES}"),
    ("bogus", 0, f"unknown objective 'bogus' {ZR_CHOICES}"),
    ("points", 0, "seat 0 is not a seat of this 4-seat deal"),  # an objective of the deal: its seat is what is wrong
    ("pagat_ultimo", 7, "seat 7 is not a seat of this 4-seat deal"),
])
def test_an_objective_of_no_use_is_said_before_a_bad_seat(objective, seat, message):
    """``solve(p, "tricks", seat=0)`` on a Zwanzigerrufen deal said the seat was wrong, and only with a good seat
    that ``tricks`` is a Kratzen objective, which no seat mends: the objective is checked first."""
    position = next(solver.read_positions(ROOT / "examples" / "zwanzigerrufen.tbn"))
    with pytest.raises(StichError) as refused:
        solver.solve(position, objective, seat=seat)
    assert str(refused.value) == message


def test_a_seat_of_no_kratzen_deal_is_said_for_its_own_objective(kratzen):
    """Kratzen's ``tricks`` is a seat's own: asked of a seat the deal has not, the seat is what is wrong, and
    Schafkopf's ``points`` is said to be another game's first."""
    with pytest.raises(StichError) as refused:
        solver.solve(kratzen, "tricks", seat=4)
    assert str(refused.value) == "seat 4 is not a seat of this 3-seat deal"
    with pytest.raises(StichError) as refused:
        solver.solve(kratzen, "points", seat=0)
    assert str(refused.value).startswith("objective 'points' belongs to Schafkopf and Zwanzigerrufen, not to Kratzen")


def test_announcements_of_the_wrong_type_or_seat(valat):
    with pytest.raises(StichError, match="seat 9 is not a seat of this 4-seat deal"):
        solver.dd_settlement(valat, announcements="9: Kontra")
    with pytest.raises(StichError, match="announcements are the"):
        solver.dd_settlement(valat, announcements=["2: Kontra"])


@pytest.mark.parametrize("card, message", [(None, "a card to play is"), (1.5, "a card to play is"),
                                           (-1, "not a card of the"), (40, "not a card of the"),
                                           ("ZZ", "not a card")])
def test_play_state_play_refuses_what_is_no_card(valat, card, message):
    with pytest.raises(StichError, match=message):
        valat.state.play(card)


def test_play_state_play_takes_a_token_or_a_card(valat):
    state = valat.state
    card = next(iter(solver.CardSet(valat.pack, state.legal_cards())))
    assert state.play(card.name) == state.play(card.index) == state.play(card)


@pytest.mark.parametrize("mask", [-1, 1 << 70, True])
def test_card_set_masks_belong_to_the_pack(valat, mask):
    with pytest.raises(StichError, match="is not a set of the Zwanzigerrufen pack"):
        solver.CardSet(valat.pack, mask)


def test_the_rules_asked_for_the_score_say_where_it_is_answered():
    """The message of an objective a contract lacks names the score apart (solve takes it); the rules themselves,
    asked for 'score', say that solve answers it, not "unknown objective 'score' (choose from: score, tricks)"."""
    position = make_position("kratzen", "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK", "Trump S")
    with pytest.raises(InvalidContractError, match=r"the score is the settlement that solve searches .*not an "
                                                   r"objective of the rules \(for Kratzen Trump S: tricks\)"):
        position.objective("score")
    # nor is the score offered among the choices of a name they lack (not "choose from: score, tricks")
    with pytest.raises(InvalidContractError, match=r"choose from: tricks; solve and tree also take 'score'\)"):
        position.objective("valat")
    assert solver.solve(position, "score").total == 0


@pytest.mark.parametrize("game", solver.GAMES, ids=lambda g: g.name)
def test_every_objective_a_contract_answers_is_in_its_games_list(game):
    # Game.objectives tells a typo ("unknown objective") from a name that does not apply to this contract
    seen: set[str] = set()
    for board in range(1, 6):
        position = solver.position_from_record(solver.random_record(game, 3, board))
        for contract, declarer in game.contracts(position.rules.deal):
            try:
                other = make_position(game, position.rules.deal, str(contract), declarer=declarer)
            except InvalidContractError:
                continue
            seen |= set(other.rules.objective_names())
    assert seen == set(game.objectives)


def test_a_history_that_is_no_list_of_tricks_is_refused(valat):
    import dataclasses

    broken = dataclasses.replace(valat, state=dataclasses.replace(valat.state, history=(5,)))
    with pytest.raises(InvalidPositionError, match="history must hold completed tricks"):
        solver.solve(broken)


def test_a_fresh_engine_checks_a_none_state():
    # the engine skips checking the state it checked last: a fresh one must not take None for "already checked"
    with pytest.raises(InvalidPositionError, match="expected a PlayState, not NoneType"):
        EngineSolver(1).solve(None, None)


def test_an_engine_given_a_position_or_an_objective_name_says_what_to_pass():
    """A bot author's first call, ``engine.solve(position, "points")``, is told where to find what the engine's methods
    take (the engine's view), not only "expected a PlayState, not Position"."""
    position = next(solver.read_positions(VALAT))
    with pytest.raises(InvalidPositionError, match=r"expected a PlayState \(a Position's is position.state\), "
                                                   r"not Position"):
        EngineSolver(1).solve(position, position.objective("points"))
    with pytest.raises(InvalidPositionError, match=r"expected an Objective \(by name: position.objective\('points'\)"
                                                   r"\), not str"):
        EngineSolver(1).solve(position.state, "points")


def test_position_from_record_needs_a_record():
    with pytest.raises(StichError, match="expected a Record"):
        solver.position_from_record(None)


# --- positions, card sets, contracts and engine questions -----------------------------------------------------------


@pytest.fixture(scope="module")
def schafkopf():
    return next(solver.read_positions(ROOT / "examples" / "schafkopf.tbn"))


def test_a_leader_is_for_endings_only():
    deal = "1: EA G7 HA HK / E7 HU HZ S9 / E9 SO SZ S7"
    with pytest.raises(InvalidContractError, match="a leader is for endings"):
        make_position("Kratzen", deal, "Trump H", leader=2)
    whole = solver.position_from_record(solver.random_record("zr", 1, 1))
    with pytest.raises(InvalidContractError, match="a leader is for endings"):
        make_position("zr", whole.rules.deal, str(whole.rules.contract), leader=3)
    assert make_position("Schafkopf", RUFER_ENDING, "Rufer E", partner=2, leader=2).state.leader == 1


def test_a_position_whose_parts_do_not_belong_together_is_refused(valat, schafkopf):
    import dataclasses
    for mixed in (solver.Position(valat.game, schafkopf.rules, valat.state),
                  dataclasses.replace(valat, state=schafkopf.state),
                  solver.Position(schafkopf.game, valat.rules, valat.state)):
        with pytest.raises(InvalidPositionError, match="different deals or games"):
            solver.solve(mixed)
    with pytest.raises(InvalidPositionError, match="must hold Rules and a PlayState"):
        solver.solve(solver.Position(valat.game, None, valat.state))
    with pytest.raises(dataclasses.FrozenInstanceError):
        valat.state = schafkopf.state  # type: ignore[misc]
    assert hash(valat) == hash(dataclasses.replace(valat)) and valat == dataclasses.replace(valat, record=None)


def test_a_positions_rules_are_immutable(valat):
    """A position is immutable, and so are its rules: ``position.rules.declarer = 2`` is refused, since it would leave
    the cached hash and the engine's compiled tables of the old rules, and every answer after it would be for rules that
    are not."""
    import dataclasses
    import pickle
    rules, before = valat.rules, solver.solve(valat).total
    for name, value in (("declarer", 2), ("contract", valat.rules.contract), ("declaring_side", frozenset({0, 1})),
                        ("new_attribute", 1)):
        with pytest.raises(dataclasses.FrozenInstanceError, match="rules are immutable"):
            setattr(rules, name, value)
    with pytest.raises(dataclasses.FrozenInstanceError, match="rules are immutable"):
        del rules.declarer
    assert rules.declarer == 0 and solver.solve(valat).total == before
    sent = pickle.loads(pickle.dumps(rules))  # a worker's copy: equal, and frozen too
    assert sent == rules and hash(sent) == hash(rules)
    with pytest.raises(dataclasses.FrozenInstanceError):
        sent.declarer = 2
    made = solver.get_game("sk").rules(RUFER_ENDING, "Rufer E", partner=2)  # made in Python: frozen as read ones
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.state_tags = {}


def test_a_state_whose_history_does_not_lead_to_it_is_refused(valat):
    import dataclasses
    state = valat.state
    assert len(state.history) == 5
    cases = [(dict(leader=3), "leader is not what its history leads to"),
             (dict(history=(solver.Trick(0, (0, 1, 2, 3), 0),) * 50), "trick 1 of the history breaks the rules"),
             (dict(points=(10**30, 0, 0, 0)), "points are not what its history leads to"),
             (dict(history=state.history[:-1]), "not what its history leads to"),
             (dict(history=state.history[:-1] + (dataclasses.replace(state.history[-1], winner=2),)),
              "trick 5 of the history is won by seat 1, not seat 3")]
    for change, message in cases:
        broken = dataclasses.replace(valat, state=dataclasses.replace(state, **change))
        with pytest.raises(InvalidPositionError, match=message):
            solver.solve(broken)
        with pytest.raises(InvalidPositionError, match=message):
            EngineSolver(1).value(broken.state, valat.objective("points"))
    assert solver.solve(valat).total == solver.solve(valat, reference_solver=False).total


def test_card_sets_and_cards_of_another_pack(valat, schafkopf):
    hand = solver.CardSet(valat.pack, valat.state.hands[valat.state.to_move])
    values = solver.solve(valat, cards=True).card_values
    assert values and all(value.card in hand for value in values)  # results give cards as indices
    assert all(valat.pack[value.card] in hand and valat.pack[value.card].name in hand for value in values)
    foreign = schafkopf.pack[values[0].card]
    assert foreign not in hand and -1 not in hand and 99 not in hand
    with pytest.raises(solver.UnknownCardError, match="does not combine"):
        hand | solver.CardSet(schafkopf.pack, 1)
    with pytest.raises(TypeError):
        hand | 3  # type: ignore[operator]
    with pytest.raises(solver.IllegalPlayError, match="E9 is a card of the Schafkopf pack, not of the Zwanzigerrufen"):
        valat.state.play(foreign)
    with pytest.raises(solver.UnknownCardError, match="a card set's pack"):
        solver.CardSet(None, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("call, error, message", [
    (lambda: solver.Deal(None, (1,)), InvalidDealError, "a deal's pack"),
    (lambda: solver.Deal.from_text(None, "1: EA"), InvalidDealError, "a deal's pack"),
    (lambda: solver.Deal(solver.Schafkopf.pack, 5), InvalidDealError, "a deal's hands are a tuple"),
    (lambda: solver.Schafkopf.parse_contract(3), InvalidContractError, "a contract is text"),
    (lambda: solver.Schafkopf.rules(None, "Wenz"), InvalidDealError, "a deal is text"),
    (lambda: solver.Schafkopf.rules(solver.Zwanzigerrufen.parse_deal(ZR_ENDING), "Wenz"), InvalidDealError,
     "of the Zwanzigerrufen pack"),
    (lambda: solver.write_tree(3, "x.graphml"), StichError, "a networkx DiGraph"),
    (lambda: solver.SolveResult(solver.Zwanzigerrufen.rules(ZR_ENDING, "Solo").objective("points"), 0, 0,
                                (solver.CardValue(0, 0),)).card_names(), StichError, "no pack"),
    (lambda: make_position("Kratzen", "1: EA G7 / E7 HU / E9 SO", "Trump H", partner=2), InvalidContractError,
     "partner does not apply to Kratzen"),
    (lambda: make_position("zr", ZR_ENDING, "Solo", called_suit_led=True), InvalidContractError,
     "called_suit_led does not apply"),
    (lambda: make_position("Schafkopf", RUFER_ENDING, "Wenz", partner=2), InvalidContractError,
     "partner does not apply to Schafkopf Wenz"),
])
def test_wrong_arguments_raise_a_stich_error_not_a_type_or_attribute_error(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_deals_stay_hashable_and_rules_say_what_they_are(valat):
    deal = solver.Deal(solver.Schafkopf.pack, [1, 2, 4, 8])
    assert deal.hands == (1, 2, 4, 8) and hash(deal) == hash(solver.Deal(solver.Schafkopf.pack, (1, 2, 4, 8)))
    assert repr(valat.rules) == "<ZwanzigerrufenRules Zwanzigerrufen Solo, declarer 1, 4 seats>"
    rules = solver.Schafkopf.rules(RUFER_ENDING, "Rufer E", partner=2)  # a deal as text, as api.md has it
    assert rules.deal.hand_size == 2


def test_report_and_table_arguments(valat, schafkopf):
    with pytest.raises(InvalidContractError, match="objectives are names"):
        solver.solve_report(valat, 3)  # type: ignore[arg-type]
    with pytest.raises(StichError, match="progress must be a function"):
        solver.contract_table(schafkopf, progress=3)  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError, match="settlement must be True or False"):
        solver.table_report(schafkopf, settlement="yes")  # type: ignore[arg-type]
    with pytest.raises(InvalidDealError, match="a Position has its own game"):
        solver.contract_table(schafkopf, "zr")
    with pytest.raises(InvalidDealError, match="of the Zwanzigerrufen pack, not Schafkopf's"):
        solver.contract_table(valat.rules.deal, "sk")
    with pytest.raises(StichError, match="a pot belongs to Kratzen"):
        solver.contract_table(schafkopf, pot=3)
    with pytest.raises(StichError, match="announcements belong to Zwanzigerrufen"):
        solver.score_deal(schafkopf, announcements="2: Kontra")
    with pytest.raises(StichError, match="announcements belong to Zwanzigerrufen"):
        solver.dd_settlement(schafkopf, announcements="2: Kontra")
    with pytest.raises(InvalidPositionError, match="engine must be an EngineSolver"):
        solver.solve(valat, engine="x", reference_solver=True)  # type: ignore[arg-type]


def test_objective_names_read_like_the_other_names(valat):
    assert solver.solve(valat, " VALAT ").total == solver.solve(valat, "valat").total
    assert solver.solve_report(valat, ["Valat"])["results"][0]["objective"] == "valat"


def test_an_objective_begun_is_suggested_by_the_library_as_on_the_command_line(valat, tmp_path):
    """'pagat' names the two Pagat objectives it begins, not 'valat', spelt alike, in solve as in solve_batch."""
    with pytest.raises(InvalidContractError) as refused:
        solver.solve(valat, "pagat")
    assert "unknown objective 'pagat'; did you mean 'pagat_ultimo' or 'pagat_beaten'? (" in str(refused.value)
    with pytest.raises(StichError) as refused_batch:
        solver.solve_batch(VALAT, tmp_path / "out.jsonl", workers=1, objectives=["pagat"])
    assert "is no game's; did you mean 'pagat_beaten' or 'pagat_ultimo'? (" in str(refused_batch.value)


@pytest.mark.parametrize("arguments, message", [
    (dict(cards="yes"), "cards must be True or False"),
    (dict(objectives=["valt"]), "objective 'valt' is no game's"),
    (dict(objectives=[3]), "objectives are names"),
    (dict(variant={"sagotrik": "on"}), "unknown variant flag 'sagotrik'"),
    (dict(variant={"sagotrick": "maybe"}), "sagotrick='maybe': Zwanzigerrufen: variant flag sagotrick takes"),
])
def test_a_batch_question_no_record_could_answer_is_refused_before_writing(tmp_path, arguments, message):
    out = tmp_path / "out.jsonl"
    with pytest.raises(StichError, match=message):
        solver.solve_batch(KRATZEN, out, workers=1, **arguments)
    assert not out.exists()
    summary = solver.solve_batch(KRATZEN, out, workers=1, objectives=[" Tricks "])
    assert summary.errors == 0 and summary.solved == summary.records > 0
    assert solver.solve_batch(KRATZEN, out, workers=1, objectives=["tricks"]).skipped == summary.records


def test_analysis_chunks_are_made_as_they_are_asked_for():
    from solver.sampling import spans as _spans
    spans = _spans(10_000_000, set(), 10)
    assert next(spans) == (0, 10) and next(spans) == (10, 10)  # no list of ten million numbers first
    assert list(_spans(25, {3, 4, 11}, 5)) == [(0, 3), (5, 5), (10, 1), (12, 5), (17, 5), (22, 3)]


def test_the_package_says_it_is_typed():
    assert (Path(solver.__file__).parent / "py.typed").is_file()  # PEP 561: type checkers read our hints


@pytest.mark.parametrize("contract, expected", [
    (solver.Contract("Schafkopf", "solo"), "is not a Schafkopf contract"),  # no trump suit: 'plain None card'
    (solver.Contract("Schafkopf", "rufer", suit="H", text="Rufer H"), "is not a Schafkopf contract"),
    (solver.Contract("Schafkopf", "bogus"), "is not a Schafkopf contract"),  # not a TypeError
    (solver.Contract("Zwanzigerrufen", "solo", text="Solo"), "is a Zwanzigerrufen contract"),
])
def test_hand_made_contract_is_checked(contract, expected):
    """A Contract built by hand must be one parse_contract gives; one it would not give is refused by name."""
    with pytest.raises(InvalidContractError, match=expected):
        solver.Schafkopf.rules(RUFER_ENDING, contract)


def test_parsed_contracts_pass_the_check():
    """Every contract the games parse reads back from its own text, so the check accepts all of them."""
    spellings = {solver.Zwanzigerrufen: ["Normal", "Normal T17", "Solo", "SuitSolo"],
                 solver.Schafkopf: ["Rufer E", "Solo H", "SoloTout S", "Wenz", "WenzTout", "Sie"],
                 solver.Kratzen: ["Trump E", "Trump G Muss", "Trump H SevenMuss"]}
    for game, texts in spellings.items():
        for text in texts:
            contract = game.parse_contract(text)
            game.check_contract(contract)
            assert solver.Contract(game.name, contract.kind, contract.suit, contract.card, contract.modifier,
                                   contract.text) == contract
    rules = solver.Schafkopf.rules(RUFER_ENDING, solver.Schafkopf.parse_contract("Solo E"))
    assert rules.contract.text == "Solo E"


def test_solo_tout_may_be_two_words():
    """"Solo Tout E" is read as "Wenz Tout" is, not refused as naming no suit."""
    assert solver.Schafkopf.parse_contract("Solo Tout E") == solver.Schafkopf.parse_contract("SoloTout E")
    with pytest.raises(InvalidContractError, match="unknown Schafkopf contract 'Solo Tout E X'"):
        solver.Schafkopf.parse_contract("Solo Tout E X")


@pytest.mark.parametrize("game, text, close", [
    (solver.Zwanzigerrufen, "Soloo", "did you mean 'Solo' or 'SuitSolo'?"),
    (solver.Schafkopf, "Wens", "did you mean 'Wenz'?"), (solver.Schafkopf, "Rufr E", "did you mean 'Rufer E'?"),
    (solver.Schafkopf, "Sollo G", "did you mean 'Solo G' or 'SoloTout G'?"),  # the suit given kept: a whole contract
    (solver.Schafkopf, "Wens G", "did you mean 'Wenz'?"),  # a Wenz names no suit
    (solver.Schafkopf, "Rufr H", "did you mean 'Rufer' with another suit?"),  # hearts cannot be called: not 'Rufer H'
    (solver.Schafkopf, "Sollo", "did you mean 'Solo' or 'SoloTout' with a suit?"),  # no suit given: the names
    (solver.Schafkopf, "Solotot", "did you mean 'SoloTout' or 'Solo' with a suit?"),
    (solver.Kratzen, "Trumpp H", "did you mean 'Trump H'?"),  # the suit given kept: a whole contract
    (solver.Kratzen, "Trumpp H Muss", "did you mean 'Trump H Muss'?"),
    (solver.Kratzen, "Trumpp", None),  # no suit given: 'Trump' alone does not read, the expected form says it
    (solver.Schafkopf, "Solo H X", None), (solver.Kratzen, "Trump", None),  # spelt right: no suggestion
    (solver.Kratzen, "Trumpf", None),  # another spelling the game reads
    # a suit named in words is offered by its letter, the suit first as the suit after
    (solver.Kratzen, "Trumpp Herz Muss", "did you mean 'Trump H Muss'?"),
    (solver.Kratzen, "Rufr Herz", None),  # "Rufr" is no misspelt Trump (difflib's ratio let it pass for "Trumpf")
    (solver.Kratzen, "Herz Rufr", None), (solver.Kratzen, "Trum Herz", "did you mean 'Trump H'?"),
    (solver.Kratzen, "Herz Trumpp", "did you mean 'Trump H'?"),
    (solver.Kratzen, "Blau Trump", None),  # no suit first: no pattern offered as a contract (the test below)
    # the other words a contract is read by ("Rufer" is a Normal, "Schwarzer" a Solo) are matched, naming it
    (solver.Zwanzigerrufen, "Rufr Herz", "did you mean 'Normal'?"),
    (solver.Zwanzigerrufen, "Schwarzr", "did you mean 'Solo'?"),
])
def test_a_misspelt_contract_gets_a_suggestion(game, text, close):
    with pytest.raises(InvalidContractError) as refused:
        game.parse_contract(text)
    message = str(refused.value)
    assert message.startswith(f"unknown {game.name} contract {text!r}") and "(expected " in message
    assert (close in message) if close else "did you mean" not in message


@pytest.mark.parametrize("text, message", [
    ("Sollo", "unknown Schafkopf contract 'Sollo'; did you mean 'Solo' or 'SoloTout' with a suit? "
              "(expected Rufer E|G|S, Wenz, Solo E|G|H|S, WenzTout, SoloTout E|G|H|S, Sie)"),
    ("Rufr H", "unknown Schafkopf contract 'Rufr H'; did you mean 'Rufer' with another suit? (expected Rufer E|G|S, "
               "Wenz, Solo E|G|H|S, WenzTout, SoloTout E|G|H|S, Sie)"),
])
def test_a_misspelt_schafkopf_name_without_a_suit_that_reads_is_offered_by_its_name(text, message):
    """No pattern offered as a contract ('Solo E|G|H|S'): the name, a note on the suit, and the form said once."""
    with pytest.raises(ContractFormError) as refused:
        solver.Schafkopf.parse_contract(text)
    assert str(refused.value) == message


@pytest.mark.parametrize("text", ["Blau Trump", "Blau Trump Muss", "Blau Trumpp"])
def test_a_word_before_trump_that_is_no_suit_is_told_where_the_suit_goes(text):
    """"Blau Trump" names no suit first: the message says where the suit goes, not a pattern as a contract to mean
    ('Trump E|G|H|S', which the expected form says again)."""
    with pytest.raises(InvalidContractError) as refused:
        solver.Kratzen.parse_contract(text)
    assert str(refused.value) == (f"unknown Kratzen contract {text!r}; the suit comes after the contract"
                                  " (expected Trump E|G|H|S [Muss|SevenMuss])")


@pytest.mark.parametrize("text, suit, meant", [("Rufer GA", "G", "Rufer G"), ("Solo Tout HK", "H", "SoloTout H")])
def test_a_suit_named_by_a_card_suggests_the_contract(text, suit, meant):
    """A Rufer written with its called ace, "Rufer GA", is refused with the contract it means."""
    with pytest.raises(InvalidContractError) as refused:
        solver.Schafkopf.parse_contract(text)
    assert str(refused.value) == (f"contract {text!r}: {text.split()[-1]!r} is {suit}: a suit is written as its "
                                  f"letter (E, G, H or S); did you mean {meant!r}?")


@pytest.mark.parametrize("game, text, meant", [
    (solver.Kratzen, "Trump Herz", "Trump H"), (solver.Kratzen, "Trump eichel Muss", "Trump E Muss"),
    (solver.Kratzen, "Trumpf Grün SevenMuss", "Trump G SevenMuss"), (solver.Kratzen, "Trump Schellen", "Trump S"),
    (solver.Kratzen, "Trump Schelln Muss", "Trump S Muss"),
    (solver.Kratzen, "Trump HA", "Trump H"),  # a card of the suit, as Schafkopf reads it
    (solver.Schafkopf, "Solo Herz", "Solo H"), (solver.Schafkopf, "Rufer Laub", "Rufer G"),
    (solver.Schafkopf, "Solo Schelln", "Solo S"), (solver.Schafkopf, "Solo Rot", "Solo H"),
    # the English names the examples' comments use
    (solver.Kratzen, "Trump Bells", "Trump S"), (solver.Kratzen, "Trump acorn Muss", "Trump E Muss"),
    (solver.Schafkopf, "Solo Hearts", "Solo H"), (solver.Schafkopf, "Rufer Leaves", "Rufer G"),
    (solver.Schafkopf, "Solo leaf", "Solo G"),
])
def test_a_suit_named_in_words_suggests_the_contract(game, text, meant):
    """A German player names the suit ("Trump Herz", "Solo Eichel", "Solo Schelln"): refused with the letter the
    word is, as a Rufer's hearts are ('Herz' is H), and the letter's contract."""
    with pytest.raises(InvalidContractError) as refused:
        game.parse_contract(text)
    assert str(refused.value) == (f"contract {text!r}: {text.split()[1]!r} is {meant.split()[1]}: a suit is written "
                                  f"as its letter (E, G, H or S); did you mean {meant!r}?")


@pytest.mark.parametrize("game, text, hint", [
    (solver.Kratzen, "Trump Blau", ""),
    # the Weli, printed S6, is a permanent trump, no bell
    (solver.Kratzen, "Trump Weli", ""), (solver.Kratzen, "Trump S6", ""),
    # a suit's name misspelt, as typed in a hurry
    (solver.Kratzen, "Trumpf Hertz", "; did you mean 'Trump H'?"),
    (solver.Kratzen, "Trump Schellem Muss", "; did you mean 'Trump S Muss'?"),
    (solver.Schafkopf, "Solo Eichl", "; did you mean 'Solo E'?"),
])
def test_a_word_that_is_no_suit_is_said_to_be_none(game, text, hint):
    """A word that names no suit, or misspells a suit's name, is no suit; the contract a misspelt name means is
    suggested."""
    with pytest.raises(InvalidContractError) as refused:
        game.parse_contract(text)
    assert str(refused.value) == f"contract {text!r}: {text.split()[1]!r} is not a suit (E, G, H or S){hint}"


#: What Schafkopf says of a contract it does not know (``.format`` the contract).
UNKNOWN_SCHAFKOPF = ("unknown Schafkopf contract '{}' (expected Rufer E|G|S, Wenz, Solo E|G|H|S, WenzTout, "
                     "SoloTout E|G|H|S, Sie)")
#: The same of a contract with a suit named in words (``.format`` the contract, the word and its suit letter).
UNKNOWN_SCHAFKOPF_SUIT_WORD = UNKNOWN_SCHAFKOPF.replace("'{}'", "'{}' ('{}' is {})")


@pytest.mark.parametrize("game, text, message", [
    # a suit named in words after a contract that takes none: the game's refusal of a contract it does not know, said
    # of the text as given, the suit read in passing (one message, not one quoted inside another)
    (solver.Schafkopf, "Wenz Herz", UNKNOWN_SCHAFKOPF_SUIT_WORD.format("Wenz Herz", "Herz", "H")),
    (solver.Schafkopf, "Wenz GA", UNKNOWN_SCHAFKOPF_SUIT_WORD.format("Wenz GA", "GA", "G")),
    # a misspelt name with a suit in words: the same, its close match suggested with the suit, or a note on it
    (solver.Schafkopf, "Rufr Herz", "unknown Schafkopf contract 'Rufr Herz' ('Herz' is H); did you mean 'Rufer' with "
                                    "another suit? "
                                    "(expected Rufer E|G|S, Wenz, Solo E|G|H|S, WenzTout, SoloTout E|G|H|S, Sie)"),
    (solver.Schafkopf, "Sollo Herz", "unknown Schafkopf contract 'Sollo Herz' ('Herz' is H); did you mean 'Solo H' or "
                                     "'SoloTout H'? (expected Rufer E|G|S, Wenz, Solo E|G|H|S, WenzTout, "
                                     "SoloTout E|G|H|S, Sie)"),
    # a misspelt name whose suggestion takes no suit: the suit not noted, the suggestion not using it
    (solver.Schafkopf, "Farbwenz Herz", "unknown Schafkopf contract 'Farbwenz Herz'; did you mean 'Wenz'? "
                                        "(expected Rufer E|G|S, Wenz, Solo E|G|H|S, WenzTout, SoloTout E|G|H|S, Sie)"),
    (solver.Schafkopf, "Wenzz Herz", "unknown Schafkopf contract 'Wenzz Herz'; did you mean 'Wenz' or 'WenzTout'? "
                                     "(expected Rufer E|G|S, Wenz, Solo E|G|H|S, WenzTout, SoloTout E|G|H|S, Sie)"),
    # another game's contract with a suit in words: unknown, the suit not noted where nothing suggested uses it
    (solver.Schafkopf, "Herz Trump", UNKNOWN_SCHAFKOPF.format("Herz Trump")),
    (solver.Schafkopf, "Trump Herz", UNKNOWN_SCHAFKOPF.format("Trump Herz")),
    (solver.Schafkopf, "Herz Eichel", UNKNOWN_SCHAFKOPF.format("Herz Eichel")),
    (solver.Kratzen, "Trump Eichel Mus",
     "contract 'Trump Eichel Mus': 'Eichel' is E: 'Mus' is not Muss or SevenMuss"),
    # hearts in a Rufer, in words or by a card, refused for the reason 'Rufer H' is
    (solver.Schafkopf, "Rufer Herz", "contract 'Rufer Herz': 'Herz' is H: hearts cannot be called in a Rufer"),
    (solver.Schafkopf, "Rufer HA", "contract 'Rufer HA': 'HA' is H: hearts cannot be called in a Rufer"),
    (solver.Schafkopf, "Herz Rufer", "contract 'Herz Rufer': 'Herz' is H: hearts cannot be called in a Rufer"),
    # the Bavarian order, the suit first: the contract it means, where there is one
    (solver.Schafkopf, "Herz Solo", "contract 'Herz Solo': the suit comes after the contract; did you mean 'Solo H'?"),
    (solver.Schafkopf, "Eichel Rufer",
     "contract 'Eichel Rufer': the suit comes after the contract; did you mean 'Rufer E'?"),
    (solver.Kratzen, "Herz Trump", "contract 'Herz Trump': the suit comes after the contract; did you mean 'Trump H'?"),
    (solver.Kratzen, "Herz Trumpf",
     "contract 'Herz Trumpf': the suit comes after the contract; did you mean 'Trump H'?"),
    (solver.Kratzen, "Eichel Trump Muss",
     "contract 'Eichel Trump Muss': the suit comes after the contract; did you mean 'Trump E Muss'?"),
    # the suit's name misspelt before the contract: the same, the word not taken for the contract's suit
    (solver.Schafkopf, "Hertz Solo",
     "contract 'Hertz Solo': the suit comes after the contract; did you mean 'Solo H'?"),
    (solver.Schafkopf, "Grass Solo",
     "contract 'Grass Solo': the suit comes after the contract; did you mean 'Solo G'?"),
    (solver.Schafkopf, "Hertz Rufer", "contract 'Hertz Rufer': 'Hertz' is not a suit (E, G, H or S)"),
    (solver.Kratzen, "Hertz Trump",
     "contract 'Hertz Trump': the suit comes after the contract; did you mean 'Trump H'?"),
    # a word that is no suit before the contract: that word is what is wrong, not the contract's name
    (solver.Schafkopf, "Blau Solo",
     "contract 'Blau Solo': 'Blau' is not a suit (E, G, H or S); the suit comes after the contract"),
    (solver.Schafkopf, "Gras Wenz", UNKNOWN_SCHAFKOPF_SUIT_WORD.format("Gras Wenz", "Gras", "G")),
    (solver.Schafkopf, "Herz Wenz", UNKNOWN_SCHAFKOPF_SUIT_WORD.format("Herz Wenz", "Herz", "H")),
])
def test_a_suit_word_the_contract_cannot_take_or_placed_first_says_why(game, text, message):
    """A suit named in words or by a card is a suit: where the contract does not take it the message says so (and
    a Rufer's hearts the reason 'Rufer H' is refused), not that the word is no suit; the Bavarian order, the suit
    first ("Herz Solo"), is told the contract it means."""
    with pytest.raises(InvalidContractError) as refused:
        game.parse_contract(text)
    assert str(refused.value) == message


def test_contract_and_objective_errors_survive_a_pickle_round_trip(kratzen):
    """Errors travel back from worker processes (match pool, batch, Dask) pickled: an error built of parts, or with
    required keywords, came back as a TypeError from its ``__init__`` instead of itself."""
    import pickle
    with pytest.raises(UnknownContractError) as unknown:
        solver.Schafkopf.read_contract("Sollo Herz")
    with pytest.raises(ForeignObjective) as foreign:
        solver.solve(kratzen, "schneider")
    for refused in (unknown.value, foreign.value):
        sent = pickle.loads(pickle.dumps(refused))
        assert type(sent) is type(refused) and str(sent) == str(refused) and vars(sent) == vars(refused)
    sent = pickle.loads(pickle.dumps(unknown.value))
    assert (sent.game, sent.text, sent.suggestion, sent.name_known, sent.uses_suit) == (
        "Schafkopf", "Sollo Herz", "; did you mean 'Solo H' or 'SoloTout H'?", False, True)
    assert str(sent).startswith("unknown Schafkopf contract 'Sollo Herz' ('Herz' is H); did you mean 'Solo H'")
    assert pickle.loads(pickle.dumps(foreign.value)).bare == ("objective 'schneider' belongs to Schafkopf, not to "
                                                              "Kratzen (for Kratzen choose from: tricks; solve and "
                                                              "tree also take 'score')")


@pytest.mark.parametrize("seat", ["x", True, 2.5, 0])
def test_tree_seat_is_checked_for_the_default_objective(kratzen, seat):
    """Kratzen's tree falls back to a seat's tricks, so its seat is checked before it is used (else a TypeError)."""
    with pytest.raises(StichError, match="is not a seat"):
        solver.strategy_tree(kratzen, 1, seat=seat)
    assert solver.strategy_tree(kratzen, 1, seat=2).graph["maximiser"] == "2"


def test_a_position_keeps_its_played_cards_in_step_with_its_state(valat):
    import dataclasses

    # a state advanced by dataclasses.replace kept the old played cards: the post-mortem and the analysis from the
    # position read those and silently dropped the new card
    card = valat.rules.pack.names(valat.state.legal_cards())[0]
    stale = dataclasses.replace(valat, state=valat.state.play(card))
    for call in (solver.analyse_play, lambda p: solver.analyse_position(p, 1, samples=1, workers=1), solver.solve):
        with pytest.raises(InvalidPositionError, match="played cards are not its state's play"):
            call(stale)
    with pytest.raises(InvalidPositionError, match="played cards are not its state's play"):
        solver.analyse_play(dataclasses.replace(valat, played=(99,)))
    after = valat.play(card)
    assert after.played == valat.played + (valat.rules.pack.parse(card).index,) and after.state == stale.state
    assert len(solver.analyse_play(after).cards) == len(valat.played) + 1
    assert solver.Position(valat.game, valat.rules, after.state).played == after.played  # filled from the state
    with pytest.raises(StichError):
        valat.play("no such card")


def test_every_engine_method_checks_its_question_first(valat):
    # value_and_cards checks its arguments before it reads state.is_over (None: no AttributeError), and refuses a bad
    # objective on a finished state too; solve refuses cards=1 and line="x"
    engine = EngineSolver(1)
    goal = valat.objective("points")
    state = valat.state
    while not state.is_over:
        state = state.advance(next(iter(solver.cards.bits(state.legal_cards()))))
    for method in (engine.value_and_cards, engine.card_values):
        with pytest.raises(InvalidPositionError, match="expected a PlayState"):
            method(None, goal)
        with pytest.raises(InvalidPositionError, match="expected an Objective"):
            method(state, "x")
    with pytest.raises(InvalidPositionError, match="expected an Objective"):
        engine.line(state, "x", 0)
    for flags in (dict(cards=1), dict(line="x")):
        with pytest.raises(InvalidPositionError, match="must be True or False"):
            engine.solve(valat.state, goal, **flags)
    assert engine.value_and_cards(state, goal) == (0, [])


def test_game_contracts_checks_its_arguments(kratzen):
    deal = kratzen.rules.deal
    for game in (solver.Zwanzigerrufen, solver.Schafkopf, solver.Kratzen):
        with pytest.raises(InvalidDealError, match="the contracts are of a Deal"):
            game.contracts(None)
    with pytest.raises(InvalidDealError, match="not of the Zwanzigerrufen pack"):
        solver.Zwanzigerrufen.contracts(deal)
    with pytest.raises(StichError, match="unknown variant flag"):
        solver.Kratzen.contracts(deal, variant="x=1")
    with pytest.raises(InvalidContractError, match="like is a Contract"):
        solver.Kratzen.contracts(deal, like="x")
    with pytest.raises(InvalidContractError, match="declarer 99 is not a seat"):
        solver.Kratzen.contracts(deal, declarer=99)
    assert len(solver.Kratzen.contracts(deal)) == 4


def test_small_argument_checks(tmp_path):
    with pytest.raises(StichError, match="progress must be a function"):
        solver.solve_batch(KRATZEN, tmp_path / "o.jsonl", workers=1, progress=5)
    with pytest.raises(StichError, match="on_error must be a function"):
        solver.solve_batch(KRATZEN, tmp_path / "o.jsonl", workers=1, on_error=5)
    assert not (tmp_path / "o.jsonl").exists()
    pack = solver.get_game("zr").pack
    with pytest.raises(solver.UnknownCardError, match="a mask of the Zwanzigerrufen pack"):
        pack.names(-1)
    with pytest.raises(StichError, match="a source's name is text"):
        solver.parse_positions("", name=5)


def _seat_calls(valat, kratzen):
    """Every entry point that takes a 1-based seat, each given ``seat``: (name, call)."""
    import solver.advice

    deal = valat.rules.deal.text()
    return [
        ("Position.hand", lambda seat: valat.hand(seat)),
        ("Position.objective", lambda seat: kratzen.objective("tricks", seat)),
        ("solve", lambda seat: solver.solve(kratzen, "tricks", seat=seat)),
        ("strategy_tree", lambda seat: solver.strategy_tree(kratzen, 1, seat=seat)),
        ("make_position declarer", lambda seat: solver.make_position("zr", deal, "Solo", declarer=seat)),
        ("make_position partner", lambda seat: solver.make_position("zr", deal, "Rufer", partner=seat)),
        ("Game.contracts", lambda seat: solver.Zwanzigerrufen.contracts(valat.rules.deal, None, None, seat)),
        ("random_record", lambda seat: solver.random_record("zr", 1, 1, declarer=seat)),
        ("analyse_hand", lambda seat: solver.analyse_hand("zr", "TS T21 T20 T19 T18 T17 T16 SK CK HK", seat, "Solo",
                                                          samples=1)),
        ("analyse_hand known", lambda seat: solver.analyse_hand("zr", "TS T21 T20 T19 T18 T17 T16 SK CK HK", 1, "Solo",
                                                                known={seat: "T15"}, samples=1)),
        ("analyse_position", lambda seat: solver.analyse_position(valat, seat, samples=1)),
        ("card_advice", lambda seat: solver.advice.card_advice(valat, seat, samples=1)),
        ("contract_advice", lambda seat: solver.advice.contract_advice("zr", "TS T21 T20 T19 T18 T17 T16 SK CK HK",
                                                                       seat, "Solo", samples=1)),
        ("announcements", lambda seat: solver.analyse_hand("zr", "TS T21 T20 T19 T18 T17 T16 SK CK HK", 1, "Solo",
                                                           announcements=f"{seat}: Valat", samples=1)),
    ]


@pytest.mark.parametrize("seat", [0, 5, -1, "2", 1.5, True])
def test_a_bad_seat_is_one_error_class_everywhere(valat, kratzen, seat):
    """A seat out of range is an InvalidSeatError everywhere, a StichError and so a ValueError, so that an app has one
    class for "no such seat", and still the class each place raises besides (InvalidPositionError for Position.hand,
    InvalidContractError for an objective or a declarer), so an old except clause keeps working. Card advice refuses the
    text '2' as no seat, not "for the seat to move ... not seat 2"."""
    calls = _seat_calls(valat, kratzen)
    for name, call in calls:
        if name == "announcements" and seat not in (0, 5):
            continue  # an announcement's seat is text read from the tag: "-1:" or "True:" is no seat number at all
        with pytest.raises(solver.InvalidSeatError, match="not a seat|seat number from 1|seat from 1") as caught:
            call(seat)
        assert isinstance(caught.value, ValueError), name
    with pytest.raises(InvalidPositionError):
        valat.hand(5)
    with pytest.raises(InvalidContractError) as caught:
        solver.make_position("zr", valat.rules.deal.text(), "Solo", declarer=5)
    assert caught.value.about == "declarer"
    with pytest.raises(InvalidContractError):
        solver.solve(kratzen, "tricks", seat=9)


def test_advance_is_unchecked_and_the_solvers_refuse_what_it_made(valat):
    """docs/api.md: ``PlayState.advance`` is the searches' unchecked step; a state it made from a card the seat no
    longer holds (T21, played in the second trick) reaches no solver."""
    broken = valat.state.advance(valat.pack.parse("T21").index)
    assert broken.hands[0] == valat.state.hands[0]  # nothing was checked, nothing left the hand
    with pytest.raises(InvalidPositionError, match="do not fit"):
        EngineSolver(1).solve(broken, valat.objective("points"))
    with pytest.raises(IllegalPlayError):
        valat.state.play("T21")


def test_check_bonuses_takes_a_time_limit_and_a_stop_event_as_check_report_does(valat):
    """check_bonuses (what an app calls for the same answer) takes a time limit and a stop event, as check_report and
    solve do."""
    import threading

    with pytest.raises(solver.SearchStopped, match="time_limit=1e-09"):
        solver.check_bonuses(valat, time_limit=1e-9)
    stop = threading.Event()
    stop.set()
    with pytest.raises(solver.SearchStopped):
        solver.check_bonuses(valat, stop=stop)
    assert solver.check_bonuses(valat, time_limit=60, stop=threading.Event()) == solver.check_bonuses(valat)
    with pytest.raises(StichError, match="reference solver"):
        solver.check_bonuses(valat, time_limit=1, reference_solver=True)
    with pytest.raises(InvalidPositionError, match="time_limit must be a number of seconds"):
        solver.check_bonuses(valat, time_limit=-1)


@pytest.mark.parametrize("seat", [4, -1, "1", True])
def test_a_deals_hand_by_a_seat_index_out_of_range_says_so(valat, seat):
    """Deal counts seats from 0 (the engine's view, docs/api.md): 4 and -1 are refused, saying so, not an IndexError
    ('tuple index out of range') and quietly seat 4's hand."""
    with pytest.raises(solver.InvalidSeatError, match="counts seats from 0"):
        valat.rules.deal.hand_names(seat)
    assert valat.rules.deal.hand_names(3)[0] == "T13"
    assert valat.rules.deal.hand_names(np.int64(3))[0] == "T13"  # a numpy seat as elsewhere


def test_every_function_that_draws_at_random_defaults_to_the_commands_seed():
    """The analyses, the advice and the bots draw with every command's default --seed (and play_match's) unless told,
    one constant, so that the same question of the library and of ``stich`` gets one answer."""
    import inspect

    from cli.options import DEFAULT_SEED as COMMAND_SEED
    from solver import advice, bots, match, sampling
    from solver.generate import DEFAULT_SEED

    assert DEFAULT_SEED == COMMAND_SEED == 1
    for function in (sampling.analyse_hand, sampling.analyse_position, advice.contract_advice, advice.card_advice,
                     bots.SamplingBot, bots.RandomBot, bots.make_bot, match.play_match):
        assert inspect.signature(function).parameters["seed"].default == DEFAULT_SEED, function
    hand = dict(game="kratzen", hand="EO E9 SU SZ", seat=1, contract="Trump E", samples=4, workers=1)
    unseeded = sampling.analyse_hand(**hand).as_dict()
    assert unseeded == sampling.analyse_hand(**hand, seed=1).as_dict() and unseeded["seed"] == 1


def test_a_seat_for_the_kratzen_score_is_refused_in_kratzen_words(tmp_path):
    """solve(..., "score", seat=1) and strategy_tree of a Kratzen position are refused in Kratzen's words: its score is
    the attacker's own payment, not "the declaring side's (or the declarer's alone)"."""
    position = solver.make_position("Kratzen", "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK", "Trump S")
    said = "the score is the attacker's own payment (every seat plays for itself) and takes no seat"
    with pytest.raises(StichError, match=re.escape(said)):
        solver.solve(position, "score", seat=1)
    with pytest.raises(StichError, match=re.escape(said)):
        solver.strategy_tree(position, 1, objective="score", seat=2)
    with pytest.raises(StichError, match=re.escape("the declaring side's (or the declarer's alone) and takes no")):
        solver.solve(next(solver.read_positions(VALAT)), "score", seat=1)


def test_make_position_takes_hands_of_cards_as_it_takes_hands_of_tokens(kratzen):
    """A deal as a list of hands takes ``[p.hand(s) for s in ...]`` (CardSets) and lists of Cards, the API's own cards,
    as it takes tokens, as every other argument that takes cards takes Cards too: not refused as 'not a deal'."""
    text = "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"
    by_text = make_position("Kratzen", text, "Trump S")
    hands = [by_text.hand(seat) for seat in (1, 2, 3)]
    assert make_position("Kratzen", hands, "Trump S").state == by_text.state
    assert make_position("Kratzen", [list(hand) for hand in hands], "Trump S").state == by_text.state
    mixed = [["EO", hands[0].pack.parse("E9"), "SU", "SZ"], "GA HA HU S7", tuple(hands[2])]
    assert str(make_position("Kratzen", mixed, "Trump S").hand(1)) == "EO E9 SU SZ"
    schafkopf_hand = make_position("Schafkopf", RUFER_ENDING, "Rufer E", partner=2).hand(3)
    said = "E9 is a card of the Schafkopf pack, not of the Kratzen pack"  # not 'Card(E9) is not a card of ...'
    with pytest.raises(InvalidDealError, match=f"seat 1: {said}"):
        make_position("Kratzen", [schafkopf_hand, hands[1], hands[2]], "Trump S")  # another game's cards
    with pytest.raises(solver.UnknownCardPlayError, match=said):  # not only 'E9 is not a card of the Kratzen pack'
        by_text.play(next(iter(schafkopf_hand)))
    with pytest.raises(InvalidDealError, match="seat 1: EO appears twice$"):  # a Card met a token
        make_position("Kratzen", [["eo", *hands[0]], hands[1], hands[2]], "Trump S")
    with pytest.raises(InvalidDealError, match="seat 2: EO already dealt"):
        make_position("Kratzen", [hands[0], ["EO", "HA", "HU", "S7"], hands[2]], "Trump S")
    with pytest.raises(InvalidDealError, match=r"a list or CardSet of card tokens or Cards\) or a Deal, not \[\[1, 2"):
        make_position("Kratzen", [[1, 2], [3]], "Trump S")


@pytest.mark.parametrize("contracts", [5, [5], ["Trump E", None], {"Trump E"}])
def test_contract_advice_refuses_contracts_that_are_no_texts_by_name(contracts):
    """contract_advice(..., contracts=5) and contracts=[5] are refused with the StichError every other argument of the
    API raises, not a TypeError ('int' object is not iterable) or an AttributeError."""
    from solver.advice import contract_advice

    with pytest.raises(InvalidContractError, match=r"contracts are 'all', contract texts separated by commas, or a "
                                                   r"list of contract texts, not "):
        contract_advice("kratzen", "EO E9 SU SZ", 1, contracts, samples=1, workers=1)


@pytest.mark.parametrize("contracts", [[], "", " , "])
def test_contract_advice_says_contracts_named_none_not_that_the_hand_may_announce_none(contracts):
    """contract_advice(..., contracts=[]) is refused as a list that names no contract, not as "seat 1 may announce no
    Kratzen contract with this hand" of a hand that may announce Trump S."""
    from solver.advice import contract_advice

    with pytest.raises(InvalidContractError, match=r"^contracts names no contract \(.*\): name one or more, or 'all'$"):
        contract_advice("kratzen", "EO E9 SU SZ", 1, contracts, samples=1, workers=1)


def test_the_sampling_functions_refuse_a_progress_that_is_no_function_before_they_solve(kratzen):
    """analyse_hand, analyse_position and the advice refuse a progress that is no function with a StichError up front,
    as every other argument, not a TypeError ('int' object is not callable) from inside the run once the first chunk of
    samples is solved."""
    from solver.advice import card_advice, contract_advice

    calls = [lambda: solver.analyse_hand("kratzen", "EO E9 SU SZ", 1, "Trump S", samples=1, workers=1, progress=5),
             lambda: solver.analyse_position(kratzen, 1, samples=1, workers=1, progress=5),
             lambda: contract_advice("kratzen", "EO E9 SU SZ", 1, samples=1, workers=1, progress=5),
             lambda: card_advice(kratzen, samples=1, workers=1, progress=5)]
    for call in calls:
        with pytest.raises(StichError, match=r"^progress must be a function of the result so far \(or None\), not 5$"):
            call()


def test_every_callback_check_says_what_the_function_is_given(valat, tmp_path):
    """The progress checks of sampling, contract_table, play_match, strategy_tree and solve_batch are one function, not
    five copies of one test each in its own words: each message keeps what its callback is called with."""
    from solver.bots import make_bot
    from solver.match import play_match
    from solver.tree import strategy_tree

    bots = [make_bot("random")] * 4
    calls = {"progress must be a function of one message (or None), not 5":
             lambda: solver.contract_table(valat, progress=5),
             "progress must be a function of the result so far and the deals in all (or None), not 5":
             lambda: play_match("schafkopf", bots, boards=1, progress=5),
             "notice must be a function of a text (or None), not 5":
             lambda: play_match("schafkopf", bots, boards=1, notice=5),
             "progress must be a function (or None), not 5": lambda: strategy_tree(valat, 1, progress=5),
             "on_error must be a function (or None), not 5":
             lambda: solver.solve_batch(KRATZEN, tmp_path / "o.jsonl", workers=1, on_error=5)}
    for message, call in calls.items():
        with pytest.raises(StichError) as refused:
            call()
        assert str(refused.value) == message
    with pytest.raises(StichError) as refused:
        check_callback([], "on_deal", "a played deal")
    assert str(refused.value) == "on_deal must be a function of a played deal (or None), not []"
    check_callback(None, "progress")  # None: no callback
    check_callback(print, "progress")


def test_contract_advice_takes_contracts_in_a_numpy_array():
    from solver.advice import contract_advice

    advice = contract_advice("kratzen", "EO E9 SU SZ", 1, np.array(["Trump S"]), samples=1, workers=1)
    assert [row.contract for row in advice.rows] == ["Trump S"]


def test_position_setup_takes_a_numpy_seat_as_every_seat_argument_does(kratzen):
    """position_setup, where the sampling bot and a bot of one's own start, takes np.int64(1) as every seat argument
    does, not refusing it with 'seat np.int64(1) is not a seat of this 3-seat deal', a message that would contradict
    itself."""
    from solver.sampling import draw_sample, position_setup

    by_numpy = position_setup(kratzen, np.int64(1), seed=3)
    assert by_numpy == position_setup(kratzen, 1, seed=3)
    assert draw_sample(by_numpy, 0) == draw_sample(position_setup(kratzen, 1, seed=3), 0)
    with pytest.raises(solver.InvalidSeatError, match=r"seat np.int64\(4\) is not a seat of this 3-seat deal"):
        position_setup(kratzen, np.int64(4))


@pytest.mark.parametrize("cards", ["", "  ", [], ()])
def test_known_cards_of_a_seat_that_name_none_are_refused_as_the_cli_refuses_them(kratzen, cards):
    """``known={2: ""}`` is refused as ``--known "2:"`` is a usage error: knowing nothing of a seat is leaving it out,
    so an empty list is a slip (a variable unset). Every function that takes known cards refuses it, in the CLI's words
    ('... names no cards of seat N (how to give them)')."""
    def said(example: str) -> str:  # the game's own cards as the example: E9 SA in Schafkopf, EZ H7 in Kratzen
        return f"known cards for seat 3: {cards!r} names no cards of seat 3 (known={{3: '{example}'}}; leave out a " \
            "seat with none)"
    from solver.advice import card_advice, contract_advice
    from solver.sampling import analyse_position
    position = list(solver.read_positions(Path(__file__).parent.parent / "examples" / "kratzen.tbn"))[1]
    calls = [lambda: solver.analyse_hand("Schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, "Rufer E", known={3: cards},
                                         samples=1, workers=1),
             lambda: contract_advice("Schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, known={3: cards}, samples=1,
                                     workers=1),
             lambda: card_advice(position, known={3: cards}, samples=1, workers=1),
             lambda: analyse_position(position, 1, known={3: cards}, samples=1, workers=1)]
    for call, example in zip(calls, ["E9 SA", "E9 SA", "EZ H7", "EZ H7"]):
        with pytest.raises(InvalidDealError) as caught:
            call()
        assert str(caught.value) == said(example)


@pytest.mark.parametrize("k, tries, expected", [
    (True, 100, "k, the sample's number, must be a whole number, at least 0, not True"),
    (1.0, 100, "k, the sample's number, must be a whole number, at least 0, not 1.0"),
    ("1", 100, "k, the sample's number, must be a whole number, at least 0, not '1'"),
    (-1, 100, "k, the sample's number, must be a whole number, at least 0, not -1"),
    (0, 0, "tries must be a whole number, at least 1, not 0"),
])
def test_draw_sample_refuses_a_sample_number_that_is_no_count(kratzen, k, tries, expected):
    """``draw_sample(setup, k)``, which a bot of one's own calls (docs/api.md), seeds its shuffle with the text of
    ``k``: ``True`` or ``1.0`` silently drew another deal than sample 1, and ``tries=0`` said "no deal found in 0
    shuffles (0 of them)"."""
    from solver.sampling import draw_sample, position_setup

    setup = position_setup(kratzen, 1, seed=3)
    with pytest.raises(StichError, match=re.escape(expected)):
        draw_sample(setup, k, tries)
    assert draw_sample(setup, 1) == draw_sample(setup, 1)  # a whole number draws as before


def test_draw_sample_refuses_what_is_no_sampling_setup(kratzen):
    """A position where the setup belongs is refused by name, not an ``AttributeError: 'Position' object has no
    attribute 'game'``."""
    from solver.sampling import draw_sample

    with pytest.raises(StichError, match=r"setup must be a sampling setup \(solver\.sampling\.position_setup"
                                         r"\(position, seat\)\), not Position"):
        draw_sample(kratzen, 0)


def test_a_result_s_card_of_another_game_is_refused_by_play_and_in_no_set():
    """A card value's ``card`` is a pack index that knows its Card (``CardIndex``), so one of a Zwanzigerrufen result
    (T18, index 4) is not played on a Schafkopf position as that pack's index 4 (EU) without a word, nor "in" a
    Schafkopf hand holding EU. docs/api.md: another game's card is refused (UnknownCardPlayError) and in no set."""
    tarock = solver.random_position("zwanzigerrufen", 3, 1)
    result = solver.solve(tarock, "points", cards=True)
    foreign = next(value.card for value in result.card_values if value.card == 4)
    assert repr(foreign) == "T18"
    schafkopf = solver.random_position("schafkopf", 3, 1, contract="Solo E")
    assert schafkopf.pack[4] == "EU" and "EU" in schafkopf.legal_cards() and 4 in schafkopf.hand(1)
    assert foreign not in schafkopf.hand(1) and foreign in tarock.hand(1)
    with pytest.raises(solver.UnknownCardPlayError, match="T18 is a card of the Zwanzigerrufen pack, not of the "
                                                          "Schafkopf pack"):
        schafkopf.play(foreign)
    with pytest.raises(solver.UnknownCardPlayError, match="T18 is a card of the Zwanzigerrufen pack"):
        schafkopf.state.play(foreign)
    assert tarock.play(foreign).played == (4,) and type(tarock.play(foreign).played[0]) is int


def test_a_numpy_pack_index_is_in_a_card_set_as_play_takes_it():
    """``position.play(np.int64(i))`` plays the card (a bot's argmax), and ``np.int64(i) in position.hand(seat)`` is
    True for a card the hand holds, so that a bot that checks before it plays is told yes."""
    position = solver.random_position("schafkopf", 3, 1, contract="Solo E")
    index = next(iter(position.legal_cards())).index
    assert np.int64(index) in position.hand(1) and np.int64(index) in position.legal_cards()
    assert np.int64(31) not in position.hand(1) and np.int64(99) not in position.hand(1)
    assert True not in position.hand(1) and 1.0 not in position.hand(1)  # a bool or a float is no pack index
    assert position.play(np.int64(index)) == position.play(index)


def test_play_cards_and_make_position_take_numpy_pack_indices_as_play_does():
    """``position.play(np.int64(i))`` plays a bot's argmax, and ``play_cards`` and ``make_position(play=...)`` take the
    same indices in a list or a numpy array, not refusing them with "the cards to play are card tokens, as one string or
    a list, not [np.int64(4)]", which a list it is."""
    position = solver.random_position("schafkopf", 3, 1, contract="Solo E")
    first = next(iter(position.legal_cards())).index
    second = next(iter(position.play(first).legal_cards())).index
    by_ints = position.play_cards([first, second])
    assert position.play_cards([np.int64(first), np.int64(second)]) == by_ints
    assert position.play_cards(np.array([first, second])) == by_ints and type(by_ints.played[0]) is int
    hands = [position.hand(seat) for seat in (1, 2, 3, 4)]
    assert make_position("schafkopf", hands, "Solo E", play=np.array([first, second])).played == (first, second)
    with pytest.raises(IllegalPlayError, match=r"the cards to play are card tokens, as one string or a list, not "
                                               r"\[True\]"):
        position.play_cards([True])  # a bool is still no pack index


ZERO_REFUSED = "time_limit=0 is refused: for no limit pass None"


def test_every_time_limit_refuses_0_which_the_command_line_reads_as_no_limit(valat, kratzen):
    """``--time-limit 0`` is no limit on the command line, so the library does not read its ``time_limit=0`` another way
    (a deadline already past): every function taking a ``time_limit`` refuses 0 (and -0.0) with a StichError, a
    ValueError, that says None is no limit, before anything is solved or written."""
    from solver.advice import card_advice, contract_advice
    from solver.analysis import targets_together
    from solver.board.app import create_app
    from solver.bots import SamplingBot, make_bot
    from solver.match import play_match
    from solver.postmortem import analyse_play
    from solver.settlement import settlement_value
    from solver.tree import strategy_tree

    calls = {
        "solve": lambda limit: solver.solve(valat, time_limit=limit),
        "check_bonuses": lambda limit: solver.check_bonuses(valat, time_limit=limit),
        "check_report": lambda limit: solver.check_report(valat, time_limit=limit),
        "solve_report": lambda limit: solver.solve_report(valat, time_limit=limit),
        "dd_settlement": lambda limit: solver.dd_settlement(valat, time_limit=limit),
        "settlement_value": lambda limit: settlement_value(valat, time_limit=limit),
        "contract_table": lambda limit: solver.contract_table(kratzen.at_start(), time_limit=limit),
        "targets_together": lambda limit: targets_together(kratzen, time_limit=limit),
        "analyse_play": lambda limit: analyse_play(valat, time_limit=limit),
        "strategy_tree": lambda limit: strategy_tree(valat, 1, time_limit=limit),
        "analyse_hand": lambda limit: solver.analyse_hand("kratzen", "EO E9 SU SZ", 1, "Trump E", samples=2,
                                                          workers=1, time_limit=limit),
        "analyse_position": lambda limit: solver.analyse_position(kratzen, 1, samples=2, workers=1,
                                                                  time_limit=limit),
        "card_advice": lambda limit: card_advice(kratzen, samples=2, workers=1, time_limit=limit),
        "contract_advice": lambda limit: contract_advice("kratzen", "EO E9 SU SZ", 1, samples=2, workers=1,
                                                         time_limit=limit),
        "SamplingBot": lambda limit: SamplingBot(time_limit=limit),
        "make_bot": lambda limit: make_bot("sampling", time_limit=limit),
        "play_match": lambda limit: play_match("kratzen", [make_bot("random")] * 3, boards=1, time_limit=limit),
        "EngineSolver.stopping": lambda limit: EngineSolver(1).stopping(time_limit=limit).__enter__(),
        "create_app": lambda limit: create_app(time_limit=limit),
    }
    assert issubclass(StichError, ValueError)
    for name, call in calls.items():
        for zero in (0, 0.0, -0.0):
            with pytest.raises(StichError, match=ZERO_REFUSED):
                call(zero)


def test_write_plot_and_write_tree_say_a_missing_folder_as_every_output_does(schafkopf, tmp_path):
    """write_plot and write_tree say a folder that does not exist, as every other output of the API does, not PIL's (or
    networkx's) bare "No such file or directory"; they write whole files or none."""
    missing = tmp_path / "nodir"
    analysis = solver.analyse_play(schafkopf)
    with pytest.raises(FileNotFoundError, match=r"cannot be written: the folder .*nodir does not exist"):
        solver.write_plot(analysis, missing / "plot.png")
    with pytest.raises(FileNotFoundError, match=r"cannot be written: the folder .*nodir does not exist"):
        solver.write_tree(solver.strategy_tree(schafkopf, 1), missing / "tree.json")
    assert not missing.exists()
    assert solver.write_plot(analysis, tmp_path / "plot.svg").read_text().lstrip().startswith("<?xml")
    written = solver.write_tree(solver.strategy_tree(schafkopf, 1), tmp_path / "t.json")
    assert json.loads(written.read_text())["command"] == "tree"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["plot.svg", "t.json"]  # no temporary left
