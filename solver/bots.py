"""Players: a card chosen for the seat to move, from what that seat may know or from everything.

A bot is anything with a ``name`` and ``choose(position) -> card index``, called when the position's seat to move
is the bot's. The match (:mod:`solver.match`) hands every bot the table's position; what a bot reads of it is the
bot's own honesty, as at a real table:

* :class:`RandomBot` plays a random legal card (a baseline every other bot must beat).
* :class:`SamplingBot` sees one seat's view only (:func:`solver.sampling.position_setup`: its hand as dealt, the
  cards played, the contract and what it announced) and chooses by perfect-information Monte Carlo: the unseen
  cards are dealt at random consistently with the play (:func:`solver.sampling.draw_sample`), every legal card is
  valued double dummy on each sample, and the card with the best mean for the seat's side is played.
* :class:`CheaterBot` reads every hand and plays a double-dummy best card: the ceiling the others are measured
  against.

Every choice is a pure function of the bot's settings and the position (seeds mix the deal and the play so far),
so a match is reproducible whatever order its deals are played in.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import os
import random
import sys
import time
import traceback
import weakref
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, Callable, Protocol, SupportsIndex

from .advice import card_sums
from .cards import Card, CardIndex
from .errors import InvalidPositionError, SearchStopped, StichError, did_you_mean, is_whole_number
from .games.base import Objective, Rules
from .generate import DEFAULT_SEED
from .limits import DEFAULT_SAMPLES, MAX_SAMPLES, PLAYS_FOR
from .position import Position, check_position
from .sampling import SHARE_SCALE, Setup, draw_sample, has_share, position_setup
from .score_objective import solve_score
from .search.boundary import TimeLeft, check_time_limit
from .search.engine import EngineSolver
from .settlement import settlement_unsupported
from .state import PlayState
from .workers import load_in_workers, local_workers, search_last


class Bot(Protocol):
    """A player: ``choose`` returns a legal card for the position's seat to move (its pack index, as the bots here
    return it, a numpy integer too, such as an argmax, or a Card or a card token, as :meth:`Position.play` takes
    them)."""

    @property
    def name(self) -> str: ...

    def choose(self, position: Position) -> SupportsIndex | str | Card: ...


def objective_for(rules: Rules, seat: int) -> Objective:
    """The card-point objective a bot plays for with ``plays_for="points"``: card points where the game counts them,
    else the seat's own tricks. ``seat`` is 0-based."""
    names = rules.objective_names()
    if "points" in names:
        return rules.objective("points")
    return rules.objective(names[0], seat)


def plays_for_the_score(position: Position, plays_for: str) -> bool:
    """Whether the seat to move plays for the settlement: asked to, where the rules have a settlement search and
    it is the seat's own. Where every seat plays for itself (Kratzen), the settlement is the declarer's payment
    alone, and another seat that played for it would only play against the declarer: it plays for its own tricks
    instead."""
    if plays_for != "score" or settlement_unsupported(position) is not None:
        return False
    return has_share(position, position.state.to_move)


def card_values(position: Position, plays_for: str, engine: EngineSolver | Callable[[], EngineSolver]
                ) -> tuple[Objective, list[tuple[int, int]]]:
    """Every legal card of the seat to move with the deal's total after it (``achieved`` plus the rest), for the
    objective it is measured by: the settlement (:func:`solver.score_objective.solve_score`) where ``plays_for`` is
    ``score`` and the rules have one, else card points (or the seat's tricks) on the points ``engine`` (or the one
    a function gives: asked for only then)."""
    if plays_for_the_score(position, plays_for):
        result = solve_score(position, cards=True)
        return result.objective, [(cv.card, cv.value) for cv in result.card_values]
    objective = objective_for(position.rules, position.state.to_move)
    achieved = objective.achieved(position.rules, position.state)
    points = engine if isinstance(engine, EngineSolver) else engine()
    return objective, [(cv.card, achieved + cv.value) for cv in points.card_values(position.state, objective)]


def _check_plays_for(plays_for: object) -> str:
    if plays_for not in PLAYS_FOR:  # 'tricks' is what solve names Kratzen's measure: say where it is
        raise StichError(f"a bot plays for {' or '.join(PLAYS_FOR)} (the game's own measure: the card points, or "
                         f"in Kratzen the seat's own tricks), not {plays_for!r}")
    return str(plays_for)


def for_seat(value: int, objective: Objective, seat: int) -> int:
    """A maximiser's value as ``seat``'s side ranks it: higher is better for that side. Every objective is
    zero-sum between the maximising side and the rest, so the other side ranks by the negated value."""
    return value if seat in objective.maximiser else -value


