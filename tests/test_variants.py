"""Variant flags (RULES.md): each flag's effect on play, bid checks or objectives, shown by the same position with the
flag switched; scoring-only flags parse, default and leave play alone; unknown flags and bad values raise
VariantError naming the flag."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver import make_position, parse_positions
from solver.errors import InvalidContractError, StichError, VariantError
from solver.games import Kratzen, Schafkopf, Zwanzigerrufen
from solver.search.reference import perft, solve
from solver.variant import Variant


def legal(position) -> set[str]:
    return set(position.pack.names(position.state.legal_cards()))


def winning_card(position) -> str:
    trick = position.state.history[-1]
    return position.pack[trick.cards[(trick.winner - trick.leader) % len(trick.cards)]].name


def winner(game, contract: str, cards: list[str], **kwargs) -> str:
    position = make_position(game, "1: " + " / ".join(cards), contract, play=cards, **kwargs)
    return winning_card(position)


ZR_WHOLE = ("1: TS T21 T20 T18 T17 SK SQ SN CK CQ / T19 T16 T15 T14 T13 SJ SG CN CJ CG / "
            "T12 T11 T10 T9 T8 HK HQ HN HJ HG / T7 T6 T5 T4 T1 DK DQ DN DJ DG")
# seat 3 holds 4 suit cards, seat 4 holds 6
ZR_FOUR_SIX = ("1: TS T21 T20 T18 T17 SK SQ SN CK CQ / T19 T16 T15 T14 T13 SJ SG CN CJ CG / "
               "T12 T11 T10 T9 T8 T4 HK HQ HN HJ / T7 T6 T5 HG T1 DK DQ DN DJ DG")
SK_WHOLE = ("1: EZ E9 GO GU HA HZ SK S7 / EA EK E8 GA GZ GK SA SZ / EO HO SO EU HU SU H9 H8 / "
            "E7 G9 G8 G7 HK H7 S9 S8")


# ===================================================================================================================
# Defaults
# ===================================================================================================================


def test_zwanzigerrufen_defaults():
    assert dict(Zwanzigerrufen.variant()) == {
        "tie_44": "declarers_lose", "solo_value": 4, "called_tarock": "highest", "suit_solo_min_suit_cards": 5,
        "hard_pagat_reservation": False,
        "suit_solo_follow": "tarockzwang", "sagotrick": "any_order", "pagat_via_sagotrick": True,
        "mondfang": "team", "card_bonus_basis": "dealt_hand", "valat_mode": "separate",
        "double_valat_in_solo": False,
    }


def test_schafkopf_defaults():
    assert dict(Schafkopf.variant()) == {
        "solo_requires_plain_trump_card": True, "runaway_count_at": "lead", "laufende_mode": "standard"}


def test_kratzen_defaults():
    assert dict(Kratzen.variant()) == {"weli_also_bells": False, "first_leader": "attacker", "must_undertrump": True}


def test_default_variant_text_is_empty():
    assert Zwanzigerrufen.variant().text() == ""
    assert Zwanzigerrufen.variant().changed() == {}
    variant = Zwanzigerrufen.variant("sagotrick=off, hard_pagat_reservation=yes")
    assert variant.changed() == {"sagotrick": "off", "hard_pagat_reservation": True}
    assert variant.text() == "hard_pagat_reservation=true, sagotrick=off"


# ===================================================================================================================
# Unknown flags and bad values
# ===================================================================================================================


@pytest.mark.parametrize("game, flag", [
    ("Zwanzigerrufen", "no_such_flag"), ("Zwanzigerrufen", "must_undertrump"), ("Schafkopf", "sagotrick"),
    ("Kratzen", "runaway_count_at"), ("Schafkopf", "tie44"),
])
def test_unknown_flag_raises_variant_error_naming_it(game, flag):
    with pytest.raises(VariantError) as info:
        make_position(game, "1: " + {"Zwanzigerrufen": "SK / HK / CK / DK", "Schafkopf": "EA / GA / HA / SA",
                                     "Kratzen": "EA / GA / HA"}[game],
                      {"Zwanzigerrufen": "Solo", "Schafkopf": "Wenz", "Kratzen": "Trump H"}[game],
                      variant={flag: "true"})
    assert flag in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, StichError)


@pytest.mark.parametrize("game, flag, message", [
    (Zwanzigerrufen, "must_undertrump", "variant flag must_undertrump is Kratzen's, not Zwanzigerrufen's "
                                        "(Zwanzigerrufen's flags: called_tarock, "),
    (Kratzen, "sagotrick", "variant flag sagotrick is Zwanzigerrufen's, not Kratzen's (Kratzen's flags: "
                           "first_leader, must_undertrump, weli_also_bells)"),
    (Kratzen, "SagoTrick", "variant flag sagotrick is Zwanzigerrufen's, not Kratzen's"),  # the flag's name, as spelt
    (Zwanzigerrufen, "weli_also_bels", "unknown variant flag 'weli_also_bels'; did you mean 'weli_also_bells'? "
                                       "(a flag of Kratzen, not of Zwanzigerrufen; Zwanzigerrufen's flags: "),
    (Schafkopf, "sagotrik", "did you mean 'sagotrick'? (a flag of Zwanzigerrufen, not of Schafkopf; "),
    (Kratzen, "must_undertrum", "unknown variant flag 'must_undertrum'; did you mean 'must_undertrump'? (Kratzen's "
                                "flags: first_leader, must_undertrump, weli_also_bells)"),
    (Schafkopf, "zzz", "unknown variant flag 'zzz' (Schafkopf's flags: "),
])
def test_another_games_flag_is_named_as_such(game, flag, message):
    """A flag spelt right but of another game is not refused as "unknown variant flag" with no hint, which reads as a
    typo: the message names the game whose flag it is, and a misspelling of another game's flag suggests it."""
    with pytest.raises(VariantError) as info:
        game.variant({flag: "true"})
    assert message in str(info.value)
    with pytest.raises(VariantError) as info:
        game.variant(f"{flag}=true")  # the text form, as a [Variant] tag and --variant give it
    assert message in str(info.value)


