"""Output helpers shared by the commands: atomic files (solver/files.py), stdout for data."""

from __future__ import annotations

import os
import stat
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, TextIO

from solver.files import atomic_file, atomic_path


#: The names of standard output that ``--out`` takes as it: ``-``, as it is standard input for the commands that
#: read, and the system's names of the file stdout is.
STDOUT_NAMES = frozenset({"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"})


def is_stdout(path: Path | None) -> bool:
    """Whether ``--out``'s ``path`` is standard output: one of :data:`STDOUT_NAMES` (even where stdout is closed,
    said then as for ``-``), or the regular file or named pipe stdout is redirected to (:func:`redirected_here`).
    Such a path is written as stdout is, as the output comes: a temporary file renamed over it would make a reader
    wait for the last record, and would replace a file that stdout appends to (``>> deals.tbn``) instead of adding
    to it."""
    return path is not None and (str(path) in STDOUT_NAMES or redirected_here(path))


def redirected_here(path: Path) -> bool:
    """Whether stdout is redirected to ``path``, a regular file or a named pipe (``--out run.json > run.json``), whose
    one content two writers would split. A character device is never stdout by what it is: ``/dev/null`` or a
    terminal keeps nothing, so ``--out /dev/null > /dev/null`` is two outputs, each dropped."""
    try:
        named, standard = os.stat(path), os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no such file, or stdout no file (closed, or a test's capture)
        return False
    return (stat.S_ISREG(standard.st_mode) or stat.S_ISFIFO(standard.st_mode)) and os.path.samestat(named, standard)


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


__all__ = ["STDOUT_NAMES", "atomic_path", "atomic_writer", "is_stdout", "redirected_here"]
