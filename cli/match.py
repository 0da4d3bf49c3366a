"""``stich match``: seeded deals played to the end by bots, each bot's mean payment with its interval."""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, List, Optional

import typer
from rich.table import Table

from solver.errors import InvalidContractError, StichError, did_you_mean, shown_name
from solver.games import games_with, get_game
from solver.games.base import score_or_measure
from solver.limits import DEFAULT_SAMPLES, MAX_SAMPLES
from solver.scoring import MAX_POT
from solver.search.boundary import seconds_text

from .errors import (OutputCut, file_name, input_errors, interrupts_held, message, os_error_said, say_interrupted,
                     warnings_said)
from .startup import mark_stop_said
from .options import (DEFAULT_SEED, SCORE_OR_MEASURE, check_game_options, checked_seed, game_option, given,
                      parse_variant_options, score_or_measure_names, seconds_or_no_limit, time_limit_help,
                      time_limit_option, workers_option, workers_within_cores)
from .records import compact_json
from .render import plural, progress_on_stderr, stdout_console, table_cell

if TYPE_CHECKING:
    from solver.bots import BotSpec
    from solver.match import MatchResult, PlayedDeal


#: What ``-o`` names the bots' own measure, as solve, tree and postmortem name it: the card points, or the seat's
#: own tricks in a game without card points (Kratzen), which the bots call ``points`` (:data:`PLAYS_FOR`; so a
#: checkpoint's identity does not depend on which of the two ``-o`` names).
OWN_MEASURES = ("points", "tricks")


def _plays_for(value: str) -> str:
    value = value.strip().lower()
    if value not in SCORE_OR_MEASURE:
        raise typer.BadParameter(f"a bot plays for score, points or (Kratzen) tricks, not {value!r}"
                                 f"{did_you_mean(value, SCORE_OR_MEASURE)}")
    return value


def bots_plays_for(game: str, objective: str) -> str:
    """``-o`` as the bots take it, ``score`` or ``points`` (the game's own measure); the measure of another game
    (``points`` for Kratzen, ``tricks`` elsewhere) is refused in solve's words, as a usage error."""
    rules = get_game(game)
    try:
        return score_or_measure(rules, objective, rules.name)
    except InvalidContractError as refused:
        raise typer.BadParameter(str(refused), param_hint="'--objective'") from None


def refuse_unused_sampling_options(context: typer.Context, specs: list[BotSpec]) -> None:
    """``--samples`` and ``--card-time`` where no bot takes them (:attr:`BotSpec.takes_samples`,
    :attr:`BotSpec.takes_card_time`: the built-in sampling bot alone, ``--samples`` the bare ``sampling`` alone): a
    usage error naming the flags given, as every option that means nothing without another is (cli/options.py's
    rule)."""
    sampling = any(spec.takes_card_time for spec in specs)
    unused = []
    if given(context, "samples") and not any(spec.takes_samples for spec in specs):
        unused.append(("--samples", "no bot here is a bare 'sampling' bot (sampling:N names its own samples)"
                       if sampling else "no bot here is a sampling bot"))
    if given(context, "time_limit") and not sampling:
        unused.append(("--card-time", "no bot here is a sampling bot"))
    if unused:
        why = unused[0][1] if len(unused) == 1 or unused[0][1] == unused[1][1] else "; ".join(
            f"{flag}: {reason}" for flag, reason in unused)
        raise typer.BadParameter(f"only for the built-in sampling bot: {why}",
                                 param_hint=" / ".join(f"'{flag}'" for flag, _ in unused))


