"""The checkpoint journal: work finished in numbered spans, appended as it is done, so that a rerun resumes it.

A journal file holds the work of one or more jobs (a FILE of records analysed with one ``--checkpoint``): for each
job a header line naming it (the fields of its identity, and a short ``key`` derived from them), then lines of
finished spans (the job's key, the span ``[first, size]`` and its sums, a JSON object), flushed as written and
interleaved as the jobs ran. Why this shape:

* Appending one flushed line per finished span loses at most the line being written when the process is killed at
  any moment (``kill -9`` included); that half-written last line is never read, and is trimmed before the next
  line is appended or as the run ends (kept by a run refused for want of room, or where it met the file size
  limit: a rerun under the same limit measures it, the only measure of a job's first line); a
  file that is empty or only the start of its first line holds no work, and is written afresh, said as such
  (:func:`unstarted_file`: the rule of a batch output too).
* Nothing is written until the first span is finished: a run refused (no room, :meth:`Journal.check_room`) or
  stopped before it leaves the file exactly as it was, its own header included, which goes out with its first span.
* A job's count of pieces (an analysis's samples) may change between runs (``varying``): each numbered piece is the
  same whatever the count (sample ``k`` is drawn from the seed and ``k`` alone), so the spans of a run of another
  count are this job's, those within ``end``.
* A header before its spans lets one pass find this job's section and skip the others', which stay as they are.
* A span already read is never counted twice, and a file that is not a journal (its first line no header of this
  version) is refused untouched: it may be someone else's.
* A resume holds the journal's place of each of its lines and the runs of numbers done (:class:`SpanSet`), not the
  sums: those are read again one line at a time as they are merged, so that a journal of millions of samples resumes
  in the memory of one line (a resumed 3,000,000-sample analysis held 1.5 GB when every line was kept).
* A lock beside the file (:func:`solver.files.lock_beside`) keeps a second run off it.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from array import array
from bisect import bisect_right
from io import FileIO
from pathlib import Path
from typing import Any, Callable, Hashable, Iterable, Iterator, Mapping, NamedTuple, Sequence

from .errors import FileError, FileRefusedError, JournalWriteError, shown_name
from .files import json_line_fault, lock_beside, read_once_kind
from .workers import warn_caller

#: The header's tag and the journal format it names.
HEADER = "stich-analysis"
VERSION = 3


class Span(NamedTuple):
    """Consecutive pieces of work numbered ``first`` to ``first + size - 1`` (samples of an analysis)."""

    first: int
    size: int

    def numbers(self) -> range:
        return range(self.first, self.first + self.size)


#: The largest number a span may reach (its end): a line beyond it is not one stich wrote.
MAX_SPAN_END = 1 << 62


class SpanSet:
    """Whole numbers held as sorted disjoint runs ``[first, end)``, adjacent runs merged: the samples a resumed run
    has done, in the memory of the runs (one for a run that was stopped once) rather than one entry per number."""

    def __init__(self, numbers: Iterable[int] = ()) -> None:  # distinct numbers
        self._firsts = array("q")
        self._ends = array("q")
        for number in sorted(numbers):
            self.add(Span(number, 1))

    def __len__(self) -> int:
        """The runs held (not the numbers)."""
        return len(self._firsts)

    def count(self) -> int:
        """The numbers held."""
        return sum(end - first for first, end in zip(self._firsts, self._ends))

    def __contains__(self, number: object) -> bool:
        if not isinstance(number, int):
            return False
        at = bisect_right(self._firsts, number) - 1
        return at >= 0 and number < self._ends[at]

    def overlaps(self, span: Span) -> bool:
        at = bisect_right(self._firsts, span.first) - 1
        if at >= 0 and self._ends[at] > span.first:
            return True
        return at + 1 < len(self._firsts) and self._firsts[at + 1] < span.first + span.size

    def add(self, span: Span) -> None:
        """Add a span that overlaps none held (:meth:`overlaps`)."""
        first, end = span.first, span.first + span.size
        at = bisect_right(self._firsts, first)
        joins_next = at < len(self._firsts) and self._firsts[at] == end
        if at and self._ends[at - 1] == first:
            if joins_next:
                self._ends[at - 1] = self._ends[at]
                del self._firsts[at], self._ends[at]
            else:
                self._ends[at - 1] = end
        elif joins_next:
            self._firsts[at] = first
        else:
            self._firsts.insert(at, first)
            self._ends.insert(at, end)

    def runs(self) -> Iterator[tuple[int, int]]:
        """The runs held, ``(first, end)`` in order."""
        return zip(self._firsts, self._ends)

    def count_not_in(self, other: "SpanSet") -> int:
        """The numbers held here that ``other`` does not hold: the samples one job has that another still lacks."""
        return sum(min(stop, end) - max(start, first)
                   for first, end in zip(self._firsts, self._ends)
                   for start, stop in other.gaps(end) if stop > first)

    def gaps(self, end: int) -> Iterator[tuple[int, int]]:
        """The runs ``[first, end)`` of the numbers 0 to ``end - 1`` not held, in order."""
        start = 0
        for first, stop in zip(self._firsts, self._ends):
            if first >= end:
                break
            if first > start:
                yield start, first
            start = max(start, stop)
        if start < end:
            yield start, end


def checkpoint_note(path: str | os.PathLike, holds: str, verdict: str, why: str = "", then: str = "") -> str:
    """What a run says of work a checkpoint holds other than its own to resume as asked (a journal of analyse or
    match, a batch's output, the lines a stopped bench run left beside its output): one shape for every command, so
    that the same case reads the same in each, ``FILE: holds WHAT, VERDICT (WHY); THEN``, said once on stderr after
    the command's name (``stich: match: m.ckpt: holds 2 other matches, not resumed (their bots or settings differ);
    this run starts afresh beside them, which stay in the file``). ``verdict`` is what the run does with it
    (resumed, not resumed, written afresh, kept), ``then`` what follows from it or mends it. A file the run removed
    is :func:`removed_note`'s."""
    return f"{shown_name(path)}: holds {holds}, {verdict}" + _why_then(why, then)


