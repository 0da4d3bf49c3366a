"""``stich analyse``: single-dummy analysis of one hand by sampling the unseen cards."""

from __future__ import annotations

import contextlib
import math
from pathlib import Path
from typing import Any, Callable, List, Optional

import typer
from rich.table import Table
from rich.text import Text

from solver.advice import (PASS, AdviceSetup, CardAdvice, ContractAdvice, can_pass, card_advice, contract_advice,
                           make_setup, other_contract_lists, pass_refusal, row_name)
from solver.analysis import record_header
from solver.deal import small_number
from solver.errors import InvalidDealError, StichError
from solver.generate import contract_refusal
from solver.games import game_list, get_game
from solver.position import Position
from solver.sampling import (ALL_ALIKE, MAX_SAMPLES, HandAnalysis, analyse_hand, analyse_position, best_card_parts,
                             bonus_table, measure_words, opening_table, scored_with, share,
                             spread_text, summary_lines)
from solver.scoring import MAX_POT
from solver.workers import (DEFAULT_WORKER_WAIT_SECONDS, MAX_WORKER_MEMORY_MB, MAX_WORKER_WAIT_SECONDS,
                            MIN_WORKER_MEMORY_MB)

from .errors import file_name, input_errors, message
from .options import (DEFAULT_SEED, POOL_THREADS, TABLE_MB, check_game_options, checked_game, checked_seed,
                      engine_for, parse_variant_options, refuse_pool_threads, cluster_address, workers_within_cores)
from .records import emit_json, run_over_records
from .render import (CardPainter, glyph, on_a_terminal, plural, record_head, spinner_for, stderr_console,
                     stdout_console)


def parse_known(values: List[str] | None) -> dict[int, str]:
    """``--known "seat:cards"`` options as {seat: cards}; a malformed one is a usage error."""
    known: dict[int, str] = {}
    for value in values or []:
        text, sep, cards = value.partition(":")
        seat = small_number(text)  # ASCII digits: str.isdigit() let "²" through to a bare ValueError
        if not sep or seat is None:
            raise typer.BadParameter(f"{value!r} is not SEAT:CARDS", param_hint="'--known'")
        known[seat] = (known.get(seat, "") + " " + cards).strip()
    return known


def render_analysis(document: dict, console=None) -> None:
    """The report for people: the chances, the mean, the bonuses and the opening cards (the text is the library's,
    solver.sampling.report_text, which ``print(analysis)`` gives; here with the cards painted and tables drawn)."""
    console = console or stdout_console()
    print_record(document, console)
    painter = CardPainter.for_game(document["game"])
    console.print(Text(f"{document['game']} {document['contract']}, seat {document['seat']}: ")
                  + painter.cards(document["hand"]))
    for seat, cards in document["known"].items():
        console.print(Text(f"known in seat {seat}: ") + painter.cards(cards))
    if document.get("played"):
        console.print(Text("played so far: ") + painter.cards(document["played"]))
    for line in summary_lines(document):
        console.print(line)
    best = best_card_parts(document)
    if best is not None:
        before, card, after = best
        console.print(Text(before) + painter.card(card) + Text(after))
    title, columns, rows = bonus_table(document)
    bonuses = Table(title=title, title_justify="left")
    for column in columns:
        bonuses.add_column(column)
    for row in rows:
        bonuses.add_row(*row)
    console.print(bonuses)
    openings_found = opening_table(document)
    if openings_found is not None:
        title, columns, rows = openings_found
        openings = Table(title=title, title_justify="left")
        for column in columns:
            openings.add_column(column)
        for card, *cells in rows:
            openings.add_row(painter.card(card), *cells)
        console.print(openings)


def print_record(document: dict, console) -> None:
    """Which record a report from a file answers (a file of several boards gives several reports): its board and
    place, as the other commands head theirs."""
    if document.get("record"):
        console.print(Text(record_head(document["record"]), style="bold"))


