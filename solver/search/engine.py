"""The compiled engine behind the same interface as the reference solver.

This module is the boundary: it compiles a deal's :class:`~solver.games.tables.RuleTables` and an
:class:`~solver.games.base.Objective` into the engine's plain data, renumbering the cards so that every class is a
contiguous block of bits ordered by strength (the equivalence test needs that), and translates results back. Every
input has been validated by the rules layer; the compiled loaders check ranges again, so nothing reaches the search
unchecked.

Every card's value (``card_values``) is one exact search per group of equivalent cards, each starting from the
best value of the cards before it for the side to move (so that worse cards are approached from above); a card the
root's own value search proved best needs no search, and the root's value then bounds the others (no card beats the
root). When the value is wanted with the cards, ``value_and_cards`` reads it off the cards' values and saves the
root's search altogether (``solve(cards=True)`` and the sampling use it).

``STICH_IMPLEMENTATION=python`` in the environment makes :func:`solve` use the reference solver instead (the test
suite runs against either).
"""

from __future__ import annotations

import functools
import os
import re
import threading
import time
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Callable, Iterator, TypeVar
from dataclasses import dataclass

from .. import _engine
from ..cards import CardIndex, bits
from ..errors import EngineError, InvalidPositionError, SearchStopped, StichError
from ..games.base import Objective, Rules, TrickEvent
from ..games.tables import RuleTables
from ..state import PlayState
from .boundary import MAX_VALUE, Deadline, check_flag, check_number, check_objective, check_state
from .results import CardValue, SolveResult, seat_to_move

DEFAULT_TT_MEGABYTES = 64
#: The largest table a solver may ask for.
MAX_TT_MEGABYTES = 4096
#: The environment variable that sets the size of every table created without one (``stich --table-mb`` sets it).
TABLE_SIZE_VARIABLE = "STICH_TABLE_MB"
#: The drivers that narrow the null-window probes to the exact value.
DRIVERS = tuple(_engine.DRIVERS)
#: Deeper perft counts take longer than anyone waits (and overflow nothing: counts are 64-bit).
MAX_PERFT_DEPTH = 64
#: The most threads one question may search on.
MAX_THREADS = _engine.LIMITS["threads"]


@dataclass(frozen=True)
class Compiled:
    """A deal's tables in engine numbering, with the maps between pack and engine indices."""

    tables: dict
    to_engine: tuple[int, ...]
    to_pack: tuple[int, ...]

    def mask(self, pack_mask: int) -> int:
        result = 0
        for card in bits(pack_mask):
            result |= 1 << self.to_engine[card]
        return result


def _signatures(tables: RuleTables, objective_cards: int, with_points: bool = True) -> list[int]:
    """Cards with equal signatures play alike in every rule: same class and points, same membership in every mask
    of the tables. Cards with a role of their own (special winners, called or reserved cards, event cards) get a
    signature of their own."""
    unique = objective_cards
    for special in tables.specials:
        unique |= special.cards | (1 << special.winner)
    if tables.called is not None:
        unique |= 1 << tables.called.card
    for reservation in tables.reservations:
        unique |= 1 << reservation.card
    masks = [level.mask for levels in tables.follow for level in levels] + [level.mask for level in tables.lead]
    seen: dict[tuple, int] = {}
    result = []
    for card in range(tables.n_cards):
        if unique >> card & 1:
            key: tuple = ("unique", card)
        else:
            key = (tables.card_class[card], tables.points[card] if with_points else 0,
                   tuple(m >> card & 1 for m in masks))
        result.append(seen.setdefault(key, len(seen)))
    return result


def classes_separate(tables: RuleTables) -> bool:
    """True when, for every led class, the cards of two classes that can win never interleave in power: then only
    the order within a class matters, and rank-relative table keys are exact."""
    for row in tables.power:
        spans: dict[int, tuple[int, int]] = {}
        for card, power in enumerate(row):
            if power:
                low, high = spans.get(tables.card_class[card], (power, power))
                spans[tables.card_class[card]] = (min(low, power), max(high, power))
        ordered = sorted(spans.values())
        if any(a[1] >= b[0] for a, b in zip(ordered, ordered[1:])):
            return False
    return True


def cashable(tables: RuleTables, cls: int) -> bool:
    """Whether the top cards of a class are sure winners while no opponent can ruff: the class may be led whenever
    held (no lead restriction excludes it, no reserved or called card is in it) and a lead of it must be followed by
    cards of the class first."""
    mask = tables.class_masks[cls]
    if not mask:
        return False
    follow = tables.follow[cls]
    if not follow or follow[0].mask != mask or follow[0].beat == 2:
        return False
    if tables.lead and mask & ~tables.lead[0].mask:
        return False
    if tables.called is not None and tables.called.card_class == cls and tables.called.runaway_min > 1:
        pass  # leading the called ace first is always allowed, and it is the class's top plain card
    return not any(mask >> r.card & 1 for r in tables.reservations)


def ruff_masks(tables: RuleTables) -> list[int]:
    """For each class, the cards of other classes that can win a trick led in it."""
    n = tables.n_cards
    return [sum(1 << c for c in range(n) if tables.card_class[c] != k and tables.power[k][c] > 0)
            for k in range(tables.n_classes)]