@pytest.mark.parametrize("game, text, message", [
    (Zwanzigerrufen, "sagotrick=any-order", "takes any_order | mond_skus_pagat | off, not 'any-order'; "
                                            "did you mean 'any_order'?"),
    (Zwanzigerrufen, "tie_44=no-score", "takes declarers_lose | no_score, not 'no-score'; did you mean 'no_score'?"),
    (Kratzen, "must_undertrump=ture", "takes true or false, not 'ture'; did you mean 'true'?"),
    (Schafkopf, "runaway_count_at=dael", "takes lead | deal, not 'dael'; did you mean 'deal'?"),
    (Kratzen, "first_leader=x", "takes attacker | forehand, not 'x'"),
])
def test_a_misspelt_value_suggests_the_closest(game, text, message):
    """A value with a hyphen for the underscore or a typo named every value but not the one meant, as a misspelt
    flag's name does."""
    with pytest.raises(VariantError) as info:
        game.variant(text)
    assert str(info.value).endswith(message)


def test_unknown_flag_in_text_form():
    with pytest.raises(VariantError) as info:
        Zwanzigerrufen.variant("tie_44=no_score, bogus=1")
    assert "bogus" in str(info.value)


def test_pair_without_equals_sign():
    with pytest.raises(VariantError) as info:
        Zwanzigerrufen.variant("sagotrick")
    assert "sagotrick" in str(info.value)


@pytest.mark.parametrize("game, flag, value", [
    (Zwanzigerrufen, "tie_44", "maybe"),
    (Zwanzigerrufen, "solo_value", "3"),
    (Zwanzigerrufen, "solo_value", "6"),
    (Zwanzigerrufen, "solo_value", "four"),
    (Zwanzigerrufen, "suit_solo_min_suit_cards", "-1"),
    (Zwanzigerrufen, "suit_solo_min_suit_cards", "11"),
    (Zwanzigerrufen, "hard_pagat_reservation", "perhaps"),
    (Zwanzigerrufen, "suit_solo_follow", "loose"),
    (Zwanzigerrufen, "sagotrick", "skus_mond_pagat"),
    (Zwanzigerrufen, "pagat_via_sagotrick", "2"),
    (Zwanzigerrufen, "mondfang", "side"),
    (Zwanzigerrufen, "card_bonus_basis", "won"),
    (Zwanzigerrufen, "valat_mode", "double"),
    (Zwanzigerrufen, "double_valat_in_solo", "twice"),
    (Schafkopf, "solo_requires_plain_trump_card", "sometimes"),
    (Schafkopf, "runaway_count_at", "trick"),
    (Schafkopf, "laufende_mode", "never"),
    (Kratzen, "weli_also_bells", "hearts"),
    (Kratzen, "first_leader", "dealer"),
    (Kratzen, "must_undertrump", "maybe"),
])
def test_bad_value_raises_variant_error_naming_the_flag(game, flag, value):
    with pytest.raises(VariantError) as info:
        game.variant({flag: value})
    assert flag in str(info.value)
    assert value in str(info.value)
    with pytest.raises(VariantError):
        game.variant(f"{flag}={value}")


def test_flag_names_and_word_values_are_case_insensitive():
    variant = Zwanzigerrufen.variant({"Sagotrick": "OFF", "SUIT_SOLO_FOLLOW": "Strict"})
    assert variant["sagotrick"] == "off" and variant["suit_solo_follow"] == "strict"


