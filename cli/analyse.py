"""``stich analyse``: single-dummy analysis of one hand by sampling the unseen cards."""

from __future__ import annotations

import contextlib
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, List, Optional, Sequence

import typer
from rich.table import Table
from rich.text import Text

from solver.analysis import record_header
from solver.deal import small_number
from solver.errors import InvalidSeatError, OtherJobsNotResumed, StichError, shown_name
from solver.files import locked_while_written
from solver.generate import contract_refusal
from solver.games import get_game
from solver.games.outcome import measure_words
from solver.limits import MAX_SAMPLES, MAX_WORKER_MEMORY_MB, MIN_WORKER_MEMORY_MB
from solver.position import Position
from solver.scoring import MAX_POT
from solver.variant import rules_note

from .errors import file_name, input_errors, message, say_interrupted, warnings_said
from .options import (ALL_MESSAGES, CAPPED_POOL, DASK_VERBOSE, DEFAULT_SEED, POOL_TABLE_MB, POOL_THREADS, SCHEDULER,
                      WORKER_WAIT, check_game_options, checked_record_number, checked_seed, engine_for, game_examples,
                      game_option, parse_variant_options, pool_options, time_limit_option, workers_option)
from .records import InterruptedInPart, OptionRefused, emit_json, run_over_records
from .render import (CardPainter, fits, fits_compacted, for_stdout, least_width, plural, record_head, table_cell,
                     status_on_stderr, stdout_console)

if TYPE_CHECKING:
    from solver.advice import AdviceReport, AdviceSetup, AdviceTable, CardAdvice, ContractAdvice
    from solver.sampling import HandAnalysis


def parse_known(values: List[str] | None) -> dict[int, str]:
    """``--known "seat:cards"`` options as {seat: cards}; a malformed one is a usage error, and so is a card written
    twice across them (whatever the seats), with or without a FILE: the pack may be the record's, so the tokens'
    text is compared here (another name of the same card, XX for T20, is the pack's to see)."""
    from solver.sampling import no_known_cards_text

    known: dict[int, str] = {}
    written: dict[str, int] = {}  # every token of every seat: a card named twice is a slip in the options alone
    for value in values or []:
        text, sep, cards = value.partition(":")
        seat = small_number(text)  # ASCII digits: str.isdigit() let "²" through to a bare ValueError
        if not sep or seat is None:
            raise typer.BadParameter(f"{value!r} is not SEAT:CARDS", param_hint="'--known'")
        if not cards.strip():  # a seat with no cards says nothing: a card list lost to the shell, or a slip
            raise typer.BadParameter(no_known_cards_text(value, seat, "SEAT:CARDS, '2:EO GU'"),
                                     param_hint="'--known'")
        for token in cards.split():
            if (first := written.get(token.upper())) is not None:
                seats = "" if first == seat else f" (for seats {first} and {seat})"
                raise typer.BadParameter(f"{token} appears twice{seats}", param_hint="'--known'")
            written[token.upper()] = seat
        known[seat] = (known.get(seat, "") + " " + cards).strip()
    return known


def check_record_options(position: Position, seat: int, known: dict[int, str]) -> None:
    """``--seat`` and ``--known`` checked against one record before its analysis, each refused as its own option
    (another record may have more seats): a seat the deal lacks, a known card its pack lacks, one in another hand or
    one the play rules out, is no fault of the record's tags, which the library's errors would point at."""
    from solver.sampling import FEASIBILITY_TRIES, draw_sample, known_cards_of, position_setup

    seats = position.rules.seats
    for option, number in (("--seat", seat), *(("--known", other) for other in known)):
        if not 1 <= number <= seats:
            raise OptionRefused(option, f"seat {number} is not a seat of this {seats}-seat deal")
    for other, cards in known.items():
        try:
            known_cards_of(position.game, cards, other)
        except StichError as error:
            raise OptionRefused("--known", str(error)) from None
    if not known:
        return
    try:
        position_setup(position, seat)
    except StichError:
        return  # the record's own fault, which the analysis points at its tag
    try:  # the record fits without --known, so what does not fit with it is --known's: a card of another hand,
        # or of a suit its seat showed out of (said after the 10,000 shuffles of the feasibility search)
        setup = position_setup(position, seat, known=known)
        if any(fixed & ~dealt for fixed, dealt in zip(setup.fixed, position.rules.deal.hands)):
            draw_sample(setup, 0, FEASIBILITY_TRIES)
    except StichError as error:
        raise OptionRefused("--known", str(error)) from None