def cash_classes(tables: RuleTables) -> list[bool]:
    """The cashable classes, kept only when every card that can ruff one of them can ruff, or is of, every other:
    then whoever can ruff a class the leader cashes later follows suit in the ones he cashes first (and cannot
    have thrown away the later class's cards)."""
    ok = [cashable(tables, k) for k in range(tables.n_classes)]
    ruff = ruff_masks(tables)
    for k in range(tables.n_classes):
        for j in range(tables.n_classes):
            if ok[k] and ok[j] and j != k and ruff[k] & ~(ruff[j] | tables.class_masks[j]):
                return [False] * tables.n_classes
    return ok


def dominance_chain(tables: RuleTables) -> list[int]:
    """The cards that, from the top down, beat every card below them whatever class is led (the top trumps)."""
    orders = [sorted(range(tables.n_cards), key=lambda c: -tables.power[k][c]) for k in range(tables.n_classes)]
    removed: set[int] = set()
    chain: list[int] = []
    while True:
        heads = []
        for k, order in enumerate(orders):
            live = [c for c in order if c not in removed][:2]
            if not live:
                return chain
            heads.append(live)
        top = heads[0][0]
        for k, live in enumerate(heads):
            if live[0] != top or (len(live) > 1 and tables.power[k][live[1]] >= tables.power[k][top]):
                return chain
        chain.append(top)
        removed.add(top)


def rules_tables(state: PlayState) -> RuleTables:
    """The rule tables of a state's deal (compiled once per rules object)."""
    return _tables_of(state.rules)


def _tables_of(rules: Rules) -> RuleTables:
    return rules.tables()


def event_card(event: TrickEvent) -> int:
    """The card a trick event is about: the one that must win the trick, else the one that must be beaten in it
    (the Pagat of Pagat Ultimo and of its silent loss); -1 for neither."""
    return event.winner_card if event.winner_card >= 0 else event.not_winner_card


def beaters(tables: RuleTables, card: int) -> int:
    """The cards that beat ``card`` whatever class is led, leaving out cards of a special winner that ``card``
    itself can win with (a Sagotrick lets the Pagat beat the Sküs)."""
    if card < 0:
        return 0
    excluded = 0
    for special in tables.specials:
        if special.winner == card:
            excluded |= special.cards
    mask = 0
    for other in range(tables.n_cards):
        if other != card and not excluded >> other & 1 and all(
                tables.power[k][other] > tables.power[k][card] for k in range(tables.n_classes)):
            mask |= 1 << other
    return mask


def engine_events(compiled, tables: RuleTables, objective: Objective) -> list[tuple]:
    """The objective's trick events as the engine loads them (``Engine.load_objective``, ``load_payoff``): masks
    and card numbers in the compiled tables' numbering, with the beaters of each event's card."""
    return [(compiled.mask(e.present), compiled.mask(e.absent),
             compiled.to_engine[e.winner_card] if e.winner_card >= 0 else -1,
             compiled.to_engine[e.not_winner_card] if e.not_winner_card >= 0 else -1,
             e.last_only, e.reward, compiled.mask(beaters(tables, event_card(e)))) for e in objective.events]


_COMPILED: dict[tuple[RuleTables, int, bool], Compiled] = {}
_COMPILED_LIMIT = 256


def compile_rules(rules: Rules, objective_cards: int = 0, counts_points: bool = True) -> Compiled:
    """The engine's tables for a deal's rules. Many deals share their tables (the tables hold no hands), so the
    compiled form is kept for the last few hundred distinct tables, and with the rules object itself, which asks
    again for every question on its deal (finding it among the shared ones hashes the whole tables).

    ``counts_points`` False (a question that pays no card points: tricks, Valat, Pagat Ultimo) leaves the points
    out of the signatures: cards that differ only in points then play alike for that question, so the move
    generator searches one of them and the table keys merge the positions that differ only in which of them fell."""
    mine = rules.__dict__.setdefault("_compiled", {})
    compiled = mine.get((objective_cards, counts_points))
    if compiled is not None:
        return compiled
    tables = _tables_of(rules)
    key = (tables, objective_cards, counts_points)
    compiled = _COMPILED.get(key)
    if compiled is None:
        if len(_COMPILED) >= _COMPILED_LIMIT:
            _COMPILED.pop(next(iter(_COMPILED)))
        compiled = _COMPILED[key] = _compile(tables, objective_cards, counts_points)
    mine[(objective_cards, counts_points)] = compiled
    return compiled


