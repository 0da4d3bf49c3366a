"""Files that appear whole or not at all.

Every file stich writes in one go (deal files, trees, plots, a batch output rewritten without its error lines) is
written to a temporary file next to it and renamed over it when complete: ``os.replace`` is atomic on one file
system, so an interruption leaves the old file or the new one, never half of the new one that reads as a shorter
whole. The temporary file's name is an implementation detail: an error in creating it names the file asked for.
What is renamed over is the file itself: a symbolic link is followed (the link stays, its target gets the new
content), an existing file keeps its permissions, and a path that is no regular file (``/dev/stdout``, a named pipe,
a device) is written through, since renaming over it would replace the device or pipe with a file.

A process killed while writing (``kill -9`` skips every clean-up) leaves its temporary file behind. So a writer holds
an ``flock`` on its temporary file until it is renamed or removed, and the next write of the same file removes the
temporaries of that file that nobody holds and that have not changed for ``STALE_TEMPORARY_SECONDS``
(:func:`remove_stale_temporaries`): the lock says no live writer of this stich is at work on them, the age covers a
writer that holds no lock (an earlier stich, a system without ``fcntl``).

Files appended to over a long run (a batch output, an analysis checkpoint) are guarded instead by a lock beside
them (:func:`lock_beside`), so that two runs never write one file.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import stat
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Iterator

from .errors import HIDDEN_BEYOND_C0, FileError, FileRefusedError, shown_name

#: How long a temporary file must have been left unchanged, besides being held by no writer, before the next write
#: of its file removes it (:func:`remove_stale_temporaries`).
STALE_TEMPORARY_SECONDS = 600.0

#: What :func:`json_text` writes as a ``\\u`` escape besides what ``json.dumps`` escapes itself (the C0 controls):
#: DEL, the C1 controls and the bidi controls of :data:`solver.errors.HIDDEN`. Not a newline or a tab: ``indent``
#: puts them between members, where an escape is no JSON.
JSON_HIDDEN = re.compile(f"[{HIDDEN_BEYOND_C0}]")


def json_text(value: Any, **options: Any) -> str:
    """``json.dumps`` with non-ASCII characters as they are, for a UTF-8 file or stream. A lone surrogate (a file
    name that is not UTF-8, as ``os.fsdecode`` gives it) has no UTF-8 form: the text is then all ``\\u`` escapes,
    which read back to the same name, instead of failing the write or emitting bytes that are not UTF-8. A C1 control
    or a bidi control or DEL (:data:`JSON_HIDDEN`: ``json.dumps`` escapes only C0's) is a ``\\u`` escape too, so
    that JSON printed to a terminal cannot drive it either; it reads back the same."""
    text = JSON_HIDDEN.sub(lambda match: f"\\u{ord(match.group()):04x}",  # only inside strings: reads the same
                           json.dumps(value, ensure_ascii=False, **options))
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return json.dumps(value, ensure_ascii=True, **options)
    return text


def json_kind(value: object) -> str:
    """JSON's name of what a value read from JSON is (``array``, not Python's ``list``; ``string``, not ``str``):
    a message about a file's line speaks of what the file holds, in the words of its format."""
    kinds = ((bool, "boolean"), ((int, float), "number"), (str, "string"), (list, "array"), (dict, "object"))
    return next((name for kind, name in kinds if isinstance(value, kind)), "null")