def test_a_mapping_naming_a_flag_twice_in_two_spellings_is_refused():
    # a dict's keys differ where the flag's names do not: refused, not one of the two values kept without a word
    with pytest.raises(VariantError, match="variant flag sagotrick is given twice"):
        Zwanzigerrufen.variant({"Sagotrick": "off", "sagotrick": "any_order"})
    with pytest.raises(VariantError, match="variant flag sagotrick is given twice"):
        make_position(Zwanzigerrufen, "1: T17 SK / T1 T19 / TS DQ / T21 T11", "Solo", declarer=3,
                      variant={"SAGOTRICK": "off", "sagotrick ": "mond_skus_pagat"})


def test_a_batch_given_one_flag_under_two_spellings_is_refused_before_its_output_is_opened(tmp_path):
    # wrong whatever the records: refused once before the output is opened, not as each record's own error with the
    # output keeping the question for good
    from solver.batch import solve_batch

    out = tmp_path / "out.jsonl"
    with pytest.raises(VariantError, match=r"variant flag sagotrick is given twice \('Sagotrick' and 'sagotrick'\)"):
        solve_batch(Path(__file__).parent.parent / "examples" / "valat.tbn", out,
                    variant={"Sagotrick": "off", "sagotrick": "any_order"})
    assert not out.exists()


def test_a_flag_given_over_a_variant_tag_replaces_it_however_spelt():
    text = ('[Game "Zwanzigerrufen"]\n[Variant "sagotrick=off"]\n[Deal "1: T17 SK / T1 T19 / TS DQ / T21 T11"]\n'
            '[Contract "Solo"]\n[Declarer "3"]\n')
    for given in ({"SAGOTRICK": "any_order"}, {" Sagotrick ": "any_order"}, "SAGOTRICK=any_order"):
        position = parse_positions(text, name="v.tbn", variant=given)[0]
        assert position.rules.variant["sagotrick"] == "any_order" and position.record.get("Variant") is None


@pytest.mark.parametrize("text, value", [("true", True), ("yes", True), ("on", True), ("1", True),
                                         ("false", False), ("no", False), ("off", False), ("0", False)])
def test_boolean_spellings(text, value):
    assert Zwanzigerrufen.variant({"hard_pagat_reservation": text})["hard_pagat_reservation"] is value


def test_variant_is_immutable_and_replace_makes_a_new_one():
    variant = Zwanzigerrufen.variant()
    other = variant.replace(sagotrick="off")
    assert variant["sagotrick"] == "any_order" and other["sagotrick"] == "off"
    assert variant != other and hash(variant) != hash(other)
    assert other == Zwanzigerrufen.variant("sagotrick=off")
    with pytest.raises(VariantError):
        variant.replace(sagotrick="sometimes")


# ===================================================================================================================
# Zwanzigerrufen
# ===================================================================================================================


@pytest.mark.parametrize("value", ["declarers_lose", "no_score"])
def test_tie_44_parses_and_the_game_objective_still_needs_45(value):
    # tie_44 is a scoring flag: in both readings 44:44 is no win for the declarers, so the `game` objective (D reaches
    # 45) is the same and play is unchanged.
    variant = Zwanzigerrufen.variant({"tie_44": value})
    assert variant["tie_44"] == value
    position = make_position("Zwanzigerrufen", ZR_WHOLE, "Normal", variant=variant)
    default = make_position("Zwanzigerrufen", ZR_WHOLE, "Normal")
    assert position.objective("game") == default.objective("game")
    assert position.objective("game").target == 45
    assert position.state.legal_cards() == default.state.legal_cards()


@pytest.mark.parametrize("value", [4, 5, "4", "5"])
def test_solo_value_parses_4_or_5_and_leaves_play_alone(value):
    # solo_value is scoring only (the game value of a Solo): play and objectives are the same either way.
    variant = Zwanzigerrufen.variant({"solo_value": value})
    assert variant["solo_value"] == int(value)
    ending = "1: TS SK HG / T21 SQ CK / T1 T4 DK / T20 SN CQ"
    position = make_position("Zwanzigerrufen", ending, "Solo", variant=variant)
    default = make_position("Zwanzigerrufen", ending, "Solo")
    assert perft(position.state, 12) == perft(default.state, 12)
    assert solve(position.state, position.objective("points")).total == \
        solve(default.state, default.objective("points")).total


def test_suit_solo_min_suit_cards_bid_check():
    # seat 3 holds 4 suit cards: refused at the default 5, accepted at 4
    with pytest.raises(InvalidContractError) as info:
        make_position("Zwanzigerrufen", ZR_FOUR_SIX, "SuitSolo", declarer=3)
    assert "at least 5" in str(info.value)
    position = make_position("Zwanzigerrufen", ZR_FOUR_SIX, "SuitSolo", declarer=3,
                             variant={"suit_solo_min_suit_cards": 4})
    assert position.rules.declaring_side == frozenset({2})
    # seat 4 holds 6: accepted at 6, refused at 7
    make_position("Zwanzigerrufen", ZR_FOUR_SIX, "SuitSolo", declarer=4, variant={"suit_solo_min_suit_cards": 6})
    with pytest.raises(InvalidContractError) as info:
        make_position("Zwanzigerrufen", ZR_FOUR_SIX, "SuitSolo", declarer=4, variant={"suit_solo_min_suit_cards": 7})
    assert "at least 7" in str(info.value)


