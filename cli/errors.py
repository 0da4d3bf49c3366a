"""Exit codes and the one place where library errors become messages on stderr.

0 ok, 1 bad input (``file:line:col: message``, never a traceback), 2 usage (Typer's own), 130 stopped by Ctrl-C or
SIGTERM (:func:`say_interrupted` says what was finished), 141 the reader of stdout closed it (``stich deal ... |
head``): quietly, as a command killed by SIGPIPE would.
"""

from __future__ import annotations

import errno
import io
import os
import signal
import sys
import threading
import unicodedata
import warnings
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, TextIO

import typer

from solver.interrupts import restore_signals, stop_signals_taken
from solver.errors import (MAX_MESSAGE_KINDS, MAX_RECORD_MESSAGES, ForeignObjective, InvalidContractError,
                          InvalidSeatError, MessageSieve, OtherCountResumed, StichError, StichWarning, shown_name,
                          visible, visible_lines)

from .startup import EXIT_INTERRUPTED  # noqa: F401 - the commands' exit codes are all here; set early in startup
from .startup import mark_stop_said

if TYPE_CHECKING:
    from solver.formats.tbn import Record
    from solver.position import Position

EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_USAGE = 2
EXIT_PIPE_CLOSED = 141  # 128 + SIGPIPE
#: Errors only a write raises (a full disk, a file grown beyond its limit, a quota): on an unnamed stream, stdout.
_WRITE_ERRORS = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT}

#: What stands for a sign stich prints where the output's encoding lacks it (ASCII, Latin-1 or an old locale's):
#: ``?`` would make a ✓ and a ✗ alike and write ``+2.25 ? 3.98`` for ``+2.25 ± 3.98``. A letter not listed is its
#: base letter (:func:`ascii_fallback`: ü u, as players type the Sküs, ä a, é e), a box-drawing line ``-``, ``|``
#: or ``+``.
ASCII_FALLBACKS = {"±": "+/-", "✓": "yes", "✗": "no", "ß": "ss", "×": "x", "→": "->", "←": "<-", "↑": "^",
                   "↓": "v", "…": "...", "–": "-", "—": "--", "·": ".", "•": "*", "µ": "u", "°": " deg",
                   "‘": "'", "’": "'", "“": '"', "”": '"', "«": "<<", "»": ">>", "\u00a0": " "}


def ascii_fallback(char: str) -> str:
    """One character stdout cannot encode, written in ASCII so that it stays readable: the one mechanism behind
    every command's text (:func:`cli.render.for_stdout` before a table is laid out, the streams' error handler for
    the rest); ``?`` only for a character with no reading (a CJK letter)."""
    if char in ASCII_FALLBACKS:
        return ASCII_FALLBACKS[char]
    if "\u2500" <= char <= "\u257f":  # box drawing, by the directions its name gives
        name = unicodedata.name(char, "")
        words = set(name.split())
        if "DIAGONAL" in words:
            return "X" if "CROSS" in words else "/" if "UPPER RIGHT" in name else "\\"
        across = bool(words & {"LEFT", "RIGHT", "HORIZONTAL"})
        down = bool(words & {"UP", "DOWN", "VERTICAL"})
        return "+" if across == down else "-" if across else "|"  # a corner, a T or a cross: +
    letters = "".join(part for part in unicodedata.normalize("NFKD", char) if part.isascii())
    return letters or "?"


class OptionRefused(StichError):
    """A command option's value that one record cannot take (``--seat 5`` at a 3-seat table, card advice for a seat
    not to move, a ``--play`` card its position refuses): said as the option's error, with the record it was refused
    for, not pointed at a tag of the record, which is not wrong. The record is skipped as a bad one is (exit code 1),
    the others still answered. ``once``: what the option's error is said as once for every record of a game refusing
    it alike (an ``--objective`` of another game), where ``reason`` names the record's contract; None where records
    are said one by one."""

    def __init__(self, option: str, reason: str, once: str | None = None) -> None:
        super().__init__(reason)
        self.option = option
        self.once = once

    def said(self, position: Position) -> str:
        """``--seat: <reason> (the record at FILE:LINE, board N, not answered)``, as a refused ``--variant`` is said."""
        return refused_for_record(self.option, str(self), position.record, position.label)