def match(
    context: typer.Context,
    game: str = game_option(...),
    bots: str = typer.Option(..., "--bots", metavar="BOT,BOT,...",
                             help="One bot per seat, seat 1 first: sampling (sampling:N for N samples a card), "
                                  "random, cheater, or a bot of your own as module:attribute (mybots:LastCard: a "
                                  "bot class, factory or instance; the module from the current directory or "
                                  "PYTHONPATH). The seat count is the number of bots."),
    count: int = typer.Option(10, "-n", "--count", metavar="N", min=1, max=1_000_000,
                              help="How many boards (deals, each played once per seat with --rotate)."),
    seed: int = typer.Option(DEFAULT_SEED, "--seed", "-s", metavar="SEED", callback=checked_seed,
                             help="Seed of the deals and of the bots' own draws: the same seed gives the same match."),
    contract: Optional[str] = typer.Option(None, "--contract", "-c", metavar="CONTRACT",
                                           help="Play every deal under this contract (default: each board's own)."),
    declarer: int = typer.Option(1, "--declarer", metavar="SEAT", help="The declaring seat."),
    plays_for: str = typer.Option("score", "--plays-for", "--objective", "-o", metavar="NAME",
                                  callback=_plays_for, autocompletion=score_or_measure_names,
                                  help="What the sampling and cheater bots maximise (-o/--objective as elsewhere, "
                                       "the objective they play for): the settlement in game units "
                                       "(score; Kratzen: the attacker plays for his payment in chips, every other "
                                       "seat for its own tricks) or the game's own measure, as solve names it "
                                       "(faster): the card points (points), or in Kratzen each seat's own tricks "
                                       "(tricks)."),
    samples: Optional[int] = typer.Option(None, "--samples", metavar="N", min=1, max=MAX_SAMPLES,
                                          help="How many samples (deals of the unseen cards) a 'sampling' bot "
                                               "without its own ':N' solves for each card (default "
                                               f"{DEFAULT_SAMPLES})."),
    workers: Optional[int] = workers_option("Worker processes whole boards are played on",
                                            "; the match is the same on any number, without --card-time",
                                            one="in this process, each bot's searches on every core"),
    time_limit: Optional[float] = typer.Option(None, "--card-time", metavar="SECONDS",
                                               callback=seconds_or_no_limit, help=time_limit_help(
                                                   "each sampling bot's choice of a card", "(its deadline) the bot "
                                                   "stops sampling, but its first sample always finishes, so a card "
                                                   "takes at least one sample's search (may be longer); --json: "
                                                   "each deal's samples says how many each card took",
                                                   no_limit="Without it, or 0: no deadline, every sample is solved "
                                                   "(one sample a card: the bot sampling:1).")),
    match_time: Optional[float] = time_limit_option("the whole match", "the boards in play are played to the end "
                                                    "(stderr says how far past) and the deals played so far "
                                                    "reported, said as such (exit 0)", reference_refuses=False),
    checkpoint: Optional[Path] = typer.Option(
        None, "--checkpoint", metavar="FILE", parser=file_name,
        help="Append each board played to FILE; rerun the same command to continue from it."),
    rotate: bool = typer.Option(True, "--rotate/--no-rotate",
                                help="Play each deal once per seat with the bots moved round the table (paired; "
                                     "--no-rotate: once, and the bots never hold the same cards)."),
    variant: Optional[List[str]] = typer.Option(None, "--variant", metavar="NAME=VALUE",
                                                help="A variant flag (repeatable)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON document on stdout: every deal as played, then the "
                                                      "summary (docs/json.md)."),
    pot: Optional[int] = typer.Option(None, "--pot", metavar="CHIPS", min=0, max=MAX_POT,
                                      help="The pot at the start of each deal, for a game paid from one (Kratzen: "
                                           "without it every deal settles at 0)."),
) -> None:
    """Play seeded deals to the end with a bot in every seat and report each bot's mean payment per deal with
    its 95% interval over the boards (a board's value: the mean over its rotations). With --rotate (the default)
    each deal is played once per seat with the bots moved round, so two kinds of bot are compared on the same cards
    and their paired difference is given."""
    from solver.bots import SamplingBot, make_bot, read_bot_spec
    from solver.match import (STOPPED_WHERE, BotError, MatchResult, MatchSetup, check_bots, match_heading, mean_text,
                              play_match)

    context.with_resource(warnings_said("match"))  # a checkpoint written afresh (it held no work)
    flags = parse_variant_options(variant)
    workers = workers_within_cores(workers)
    specs = [spec.strip() for spec in bots.split(",")]
    seat_counts = get_game(game).seat_counts
    if len(specs) not in seat_counts:
        raise typer.BadParameter(f"{get_game(game).name} is played by {get_game(game).seat_counts_text()} seats: "
                                 f"give one bot per seat, not {len(specs)}", param_hint="'--bots'")
    check_game_options(game, flags, len(specs), declarer, contract, everyday=True)
    plays_for = bots_plays_for(game, plays_for)
    if pot is not None and not get_game(game).has_pot:
        raise typer.BadParameter(f"{get_game(game).name} has no pot (it is for {games_with('has_pot')})",
                                 param_hint="'--pot'")
    try:  # a bot name or count that is no bot, or two kinds of bot under one name, is a usage error
        read: list[BotSpec] = []  # each spec read once: what made its bot says which options it takes
        players = []
        for spec in specs:
            read.append(read_bot_spec(spec))
            players.append(make_bot(read[-1], seed=seed, samples=DEFAULT_SAMPLES if samples is None else samples,
                                    time_limit=time_limit, plays_for=plays_for))
        check_bots(players)
    except StichError as error:
        raise typer.BadParameter(str(error), param_hint="'--bots'") from None
    refuse_unused_sampling_options(context, read)
    spellings: dict[str, list[str]] = {}  # one bot, one name: sampling:50 is sampling at --samples 50
    for spec, player in zip(specs, players):
        spelt = spec if ":" in spec and not isinstance(player, SamplingBot) else spec.lower()  # a module's own case
        if spelt not in spellings.setdefault(player.name, []):
            spellings[player.name].append(spelt)
    for player in players:
        said = spellings.pop(player.name, [])
        if len(said) > 1:
            if isinstance(player, SamplingBot):
                message(f"stich: match: {' and '.join(said)} are one bot, {player.name} "
                        f"({plural(player.samples, 'sample')} a card): counted as one kind of bot")
            else:  # bots of one's own, from two specs
                message(f"stich: match: {' and '.join(said)} are both named {player.name}: counted as one kind of "
                        "bot")
    latest: list[MatchResult] = []
    # the deals are not kept: --json writes each as it comes, the report needs only their sums
    setup = MatchSetup.of(get_game(game), players, contract, declarer, flags)
    stream = JsonStream(match_heading(game, seed, count, rotate, pot, setup)) if as_json else None
    with input_errors():
        try:  # the line said once the status line is gone (under it, it would be wrapped at the terminal's width)
            with progress_on_stderr("match") as report:
                def show(so_far: MatchResult, total: int) -> None:
                    latest[:] = [so_far]
                    if not so_far.bots:  # no board played in all its rotations yet
                        report(f"deal {so_far.deals_played} of {total}")
                        return
                    leader = max(so_far.bots.items(), key=lambda item: item[1].mean)
                    report(f"deal {so_far.deals_played} of {total}; leading {leader[0]} {mean_text(leader[1])}")

                started = time.monotonic()
                try:
                    with bots_print_to_stderr(stream):
                        result = play_match(game, players, boards=count, seed=seed, contract=contract,
                                            declarer=declarer, variant=flags, rotate=rotate, time_limit=match_time,
                                            checkpoint=checkpoint, progress=show, pot=pot, workers=workers,
                                            keep_deals=False, on_deal=stream.deal if stream is not None else None,
                                            notice=lambda text: message(f"stich: match: {text}{ONE_BUILD}"))
                except KeyboardInterrupt:
                    if latest:
                        render_match(latest[0], count, rotate, stream)
                    else:  # no progress call: stopped while the checkpoint was checked, before any board
                        if stream is not None:
                            stream.end()
                        mark_stop_said()
                        message(STOPPED_BEFORE_PLAY)
                    raise
                except BrokenPipeError:  # the reader is gone: nothing more to write
                    raise
                except Exception as failure:  # the match so far, stopped by the error, printed as --json closes
                    try:
                        if latest and latest[0].stopped == "error":
                            render_match(latest[0], count, rotate, stream)
                        elif stream is not None:
                            stream.end()
                        sys.stdout.flush()
                    except (BrokenPipeError, SystemExit):  # the reader is gone (rich's console exits 141): the
                        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # error is still said
                    except OSError as unwritten:  # stdout failed too: said, then the error that stopped the match
                        if not (isinstance(failure, OSError) and os_error_said(failure) == os_error_said(unwritten)):
                            message(f"stich: {os_error_said(unwritten)}")
                    bot_traceback = failure.bot_traceback() if isinstance(failure, BotError) else None
                    if bot_traceback is not None:  # the bot's own code raised: where, for its author
                        message(f"stich: match: the bot's own code raised; its traceback:\n{bot_traceback.rstrip()}",
                                lines=True)
                    raise
        except KeyboardInterrupt as stop:
            if latest:
                kept = (f"; the boards played whole are kept in {shown_name(checkpoint)}: rerun the command to resume"
                        if checkpoint is not None else "")
                # the bot it stopped, a bot too slow said by name; on several workers the boards in play there instead
                stopped_where = getattr(stop, STOPPED_WHERE, None)
                choosing = f" ({stopped_where})" if stopped_where is not None else ""
                say_interrupted("match", f"after {latest[0].deals_played:,} deals{choosing}: the match so far is "
                                         f"printed, said as such{kept}")
            raise
    seconds = time.monotonic() - started
    # a match the time limit cut: how long it took in all, in the JSON too, for a reader of stdout alone
    timing = ({"limit": match_time, "elapsed": round(seconds, 1)}
              if result.stopped == "time limit" and match_time is not None else None)
    try:
        # the report printed whole before a stop that comes now, which then says so; a full stdout said in one line
        with input_errors(), interrupts_held():
            render_match(result, count, rotate, stream, timing)
            if timing is not None:
                message(overrun_text(timing["limit"], seconds, count - result.declaring_side.count, checkpoint))
    except KeyboardInterrupt as stop:
        printed = "a second interrupt cut its report short" if isinstance(stop, OutputCut) else "its report is printed"
        kept = f"; the boards are kept in {shown_name(checkpoint)}" if checkpoint is not None else ""
        played = "its one deal was" if result.deals_played == 1 else f"all {result.deals_played:,} deals were"
        say_interrupted("match", f"after {played} played: {printed}{kept}")
        raise