def _compile(tables: RuleTables, objective_cards: int, counts_points: bool) -> Compiled:
    n = tables.n_cards
    # Engine order: class by class, weakest first within a class (by the power the class has when it is led).
    order = sorted(range(n), key=lambda c: (tables.card_class[c], tables.power[tables.card_class[c]][c], c))
    to_engine = [0] * n
    for engine_index, card in enumerate(order):
        to_engine[card] = engine_index
    to_pack = tuple(order)

    def emask(mask: int) -> int:
        out = 0
        for card in bits(mask):
            out |= 1 << to_engine[card]
        return out

    def permute(row) -> list:
        return [row[to_pack[e]] for e in range(n)]

    signatures = _signatures(tables, objective_cards, with_points=counts_points)
    roles = _signatures(tables, objective_cards, with_points=False)
    stronger = []
    for e in range(n):
        card = to_pack[e]
        cls = tables.card_class[card]
        own = tables.power[cls]
        stronger.append(emask(sum(1 << c for c in range(n) if tables.card_class[c] == cls and own[c] > own[card])))
    called = None
    if tables.called is not None:
        c = tables.called
        called = (to_engine[c.card], c.holder, c.card_class, c.runaway_min, c.runaway_at_deal, c.flag)
    engine_tables = {
        "n_cards": n,
        "n_seats": tables.n_seats,
        "n_classes": tables.n_classes,
        "points": permute(tables.points),
        "card_class": permute(tables.card_class),
        "signature": permute(signatures),
        "role_signature": permute(roles),
        "stronger": stronger,
        "class_mask": [emask(m) for m in tables.class_masks],
        "led_flags": list(tables.led_flags) or [0] * tables.n_classes,
        "power": [permute(row) for row in tables.power],
        "follow": [[(emask(level.mask), level.beat) for level in levels] for levels in tables.follow],
        "lead": [emask(level.mask) for level in tables.lead],
        "specials": [(emask(s.cards), to_engine[s.winner], [to_engine[c] for c in s.order], s.led_classes)
                     for s in tables.specials],
        "called": called,
        "reservations": [(to_engine[r.card], r.seat) for r in tables.reservations],
        "chain": [to_engine[c] for c in dominance_chain(tables)],
        "canonical_ok": classes_separate(tables),
        "ruff_mask": [emask(m) for m in ruff_masks(tables)],
        "cash_ok": cash_classes(tables),
    }
    return Compiled(engine_tables, tuple(to_engine), to_pack)


def _objective_cards(objective: Objective) -> int:
    mask = 0
    for event in objective.events:
        mask |= event.present | event.absent
        for card in (event.winner_card, event.not_winner_card):
            if card >= 0:
                mask |= 1 << card
    return mask


_NOTHING = object()  # what an EngineSolver has checked before its first question

_Method = TypeVar("_Method", bound=Callable)
_Engine = TypeVar("_Engine")


@dataclass(eq=False)
class Holding:
    """The search threads one question holds: its own and ``threads - 1`` helpers. ``cap(n)`` leaves it ``n`` of them
    (``Engine.cap_threads``: the others stop); None where they cannot be stopped."""

    threads: int
    cap: Callable[[int], None] | None = None