def _mix(*parts: object) -> int:
    """A seed from several parts, stable across processes and Python runs (``hash`` of a str is salted)."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _deal_key(position: Position) -> tuple:
    """What tells deals apart for a bot's seed: the contract and the played cards are not enough (two deals may
    share them), the deal's hands are."""
    return (position.game.name, position.rules.contract.text, position.rules.deal.hands)


def _check_to_move(position: Position) -> PlayState:
    state = check_position(position).state
    if state.is_over:
        raise InvalidPositionError("the deal is over: no card is left to choose")
    return state


def named_index(position: Position, index: int) -> CardIndex:
    """A chosen card's pack index that prints as the card (``T19``, not ``38``): an int to every caller, as a
    :class:`SolveResult`'s cards are, so a bot's choice and its estimates read at a prompt."""
    return CardIndex(int(index), position.pack[int(index)])


@dataclass(frozen=True)
class RandomBot:
    """A legal card at random, seeded by the deal and the play so far."""

    seed: int = DEFAULT_SEED
    name: str = "random"

    def __post_init__(self) -> None:
        if not is_whole_number(self.seed):  # as the sampling bot's: a seed of 1.5 or '1' is a mistake
            raise StichError(f"the seed is a whole number, not {self.seed!r}")

    def choose(self, position: Position) -> int:
        state = _check_to_move(position)
        legal = [card for card in range(len(position.pack)) if state.legal_cards() >> card & 1]
        rng = random.Random(_mix(self.seed, _deal_key(position), position.played))
        return named_index(position, rng.choice(legal))


class _PointsEngine:
    """A bot's points engine, made on first use: playing for the score needs none, and its table is 64 MB."""

    _engine: EngineSolver | None

    @property
    def engine(self) -> EngineSolver:
        if self._engine is None:
            self._engine = EngineSolver()
        return self._engine

    def __getstate__(self) -> dict[str, Any]:
        """A bot sent to another process (a match's pool) takes its settings, not its engine, which holds a table of
        this process's and makes a new one there on first use."""
        return {**self.__dict__, "_engine": None}


class CheaterBot(_PointsEngine):
    """A double-dummy best card for the seat to move, from every hand: what perfect information plays."""

    def __init__(self, engine: EngineSolver | None = None, name: str = "cheater", plays_for: str = "score") -> None:
        self._engine = engine
        self.name = name
        self.plays_for = _check_plays_for(plays_for)

    def __repr__(self) -> str:
        return f"CheaterBot(name={self.name!r}, plays_for={self.plays_for!r})"

    def choose(self, position: Position) -> int:
        state = _check_to_move(position)
        if state.legal_cards().bit_count() == 1:
            return named_index(position, state.legal_cards().bit_length() - 1)
        objective, values = card_values(position, self.plays_for, lambda: self.engine)
        best = max(for_seat(value, objective, state.to_move) for _, value in values)
        return named_index(position, min(card for card, value in values
                                         if for_seat(value, objective, state.to_move) == best))


@dataclass
class CardEstimate:
    """One legal card's mean over the samples a choice was made from, as the choosing seat ranks it (points for its
    side, or its share of the score)."""

    card: int
    samples: int
    total: float

    @property
    def mean(self) -> float:
        return self.total / self.samples if self.samples else float("nan")


def sampling_name(samples: int, default: int = DEFAULT_SAMPLES) -> str:
    """A sampling bot's name: ``sampling`` at the ``default`` count, ``sampling:N`` at any other."""
    return "sampling" if samples == default else f"sampling:{samples}"