def analyse(
    file: Optional[Path] = typer.Argument(
        None, metavar="FILE", show_default=False, parser=file_name,
        help="Analyse from the records of this file instead: the seat's hand as dealt and the play so far are "
             "kept, the other hands redealt."),
    game: Optional[str] = typer.Option(None, "--game", "-g", metavar="GAME", callback=checked_game,
                                       help=f"{game_list()} (or an alias)."),
    hand: Optional[str] = typer.Option(None, "--hand", metavar="CARDS",
                                       help="The hand analysed, cards separated by spaces."),
    seat: int = typer.Option(..., "--seat", metavar="SEAT", help="The hand's seat (1-based)."),
    contract: Optional[str] = typer.Option(None, "--contract", "-c", metavar="CONTRACT",
                                           help="The contract, as in a [Contract] tag."),
    board: Optional[str] = typer.Option(None, "--board", "-b", metavar="BOARD",
                                        help="With FILE: only the records of this board."),
    record: Optional[int] = typer.Option(None, "--record", "-r", metavar="N", min=1,
                                         help="With FILE: only its Nth record (1-based, counting every record)."),
    declarer: Optional[int] = typer.Option(None, "--declarer", metavar="SEAT", help="The declaring seat (default 1)."),
    seats: Optional[int] = typer.Option(None, "--seats", metavar="K", min=3, max=6,
                                        help="The number of players, for a game played by several "
                                             "(default: the fewest)."),
    known: Optional[List[str]] = typer.Option(None, "--known", metavar="SEAT:CARDS",
                                              help="Cards known to be in another hand (repeatable)."),
    samples: int = typer.Option(200, "--samples", "-n", metavar="N", min=1, max=MAX_SAMPLES,
                                help="Deals of the unseen cards to solve."),
    seed: int = typer.Option(DEFAULT_SEED, "--seed", "-s", metavar="SEED", callback=checked_seed,
                             help="The same seed gives the same analysis."),
    workers: Optional[int] = typer.Option(None, "--workers", "-j", metavar="N", min=1,
                                          help="Worker processes (default: all cores)."),
    variant: Optional[List[str]] = typer.Option(
        None, "--variant", metavar="NAME=VALUE",
        help="A variant flag (repeatable); with FILE it overrides the record's [Variant] tag."),
    as_json: bool = typer.Option(False, "--json", help="The report as one JSON document on stdout (with FILE, one "
                                                      "per record: JSON Lines, docs/json.md)."),
    checkpoint: Optional[Path] = typer.Option(
        None, "--checkpoint", metavar="FILE", parser=file_name,
        help="Append each finished chunk of samples to FILE; rerun with the same arguments to continue from it."),
    worker_memory: Optional[int] = typer.Option(None, "--worker-memory", metavar="MB", min=MIN_WORKER_MEMORY_MB,
                                                max=MAX_WORKER_MEMORY_MB,
                                                help="Cap each worker process at MB megabytes (default: no cap)."),
    threads: Optional[int] = POOL_THREADS,
    table_mb: Optional[int] = TABLE_MB,
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="tcp://HOST:PORT",
                                            help="Run the samples on this Dask cluster instead."),
    worker_wait: float = typer.Option(
        DEFAULT_WORKER_WAIT_SECONDS, "--worker-wait", metavar="SECONDS", min=0, max=MAX_WORKER_WAIT_SECONDS,
        help="With --scheduler: how long to wait for a first worker to join before giving up."),
    verbose: bool = typer.Option(False, "--verbose", help="With --scheduler: Dask's own log messages on stderr too."),
    time_limit: Optional[float] = typer.Option(
        None, "--time-limit", metavar="SECONDS", min=0.001,
        help="Contract advice and card advice (--cards): stop after SECONDS with the samples solved so far "
             "(said as such; exit 0)."),
    announce: Optional[str] = typer.Option(
        None, "--announce", metavar="ANNOUNCEMENTS",
        help="Without FILE: the announcements every sample is scored with (contract advice: that the seat adds to "
             "every contract), as in an [Announcements] tag (e.g. '1: Pagat Ultimo')."),
    pot: Optional[int] = typer.Option(None, "--pot", metavar="CHIPS", min=0, max=MAX_POT,
                                      help="A game with a pot: the pot the settlement pays into (overrides a FILE "
                                           "record's [Pot] tag, as in score and table)."),
    each_announcement: bool = typer.Option(
        False, "--each-announcement",
        help="Contract advice: every contract announcing nothing and with each announcement (each of --announce's "
             "and all together, else each the hand allows), on the same samples, with what each adds."),
    cards: bool = typer.Option(
        False, "--cards",
        help="With FILE: card advice for the seat to move (--seat): every legal card ranked by the seat's mean "
             "share of its side's settlement over samples consistent with the play."),
) -> None:
    """Single-dummy analysis of a hand: the unseen cards dealt at random under what is known, each deal solved
    double-dummy; the chance of winning and of each bonus, the mean card points and every opening card's value.

    With --contract all (or a comma-separated list) it is contract advice instead: every contract the seat may
    announce settled on the same samples, ranked by what the seat is paid (its share of its side's settlement: a
    Rufer's is shared by two, a Solo's is the soloist's) with its 95% interval, the win rate and each bonus's odds;
    contracts the samples cannot tell apart from the best are marked."""
    refuse_pool_threads(threads)
    scheduler = cluster_address(scheduler, workers, worker_memory, table_mb)
    workers = workers_within_cores(workers)
    flags = parse_variant_options(variant)
    engine_for(None)  # STICH_TABLE_MB and STICH_IMPLEMENTATION checked before any record
    owners = parse_known(known)

    def notify(text: str) -> None:
        message(f"stich: {text}")

    for option, value in (("--board", board), ("--record", record)):
        if value is not None and file is None:
            raise typer.BadParameter(f"{option} picks a record of a FILE; without one there is nothing to pick from",
                                     param_hint=f"'{option}'")
    if contract is not None and file is None and (contract.strip().lower() in ("all", PASS) or "," in contract):
        if not game or not hand:
            raise typer.BadParameter("contract advice needs --game and --hand", param_hint="'--game/--hand'")
        if declarer is not None and declarer != seat:
            raise typer.BadParameter("contract advice is for the seat that announces: --declarer is --seat",
                                     param_hint="'--declarer'")
        check_game_options(game, flags, seats,
                           cards=[("--hand", hand), *(("--known", cards) for cards in owners.values())],
                           seat_options=[("--seat", seat), *(("--known", other) for other in owners)], pot=pot,
                           announcements=announce)
        check_listed_contracts(game, contract, seat)
        if each_announcement and not get_game(game).has_announcements:
            raise typer.BadParameter(f"{get_game(game).name} has no announcements to compare",
                                     param_hint="'--each-announcement'")
        advise(game, hand, seat, contract, known=owners, samples=samples, seed=seed, workers=workers,
               variant=flags, seats=seats, announce=announce, pot=pot, time_limit=time_limit, as_json=as_json,
               checkpoint=checkpoint, each_announcement=each_announcement)
        return
    if each_announcement:
        raise typer.BadParameter("it compares contracts with and without announcements: contract advice only "
                                 "(--contract all, or a list)", param_hint="'--each-announcement'")
    if announce is not None and file is not None:
        raise typer.BadParameter("a record is scored with its own [Announcements] tag", param_hint="'--announce'")
    if cards:
        if file is None:
            raise typer.BadParameter("card advice is from a record's play: give a FILE", param_hint="'--cards'")
        if any(option is not None for option in (game, hand, contract, seats, declarer)):
            raise typer.BadParameter("give either FILE or --game, --hand, --contract (and --seats, --declarer), not "
                                     "both: a record says them itself", param_hint="'FILE'")

        def card_document(position: Position) -> dict:
            return _with_record(position, advise_cards(position, seat, known=owners, samples=samples, seed=seed,
                                                       workers=workers, time_limit=time_limit,
                                                       checkpoint=checkpoint, as_json=as_json))

        # --pot over a FILE's records: the [Pot] tag of those of a game paid from a pot
        run_over_records(file, variant=flags, board=board, record=record, as_json=as_json, render=render_cards,
                         document=card_document, pot=pot)
        return
    if time_limit is not None:
        raise typer.BadParameter("only contract advice (--contract all, or a list) and card advice (--cards) take "
                                 "it", param_hint="'--time-limit'")
    if file is not None:
        if any(option is not None for option in (game, hand, contract, seats, declarer)):
            raise typer.BadParameter("give either FILE or --game, --hand, --contract (and --seats, --declarer), not "
                                     "both: a record says them itself", param_hint="'FILE'")

        def document(position: Position) -> dict:
            seats = position.rules.seats
            for option, number in (("--seat", seat), *(("--known", other) for other in owners or {})):
                if not 1 <= number <= seats:  # pointed at the record's [Deal], which says how many seats there are
                    raise InvalidDealError(f"{option} {number}: the record's deal has seats 1 to {seats}")
            with live_analysis(samples, as_json, checkpoint) as show:
                analysis = analyse_position(position, seat, known=owners, samples=samples, seed=seed,
                                            workers=workers, checkpoint=checkpoint, memory_mb=worker_memory,
                                            scheduler=scheduler, worker_wait=worker_wait, notify=notify,
                                            verbose=verbose, table_mb=table_mb, progress=show)
            return _with_record(position, analysis.as_dict())

        run_over_records(file, variant=flags, board=board, record=record, as_json=as_json, render=render_analysis,
                         document=document, pot=pot)
        return
    if not game or not hand or not contract:
        missing = [name for name, value in (("--game", game), ("--hand", hand), ("--contract", contract)) if not value]
        raise typer.BadParameter(f"missing {', '.join(missing)} (or give a FILE to analyse from)",
                                 param_hint="'--game/--hand/--contract'")
    check_game_options(game, flags, seats, declarer, contract,
                       cards=[("--hand", hand), *(("--known", cards) for cards in owners.values())],
                       seat_options=[("--seat", seat), *(("--known", other) for other in owners)], pot=pot,
                       announcements=announce)
    if get_game(game).variant(flags).get("hard_pagat_reservation"):  # read as the game reads it (checked above)
        message("stich: hard_pagat_reservation changes nothing here: a hand analysis announces no Pagat (analyse "
                "from a record with [Announcements] for that)")
    with input_errors():
        with live_analysis(samples, as_json, checkpoint) as show:
            analysis = analyse_hand(game, hand, seat, contract, known=owners, samples=samples, seed=seed,
                                    workers=workers, declarer=declarer or 1, variant=flags or None, seats=seats,
                                    checkpoint=checkpoint, memory_mb=worker_memory, scheduler=scheduler,
                                    worker_wait=worker_wait, notify=notify, verbose=verbose, table_mb=table_mb,
                                    progress=show, announcements=announce, pot=pot)
    if as_json:
        emit_json(analysis.as_dict())  # compact, one line, like the documents of FILE
    else:
        render_analysis(analysis.as_dict())


