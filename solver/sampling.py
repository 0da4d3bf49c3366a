"""Single-dummy analysis: what one hand can expect when the other hands are unknown.

The unseen cards are dealt at random many times under what is known (cards known to be in a given hand, the hand
sizes, what the contract implies), each sample is solved double-dummy, and the results are averaged. Why this way:

* Sample ``k`` is drawn from its own generator seeded with ``f"{seed}:{k}"``, so the analysis is the same whatever
  the number of workers and however the samples are split into chunks.
* What the contract implies (the caller never holds the card she calls, ...) is exactly what the game's ``rules(...)``
  refuses, so a sample the rules refuse is redrawn from the same generator: no game-specific code here.
* Workers return integer sums per chunk (counts, sums, sums of squares), never per-sample tables: little to send
  back, and integer sums do not depend on the order in which chunks finish.
* When the analysed hand is to move, its cards' values are solved first and the sample's value is read off them
  (the best card's): one search fewer per sample.
"""

from __future__ import annotations

import json
import math
import os
import random
import threading
from collections import Counter
from functools import cached_property, partial
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Callable, Iterator, Mapping, Sequence, SupportsIndex, cast

from .analysis import SCHEMA, can_force, objectives_named, own_targets, winning_condition
from .announcements import parse_announcements
from .cards import Card, CardTokens, card_items
from .checkpoint import (REMOVE_THE_LINE, Journal, Span, SpanSet, checkpoint_note, journalled_by_job,
                         journalled_samples, not_resumed_note, other_jobs_note)
from .deal import Deal, parse_hand
from .diagram import card_names
from .errors import (FileError, IllegalPlayError, InvalidContractError, InvalidDealError, InvalidSeatError,
                     OtherCountResumed, OtherJobsNotResumed, StichError, StichWarning, check_callback, integral,
                     is_whole_number, shown_name)
from .games import get_game
from .games.base import Game, Objective, Rules
from .games.outcome import (FIGURE_SPACE, decimal_text, in_table_cell, interval_words, measure_words, percent_text,
                            pot_zero_said, read_pot, role_text, side_text, signed_mean, with_interval)
from .generate import DEFAULT_SEED
from .limits import MAX_SAMPLES
from .html_tables import html_lines, html_table, html_titled_table
from .intervals import t_quantile, wilson_interval_95
from .scoring import check_scoring_inputs, scoring_inputs
from .position import Position, check_position
from .state import PlayState
from .search.boundary import Deadline, check_stop, check_time_limit
from .search.engine import EngineSolver
from .variant import Variant, rules_note
from .workers import (DEFAULT_WORKER_WAIT_SECONDS, ChunkLimits, Notify, Pool, warn_caller, worker_engine,
                      worker_settlement_engine)

#: Shuffles tried for the first sample of an analysis from a hand before its constraints are declared impossible
#: (a few seconds). An analysis from a record skips this: the real deal shows that the play can be met.
FEASIBILITY_TRIES = 10_000
#: Shuffles tried for any sample once a deal is known to fit: a deal that fits one shuffle in 1,680 (a Wenz three
#: tricks from the end) needs about 1,680 a sample and misses this cap with a probability of e^-600.
MAX_REDRAWS = 1_000_000


@dataclass(frozen=True)
class Setup:
    """What every sample shares: the game, the fixed cards of each seat, the contract and who declares."""

    game: str
    seats: int
    fixed: tuple[int, ...]  # masks: the analysed hand and the known cards, by seat
    seat: int  # 0-based
    contract: str
    declarer: int  # 1-based
    variant: tuple[tuple[str, object], ...]
    seed: int
    played: tuple[int, ...] = ()  # the cards played so far, in order (analysis from a position mid-play)
    tags: tuple[tuple[str, object], ...] = ()  # the record's rule state tags (the Pagat's announcer), every sample's
    # what every sample is scored with (Game.scoring_inputs): the announcements' text, which also says who sits on
    # which side (a sample whose sides they do not fit is redrawn), and the pot
    announcements: str | None = None
    pot: int | None = None

    def __repr__(self) -> str:
        """One line in the words a caller used: the seat 1-based as :func:`position_setup` took it, cards by name,
        where the fields hold the engine's 0-based seat beside a 1-based declarer, masks and pack indices. A setup
        of no game or with a card its pack has not (made by hand) shows its fields as they are: a repr must not
        raise."""
        try:
            return self._readable()
        except (StichError, IndexError):
            shown = ", ".join(f"{item.name}={getattr(self, item.name)!r}" for item in fields(self))
            return f"{type(self).__name__}({shown})"

    def _readable(self) -> str:
        """:meth:`__repr__`'s line, which raises where the game or a card is not one."""
        cards = get_game(self.game).pack.cards

        def names(indices: Iterator[int] | Sequence[int]) -> str:
            return " ".join(cards[index].name for index in indices) or "-"

        dealt = ", ".join(f"seat {seat + 1} {names(index for index in range(len(cards)) if mask >> index & 1)}"
                          for seat, mask in enumerate(self.fixed) if mask)
        extras = [f"played {names(self.played)}" if self.played else "",
                  f"variant {', '.join(f'{name}={value}' for name, value in self.variant)}" if self.variant else "",
                  f"state tags {', '.join(f'{name}={value}' for name, value in self.tags)}" if self.tags else "",
                  f"announcements {self.announcements}" if self.announcements else "",
                  f"pot {self.pot}" if self.pot is not None else ""]
        extra = "".join(f"; {text}" for text in extras if text)
        return (f"<Setup {self.game} {self.contract}, declarer {self.declarer}, {self.seats} seats, seed {self.seed}: "
                f"sampled for seat {self.seat + 1}; known: {dealt}{extra}>")

    @cached_property
    def unscored(self) -> frozenset[str]:
        """The bonuses the contract alone leaves out (``Game.contract_unscored_bonuses``: a Tout's Schneider), whose
        odds no sample could make pay: the same for every sample, so found once, on sample 0's rules, and carried
        with the setup to the workers (:func:`_analyse` finds it with the first draw, :meth:`draw_first_sample`,
        before it hands out a chunk). Not a field: the checkpoint names its job by the fields (``asdict``), and this
        follows from them."""
        rules, _ = draw_sample(self, 0)  # as sample 0 is drawn: a setup known to fit looks for no fit first
        return rules.game.contract_unscored_bonuses(rules)

    @cached_property
    def measure(self) -> str:
        """What the report's means count: ``points`` where the contract's objectives have card points, else
        ``tricks`` (Kratzen). Read off sample 0's rules like :attr:`unscored`, and kept with it by
        :meth:`draw_first_sample`, so that no report (nor each progress report) draws sample 0 again."""
        rules, _ = draw_sample(self, 0)
        return _rules_measure(rules)

    @cached_property
    def measure_most(self) -> int:
        """The largest total the measure can reach (its objective's ``maximum``: the deal's tricks or card points):
        with 0, the bounds of every sample's value, which the mean's interval keeps within (a seat that never takes
        a trick has no "-0.1")."""
        rules, _ = draw_sample(self, 0)
        return _measure_objective(rules, self.seat)[1].maximum

    def draw_first_sample(self, tries: int = MAX_REDRAWS) -> None:
        """Sample 0 drawn within ``tries`` shuffles (else StichError naming why: impossible constraints fail in a
        few seconds with FEASIBILITY_TRIES), and :attr:`unscored` found on its rules, so that the setup pickled to
        the workers carries it and sample 0 is not drawn again for it (the draw is seeded: the same deal whatever
        ``tries`` allows). ``cached_property`` keeps its value in the instance's ``__dict__``, a frozen one's too."""
        rules, _ = draw_sample(self, 0, tries)
        self.__dict__["unscored"] = rules.game.contract_unscored_bonuses(rules)
        self.__dict__["measure"] = _rules_measure(rules)
        self.__dict__["drawn_total"] = _drawn_total(rules, _win_objective(rules, self.seat))
        self.__dict__["measure_most"] = _measure_objective(rules, self.seat)[1].maximum

    @cached_property
    def drawn_total(self) -> int | None:
        """The win objective's total that wins for neither side (:func:`_drawn_total`: 44 under Zwanzigerrufen's
        ``tie_44=no_score``), read off sample 0's rules like :attr:`unscored`. A checkpoint names it in its job
        (:func:`_analyse`), so that one whose wins count a 44:44 as the defenders' is another job's."""
        rules, _ = draw_sample(self, 0)
        return _drawn_total(rules, _win_objective(rules, self.seat))


def _rules_measure(rules: Rules) -> str:
    """``points`` where the rules' objectives count card points, else ``tricks``: the unit of an analysis's means."""
    return "points" if "points" in rules.objective_names() else "tricks"