def test_hard_pagat_reservation_follow():
    ending = "1: T10 SQ / T1 T4 / T9 SG / CK CQ"
    assert legal(make_position("Zwanzigerrufen", ending, "Solo", play=["T10"], pagat_announcer=2)) == {"T1", "T4"}
    assert legal(make_position("Zwanzigerrufen", ending, "Solo", play=["T10"], pagat_announcer=2,
                               variant={"hard_pagat_reservation": True})) == {"T4"}


def test_hard_pagat_reservation_lead():
    ending = "1: T1 SQ / T10 T4 / T9 SG / CK CQ"
    assert legal(make_position("Zwanzigerrufen", ending, "Solo", pagat_announcer=1)) == {"T1", "SQ"}
    assert legal(make_position("Zwanzigerrufen", ending, "Solo", pagat_announcer=1,
                               variant={"hard_pagat_reservation": True})) == {"SQ"}


def test_hard_pagat_reservation_unless_forced():
    # T10 led, the announcer's only tarock is T1: he must play it
    ending = "1: T10 SQ / T1 SK / T9 SG / CK CQ"
    assert legal(make_position("Zwanzigerrufen", ending, "Solo", play=["T10"], pagat_announcer=2,
                               variant={"hard_pagat_reservation": True})) == {"T1"}


def test_hard_pagat_reservation_last_trick():
    ending = "1: T10 / T1 / T9 / CK"
    assert legal(make_position("Zwanzigerrufen", ending, "Solo", play=["T10"], pagat_announcer=2,
                               variant={"hard_pagat_reservation": True})) == {"T1"}


def test_hard_pagat_reservation_binds_only_the_announcer():
    """The reservation follows the announcement, not the card: seat 2 holding T1 keeps it when it announced the
    Pagat and plays it freely when no one did. Another seat cannot announce it (docs/scoring.md: the Pagat's holder
    announces it), so the reservation never binds a seat without T1: the rules refuse that state as scoring does."""
    ending = "1: T10 SQ / T1 T4 / T9 SG / CK CQ"
    flag = {"hard_pagat_reservation": True}
    assert legal(make_position("Zwanzigerrufen", ending, "Solo", play=["T10"], pagat_announcer=2,
                               variant=flag)) == {"T4"}
    assert legal(make_position("Zwanzigerrufen", ending, "Solo", play=["T10"], variant=flag)) == {"T1", "T4"}
    with pytest.raises(InvalidContractError, match=r"^bad announcement: seat 3: Pagat Ultimo is announced by the "
                                                   r"Pagat's holder, seat 2 \(who announces it plays T1"):
        make_position("Zwanzigerrufen", ending, "Solo", play=["T10"], pagat_announcer=3, variant=flag)
    # an ending whose hands hold no Pagat takes any seat's announcement (it fails), and binds no card
    assert legal(make_position("Zwanzigerrufen", "1: T10 SQ / T5 T4 / T9 SG / CK CQ", "Solo", play=["T10"],
                               pagat_announcer=3, variant=flag)) == {"T5", "T4"}


def test_hard_pagat_reservation_from_a_record_with_announcements():
    record = """[Game "Zwanzigerrufen"]
[Deal "1: T10 SQ / T1 T4 / T9 SG / CK CQ"]
[Contract "Solo"]
[Announcements "2: Pagat Ultimo"]
[Variant "{variant}"]
[Play "1"]
T10
"""
    assert legal(parse_positions(record.format(variant="hard_pagat_reservation=true"))[0]) == {"T4"}
    assert legal(parse_positions(record.format(variant="hard_pagat_reservation=false"))[0]) == {"T1", "T4"}


def test_a_record_whose_pagat_another_seat_announced_is_refused_at_its_item():
    """Reading the record checks the announcer against the tag: seat 3 announcing the Pagat seat 2 holds is refused with
    scoring's message, at the item, not shown and solved (and under hard_pagat_reservation binding seat 3, not the
    holder)."""
    record = """[Game "Zwanzigerrufen"]
[Deal "1: T10 SQ / T1 T4 / T9 SG / CK CQ"]
[Contract "Solo"]
[Announcements "2: Kontra; 3: Pagat Ultimo"]
"""
    with pytest.raises(StichError) as refused:
        parse_positions(record, name="pagat.tbn")
    assert str(refused.value) == ("pagat.tbn:4:31: bad announcement: seat 3: Pagat Ultimo is announced by the Pagat's "
                                  "holder, seat 2 (who announces it plays T1 to the last trick) (got 'Pagat Ultimo', "
                                  "expected announcements that RULES.md 1.7 allows)")


