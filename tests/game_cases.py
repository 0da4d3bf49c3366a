"""Game x contract x variant combinations that the conformance and differential tests sweep."""

from __future__ import annotations

import os
import random

from solver.errors import InvalidContractError, StichError
from solver.games import get_game
from solver.position import Position
from solver.settlement import payoff_spec

CONFIGS = [
    ("Zwanzigerrufen", "Normal", {}),
    ("Zwanzigerrufen", "Normal", {"sagotrick": "mond_skus_pagat"}),
    ("Zwanzigerrufen", "Normal", {"sagotrick": "off", "pagat_via_sagotrick": "false"}),
    ("Zwanzigerrufen", "Solo", {}),
    ("Zwanzigerrufen", "SuitSolo", {}),
    ("Zwanzigerrufen", "SuitSolo", {"suit_solo_follow": "strict", "suit_solo_min_suit_cards": "0"}),
    ("Zwanzigerrufen", "Normal", {"hard_pagat_reservation": "true"}),
    ("Schafkopf", "Rufer E", {}),
    ("Schafkopf", "Rufer G", {"runaway_count_at": "deal"}),
    ("Schafkopf", "Rufer S", {}),
    ("Schafkopf", "Wenz", {}),
    ("Schafkopf", "Solo E", {}),
    ("Schafkopf", "Solo H", {}),
    ("Schafkopf", "WenzTout", {}),
    ("Schafkopf", "SoloTout S", {}),
    ("Kratzen", "Trump H", {}),
    ("Kratzen", "Trump S", {}),
    ("Kratzen", "Trump E", {"weli_also_bells": "true"}),
    ("Kratzen", "Trump G", {"must_undertrump": "false"}),
    ("Kratzen", "Trump H Muss", {"first_leader": "forehand"}),
]


def config_id(config) -> str:
    game, contract, variant = config
    flags = ",".join(f"{k}={v}" for k, v in variant.items())
    return f"{game[:2]}-{contract.replace(' ', '')}" + (f"-{flags}" if flags else "")


def random_rules(config, rng: random.Random, *, seats: int | None = None, pagat_announcer: bool = True):
    """Rules of a random whole deal on which the contract can be bid (redealt until it can)."""
    name, contract, variant = config
    game = get_game(name)
    if game.name == "Kratzen" and seats is None:
        seats = rng.choice(game.seat_counts)
    for _ in range(1000):
        deal = game.deal_random(rng, seats)
        declarer = 1 if contract.startswith("Normal") else rng.randrange(1, deal.seats + 1)
        extra = {}
        if variant.get("hard_pagat_reservation") and pagat_announcer:
            extra["pagat_announcer"] = (deal.holder(game.pack.parse("T1").index) or 0) + 1
        try:
            return game.rules(deal, contract, declarer=declarer, variant=variant, **extra)
        except InvalidContractError:
            continue
    raise AssertionError(f"no deal for {config}")


def random_state(rules, rng: random.Random, tricks_left: int | None = None, mid_trick: bool = False):
    """A state reached by random legal play: ``tricks_left`` tricks to go, optionally with a trick in progress."""
    state = rules.start()
    if tricks_left is None:
        return state
    while state.tricks_left > tricks_left or state.trick:
        state = state.advance(rng.choice(state.legal_list()))
    if mid_trick:
        for _ in range(rng.randrange(1, state.seats)):
            state = state.advance(rng.choice(state.legal_list()))
    return state


#: The settlement's sweep, (game, contract, variant choices, positions): each position draws one value per variant
#: flag; positions is how many endings the differential run checks (tests/test_settlement.py).
SETTLEMENT_CONFIGS = [
    ("Zwanzigerrufen", "Normal", {"valat_mode": ["separate", "replaces_game", "cancels_other_bonuses",
                                                 "multiplies_total"], "tie_44": ["declarers_lose", "no_score"],
                                  "mondfang": ["team", "player"], "pagat_via_sagotrick": ["true", "false"]}, 70),
    ("Zwanzigerrufen", "Solo", {"valat_mode": ["separate", "multiplies_total"],
                                "double_valat_in_solo": ["true", "false"], "solo_value": ["4", "5"]}, 60),
    ("Zwanzigerrufen", "SuitSolo", {"valat_mode": ["separate", "replaces_game"]}, 20),
    ("Schafkopf", "Rufer E", {"laufende_mode": ["standard", "only_if_holder_wins"]}, 35),
    ("Schafkopf", "Solo H", {}, 35),
    ("Schafkopf", "Wenz", {}, 35),
    ("Schafkopf", "SoloTout S", {}, 15),
    ("Kratzen", "Trump H", {}, 40),
    ("Kratzen", "Trump S Muss", {}, 20),
]

#: Announcement templates: D a declaring seat, F a defending seat (each tried until the scorer accepts one).
ANNOUNCEMENTS = [
    "", "D: Pagat", "F: Kontra", "D: Pagat; F: Kontra Pagat", "D: Valat", "D: Pagat, Valat; F: Kontra",
    "F: Kontra; D: Retour", "D: Absolut", "F: Valat dagegen", "F: Kontra; F: Pagat dagegen", "D: Mondfang",
    "F: Mondfang dagegen", "D: Trull, Koenige", "D: Valat; F: Kontra Valat; D: Retour Valat",
]


def random_announcements(rules, rng: random.Random) -> str:
    """One of :data:`ANNOUNCEMENTS` for a Zwanzigerrufen deal of ``rules``, its D and F made seats of the two sides
    (the scorer may refuse it for the contract: callers draw again)."""
    declarer = min(rules.declaring_side) + 1
    defender = rng.choice(sorted(rules.defending_side)) + 1
    return rng.choice(ANNOUNCEMENTS).replace("D:", f"{declarer}:").replace("F:", f"{defender}:")


#: How many times the settlement's differential runs check their endings (``STICH_LONG=1``: ten times as many).
SCALE = 10 if os.environ.get("STICH_LONG") else 1
#: Tricks left, position by position (``STICH_LONG=1`` adds endings of 5 tricks).
TRICKS_CYCLE = (3, 3, 4, 3, 5, 3) if SCALE > 1 else (3, 3, 4, 3, 3, 3)


def settlement_config_id(config) -> str:
    """A configuration's test id (``Zw-Normal``), which seeds its endings too: the ids keep the positions alike."""
    game, contract, _, _ = config
    return f"{game[:2]}-{contract.replace(' ', '')}"


def random_ending(config, rng: random.Random, number: int, cycle: tuple[int, ...] = TRICKS_CYCLE):
    """A position of the configuration with random variant values, announcements and pot, and the accepted spec."""
    game, contract, choices, _ = config
    variant = {flag: rng.choice(values) for flag, values in choices.items()}
    while True:
        rules = random_rules((game, contract, variant), rng)
        tricks = min(cycle[number % len(cycle)], rules.tricks_in_deal)
        state = random_state(rules, rng, tricks_left=tricks, mid_trick=number % 3 == 0)
        position = Position(get_game(game), rules, state)
        announcements = random_announcements(rules, rng) if position.game.has_announcements else None
        pot = rng.choice([0, 4, 8, 12])  # drawn for every game, so that the seeded positions stay the same
        pot = pot if position.game.has_pot else None  # the other games refuse a pot
        try:
            return position, announcements, pot, payoff_spec(position, announcements=announcements, pot=pot)
        except StichError:
            continue  # announcements the contract does not allow (e.g. Pagat in a Suit Solo): draw again