def removed_note(path: str | os.PathLike, holds: str, why: str = "", then: str = "") -> str:
    """A checkpoint the run removed, as :func:`checkpoint_note` says the rest: it holds nothing any more, so what it
    held comes after the verdict, ``FILE: removed, it held WHAT (WHY); THEN``."""
    return f"{shown_name(path)}: removed, it held {holds}" + _why_then(why, then)


def _why_then(why: str, then: str) -> str:
    """The tail of a checkpoint's note: ``why`` in brackets, then ``then`` after a semicolon, each where given."""
    return (f" ({why})" if why else "") + (f"; {then}" if then else "")


def no_work_note(path: str | os.PathLike, unstarted: str) -> str:
    """A file that holds no work (:func:`unstarted_file` says what it is), written afresh."""
    return checkpoint_note(path, "no work", "written afresh", unstarted)


def not_resumed_note(path: str | os.PathLike, holds: str, why: str, beside: str = "this run starts afresh",
                     resume: str = "", one: bool = False) -> str:
    """Another job's work, or an older job's, which this run does not resume: it works ``beside`` it (``this run
    solves the 4 it lacks``), the old lines staying in the file; ``resume`` says how a run resumes it, where one can.
    ``one``: ``holds`` is one thing (1 sample, 1 other match), said as "it"."""
    them = "it, which stays" if one else "them, which stay"
    return checkpoint_note(path, holds, "not resumed", why,
                           f"{beside} beside {them} in the file" + (f"; {resume}" if resume else ""))


#: A write's errors of a file that cannot grow: a full disk, a quota, the largest file allowed (:func:`write_error_fix`
#: says what mends each).
NO_ROOM_ERRORS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
#: A write's errors that permission mends: a file or folder made read-only during the run.
NOT_WRITABLE_ERRORS = (errno.EACCES, errno.EPERM, errno.EROFS)
#: The write errors after which the journal's lines so far stand and a rerun resumes from them (rather than a file
#: that was never one to append to).
KEPT_ERRORS = NO_ROOM_ERRORS + NOT_WRITABLE_ERRORS


def write_error_fix(number: int | None) -> str:
    """What mends a failed write of lines that are kept (:data:`KEPT_ERRORS`), said before "and rerun to resume":
    the journal and a batch's output say it alike. A file grown to the largest size allowed (EFBIG: ``ulimit -f``, or
    the file system's own limit) stays too large however much room the disk has: its mend is the limit."""
    if number == errno.EFBIG:
        return "raise the file size limit (ulimit -f), or move the file where larger files fit,"
    return "make it writable" if number in NOT_WRITABLE_ERRORS else "make room"


