"""``stich bench``: time the engine on seeded generated deals (a wrapper over :mod:`solver.benchmark`)."""

from __future__ import annotations

import dataclasses
from typing import Any, List, Optional

import typer

from solver.analysis import SCHEMA
from solver.benchmark import MAX_LIMIT_S, BenchLine, BenchStats, line_seed, run_line, standard_lines, target_met
from solver.errors import StichError
from solver.games import get_game

from .errors import input_errors
from .render import (check_game_options, emit_json, parse_variant_options, progress_on_stderr, render_bench,
                     stdout_console, use_table_megabytes)
from .solve import TABLE_MB


def bench_document(line: BenchLine, stats: BenchStats, seed: int) -> dict[str, Any]:
    """One benchmark line's statistics as the JSON document of ``docs/json.md``."""
    memory = stats.peak_table_bytes
    return {
        "schema": SCHEMA, "command": "bench", "line": line.name, "game": line.game, "seed": seed,
        "deals": stats.deals, "median_ms": stats.median, "p90_ms": stats.p90, "p99_ms": stats.p99,
        "max_ms": stats.max, "median_nodes": stats.median_nodes, "nodes_per_second": stats.nodes_per_second,
        "table_allocated_bytes": memory.allocated, "table_used_bytes": memory.used, "timeouts": stats.timeouts,
        "limit_ms": stats.limit_ms, "target": line.target or None, "target_met": target_met(line, stats),
        "boards": list(stats.boards), "times_ms": list(stats.times_ms), "nodes": list(stats.nodes),
    }


def selected_lines(game: str | None) -> list[BenchLine]:
    """The issue's benchmark lines, or those of one game."""
    lines = standard_lines()
    if game is None:
        return lines
    try:
        name = get_game(game).name
    except StichError as error:
        raise typer.BadParameter(str(error), param_hint="'--game'") from None
    return [line for line in lines if line.game == name]


def bench(
    game: Optional[str] = typer.Option(None, "--game", "-g", metavar="GAME",
                                       help="Only this game's lines (default: all)."),
    deals: int = typer.Option(10, "-n", "--deals", metavar="N", min=1,
                              help="Deals per line (the full benchmark uses 100)."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", metavar="SEED",
                                       help="Seed of the generated deals (default: each game's fixed seed)."),
    limit: float = typer.Option(60.0, "--limit", metavar="SECONDS", min=0.0, max=MAX_LIMIT_S,
                                help="Seconds after which a solve is stopped and counted at the limit "
                                     "(0: no limit, solve in this process)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON document per line on stdout (JSON Lines)."),
    variant: Optional[List[str]] = typer.Option(None, "--variant", metavar="NAME=VALUE",
                                                help="A variant flag of the --game's lines (repeatable)."),
    table_mb: Optional[int] = TABLE_MB,
) -> None:
    """Time the engine on seeded deals: median, p90, p99 and max per deal, nodes per second and table memory,
    for each line of the benchmark (a fresh engine per deal, so no table is reused)."""
    documents = []
    flags = parse_variant_options(variant)
    use_table_megabytes(table_mb)
    if flags and game is None:
        raise typer.BadParameter("--variant needs --game (flags belong to one game)", param_hint="'--variant'")
    if game is not None:
        check_game_options(game, flags)
    with input_errors():
        for line in selected_lines(game):
            if flags:
                line = dataclasses.replace(line, variant=tuple(sorted(flags.items())))
            with progress_on_stderr(line.name) as progress:
                stats = run_line(line, deals=deals, seed=seed, limit_s=limit or None,
                                 progress=lambda p: progress(f"deal {p.done}/{p.total}, {p.ms:.1f} ms"))
            document = bench_document(line, stats, line_seed(line, seed))
            if as_json:
                emit_json(document)
            documents.append(document)
    if not as_json:
        render_bench(documents, stdout_console())
