"""Matches: seeded deals played to the end by bots, scored as the table would score them.

Each deal is board ``k`` of the match's seed (:func:`solver.generate.random_record`, so a match of 20 boards is a
match of 10 plus 10 more). With ``rotate`` every deal is played once per seat with the bots moved round the table,
so each bot holds every hand of the deal once: the luck of the cards cancels, and the difference between two bots is
measured on the same cards (paired), which is what makes a small match tell bots apart. A played deal is settled by
:func:`solver.scoring.score_deal`: each seat's payment in game units (in chips, with the pot, from zero, in a game
paid from one: Kratzen).

The board is the unit of the statistics: its rotations are the same cards (identical bots play them card for card
the same) and the seats of one deal share its zero-sum payments, so neither a rotation nor a seat is an independent
observation. Each mean is over the boards played in all their rotations, one value a board (the mean over its
deals), and its 95% interval uses Student's t for the boards' count.
"""

from __future__ import annotations

import bisect
import functools
import math
import os
import pickle
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence, SupportsIndex, cast

from .analysis import SCHEMA
from .bots import Bot
from .checkpoint import Journal, Span
from .errors import StichError, integral, is_whole_number
from .games import get_game
from .games.base import Game
from .position import Position, position_from_record
from .generate import DEFAULT_SEED, random_record
from .intervals import t_quantile_95
from .html_tables import html_lines, html_table
from .sampling import ALL_ALIKE, ReportTable, interval_note, table_text
from .search.boundary import check_time_limit
from .scoring import check_scoring_inputs, read_pot, score_deal
from .workers import local_workers, run_pool


#: The note of a mean fixed by construction (one bot in every seat of zero-sum deals), which has no interval.
BY_CONSTRUCTION = "0 by construction"
#: The least time between two calls of a match's ``progress``: each call summarises every deal played so far, so a
#: call after every deal made a long match quadratic (2,000 boards of random bots: 146 s, 7.9 s for 500).
PROGRESS_SECONDS = 0.2


@dataclass(frozen=True)
class Mean:
    """A mean over ``count`` values (in a match: boards) with its 95% interval: Student's t for ``count - 1``
    degrees of freedom; no interval (nan) from fewer than two values, or where the mean is fixed by construction
    (``fixed``). Values all alike give an interval of no width (``low == high``), which the document writes as
    nulls with a note, as analyse and advice do (:func:`solver.sampling.interval_document`)."""

    mean: float
    low: float
    high: float
    count: int
    fixed: bool = False

    @classmethod
    def of(cls, values: Sequence[float], *, interval: bool = True) -> "Mean":
        """``interval=False``: the mean alone (a value that cannot vary, such as a bot's mean when it holds every
        seat of zero-sum deals, has no interval to give)."""
        n = len(values)
        if not n:
            return cls(math.nan, math.nan, math.nan, 0)
        mean = math.fsum(values) / n
        if n < 2 or not interval:
            return cls(mean, math.nan, math.nan, n, fixed=not interval)
        if all(value == values[0] for value in values):  # exactly no width, whatever the rounding of the mean
            return cls(mean, mean, mean, n)
        variance = math.fsum((value - mean) ** 2 for value in values) / (n - 1)
        half = t_quantile_95(n - 1) * math.sqrt(variance / n)
        return cls(mean, mean - half, mean + half, n)

    @property
    def note(self) -> str | None:
        """Why there is no interval (the words of analyse and advice: "no sample", "one sample", "all samples
        alike", a board being the match's sample; or "0 by construction"), or None where there is one."""
        return BY_CONSTRUCTION if self.fixed else interval_note(self.count, self.low, self.high)

    def as_dict(self) -> dict[str, Any]:
        """``interval`` is two numbers, or two nulls with ``interval_note`` saying why (never ``[m, m]``)."""
        def number(x: float) -> float | None:
            return None if math.isnan(x) else round(x, 4)
        note = self.note
        interval = [None, None] if note else [number(self.low), number(self.high)]
        return {"mean": number(self.mean), "interval": interval, "interval_note": note, "count": self.count}


