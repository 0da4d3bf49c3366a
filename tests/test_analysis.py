"""solver.analysis: the library functions behind ``stich solve``, ``check`` and ``table``.

Expected values come from the pure-Python reference solver on the example files' endings and Play sections (which
it answers in well under a second), from the values the example files' comments promise, and, for whole-deal
contract tables, from the engine's own ``solve`` on each contract (the reference cannot solve whole deals in time).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import solver
from solver import InvalidContractError, InvalidDealError, make_position
from solver.analysis import (SCHEMA, BonusCheck, TableEntry, can_force, card_groups, check_bonuses, check_report,
                             contract_table, default_objectives, line_by_trick, most_still_possible,
                             objectives_named, solve_report, table_report)
from solver.cli.main import app
from example_records import board, reference

EXAMPLES = Path(__file__).parent.parent / "examples"


# --- solve_report -------------------------------------------------------------------------------------------------


def test_solve_report_of_the_valat_example():
    position = board("valat.tbn", 1)
    document = solve_report(position, ["points", "valat"], cards=True, line=True)
    assert document["schema"] == SCHEMA and document["command"] == "solve"
    assert (document["game"], document["contract"], document["declarer"]) == ("Zwanzigerrufen", "Solo", 1)
    assert document["declaring_side"] == [1] and document["defending_side"] == [2, 3, 4]
    assert document["position"]["tricks_played"] == 5 and document["position"]["to_move"] == 1
    declarers, defenders = document["taken"]["sides"]
    assert (declarers["points"], declarers["tricks"], defenders["points"]) == (27, 5, 0)
    points, valat = document["results"]
    # the file's comment: 27 points taken, 61 to come, 88 in all; Valat 5 + 5
    assert (points["achieved"], points["future"], points["total"], points["success"]) == (27, 61, 88, None)
    assert points["other_side"] == {"seats": [2, 3, 4], "total": 0}
    assert (valat["achieved"], valat["future"], valat["total"], valat["success"]) == (5, 5, 10, True)
    # T17 and T16 are equivalent (no live tarock between them) and share a group; HK loses a trick to the Pagat
    assert [(g["cards"], g["future"], g["best"]) for g in valat["cards"]] == [
        (["T17", "T16"], 5, True), (["SK"], 5, True), (["CK"], 5, True), (["HK"], 4, False)]
    assert [g["future"] for g in points["cards"]] == [61, 61, 61, 44]
    assert [trick["trick"] for trick in valat["line"]] == [6, 7, 8, 9, 10]
    assert all(trick["winner"] == 1 for trick in valat["line"])


@pytest.mark.parametrize("name, number", [("zwanzigerrufen.tbn", n) for n in range(1, 8)]
                         + [("schafkopf.tbn", n) for n in (1, 3, 6, 7)])
def test_solve_report_agrees_with_the_reference(name, number):
    position = board(name, number)
    document = solve_report(position, cards=True)
    score, result = document["results"]  # the default: the score beside the points
    expected = reference(position, "points", cards=True)
    expected_score = reference(position, "score", cards=True)
    assert score["total"] == expected_score.total
    assert {card: group["total"] for group in score["cards"] for card in group["cards"]} == \
        expected_score.card_names()
    assert {card: group["points"] for group in score["cards"] for card in group["cards"]} == {
        card: expected.achieved + value for card, value in expected.card_names().items()}
    assert (result["achieved"], result["future"], result["total"]) == (expected.achieved, expected.future,
                                                                     expected.total)
    values = {card: group["future"] for group in result["cards"] for card in group["cards"]}
    assert values == expected.card_names()
    # what both sides end with adds up to the points of the deal
    assert result["total"] + result["other_side"]["total"] == document["position"]["points_in_deal"]


def test_kratzen_is_solved_for_every_seat():
    position = board("kratzen.tbn", 2)
    assert default_objectives(position.rules) == ["score", "tricks"]
    document = solve_report(position)
    assert document["every_seat_for_itself"] is True
    assert document["results"][0]["total"] == reference(position, "score").total
    assert [(r["seat"], r["total"], r["success"]) for r in document["results"][1:]] == [
        (1, 3, True), (2, 0, False), (3, 0, False), (4, 0, False)]


def test_a_trick_in_progress_and_its_line():
    position = board("zwanzigerrufen.tbn", 7)
    document = solve_report(position, ["points"], cards=True, line=True)
    assert document["position"]["trick"] == ["T15", "SN"] and document["position"]["to_move"] == 2
    (result,) = document["results"]
    line = result["line"]
    assert line[0]["on_table"] == 2 and line[0]["cards"][:2] == ["T15", "SN"] and line[0]["leader"] == 4
    assert all(trick["on_table"] == 0 for trick in line[1:])
    # replaying the line gives the declarers exactly the value of the rest
    pack = position.rules.pack
    won = sum(pack.points(pack.card_set(trick["cards"]).mask) for trick in line
              if trick["winner"] - 1 in position.rules.declaring_side)
    assert won == result["future"] == reference(position, "points").future


def test_a_finished_deal_has_nothing_left():
    document = solve_report(board("schafkopf.tbn", 7), cards=True, line=True)
    score, result = document["results"]
    assert document["position"]["over"] and document["position"]["to_move"] is None
    assert (result["achieved"], result["future"], result["total"]) == (16, 0, 16)
    assert result["cards"] == [] and result["line"] == []
    # the score of a finished deal is its settlement (the declarers lost with 16 points)
    assert score["total"] == -4 and score["cards"] == [] and score["line"] == []


def test_all_objectives_and_a_bad_one():
    position = board("zwanzigerrufen.tbn", 5)
    document = solve_report(position, ["all"])
    assert [r["objective"] for r in document["results"]] == ["score", *position.rules.objective_names()]
    with pytest.raises(InvalidContractError, match="objective 'schneider' belongs to Schafkopf, not to Zwanzigerrufen"):
        solve_report(position, ["schneider"])
    tout = board("schafkopf.tbn", 1)
    with pytest.raises(InvalidContractError, match="objective 'tout' does not apply to Schafkopf Rufer"):
        solve_report(tout, ["tout"])


def test_objectives_named_expands_per_seat_questions():
    kratzen = board("kratzen.tbn", 1)
    assert [seat for seat, _ in objectives_named(kratzen, "tricks")] == [1, 2, 3]
    assert [seat for seat, _ in objectives_named(board("valat.tbn", 1), "valat")] == [None]
    with pytest.raises(InvalidContractError):
        objectives_named(kratzen, "points")


def test_card_groups_need_no_live_card_between():
    # valat.tbn: T17 and T16 are grouped; the defenders' tarocks are all gone, nothing lies between them
    position = board("valat.tbn", 1)
    result = solver.solve(position, "points", cards=True)
    assert card_groups(position.state, result)[0]["cards"] == ["T17", "T16"]
    # ending 5 of zwanzigerrufen.tbn: TS and T21 have the same value and nothing between them
    ending = board("zwanzigerrufen.tbn", 5)
    result = solver.solve(ending, "absolut", cards=True)
    groups = {tuple(g["cards"]): g["future"] for g in card_groups(ending.state, result)}
    assert groups == {("TS", "T21"): 62, ("SK",): 45, ("CK",): 47}


def test_line_by_trick_of_an_empty_line():
    position = board("schafkopf.tbn", 7)
    assert line_by_trick(position.state, ()) == []


# --- check_bonuses ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, number", [("zwanzigerrufen.tbn", n) for n in (1, 2, 5, 6, 7)]
                         + [("pagat_ultimo.tbn", 1), ("schafkopf.tbn", 4), ("schafkopf.tbn", 6)])
def test_check_bonuses_agree_with_the_reference(name, number):
    position = board(name, number)
    checks = check_bonuses(position)
    assert [c.bonus for c in checks] == [n for n in position.rules.objective_names() if n != "points"]
    for check in checks:
        expected = reference(position, check.bonus)
        assert check.can_force == expected.success, check.bonus
        assert check.achieved == expected.achieved
        assert check.decided_by == (check.side if expected.success else check.opponents)
    assert checks == check_bonuses(position, reference_solver=True)


def test_check_the_pagat_and_valat_examples():
    checks = {c.bonus: c for c in check_bonuses(board("pagat_ultimo.tbn", 1))}
    assert checks["pagat_ultimo"].can_force and checks["pagat_ultimo"].side == (1, 2)
    assert not checks["pagat_beaten"].can_force and checks["pagat_beaten"].decided_by == (1, 2)
    assert checks["valat"].can_force and not checks["valat_against"].can_force
    assert not checks["mondfang"].can_force
    valat = {c.bonus: c for c in check_bonuses(board("valat.tbn", 1))}
    assert valat["valat"].can_force and valat["valat"].decided_by == (1,)
    assert valat["absolut"].can_force and valat["game"].can_force


def test_check_a_bonus_made_already():
    # board 2: TS caught seat 1's T21 in trick 1, a Mondfang for seats 2 and 4
    mondfang = {c.bonus: c for c in check_bonuses(board("zwanzigerrufen.tbn", 2))}["mondfang"]
    assert mondfang.already_made and mondfang.can_force and mondfang.side == (2, 4)


def test_check_a_bonus_the_play_has_already_decided_is_missed_not_stopped():
    """Board 1: seat 1 spent the Pagat in trick 3, T21 fell in trick 1 without the Skus, and each side has won a
    trick: no rest of the play can bring these, so nobody "can stop" them; they are missed."""
    position = board("zwanzigerrufen.tbn", 1)
    checks = {c.bonus: c for c in check_bonuses(position)}
    for name in ("pagat_ultimo", "pagat_beaten", "mondfang", "valat", "valat_against"):
        assert checks[name].already_missed and checks[name].can_force is False, name
        assert reference(position, name).success is False
    for name in ("game", "absolut", "absolut_against"):
        assert not checks[name].already_missed, name  # points are still to be won
    assert check_report(position)["checks"][5]["already_missed"] is True
    result = CliRunner().invoke(app, ["check", str(EXAMPLES / "zwanzigerrufen.tbn"), "--board", "1"])
    assert result.exit_code == 0, result.output
    text = result.stdout
    row = next(line for line in text.splitlines()
               if line.startswith("│") and line.split("│")[1].strip() == "Pagat Ultimo")  # the players' name
    assert "no - missed" in row and "can stop it" not in row
    # the Pagat still in a hand: its questions are open; the defenders' Valat went with trick 1
    open_pagat = {c.bonus: c for c in check_bonuses(board("pagat_ultimo.tbn", 1))}
    assert not open_pagat["pagat_ultimo"].already_missed and not open_pagat["pagat_beaten"].already_missed
    assert open_pagat["valat_against"].already_missed and not open_pagat["valat"].already_missed


def test_check_a_bonus_whose_card_is_on_the_table_of_an_earlier_trick_is_missed_not_stopped():
    """The Pagat led to trick 6 of 10 cannot be in the last trick any more, and a Sküs played to a trick whose Mond
    lies in the hand of a seat that has played to it already cannot catch it: no play of the rest brings them, so
    they are missed, not something the other side "can stop"."""
    pagat_led = board("pagat_ultimo.tbn", 1).play_cards("T1")
    checks = {c.bonus: c for c in check_bonuses(pagat_led)}
    for name in ("pagat_ultimo", "pagat_beaten"):
        assert checks[name].already_missed and checks[name].can_force is False, name
        assert checks[name].answer() == "no - missed", name
        assert reference(pagat_led, name).success is False
    assert not checks["valat"].already_missed  # trick 6 may still go to the declarers
    followed = board("pagat_ultimo.tbn", 1).play_cards("T17 SQ T15 T14 SK")  # the Pagat still in seat 1's hand
    assert not {c.bonus: c for c in check_bonuses(followed)}["pagat_ultimo"].already_missed
    ending = """[Game "Zwanzigerrufen"]