def render_analysis(document: dict, console=None) -> None:
    """The report for people: the chances, the mean, the bonuses and the opening cards (the text is the library's,
    solver.sampling.report_text, which ``print(analysis)`` gives; here with the cards painted and tables drawn)."""
    from solver.sampling import (BONUS_NUMBERS, best_card_parts, bonus_table, hand_heading, opening_note,
                                 opening_numbers, opening_table, summary_lines)

    console = console or stdout_console()
    print_record(document, console)
    painter = CardPainter.for_game(document["game"])
    console.print(Text(hand_heading(document)) + painter.cards(document["hand"]))
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
    if rows:  # a Sie pays nothing but itself: no table
        bonuses = Table(title=title, title_justify="left", title_style="bold")
        for index, column in enumerate(columns):
            bonuses.add_column(column, justify="right" if index in BONUS_NUMBERS else "left")
        for row in rows:
            bonuses.add_row(*(table_cell(console, cell) for cell in row))
        console.print(bonuses)
    openings_found = opening_table(document)
    if openings_found is not None:
        title, columns, rows = openings_found
        openings = Table(title=title, title_justify="left", title_style="bold")
        numbers = opening_numbers(columns)  # right-aligned, as print(analysis) and Jupyter align them
        for index, column in enumerate(columns):
            openings.add_column(column, justify="right" if index in numbers else "left")
        for card, *cells in rows:
            openings.add_row(painter.card(card), *(table_cell(console, cell) for cell in cells))
        console.print(openings)
        console.print(opening_note(document))


def advice_asked(file: Path | None, contract: str | None, cards: bool) -> str | None:
    """Which advice the options ask for, in words naming the flag that asks it (None: the analysis of one
    contract): card advice with ``--cards``, contract advice with a ``--contract`` list (all, pass or several)
    without a FILE."""
    if cards:
        return "card advice (--cards)"
    if file is None and is_contract_list(contract):
        return f"contract advice (--contract {contract})"
    return None


def is_contract_list(contract: str | None) -> bool:
    """Whether ``--contract`` lists contracts to compare (all, pass or several), which is contract advice, rather
    than naming the one contract analysed."""
    from solver.advice import PASS

    return contract is not None and (contract.strip().lower() in ("all", PASS) or "," in contract)


def refuse_analysis_only(advice: str, scheduler: str | None, worker_memory: int | None,
                         table_mb: int | None) -> None:
    """``--scheduler``, ``--worker-memory`` and ``--table-mb`` beside card or contract advice: a usage error naming
    both flags. The advice runs on this machine's workers at their default size: taken silently, they would say a
    cluster or a size the run does not use."""
    for flag, value in (("--scheduler", scheduler), ("--worker-memory", worker_memory), ("--table-mb", table_mb)):
        if value is not None:
            raise typer.BadParameter(f"only for the analysis of one contract: {advice} runs on this machine's "
                                     "workers (-j) at their default size", param_hint=f"'{flag}'")


def print_record(document: dict, console) -> None:
    """Which record a report from a file answers (a file of several boards gives several reports): its board and
    place, as the other commands head theirs, and the flags it is played under where they are not the game's
    defaults (a hand analysed without a file: those flags alone)."""
    rules = rules_note(get_game(document["game"]).flags, document.get("variant") or {}) if "game" in document else ""
    if document.get("record"):
        console.print(Text(record_head(document["record"]) + rules, style="bold"))
    elif rules:
        console.print(Text(rules.removeprefix("; "), style="bold"))