@contextmanager
def objective_refused(given: bool) -> Iterator[None]:
    """An :class:`~solver.errors.InvalidContractError` raised within, where the command was given ``--objective``
    (``given``), is that flag's :class:`OptionRefused` for the record (``-o tout`` on a Kratzen record), not pointed at
    its ``[Contract]`` tag, which is not wrong; without ``--objective`` the default objectives fit every record, so the
    error is the record's own and is raised as it is. A seat's error (an :class:`~solver.errors.InvalidSeatError`,
    which an objective's seat raises as an InvalidContractError too) is raised as it is: it is ``tree --seat``'s. One
    rule for ``solve``, ``postmortem`` and ``tree``; records refused with the same words (each record of a game an
    objective of another game) are said once (``OptionRefused.once``, :class:`cli.records.OptionRefusals`)."""
    try:
        yield
    except InvalidContractError as error:
        if not given or isinstance(error, InvalidSeatError):
            raise
        once = error.bare if isinstance(error, ForeignObjective) else str(error)
        raise OptionRefused("--objective", str(error), once) from None


def refused_for_record(option: str, reason: str, record: Record | None, label: str = "",
                       outcome: str = "not answered") -> str:
    """What an option a record refused is said as, for that one record: ``--seat: <reason> (the record at
    FILE:LINE, board N, not answered)`` (``label``: where a position with no record came from; ``outcome``: what
    became of it). One phrasing for :class:`OptionRefused` and for a ``--variant`` flag or ``--play`` card of another
    game, in its ``failed`` JSON line and on stderr, whose line names the option, not the record's ``[Game]`` tag,
    which is not wrong."""
    where = f"{shown_name(record.source)}:{record.line}" if record is not None else label
    board = visible(record.get("Board") or "") if record is not None else None
    return f"{option}: {reason} (the record at {where}{f', board {board},' if board else ''} {outcome})"


def file_name(value: str) -> Path:
    """The parser of every file argument and option: ``Path("")`` is the current directory, so an empty name (an unset
    shell variable) would be read as ``.`` and reported as "Is a directory"; it is a usage error instead, and so is a
    name ending in "/" (``Path`` drops the slash: ``-o out.tbn/`` would write ``out.tbn``). The ``Path`` is what
    normalises a command's file names (``./deals.tbn`` is ``deals.tbn``, ``a//b.tbn`` ``a/b.tbn``, a ``..`` kept), in
    its messages and JSON alike."""
    if not value.strip():
        raise typer.BadParameter("an empty file name (an unset shell variable?)")
    if value.endswith(("/", os.sep)) and value.strip("/" + os.sep):  # Path() drops the slash and would write "x"
        raise typer.BadParameter(f"{shown_name(value)} ends in '/', which names a directory, not a file")
    return Path(value)


def message(text: str, *, lines: bool = False) -> None:
    """A message for people: stderr, so that stdout carries only data; a file name or text it names shows its
    control characters as escapes (:func:`solver.errors.visible`), a newline too, so that a message is one line that
    ``grep`` finds whole; ``lines``: a message of several lines (a bot's traceback), its own line breaks kept."""
    print(visible_lines(text) if lines else visible(text), file=sys.stderr)


class RecordMessages:
    """The messages of a file's records that were not answered in full (bad, refused, stopped by --time-limit), said
    on stderr by :class:`solver.errors.MessageSieve`'s rule, the board's too: the first ``limit`` as they come; past
    them the first of each kind (:func:`solver.errors.message_kind`, or the caller's ``kind``) not met before, up to
    ``kinds`` kinds, so a different error after a systematic one is still said; the rest only counted, and
    :meth:`close` says in one line how many more there were and where all of them are, if anywhere (``batch``'s
    output file).
    ``--json`` lines are not affected: every record's document is still written. ``every`` (``--all-messages``):
    every message is said, none only counted."""

    def __init__(self, source: str | os.PathLike, limit: int = MAX_RECORD_MESSAGES, kinds: int = MAX_MESSAGE_KINDS,
                 every: bool = False) -> None:
        self.source = source
        self.sieve = MessageSieve(source, limit, kinds, every)

    def __call__(self, text: str, kind: str | None = None) -> None:
        """Say one record's message (``stich: ...``), or count it past the limit unless it is of a new kind.
        ``kind``: what makes two messages the same (:func:`solver.errors.message_kind` of it is taken), where the
        text says more than its kind (a ParseError's message without its token); by default the text's own kind."""
        if self.sieve.keep(text, kind):
            message(text)

    def close(self, rest: str = "the other records were answered") -> None:
        """The closing line, where messages were left unsaid: ``stich: FILE: and N more records not answered in full,
        not said one by one (the first 20 are above); <rest>``, which adds ``, and M after them, each the first of
        its kind`` inside the brackets where such were said. Said once."""
        more = self.sieve.more
        if more:
            records = "record" if more == 1 else "records"
            message(f"stich: {shown_name(self.source)}: and {more:,} more {records} not answered in full, not said "
                    f"one by one ({self.sieve.above()}); {rest}")
            self.sieve.more = 0


