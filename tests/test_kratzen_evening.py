"""A Kratzen player's evening (RULES.md 3): deals played to the end, a Muss, a Seven-Muss, a pot carried over, an
ending and the three variant flags, each settlement worked out by hand from RULES.md 3.4 (the comment over each
figure shows the sum) and compared with ``score_deal``, ``stich score`` and ``stich check``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import solver
from solver.analysis import check_bonuses
from solver.scoring import score_deal

from cli_invoke import run

DATA = Path(__file__).parent / "data"
EVENING = DATA / "kratzen_evening.tbn"
FLAGS = DATA / "kratzen_flags.tbn"


def board(path: Path, number: str, **variant: object) -> solver.Position:
    return next(p for p in solver.read_positions(path, variant=variant or None) if p.record.get("Board") == number)


#: board: (payments, pot change, pot after the deal), by hand.
HAND_SETTLED = {
    # pot 20, P/4 = 5: seat 1 three tricks 3 x 5, seat 3 one 5; seats 2 and 4 miss their trick, P = 20 each;
    # the pot pays 20 and takes 40
    "1": ((15, -20, 5, -20), 20, 40),
    # pot 9, P/4 = 2 (1 chip stays): seat 2 three tricks 6, seat 3 one 2; the attacker none of his 2: 2P = 18
    "2": ((-18, 6, 2), 10, 19),
    # a Muss, pot 6: no trick pays; the attacker took 1 of 2: 2P = 12; seats 3, 4 and 5 none: 6 each
    "3": ((-12, 0, -6, -6, -6), 30, 36),
    # a Seven-Muss, pot 8: everyone needs 1, seat 4 alone took none: 8
    "4": ((0, 0, 0, -8), 8, 16),
    # board 3's pot carried over (36) and the next dealer's ante: 37, P/4 = 9 (1 chip stays); seat 1 three tricks
    # 27, seat 2 one 9; seats 3, 4 and 5 none: 37 each; the pot pays 36 and takes 111
    "5": ((27, 9, -37, -37, -37), 75, 112),
}


@pytest.mark.parametrize("number", sorted(HAND_SETTLED))
def test_every_played_deal_settles_as_worked_out_by_hand(number):
    payments, change, after = HAND_SETTLED[number]
    settlement = score_deal(board(EVENING, number))
    assert settlement.payments == payments and settlement.pot_change == change
    assert f"pot after the deal: {after} chips ({settlement.pot} + {change})" in str(settlement).splitlines()


def test_the_pot_after_a_deal_is_the_next_deals_start():
    """``stich score`` says what the pot holds once the deal is paid, the P the next deal starts from (RULES.md
    3.4), not only its signed change: board 5 starts from board 3's pot after it, and one ante."""
    scored = run("score", EVENING).stdout
    assert "pot after the deal: 36 chips (6 + 30)" in scored.splitlines()
    assert "pot after the deal: 112 chips (37 + 75)" in scored.splitlines()
    assert board(EVENING, "5").record.get("Pot") == "37"  # 36 carried over and the new dealer's ante
    assert "pot after the deal: 0 chips (unchanged)" in run("score", EVENING, "-b", "1", "--pot", "0").stdout


def test_a_double_dummy_line_says_no_pot_after_it():
    """The double-dummy settlement's line is a what-if: its payments are shown, no pot the next deal would start
    from."""
    scored = run("score", EVENING, "-b", "1", "--dd").stdout
    assert scored.count("pot after the deal:") == 1
    assert "pot after the deal" not in str(solver.dd_settlement(board(EVENING, "1").at_start()))


def test_an_ending_says_no_pot_after_it(tmp_path):
    """An ending (docs/rules.md item 2) is scored as a whole deal would be, but no next deal starts from its pot:
    neither ``stich score`` nor ``print()`` says what the pot holds after it, while a whole deal's still does."""
    record = tmp_path / "ending.tbn"
    record.write_text('[Game "Kratzen"]\n[Seats "3"]\n[Pot "12"]\n[Deal "1: EO E9 / GA HA / EK G8"]\n'
                      '[Contract "Trump S"]\n[Play "1"]\nEO GA EK\nG8 E9 HA\n*\n', encoding="utf-8")
    scored = run("score", record).stdout
    # seat 3 takes both tricks, 2 x 3; the attacker pays 2P = 24, seat 2 P = 12; the pot takes 36 and pays 6
    assert "│    -24 │    -12 │     +6 │ +30 │" in scored.splitlines() and "pot after the deal" not in scored
    (document,) = [json.loads(line) for line in run("score", record, "--json").stdout.splitlines()]
    assert (document["whole_deal"], document["pot"], document["pot_change"]) == (False, 12, 30)
    ending = score_deal(next(iter(solver.read_positions(record))))
    assert not ending.whole_deal and ending.pot_change == 30
    assert "pot after" not in str(ending) and "pot after" not in ending._repr_html_()
    whole = score_deal(board(EVENING, "1"))
    assert whole.whole_deal and str(whole).splitlines()[-1] == "pot after the deal: 40 chips (20 + 20)"
    assert run("score", EVENING, "-b", "1").stdout.splitlines()[-1] == "pot after the deal: 40 chips (20 + 20)"
    (evening,) = [json.loads(line) for line in run("score", EVENING, "-b", "1", "--json").stdout.splitlines()]
    assert evening["whole_deal"] is True