def test_suit_solo_follow():
    ending = "1: SQ SK / T20 HG / SG T5 / CK T6"
    assert legal(make_position("Zwanzigerrufen", ending, "SuitSolo", play=["SQ"])) == {"T20"}
    assert legal(make_position("Zwanzigerrufen", ending, "SuitSolo", play=["SQ"],
                               variant={"suit_solo_follow": "tarockzwang"})) == {"T20"}
    assert legal(make_position("Zwanzigerrufen", ending, "SuitSolo", play=["SQ"],
                               variant={"suit_solo_follow": "strict"})) == {"HG"}


def test_suit_solo_follow_strict_without_suit_cards_plays_tarocks():
    ending = "1: SQ SK / T20 T4 / SG T5 / CK T6"
    assert legal(make_position("Zwanzigerrufen", ending, "SuitSolo", play=["SQ"],
                               variant={"suit_solo_follow": "strict"})) == {"T20", "T4"}


def test_suit_solo_follow_strict_does_not_touch_a_tarock_lead_or_other_contracts():
    ending = "1: T5 T8 / T20 HG / SG T6 / CK T7"
    assert legal(make_position("Zwanzigerrufen", ending, "SuitSolo", play=["T5"],
                               variant={"suit_solo_follow": "strict"})) == {"T20"}
    ending = "1: SQ SK / T20 HG / SG T5 / CK T6"
    assert legal(make_position("Zwanzigerrufen", ending, "Solo", play=["SQ"],
                               variant={"suit_solo_follow": "strict"})) == {"T20"}


@pytest.mark.parametrize("cards, expected", [
    (["T21", "TS", "T1", "T4"], {"any_order": "T1", "mond_skus_pagat": "T1", "off": "TS"}),
    (["TS", "T21", "T1", "T4"], {"any_order": "T1", "mond_skus_pagat": "TS", "off": "TS"}),
    (["T1", "T21", "TS", "T4"], {"any_order": "T1", "mond_skus_pagat": "TS", "off": "TS"}),
    (["T4", "T21", "TS", "T1"], {"any_order": "T1", "mond_skus_pagat": "T1", "off": "TS"}),
    (["T21", "T1", "TS", "T4"], {"any_order": "T1", "mond_skus_pagat": "TS", "off": "TS"}),
    (["T21", "T4", "TS", "T1"], {"any_order": "T1", "mond_skus_pagat": "T1", "off": "TS"}),
])
@pytest.mark.parametrize("mode", ["any_order", "mond_skus_pagat", "off"])
def test_sagotrick(cards, expected, mode):
    assert winner("Zwanzigerrufen", "Solo", cards, variant={"sagotrick": mode}) == expected[mode]


@pytest.mark.parametrize("mode, expected", [("any_order", "T1"), ("mond_skus_pagat", "TS"), ("off", "TS")])
def test_sagotrick_in_a_suit_solo_tarock_lead(mode, expected):
    assert winner("Zwanzigerrufen", "SuitSolo", ["TS", "T21", "T1", "T4"], variant={"sagotrick": mode}) == expected


def test_sagotrick_off_makes_the_trick_a_mondfang():
    start = make_position("Zwanzigerrufen", "1: TS / T21 / T1 / T4", "Solo")
    assert solve(start.state, start.rules.objective("mondfang")).success is False
    start = make_position("Zwanzigerrufen", "1: TS / T21 / T1 / T4", "Solo", variant={"sagotrick": "off"})
    assert solve(start.state, start.rules.objective("mondfang")).success is True


@pytest.mark.parametrize("value, success", [(True, True), (False, False)])
def test_pagat_via_sagotrick(value, success):
    # a one-trick ending: T1 (seat 3) wins the last trick by a Sagotrick
    start = make_position("Zwanzigerrufen", "1: T21 / TS / T1 / T4", "Solo", variant={"pagat_via_sagotrick": value})
    rules = start.rules
    objective = rules.objective("pagat_ultimo")
    assert objective.maximiser == frozenset({1, 2, 3})  # the side of the T1 holder
    result = solve(start.state, objective)
    assert result.success is success
    assert result.total == (1 if success else 0)


@pytest.mark.parametrize("value", [True, False])
def test_pagat_via_sagotrick_does_not_touch_a_plain_pagat_win(value):
    start = make_position("Zwanzigerrufen", "1: SK / T1 / SQ / SG", "Solo", variant={"pagat_via_sagotrick": value})
    assert solve(start.state, start.rules.objective("pagat_ultimo")).success is True