@dataclass(frozen=True)
class PlayedDeal:
    """One deal played once: the board, who sat where, the contract, the cards in playing order and each seat's
    payment (1-based seat order)."""

    board: int
    rotation: int
    bots: tuple[str, ...]
    contract: str
    declarer: int
    declaring_side: tuple[int, ...]
    play: tuple[str, ...]
    payments: tuple[int, ...]

    @classmethod
    def from_dict(cls, document: Mapping[str, Any]) -> "PlayedDeal":
        """A deal as :meth:`as_dict` wrote it (a checkpoint line)."""
        return cls(int(document["board"]), int(document["rotation"]), tuple(document["bots"]),
                   str(document["contract"]), int(document["declarer"]), tuple(document["declaring_side"]),
                   tuple(document["play"]), tuple(int(p) for p in document["payments"]))

    def as_dict(self) -> dict[str, Any]:
        return {"board": self.board, "rotation": self.rotation, "bots": list(self.bots), "contract": self.contract,
                "declarer": self.declarer, "declaring_side": list(self.declaring_side), "play": list(self.play),
                "payments": list(self.payments)}


@dataclass(frozen=True)
class MatchSetup:
    """What a match was played with besides its game, seed, boards and pot, carried into its report so that a
    published result says what made it: the contract (None: each board's own) and its declarer, the variant flags,
    and per bot (by name) what it plays for, its samples a card and its deadline a card (``--card-time``, which
    makes the match depend on the machine's speed)."""

    contract: str | None = None
    declarer: int | None = None
    variant: tuple[tuple[str, str], ...] = ()
    players: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()

    @classmethod
    def of(cls, bots: Sequence[Bot], contract: str | None, declarer: int,
           variant: Mapping[str, object] | str | None) -> "MatchSetup":
        """``variant`` as :func:`play_match` takes it: flags, or a ``[Variant]`` tag's ``flag=value, ...`` text."""
        if isinstance(variant, str):
            variant = dict(item.strip().split("=", 1) for item in variant.split(",") if "=" in item)
        players: dict[str, tuple[tuple[str, Any], ...]] = {}
        for bot in bots:
            players.setdefault(bot.name, (("plays_for", getattr(bot, "plays_for", None)),
                                          ("samples", getattr(bot, "samples", None)),
                                          ("card_time", getattr(bot, "time_limit", None))))
        flags = tuple(sorted((str(name), str(value)) for name, value in (variant or {}).items()))
        return cls(contract, declarer, flags, tuple(players.items()))

    def player(self, name: str) -> dict[str, Any]:
        """A bot's settings by name: ``plays_for``, ``samples``, ``card_time`` (None where the bot has none)."""
        return dict(dict(self.players).get(name, (("plays_for", None), ("samples", None), ("card_time", None))))