@pytest.mark.parametrize("number, value", [("1", 15), ("2", -18), ("3", 0), ("4", 0), ("5", 27)])
def test_the_double_dummy_settlement_of_each_deal(number, value):
    """From the start: board 1 the attacker forces 3 tricks, 15; board 2 none, 2P = 18 paid; the Muss and the
    Seven-Muss pay no trick, and the attacker forces his target, 0; board 5 three tricks, 3 x 9."""
    assert solver.dd_settlement(board(EVENING, number).at_start()).value == value


@pytest.mark.parametrize("number, flag, default, switched", [
    # the Weli a bell too: seat 2 must beat the bell Sow with it, which it trumped later; the attacker keeps 1 trick
    ("8", {"weli_also_bells": True}, (2, 1, 0), (1, 1, 0)),
    # forehand leads instead of the attacker (seat 3)
    ("9", {"first_leader": "forehand"}, (2, 0, 2), (3, 0, 1)),
    # seat 2, void in leaves and unable to overtrump HK, keeps H7 for the bell Sow instead of undertrumping
    ("10", {"must_undertrump": False}, (2, 0, 1), (1, 1, 1)),
])
def test_each_flag_changes_the_attackers_result(number, flag, default, switched):
    for variant, tricks in ((None, default), (flag, switched)):
        position = board(FLAGS, number, **(variant or {}))
        assert tuple(check.guaranteed for check in check_bonuses(position)) == tricks, variant
        attacker = tricks[position.rules.declarer]
        # pot 12, P/4 = 3: the attacker's tricks, less 2P = 24 below his 2
        assert solver.dd_settlement(position).value == 3 * attacker - (24 if attacker < 2 else 0), variant


def test_an_ending_says_its_own_tricks_against_the_targets(tmp_path):
    """Four seats' targets (2 + 1 + 1 + 1) exceed an ending's three tricks: the ending has 3, not the deal."""
    ending = tmp_path / "ending.tbn"
    ending.write_text('[Game "Kratzen"]\n[Seats "4"]\n[Pot "12"]\n'
                      '[Deal "1: HK EA G8 / HO E7 GZ / S6 EK G7 / HZ GA EO"]\n[Contract "Trump H"]\n[Leader "3"]\n',
                      encoding="utf-8")
    checked = run("check", ending).stdout
    assert ("every target met together, all seats helping: no (the targets add up to 5 tricks, the ending has 3)"
            in checked.splitlines())
    # the attacker guarantees 1 of the 3 tricks: 3, less 2P = 24
    assert "score (double dummy): -21 chips, attacker seat 1's own payment" in checked.splitlines()
    whole = run("check", EVENING, "-b", "1", "--from-start").stdout
    assert "(the targets add up to 5 tricks, the deal has 4)" in whole


def test_a_play_led_by_the_wrong_seat_names_the_flag(tmp_path):
    """Seat 2 attacks, and the record has seat 1 lead: the message names the rule a player can switch."""
    record = tmp_path / "leader.tbn"
    record.write_text('[Game "Kratzen"]\n[Deal "1: HA HK EA G7 / HZ E9 EK G8 / HO SO SZ GA / EO S9 S7 GZ"]\n'
                      '[Contract "Trump H"]\n[Declarer "2"]\n[Play "1"]\nHA HZ HO EO\n*\n', encoding="utf-8")
    refused = run("show", record, code=1).stderr
    assert ("leader.tbn:5:8: the first trick is led by seat 2 under first_leader=attacker: the attacker leads "
            "(got '1', expected 2)") in refused
    shown = run("show", record, "--variant", "first_leader=forehand").stdout  # read as forehand led it
    assert shown.splitlines()[0].endswith("leader.tbn:1 - Kratzen Trump H, attacker 2; rules: first_leader=forehand")