class Journal:
    """The journal of one job in the file at ``path``: :meth:`done` yields the spans already finished with their
    sums (read when the journal is opened), :meth:`append` adds one; :meth:`close` when the job ends. ``holder``
    names the kind of process in the message of a journal in use. ``aliases`` are earlier spellings of the same
    job's identity (a bot renamed since): their spans are this job's too. ``varying`` names the identity's fields a
    header may differ in and still be this job's (an analysis's ``samples``), and ``end`` the first number past the
    job: a span that goes past it was written by a longer run, and is not read (its numbers are done again). A header
    is this job's when its fields are the job's exactly (:func:`same_job`): one that adds a field (card advice that
    tallies bonuses) is another job's. ``older`` reads a header as the identity it names now where an older stich
    wrote that job otherwise (a match's deadline of 0, one sample a card, is the bot ``sampling:1`` now), or gives
    None: its spans are this job's when that identity is (one an alias cannot list, since the old header holds a
    value of any kind the job no longer has)."""

    def __init__(self, path: str | os.PathLike, identity: Mapping[str, Any], holder: str = "stich analyse",
                 aliases: Sequence[Mapping[str, Any]] = (), varying: Sequence[str] = (),
                 end: int | None = None,
                 older: Callable[[Mapping[str, Any]], Mapping[str, Any] | None] | None = None) -> None:
        self.path = Path(path)
        self.identity = json.loads(json.dumps(dict(identity)))  # as it reads back
        self.key = _key_of(self.identity)
        self._known = {self.key: self.identity} | {_key_of(alias): alias
                                                    for alias in (json.loads(json.dumps(dict(a))) for a in aliases)}
        self._varying = frozenset(varying)
        self._older = older
        self._end = MAX_SPAN_END if end is None else end
        self._done: array[int] = array("q")  # the offset in the file of each line done() yields
        self._numbers: array[int] = array("q")  # and its line number, for messages naming it
        self._stream: FileIO | None = None  # unbuffered: a line is written when _write returns, or not
        # opening a named pipe waits for a writer (a device is written as a file: /dev/full fails, said at the write)
        if (kind := read_once_kind(self.path)) in ("a pipe", "a socket"):
            raise FileRefusedError(f"{shown_name(self.path)}: {kind}, not a regular file: a checkpoint is read back "
                                   f"to resume and appended to, which {kind} cannot be; give a file's name")
        self._job_longest = 0  # the longest line of this job's spans in the file: what its next needs (0: none yet)
        self._torn = 0  # the length of a half-written last line: trimmed before a line is appended, or at the close
        self._refused = False  # check_room refused the run: the half-written line stays, for the next rerun to measure
        self._afresh = False  # the file holds no work (none, empty, a torn first line): truncated at the first write
        self._header_due = True  # this job's header not in the file: written with the first span
        self._afresh_note: str | None = None  # why a file there is written afresh: said once the run goes on
        #: the values of the ``varying`` fields of the other runs whose spans were read (``{"samples": 8}``)
        self.resumed_from: list[dict[str, Any]] = []
        #: how many other jobs the file holds headers of, by kind (:func:`job_kind`; each job once, however many
        #: runs of it wrote a header: of other sample counts, or an older spelling that ``older`` reads as it), and
        #: the identities of the first :data:`OTHER_JOBS_KEPT` of them: what a caller whose job the file does not
        #: hold says of it
        self.other_jobs: dict[str, int] = {}
        self.other_identities: list[dict[str, Any]] = []
        self.holds_this_job = False  # a header of this job (or an alias of it) is in the file
        self.resumed_samples = 0  # the samples of the spans read that those runs wrote
        self._lock = lock_beside(self.path, holder)
        try:
            self._open()
        except BaseException:
            self._lock.close()
            raise

    def done(self) -> Iterator[tuple[Span, dict[str, Any]]]:
        """The spans this job had finished when the journal was opened, each once, with its sums: read from the file
        one line at a time (the lines were checked when it was opened, and only this run appends to it since)."""
        for _, span, sums in self.done_lines():
            yield span, sums

    def done_lines(self) -> Iterator[tuple[int, Span, dict[str, Any]]]:
        """:meth:`done` with each span's line number in the file, so that a caller refusing its sums can name the
        line (``file:line``)."""
        if not self._done:
            return
        with open(self.path, "rb") as stream:
            for offset, number in zip(self._done, self._numbers):
                stream.seek(offset)
                entry = json.loads(stream.readline())
                first, count = entry["span"]
                yield number, Span(int(first), int(count)), entry["sums"]

    def append(self, span: Span, sums: Mapping[str, Any]) -> None:
        """One finished span, flushed at once."""
        self._write({"key": self.key, "span": list(span), "sums": dict(sums)})

    def close(self) -> None:
        """Close the file, trimming a half-written last line unless :meth:`check_room` refused the run or the file
        has no room for it now (the line met the largest file this process may write, ``ulimit -f``, or the disk is
        full: the room check's own test): its length is what a rerun under the same limit measures, and it may be a
        job's first line, which nothing else measures (a finished job read back by the run of a FILE would otherwise
        trim the next record's), and release the lock."""
        try:
            if self._stream is not None:
                self._stream.close()
            if self._torn and not self._refused and room_refusal(self.path, 0, self._torn, "", "") is None:
                trim_partial_line(self.path)
                self._torn = 0
        finally:
            self._lock.close()

    def _open(self) -> None:
        """Read the file (nothing is written here: see :meth:`_write`)."""
        if not self.path.exists():
            self._afresh = True
            return
        if not self.path.is_file():  # a device, read as no file: written at once, so /dev/full fails before any work
            self._afresh = True
            self._stream = open(self.path, "wb", buffering=0)
            self._header_due = False
            self._write_through(self._header_line())
            return
        unstarted = unstarted_file(self.path, (HEADER_START,))
        if unstarted is not None:
            self._afresh = True
            self._afresh_note = no_work_note(self.path, unstarted)
            return
        self._check_first_line()  # the file may be someone else's: refused untouched
        self._torn = torn_tail(self.path)  # trimmed later (_write, close): one that met the limit may be kept
        found: dict[str, dict[str, Any]] = {}  # the keys of this job's headers read, with their varying fields
        others: set[str] = set()  # the other jobs whose headers were read (:meth:`_job_of`)
        seen = SpanSet()
        offset = job_longest = 0
        with open(self.path, "rb") as stream:
            for number, line in enumerate(stream, 1):
                if not line.endswith(b"\n"):
                    break  # the half-written last line
                at, offset = offset, offset + len(line)
                try:  # a line of no job at all: the file is refused as a whole, for every record alike
                    entry = json.loads(line)
                    key = entry["key"]
                    if not isinstance(key, str):  # every job's key is text (a number is no job's either)
                        raise TypeError
                except (ValueError, KeyError, TypeError, AttributeError):
                    raise FileRefusedError(self._no_line_of_a_job(number, line)) from None
                if HEADER in entry:
                    now = self._older(entry) if self._older is not None else None  # as ``older`` reads it
                    if self._is_this_job(entry, now):
                        found[key] = {name: entry.get(name) for name in sorted(self._varying)
                                      if entry.get(name) != self.identity.get(name)}
                    elif (job := self._job_of(entry, now)) not in others:
                        others.add(job)
                        kind = job_kind(entry)
                        self.other_jobs[kind] = self.other_jobs.get(kind, 0) + 1
                        if len(self.other_identities) < OTHER_JOBS_KEPT:
                            self.other_identities.append({name: value for name, value in entry.items()
                                                          if name not in BOOKKEEPING})
                    continue
                if key not in found:
                    continue  # another job's span
                try:  # this job's line: it concerns this job alone
                    first, count = entry["span"]
                    span = Span(int(first), int(count))
                    if not isinstance(entry["sums"], dict) or span.first < 0 or span.size < 1 \
                            or span.first + span.size > MAX_SPAN_END:
                        raise TypeError
                except (ValueError, KeyError, TypeError, AttributeError):
                    raise FileError(f"{shown_name(self.path)}:{number}:1: not a line of a stich checkpoint: its "
                                    "\"span\" is no [first, count] of samples or its \"sums\" no object; "
                                    f"{REMOVE_THE_LINE}") from None
                job_longest = max(job_longest, len(line))  # a longer run's too: a line of this job's shape
                if span.first + span.size > self._end or seen.overlaps(span):
                    continue  # a longer run's, or written twice (cannot happen, but never counted twice)
                seen.add(span)
                if found[key]:
                    self.resumed_samples += span.size
                    if found[key] not in self.resumed_from:
                        self.resumed_from.append(found[key])
                self._done.append(at)
                self._numbers.append(number)
        self._job_longest = job_longest
        self._header_due = self.key not in found
        self.holds_this_job = bool(found)

    def _job_of(self, header: Mapping[str, Any], now: Mapping[str, Any] | None) -> str:
        """The job a header names, as a key: its fields as ``older`` reads them (``now``; None: as written), the
        bookkeeping and the ``varying`` fields left out, so that the headers of one job count once."""
        return _key_of({name: value for name, value in (header if now is None else now).items()
                        if name not in BOOKKEEPING and name not in self._varying})

    def _is_this_job(self, header: Mapping[str, Any], now: Mapping[str, Any] | None) -> bool:
        """Whether a header names this job (or an alias of it), its ``varying`` fields aside, as written or as
        ``older`` reads it (``now``; None: it reads it as written)."""
        return any(same_job(read, known, self._varying) for known in self._known.values()
                   for read in ((header,) if now is None else (header, now)))

    def check_room(self, untouched: str) -> None:
        """FileRefusedError when no line should be appended now (:func:`room_refusal`): asked by a run that has work
        left, before it starts on it (a finished job, only read back, writes nothing and is not refused).
        ``untouched`` says what the refusal leaves undone, in the caller's words ("no board played")."""
        if self.path.exists() and not self.path.is_file():  # a device (/dev/full) says it at the write
            return
        # the first line appended may bring this job's header with it; a file written afresh loses what it holds
        header = len(self._header_line())
        # a line of this job's already in the file measures the next; its first line cannot be measured before it
        # is solved (its shape comes from the samples): a first run that meets the limit leaves it torn, kept and
        # measured by the rerun (self._torn), which is refused before any work
        line = self._job_longest
        kept = self.path.stat().st_size if self._afresh and self.path.exists() else self._torn
        refusal = room_refusal(self.path, line + (header if self._header_due else 0), kept, untouched,
                               "another file")
        if refusal is not None:
            self._refused = True
            raise FileRefusedError(refusal)
        self._say_afresh()

    def _say_afresh(self) -> None:
        """A :class:`~solver.errors.StichWarning` that a file there is written afresh, once, as the run goes on (a
        run refused leaves it as it was, and says only that)."""
        if self._afresh_note is not None:
            warn_caller(self._afresh_note)
            self._afresh_note = None

    def _no_line_of_a_job(self, number: int, line: bytes) -> str:
        """The message for a line that names no job (not JSON, not an object, no key): where it stops reading as one,
        what was expected, and the mend; the file is refused until then, since the line may have been any job's."""
        column, fault = json_line_fault(line, "key")
        fault = fault or 'no text "key"'  # read alike: not empty here
        return (f"{shown_name(self.path)}:{number}:{column}: not a line of a stich checkpoint ({fault}; expected a "
                f'JSON object naming its analysis by its "key", one a line as stich writes them); {REMOVE_THE_LINE}')

    def _header_line(self) -> bytes:
        return (json.dumps({HEADER: VERSION, "key": self.key, **self.identity}) + "\n").encode("utf-8")

    def _write(self, entry: dict[str, Any]) -> None:
        """One line, written through (no buffer), so that a failed write (a full disk) is said naming the journal,
        with what it kept, and leaves nothing buffered for :meth:`close` to write again: a second failure there names
        no file and would replace this one. The first opens the file (written afresh where it held no work), trims a
        half-written last line and brings this job's header, so that a run that writes no line changes nothing."""
        try:
            if self._stream is None:
                self._say_afresh()
                self._stream = open(self.path, "wb" if self._afresh else "ab", buffering=0)
            if self._torn:
                trim_partial_line(self.path)  # appended to by this run (opened to append): the next line starts anew
                self._torn = 0
        except OSError as error:
            raise self._write_error(error) from None
        data = (json.dumps(entry) + "\n").encode("utf-8")
        if self._header_due:
            data = self._header_line() + data
            self._header_due = False
        self._write_through(data)

    def _write_through(self, data: bytes) -> None:
        """``data`` written to the open stream whole, or :class:`JournalWriteError` naming the journal."""
        assert self._stream is not None
        line = memoryview(data)
        try:
            while line:  # a short write (the disk filling up) goes on with the rest, until it fails
                written = self._stream.write(line)
                if not written:  # a pipe that takes nothing now (the file is one only by mistake)
                    raise BlockingIOError(errno.EAGAIN, os.strerror(errno.EAGAIN))
                line = line[written:]
        except OSError as error:
            raise self._write_error(error) from None

    def _write_error(self, error: OSError) -> JournalWriteError:
        """``error`` naming the journal, with what it kept and the mend where the lines written are kept."""
        said = error.strerror or str(error)
        if error.errno in KEPT_ERRORS:
            said += "; what was written before it is kept (a rerun with room trims a half-written last line): " \
                    f"{write_error_fix(error.errno)} and rerun to resume"
        return JournalWriteError(error.errno, said, str(self.path))

    def _check_first_line(self) -> None:
        """FileRefusedError unless the file starts with a header line of this version."""
        with open(self.path, "rb") as stream:
            first = stream.readline(MAX_HEADER_LINE + 1)  # a longer one is no header: not read on (a wrong file)
        try:
            found = json.loads(first.decode("utf-8"))
        except ValueError:  # UnicodeDecodeError is one
            found = None
        if not isinstance(found, dict) or HEADER not in found:
            raise FileRefusedError(f"{shown_name(self.path)}: not a stich checkpoint (its first line is no analysis "
                                   "header); remove it or choose another file")
        if found[HEADER] != VERSION or "key" not in found:
            raise FileRefusedError(f"{shown_name(self.path)}: a checkpoint of another stich version "
                                   f"({found[HEADER]!r}); remove it or choose another file")