@dataclass(frozen=True)
class MatchResult:
    """A match: every deal as played, and per bot its mean payment per seat and deal with a 95% interval; with two
    kinds of bot, the difference of the first over the second (per deal, the mean payment of the first's seats minus
    the mean of the second's), paired when ``rotate`` put both on the same cards. Every mean is over the boards
    played in all their rotations, one value a board (``count``); ``deals_counted`` is their deals and ``seats``
    the seats each bot held in them. A bot holding every seat of zero-sum deals has no interval: its mean is 0 by
    construction."""

    game: str
    seed: int
    boards: int
    rotate: bool
    deals: tuple[PlayedDeal, ...]
    bots: dict[str, Mean] = field(default_factory=dict)
    declaring_side: Mean = Mean(math.nan, math.nan, math.nan, 0)
    difference: tuple[str, str, Mean] | None = None
    stopped: str | None = None  # "time limit" or "interrupt" when the match ended before its last deal
    seats: dict[str, int] = field(default_factory=dict)
    deals_counted: int = 0
    pot: int | None = None  # every deal's pot, in a game paid from one
    setup: MatchSetup | None = None  # what else the match was played with (None: not said)
    engine_builds: dict[str, int] = field(default_factory=dict)  # boards by engine build (more than one: mixed)

    def as_dict(self) -> dict[str, Any]:
        setup = self.setup or MatchSetup()
        document: dict[str, Any] = {
            "schema": SCHEMA, "command": "match", "game": self.game, "seed": self.seed, "boards": self.boards,
            "rotate": self.rotate, "pot": self.pot, "contract": setup.contract, "declarer": setup.declarer,
            "variant": dict(setup.variant) or None,
            "stopped": self.stopped,
            "bots": {name: {**mean.as_dict(), "seats": self.seats[name], **setup.player(name)}
                     for name, mean in self.bots.items()},
            "declaring_side": {**self.declaring_side.as_dict(), "deals": self.deals_counted},
            "deals": [deal.as_dict() for deal in self.deals]}
        if self.engine_builds:
            document["engine_builds"] = dict(self.engine_builds)
        if self.difference is not None:
            first, second, mean = self.difference
            document["difference"] = {"first": first, "second": second, **mean.as_dict(),
                                      "deals": self.deals_counted, "paired": self.rotate}
        return document

    def __str__(self) -> str:
        """The report for people (``print(result)``), as ``stich match`` prints it (:func:`match_report`); the
        dataclass ``repr`` stays for debugging."""
        report = match_report(self)
        lines = [report.heading, report.setup, report.pot_note]
        if report.table is not None:
            lines += table_text(report.table)
        lines += [report.fixed, report.side, report.difference, report.intervals, report.no_means, report.stopped,
                  report.mixed and f"note: {report.mixed}"]
        return "\n".join(line for line in lines if line is not None)

    def _repr_html_(self) -> str:
        """The same for Jupyter, the bots' means as a table."""
        report = match_report(self)
        parts = [html_lines([report.heading], bold=True),
                 html_lines(line for line in (report.setup, report.pot_note) if line is not None)]
        if report.table is not None:
            title, columns, rows = report.table
            parts += [html_lines([title], bold=True), html_table(columns, rows, right={1, 2})]
        parts.append(html_lines(line for line in (report.fixed, report.side, report.difference, report.intervals,
                                                  report.no_means, report.stopped) if line is not None))
        parts.append(html_lines([f"note: {report.mixed}"] if report.mixed else [], small=True))
        return f"<div>{''.join(parts)}</div>"


def signed_interval(value: float, low: float, high: float) -> str:
    """``+2.30 (+1.23 .. +3.37)``: a signed mean and its interval, or the mean alone where there is none."""
    if math.isnan(low):
        return f"{value:+.2f}"
    return f"{value:+.2f} ({low:+.2f} .. {high:+.2f})"


def mean_text(mean: Mean) -> str:
    """``+2.30 (+1.23 .. +3.37)``; where every board gave the same value, that instead of an interval of no width
    (a certainty the boards do not show), as analyse and advice say it."""
    if mean.note == ALL_ALIKE:
        return f"{mean.mean:+.2f} (all {mean.count:,} boards alike: no interval)"
    return signed_interval(mean.mean, mean.low, mean.high)


def setup_text(result: MatchResult) -> str | None:
    """The line that says what the match was played with besides its seed and boards: each bot's settings, the
    contract and declarer, the variant (None where the result does not say)."""
    setup = result.setup
    if setup is None:
        return None
    bots = []
    for name, _ in setup.players:
        player = setup.player(name)
        said = ([f"{player['samples']:,} samples a card"] if player["samples"] else []) \
            + ([f"plays for the {player['plays_for']}"] if player["plays_for"] else []) \
            + ([f"at most {player['card_time']:g} s a card"] if player["card_time"] else [])
        bots.append(f"{name} ({', '.join(said)})" if said else name)
    contract = f"contract {setup.contract}" if setup.contract else "each board's own contract"
    variant = ", ".join(f"{flag}={value}" for flag, value in setup.variant) or "the game's defaults"
    title = get_game(result.game).declarer_title  # Kratzen's attacker
    return f"bots: {', '.join(bots)}; {contract}, {title} {setup.declarer}; variant: {variant}"