[Deal "1: SK T21 / TS HQ / T6 T7 / T4 T5"]
[Contract "Normal T19"]
[Declarer "1"]
[Partner "2"]
[Play "1"]
SK TS
*
"""
    mond_played_past = solver.parse_positions(ending)[0]
    mondfang = {c.bonus: c for c in check_bonuses(mond_played_past)}["mondfang"]
    assert mondfang.side == (3, 4) and mondfang.already_missed and mondfang.answer() == "no - missed"
    assert reference(mond_played_past, "mondfang").success is False
    lead_mond = solver.parse_positions(ending.replace("SK TS", "SK"))[0]  # seat 2 may still add TS to T21 later
    assert not {c.bonus: c for c in check_bonuses(lead_mond)}["mondfang"].already_missed


LAST_TRICK_BEATEN = """[Game "Zwanzigerrufen"]
[Deal "1: T1 / T6 / HK / SK"]
[Contract "Normal T19"]
[Declarer "1"]
[Partner "2"]
[Play "1"]
T1 T6
"""


def checked_answers(position):
    """Each searched row's answer in words, by bonus, and whether check_report's JSON says the same of it."""
    checks = check_bonuses(position)
    document = {row["bonus"]: row for row in check_report(position)["checks"]}
    for check in checks:
        row = document[check.bonus]
        assert (row["already_made"], row["already_missed"], row["can_force"], row["achieved"]) == (
            check.already_made, check.already_missed, check.can_force, check.achieved), check.bonus
    return {check.bonus: check.answer() for check in checks if check.can_force is not None}


def test_check_the_last_trick_in_progress_decides_every_bonus_by_its_forced_play():
    """In the deal's last trick every seat yet to play holds one card, so nobody has a choice: every row is made or
    missed by the trick those cards complete, as on the finished deal. T1 led and beaten by the partner's T6
    (no TS and T21 left for a Sagotrick): the silent loss and the Valat are made, the Pagat and the defenders'
    Valat missed, not "3+4 can force it" or "1+2 can stop it"; the JSON says the same."""
    beaten = solver.parse_positions(LAST_TRICK_BEATEN)[0]
    finished = solver.parse_positions(LAST_TRICK_BEATEN.replace("T1 T6\n", "T1 T6 HK SK\n"))[0]
    answers = {"game": "no - missed", "absolut": "no - missed", "absolut_against": "yes - made already",
               "valat": "yes - made already", "valat_against": "no - missed", "pagat_ultimo": "no - missed",
               "pagat_beaten": "yes - made already"}
    assert checked_answers(beaten) == answers == checked_answers(finished)
    assert reference(beaten, "pagat_ultimo").success is False
    winning = solver.parse_positions(LAST_TRICK_BEATEN.replace("T6 /", "CK /").replace("T1 T6", "T1 CK"))[0]
    assert {bonus: checked_answers(winning)[bonus] for bonus in ("pagat_ultimo", "pagat_beaten")} == {
        "pagat_ultimo": "yes - made already", "pagat_beaten": "no - missed"}
    # the bound alone, without the forced play: the Pagat on the table of the deal's last trick may still make it
    pagat = winning.objective("pagat_ultimo")
    assert most_still_possible(winning.rules, winning.state, pagat) == pagat.maximum > 0


def test_check_a_forced_last_trick_with_the_skus_and_mond_still_to_come_follows_the_sagotrick_rule(tmp_path):
    """T1 led, then TS and T21 forced in that order: under the default sagotrick=any_order the three make a
    Sagotrick, so the Pagat wins the last trick (pagat_via_sagotrick counts it) and there is no Mondfang; under
    sagotrick=mond_skus_pagat only T21, TS, T1 in that order is one, so the Sküs wins: the Pagat is beaten and
    the Mond caught. Either way every row is decided by the forced play."""
    ending = """[Game "Zwanzigerrufen"]
