"""Matches: seeded deals played to the end by bots, scored as the table would score them.

Each deal is board ``k`` of the match's seed (:func:`solver.generate.random_record`, so a match of 20 boards is a
match of 10 plus 10 more). With ``rotate`` every deal is played once per seat with the bots moved round the table,
so each bot holds every hand of the deal once: the luck of the cards cancels, and the difference between two bots is
measured on the same cards (paired), which is what makes a small match tell bots apart. A played deal is settled by
:func:`solver.scoring.score_deal`: each seat's payment in game units (with the pot, from zero, in a game paid from one).
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from .analysis import SCHEMA
from .bots import Bot
from .checkpoint import Journal, Span
from .errors import StichError, is_whole_number
from .games import get_game
from .games.base import Game
from .position import Position, position_from_record
from .generate import random_record
from .scoring import score_deal
from .sampling import mean_interval


@dataclass(frozen=True)
class Mean:
    """A mean with its 95% interval (normal approximation; no interval from fewer than two values)."""

    mean: float
    low: float
    high: float
    count: int

    @classmethod
    def of(cls, values: Sequence[float]) -> "Mean":
        mean, low, high = mean_interval(len(values), sum(values), sum(v * v for v in values))
        return cls(mean, low, high, len(values))

    def as_dict(self) -> dict[str, Any]:
        def number(x: float) -> float | None:
            return None if math.isnan(x) else round(x, 4)
        return {"mean": number(self.mean), "interval": [number(self.low), number(self.high)], "count": self.count}


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
class MatchResult:
    """A match: every deal as played, and per bot its mean payment per seat and deal with a 95% interval; with two
    kinds of bot, the paired difference of the first over the second (per played deal, the mean payment of the
    first's seats minus the mean of the second's)."""

    game: str
    seed: int
    boards: int
    rotate: bool
    deals: tuple[PlayedDeal, ...]
    bots: dict[str, Mean] = field(default_factory=dict)
    declaring_side: Mean = Mean(math.nan, math.nan, math.nan, 0)
    difference: tuple[str, str, Mean] | None = None
    stopped: str | None = None  # "time limit" or "interrupt" when the match ended before its last deal

    def as_dict(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "schema": SCHEMA, "command": "match", "game": self.game, "seed": self.seed, "boards": self.boards,
            "rotate": self.rotate,
            "stopped": self.stopped,
            "bots": {name: mean.as_dict() for name, mean in self.bots.items()},
            "declaring_side": self.declaring_side.as_dict(),
            "deals": [deal.as_dict() for deal in self.deals]}
        if self.difference is not None:
            first, second, mean = self.difference
            document["difference"] = {"first": first, "second": second, **mean.as_dict()}
        return document


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


def play_match(game: str | type[Game], bots: Sequence[Bot], *, boards: int = 10, seed: int = 1,
               contract: str | None = None, declarer: int = 1, variant: Mapping[str, object] | str | None = None,
               rotate: bool = True, time_limit: float | None = None,
               checkpoint: str | os.PathLike | None = None,
               progress: Callable[[MatchResult, int], None] | None = None) -> MatchResult:
    """Play ``boards`` seeded deals with ``bots[i]`` at seat ``i + 1`` (one bot per seat), each deal once per
    rotation of the bots round the table when ``rotate``. ``contract`` (else each board's own random contract) is
    declared by ``declarer``. ``time_limit`` (seconds) ends the match after the board in play when it is reached
    (whole boards only, so that a rotated match stays paired; ``stopped`` says so). ``progress(result so far,
    deals in all)`` is called after each deal played. ``checkpoint`` (a file) keeps every board played, and a
    rerun of the same match resumes from it: every choice is a function of the bots' seeds and the position, so the
    resumed match equals an uninterrupted one."""
    game = get_game(game)
    if not is_whole_number(boards) or not 1 <= boards <= 1_000_000:
        raise StichError(f"boards must be a whole number from 1 to 1,000,000, not {boards!r}")
    seats = len(bots)
    if seats not in game.seat_counts:
        raise StichError(f"{game.name} is played by {game.seat_counts_text()} seats: give one bot per seat, "
                         f"not {seats}")
    rotations = seats if rotate else 1
    played: list[PlayedDeal] = []
    total = boards * rotations
    deadline = None if time_limit is None else time.monotonic() + time_limit
    if checkpoint is not None and not isinstance(checkpoint, (str, os.PathLike)):
        raise StichError(f"the checkpoint is a file path, not {checkpoint!r}")
    players = [[bot.name, getattr(bot, "samples", None), getattr(bot, "seed", None), getattr(bot, "plays_for", None)]
               for bot in bots]
    identity = {"match": {"game": game.name, "bots": players, "seed": seed, "contract": contract,
                          "declarer": declarer, "variant": variant if not isinstance(variant, Mapping)
                          else dict(variant), "rotate": rotate}}
    journal = Journal(checkpoint, identity, holder="stich match") if checkpoint is not None else None
    kept: dict[int, list[PlayedDeal]] = {}
    try:
        if journal is not None:
            for span, document in journal.done():
                try:
                    kept[span.first] = [PlayedDeal.from_dict(deal) for deal in document["deals"]]
                except (KeyError, TypeError, ValueError):
                    raise StichError(f"{journal.path}: a line of this checkpoint holds no played deals") from None
        for board in range(1, boards + 1):
            if board in kept:
                played.extend(kept[board])
                continue
            if deadline is not None and time.monotonic() >= deadline and played:
                return summarise(game.name, seed, boards, rotate, played, "time limit")
            first = len(played)
            record = random_record(game, seed, board, contract=contract, declarer=declarer,
                                   seats=seats if len(game.seat_counts) > 1 else None, variant=variant)
            start = position_from_record(record)
            for rotation in range(rotations):
                seated = [bots[(seat - rotation) % seats] for seat in range(seats)]
                end = play_out(start, seated)
                settlement = score_deal(end)
                rules = end.rules
                played.append(PlayedDeal(
                    board, rotation, tuple(bot.name for bot in seated), rules.contract.text, rules.declarer + 1,
                    tuple(sorted(s + 1 for s in rules.declaring_side)),
                    tuple(end.pack[card].name for card in end.played), tuple(settlement.payments)))
                if progress is not None:
                    progress(summarise(game.name, seed, boards, rotate, played, "interrupt"), total)
            if journal is not None:
                journal.append(Span(board, 1), {"deals": [deal.as_dict() for deal in played[first:]]})
    finally:
        if journal is not None:
            journal.close()
    return summarise(game.name, seed, boards, rotate, played)


def summarise(game: str, seed: int, boards: int, rotate: bool, played: Sequence[PlayedDeal],
              stopped: str | None = None) -> MatchResult:
    """Means and intervals of a match's played deals."""
    per_bot: dict[str, list[float]] = {}
    declaring: list[float] = []
    names: list[str] = []
    for deal in played:
        for name, payment in zip(deal.bots, deal.payments):
            per_bot.setdefault(name, []).append(payment)
            if name not in names:
                names.append(name)
        declaring.append(sum(deal.payments[s - 1] for s in deal.declaring_side))
    difference = None
    if len(names) == 2:
        first, second = names
        gaps = []
        for deal in played:
            a = [p for n, p in zip(deal.bots, deal.payments) if n == first]
            b = [p for n, p in zip(deal.bots, deal.payments) if n == second]
            if a and b:
                gaps.append(sum(a) / len(a) - sum(b) / len(b))
        difference = (first, second, Mean.of(gaps))
    return MatchResult(game, seed, boards, rotate, tuple(played),
                       {name: Mean.of(per_bot[name]) for name in names}, Mean.of(declaring), difference, stopped)