def say_interrupted(command: str, what: str) -> None:
    """The one line on stderr of a command stopped by Ctrl-C, SIGTERM or SIGHUP, in every command's words: ``stich:
    solve: stopped by the interrupt <what>``, where ``what`` says what is finished (and how to resume, where the command
    can); the exit (130) alone says nothing of what the output above holds. A stderr that cannot be written (a closed
    terminal) loses the line, not the exit code 130."""
    global _output_cut
    mark_stop_said()
    # a row cut mid-line: the line after it (not after a line break, where it would leave a blank line)
    fresh = _output_cut and _stdout_mid_line() and _stdout_shares_stderr()
    _output_cut = False  # said: the next command run in this process starts afresh
    _stdout_written_again()
    # a closed terminal (SIGHUP) takes stderr with it (EIO): the line is lost, the exit code still says the stop
    with suppress(OSError, ValueError):
        if fresh:
            print(file=sys.stderr)
        message(f"stich: {command}: stopped by the interrupt {what}")


#: Whether a second interrupt cut a piece of output short (:func:`interrupts_held`): stdout may end mid-line.
_output_cut = False


def _stdout_file() -> Any:
    """stdout's file under its buffer, if any (cli.main's ``_WholeWrites``), or what stands for it (a test's)."""
    binary = getattr(sys.stdout, "buffer", None)
    return getattr(binary, "raw", binary)


def _stdout_mid_line() -> bool:
    """Whether the last byte written to stdout was no line break, as its file knows (cli.main's ``_WholeWrites``); a
    stream that does not know (a test's) may have stopped mid-line."""
    mid_line = getattr(_stdout_file(), "mid_line", None)
    return True if mid_line is None else bool(mid_line)


def stdout_buffered() -> bool:
    """Whether stdout has a buffer: what it holds is dropped where a second interrupt cuts a write (cli.main's
    ``_WholeWrites``), so the pieces given to it before the cut did not all arrive."""
    return isinstance(getattr(sys.stdout, "buffer", None), io.BufferedWriter)


def _stdout_written_again() -> None:
    """stdout, which an interrupt during a write left dropping what it is given (cli.main's ``_WholeWrites``), emptied
    of what its buffer held of the stopped command's output and made to write again, so that a next command run in this
    process does not lose its whole output, silently."""
    file = _stdout_file()
    if getattr(file, "dropping", False) is True:
        with suppress(OSError, ValueError):
            sys.stdout.flush()  # into nothing, as the file drops it
        file.dropping = False


def _stdout_shares_stderr() -> bool:
    """Whether stdout and stderr are one terminal or file (a terminal, ``2>&1``), where a message follows the data
    on the same line unless it starts a new one."""
    try:
        return os.path.samestat(os.fstat(sys.stdout.fileno()), os.fstat(sys.stderr.fileno()))
    except (OSError, ValueError, AttributeError):  # a stream with no file (a test's)
        return False