@dataclass(frozen=True)
class MatchReport:
    """The texts of a match's report, in ``stich match``'s order: the command prints each with its own wrapping,
    ``str(result)`` and Jupyter lay them out. None is a line this match does not have."""

    heading: str
    setup: str | None
    pot_note: str | None  # a pot of 0, where the game is paid from one
    table: ReportTable | None  # each bot's seats played and mean settlement (None: no board played whole)
    fixed: str | None  # one bot holds every seat: 0 by construction
    side: str | None  # the declaring side's (the attacker's) mean
    difference: str | None
    intervals: str | None  # what the intervals are over
    no_means: str | None
    stopped: str | None
    mixed: str | None  # boards by more than one engine build (:func:`mixed_builds_text`)


def match_report(result: MatchResult, boards: int | None = None) -> MatchReport:
    """The report of ``result``, a match of ``boards`` boards (None: as many as it was asked for, ``result.boards``;
    ``stich match`` gives its count). The intervals are over the boards, and the report says so, so that the seats
    played are not read as the sample size."""
    count = result.boards if boards is None else boards
    game = get_game(result.game)
    played = len(result.deals)
    rotations = len(result.deals[0].bots) if result.rotate and played else 1
    heading = (f"{result.game}: {count:,} board{'' if count == 1 else 's'} (seed {result.seed})"
               + (f", each {'to be ' if result.stopped else ''}played {rotations} times with the bots rotated"
                  if rotations > 1 else "") + (f"; pot {result.pot}" if result.pot is not None else ""))
    pot_note = ("note: pot 0: every deal settles at 0, so the bots' settlements say nothing (--pot CHIPS)"
                if game.has_pot and not result.pot else None)
    counted = result.declaring_side.count
    units = game.score_unit
    table: ReportTable | None = None
    fixed = side = difference = intervals = no_means = stopped = None
    if counted:
        table = ("mean settlement per seat and deal", ("bot", "seats played", f"mean settlement ({units})"),
                 [(name, str(result.seats[name]), mean_text(mean)) for name, mean in result.bots.items()])
        if len(result.bots) == 1 and next(iter(result.bots.values())).fixed:
            fixed = f"{next(iter(result.bots))} holds every seat: 0 by construction (zero-sum deals), no interval"
        if game.has_pot:  # every seat for itself, paid in chips from and into the pot
            side = (f"{game.declarer_title} (seat {result.deals[0].declarer}): {mean_text(result.declaring_side)} "
                    f"{units} per deal, his own payment")
        else:
            side = f"declaring side: {mean_text(result.declaring_side)} {units} per deal"
        if result.difference is not None:
            first, second, gap = result.difference
            difference = (f"{first} - {second}: {mean_text(gap)} {units} per deal, "
                          + ("paired (the same cards)" if result.rotate
                             else "not paired (--no-rotate: each bot keeps its seat)"))
        if counted > 1:
            intervals = (f"95% intervals over {counted} boards, one value a board"
                         + (" (its mean over the rotations)" if rotations > 1 else ""))
    else:
        no_means = "no board played in all its rotations: no means"
    if result.stopped:
        cut = played - result.deals_counted
        stopped = (f"stopped by the {result.stopped} after {played} of {count * rotations} deals: the result so far"
                   + (f" (not counted: the {cut:,} deal{'' if cut == 1 else 's'} of a board cut short)" if cut else ""))
    return MatchReport(heading, setup_text(result), pot_note, table, fixed, side, difference, intervals, no_means,
                       stopped, mixed_builds_text(result.engine_builds))


