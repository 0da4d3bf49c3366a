"""Output helpers shared by the commands: atomic files (solver/files.py), stdout for data."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, TextIO

from solver.files import atomic_file, atomic_path


def is_stdout(path: Path | None) -> bool:
    """Whether ``--out``'s ``path`` is standard output: ``-``, as it is standard input for the commands that read, or
    a name of the file stdout is (``/dev/stdout``, ``/dev/fd/1``). Written through a temporary file, such a name made
    the output wait for the last record, and reopening it truncated a file stdout appends to (``>> deals.tbn``)."""
    if path is None:
        return False
    if str(path) == "-":
        return True
    try:
        named, standard = os.stat(path), os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no such file, or stdout no file (closed, or a test's capture)
        return False
    return os.path.samestat(named, standard)


@contextmanager
def atomic_writer(path: Path | None) -> Iterator[TextIO]:
    """Write to ``path`` through a temporary file renamed into place only when all is written (stdout if None), so a
    half-written file is never mistaken for a whole one. A ``path`` that is stdout (:func:`is_stdout`) is written
    as stdout is, as the output comes."""
    if path is None or is_stdout(path):
        yield sys.stdout
        sys.stdout.flush()
        return
    with atomic_file(path) as stream:
        yield stream  # type: ignore[misc]


__all__ = ["atomic_path", "atomic_writer", "is_stdout"]