def analyse(
    context: typer.Context,
    file: Optional[Path] = typer.Argument(
        None, metavar="FILE", show_default=False, parser=file_name,
        help="Analyse from the records of this file instead: the seat's hand as dealt and the play so far are "
             "kept, the other hands redealt."),
    game: Optional[str] = game_option(None),
    hand: Optional[str] = typer.Option(None, "--hand", metavar="CARDS",
                                       help="The hand analysed, cards separated by spaces."),
    seat: int = typer.Option(..., "--seat", metavar="SEAT",
                             help="The seat the answer is for: the hand's seat (1-based)."),
    contract: Optional[str] = typer.Option(None, "--contract", "-c", metavar="CONTRACT",
                                           help="The contract, as in a [Contract] tag."),
    board: Optional[str] = typer.Option(None, "--board", "-b", metavar="BOARD",
                                        help="With FILE: only the records whose [Board] tag is this."),
    record: Optional[int] = typer.Option(None, "--record", "-r", metavar="N", min=1,
                                         callback=checked_record_number,
                                         help="With FILE: only the file's Nth record (1-based, counting every "
                                              "record in the file), for records without a [Board] tag."),
    declarer: Optional[int] = typer.Option(None, "--declarer", metavar="SEAT",  # None: not given, told from 1
                                           help="The declaring seat, without FILE (default 1; in contract advice "
                                                "the --seat, which announces)."),
    seats: Optional[int] = typer.Option(None, "--seats", metavar="K", min=3, max=6,
                                        help="The number of players, for a game played by several "
                                             "(default: the fewest)."),
    known: Optional[List[str]] = typer.Option(None, "--known", metavar="SEAT:CARDS",
                                              help="Cards known to be in another hand (repeatable), such as "
                                                   + game_examples(lambda game: f"'2:{game.pack.example()}'") + "."),
    samples: int = typer.Option(200, "--samples", "-n", metavar="N", min=1, max=MAX_SAMPLES,
                                help="How many samples (deals of the unseen cards) to solve."),
    seed: int = typer.Option(DEFAULT_SEED, "--seed", "-s", metavar="SEED", callback=checked_seed,
                             help="Seed of the samples: the same seed gives the same analysis."),
    workers: Optional[int] = workers_option(after=CAPPED_POOL),
    variant: Optional[List[str]] = typer.Option(
        None, "--variant", metavar="NAME=VALUE",
        help="A variant flag (repeatable); with FILE it overrides each record's [Variant] tag."),
    as_json: bool = typer.Option(False, "--json", help="The report as one JSON document on stdout (with FILE, one "
                                                      "per record: JSON Lines, docs/json.md)."),
    checkpoint: Optional[Path] = typer.Option(
        None, "--checkpoint", metavar="FILE", parser=file_name,
        help="Append each finished chunk of samples to FILE; rerun the same command to continue from it."),
    worker_memory: Optional[int] = typer.Option(None, "--worker-memory", metavar="MB", min=MIN_WORKER_MEMORY_MB,
                                                max=MAX_WORKER_MEMORY_MB,
                                                help="Cap each local worker process at MB megabytes (its table "
                                                     "sized to fit; default: no cap)."),
    threads: Optional[int] = POOL_THREADS,
    table_mb: Optional[int] = POOL_TABLE_MB,
    scheduler: Optional[str] = SCHEDULER,
    worker_wait: float = WORKER_WAIT,
    verbose: bool = DASK_VERBOSE,
    all_messages: bool = ALL_MESSAGES,
    time_limit: Optional[float] = time_limit_option("the analysis (with FILE, each record's)", "the samples solved "
                                                    "so far are reported, said as such (exit 0)",
                                                    reference_refuses=False),
    announce: Optional[str] = typer.Option(
        None, "--announce", metavar="ANNOUNCEMENTS",
        help="Without FILE: the announcements every sample is scored with (contract advice: that the seat adds to "
             "every contract), as in an [Announcements] tag (e.g. '1: Pagat Ultimo')."),
    pot: Optional[int] = typer.Option(None, "--pot", metavar="CHIPS", min=0, max=MAX_POT,
                                      help="The pot at the start of the deal, for a game paid from one (with FILE, "
                                           "overrides a record's [Pot] tag)."),
    each_announcement: bool = typer.Option(
        False, "--each-announcement",
        help="Contract advice: every contract announcing nothing and with each announcement (each of --announce's "
             "and all together, else each the hand allows), on the same samples, with what each adds."),
    cards: bool = typer.Option(
        False, "--cards",
        help="Card advice for the seat to move (--seat): every legal card ranked by the seat's mean share of its "
             "side's settlement over samples consistent with the play (FILE's; with --hand, the opening lead)."),
) -> None:
    """Single-dummy analysis of a hand: the unseen cards dealt at random under what is known, each deal solved
    double-dummy; the chance of winning and of each bonus, the mean card points and every opening card's value.

    With --contract all (or a comma-separated list) it is contract advice instead: every contract the seat may
    announce settled on the same samples, ranked by what the seat is paid (its share of its side's settlement: a
    Rufer's is shared by two, a Solo's is the soloist's) with its 95% interval, the win rate and each bonus's odds;
    contracts the samples cannot tell apart from the best are marked."""
    from solver.sampling import analyse_hand, analyse_position, announced_tags
    from solver.advice import SeatNotAdvised

    context.with_resource(warnings_said("analyse"))  # a checkpoint written afresh (it held no work), ...
    scheduler, workers = pool_options(threads, scheduler, workers, worker_memory, table_mb, context)
    advice_mode = advice_asked(file, contract, cards)
    if advice_mode is not None:
        refuse_analysis_only(advice_mode, scheduler, worker_memory, table_mb)
    flags = parse_variant_options(variant)
    engine_for(None)  # STICH_TABLE_MB and STICH_IMPLEMENTATION checked before any record
    owners = parse_known(known)

    def notify(text: str) -> None:
        message(f"stich: {text}")

    for option, value in (("--board", board), ("--record", record)):
        if value is not None and file is None:
            raise typer.BadParameter(f"{option} picks a record of a FILE; without one there is nothing to pick from",
                                     param_hint=f"'{option}'")
    if all_messages and file is None:
        raise typer.BadParameter("lifts the cap on a FILE's record messages; without a FILE there is none",
                                 param_hint="'--all-messages'")
    if advice_mode is not None and not cards:
        assert contract is not None  # contract advice is asked by a --contract list
        if game is None or hand is None:  # one given empty is checked below: what it lacks
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
        # with a FILE, --contract all is no contract advice either: say what is missing, not to give it again
        needs = ("--game and --hand, not a FILE" if file is not None else "--contract all, or a list")
        raise typer.BadParameter("it compares contracts with and without announcements: contract advice only "
                                 f"({needs})", param_hint="'--each-announcement'")
    if announce is not None and file is not None:
        raise typer.BadParameter("a record is scored with its own [Announcements] tag", param_hint="'--announce'")
    if cards:
        if file is None:
            advise_hand_cards(game, hand, seat, contract, known=owners, declarer=declarer, variant=flags, seats=seats,
                              pot=pot, announce=announce, samples=samples, seed=seed, workers=workers,
                              time_limit=time_limit, checkpoint=checkpoint, as_json=as_json)
            return
        if any(option is not None for option in (game, hand, contract, seats, declarer)):
            raise typer.BadParameter("give either FILE or --game, --hand, --contract (and --seats, --declarer), not "
                                     "both: a record says them itself", param_hint="'FILE'")

        begun = False  # whether a record's analysis began: a checkpoint's other jobs said at the first

        def card_document(position: Position) -> dict:
            nonlocal begun
            check_record_options(position, seat, owners)
            try:
                with other_jobs_unsaid(begun):
                    begun = True
                    advice = advise_cards(position, seat, known=owners, samples=samples, seed=seed, workers=workers,
                                          time_limit=time_limit, checkpoint=checkpoint, as_json=as_json)
            except (InvalidSeatError, SeatNotAdvised) as error:  # --seat's, not the record's [Contract]
                raise OptionRefused("--seat", str(error)) from None
            return _with_record(position, advice)

        # --pot over a FILE's records: the [Pot] tag of those of a game paid from a pot
        with checkpoint_held(checkpoint):
            run_over_records(file, variant=flags, board=board, record=record, as_json=as_json, render=render_cards,
                             document=card_document, pot=pot, command="analyse", all_messages=all_messages,
                             kind="card-advice")
        return
    if file is not None:
        if is_contract_list(contract):  # which contract the record's hand should have been
            raise typer.BadParameter(f"contract advice (--contract {contract}) is of a hand, not of a record: give "
                                     "--game and --hand with --seat instead of FILE (the record's [Deal] tag lists its "
                                     "hands)", param_hint="'FILE'")
        if any(option is not None for option in (game, hand, contract, seats, declarer)):
            raise typer.BadParameter("give either FILE or --game, --hand, --contract (and --seats, --declarer), not "
                                     "both: a record says them itself", param_hint="'FILE'")

        records_begun = False  # as card_document's begun

        def document(position: Position) -> dict:
            nonlocal records_begun
            check_record_options(position, seat, owners)

            def finish(so_far: dict) -> None:
                so_far = _with_record(position, so_far)
                emit_json(so_far) if as_json else render_analysis(so_far)

            with other_jobs_unsaid(records_begun), \
                    live_analysis(samples, as_json, finish, checkpoint, in_record_loop=True) as show:
                records_begun = True
                analysis = analyse_position(position, seat, known=owners, samples=samples, seed=seed,
                                            workers=workers, checkpoint=checkpoint, memory_mb=worker_memory,
                                            scheduler=scheduler, worker_wait=worker_wait, notify=notify,
                                            verbose=verbose, table_mb=table_mb, progress=show,
                                            time_limit=time_limit)
            return _with_record(position, analysis.as_dict())

        with checkpoint_held(checkpoint):
            run_over_records(file, variant=flags, board=board, record=record, as_json=as_json,
                             render=render_analysis, document=document, pot=pot, command="analyse",
                             all_messages=all_messages)
        return
    if game is None or hand is None or contract is None:  # one given empty is checked as the others: what it lacks
        missing = [name for name, value in (("--game", game), ("--hand", hand), ("--contract", contract))
                   if value is None]
        raise typer.BadParameter(f"missing {', '.join(missing)} (or give a FILE to analyse from)",
                                 param_hint="'--game/--hand/--contract'")
    check_game_options(game, flags, seats, declarer, contract,
                       cards=[("--hand", hand), *(("--known", cards) for cards in owners.values())],
                       seat_options=[("--seat", seat), *(("--known", other) for other in owners)], pot=pot,
                       announcements=announce)
    chosen = get_game(game)  # the flags and announcements read as the game reads them (checked above)
    for note in chosen.idle_flags(chosen.variant(flags), announced_tags(chosen, announce, seats or
                                                                         chosen.seat_counts[0]),
                                  chosen.parse_contract(contract)):
        message(f"stich: {note}")
    with input_errors():
        with live_analysis(samples, as_json, emit_json if as_json else render_analysis, checkpoint) as show:
            analysis = analyse_hand(game, hand, seat, contract, known=owners, samples=samples, seed=seed,
                                    workers=workers, declarer=declarer or 1, variant=flags or None, seats=seats,
                                    checkpoint=checkpoint, memory_mb=worker_memory, scheduler=scheduler,
                                    worker_wait=worker_wait, notify=notify, verbose=verbose, table_mb=table_mb,
                                    progress=show, announcements=announce, pot=pot, time_limit=time_limit)
    if as_json:
        emit_json(analysis.as_dict())  # compact, one line, like the documents of FILE
    else:
        render_analysis(analysis.as_dict())


