"""The settlement search behind one interface for the compiled engine and the reference solver.

A settlement is a function of a few additive *components* (each an ordinary :class:`Objective`: card points of the
declaring side, its tricks, a trick event) through a *payoff table*: each component's final value falls into a
bucket (cut by sorted thresholds) and the tuple of buckets indexes the declaring side's net payment. The table is
built from each game's scoring (solver/settlement.py); here it is searched:

* :class:`SettlementEngine` loads it into the compiled engine (src_ext/settle.pxd) and asks for the exact payoff;
* :func:`reference_settlement` is the oracle: plain minimax over :class:`PlayState` that scores every finished deal
  with a caller-given function (the real scorer), memoised on the position and the accumulated component values.
"""

from __future__ import annotations

import threading
from bisect import bisect_left, bisect_right
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Iterator

from .. import _engine
from ..cards import bits
from ..errors import EngineError, StichError
from ..games.base import PayoffComponent
from ..state import PlayState
from .boundary import check_state
from .engine import (Compiled, ThreadedEngine, _objective_cards, check_threads, compile_rules, default_threads,
                     engine_events, rules_tables, serialised, serialised_alone, spread_over_groups, stop_checked,
                     table_megabytes)
from .results import CardValue

#: The engine's limits (src_ext/settle.pxd).
MAX_COMPONENTS = 6
MAX_THRESHOLDS = 7
MAX_PAYOFFS = 4096
#: A payoff table's entries lie within +-PAYOFF_LIMIT, and +-PAYOFF_LIMIT itself is "the worst possible" for a side
#: (score_check.py, ``keeping_points``): beyond any real settlement (a Kratzen pot has at most nine digits). The engine
#: never sees these values, only their ranks (``PayoffSpec.ranks``), so any table it can index it can search.
PAYOFF_LIMIT = 10 ** 15
#: Fewer tricks left at the root: the settlement on one thread. A settlement of 8 tricks or fewer (a whole Schafkopf
#: deal among them) takes about a millisecond or less, which two threads do not shorten (docs/architecture.md, "The
#: settlement: the root split too"); the points search's bound is 5 (``Engine.parallel_min_tricks``).
SETTLE_MIN_TRICKS = 9


@dataclass(frozen=True)
class PayoffSpec:
    """The settlement as data: the declaring side maximises ``table[bucket tuple]`` (component 0 varies slowest)."""

    declaring_side: frozenset[int]
    components: tuple[PayoffComponent, ...]
    table: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.components) > MAX_COMPONENTS:
            raise StichError(f"a settlement of {len(self.components)} components (the engine takes "
                             f"{MAX_COMPONENTS})")
        size = 1
        for component in self.components:
            if len(component.thresholds) > MAX_THRESHOLDS or list(component.thresholds) != sorted(
                    set(component.thresholds)) or any(t < 1 for t in component.thresholds):
                raise StichError(f"component {component.name}: thresholds must be at most {MAX_THRESHOLDS} "
                                 f"ascending positive numbers, not {component.thresholds}")
            size *= len(component.thresholds) + 1
        if len(self.table) != size or size > MAX_PAYOFFS:
            raise StichError(f"a payoff table needs {size} entries (at most {MAX_PAYOFFS}), not {len(self.table)}")
        if any(abs(v) > PAYOFF_LIMIT for v in self.table):
            raise StichError(f"a settlement beyond +-{PAYOFF_LIMIT:,} cannot be searched")

    @cached_property
    def values(self) -> tuple[int, ...]:
        """The table's distinct entries, ascending: what the engine searches is each entry's rank among them."""
        return tuple(sorted(set(self.table)))

    @property
    def net_range(self) -> tuple[int, int]:
        """The least and greatest entry: every settlement the search can answer is an entry, so no value of the
        position lies outside (an outer bound where some buckets are out of reach, as a card-point bucket below what
        the side already holds)."""
        return self.values[0], self.values[-1]

    @cached_property
    def ranks(self) -> tuple[int, ...]:
        """The table as the engine loads it: each entry's rank among :attr:`values`. The search only compares
        payoffs (a null-window question "payoff >= v", the least and greatest entry of a box), and minimax keeps any
        order-preserving map, so the ranks' settlement is the rank of the payoffs' one, whatever their size."""
        rank = {value: i for i, value in enumerate(self.values)}
        return tuple(rank[v] for v in self.table)

    def rank_at_least(self, value: int) -> int:
        """The rank of the least entry >= ``value`` (len(values) where none is): a lower bound or a guess, ranked."""
        return bisect_left(self.values, value)

    def rank_at_most(self, value: int) -> int:
        """The rank of the greatest entry <= ``value`` (-1 where none is): an upper bound, ranked."""
        return bisect_right(self.values, value) - 1

    @staticmethod
    def shape(components: tuple[PayoffComponent, ...]) -> list[int]:
        return [len(c.thresholds) + 1 for c in components]

    def index(self, buckets: tuple[int, ...]) -> int:
        index = 0
        for bucket, size in zip(buckets, self.shape(self.components)):
            index = index * size + bucket
        return index

    def payoff(self, values: tuple[int, ...]) -> int:
        """The settlement of final component values."""
        return self.table[self.index(tuple(c.bucket(v) for c, v in zip(self.components, values)))]

    def accumulated(self, state: PlayState) -> tuple[int, ...]:
        """Each component's value earned by the completed tricks of ``state``."""
        return tuple(c.objective.achieved(state.rules, state) for c in self.components)