def play_out(position: Position, bots: Sequence[Bot]) -> Position:
    """The position at the end of the deal, each card chosen by the bot of the seat to move (``bots[seat - 1]``)."""
    while not position.state.is_over:
        seat = position.state.to_move
        card = bots[seat].choose(position)
        try:  # a pack index, a Card or a token, as Position.play takes them
            position = position.play(card)
        except StichError as error:
            named = position.pack[card].name if isinstance(card, int) and 0 <= card < len(position.pack) else card
            raise StichError(f"bot {bots[seat].name} at seat {seat + 1} chose {named!s}, which is not a legal card "
                             f"here ({error})") from None
    return position


def play_board(board: int, *, game: str, bots: Sequence[Bot], seed: int, contract: str | None, declarer: int,
               variant: Mapping[str, object] | str | None, pot: int | None, rotations: int,
               on_deal: Callable[[PlayedDeal], None] | None = None) -> list[PlayedDeal]:
    """Board ``board`` of the match's seed played once per rotation of the bots (``on_deal`` is told each deal as
    it is played): a function of its arguments only, so any process plays it alike."""
    game_class = get_game(game)
    seats = len(bots)
    record = random_record(game_class, seed, board, contract=contract, declarer=declarer,
                           seats=seats if len(game_class.seat_counts) > 1 else None, variant=variant)
    if pot is not None:
        record.set("Pot", str(pot))
    start = position_from_record(record)
    deals = []
    for rotation in range(rotations):
        seated = [bots[(seat - rotation) % seats] for seat in range(seats)]
        end = play_out(start, seated)
        settlement = score_deal(end)
        rules = end.rules
        deal = PlayedDeal(board, rotation, tuple(bot.name for bot in seated), rules.contract.text, rules.declarer + 1,
                          tuple(sorted(s + 1 for s in rules.declaring_side)),
                          tuple(end.pack[card].name for card in end.played), tuple(settlement.payments))
        deals.append(deal)
        if on_deal is not None:
            on_deal(deal)
    return deals


#: The build of boards a checkpoint kept before checkpoints named their build.
UNKNOWN_BUILD = "unknown"


@functools.cache  # the engine's bytes hashed once a process: every board and report asks it
def engine_build() -> str:
    """The engine build this process plays with (:func:`solver.benchmark.engine_fingerprint` of the package in
    use): a checkpoint keeps it with every board, so that a match resumed after an upgrade says it mixes builds."""
    from .benchmark import engine_fingerprint

    return engine_fingerprint(Path(__file__).resolve().parent)


def mixed_builds_text(builds: Mapping[str, int]) -> str | None:
    """``boards by two engine builds: 4 by 0123456789ab, 2 by 9876543210fe (this one)`` where a match's boards were
    played by more than one build (a checkpoint resumed after an upgrade), else None."""
    if len(builds) < 2:
        return None
    return f"boards by {len(builds)} engine builds: {_builds_parts(builds)}"


def resumed_builds_text(kept: Mapping[str, int]) -> str | None:
    """``resuming boards played by another engine build: 4 by 0123456789ab; this one is 9876543210fe, so the
    match will mix builds`` where a checkpoint's boards (``kept``: boards by build) were played by another build than
    this one, which will play the boards left; else None. Said when the resume starts, not only in the report."""
    others = {build: count for build, count in kept.items() if build != engine_build()}
    if not others:
        return None
    return (f"resuming boards played by another engine build: {_builds_parts(others)}; this one is {engine_build()}, "
            "so the match will mix builds")


def _builds_parts(builds: Mapping[str, int]) -> str:
    """``4 by 0123456789ab, 2 by 9876543210fe (this one)``: the boards of each build."""
    current = engine_build()
    return ", ".join(f"{count} by a build the checkpoint did not record" if build == UNKNOWN_BUILD else
                     f"{count} by {build}" + (" (this one)" if build == current else "")
                     for build, count in builds.items())


