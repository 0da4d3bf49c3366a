"""``stich analyse``: single-dummy analysis of one hand by sampling the unseen cards."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer
from rich.table import Table

from solver.sampling import HandAnalysis, analyse_hand

from .errors import input_errors
from .render import parse_variant_options, stdout_console


def parse_known(values: List[str] | None) -> dict[int, str]:
    """``--known "seat:cards"`` options as {seat: cards}; a malformed one is a usage error."""
    known: dict[int, str] = {}
    for value in values or []:
        seat, sep, cards = value.partition(":")
        if not sep or not seat.strip().isdigit():
            raise typer.BadParameter(f"{value!r} is not SEAT:CARDS", param_hint="'--known'")
        known[int(seat)] = (known.get(int(seat), "") + " " + cards).strip()
    return known


def render_analysis(analysis: HandAnalysis) -> None:
    """The report for people: the chances, the mean, the bonuses and the opening cards."""
    console = stdout_console()
    unit = analysis.measure
    low, high = analysis.interval
    console.print(f"{analysis.game} {analysis.contract}, seat {analysis.seat}: {' '.join(analysis.hand)}")
    for seat, cards in analysis.known.items():
        console.print(f"known in seat {seat}: {' '.join(cards)}")
    console.print(f"{analysis.samples} samples (seed {analysis.seed})")
    console.print(f"win: {analysis.win_probability:.1%}   mean {unit}: {analysis.mean:.1f} "
                  f"(95% interval {low:.1f} .. {high:.1f})")
    bonuses = Table(title="bonuses forced", title_justify="left")
    for column in ("objective", "for the hand's side", "against it"):
        bonuses.add_column(column)
    for bonus in analysis.bonuses:
        label = bonus.name if bonus.seat is None else f"{bonus.name} (seat {bonus.seat})"
        bonuses.add_row(label, f"{bonus.probability_for:.1%}", f"{bonus.probability_against:.1%}")
    console.print(bonuses)
    if analysis.openings:
        openings = Table(title="opening cards", title_justify="left")
        for column in ("card", f"mean {unit}", "win"):
            openings.add_column(column)
        for card in analysis.openings:
            openings.add_row(card.card, f"{card.mean:.1f}", f"{card.win_probability:.1%}")
        console.print(openings)


def analyse(
    game: str = typer.Option(..., "--game", "-g", help="Zwanzigerrufen, Schafkopf or Kratzen."),
    hand: str = typer.Option(..., "--hand", help="The hand analysed, cards separated by spaces."),
    seat: int = typer.Option(..., "--seat", help="The hand's seat (1-based)."),
    contract: str = typer.Option(..., "--contract", "-c", help="The contract, as in a [Contract] tag."),
    declarer: int = typer.Option(1, "--declarer", help="The declaring seat."),
    known: Optional[List[str]] = typer.Option(None, "--known", metavar="SEAT:CARDS",
                                              help="Cards known to be in another hand (repeatable)."),
    samples: int = typer.Option(200, "--samples", "-n", min=1, help="Deals of the unseen cards to solve."),
    seed: int = typer.Option(0, "--seed", help="The same seed gives the same analysis."),
    workers: Optional[int] = typer.Option(None, "--workers", "-j", min=1, help="Worker processes (default: all cores)."),
    variant: Optional[List[str]] = typer.Option(None, "--variant", metavar="NAME=VALUE", help="A variant flag."),
    as_json: bool = typer.Option(False, "--json", help="The report as one JSON document on stdout."),
    checkpoint: Optional[Path] = typer.Option(
        None, "--checkpoint", metavar="FILE",
        help="Append each finished chunk of samples to FILE; rerun with the same arguments to continue from it."),
    worker_memory: Optional[int] = typer.Option(None, "--worker-memory", metavar="MB", min=1,
                                                help="Cap each worker process at MB megabytes."),
) -> None:
    """Single-dummy analysis of a hand: the unseen cards dealt at random under what is known, each deal solved
    double-dummy; the chance of winning and of each bonus, the mean points and every opening card's value."""
    flags = parse_variant_options(variant)
    owners = parse_known(known)
    with input_errors():
        analysis = analyse_hand(game, hand, seat, contract, known=owners, samples=samples, seed=seed,
                                workers=workers, declarer=declarer, variant=flags or None, checkpoint=checkpoint,
                                memory_mb=worker_memory)
    if as_json:
        sys.stdout.write(json.dumps(analysis.as_dict(), ensure_ascii=False) + "\n")
    else:
        render_analysis(analysis)