def json_line_fault(raw: bytes, text_member: str | None = None) -> tuple[int, str]:
    """Where and why a line of a JSON Lines file stich wrote (a checkpoint, a batch output) does not read as one
    JSON object (with the member ``text_member`` a string, if given): its column (in characters, 1-based) and what
    is there, for a message ``FILE:LINE:COLUMN: ...``; a line that is such an object gives ``(1, "")``."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        column = len(raw[:error.start].decode("utf-8", "replace")) + 1
        return column, f"invalid UTF-8, byte {raw[error.start]:02x}"
    text = text.rstrip("\r\n")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        found, said = text[error.pos:error.pos + 20], error.msg.lower()  # "expecting value", "extra data", ...
        if not found:
            return error.pos + 1, f"{said}: the line ends"
        return error.pos + 1, f"{said} {found!r}" if said.endswith(" at") else f"{said}, found {found!r}"
    if not isinstance(document, dict):
        return 1, f"a JSON {json_kind(document)}, not an object"
    if text_member is not None and text_member not in document:
        return 1, f'no "{text_member}"'
    if text_member is not None and not isinstance(document[text_member], str):
        return 1, f'its "{text_member}" is a JSON {json_kind(document[text_member])}, not a string'
    return 1, ""


def _file_mode() -> int:
    """The mode a plain ``open(path, "w")`` would give (mkstemp's files are private to their owner)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def folder_not_file(shown: str | os.PathLike) -> str:
    """What follows the name of an output path that is a folder: that the name was to be a file's, and how to write
    into the folder (``NAME`` with the suffix asked for), which the OS's bare "Is a directory" does not say."""
    name = os.fsdecode(shown)
    inside = shown_name(os.path.join(name, "NAME" + Path(name).suffix))
    return ("cannot be written: it is a folder, where a file name was expected (to write into the folder, name the "
            f"file in it: {inside})")


def _temporary(path: Path, suffix: str, shown: str | os.PathLike) -> tuple[int, str]:
    """A new temporary file in ``path``'s directory; OSError naming ``shown`` (the path asked for, not the temporary)
    if it cannot be."""
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, folder_not_file(shown), str(shown))
    directory = path.parent if str(path.parent) else Path(".")
    try:
        return tempfile.mkstemp(prefix=f".{path.stem if suffix else path.name}.", suffix=suffix, dir=directory)
    except FileNotFoundError as error:
        raise FileNotFoundError(error.errno, _unwritable_folder_said(directory, shown, error), str(shown)) from None
    except NotADirectoryError as error:  # a part of the path is a file: say which, not the bare "Not a directory"
        in_the_way = shown_name(_file_in_path(_folder_shown(directory, shown)))
        raise NotADirectoryError(error.errno, f"cannot be written: {in_the_way} is a file, where a folder was expected "
                                 "(choose another path)", str(shown)) from None
    except OSError as error:
        raise type(error)(error.errno, error.strerror, str(shown)) from None


def _unwritable_folder_said(directory: Path, shown: str | os.PathLike, error: OSError) -> str:
    """What follows the name of an output path (``shown``, as given) whose file could not be made in ``directory``
    (``error``, a FileNotFoundError): that the folder does not exist, or that it exists but takes no new file (/proc),
    which the OS's bare "No such file or directory" does not tell apart. One message for an output and its lock."""
    folder = _folder_shown(directory, shown)
    if directory.exists():
        return f"cannot be written: the folder {shown_name(folder)} takes no new file ({error.strerror})"
    return f"cannot be written: the folder {shown_name(folder)} does not exist (make it, or choose another file)"


def _folder_shown(directory: Path, shown: str | os.PathLike) -> Path:
    """``directory``, the real folder of a path, as the path was given (``nodir``, not ``/home/me/nodir``) when that
    names the same folder; the real one when a link leads elsewhere."""
    given = Path(os.fspath(shown)).parent
    return given if os.path.realpath(given) == os.path.realpath(directory) else directory


def _file_in_path(directory: Path) -> Path:
    """The first part of ``directory`` that exists and is no folder (the one that made the path "Not a directory"),
    or ``directory`` itself if none is found."""
    for part in reversed((directory, *directory.parents)):
        if part.exists() and not part.is_dir():
            return part
    return directory


def _existing_mode(path: str | os.PathLike) -> int | None:
    """The file type and permissions of what ``path`` names (links followed), or None if nothing is there."""
    try:
        return os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None


@contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """A temporary path next to ``path`` (same suffix, so writers that choose the format by it still do) for a writer
    that wants a file name rather than a stream; renamed to ``path`` only when the block ends without an error, and
    removed otherwise (see the module docstring for links, permissions and paths that are no regular file)."""
    with _named(path):
        mode = _existing_mode(path)
        if mode is not None and stream_kind(mode) is not None:
            with _written_through(Path(path)) as through:
                yield through
            return
        target = Path(os.path.realpath(path))  # a link's target is replaced, not the link
        remove_stale_temporaries(path, STALE_TEMPORARY_SECONDS)  # left by a writer of this file that was killed
        handle, temporary = _temporary(target, Path(path).suffix, path)
        _hold(handle)  # until renamed or removed: the next writer's clean-up leaves it alone
        try:
            yield Path(temporary)
            os.chmod(temporary, stat.S_IMODE(mode) if mode is not None else _file_mode())
            os.replace(temporary, target)
        except BaseException:
            if os.path.exists(temporary):
                os.unlink(temporary)
            raise
        finally:
            os.close(handle)