#: How many other jobs' identities a journal keeps (:attr:`Journal.other_identities`): enough to describe them, few
#: enough that a file of many records' analyses is not held in memory.
OTHER_JOBS_KEPT = 10

#: The mend of a checkpoint line that cannot be read: without it, the samples it held are merely missing.
REMOVE_THE_LINE = "remove the line (a rerun solves its samples again) or choose another file"

#: The fields of a header that are the journal's bookkeeping, not the job's identity.
BOOKKEEPING = (HEADER, "key")


def job_kind(header: Mapping[str, Any]) -> str:
    """The kind of job a header names, as a note says it: a ``match`` (:mod:`solver.match`), else an ``analysis``
    (of a hand, contract advice or card advice)."""
    return "match" if "match" in header else "analysis"


#: Each kind of job (:func:`job_kind`) said of more than one.
KINDS_PLURAL = {"match": "matches", "analysis": "analyses"}


def _other_jobs_text(jobs: Mapping[str, int], kind: str) -> str:
    """The other jobs a journal holds (:attr:`Journal.other_jobs`) said by kind, those of the caller's ``kind``
    first as "other": ``2 other matches and 3 analyses``, so that a file of another command's work is not called
    more of this command's."""
    ordered = sorted(jobs.items(), key=lambda item: (item[0] != kind, item[0]))
    return " and ".join(f"{count:,} {'other ' if name == kind else ''}{name if count == 1 else KINDS_PLURAL[name]}"
                        for name, count in ordered)


