"""Matches: seeded deals played to the end by bots, scored as the table would score them.

Each deal is board ``k`` of the match's seed (:func:`solver.generate.random_record`, so a match of 20 boards is a
match of 10 plus 10 more). With ``rotate`` every deal is played once per seat with the bots moved round the table,
so each bot holds every hand of the deal once: the luck of the cards cancels, and the difference between two bots is
measured on the same cards (paired), which is what makes a small match tell bots apart. A played deal is settled by
:func:`solver.scoring.score_deal`: each seat's payment in game units (in chips, with the pot, from zero, in a game
paid from one: Kratzen).

The board is the unit of the statistics: its rotations are the same cards (identical bots play them card for card
the same) and the seats of one deal share its payments (zero-sum but for Kratzen's pot), so neither a rotation nor
a seat is an independent observation. Each mean is over the boards played in all their rotations, one value a board
(the mean over its deals), and its 95% interval uses Student's t for the boards' count.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import io
import math
import multiprocessing
import os
import pickle
import sys
import threading
import time
import traceback
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence, SupportsIndex, cast

from .analysis import SCHEMA
from .cards import Card
from .bots import WHAT_A_BOT_IS, Bot, SamplingBot, bot_source, is_bot, is_stich_bot
from .checkpoint import Journal, Span, SpanSet, checkpoint_note, other_jobs_note
from .diagram import card_names
from .errors import StichError, check_callback, integral, is_whole_number, listed, quoted, shown_name
from .games import get_game
from .games.base import Game, own_measure
from .games.outcome import JSON_PLACES, POT_BY_FLAG, mean_in_words, role_text, side_text, signed, signed_mean
from .position import Position, position_from_record
from .generate import DEFAULT_SEED, random_record
from .intervals import t_quantile_95
from .html_tables import html_lines, html_table, html_titled_table
from .sampling import ALL_ALIKE, ReportTable, interval_note, table_text
from .search.boundary import check_time_limit
from .scoring import check_scoring_inputs, read_pot, score_deal
from .variant import Variant
from .workers import local_workers, run_pool, warn_caller


#: The note of a mean fixed by construction (one bot in every seat of zero-sum deals), which has no interval.
BY_CONSTRUCTION = "0 by construction"
#: The note of a mean taken without an interval (``Mean.of(..., interval=False)``) that does not print as 0
FIXED_MEAN = "fixed: no interval"
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
        """Why there is no interval, as the document writes it (the words of analyse and advice: "no sample", "one
        sample", "all samples alike", a board being the match's sample; or a fixed mean's :meth:`_fixed_note`), or
        None where there is one."""
        return self._fixed_note() if self.fixed else interval_note(self.count, self.low, self.high)

    def _fixed_note(self) -> str:
        """A fixed mean's note: "0 by construction" where it prints as 0 (a bot in every seat of zero-sum deals),
        else "fixed: no interval" (a mean taken without an interval by hand need not be 0)."""
        return BY_CONSTRUCTION if signed_mean(self.mean) == signed_mean(0.0) else FIXED_MEAN

    def __str__(self) -> str:
        """The mean as a match's report writes it, ``+2.30 (95%: +1.23 to +3.37)`` or ``+0.50 (all 2 boards alike:
        no interval)``; where it has no interval for another reason, which the report says once under its table
        (:data:`ONE_BOARD`, or that a bot holding every seat has 0 by construction), a mean read alone says why in
        brackets: ``+1.00 (one board: no interval)``, ``0.00 (0 by construction)``, another fixed mean ``+2.50
        (fixed: no interval)``; ``no board``."""
        if not self.count:
            return "no board"
        if self.fixed:
            return f"{signed_mean(self.mean)} ({self._fixed_note()})"
        if self.count == 1:
            return f"{signed_mean(self.mean)} (one board: no interval)"
        return mean_text(self)

    def __repr__(self) -> str:
        return f"<Mean {self}{'' if self.note else f' over {self.count:,} boards'}>"

    def as_dict(self) -> dict[str, Any]:
        """``interval`` is two numbers, or two nulls with ``interval_note`` saying why (never ``[m, m]``)."""
        def number(x: float) -> float | None:
            return None if math.isnan(x) else round(x, JSON_PLACES)
        note = self.note
        interval = [None, None] if note else [number(self.low), number(self.high)]
        return {"mean": number(self.mean), "interval": interval, "interval_note": note, "count": self.count}


@dataclass(frozen=True)
class PlayedDeal:
    """One deal played once: the board, who sat where, the contract, the cards in playing order and each seat's
    payment (1-based seat order). ``samples``, in a match whose sampling bot has a deadline a card (``time_limit``,
    ``--card-time``: its samples then depend on the machine's speed), is each card's record of the samples its bot
    decided on (``SamplingBot.last_samples``: 0 for a card that was the only legal one; None for a bot that does not
    sample); None, and not written, in a match without one, whose sampling bots take every sample asked. ``game``,
    the game's name (not written: the match's document says it), lets the views write the cards, contract and roles
    as the match report and the hand diagram do; without it they keep the tokens."""

    board: int
    rotation: int
    bots: tuple[str, ...]
    contract: str
    declarer: int
    declaring_side: tuple[int, ...]
    play: tuple[str, ...]
    payments: tuple[int, ...]
    samples: tuple[int | None, ...] | None = None
    game: str = field(default="", compare=False)

    @classmethod
    def from_dict(cls, document: Mapping[str, Any], game: str = "") -> "PlayedDeal":
        """A deal as :meth:`as_dict` wrote it (a checkpoint line), each field of its own type: a StichError naming the
        first that is not (rather than a string for ``bots`` split into its characters, a ``3.7`` board cut to 3), which
        the checkpoint's reader reports at the line. ``game``: the match's, which the line does not repeat."""
        if not isinstance(document, Mapping):
            raise StichError(f"a played deal is a JSON object, not {quoted(document)}")

        def field_of(name: str, kind: str) -> Any:
            if name not in document:
                raise StichError(f"a played deal has no {name!r}")
            value = document[name]
            if kind == "int":
                ok = is_whole_number(value)
            elif kind == "counts":  # each card's samples, or null for a bot that does not sample
                ok = isinstance(value, list) and len(value) == len(document.get("play") or ()) and all(
                    entry is None or (is_whole_number(entry) and entry >= 0) for entry in value)
            elif kind == "str":
                ok = isinstance(value, str)
            else:  # a list of ints or of strings
                item = is_whole_number if kind == "ints" else (lambda entry: isinstance(entry, str))
                ok = isinstance(value, list) and all(item(entry) for entry in value)
            if not ok:
                raise StichError(f"a played deal's {name!r} is {_FIELD_KINDS[kind]}, not {quoted(value)}")
            return tuple(value) if isinstance(value, list) else value

        return cls(field_of("board", "int"), field_of("rotation", "int"), field_of("bots", "strs"),
                   field_of("contract", "str"), field_of("declarer", "int"), field_of("declaring_side", "ints"),
                   field_of("play", "strs"), field_of("payments", "ints"),
                   field_of("samples", "counts") if "samples" in document else None, game)

    def heading(self) -> str:
        """``board 1, rotation 0: Rufer G, declarer seat 1, side 1+3``, ``...: Trump E, attacker seat 1``: the
        declarer in the game's word, as the match report names him; without a ``game`` (a deal read back alone) the
        same words with ``declarer`` and the contract's token (``Trump E, declarer seat 1``)."""
        game = get_game(self.game) if self.game else None
        contract = game.contract_in_words(self.contract) if game else self.contract
        side = f", side {side_text(self.declaring_side)}" if len(self.declaring_side) > 1 else ""
        return (f"board {self.board}, rotation {self.rotation}: {contract}, "
                f"{role_text(game.declarer_title if game else 'declarer', [self.declarer])}{side}")

    def tricks(self) -> list[tuple[str, ...]]:
        """The cards in playing order (their tokens), a trick each (a trick is a card a seat: a seat a bot)."""
        size = len(self.bots) or 1
        return [self.play[start:start + size] for start in range(0, len(self.play), size)]

    def __repr__(self) -> str:
        """One line: which deal, the contract and every seat's payment."""
        return f"<PlayedDeal {self.heading()}; payments {' '.join(signed(paid) for paid in self.payments)}>"

    def _repr_html_(self) -> str:
        """What Jupyter shows of a deal: the seats with their bots and payments as a table, then the tricks."""
        seats = html_table(("seat", "bot", "payment"),
                           [(seat, bot, signed(paid)) for seat, (bot, paid) in enumerate(zip(self.bots, self.payments),
                                                                                         1)], right={0, 2})
        tricks = html_table(("trick", "cards in playing order"),
                            [(number, card_names(self.game, cards)) for number, cards in enumerate(self.tricks(), 1)],
                            right={0})
        return f"<div>{html_lines([self.heading()], bold=True)}{seats}{tricks}</div>"

    def as_dict(self) -> dict[str, Any]:
        return {"board": self.board, "rotation": self.rotation, "bots": list(self.bots), "contract": self.contract,
                "declarer": self.declarer, "declaring_side": list(self.declaring_side), "play": list(self.play),
                "payments": list(self.payments)} | ({"samples": list(self.samples)} if self.samples is not None else {})