def overrun_text(limit: float, seconds: float, left: int = 0, checkpoint: Path | None = None) -> str:
    """How far a match stopped by ``--time-limit`` ran past it: whole boards are played (a rotated match stays
    paired), so the boards in play at the limit were finished, and that can take minutes with sampling bots; then
    the ``left`` boards it never started, and where a ``checkpoint`` keeps the boards played for a rerun to resume
    (without one: that ``--checkpoint`` would have, as a rerun plays them all again)."""
    past = max(0.0, seconds - limit)
    text = (f"stich: match: {seconds:.1f} s in all, {past:.1f} s past the time limit of {seconds_text(limit)}: the "
            "boards in play at the limit were played to the end (whole boards, one a worker)")
    if left:
        text += f"; {plural(left, 'board')} not started" + (
            f": the boards played are kept in {shown_name(checkpoint)}: rerun the command to play the rest"
            if checkpoint is not None else " (--checkpoint FILE keeps the boards played, for a rerun to play the rest)")
    return text


#: What an interrupt says that came before any board was played (while the checkpoint's lines were checked):
#: without it the command ended with 130 and nothing on either stream.
STOPPED_BEFORE_PLAY = "stich: match: stopped by the interrupt before any board was played (nothing written)"

#: What a user does about a match that mixes engine builds.
ONE_BUILD = "; a new --checkpoint FILE plays the match on one build"