class CoreBudget:
    """The search threads this process runs at once, against the cores it may use. A question's own thread always
    searches; its helper threads start only on cores no other question holds, and a question that arrives when no
    core is free takes one back from the question with the most helpers (they retire within some 20 µs; the answer
    is the same). So threads of a program that each solve with an engine of several threads (every core, by
    default) search on no more threads than there are cores, or than there are callers where those are more: the
    callers' own threads are the program's to count."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.busy = 0           # search threads now, callers and helpers, and cores reserved for worker processes
        self.peak = 0           # the most busy at once since the last reset, reserved cores too (for tests)
        self.retired = 0        # helpers taken back for other questions (for tests)
        self._helped: list[Holding] = []  # the questions now holding helpers that can retire

    def take(self, wanted: int, cap: Callable[[int], None] | None = None,
             hold: Callable[[int], None] | None = None) -> Holding:
        """The threads a question searches on: its own, and up to ``wanted - 1`` helpers on free cores (``cap``
        stops some of them when another question needs their cores). ``hold(threads)`` tells the engine, under the
        budget's lock, so that no other question's ``cap`` comes between. Give them back with :meth:`give`."""
        with self._lock:
            self._make_room()
            threads = 1 if wanted == 1 else 1 + max(0, min(wanted - 1, usable_cores() - self.busy - 1))
            if hold is not None:
                hold(threads)
            holding = Holding(threads, cap)
            self.busy += threads
            if threads > 1 and cap is not None:
                self._helped.append(holding)
            if self.busy > self.peak:
                self.peak = self.busy
        return holding

    def _make_room(self, needed: int = 1) -> None:
        """``needed`` cores (a new question's own thread: one), taken from other questions' helpers while every core
        is busy."""
        over = self.busy + needed - usable_cores()
        while over > 0 and self._helped:
            most = max(self._helped, key=lambda holding: holding.threads)
            back = min(over, most.threads - 1)
            assert most.cap is not None
            most.threads -= back
            most.cap(most.threads)
            self.retired += back
            self.busy -= back
            over -= back
            if most.threads == 1:
                self._helped.remove(most)

    def give(self, holding: Holding) -> None:
        with self._lock:
            if holding in self._helped:
                self._helped.remove(holding)
            self.busy = max(0, self.busy - holding.threads)  # a question that spanned a fork: forget() freed it

    @contextmanager
    def reserved(self, cores: int) -> Iterator[None]:
        """``cores`` held for the block by searches this process runs elsewhere: a local pool's worker processes,
        each searching on a core of this machine. Questions of this process asked meanwhile get helpers only on the
        cores left over (their own thread still searches), and helpers already running give theirs back, so that a
        program solving in one thread while another runs ``analyse_hand(workers=2)`` on two cores searches on
        three threads, not four (a child forked inside the block starts with every core free: ``forget``)."""
        with self._lock:
            self.busy += cores
            self._make_room(0)
            self.peak = max(self.peak, self.busy)
        try:
            yield
        finally:
            with self._lock:
                self.busy = max(0, self.busy - cores)

    @contextmanager
    def held(self, wanted: int) -> Iterator[int]:
        """:meth:`take` for a block (threads that cannot retire); the threads it got."""
        holding = self.take(wanted)
        try:
            yield holding.threads
        finally:
            self.give(holding)

    def reset_peak(self) -> None:
        with self._lock:
            self.peak = self.busy

    def forget(self) -> None:
        """Every core free, with a fresh lock: what a forked child starts with (another thread of the parent may
        have held the lock, or been searching, at the fork; neither exists in the child)."""
        self._lock = threading.Lock()
        self.busy = self.peak = self.retired = 0
        self._helped = []


#: This process's search threads (see CoreBudget).
CORES = CoreBudget()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=lambda: CORES.forget())  # the module's budget then, not the one at import


def serialised(method: _Method, *, alone: bool = False) -> _Method:
    """One thread at a time in an engine's method. A question is several calls into the compiled engine (its tables,
    objective and position are loaded, then searched without the GIL), so two threads sharing an engine would
    search each other's tables: the lock makes them take turns (an engine per thread runs them in parallel). It is
    re-entrant: ``solve`` calls ``value`` and ``line``. The outermost call holds the engine's threads from
    :data:`CORES` (``_hold`` gives the engine the number it got, ``_cap_threads`` stops helpers whose cores another
    question needs) for the whole question; one thread for a method that searches on the calling thread ``alone``
    (:func:`serialised_alone`)."""
    @functools.wraps(method)
    def locked(self, *args, **kwargs):
        with self._lock:
            if self._held:
                return method(self, *args, **kwargs)
            holding = None
            try:
                holding = CORES.take(1 if alone else self._wanted(args), self._cap_threads, self._hold)
                self._held = holding.threads
                return method(self, *args, **kwargs)
            finally:
                self._held = 0
                if holding is not None:
                    CORES.give(holding)
    return locked  # type: ignore[return-value]


def serialised_alone(method: _Method) -> _Method:
    """:func:`serialised` for a method whose searches run on the calling thread alone (a line: one null-window
    question after another), so that it holds one core and leaves the others to other questions."""
    return serialised(method, alone=True)


@contextmanager
def stop_checked(engine: _engine.Engine, time_limit: float | None = None,
                 stop: threading.Event | None = None) -> Iterator[None]:
    """A block in which the compiled ``engine``'s searches (the points search and the settlement search alike) ask
    a stop check every 16,384 nodes: ``time_limit`` seconds from the block's start passed, or ``stop`` set; when it
    says stop, the search unwinds and raises :class:`~solver.errors.SearchStopped` (src_ext/search.pxd,
    Interrupts). Raises it at once when the limit is already past. The limit is the calling thread's
    (:class:`_ThreadLimits`): another thread's searches on a shared engine keep their own, or none."""
    deadline = Deadline(time_limit, stop)
    if not deadline.limited:
        yield
        return
    with _LIMITS_LOCK:
        limits = engine.stop_check
        if not isinstance(limits, _ThreadLimits):  # the engine's first block
            limits = engine.stop_check = _ThreadLimits()
        held = limits.held()
        held.append(deadline)
        limits.open += 1
    try:
        if deadline.passed():  # already past: not even the first 16,384 nodes
            raise SearchStopped(f"the search was stopped before it started: {deadline.reason()}")
        yield
    finally:
        with _LIMITS_LOCK:
            held.remove(deadline)  # the list of the thread that opened it, wherever the block is closed
            limits.open -= 1


class _ThreadLimits:
    """The stop check of an engine once a block of :func:`stop_checked` was opened on it: a search stops by the
    open blocks of the thread that called it (the engine asks its check from that thread alone, search.pxd), so a
    block's limit never stops another thread's search on a shared engine, nor outlives its block when blocks of two
    threads close out of order (a limit set on the engine as a whole did both). Each thread's blocks are kept in a
    thread-local list, which goes with its thread: a new thread given a dead one's id inherits nothing. It stays the
    engine's check for good, so a block never races another thread's block to put it away or set it up again;
    asked once in 16,384 nodes, it costs nothing to keep."""

    def __init__(self) -> None:
        self._local = threading.local()
        self.open = 0  # blocks open in every thread (:func:`open_limits`)

    def held(self) -> list[Deadline]:
        """The calling thread's open blocks, innermost last."""
        if not hasattr(self._local, "held"):
            self._local.held = []
        return self._local.held

    def __call__(self) -> bool:
        held: list[Deadline] = getattr(self._local, "held", [])
        return any(deadline.passed() for deadline in held)  # an outer block's limit holds inside an inner one


_LIMITS_LOCK = threading.Lock()


def open_limits(engine: _engine.Engine) -> int:
    """How many blocks of :func:`stop_checked` are open on the compiled ``engine``, in every thread (0 once they
    have all closed: none of their limits is left behind)."""
    limits = engine.stop_check
    return limits.open if isinstance(limits, _ThreadLimits) else 0