class OutputCut(KeyboardInterrupt):
    """A second Ctrl-C or SIGTERM inside :func:`interrupts_held`: the output being written (a write blocked on a full
    pipe, whose reader does not read) is cut short where it stood."""


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP held off for a few statements, then let through: a piece of output and what counts it
    (a record printed and the count the interrupt's line gives; a match's deal and the flag its closing reads) are
    done together or not at all, so that the interrupt's line counts what was printed. A second one is not held: a
    write blocked on a full
    pipe would hold every interrupt until its reader read, so it stops the write (:class:`OutputCut`). Off the main
    thread (no handlers there) nothing is held."""
    global _output_cut
    signals = stop_signals_taken()  # a SIGHUP ignored from outside (nohup) left so: held, it would count as a first
    # a handler set outside Python (None) could not be put back
    if threading.current_thread() is not threading.main_thread() or None in map(signal.getsignal, signals):
        yield
        return
    held: list[tuple[int, Any]] = []

    def hold(number: int, frame: Any) -> None:
        if held and previous[signal.Signals(number)] != signal.SIG_IGN:
            raise OutputCut()
        held.append((number, frame))

    previous = {signum: signal.signal(signum, hold) for signum in signals}
    cut = False
    try:
        yield
    except OutputCut:
        cut = _output_cut = True
        raise
    finally:
        restore_signals(previous)
        if held:  # the first signal, to its own handler (an ignored one stays ignored), which starts the stop
            number, frame = held[0]
            handler = previous[signal.Signals(number)]
            try:
                if callable(handler):
                    handler(number, frame)
                elif handler == signal.SIG_DFL:
                    signal.raise_signal(number)
            except KeyboardInterrupt:
                if cut:  # still said as the cut it was
                    raise OutputCut() from None
                raise


@contextmanager
def warnings_said(command: str) -> Iterator[None]:
    """The library's :class:`~solver.errors.StichWarning` said as a message (``stich: analyse: ...``), each as it
    is given, where Python would print the library's file and line beside it; an
    :class:`~solver.errors.OtherCountResumed` only the first time (analysing a FILE, each record may resume some)."""
    said_once: set[type[Warning]] = set()
    with warnings.catch_warnings():
        warnings.simplefilter("always", StichWarning)
        shown = warnings.showwarning

        say_it = message  # showwarning's first parameter is named message too

        def say(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                file: TextIO | None = None, line: str | None = None) -> None:
            if issubclass(category, OtherCountResumed):
                if category in said_once:
                    return
                said_once.add(category)
            if issubclass(category, StichWarning):
                say_it(f"stich: {command}: {message}")
            else:
                shown(message, category, filename, lineno, file, line)

        warnings.showwarning = say
        yield


def os_error_said(error: OSError) -> str:
    """An OSError in one line, its file first (``<stdout>`` for a write error that names none), without "stich: ":
    said alike where it ends the command (:func:`input_errors`) and where it ends a file's records at one record
    (a checkpoint's write error, cli/records.py)."""
    name = getattr(error, "filename", None) or ""
    if not name and error.errno in _WRITE_ERRORS:  # only writing fails so; files name themselves
        name = "<stdout>"
    said = error.strerror or str(error)
    if error.errno == errno.EISDIR and said == os.strerror(errno.EISDIR):  # a file read (a written one says more)
        said = "it is a folder, where a file was expected"
    elif error.errno == errno.ENXIO and name:  # open() of a socket says "No such device or address"
        from solver.files import read_once_kind

        if read_once_kind(name) == "a socket":
            said = "a socket, not a file: stich reads and writes files, pipes and devices"
    return f"{shown_name(name)}: {said}" if name else said


def came_while_stopping(error: BaseException) -> bool:
    """Whether ``error`` was raised as a command stopped by Ctrl-C, SIGTERM or SIGHUP said what it finished (a
    KeyboardInterrupt among the exceptions being handled when it came): a write to a terminal that closed (SIGHUP,
    EIO), which must not turn the stop's exit code 130 into 1."""
    seen: set[int] = set()
    context = error.__context__
    while context is not None and id(context) not in seen:
        if isinstance(context, KeyboardInterrupt):
            return True
        seen.add(id(context))
        context = context.__context__
    return False


@contextmanager
def input_errors() -> Iterator[None]:
    """Turn bad input into a one-line message and exit code 1; OSError (missing file, ...) likewise, but 130 for one
    that came as the command stopped (:func:`came_while_stopping`), whose message is lost where stderr is gone too."""
    try:
        yield
    except StichError as error:
        message(f"stich: {error}")
        raise typer.Exit(EXIT_BAD_INPUT) from None
    except BrokenPipeError:
        # not bad input: the reader has what it wanted; what is still buffered must not fail again at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise typer.Exit(EXIT_PIPE_CLOSED) from None
    except OSError as error:
        if came_while_stopping(error):
            with suppress(OSError, ValueError):
                message(f"stich: {os_error_said(error)}")
            raise typer.Exit(EXIT_INTERRUPTED) from None
        message(f"stich: {os_error_said(error)}")
        raise typer.Exit(EXIT_BAD_INPUT) from None
