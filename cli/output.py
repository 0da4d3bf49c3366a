"""Output helpers shared by the commands: atomic files (solver/files.py), stdout for data."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, TextIO

from solver.files import atomic_file, atomic_path


@contextmanager
def atomic_writer(path: Path | None) -> Iterator[TextIO]:
    """Write to ``path`` through a temporary file renamed into place only when all is written (stdout if None), so a
    half-written file is never mistaken for a whole one. ``-`` is stdout too, as it is standard input for the
    commands that read."""
    if path is None or str(path) == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    with atomic_file(path) as stream:
        yield stream  # type: ignore[misc]


__all__ = ["atomic_path", "atomic_writer"]