[Deal "1: T1 / TS / T21 / HK"]
[Contract "Normal T19"]
[Declarer "1"]
[Partner "2"]
[Play "1"]
T1
"""
    sagotrick = checked_answers(solver.parse_positions(ending)[0])
    assert {bonus: sagotrick[bonus] for bonus in ("valat", "pagat_ultimo", "pagat_beaten", "mondfang")} == {
        "valat": "yes - made already", "pagat_ultimo": "yes - made already", "pagat_beaten": "no - missed",
        "mondfang": "no - missed"}
    in_order = ending.replace('[Contract', '[Variant "sagotrick=mond_skus_pagat"]\n[Contract')
    skus_wins = checked_answers(solver.parse_positions(in_order)[0])
    (tmp_path / "ending.pbn").write_text(ending, encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(tmp_path / "ending.pbn"), "--variant", "sagotrick=mond_skus_pagat",
                                      "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["bonus"]: row for row in json.loads(result.stdout)["checks"]}
    assert {bonus: (rows[bonus]["already_made"], rows[bonus]["already_missed"]) for bonus in skus_wins} == {
        bonus: (answer.endswith("made already"), answer.endswith("missed")) for bonus, answer in skus_wins.items()}
    assert {bonus: skus_wins[bonus] for bonus in ("valat", "pagat_ultimo", "pagat_beaten", "mondfang")} == {
        "valat": "yes - made already", "pagat_ultimo": "no - missed", "pagat_beaten": "yes - made already",
        "mondfang": "yes - made already"}
    assert all(answer.endswith(("made already", "missed")) for answer in [*sagotrick.values(), *skus_wins.values()])


def test_check_an_event_whose_two_cards_share_a_hand_is_missed():
    """A trick takes one card of each seat, so the Sküs and the Mond in one hand never fall together: no Mondfang
    can happen, whoever plays what."""
    ending = """[Game "Zwanzigerrufen"]
