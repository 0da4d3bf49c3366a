"""Can several targets be met in one play with every seat helping? (RULES.md 3.3's optional cooperative question.)

A game where every seat plays for itself asks of each seat what it can guarantee when everybody else plays against it;
the rule book also asks, as an option, whether every active player's target can be met together. That is not a game
between sides but one search for a single play sequence: at every turn the seat to move picks any legal card, and the
answer is yes when some sequence gives each objective at least its target.

    met(state, needs) = True                                   when every need is 0
                      = False                                  when the deal is over, or a need exceeds what
                                                               the rest of the deal can still give
                      = any over legal cards c of met(state after c, needs less that trick's rewards)

``needs`` is what each objective still lacks of its target; the memo key is the position's key (hands, leader,
trick, flags) and the needs. Such deals are short (four tricks), so plain Python answers in milliseconds; the
search knows only the rule methods and the objectives' trick rewards, like the reference solver. It is plain
Python, outside the engine's stop check, so it asks a ``deadline`` of its own every :data:`POLL_EVERY` nodes.
"""

from __future__ import annotations

from ..cards import bits
from ..games.base import Objective
from ..state import PlayState
from .boundary import Deadline

#: Nodes between two looks at the deadline (a look is a clock read; a node costs some microseconds).
POLL_EVERY = 1024


def _tricks_left(state: PlayState) -> int:
    """Tricks still to be completed, the one on the table included."""
    return max(hand.bit_count() for hand in state.hands)  # a seat yet to play to the trick holds one card more


def _most_still(objective: Objective, state: PlayState, tricks: int) -> int:
    """The most reward ``objective`` can still earn: every trick, every card point, every event."""
    points = sum(state.rules.points[card] for card in bits(sum(state.hands) | sum(1 << c for c in state.trick)))
    return (objective.trick_weight * tricks + objective.points_weight * points
            + sum(event.reward for event in objective.events))


class Cooperative:
    """The cooperative search for a fixed list of yes/no objectives."""

    def __init__(self, objectives: list[Objective], deadline: Deadline | None = None) -> None:
        if any(objective.target is None for objective in objectives):
            raise ValueError("the cooperative search answers yes/no objectives (with targets) only")
        self.objectives = objectives
        self.memo: dict[tuple, bool] = {}
        self.nodes = 0
        self.deadline = deadline  # past it, met() raises SearchStopped
        # Objectives paid by tricks alone, for seats no other of them counts: a trick has one winner, so it counts
        # for at most one of them, and together they need the sum of their tricks (2+1+1+1 > 4 tricks).
        seats: set[int] = set()
        self.trick_only: list[int] = []
        for index, objective in enumerate(objectives):
            if (objective.trick_weight > 0 and objective.points_weight == 0 and not objective.events
                    and not seats & objective.maximiser):
                seats |= objective.maximiser
                self.trick_only.append(index)

    def needs_at(self, state: PlayState) -> tuple[int, ...]:
        """What each objective still lacks at ``state`` (its target less what the completed tricks earned)."""
        return tuple(max(0, objective.target - objective.achieved(state.rules, state))  # type: ignore[operator]
                     for objective in self.objectives)

    def met(self, state: PlayState, needs: tuple[int, ...] | None = None) -> bool:
        """Whether one play from ``state`` meets every target (``needs``: default from the tricks played)."""
        if needs is None:
            needs = self.needs_at(state)
        if not any(needs):
            return True
        if state.is_over:
            return False
        key = (state.key(), needs)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.deadline is not None and self.nodes % POLL_EVERY == 0:
            self.deadline.check("the cooperative search was stopped")
        tricks = _tricks_left(state)
        wanted = sum(-(-needs[i] // self.objectives[i].trick_weight) for i in self.trick_only)
        if wanted > tricks or any(need > _most_still(objective, state, tricks)
                                  for objective, need in zip(self.objectives, needs)):
            answer = False
        else:
            answer = False
            for card in bits(state.legal_cards()):
                child = state.advance(card)
                after = needs
                if len(child.history) > len(state.history):
                    trick = child.history[-1]
                    after = tuple(max(0, need - objective.trick_reward(state.rules, trick, last=child.is_over))
                                  for objective, need in zip(self.objectives, needs))
                if self.met(child, after):
                    answer = True
                    break
        self.memo[key] = answer
        return answer