def other_jobs_note(journal: Journal, kind: str, differ: str, own: str, resume: str = "") -> str | None:
    """What a checkpoint that holds other jobs and not this one of ``kind`` says (None where it holds this one, or
    nothing else): without it a rerun with one setting changed starts over beside the work it meant to resume,
    unsaid. ``differ``: what differs where all are of this kind; ``own``: why none of another kind resumes."""
    if journal.holds_this_job or not journal.other_jobs:
        return None
    count = sum(journal.other_jobs.values())
    why = f"{'its' if count == 1 else 'their'} {differ} differ" if set(journal.other_jobs) == {kind} else own
    return not_resumed_note(journal.path, _other_jobs_text(journal.other_jobs, kind), why, resume=resume,
                            one=count == 1)


def same_job(header: Mapping[str, Any], identity: Mapping[str, Any], varying: Iterable[str] = ()) -> bool:
    """Whether a header line names the job of ``identity`` (its fields as read back from JSON): every field equal,
    none missing and none added, except the bookkeeping (:data:`BOOKKEEPING`) and the ``varying`` ones (an
    analysis's ``samples``: sample k is the same whatever their count). A header that holds the job's fields and
    more is another job's: card advice that tallies bonuses adds ``"bonuses": true`` to the job without them, whose
    samples hold none. The one rule of the journal and of the notes on what it holds (:mod:`solver.advice`)."""
    left_out = {*BOOKKEEPING, *varying}
    return ({name: value for name, value in header.items() if name not in left_out}
            == {name: value for name, value in identity.items() if name not in left_out})


