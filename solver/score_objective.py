"""The ``score`` objective: the net settlement the declaring side can force, in game units, as an answer like any
other objective's (a value, every legal card's value, an optimal line).

Card points are what the engine's ordinary objectives add up trick by trick; players play for the score. The score
of a position is the double-dummy settlement of the whole deal (solver/settlement.py builds its payoff table from the
scorer: game value, every bonus, the announcements and Kontra levels of the record or of ``announcements``, every
variant flag; in a game paid from a pot the declarer's payment, with the pot), searched by the settlement engine
(solver/search/settle.py). The answer is a :class:`~solver.search.results.SolveResult` whose ``achieved`` is 0 and
whose ``future`` is the settlement of the whole deal: what was won in the completed tricks is part of the settlement,
not an addend of it. Each card's value is the settlement after that card, so ``best_cards()`` ranks by the score.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Sequence

from .cards import bits
from .errors import InvalidContractError, InvalidSeatError, StichError
from .games.base import Objective
from .position import SCORE, Position, check_position, every_seat_for_itself, names_score
from .scoring import check_scoring_inputs
from .search.boundary import Deadline, check_flag, check_state
from .search.engine import EngineSolver, uses_reference
from .search.results import CardValue, SolveResult, seat_to_move
from .search.settle import SettlementEngine, reference_settlement
from .settlement import (Announcements, _reference_line, default_settlement_engine, final_net, payoff_spec,
                         settlement_unsupported)
from .state import PlayState


def objective_named(position: Position, name: str, seat: int | None = None) -> Objective:
    """The objective ``name`` of the position: the score (:func:`score_objective`, which the rules do not list, as
    the settlement search answers it, not the points engine) or one of the rules' own (``position.objective``)."""
    return score_objective(position) if names_score(name) else position.objective(name, seat)


def score_objective(position: Position) -> Objective:
    """The score as an Objective for the documents and results: its maximiser is the declaring side (with
    per-seat targets, the declarer); it has no weights, so it is never given to the points engine (see
    :func:`solve_score`)."""
    reason = settlement_unsupported(position)
    if reason is not None:
        raise InvalidContractError(reason)
    rules = position.rules
    game = position.game
    who = "the attacker's payment in chips, with the pot" if game.has_pot else \
        "the declaring side's net settlement in game units"
    what = "bonuses, announcements, Kontra included" if game.has_announcements else "every item of the game's scoring"
    return Objective(SCORE, rules.declaring_side, f"{who} ({what})")


_ENGINES = threading.local()
#: Settlement engines a thread keeps for the points engines it was given (or the table sizes asked), by table size,
#: the most recently asked first (each takes the threads asked): each holds a table as large as its points engine's,
#: so a caller that goes through many table sizes keeps only the last few tables.
SHAPES_KEPT = 2


def score_takes_no_seat(position: Position) -> InvalidSeatError:
    """The refusal of a seat for the score, in the game's words: the declaring side's settlement, or where every
    seat plays for itself (Kratzen) the attacker's own payment, which no other seat's is."""
    if every_seat_for_itself(position):
        title = position.game.declarer_title
        return InvalidSeatError(f"the score is the {title}'s own payment (every seat plays for itself) and takes no "
                                "seat")
    return InvalidSeatError("the score is the declaring side's (or the declarer's alone) and takes no seat")


def settlement_engine_for(engine: EngineSolver | SettlementEngine | None) -> SettlementEngine:
    """The settlement engine to search the score with: ``engine`` itself, one with the table size and threads of a
    points engine (a command's ``--table-mb`` and ``--threads``: this thread's, kept for the last
    :data:`SHAPES_KEPT` sizes asked, its threads set to the points engine's), or this thread's shared one."""
    if isinstance(engine, SettlementEngine):
        return engine
    if engine is None:
        return default_settlement_engine()
    return settlement_engine_sized(max(1, engine.table_bytes >> 20), engine.threads)