def per_thread(factory: Callable[[int], _Engine],
               size: Callable[[], int | None] = lambda: None) -> Callable[[], _Engine]:
    """``factory(megabytes)`` made once in each thread that asks and kept there: the shared engine of the functions
    called without ``engine=``, so that threads never wait on one another's searches. ``megabytes`` is
    :func:`table_megabytes` of ``size()`` (None: STICH_TABLE_MB's, or the default). Made again when that size or the
    default thread count has changed since (a table's size is fixed when it is made)."""
    local = threading.local()

    @functools.wraps(factory)
    def get() -> _Engine:
        settings = (table_megabytes(size()), default_threads())
        if getattr(local, "settings", None) != settings:
            local.engine = None  # the old table is freed before the new one is made
            local.engine, local.settings = factory(settings[0]), settings
        return local.engine
    return get


class ThreadedEngine:
    """What an engine wrapper that searches a question on several threads shares (:class:`EngineSolver`, the
    settlement's :class:`~solver.search.settle.SettlementEngine`): its ``threads``, and the hooks through which
    :func:`serialised` holds them from :data:`CORES` for a question. A subclass sets ``engine`` (the compiled
    engine), ``_threads`` and ``_lock``."""

    engine: _engine.Engine
    _threads: int
    _lock: threading.RLock

    @property
    def threads(self) -> int:
        """The threads one question searches on (settable between questions): fewer while other questions of this
        process hold the cores (:class:`CoreBudget`)."""
        return self._threads

    @threads.setter
    def threads(self, threads: int) -> None:
        with self._lock:
            self._threads = check_threads(threads)

    def threads_for(self, state: PlayState) -> int:
        """The threads a question from ``state`` searches on when it has the cores to itself: :attr:`threads`, or one
        for an ending under ``parallel_min_tricks`` (what a benchmark reports it measured, not what it asked)."""
        return self._wanted((state,))

    def _wanted(self, args: tuple) -> int:
        """The threads a question from ``args`` (a method's positional arguments, the state first) can use: one for
        an ending the engine keeps on one thread anyway (``parallel_min_tricks``), so that it holds no idle cores."""
        state = args[0] if args else None
        if self._threads == 1 or not isinstance(state, PlayState):
            return self._threads
        try:
            cards = state.hands[state.to_move].bit_count()
        except (AttributeError, IndexError, TypeError, ValueError, ZeroDivisionError):
            return self._threads  # a malformed state: the method's own checks say what is wrong with it
        return 1 if cards < self.engine.parallel_min_tricks else self._threads

    def _hold(self, threads: int) -> None:
        if self.engine.threads != threads:
            self.engine.threads = threads

    def _cap_threads(self, threads: int) -> None:
        """Another question needs cores this one's helpers hold (:class:`CoreBudget`)."""
        self.engine.cap_threads(threads)


