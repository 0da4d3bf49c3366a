"""The engine's groups of equivalent legal cards (``representatives``, worked out on words where pext is one
instruction) against their definition, card by card: a legal card is searched for its group unless the next stronger
live card of its class (the trick's cards counting as live) is legal too and has its signature."""

from __future__ import annotations

import random

import pytest

from solver.cards import bits
from solver.generate import random_record
from solver.position import position_from_record
from solver.search.engine import EngineSolver

GAMES = [("Zwanzigerrufen", "Normal", "points"), ("Zwanzigerrufen", "Normal", "valat"),
         ("Schafkopf", "Rufer E", "points"), ("Schafkopf", "Solo H", "points"), ("Schafkopf", "Wenz", "points"),
         ("Kratzen", "Trump H", "tricks")]


def defined_groups(tables: dict, live: int, legal: int) -> int:
    """The representatives by the definition (engine indices)."""
    kept = 0
    for card in bits(legal):
        above = live & tables["stronger"][card]
        if above:
            stronger = (above & -above).bit_length() - 1
            if legal >> stronger & 1 and tables["signature"][stronger] == tables["signature"][card]:
                continue
        kept |= 1 << card
    return kept


@pytest.mark.parametrize("game, contract, objective_name", GAMES)
def test_groups_match_their_definition(game: str, contract: str, objective_name: str) -> None:
    solver = EngineSolver(threads=1)
    rng = random.Random(f"groups:{game}")
    checked = merged = 0
    for board in range(1, 7):
        position = position_from_record(random_record(game, 11, board, contract=contract))
        objective = position.objective(objective_name, 1) if game == "Kratzen" else position.objective(objective_name)
        state = position.state
        while not state.is_over:
            compiled = solver._load(state, objective)
            legal, representatives = solver.engine.groups()
            live = 0
            for card in [c for hand in state.hands for c in bits(hand)] + list(state.trick):
                live |= 1 << compiled.to_engine[card]
            assert representatives == defined_groups(compiled.tables, live, legal)
            checked += 1
            merged += representatives != legal
            state = state.advance(rng.choice(list(bits(state.legal_cards()))))
    assert checked >= 60 and merged > 0