#: What each kind of a played deal's fields is, as a message says it.
_FIELD_KINDS = {"int": "a whole number", "str": "a string", "ints": "a list of whole numbers",
                "strs": "a list of strings",
                "counts": "a list of whole numbers from 0 or nulls, one a card played"}


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
    #: the bots' names in seat order, seat 1 first, as the first rotation seats them (empty: not said)
    seating: tuple[str, ...] = ()

    @classmethod
    def of(cls, game: type[Game], bots: Sequence[Bot], contract: str | None, declarer: int,
           variant: Mapping[str, object] | str | None) -> "MatchSetup":
        """``variant`` as :func:`play_match` takes it: flags, or a ``[Variant]`` tag's ``flag=value, ...`` text.
        The contract and each flag given are spelt as ``game`` reads them (``-c "solo  h"``: ``Solo H``;
        ``weli_also_bells=YES``: ``true``), so that one match is said one way however it was typed."""
        given = Variant.parse_pairs(variant) if isinstance(variant, str) else dict(variant or {})
        flags = tuple(sorted(game.variant(given or None).spelt(given).items()))
        said = str(game.parse_contract(contract)) if contract is not None else None
        players: dict[str, tuple[tuple[str, Any], ...]] = {}
        for bot in bots:
            players.setdefault(bot.name, (("plays_for", getattr(bot, "plays_for", None)),
                                          ("samples", getattr(bot, "samples", None)),
                                          ("card_time", card_time(bot))))
        return cls(said, declarer, flags, tuple(players.items()), tuple(bot.name for bot in bots))

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
    construction.

    ``deals`` holds every deal played where the match kept them (:func:`play_match`'s ``keep_deals``, the API's
    default), else none: ``deals_played`` counts them either way. The report reads the table's seats from
    ``table_seats`` (off ``first_deal``, the first in board order, where that is 0) and the declarer from
    ``first_deal``."""

    game: str
    seed: int
    boards: int
    rotate: bool
    deals: tuple[PlayedDeal, ...]
    bots: dict[str, Mean] = field(default_factory=dict, hash=False)
    declaring_side: Mean = Mean(math.nan, math.nan, math.nan, 0)
    difference: tuple[str, str, Mean] | None = None
    stopped: str | None = None  # "time limit" or "interrupt" when the match ended early ("error": the match so far)
    seats: dict[str, int] = field(default_factory=dict, hash=False)
    deals_counted: int = 0
    pot: int | None = None  # every deal's pot, in a game paid from one
    setup: MatchSetup | None = None  # what else the match was played with (None: not said)
    engine_builds: dict[str, int] = field(default_factory=dict, hash=False)  # boards by engine build (two: mixed)
    deals_played: int = -1  # every deal played, kept or not (-1: as many as ``deals``)
    first_deal: PlayedDeal | None = None  # the first deal in board order (None: ``deals``'s first)
    #: the seats at the table, one bot each (0: not said; then read off ``first_deal``): how many deals a rotated
    #: board is, known before any deal is played
    table_seats: int = 0
    #: how many cards were decided on each number of samples (a timed sampling bot's ``samples``, 0s left out: a
    #: card that was the only legal one), every deal played counted, kept or not; empty where no bot was timed
    card_samples: dict[int, int] = field(default_factory=dict, hash=False)
    #: the boards some deal of which was played, as runs ``(first, last)`` in board order: on several workers a
    #: match stopped by an error has played the boards in flight past the one that failed, and its report names them
    #: (not in :meth:`summary_dict`: the JSON's deals, every one played, carry their boards)
    board_runs: tuple[tuple[int, int], ...] = ()
    #: the boards counted on which every deal split each bot's seats between the sides, their payments cancelling
    #: (:func:`cancels`): boards that count 0 for every bot, whatever it played
    split_boards: int = 0

    def __post_init__(self) -> None:
        if self.deals_played < 0:
            object.__setattr__(self, "deals_played", len(self.deals))
        if self.first_deal is None and self.deals:
            object.__setattr__(self, "first_deal", self.deals[0])

    def as_dict(self) -> dict[str, Any]:
        """The document ``stich match --json`` writes, in the order it writes it (the deals as they are played), where
        the match kept its deals (``keep_deals``, the API's default); without them ``deals`` is empty, and the command,
        which keeps none, writes each deal as it comes instead (its JSON stream)."""
        return {**self.heading_dict(), "deals": [deal.as_dict() for deal in self.deals], **self.summary_dict()}

    def heading_dict(self) -> dict[str, Any]:
        """The document's keys known before the first deal is played (what a stream of it writes first)."""
        return match_heading(self.game, self.seed, self.boards, self.rotate, self.pot, self.setup)

    def summary_dict(self) -> dict[str, Any]:
        """The document's keys that sum the deals up (what a stream of it writes after them)."""
        setup = self.setup or MatchSetup()
        document: dict[str, Any] = {
            "stopped": self.stopped,
            "bots": {name: {**mean.as_dict(), "seats": self.seats[name], **self._said_settings(setup, name)}
                     for name, mean in self.bots.items()},
            "declaring_side": {**self.declaring_side.as_dict(), "deals": self.deals_counted},
            "split_boards": self.split_boards}
        if self.engine_builds:
            document["engine_builds"] = dict(self.engine_builds)
        if self.difference is not None:
            first, second, mean = self.difference
            document["difference"] = {"first": first, "second": second, **mean.as_dict(),
                                      "deals": self.deals_counted, "paired": self.rotate}
        return document

    def _said_settings(self, setup: MatchSetup, name: str) -> dict[str, Any]:
        """A bot's settings as the document says them: ``plays_for`` by the name ``--plays-for`` takes in this game
        (Kratzen's ``tricks``, which the bots and a checkpoint's identity call ``points``, the game's own measure)."""
        settings = setup.player(name)
        if settings["plays_for"] == "points":
            settings["plays_for"] = own_measure(get_game(self.game))
        return settings

    def __repr__(self) -> str:
        """One line: the game, the boards and deals played, each bot's mean payment."""
        means = ", ".join(f"{name} {signed_mean(mean.mean) if mean.count else '-'}" for name, mean in self.bots.items())
        stopped = f", stopped by the {self.stopped}" if self.stopped else ""
        return (f"<MatchResult {self.game}, {self.boards:,} board{'' if self.boards == 1 else 's'} "
                f"({self.deals_played:,} deal{'' if self.deals_played == 1 else 's'} played{stopped})"
                f"{': ' + means if means else ''}>")

    def __str__(self) -> str:
        """The report for people (``print(result)``), as ``stich match`` prints it (:func:`match_report`), with the
        pot-0 note among its lines, which the command says on stderr."""
        report = match_report(self)
        lines = [report.heading, report.setup, report.card_samples_line, report.pot_note]
        if report.table is not None:
            lines += table_text(report.table)
        lines += [report.fixed, report.side, report.difference, report.intervals, report.split, report.no_means,
                  report.stopped, report.mixed and f"note: {report.mixed}"]
        return "\n".join(line for line in lines if line is not None)

    def _repr_html_(self) -> str:
        """The same for Jupyter, the bots' means as a table."""
        report = match_report(self)
        parts = [html_lines([report.heading], bold=True),
                 html_lines(line for line in (report.setup, report.card_samples_line, report.pot_note)
                            if line is not None)]
        if report.table is not None:
            title, columns, rows = report.table
            parts.append(html_titled_table(title, columns, rows, right={1, 2}))
        parts.append(html_lines(line for line in (report.fixed, report.side, report.difference, report.intervals,
                                                  report.split, report.no_means, report.stopped) if line is not None))
        parts.append(html_lines([f"note: {report.mixed}"] if report.mixed else [], small=True))
        return f"<div>{''.join(parts)}</div>"


def match_heading(game: str, seed: int, boards: int, rotate: bool, pot: int | None,
                  setup: MatchSetup | None) -> dict[str, Any]:
    """The keys of a match's JSON document that its arguments settle: ``stich match --json`` writes them before
    the first deal is played, the deals as they are played, and the summary last."""
    setup = setup or MatchSetup()
    return {"schema": SCHEMA, "command": "match", "game": game, "seed": seed, "boards": boards, "rotate": rotate,
            "pot": pot, "contract": setup.contract, "declarer": setup.declarer, "variant": dict(setup.variant) or None,
            "seating": list(setup.seating) or None}


#: What a match report of one board says once under its means, none of which has an interval.
ONE_BOARD = "one board played: no interval"


def mean_text(mean: Mean, *, compact: bool = False) -> str:
    """``+2.30 (95%: +1.23 to +3.37)``, or ``compact`` in a table cell ``+2.30 ± 1.07`` (:func:`in_table_cell`);
    where every board gave the same value, that instead of an interval of no width (a certainty the boards do not
    show), as analyse and advice say it."""
    alike = f"all {mean.count:,} boards alike: no interval" if mean.note == ALL_ALIKE else None
    return mean_in_words(mean.mean, mean.low, mean.high, all_alike=alike, compact=compact)


def setup_text(result: MatchResult) -> str | None:
    """The line that says what the match was played with besides its seed and boards: each bot's settings, the
    contract and declarer, the variant (None where the result does not say)."""
    setup = result.setup
    if setup is None:
        return None
    game = get_game(result.game)
    # a bot's "points" are a seat's own tricks in a game without card points (Kratzen's -o tricks)
    # and where every seat plays for itself (Kratzen), only the attacker plays for the score, the others for their
    # own tricks (solver.bots.plays_for_the_score)
    measures = {"points": "the points" if "points" in game.objectives else "its own tricks",
                "score": f"the score as {game.declarer_title}, else its own tricks" if game.has_pot else "the score"}
    settings = {}
    for name, _ in setup.players:
        player = setup.player(name)
        samples = player["samples"]
        said = ([f"{samples:,} sample{'' if samples == 1 else 's'} a card"] if samples else []) \
            + ([f"plays for {measures.get(player['plays_for'], player['plays_for'])}"] if player["plays_for"] else []) \
            + ([f"deadline {player['card_time']:g} s a card (its first sample always finishes)"]
               if player["card_time"] is not None else [])
        settings[name] = f"{name} ({', '.join(said)})" if said else name
    contract = f"contract {game.contract_in_words(setup.contract)}" if setup.contract else "each board's own contract"
    variant = ", ".join(f"{flag}={value}" for flag, value in setup.variant) or "the game's defaults"
    title = game.declarer_title  # Kratzen's attacker
    return f"{seating_text(setup.seating, settings, result.rotate)}; {contract}, {title} {setup.declarer}; " \
        f"variant: {variant}"


def seating_text(seating: Sequence[str], settings: Mapping[str, str], rotate: bool) -> str:
    """``seats 1-4: cheater, random, random, random, each rotation one seat on``: where the bots sit, so that the
    report says which bot held the declarer's seat 1 (``--no-rotate``: on every board) and how a rotation moves them
    (seat 1's bot to seat 2, seat 4's to seat 1: every bot holds every seat once a board); each bot's ``settings``
    (its name with them) where it is first named. Where the seats are not said, ``bots: `` and the settings."""
    if not seating:
        return f"bots: {', '.join(settings.values())}"
    named = [settings.get(name, name) if name not in seating[:seat] else name for seat, name in enumerate(seating)]
    moved = ", each rotation one seat on" if rotate and len(seating) > 1 else ""
    return f"seats 1-{len(seating)}: {', '.join(named)}{moved}"


def match_rules_note(game: type[Game], setup: MatchSetup | None) -> str:
    """``; rules: must_undertrump=false``: the flags the match was played under where they are not the game's
    defaults, as every command's title ends with them (``Variant.note``), so that the heading says them as the
    other results' do; empty under the defaults or where the result does not say (its setup line says the flags as
    given)."""
    if setup is None or not setup.variant:
        return ""
    try:
        return game.variant(dict(setup.variant)).note()
    except StichError:  # flags a result made by hand gives that the game does not take: the setup line says them
        return ""


@dataclass(frozen=True)
class MatchReport:
    """The texts of a match's report, in ``stich match``'s order: the command prints each with its own wrapping,
    ``str(result)`` and Jupyter lay them out. None is a line this match does not have."""

    heading: str
    setup: str | None
    pot_note: str | None  # a pot of 0, where the game is paid from one
    table: ReportTable | None  # each bot's seats played and mean payment (None: no board played whole)
    fixed: str | None  # one bot holds every seat: 0 by construction
    side: str | None  # the declaring side's (the attacker's) mean
    difference: str | None
    intervals: str | None  # what the intervals are over, or that one board gives none
    no_means: str | None
    stopped: str | None
    mixed: str | None  # boards by more than one engine build (:func:`mixed_builds_text`)
    card_samples_line: str | None = None  # a timed bot's samples a card (:func:`card_samples_text`)
    split: str | None = None  # boards that count 0 for every bot (:func:`split_text`)


def match_report(result: MatchResult, boards: int | None = None) -> MatchReport:
    """The report of ``result``, a match of ``boards`` boards (None: as many as it was asked for, ``result.boards``;
    ``stich match`` gives its count). The intervals are over the boards, and the report says so, so that the seats
    played are not read as the sample size."""
    count = result.boards if boards is None else boards
    game = get_game(result.game)
    played = result.deals_played
    first_deal = result.first_deal
    # a match stopped before its first deal has no deal to count its seats off, but still its deals to play
    seats = result.table_seats or (len(first_deal.bots) if first_deal is not None else 1)
    rotations = seats if result.rotate else 1
    heading = (f"{result.game}: {count:,} board{'' if count == 1 else 's'} (seed {result.seed})"
               + (f", each {'to be ' if result.stopped else ''}played {rotations} times with the bots rotated"
                  if rotations > 1 else "") + (f"; pot {result.pot}" if result.pot is not None else "")
               + match_rules_note(game, result.setup))
    units = game.score_unit
    # a pot of 0 given on purpose (--pot 0) is noted without asking for a pot; one not given asks for --pot alone,
    # not for the [Pot] tag pot_zero_said names: a match has no record
    pot_note: str | None = None
    if game.has_pot and not result.pot:
        pot_note = (f"note: pot 0: every deal settles at 0 {units}, so the bots' payments say nothing"
                    + (f" ({POT_BY_FLAG})" if result.pot is None else ""))
    counted = result.declaring_side.count
    table: ReportTable | None = None
    fixed = side = difference = intervals = no_means = stopped = None
    if counted and first_deal is not None:  # a board counted: a deal played
        table = ("mean payment per seat and deal (± 95% intervals)",
                 ("bot", "seats played", f"mean payment ({units})"),
                 [(name, str(result.seats[name]), mean_text(mean, compact=True)) for name, mean in result.bots.items()])
        if len(result.bots) == 1 and next(iter(result.bots.values())).fixed:
            # a game paid from a pot is no zero-sum game between the seats: its mean is fixed only by a pot of 0
            why = "pot 0: every payment is 0" if game.has_pot else "zero-sum deals"
            fixed = f"{next(iter(result.bots))} holds every seat: 0 by construction ({why}), no interval"
        if game.has_pot:  # every seat for itself, paid in chips from and into the pot
            side = (f"{role_text(game.declarer_title, [first_deal.declarer])}: {mean_text(result.declaring_side)} "
                    f"{units} per deal, his own payment")
        else:
            side = (f"declaring side: {mean_text(result.declaring_side)} {units} per deal, its seats' payments "
                    "together")
        if result.difference is not None:
            first, second, gap = result.difference
            difference = (f"{first} - {second}: {mean_text(gap)} {units} per deal, "
                          + ("paired (the same cards)" if result.rotate
                             else "not paired (--no-rotate: each bot keeps its seat)"))
        intervals = (f"95% intervals over {counted} boards, one value a board"
                     + (" (its mean over the rotations)" if rotations > 1 else "")) if counted > 1 else ONE_BOARD
    else:
        no_means = "no board played in all its rotations: no means"
    if result.stopped:
        cut = played - result.deals_counted
        stopped = (f"stopped by the {result.stopped} after {played} of {count * rotations} deals"
                   f"{boards_played(result)}: the result so far"
                   + (f" (not counted: the {cut:,} deal{'' if cut == 1 else 's'} of a board cut short)" if cut else ""))
    return MatchReport(heading, setup_text(result), pot_note, table, fixed, side, difference, intervals, no_means,
                       stopped, mixed_builds_text(result.engine_builds), card_samples_text(result.card_samples),
                       split_text(result) if table is not None and not game.has_pot else None)


def split_text(result: MatchResult) -> str | None:
    """Why bots' means are 0 where the seating, not the play, made them so: a Zwanzigerrufen deal whose declarer's
    partner sits beside him puts seats across the table on opposite sides, so ``cheater,random,cheater,random`` gives
    each bot one seat of each side, paid alike and opposite, in every rotation. None where no board was so split."""
    split, counted = result.split_boards, result.declaring_side.count
    if not split:
        return None
    which = ("the one board" if counted == 1 else f"all {counted:,} boards") if split == counted else \
        f"{split:,} of the {counted:,} boards"
    names = list(result.bots)
    one_against = ",".join([names[0]] + [names[-1]] * (len(result.first_deal.bots) - 1 if result.first_deal else 1))
    return (f"note: on {which} every bot held seats of both sides in each deal, whose payments cancel: "
            f"{'they count' if split > 1 else 'it counts'} 0 for every bot, whatever it played; seated one against "
            f"the rest ({one_against}), the bots are compared on every board")


def boards_played(result: MatchResult) -> str:
    """Which boards a stopped match played, where they are not the first N (`` (boards 1-2 and 4; the others not
    played)``): on several workers the boards in flight are played to the end past the one whose bot failed, and
    "after 3 of 12 deals" beside "board 3 ... failed" read as boards 1 to 3. Empty where they are boards 1 to N (the
    count says them) or not known (a result made without its tally)."""
    runs = result.board_runs
    if not runs or (len(runs) == 1 and runs[0][0] == 1):
        return ""
    named = [str(first) if first == last else f"{first}-{last}" for first, last in runs]
    joined = listed(named)
    single = len(runs) == 1 and runs[0][0] == runs[0][1]
    return f" (board{'' if single else 's'} {joined}; the others not played)"


def card_samples_text(counts: Mapping[int, int]) -> str | None:
    """``samples a card: median 120, 40 to 400 (96 cards the bots sampled)``: what a sampling bot with a deadline a card
    (``--card-time``) managed, summed up for the text report as the JSON gives it card by card (None: no such
    card). The median is the lower middle one of an even count: a number of samples some card had."""
    if not counts:
        return None
    total = sum(counts.values())
    seen = 0
    for samples in sorted(counts):
        seen += counts[samples]
        if 2 * seen >= total:
            break
    return (f"samples a card: median {samples:,}, {min(counts):,} to {max(counts):,} "
            f"({total:,} card{'' if total == 1 else 's'} the bots sampled)")


class BotError(StichError):
    """A bot failed a deal of a match: its ``choose`` raised, or it chose a card that cannot be played there. The
    message names the bot, its seat, the board (and rotation) and the deal's card with its trick, and the bot's
    exception's type and message, where a bot's author looks for it. ``bot_exception`` is the exception the bot
    raised (None for an illegal card), and the ``__cause__`` too: in this process with its traceback; from a match's
    worker process without one (the exception as it came back pickled; None where the parent cannot rebuild it),
    since what the pool attached there was the worker's traceback as text, which is ``worker_traceback`` (None in
    this process; the bot's own frames where its code raised, as :meth:`bot_traceback`). ``result`` is the match so far
    (the boards played whole before the failure, ``stopped`` "error"), set by :func:`play_match`, so a bot that
    fails on board 40 does not lose the 39 before it (a checkpoint keeps them too)."""

    result: "MatchResult | None" = None
    bot_exception: "BaseException | None" = None
    worker_traceback: str | None = None
    bot_raised: bool = False  # the bot's own code raised (not a card refused): its traceback is its author's

    def bot_traceback(self) -> str | None:
        """The traceback of the bot's own code where it raised, for its author (``stich match`` prints it): from
        the bot's ``choose`` down, without the match's frames; as the worker wrote it on several workers; None for
        a card refused, where the bot's code raised nothing."""
        if not self.bot_raised:
            return None
        raised = self.bot_exception
        if raised is not None and raised.__traceback__ is not None:
            return "".join(traceback.format_exception(type(raised), raised, raised.__traceback__.tb_next))
        return self.worker_traceback

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled back from a worker with the bot's exception pickled on its own, so that a class the parent cannot
        rebuild (one that takes other arguments than it keeps, or lives in a module only the worker imported) costs
        only ``bot_exception`` (None), never the unpickling of the error itself, which the pool would take for a dead
        worker: the message says the exception's type and text anyway."""
        state = dict(self.__dict__)
        try:
            state["bot_exception"] = pickle.dumps(state.get("bot_exception"))
        except Exception:  # noqa: BLE001 - any failure of the bot's own class to pickle: left out
            state["bot_exception"] = None
        return type(self), self.args, state

    def __setstate__(self, state: dict[str, Any] | None) -> None:
        state = dict(state or {})
        pickled = state.pop("bot_exception", None)
        self.__dict__.update(state)
        try:
            self.bot_exception = pickle.loads(pickled) if pickled is not None else None
        except Exception:  # noqa: BLE001 - the bot's class cannot be rebuilt here (see __reduce__)
            self.bot_exception = None

    def without_remote_traceback(self) -> "BotError":
        """This error as a match's worker sent it: its cause the bot's exception, with no traceback (the worker's
        traceback, as text, was what the pool made the cause; it is kept as ``worker_traceback`` for the bot's
        author, who looks there for the file and line)."""
        if self.worker_traceback is None and self.__cause__ is not None and self.__cause__ is not self.bot_exception:
            self.worker_traceback = str(self.__cause__)
        if self.bot_exception is not None:  # pickled with its frames where tblib's support is installed (by Dask)
            self.bot_exception.__traceback__ = None
        self.__cause__ = self.bot_exception
        self.__suppress_context__ = True
        return self


def play_out(position: Position, bots: Sequence[Bot], where: str = "",
             samples: list[int | None] | None = None) -> Position:
    """The position at the end of the deal, each card chosen by the bot of the seat to move (``bots[seat - 1]``).
    A bot that raises (anything but KeyboardInterrupt: SystemExit too) or chooses a card that cannot be played is a
    :class:`BotError`, located by ``where`` (``board 3, rotation 1, ``: the match's words) and the card.
    ``samples`` (a list) is given each card's samples its bot decided on (a sampling bot's ``last_samples``; None
    for another bot). What a bot prints goes where the caller's stdout goes (``stich match`` sends it to stderr; a
    match's worker process, :func:`play_board_in_worker`, too)."""
    while not position.state.is_over:
        seat = position.state.to_move
        bot = bots[seat]
        try:
            card = bot.choose(position)
        except KeyboardInterrupt as interrupt:  # Ctrl-C at a bot too slow: its traceback says where it was
            choosing = f"{_card_at(position, where)}: bot {bot.name} at seat {seat + 1} was choosing"
            interrupt.add_note(choosing)
            setattr(interrupt, STOPPED_WHERE, choosing)
            raise
        # the bot's own failure, said where it happened (Ctrl-C is no failure): SystemExit and the other
        # BaseExceptions too, which would otherwise end the command (or a worker's job) with no word of the bot
        except BaseException as error:  # noqa: BLE001
            failed = BotError(f"{_card_at(position, where)}: bot {bot.name} at seat {seat + 1} failed: "
                              f"{type(error).__name__}: {error}")
            failed.bot_exception = error
            failed.bot_raised = not is_stich_bot(bot)  # a bot author's code: its traceback is his to read
            raise failed from error
        if not isinstance(card, (str, Card)) and not is_whole_number(integral(card)):
            raise BotError(f"{_card_at(position, where)}: bot {bot.name} at seat {seat + 1} returned "
                           f"{_no_card_text(card)}, which is no card ({WHAT_CHOOSE_RETURNS})")
        try:  # a pack index, a Card or a token, as Position.play takes them
            position = position.play(card)
        except StichError as error:
            index = integral(card)  # a numpy integer names its card too
            named = position.pack[index].name if isinstance(index, int) and not isinstance(index, bool) and \
                0 <= index < len(position.pack) else card
            raise BotError(f"{_card_at(position, where)}: bot {bot.name} at seat {seat + 1} chose {named!s}, "
                           f"which is not a legal card here ({error})") from None
        if samples is not None:
            samples.append(bot.last_samples if isinstance(bot, SamplingBot) else None)
    return position


#: What a bot's ``choose`` must return, said where it returned something else.
WHAT_CHOOSE_RETURNS = "choose returns one card: a pack index, a Card or a card token"


def _no_card_text(value: object) -> str:
    """A bot's answer that is no card, as its message names it: a short one by its ``repr`` and type (``3.5 (a
    float)``, ``None``), a long one, as a list of every legal card is, by its type alone (``a list of 6 items``), so
    that the line stays one that reads."""
    if value is None:
        return "None"
    shown = repr(value)
    kind = type(value).__name__
    if len(shown) <= 60:
        return f"{shown} (a {kind})"
    try:
        return f"a {kind} of {len(value):,} items"  # type: ignore[arg-type]
    except TypeError:
        return f"a {kind}"


#: The attribute of a KeyboardInterrupt that stopped a match, saying where as the interrupt's note says it: the board,
#: card, bot and seat of the bot it stopped choosing (:func:`play_out`); on several workers the boards in play there.
STOPPED_WHERE = "stich_stopped_where"


def in_play_text(boards: Sequence[int]) -> str:
    """``boards 3 and 4 were in play on the workers: left out, unfinished``: where an interrupt stopped a match on
    several workers. The workers ignore Ctrl-C and are stopped by this process, so the bot a worker was waiting for is
    never told to it (on one worker the interrupt comes at the bot's ``choose`` itself, :func:`play_out`, which names
    it)."""
    named = [str(board) for board in boards]
    joined = listed(named)
    boards_were = f"board {joined} was" if len(named) == 1 else f"boards {joined} were"
    return f"{boards_were} in play on the workers: left out, unfinished"


def _card_at(position: Position, where: str) -> str:
    """``board 3, rotation 1, card 6 (trick 2)``: the card about to be played, after ``where``."""
    return f"{where}card {len(position.played) + 1} (trick {len(position.history) + 1})"


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
    # each card's samples are recorded where a sampling bot has a deadline a card: there they vary with the machine
    timed = any(isinstance(bot, SamplingBot) and bot.time_limit is not None for bot in bots)
    deals = []
    for rotation in range(rotations):
        seated = [bots[(seat - rotation) % seats] for seat in range(seats)]
        samples: list[int | None] | None = [] if timed else None
        end = play_out(start, seated, f"board {board}, " + (f"rotation {rotation}, " if rotations > 1 else ""),
                       samples)
        settlement = score_deal(end)
        rules = end.rules
        deal = PlayedDeal(board, rotation, tuple(bot.name for bot in seated), rules.contract.text, rules.declarer + 1,
                          tuple(sorted(s + 1 for s in rules.declaring_side)),
                          tuple(end.pack[card].name for card in end.played), tuple(settlement.payments),
                          None if samples is None else tuple(samples), game_class.name)
        deals.append(deal)
        if on_deal is not None:
            on_deal(deal)
    return deals


def play_board_in_worker(board: int, **settings: Any) -> list[PlayedDeal]:
    """:func:`play_board` in a match's worker process. A :class:`BotError` goes back to the parent without its cause
    and context (the bot's exception, which travels in a pickle of its own: ``BotError.__reduce__``): pickled as
    tblib's support does it (which Dask installs in every process that imports it), they would go along, and a class
    the parent cannot rebuild would break the error's unpickling, which the pool takes for a dead worker. Their
    traceback, the bot's frames, goes back as text: ``worker_traceback``."""
    _bots_print_to_stderr()
    try:
        return play_board(board, **settings)
    except BotError as error:
        # the bot's frames, for its author: its own code's where it raised, else the error's
        error.worker_traceback = error.bot_traceback() or "".join(traceback.format_exception(error))
        error.__cause__ = error.__context__ = None
        raise
    finally:
        sys.stdout.flush()  # a last line a bot printed without its newline: the worker may end without a flush


class _WholeLines(io.BufferedIOBase):
    """The bytes under a worker's stdout and stderr: written to file descriptor ``fd`` a whole line at a time, each
    run of whole lines in one ``os.write``, so that the lines two workers print at once do not mix within a line (a
    write of up to ``PIPE_BUF`` bytes to a pipe is atomic; the interpreter's own streams write a ``print``'s pieces
    one by one under ``PYTHONUNBUFFERED``, and ``sys.__stdout__``'s block buffer at 8 KB boundaries, or never where
    the worker ends without flushing it). The tail of a line waits for its newline or :meth:`flush`. A byte stream,
    so that the text stream over it has a ``buffer`` a bot may write bytes to, and ``reconfigure``."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd
        self.pending = bytearray()
        self.lock = threading.Lock()  # a bot's threads: one append-and-split at a time, its lines in order

    @property
    def name(self) -> int:
        return self.fd  # as a file opened from its descriptor is named

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return os.isatty(self.fd)

    def write(self, data: Any) -> int:
        chunk = memoryview(data).cast("B")
        with self.lock:
            start = len(self.pending)
            self.pending += chunk
            newline = self.pending.rfind(b"\n", start)  # only the new chunk: a long line costs no rescans
            if newline >= 0:
                self._write_out(newline + 1)
        return chunk.nbytes

    def flush(self) -> None:
        with self.lock:
            self._write_out(len(self.pending))

    def _write_out(self, end: int) -> None:
        """Writes ``pending``'s first ``end`` bytes, all of them, and keeps the rest."""
        written = 0
        with memoryview(self.pending) as view:
            while written < end:
                written += os.write(self.fd, view[written:end])
        del self.pending[:end]


def _bots_print_to_stderr() -> None:
    """In a match's worker process, once: what a bot prints is no data, so stdout is stderr there, for ``print``,
    ``sys.__stdout__``, their ``buffer`` and file descriptor 1 alike (the worker's stdout is the parent's, where
    ``--json`` goes), and all are written a whole line at a time (:class:`_WholeLines`)."""
    if multiprocessing.parent_process() is None or isinstance(getattr(sys.stdout, "buffer", None), _WholeLines):
        return  # the main process, or done
    encoding = getattr(sys.__stderr__, "encoding", None) or "utf-8"
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        if stream is not None:
            stream.flush()
    os.dup2(2, 1)
    whole = io.TextIOWrapper(_WholeLines(2), encoding=encoding, errors="backslashreplace", write_through=True)
    for name in ("stdout", "stderr", "__stdout__", "__stderr__"):  # the interpreter's own too: a bot may write there
        setattr(sys, name, whole)


def other_matches_text(journal: Journal) -> str | None:
    """What a checkpoint that holds other jobs and not this match says (None where it holds this one, or nothing
    else): without it a rerun with one setting changed starts over beside the match it meant to resume, unsaid. The
    jobs are counted by kind (another command's analyses are no matches). A sampling bot's ``card_time`` of 0.0
    there is named: ``--card-time 0`` once meant one sample a card (a deadline already past), which ``sampling:1``
    plays and resumes (:func:`card_time_zero_as_sampling_1`); 0 is no deadline, so that match is never this one."""
    old = any(card_time_zero_as_sampling_1(identity) is not None for identity in journal.other_identities)
    return other_jobs_note(
        journal, "match", "bots or settings", "a match resumes only its own boards",
        resume="a sampling bot's card_time 0.0 there is an old --card-time 0, one sample a card (--card-time 0 is no "
               "deadline now): with the bot sampling:1 in its place a match of the same settings resumes it"
               if old else "")


def _is_card_time_zero(player: Any) -> bool:
    """Whether a player of a match checkpoint's header is the built-in sampling bot with a deadline of 0 (an old
    ``--card-time 0``): named ``sampling`` or ``sampling:N`` by its own count N, with no source (a bot of one's own
    names its source, and may be named so too, but its deadline means what it makes of it)."""
    return (isinstance(player, list) and len(player) == 5 and type(player[1]) is int
            and player[0] in ("sampling", f"sampling:{player[1]}")
            and type(player[4]) in (int, float) and player[4] == 0)


def card_time_zero_as_sampling_1(header: Mapping[str, Any]) -> dict[str, Any] | None:
    """A match checkpoint's header written with ``--card-time 0`` read as the match it is now, each such sampling
    bot ``sampling:1`` without a deadline; None for any other header. Sound: the deadline of 0 had passed when a
    card's first sample was solved, which always finishes, and no other was begun, so the bot played each card on
    sample 0 alone; sample 0 is drawn from the bot's seed and the position whatever the bot's count, so
    ``sampling:1`` plays every card of those boards the same."""
    match = header.get("match")
    players = match.get("bots") if isinstance(match, dict) else None
    if not isinstance(match, dict) or not isinstance(players, list) or not any(map(_is_card_time_zero, players)):
        return None
    now = [["sampling:1", 1, *player[2:4], *player[5:]] if _is_card_time_zero(player) else player
           for player in players]
    return {**header, "match": {**match, "bots": now}}


#: The build of boards a checkpoint kept before checkpoints named their build.
UNKNOWN_BUILD = "unknown"
#: How a report names :data:`UNKNOWN_BUILD`: boards of a checkpoint written before builds were recorded.
UNRECORDED_BUILD = "a build the checkpoint did not record (perhaps another)"


@functools.cache  # the engine's bytes hashed once a process: every board and report asks it
def engine_build() -> str:
    """The engine build this process plays with (:func:`solver.benchmark.engine_fingerprint` of the package in
    use): a checkpoint keeps it with every board, so that a match resumed after an upgrade says it mixes builds."""
    from .benchmark import engine_fingerprint

    return engine_fingerprint(Path(__file__).resolve().parent)


def mixed_builds_text(builds: Mapping[str, int]) -> str | None:
    """``boards by 2 engine builds: 4 by 0123456789ab, 2 by 9876543210fe (this one)`` where a match's boards were
    played by more than one build (a checkpoint resumed after an upgrade), else None. Boards of a build the
    checkpoint did not record may be any build's, this one's too: ``boards by 1 or 2 engine builds``."""
    if len(builds) < 2:
        return None
    count = f"{len(builds) - 1} or {len(builds)}" if UNKNOWN_BUILD in builds else str(len(builds))
    return f"boards by {count} engine builds: {_builds_parts(builds)}"


def resumed_builds_text(kept: Mapping[str, int], path: str | os.PathLike) -> str | None:
    """``m.ckpt: holds boards played by another engine build, resumed (4 by 0123456789ab; this one is 9876543210fe);
    the match will mix builds`` where the boards of the checkpoint at ``path`` (``kept``: boards by build) were
    played by another build than this one, which will play the boards left; else None. Said when the resume starts,
    not only in the report. Boards only of a build the checkpoint did not record may be this build's: the match then
    "may" mix builds."""
    others = {build: count for build, count in kept.items() if build != engine_build()}
    if not others:
        return None
    if set(others) == {UNKNOWN_BUILD}:
        count = others[UNKNOWN_BUILD]
        return checkpoint_note(path, f"boards played by {UNRECORDED_BUILD}", "resumed",
                               f"{count:,} board{'' if count == 1 else 's'}; this one is {engine_build()}",
                               "the match may mix builds")
    builds = "another engine build" if len(others) == 1 else "other engine builds"
    return checkpoint_note(path, f"boards played by {builds}", "resumed",
                           f"{_builds_parts(others)}; this one is {engine_build()}", "the match will mix builds")


def _builds_parts(builds: Mapping[str, int]) -> str:
    """``4 by 0123456789ab, 2 by 9876543210fe (this one)``: the boards of each build."""
    current = engine_build()
    return ", ".join(f"{count} by {UNRECORDED_BUILD}" if build == UNKNOWN_BUILD else
                     f"{count} by {build}" + (" (this one)" if build == current else "")
                     for build, count in builds.items())


def check_bots(bots: object) -> tuple[Bot, ...]:
    """The bots of a match, each one with a ``name`` (text: what the results group by) and a ``choose`` method, else
    StichError: a wrong argument fails here, not as an AttributeError in the middle of the first board. Two bots of
    one name must be one kind of bot, as the results count them: of one class (``type()``: a bot of one's own named
    like a built-in bot, or two classes of one's own under one name, are refused) and alike in
    :func:`bot_settings`."""
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
        raise StichError(f"bots must be a list of bots, one per seat, not {type(bots).__name__}")
    named: dict[str, tuple[int, Any, dict[str, Any]]] = {}  # each name's first seat, bot and settings
    for seat, bot in enumerate(bots, 1):
        if not is_bot(bot):
            raise StichError(f"the bot at seat {seat} ({bot!r}) is no bot: {WHAT_A_BOT_IS}")
        name = bot.name
        settings = bot_settings(bot)
        first, first_bot, known = named.setdefault(name, (seat, bot, settings))
        if type(bot) is not type(first_bot):  # a bot of one's own under another's name (a built-in's too)
            raise StichError(f"the bots at seats {first} and {seat} are both named {name!r} but are two kinds of bot "
                             f"({_kind(first_bot)} and {_kind(bot)}): a match counts its bots by name, so they would "
                             "be counted as one; give each its own name")
        differ = [key for key in settings if not _same_setting(settings[key], known[key])]
        if differ:
            said = ", ".join(f"{key} {_setting_text(known[key])} and {_setting_text(settings[key])}" for key in differ)
            raise StichError(f"the bots at seats {first} and {seat} are both named {name!r} but differ ({said}): a "
                             "match counts its bots by name, so they would be one kind of bot; give each its own "
                             "name (name=...)")
    return tuple(bots)


def _kind(bot: Bot) -> str:
    """A bot's kind, for a message: where a bot of one's own comes from (``mybots:LastCard``), else its class."""
    return bot_source(bot) or type(bot).__name__


def card_time(bot: Bot) -> Any:
    """A bot's deadline a card, its ``time_limit`` (None where it has none), with -0.0 (a bot of one's own's, whose
    ``time_limit`` nothing checks) as 0.0: the one place a match reads it, so that its report says ``0 s``, not
    ``-0 s``, its JSON ``0.0`` and a checkpoint's identity is that of a deadline of 0."""
    limit = getattr(bot, "time_limit", None)
    return limit + 0.0 if isinstance(limit, float) else limit


def bot_settings(bot: Bot) -> dict[str, Any]:
    """What makes two bots of one name and one class two kinds of bot: what they play for, their samples a card and
    their deadline a card (a seed is no such thing: two seeds of one bot are one kind, as a match seats them). Two
    classes are two kinds whatever their settings (:func:`check_bots`)."""
    return {"plays_for": getattr(bot, "plays_for", None),
            "samples": getattr(bot, "samples", None), "time_limit": card_time(bot)}


def _same_setting(one: object, other: object) -> bool:
    """Whether two bots' settings are alike, for any value a bot of one's own may hold (a numpy array's ``==`` is an
    array, whose truth is an error: arrays are compared whole; values that cannot say are taken as alike, as before
    the check)."""
    if one is other:
        return True
    try:
        return bool(one == other)
    except Exception:  # noqa: BLE001 - an ambiguous comparison: arrays compared whole, else it decides nothing
        try:
            import numpy

            return bool(numpy.array_equal(cast(Any, one), cast(Any, other)))
        except Exception:  # noqa: BLE001
            return True


def _setting_text(value: object) -> str:
    return "none" if value is None else str(value)


def play_match(game: str | type[Game], bots: Sequence[Bot], *, boards: int = 10, seed: int = DEFAULT_SEED,
               contract: str | None = None, declarer: SupportsIndex = 1,
               variant: Mapping[str, object] | str | None = None, rotate: bool = True, time_limit: float | None = None,
               checkpoint: str | os.PathLike | None = None,
               progress: Callable[[MatchResult, int], None] | None = None, pot: int | None = None,
               workers: int | None = 1, keep_deals: bool = True,
               on_deal: Callable[[PlayedDeal], None] | None = None,
               notice: Callable[[str], None] | None = None) -> MatchResult:
    """Play ``boards`` seeded deals with ``bots[i]`` at seat ``i + 1`` (one bot per seat), each deal once per
    rotation of the bots round the table when ``rotate``. ``contract`` (else each board's own random contract) is
    declared by ``declarer``. ``pot`` is every deal's pot in a game paid from one (Kratzen: without it every deal
    settles at 0, and bots playing for the score have nothing to play for); it is each record's ``[Pot]`` tag, so
    the bots and the scorer read it alike. ``time_limit`` (seconds) ends the match after the board in play when it
    is reached (whole boards only, so that a rotated match stays paired; ``stopped`` says so). ``progress(result so
    far, deals in all)`` is called after a deal played (on several workers, after a board), at most every
    :data:`PROGRESS_SECONDS`, and once more with every deal played when an interrupt or an error ends the match (its
    ``stopped`` ``"interrupt"`` or ``"error"``, so that a caller streaming the match can close what it wrote).
    ``checkpoint`` (a file) keeps every board played, and a rerun of the same match resumes from it: every choice is a
    function of the bots' seeds and the position, so the resumed match equals an uninterrupted one; each of its lines
    is checked before any deal is handed on (a StichError names the line); an interrupt during that check ends the
    match before anything is played, handed on or written, without a call of ``progress``. ``workers`` (None: every
    core)
    plays whole boards on that many processes, each searching on one thread: the bots must then pickle (this
    module's do, without their engines, so their table size is the default there, and a sampling bot's
    ``last_estimates`` stay in the worker); the
    match is the same on any number (without a bot's ``time_limit``, which depends on the machine's speed), its
    deals in board order.

    ``keep_deals`` keeps every deal in the result's ``deals`` (and in the ``progress`` results), some 0.6 KB a deal:
    a long match that does not read them passes False, and its memory then stays bounded whatever ``boards``
    (8 bytes a board and mean). ``on_deal(deal)`` is told every deal, the checkpoint's resumed ones too, in board
    order (a board finished ahead of one still in play waits for it), kept or not: how ``stich match --json``
    writes its deals as they come. ``notice(text)`` is told at once what a caller should hear before any board is
    played: a checkpoint resumed under another engine build (:func:`resumed_builds_text`), which the result says
    again."""
    game = get_game(game)
    declarer = cast(int, integral(declarer))  # a numpy seat is kept as an int: the JSON and the checkpoint take it
    check_scoring_inputs(game, pot)
    read_pot(None, pot)  # a whole number of chips in range
    if not is_whole_number(boards) or not 1 <= boards <= 1_000_000:
        raise StichError(f"boards must be a whole number from 1 to 1,000,000, not {boards!r}")
    bots = check_bots(bots)
    check_time_limit(time_limit, StichError)
    check_callback(progress, "progress", "the result so far and the deals in all")
    if not isinstance(keep_deals, bool):
        raise StichError(f"keep_deals must be True or False, not {keep_deals!r}")
    check_callback(on_deal, "on_deal", "a played deal")
    check_callback(notice, "notice", "a text")
    seats = len(bots)
    if seats not in game.seat_counts:
        raise StichError(f"{game.name} is played by {game.seat_counts_text()} seats: give one bot per seat, "
                         f"not {seats}")
    rotations = seats if rotate else 1
    workers = min(local_workers(workers), boards)
    if workers > 1 and any(getattr(bot, "workers", 1) != 1 for bot in bots):
        raise StichError("a match on several processes plays each board on one: give its bots workers=1")
    tally = MatchTally(rotate, keep_deals, seats)
    in_order = BoardOrder(on_deal, rotations) if on_deal is not None else None
    total = boards * rotations
    deadline = None if time_limit is None else time.monotonic() + time_limit
    if checkpoint is not None and not isinstance(checkpoint, (str, os.PathLike)):
        raise StichError(f"the checkpoint is a file path, not {checkpoint!r}")
    # a deadline a card changes what a bot plays: a resume with another --card-time is another match (said only
    # where there is one, so that the checkpoints of untimed matches keep their identity)
    deadlines = [card_time(bot) for bot in bots]
    timed = any(deadline is not None for deadline in deadlines)
    # and a bot of one's own is said by its source too (bot_source: the MODULE:ATTRIBUTE it was loaded from, or its
    # class), so that a resume with another bot of the same name is another match; checkpoints written before said
    # only the name, and stay this match's (an alias)
    plain = [[bot.name, getattr(bot, "samples", None), getattr(bot, "seed", None), getattr(bot, "plays_for", None)]
             + ([deadline] if deadline is not None else []) for bot, deadline in zip(bots, deadlines)]
    players = [player + ([{"bot": source}] if source is not None else [])
               for player, source in zip(plain, map(bot_source, bots))]
    # the variant as the game reads it (each flag parsed, one at its default left out), so that the API's
    # {"weli_also_bells": True} and --variant weli_also_bells=true are one match; checkpoints written before named it
    # as given, and are this match's too
    given = variant if not isinstance(variant, Mapping) else dict(variant)
    read = dict(game.variant(variant or None).key()) or None
    # and the contract as the game spells it (-c "solo  h" and -c "Solo H" are one match); checkpoints written before
    # named it as typed, and are this match's too
    setup = MatchSetup.of(game, bots, contract, declarer, variant)
    identity = {"match": {"game": game.name, "bots": players, "seed": seed, "contract": setup.contract,
                          "declarer": declarer, "variant": read, "rotate": rotate}
                | ({"pot": pot} if pot is not None else {})}
    # a sampling bot at the match's sample count was named 'sampling:N' before it was named 'sampling': a checkpoint
    # written then is this match's too
    # and a SamplingBot built at another count was named 'sampling' before it was named 'sampling:N'
    renamed = [[f"sampling:{player[1]}", *player[1:]] if player[0] == "sampling" and player[1] is not None else
               ["sampling", *player[1:]] if player[0] == f"sampling:{player[1]}" else player for player in players]
    aliases: list[dict[str, Any]] = []
    for named in (players, renamed, plain):
        for flags in (read, given):
            for typed in (setup.contract, contract):
                alias = identity | {"match": identity["match"] | {"bots": named, "variant": flags, "contract": typed}}
                if alias != identity and alias not in aliases:
                    aliases.append(alias)
    journal = Journal(checkpoint, identity, holder="stich match", aliases=aliases,
                      older=card_time_zero_as_sampling_1) if checkpoint is not None else None
    done = bytearray(boards + 1)  # 1 for each board the checkpoint had played
    build = engine_build()
    built: dict[str, tuple[int, int]] = {}  # per engine build, its boards played and the first of them

    def built_by(label: str, board: int) -> None:
        count, first = built.get(label, (0, board))
        built[label] = (count + 1, min(first, board))

    def place(deal: PlayedDeal) -> None:
        tally.add(deal)
        if in_order is not None:
            in_order.add(deal)

    def resumed(number: int, span: Span, document: Mapping[str, Any]) -> list[PlayedDeal]:
        """The deals of a checkpoint line: its board's, one a rotation; else a StichError naming the line."""
        try:
            deals = [PlayedDeal.from_dict(deal, game.name) for deal in document["deals"]]
        except (KeyError, TypeError, ValueError):
            deals = []
        if span.size != 1 or len(deals) != rotations or any(deal.board != span.first for deal in deals):
            assert journal is not None
            raise StichError(f"{shown_name(journal.path)}:{number}:1: this checkpoint line does not hold the played "
                             f"deals of board {span.first} ({rotations} a board)")
        if not timed and any(count is not None and count > 1 for deal in deals for count in deal.samples or ()):
            # only a line of an old --card-time 0 header (read as sampling:1's) keeps samples here: one sample a card
            assert journal is not None
            raise StichError(f"{shown_name(journal.path)}:{number}:1: this checkpoint line of board {span.first} "
                             "decided a card on more than one sample, so its header's deadline of 0 was no old "
                             "--card-time 0 and the line is not this match's; remove the line (a rerun plays its "
                             "board again) or choose another file")
        # each deal's seats under the bots' names now: a line written under an older name of a bot (an alias of the
        # identity) would otherwise count one bot as two kinds; a match without a deadline keeps no samples a card
        # (a line of an old --card-time 0 has them)
        return [dataclasses.replace(deal, bots=tuple(bots[(seat - deal.rotation) % seats].name
                                                     for seat in range(seats)),
                                    samples=deal.samples if timed else None) for deal in deals]

    def kept() -> Iterator[tuple[int, Span, dict[str, Any]]]:
        """The checkpoint's lines of the boards asked (a longer match's checkpoint has more)."""
        if journal is not None:
            yield from ((number, span, document) for number, span, document in journal.done_lines()
                        if span.first <= boards)

    def builds() -> dict[str, int]:
        """The boards played so far by each build, this one first (the others by their first board)."""
        ordered = sorted(built.items(), key=lambda item: (item[0] != build, item[1][1]))
        return {label: count for label, (count, _) in ordered}

    reported = [-math.inf]  # when progress was last called

    def report(now: bool = False, stopped: str = "interrupt") -> None:
        if progress is not None and (now or time.monotonic() - reported[0] >= PROGRESS_SECONDS):
            progress(tally.result(game.name, seed, boards, stopped, pot, setup, builds()), total)
            reported[0] = time.monotonic()

    try:
        kept_boards = 0  # a count, not a set: the match's memory does not grow with its boards
        for number, span, document in kept():  # every line checked before a deal is handed on: none half said
            resumed(number, span, document)
            kept_boards += 1  # the journal yields each board once
        if journal is not None and kept_boards < boards:
            # boards left to play, not to be played for nothing on a full disk: refused before any is said
            journal.check_room("no board played")
        if journal is not None and (others := other_matches_text(journal)) is not None:
            warn_caller(others)
        in_play: set[int] = set()  # boards handed to the pool's workers and not yet back
        try:
            for number, span, document in kept():  # read again, one line at a time, so none is held
                done[span.first] = 1
                built_by(str(document.get("engine", UNKNOWN_BUILD)), span.first)
                for deal in resumed(number, span, document):
                    place(deal)

            mixing = resumed_builds_text(builds(), checkpoint) \
                if checkpoint is not None and not all(done[1:]) else None
            if mixing is not None and notice is not None:  # boards are left for this build to play
                notice(mixing)

            deal_board = functools.partial(play_board, game=game.name, bots=bots, seed=seed, contract=contract,
                                           declarer=declarer, variant=variant, pot=pot, rotations=rotations)
            stopped: list[str] = []

            def to_play() -> Iterator[int]:
                """The boards not yet played, until the time limit (whole boards only, so a rotated match stays
                paired; a board already started is finished)."""
                for board in range(1, boards + 1):
                    if done[board]:
                        continue
                    if deadline is not None and time.monotonic() >= deadline and tally.played:
                        stopped.append("time limit")
                        return
                    in_play.add(board)
                    yield board

            def keep(board: int, deals: list[PlayedDeal]) -> None:
                if journal is not None:
                    journal.append(Span(board, 1), {"deals": [deal.as_dict() for deal in deals], "engine": build})

            def finished(board: int, deals: list[PlayedDeal]) -> None:  # a board from the pool, all its deals at once
                in_play.discard(board)
                built_by(build, board)
                for deal in deals:
                    place(deal)
                keep(board, deals)
                report()

            def dealt(deal: PlayedDeal) -> None:  # a deal played in this process, said as soon as it is played
                if deal.rotation == 0:
                    built_by(build, deal.board)
                place(deal)
                report()

            if workers == 1:
                for board in to_play():
                    keep(board, deal_board(board, on_deal=dealt))
            else:  # whole boards on the pool's workers, each searching on one thread
                try:
                    pickle.dumps(deal_board)
                except Exception as error:
                    raise StichError("a match on several processes sends its bots to them, and these do not pickle "
                                     f"({type(error).__name__}: {error}): give workers=1") from None
                run_pool(to_play(), functools.partial(play_board_in_worker, **deal_board.keywords), (), finished,
                         workers, in_flight=1)
        except KeyboardInterrupt as interrupt:  # the match so far is the caller's to report: with every deal played
            if workers > 1 and in_play:  # the workers ignore it: no bot's choose was stopped here
                choosing = in_play_text(sorted(in_play))
                interrupt.add_note(choosing)
                setattr(interrupt, STOPPED_WHERE, choosing)
            if in_order is not None:
                in_order.flush()
            report(now=True)
            raise
        except Exception as error:  # likewise (a bot's illegal card, a full disk), so that a stream of it can be closed
            if isinstance(error, BotError):  # the boards played before it are the caller's, with or without progress
                error.result = tally.result(game.name, seed, boards, "error", pot, setup, builds())
                if workers > 1:  # from a worker: the bot's exception as the cause, not the worker's traceback text
                    error.without_remote_traceback()
            try:
                if in_order is not None:
                    in_order.flush()
                report(now=True, stopped="error")
            except Exception:  # the failure was in on_deal or progress itself: the first error is the one to say
                pass
            raise
    finally:
        if journal is not None:
            journal.close()
    if in_order is not None:
        in_order.flush()
    return tally.result(game.name, seed, boards, stopped[0] if stopped else None, pot, setup, builds())


class BoardOrder:
    """Deals handed on in board order whatever order their boards finish in (a pool's, a checkpoint's): a board
    is held only while a board before it is still in play, so a match that streams its deals holds few of them."""

    def __init__(self, hand_on: Callable[[PlayedDeal], None], rotations: int) -> None:
        self.hand_on = hand_on
        self.rotations = rotations
        self.next = 1  # the first board not yet handed on whole
        self.given = 0  # its deals handed on
        self.held: dict[int, list[PlayedDeal]] = {}

    def add(self, deal: PlayedDeal) -> None:
        if deal.board != self.next:
            self.held.setdefault(deal.board, []).append(deal)
            return
        self._give(deal)
        while self.next in self.held:  # the boards that waited for it
            for deal in self.held.pop(self.next):  # a board still in play: the rest of it comes to add()
                self._give(deal)

    def _give(self, deal: PlayedDeal) -> None:
        self.hand_on(deal)
        self.given += 1
        if self.given == self.rotations:
            self.next += 1
            self.given = 0

    def flush(self) -> None:
        """The boards still held (after a gap the match never played: a time limit, an interrupt), in order."""
        for board in sorted(self.held):
            for deal in self.held.pop(board):
                self.hand_on(deal)


class MatchTally:
    """A match's statistics as its deals come, in any order of boards: each board's deals are held only until the
    board is whole (all its rotations), then it is one value a mean in compact arrays (8 bytes a board and mean), so
    a match holds no deal beyond its boards in play unless it keeps them (``keep_deals``: every deal, in board
    order, for :attr:`MatchResult.deals`). The sums are exact (``math.fsum``), so the means and intervals are the
    same whatever order the boards came in."""

    def __init__(self, rotate: bool, keep_deals: bool = True, table_seats: int = 0) -> None:
        self.rotate = rotate
        self.table_seats = table_seats  # the seats at the table (0: not said), which the report reads before a deal
        self.kept: list[PlayedDeal] | None = [] if keep_deals else None
        self.open: dict[int, list[PlayedDeal]] = {}  # boards not yet in all their rotations
        self.per_bot: dict[str, array] = {}  # each bot's mean payment a seat, one value a board it held seats on
        self.seen: dict[str, tuple[int, int, int]] = {}  # each bot's first board, rotation and seat held
        self.seats: dict[str, int] = {}
        self.declaring = array("d")
        self.gaps: dict[tuple[str, str], array] = {}  # first bot minus second, boards of two bots
        self.played = 0
        self.counted = 0  # the deals of the boards played whole
        self.first: PlayedDeal | None = None
        self.card_samples: dict[int, int] = {}  # cards by their samples (MatchResult.card_samples)
        self.boards_played = SpanSet()  # as runs: only the boards in flight on workers leave gaps (MatchResult's)
        self.split = 0  # boards whose every deal cancels each bot's payments (MatchResult.split_boards)

    def add(self, deal: PlayedDeal) -> None:
        """One deal played (a board's rotations in order)."""
        self.played += 1
        if deal.board not in self.boards_played:  # the board's first deal played
            self.boards_played.add(Span(deal.board, 1))
        for samples in deal.samples or ():
            if samples:  # None: a bot that does not sample; 0: the only legal card
                self.card_samples[samples] = self.card_samples.get(samples, 0) + 1
        if self.first is None or (deal.board, deal.rotation) < (self.first.board, self.first.rotation):
            self.first = deal
        if self.kept is not None:  # in board order, whatever order boards are played or resumed in
            bisect.insort(self.kept, deal, key=lambda d: (d.board, d.rotation))
        deals = self.open.setdefault(deal.board, [])
        deals.append(deal)
        if len(deals) == (len(deals[0].bots) if self.rotate else 1):
            del self.open[deal.board]
            self._count(deals)

    def _count(self, deals: list[PlayedDeal]) -> None:
        """A whole board: its value for each mean."""
        names = list(dict.fromkeys(name for deal in deals for name in deal.bots))
        for deal in deals:
            for seat, name in enumerate(deal.bots):
                if name not in self.seen or (deal.board, deal.rotation, seat) < self.seen[name]:
                    self.seen[name] = (deal.board, deal.rotation, seat)
        for name in names:  # the bot's mean payment per seat it held on this board
            held = [payment for deal in deals for bot, payment in zip(deal.bots, deal.payments) if bot == name]
            self.per_bot.setdefault(name, array("d")).append(sum(held) / len(held))
            self.seats[name] = self.seats.get(name, 0) + len(held)
        self.declaring.append(sum(sum(deal.payments[s - 1] for s in deal.declaring_side) for deal in deals)
                              / len(deals))
        if len(names) == 2:
            self.gaps.setdefault((names[0], names[1]), array("d")).append(
                sum(_gap(deal, *names) for deal in deals) / len(deals))
        if len(names) > 1 and all(cancels(deal) for deal in deals):
            self.split += 1
        self.counted += len(deals)

    def result(self, game: str, seed: int, boards: int, stopped: str | None = None, pot: int | None = None,
               setup: MatchSetup | None = None, engine_builds: Mapping[str, int] | None = None) -> MatchResult:
        """The match so far: a board cut short in its rotations (an interrupt) is among the deals played but not
        counted: its bots did not all hold the same hands."""
        names = sorted(self.seen, key=self.seen.__getitem__)  # as the deals in board order name them
        # one bot in every seat: its mean is each deal's payments over the seats, 0 by construction where the rules
        # make the deals zero-sum; with a pot they are not (the pot takes and pays), though a deal's payments may sum
        # to 0 by chance, and the mean has an interval like any other
        bots = {name: Mean.of(self.per_bot[name], interval=len(names) > 1 or not zero_sum(game, pot))
                for name in names}
        difference = None
        if len(names) == 2:
            first, second = names
            gaps = array("d", self.gaps.get((first, second), array("d")))
            gaps.extend(-gap for gap in self.gaps.get((second, first), ()))  # exactly the gap the other way
            difference = (first, second, Mean.of(gaps))
        return MatchResult(game, seed, boards, self.rotate, tuple(self.kept or ()), bots, Mean.of(self.declaring),
                           difference, stopped, {name: self.seats[name] for name in names}, self.counted, pot, setup,
                           dict(engine_builds or {}), self.played, self.first, self.table_seats,
                           dict(sorted(self.card_samples.items())),
                           tuple((first, end - 1) for first, end in self.boards_played.runs()), self.split)


def zero_sum(game: str, pot: int | None) -> bool:
    """Whether the rules make every deal of ``game`` with ``pot`` zero-sum between the seats: a game without a pot,
    or one with an empty pot. Decided from the rules, not from the payments: a deal paid from a pot of 4 can sum to 0
    by chance, and its mean is then no less a sample with an interval."""
    return not get_game(game).has_pot or not pot


def summarise(game: str, seed: int, boards: int, rotate: bool, played: Sequence[PlayedDeal],
              stopped: str | None = None, pot: int | None = None, setup: MatchSetup | None = None,
              engine_builds: Mapping[str, int] | None = None) -> MatchResult:
    """Means and intervals of a match's played deals, one value a board (:class:`MatchTally`): a board's rotations
    are the same cards and a deal's seats share its zero-sum payments, so counting either as independent would make
    the intervals too narrow. A board cut short in its rotations (an interrupt) stays in ``deals`` but is not
    counted: its bots did not all hold the same hands."""
    tally = MatchTally(rotate)
    for deal in played:
        tally.add(deal)
    return tally.result(game, seed, boards, stopped, pot, setup, engine_builds)


def cancels(deal: PlayedDeal) -> bool:
    """Whether every bot of ``deal`` held seats of both sides and its payments came to 0: a deal that can tell the
    bots apart by nothing, since a game paying each seat of a side alike pays one seat of each alike and opposite."""
    declaring = set(deal.declaring_side)
    for name in set(deal.bots):
        seats = {seat for seat, bot in enumerate(deal.bots, 1) if bot == name}
        if not (seats & declaring and seats - declaring) or sum(deal.payments[seat - 1] for seat in seats) != 0:
            return False
    return True


def _gap(deal: PlayedDeal, first: str, second: str) -> float:
    """The mean payment of ``first``'s seats in ``deal`` minus the mean of ``second``'s."""
    a = [payment for bot, payment in zip(deal.bots, deal.payments) if bot == first]
    b = [payment for bot, payment in zip(deal.bots, deal.payments) if bot == second]
    return sum(a) / len(a) - sum(b) / len(b)