def samples_held(path: str | os.PathLike, job_of: Callable[[Mapping[str, Any]], Hashable | None],
                 end: int | None = None) -> dict[Hashable, SpanSet]:
    """The samples a journal holds for each job ``job_of(header)`` names (None: a header of no job asked about), as
    the set of their numbers (each held once however many runs wrote it, so that a caller can count them or ask
    which another job lacks), only those of spans within ``end`` where given (the spans a run of ``end`` samples
    reads back); a line that is no JSON object is passed over (the journal says what is wrong when it opens the
    file), and so is a last line without its newline, which the journal does not read back either (its writer
    stopped before the line was whole). OSError where the file cannot be read."""
    jobs: dict[str, Hashable] = {}
    held: dict[Hashable, SpanSet] = {}
    with open(path, "rb") as stream:
        for line in stream:
            if not line.endswith(b"\n"):
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if not isinstance(entry, dict):
                continue
            if HEADER in entry:
                job = job_of(entry)
                if job is not None and isinstance(entry.get("key"), str):
                    jobs[entry["key"]] = job
                continue
            try:
                job = jobs[entry["key"]]
                first, count = (int(number) for number in entry["span"])
            except (KeyError, TypeError, ValueError):
                continue
            if first < 0 or count < 1 or first + count > (MAX_SPAN_END if end is None else end):
                continue
            numbers = held.setdefault(job, SpanSet())
            for start, stop in list(numbers.gaps(first + count)):  # the numbers of the span not yet counted
                if stop > first:
                    numbers.add(Span(max(start, first), stop - max(start, first)))
    return held


