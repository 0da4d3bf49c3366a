"""``stich deal``: seeded random deals as a .tbn file."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from solver.formats.tbn import format_record
from solver.games import game_list
from solver.generate import random_records
from solver.scoring import MAX_POT

from .errors import input_errors
from .output import atomic_writer
from .options import DEFAULT_SEED, check_game_options, checked_game, checked_seed, output_file, parse_variant_options

#: --pot as the other commands take it (the pot at the start of the deal), written as each record's [Pot] tag
DEAL_POT = typer.Option(None, "--pot", metavar="CHIPS", min=0, max=MAX_POT,
                        help="The pot at the start of each deal, for a game paid from one: written as its [Pot] tag.")


def deal(
    game: str = typer.Option(..., "--game", "-g", metavar="GAME", callback=checked_game,
                             help=f"{game_list()} (or an alias)."),
    contract: Optional[str] = typer.Option(None, "--contract", "-c", metavar="CONTRACT",
                                           help="Only deals on which this contract can be bid, e.g. 'Solo H'."),
    seed: int = typer.Option(DEFAULT_SEED, "--seed", "-s", metavar="SEED", callback=checked_seed,
                             help="Seed: the same seed gives the same deals."),
    count: int = typer.Option(1, "-n", "--count", metavar="N", min=1, help="Number of deals."),
    declarer: int = typer.Option(1, "--declarer", metavar="SEAT", help="The declaring seat."),
    seats: Optional[int] = typer.Option(None, "--seats", metavar="K", min=3, max=6,
                                        help="The number of players, for a game played by several "
                                             "(default: the fewest)."),
    first_board: int = typer.Option(1, "--first-board", metavar="BOARD", min=1, help="Number of the first board."),
    out: Optional[Path] = output_file("Write to this file instead of stdout (- is stdout)."),
    variant: Optional[List[str]] = typer.Option(None, "--variant", metavar="NAME=VALUE",
                                                help="A variant flag (repeatable): bid checks use it, and the "
                                                     "records carry it as their [Variant] tag."),
    pot: Optional[int] = DEAL_POT,
) -> None:
    """Write seeded random deals as a .tbn file (board k of a seed never depends on how many are asked for). With
    --pot, a game paid from a pot (Kratzen) gets it as each record's [Pot] tag (without it, none), as the board's
    Deal form writes it, so that score, solve and the board settle with it."""
    flags = parse_variant_options(variant)
    check_game_options(game, flags, seats, declarer, contract, everyday=True, pot=pot)
    with input_errors():
        records = random_records(game, seed, count, contract=contract, declarer=declarer, seats=seats,
                                 first_board=first_board, variant=flags)
        with atomic_writer(out) as stream:
            for record in records:
                if pot is not None:
                    record.set("Pot", str(pot))
                stream.write(format_record(record) + "\n")  # a blank line ends each record: files concatenate