def check_bots(bots: object) -> tuple[Bot, ...]:
    """The bots of a match, each one with a ``name`` (text: what the results group by) and a ``choose`` method, else
    StichError: a wrong argument fails here, not as an AttributeError in the middle of the first board."""
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
        raise StichError(f"bots must be a list of bots, one per seat, not {type(bots).__name__}")
    for seat, bot in enumerate(bots, 1):
        name = getattr(bot, "name", None)
        if not isinstance(name, str) or not name.strip() or not callable(getattr(bot, "choose", None)):
            raise StichError(f"the bot at seat {seat} ({bot!r}) is no bot: a bot has a name (text) and a "
                             f"choose(position) method (solver.bots.Bot)")
    return tuple(bots)


def play_match(game: str | type[Game], bots: Sequence[Bot], *, boards: int = 10, seed: int = DEFAULT_SEED,
               contract: str | None = None, declarer: SupportsIndex = 1,
               variant: Mapping[str, object] | str | None = None, rotate: bool = True, time_limit: float | None = None,
               checkpoint: str | os.PathLike | None = None,
               progress: Callable[[MatchResult, int], None] | None = None, pot: int | None = None,
               workers: int | None = 1, notice: Callable[[str], None] | None = None) -> MatchResult:
    """Play ``boards`` seeded deals with ``bots[i]`` at seat ``i + 1`` (one bot per seat), each deal once per
    rotation of the bots round the table when ``rotate``. ``contract`` (else each board's own random contract) is
    declared by ``declarer``. ``pot`` is every deal's pot in a game paid from one (Kratzen: without it every deal
    settles at 0, and bots playing for the score have nothing to play for); it is each record's ``[Pot]`` tag, so
    the bots and the scorer read it alike. ``time_limit`` (seconds) ends the match after the board in play when it
    is reached (whole boards only, so that a rotated match stays paired; ``stopped`` says so). ``progress(result so
    far, deals in all)`` is called after a deal played (on several workers, after a board), at most every
    :data:`PROGRESS_SECONDS`, and once more with every deal played when an interrupt ends the match. ``checkpoint`` (a
    file) keeps every board played, and a rerun of the same match resumes from it: every choice is a function of the
    bots' seeds and the position, so the resumed match equals an uninterrupted one. ``workers`` (None: every core)
    plays whole boards on that many processes, each searching on one thread: the bots must then pickle (this module's do, without their engines,
    so their table size is the default there, and a sampling bot's ``last_estimates`` stay in the worker); the
    match is the same on any number (without a bot's ``time_limit``, which depends on the machine's speed), its
    deals in board order. ``notice(text)`` is told at once what a caller should hear before any board is played: a
    checkpoint resumed under another engine build (:func:`resumed_builds_text`), which the result says again."""
    game = get_game(game)
    declarer = cast(int, integral(declarer))  # a numpy seat is kept as an int: the JSON and the checkpoint take it
    check_scoring_inputs(game, pot)
    read_pot(None, pot)  # a whole number of chips in range
    if not is_whole_number(boards) or not 1 <= boards <= 1_000_000:
        raise StichError(f"boards must be a whole number from 1 to 1,000,000, not {boards!r}")
    bots = check_bots(bots)
    check_time_limit(time_limit, StichError)
    if progress is not None and not callable(progress):
        raise StichError(f"progress must be a function of the result so far and the deals in all (or None), "
                         f"not {progress!r}")
    if notice is not None and not callable(notice):
        raise StichError(f"notice must be a function of a text (or None), not {notice!r}")
    seats = len(bots)
    if seats not in game.seat_counts:
        raise StichError(f"{game.name} is played by {game.seat_counts_text()} seats: give one bot per seat, "
                         f"not {seats}")
    rotations = seats if rotate else 1
    workers = min(local_workers(workers), boards)
    if workers > 1 and any(getattr(bot, "workers", 1) != 1 for bot in bots):
        raise StichError("a match on several processes plays each board on one: give its bots workers=1")
    played: list[PlayedDeal] = []
    total = boards * rotations
    deadline = None if time_limit is None else time.monotonic() + time_limit
    if checkpoint is not None and not isinstance(checkpoint, (str, os.PathLike)):
        raise StichError(f"the checkpoint is a file path, not {checkpoint!r}")
    # a deadline a card changes what a bot plays: a resume with another --card-time is another match (said only
    # where there is one, so that the checkpoints of untimed matches keep their identity)
    deadlines = [getattr(bot, "time_limit", None) for bot in bots]
    players = [[bot.name, getattr(bot, "samples", None), getattr(bot, "seed", None), getattr(bot, "plays_for", None)]
               + ([deadline] if deadline is not None else []) for bot, deadline in zip(bots, deadlines)]
    # the variant as the game reads it (each flag parsed, one at its default left out), so that the API's
    # {"weli_also_bells": True} and --variant weli_also_bells=true are one match; checkpoints written before named it
    # as given, and are this match's too
    given = variant if not isinstance(variant, Mapping) else dict(variant)
    read = dict(game.variant(variant or None).key()) or None
    identity = {"match": {"game": game.name, "bots": players, "seed": seed, "contract": contract,
                          "declarer": declarer, "variant": read, "rotate": rotate}
                | ({"pot": pot} if pot is not None else {})}
    # a sampling bot at the match's sample count was named 'sampling:N' before it was named 'sampling': a checkpoint
    # written then is this match's too
    renamed = [[f"sampling:{player[1]}", *player[1:]] if player[0] == "sampling" and player[1] is not None else player
               for player in players]
    aliases: list[dict[str, Any]] = []
    for named in (players, renamed):
        for flags in (read, given):
            alias = identity | {"match": identity["match"] | {"bots": named, "variant": flags}}
            if alias != identity and alias not in aliases:
                aliases.append(alias)
    journal = Journal(checkpoint, identity, holder="stich match", aliases=aliases) if checkpoint is not None else None
    setup = MatchSetup.of(bots, contract, declarer, variant)
    kept: dict[int, list[PlayedDeal]] = {}
    build = engine_build()
    built_by: dict[int, str] = {}  # each board's engine build
    try:
        if journal is not None:
            for span, document in journal.done():
                try:
                    kept[span.first] = [PlayedDeal.from_dict(deal) for deal in document["deals"]]
                except (KeyError, TypeError, ValueError):
                    raise StichError(f"{journal.path}: a line of this checkpoint holds no played deals") from None
                built_by[span.first] = str(document.get("engine", UNKNOWN_BUILD))
        for board in sorted(b for b in kept if b <= boards):  # a longer match's checkpoint: only the boards asked
            played.extend(kept[board])

        def builds() -> dict[str, int]:
            """The boards played so far by each build, this one first."""
            counts: dict[str, int] = {}
            for board in {deal.board for deal in played}:
                label = built_by.get(board, build)
                counts[label] = counts.get(label, 0) + 1
            return dict(sorted(counts.items(), key=lambda item: item[0] != build))

        resumed = resumed_builds_text(builds()) if any(board not in kept for board in range(1, boards + 1)) else None
        if resumed is not None and notice is not None:  # boards are left for this build to play
            notice(resumed)

        deal_board = functools.partial(play_board, game=game.name, bots=bots, seed=seed, contract=contract,
                                       declarer=declarer, variant=variant, pot=pot, rotations=rotations)
        stopped: list[str] = []

        def to_play() -> Iterator[int]:
            """The boards not yet played, until the time limit (whole boards only, so a rotated match stays
            paired; a board already started is finished)."""
            for board in range(1, boards + 1):
                if board in kept:
                    continue
                if deadline is not None and time.monotonic() >= deadline and played:
                    stopped.append("time limit")
                    return
                yield board

        reported = [-math.inf]  # when progress was last called

        def report(now: bool = False) -> None:
            if progress is not None and (now or time.monotonic() - reported[0] >= PROGRESS_SECONDS):
                progress(summarise(game.name, seed, boards, rotate, played, "interrupt", pot, setup, builds()), total)
                reported[0] = time.monotonic()

        def keep(board: int, deals: list[PlayedDeal]) -> None:
            if journal is not None:
                journal.append(Span(board, 1), {"deals": [deal.as_dict() for deal in deals], "engine": build})

        def place(deal: PlayedDeal) -> None:  # in board order, whatever order boards are played or resumed in
            bisect.insort(played, deal, key=lambda d: (d.board, d.rotation))

        def finished(board: int, deals: list[PlayedDeal]) -> None:  # a board from the pool, all its deals at once
            for deal in deals:
                place(deal)
            keep(board, deals)
            report()

        def dealt(deal: PlayedDeal) -> None:  # a deal played in this process, said as soon as it is played
            place(deal)
            report()

        try:
            if workers == 1:
                for board in to_play():
                    keep(board, deal_board(board, on_deal=dealt))
            else:  # whole boards on the pool's workers, each searching on one thread
                try:
                    pickle.dumps(deal_board)
                except Exception as error:
                    raise StichError(f"a match on several processes sends its bots to them, and these do not pickle "
                                     f"({type(error).__name__}: {error}): give workers=1") from None
                run_pool(to_play(), deal_board, (), finished, workers, in_flight=1)
        except KeyboardInterrupt:  # the match so far is the caller's to report: with every deal played
            report(now=True)
            raise
    finally:
        if journal is not None:
            journal.close()
    return summarise(game.name, seed, boards, rotate, played, stopped[0] if stopped else None, pot, setup, builds())