class EngineSolver(ThreadedEngine):
    """A compiled engine with its transposition table, reusable across deals and objectives.

    ``tt_megabytes`` bounds the table's memory (None: :func:`table_megabytes`'s default); ``threads`` is how many
    threads one question searches on, sharing the table (None: :func:`default_threads`, every core unless a worker
    pool said otherwise; 1 searches exactly as one thread always did, node for node; helpers start only on cores no
    other question of the process holds, see :class:`CoreBudget`); the switches turn techniques
    off for ablation measurements. Threads may share one solver (they take turns, see :func:`serialised`); one
    each runs them in parallel.
    """

    def __init__(self, tt_megabytes: int | None = None, *, threads: int | None = None, use_table: bool = True,
                 use_equivalence: bool = True, use_bounds: bool = True, use_ordering: bool = True,
                 driver: str = "mtdf", use_canonical: bool = True, use_fast_end: bool = True,
                 use_lookahead: bool = True, use_quasi: bool = True) -> None:
        tt_megabytes = table_megabytes(tt_megabytes)
        threads = default_threads() if threads is None else check_threads(threads)
        switches = dict(use_table=use_table, use_equivalence=use_equivalence, use_bounds=use_bounds,
                        use_ordering=use_ordering, use_canonical=use_canonical, use_fast_end=use_fast_end,
                        use_lookahead=use_lookahead, use_quasi=use_quasi)
        for name, value in switches.items():
            if not isinstance(value, bool):
                raise InvalidPositionError(f"{name} must be True or False, not {value!r}")
        if driver not in DRIVERS:
            raise InvalidPositionError(f"driver must be one of {', '.join(DRIVERS)}, not {driver!r}")
        self.engine = _engine.Engine(tt_megabytes, use_table, use_equivalence, use_bounds, use_ordering, driver,
                                     use_canonical, use_fast_end, use_lookahead, use_quasi, threads)
        self._threads = threads
        self._held = 0          # the threads the current question holds (serialised), 0 between questions
        self._loaded: tuple | None = None
        self._checked_state: object = _NOTHING  # not None: a None passed in must be checked, not match it
        self._state_masks: tuple = (None, None, [], [])    # the last state loaded, in engine numbering
        self._checked_objective: object = _NOTHING
        self._lock = threading.RLock()
        self._megabytes = tt_megabytes

    def __repr__(self) -> str:
        return f"<EngineSolver {self.threads} thread{'s' if self.threads != 1 else ''}, table {self._megabytes} MB>"

    def _check(self, state: PlayState, objective: Objective) -> None:
        """The boundary checks (see boundary.py), each skipped for what it checked last: states and objectives are
        immutable, one question asks the engine several times about the same state, and some ask about one state
        for several objectives (every seat's tricks, where each seat plays for itself)."""
        if self._checked_state is not state:
            check_state(state)
            self._checked_state = state
            self._checked_objective = _NOTHING
        if self._checked_objective is not objective:
            check_objective(objective, state.rules)
            self._checked_objective = objective

    def stopping(self, time_limit: float | None = None,
                 stop: threading.Event | None = None) -> AbstractContextManager[None]:
        """Every search of this engine that the block's thread calls inside it ends with
        :class:`~solver.errors.SearchStopped` once ``time_limit`` seconds have passed (from the block's start) or
        ``stop`` is set (an outer block's limit holds inside an inner one too); other threads' searches on a shared
        engine keep their own limits. The engine stays usable; a stopped search keeps nothing it half proved."""
        return stop_checked(self.engine, time_limit, stop)

    @property
    def table_bytes(self) -> int:
        """The transposition tables' allocated size in bytes (what ``tt_megabytes`` bounds)."""
        return self.engine.table_bytes

    def _load(self, state: PlayState, objective: Objective) -> Compiled:
        """Load what changed since the last call: tables, objective, deal (each starts a new table generation, since
        entries are only valid for one deal and one question), then the position."""
        self._check(state, objective)
        rules = state.rules
        compiled = compile_rules(rules, _objective_cards(objective), objective.points_weight != 0)
        last = self._loaded
        if last is None or last[0] is not compiled:
            self.engine.load_tables(compiled.tables)
        if last is None or last[0] is not compiled or last[1] != objective:
            events = engine_events(compiled, rules_tables(state), objective)
            side = sum(1 << seat for seat in objective.maximiser)
            self.engine.load_objective(side, objective.points_weight, objective.trick_weight, events)
        elif last[2] != rules.deal.hands:
            self.engine.new_generation()
        self._loaded = (compiled, objective, rules.deal.hands)
        loaded_state, loaded_compiled, hands, trick = self._state_masks
        if loaded_state is not state or loaded_compiled is not compiled:
            hands = [compiled.mask(h) for h in state.hands]
            trick = [compiled.to_engine[c] for c in state.trick]
            self._state_masks = (state, compiled, hands, trick)
        self.engine.load_state(hands, state.leader, trick, state.flags)
        return compiled

    @serialised
    def value(self, state: PlayState, objective: Objective, guess: int | None = None) -> int:
        """The exact future value of ``state`` for ``objective`` (``guess``: where the driver starts; None: from
        a heuristic playout)."""
        self._check(state, objective)
        if guess is not None:
            check_number("the guess", guess, -MAX_VALUE, MAX_VALUE)
        if state.is_over:
            return 0
        self._load(state, objective)
        return self.engine.value(guess)

    @serialised
    def reaches(self, state: PlayState, objective: Objective, target: int) -> bool:
        """Can the maximising side still win ``target`` or more from ``state``? ``target`` is measured on the rest
        of the deal, as :meth:`value` is, not on the total: for an objective's own target (a total) subtract what is
        won already, ``objective.target - objective.achieved(state.rules, state)``."""
        self._check(state, objective)
        check_number("the target", target, -MAX_VALUE, MAX_VALUE)
        if state.is_over:
            return target <= 0
        self._load(state, objective)
        return self.engine.reaches(target)

    @serialised
    def card_values(self, state: PlayState, objective: Objective, guess: int | None = None) -> list[CardValue]:
        """The value of every legal card (equivalent cards searched once and given the same value)."""
        self._check(state, objective)
        if guess is not None:
            check_number("the guess", guess, -MAX_VALUE, MAX_VALUE)
        compiled = self._load(state, objective)
        legal, representatives = self.engine.groups()
        values: dict[int, int] = {}
        # a card that the root's value search proved best needs no search; each other card's search starts from
        # the best value of the cards before it (in the engine's order, which beat the playout's and the reverse in
        # measurements)
        proved = self.engine.proved_best(guess) if guess is not None else None
        lower, upper = 0, MAX_VALUE
        if proved is not None and guess is not None:
            # the root's value is then exact: no card beats it (the maximising side's cards are worth at most it,
            # the other side's at least it), which bounds every other card's search
            if state.to_move in objective.maximiser:
                upper = guess
            else:
                lower = guess
            if representatives >> proved & 1:
                values[proved] = guess
        todo = [card for card in _engine.card_indices(representatives) if card not in values]
        values.update(zip(todo, self.engine.values_after(todo, guess, lower, upper)))
        return spread_over_groups(compiled, state, legal, values)

    @serialised
    def value_and_cards(self, state: PlayState, objective: Objective) -> tuple[int, list[CardValue]]:
        """The exact future value and every legal card's value, cheaper than value() then card_values(): the root's
        value is the best of its cards' (the maximising side's greatest, the other side's least), so the separate
        search that proves it is saved; the first card starts from the heuristic playout's guess."""
        self._check(state, objective)
        if state.is_over:
            return 0, []
        values = self.card_values(state, objective)
        best = max if state.to_move in objective.maximiser else min
        return best(cv.value for cv in values), values

    @serialised_alone
    def line(self, state: PlayState, objective: Objective, value: int) -> list[int]:
        """A principal variation from ``state``: at each turn a card that keeps the value (the engine's choice
        among the equal ones is the lowest pack index, as the reference's). Whether a card keeps the value is one
        null-window search (``Engine.keeps``), not the card's exact value; a value that is not the state's shows
        as a turn where no card keeps it or a line that does not add up to it."""
        self._check(state, objective)
        check_number("the value", value, -MAX_VALUE, MAX_VALUE)
        start = state
        line = []
        remaining = value
        while not state.is_over:
            compiled = self._load(state, objective)
            chosen = None
            for card in bits(state.legal_cards()):
                reward, kept = self.engine.keeps(compiled.to_engine[card], remaining)
                if kept:
                    chosen = card
                    remaining -= reward
                    break
            if chosen is None:
                self._wrong_value(start, objective, value)
                raise EngineError("no card keeps the value: the engine is inconsistent")
            line.append(chosen)
            state = state.advance(chosen)
        if remaining:
            self._wrong_value(start, objective, value)
            raise EngineError("the line does not add up to the value: the engine is inconsistent")
        return line

    def _wrong_value(self, state: PlayState, objective: Objective, value: int) -> None:
        """InvalidPositionError when ``value`` is not the state's (the caller's mistake, not the engine's)."""
        exact = self.value(state, objective)
        if exact != value:
            raise InvalidPositionError(f"the value {value} is not this position's: its {objective.name} value is "
                                       f"{exact}, and a line keeps only that")

    @serialised
    def perft(self, state: PlayState, depth: int) -> int:
        """Legal play sequences of ``depth`` cards by the engine's move generator (compare with the reference)."""
        check_state(state)
        check_number("the perft depth", depth, 0, MAX_PERFT_DEPTH)
        if state.is_over or depth == 0:
            return 1
        self._load(state, Objective("perft", frozenset(), "move generation only"))
        return self.engine.perft(depth)

    @serialised
    def solve(self, state: PlayState, objective: Objective, *, cards: bool = False, line: bool = False,
              time_limit: float | None = None, stop: threading.Event | None = None) -> SolveResult:
        """The whole answer: the value, with ``cards`` every legal card's, with ``line`` a principal variation.
        ``time_limit`` (seconds) and ``stop`` (an Event another thread may set) end the search early with
        :class:`~solver.errors.SearchStopped`; they are looked at every 16,384 nodes (a millisecond or two)."""
        start = time.perf_counter()
        self._check(state, objective)
        check_flag("cards", cards)
        check_flag("line", line)
        with self.stopping(time_limit, stop):
            self.engine.reset_counters()
            if cards and not state.is_over:
                future, card_values = self.value_and_cards(state, objective)
                values = tuple(card_values)
            else:
                future = self.value(state, objective)
                values = ()
            pv = tuple(self.line(state, objective, future)) if line else ()
        achieved = objective.achieved(state.rules, state)
        return SolveResult(objective=objective, achieved=achieved, future=future, card_values=values, line=pv,
                           nodes=self.engine.nodes, seconds=time.perf_counter() - start, to_move=seat_to_move(state),
                           pack=state.rules.pack)