@pytest.mark.parametrize("value", ["team", "player"])
def test_mondfang_flag_parses_and_the_objective_is_unchanged(value):
    # mondfang=team|player only says whom the Mondfang is charged to when scoring; the question the solver asks (can
    # the side without T21 catch it) and play are the same.
    variant = Zwanzigerrufen.variant({"mondfang": value})
    assert variant["mondfang"] == value
    ending = "1: TS SK / T21 SQ / T4 SG / T5 SN"
    position = make_position("Zwanzigerrufen", ending, "Normal T16", partner=2, variant=variant)
    default = make_position("Zwanzigerrufen", ending, "Normal T16", partner=2)
    assert position.objective("mondfang") == default.objective("mondfang")
    assert solve(position.state, position.objective("mondfang")).total == \
        solve(default.state, default.objective("mondfang")).total


SCORING_FLAGS = [
    ("card_bonus_basis", ["dealt_hand", "captured"]),
    ("valat_mode", ["separate", "replaces_game", "cancels_other_bonuses", "multiplies_total"]),
    ("double_valat_in_solo", [False, True]),
]


@pytest.mark.parametrize("flag, values", SCORING_FLAGS)
def test_zwanzigerrufen_scoring_flags_parse_and_leave_play_alone(flag, values):
    # scoring flags: every value parses, and no value changes legal cards, the number of play sequences or the
    # objectives
    ending = "1: TS SK HG / T21 SQ CK / T1 T4 DK / T20 SN CQ"
    default = make_position("Zwanzigerrufen", ending, "Solo")
    for value in values:
        variant = Zwanzigerrufen.variant({flag: value})
        assert variant[flag] == value
        position = make_position("Zwanzigerrufen", ending, "Solo", variant=variant)
        assert position.state.legal_cards() == default.state.legal_cards()
        assert perft(position.state, 12) == perft(default.state, 12)
        for name in ("points", "valat", "pagat_ultimo", "mondfang"):
            assert position.objective(name) == default.objective(name)
            assert solve(position.state, position.objective(name)).total == \
                solve(default.state, default.objective(name)).total


def test_scoring_flag_text_values():
    variant = Zwanzigerrufen.variant("card_bonus_basis=captured, valat_mode=multiplies_total, "
                                     "double_valat_in_solo=true, mondfang=player, tie_44=no_score, solo_value=5")
    assert variant["card_bonus_basis"] == "captured"
    assert variant["valat_mode"] == "multiplies_total"
    assert variant["double_valat_in_solo"] is True
    assert variant["mondfang"] == "player"
    assert variant["tie_44"] == "no_score"
    assert variant["solo_value"] == 5


# ===================================================================================================================
# Schafkopf
# ===================================================================================================================


def test_solo_requires_plain_trump_card():
    # seat 1 holds GO and GU, no plain leaf
    with pytest.raises(InvalidContractError):
        make_position("Schafkopf", SK_WHOLE, "Solo G")
    position = make_position("Schafkopf", SK_WHOLE, "Solo G", variant={"solo_requires_plain_trump_card": False})
    assert position.rules.declaring_side == frozenset({0})
    with pytest.raises(InvalidContractError):
        make_position("Schafkopf", SK_WHOLE, "SoloTout G", variant={"solo_requires_plain_trump_card": True})
    make_position("Schafkopf", SK_WHOLE, "SoloTout G", variant={"solo_requires_plain_trump_card": False})


def test_solo_requires_plain_trump_card_is_a_bid_check_only():
    ending = "1: GO E7 / EA E9 / GA GZ / SA SZ"
    for value in (True, False):
        position = make_position("Schafkopf", ending, "Solo G", variant={"solo_requires_plain_trump_card": value})
        assert legal(position) == {"GO", "E7"}


# h (seat 3) has EA EZ E9 E8 at the deal; he discards E8 to a leaf lead, trumps the next leaf with HO and leads with
# only EA EZ E9 left.
RUNAWAY_DEAL = "1: GA G7 E7 SA S7 / GZ GK SZ SK S9 / EA EZ E9 E8 HO / G9 G8 S8 H7 H8"
RUNAWAY_PLAY = ["GA", "GZ", "E8", "G9", "G7", "GK", "HO", "G8"]


@pytest.mark.parametrize("value, expected", [(None, {"EA"}), ("lead", {"EA"}), ("deal", {"EA", "EZ", "E9"})])
def test_runaway_count_at(value, expected):
    variant = None if value is None else {"runaway_count_at": value}
    position = make_position("Schafkopf", RUNAWAY_DEAL, "Rufer E", play=RUNAWAY_PLAY, variant=variant)
    assert position.state.to_move == 2
    assert position.rules.declaring_side == frozenset({0, 2})
    assert legal(position) == expected


@pytest.mark.parametrize("value", ["lead", "deal"])
def test_runaway_count_at_agrees_when_the_count_did_not_change(value):
    position = make_position("Schafkopf", "1: E7 G8 S7 S8 / EA EZ E9 E8 / GZ GK SA SZ / HA HZ HK H9", "Rufer E",
                             leader=2, variant={"runaway_count_at": value})
    assert legal(position) == {"EA", "EZ", "E9", "E8"}
    position = make_position("Schafkopf", "1: E7 G8 S7 S8 / EA EZ E9 GA / GZ GK SA SZ / HA HZ HK H9", "Rufer E",
                             leader=2, variant={"runaway_count_at": value})
    assert legal(position) == {"EA", "GA"}


