"""The rules of the three games: every check case of RULES.md section 4 as its own test, and a scenario test for each
rule sentence of RULES.md 1.2-1.5, 2.2-2.3 and 3.2. Default flags throughout (test_variants.py switches them)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

import solver
from solver import Position, make_position, parse_positions
from solver.errors import IllegalPlayError, InvalidContractError
from solver.games import Kratzen, Schafkopf, Zwanzigerrufen, get_game
from solver.search.reference import solve

# --- helpers -------------------------------------------------------------------------------------------------------


def legal(position) -> set[str]:
    """The names of the cards the player to move may play."""
    return set(position.pack.names(position.state.legal_cards()))


def winning_card(position) -> str:
    """The card that won the last completed trick of the position."""
    trick = position.state.history[-1]
    return position.pack[trick.cards[(trick.winner - trick.leader) % len(trick.cards)]].name


def trick(game, contract: str, cards: list[str], **kwargs):
    """A one-card-a-hand ending in which seat 1 leads ``cards[0]`` and the others play the rest in order."""
    return make_position(game, "1: " + " / ".join(cards), contract, play=cards, **kwargs)


def winner(game, contract: str, cards: list[str], **kwargs) -> str:
    return winning_card(trick(game, contract, cards, **kwargs))


# Zwanzigerrufen Normal games and Solos follow the same play rules (RULES.md 1.3, 1.5). In endings the Normal game
# names T16 as the called card, which none of the endings below deals, so the partner is given.
NORMAL_AND_SOLO = [pytest.param("Solo", {}, id="solo"), pytest.param("Normal T16", {"partner": 3}, id="normal")]

ZR_WHOLE = ("1: TS T21 T20 T18 T17 SK SQ SN CK CQ / T19 T16 T15 T14 T13 SJ SG CN CJ CG / "
            "T12 T11 T10 T9 T8 HK HQ HN HJ HG / T7 T6 T5 T4 T1 DK DQ DN DJ DG")
# forehand holds none of T20..T16
ZR_NONE = ("1: TS T21 T15 T14 T13 SK SQ SN CK CQ / T20 T19 T18 T17 T16 SJ SG CN CJ CG / "
           "T12 T11 T10 T9 T8 HK HQ HN HJ HG / T7 T6 T5 T4 T1 DK DQ DN DJ DG")
# forehand holds T20..T17; T16 is with seat 2
ZR_T16 = ("1: TS T21 T20 T19 T18 T17 SK SQ SN CK / T16 T15 T14 T13 T12 SJ SG CQ CN CJ / "
          "CG T11 T10 T9 T8 HK HQ HN HJ HG / T7 T6 T5 T4 T1 DK DQ DN DJ DG")
# forehand holds all of T20..T16
ZR_ALL5 = ("1: TS T21 T20 T19 T18 T17 T16 SK SQ SN / T15 T14 T13 T12 T11 SJ SG CK CQ CN / "
           "CJ CG T10 T9 T8 HK HQ HN HJ HG / T7 T6 T5 T4 T1 DK DQ DN DJ DG")
# forehand holds T20 but not T19, which is with seat 4
ZR_T19_SEAT4 = ("1: TS T21 T20 T18 T17 SK SQ SN CK CQ / T16 T15 T14 T13 T12 SJ SG CN CJ CG / "
                "T11 T10 T9 T8 T7 HK HQ HN HJ HG / T19 T6 T5 T4 T1 DK DQ DN DJ DG")

SK_WHOLE = ("1: EZ E9 GO GU HA HZ SK S7 / EA EK E8 GA GZ GK SA SZ / EO HO SO EU HU SU H9 H8 / "
            "E7 G9 G8 G7 HK H7 S9 S8")
# seat 3 holds every Ober and Unter
SK_SIE = ("1: EZ E9 H9 H8 HA HZ SK S7 / EA EK E8 GA GZ GK SA SZ / EO GO HO SO EU GU HU SU / "
          "E7 G9 G8 G7 HK H7 S9 S8")


# ===================================================================================================================
# RULES.md section 4: the check cases, one test each
# ===================================================================================================================


@pytest.mark.parametrize("contract, kwargs", NORMAL_AND_SOLO)
def test_check_zr_spade_led_hand_t5_hq(contract, kwargs):
    position = make_position("Zwanzigerrufen", "1: SK T4 / T5 HQ / SQ SG / CK CQ", contract, play=["SK"], **kwargs)
    assert legal(position) == {"T5"}


@pytest.mark.parametrize("contract, kwargs", NORMAL_AND_SOLO)
def test_check_zr_t10_led_hand_sq_hk(contract, kwargs):
    position = make_position("Zwanzigerrufen", "1: T10 SK / SQ HK / T9 SG / CK CQ", contract, play=["T10"],
                             **kwargs)
    assert legal(position) == {"SQ", "HK"}


@pytest.mark.parametrize("contract, kwargs", NORMAL_AND_SOLO)
def test_check_zr_sagotrick_t21_ts_t1_t4(contract, kwargs):
    assert winner("Zwanzigerrufen", contract, ["T21", "TS", "T1", "T4"], **kwargs) == "T1"


def test_check_zr_ts_t21_t4_t5_is_won_by_ts_and_is_a_mondfang():
    position = trick("Zwanzigerrufen", "Solo", ["TS", "T21", "T4", "T5"])
    assert winning_card(position) == "TS"
    assert position.state.history[-1].winner == 0
    # A Mondfang against the side of the T21 player (seat 2, a defender): the side without T21 (the soloist) has it.
    start = make_position("Zwanzigerrufen", "1: TS / T21 / T4 / T5", "Solo")
    objective = start.rules.objective("mondfang")
    assert objective.maximiser == frozenset({0})
    result = solve(start.state, objective)
    assert result.success is True and result.total == 1


def test_check_zr_suit_solo_hand_t20_hg_must_lead_hg():
    position = make_position("Zwanzigerrufen", "1: T20 HG / SK T4 / SQ T5 / CK T6", "SuitSolo")
    assert legal(position) == {"HG"}


def test_check_zr_suit_solo_sq_led_hand_t20_hg():
    position = make_position("Zwanzigerrufen", "1: SQ SK / T20 HG / SG T5 / CK T6", "SuitSolo", play=["SQ"])
    assert legal(position) == {"T20"}


def test_check_zr_suit_solo_sq_led_hand_t20_hg_strict():
    position = make_position("Zwanzigerrufen", "1: SQ SK / T20 HG / SG T5 / CK T6", "SuitSolo", play=["SQ"],
                             variant={"suit_solo_follow": "strict"})
    assert legal(position) == {"HG"}


def test_check_zr_suit_solo_trick_sq_t20_sg_sk():
    assert winner("Zwanzigerrufen", "SuitSolo", ["SQ", "T20", "SG", "SK"]) == "SK"


# Schafkopf Rufer, acorn ace called. The caller is seat 1, h (the holder of EA) seat 2.

def test_check_sk_rufer_h_leading_before_acorns_led():
    position = make_position("Schafkopf", "1: E7 G8 S7 S8 / EA E9 HO G7 / GA GZ SA SZ / HA HZ HK H9", "Rufer E",
                             leader=2)
    assert position.state.to_move == 1
    assert legal(position) == {"EA", "HO", "G7"}


def test_check_sk_rufer_h_with_four_acorns_may_lead_e9():
    position = make_position("Schafkopf", "1: E7 G8 S7 S8 S9 / EA EZ E9 E8 GA / GZ GK SA SZ SK / HA HZ HK H9 H8",
                             "Rufer E", leader=2)
    assert "E9" in legal(position)
    assert legal(position) == {"EA", "EZ", "E9", "E8", "GA"}


def test_check_sk_rufer_e7_led_h_must_play_ea():
    position = make_position("Schafkopf", "1: E7 G8 S7 / EA E9 HU / GA GZ SA / HA HZ HK", "Rufer E", play=["E7"])
    assert legal(position) == {"EA"}


def test_check_sk_rufer_g7_led_h_keeps_ea():
    position = make_position("Schafkopf", "1: G7 E7 S7 / EA E9 HU / GA GZ SA / HA HZ HK", "Rufer E", play=["G7"])
    assert legal(position) == {"E9", "HU"}


def test_check_sk_rufer_winner_ha_eo_h7_gu():
    assert winner("Schafkopf", "Rufer E", ["HA", "EO", "H7", "GU"], partner=2) == "EO"


def test_check_sk_rufer_winner_ga_g9_hz_gz():
    assert winner("Schafkopf", "Rufer E", ["GA", "G9", "HZ", "GZ"], partner=2) == "HZ"


def test_check_sk_wenz_winner_eo_ea_e9_hu():
    assert winner("Schafkopf", "Wenz", ["EO", "EA", "E9", "HU"]) == "HU"


# Kratzen, hearts trump. Seat 1 (the attacker) leads.

def test_check_kr_e9_led_hand_ek_e7_ha():
    position = make_position("Kratzen", "1: E9 G7 G8 / EK E7 HA / GA GK GO", "Trump H", play=["E9"])
    assert legal(position) == {"EK"}


def test_check_kr_e9_then_h7_hand_ek_e7():
    position = make_position("Kratzen", "1: E9 G7 / H7 G8 / EK E7", "Trump H", play=["E9", "H7"])
    assert legal(position) == {"EK", "E7"}


def test_check_kr_e9_led_hand_hz_s6_g8():
    position = make_position("Kratzen", "1: E9 G7 G9 / HZ S6 G8 / GA GK GO", "Trump H", play=["E9"])
    assert legal(position) == {"HZ", "S6"}


def test_check_kr_e9_then_hk_hand_h7_s6_g8():
    position = make_position("Kratzen", "1: E9 E8 E7 / HK G9 GZ / H7 S6 G8", "Trump H", play=["E9", "HK"])
    assert legal(position) == {"S6"}


def test_check_kr_s9_led_hand_s6_g8():
    position = make_position("Kratzen", "1: S9 E7 / S6 G8 / GA GK", "Trump H", play=["S9"])
    assert legal(position) == {"S6"}


def test_check_kr_bells_trump_sk_s6_sa():
    assert winner("Kratzen", "Trump S", ["SK", "S6", "SA"]) == "SA"


# Every check case of RULES.md section 4 in the rule book's words, with the test above that asserts it. The coverage
# check reads section 4 and fails on a case that is not here; the solver checks ask both solvers the same question.

CHECK_CASE_TESTS = {
    "spade led, hand {T5, HQ} -> {T5}": test_check_zr_spade_led_hand_t5_hq,
    "T10 led, hand {SQ, HK} -> both": test_check_zr_t10_led_hand_sq_hk,
    "Trick [T21, TS, T1, T4] -> T1": test_check_zr_sagotrick_t21_ts_t1_t4,
    "Trick [TS, T21, T4, T5] -> TS, a Mondfang against the T21 side":
        test_check_zr_ts_t21_t4_t5_is_won_by_ts_and_is_a_mondfang,
    "hand {T20, HG} must lead HG": test_check_zr_suit_solo_hand_t20_hg_must_lead_hg,
    "SQ led, hand {T20, HG} -> {T20}": test_check_zr_suit_solo_sq_led_hand_t20_hg,
    "(`strict`: {HG})": test_check_zr_suit_solo_sq_led_hand_t20_hg_strict,
    "trick [SQ, T20, SG, SK] -> SK": test_check_zr_suit_solo_trick_sq_t20_sg_sk,
    "h = {EA, E9, HO, G7} leading before acorns were led -> {EA, HO, G7}":
        test_check_sk_rufer_h_leading_before_acorns_led,
    "h = {EA, EZ, E9, E8, GA} may lead E9": test_check_sk_rufer_h_with_four_acorns_may_lead_e9,
    "E7 led, h = {EA, E9, HU} -> {EA}": test_check_sk_rufer_e7_led_h_must_play_ea,
    "G7 led, h = {EA, E9, HU} -> {E9, HU}": test_check_sk_rufer_g7_led_h_keeps_ea,
    "Rufer [HA, EO, H7, GU] -> EO": test_check_sk_rufer_winner_ha_eo_h7_gu,
    "Rufer [GA, G9, HZ, GZ] -> HZ": test_check_sk_rufer_winner_ga_g9_hz_gz,
    "Wenz [EO, EA, E9, HU] -> HU": test_check_sk_wenz_winner_eo_ea_e9_hu,
    "E9 led, hand {EK, E7, HA} -> {EK}": test_check_kr_e9_led_hand_ek_e7_ha,
    "E9 then H7 played, hand {EK, E7} -> both": test_check_kr_e9_then_h7_hand_ek_e7,
    "E9 led, hand {HZ, S6, G8} -> {HZ, S6}": test_check_kr_e9_led_hand_hz_s6_g8,
    "E9 then HK played, hand {H7, S6, G8} -> {S6}": test_check_kr_e9_then_hk_hand_h7_s6_g8,
    "S9 led, hand {S6, G8} -> {S6}": test_check_kr_s9_led_hand_s6_g8,
    "trick [SK, S6, SA] -> SA": test_check_kr_bells_trump_sk_s6_sa,
}


def rule_book_section_4() -> str:
    """The text of RULES.md section 4 (the copy in docs/rulebook) up to the next section, its line breaks read as
    spaces."""
    text = (Path(__file__).parent.parent / "docs" / "rulebook" / "RULES.md").read_text(encoding="utf-8")
    section = text.split("## 4. Check cases", 1)[1].split("\n", 1)[1]
    return " ".join(section.split("\n## ", 1)[0].split())


def test_every_check_case_of_section_4_has_its_test():
    """A case added to RULES.md section 4 fails here until a test asserts it: each result ("->"), each "must lead" and
    "may lead" and each `strict` reading of the section is counted (a case written in other words, "is won by", is
    not: the section writes its cases with these markers), and each case named here is quoted from the section word
    for word."""
    section = rule_book_section_4()
    for case in CHECK_CASE_TESTS:
        assert case in section, case
    named = " ".join(CHECK_CASE_TESTS)
    for marker in ("->", "must lead", "may lead", "`strict`"):
        assert named.count(marker) == section.count(marker), marker
    assert len(set(CHECK_CASE_TESTS.values())) == len(CHECK_CASE_TESTS)


# The legal-card cases as positions: (case, position, the cards the rule book allows). The Zwanzigerrufen cases of
# RULES.md 1.3 are asked in a Solo (test_check_zr_* above try the Normal game too).
LEGAL_CHECK_CASES = [
    ("spade led, hand {T5, HQ} -> {T5}",
     lambda: make_position("Zwanzigerrufen", "1: SK T4 / T5 HQ / SQ SG / CK CQ", "Solo", play=["SK"]), {"T5"}),
    ("T10 led, hand {SQ, HK} -> both",
     lambda: make_position("Zwanzigerrufen", "1: T10 SK / SQ HK / T9 SG / CK CQ", "Solo", play=["T10"]), {"SQ", "HK"}),
    ("hand {T20, HG} must lead HG",
     lambda: make_position("Zwanzigerrufen", "1: T20 HG / SK T4 / SQ T5 / CK T6", "SuitSolo"), {"HG"}),
    ("SQ led, hand {T20, HG} -> {T20}",
     lambda: make_position("Zwanzigerrufen", "1: SQ SK / T20 HG / SG T5 / CK T6", "SuitSolo", play=["SQ"]), {"T20"}),
    ("(`strict`: {HG})",
     lambda: make_position("Zwanzigerrufen", "1: SQ SK / T20 HG / SG T5 / CK T6", "SuitSolo", play=["SQ"],
                           variant={"suit_solo_follow": "strict"}), {"HG"}),
    ("h = {EA, E9, HO, G7} leading before acorns were led -> {EA, HO, G7}",
     lambda: make_position("Schafkopf", "1: E7 G8 S7 S8 / EA E9 HO G7 / GA GZ SA SZ / HA HZ HK H9", "Rufer E",
                           leader=2), {"EA", "HO", "G7"}),
    ("h = {EA, EZ, E9, E8, GA} may lead E9",
     lambda: make_position("Schafkopf", "1: E7 G8 S7 S8 S9 / EA EZ E9 E8 GA / GZ GK SA SZ SK / HA HZ HK H9 H8",
                           "Rufer E", leader=2), {"EA", "EZ", "E9", "E8", "GA"}),
    ("E7 led, h = {EA, E9, HU} -> {EA}",
     lambda: make_position("Schafkopf", "1: E7 G8 S7 / EA E9 HU / GA GZ SA / HA HZ HK", "Rufer E", play=["E7"]),
     {"EA"}),
    ("G7 led, h = {EA, E9, HU} -> {E9, HU}",
     lambda: make_position("Schafkopf", "1: G7 E7 S7 / EA E9 HU / GA GZ SA / HA HZ HK", "Rufer E", play=["G7"]),
     {"E9", "HU"}),
    ("E9 led, hand {EK, E7, HA} -> {EK}",
     lambda: make_position("Kratzen", "1: E9 G7 G8 / EK E7 HA / GA GK GO", "Trump H", play=["E9"]), {"EK"}),
    ("E9 then H7 played, hand {EK, E7} -> both",
     lambda: make_position("Kratzen", "1: E9 G7 / H7 G8 / EK E7", "Trump H", play=["E9", "H7"]), {"EK", "E7"}),
    ("E9 led, hand {HZ, S6, G8} -> {HZ, S6}",
     lambda: make_position("Kratzen", "1: E9 G7 G9 / HZ S6 G8 / GA GK GO", "Trump H", play=["E9"]), {"HZ", "S6"}),
    ("E9 then HK played, hand {H7, S6, G8} -> {S6}",
     lambda: make_position("Kratzen", "1: E9 E8 E7 / HK G9 GZ / H7 S6 G8", "Trump H", play=["E9", "HK"]), {"S6"}),
    ("S9 led, hand {S6, G8} -> {S6}",
     lambda: make_position("Kratzen", "1: S9 E7 / S6 G8 / GA GK", "Trump H", play=["S9"]), {"S6"}),
]


@pytest.mark.parametrize("reference_solver", [False, True], ids=["engine", "reference"])
@pytest.mark.parametrize("case, build, allowed", LEGAL_CHECK_CASES, ids=[case[0] for case in LEGAL_CHECK_CASES])
def test_check_case_legal_cards_are_the_cards_both_solvers_search(case, build, allowed, reference_solver):
    """The solvers value exactly the cards the rule book allows: the compiled engine reads legality from its own
    tables, the reference solver from the rules, and both must agree with the check case."""
    position = build()
    objective = "tricks" if position.game.name == "Kratzen" else "points"
    seat = position.to_move if position.game.name == "Kratzen" else None
    result = solver.solve(position, objective, seat=seat, cards=True, reference_solver=reference_solver)
    assert {position.pack[value.card].name for value in result.card_values} == allowed, case


# The trick-winner cases: the trick is played to its last card, and the declarer (or, in Kratzen, the seat asked) is
# the seat the rule book says wins it, so the solvers' value says whether that seat took the trick.
# (case, game, contract, cards, keywords, the value when the rule book's winner takes the trick)
WINNER_CHECK_CASES = [
    ("Trick [T21, TS, T1, T4] -> T1", "Zwanzigerrufen", "Solo", ["T21", "TS", "T1", "T4"], {"declarer": 3}, 16),
    ("Trick [TS, T21, T4, T5] -> TS, a Mondfang against the T21 side", "Zwanzigerrufen", "Solo",
     ["TS", "T21", "T4", "T5"], {}, 12),
    ("trick [SQ, T20, SG, SK] -> SK", "Zwanzigerrufen", "SuitSolo", ["SQ", "T20", "SG", "SK"], {"declarer": 4}, 10),
    ("Rufer [HA, EO, H7, GU] -> EO", "Schafkopf", "Rufer E", ["HA", "EO", "H7", "GU"],
     {"declarer": 2, "partner": 3}, 16),
    ("Rufer [GA, G9, HZ, GZ] -> HZ", "Schafkopf", "Rufer E", ["GA", "G9", "HZ", "GZ"],
     {"declarer": 3, "partner": 2}, 31),
    ("Wenz [EO, EA, E9, HU] -> HU", "Schafkopf", "Wenz", ["EO", "EA", "E9", "HU"], {"declarer": 4}, 16),
    ("trick [SK, S6, SA] -> SA", "Kratzen", "Trump S", ["SK", "S6", "SA"], {}, 1),
]


@pytest.mark.parametrize("reference_solver", [False, True], ids=["engine", "reference"])
@pytest.mark.parametrize("case, game, contract, cards, keywords, value", WINNER_CHECK_CASES,
                         ids=[case[0] for case in WINNER_CHECK_CASES])
def test_check_case_trick_winner_through_both_solvers(case, game, contract, cards, keywords, value, reference_solver):
    position = make_position(game, "1: " + " / ".join(cards), contract, play=cards[:-1], **keywords)
    if game == "Kratzen":
        result = solver.solve(position, "tricks", seat=cards.index("SA") + 1, reference_solver=reference_solver)
    else:
        result = solver.solve(position, "points", reference_solver=reference_solver)
    assert result.total == value, case


@pytest.mark.parametrize("reference_solver", [False, True], ids=["engine", "reference"])
def test_check_case_mondfang_through_both_solvers(reference_solver):
    """Trick [TS, T21, T4, T5] -> TS is a Mondfang against the T21 side (seat 2, a defender of seat 1's Solo): the
    side without T21, the soloist, has it."""
    position = make_position("Zwanzigerrufen", "1: TS / T21 / T4 / T5", "Solo")
    result = solver.solve(position, "mondfang", reference_solver=reference_solver)
    assert (result.success, result.total) == (True, 1)
    assert position.objective("mondfang").maximiser == frozenset({0})


# ===================================================================================================================
# RULES.md 1.2: Zwanzigerrufen contracts and sides
# ===================================================================================================================


def test_normal_calls_t19_when_forehand_holds_t20():
    rules = Zwanzigerrufen.rules(Zwanzigerrufen.parse_deal(ZR_WHOLE), "Normal")
    assert rules.pack[rules.contract.card].name == "T19"
    assert rules.declaring_side == frozenset({0, 1})  # T19 is with seat 2


def test_normal_calls_t20_when_forehand_holds_none():
    rules = Zwanzigerrufen.rules(Zwanzigerrufen.parse_deal(ZR_NONE), "Normal")
    assert rules.pack[rules.contract.card].name == "T20"
    assert rules.declaring_side == frozenset({0, 1})


def test_normal_calls_t16_when_forehand_holds_t20_to_t17():
    rules = Zwanzigerrufen.rules(Zwanzigerrufen.parse_deal(ZR_T16), "Normal")
    assert rules.pack[rules.contract.card].name == "T16"
    assert rules.declaring_side == frozenset({0, 1})


def test_partner_is_the_holder_of_the_called_card():
    rules = Zwanzigerrufen.rules(Zwanzigerrufen.parse_deal(ZR_T19_SEAT4), "Normal")
    assert rules.pack[rules.contract.card].name == "T19"
    assert rules.declaring_side == frozenset({0, 3})
    assert rules.defending_side == frozenset({1, 2})


def test_normal_with_explicit_called_card():
    """A whole deal's named card must be the one RULES.md 1.2 calls; ``called_tarock=any`` allows any card forehand
    lacks (a what-if), which changes the partner."""
    deal = Zwanzigerrufen.parse_deal(ZR_WHOLE)
    highest = Zwanzigerrufen.rules(deal, "Normal")
    named = Zwanzigerrufen.rules(deal, f"Normal {highest.pack[highest.contract.card].name}")
    assert named.declaring_side == highest.declaring_side
    with pytest.raises(InvalidContractError, match="the highest of T20..T16 she does not hold"):
        Zwanzigerrufen.rules(deal, "Normal T16")
    rules = Zwanzigerrufen.rules(deal, "Normal T16", variant={"called_tarock": "any"})
    assert rules.pack[rules.contract.card].name == "T16"
    assert rules.declaring_side == frozenset({0, 1})
    rules = Zwanzigerrufen.rules(Zwanzigerrufen.parse_deal(ZR_T19_SEAT4), "Normal XVI", variant="called_tarock=any")
    assert rules.declaring_side == frozenset({0, 1})  # T16 is with seat 2 in this deal


def test_forehand_holding_t20_to_t16_must_play_solo():
    deal = Zwanzigerrufen.parse_deal(ZR_ALL5)
    with pytest.raises(InvalidContractError) as info:
        Zwanzigerrufen.rules(deal, "Normal")
    assert "Solo" in str(info.value)
    assert Zwanzigerrufen.rules(deal, "Solo").declaring_side == frozenset({0})


@pytest.mark.parametrize("called", ["T20", "T18", "T17"])
def test_calling_own_card_is_an_error(called):
    with pytest.raises(InvalidContractError) as info:
        Zwanzigerrufen.rules(Zwanzigerrufen.parse_deal(ZR_WHOLE), f"Normal {called}")
    assert called in str(info.value)


def test_called_card_must_be_one_of_t20_to_t16():
    with pytest.raises(InvalidContractError):
        Zwanzigerrufen.parse_contract("Normal T15")
    with pytest.raises(InvalidContractError):
        Zwanzigerrufen.parse_contract("Normal TS")


def test_normal_ending_must_name_its_called_card():
    with pytest.raises(InvalidContractError):
        make_position("Zwanzigerrufen", "1: SK / HK / CK / DK", "Normal")


def test_normal_is_declared_by_forehand():
    with pytest.raises(InvalidContractError):
        Zwanzigerrufen.rules(Zwanzigerrufen.parse_deal(ZR_WHOLE), "Normal", declarer=2)


@pytest.mark.parametrize("declarer", [1, 2, 3, 4])
def test_solo_declarer_any_seat_alone_seat_1_leads(declarer):
    position = make_position("Zwanzigerrufen", ZR_WHOLE, "Solo", declarer=declarer)
    assert position.rules.declaring_side == frozenset({declarer - 1})
    assert position.rules.defending_side == frozenset(range(4)) - {declarer - 1}
    assert position.state.to_move == 0


def test_suit_solo_declarer_any_seat_alone_seat_1_leads():
    # seat 3 holds five hearts; seat 1 still leads
    position = make_position("Zwanzigerrufen", ZR_WHOLE, "SuitSolo", declarer=3)
    assert position.rules.declaring_side == frozenset({2})
    assert position.state.to_move == 0


def test_normal_game_seat_1_leads():
    position = make_position("Zwanzigerrufen", ZR_WHOLE, "Normal")
    assert position.state.to_move == 0
    assert position.state.legal_cards() == position.rules.deal.hands[0]  # lead: any card


def test_solo_tarocks_are_trump():
    assert winner("Zwanzigerrufen", "Solo", ["SK", "T4", "SQ", "SN"]) == "T4"


def test_suit_solo_tarocks_are_not_trump():
    assert winner("Zwanzigerrufen", "SuitSolo", ["SJ", "T20", "SQ", "SG"]) == "SQ"


def test_suit_solo_needs_five_suit_cards():
    # seat 1 holds SK SQ SN CK CQ: exactly five
    assert make_position("Zwanzigerrufen", ZR_WHOLE, "SuitSolo", declarer=1).rules.declaring_side == {0}
    four = ("1: TS T21 T20 T18 T17 SK SQ SN CK CQ / T19 T16 T15 T14 T13 SJ SG CN CJ CG / "
            "T12 T11 T10 T9 T8 T4 HK HQ HN HJ / T7 T6 T5 HG T1 DK DQ DN DJ DG")
    with pytest.raises(InvalidContractError) as info:
        make_position("Zwanzigerrufen", four, "SuitSolo", declarer=3)
    assert "seat 3 holds 4" in str(info.value)


# ===================================================================================================================
# RULES.md 1.3: legal cards, Normal game and Solo
# ===================================================================================================================


@pytest.mark.parametrize("contract, kwargs", NORMAL_AND_SOLO)
def test_lead_any_card(contract, kwargs):
    position = make_position("Zwanzigerrufen", "1: T1 SK HG / TS SQ CK / T21 SN DK / T4 SG CQ", contract, **kwargs)
    assert legal(position) == {"T1", "SK", "HG"}


@pytest.mark.parametrize("contract, kwargs", NORMAL_AND_SOLO)
def test_follow_suit_when_holding_it_even_with_tarocks(contract, kwargs):
    position = make_position("Zwanzigerrufen", "1: SK CK CQ / SQ T20 HK / SN SG DK / T4 T5 DQ", contract,
                             play=["SK"], **kwargs)
    assert legal(position) == {"SQ"}


@pytest.mark.parametrize("contract, kwargs", NORMAL_AND_SOLO)
def test_void_in_led_suit_plays_any_tarock(contract, kwargs):
    position = make_position("Zwanzigerrufen", "1: SK CK CQ / T20 T4 HK / SN SG DK / T5 T6 DQ", contract,
                             play=["SK"], **kwargs)
    assert legal(position) == {"T20", "T4"}


@pytest.mark.parametrize("contract, kwargs", NORMAL_AND_SOLO)
def test_void_in_led_suit_and_tarocks_plays_any_card(contract, kwargs):
    position = make_position("Zwanzigerrufen", "1: SK CJ / HK CQ / SN SG / T5 T6", contract, play=["SK"], **kwargs)
    assert legal(position) == {"HK", "CQ"}


@pytest.mark.parametrize("contract, kwargs", NORMAL_AND_SOLO)
def test_tarock_led_any_tarock_no_duty_to_beat(contract, kwargs):
    position = make_position("Zwanzigerrufen", "1: T10 SQ DJ / T21 T4 SK / T9 SG HQ / CK CQ DK", contract,
                             play=["T10"], **kwargs)
    assert legal(position) == {"T21", "T4"}


@pytest.mark.parametrize("contract, kwargs", NORMAL_AND_SOLO)
def test_suit_led_void_no_duty_to_overtrump(contract, kwargs):
    # SK is trumped with T10 by seat 2; seat 3, void in spades, may play the lower T4 as well as T20
    position = make_position("Zwanzigerrufen", "1: SK CJ / T10 HQ / T20 T4 / SQ DG", contract,
                             play=["SK", "T10"], **kwargs)
    assert legal(position) == {"T20", "T4"}


@pytest.mark.parametrize("contract, kwargs", NORMAL_AND_SOLO)
def test_pagat_has_no_playing_restriction(contract, kwargs):
    # even an announced Pagat may be played early under the default hard_pagat_reservation=false
    position = make_position("Zwanzigerrufen", "1: T10 SQ / T1 T4 / T9 SG / CK CQ", contract, play=["T10"],
                             pagat_announcer=2, **kwargs)
    assert legal(position) == {"T1", "T4"}
    position = make_position("Zwanzigerrufen", "1: T1 SQ / T10 T4 / T9 SG / CK CQ", contract, **kwargs)
    assert legal(position) == {"T1", "SQ"}


def test_illegal_card_is_refused():
    with pytest.raises(IllegalPlayError):
        make_position("Zwanzigerrufen", "1: SK CJ / SQ T4 / SN SG / CK CQ", "Solo", play=["SK", "T4"])


# ===================================================================================================================
# RULES.md 1.4: legal cards, Suit Solo
# ===================================================================================================================


@pytest.mark.parametrize("declarer", [1, 2])
def test_suit_solo_lead_suit_card_while_holding_one(declarer):
    # the restriction binds every player on lead, not only the declarer
    position = make_position("Zwanzigerrufen", "1: T20 T4 HG CQ / SK SQ SN SJ / TS T21 T19 T18 / DK DQ DN DJ",
                             "SuitSolo", declarer=declarer)
    assert legal(position) == {"HG", "CQ"}


def test_suit_solo_tarock_lead_only_without_suit_cards():
    position = make_position("Zwanzigerrufen", "1: T20 T4 / SK SQ / SN SJ / DK DQ", "SuitSolo")
    assert legal(position) == {"T20", "T4"}


def test_suit_solo_follow_suit():
    position = make_position("Zwanzigerrufen", "1: SK CJ / SQ T4 / SN SG / CK CQ", "SuitSolo", play=["SK"])
    assert legal(position) == {"SQ"}


def test_suit_solo_void_must_tarock_any():
    position = make_position("Zwanzigerrufen", "1: SK CJ CG / T20 T4 HK / SN SG DK / CK CQ DQ", "SuitSolo",
                             play=["SK"])
    assert legal(position) == {"T20", "T4"}


def test_suit_solo_void_without_tarocks_any_card():
    position = make_position("Zwanzigerrufen", "1: SK CJ / HK CQ / SN SG / T5 T6", "SuitSolo", play=["SK"])
    assert legal(position) == {"HK", "CQ"}


def test_suit_solo_tarock_lead_followed_by_tarock():
    position = make_position("Zwanzigerrufen", "1: T4 T5 / T20 SK / T21 SQ / T6 SG", "SuitSolo", play=["T4"])
    assert legal(position) == {"T20"}


def test_suit_solo_tarock_lead_without_tarocks_any_card():
    position = make_position("Zwanzigerrufen", "1: T4 T5 / HK SK / T21 SQ / T6 SG", "SuitSolo", play=["T4"])
    assert legal(position) == {"HK", "SK"}


# ===================================================================================================================
# RULES.md 1.5: trick winner
# ===================================================================================================================


@pytest.mark.parametrize("contract, kwargs", NORMAL_AND_SOLO)
@pytest.mark.parametrize("order", list(itertools.permutations(["TS", "T21", "T1"])))
@pytest.mark.parametrize("fourth_first", [False, True])
def test_sagotrick_any_order(contract, kwargs, order, fourth_first):
    cards = ["T4", *order] if fourth_first else [*order, "T4"]
    assert winner("Zwanzigerrufen", contract, cards, **kwargs) == "T1"


@pytest.mark.parametrize("contract, kwargs", NORMAL_AND_SOLO)
def test_sagotrick_with_suit_lead(contract, kwargs):
    # a spade lead, then the three trumps of the Sagotrick from players void in spades
    assert winner("Zwanzigerrufen", contract, ["SK", "TS", "T1", "T21"], **kwargs) == "T1"


@pytest.mark.parametrize("contract, kwargs", NORMAL_AND_SOLO)
def test_without_all_three_the_highest_tarock_wins(contract, kwargs):
    assert winner("Zwanzigerrufen", contract, ["T1", "TS", "T4", "T5"], **kwargs) == "TS"
    assert winner("Zwanzigerrufen", contract, ["T21", "T1", "T20", "T5"], **kwargs) == "T21"
    assert winner("Zwanzigerrufen", contract, ["SK", "T4", "T5", "SQ"], **kwargs) == "T5"


@pytest.mark.parametrize("contract, kwargs", NORMAL_AND_SOLO)
def test_without_tarocks_the_highest_card_of_the_led_suit_wins(contract, kwargs):
    assert winner("Zwanzigerrufen", contract, ["SJ", "SK", "CK", "HK"], **kwargs) == "SK"
    assert winner("Zwanzigerrufen", contract, ["SG", "CK", "HK", "DK"], **kwargs) == "SG"


TAROCK_ORDER = ["TS", "T21"] + [f"T{n}" for n in range(20, 3, -1)] + ["T1"]


@pytest.mark.parametrize("higher, lower", list(zip(TAROCK_ORDER, TAROCK_ORDER[1:])))
def test_tarock_order(higher, lower):
    assert winner("Zwanzigerrufen", "Solo", [lower, higher, "SG", "CG"]) == higher
    assert winner("Zwanzigerrufen", "Solo", [higher, lower, "SG", "CG"]) == higher


@pytest.mark.parametrize("suit", "SCHD")
@pytest.mark.parametrize("contract", ["Solo", "SuitSolo"])
def test_suit_rank_order_k_q_n_j_g(suit, contract):
    ranks = "KQNJG"
    other = [s for s in "SCHD" if s != suit]
    for higher, lower in zip(ranks, ranks[1:]):
        assert winner("Zwanzigerrufen", contract, [suit + lower, suit + higher, other[0] + "K", other[1] + "K"]) \
            == suit + higher


def test_suit_solo_suit_lead_tarock_never_wins():
    assert winner("Zwanzigerrufen", "SuitSolo", ["SG", "TS", "T21", "T20"]) == "SG"
    assert winner("Zwanzigerrufen", "SuitSolo", ["SG", "TS", "T21", "T1"]) == "SG"  # no Sagotrick on a suit lead


def test_suit_solo_tarock_lead_highest_tarock():
    assert winner("Zwanzigerrufen", "SuitSolo", ["T4", "T5", "SK", "HK"]) == "T5"
    assert winner("Zwanzigerrufen", "SuitSolo", ["T1", "T21", "T20", "SK"]) == "T21"


@pytest.mark.parametrize("order", list(itertools.permutations(["TS", "T21", "T1"])))
def test_suit_solo_tarock_lead_sagotrick(order):
    assert winner("Zwanzigerrufen", "SuitSolo", [*order, "T4"]) == "T1"


def test_sagotrick_is_not_a_mondfang():
    start = make_position("Zwanzigerrufen", "1: TS / T21 / T1 / T4", "Solo")
    result = solve(start.state, start.rules.objective("mondfang"))
    assert result.success is False and result.total == 0


def test_mondfang_charged_to_the_t21_side_even_if_the_partner_caught_it():
    # seat 1 (TS) and seat 2 (T21) are partners: TS catches the Mond of the own side, still a Mondfang against them
    start = make_position("Zwanzigerrufen", "1: TS / T21 / T4 / T5", "Normal T16", partner=2)
    objective = start.rules.objective("mondfang")
    assert objective.maximiser == frozenset({2, 3})
    assert solve(start.state, objective).success is True
    # the side it is for (3+4) holds no Sküs: the description says whom it is charged to, not who catches it
    assert objective.description == "the Sküs wins a trick with the Mond in it, charged to the Mond's side (Mondfang)"


def rule_book_legal(pack, hand: int, trick: tuple[int, ...], suit_solo: bool, flags: dict, reserved: bool) -> set[str]:
    """RULES.md 1.3/1.4 written again from the rule book: the cards a hand may play to ``trick``; ``reserved``: the
    player announced Pagat under hard_pagat_reservation."""
    cards = [c for c in range(len(pack)) if hand >> c & 1]
    suit_cards = [c for c in cards if pack[c].suit != "T"]
    tarocks = [c for c in cards if pack[c].suit == "T"]
    if not trick:
        allowed = suit_cards if suit_solo and suit_cards else cards
    elif pack[trick[0]].suit == "T":
        allowed = tarocks or cards
    else:
        allowed = [c for c in cards if pack[c].suit == pack[trick[0]].suit]
        if not allowed:
            strict = suit_solo and flags.get("suit_solo_follow") == "strict"
            allowed = (suit_cards if strict else tarocks) or cards
    pagat = pack.parse("T1").index
    if reserved and pagat in allowed and len(cards) > 1 and allowed != [pagat]:
        allowed.remove(pagat)  # kept for the last trick unless forced
    return {pack[c].name for c in allowed}


def rule_book_winner(pack, trick: tuple[int, ...], suit_solo: bool, flags: dict) -> str:
    """RULES.md 1.5 written again: the card that wins a full trick."""
    led = pack[trick[0]].suit
    if suit_solo and led != "T":
        return max((pack[c] for c in trick if pack[c].suit == led), key=lambda card: card.order).name
    names = [pack[c].name for c in trick]
    mode = flags.get("sagotrick", "any_order")
    if {"TS", "T21", "T1"} <= set(names) and mode != "off":
        if mode == "any_order" or names.index("T21") < names.index("TS") < names.index("T1"):
            return "T1"
    tarocks = [pack[c] for c in trick if pack[c].suit == "T"]
    return max(tarocks or [pack[c] for c in trick if pack[c].suit == led], key=lambda card: card.order).name


@pytest.mark.parametrize("contract", ["Normal", "Solo", "SuitSolo"])
def test_legal_cards_and_winners_agree_with_a_second_reading_of_the_rule_book(contract):
    """RULES.md 1.3-1.5 (and their flags sagotrick, suit_solo_follow, hard_pagat_reservation), written again from
    the rule book alone, against every card of seeded random playouts: the legal cards of each turn and the winner
    of each trick."""
    game = get_game("Zwanzigerrufen")
    rng = random.Random(f"rule book play {contract}")
    variants = [{}, {"sagotrick": "off"}, {"sagotrick": "mond_skus_pagat"}, {"suit_solo_follow": "strict"},
                {"hard_pagat_reservation": "true"}]
    turns = 0
    for number in range(40):
        flags = variants[number % len(variants)]
        deal = game.deal_random(rng, 4)
        announcer = deal.holder(game.pack.parse("T1").index) if flags.get("hard_pagat_reservation") else None
        extra = {} if announcer is None else {"pagat_announcer": announcer + 1}
        try:
            position = make_position(game, deal, contract, declarer=1 if contract == "Normal" else rng.randint(1, 4),
                                     variant=dict(flags, suit_solo_min_suit_cards="0"), **extra)
        except InvalidContractError:
            continue  # forehand holds T20..T16
        state, suit_solo = position.state, contract == "SuitSolo"
        while not state.is_over:
            seat = state.to_move
            expected = rule_book_legal(position.pack, state.hands[seat], tuple(state.trick), suit_solo, flags,
                                       seat == announcer)
            assert legal(Position(position.game, position.rules, state, ())) == expected
            card = rng.choice(state.legal_list())
            trick_cards = (*state.trick, card)
            state = state.advance(card)
            if len(trick_cards) == 4:
                last = state.history[-1]
                won = position.pack[last.cards[(last.winner - last.leader) % 4]].name
                assert won == rule_book_winner(position.pack, trick_cards, suit_solo, flags)
            turns += 1
    assert turns >= 1000


@pytest.mark.parametrize("contract, kwargs", [*NORMAL_AND_SOLO, pytest.param("SuitSolo", {}, id="suitsolo")])
@pytest.mark.parametrize("mode", ["any_order", "mond_skus_pagat", "off"])
def test_every_order_of_skus_mond_and_pagat_agrees_with_the_rule_book(contract, kwargs, mode):
    """RULES.md 1.5: every fall order of TS, T21, T1 with a fourth card (a tarock or a suit card, leading or not),
    under each ``sagotrick`` mode, is won as the second reading says."""
    pack = get_game("Zwanzigerrufen").pack
    for fourth in ("T4", "SK"):
        for order in itertools.permutations(["TS", "T21", "T1", fourth]):
            cards = tuple(pack.parse(name).index for name in order)
            expected = rule_book_winner(pack, cards, contract == "SuitSolo", {"sagotrick": mode})
            assert winner("Zwanzigerrufen", contract, list(order), variant={"sagotrick": mode}, **kwargs) == \
                expected, order


# ===================================================================================================================
# RULES.md 2.2: Schafkopf contracts, trumps, sides
# ===================================================================================================================

RUFER_TRUMPS = ["EO", "GO", "HO", "SO", "EU", "GU", "HU", "SU", "HA", "HZ", "HK", "H9", "H8", "H7"]
WENZ_TRUMPS = ["EU", "GU", "HU", "SU"]
SOLO_G_TRUMPS = ["EO", "GO", "HO", "SO", "EU", "GU", "HU", "SU", "GA", "GZ", "GK", "G9", "G8", "G7"]


def pairs(order):
    return list(zip(order, order[1:]))


@pytest.mark.parametrize("higher, lower", pairs(RUFER_TRUMPS))
def test_rufer_trump_order(higher, lower):
    for cards in ([lower, higher, "G7", "S7"], [higher, lower, "G7", "S7"], ["G8", lower, higher, "S7"]):
        assert winner("Schafkopf", "Rufer E", cards, partner=2) == higher


@pytest.mark.parametrize("higher, lower", pairs(WENZ_TRUMPS))
@pytest.mark.parametrize("contract", ["Wenz", "WenzTout"])
def test_wenz_trump_order(higher, lower, contract):
    for cards in ([lower, higher, "G7", "S7"], [higher, lower, "G7", "S7"], ["EA", lower, higher, "S7"]):
        assert winner("Schafkopf", contract, cards) == higher


@pytest.mark.parametrize("higher, lower", pairs(SOLO_G_TRUMPS))
@pytest.mark.parametrize("contract", ["Solo G", "SoloTout G"])
def test_solo_trump_order(higher, lower, contract):
    for cards in ([lower, higher, "E7", "S7"], [higher, lower, "E7", "S7"], ["HA", lower, higher, "S7"]):
        assert winner("Schafkopf", contract, cards) == higher


@pytest.mark.parametrize("suit", "EGS")
def test_rufer_plain_suits_a_z_k_9_8_7(suit):
    order = [suit + r for r in "AZK987"]
    other = [s for s in "EGS" if s != suit]
    for higher, lower in pairs(order):
        assert winner("Schafkopf", "Rufer E", [lower, higher, other[0] + "7", other[1] + "8"], partner=2) == higher


@pytest.mark.parametrize("suit", "EGHS")
def test_wenz_plain_suits_a_z_k_o_9_8_7(suit):
    order = [suit + r for r in "AZKO987"]
    other = [s for s in "EGHS" if s != suit]
    for higher, lower in pairs(order):
        assert winner("Schafkopf", "Wenz", [lower, higher, other[0] + "A", other[1] + "A"]) == higher


@pytest.mark.parametrize("suit", "EHS")
def test_solo_plain_suits_a_z_k_9_8_7(suit):
    order = [suit + r for r in "AZK987"]
    other = [s for s in "EHS" if s != suit]
    for higher, lower in pairs(order):
        assert winner("Schafkopf", "Solo G", [lower, higher, other[0] + "A", other[1] + "A"]) == higher


def test_rufer_hearts_are_trump():
    assert winner("Schafkopf", "Rufer G", ["EA", "H7", "EZ", "EK"], partner=2) == "H7"
    position = make_position("Schafkopf", "1: H8 G9 / EO G7 / H7 GA / S7 SA", "Rufer E", partner=2, play=["H8"])
    assert legal(position) == {"EO"}  # a heart lead is a trump lead


def test_wenz_obers_back_in_their_suits():
    assert winner("Schafkopf", "Wenz", ["EK", "EO", "E9", "EZ"]) == "EZ"
    assert winner("Schafkopf", "Wenz", ["E9", "EO", "GA", "SA"]) == "EO"
    assert winner("Schafkopf", "Wenz", ["GO", "EO", "HO", "SO"]) == "GO"
    # an acorn lead must be followed with the acorn Ober
    position = make_position("Schafkopf", "1: E9 G9 / EO G7 / H7 GA / S7 SA", "Wenz", play=["E9"])
    assert legal(position) == {"EO"}
    # and an Unter lead (trump) is not followed by an Ober
    position = make_position("Schafkopf", "1: EU G9 / EO GU / H7 GA / S7 SA", "Wenz", play=["EU"])
    assert legal(position) == {"GU"}


def test_wenz_hearts_plain():
    assert winner("Schafkopf", "Wenz", ["HA", "EA", "GA", "SA"]) == "HA"
    assert winner("Schafkopf", "Wenz", ["EA", "H7", "EZ", "EK"]) == "EA"
    assert winner("Schafkopf", "Wenz", ["HA", "SU", "HZ", "HK"]) == "SU"
    position = make_position("Schafkopf", "1: HA G9 / HO EU / H7 GA / S7 SA", "Wenz", play=["HA"])
    assert legal(position) == {"HO"}


def test_solo_hearts_plain_outside_a_hearts_solo():
    assert winner("Schafkopf", "Solo G", ["HA", "G7", "HZ", "HK"]) == "G7"
    assert winner("Schafkopf", "Solo G", ["HK", "HA", "E7", "S7"]) == "HA"
    position = make_position("Schafkopf", "1: H9 G9 / HO H7 / H8 GA / S7 SA", "Solo G", play=["H9"])
    assert legal(position) == {"H7"}  # HO is a trump, not a heart


def test_rufer_sides_caller_and_ace_holder():
    position = make_position("Schafkopf", SK_WHOLE, "Rufer E")
    assert position.rules.declaring_side == frozenset({0, 1})
    assert position.rules.defending_side == frozenset({2, 3})
    assert position.state.to_move == 0


@pytest.mark.parametrize("contract, declarer", [("Wenz", 3), ("Solo H", 4), ("Solo E", 1), ("WenzTout", 2),
                                                ("SoloTout H", 3)])
def test_declarer_alone_against_three_and_seat_1_leads(contract, declarer):
    position = make_position("Schafkopf", SK_WHOLE, contract, declarer=declarer)
    assert position.rules.declaring_side == frozenset({declarer - 1})
    assert position.state.to_move == 0


def test_tout_contracts_ask_for_all_eight_tricks():
    position = make_position("Schafkopf", SK_WHOLE, "WenzTout", declarer=3)
    objective = position.objective("tout")
    assert objective.target == 8 and objective.maximiser == frozenset({2})
    assert "tout" not in make_position("Schafkopf", SK_WHOLE, "Wenz", declarer=3).rules.objective_names()


def test_rufer_caller_holding_the_called_ace_is_an_error():
    with pytest.raises(InvalidContractError) as info:
        make_position("Schafkopf", SK_WHOLE, "Rufer E", declarer=2)
    assert "EA" in str(info.value)


def test_rufer_caller_without_a_plain_card_of_the_suit_is_an_error():
    # seat 1 holds GO and GU, which are trumps: no plain leaf
    with pytest.raises(InvalidContractError) as info:
        make_position("Schafkopf", SK_WHOLE, "Rufer G")
    assert "plain" in str(info.value)
    # bells: seat 1 holds SK S7, SA is with seat 2
    assert make_position("Schafkopf", SK_WHOLE, "Rufer S").rules.declaring_side == frozenset({0, 1})


@pytest.mark.parametrize("text", ["Rufer H", "Rufer h", "Sauspiel H"])
def test_hearts_cannot_be_called(text):
    with pytest.raises(InvalidContractError) as info:
        Schafkopf.parse_contract(text)
    assert "hearts" in str(info.value)


def test_solo_requires_a_plain_card_of_the_trump_suit():
    with pytest.raises(InvalidContractError) as info:
        make_position("Schafkopf", SK_WHOLE, "Solo G")  # seat 1: GO GU only
    assert "plain" in str(info.value)
    with pytest.raises(InvalidContractError):
        make_position("Schafkopf", SK_WHOLE, "SoloTout G")
    with pytest.raises(InvalidContractError):
        make_position("Schafkopf", SK_WHOLE, "Solo E", declarer=3)  # seat 3: EO EU only
    assert make_position("Schafkopf", SK_WHOLE, "Solo H", declarer=3).rules.declaring_side == frozenset({2})


def test_sie_needs_all_obers_and_unters():
    rules = Schafkopf.rules(Schafkopf.parse_deal(SK_SIE), "Sie", declarer=3)
    assert rules.declaring_side == frozenset({2})
    with pytest.raises(InvalidContractError):
        Schafkopf.rules(Schafkopf.parse_deal(SK_SIE), "Sie", declarer=1)
    with pytest.raises(InvalidContractError):
        Schafkopf.rules(Schafkopf.parse_deal(SK_WHOLE), "Sie", declarer=3)  # seat 3 lacks GO and GU


# ===================================================================================================================
# RULES.md 2.3: legal cards, winner, the called-ace rules
# ===================================================================================================================


def test_follow_effective_suit_obers_are_not_acorns_in_a_rufer():
    position = make_position("Schafkopf", "1: E9 G9 / EO E7 / EK GA / S7 SA", "Rufer G", partner=3, play=["E9"])
    assert legal(position) == {"E7"}
    position = make_position("Schafkopf", "1: E9 G9 / EO G7 / EK GA / S7 SA", "Rufer G", partner=3, play=["E9"])
    assert legal(position) == {"EO", "G7"}  # void in plain acorns: anything


def test_no_duty_to_trump():
    position = make_position("Schafkopf", "1: E9 G9 / HO G7 / EK GA / S7 SA", "Solo H", play=["E9"])
    assert legal(position) == {"HO", "G7"}


def test_no_duty_to_beat_or_overtrump():
    position = make_position("Schafkopf", "1: EK G9 / EA E7 / EZ GA / S7 SA", "Solo H", play=["EK"])
    assert legal(position) == {"EA", "E7"}
    position = make_position("Schafkopf", "1: HO G9 / EO H7 / EZ GA / S7 SA", "Solo H", play=["HO"])
    assert legal(position) == {"EO", "H7"}


def test_winner_highest_trump_else_highest_of_effective_suit_led():
    assert winner("Schafkopf", "Solo S", ["EA", "S7", "EZ", "HA"]) == "S7"
    assert winner("Schafkopf", "Solo S", ["E7", "GA", "E8", "HA"]) == "E8"
    assert winner("Schafkopf", "Solo S", ["E7", "EO", "EA", "SU"]) == "EO"


# Called-ace rules. Caller seat 1, Rufer E, h = seat 2 (holder of EA).

def test_rule1_called_ace_must_fall_to_the_first_acorn_lead():
    position = make_position("Schafkopf", "1: EK E7 S7 / EA EZ HU / GA GZ SA / HA HZ HK", "Rufer E", play=["EK"])
    assert legal(position) == {"EA"}


def test_rule1_binds_only_h():
    # h is seat 3 here; seat 2 (a defender) simply follows suit with any acorn
    position = make_position("Schafkopf", "1: EK S8 S7 / EZ E9 HU / EA GA GZ / HA HZ HK", "Rufer E", play=["EK"])
    assert position.rules.declaring_side == frozenset({0, 2})
    assert legal(position) == {"EZ", "E9"}
    position = make_position("Schafkopf", "1: EK S8 S7 / EZ E9 HU / EA GA GZ / HA HZ HK", "Rufer E",
                             play=["EK", "E9"])
    assert legal(position) == {"EA"}


def test_rule1_after_called_suit_led_the_ace_is_ordinary():
    position = make_position("Schafkopf", "1: E7 G8 S7 / EA E9 HU / GA GZ SA / HA HZ HK", "Rufer E", play=["E7"],
                             called_suit_led=True)
    assert legal(position) == {"EA", "E9"}


CALLED_LED_RECORD = """[Game "Schafkopf"]
[Deal "1: E7 G8 S7 / EA E9 HU / GA GZ SA / HA HZ HK"]
[Contract "Rufer E"]
[CalledSuitLed "{value}"]
[Play "1"]
E7
"""


@pytest.mark.parametrize("value, expected", [("yes", {"EA", "E9"}), ("no", {"EA"})])
def test_called_suit_led_tag_means_the_same(value, expected):
    position = parse_positions(CALLED_LED_RECORD.format(value=value))[0]
    assert legal(position) == expected


def test_rule2_no_discarding_the_called_ace():
    position = make_position("Schafkopf", "1: G7 E7 S7 / EA E9 HU / GA GZ SA / HA HZ HK", "Rufer E", play=["G7"])
    assert legal(position) == {"E9", "HU"}


def test_rule2_applies_to_a_trump_lead():
    position = make_position("Schafkopf", "1: HO E7 S7 / EA E9 G8 / GA GZ SA / HA HZ HK", "Rufer E", play=["HO"])
    assert legal(position) == {"E9", "G8"}


def test_rule2_unless_the_ace_is_the_last_card():
    position = make_position("Schafkopf", "1: G7 / EA / GA / HA", "Rufer E", play=["G7"])
    assert legal(position) == {"EA"}


def test_rule2_lifted_once_the_called_suit_was_led():
    position = make_position("Schafkopf", "1: G7 E7 S7 / EA E9 HU / GA GZ SA / HA HZ HK", "Rufer E", play=["G7"],
                             called_suit_led=True)
    assert legal(position) == {"EA", "E9", "HU"}


def test_rule2_a_trump_acorn_lead_is_not_a_called_suit_lead():
    # EO is a trump: the trick it leads does not set r_led, so the ace stays bound in the next trick
    position = make_position("Schafkopf", "1: EO G7 E7 / EA E9 E8 / GA GZ GK / SA SZ SK", "Rufer E", play=["EO"])
    assert legal(position) == {"E9", "E8"}
    position = make_position("Schafkopf", "1: EO G7 E7 / EA E9 E8 / GA GZ GK / SA SZ SK", "Rufer E",
                             play=["EO", "E9", "GA", "SA", "G7"])
    assert legal(position) == {"E8"}


def test_rule3_without_four_acorns_h_leads_the_ace_if_acorns_at_all():
    position = make_position("Schafkopf", "1: E7 G8 S7 S8 / EA EZ E9 GA / GZ GK SA SZ / HA HZ HK H9", "Rufer E",
                             leader=2)
    assert legal(position) == {"EA", "GA"}


def test_rule3_obers_and_unters_are_not_plain_acorns():
    position = make_position("Schafkopf", "1: E7 G8 S7 S8 S9 / EA EZ E9 EO EU / GZ GK SA SZ SK / HA HZ HK H9 H8",
                             "Rufer E", leader=2)
    assert legal(position) == {"EA", "EO", "EU"}


def test_rule3_exactly_ace_plus_three_may_run_away():
    position = make_position("Schafkopf", "1: E7 G8 S7 S8 / EA EZ E9 E8 / GZ GK SA SZ / HA HZ HK H9", "Rufer E",
                             leader=2)
    assert legal(position) == {"EA", "EZ", "E9", "E8"}


def test_rule3_after_running_away_the_ace_is_an_ordinary_card():
    deal = "1: EK E7 GA G7 S7 / EA EZ E9 E8 HO / GZ GK G9 S9 SZ / SA SK H7 H8 H9"
    # h runs away with E9; seat 1 wins with EK and leads again
    ran = ["E9", "GZ", "SA", "EK"]
    position = make_position("Schafkopf", deal, "Rufer E", leader=2, play=ran)
    assert position.state.to_move == 0
    # an acorn lead no longer forces the ace (rule 1 is spent)
    assert legal(make_position("Schafkopf", deal, "Rufer E", leader=2, play=[*ran, "E7"])) == {"EA", "EZ", "E8"}
    # and the ace may be discarded to another suit (rule 2 is spent)
    assert legal(make_position("Schafkopf", deal, "Rufer E", leader=2, play=[*ran, "GA"])) == {"EA", "EZ", "E8", "HO"}


def test_running_away_and_called_suit_led_in_an_ending_mean_the_same():
    # the position reached after h ran away, written as an ending: the same legal cards with [CalledSuitLed "yes"]
    deal = "1: EK E7 GA G7 S7 / EA EZ E9 E8 HO / GZ GK G9 S9 SZ / SA SK H7 H8 H9"
    after = make_position("Schafkopf", deal, "Rufer E", leader=2, play=["E9", "GZ", "SA", "EK"])
    ending = "1: E7 GA G7 S7 / EA EZ E8 HO / GK G9 S9 SZ / SK H7 H8 H9"
    assert [after.state.hands[s] for s in range(4)] == list(Schafkopf.parse_deal(ending).hands)
    for lead in ("E7", "GA"):
        played = make_position("Schafkopf", deal, "Rufer E", leader=2, play=["E9", "GZ", "SA", "EK", lead])
        tagged = make_position("Schafkopf", ending, "Rufer E", play=[lead], called_suit_led=True)
        untagged = make_position("Schafkopf", ending, "Rufer E", play=[lead])
        assert legal(played) == legal(tagged)
        assert legal(untagged) == ({"EA"} if lead == "E7" else {"EZ", "E8", "HO"})
        assert legal(tagged) != legal(untagged)


def test_rufer_caller_is_not_bound_by_the_called_ace_rules():
    position = make_position("Schafkopf", "1: EK E7 G7 / EA E9 HU / GA GZ SA / HA HZ HK", "Rufer E")
    assert legal(position) == {"EK", "E7", "G7"}


# ===================================================================================================================
# RULES.md 3.2: Kratzen play
# ===================================================================================================================


def test_kratzen_follow_without_beating_any_of_the_suit():
    position = make_position("Kratzen", "1: E9 G7 G8 / E8 E7 HA / GA GK GO", "Trump H", play=["E9"])
    assert legal(position) == {"E8", "E7"}


def test_kratzen_follow_and_beat_the_current_winner_not_the_lead():
    # EO beats E9; seat 3 must beat EO, so only EK, not EU
    position = make_position("Kratzen", "1: E9 G7 / EO G8 / EK EU / GA GK", "Trump H", play=["E9", "EO"])
    assert legal(position) == {"EK"}


def test_kratzen_void_must_overtrump():
    position = make_position("Kratzen", "1: E9 E8 E7 / HO G9 GZ / HK H7 G8", "Trump H", play=["E9", "HO"])
    assert legal(position) == {"HK"}


def test_kratzen_void_cannot_overtrump_must_still_trump():
    position = make_position("Kratzen", "1: E9 E8 / HA G9 / H7 G8", "Trump H", play=["E9", "HA"])
    assert legal(position) == {"H7"}


def test_kratzen_void_without_trumps_any_card():
    position = make_position("Kratzen", "1: E9 E8 / G8 S7 / EA G9", "Trump H", play=["E9"])
    assert legal(position) == {"G8", "S7"}


def test_kratzen_trump_lead_follow_and_beat():
    position = make_position("Kratzen", "1: H9 G7 G8 / HK H7 EA / GA GK GO", "Trump H", play=["H9"])
    assert legal(position) == {"HK"}
    position = make_position("Kratzen", "1: HK G7 G8 / H8 H7 EA / GA GK GO", "Trump H", play=["HK"])
    assert legal(position) == {"H8", "H7"}


def test_kratzen_weli_is_a_trump_and_follows_a_trump_lead():
    position = make_position("Kratzen", "1: H9 G7 / S6 EA / GA GK", "Trump H", play=["H9"])
    assert legal(position) == {"S6"}
    position = make_position("Kratzen", "1: S6 G7 / H7 EA / GA GK", "Trump H", play=["S6"])
    assert legal(position) == {"H7"}


def test_kratzen_weli_is_not_a_bell():
    position = make_position("Kratzen", "1: S9 G7 / S6 S7 / GA GK", "Trump H", play=["S9"])
    assert legal(position) == {"S7"}
    assert winner("Kratzen", "Trump H", ["S9", "SA", "S6"]) == "S6"


@pytest.mark.parametrize("suit", "EGHS")
def test_kratzen_weli_between_trump_ace_and_trump_king(suit):
    assert winner("Kratzen", f"Trump {suit}", [suit + "K", "S6", "EZ" if suit != "E" else "GZ"]) == "S6"
    assert winner("Kratzen", f"Trump {suit}", ["S6", suit + "K", "EZ" if suit != "E" else "GZ"]) == "S6"
    assert winner("Kratzen", f"Trump {suit}", ["S6", suit + "A", "EZ" if suit != "E" else "GZ"]) == suit + "A"
    assert winner("Kratzen", f"Trump {suit}", [suit + "A", "S6", "EZ" if suit != "E" else "GZ"]) == suit + "A"


KRATZEN_HEARTS_TRUMPS = ["HA", "S6", "HK", "HO", "HU", "HZ", "H9", "H8", "H7"]


@pytest.mark.parametrize("higher, lower", pairs(KRATZEN_HEARTS_TRUMPS))
def test_kratzen_trump_order(higher, lower):
    assert winner("Kratzen", "Trump H", [lower, higher, "G7"]) == higher
    assert winner("Kratzen", "Trump H", ["E7", lower, higher]) == higher


@pytest.mark.parametrize("suit", "EGS")
def test_kratzen_plain_order_ten_below_unter(suit):
    order = [suit + r for r in "AKOUZ987"]
    other = "G" if suit != "G" else "E"
    for higher, lower in pairs(order):
        # hearts are trump but none is played; the highest of the led suit wins
        assert winner("Kratzen", "Trump H", [lower, higher, other + "A"]) == higher


def test_kratzen_winner_highest_trump_else_led_suit():
    assert winner("Kratzen", "Trump H", ["EZ", "EU", "E9"]) == "EU"
    assert winner("Kratzen", "Trump H", ["EK", "GA", "E7"]) == "EK"
    assert winner("Kratzen", "Trump H", ["EA", "H7", "EK"]) == "H7"


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_kratzen_3_to_6_seats_of_4_cards(seats):
    cards = [c.name for c in Kratzen.pack if c.name != "S6"]
    hands = [" ".join(cards[4 * s:4 * s + 4]) for s in range(seats)]
    position = make_position("Kratzen", " / ".join(hands), "Trump H")
    assert position.state.seats == seats
    assert position.rules.tricks_in_deal == 4
    assert position.state.to_move == 0


@pytest.mark.parametrize("declarer", [1, 2, 3, 4])
def test_kratzen_attacker_leads_trick_1(declarer):
    position = make_position("Kratzen", "1: EA EK EO EU / GA GK GO GU / HA HK HO HU / SA SK SO SU", "Trump H",
                             declarer=declarer)
    assert position.state.to_move == declarer - 1
    assert position.rules.declarer == declarer - 1
    forehand = make_position("Kratzen", "1: EA EK EO EU / GA GK GO GU / HA HK HO HU / SA SK SO SU", "Trump H",
                             declarer=declarer, variant={"first_leader": "forehand"})
    assert forehand.state.to_move == 0


@pytest.mark.parametrize("declarer", [1, 2, 3, 4])
def test_an_ending_is_led_by_seat_1_unless_it_names_a_leader(declarer):
    # FORMAT.md: an ending's first trick "is led by [Leader "N"] (default 1)"; Kratzen's first_leader rule is about a
    # whole deal's first trick (an ending's attacker was led to seat 1 by it before)
    ending = make_position("Kratzen", "1: EA EK / GA GK / HA HK / SA SK", "Trump H", declarer=declarer)
    assert ending.state.to_move == 0 and ending.rules.declarer == declarer - 1
    led = make_position("Kratzen", "1: EA EK / GA GK / HA HK / SA SK", "Trump H", declarer=declarer, leader=3)
    assert led.state.to_move == 2
    for game, deal, contract in (("Schafkopf", "1: EA EK / GA GK / HA HK / SA SK", "Solo H"),
                                 ("Zwanzigerrufen", "1: T1 T4 / T5 T6 / T7 T8 / T9 T10", "Solo")):
        assert make_position(game, deal, contract, declarer=declarer).state.to_move == 0


def test_kratzen_trumps_are_the_trump_suit_and_the_weli():
    rules = make_position("Kratzen", "1: EA / GA / HA", "Trump E").rules
    trumps = set(rules.pack.names(rules.trump_mask))
    assert trumps == {"E" + r for r in "AKOUZ987"} | {"S6"}


@pytest.mark.parametrize("game, text, canonical", [
    ("Zwanzigerrufen", "Normal", "Normal"), ("Zwanzigerrufen", "Rufer", "Normal"), ("Zwanzigerrufen", "call", "Normal"),
    ("Zwanzigerrufen", "Normal XIX", "Normal T19"), ("Zwanzigerrufen", "Schwarzer", "Solo"),
    ("Zwanzigerrufen", "Farbensolo", "SuitSolo"), ("Zwanzigerrufen", "Suit Solo", "SuitSolo"),
    ("Schafkopf", "Sauspiel S", "Rufer S"), ("Schafkopf", "Ruf G", "Rufer G"), ("Schafkopf", "Solo ♥", "Solo H"),
    ("Schafkopf", "Wenz Tout", "WenzTout"), ("Schafkopf", "wenztout", "WenzTout"),
    ("Schafkopf", "SoloTout E", "SoloTout E"),
    ("Schafkopf", "Sie", "Sie"), ("Kratzen", "Trumpf H", "Trump H"), ("Kratzen", "Trump H 7Muss", "Trump H SevenMuss"),
    # RULES.md's own spelling, Seven-Muss, and the German Siebenermuss are read too
    ("Kratzen", "Trump H Seven-Muss", "Trump H SevenMuss"), ("Kratzen", "Trump S Seven Muss", "Trump S SevenMuss"),
    ("Kratzen", "Trumpf G Siebenermuss", "Trump G SevenMuss"), ("Kratzen", "Trump E muss", "Trump E Muss"),
])
def test_every_contract_spelling_of_format_md(game, text, canonical):
    """docs/format.md's table of contracts: each spelling it lists reads as the contract it names ("Wenz Tout" not as a
    suit named "Tout")."""
    assert get_game(game).parse_contract(text).text == canonical