[Deal "1: TS T21 / T8 HQ / T6 T7 / T4 T5"]
[Contract "Normal T19"]
[Declarer "1"]
[Partner "2"]
"""
    position = solver.parse_positions(ending)[0]
    mondfang = {c.bonus: c for c in check_bonuses(position)}["mondfang"]
    assert mondfang.side == (3, 4) and mondfang.already_missed and mondfang.answer() == "no - missed"
    assert reference(position, "mondfang").success is False


def test_check_sagotrick_variant_decides_the_pagat():
    # ending 6: the Pagat wins the last trick only as a Sagotrick; without the rule it is beaten
    assert {c.bonus: c for c in check_bonuses(board("zwanzigerrufen.tbn", 6))}["pagat_ultimo"].can_force
    plain = {c.bonus: c for c in check_bonuses(board("zwanzigerrufen.tbn", 6, sagotrick="off"))}
    assert plain["pagat_ultimo"].can_force is False
    assert plain["pagat_beaten"].can_force == reference(board("zwanzigerrufen.tbn", 6, sagotrick="off"),
                                                        "pagat_beaten").success


def test_check_kratzen_targets():
    checks = check_bonuses(board("kratzen.tbn", 3))  # a Muss: seat 3 holds the Weli and is sure of 2
    assert [(c.seat, c.guaranteed, c.target, c.can_force) for c in checks] == [
        (1, 0, 2, False), (2, 1, 1, True), (3, 2, 1, True), (4, 0, 1, False)]


def test_check_a_pagat_that_is_in_no_hand():
    ending = solver.parse_positions('[Game "ZR"]\n[Deal "1: TS SK / T21 SQ / T4 HK / T5 HQ"]\n'
                                    '[Contract "Normal T19"]\n[Partner "2"]\n')[0]
    checks = {c.bonus: c for c in check_bonuses(ending)}
    assert checks["pagat_ultimo"].can_force is None and "Pagat" in checks["pagat_ultimo"].reason
    assert checks["pagat_ultimo"].decided_by == ()
    assert checks["mondfang"].can_force == reference(ending, "mondfang").success
    document = check_report(ending)
    assert document["every_seat_for_itself"] is False
    assert {c["bonus"]: c["reason"] for c in document["checks"]}["pagat_ultimo"]
    assert solve_report(ending)["results"][1]["total"] == reference(ending, "points").total


def test_can_force_refuses_an_exact_objective():
    position = board("valat.tbn", 1)
    with pytest.raises(ValueError):
        can_force(position, position.objective("points"))


def test_check_report_document():
    document = check_report(board("valat.tbn", 1))
    assert document["command"] == "check" and document["contract"] == "Solo"
    assert isinstance(check_bonuses(board("valat.tbn", 1))[0], BonusCheck)
    assert {c["bonus"]: c["can_force"] for c in document["checks"]}["valat"] is True


# --- contract_table -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 2, 3])
def test_kratzen_table_agrees_with_the_reference(number):
    position = board("kratzen.tbn", number)
    entries = contract_table(position)
    suffix = {None: "", "muss": " Muss", "sevenmuss": " SevenMuss"}[position.rules.contract.modifier]
    assert [e.contract for e in entries] == [f"Trump {s}{suffix}" for s in "EGHS"]  # a Muss stays a Muss
    deal = position.rules.deal
    for entry in entries:
        trump = make_position("Kratzen", deal, entry.contract)
        expected = [reference(trump, "tricks", seat=s) for s in range(1, deal.seats + 1)]
        assert [s.tricks for s in entry.seats] == [r.total for r in expected]
        assert [s.made for s in entry.seats] == [r.success for r in expected]
        assert (entry.value, entry.won) == (entry.seats[0].tricks, entry.seats[0].made)


def test_table_progress_names_contracts_as_the_rule_book_does():
    """The progress callback's texts are for people (stich table's spinner): a Seven-Muss is said as RULES.md 3.3 says
    it, not as the token ('Trump S SevenMuss by seat 1'); the entries keep the tokens."""
    said: list[str] = []
    entries = contract_table(board("kratzen.tbn", 4), progress=said.append)
    assert said == [f"Trump {suit} Seven-Muss by seat 1" for suit in "EGHS"]
    assert [e.contract for e in entries] == [f"Trump {suit} SevenMuss" for suit in "EGHS"]


def test_kratzen_table_plays_for_the_records_attacker():
    """A record whose [Declarer] is seat 3: every row is seat 3's attack (it leads and needs 2 tricks), so the
    record's own contract's row is what solve() says of the record."""
    position = next(iter(solver.read_positions(Path(__file__).parent / "data" / "kratzen_attacker_3.tbn")))
    assert position.rules.declarer == 2
    entries = {e.contract: e for e in contract_table(position)}
    assert {e.declarer for e in entries.values()} == {3}
    own = entries[str(position.rules.contract)]
    expected = [solver.solve(position, "tricks", seat=s) for s in range(1, position.rules.seats + 1)]
    assert [(s.tricks, s.target) for s in own.seats] == [(r.total, r.objective.target) for r in expected]
    assert own.seats[2].target == 2 and own.seats[0].target == 1


def test_kratzen_table_of_the_first_example():
    entries = {e.contract: e for e in contract_table(board("kratzen.tbn", 1))}
    # the file's contract, bells: seat 1 guarantees 2 (his target), seat 2 none, seat 3 one
    assert [(s.tricks, s.target) for s in entries["Trump S"].seats] == [(2, 2), (0, 1), (1, 1)]
    assert entries["Trump S"].won and not entries["Trump G"].won


def test_zwanzigerrufen_table_of_a_whole_deal():
    # the dealt hands of zwanzigerrufen.tbn board 1 (its Play section is ignored): forehand calls T20
    position = board("zwanzigerrufen.tbn", 1)
    entries = contract_table(position, reference_solver=False)
    assert [(e.contract, e.declarer) for e in entries] == [
        ("Normal T20", 1), ("Solo", 1), ("Solo", 2), ("Solo", 3), ("Solo", 4),
        ("SuitSolo", 1), ("SuitSolo", 2), ("SuitSolo", 3), ("SuitSolo", 4)]
    normal = entries[0]
    assert normal.declaring_side == (1, 2) and normal.measure == "points" and normal.target == 45
    seat2_suit_solo = entries[6]
    assert not seat2_suit_solo.biddable and "5 suit cards" in seat2_suit_solo.reason
    assert seat2_suit_solo.value is None and seat2_suit_solo.won is None
    deal = position.rules.deal
    for entry in (normal, entries[2], entries[5]):
        expected = solver.solve(make_position("ZR", deal, entry.contract, declarer=entry.declarer), "points",
                                reference_solver=False)
        assert entry.value == expected.total and entry.won == (expected.total >= 45)


def test_zwanzigerrufen_table_lists_a_normal_game_forehand_cannot_bid():
    """valat.tbn's forehand holds T20..T16: the Normal row is there, not biddable, saying she must play Solo."""
    entries = contract_table(board("valat.tbn", 1), reference_solver=False)
    normal = entries[0]
    assert (normal.contract, normal.declarer, normal.biddable) == ("Normal", 1, False)
    assert "she must play Solo" in normal.reason and normal.value is None
    assert [e.contract for e in entries[1:]] == ["Solo"] * 4 + ["SuitSolo"] * 4