@pytest.mark.parametrize("value", ["standard", "only_if_holder_wins"])
def test_laufende_mode_parses_and_leaves_play_alone(value):
    # laufende_mode is scoring only (when the Laufende raise the value)
    variant = Schafkopf.variant({"laufende_mode": value})
    assert variant["laufende_mode"] == value
    ending = "1: EO EA G7 / GO EZ GA / HU SA S7 / SU HA H7"
    position = make_position("Schafkopf", ending, "Solo H", variant=variant)
    default = make_position("Schafkopf", ending, "Solo H")
    assert perft(position.state, 12) == perft(default.state, 12)
    assert position.objective("points") == default.objective("points")
    assert solve(position.state, position.objective("points")).total == \
        solve(default.state, default.objective("points")).total


# ===================================================================================================================
# Kratzen
# ===================================================================================================================


def test_weli_also_bells_bells_lead_with_weli_and_low_bell():
    ending = "1: S9 G7 G9 / S6 S7 G8 / GA GK GO"
    assert legal(make_position("Kratzen", ending, "Trump H", play=["S9"])) == {"S7"}
    assert legal(make_position("Kratzen", ending, "Trump H", play=["S9"],
                               variant={"weli_also_bells": True})) == {"S6"}


def test_weli_also_bells_bells_lead_with_weli_and_trump():
    ending = "1: S9 G7 G9 / S6 H7 G8 / GA GK GO"
    assert legal(make_position("Kratzen", ending, "Trump H", play=["S9"])) == {"S6", "H7"}
    assert legal(make_position("Kratzen", ending, "Trump H", play=["S9"],
                               variant={"weli_also_bells": True})) == {"S6"}


def test_weli_also_bells_keeps_the_weli_a_trump():
    ending = "1: H9 G7 G9 / S6 S7 G8 / GA GK GO"
    for value in (False, True):
        assert legal(make_position("Kratzen", ending, "Trump H", play=["H9"],
                                   variant={"weli_also_bells": value})) == {"S6"}


def test_weli_also_bells_no_effect_when_bells_are_trump():
    ending = "1: S9 G7 G9 / S6 S7 G8 / GA GK GO"
    for value in (False, True):
        assert legal(make_position("Kratzen", ending, "Trump S", play=["S9"],
                                   variant={"weli_also_bells": value})) == {"S6"}


@pytest.mark.parametrize("declarer", [2, 3])
def test_first_leader(declarer):
    deal = "1: EA EK EO EU / GA GK GO GU / HA HK HO HU / SA SK SO SU"  # a whole deal: the flag rules its trick 1
    attacker = make_position("Kratzen", deal, "Trump H", declarer=declarer)
    assert attacker.state.to_move == declarer - 1
    assert legal(attacker) == set(attacker.rules.deal.hand_names(declarer - 1))
    explicit = make_position("Kratzen", deal, "Trump H", declarer=declarer, variant={"first_leader": "attacker"})
    assert explicit.state.to_move == declarer - 1
    forehand = make_position("Kratzen", deal, "Trump H", declarer=declarer, variant={"first_leader": "forehand"})
    assert forehand.state.to_move == 0
    assert legal(forehand) == {"EA", "EK", "EO", "EU"}
    # an ending is led by seat 1 (or its [Leader]) under either reading: the flag is about the deal's first trick
    for value in ("attacker", "forehand"):
        ending = make_position("Kratzen", "1: EA EK / GA GK / HA HK / SA SK", "Trump H", declarer=declarer,
                               variant={"first_leader": value})
        assert ending.state.to_move == 0


def test_first_leader_same_when_the_attacker_is_seat_1():
    deal = "1: EA EK EO EU / GA GK GO GU / HA HK HO HU"
    for value in ("attacker", "forehand"):
        assert make_position("Kratzen", deal, "Trump H", variant={"first_leader": value}).state.to_move == 0


def test_must_undertrump():
    ending = "1: E9 E8 / HA G9 / H7 G8"
    assert legal(make_position("Kratzen", ending, "Trump H", play=["E9", "HA"])) == {"H7"}
    assert legal(make_position("Kratzen", ending, "Trump H", play=["E9", "HA"],
                               variant={"must_undertrump": True})) == {"H7"}
    assert legal(make_position("Kratzen", ending, "Trump H", play=["E9", "HA"],
                               variant={"must_undertrump": False})) == {"H7", "G8"}


def test_must_undertrump_false_still_requires_overtrumping():
    ending = "1: E9 E8 / HK G9 / HA G8"
    assert legal(make_position("Kratzen", ending, "Trump H", play=["E9", "HK"],
                               variant={"must_undertrump": False})) == {"HA"}


