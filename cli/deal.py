"""``stich deal``: seeded random deals as a .tbn file."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import List, Optional

import typer

from solver.errors import shown_name
from solver.formats.tbn import format_record
from solver.generate import random_records
from solver.scoring import MAX_POT

from .errors import EXIT_INTERRUPTED, OutputCut, input_errors, interrupts_held, say_interrupted, stdout_buffered
from .output import atomic_writer, checked_output, is_stdout
from .options import (DEFAULT_SEED, check_game_options, checked_seed, game_option, output_file,
                      parse_variant_options)

#: --pot as the other commands take it (the pot at the start of the deal), written as each record's [Pot] tag
DEAL_POT = typer.Option(None, "--pot", metavar="CHIPS", min=0, max=MAX_POT,
                        help="The pot at the start of each deal, for a game paid from one: written as its [Pot] tag.")


def deal(
    game: str = game_option(...),
    contract: Optional[str] = typer.Option(None, "--contract", "-c", metavar="CONTRACT",
                                           help="Only deals on which this contract can be bid, e.g. 'Solo H'."),
    seed: int = typer.Option(DEFAULT_SEED, "--seed", "-s", metavar="SEED", callback=checked_seed,
                             help="Seed of the deals: the same seed gives the same deals."),
    count: int = typer.Option(1, "-n", "--count", metavar="N", min=1, help="How many deals to write."),
    declarer: int = typer.Option(1, "--declarer", metavar="SEAT", help="The declaring seat."),
    seats: Optional[int] = typer.Option(None, "--seats", metavar="K", min=3, max=6,
                                        help="The number of players, for a game played by several "
                                             "(default: the fewest)."),
    first_board: int = typer.Option(1, "--first-board", metavar="N", min=1, help="Number of the first board."),
    out: Optional[Path] = output_file("Write to this file instead of stdout (- is stdout)."),
    variant: Optional[List[str]] = typer.Option(None, "--variant", metavar="NAME=VALUE",
                                                help="A variant flag (repeatable): bid checks use it, and the "
                                                     "records carry it as their [Variant] tag."),
    pot: Optional[int] = DEAL_POT,
) -> None:
    """Write seeded random deals as a .tbn file (board k of a seed never depends on how many are asked for). With
    --pot, a game paid from a pot (Kratzen) gets it as each record's [Pot] tag (without it, none), as the board's
    Deal form writes it, so that score, solve and the board settle with it. Ctrl-C or SIGTERM stops it (exit 130)
    with one line on stderr: how many deals are written whole on stdout and how to write the rest, or, with --out,
    that the file was not written (it is written whole or not at all)."""
    flags = parse_variant_options(variant)
    check_game_options(game, flags, seats, declarer, contract, everyday=True, pot=pot)
    written = 0  # the records written whole (to stdout, or to --out's temporary file)
    finished = False  # all written, and --out renamed into place (stdout flushed)
    with input_errors():
        if out is not None:
            checked_output(out)
        try:
            records = random_records(game, seed, count, contract=contract, declarer=declarer, seats=seats,
                                     first_board=first_board, variant=flags)
            with ExitStack() as writing:
                stream = writing.enter_context(atomic_writer(out))
                for record in records:
                    if pot is not None:
                        record.set("Pot", str(pot))
                    text = format_record(record) + "\n"  # a blank line ends each record: files concatenate
                    with interrupts_held():  # written and counted together, for what an interrupt says
                        stream.write(text)
                        written += 1
                with interrupts_held():  # the file renamed into place and known to be, together
                    writing.close()
                    finished = True
        except KeyboardInterrupt as stop:
            said = deals_stopped(written, count, first_board, out, isinstance(stop, OutputCut), finished,
                                 buffered=stdout_buffered())
            say_interrupted("deal", said)
            raise typer.Exit(EXIT_INTERRUPTED) from None


def deals_stopped(written: int, count: int, first_board: int, out: Path | None, cut: bool, finished: bool,
                  buffered: bool = False) -> str:
    """What ``stich deal`` stopped by the interrupt says it finished (:func:`~cli.errors.say_interrupted`): on
    stdout, the deals written whole and the options that write the rest (board k of a seed is the same whatever the
    count, so the two outputs concatenate to the whole run's); with --out, that the file was not written, as its
    temporary file is removed. A cut of a ``buffered`` stdout drops the deals its buffer held: no count is said."""
    done = f"after {written:,} of {count:,} deal{'s' if count != 1 else ''}"
    to_file = out is not None and not is_stdout(out)
    shown = shown_name(out) if out is not None and to_file else "stdout"
    every = f"all {count:,} deals were" if count != 1 else "its one deal was"
    if finished:
        return f"after {every} written whole to {shown}"
    if to_file:
        kept = f"nothing written to {shown} (it is written whole or not at all; a file there is left as it was)"
        return f"{done}: {kept}" if written else f"before any deal was written: {kept}"
    if cut and written == count:  # the last flush, once every deal was written to the buffer
        return (f"after {every} written: a second interrupt cut the last of them short on stdout, as it was flushed; "
                "the records that arrived whole are whole")
    if cut and buffered:  # the buffer's deals, counted as written, went nowhere: how many arrived is not known
        return ("as a second interrupt cut its output short on stdout while its buffer was written, at or before "
                f"the deal of board {first_board + written}; the records that arrived whole are whole")
    if cut:
        return (f"{done}: a second interrupt cut the deal of board {first_board + written} short on stdout; the "
                f"{written:,} before it are whole")
    if not written:
        return "before any deal was written"
    boards = (f"board {first_board} is" if written == 1 else f"boards {first_board}-{first_board + written - 1} are")
    return (f"{done}: {boards} written whole on stdout; --first-board {first_board + written} "
            f"-n {count - written} with the same options writes the rest")