@contextlib.contextmanager
def other_jobs_unsaid(unsaid: bool) -> Iterator[None]:
    """A checkpoint's note that it holds other jobs and not this one (:class:`~solver.errors.OtherJobsNotResumed`)
    left unsaid where ``unsaid``: for the records of a FILE after the first, which find those before them there, and
    for contract advice whose other lists of contracts were said already, in their own words."""
    if not unsaid:
        yield
        return
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=OtherJobsNotResumed)
        yield


@contextlib.contextmanager
def checkpoint_held(checkpoint: Path | None) -> Iterator[None]:
    """The checkpoint's lock held for a whole run over a FILE's records, as batch holds its output's: a lock taken
    record by record would let a second run take it between two records, and the two append to one file. A second
    run meanwhile is refused at its start with the holder's kind (``another stich analyse is writing this file``);
    a run that wrote nothing leaves no lock file."""
    if checkpoint is None:
        yield
        return
    with contextlib.ExitStack() as held:
        with input_errors():
            held.enter_context(locked_while_written(checkpoint, "stich analyse"))
        yield


@contextlib.contextmanager
def live_analysis(samples: int, as_json: bool, finish: Callable[[dict], None], checkpoint: Path | None = None,
                  in_record_loop: bool = False):
    """A status line on a terminal while a single-contract analysis samples: samples done, the win chance and the
    mean with its interval so far (nothing on a pipe or with --json). On Ctrl-C (or SIGTERM) ``finish`` prints the
    analysis of the samples solved so far, said as such (``stopped``), as the advice does, and the interrupt goes on
    (exit 130), said on stderr (in a FILE's record loop, whose own line says the record is printed in part, only
    where the checkpoint keeps the samples); before the first samples stderr says there is nothing to print."""
    from solver.sampling import HandAnalysis

    latest: list[HandAnalysis] = []
    try:
        with status_on_stderr("analyse: starting", not as_json) as update:
            def show(analysis: HandAnalysis) -> None:
                latest[:] = [analysis]
                update(analysis_status(analysis, samples))
            yield show
    except KeyboardInterrupt:
        if latest:
            finish({**latest[0].as_dict(), "stopped": "interrupt", "requested": samples})
        say_samples_stopped("analysis", "report", latest[0].samples if latest else None, samples, checkpoint,
                            in_record_loop)
        if latest:
            raise InterruptedInPart from None  # a FILE's record loop says this record is printed in part
        raise