def bucket_tuples(components: tuple[PayoffComponent, ...]) -> list[tuple[int, ...]]:
    """Every bucket tuple in table order."""
    result: list[tuple[int, ...]] = [()]
    for size in PayoffSpec.shape(components):
        result = [prefix + (b,) for prefix in result for b in range(size)]
    return result


class SettlementEngine(ThreadedEngine):
    """The compiled settlement search with a transposition table of its own (entries of a settlement must never
    meet those of an ordinary objective). ``threads`` is how many threads one settlement searches on, sharing the
    table (None: :func:`~solver.search.engine.default_threads`, every core unless a worker pool said otherwise; 1
    searches as one thread always did, node for node), as :class:`~solver.search.engine.EngineSolver`'s."""

    def __init__(self, tt_megabytes: int | None = None, *, threads: int | None = None) -> None:
        tt_megabytes = table_megabytes(tt_megabytes)
        self._threads = default_threads() if threads is None else check_threads(threads)
        self.engine = _engine.Engine(tt_megabytes, True, True, True, True, "mtdf", True, threads=self._threads)
        self.engine.parallel_min_tricks = SETTLE_MIN_TRICKS
        self._loaded: tuple | None = None
        self._lock = threading.RLock()  # threads take turns (see engine.serialised)
        self._held = 0                  # the threads the current question holds (serialised), 0 between questions
        self._megabytes = tt_megabytes

    def __repr__(self) -> str:
        """One line, as EngineSolver's (not ``<... object at 0x...>``)."""
        return f"<SettlementEngine {self.threads} thread{'s' if self.threads != 1 else ''}, table {self._megabytes} MB>"

    @property
    def nodes(self) -> int:
        return self.engine.nodes

    @property
    def table_bytes(self) -> int:
        """The tables' allocated size, as EngineSolver's."""
        return self.engine.table_bytes

    @contextmanager
    def stopping(self, time_limit: float | None = None, stop: threading.Event | None = None) -> Iterator[None]:
        """Every settlement search of this engine inside the block ends with :class:`~solver.errors.SearchStopped`
        once ``time_limit`` seconds have passed (from the block's start) or ``stop`` is set, as the points search
        does (:meth:`solver.search.engine.EngineSolver.stopping`): the limit is the calling thread's, so another
        thread's searches on a shared engine keep their own, or none. The engine stays usable; a stopped search
        keeps nothing it half proved."""
        with stop_checked(self.engine, time_limit, stop):
            yield

    def _load(self, state: PlayState, spec: PayoffSpec) -> Compiled:
        rules = state.rules
        cards = 0
        for component in spec.components:
            cards |= _objective_cards(component.objective)
        compiled = compile_rules(rules, cards)
        last, self._loaded = self._loaded, None  # stays None if a loader below rejects its input
        if last is None or last[0] is not compiled:
            self.engine.load_tables(compiled.tables)
        if last is None or last[0] is not compiled or last[1] != spec:
            tables = rules_tables(state)
            components = [(sum(1 << s for s in c.objective.maximiser), c.objective.points_weight,
                           c.objective.trick_weight, engine_events(compiled, tables, c.objective))
                          for c in spec.components]
            self.engine.load_payoff(sum(1 << s for s in spec.declaring_side), components,
                                    [list(c.thresholds) for c in spec.components], list(spec.ranks))
        elif last[2] != rules.deal.hands:
            self.engine.new_generation()
        self._loaded = (compiled, spec, rules.deal.hands)
        self.engine.load_state([compiled.mask(h) for h in state.hands], state.leader,
                               [compiled.to_engine[c] for c in state.trick], state.flags)
        return compiled

    @serialised
    def value(self, state: PlayState, spec: PayoffSpec) -> int:
        """The settlement the declaring side can force from ``state`` (what its completed tricks earned included)."""
        check_state(state)
        return self._value(state, spec)

    def _value(self, state: PlayState, spec: PayoffSpec, lower: int | None = None, upper: int | None = None,
               guess: int | None = None) -> int:
        """:meth:`value` of a state already checked (or reached from one by legal play); the settlement is known to
        lie in [``lower``, ``upper``], and ``guess`` is probed first."""
        accumulated = spec.accumulated(state)
        if state.is_over:
            return spec.payoff(accumulated)
        self._load(state, spec)
        rank = self.engine.settle(list(accumulated), None if lower is None else spec.rank_at_least(lower),
                                  None if upper is None else spec.rank_at_most(upper),
                                  None if guess is None else spec.rank_at_least(guess))
        return spec.values[rank]

    @serialised
    def card_values(self, state: PlayState, spec: PayoffSpec) -> list[CardValue]:
        """The settlement after each legal card (the whole deal's, as :meth:`value`): the root's value, then one
        exact search per group of equivalent cards bounded by it (the payoff's event cards have signatures of their
        own, so a group is equivalent for every component), the group's other cards given its value. Children share
        the table: they are positions of one deal."""
        check_state(state)
        if state.is_over:
            return []
        root = self._value(state, spec)
        compiled = self._load(state, spec)
        legal, representatives = self.engine.groups()
        # no card beats the root's value: it bounds every card's (from above for the declaring side's cards, from
        # below for the others'), and most cards keep it, which the first probe (the guess) then proves
        maximising = state.to_move in spec.declaring_side
        lower, upper = (None, root) if maximising else (root, None)
        values = {card: self._value(state.advance(compiled.to_pack[card]), spec, lower, upper, root)
                  for card in _engine.card_indices(representatives)}
        return spread_over_groups(compiled, state, legal, values)

    @serialised_alone
    def line(self, state: PlayState, spec: PayoffSpec, value: int) -> list[int]:
        """A principal variation: at each turn the lowest-indexed card that keeps the settlement ``value`` (the
        settlement of ``state``), found in the engine with one null-window question per card tried
        (src_ext/settle.pxd, ``settle_line``)."""
        check_state(state)
        if state.is_over:
            return []
        compiled = self._load(state, spec)
        held = state.cards_left
        rank = spec.rank_at_least(value)
        known = rank < len(spec.values) and spec.values[rank] == value
        cards = self.engine.settle_line(list(spec.accumulated(state)), rank if known else -1,
                                        [compiled.to_engine[c] for c in bits(held)]) if known else None
        if cards is None:
            raise EngineError(f"no line keeps the settlement {value}: it is not the position's, or the engine is "
                              "inconsistent")
        return [compiled.to_pack[c] for c in cards]