class SamplingBot(_PointsEngine):
    """Perfect-information Monte Carlo from one seat's view.

    ``samples`` deals of the unseen cards, each consistent with the contract and the play, are solved for every
    legal card; the card with the best mean for the seat's side is chosen (ties: the lowest pack index). ``seed``
    makes the samples reproducible (mixed with the deal and the play, so each decision draws its own);
    ``time_limit`` (seconds) is its budget a card, a move deadline: no sample is drawn after it, and a sample's
    search running when it passes stops (the engine's time limit: within a few milliseconds) and the sample is
    dropped; the first sample always finishes, so a card is always decided on at least one sample, and the card is
    chosen on the samples done (``last_samples`` says how many);
    ``plays_for`` is ``score`` (the settlement in game units, where the rules have one) or ``points``.
    ``name`` (what a match counts it by) is ``sampling`` at the default 50 samples, else ``sampling:N``, as
    :func:`make_bot` names it. ``last_estimates`` keeps the means behind the latest choice, ``last_samples`` the
    samples it was decided on (``samples``, fewer where ``time_limit`` cut it short, 0 for the only legal card).

    What it optimises, exactly: the mean over its samples of each legal card's double-dummy value for its side
    (the settlement its side can force after the card, or with ``points`` the card points), the best mean played.
    For the score the samples are card advice's (:func:`solver.advice.card_sums`), solved on ``workers``
    processes (1: this one) with the same result whatever their number."""

    def __init__(self, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED, time_limit: float | None = None,
                 engine: EngineSolver | None = None, name: str | None = None, plays_for: str = "score",
                 workers: int = 1) -> None:
        if not is_whole_number(samples) or not 1 <= samples <= MAX_SAMPLES:
            raise StichError(f"samples must be a whole number from 1 to {MAX_SAMPLES:,}, not {samples!r}")
        if not is_whole_number(seed):
            raise StichError(f"the seed is a whole number, not {seed!r}")
        check_time_limit(time_limit, StichError)  # as everywhere: None or seconds above 0
        self.samples = samples
        self.seed = seed
        self.workers = local_workers(workers)  # a bad count fails here, more than the cores is cut (said once)
        self.time_limit = time_limit
        self._engine = engine
        # named as make_bot names it, so that a match tells SamplingBot(samples=10) from SamplingBot(samples=100)
        self.name = sampling_name(samples) if name is None else name
        self.plays_for = _check_plays_for(plays_for)
        self.last_estimates: list[CardEstimate] = []
        self.last_samples = 0

    def __repr__(self) -> str:
        limit = "" if self.time_limit is None else f", time_limit={self.time_limit!r}"
        return (f"SamplingBot(name={self.name!r}, samples={self.samples}, seed={self.seed!r}, "
                f"plays_for={self.plays_for!r}{limit}, workers={self.workers})")

    def setup(self, position: Position) -> Setup:
        """The sampling of this decision: the seat's view (its dealt hand, the play, the public rule state)."""
        state = _check_to_move(position)
        return position_setup(position, state.to_move + 1, seed=self._seed(position))

    def _seed(self, position: Position) -> int:
        return _mix(self.seed, _deal_key(position), position.played)

    def choose(self, position: Position) -> int:
        state = _check_to_move(position)
        legal = state.legal_cards()
        if legal.bit_count() == 1:
            self.last_estimates = []
            self.last_samples = 0  # nothing to decide: no sample drawn
            return named_index(position, legal.bit_length() - 1)
        seat = state.to_move
        if plays_for_the_score(position, self.plays_for):
            # card advice's sampling: the same samples and per-card settlements, on ``workers`` processes
            cards, sums, _ = card_sums(position, samples=self.samples, seed=self._seed(position),
                                       workers=self.workers, time_limit=self.time_limit, at_least=1, bonuses=False,
                                       tricks=False)
            self.last_estimates = sorted((CardEstimate(named_index(position, card), sums.contracts[i].n,
                                                       sums.contracts[i].total / SHARE_SCALE)
                                          for i, card in enumerate(cards)), key=lambda e: (-e.mean, e.card))
            self.last_samples = self.last_estimates[0].samples  # every card has the same samples
            return self.last_estimates[0].card
        setup = self.setup(position)
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        estimates = {card: CardEstimate(named_index(position, card), 0, 0) for card in range(len(position.pack))
                     if legal >> card & 1}
        for k in range(self.samples):
            rules, sample = draw_sample(setup, k)
            try:  # the first sample is always solved, the others stop at the deadline
                with nullcontext() if not k or deadline is None else \
                        self.engine.stopping(TimeLeft.until(deadline, self.time_limit)):
                    objective, values = card_values(Position(rules.game, rules, sample), self.plays_for, self.engine)
            except SearchStopped:
                break
            for card, value in values:
                entry = estimates[card]
                entry.samples += 1
                entry.total += for_seat(value, objective, seat)
            if deadline is not None and time.monotonic() >= deadline:
                break
        self.last_estimates = sorted(estimates.values(), key=lambda e: (-e.mean, e.card))
        self.last_samples = self.last_estimates[0].samples
        return self.last_estimates[0].card


#: The bots :func:`make_bot` knows by name.
BOT_NAMES = ("sampling", "random", "cheater")

#: What a bot spec may be, as a message lists it.
BOT_SPECS = "sampling, sampling:N, random, cheater or MODULE:ATTRIBUTE (a bot of your own)"