def say_samples_stopped(what: str, nothing: str, done: int | None, samples: int, checkpoint: Path | None,
                        in_record_loop: bool) -> None:
    """The interrupt's line (:func:`~cli.errors.say_interrupted`) of a sampling command, the single-contract
    analysis or the advice: how many samples the ``what`` printed is of (``done``; None: stopped before the first
    samples, no ``nothing`` printed) and where the samples solved are kept for a rerun. In a FILE's record loop,
    whose own line says the record is printed in part, only where a checkpoint keeps them."""
    kept = (f"the chunks solved are kept in {shown_name(checkpoint)}: rerun the command to resume"
            if checkpoint is not None else "--checkpoint FILE keeps them for a rerun")
    if done is None:
        say_interrupted("analyse", f"before the first samples were solved: no {nothing} ({kept})")
    elif checkpoint is not None or not in_record_loop:
        say_interrupted("analyse", f"after {done:,} of {samples:,} samples: the {what} of these is printed ({kept})")


def analysis_status(analysis: HandAnalysis, samples: int) -> str:
    """The status line of a single-contract analysis so far, in its report's words (:func:`share`, :func:`spread_text`):
    the win chance with its Wilson interval, and the mean without an interval where it has none (one sample, or all
    alike): an interval of no width would claim a certainty the samples do not show."""
    from solver.sampling import measure_text, share, spread_text

    document = analysis.as_dict()
    spread = spread_text(document["samples"], document["interval"], document["interval_note"], measure_text)
    return (f"analyse: {document['samples']:,} of {samples:,} samples; win "
            f"{share(document['win_probability'], document['win_interval'])}, "
            f"mean {measure_words(document['measure'])} {measure_text(document['mean'])} ({spread})")


def render_advice(document: dict, console=None) -> None:
    """Contract advice for people: the contracts ranked by the seat's mean payment, best first (the text is the
    library's, solver.advice.contract_advice_report, which ``print(advice)`` gives; here with the cards painted and
    tables drawn)."""
    from solver.advice import contract_advice_report

    console = console or stdout_console()
    print_record(document, console)  # the flags in force, where not the defaults
    painter = CardPainter.for_game(document["game"])
    console.print(Text(f"{document['game']}, seat {document['seat']}: ") + painter.cards(document["hand"]))
    for seat, cards in document["known"].items():
        console.print(Text(f"known in seat {seat}: ") + painter.cards(cards))
    print_report(contract_advice_report(document), console)