def summarise(game: str, seed: int, boards: int, rotate: bool, played: Sequence[PlayedDeal],
              stopped: str | None = None, pot: int | None = None, setup: MatchSetup | None = None,
              engine_builds: Mapping[str, int] | None = None) -> MatchResult:
    """Means and intervals of a match's played deals, one value a board: a board's rotations are the same cards and
    a deal's seats share its zero-sum payments, so counting either as independent would make the intervals too
    narrow. A board cut short in its rotations (an interrupt) stays in ``deals`` but is not counted: its bots did
    not all hold the same hands."""
    by_board: dict[int, list[PlayedDeal]] = {}
    for deal in played:
        by_board.setdefault(deal.board, []).append(deal)
    whole = [deals for deals in by_board.values() if len(deals) == (len(deals[0].bots) if rotate else 1)]
    names = list(dict.fromkeys(name for deals in whole for deal in deals for name in deal.bots))
    per_bot: dict[str, list[float]] = {name: [] for name in names}
    seats = dict.fromkeys(names, 0)
    declaring: list[float] = []
    gaps: list[float] = []
    for deals in whole:
        for name in names:  # the bot's mean payment per seat it held on this board
            held = [payment for deal in deals for bot, payment in zip(deal.bots, deal.payments) if bot == name]
            if held:
                per_bot[name].append(sum(held) / len(held))
                seats[name] += len(held)
        declaring.append(sum(sum(deal.payments[s - 1] for s in deal.declaring_side) for deal in deals) / len(deals))
        if len(names) == 2:
            gaps.append(sum(_gap(deal, *names) for deal in deals) / len(deals))
    # one bot in every seat: its mean is each deal's payments over the seats, 0 by construction where the deals are
    # zero-sum; with a pot they are not (the pot takes and pays), and the mean has an interval like any other
    zero_sum = all(sum(deal.payments) == 0 for deal in played)
    bots = {name: Mean.of(values, interval=len(names) > 1 or not zero_sum) for name, values in per_bot.items()}
    difference = (names[0], names[1], Mean.of(gaps)) if len(names) == 2 else None
    return MatchResult(game, seed, boards, rotate, tuple(played), bots, Mean.of(declaring), difference, stopped,
                       seats, sum(len(deals) for deals in whole), pot, setup, dict(engine_builds or {}))


def _gap(deal: PlayedDeal, first: str, second: str) -> float:
    """The mean payment of ``first``'s seats in ``deal`` minus the mean of ``second``'s."""
    a = [payment for bot, payment in zip(deal.bots, deal.payments) if bot == first]
    b = [payment for bot, payment in zip(deal.bots, deal.payments) if bot == second]
    return sum(a) / len(a) - sum(b) / len(b)