@contextlib.contextmanager
def live_analysis(samples: int, as_json: bool, checkpoint: Path | None = None):
    """A status line on a terminal while a single-contract analysis samples: samples done, the win chance and the
    mean with its interval so far (nothing on a pipe or with --json). Ctrl-C says on stderr how far it got and that
    there is no report (it ended the command with 130 and not a word), and goes on (exit 130)."""
    console = stderr_console()
    live = on_a_terminal(console) and not as_json
    solved = [0]
    try:
        spinning = console.status("analyse: starting", spinner=spinner_for(console)) if live else None
        with (contextlib.nullcontext() if spinning is None else spinning) as status:
            def show(analysis) -> None:
                solved[0] = analysis.samples
                if status is not None:
                    status.update(analysis_status(analysis, samples))
            yield show
    except KeyboardInterrupt:
        kept = (f"the chunks solved are kept in {checkpoint}: rerun the command to resume" if checkpoint is not None
                else "--checkpoint FILE keeps them for a rerun")
        message(f"stich: analyse: interrupted after {solved[0]:,} of {samples:,} samples: no report (a "
                f"single-contract analysis reports when all its samples are solved; {kept})")
        raise


def analysis_status(analysis: HandAnalysis, samples: int) -> str:
    """The status line of a single-contract analysis so far, in its report's words (:func:`share`, :func:`spread_text`):
    the win chance with its Wilson interval, and the mean without an interval where it has none (one sample, or all
    alike), where the line printed ``120.0 (120.0 .. 120.0)``, a certainty the report does not claim."""
    document = analysis.as_dict()
    spread = spread_text(document["samples"], document["interval"], document["interval_note"], "{:.1f}".format)
    return (f"analyse: {document['samples']:,} of {samples:,} samples; win "
            f"{share(document['win_probability'], document['win_interval'])}, "
            f"mean {measure_words(document['measure'])} {document['mean']:.1f} ({spread})")


