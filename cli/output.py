"""Output helpers shared by the commands: atomic files, stdout for data."""

from __future__ import annotations

import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, TextIO


def _file_mode() -> int:
    """The mode a plain ``open(path, "w")`` would give (mkstemp's files are private to their owner)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextmanager
def atomic_writer(path: Path | None) -> Iterator[TextIO]:
    """Write to ``path`` through a temporary file renamed into place only when all is written (stdout if None), so a
    half-written file is never mistaken for a whole one."""
    if path is None:
        yield sys.stdout
        sys.stdout.flush()
        return
    directory = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            yield stream
        os.chmod(temporary, _file_mode())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary path next to ``path`` (same suffix, so writers that choose the format by it still do) for a
    writer that wants a file name rather than a stream; renamed to ``path`` only when the block ends without an
    error, and removed otherwise."""
    directory = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=path.suffix, dir=directory)
    os.close(handle)
    try:
        yield Path(temporary)
        os.chmod(temporary, _file_mode())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
