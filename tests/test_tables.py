"""The rule tables walked in Python agree with the rule methods on every state of random playouts."""

from __future__ import annotations

import random

import pytest

from game_cases import CONFIGS, config_id, random_rules
from solver.games import tables as T


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_tables_agree_with_rule_methods(config):
    rng = random.Random(config_id(config))
    checked = 0
    for _ in range(40):
        rules = random_rules(config, rng)
        tables = rules.compile_tables()
        state = rules.start()
        while not state.is_over:
            expected = state.legal_cards()
            got = T.legal_cards(tables, state.to_move, state.hands[state.to_move], state.trick, state.flags)
            assert got == expected, (rules.pack.names(got), rules.pack.names(expected), state)
            card = rng.choice(state.legal_list())
            trick = state.trick + (card,)
            if len(trick) == state.seats:
                assert T.trick_winner(tables, trick) == rules.trick_winner(trick)
                assert T.next_flags(tables, state.flags, trick) == rules.next_flags(state.flags, trick)
            state = state.advance(card)
            checked += 1
    assert checked > 40 * 12