def _hold(handle: int) -> None:
    """An flock on a temporary file while it is written: it belongs to the open file (not, as a POSIX record lock
    does, to the process, which the writer's own opening and closing of the file by name would release), and ends
    with the process however it ends."""
    try:
        import fcntl
    except ImportError:  # not a POSIX system: the age alone tells a stale temporary file
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        pass  # a file system without flock: the age alone tells


def _held(path: str) -> bool:
    """Whether a writer holds ``path``'s flock (:func:`_hold`), asked without waiting; a file that cannot be asked
    counts as held."""
    try:
        import fcntl
    except ImportError:
        return False
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return True
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(handle)  # releases the probe's lock with its only descriptor
    return False


#: The names of standard output that an output option (``--out``) takes as it: ``-``, as it is standard input for
#: the commands that read, and the system's names of the file stdout is. Written as a stream, as the output comes.
STDOUT_NAMES = frozenset({"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"})


def names_stdout(path: str | os.PathLike | None) -> bool:
    """Whether ``path``, as given, is one of :data:`STDOUT_NAMES`: the one test of every output option, so that each
    takes the same names as stdout (a file stdout is redirected to is another question: cli/output.py)."""
    return path is not None and os.fspath(path) in STDOUT_NAMES


def stream_kind(mode: int) -> str | None:
    """What a file of status ``mode`` (``st_mode`` of a stat or an fstat) is if it is no regular file and no folder:
    ``a pipe``, ``a socket`` or ``a device``; None for a regular file or a folder. The one rule for what is read or
    written as a stream, not a file: it can be read only once, may wait on a writer, and renaming over it would
    replace it with a file."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return "a pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"


def not_file_kind(mode: int) -> str | None:
    """What a file of status ``mode`` is if it is no regular file: ``a folder``, or :func:`stream_kind`'s pipe, socket
    or device; None for a regular file. The one phrasing of what stands at a name that must be a regular file (the
    board's files, said at its start and at each page load)."""
    return "a folder" if stat.S_ISDIR(mode) else stream_kind(mode)


def read_once_kind(path: str | os.PathLike) -> str | None:
    """What ``path`` names if it can be read only once, as it is written (:func:`stream_kind`: a named pipe,
    /dev/stdin on a pipe, a socket, a terminal, /dev/null); None for a regular file, a folder or nothing there
    (their own messages say those). Asked of its status, without opening it: opening a named pipe waits for a
    writer, so a file that must be read twice (a batch's input, a checkpoint) is refused before it."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):  # nothing there, no permission, a NUL in the name: the opening says it
        return None
    return stream_kind(mode)


def is_stream_output(path: str | os.PathLike) -> bool:
    """Whether an output ``path`` is a stream, not a file: one of stdout's names (:func:`names_stdout`), or a pipe,
    socket or device (:func:`read_once_kind`: /dev/tty, /dev/null). A stream is written as the output comes and
    holds nothing to read back, resume or rewrite. The one test of it, asked once a run."""
    return names_stdout(path) or read_once_kind(path) is not None


def check_writable(path: str | os.PathLike) -> None:
    """OSError naming ``path`` if :func:`atomic_path` could not write it (no such directory, no permission, a
    directory by that name), found by making and removing the temporary file it would write: a command that
    computes for minutes before writing (a benchmark, a game tree) asks first, rather than lose the work."""
    mode = _existing_mode(path)
    if mode is not None and stream_kind(mode) is not None:
        return  # written through (a pipe, a device)
    handle, temporary = _temporary(Path(os.path.realpath(path)), Path(path).suffix, path)
    os.close(handle)
    os.unlink(temporary)


@contextmanager
def _named(path: str | os.PathLike) -> Iterator[None]:
    """An OSError that names no file (a write to a full disk) raised as one naming ``path``: the message must say which
    file could not be written, not leave the reader to guess (or name stdout)."""
    try:
        yield
    except OSError as error:
        if error.filename is not None or error.errno is None:
            raise
        raise type(error)(error.errno, error.strerror, str(path)) from None


@contextmanager
def _written_through(path: Path) -> Iterator[Path]:
    """For a path that is no regular file: a private temporary file, copied into ``path`` when complete."""
    handle, temporary = tempfile.mkstemp(prefix=".stich.", suffix=path.suffix)
    os.close(handle)
    try:
        yield Path(temporary)
        with open(temporary, "rb") as source, open(path, "wb") as sink:
            shutil.copyfileobj(source, sink)
    finally:
        os.unlink(temporary)


@contextmanager
def atomic_file(path: str | os.PathLike, *, binary: bool = False) -> Iterator[IO]:
    """A stream whose content becomes ``path`` when the block ends without an error (UTF-8 text with LF line breaks,
    or bytes); on an error the temporary file is removed and ``path`` is left as it was."""
    with atomic_path(path) as temporary:
        if binary:
            with open(temporary, "wb") as stream:
                yield stream
        else:
            with open(temporary, "w", encoding="utf-8", newline="\n") as stream:
                yield stream


class HeldLock:
    """A lock taken by :func:`lock_beside`, held until :meth:`close`. Taken again by the process that holds it (a
    run holding a checkpoint's lock for all its records, each record's journal taking it too), it is the same lock
    counted once more, released at the last :meth:`close`: a POSIX record lock is the process's, and closing any
    descriptor of its file would release it under the outer holder."""

    def __init__(self, handle: IO, path: Path | None) -> None:
        self.handle = handle
        self.path = path  # the lock file; None where nothing is locked (a pipe, a device)
        self.holders = 1

    def close(self, remove: bool = False) -> None:
        """Release the lock; ``remove`` removes its file first, while it is still held (for a run that leaves
        nothing for the lock to guard). That is safe against every locker that, as :func:`lock_beside` does, checks
        after locking that the file it locked is still the one by that name; a locker that did not check (an
        earlier stich) could lock the removed file while another locks its successor. Taken more than once by this
        process, only the last close releases it (and removes its file)."""
        if self.holders <= 0:
            return
        self.holders -= 1
        if self.holders:
            return
        if self.path is not None and _held_here.get(self.path) == (os.getpid(), self):
            del _held_here[self.path]
        if remove and self.path is not None:
            try:
                os.unlink(self.path)
            except OSError:
                pass
        self.handle.close()


class _HeldAgain(HeldLock):
    """A lock this process already held, taken once more: its :meth:`close` releases this taking only, once."""

    def __init__(self, owner: HeldLock) -> None:
        super().__init__(owner.handle, owner.path)
        self.owner = owner
        owner.holders += 1

    def close(self, remove: bool = False) -> None:
        if self.holders:
            self.holders = 0
            self.owner.close(remove)


#: How many times a lock is taken again when the lock file was removed under it (:meth:`HeldLock.close`).
_LOCK_ATTEMPTS = 5

#: The locks this process holds, by lock file, with the process that took them (a forked child holds none of its
#: parent's: a record lock is not inherited).
_held_here: dict[Path, tuple[int, HeldLock]] = {}


def lock_beside(path: str | os.PathLike, holder: str) -> HeldLock:
    """An exclusive lock, held until the returned lock is closed, on a hidden file beside ``path``
    (``.NAME.lock``), so that a second process that would append to the same file stops at once instead of
    interleaving its lines with the first one's or appending to a file the first one replaced. The lock file is left
    in place unless its holder removes it while holding it (:meth:`HeldLock.close`); a lock taken on a file that
    was removed meanwhile is taken again on the file now by that name, so that two processes never hold locks on
    different files. ``holder`` names the kind of process in the message (``stich batch``). A pipe or a device
    (``/dev/stdout``) is not locked. The lock is beside the file a symbolic link leads to, so that a run through a
    link and one by the file's own name share it (a second hard link to the file is another name, which the lock
    cannot see)."""
    if os.path.isdir(path):  # appended to, it would fail later with the bare "Is a directory"
        raise FileRefusedError(f"{shown_name(path)}: {folder_not_file(path)}")
    if os.path.exists(path) and not os.path.isfile(path):  # by its own name: /dev/stdout's real path is "pipe:[..]"
        return HeldLock(open(os.devnull), None)
    target = Path(os.path.realpath(path))
    lock_path = target.with_name(f".{target.name}.lock")
    pid, held = _held_here.get(lock_path, (None, None))
    if held is not None and pid == os.getpid() and held.holders:
        return _HeldAgain(held)  # this process's own lock, taken once more (see HeldLock)
    for _ in range(_LOCK_ATTEMPTS):
        try:
            handle = open(lock_path, "a")
        except FileNotFoundError as error:  # the lock is made before the output: its folder said as the output's
            raise FileRefusedError(f"{shown_name(path)}: "
                                   f"{_unwritable_folder_said(target.parent, path, error)}") from None
        except OSError as error:
            raise FileRefusedError(f"{shown_name(lock_path)}: cannot create the lock file of {shown_name(path)} "
                                   f"({error.strerror})") from None
        try:
            import fcntl
        except ImportError:  # not a POSIX system: no lock
            return HeldLock(handle, lock_path)
        try:
            # A POSIX record lock, not flock(): it belongs to this process alone, so forked workers (which would keep
            # an flock alive after their parent was killed, until they notice) do not hold it.
            fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise FileRefusedError(f"{shown_name(path)}: another {_holder_of(lock_path, holder)} is writing this "
                                   f"file (its lock {shown_name(lock_path)} is held); wait for it to finish, or "
                                   "choose another file") from None
        if _same_file(handle, lock_path):
            _name_holder(handle, holder)
            lock = HeldLock(handle, lock_path)
            _held_here[lock_path] = (os.getpid(), lock)
            return lock
        handle.close()  # its holder removed it before we locked it: lock the file now by that name
    raise FileError(f"{shown_name(path)}: its lock {shown_name(lock_path)} keeps being removed by another process; "
                    "try again")


@contextmanager
def locked_while_written(path: str | os.PathLike, holder: str) -> Iterator[HeldLock]:
    """:func:`lock_beside` held for the block: for a whole run over records, so that a second run cannot take it
    between two of them and append to the same file. A run that leaves nothing by the name ``path`` (not even a
    dangling link: ``lexists``) leaves no lock file either."""
    lock = lock_beside(path, holder)
    try:
        yield lock
    finally:
        lock.close(remove=not os.path.lexists(path))


def _name_holder(handle: IO, holder: str) -> None:
    """Write the holder's kind into the lock file it holds, so that a second run refused says who holds it: an
    ``analyse`` refused a ``match``'s checkpoint as held by "another stich analyse". Written on the descriptor, past
    the handle's buffer: a write that fails (a full disk) leaves nothing for :meth:`HeldLock.close` to flush, whose
    second failure, naming no file, would replace the error of the file the run was writing."""
    try:
        os.ftruncate(handle.fileno(), 0)
        os.write(handle.fileno(), f"{holder}\n".encode("utf-8"))
    except OSError:
        pass  # the name is only a hint: a refused run then names its own kind


def _holder_of(lock_path: Path, guess: str) -> str:
    """The kind of process a held lock file names (:func:`_name_holder`); ``guess`` (the refused run's own kind) for
    a file that names none (held by an earlier stich, not yet written, or a disk too full to write it). The name is a
    hint for the message only, never trusted for anything else: any process may write into the file."""
    try:
        with open(lock_path, "rb") as stream:
            named = stream.read(100).decode("utf-8", "replace")
    except OSError:
        return guess
    return named[:-1] if re.fullmatch(r"stich [a-z]+\n", named) else guess


def _same_file(handle: IO, path: Path) -> bool:
    """Whether ``handle`` is open on the file now named ``path``."""
    try:
        named = os.stat(path)
    except OSError:
        return False
    opened = os.fstat(handle.fileno())
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)


def remove_stale_temporaries(path: str | os.PathLike, min_age: float = 0.0) -> int:
    """Remove the temporary files :func:`atomic_path` left beside ``path`` when a process writing it was killed
    (``kill -9`` skips the clean-up): only names of the form it gives ``path``'s temporaries (``.NAME.xxxxxxxx.SUFFIX``,
    eight of mkstemp's letters), only regular files, only those no writer holds (:func:`_hold`) and unchanged for
    ``min_age`` seconds (a batch, which holds its output's lock and so knows no writer of its own is at work, asks
    for none). Returns how many were removed."""
    target = Path(os.path.realpath(path))
    suffix = Path(path).suffix
    stem = target.stem if suffix else target.name
    pattern = re.compile(rf"\.{re.escape(stem)}\.[a-z0-9_]{{8}}{re.escape(suffix)}")
    removed = 0
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return 0
    now = time.time()
    for entry in entries:
        if not (pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False)):
            continue
        try:
            if now - entry.stat(follow_symlinks=False).st_mtime < min_age or _held(entry.path):
                continue
            os.unlink(entry.path)
            removed += 1
        except OSError:
            pass
    return removed


__all__ = ["STALE_TEMPORARY_SECONDS", "STDOUT_NAMES", "HeldLock", "atomic_file", "atomic_path", "check_writable",
           "is_stream_output", "lock_beside", "locked_while_written", "names_stdout", "remove_stale_temporaries"]