@dataclass(frozen=True)
class BotSpec:
    """A bot spec read once (:func:`read_bot_spec`), so that what made the bot and what asks which options it takes
    read it alike: ``kind`` is ``sampling``, ``random``, ``cheater`` or ``own`` (``MODULE:ATTRIBUTE``, loaded by
    :func:`make_bot`), ``samples`` the count after ``sampling:`` (None where none was given)."""

    text: str
    kind: str
    samples: int | None = None

    @property
    def takes_samples(self) -> bool:
        """Whether the match's sample count reaches the bot: a bare ``sampling`` (``sampling:N`` names its own)."""
        return self.kind == "sampling" and self.samples is None

    @property
    def takes_card_time(self) -> bool:
        """Whether the match's deadline a card reaches the bot: the built-in sampling bot's alone (a bot of one's own
        is made with the seed alone, a SamplingBot of one's own too)."""
        return self.kind == "sampling"


def read_bot_spec(spec: str) -> BotSpec:
    """``spec`` read as :func:`make_bot` takes it (a StichError for one that names no bot); a bot of one's own is
    not loaded here."""
    if not isinstance(spec, str):
        raise StichError(f"a bot spec is text ({BOT_SPECS}), not {spec!r}")
    name, _, count = spec.strip().lower().partition(":")
    if name not in BOT_NAMES and ":" in spec and not count.isdigit():  # 'module:attribute' ('samplng:6' a slip)
        return BotSpec(spec, "own")
    if name == "sampling":
        if count and not (count.isascii() and count.isdigit()):
            raise StichError(f"bot {spec!r}: the sample count after ':' is a whole number")
        return BotSpec(spec, name, int(count) if count else None)
    if name not in BOT_NAMES:
        raise StichError(f"unknown bot {spec!r}{did_you_mean(name, BOT_NAMES)} (expected {BOT_SPECS})")
    if count and not count.isdigit():  # 'cheater:LastCard': a module of one's own under a built-in bot's name
        raise StichError(f"bot {spec!r}: {name} is a built-in bot's name; a module of a bot of your own needs "
                         "another name")
    if count:
        raise StichError(f"bot {spec!r}: only the sampling bot takes a sample count")
    return BotSpec(spec, name)


def make_bot(spec: str | BotSpec, *, seed: int = DEFAULT_SEED, samples: int = DEFAULT_SAMPLES,
             time_limit: float | None = None, plays_for: str = "score", workers: int = 1) -> Bot:
    """A bot by name: ``sampling`` (or ``sampling:N`` for N samples), ``random``, ``cheater``, or a bot of one's own
    as ``MODULE:ATTRIBUTE`` (:func:`load_bot`, given ``seed``); or a spec :func:`read_bot_spec` has read. A match
    groups its results by the bot's name, so one bot has one name: ``sampling`` for ``samples`` samples a card
    (however it was spelled: ``sampling:50`` is ``sampling`` at the default 50), ``sampling:N`` for any other count,
    so a match tells ``sampling:20`` from ``sampling:100`` but never counts one bot as two kinds. ``plays_for``: what
    the sampling and cheater bots maximise (``score`` or ``points``); ``workers``: the sampling bot's processes."""
    read = spec if isinstance(spec, BotSpec) else read_bot_spec(spec)
    if read.kind == "own":
        return load_bot(read.text, seed=seed)
    if read.kind == "sampling":
        own = samples if read.samples is None else read.samples
        return SamplingBot(samples=own, seed=seed, time_limit=time_limit,
                           name=sampling_name(own, samples), plays_for=plays_for,
                           workers=workers)
    if read.kind == "random":
        return RandomBot(seed=seed)
    return CheaterBot(plays_for=plays_for)


#: What a match takes as a bot, for the messages that refuse something else.
WHAT_A_BOT_IS = "a bot has a name (text, not blank) and a choose(position) method (solver.bots.Bot)"


def is_bot(value: object) -> bool:
    """Whether ``value`` is a bot as a match takes it: a ``name`` (text, not blank) and a ``choose`` method."""
    name = getattr(value, "name", None)
    return isinstance(name, str) and bool(name.strip()) and callable(getattr(value, "choose", None))