def _units(document: dict) -> str:
    """What payments are counted in: chips where the game is paid from a pot (Kratzen), else game units."""
    return get_game(document["game"]).score_unit


def _win_meaning(document: dict, paid: str = "where it is above 0") -> str:
    """Which samples the advice counts as won: in a game paid from a pot the attacker's target made, which a Muss or a
    pot under 4 chips pays with 0 (solver.advice.is_win); elsewhere a positive payment."""
    paid_from_pot = get_game(document["game"]).has_pot and document.get("pot")
    return "where the attacker makes his target (paid 0 or more)" if paid_from_pot else paid


def _payment_note(document: dict, sides: bool = False) -> str:
    """What a payment is: the seat's share of its side's settlement (``sides``: which contracts share it), or in a
    game paid from a pot (where only the attacker's is searched) the attacker's own."""
    if get_game(document["game"]).has_pot:
        return "payment: the attacker's own, in chips from and into the pot"
    shared = get_game(document["game"]).shared_contract_text if sides else ""
    return "payment: the seat's share of its side's settlement" + (f" (two seats share {shared})" if shared else "")


def _ranked_texts(rank: int, row: dict) -> tuple[str, str]:
    """A ranked row's mean with its interval, and its gap behind the best (``~``: not told apart from it), each as
    ``+1.00 ± 0.50``: the intervals are the mean's plus and minus a half-width, and written so a table of ten
    contracts fits a terminal."""
    mean = plus_minus(row["mean"], row["interval"], row.get("interval_note"))
    if rank == 1:
        return mean, "best"
    if row["behind_leader"] is None:  # no sample settled both (pass rows whose announcements fit other sides)
        return mean, "no sample in common"
    behind = plus_minus(row["behind_leader"], row["behind_interval"], row.get("behind_interval_note"))
    return mean, behind + ("" if row["told_apart"] else " ~")