def test_zwanzigerrufen_table_lists_every_tarock_forehand_may_call_under_called_tarock_any():
    """Under called_tarock=any every call forehand may make is a bid, a row each of the table, as contract advice of the
    same hand offers them (T20, T18, T17 and T16; forehand holds T19), not Normal T20 alone. Calling T17 gives seat 3 as
    the partner, and that side loses (30 points), where the others win with 67."""
    position = board("zwanzigerrufen.tbn", 1)
    entries = contract_table(position, variant={"called_tarock": "any"}, reference_solver=False)
    normals = [(e.contract, e.declaring_side, e.value) for e in entries if e.contract.startswith("Normal")]
    assert normals == [("Normal T20", (1, 2), 67), ("Normal T18", (1, 2), 67), ("Normal T17", (1, 3), 30),
                       ("Normal T16", (1, 2), 67)]
    assert [e.contract for e in entries[4:]] == ["Solo"] * 4 + ["SuitSolo"] * 4
    by_default = [e.contract for e in contract_table(position, reference_solver=False)]
    assert by_default[0] == "Normal T20" and by_default[1:] == ["Solo"] * 4 + ["SuitSolo"] * 4


def test_schafkopf_table_lists_what_can_be_bid():
    position = board("schafkopf.tbn", 4)  # the Wenz Tout deal: seat 1 holds all four Unters
    entries = contract_table(position, reference_solver=False)
    assert all(e.biddable for e in entries)
    pairs = {(e.contract, e.declarer): e for e in entries}
    tout = pairs[("WenzTout", 1)]
    assert (tout.measure, tout.value, tout.target, tout.won) == ("tricks", 8, 8, True)
    wenz = pairs[("Wenz", 1)]
    assert wenz.measure == "points" and wenz.target == 61 and wenz.won
    assert ("Rufer E", 1) not in pairs  # seat 1 holds the acorn ace: she cannot call it