def print_report(report: AdviceReport, console, card: Callable[[str], Text] | None = None) -> None:
    """An advice report's lines and tables (``card``: paints the cards of a table's second column); the figures stay
    whole, a bonus a line, which wraps only where the table is too wide for it. Where the table does not fit even so,
    its bonus columns follow it as a table of their own, each row named by its rank and contract as in the first,
    rather than a figure being cut: a figure is read whole or misread; and its last figure columns go with them where
    the first table's names would not stand whole otherwise (``Solo Tout`` above ``E`` reads as two contracts)."""
    for part in report:
        if isinstance(part, str):
            console.print(for_stdout(part))
            continue
        table = _report_table(part, range(len(part.columns)), part.title, card, console)
        moved = [index for index in sorted(part.wraps) if index < len(part.columns)]
        narrow = getattr(console, "narrows", False)
        name = _name_column(part)
        if narrow and not fits(console, table):
            for index, laid_out in enumerate(table.columns):  # every cell may wrap but the row's name
                laid_out.no_wrap = index == name
        if not (narrow and not fits_compacted(console, table)):
            console.print(table)
            continue
        if not moved:
            table.columns[name].no_wrap = False  # the least width it has: its names wrap rather than a figure
            console.print(table)
            continue
        kept = [index for index in range(len(part.columns)) if index not in moved]
        first = _report_table(part, kept, part.title, card, console, wrap=True)
        second = _moved_table(part, moved, card, console)
        while not first.columns[kept.index(name)].no_wrap and len(kept) > name + 2:
            # its names would wrap (``Solo Tout`` above ``E`` at 60 columns): the second table starts a column
            # earlier, rather than a name be split, where the second table then fits or is still no wider than
            # the first (below that the first table is the narrower place for the column)
            wider = _moved_table(part, [kept[-1], *moved], card, console)
            if wider is not None and not fits_compacted(console, wider) and (
                    fits_compacted(console, first) or least_width(console, wider) > least_width(console, first)):
                break
            moved.insert(0, kept.pop())
            first, second = _report_table(part, kept, part.title, card, console, wrap=True), wider
        console.print(first)
        if second is not None:
            console.print(second)


def _moved_table(part: AdviceTable, moved: list[int], card: Callable[[str], Text] | None, console) -> Table | None:
    """The table of an advice table's ``moved`` columns that :func:`print_report` prints after the rest, each row
    named by its rank and contract as in the first; None where no row has a figure in them."""
    names = ", ".join(part.columns[index] for index in moved[:-1]) + f" and {part.columns[moved[-1]]}" \
        if len(moved) > 1 else part.columns[moved[0]]
    rows = [row for row in part.rows if any(row[index] for index in moved)]
    if not rows:
        return None
    return _report_table(part._replace(rows=rows), [0, 1, *moved], f"{part.name or part.title.split(' (')[0]}: {names}",
                         card, console, wrap=True)


def _name_column(part: AdviceTable) -> int:
    """The column that names a row of an advice table (a contract, a card: its first not of numbers). Split over two
    lines, ``Solo Tout`` above ``E`` reads as two contracts, so it stays whole where the table has room for it."""
    return next(index for index in range(len(part.columns)) if index not in part.right)


def _name_whole_if_it_fits(console, table: Table, name: int) -> None:
    """Let ``table``'s row names (column ``name``) wrap only where the table does not fit the console even with its
    other cells wrapped and its boxes dropped."""
    if not fits_compacted(console, table):
        table.columns[name].no_wrap = False


def _report_table(part: AdviceTable, indices: Sequence[int], title: str, card: Callable[[str], Text] | None,
                  console, wrap: bool = False) -> Table:
    """The columns ``indices`` of an advice report's table (``wrap``: every column may wrap but the row's name, where
    the table fits with it whole; a figure with its interval stays whole all the same, written so by the library)."""
    table = Table(title=for_stdout(title), title_justify="left", title_style="bold")
    name = _name_column(part)
    for index in indices:
        table.add_column(part.columns[index], justify="right" if index in part.right else "left",
                         no_wrap=index == name or not wrap and index not in part.wraps)
    for row in part.rows:
        table.add_row(*(card(row[index]) if index == 1 and card is not None
                        else table_cell(console, for_stdout(row[index])) for index in indices))
    if wrap and name in indices:
        _name_whole_if_it_fits(console, table, list(indices).index(name))
    return table