def load_bot(spec: str, *, seed: int = DEFAULT_SEED) -> Bot:
    """A bot of one's own from ``MODULE:ATTRIBUTE`` (``stich match --bots mybots:LastCard,random,...``).

    The module is imported as ``python -m`` would find it: from the current directory (first on ``sys.path`` for
    this import only), then ``PYTHONPATH`` and the installed packages; a match's worker processes import it from the
    same file (:func:`_import_from_here`), so that they unpickle the bots from the module this process loaded.
    ``ATTRIBUTE`` (dotted for a nested name) is a bot itself (an instance), or a class or a factory called with no
    arguments, or with ``seed=seed`` (the match's seed) where its signature has a ``seed`` parameter; what it returns
    must be a bot. Every failure is a StichError naming the spec and why: a module that cannot be imported (the
    module not found, with the spec meant where it ends in ``.py``, or its SyntaxError's file:line, or the error
    its import raised and where, SystemExit too), an attribute the module has not (with the closest public names), a
    value or result that is no bot, a constructor that raises (or exits)."""
    if not isinstance(spec, str):
        raise StichError(f"a bot of your own is named by text, MODULE:ATTRIBUTE, not {spec!r}")
    if not is_whole_number(seed):
        raise StichError(f"the seed is a whole number, not {seed!r}")
    module_name, _, attribute = spec.strip().partition(":")
    if not module_name or not attribute or not all(part.isidentifier() for part in module_name.split(".")) or \
            not all(part.isidentifier() for part in attribute.split(".")):
        raise StichError(f"bot {spec!r}: a bot of your own is MODULE:ATTRIBUTE (say mybots:LastCard, mybots.py in "
                         "the current directory or on PYTHONPATH)")
    try:
        module = _import_from_here(module_name)
    except SyntaxError as error:
        raise StichError(f"bot {spec!r}: module {module_name!r} cannot be imported: {error.filename}:{error.lineno}:"
                         f"{error.offset or 1}: {error.msg}") from None
    except ModuleNotFoundError as error:
        missing = error.name is not None and (module_name + ".").startswith(error.name + ".")  # it, or its package
        where = (" (looked in the current directory and sys.path)" if missing
                 else _where(error))  # a module the bot's module imports: where it does
        hint = (f"; did you mean {module_name.removesuffix('.py') + ':' + attribute!r}?"
                if missing and module_name.endswith(".py") else "")
        raise StichError(f"bot {spec!r}: module {module_name!r} cannot be imported: {error}{where}{hint}") from None
    except (Exception, SystemExit) as error:  # noqa: BLE001 - the module's own code failed (or exited): said where
        raise StichError(f"bot {spec!r}: module {module_name!r} cannot be imported: {type(error).__name__}: "
                         f"{error}{_where(error)}") from None
    value: Any = module
    for depth, part in enumerate(attribute.split(".")):
        if not hasattr(value, part):
            owner = module_name + "".join(f".{p}" for p in attribute.split(".")[:depth])
            public = [n for n in dir(value) if not n.startswith("_")]
            cased = [n for n in public if n.lower() == part.lower()]  # did_you_mean takes a case slip as no slip
            hint = f"; did you mean {cased[0]!r}?" if cased else did_you_mean(part, public)
            raise StichError(f"bot {spec!r}: {owner} has no attribute {part!r}{hint}")
        value = getattr(value, part)
    if not isinstance(value, type) and is_bot(value):
        return _loaded(value, f"{module_name}:{attribute}")
    if not callable(value):
        raise StichError(f"bot {spec!r}: {module_name}.{attribute} is {_a(value)}, not a bot: {WHAT_A_BOT_IS}, or is "
                         "made by a class or function called with no arguments or with seed=")
    try:
        takes_seed = "seed" in inspect.signature(value).parameters
    except (TypeError, ValueError):  # no signature to read (a builtin): called without
        takes_seed = False
    call = f"{module_name}.{attribute}({'seed=' + str(seed) if takes_seed else ''})"
    try:
        made = value(seed=seed) if takes_seed else value()
    except (Exception, SystemExit) as error:  # noqa: BLE001 - the bot author's constructor: its message, no traceback
        raise StichError(f"bot {spec!r}: {call} raised {type(error).__name__}: {error}{_where(error)}") from None
    if not is_bot(made):
        raise StichError(f"bot {spec!r}: {call} gave {_a(made)}, not a bot: {WHAT_A_BOT_IS}")
    return _loaded(made, f"{module_name}:{attribute}")