#: How every header line of this version starts (:meth:`Journal._header_line`).
HEADER_START = json.dumps({HEADER: VERSION})[:-1].encode()

# the longest header line a checkpoint is read for (a header is an analysis's options, some hundred bytes): the
# first line of a file named by mistake is read no further than this
MAX_HEADER_LINE = 1024 * 1024


def unstarted_file(path: str | os.PathLike, starts: Sequence[bytes]) -> str | None:
    """What a file that holds no work is (a journal, a batch output: made empty, or its writer stopped, killed or out
    of room, before its first line was whole), or None for any other: empty, or no line end and only the start of
    one of the ways its first line starts (``starts``), or such a start and more (the first line cut short further
    on). Such a file is written afresh, said by :func:`no_work_note`: the one rule of the checkpoint and of the batch
    output."""
    with open(path, "rb") as stream:
        first = stream.read(MAX_HEADER_LINE + 1)
    if not first:
        return "empty"
    if b"\n" not in first and any(start.startswith(first) or first.startswith(start) for start in starts):
        return (f"only the start of its first line, {len(first):,} byte{'s' if len(first) > 1 else ''}: its writer "
                "stopped while it wrote it")
    return None


def file_size_limit() -> int | None:
    """The largest file this process may write, in bytes (``ulimit -f``), or None where there is no limit."""
    try:
        import resource
    except ImportError:  # not a POSIX system
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return None if soft == resource.RLIM_INFINITY else soft


def _key_of(identity: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]


def torn_tail(path: str | os.PathLike) -> int:
    """The length in bytes of a half-written last line (a process killed, or a write refused, while writing it),
    reading only the file's tail: 0 when the file ends with a line break (or is empty)."""
    with open(path, "rb") as stream:
        size = end = stream.seek(0, os.SEEK_END)
        while end > 0:
            start = max(0, end - 65536)
            stream.seek(start)
            newline = stream.read(end - start).rfind(b"\n")
            if newline >= 0:
                end = start + newline + 1
                break
            end = start
    return size - end