def anytime(what: str, samples: int, run: Callable[[Callable], Any], finish: Callable[[dict], None],
            as_json: bool, checkpoint: Path | None, in_record_loop: bool = False) -> dict:
    """Run a sampling command with a live status line on a terminal (samples done, the leader and its interval);
    on Ctrl-C (or SIGTERM) ``finish`` prints the answer so far, said as such, and the interrupt goes on (exit 130),
    said on stderr as the single-contract analysis says it (:func:`say_samples_stopped`). Returns the finished
    document."""
    latest: list = []
    try:
        with status_on_stderr(f"{what}: starting", not as_json) as update:
            def show(advice) -> None:
                latest[:] = [advice]
                if advice.rows:
                    update(for_stdout(advice_status(what, advice, samples)))

            return run(show).as_dict()
    except KeyboardInterrupt:
        if latest:
            finish({**latest[0].as_dict(), "stopped": "interrupt"})
        say_samples_stopped(what, what, latest[0].samples if latest else None, samples, checkpoint, in_record_loop)
        if latest:
            raise InterruptedInPart from None  # a FILE's record loop says this record is printed in part
        raise


def advice_status(what: str, advice: ContractAdvice | CardAdvice, samples: int) -> str:
    """The status line of contract or card advice so far: the leader's mean payment as a line writes it
    (:func:`mean_with_interval`, ``+2.50 (95%: +1.93 to +3.07)``; ``(all alike)`` where every sample paid the same,
    as the table says it, since an interval of no width would claim a certainty the samples do not show; the mean
    alone before two samples), and how many more share its rank (:func:`~solver.advice.tie_said`)."""
    from solver.advice import mean_with_interval, row_name, tie_said

    done = f"{what}: {advice.samples:,} of {samples:,} samples"
    best = advice.rows[0].as_dict() if advice.rows else None
    if best is None or best["mean"] is None:  # no item settled on any sample yet
        return done
    leader = get_game(advice.game).contract_in_words(row_name(best["contract"], best.get("announced")))
    figure = mean_with_interval(best["mean"], best["interval"], best["interval_note"])
    return f"{done}; best so far {leader} {figure}{tie_said([row.rank for row in advice.rows])}"


def check_listed_contracts(game: str, contracts: str, seat: int) -> None:
    """Each contract of a ``--contract`` list, checked as a single ``--contract`` is: one the game has not, or one
    the seat can never announce (a Zwanzigerrufen Normal game is forehand's), is a usage error (exit 2)."""
    from solver.advice import PASS, all_in_a_list, can_pass, pass_refusal

    chosen = get_game(game)
    parts = [part.strip() for part in contracts.split(",")]
    if len(parts) > 1 and "all" in (part.lower() for part in parts):
        raise typer.BadParameter(all_in_a_list(contracts), param_hint="'--contract'")
    for text in parts:
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
    from solver.advice import contract_advice, contracts_in_words, make_setup, other_contract_lists

    def finish(document: dict) -> None:
        if as_json:
            emit_json(document)
        else:
            render_advice(document)

    with input_errors():
        said: list[str] = []
        if checkpoint is not None and checkpoint.is_file():
            setup = make_setup(game, hand, seat, contracts, known=known, seed=seed, variant=variant or None,
                               seats=seats, announcements=announce, pot=pot, each_announcement=each_announcement)
            said = [unresumed_note(checkpoint, setup, others, done)
                    for others, done in other_contract_lists(setup, checkpoint)]
            for note in said:
                message(note)
        with other_jobs_unsaid(bool(said)):
            document = anytime("contract advice", samples, lambda show: contract_advice(
                game, hand, seat, contracts, known=known, samples=samples, seed=seed, workers=workers,
                variant=variant or None, seats=seats, announcements=announce, pot=pot, time_limit=time_limit,
                checkpoint=checkpoint, progress=show, each_announcement=each_announcement), finish, as_json,
                checkpoint)
    finish(document)
    if document["samples"] and all(not row["samples"] for row in document["contracts"]):  # nothing to rank
        reasons = [row["refused_reason"] for row in document["contracts"] if row.get("refused_reason")]
        message(f"stich: no contract was settled on any of the {document['samples']:,} samples: the announcements "
                f"fit none of them ({', '.join(row['contract'] for row in contracts_in_words(document)['contracts'])})"
                + (f"; {reasons[0]}" if reasons else ""))
        raise typer.Exit(1)


def unresumed_note(checkpoint: Path, setup: AdviceSetup, others: tuple[str, ...], done: int) -> str:
    """Why the advice of another list of contracts in the checkpoint is not resumed, and how to resume it."""
    from solver.advice import PASS
    from solver.checkpoint import not_resumed_note

    others = tuple(dict.fromkeys(others))  # --each-announcement lists a contract once per announcement
    why = (f"written before 'pass' was offered to seat {setup.seat}" if set(setup.contracts) - set(others) == {PASS}
           and set(others) <= set(setup.contracts) else "another list")
    resume = (f"--contract \"{', '.join(others)}\"{' --each-announcement' if setup.announced else ''} resumes them"
              if len(others) > 1 else "")
    return "stich: analyse: " + not_resumed_note(
        checkpoint, f"{plural(done, 'sample')} of this advice over other contracts ({', '.join(others)})",
        f"{why}: every contract is settled on the same samples", resume=resume, one=done == 1)