def _import_from_here(module_name: str) -> Any:
    """``module_name`` imported as ``python -m`` finds it: the current directory first. The directory is first only
    for this import: left there, a ``json.py`` or ``solver.py`` beside the bot's module would replace the standard
    library's or stich's own in every later import. A match's worker processes started fresh (``spawn``,
    ``forkserver``) do not look for the module themselves: they import it, and the modules its import took from the
    directory, from the files imported here (:func:`solver.workers.load_in_workers`), with their ``sys.path`` left
    as it was, so that neither an installed module of the same name nor a ``solver.py`` beside it is taken there.
    Where the module came from the directory, a module the bot imports only as it plays is looked for there too,
    after all else (:func:`solver.workers.search_last`), here and in the workers."""
    here = os.getcwd()
    on_path = here in sys.path or "" in sys.path
    before = set(sys.modules)
    if not on_path:
        sys.path.insert(0, here)
    try:
        module = importlib.import_module(module_name)
        # recorded while the directory is on the path: a namespace package's folders are found again from sys.path
        # on each look, and would lose the local one once the directory is taken off
        for name in [name for name in sys.modules if name not in before]:  # helpers beside it, too
            if _comes_from(sys.modules.get(name), name, here):
                load_in_workers(name)
        load_in_workers(module_name)
    finally:
        if not on_path and here in sys.path:
            sys.path.remove(here)
    if _comes_from(module, module_name, here):
        search_last(here)
    return module


def _comes_from(module: Any, name: str, folder: str) -> bool:
    """Whether the module ``name`` was found in ``folder`` as a ``sys.path`` entry, judged by its own file: that is
    ``folder/a/b.py`` for ``a.b`` (``folder/a/b/__init__.py`` for a package, ``folder/a/b`` among a namespace
    package's folders). A module merely somewhere below ``folder`` (an installed one in a virtual environment
    there) is not."""
    spec = getattr(module, "__spec__", None)
    if spec is None:
        return False
    where = os.path.join(folder, *name.split("."))
    if spec.has_location and spec.origin:
        home = where if spec.submodule_search_locations is not None else os.path.dirname(where)
        found = [os.path.dirname(spec.origin)]
    elif spec.submodule_search_locations is not None:  # a namespace package: no file, its folders
        home, found = where, list(spec.submodule_search_locations)
    else:
        return False
    return os.path.isdir(home) and any(os.path.isdir(path) and os.path.samefile(path, home) for path in found)


#: The spec each bot :func:`load_bot` made was loaded from, by the bot's id (with a weak reference, so that an id
#: reused after the bot is gone does not count).
_SPECS: dict[int, tuple[weakref.ref, str]] = {}


def _loaded(bot: Any, spec: str) -> Any:
    key = id(bot)

    def forget(_: weakref.ref) -> None:
        _SPECS.pop(key, None)

    try:
        reference = weakref.ref(bot, forget)
    except TypeError:  # a bot that takes no weak reference (__slots__): said by its class instead
        return bot
    _SPECS[key] = (reference, spec)
    return bot


def bot_source(bot: object) -> str | None:
    """Where a bot of one's own comes from, as ``stich match --bots`` names it: the ``MODULE:ATTRIBUTE`` it was
    loaded from (:func:`load_bot`), else its class's ``module:qualname``; None for this package's own bots, which
    their name and settings tell apart. A checkpoint records it, so that a resume with another bot of the same
    name is another match."""
    entry = _SPECS.get(id(bot))
    if entry is not None and entry[0]() is bot:
        return entry[1]
    if is_stich_bot(bot):
        return None
    kind = type(bot)
    return f"{kind.__module__}:{kind.__qualname__}"


def is_stich_bot(bot: object) -> bool:
    """Whether ``bot`` is one of this package's own bots (its class defined here): its failure is stich's, not
    the code of a bot's author."""
    return type(bot).__module__.split(".")[0] == __name__.split(".")[0]


def _a(value: object) -> str:
    """What a value is, for a message: ``the int 3``, ``a LastCard without choose``."""
    kind = type(value).__name__
    if isinstance(value, (int, float, str, bool, type(None))):
        return f"the {kind} {value!r}"
    missing = [what for what, has in (("a name", isinstance(getattr(value, "name", None), str)),
                                      ("a choose method", callable(getattr(value, "choose", None)))) if not has]
    return f"a {kind}" + (f" without {' or '.join(missing)}" if missing else " with a blank name")


def _where(error: BaseException) -> str:
    """`` (file:line)`` of the innermost frame that raised ``error``, for a bot author's own code."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)  # not importlib's frozen frames, nor
              if not frame.filename.startswith("<") and frame.filename != __file__]  # this file's call of the bot
    return f" ({frames[-1].filename}:{frames[-1].lineno})" if frames else ""