def plus_minus(value: float, interval: list, note: str | None = None) -> str:
    """``+1.00 ± 0.50`` for a mean and its symmetric interval; ``+1.00 (all alike)`` where every sample gave that
    value (no interval: not ``± 0.00``, a certainty the samples do not show); the mean alone where there is none."""
    low, high = interval
    if note == ALL_ALIKE or (low is not None and low == high):
        return f"{value:+.2f} (all alike)"
    if low is None or math.isnan(low):
        return f"{value:+.2f}"
    return f"{value:+.2f} {glyph('±', '+/-')} {(high - low) / 2:.2f}"


def _behind_note(document: dict, console, what: str) -> None:
    """What the intervals behind the best are: with several comparisons, 95% for all of them together (each at the
    Bonferroni level the document gives), while each mean's interval is 95% on its own."""
    comparisons = document.get("behind_comparisons", 0)
    if comparisons >= 2:
        console.print(f"behind the best: 95% for the {comparisons} {what} compared with it together (Bonferroni: each "
                      f"interval {document['behind_confidence']:.2%}); each mean payment's interval is 95% on its own")


def _tilde_note(rows: list, console, text: str) -> None:
    """What ``~`` in a table of advice means, where a row behind the best wears it (not under a table without one)."""
    if any(row.get("mean") is not None and not row.get("told_apart", True) for row in rows[1:]):
        console.print(text)


def _alike_note(rows: list, console) -> None:
    """What ``(all alike)`` in a table of advice means, where a row says it."""
    if any(ALL_ALIKE in (row.get("interval_note"), row.get("behind_interval_note")) for row in rows):
        console.print("all alike: every sample gave this value, so there is no interval (no other value was seen "
                      "in these samples; that is not a certainty)")


def _never_made_note(rows: list, console, title: Callable[[str], str]) -> None:
    """The bonuses a contract could make that no sample made, on one line under the table (the JSON lists them at
    0 with their intervals): 0 of 30 is information, up to 11%, which a bonus left out did not say. Contracts with
    the same such bonuses are named together; where every contract with bonuses has them, none is named."""
    never: dict[str, list[str]] = {}  # contract -> its bonuses never made
    highest, counts = 0.0, set()
    with_bonuses = [row for row in rows if row["mean"] is not None and row["bonuses"]]
    for row in with_bonuses:
        for name, probability in row["bonuses"].items():
            if not probability:
                never.setdefault(row["contract"], []).append(title(name))
                highest = max(highest, row["bonuses_intervals"][name][1])
                counts.add(row["samples"])
    if not never:
        return
    grouped: dict[tuple[str, ...], list[str]] = {}  # the bonuses -> the contracts that never made them
    for contract, names in never.items():
        grouped.setdefault(tuple(names), []).append(contract)
    if len(grouped) == 1 and len(never) == len(with_bonuses):
        text = ", ".join(next(iter(grouped))) + (" (every contract)" if len(never) > 1 else "")
    else:
        text = "; ".join(f"{', '.join(names)} ({', '.join(contracts)})" for names, contracts in grouped.items())
    samples = f"{next(iter(counts)):,} samples" if len(counts) == 1 else "these samples"
    console.print(f"never made in {samples}, so each below {highest:.0%} (the top of its 95% interval): {text}")


def _nothing_solved(document: dict, console) -> bool:
    """Say so when a stopped run solved no sample (a time limit shorter than one sample): there is nothing to rank,
    and an empty row would read as a refusal."""
    if document["samples"]:
        return False
    console.print(f"no sample was solved before the {document['stopped'] or 'end'}: nothing to rank "
                  "(give it more time: --time-limit)")
    return True


