"""Output helpers shared by the commands: atomic files (solver/files.py), stdout for data."""

from __future__ import annotations

import os
import stat
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence, TextIO

import typer

from solver.errors import FileRefusedError, shown_name
from solver.files import atomic_file, atomic_path, check_writable, names_stdout, stream_kind


def is_stdout(path: Path | None) -> bool:
    """Whether ``--out``'s ``path`` is standard output: one of its names (:func:`names_stdout`, even where stdout is
    closed: said then as for ``-``), or the regular file or named pipe stdout is redirected to
    (:func:`redirected_here`).
    Such a path is written as stdout is, as the output comes: a temporary file renamed over it would make a reader
    wait for the last record, and would replace a file that stdout appends to (``>> deals.tbn``) instead of adding
    to it."""
    return path is not None and (names_stdout(path) or redirected_here(path))


def redirected_here(path: Path) -> bool:
    """Whether stdout is redirected to ``path``, a regular file or a named pipe (``--out run.json > run.json``), whose
    one content two writers would split. A character device is never stdout by what it is: ``/dev/null`` or a
    terminal keeps nothing, so ``--out /dev/null > /dev/null`` is two outputs, each dropped."""
    try:
        named, standard = os.stat(path), os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no such file, or stdout no file (closed, or a test's capture)
        return False
    return (stat.S_ISREG(standard.st_mode) or stat.S_ISFIFO(standard.st_mode)) and os.path.samestat(named, standard)


#: The one device written to as a file is: it keeps nothing, so ``--out /dev/null`` runs the command and drops its
#: output, as a shell's ``> /dev/null`` does.
DISCARD = os.devnull


def checked_output(path: Path, option: str = "--out", *, inputs: Sequence[Path | None] = (),
                   stdout_holds: str | None = None, appends: bool = False,
                   redirect_is_stdout: bool = True) -> bool:
    """Every command's check of an output path (``--out``, ``--plot``) before its work, so that the same path gets
    the same answer from every command and minutes of work are never lost to an output that cannot take them.
    Taken: a new or existing regular file (written whole or not at all), standard output's names
    (:func:`names_stdout`, or the file stdout is redirected to), a named pipe, a terminal and /dev/null (written as
    the output comes). Refused, with one message each: stdout where the command writes other data there
    (``stdout_holds`` says what: a usage error), a folder, a missing folder, any other device or a socket, one of the
    command's ``inputs`` (it would be overwritten, or with ``appends`` added to, as it is read), a read-only file.
    Returns whether ``path`` is stdout; without ``redirect_is_stdout`` only stdout's names are, and a file stdout is
    redirected to is checked as any file (a command whose file format is not its stdout's)."""
    if names_stdout(path) or redirect_is_stdout and redirected_here(path):
        if stdout_holds is not None:
            where, instead = (("writes to stdout", "a file") if names_stdout(path) else
                              ("is where stdout is redirected", "another file"))
            raise typer.BadParameter(f"{option} {shown_name(path)} {where}, where {stdout_holds}: give {option} "
                                     f"{instead}",
                                     param_hint=f"'{option}'")
        return True
    try:
        mode: int | None = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        mode = None
    kind = None if mode is None else stream_kind(mode)
    if kind == "a device" and os.path.realpath(path) != DISCARD and not _is_terminal(path, mode) or kind == "a socket":
        raise FileRefusedError(f"{shown_name(path)}: cannot be written: it is {kind}, not a file (standard output, "
                               "/dev/null, a terminal and a named pipe are written as the output comes; any other "
                               "name a file)")
    if kind is not None:  # a pipe, a terminal, /dev/null: written as the output comes
        return False
    if mode is None or stat.S_ISDIR(mode):
        check_writable(path)  # a folder, a missing folder, a folder that takes no new file: said as an OSError
        return False
    for source in inputs:
        if source is not None and str(source) != "-" and _same_file(path, source):
            named = "" if str(source) == str(path) else f" ({shown_name(source)})"
            fate = "to which the output would be appended" if appends else "which the output would replace"
            raise FileRefusedError(f"{shown_name(path)}: cannot be written: it is the input being read{named}, "
                                   f"{fate}; choose another file")
    if not stat.S_IMODE(mode) & 0o222 or not os.access(path, os.W_OK):
        raise FileRefusedError(f"{shown_name(path)}: cannot be written: it is read-only (give it write permission, "
                               "or choose another file)")
    check_writable(path)
    return False


def _is_terminal(path: Path, mode: int | None) -> bool:
    """Whether the character device ``path`` is a terminal (``/dev/tty``, a pty, ``/dev/stderr`` on one), which shows
    the output as it comes as stdout does. Asked of the device opened without waiting and without becoming the
    process's controlling terminal; a device that cannot be opened is no terminal (the writing says why)."""
    if mode is None or not stat.S_ISCHR(mode):
        return False
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        return os.isatty(descriptor)
    finally:
        os.close(descriptor)


def checked_folder(path: Path) -> None:
    """Whether files named as ``path`` is, beside it (``X-7.svg`` for ``X.svg``), can be written, checked before the
    work: for an output split into one file per record, where ``path`` itself is never written, so that it may be
    a folder, read-only or an input. An OSError names ``path``, as the user gave it."""
    probe = path.with_name(f"{path.stem}-1{path.suffix}")
    try:
        check_writable(probe)
    except OSError as error:
        raise type(error)(error.errno, error.strerror, str(path)) from None


def _same_file(path: Path, other: Path) -> bool:
    """Whether two names are one file (links followed); a name that cannot be looked at is no clash."""
    try:
        return os.path.samefile(path, other)
    except (OSError, ValueError):
        return False


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


__all__ = ["DISCARD", "atomic_path", "atomic_writer", "checked_folder", "checked_output", "is_stdout", "names_stdout",
           "redirected_here"]
