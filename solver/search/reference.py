"""The reference solver: plain minimax with a memo, written to be obviously right.

It knows nothing but the rule methods (``legal_cards``, ``trick_winner``, ``next_flags`` through
:meth:`PlayState.advance`) and the objective's reward of a completed trick. The value of a position is the most
reward the maximising side can force from the cards still to be played (the trick in progress included):

    value(state) = 0                                              when the deal is over
                 = max / min over legal cards c of
                       reward(trick completed by c, if any) + value(state after c)

with max when the seat to move belongs to the maximising side. The memo key is everything the rest of the play
depends on (hands, leader, trick on the table, rule-history flags); rewards already earned are not part of it.
The compiled engine is tested against this module.
"""

from __future__ import annotations

import time

from ..cards import bits
from ..games.base import Objective
from ..state import PlayState
from .results import CardValue, SolveResult, seat_to_move


class ReferenceSolver:
    """Minimax with a memo for one objective. Reusable across positions of the same rules and objective."""

    def __init__(self, objective: Objective) -> None:
        self.objective = objective
        self.memo: dict[tuple, int] = {}
        self.nodes = 0

    def value(self, state: PlayState) -> int:
        """The reward the maximising side can force from ``state`` on."""
        if state.is_over:
            return 0
        key = state.key()
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        maximising = state.to_move in self.objective.maximiser
        best: int | None = None
        for card in bits(state.legal_cards()):
            result = self.card_value(state, card)
            if best is None or (result > best if maximising else result < best):
                best = result
        assert best is not None, "a player to move always has a legal card"
        self.memo[key] = best
        return best

    def card_value(self, state: PlayState, card: int) -> int:
        """The reward the maximising side can force after ``card`` is played (that trick's reward included)."""
        child = state.advance(card)
        reward = 0
        if len(child.history) > len(state.history):
            reward = self.objective.trick_reward(state.rules, child.history[-1], last=child.is_over)
        return reward + self.value(child)

    def line(self, state: PlayState) -> list[int]:
        """A principal variation: at each turn the lowest-indexed card that keeps the value."""
        line = []
        while not state.is_over:
            target = self.value(state)
            for card in bits(state.legal_cards()):
                if self.card_value(state, card) == target:
                    line.append(card)
                    state = state.advance(card)
                    break
        return line


def solve(state: PlayState, objective: Objective, *, cards: bool = False, line: bool = False) -> SolveResult:
    """Solve ``state`` for ``objective`` with the reference solver.

    Returns what is already won, the value of the rest and the total; with ``cards`` the value of every legal card,
    with ``line`` a principal variation to the end of the deal.
    """
    start = time.perf_counter()
    solver = ReferenceSolver(objective)
    future = solver.value(state)
    values: list[CardValue] = []
    if cards:
        values = [CardValue(card, solver.card_value(state, card)) for card in bits(state.legal_cards())]
    pv = solver.line(state) if line else []
    achieved = objective.achieved(state.rules, state)
    return SolveResult(objective=objective, achieved=achieved, future=future, card_values=tuple(values),
                       line=tuple(pv), nodes=solver.nodes, seconds=time.perf_counter() - start,
                       to_move=seat_to_move(state), pack=state.rules.pack)


def perft(state: PlayState, depth: int) -> int:
    """The number of legal play sequences of ``depth`` cards from ``state`` (fewer where the deal ends first)."""
    if depth == 0 or state.is_over:
        return 1
    return sum(perft(state.advance(card), depth - 1) for card in bits(state.legal_cards()))


def divide(state: PlayState, depth: int) -> dict[int, int]:
    """perft split by the first card: the tool for finding where two move generators part."""
    return {card: perft(state.advance(card), depth - 1) for card in bits(state.legal_cards())}