def trim_partial_line(path: str | os.PathLike) -> None:
    """Cut a half-written last line (:func:`torn_tail`)."""
    if torn := torn_tail(path):
        os.truncate(path, os.path.getsize(path) - torn)


def room_refusal(path: str | os.PathLike, longest: int, torn: int, untouched: str, other: str) -> str | None:
    """Why no line should be appended to the file at ``path`` now, or None: its file system has no block left for
    this user, or the file is within its ``longest`` line of the largest file this process may write (``ulimit -f``).
    Asked by a run with work left before it starts on it, since either is otherwise found only at its first line,
    after a chunk of work was done for nothing. ``torn`` is the length of a half-written last line not yet trimmed:
    the line it began was longer still, so a file that met the limit while writing it is refused, rerun after rerun
    (a run with room trims it). ``untouched`` says what the refusal leaves undone ("nothing solved"),
    ``other`` the file to choose instead ("another --out file"): a batch's output and a checkpoint say it alike. A
    path that is no regular file (a device, ``/dev/stdout`` into a pipe) has no room to measure."""
    if os.path.exists(path) and not os.path.isfile(path):
        return None  # asked of the name: /dev/stdout into a pipe resolves to "pipe:[...]", which no path names
    real = os.path.realpath(path)
    size = os.path.getsize(real) if os.path.exists(real) else 0
    limit = file_size_limit()
    if limit is not None and size - torn + max(longest, torn + 1 if torn else 1) > limit:
        return (f"{shown_name(path)}: {size:,} bytes, and this process may write no file over {limit:,} bytes "
                f"(ulimit -f): no room for another line ({untouched}); raise the file size limit, or choose {other}")
    if not hasattr(os, "statvfs"):
        return None
    stats = os.statvfs(real if os.path.exists(real) else os.path.dirname(real))
    if (stats.f_bfree if os.geteuid() == 0 else stats.f_bavail) == 0:  # root may write into the reserved blocks
        return f"{shown_name(path)}: no space left on its device ({untouched}); make room, or choose {other}"
    return None


def journalled_samples(checkpoint: str | os.PathLike, headers: Sequence[Mapping[str, Any]],
                       samples: int | None = None) -> SpanSet:
    """The samples of a run of ``samples`` (None: of runs of any count) that a checkpoint journal holds for the jobs
    of these ``headers`` (each header's fields as :class:`Journal` writes them, the tag and key left out, a header of
    any sample count matching as the journal's does: :func:`same_job`), as the set of their numbers: those it would
    read back. An empty set for a file that cannot be read (the journal says why when it opens it) and for one that
    is no regular file (a device such as /dev/zero, which holds no journal and would be read without end)."""
    return journalled_by_job(checkpoint, {True: headers}, samples)[True]


def journalled_by_job(checkpoint: str | os.PathLike, jobs: Mapping[Hashable, Sequence[Mapping[str, Any]]],
                      samples: int | None = None) -> dict[Hashable, SpanSet]:
    """:func:`journalled_samples` for several jobs (each named by its headers) in one reading of the file, which may
    be long: the set of each job's samples, empty for a job of none. A header is counted for the first job it
    matches."""
    wanted = [(name, [json.loads(json.dumps(dict(header))) for header in headers]) for name, headers in jobs.items()]

    def job_of(header: Mapping[str, Any]) -> Hashable | None:
        return next((name for name, known in wanted if any(same_job(header, job, ("samples",)) for job in known)),
                    None)

    held: dict[Hashable, SpanSet] = {}
    try:
        if stat.S_ISREG(os.stat(checkpoint).st_mode):
            held = samples_held(checkpoint, job_of, samples)
    except OSError:
        pass
    return {name: held.get(name, SpanSet()) for name in jobs}


__all__ = ["Journal", "Span", "SpanSet", "checkpoint_note", "job_kind", "journalled_by_job", "journalled_samples",
           "no_work_note", "not_resumed_note", "other_jobs_note", "removed_note", "room_refusal", "same_job",
           "samples_held", "torn_tail", "trim_partial_line", "unstarted_file"]