@contextmanager
def bots_print_to_stderr(stream: "JsonStream | None") -> Iterator[None]:
    """What a bot prints as the match is played is no data: stdout is stderr meanwhile, for ``print``,
    ``sys.__stdout__`` and file descriptor 1 alike (and for the worker processes started meanwhile, which inherit
    it), while ``--json``'s deals go to the real stdout, which ``stream`` writes to (a copy of file descriptor 1
    where it wrote there; a stream of another file, as a test's, is left as it is)."""
    moved, kept_out = sys.stdout, stream.out if stream is not None else None
    for out in {moved, sys.__stdout__}:
        if out is not None:
            out.flush()
    from .main import whole_writer

    try:
        saved: int | None = os.dup(1)
    except OSError:  # stdout closed when stich started: its own stream says so where the match writes to it
        saved = None
    real = None
    finished = False
    try:
        with interrupts_held():
            if saved is not None and stream is not None and _writes_to_stdout(stream.out):
                # buffered as the stream it stands for (``python -u``: each write at once, so a full disk stops
                # the match)
                stream.out = real = whole_writer(saved, kept_out, "stdout",
                                                 bool(getattr(kept_out, "write_through", False)))
            os.dup2(2, 1)
            sys.stdout = sys.stderr
        yield
        finished = True
    finally:
        with interrupts_held():
            sys.stdout = moved
            try:
                if sys.__stdout__ is not None:
                    sys.__stdout__.flush()  # a bot's words still buffered there go to stderr, not into the data
            except (OSError, ValueError):  # a bot's words only: the match's own output is what matters
                pass
            if saved is not None:
                os.dup2(saved, 1)
            else:
                with suppress(OSError):
                    os.close(1)
            if stream is not None:
                stream.out = kept_out
        try:
            if real is not None:
                real.close()  # written through: the deals before what comes after them
        except OSError:
            if finished:  # else the error that ended the match is said, not this one
                raise
        finally:
            if saved is not None:
                os.close(saved)


