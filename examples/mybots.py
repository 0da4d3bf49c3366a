"""Bots of one's own for ``stich match --bots MODULE:ATTRIBUTE`` (docs/api.md, "A bot of your own").

From the repository's root: ``stich match --game schafkopf --bots examples.mybots:LastCard,random,random,random``;
with this file in the current directory, ``--bots mybots:LastCard,...``.
"""

import random


class LastCard:
    """Plays the last of its legal cards in the pack's order: called with no arguments."""

    name = "last"

    def choose(self, position):
        return max(position.legal_cards(), key=lambda card: card.index)


class RandomLead:
    """Leads a random card and follows with the last legal one: made with ``seed=`` (the match's ``--seed``),
    since its constructor takes one, and its choice seeded by the position too, so that a match is reproducible
    and a checkpoint resumes to the same result."""

    name = "random-lead"

    def __init__(self, seed=1):
        self.seed = seed

    def choose(self, position):
        legal = sorted(position.legal_cards(), key=lambda card: card.index)
        if position.trick:
            return legal[-1]
        return random.Random(f"{self.seed} {tuple(map(int, position.played))}").choice(legal)