def test_table_of_a_deal_with_its_game():
    position = board("kratzen.tbn", 1)
    assert contract_table(position.rules.deal, "Kratzen") == contract_table(position)
    with pytest.raises(InvalidDealError):
        contract_table(position.rules.deal)


def test_table_rejects_an_ending():
    with pytest.raises(InvalidDealError, match="whole deal"):
        contract_table(board("zwanzigerrufen.tbn", 5))


def test_table_report_of_a_deal_with_play():
    position = board("kratzen.tbn", 5)  # six seats, the first trick played: the table is of the dealt hands
    document = table_report(position, reference_solver=False)
    assert document["command"] == "table" and document["play_ignored"] is True
    assert document["hands"][0] == ["S6", "EA", "GA", "GU"]
    leaves = {e["contract"]: e for e in document["entries"]}["Trump G"]
    assert leaves["won"] is True and [s["tricks"] for s in leaves["seats"]] == [4, 0, 0, 0, 0, 0]


def test_table_entry_document():
    entry = TableEntry("Solo", 2, biddable=False, reason="no")
    assert entry.as_dict()["biddable"] is False and entry.as_dict()["seats"] == []


@pytest.mark.parametrize("game, deal, contract, held, taken_all", [
    ("Schafkopf", "1: S7 S8 / EO GO / E7 E8 / HO SO", "Solo E", "schneider_against", "schwarz_against"),
    ("Zwanzigerrufen", "1: T4 T5 / T21 T20 / T6 T7 / T19 T18", "Solo", "absolut_against", "valat_against"),
])
def test_held_to_few_points_is_measured_on_what_an_ending_holds(game, deal, contract, held, taken_all) -> None:
    """An ending whose declarer can win nothing: the defenders take every trick, so the declarers are held to 30
    (32) points or less as well; the target is the ending's points less that, not the whole pack's."""
    position = make_position(game, deal, contract)
    answers = {check.bonus: check.can_force for check in check_bonuses(position)}
    assert answers[taken_all] is True and answers[held] is True
    rules = position.rules
    limit = 30 if game == "Schafkopf" else 32
    assert rules.objective(held).target == max(0, rules.points_in_deal - limit)
    whole = solver.read_positions(EXAMPLES / ("schafkopf.tbn" if game == "Schafkopf" else "zwanzigerrufen.tbn"))
    assert next(iter(whole)).rules.objective(held).target == (90 if game == "Schafkopf" else 56)