def advise_cards(position: Position, seat: int, *, known: dict | None, samples: int, seed: int,
                 workers: int | None, time_limit: float | None, checkpoint: Path | None, as_json: bool) -> dict:
    """Card advice for a record's position, with the live display; Ctrl-C prints the advice so far (exit 130)."""
    from solver.advice import card_advice

    def finish(document: dict) -> None:
        document = _with_record(position, document)
        if as_json:
            emit_json(document)
        else:
            render_cards(document, stdout_console())

    return anytime("card advice", samples, lambda show: card_advice(
        position, seat, known=known, samples=samples, seed=seed, workers=workers, time_limit=time_limit,
        checkpoint=checkpoint, progress=show), finish, as_json, checkpoint, in_record_loop=True)


def advise_hand_cards(game: str | None, hand: str | None, seat: int, contract: str | None, *, known: dict,
                      declarer: int | None, variant: dict, seats: int | None, pot: int | None, announce: str | None,
                      samples: int, seed: int, workers: int | None, time_limit: float | None,
                      checkpoint: Path | None, as_json: bool) -> None:
    """Card advice for a hand with no record: which card to lead, every legal card of the seat to lead ranked as
    card advice ranks them mid-play, from a deal that fits the hand (whose other hands are redealt on every sample)."""
    from solver.sampling import hand_position
    from solver.advice import card_advice

    if game is None or hand is None or contract is None:  # one given empty is checked as the others: what it lacks
        missing = [name for name, value in (("--game", game), ("--hand", hand), ("--contract", contract))
                   if value is None]
        raise typer.BadParameter(f"card advice needs a FILE (the play so far), or {', '.join(missing)} for the "
                                 "opening lead of a hand", param_hint="'--cards'")
    if is_contract_list(contract):  # all, pass or a list: no contract the cards are played in
        raise typer.BadParameter(f"card advice ranks the cards of the one contract played, not {contract.strip()!r} "
                                 "(contract advice, without --cards)", param_hint="'--contract'")
    if announce is not None:
        raise typer.BadParameter("card advice from a hand is scored without announcements: give a FILE whose record "
                                 "has an [Announcements] tag", param_hint="'--announce'")
    check_game_options(game, variant, seats, declarer, contract,
                       cards=[("--hand", hand), *(("--known", cards) for cards in known.values())],
                       seat_options=[("--seat", seat), *(("--known", other) for other in known)], pot=pot)

    with input_errors():
        position = hand_position(game, hand, seat, contract, known=known, declarer=declarer or 1,
                                 variant=variant or None, seats=seats, pot=pot)

        def finish(document: dict) -> None:
            document = _with_deal(position, document)
            emit_json(document) if as_json else render_cards(document, stdout_console())

        document = anytime("card advice", samples, lambda show: card_advice(
            position, seat, known=known, samples=samples, seed=seed, workers=workers, time_limit=time_limit,
            checkpoint=checkpoint, progress=show, pot=pot), finish, as_json, checkpoint)
    finish(document)


def _after_key(document: dict, key: str, **added: object) -> dict:
    """``document`` with ``added`` right after ``key`` (the documents keep their keys in the schema's order)."""
    with_added: dict = {}
    for name, value in document.items():
        with_added[name] = value
        if name == key:
            with_added.update(added)
    return with_added


def _with_deal(position: Position, document: dict) -> dict:
    """Card advice from a hand, saying what its deal was asked with as ``analyse`` of one contract does: the
    seats and the variant (every flag), which no record says here, and the known cards by seat (the library's
    document writes them where any were given; here always, ``{}`` for none, as ``analyse`` does)."""
    with_deal: dict = {}
    for key, value in document.items():
        if key == "contract":
            with_deal.update(seats=position.rules.seats, variant=dict(position.rules.variant))
        with_deal[key] = value
    return with_deal if "known" in with_deal else _after_key(with_deal, "hand", known={})


def render_cards(document: dict, console=None) -> None:
    """Card advice for people: the legal cards ranked by the seat's mean share of its side's settlement (the text is
    the library's, solver.advice.card_advice_report, which ``print(advice)`` gives; here with the cards painted)."""
    from solver.advice import card_advice_report, card_advice_title

    console = console or stdout_console()
    print_record(document, console)
    painter = CardPainter.for_game(document["game"])
    console.print(Text(card_advice_title(document)) + painter.cards(document["hand"]))  # its first line, painted
    known = document.get("known", {})
    for seat, cards in known.items():  # and the known cards' lines
        console.print(Text(f"known in seat {seat}: ") + painter.cards(cards))
    print_report(card_advice_report(document)[1 + len(known):], console, painter.card)


def _with_record(position: Position, document: dict) -> dict:
    """The analysis of a record, saying which record (several boards in one file give several lines)."""
    return {"schema": document["schema"], "command": document["command"],
            "record": record_header(position)["record"], **document}
