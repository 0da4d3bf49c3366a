"""Single-dummy analysis: reproducibility, the constraints of the draw, and a case known exactly."""

from __future__ import annotations

import pytest

import solver
from solver.deal import parse_hand
from solver.sampling import _setup, analyse_hand, draw_rules

KRATZEN_HAND = "GA GK G9 HZ"  # seat 1 of Kratzen board 1, seed 1: Trump S


def test_the_same_seed_gives_the_same_analysis_with_one_or_two_workers() -> None:
    one = analyse_hand("Kratzen", KRATZEN_HAND, 1, "Trump S", samples=40, seed=5, workers=1)
    two = analyse_hand("Kratzen", KRATZEN_HAND, 1, "Trump S", samples=40, seed=5, workers=2)
    assert one == two
    assert one.as_dict() == two.as_dict()
    other = analyse_hand("Kratzen", KRATZEN_HAND, 1, "Trump S", samples=40, seed=6, workers=1)
    assert other.samples == 40 and other.seed == 6


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


def test_what_the_contract_implies_is_respected() -> None:
    """A Rufer caller never holds the called ace: seat 1 calls the Eichel ace while seat 2 is analysed."""
    game = solver.get_game("Schafkopf")
    ace = game.pack.parse("EA").mask
    setup = _setup(game, "GA GZ GK HA HZ HK SA SZ", 2, "Rufer E", None, 1, None, 4, 0)
    for k in range(40):
        assert not draw_rules(setup, k).deal.hands[0] & ace


def test_impossible_constraints_raise_a_clear_error() -> None:
    with pytest.raises(solver.StichError, match="no deal of the unseen cards"):
        analyse_hand("Schafkopf", "EA EZ EK EO EU E9 E8 E7", 1, "Rufer E", samples=2, workers=1)
    with pytest.raises(solver.StichError, match="already in seat 1"):
        analyse_hand("Kratzen", KRATZEN_HAND, 1, "Trump S", known={2: "GA"}, samples=2, workers=1)


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