@dataclass(frozen=True)
class BonusChance:
    """How often a yes/no objective can be forced, and whether it is for the analysed hand's side or against it
    (decided per sample: a partner named by the deal changes the sides)."""

    name: str
    seat: int | None
    description: str
    for_side: int  # samples where the maximising side was the hand's
    forced_for: int
    forced_against: int
    samples: int
    game: str = field(default="", compare=False)  # names the bonus as players do (none: its objective's name)

    def row(self, compact: bool = True) -> tuple[str, str, str]:
        """Its row of the report's bonus table (:func:`bonus_table`): the bonus, whose it is, how often forced (not
        ``compact``: the interval at length, for a line)."""
        return bonus_row(self.as_dict(), self.game, self.samples, compact=compact)

    def __str__(self) -> str:
        """One line for people (``print(analysis.bonuses[0])``), the report's row: ``Valat: the hand's side,
        forced 12.5% (95%: ...)``; the dataclass ``repr`` stays for debugging."""
        item, whose, forced = self.row(compact=False)
        return f"{item}: {whose}, forced {forced}"

    def _repr_html_(self) -> str:
        """The same row for Jupyter, under the report's columns."""
        _, columns, _ = bonus_table({"game": self.game, "samples": self.samples, "bonuses": [self.as_dict()]})
        return html_table(columns, [self.row()], right={2})

    @property
    def probability_for(self) -> float:
        """The share of the samples in which the hand's side tried for the bonus and could force it (0 without
        samples)."""
        return self.forced_for / self.samples if self.samples else 0.0

    @property
    def probability_against(self) -> float:
        """The share of the samples in which the other side tried for the bonus and could force it against the hand
        (0 without samples)."""
        return self.forced_against / self.samples if self.samples else 0.0

    @property
    def interval_for(self) -> tuple[float, float] | None:
        """The 95% Wilson interval of :attr:`probability_for`, as the win chance has (None: no sample)."""
        return wilson_interval_95(self.forced_for, self.samples) if self.samples else None

    @property
    def interval_against(self) -> tuple[float, float] | None:
        """The 95% Wilson interval of :attr:`probability_against` (None: no sample)."""
        return wilson_interval_95(self.forced_against, self.samples) if self.samples else None

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready document of this result (what the command's ``--json`` prints of it)."""
        return {"objective": self.name, "seat": self.seat, "description": self.description,
                "probability_for": self.probability_for, "interval_for": _pair(self.interval_for),
                "probability_against": self.probability_against, "interval_against": _pair(self.interval_against),
                "samples_for_side": self.for_side}


def _pair(interval: tuple[float, float] | None) -> list[float] | None:
    """An interval as a JSON document writes it: ``[low, high]``, or null."""
    return None if interval is None else list(interval)


@dataclass(frozen=True)
class OpeningCard:
    """A legal opening card of the hand: its mean value for the hand's side and how often it still wins."""

    card: str
    mean: float
    win_probability: float
    mean_score: float | None = None  # for the hand's side, game units (None: the rules have no settlement search)
    win_interval: tuple[float, float] | None = None  # the win chance's 95% Wilson interval
    # what it prints with: the game writes the card as the diagram does (♠K), the measure names the mean's unit
    game: str = field(default="", compare=False)
    measure: str = field(default="", compare=False)

    def _table(self, compact: bool = True) -> ReportTable:
        """Its row under the report's opening-card columns (:func:`opening_table`), the card as the diagram writes
        it (not ``compact``: the interval at length, for a line)."""
        table = opening_table({"game": self.game, "measure": self.measure, "openings": [self.as_dict()]},
                              compact=compact)
        assert table is not None
        title, columns, rows = table
        card = card_names(self.game, [self.card]) if self.game else self.card
        return title, columns, [(card, *rows[0][1:])]

    def __str__(self) -> str:
        """One line for people (``print(analysis.openings[0])``), each figure after its column's name:
        ``♥K  mean payment +1.20  win 80.0% (95%: ...)  mean card points 70.1``; the ``repr`` stays."""
        _, columns, rows = self._table(compact=False)
        return "  ".join(cell if column == "card" else f"{column} {cell}" for column, cell in zip(columns, rows[0]))

    def _repr_html_(self) -> str:
        """The same row for Jupyter, under the report's columns."""
        _, columns, rows = self._table()
        return html_table(columns, rows, right=range(1, len(columns)))

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready document of this result (what the command's ``--json`` prints of it)."""
        return {"card": self.card, "mean": self.mean, "win_probability": self.win_probability,
                "win_interval": _pair(self.win_interval), "mean_score": self.mean_score}


@dataclass(frozen=True, kw_only=True)
class HandAnalysis:
    """The single-dummy report of one hand: win chance, bonus chances, mean points (or tricks) and mean score (the
    hand's seat's share of its side's double-dummy settlement in game units, :func:`scaled_share`, scored with the
    setup's announcements and pot) each with a 95% interval, and every opening card's value when the hand leads.

    ``win_probability`` and ``mean`` let each sample play its own best card (every sample solved double dummy), so
    where the hand is to play they are at least those of its best single card, ``openings[0]`` (the cards are
    sorted by mean score, then win chance, then mean), which is what a player who must pick one card can expect.
    With one sample, or samples all alike, an interval's ends are the mean here (:meth:`as_dict` writes no interval
    then, and says why)."""

    game: str
    contract: str
    seat: int
    hand: tuple[str, ...]
    known: dict[int, tuple[str, ...]] = field(hash=False)
    samples: int
    seed: int
    measure: str
    win_probability: float
    mean: float
    interval: tuple[float, float]
    bonuses: tuple[BonusChance, ...] = ()
    openings: tuple[OpeningCard, ...] = field(default=())
    played: tuple[str, ...] = ()  # the cards played before the analysed moment (analysis mid-play)
    seats: int = 0
    declarer: int = 1
    variant: dict[str, object] = field(default_factory=dict, hash=False)  # every flag with the value used: reproducible
    score_mean: float | None = None  # the hand's seat's mean score in game units (None: no settlement search)
    score_interval: tuple[float, float] | None = None
    win_interval: tuple[float, float] | None = None  # the win chance's 95% Wilson interval (None: no sample)
    announcements: str | None = None  # what the score was settled with: the announcements and the pot
    pot: int | None = None
    stopped: str | None = None  # "time limit" or "interrupt" (the stop event) when the run ended early, else None
    requested: int | None = None  # the samples asked for, which a run stopped early says beside those solved

    def __str__(self) -> str:
        """The report for people (``print(analysis)``), as ``stich analyse`` prints it: the chances, the means, the
        bonuses and the opening cards (:func:`report_text`)."""
        return report_text(self.as_dict())

    def __repr__(self) -> str:
        """One line that says what it is, as the other results' do: the contract, the seat and the samples, then the
        win chance and the mean payment (the mean card points or tricks where nothing is settled); ``str`` gives the
        rest."""
        contract = get_game(self.game).contract_in_words(self.contract)
        mean = (f"mean {measure_words(self.measure)} {measure_text(self.mean)}" if self.score_mean is None
                else f"mean payment {signed_mean(self.score_mean)}")
        figures = [f"win {percent_text(self.win_probability, 1)}%", mean]
        return (f"<HandAnalysis {self.game} {contract}, seat {self.seat}, "
                f"{samples_said(self.samples, self.requested, self.stopped)}: {', '.join(figures)}>")

    def _repr_html_(self) -> str:
        """The same report for Jupyter, its tables as HTML tables (:func:`report_html`)."""
        return report_html(self.as_dict())

    def as_dict(self) -> dict[str, Any]:
        """The ``analyse`` document: an interval that has no width (one sample, or all alike) is written as nulls
        with a note saying why (:func:`interval_note`), as in advice and a match, rather than as ``[m, m]``."""
        interval, note = interval_document(self.samples, *self.interval)
        score_interval: list[float | None] | None = None
        score_note = None
        if self.score_interval is not None:
            score_interval, score_note = interval_document(self.samples, *self.score_interval)
        return {"schema": SCHEMA, "command": "analyse", "game": self.game, "seats": self.seats,
                "variant": dict(self.variant), "contract": self.contract, "declarer": self.declarer,
                "seat": self.seat, "hand": list(self.hand), "known": {str(s): list(c) for s, c in self.known.items()},
                "samples": self.samples, "seed": self.seed, "measure": self.measure,
                "win_probability": self.win_probability,
                "win_interval": _pair(self.win_interval),
                "mean": self.mean, "interval": interval, "interval_note": note,
                "bonuses": [b.as_dict() for b in self.bonuses], "openings": [o.as_dict() for o in self.openings],
                "played": list(self.played), "score_mean": self.score_mean,
                "score_interval": score_interval, "score_interval_note": score_note,
                "announcements": self.announcements, "pot": self.pot,
                **({} if self.stopped is None else {"stopped": self.stopped}),
                **({} if self.stopped is None or self.requested is None else {"requested": self.requested})}


# --- drawing ----------------------------------------------------------------------------------------------------


def draw_rules(setup: Setup, k: int) -> Rules:
    """The rules of sample ``k`` (see :func:`draw_sample`)."""
    return draw_sample(setup, k)[0]


def unseen_cards(game: type[Game], fixed: Sequence[int]) -> list[int]:
    """The cards of the pack in no ``fixed`` hand, in pack order (a sample shuffles them)."""
    used = 0
    for mask in fixed:
        used |= mask
    return [card for card in range(len(game.pack)) if not used >> card & 1]


def shuffled_deal(game: type[Game], fixed: Sequence[int], unseen: list[int], rng: random.Random) -> Deal:
    """``unseen`` shuffled in place by ``rng`` and dealt in order to fill every hand beside its ``fixed`` cards."""
    rng.shuffle(unseen)
    hands = list(fixed)
    position = 0
    for s in range(len(hands)):
        missing = game.hand_size - hands[s].bit_count()
        for card in unseen[position:position + missing]:
            hands[s] |= 1 << card
        position += missing
    return Deal(game.pack, tuple(hands))


def draw_sample(setup: Setup, k: int, tries: int = MAX_REDRAWS) -> tuple[Rules, PlayState]:
    """Sample ``k``: the unseen cards dealt uniformly to fill every hand, redrawn until the rules accept the deal
    and every card of ``setup.played`` was legal when it was played; returns the rules and the state after the play.

    Replaying the play under the rules is what makes the sample consistent with everything the play showed (a seat
    that did not follow a suit holds none of it, a seat that did not beat could not, the called ace's holder is
    whoever played it) without a line of game-specific inference: a deal the play contradicts is simply redrawn.
    After ``tries`` shuffles without a fit the error names the commonest reason the rules gave. Putting a refusal in
    words compiles its deal's rule tables, dearer than the shuffle, so within FEASIBILITY_TRIES (a search for a
    first fit, which may well find none) each refusal is counted as it is drawn, a fit paying for the words of the
    shuffles refused before it; a larger budget draws without words and, only where no shuffle fits, draws the
    same shuffles again (the same seed) to count them: such a failure costs both passes, the second the dearer,
    and every sample found is spared the words. Either way the deal drawn is the same.

    A bot of one's own calls this (docs/api.md), so the arguments are checked: the seed text is made of ``k``, and
    ``k=True`` or ``1.0`` would silently draw another deal than ``1``."""
    if not isinstance(setup, Setup):
        raise StichError("setup must be a sampling setup (solver.sampling.position_setup(position, seat)), "
                         f"not {type(setup).__name__}")
    if not is_whole_number(k) or k < 0:
        raise StichError(f"k, the sample's number, must be a whole number, at least 0, not {k!r}")
    if not is_whole_number(tries) or tries < 1:
        raise StichError(f"tries must be a whole number, at least 1, not {tries!r}")
    refusals: Counter[str] | None = Counter() if tries <= FEASIBILITY_TRIES else None
    drawn = _draw(setup, k, tries, refusals)
    if drawn is not None:
        return drawn
    if refusals is None:  # no deal fitted: the same shuffles again (the same seed), each refusal in words
        refusals = Counter()
        _draw(setup, k, tries, refusals)
    game = get_game(setup.game)
    if refusals and all(reason.startswith("the announcements: ") for reason in refusals):
        reasons = "; ".join(reason.removeprefix("the announcements: ") for reason, _ in refusals.most_common(3))
        raise StichError(f"the announcements fit none of {tries:,} deals of the unseen cards, whoever holds them: "
                         f"{reasons}")
    reason, count = refusals.most_common(1)[0] if refusals else ("", 0)
    raise StichError(f"no deal of the unseen cards found in {tries:,} shuffles that suits {game.name} "
                     f"{game.contract_in_words(setup.contract)} with declarer {setup.declarer}, the cards given and "
                     f"the play; the commonest refusal ({count:,} of them): {reason}. Check the hand, --known and "
                     "the play: such a deal may not exist, or be too rare to sample")


def _draw(setup: Setup, k: int, tries: int, refusals: Counter[str] | None) -> tuple[Rules, PlayState] | None:
    """:func:`draw_sample`'s shuffles: the first deal that fits, or None after ``tries``. ``refusals`` None: a card
    of the play that the deal makes illegal just redraws; most shuffles are refused so (some 20 a sample a few
    tricks into a Schafkopf deal), and putting the rule in words compiles the refused deal's rule tables, which
    costs more than drawing and replaying the deal. Else each refusal's words are counted in ``refusals``, as the
    error reports them."""
    game = get_game(setup.game)
    rng = random.Random(f"{setup.seed}:{k}")
    unseen = unseen_cards(game, setup.fixed)
    tags: dict[str, Any] = dict(setup.tags)
    # pack indices (what position_setup makes) are tested for legality here, a legal one advanced without play()'s
    # checks and second legality test; any other card (a Setup of one's own) is left to play() and its refusal
    unexplained = refusals is None and all(type(card) is int and 0 <= card < len(game.pack) for card in setup.played)
    for _ in range(tries):
        try:
            rules = game.rules(shuffled_deal(game, setup.fixed, unseen, rng), setup.contract, declarer=setup.declarer,
                               variant=dict(setup.variant) or None, **tags)
            state = rules.start()
            for card in setup.played:
                if not unexplained:
                    state = state.play(card)
                elif state.legal_cards() >> card & 1:
                    state = state.advance(card)
                else:
                    raise _Unexplained
            if setup.announcements is not None:  # a Kontra or a 'dagegen' says which side its seat is on
                game.scoring_inputs(rules, None, announcements=setup.announcements, pot=setup.pot)
        except _Unexplained:
            continue
        except (InvalidContractError, InvalidDealError, IllegalPlayError) as refusal:
            if refusals is not None:
                refusals[str(refusal)] += 1
            continue
        except StichError as refusal:  # announcements that these sides could not have made
            if refusals is not None:
                refusals[f"the announcements: {refusal}"] += 1
            continue
        return rules, state
    return None


class _Unexplained(Exception):
    """A shuffle the play refutes (a card the deal makes illegal), its rule not put in words (:func:`_draw`)."""


# --- one sample --------------------------------------------------------------------------------------------------


def _win_objective(rules: Rules, seat: int) -> Objective:
    """What winning means for the hand: as :func:`~solver.analysis.winning_condition` says (the Tout, else the
    game), for the seat where it is a seat's own target (a per-seat objective)."""
    name = winning_condition(rules)
    return rules.objective(name, seat) if name not in ("tout", "game") else rules.objective(name)


def _measure_objective(rules: Rules, seat: int) -> tuple[str, Objective]:
    """Card points where the game counts them, else the seat's tricks. Its ``maximum`` (88, 120, 4) is the whole
    deal's, the only kind an analysis samples: the bound of every sample's value and the rest of a zero-sum split."""
    if "points" in rules.objective_names():
        return "points", rules.objective("points")
    return "tricks", rules.objective(rules.objective_names()[0], seat)


def _for_hand(value: int, objective: Objective, seat: int, everything: int) -> int:
    """A maximiser's value as the hand's side sees it (zero-sum: the rest goes to the other side)."""
    return value if seat in objective.maximiser else everything - value


def _drawn_total(rules: Rules, objective: Objective) -> int | None:
    """The game objective's total that wins for neither side (``Game.drawn_game_total``: a 44:44 that scores
    nothing); None for any other objective, or where every total decides it."""
    return rules.game.drawn_game_total(rules) if objective.name == "game" else None


def _wins(total: int, objective: Objective, seat: int, drawn: int | None = None) -> bool:
    """Whether the hand's side wins when the maximiser's total is ``total``: the target reached, or for the
    defenders the target missed, and not at the ``drawn`` total (:func:`_drawn_total`), which neither side wins."""
    assert objective.target is not None
    reached = total >= objective.target
    return reached if seat in objective.maximiser else not reached and total != drawn


def searched_win(rules: Rules, state: PlayState, seat: int, engine: EngineSolver) -> bool:
    """Whether ``seat`` (0-based) wins from ``state`` under double-dummy play, as a sample counts it (:func:`_wins`
    of :func:`_win_objective`'s total, searched on ``engine``): for advice where the settlement cannot say it."""
    win = _win_objective(rules, seat)
    return _wins(win.achieved(rules, state) + engine.value(state, win), win, seat, _drawn_total(rules, win))


def searched_measure_and_win(rules: Rules, state: PlayState, seat: int, engine: EngineSolver,
                             win: bool = True) -> tuple[int, bool | None]:
    """``seat``'s (0-based) tricks, or its side's card points where the game counts them, from ``state`` under
    double-dummy play, what is already taken included: a sample's value as :func:`analyse_hand` counts it (its
    ``mean`` and each opening card's), for advice that ranks an equal win by it as ``analyse`` does. With ``win``,
    :func:`searched_win` of the same position too, read off the measure where both count the same thing (a Kratzen
    attacker's tricks and its own trick target: one search, as :func:`analyse_hand` counts a sample); else None for the
    win."""
    measure = _measure_objective(rules, seat)[1]
    measure_value = measure.achieved(rules, state) + engine.value(state, measure)
    value = _for_hand(measure_value, measure, seat, measure.maximum)
    if not win:
        return value, None
    objective = _win_objective(rules, seat)
    total = _from_measure(objective, measure, measure_value, measure.maximum, rules.seats)
    if total is None:
        total = objective.achieved(rules, state) + engine.value(state, objective)
    return value, _wins(total, objective, seat, _drawn_total(rules, objective))


@dataclass
class BonusTally:
    """A bonus's counts over samples: samples where its maximising side was the hand's, and where it was forced for
    the hand's side or against it."""

    description: str
    for_side: int = 0
    forced_for: int = 0
    forced_against: int = 0


@dataclass
class CardTally:
    """A card of the hand to play over samples: samples, the sum of its values for the hand's side, and wins."""

    samples: int = 0
    total: int = 0
    wins: int = 0
    score_total: int = 0  # the sum of its scores for the hand's seat (sixths of a game unit, SHARE_SCALE)


@dataclass
class Sums:
    """A chunk's integer sums (what a worker returns, and what a checkpoint keeps): samples, the sum of the values
    for the hand's side and of their squares, wins, and per bonus ``(name, seat)`` and per card their tallies.
    Integer sums do not depend on the order in which chunks are added."""

    n: int = 0
    total: int = 0
    squares: int = 0
    wins: int = 0
    score_n: int = 0  # the samples scored (the settlement search), the sum of their scores and of the squares
    # (the hand's seat's, in sixths of a game unit: SHARE_SCALE)
    score_total: int = 0
    score_squares: int = 0
    # the least and greatest payment (sixths) any scored sample could have settled at (:func:`payment_range`),
    # joined over the samples' own sides, which differ where the partner is unseen; None: unknown (an older line)
    score_range: tuple[int, int] | None = None
    bonuses: dict[tuple[str, int | None], BonusTally] = field(default_factory=dict)
    cards: dict[int, CardTally] = field(default_factory=dict)

    def add(self, part: Sums) -> None:
        self.score_range = range_after(self.score_range, self.score_n, part.score_range, part.score_n)
        self.n += part.n
        self.total += part.total
        self.squares += part.squares
        self.wins += part.wins
        self.score_n += part.score_n
        self.score_total += part.score_total
        self.score_squares += part.score_squares
        for key, bonus in part.bonuses.items():
            mine = self.bonuses.setdefault(key, BonusTally(bonus.description))
            mine.for_side += bonus.for_side
            mine.forced_for += bonus.forced_for
            mine.forced_against += bonus.forced_against
        for card, tally in part.cards.items():
            held = self.cards.setdefault(card, CardTally())
            held.samples += tally.samples
            held.total += tally.total
            held.wins += tally.wins
            held.score_total += tally.score_total

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "sum": self.total, "squares": self.squares, "wins": self.wins,
                "score_n": self.score_n, "score_sum": self.score_total, "score_squares": self.score_squares,
                **({"score_range": list(self.score_range)} if self.score_range else {}),
                "bonuses": [[name, seat, b.description, b.for_side, b.forced_for, b.forced_against]
                            for (name, seat), b in self.bonuses.items()],
                "cards": [[card, c.samples, c.total, c.wins, c.score_total] for card, c in self.cards.items()]}

    @classmethod
    def from_json(cls, document: Mapping[str, Any]) -> Sums:
        # a checkpoint of a version without the score has no score sums: its analysis then reports no score
        sums = cls(int(document["n"]), int(document["sum"]), int(document["squares"]), int(document["wins"]),
                   int(document.get("score_n", 0)), int(document.get("score_sum", 0)),
                   int(document.get("score_squares", 0)))
        if "score_range" in document:  # an older version's line has none: its payments' interval is not cut
            least, most = document["score_range"]
            sums.score_range = int(least), int(most)
        for name, seat, description, for_side, forced_for, forced_against in document["bonuses"]:
            sums.bonuses[(name, seat)] = BonusTally(description, int(for_side), int(forced_for), int(forced_against))
        for card, samples, total, wins, *score in document["cards"]:
            sums.cards[int(card)] = CardTally(int(samples), int(total), int(wins), int(score[0]) if score else 0)
        return sums


def _from_measure(objective: Objective, measure: Objective, value: int, everything: int,
                  seats: int) -> int | None:
    """The maximiser's total for ``objective`` read off the measure's exact value, when both count the same thing
    (card points with a target, for the same side or for the other one): one search instead of one per bonus.
    "The other side" must be every other seat: a per-seat objective's tricks do not say another seat's."""
    if (objective.points_weight, objective.trick_weight, objective.events) != \
            (measure.points_weight, measure.trick_weight, measure.events) or objective.events:
        return None
    if objective.maximiser == measure.maximiser:
        return value
    if not objective.maximiser & measure.maximiser and len(objective.maximiser | measure.maximiser) == seats:
        return everything - value
    return None


def _all_tricks_ruled_out(objective: Objective, measure: Objective, measure_value: int, everything: int,
                           tricks: int) -> bool:
    """Whether the card points already settle that ``objective``, every trick for its side (Schwarz, Valat), cannot
    be forced: a side that takes every trick takes every card, so it cannot force them all when it cannot force all
    the points (``measure_value`` below ``everything``), nor when the other side can force a point. Saves the
    yes/no search of most samples."""
    if measure.points_weight <= 0 or measure.trick_weight or measure.events:
        return False
    if objective.points_weight or objective.events or objective.trick_weight <= 0 \
            or objective.target is None or objective.target < objective.trick_weight * tricks:
        return False
    if objective.maximiser == measure.maximiser:
        return measure_value < everything
    if not objective.maximiser & measure.maximiser:
        return measure_value > 0
    return False


def _add_sample(sums: Sums, rules: Rules, state: PlayState, seat: int, engine: EngineSolver,
                unscored: frozenset[str]) -> None:
    """Solve one sample and add it to the chunk's integer sums. Totals are what is already won plus the rest under
    double-dummy play. Targets counted in the measure's own unit are read off its exact value; the others (tricks,
    events) get a yes/no search each, but for the ``unscored`` bonuses (:attr:`Setup.unscored`: a Tout's Schneider,
    which no sample could make pay)."""
    position = Position(rules.game, rules, state)
    name, measure = _measure_objective(rules, seat)
    everything = measure.maximum
    win = _win_objective(rules, seat)
    measure_won = measure.achieved(rules, state)
    win_won = win.achieved(rules, state)
    measure_cards = None
    if state.to_move == seat:  # the cards' values give the value too, in less time than a search of its own
        future, measure_cards = engine.value_and_cards(state, measure)
    else:
        future = engine.value(state, measure)
    measure_value = measure_won + future
    value = _for_hand(measure_value, measure, seat, everything)
    win_value = _from_measure(win, measure, measure_value, everything, rules.seats)
    if win_value is None:
        win_value = win_won + engine.value(state, win)
    sums.n += 1
    sums.total += value
    sums.squares += value * value
    drawn = _drawn_total(rules, win)
    sums.wins += int(_wins(win_value, win, seat, drawn))
    if state.to_move == seat:
        assert measure_cards is not None
        if _from_measure(win, measure, 0, everything, rules.seats) is None:
            win_values = {cv.card: win_won + cv.value
                          for cv in engine.card_values(state, win, win_value - win_won)}
        else:
            win_values = {cv.card: cast(int, _from_measure(win, measure, measure_won + cv.value, everything,
                                                           rules.seats))  # not None: it was not for 0
                          for cv in measure_cards}
        for cv in measure_cards:
            tally = sums.cards.setdefault(cv.card, CardTally())
            tally.samples += 1
            tally.total += _for_hand(measure_won + cv.value, measure, seat, everything)
            tally.wins += int(_wins(win_values[cv.card], win, seat, drawn))
    for bonus in (name for name in rules.objective_names() if name not in unscored):
        try:
            pairs = objectives_named(position, bonus)
        except InvalidContractError:
            continue  # the bonus cannot arise on this sample (the Pagat in no hand, ...)
        for bonus_seat, objective in pairs:
            if objective.target is None:
                continue
            total = _from_measure(objective, measure, measure_value, everything, rules.seats)
            if total is not None:
                forced = total >= objective.target
            elif name == "points" and _all_tricks_ruled_out(objective, measure, measure_value, everything,
                                                            rules.tricks_in_deal):
                forced = False
            else:
                forced = can_force(position, objective, engine=engine)
            mine = seat in objective.maximiser
            bonus_tally = sums.bonuses.setdefault((bonus, bonus_seat), BonusTally(objective.description))
            bonus_tally.for_side += int(mine)
            if forced and mine:
                bonus_tally.forced_for += 1
            elif forced:
                bonus_tally.forced_against += 1


def _add_score(sums: Sums, position: Position, seat: int, setup: Setup) -> None:
    """The sample's score for the hand's seat (its share of its side's settlement, :func:`scaled_share`, with the
    setup's announcements and pot), and with the hand to play every card's; nothing where the rules have no
    settlement search."""
    from .score_objective import solve_score  # the settlement search loads on first use
    from .settlement import settlement_unsupported

    if settlement_unsupported(position) is not None or not has_share(position, seat):
        return
    state = position.state
    result = solve_score(position, cards=state.to_move == seat, engine=worker_settlement_engine(),
                         reference_solver=False, announcements=setup.announcements, pot=setup.pot)
    share = scaled_share(position, seat, result.total)
    assert result.net_range is not None  # the score's result carries it
    sample_range = payment_range(position, seat, result.net_range)
    sums.score_range = range_after(sums.score_range, sums.score_n, sample_range)
    sums.score_n += 1
    sums.score_total += share
    sums.score_squares += share * share
    for cv in result.card_values:
        sums.cards.setdefault(cv.card, CardTally()).score_total += scaled_share(position, seat, cv.value)


#: Sums of scores hold sixths of a game unit: a seat's share of its side's net (``Game.seat_share``), shared by one,
#: two or three seats, is then a whole number, and whole numbers add up alike in any order of the chunks.
SHARE_SCALE = 6


def scaled_share(position: Position, seat: int, net: int) -> int:
    """``seat``'s (0-based) share of the declaring side's ``net`` in sixths of a game unit (:data:`SHARE_SCALE`):
    what a player is paid, as advice and the odds compare it (a Rufer's net is shared by two seats, a Solo's is the
    soloist's). Only for a seat whose payment the settlement answers (:func:`has_share`)."""
    share = position.game.seat_share(position.rules, seat, net)
    if share is None or (share * SHARE_SCALE).denominator != 1:  # a bug, not bad input: callers ask has_share
        raise AssertionError(f"seat {seat + 1} has no share of {net} in sixths")
    return int(share * SHARE_SCALE)


def payment_range(position: Position, seat: int, nets: tuple[int, int]) -> tuple[int, int]:
    """The least and greatest payment ``seat`` (0-based) can receive where the declaring side's net lies within
    ``nets`` (the score's :attr:`~solver.search.results.SolveResult.net_range`, the least and greatest entry of the
    position's payoff table), in sixths of a game unit as :func:`scaled_share` counts them: the seat's share of
    either end, as a share rises or falls with the net (``Game.seat_share``). A payment's 95% interval is cut to
    it, joined over the samples (:func:`range_after`), as the card points' is cut to 0 .. the deal's total. Only for
    a seat whose payment the settlement answers (:func:`has_share`)."""
    least, most = sorted(scaled_share(position, seat, net) for net in nets)
    return least, most


def range_after(held: tuple[int, int] | None, held_n: int, added: tuple[int, int] | None,
                added_n: int = 1) -> tuple[int, int] | None:
    """The payment range of ``held_n`` samples once ``added_n`` more of range ``added`` join them: the range that
    holds both, the union over samples whose sides differ (who is the seat's partner), None where either is unknown
    (no cut is sound then); a side of no samples adds nothing."""
    if not added_n:
        return held
    if not held_n:
        return added
    if held is None or added is None:
        return None
    return min(held[0], added[0]), max(held[1], added[1])


def has_share(position: Position, seat: int) -> bool:
    """Whether ``seat``'s (0-based) own payment is what the settlement search answers: not a Kratzen seat that does
    not declare (every seat plays for itself there, and only the attacker's payment is searched)."""
    return position.game.seat_share(position.rules, seat, 0) is not None


def sample_chunk(setup: Setup, first: int, count: int, limits: ChunkLimits | None = None) -> Sums:
    """Samples ``first`` .. ``first + count - 1``, solved by one worker, as integer sums; with ``limits``, up to the
    first sample they stop (the sums then hold fewer samples than asked: :func:`_analyse` counts those done)."""
    engine = worker_engine()
    sums = Sums()
    for k in range(first, first + count):
        if limits is not None and limits.passed(k):
            break
        rules, state = draw_sample(setup, k)
        _add_sample(sums, rules, state, setup.seat, engine, setup.unscored)
        _add_score(sums, Position(rules.game, rules, state), setup.seat, setup)
    return sums


# --- the analysis -------------------------------------------------------------------------------------------------


def cards_text(cards: object, what: str) -> str:
    """Cards given as one string of tokens, or any collection of tokens or Cards (a list, a CardSet), as one
    string."""
    if isinstance(cards, str):
        return cards
    items = card_items(cards)
    if items is not None and all(isinstance(item, (str, Card)) for item in items):
        return " ".join(str(item) for item in items)
    raise InvalidDealError(f"{what} is card tokens, as one string or a list, not {cards!r}")


def cards_of(game: type[Game], text: str, at: int, what: str) -> int:
    """The cards of one seat's ``text`` as a mask (``at``: 0-based), a card given twice or not of the pack said as
    ``what`` they are (the hand analysed, a seat's known cards): the deal parser's "seat N:" names a seat of a deal
    read from a record, which a hand given alone (``--hand``) is not, and does not say the cards were the known
    ones."""
    return parse_hand(game.pack, text, at, label=what)


def no_known_cards_text(given: object, seat: int, form: str) -> str:
    """Known cards of ``seat`` that name none (``given`` as the caller wrote them): the API's ``known={2: ""}`` and
    ``--known "2:"`` in one wording, ``form`` saying how to give them. Refused, not taken: knowing nothing of a
    seat is leaving it out, so an empty list is a slip (a card list lost to the shell, a variable unset)."""
    return f"{given!r} names no cards of seat {seat} ({form})"


def known_cards_of(game: type[Game], cards: CardTokens, seat: int) -> int:
    """The known cards of ``seat`` (1-based) as a mask, said as known cards when they are no cards of the pack or
    one is given twice, or when they are none: one message wherever they are read (the analysis, the advice,
    ``--known`` of a record)."""
    text = cards_text(cards, f"the known cards of seat {seat}")
    if not text.strip():
        form = f"known={{{seat}: '{game.pack.example()}'}}; leave out a seat with none"
        raise InvalidDealError(f"known cards for seat {seat}: {no_known_cards_text(cards, seat, form)}")
    return cards_of(game, text, seat - 1, f"known cards for seat {seat}")


def seat_cards(game: type[Game], seats: object, seat: object, hand: CardTokens,
               known: Mapping[int, CardTokens] | None, seed: object) -> list[int]:
    """The fixed cards by seat (masks) of a question from ``seat``'s view (1-based): its ``hand`` and the ``known``
    cards of other seats, checked once with messages a player can act on (the seat count, the seat and the seed
    too)."""
    if not isinstance(seats, int) or seats not in game.seat_counts:
        raise InvalidDealError(f"{game.name} is played by {game.seat_counts_text()} seats, not {seats!r}")
    if not is_whole_number(seat) or not 1 <= seat <= seats:  # type: ignore[operator]
        raise InvalidSeatError(f"seat {seat!r} is not a seat of a {seats}-seat {game.name} deal")
    if not is_whole_number(seed):
        raise StichError(f"the seed is a whole number, not {seed!r}")
    if known is not None and not isinstance(known, Mapping):
        raise StichError(f"known cards are a mapping of seats to cards ({{2: '{game.pack.example()}'}}), not "
                         f"{known!r}")
    at = cast(int, seat) - 1
    fixed = [0] * seats
    fixed[at] = cards_of(game, cards_text(hand, f"seat {seat}'s hand"), at, f"the analysed hand (seat {seat})")
    if fixed[at].bit_count() != game.hand_size:
        raise InvalidDealError(f"seat {seat}: a {game.name} hand holds {game.hand_size} cards, "
                               f"this one {fixed[at].bit_count()}")
    for other, cards in (known or {}).items():
        if not is_whole_number(other) or not 1 <= other <= seats:
            raise InvalidSeatError(f"known cards for seat {other!r}: not a seat of a {seats}-seat deal")
        if other == seat:
            raise StichError(f"known cards for seat {other}: that is the analysed hand")
        mask = known_cards_of(game, cards, other)
        for s, held in enumerate(fixed):
            if held & mask:  # the hand analysed, or cards an earlier --known gave another seat
                both = game.pack.names(held & mask)
                verb = "is" if len(both) == 1 else "are"
                whose = f"{verb} already in seat {s + 1} (the analysed hand)" if s == at else \
                    f"{verb} already given to seat {s + 1} as a known card"
                raise InvalidDealError(f"known cards for seat {other}: {', '.join(both)} {whose}")
        fixed[other - 1] |= mask
        if fixed[other - 1].bit_count() > game.hand_size:
            raise InvalidDealError(f"known cards for seat {other}: {fixed[other - 1].bit_count()}, more than a "
                                   f"{game.name} hand of {game.hand_size}")
    return fixed


def announced_tags(game: type[Game], announcements: object, seats: int) -> dict[str, object]:
    """The state tags announcements given as text imply (``Game.announced_state``: an announced Pagat's announcer),
    as a record's ``[Announcements]`` imply them; none for anything else."""
    if not isinstance(announcements, str) or not game.has_announcements:
        return {}
    implied = game.announced_state(parse_announcements(announcements, seats))
    return {name: value for name, value in implied.items() if value is not None}


def lacks_announced(game: type[Game], seat: int, mask: int, holder: int | None = None) -> InvalidDealError:
    """The error for ``seat`` (0-based) announcing what needs the cards of ``mask``, which its hand as given lacks
    (``holder``: the seat they are given to instead), said at once rather than after a search of deals."""
    cards = ", ".join(game.pack.names(mask))
    if holder is not None:
        return InvalidDealError(f"seat {seat + 1} announced what needs {cards}, which seat {holder + 1}'s hand as "
                                "given holds")
    return InvalidDealError(f"seat {seat + 1} announced what needs {cards}, which its hand as given does not hold")


def check_own_bid(game: type[Game], fixed: Sequence[int], seat: int, contract: str,
                  variant: Mapping[str, object] | None, tags: Mapping[str, object] | None) -> None:
    """Refuse at once a contract the seat declares that its own hand forbids (a Zwanzigerrufen forehand calling a
    tarock she holds or not the highest she lacks, a Suit Solo without its suit cards, a Rufer on a held ace): the
    bid checks read the declarer's cards only, so one deal of the unseen cards says it, where sampling would spend
    its shuffles and blame the unseen cards (as :func:`solver.advice.make_setup` checks a list of contracts)."""
    deal = shuffled_deal(game, fixed, unseen_cards(game, fixed), random.Random("bid check"))
    check_bid(game, deal, seat, contract, dict(variant or {}) or None, tags)


def check_bid(game: type[Game], deal: Deal, seat: int, contract: str, variant: Mapping[str, object] | None,
              tags: Mapping[str, object] | None = None) -> None:
    """Refuse a contract that ``seat`` may not announce on ``deal`` (its own cards decide it), saying so as a player
    would: the one refusal of an analysis and of contract advice (:func:`solver.advice.advice_setup`). The hand is
    checked first, then the announcements' ``tags``, so that the refusal blames the one that refuses: a Pagat
    Ultimo in a Suit Solo is no fault of a hand that holds the suit cards."""
    checks: tuple[tuple[dict[str, Any], str], ...] = (({}, "this hand"), (dict(tags or {}), "these announcements"))
    for announced, blamed in checks:
        try:
            game.rules(deal, contract, declarer=seat, variant=variant, **announced)
        except (InvalidContractError, InvalidDealError) as error:
            raise InvalidContractError(f"seat {seat} cannot announce {game.contract_in_words(contract)} with "
                                       f"{blamed}: {error}") from None
        if not tags:
            return


def _setup(game: type[Game], hand: CardTokens, seat: int, contract: str, known: Mapping[int, CardTokens] | None,
           declarer: int,
           variant: Mapping[str, object] | str | None, seats: int, seed: int,
           played: Mapping[int, int] | None = None, order: tuple[int, ...] = (),
           tags: Mapping[str, object] | None = None, announcements: str | None = None,
           pot: int | None = None) -> Setup:
    """Check the hand and the known cards once, before any sampling, with messages a player can act on."""
    check_scoring_inputs(game, pot, announcements)
    read_pot(None, pot)  # a pot given is a whole number of chips in range
    if announcements is not None and not isinstance(announcements, str):
        raise StichError("announcements are the [Announcements] tag's text ('2: Kontra; 1: Pagat'), not "
                         f"{announcements!r}")
    fixed = seat_cards(game, seats, seat, hand, known, seed)
    if not is_whole_number(declarer) or not 1 <= declarer <= seats:
        raise InvalidSeatError(f"declarer {declarer!r} is not a seat of a {seats}-seat {game.name} deal")
    if not isinstance(contract, str):
        raise InvalidContractError(f"a contract is text such as {game.contract_help}, not {contract!r}")
    parsed = game.parse_contract(contract)  # a bad contract fails at once
    hidden = game.hidden_in_contract(parsed)
    if hidden and seat != declarer:
        raise InvalidContractError(f"contract {contract!r} leaves {hidden} to the declarer's hand, which seat {seat} "
                                   "does not see; name it as the table heard it")
    if isinstance(variant, str):
        variant = Variant.parse_pairs(variant, game.flags)
    game.variant(variant)  # an unknown flag or value fails at once
    known_masks = list(fixed)
    for other, mask in (played or {}).items():  # a card played was in its player's hand
        if other == seat - 1:
            continue
        for s, held in enumerate(known_masks):
            if s != other and held & mask:
                raise InvalidDealError(f"seat {s + 1}: {', '.join(game.pack.names(held & mask))} was played by "
                                       f"seat {other + 1}")
        fixed[other] |= mask
        if fixed[other].bit_count() > game.hand_size:
            raise InvalidDealError(f"seat {other + 1}: the known cards and the cards it played are more than a "
                                   f"hand of {game.hand_size}")
    for other, mask in game.cards_announced(tags or {}).items():
        # an announced card still unseen is in its announcer's hand (before the bid check deals the rest, whose
        # rules refuse it elsewhere); one seen in another hand is refused
        if fixed[other] & mask == mask:
            continue
        elsewhere = [s for s, held in enumerate(fixed) if s != other and held & mask]
        if elsewhere or fixed[other].bit_count() + (mask & ~fixed[other]).bit_count() > game.hand_size:
            raise lacks_announced(game, other, mask, elsewhere[0] if elsewhere else None)
        fixed[other] |= mask
    if declarer == seat and not played:
        check_own_bid(game, fixed, seat, contract, variant, tags)
    # the contract by its name (``Rufer E``), as every report names it, not as typed (``rufer e``)
    return Setup(game.name, seats, tuple(fixed), seat - 1, parsed.text, declarer,
                 tuple(sorted((variant or {}).items())), seed, order, tuple(sorted((tags or {}).items())),
                 announcements.strip() or None if announcements else None, pot)


def analyse_hand(game: str | type[Game], hand: CardTokens, seat: SupportsIndex, contract: str, *,
                 known: Mapping[int, CardTokens] | None = None, samples: int = 200, seed: int = DEFAULT_SEED,
                 workers: int | None = None, declarer: SupportsIndex = 1,
                 variant: Mapping[str, object] | str | None = None,
                 seats: int | None = None, checkpoint: str | os.PathLike | None = None,
                 memory_mb: int | None = None, scheduler: str | None = None,
                 worker_wait: float = DEFAULT_WORKER_WAIT_SECONDS, notify: Notify | None = None,
                 verbose: bool = False, table_mb: int | None = None,
                 progress: Callable[[HandAnalysis], None] | None = None, announcements: str | None = None,
                 pot: int | None = None, time_limit: float | None = None,
                 stop: threading.Event | None = None) -> HandAnalysis:
    """The single-dummy analysis of ``hand`` held by ``seat`` (1-based) under ``contract`` (declared by
    ``declarer``): ``samples`` deals of the unseen cards, each solved double-dummy.

    Each sample's score is settled with ``announcements`` (the text of an ``[Announcements]`` tag; a sample whose
    sides they do not fit, as a Kontra said by the partner, is redealt) and ``pot``, for the games that have them.

    ``known`` maps seats to cards known to be in their hands. The result is the same for a given ``seed`` whatever
    ``workers`` is (default: every local core; 1 runs in this process unless ``memory_mb`` caps the workers, see
    :mod:`solver.workers`). With ``checkpoint`` (a file path) every finished chunk of samples is appended to that file
    as it is done, and a rerun with the same arguments continues from it: an analysis killed at any moment loses
    only the chunks in flight, and the resumed result equals an uninterrupted one. ``scheduler`` runs the samples on
    that Dask cluster instead, as :func:`~solver.batch.solve_batch` does its records (``worker_wait``, ``notify``,
    ``verbose``). ``table_mb`` sizes each local worker's table (None: the default). ``progress(analysis so far)``
    is called after each chunk (a live display). ``time_limit`` (seconds) and ``stop`` (an Event any thread may
    set) end the run early, as the advice's do: no chunk of samples is handed out after them, and a chunk handed
    out begins no sample after them (in a local pool's workers too), so a run returns within about a sample's time;
    the first sample always runs (so 0 still gives an analysis of one sample), and a sample begun is finished;
    ``stopped`` says why. Raises StichError for an
    impossible hand or constraints, or a checkpoint written by another analysis."""
    check_time_limit(time_limit, StichError)
    check_stop(stop, StichError)
    check_callback(progress, "progress", "the result so far")
    game = get_game(game)
    # any integral seat (a numpy integer too) as an int, checked by _setup, which names what was given
    seat_number, declarer_number = cast(int, integral(seat)), cast(int, integral(declarer))
    seats = integral(seats)  # type: ignore[assignment]
    seat_count = seats or game.seat_counts[0]
    # what the announcements tell every seat, as a record's do: an announced Pagat is in its announcer's hand
    tags = announced_tags(game, announcements, seat_count)
    setup = _setup(game, hand, seat_number, contract, known, declarer_number, variant, seat_count, seed, tags=tags,
                   announcements=announcements, pot=pot)
    return _analyse(game, setup, samples, checkpoint, known,
                    Pool(workers, scheduler, memory_mb, worker_wait, notify, verbose, table_mb), progress=progress,
                    time_limit=time_limit, stop=stop, typed_contract=contract)


def _analyse(game: type[Game], setup: Setup, samples: int, checkpoint: str | os.PathLike | None,
             known: Mapping[int, CardTokens] | None, pool: Pool, known_feasible: bool = False,
             progress: Callable[[HandAnalysis], None] | None = None, time_limit: float | None = None,
             stop: threading.Event | None = None, typed_contract: str | None = None) -> HandAnalysis:
    """Solve the samples (in this process or on the pool, resuming a checkpoint) and build the report.
    ``known_feasible``: a deal is known to meet the constraints (the record's own), so none is looked for first.
    ``time_limit`` and ``stop`` hand out no chunk after them but the first, and end a chunk before its next sample
    (:class:`~solver.workers.ChunkLimits`; see :func:`analyse_hand`).
    ``typed_contract``: the contract as the caller wrote it, which older checkpoints are keyed by."""
    check_run(samples, checkpoint)
    setup.draw_first_sample(MAX_REDRAWS if known_feasible else FEASIBILITY_TRIES)
    seed = setup.seed
    count = min(pool.spread_over, samples)
    size = chunk_size(samples, count)
    total = Sums()
    setup_identity, setup_aliases = checkpoint_identity(asdict(setup))
    # a checkpoint written before the setup named the contract by its name (``Rufer E``) keyed it as typed
    if typed_contract is not None and typed_contract != setup.contract:
        setup_aliases += [document | {"contract": typed_contract} for document in (setup_identity, *setup_aliases)]
    identity = {"setup": setup_identity, "samples": samples, "share_scale": SHARE_SCALE}
    if setup.drawn_total is not None:  # only there: other variants' checkpoints, written before it, still resume
        identity["drawn_total"] = setup.drawn_total
    aliases = [identity | {"setup": document} for document in setup_aliases]
    # sample k is drawn from the seed and k alone: a run of another -n holds this one's samples, those below -n
    journal = Journal(checkpoint, identity, aliases=aliases, varying=("samples",), end=samples) \
        if checkpoint is not None else None
    deadline = Deadline(time_limit, stop)
    stopped: list[str] = []

    def go_on(span: Span | None = None) -> bool:
        if span is not None and span.first == 0:
            return True  # the first chunk always: a report needs a sample
        reason = deadline.stopped_by()
        if reason is not None:
            stopped.append(reason)
        return not stopped

    task: Callable[..., Sums] = sample_span
    if deadline.limited and not pool.scheduler:  # each chunk looks before each sample too (a cluster's clocks differ)
        pool = replace(pool, stop=stop)
        task = partial(sample_span, limits=ChunkLimits(time_limit, pool.task_stop, at_least=1))  # sample 0 always
    run_spans(pool, samples, size, task, setup, journal, _checkpoint_sums, total.add,
              None if progress is None else lambda: progress(replace(_report(game, setup, total, seed),
                                                                     requested=samples)),
              go_on=go_on if deadline.limited else None,
              solved=(lambda span, sums: Span(span.first, sums.n)) if task is not sample_span else None,
              notices=None if checkpoint is None else partial(_without_drawn_total, checkpoint, identity, aliases,
                                                               samples))
    if total.n < samples and not stopped:  # the last chunks were cut short
        go_on()
    return replace(_report(game, setup, total, seed), stopped=stopped[0] if stopped else None, requested=samples)


def _without_drawn_total(checkpoint: str | os.PathLike, identity: Mapping[str, Any],
                         aliases: Sequence[Mapping[str, Any]], samples: int) -> list[tuple[str, type[StichWarning]]]:
    """What to say of the samples a checkpoint holds for this analysis under its identity without the drawn total
    (written before a 44:44 under ``tie_44=no_score`` was neither side's win, when it counted as the defenders'):
    another job's, so that those this run lacks are solved again beside them, which is said rather than done
    silently. Nothing where the identity has no drawn total or the file holds none of them."""
    if "drawn_total" not in identity:
        return []
    named = [identity, *aliases]
    before = [{name: value for name, value in job.items() if name != "drawn_total"} for job in named]
    drawn = identity["drawn_total"]
    return older_job_notices(checkpoint, before, named, samples, "analysis",
                             f"written before its job named the drawn total, {drawn}, when a total of {drawn} counted "
                             "as the defenders' win")


def chunk_size(samples: int, workers: int, per_worker: int = 32, most: int = 10) -> int:
    """Samples a chunk: small enough (about ``per_worker`` chunks a worker, at most ``most`` samples) that no worker
    idles long at the end, since a sample's time varies a hundredfold and a large chunk with a slow sample in it
    would keep its worker busy alone; large enough that a chunk's round trip costs nothing next to its samples."""
    return max(1, min(most, -(-samples // (per_worker * workers))))


def checkpoint_identity(document: Mapping[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A setup (``asdict``, with its ``game`` and ``variant``) as a checkpoint names its job, and the spellings of it
    earlier checkpoints were written under. The variant is named as the game reads it: each flag parsed, in lower
    case, those at their default left out, so that ``variant={"suit_solo_min_suit_cards": 0}`` from the API and
    ``--variant suit_solo_min_suit_cards=0`` (the text ``"0"``) resume each other's checkpoint. A checkpoint keyed
    by the variant as given (the flags as given, or each value as text) is still this job's: no resume is lost."""
    given = [(str(name), value) for name, value in document["variant"]]
    flags = get_game(document["game"]).variant(dict(given) or None)
    canonical = dict(document) | {"variant": flags.key()}
    spellings = [given, [(name, str(value)) for name, value in given],
                 list(flags.spelt(name for name, _ in given).items())]
    aliases: list[dict[str, Any]] = []
    for spelling in spellings:
        alias = dict(document) | {"variant": spelling}
        if _same_json(alias, canonical) or any(_same_json(alias, known) for known in aliases):
            continue
        aliases.append(alias)
    return canonical, aliases


def _same_json(one: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
    return json.dumps(one, sort_keys=True) == json.dumps(other, sort_keys=True)


def check_run(samples: object, checkpoint: object) -> None:
    """A sampling run's sample count and checkpoint path, checked before anything runs."""
    if not is_whole_number(samples) or not 1 <= samples <= MAX_SAMPLES:  # type: ignore[operator]
        raise StichError(f"samples must be a whole number from 1 to {MAX_SAMPLES:,}, not {samples!r}")
    if checkpoint is not None and not isinstance(checkpoint, (str, os.PathLike)):
        raise StichError(f"the checkpoint is a file path, not {checkpoint!r}")


def run_spans(pool: Pool, samples: int, size: int, task: Callable[..., Any], setup: Any, journal: Journal | None,
              read: Callable[[Mapping[str, Any], str], Any], add: Callable[[Any], None],
              after: Callable[[], None] | None = None, go_on: Callable[[Span], bool] | None = None,
              solved: Callable[[Span, Any], Span] | None = None,
              notices: Callable[[], Sequence[tuple[str, type[StichWarning]]]] | None = None) -> None:
    """Samples 0 .. ``samples - 1`` in spans of at most ``size`` on ``pool`` (``task(span, setup)`` returns a span's
    integer sums, which ``add`` merges): the spans ``journal`` holds are read back (``read(sums, "FILE:LINE:1")``,
    the place for its refusal) instead of solved,
    every new one is appended to it as it finishes, then ``after()`` runs (a live display). ``go_on(span)`` is asked
    before each span is handed out: False hands out no more (a time limit, a stop), and the spans in flight finish.
    A task that may stop early (its searches' time limit) solves the first samples of its span only: ``solved(span,
    sums)`` says which, and only those count as done (journalled; a resume solves the rest). The journal is closed
    at the end, however the run ends. ``notices()`` (text and category) are worked out and warned once the journal has
    accepted the file and has room for the samples left, before what a resume of another sample count says: a run
    the full disk refuses says nothing it did not do, and a pipe or a device is refused before anything reads it."""
    done = SpanSet()

    def jobs() -> Iterator[Span]:
        for span in spans(samples, done, size):  # only samples not done: a resume may cut chunks otherwise
            if go_on is not None and not go_on(span):
                return
            yield span

    def finished(span: Span, part: Any) -> None:
        if solved is not None:
            span = solved(span, part)
            if not span.size:
                return
        add(part)
        if journal is not None:
            journal.append(span, part.to_json())
        if after is not None:
            after()

    try:
        if journal is not None:
            journal_name = shown_name(journal.path)
            for number, span, document in journal.done_lines():
                add(read(document, f"{journal_name}:{number}:1"))
                done.add(span)  # the journal yields each sample once
            if next(done.gaps(samples), None) is not None:
                journal.check_room("no sample of this analysis solved")  # not for nothing on a full disk
            # worked out and said once the file is accepted and the room is there: a refused run reads nothing of
            # it, resumes nothing, solves nothing again
            said = [] if notices is None else list(notices())
            if not said and (others := other_jobs_note(
                    journal, "analysis", "hand, contract, seed or settings",
                    "an analysis resumes only its own samples")) is not None:
                said.append((others, OtherJobsNotResumed))
            if journal.resumed_from:
                said.append((other_count_text(journal.path, journal.resumed_from, journal.resumed_samples,
                                               done.count(), samples), OtherCountResumed))
            for text, category in said:
                warn_caller(text, category)
        pool.run(jobs(), task, (setup,), finished)
    finally:
        if journal is not None:
            journal.close()


def other_count_text(path: str | os.PathLike, others: Sequence[Mapping[str, Any]], theirs: int, read: int,
                     samples: int) -> str:
    """What a run resumes from a checkpoint of runs of another sample count (:attr:`Journal.resumed_from`): what
    they were and the samples of theirs, then all the samples read back and those left to solve."""
    counts = " and ".join(f"{other.get('samples'):,}" if isinstance(other.get("samples"), int) else str(other)
                          for other in others)
    runs = "a run" if len(others) == 1 else "runs"
    return checkpoint_note(path, f"{theirs:,} sample{'' if theirs == 1 else 's'} of {runs} of {counts}", "resumed",
                           f"in a run of {samples:,}: sample k is the same whatever their number",
                           f"{read:,} read back, {samples - read:,} left to solve")


def older_job_notices(checkpoint: str | os.PathLike, older: Sequence[Mapping[str, Any]],
                      named: Sequence[Mapping[str, Any]], samples: int, what: str,
                      written: str) -> list[tuple[str, type[StichWarning]]]:
    """What to say of the samples a checkpoint holds for this run's job under an older identity of it (``older``:
    its headers; ``named``: the job's as named now; ``what``: the kind of job, ``written``: how its samples were
    written): another job's, so that those of this run the job as named lacks are solved again beside them, which
    is said rather than done silently (:func:`~solver.checkpoint.not_resumed_note`). Nothing where there are none.
    One reading of the file, and one more for the count of all of them (of runs of any sample count) only when
    there is something to say."""
    held_by = journalled_by_job(checkpoint, {"older": older, "named": named}, samples)
    again = held_by["older"].count_not_in(held_by["named"])
    if not again:
        return []
    held = journalled_samples(checkpoint, older).count()
    lacked = f"the {again:,} it lacks" if again > 1 else "the one it lacks"
    return [(not_resumed_note(checkpoint, f"{held:,} sample{'' if held == 1 else 's'} of this {what}", written,
                              f"this run solves {lacked}", one=held == 1), StichWarning)]


def record_scoring(position: Position, pot: int | None = None) -> tuple[str | None, int | None]:
    """What a position's record is scored with: its announcements (which also say who sits on which side) and its
    pot (``pot`` in place of its ``[Pot]`` tag, as ``score --pot`` does), None where it has none; announcements the
    rules refuse are said here, pointed at in the tag."""
    record, game = position.record, position.game
    check_scoring_inputs(game, pot)
    announced = record.get("Announcements") if record is not None and game.has_announcements else None
    if pot is not None:
        pot = read_pot(record, pot)
    elif record is not None and game.has_pot and record.get("Pot"):
        pot = read_pot(record, None)
    if announced:
        scoring_inputs(position)
    return announced or None, pot


def hand_position(game: str | type[Game], hand: CardTokens, seat: SupportsIndex, contract: str, *,
                  known: Mapping[int, CardTokens] | None = None, declarer: SupportsIndex = 1,
                  variant: Mapping[str, object] | str | None = None, seats: int | None = None,
                  pot: int | None = None) -> Position:
    """The start of a deal in which ``seat`` (1-based) holds ``hand`` under ``contract``, the other hands one deal
    that fits the hand and the ``known`` cards: what card advice needs to rank the opening cards of a hand with no
    record (it keeps the seat's hand and redeals the rest, so which fitting deal is taken does not matter).
    Impossible constraints fail after the feasibility search's shuffles, naming why, as :func:`analyse_hand` does."""
    game = get_game(game)
    seat_number, declarer_number = cast(int, integral(seat)), cast(int, integral(declarer))
    seat_count = cast(int, integral(seats)) or game.seat_counts[0]
    setup = _setup(game, hand, seat_number, contract, known, declarer_number, variant, seat_count, DEFAULT_SEED,
                   pot=pot)
    rules, state = draw_sample(setup, 0, FEASIBILITY_TRIES)
    return Position(game, rules, state)


def position_setup(position: Position, seat: SupportsIndex, *, known: Mapping[int, CardTokens] | None = None,
                   seed: int = DEFAULT_SEED, pot: int | None = None) -> Setup:
    """The sampling of ``seat``'s view (1-based) at a position mid-play: the hand as dealt, the contract, the
    variant, the record's public rule state (a Pagat announcement: its announcer holds the Pagat in every sample,
    as the table infers, and under ``hard_pagat_reservation`` keeps it to the last trick) and the cards played so
    far are kept; the other hands are forgotten and redealt from the unseen cards, each sample consistent with the
    play (see :func:`draw_sample`). The analysis from a position and the sampling bot start here."""
    rules = check_position(position).rules
    game = position.game
    if not game.is_whole(rules.deal):
        raise InvalidDealError("an analysis from a position needs a whole deal and the play from the first trick "
                               "(the unseen cards are redealt), not an ending")
    given, seat = seat, integral(seat)  # type: ignore[assignment]  # a numpy seat too, as every seat of the API
    if not is_whole_number(seat) or not 1 <= seat <= rules.seats:
        raise InvalidSeatError(f"seat {given!r} is not a seat of this {rules.seats}-seat deal")
    played: dict[int, int] = {}
    state = rules.start()
    for card in position.played:
        played[state.to_move] = played.get(state.to_move, 0) | 1 << card
        state = state.advance(card)
    hand = " ".join(game.pack.names(rules.deal.hands[seat - 1]))
    # Of the record's rule state only the announcements are public: a [Partner] tag says who holds the called card,
    # which the seat cannot know (each sample's partner is its called card's holder), and in a whole deal whether
    # the called suit was led follows from the play.
    public = {name: value for name, value in rules.state_tags.items() if name not in rules.game.hidden_state_tags}
    announced, pot = record_scoring(position, pot)
    return _setup(game, hand, seat, rules.contract.text, known, rules.declarer + 1, dict(rules.variant.changed()),
                  rules.seats, seed, played, position.played, public, announced, pot)


def analyse_position(position: Position, seat: SupportsIndex, *, known: Mapping[int, CardTokens] | None = None,
                     samples: int = 200, seed: int = DEFAULT_SEED, workers: int | None = None,
                     checkpoint: str | os.PathLike | None = None, memory_mb: int | None = None,
                     scheduler: str | None = None, worker_wait: float = DEFAULT_WORKER_WAIT_SECONDS,
                     notify: Notify | None = None, verbose: bool = False,
                     table_mb: int | None = None,
                     progress: Callable[[HandAnalysis], None] | None = None,
                     pot: int | None = None, time_limit: float | None = None,
                     stop: threading.Event | None = None) -> HandAnalysis:
    """The single-dummy analysis of ``seat``'s hand (1-based) at a position mid-play (see :func:`position_setup`
    for what is kept and what is redealt). The figures are totals for the deal: what each side has already taken
    plus the rest under double-dummy play. ``pot`` replaces the record's ``[Pot]``; the other arguments are those
    of :func:`analyse_hand`."""
    check_time_limit(time_limit, StichError)
    check_stop(stop, StichError)
    check_callback(progress, "progress", "the result so far")
    setup = position_setup(position, integral(seat), known=known, seed=seed, pot=pot)  # type: ignore[arg-type]
    rules = position.rules
    # the real deal fits unless --known adds cards or an announcement placed a card elsewhere than the deal has it
    real = all(fixed & ~dealt == 0 for fixed, dealt in zip(setup.fixed, rules.deal.hands))
    return _analyse(position.game, setup, samples, checkpoint, known,
                    Pool(workers, scheduler, memory_mb, worker_wait, notify, verbose, table_mb),
                    known_feasible=not known and real, progress=progress, time_limit=time_limit, stop=stop)


def sample_span(span: Span, setup: Setup, limits: ChunkLimits | None = None) -> Sums:
    """:func:`sample_chunk` for a span of samples: the shape of a pool job."""
    if limits is None:
        return sample_chunk(setup, span.first, span.size)
    return sample_chunk(setup, span.first, span.size, limits)


def mean_interval(n: int, total: int, squares: int, confidence: float = 0.95,
                  within: tuple[float, float] | None = None) -> tuple[float, float, float]:
    """Mean and 95% interval from integer sums (nan where n < 2 leaves no spread): Student's t for n - 1 degrees of
    freedom, since the spread is estimated from the same few samples and the normal quantile would make their
    interval too narrow (5 samples: 1.96 where 2.78 is right; 200 samples: 1.97, nearly the normal's). The variance
    is exact in integers, so samples all alike give an interval of no width, not a rounding error's.
    ``confidence``: another level than 95%, for an interval that is one of several read together (advice's gaps to
    the best, :func:`solver.advice.ranked_rows`). ``within``: the least and greatest value a sample can take (card
    points' 0 .. the deal's total, a payment's :func:`payment_range`), to which the interval is cut: the mean of
    such values lies there too, and at a few samples t times the spread would reach past it."""
    if not n:
        return math.nan, math.nan, math.nan
    mean = total / n
    if n < 2:
        return mean, math.nan, math.nan
    variance = max(0, n * squares - total * total) / (n * (n - 1))
    spread = t_quantile(n - 1, confidence) * math.sqrt(variance / n)
    if within is None:
        return mean, mean - spread, mean + spread
    least, most = within
    return mean, max(mean - spread, least), min(mean + spread, most)


#: Why a mean has no interval, as the JSON documents say it beside the interval's nulls (``interval_note``).
NO_SAMPLE, ONE_SAMPLE, ALL_ALIKE = "no sample", "one sample", "all samples alike"


def interval_note(n: int, low: float, high: float) -> str | None:
    """Why a mean over ``n`` samples with the interval ``low .. high`` (:func:`mean_interval`) has none to give, or
    None when it has one. Samples all alike give an interval of no width: it says only that no other value was met
    in these samples (a rare deal may still move the mean), not a certainty, so the documents give no interval
    there, as before two samples."""
    if n < 1:
        return NO_SAMPLE
    if n < 2:
        return ONE_SAMPLE
    return ALL_ALIKE if low == high else None


def interval_document(n: int, low: float, high: float) -> tuple[list[float | None], str | None]:
    """An interval as the JSON documents write it, and its note: ``[low, high]`` and None, or ``[null, null]`` and
    why there is none (:func:`interval_note`)."""
    note = interval_note(n, low, high)
    return ([None, None] if note else [low, high]), note


def spans(samples: int, done: SpanSet | set[int], size: int) -> Iterator[Span]:
    """Runs of consecutive sample numbers not ``done``, at most ``size`` long: the chunks still to solve, made as
    they are asked for (ten million samples are a million chunks)."""
    for first, end in (done if isinstance(done, SpanSet) else SpanSet(done)).gaps(samples):
        for start in range(first, end, size):
            yield Span(start, min(size, end - start))


def _checkpoint_sums(document: Mapping[str, Any], where: str) -> Sums:
    """A checkpoint line's sums, or StichError naming the line (``where``: ``FILE:LINE:1``) when they are not sums."""
    try:
        return Sums.from_json(document)
    except (ValueError, KeyError, TypeError):
        raise FileError(f"{where}: this checkpoint line holds no sums of samples; {REMOVE_THE_LINE}") from None


def _report(game: type[Game], setup: Setup, total: Sums, seed: int) -> HandAnalysis:
    """The analysis's figures; its ``known`` cards are every other seat's fixed cards: those given as known and,
    from a record, those each seat has played."""
    n = total.n
    # no value lies outside 0 .. the deal's total, nor a payment outside what the contract can pay: nor does the
    # interval
    mean, low, high = mean_interval(n, total.total, total.squares, within=(0, setup.measure_most))
    interval = (low, high) if n > 1 else (mean, mean)  # one sample: the interval's ends are the mean
    bonuses = tuple(BonusChance(name, s, tally.description, tally.for_side, tally.forced_for, tally.forced_against, n,
                                game=game.name)
                    for (name, s), tally in sorted(total.bonuses.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)))
    scored = total.score_n == n
    measure = setup.measure
    score_mean = score_interval = None
    if scored:
        score_mean, score_low, score_high = (x / SHARE_SCALE for x in
                                             mean_interval(n, total.score_total, total.score_squares,
                                                           within=total.score_range))
        score_interval = (score_low, score_high) if n > 1 else (score_mean, score_mean)
    # best play means the score: the cards are ranked by their mean score, then win chance and mean points
    # cards equal on all three in the pack's order (the card's index, not its name: ``SG`` is no card before ``CQ``)
    ranked = sorted(((card, OpeningCard(game.pack[card].name, tally.total / tally.samples, tally.wins / tally.samples,
                                        tally.score_total / SHARE_SCALE / tally.samples if scored else None,
                                        wilson_interval_95(tally.wins, tally.samples), game=game.name,
                                        measure=measure))
                     for card, tally in total.cards.items()),
                    key=lambda pair: (-(pair[1].mean_score or 0.0), -pair[1].win_probability, -pair[1].mean, pair[0]))
    openings = tuple(opening for _, opening in ranked)
    return HandAnalysis(
        game=game.name, contract=setup.contract, seat=setup.seat + 1,
        hand=tuple(game.pack.names(setup.fixed[setup.seat])),
        known={other + 1: tuple(game.pack.names(cards)) for other, cards in enumerate(setup.fixed)
               if other != setup.seat and cards},
        samples=n, seed=seed, measure=measure, win_probability=total.wins / n,
        win_interval=wilson_interval_95(total.wins, n), mean=mean,
        interval=interval, bonuses=bonuses, openings=openings,
        played=tuple(game.pack[card].name for card in setup.played), seats=setup.seats, declarer=setup.declarer,
        variant=dict(game.variant(dict(setup.variant) or None)), score_mean=score_mean, score_interval=score_interval,
        announcements=setup.announcements, pot=setup.pot)


# --- the report for people (print(analysis) and stich analyse) -------------------------------------------------------


def samples_text(document: Mapping[str, Any]) -> str:
    """``30 samples``, and where the run stopped early how many were asked, ``20 of 2,000 samples``: the words of
    every sampling report (an analysis, contract and card advice)."""
    solved, asked = document["samples"], document.get("requested")
    if document.get("stopped") and asked is not None:
        return f"{solved:,} of {asked:,} sample{'' if asked == 1 else 's'}"
    return f"{solved:,} sample{'' if solved == 1 else 's'}"


def samples_said(samples: int, requested: int | None, stopped: str | None) -> str:
    """How many samples a run solved, and why it stopped early where it did: ``4 samples``, ``20 of 2,000 samples,
    stopped by the time limit`` (what a sampling result's one-line ``repr`` says of its run, as its report does)."""
    solved = samples_text({"samples": samples, "requested": requested, "stopped": stopped})
    return f"{solved}, stopped by the {stopped}" if stopped else solved


def share(probability: float, interval: Sequence[float | None] | None, *, compact: bool = False) -> str:
    """A share of the samples with its 95% Wilson interval, as every share of the reports' lines is written:
    ``80.0% (95%: 62.7% to 90.5%)`` (:func:`with_interval`, as a mean's), or ``compact`` in a table cell, whose title
    says what the brackets are, ``80% (63-91%)`` (:func:`in_table_cell`); the share alone where there is no
    interval."""
    low, high = interval or (None, None)
    if compact:
        return in_table_cell(probability, low, high, percent=True)
    if low is None or high is None:
        return f"{percent_text(probability, 1)}%"
    return with_interval(*(f"{percent_text(figure, 1)}%" for figure in (probability, low, high)))


def measure_text(value: float) -> str:
    """A mean of the measure (card points, Kratzen's tricks) or an end of its interval, as the report writes it: to
    one decimal, ``70.3`` for 70.25 (:func:`decimal_text`)."""
    return decimal_text(value, 1)


def spread_text(samples: int, interval: Sequence[float | None], note: str | None,
                number: Callable[[float], str]) -> str:
    """A mean's 95% interval as the report says it. Where every sample gave the same value the JSON gives no
    interval (``interval_note``): one of no width says only that no other value was met in these samples (a rare
    deal may still move the mean), so the text says that instead of printing a certainty."""
    low, high = interval
    if samples < 2:
        return "one sample: no interval"
    if note or low is None or high is None or low == high:
        return f"all {samples:,} samples alike: no interval"
    return interval_words(number(low), number(high))


def scored_with(document: Mapping[str, Any]) -> str:
    """``; scored with the announcements '...', pot N``: what a sampling run settled every sample with, if anything."""
    parts = [f"the announcements '{document['announcements']}'"] if document.get("announcements") else []
    parts += [f"pot {document['pot']}"] if document.get("pot") is not None else []
    return f"; scored with {', '.join(parts)}" if parts else ""


def forced_by_whom(bonus: Mapping[str, Any], samples: int, *, compact: bool = False) -> tuple[str, str]:
    """Whose objective it is and how often it was forced: the hand's side's or the other side's in every sample, or
    either (a partner the deal names changes the sides from sample to sample), each side's share then apart
    (``compact``: as a table cell writes it, :func:`share`)."""
    ours = share(bonus["probability_for"], bonus.get("interval_for"), compact=compact)
    theirs = share(bonus["probability_against"], bonus.get("interval_against"), compact=compact)
    if bonus.get("seat") is not None:  # a seat's own target where every seat plays for itself: no sides
        return ("the hand", ours) if bonus["samples_for_side"] == samples else (f"seat {bonus['seat']}", theirs)
    if bonus["samples_for_side"] == samples:
        return "the hand's side", ours
    if bonus["samples_for_side"] == 0:
        return "the other side", theirs
    return "either, by the deal", f"{ours} by the hand's side, {theirs} by the other"


def play_is_over(document: Mapping[str, Any]) -> bool:
    """Whether the analysed record is played to the end: no card is unseen, so every sample is the deal as played,
    and its figures are the deal's result, which the text says without intervals (the JSON keeps them)."""
    played = document.get("played") or ()  # none in a bonus's own row (BonusChance), which has no hand either
    return bool(played) and len(played) >= len(document["hand"]) * document["seats"]


def summary_lines(document: Mapping[str, Any]) -> list[str]:
    """The report's lines below its cards: the samples and what they were scored with, the mean payment (or why
    there is none), the win chance and the mean of the measure; for a deal played to the end, the figures alone
    (:func:`play_is_over`)."""
    game = get_game(document["game"])
    unit = measure_words(document["measure"])
    stopped = f", stopped by the {document['stopped']}: the figures of these" if document.get("stopped") else ""
    lines = [f"{samples_text(document)} (seed {document['seed']})" + stopped + scored_with(document)]
    over = play_is_over(document)
    if over:
        lines.append("note: the play is over: every sample is the deal as played, so the figures are its result")
    spread = spread_text(document["samples"], document["interval"], document.get("interval_note"), measure_text)
    if document.get("score_mean") is not None:
        score_spread = spread_text(document["samples"], document["score_interval"],
                                   document.get("score_interval_note"), signed_mean)
        whose = (f"the {game.declarer_title}'s own, from and into the pot" if game.has_pot
                 else f"seat {document['seat']}'s share of its side's settlement")
        mean = signed_mean(document['score_mean'])
        lines.append(f"mean payment {mean} {game.score_unit}{'' if over else f' ({score_spread})'}, {whose}")
        if game.has_pot and not document.get("pot"):
            lines.append(f"note: {pot_zero_said('sample', game.score_unit, document.get('pot') is not None)}")
    elif game.has_pot and document["seat"] != document["declarer"]:
        lines.append(f"no payment: only the {game.declarer_title}'s is searched (every seat plays for itself); the "
                     "cards rank "
                     f"by seat {document['seat']}'s own {unit}")
    # where every seat plays for itself each wins by its own trick target (RULES.md 3.3), the attacker's or not
    seat = [document["seat"]]
    whose = role_text(game.declarer_title, seat) if document["seat"] == document["declarer"] else side_text(seat)
    title = f"win ({whose} makes its own trick target)" if game.has_pot else "win"
    win = share(document["win_probability"], None if over else document.get("win_interval"))
    mean_measure = measure_text(document["mean"]) + ("" if over else f" ({spread})")
    lines.append(f"{title}: {win}, mean {unit} {mean_measure}, each sample played double dummy")
    return lines


def best_card_parts(document: Mapping[str, Any]) -> tuple[str, str, str] | None:
    """The best single card over all samples as (the words before it, the card, the words after it), or None where
    the hand does not lead: every sample above chose its own best card, a player picks one for all of them. Cards
    equal to it on the exact figures the cards are ranked by are said to tie with it: the pack's order, which puts it
    first among them, is no reason to play it. Exact, not as the table rounds them (mean card points to one
    decimal): a card a twentieth of a point behind is behind."""
    if not document["openings"]:
        return None
    best = document["openings"][0]

    def figures(card: Mapping[str, Any]) -> tuple[Any, ...]:
        return card.get("mean_score"), card["win_probability"], card["mean"]

    tied = sum(1 for card in document["openings"][1:] if figures(card) == figures(best))
    now = "card to play now" if document.get("played") else "opening card"
    # the exact figures, as the JSON has them: the table's one decimal may show cards alike that are not
    ties = f", tied on the exact figures with {tied} other{'s' if tied > 1 else ''} (the table below)" if tied else ""
    score = f"mean payment {signed_mean(best['mean_score'])}, " if best.get("mean_score") is not None else ""
    return (f"best single {now} over all samples{ties}: ", best["card"],
            f", {score}win {share(best['win_probability'], best.get('win_interval'))}, "
            f"mean {measure_words(document['measure'])} {measure_text(best['mean'])}")


ReportTable = tuple[str, tuple[str, ...], list[tuple[str, ...]]]  # a title, the column names and the rows


#: What a report table's title says of its cells' brackets (:func:`in_table_cell`), once for the table.
TABLE_INTERVALS = " (brackets: 95% intervals)"


def bonus_table(document: Mapping[str, Any]) -> ReportTable:
    """The bonuses forced (Kratzen: each seat's trick target, RULES.md 3.3), named as players name them, each share
    with its interval as a table cell writes it; the share alone for a deal played to the end (:func:`play_is_over`:
    every sample is that deal, so an interval would read as odds)."""
    targets = own_targets(bonus["seat"] for bonus in document["bonuses"])
    over = play_is_over(document)
    bonuses = [{**bonus, "interval_for": None, "interval_against": None} if over else bonus
               for bonus in document["bonuses"]]
    rows: list[tuple[str, ...]] = [bonus_row(bonus, document["game"], document["samples"], compact=True)
                                   for bonus in bonuses]
    return (("targets forced" if targets else "bonuses forced") + ("" if over else TABLE_INTERVALS),
            ("target" if targets else "item", "whose", "forced"), rows)


def bonus_row(bonus: Mapping[str, Any], game: str, samples: int, *, compact: bool = False) -> tuple[str, str, str]:
    """A bonus's row of :func:`bonus_table`: its title (the objective's name where the game is not known), whose it
    is and how often it was forced (``compact`` in a table; a row printed alone writes its interval at length). The
    title is ``stich check``'s (``Game.row_title``: ``Valat against`` for the defenders' Valat), as
    "whose" is the hand's side or the other and a Rufer's partner may be either: the declarers' Valat and the
    defenders' would read alike."""
    title = get_game(game).row_title(bonus["objective"]) if game else bonus["objective"]
    return (title + ("" if bonus["seat"] is None else f" (seat {bonus['seat']})"),
            *forced_by_whom(bonus, samples, compact=compact))


def opening_table(document: Mapping[str, Any], *, compact: bool = True) -> ReportTable | None:
    """Every opening card (or card to play now) with its mean payment, win chance and mean; None where the hand
    does not lead. The card is each row's first cell; the win chance's interval as a table cell writes it, or at
    length for a row printed alone (not ``compact``)."""
    if not document["openings"]:
        return None
    scored = document["openings"][0].get("mean_score") is not None
    columns = ("card",) + (("mean payment",) if scored else ()) + (
        "win", f"mean {measure_words(document['measure'])}".rstrip())
    rows = [(card["card"], *((signed_mean(card['mean_score']),) if scored else ()),
             share(card["win_probability"], card.get("win_interval"), compact=compact), measure_text(card["mean"]))
            for card in document["openings"]]
    title = "cards to play now" if document.get("played") else "opening cards"
    return (title + TABLE_INTERVALS if compact else title, columns, rows)


#: What the opening-card table does not say, and where it is said: its means have no intervals and its order settles
#: ties without a word, which card advice's paired table does not (a review).
#: The same without its pointer, for a seat card advice refuses: it ranks by the seat's score, and a Kratzen seat
#: other than the attacker has none searched (``score_mean`` null), so ``--cards`` would only say so.
OPENING_NOTE_ALONE = "the means have no intervals and ties are not marked"
OPENING_NOTE = f"{OPENING_NOTE_ALONE}: --cards ranks these cards with paired intervals (card advice)"


def opening_note(document: Mapping[str, Any]) -> str | None:
    """The line under the opening-card table (:data:`OPENING_NOTE`, or :data:`OPENING_NOTE_ALONE` where card
    advice has no score to rank the seat's cards by); None where there is no such table."""
    if not document["openings"]:
        return None
    return OPENING_NOTE if document.get("score_mean") is not None else OPENING_NOTE_ALONE


#: The bonus table's column of numbers (how often forced), aligned right wherever the report is laid out.
BONUS_NUMBERS = frozenset({2})


def opening_numbers(columns: Sequence[str]) -> frozenset[int]:
    """The opening-card table's columns of numbers (every one but the card), aligned right wherever the report is
    laid out: ``stich analyse``, ``print`` and Jupyter take them from here (as contract advice's
    ``AdviceTable.right``)."""
    return frozenset(range(1, len(columns)))


def table_text(table: ReportTable) -> list[str]:
    """A report table as plain text: its title, then its columns and rows aligned, two spaces apart (a cell of
    several lines, as a header ``behind\\nthe best``, takes as many)."""
    title, columns, rows = table
    # a cell may have several lines; a figure's no-break spaces are plain ones where nothing wraps
    cells = [[str(cell).replace(FIGURE_SPACE, " ").split("\n") for cell in row] for row in [columns, *rows]]
    widths = [max(len(line) for row in cells for line in row[i]) for i in range(len(columns))]
    lines = [title]
    for row in cells:
        for k in range(max(len(cell) for cell in row)):
            lines.append("  ".join((cell[k] if k < len(cell) else "").ljust(width)
                                   for cell, width in zip(row, widths)).rstrip())
    return lines


def report_parts(document: Mapping[str, Any]
                 ) -> tuple[list[str], list[str], list[tuple[ReportTable, frozenset[int]]]]:
    """The ``analyse`` document (:meth:`HandAnalysis.as_dict`) as ``stich analyse`` reports it: its heading (the
    rules where not the defaults, then the hand), its other lines above the tables, and the tables, each with its
    columns of numbers (the cards as the hand diagram writes them: ``♠K`` in a French pack). :func:`report_text`
    and :func:`report_html` lay them out."""
    def names(cards: Sequence[str]) -> str:
        return card_names(document["game"], cards)

    hand = hand_heading(document) + names(document["hand"])
    heading = [*rules_line(document), hand]
    lines = [f"known in seat {seat}: {names(cards)}" for seat, cards in document["known"].items()]
    if document.get("played"):
        lines.append(f"played so far: {names(document['played'])}")
    lines += summary_lines(document)
    best = best_card_parts(document)
    if best is not None:
        lines.append(best[0] + names([best[1]]) + best[2])
    bonuses = bonus_table(document)
    tables = [(bonuses, BONUS_NUMBERS)] if bonuses[2] else []  # a Sie pays nothing but itself: no table
    openings = opening_table(document)
    if openings is not None:
        title, columns, rows = openings
        tables.append(((title, columns, [(names([row[0]]), *row[1:]) for row in rows]), opening_numbers(columns)))
    return heading, lines, tables


def hand_heading(document: Mapping[str, Any]) -> str:
    """The heading's words before the hand: ``Schafkopf Solo E, seat 1: ``, and the declaring seat where it is not the
    analysed one (``Schafkopf Solo E (declarer seat 2), seat 1: ``): without it the line reads as seat 1's Solo."""
    return f"{document['game']} {contract_and_declarer(document)}, seat {document['seat']}: "


def contract_and_declarer(document: Mapping[str, Any]) -> str:
    """The contract by RULES.md's name, and the declaring seat where the document has one other than its ``seat``
    (``Solo E (declarer seat 2)``): an analysis's or advice's heading would otherwise read as the seat's own contract.
    """
    game = get_game(document["game"])
    contract = game.contract_in_words(document["contract"])
    declarer = document.get("declarer")
    if declarer is None or declarer == document["seat"]:
        return contract
    return f"{contract} ({role_text(game.declarer_title, [declarer])})"


def rules_line(document: Mapping[str, Any]) -> list[str]:
    """``rules: runaway_count_at=deal``, the flags the samples were played under where they are not the game's
    defaults, as ``stich analyse`` and advice start their reports (none where every flag is the default)."""
    rules = rules_note(get_game(document["game"]).flags, document.get("variant") or {}).removeprefix("; ")
    return [rules] if rules else []


def report_text(document: Mapping[str, Any]) -> str:
    """The ``analyse`` document as plain text: what ``stich analyse`` prints of it, without its colours."""
    heading, lines, tables = report_parts(document)
    lines = heading + lines
    for table, _ in tables:
        lines += table_text(table)
    note = opening_note(document)
    return "\n".join(lines + ([note] if note else []))


def report_html(document: Mapping[str, Any]) -> str:
    """The same for Jupyter: the lines, then each table under its title."""
    heading, lines, tables = report_parts(document)
    parts = [html_lines(heading, bold=True), html_lines(lines)]
    for (title, columns, rows), numbers in tables:
        parts.append(html_titled_table(title, columns, rows, right=numbers))
    note = opening_note(document)
    return f"<div>{''.join(parts)}{html_lines([note], small=True) if note else ''}</div>"


__all__ = ["BonusChance", "HandAnalysis", "OpeningCard", "analyse_hand", "analyse_position", "interval_note"]
