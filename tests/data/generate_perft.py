"""Writes tests/data/perft.txt: perft counts of fixed seeded deals, per game and contract, by the reference.

Run once when the rules change on purpose (``python tests/data/generate_perft.py``), then review the diff: every
changed number is a changed rule. Each entry is a seeded whole deal (``stich deal`` board 1 of the seed) or the
ending reached from it by a fixed random playout, with perft counts to several depths and a divide line.
"""

from __future__ import annotations

import random
from pathlib import Path

from solver.generate import random_record
from solver.position import position_from_record
from solver.search.reference import divide, perft

CASES = [
    # (id, game, contract, seats, whole-deal depths, ending tricks, variant)
    ("zr-normal", "Zwanzigerrufen", "Normal", None, 6, 3, ""),
    ("zr-solo", "Zwanzigerrufen", "Solo", None, 6, 3, ""),
    ("zr-suitsolo", "Zwanzigerrufen", "SuitSolo", None, 6, 3, ""),
    ("zr-suitsolo-strict", "Zwanzigerrufen", "SuitSolo", None, 6, 3, "suit_solo_follow=strict"),
    ("sk-rufer-e", "Schafkopf", "Rufer E", None, 6, 3, ""),
    ("sk-rufer-s-runaway-dealt", "Schafkopf", "Rufer S", None, 6, 3, "runaway_count_at=deal"),
    ("sk-wenz", "Schafkopf", "Wenz", None, 6, 3, ""),
    ("sk-solo-g", "Schafkopf", "Solo G", None, 6, 3, ""),
    ("sk-wenztout", "Schafkopf", "WenzTout", None, 6, 3, ""),
    ("sk-solotout-h", "Schafkopf", "SoloTout H", None, 6, 3, ""),
    ("kr-3", "Kratzen", "Trump H", 3, 12, None, ""),
    ("kr-4", "Kratzen", "Trump E", 4, 16, None, ""),
    ("kr-5", "Kratzen", "Trump S", 5, 20, None, "weli_also_bells=true"),
    ("kr-6", "Kratzen", "Trump G", 6, 24, None, "must_undertrump=false"),
]


def main() -> None:
    out = [__doc__.strip().replace("\n", "\n# ").join(["# ", ""]), ""]
    for seed, (name, game, contract, seats, depth, ending, variant) in enumerate(CASES, start=1):
        record = random_record(game, seed, 1, contract=contract, seats=seats)
        if variant:
            record.set("Variant", variant)
        position = position_from_record(record)
        rng = random.Random(seed)
        state = position.state
        played = []
        if ending:
            while state.tricks_left > ending or state.trick:
                card = rng.choice(state.legal_list())
                played.append(card)
                state = state.advance(card)
            # leave a trick in progress: one more card
            card = rng.choice(state.legal_list())
            played.append(card)
        for kind, cards in (("deal", []), ("ending", played)):
            if kind == "ending" and not ending:
                continue
            start = position.state
            for card in cards:
                start = start.advance(card)
            levels = range(1, depth + 1) if kind == "deal" else range(1, sum(h.bit_count() for h in start.hands) + 1)
            out.append(f"id {name}-{kind}")
            out.append(f"game {game}")
            out.append(f"deal {record.get('Deal')}")
            out.append(f"contract {contract}")
            if variant:
                out.append(f"variant {variant}")
            if cards:
                out.append("play " + " ".join(position.pack[c].name for c in cards))
            for level in levels:
                out.append(f"perft {level} {perft(start, level)}")
            split = divide(start, min(3, levels[-1]))
            out.append(f"divide {min(3, levels[-1])} " + " ".join(f"{position.pack[c].name}:{n}"
                                                                     for c, n in split.items()))
            out.append("")
    Path(__file__).with_name("perft.txt").write_text("\n".join(out))


if __name__ == "__main__":
    main()