def test_a_kratzen_seat_short_of_its_target_with_too_few_tricks_left_has_missed_it():
    """A Kratzen seat whose tricks plus those left are short of its target has missed it, mid-deal as at the end (the
    attacker who took 1 of his 2 tricks: "no - missed already: guarantees 1 trick, needs 2", already_missed), as a Valat
    after a lost trick is "missed"; a seat that holds its target's tricks has made it already, and says so."""
    deal = "1: HA EK E7 G9 / S6 EA G7 H8 / HK HZ EZ S8"
    over = solver.make_position("Kratzen", deal, "Trump H", play="HA H8 HZ EK EA EZ G7 HK G9 S8 E7 S6")
    checks = check_bonuses(over)
    assert [(c.seat, c.achieved, c.already_made, c.already_missed) for c in checks] == [
        (1, 1, False, True), (2, 2, True, False), (3, 1, True, False)]
    assert checks[0].answer() == "no - missed already: guarantees 1 trick, needs 2"
    assert checks[1].answer() == "yes - made already: guarantees 2 tricks, needs 1"
    assert checks[2].answer() == "yes - made already: guarantees 1 trick, needs 1"
    # six seats, three tricks to seat 4: one trick left, led by seat 4's trump GO, whom nothing left beats, so
    # every seat short of its target has missed it (the attacker 0 of 2, seats 2, 3, 5, 6 0 of 1)
    six = "1: EA EK EO EU / HA HK HO HU / SA SK SO SU / GA GK GO GU / S6 EZ HZ GZ / E9 H9 S9 G9"
    late = solver.make_position("Kratzen", six, "Trump G", play="EA HA SA GU EZ E9 GA S6 G9 EK HK SK GK GZ H9 EO HO SO")
    assert [(c.already_missed, c.achieved) for c in check_bonuses(late)] == [
        (True, 0), (True, 0), (True, 0), (False, 4), (True, 0), (True, 0)]
    assert check_report(late)["checks"][0]["already_missed"] is True
