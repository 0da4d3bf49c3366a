"""The functions users call: load positions from files, solve them, count play sequences."""

from __future__ import annotations

import os
import threading
from typing import IO, Iterator, Mapping, SupportsIndex

from .diagram import position_heading
from .errors import ParseError, StichError
from .formats.tbn import iter_records, parse_records, read_records
from .position import Position, check_position, make_position, names_score, position_from_record
from .search import reference
from .search.boundary import Deadline, check_flag, check_number, check_question, check_state
from .search.engine import MAX_PERFT_DEPTH, EngineSolver, default_solver, solver_for, uses_reference
from .search.results import SolveResult
from .search.settle import SettlementEngine


def read_positions(source: str | os.PathLike | IO, *, variant: Mapping[str, object] | str | None = None,
                   name: str | None = None) -> Iterator[Position]:
    """Every record of a file (path or open text stream) as a Position; the first bad record raises ParseError."""
    for record in read_records(source, name=name):
        yield position_from_record(record, variant=variant)


def iter_positions(source: str | os.PathLike | IO, *, variant: Mapping[str, object] | str | None = None,
                   name: str | None = None) -> Iterator[Position | StichError]:
    """Like :func:`read_positions`, but a bad record is yielded as its error and reading goes on (batch use)."""
    for item in iter_records(source, name=name):
        if isinstance(item, ParseError):
            yield item
            continue
        try:
            yield position_from_record(item, variant=variant)
        except StichError as error:
            yield error


def parse_positions(text: str, *, variant: Mapping[str, object] | str | None = None,
                    name: str = "<string>") -> list[Position]:
    """Every record of a string as a Position."""
    return [position_from_record(r, variant=variant) for r in parse_records(text, name=name)]


def solve(position: Position, objective: str = "points", *, seat: SupportsIndex | None = None, cards: bool = False,
          line: bool = False, engine: EngineSolver | SettlementEngine | None = None,
          reference_solver: bool | None = None,
          time_limit: float | None = None, stop: threading.Event | None = None) -> SolveResult:
    """The double-dummy answer to ``objective`` from ``position``.

    ``seat`` (1-based) picks the seat for a per-seat question; ``cards`` adds the value of every legal card
    (equivalent cards share a value), ``line`` a principal variation to the end of the deal. The compiled engine
    answers (``engine`` to use your own, e.g. with another table size); ``reference_solver=True`` or
    ``STICH_IMPLEMENTATION=python`` uses the pure-Python reference instead. ``time_limit`` (seconds) and ``stop``
    (a ``threading.Event`` another thread may set: a bot's move deadline, a user's cancel) end the engine's search
    early with :class:`~solver.errors.SearchStopped`; signals such as Ctrl-C reach only the main thread, these any.

    ``objective="score"`` answers the net settlement the declaring side can force in game units (in a game paid from
    a pot, the declarer's payment with the pot): every bonus, the record's announcements and Kontra levels, the
    variant flags (:mod:`solver.score_objective`). Its card values are the settlement after each card, so
    ``best_cards()`` ranks by the score; for any other objective it ranks by that objective's value (card points for
    ``points``). The score is searched by a :class:`~solver.search.settle.SettlementEngine` (pass one as ``engine``,
    or None), stops at ``time_limit`` or ``stop`` as the points search does, and takes no ``seat``.
    """
    result = _solve_checked(position, objective, seat=seat, cards=cards, line=line, engine=engine,
                            reference_solver=reference_solver, time_limit=time_limit, stop=stop)
    # set on the fresh result, which no one else holds: replace() would check all its fields again
    object.__setattr__(result, "heading", position_heading(position))
    return result


def _solve_checked(position: Position, objective: str = "points", *, seat: SupportsIndex | None = None,
                   cards: bool = False, line: bool = False, engine: EngineSolver | SettlementEngine | None = None,
                   reference_solver: bool | None = None, time_limit: float | None = None,
                   stop: threading.Event | None = None) -> SolveResult:
    """:func:`solve`'s answer without its :attr:`~solver.search.results.SolveResult.heading`, which ``print()`` and
    the notebook view put above it: what the library's own callers take, many a search each (a table, a check, the
    board's cards)."""
    check_position(position)
    check_flag("cards", cards)
    check_flag("line", line)
    if names_score(objective):
        return _solve_score(position, seat, cards, line, engine, reference_solver, time_limit, stop)
    goal = position.objective(objective, seat)
    use_reference = uses_reference(reference_solver)
    if engine is not None:
        solver_for(engine)  # checked whichever answers: a wrong argument is a mistake either way
    if use_reference:  # the engine checks what it is given itself (EngineSolver's boundary checks)
        Deadline(time_limit, stop, reference_solver=True)
        check_question(position.state, goal)
        return reference.solve(position.state, goal, cards=cards, line=line)
    return solver_for(engine).solve(position.state, goal, cards=cards, line=line, time_limit=time_limit, stop=stop)


def _solve_score(position: Position, seat: SupportsIndex | None, cards: bool, line: bool, engine: object,
                 reference_solver: bool | None, time_limit: float | None,
                 stop: threading.Event | None) -> SolveResult:
    from .score_objective import score_takes_no_seat, settlement_engine_for, solve_score  # loaded on first use

    if seat is not None:
        raise score_takes_no_seat(position)
    if engine is not None and not isinstance(engine, (EngineSolver, SettlementEngine)):
        solver_for(engine)  # the points engine's message for a wrong argument
    known = engine if isinstance(engine, (EngineSolver, SettlementEngine)) else None
    settlement_engine = settlement_engine_for(known) if not uses_reference(reference_solver) else None
    return solve_score(position, cards=cards, line=line, engine=settlement_engine, reference_solver=reference_solver,
                       time_limit=time_limit, stop=stop)


def perft(position: Position, depth: int, *, reference_solver: bool | None = None) -> int:
    """The number of legal play sequences of ``depth`` cards from the position (engine move generator, or the
    rule methods with ``reference_solver=True``)."""
    check_position(position)
    use_reference = uses_reference(reference_solver)
    if use_reference:
        check_state(position.state)
        check_number("the perft depth", depth, 0, MAX_PERFT_DEPTH)
        return reference.perft(position.state, depth)
    return default_solver().perft(position.state, depth)


__all__ = ["iter_positions", "make_position", "parse_positions", "perft", "read_positions", "solve"]