def spread_over_groups(compiled: Compiled, state: PlayState, legal: int, values: dict[int, int]) -> list[CardValue]:
    """Every legal card's value (engine indices in ``legal``), given the values of the groups' representatives: a
    card takes the value of its group's strongest card. Sorted by pack index; each card a :class:`CardIndex`."""
    stronger = compiled.tables["stronger"]
    signature = compiled.tables["signature"]
    live = compiled.mask(state.cards_left) | compiled.mask(sum(1 << c for c in state.trick))
    for card in sorted(_engine.card_indices(legal), reverse=True):
        representative = card
        while representative not in values:  # walk up to the group's strongest card
            above = live & stronger[representative]
            nxt = (above & -above).bit_length() - 1
            if nxt < 0 or not legal >> nxt & 1 or signature[nxt] != signature[representative]:
                raise EngineError("equivalence groups disagree between engine and wrapper")
            representative = nxt
        values[card] = values[representative]
    pack = state.rules.pack  # each card a CardIndex, printed by name as in a SolveResult (one object a legal card)
    result = [CardValue(CardIndex(compiled.to_pack[card], pack[compiled.to_pack[card]]), values[card])
              for card in _engine.card_indices(legal)]
    return sorted(result, key=lambda cv: cv.card)


def solver_for(engine: object) -> "EngineSolver":
    """``engine``, or this thread's shared one for None; InvalidPositionError for anything else (the public
    functions' ``engine=`` argument)."""
    if engine is None:
        return default_solver()
    if not isinstance(engine, EngineSolver):
        raise InvalidPositionError(f"engine must be an EngineSolver, not {type(engine).__name__}")
    return engine


@per_thread
def default_solver(megabytes: int) -> EngineSolver:
    """This thread's shared engine (created on first use, so importing stich allocates nothing)."""
    return EngineSolver(megabytes)


def uses_reference(reference_solver: object) -> bool:
    """The public functions' ``reference_solver`` argument: True or False, or None for STICH_IMPLEMENTATION's
    choice (see :func:`implementation`)."""
    check_flag("reference_solver", reference_solver, allow_none=True)
    return implementation() == "python" if reference_solver is None else bool(reference_solver)