def reference_settlement(state: PlayState, spec: PayoffSpec, score: Callable[[PlayState], int],
                         memo: dict[tuple, int] | None = None) -> int:
    """The oracle: the settlement the declaring side can force, by minimax over the rule methods. Every finished
    deal is scored by ``score`` (the real scorer, not the payoff table); the memo key is the position and the
    component values accumulated so far (pass one ``memo`` to several calls with the same spec and scorer)."""
    memo = {} if memo is None else memo
    rules = state.rules

    def value(current: PlayState, accumulated: tuple[int, ...]) -> int:
        if current.is_over:
            return score(current)
        key = (current.key(), accumulated)
        known = memo.get(key)
        if known is not None:
            return known
        maximising = current.to_move in spec.declaring_side
        best: int | None = None
        for card in bits(current.legal_cards()):
            child = current.advance(card)
            after = accumulated
            if len(child.history) > len(current.history):
                trick = child.history[-1]
                after = tuple(a + c.objective.trick_reward(rules, trick, last=child.is_over)
                              for a, c in zip(accumulated, spec.components))
            result = value(child, after)
            if best is None or (result > best if maximising else result < best):
                best = result
        assert best is not None, "a player to move always has a legal card"
        memo[key] = best
        return best

    return value(state, spec.accumulated(state))