def render_advice(document: dict, console=None) -> None:
    """Contract advice for people: the contracts ranked by the seat's mean payment, best first."""
    console = console or stdout_console()
    painter = CardPainter.for_game(document["game"])
    console.print(Text(f"{document['game']}, seat {document['seat']}: ") + painter.cards(document["hand"]))
    for seat, cards in document["known"].items():
        console.print(Text(f"known in seat {seat}: ") + painter.cards(cards))
    done = f"{plural(document['samples'], 'sample')} (seed {document['seed']})"
    if document["stopped"]:
        done += f", stopped by the {document['stopped']} before {document['requested']:,}: the best answer so far"
    each = document.get("each_announcement")
    if each:  # a row is a contract with what it announces: 'Solo + Pagat Ultimo'
        document = {**document, "announcements": None,
                    "contracts": [{**row, "contract": row_name(row["contract"], row["announced"])}
                                  for row in document["contracts"]]}
    console.print(done + (scored_with(document) or "")
                  + ("; every contract announcing nothing and with each announcement" if each else ""))
    if _nothing_solved(document, console):
        return
    pm = glyph("±", "+/-")
    table = Table(title=f"contracts by seat {document['seat']}'s mean payment ({_units(document)} {pm} the 95% "
                        "interval; paired samples)", title_justify="left")
    # a game without bonuses (Kratzen: the pot's payouts and penalties are the game) has no bonus columns
    with_bonuses = any(row.get("bonuses") or row.get("bonuses_against") for row in document["contracts"])
    columns = (("", "right"), ("contract", "left"), ("mean payment", "right"), ("behind\nthe best", "right"),
               ("win", "right")) + ((("bonuses made", "left"), ("against", "left")) if with_bonuses else ())
    for column, justify in columns:
        # the figures stay whole; a bonus a line, which wraps only where the table is too wide for it
        wraps = column in ("bonuses made", "against")
        table.add_column(column, justify=justify, no_wrap=not wraps)  # type: ignore[arg-type]
    title = get_game(document["game"]).item_title  # the bonuses by the names players use
    for rank, row in enumerate(document["contracts"], 1):
        mean = row["mean"]
        if mean is None:
            table.add_row(str(rank), row["contract"], "refused on every sample", *[""] * (len(columns) - 3))
            continue
        mean_text, behind = _ranked_texts(rank, row)
        bonuses, against = ("\n".join(f"{share(p, row.get(key + '_intervals', {}).get(name), compact=True)} "
                                      f"{title(name)}" for name, p in row[key].items() if p)
                            for key in ("bonuses", "bonuses_against"))
        table.add_row(str(rank), row["contract"], mean_text, behind,
                      share(row["win_probability"], row.get("win_interval"), compact=True),
                      *((bonuses, against) if with_bonuses else ()))
    console.print(table)
    _tilde_note(document["contracts"], console,
                "~ : not told apart from the best at this sample size (its interval behind the best holds 0)")
    _behind_note(document, console, "contracts")
    _alike_note(document["contracts"], console)
    console.print(_payment_note(document, sides=True))
    bonus_note = "; bonuses made / against: paid to the declarers / to the others" if with_bonuses else ""
    console.print(f"win: the samples {_win_meaning(document)}{bonus_note}; each share with its 95% Wilson interval in "
                  "brackets")
    _never_made_note(document["contracts"], console, get_game(document["game"]).item_title)
    if each:
        _gain_table(document, console)
    passed = next((row for row in document["contracts"] if row["contract"] == PASS), None)
    if passed is not None:
        said = " announces nothing of a contract," if document.get("announcements") else " announces nothing,"
        settled = "" if not passed["refused"] or not passed["samples"] else (
            f"; settled on {passed['samples']:,} of {passed['samples'] + passed['refused']:,} samples (on the others "
            "the announcements do not fit the side the cards put it on), so its figures are of those")
        console.print(f"pass: seat {document['seat']}{said} nor does anyone else, and plays in "
                      f"{get_game(document['game']).passed_game_text}; its bonuses made are that declarer's "
                      f"side's{settled}")
    if any(" | " in row["contract"] for row in document["contracts"]):
        console.print("pass + A | B: the seat announces A where its side allows it, else B (it knows its side when "
                      "it announces: it holds the called tarock or not)")
    for row in document["contracts"]:
        if row["contract"].split(" + ")[0] != PASS or not row["refused_reason"]:
            continue
        if row["samples"] and row["contract"] != PASS:  # the bare pass row's count is said above
            console.print(f"{row['contract']}: settled on {row['samples']:,} of {row['samples'] + row['refused']:,} "
                          "samples, so its figures are of those; refused on the others, for instance: "
                          f"{row['refused_reason']}")
        elif row["samples"]:  # the bare pass row, its count said above
            console.print(f"{row['contract']}: refused on the others, for instance: {row['refused_reason']}")
        else:
            console.print(f"{row['contract']} refused on every sample, for instance: {row['refused_reason']}")
    for contract, reason in document.get("left_out", {}).items():
        console.print(f"not ranked: {contract}, which the announcements do not fit ({reason})")
    if get_game(document["game"]).has_pot and not document["pot"]:
        console.print("note: pot 0: every contract settles at 0, so none wins (give the pot with --pot N)")


