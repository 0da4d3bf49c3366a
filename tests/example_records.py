"""Helpers shared by the tests that use the shipped examples: a board by number, and the reference's answer."""

from __future__ import annotations

from pathlib import Path

import solver
from solver import Position

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def board(name: str, number: int, **variant: object) -> Position:
    """Board ``number`` of ``examples/name`` (with variant flags overriding the record's)."""
    (found,) = [p for p in solver.read_positions(EXAMPLES / name, variant=variant or None)
                if p.record is not None and p.record.get("Board") == str(number)]
    return found


def reference(position: Position, objective: str, *, seat: int | None = None, cards: bool = False):
    """The reference solver's answer, to check the engine-backed commands against."""
    return solver.solve(position, objective, seat=seat, cards=cards, reference_solver=True)