def _writes_to_stdout(out: object) -> bool:
    """Whether the file ``out`` writes to file descriptor 1."""
    fileno = getattr(out, "fileno", None)
    try:
        return fileno is not None and fileno() == 1
    except (OSError, ValueError):  # no file descriptor: an in-memory file
        return False


class JsonStream:
    """``--json``'s one-line document written as the match is played, so that no deal is held for it: the heading
    (what the arguments settle) with the first deal, each deal as it comes (in board order), the summary last. It
    is the document :meth:`MatchResult.as_dict` makes, in its order."""

    def __init__(self, heading: dict[str, object]) -> None:
        self.heading = heading
        self.started = False
        self.closed = False
        # the file itself: under the status line on a terminal, sys.stdout is rich's proxy, which prints to stderr
        self.out = getattr(sys.stdout, "rich_proxied_file", sys.stdout)

    def deal(self, deal: PlayedDeal) -> None:
        text = ("," if self.started else self._head()) + compact_json(deal.as_dict())
        with interrupts_held():  # written and flagged together: else an interrupt's close wrote the head again
            self.out.write(text)
            self.started = True

    def _head(self) -> str:
        return compact_json(self.heading)[:-1] + ',"deals":['

    def close(self, result: MatchResult, timing: dict[str, float] | None = None) -> None:
        """The summary of ``result`` (the match, or the match so far at an interrupt or an error) after the deals
        written; ``timing`` (``time_limit``: the limit and the seconds in all) where the time limit stopped it."""
        if not self.started:  # no deal played
            self.out.write(self._head())
        summary = result.summary_dict() | ({"time_limit": timing} if timing is not None else {})
        self.out.write("]," + compact_json(summary)[1:] + "\n")
        self.out.flush()
        self.closed = True

    def end(self) -> None:
        """The line ended where no summary can close it (a failure before the match so far was said): a reader of
        lines is not left waiting. Nothing is written where no deal was."""
        if self.started and not self.closed:
            self.out.write("\n")
            self.out.flush()
            self.closed = True


def render_match(result: MatchResult, count: int, rotate: bool, stream: JsonStream | None,
                 timing: dict[str, float] | None = None) -> None:
    """The match's report (the end of its JSON stream, or the table for people); a match stopped early says so. The
    intervals are over the boards, and the report says so, so that the seats played are not read as the sample
    size. ``timing`` is the JSON's ``time_limit`` (a match its time limit stopped)."""
    from solver.match import match_report

    report = match_report(result, count)
    # a checkpoint resumed after an upgrade: never unsaid; what to do about it is said on stderr alone
    mixed = f"{report.mixed} (a checkpoint resumed after an upgrade)" if report.mixed is not None else None
    if report.pot_note is not None:  # a message about the run, not a result: on stderr, which --json keeps clean too
        message(f"stich: match: {report.pot_note.removeprefix('note: ')}")
    if stream is not None:
        stream.close(result, timing)
        if mixed is not None:
            message(f"stich: match: {mixed}{ONE_BUILD}")
        return
    console = stdout_console()
    console.print(report.heading)
    if report.setup is not None:
        console.print(report.setup, highlight=False)  # one line piped, for grep; wrapped on a terminal
    if report.card_samples_line is not None:
        console.print(report.card_samples_line)
    if report.table is not None:
        title, columns, rows = report.table
        table = Table(title=title, title_justify="left", title_style="bold")  # as every command heads its tables
        for column in columns:
            table.add_column(column, justify="left" if column == "bot" else "right")
        for row in rows:
            table.add_row(*(table_cell(console, cell) for cell in row))
        console.print(table)
        if report.fixed is not None:
            console.print(report.fixed)
        console.print(report.side)
        if report.difference is not None:
            console.print(report.difference)  # one line piped, for grep
        if report.intervals is not None:
            console.print(report.intervals)
        if report.split is not None:
            console.print(report.split)
    else:
        console.print(report.no_means)
    if report.stopped is not None:
        console.print(report.stopped)
    if mixed is not None:
        console.print(f"note: {mixed}", highlight=False)
        message(f"stich: match: {mixed}{ONE_BUILD}")