def anytime(what: str, samples: int, run: Callable[[Callable], Any], finish: Callable[[dict], None],
            as_json: bool) -> dict:
    """Run a sampling command with a live status line on a terminal (samples done, the leader and its interval);
    on Ctrl-C (or SIGTERM) ``finish`` prints the answer so far, said as such, and the interrupt goes on (exit 130).
    Returns the finished document."""
    latest: list = []
    console = stderr_console()
    live = on_a_terminal(console) and not as_json
    status: Any = None

    def show(advice) -> None:
        latest[:] = [advice]
        if status is not None and advice.rows:
            status.update(advice_status(what, advice, samples))

    try:
        spinning = console.status(f"{what}: starting", spinner=spinner_for(console)) if live else None
        with (contextlib.nullcontext() if spinning is None else spinning) as status:
            return run(show).as_dict()
    except KeyboardInterrupt:
        if latest:
            finish({**latest[0].as_dict(), "stopped": "interrupt"})
        else:  # no sample solved yet: nothing to print, and the exit (130) said nothing
            message(f"stich: analyse: interrupted before the first samples were solved: no {what}")
        raise


def advice_status(what: str, advice: ContractAdvice | CardAdvice, samples: int) -> str:
    """The status line of contract or card advice so far: the leader's mean payment as the table writes it
    (:func:`plus_minus`: ``(all alike)`` where every sample paid the same, where the line printed
    ``-30.00 (-30.00 .. -30.00)``; the mean alone before two samples)."""
    done = f"{what}: {advice.samples:,} of {samples:,} samples"
    best = advice.rows[0].as_dict() if advice.rows else None
    if best is None or best["mean"] is None:  # no item settled on any sample yet
        return done
    return (f"{done}; best so far {row_name(best['contract'], best.get('announced'))} "
            f"{plus_minus(best['mean'], best['interval'], best['interval_note'])}")


