"""The ``score`` objective (issue 32): the value and every legal card's value against the reference settlement
search, the optimal line, and the API around it.

The differential run draws seeded endings of every game and contract of tests/test_settlement.py (3-5 tricks left,
every third one with a trick in progress, random announcements with Kontra levels, scoring variant flags, Kratzen
pots) and compares the engine's score and the score after every legal card with the reference's, which scores each
finished deal with the ordinary scorer. The CI-scale run (2,015 endings, ``slow``; about 100 s on one core) and the
fast tier's sample (198) use different seeds; ``STICH_LONG=1`` makes both ten times longer. Zero disagreements are
allowed.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import solver
from solver.cli.main import app
from solver import StichError, read_positions
from solver.search.settle import SettlementEngine
from solver.score_objective import solve_score
from solver.settlement import final_net, play_out
from game_cases import SCALE, SETTLEMENT_CONFIGS, random_ending, settlement_config_id

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ENGINE = SettlementEngine(8)
#: Endings per configuration, as multiples of test_settlement's counts (330 in all): 2,015 and 198.
CI_MULTIPLE = 6.1
FAST_FRACTION = 0.6


def check_endings(config, seed: str, count: int) -> int:
    """Compare ``count`` endings of ``config``; returns how many distinct card values were seen (a sanity check that
    the positions settle differently)."""
    rng = random.Random(seed + settlement_config_id(config))
    seen = set()
    for number in range(count):
        position, announcements, pot, _ = random_ending(config, rng, number)
        label = f"{settlement_config_id(config)} #{number} {announcements!r} pot {pot}"
        expected = solve_score(position, cards=True, reference_solver=True, announcements=announcements, pot=pot)
        got = solve_score(position, cards=True, line=number % 5 == 0, engine=ENGINE, reference_solver=False,
                          announcements=announcements, pot=pot)
        assert got.total == expected.total, label
        assert got.card_values == expected.card_values, label
        assert got.best_cards() == expected.best_cards(), label
        if got.line:
            final = play_out(position.state, got.line)
            assert final_net(position, final, announcements=announcements, pot=pot)[0] == got.total, label
        seen.update(cv.value for cv in got.card_values)
    return len(seen)


@pytest.mark.slow
@pytest.mark.parametrize("config", SETTLEMENT_CONFIGS, ids=[settlement_config_id(c) for c in SETTLEMENT_CONFIGS])
def test_score_and_every_card_agree_with_the_reference(config):
    assert check_endings(config, "score:", round(config[3] * CI_MULTIPLE) * SCALE) > 1


@pytest.mark.parametrize("config", SETTLEMENT_CONFIGS, ids=[settlement_config_id(c) for c in SETTLEMENT_CONFIGS])
def test_score_and_every_card_agree_with_the_reference_sample(config):
    check_endings(config, "score sample:", round(config[3] * FAST_FRACTION) * SCALE)


def test_the_default_run_checks_at_least_2000_endings():
    assert sum(round(c[3] * CI_MULTIPLE) for c in SETTLEMENT_CONFIGS) >= 2000
    assert 190 <= sum(round(c[3] * FAST_FRACTION) for c in SETTLEMENT_CONFIGS) <= 210


def played(position, cards):
    for card in cards:
        position = position.play(card)
    return position


def test_the_example_score_best_card_is_not_the_points_best():
    position = next(read_positions(EXAMPLES / "settlement.tbn"))
    score = solver.solve(position, "score", cards=True, line=True)
    points = solver.solve(position, "points", cards=True, line=True)
    assert set(score.best_cards()).isdisjoint(points.best_cards())
    # the points line throws the Pagat away; the score line keeps it for the last trick
    pagat = position.rules.pack.parse("T1").index
    assert score.line[-4:].count(pagat) == 1 and pagat not in points.line[-4:]
    final = play_out(position.state, score.line)
    assert final_net(position, final)[0] == score.total


def test_score_from_the_start_mid_trick_and_the_end():
    position = next(read_positions(EXAMPLES / "pagat_ultimo.tbn"))
    result = solver.solve(position, "score", cards=True, line=True)
    assert result.card_names() == {"T17": 22, "T1": 2, "SK": 22, "CK": 22, "HK": 22}
    assert [c.index for c in result.best_cards()] == [c.card for c in result.card_values if c.value == 22]
    assert result.achieved == 0 and result.total == 22 and result.objective.name == "score"
    mid = played(position, result.line[:2])
    assert solver.solve(mid, "score").total == 22
    end = played(position, result.line)
    assert solver.solve(end, "score", cards=True).total == 22 and not solver.solve(end, "score",
                                                                                    cards=True).card_values
    # the seat to play is 1-based whatever the objective (the score's too), None once the deal is over, as the
    # position says it (never 0 there)
    for at in (position, mid, end):
        assert {solver.solve(at, name, cards=True).to_move for name in ("score", "points")} == {at.to_move}
        assert solver.solve(at, "points", cards=True, reference_solver=True).to_move == at.to_move
    assert end.to_move is None


def test_score_refuses_what_it_does_not_take():
    position = next(read_positions(EXAMPLES / "pagat_ultimo.tbn"))
    with pytest.raises(StichError, match="no seat"):
        solver.solve(position, "score", seat=1)
    with pytest.raises(StichError, match="runs to the end"):
        solver.solve(position, "score", time_limit=1.0, reference_solver=True)
    with pytest.raises(StichError):
        solver.solve(position, "score", engine="fast")


def test_check_says_which_bonus_the_score_prefers():
    """examples/settlement.tbn: Valat and Pagat Ultimo can each be forced, not both; with the Pagat doubled the score
    prefers the Pagat (+12 against +8), and the score-optimal play gives the Valat up."""
    from solver.analysis import check_report

    position = next(read_positions(EXAMPLES / "settlement.tbn"))
    score = check_report(position)["score"]  # the reference agrees on the random endings below (40 s here)
    assert score["value"] == 12
    by_bonus = {b["bonus"]: b for b in score["bonuses"]}
    assert by_bonus["valat"] == {"bonus": "valat", "side": [1, 4], "with_bonus": 8, "score_forces": False,
                                 "scores": True, "scored_as": None}
    assert by_bonus["pagat_ultimo"]["score_forces"] is True and by_bonus["game"]["score_forces"] is True
    assert score["choices"] == [{"side": [1, 4], "other_side": [2, 3], "bonuses": ["valat", "pagat_ultimo"],
                                 "settlements": [8, 12], "prefers": "pagat_ultimo"}]  # who stops one, for --json


def test_check_says_the_other_side_stops_one_of_an_either_or_pair():
    """examples/settlement.tbn: each row says 1+4 can force the Valat and the Pagat, so the line under the table
    names who stops the pair, the other side 2+3, lest "not both" read as the two had together."""
    result = CliRunner().invoke(app, ["check", str(EXAMPLES / "settlement.tbn")], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert ("1+4 can force Valat or Pagat Ultimo, not both: 2+3 can always stop one of them; the score prefers "
            "Pagat Ultimo (score with Valat +8, with Pagat Ultimo +12)") in result.stdout.splitlines()


def test_a_bonus_choice_is_made_with_the_side_that_stops_it():
    """``BonusChoice.other_side`` has no default: one made without it would have check's line name no one ("- can
    always stop one of them"), so leaving it out is the caller's error, said at once. Its fields are named, never
    given in order, which a change of the fields would silently turn into the wrong ones."""
    from solver.score_check import BonusChoice

    with pytest.raises(TypeError, match=r"takes 1 positional argument but 6 were given"):
        BonusChoice((1, 4), (2, 3), ("valat", "pagat_ultimo"), (8, 12), "pagat_ultimo")  # type: ignore[misc]

    with pytest.raises(TypeError, match="other_side"):
        BonusChoice(side=(1, 4), bonuses=("valat", "pagat_ultimo"), settlements=(8, 12),  # type: ignore[call-arg]
                    prefers="pagat_ultimo")
    made = BonusChoice(side=(1, 4), other_side=(2, 3), bonuses=("valat", "pagat_ultimo"), settlements=(8, 12),
                       prefers="pagat_ultimo")
    assert made.as_dict() == {"side": [1, 4], "other_side": [2, 3], "bonuses": ["valat", "pagat_ultimo"],
                              "settlements": [8, 12], "prefers": "pagat_ultimo"}


def test_check_says_an_announced_bonus_scores_the_silent_outcome_of_the_same_item():
    """RULES.md 1.7: an announced bonus is settled by its announcement alone, so after an announced Pagat its silent
    loss (``pagat_beaten``) is the announced ``pagat_ultimo`` failed, and after an announced Absolut the Absolut
    against is the ``absolut`` failed: the rows say where they are scored, not that they are worth nothing. A
    caller giving other announcements gets the rows those leave out."""
    from solver.analysis import check_bonuses, check_report
    from solver.score_check import score_of_bonuses

    position = next(read_positions(EXAMPLES / "pagat_ultimo.tbn"))  # 1 announced the Pagat
    document = check_report(position)
    under_score = {b["bonus"]: b for b in document["score"]["bonuses"]}
    assert under_score["pagat_beaten"]["scores"] is False and under_score["pagat_beaten"]["scored_as"] == "pagat_ultimo"
    assert under_score["pagat_ultimo"]["scores"] is True and under_score["pagat_ultimo"]["scored_as"] is None
    assert document["score"]["notes"] == ["Pagat Ultimo beaten is scored as the announced Pagat Ultimo (RULES.md "
                                          "1.7: an announcement settles its bonus)"]
    result = CliRunner().invoke(app, ["check", str(EXAMPLES / "pagat_ultimo.tbn")], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    row = next(line for line in result.stdout.splitlines() if line.startswith("│ Pagat Ultimo beaten"))
    assert row.split("│")[-2].strip() == "scored as the announced Pagat Ultimo"
    checks = [c for c in check_bonuses(position) if c.can_force is not None]
    bonuses = [(c.bonus, position.objective(c.bonus), bool(c.can_force)) for c in checks]
    _, results, _ = score_of_bonuses(position, bonuses, announcements="1: Absolut")
    by_bonus = {r.bonus: r for r in results}
    assert not by_bonus["absolut_against"].scores and by_bonus["absolut_against"].scored_as == "absolut"
    assert by_bonus["pagat_beaten"].scores and by_bonus["pagat_beaten"].scored_as is None  # no Pagat announced here


def test_the_bonuses_scored_as_an_announced_one_under_wrong_announcements_raise_as_its_siblings_do():
    """Wrong announcements raise in ``bonuses_scored_as`` as in its sibling ``unscored_bonuses`` (a public function's
    wrong input is not answered ``{}`` unsaid), and give no such bonus with ``tolerate_errors``, which ``stich check``'s
    score passes to both: the play is still checked, and the score says what is wrong."""
    from solver.scoring import bonuses_scored_as, unscored_bonuses

    position = next(read_positions(EXAMPLES / "pagat_ultimo.tbn"))  # 1 announced the Pagat, which 1 holds
    assert bonuses_scored_as(position) == {"pagat_beaten": "pagat_ultimo"}
    assert bonuses_scored_as(position, announcements="1: Absolut") == {"absolut_against": "absolut"}
    with pytest.raises(StichError, match="Pagat Ultimo is announced by the Pagat's holder, seat 1"):
        unscored_bonuses(position, announcements="4: Pagat")
    with pytest.raises(StichError, match="Pagat Ultimo is announced by the Pagat's holder, seat 1"):
        bonuses_scored_as(position, announcements="4: Pagat")
    assert bonuses_scored_as(position, announcements="4: Pagat", tolerate_errors=True) == {}
    assert unscored_bonuses(position, announcements="4: Pagat", tolerate_errors=True) == frozenset()


def test_check_says_which_bonuses_a_tout_does_not_score():
    """A Tout is worth 10 + 2L whatever else happens (RULES.md 2.5: no Schneider or Schwarz; it is won by every
    trick, not by 61): check still answers the card-point questions, and says under the table that they score
    nothing here (else the Schneider rows read as the Tout's), the 61 of the ``game`` row among them."""
    from solver.analysis import check_report

    text = """[Game "Schafkopf"]
[Board "1"]
[Contract "WenzTout"]
[Declarer "1"]
[Deal "EO GO HO SO EU GU HU SU / EA EZ EK E9 E8 E7 GA GZ / GK G9 G8 G7 HA HZ HK H9 / H8 H7 SA SZ SK S9 S8 S7"]
"""
    position = next(iter(solver.parse_positions(text, name="tout.tbn")))
    document = check_report(position)
    assert [check["bonus"] for check in document["checks"]][-1] == "tout"
    assert document["score"]["notes"] == ["scores nothing here, whatever the play (the contract or the announcements "
                                          "leave it out): Game, Schneider, Schneider against, Schwarz, "
                                          "Schwarz against"]
    # a Tout pays no 61, Schneider or Schwarz: those rows say they score nothing (not searched under the score,
    # which would call a row "forces it" that cannot pay), the Tout's own row is answered
    under_score = {b["bonus"]: b for b in document["score"]["bonuses"]}
    for name in ("game", "schneider", "schneider_against", "schwarz", "schwarz_against"):
        assert under_score[name] == {"bonus": name, "side": under_score[name]["side"], "with_bonus": None,
                                     "score_forces": None, "scores": False, "scored_as": None}, name
    # the Tout itself scores and is searched: the defenders' acorns stop it (Obers are plain in a Wenz)
    assert under_score["tout"] == {"bonus": "tout", "side": [1], "with_bonus": None, "score_forces": False,
                                   "scores": True, "scored_as": None}
    result = CliRunner().invoke(app, ["check", "-"], input=text)
    assert result.exit_code == 0, result.output
    rows = {line.split("│")[1].strip(): line.split("│")[-2].strip() for line in result.stdout.splitlines()
            if line.startswith("│ ") and line.split("│")[1].strip()}
    # the rows by the players' names, one a row: the JSON's identifiers stay the document's
    assert [name for name, cell in rows.items() if cell == "scores nothing here"] == [
        "Game", "Schneider", "Schneider against", "Schwarz", "Schwarz against"], rows
    assert list(under_score)[:5] == ["game", "schneider", "schneider_against", "schwarz", "schwarz_against"]
    assert rows["Tout"] == "-"
    wenz = next(iter(solver.parse_positions(text.replace("WenzTout", "Wenz"), name="wenz.tbn")))
    assert check_report(wenz)["score"]["notes"] == []  # a Wenz scores its Schneider
    assert all(b["scores"] for b in check_report(wenz)["score"]["bonuses"])
    # RULES.md 2.2, 2.5: a Sie wins at once, 52 whatever the play: none of its rows scores either
    sie = next(iter(solver.parse_positions(text.replace("WenzTout", "Sie"), name="sie.tbn")))
    assert check_report(sie)["score"]["notes"] == document["score"]["notes"]


@pytest.mark.parametrize("config", SETTLEMENT_CONFIGS[::2], ids=[settlement_config_id(c)
                                                                 for c in SETTLEMENT_CONFIGS[::2]])
def test_bonuses_under_the_score_agree_with_the_reference(config):
    from solver.analysis import check_bonuses
    from solver.score_check import score_check_report

    rng = random.Random("score check:" + settlement_config_id(config))
    for number in range(4):
        position, _, _, _ = random_ending(config, rng, number)
        checks = check_bonuses(position)
        assert score_check_report(position, checks) == score_check_report(position, checks, reference_solver=True)