def settlement_engine_sized(megabytes: int, threads: int) -> SettlementEngine:
    """This thread's settlement engine with a table of ``megabytes`` (a points engine's size for
    :func:`settlement_engine_for`, or a size asked, where no points engine is needed), on ``threads``: one a table
    size, kept for the last :data:`SHAPES_KEPT` sizes. A size asked is known by the size the engine made of it, so
    that it is the engine a points engine of that size would have."""
    made: OrderedDict[int, SettlementEngine] = _ENGINES.__dict__.setdefault("by_size", OrderedDict())
    made_of: dict[int, int] = _ENGINES.__dict__.setdefault("made_of", {})  # a size asked: the table's size
    size = made_of.get(megabytes, megabytes)
    if size in made:
        made.move_to_end(size)
        made[size].threads = threads  # the same engine (and its stop) on the threads asked now
        return made[size]
    while len(made) >= SHAPES_KEPT:
        made.popitem(last=False)          # its table is freed before the new one is made
    engine = SettlementEngine(megabytes, threads=threads)
    size = made_of[megabytes] = max(1, engine.table_bytes >> 20)
    made[size] = engine
    return engine


def solve_score(position: Position, *, cards: bool = False, line: bool = False,
                engine: SettlementEngine | None = None, reference_solver: bool | None = None,
                announcements: Announcements = None, pot: int | None = None, time_limit: float | None = None,
                stop: threading.Event | None = None) -> SolveResult:
    """The double-dummy score of ``position`` (from its current state: start, mid-trick or ending): the value, with
    ``cards`` the settlement after every legal card (equivalent cards share it), with ``line`` an optimal line.

    ``announcements`` and ``pot`` (for the games that have them) override the record's tags, as for
    :func:`~solver.scoring.score_deal`. ``time_limit`` (seconds) and ``stop`` (an Event another thread may set)
    end the engine's search early with :class:`~solver.errors.SearchStopped`, as for the points search; the
    reference solver runs to the end and refuses them."""
    start = time.perf_counter()
    check_position(position)
    check_flag("cards", cards)
    check_flag("line", line)
    state = check_state(position.state)
    check_scoring_inputs(position.game, pot, announcements)
    objective = score_objective(position)
    spec = payoff_spec(position, announcements=announcements, pot=pot)
    values: Sequence[CardValue] = ()
    pv: Sequence[int] = ()
    nodes = 0
    if uses_reference(reference_solver):
        Deadline(time_limit, stop, reference_solver=True)
        memo: dict[tuple, int] = {}

        def score(final: PlayState) -> int:
            return final_net(position, final, announcements=announcements, pot=pot)[0]

        value = reference_settlement(state, spec, score, memo)
        if cards and not state.is_over:
            values = [CardValue(card, reference_settlement(state.advance(card), spec, score, memo))
                      for card in bits(state.legal_cards())]
        if line:
            pv = _reference_line(state, spec, score, value)
    else:
        if engine is not None and not isinstance(engine, SettlementEngine):
            raise StichError(f"the score is searched by a SettlementEngine, not {type(engine).__name__}")
        searcher = engine if engine is not None else default_settlement_engine()
        with searcher.stopping(time_limit, stop):
            before = searcher.nodes
            if cards and not state.is_over:
                values = searcher.card_values(state, spec)
                best = max if state.to_move in spec.declaring_side else min
                value = best(cv.value for cv in values)
            else:
                value = searcher.value(state, spec)
            if line:
                pv = searcher.line(state, spec, value)
            nodes = searcher.nodes - before
    return SolveResult(objective=objective, achieved=0, future=value, card_values=tuple(values), line=tuple(pv),
                       nodes=nodes, seconds=time.perf_counter() - start, to_move=seat_to_move(state),
                       pack=state.rules.pack, net_range=spec.net_range)


__all__ = ["SCORE", "names_score", "objective_named", "score_objective", "score_takes_no_seat", "settlement_engine_for",
           "solve_score"]