def test_variant_object_accepted_by_rules():
    deal = Kratzen.parse_deal("1: E9 E8 / HA G9 / H7 G8")
    rules = Kratzen.rules(deal, "Trump H", variant=Kratzen.variant("must_undertrump=false"))
    assert isinstance(rules.variant, Variant)
    assert rules.variant["must_undertrump"] is False


@pytest.mark.parametrize("spelling", ["1_0", "+5", "\u0665", "5.0", "0x5", "five"])
def test_a_number_flag_takes_ascii_digits_only(spelling):
    # int() reads '1_0' as 10 and an Arabic-Indic five as 5: one value spelt several ways
    # the message names the values the flag takes, as a word flag's does, not only that they are numbers
    with pytest.raises(VariantError, match="solo_value takes a whole number from 4 to 5, not "):
        Zwanzigerrufen.variant({"solo_value": spelling})
    assert Zwanzigerrufen.variant({"solo_value": " 5 "})["solo_value"] == 5


def test_a_bad_flag_of_a_variant_tag_is_pointed_at(tmp_path):
    # the error points at the flag at fault, not at the start of the tag's value
    text = (Path(__file__).parent.parent / "examples" / "valat.tbn").read_text()
    text = text.replace('[Contract "Solo"]', '[Contract "Solo"]\n[Variant "solo_value=5, sagotrick=bogus"]')
    with pytest.raises(StichError) as caught:
        parse_positions(text, name="v.tbn")
    line = text.splitlines().index('[Variant "solo_value=5, sagotrick=bogus"]') + 1
    assert (caught.value.line, caught.value.column) == (line, len('[Variant "solo_value=5, ') + 1)
    assert "sagotrick takes" in str(caught.value)
    # the token is the pair at fault, not the whole tag's value cut short from its start
    assert caught.value.token == "sagotrick=bogus" and "(got 'sagotrick=bogus'" in str(caught.value)


@pytest.mark.parametrize("value, pair, message", [
    # the flag at fault's name inside another's (pagat_via_sagotrick) is not its pair
    ("pagat_via_sagotrick=true, sagotrick=bogus", "sagotrick=bogus", "sagotrick takes"),
    # a flag named twice: at its second pair, the one that repeats it
    ("solo_value=4, mondfang=team, solo_value=5", "solo_value=5",
     r"solo_value is given twice \('solo_value=4' and 'solo_value=5'\) "
     r"\(got 'solo_value=5', expected each flag once\)"),
    # a pair without '=': at that pair, not at the tag's first
    ("sagotrick=off, mondfang", "mondfang", "'mondfang' is not of the form"),
    # an escaped quote before the pair at fault is one character of the value but two of the line
    ('sagotrick=\\"off\\", mondfang', "mondfang", "'mondfang' is not of the form"),
])
def test_the_pair_at_fault_of_a_variant_tag_is_pointed_at(value, pair, message):
    text = (Path(__file__).parent.parent / "examples" / "valat.tbn").read_text()
    tag = f'[Variant "{value}"]'
    text = text.replace('[Contract "Solo"]', f'[Contract "Solo"]\n{tag}')
    with pytest.raises(StichError, match=message) as caught:
        parse_positions(text, name="v.tbn")
    line = text.splitlines().index(tag) + 1
    assert (caught.value.line, caught.value.column, caught.value.token) == (line, tag.rindex(pair) + 1, pair)


def test_a_record_refused_under_the_flags_given_names_them():
    """A record that keeps its own rules but not the flags given with the command or call (a board's --variant over
    an upload) says those flags beside what broke: the first leader here, as an illegal card already did."""
    from solver.formats.tbn import parse_records
    from solver.position import position_from_record

    text = (Path(__file__).resolve().parent.parent / "examples" / "kratzen.tbn").read_text(encoding="utf-8")
    record = next(item for item in parse_records(text) if item.get("Play") is not None)
    record.set("Declarer", "2")  # the attacker leads trick 1 by default: seat 2, as the record's Play says
    record.remove("Play")
    record.set("Play", "2")
    assert position_from_record(record).state.leader == 1
    # the rule's words name the flag given: not named again after them
    with pytest.raises(StichError, match=r"the first trick is led by seat 1 under first_leader=forehand: seat 1 "
                                         r"leads, whoever attacks \(got '2', expected 1\)"):
        position_from_record(record, variant={"first_leader": "forehand"})
    # a flag given beside it, which the words do not name, still is
    with pytest.raises(StichError, match=r"the first trick is led by seat 1 under first_leader=forehand: seat 1 "
                                         r"leads, whoever attacks \(with the variant flags given: "
                                         r"must_undertrump=False\) \(got '2', expected 1\)"):
        position_from_record(record, variant={"first_leader": "forehand", "must_undertrump": False})
