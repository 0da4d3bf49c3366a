"""RULES.md 3.3's optional cooperative question (can every Kratzen target be met in one play, all seats helping?)
against a brute force over every complete play, with no memo and no bound."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import solver
import solver.search.cooperative
from solver.analysis import check_report, objectives_named, targets_together
from solver.cards import bits
from solver.search.cooperative import Cooperative

EXAMPLES = Path(__file__).parent.parent / "examples"


def every_play_meets(state, objectives, needs) -> bool:
    """Try every complete play: does one give each objective its target?"""
    if not any(needs):
        return True
    if state.is_over:
        return False
    for card in bits(state.legal_cards()):
        child = state.advance(card)
        after = needs
        if len(child.history) > len(state.history):
            after = tuple(max(0, need - o.trick_reward(state.rules, child.history[-1], last=child.is_over))
                          for o, need in zip(objectives, needs))
        if every_play_meets(child, objectives, after):
            return True
    return False


def _targets(position):
    return [o for name in position.rules.objective_names() for _, o in objectives_named(position, name)
            if o.target is not None]


def _random_ending(position, tricks_played: int, cards_more: int, rng: random.Random):
    state = position.state
    for _ in range(tricks_played * position.rules.seats + cards_more):
        state = state.advance(rng.choice(list(bits(state.legal_cards()))))
    return state


@pytest.mark.parametrize("seats, contract, tricks_played", [(3, None, 0), (3, None, 1), (4, "SevenMuss", 1),
                                                             (4, "SevenMuss", 2), (4, None, 1), (5, "SevenMuss", 2)])
def test_the_cooperative_search_agrees_with_every_play(seats, contract, tricks_played):
    rng = random.Random(seats * 100 + tricks_played)
    answers = set()
    for board in range(1, 16):
        suit = "EGHS"[board % 4]
        record = solver.random_record("Kratzen", 17, board, seats=seats,
                                      contract=f"Trump {suit}" + (f" {contract}" if contract else ""))
        position = solver.position_from_record(record)
        state = _random_ending(position, tricks_played, rng.randrange(seats), rng)
        objectives = _targets(position)
        search = Cooperative(objectives)
        expected = every_play_meets(state, objectives, search.needs_at(state))
        assert search.met(state) == expected, (board, state)
        answers.add(expected)
    if seats == 3 or (seats == 4 and contract and tricks_played == 1):
        assert answers == {True, False}  # both answers occur, so the comparison says something
    elif not contract:
        assert answers == {False}  # more targets than the four tricks a deal has


def test_four_or_more_seats_never_meet_every_target_outside_a_seven_muss():
    """2 + 1 + 1 + 1 tricks are more than the four a Kratzen deal has: answered at once, without a search."""
    for board in range(1, 6):
        position = solver.position_from_record(solver.random_record("Kratzen", 3, board, seats=4))
        search = Cooperative(_targets(position))
        assert not search.met(position.state) and search.nodes == 1


def test_check_reports_the_cooperative_answer_for_kratzen_only():
    kratzen = next(iter(solver.read_positions(EXAMPLES / "kratzen.tbn")))
    assert check_report(kratzen)["together"] is targets_together(kratzen) is True
    valat = next(iter(solver.read_positions(EXAMPLES / "valat.tbn")))
    assert targets_together(valat) is None and check_report(valat)["together"] is None


def test_the_cooperative_search_honours_check_s_time_limit(monkeypatch):
    """``stich check --time-limit`` bounds the cooperative question too (plain Python, no stop check of the engine's,
    run after the engine's limited block): it looks at the same deadline itself."""
    import threading

    from solver.search.boundary import Deadline

    position = next(iter(solver.read_positions(EXAMPLES / "kratzen.tbn")))  # board 1: the targets can be met together
    with pytest.raises(solver.SearchStopped, match="time_limit=1e-09"):
        targets_together(position, time_limit=1e-9)
    stop = threading.Event()
    stop.set()
    with pytest.raises(solver.SearchStopped, match="stop event"):
        targets_together(position, stop=stop)
    assert targets_together(position, time_limit=60, stop=threading.Event()) is True
    monkeypatch.setattr(solver.search.cooperative, "POLL_EVERY", 1)  # looked at mid-search, not only before it
    with pytest.raises(solver.SearchStopped, match="cooperative search was stopped"):
        Cooperative(_targets(position), Deadline(stop=stop)).met(position.state)
    assert check_report(position, time_limit=60)["together"] is True
    zwanzigerrufen = next(iter(solver.read_positions(EXAMPLES / "valat.tbn")))
    assert targets_together(zwanzigerrufen, time_limit=1e-9) is None  # sides: nothing to search