def _gain_table(document: dict, console) -> None:
    """What each announcement adds to its contract announcing nothing: the paired difference of the seat's
    payment on the same samples, with its 95% interval (one question per row, uncorrected)."""
    table = Table(title="what each announcement adds to the same contract announcing nothing (paired samples)",
                  title_justify="left")
    for column, justify in (("contract", "left"), ("adds", "right"), ("samples", "right")):
        table.add_column(column, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for row in document["contracts"]:
        gain = row.get("announcement_gain")
        if gain is None or gain["mean"] is None:
            continue
        table.add_row(row["contract"], plus_minus(gain["mean"], gain["interval"], gain["interval_note"]),
                      f"{gain['samples']:,}")
    console.print(table)
    console.print(f"adds: the mean over the samples both were settled on, {glyph('±', '+/-')} its 95% interval "
                  "(each on its own)")


def check_listed_contracts(game: str, contracts: str, seat: int) -> None:
    """Each contract of a ``--contract`` list, checked as a single ``--contract`` is: one the game has not, or one
    the seat can never announce (a Zwanzigerrufen Normal game is forehand's), is a usage error (exit 2)."""
    chosen = get_game(game)
    for text in (part.strip() for part in contracts.split(",")):
        if text.lower() == PASS and not can_pass(chosen, seat):
            raise typer.BadParameter(pass_refusal(chosen, seat), param_hint="'--contract'")
        if not text or text.lower() in ("all", PASS):
            continue
        try:
            refusal = contract_refusal(chosen, text, seat)
        except StichError as error:
            raise typer.BadParameter(str(error), param_hint="'--contract'") from None
        if refusal is not None:
            raise typer.BadParameter(refusal, param_hint="'--contract'")


def advise(game: str, hand: str, seat: int, contracts: str, *, known: dict, samples: int, seed: int,
           workers: int | None, variant: dict, seats: int | None, announce: str | None, pot: int | None,
           time_limit: float | None, as_json: bool, checkpoint: Path | None = None,
           each_announcement: bool = False) -> None:
    """Contract advice with a live display on a terminal; Ctrl-C prints the advice so far and exits 130."""
    def finish(document: dict) -> None:
        if as_json:
            emit_json(document)
        else:
            render_advice(document)

    with input_errors():
        if checkpoint is not None and checkpoint.is_file():
            setup = make_setup(game, hand, seat, contracts, known=known, seed=seed, variant=variant or None,
                               seats=seats, announcements=announce, pot=pot, each_announcement=each_announcement)
            for others, done in other_contract_lists(setup, samples, checkpoint):
                message(unresumed_note(checkpoint, setup, others, done))
        document = anytime("contract advice", samples, lambda show: contract_advice(
            game, hand, seat, contracts, known=known, samples=samples, seed=seed, workers=workers,
            variant=variant or None, seats=seats, announcements=announce, pot=pot, time_limit=time_limit,
            checkpoint=checkpoint, progress=show, each_announcement=each_announcement), finish, as_json)
    finish(document)
    if document["samples"] and all(not row["samples"] for row in document["contracts"]):  # nothing to rank
        reasons = [row["refused_reason"] for row in document["contracts"] if row.get("refused_reason")]
        message(f"stich: no contract was settled on any of the {document['samples']:,} samples: the announcements "
                f"fit none of them ({', '.join(row['contract'] for row in document['contracts'])})"
                + (f"; {reasons[0]}" if reasons else ""))
        raise typer.Exit(1)


def unresumed_note(checkpoint: Path, setup: AdviceSetup, others: tuple[str, ...], done: int) -> str:
    """Why the advice of another list of contracts in the checkpoint is not resumed, and how to resume it."""
    others = tuple(dict.fromkeys(others))  # --each-announcement lists a contract once per announcement
    why = (f"written before 'pass' was offered to seat {setup.seat}" if set(setup.contracts) - set(others) == {PASS}
           and set(others) <= set(setup.contracts) else "another list")
    return (f"stich: analyse: {checkpoint} holds {plural(done, 'sample')} of this advice over other contracts "
            f"({', '.join(others)}; {why}): they are not resumed, since every contract is settled on the same "
            f"samples, so this run starts afresh beside them"
            + (f"; --contract \"{', '.join(others)}\"{' --each-announcement' if setup.announced else ''} resumes "
               "them" if len(others) > 1 else ""))


def advise_cards(position: Position, seat: int, *, known: dict | None, samples: int, seed: int,
                 workers: int | None, time_limit: float | None, checkpoint: Path | None, as_json: bool) -> dict:
    """Card advice for a record's position, with the live display; Ctrl-C prints the advice so far (exit 130)."""
    def finish(document: dict) -> None:
        document = _with_record(position, document)
        if as_json:
            emit_json(document)
        else:
            render_cards(document, stdout_console())

    return anytime("card advice", samples, lambda show: card_advice(
        position, seat, known=known, samples=samples, seed=seed, workers=workers, time_limit=time_limit,
        checkpoint=checkpoint, progress=show), finish, as_json)


def render_cards(document: dict, console=None) -> None:
    """Card advice for people: the legal cards ranked by the seat's mean share of its side's settlement."""
    console = console or stdout_console()
    painter = CardPainter.for_game(document["game"])
    print_record(document, console)
    console.print(f"{document['game']}, {document['contract']}: seat {document['seat']} to move after "
                  f"{plural(len(document['played']), 'card')} played")
    done = f"{plural(document['samples'], 'sample')} (seed {document['seed']})"
    if document["stopped"]:
        done += f", stopped by the {document['stopped']} before {document['requested']:,}: the best answer so far"
    console.print(done + scored_with(document))
    if _nothing_solved(document, console):
        return
    pm = glyph("±", "+/-")
    table = Table(title=f"cards by seat {document['seat']}'s mean payment ({_units(document)} {pm} the 95% interval; "
                        "paired)",
                  title_justify="left")
    for column, justify in (("", "right"), ("card", "left"), ("mean payment", "right"),
                            ("behind the best", "right"), ("win", "right")):
        table.add_column(column, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for rank, row in enumerate(document["cards"], 1):
        if row["mean"] is None:
            continue
        mean_text, behind = _ranked_texts(rank, row)
        table.add_row(str(rank), painter.card(row["card"]), mean_text, behind,
                      share(row["win_probability"], row.get("win_interval"), compact=True))
    console.print(table)
    _tilde_note(document["cards"], console, "~ : not told apart from the best card at this sample size")
    _behind_note(document, console, "cards")
    _alike_note(document["cards"], console)
    won = _win_meaning(document, "where the seat's payment is above 0")
    console.print(f"win: the samples {won} (its 95% Wilson interval in brackets)")
    console.print(_payment_note(document))
    if get_game(document["game"]).has_pot and not document.get("pot"):
        console.print("note: pot 0: every card settles at 0 (give the record a [Pot] tag, or --pot N)")


def _with_record(position: Position, document: dict) -> dict:
    """The analysis of a record, saying which record (several boards in one file give several lines)."""
    return {"schema": document["schema"], "command": document["command"],
            "record": record_header(position)["record"], **document}