def table_megabytes(tt_megabytes: int | None = None) -> int:
    """The table size in MB: ``tt_megabytes`` checked, or for None STICH_TABLE_MB's (so that a command's
    ``--table-mb`` reaches the engines its worker processes create) or else 64."""
    if tt_megabytes is not None:
        check_number("tt_megabytes", tt_megabytes, 1, MAX_TT_MEGABYTES)
        return tt_megabytes
    text = os.environ.get(TABLE_SIZE_VARIABLE, "").strip()
    if not text:
        return DEFAULT_TT_MEGABYTES
    if not re.fullmatch(r"[0-9]{1,4}", text) or not 1 <= int(text) <= MAX_TT_MEGABYTES:  # not isdigit: '²' is one
        raise StichError(f"{TABLE_SIZE_VARIABLE}={text!r}: expected a table size in MB from 1 to {MAX_TT_MEGABYTES} "
                         f"(default {DEFAULT_TT_MEGABYTES})")
    return int(text)


def check_threads(threads: object) -> int:
    """A thread count: an int from 1 to MAX_THREADS (InvalidPositionError otherwise)."""
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise InvalidPositionError(f"threads must be a whole number from 1 to {MAX_THREADS}, not {threads!r}")
    return threads


def usable_cores() -> int:
    """The cores this process may run on: its affinity where the system reports one, and no more than a CPU quota
    of its control groups allows (:func:`cgroup_cpu_limit`)."""
    try:
        cores = max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        cores = max(1, os.cpu_count() or 1)
    quota = _cgroup_cpu_limit_once()
    return cores if quota is None else min(cores, quota)


def cgroup_cpu_limit(proc_cgroup: Path = Path("/proc/self/cgroup"),
                     root: Path = Path("/sys/fs/cgroup")) -> int | None:
    """The cores a CPU quota on this process's control groups allows, rounded up; None without one (or off Linux).

    A container started with ``--cpus 2`` on a 64-core host has all 64 in its affinity, but 2 cores' worth of time
    each 100 ms: 64 threads or worker processes would take turns on them, each stopped for most of every period.
    The quota is ``cpu.max`` (cgroup v2: "QUOTA PERIOD", or "max") or ``cpu.cfs_quota_us`` over
    ``cpu.cfs_period_us`` (v1: -1 for none), read in the process's group and each group above it, the least
    counting; ``root`` is where the groups are mounted, ``proc_cgroup`` the file that names the process's."""
    try:
        lines = proc_cgroup.read_text().splitlines()
    except OSError:
        return None
    limits: list[int] = []
    for line in lines:
        _, controllers, path = (line.split(":", 2) + ["", ""])[:3]
        if controllers == "":
            places = [(root, "cpu.max")]
        elif "cpu" in controllers.split(","):
            places = [(root / controllers, "cpu.cfs_quota_us"), (root / "cpu", "cpu.cfs_quota_us")]
        else:
            continue
        parts = [part for part in path.strip().split("/") if part not in ("", ".")]
        if ".." in parts:
            continue  # a group outside this namespace's view: its quota cannot be read from here
        for mount, name in places:
            for depth in range(len(parts), -1, -1):  # the group, then each one above it
                limit = _cpu_limit_in(mount.joinpath(*parts[:depth]), name)
                if limit is not None:
                    limits.append(limit)
    return min(limits) if limits else None


def _cpu_limit_in(group: Path, name: str) -> int | None:
    """The cores one group's quota allows (``cgroup_cpu_limit``), None where it has none or it cannot be read."""
    try:
        if name == "cpu.max":
            quota, period = (group / name).read_text().split()[:2]
            if quota == "max":
                return None
        else:
            quota = (group / name).read_text().strip()
            period = (group / "cpu.cfs_period_us").read_text().strip()
        quota_us, period_us = int(quota), int(period)
    except (OSError, ValueError):
        return None
    if quota_us <= 0 or period_us <= 0:
        return None
    return max(1, -(-quota_us // period_us))


@functools.lru_cache(maxsize=1)
def _cgroup_cpu_limit_once() -> int | None:
    """:func:`cgroup_cpu_limit`, read once a process: every question asks for the cores (CoreBudget)."""
    return cgroup_cpu_limit()


_default_threads: int | None = None


def set_default_threads(threads: int | None) -> None:
    """The threads of every solver this process makes from now on without ``threads`` (the thread-local shared
    ones included): a worker pool that already keeps every core busy sets 1 in each worker, so that cores are never
    oversubscribed; None goes back to every usable core. Solvers made before keep theirs."""
    global _default_threads
    _default_threads = None if threads is None else check_threads(threads)


def default_threads() -> int:
    """The threads of a solver made without ``threads``: :func:`set_default_threads`'s, else every usable core (at
    most MAX_THREADS)."""
    return _default_threads if _default_threads is not None else min(usable_cores(), MAX_THREADS)


def implementation() -> str:
    """``engine`` or ``python`` (the reference), from STICH_IMPLEMENTATION."""
    name = os.environ.get("STICH_IMPLEMENTATION", "engine").strip().lower()
    if name in ("python", "reference", "py"):
        return "python"
    if name in ("engine", "cython", ""):
        return "engine"
    raise StichError(f"STICH_IMPLEMENTATION={name!r}: expected engine (the default) or python (the reference)")
