"""Batch solving: every record of a ``.tbn`` file, one JSON line per record, resumable and parallel.

Why it is shaped like this (docs/batch.md, measurements in /work/shared/NOTES.md):

* Each result is appended to the output as one JSON line and flushed as soon as it is done, so a run killed at any
  moment (even with ``kill -9``) loses at most the line being written. On a rerun the half-written last line is
  trimmed and every record already solved in the file (by its key, a digest of its text) is skipped: a finished
  record is never solved twice. Error lines are dropped and their records tried again. Every line says what the run
  asked, and a rerun asking something else of the same output is refused (the same question of the input moved
  elsewhere is not: its records are recognised by their text); a lock keeps a second run off it.
* Records are solved in chunks, each about half a second of one worker's work (at most ``chunk_size`` records; the
  first chunks one record each, until the rate is known): a few milliseconds of compiled work per deal is far less
  than a task's overhead, and an interrupted run loses at most what its running chunks had solved. Each worker keeps
  one :class:`~solver.search.engine.EngineSolver` (its table memory is allocated once, not once per deal). Without
  a pool (one worker) every record's line is written when it is done.
* The chunks run on the worker pool of :mod:`solver.workers`: local processes (whose workers exit when a killed
  driver cannot stop them), or a Dask cluster (``scheduler="tcp://host:port"``) running the same chunks on other
  machines (timed by the cluster's worker threads).
* Input and output are streamed: the input file is read record by record (twice when a progress display needs the
  total), and the ids already done are scanned line by line, so a file of any size never sits in memory at once.
* ``memory_mb`` bounds each worker process: its address space is capped with ``RLIMIT_AS`` and its transposition
  tables sized to fit (the points search's and the settlement search's share a quarter of the limit, each at most
  the default). A record that still runs out of memory is
  written as an error line and the others go on; a table no worker can allocate stops the run with one message
  (every record would fail alike). On a Dask cluster the workers' own ``--memory-limit`` applies, and
  each task sizes its table from it the same way.
* Every value is exact and independent of the order in which deals are solved, so the lines are the same whatever
  the number of workers (only their order differs); timings and node counts are left out for that reason.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from itertools import chain, islice
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator, Mapping, NamedTuple, Sequence

from .analysis import SCHEMA, solve_report
from .checkpoint import (KEPT_ERRORS, NOT_WRITABLE_ERRORS, checkpoint_note, no_work_note, room_refusal, torn_tail,
                         trim_partial_line, unstarted_file, write_error_fix)
from .errors import (InvalidDealError, ParseError, StichError, check_callback, is_token_list, is_whole_number,
                     objective_meant, shown_name)
from .files import (atomic_file, is_stream_output, json_line_fault, json_text, locked_while_written, names_stdout,
                    read_once_kind, remove_stale_temporaries)
from .formats.tbn import Comment, Record, format_record, iter_records
from .html_tables import html_lines, html_table
from .games import GAMES, check_flags_of_some_game, get_game
from .games.outcome import POT_ZERO_LINES_GIVEN_NOTE, POT_ZERO_LINES_NOTE, pot_zero_said, read_pot
from .scoring import set_or_check_pot
from .position import Position, position_from_record
from .search.boundary import check_flag
from .search.engine import EngineSolver
from .limits import MAX_CHUNK_SIZE
from .variant import Variant, value_text
from .workers import (DEFAULT_WORKER_WAIT_SECONDS, Notify, Pool, local_workers, out_of_memory_text, run_pool,
                      run_serial, serial_threads, table_does_not_fit, warn_caller, worker_engine)

#: Called with (lines written in this run, lines this run has to write): with 0 once what is left is counted, then
#: after each written line.
BatchProgress = Callable[[int, int], None]


class Item(NamedTuple):
    """One unit of work: a record of the input with its id (:func:`record_id`) and key (:func:`record_key`);
    ``record`` is None for a record too broken to read, and ``failure`` is then its error and ``board`` its [Board]
    where that tag was read before the fault (its error line says it as a good record's says its own)."""

    id: str
    key: str
    record: Record | None
    failure: str | None
    board: str | None = None


class Line(NamedTuple):
    """One finished output line (JSON and its line break), and whether it reports an error."""

    text: str
    is_error: bool


@dataclass(frozen=True)
class Question:
    """What a run asks of every record, handed to each chunk's worker: the objectives (None: each game's default),
    the value of every card or not, the variant flags, and the question as every line records it (:func:`asked_of`;
    None leaves it off the lines); ``pot`` stands for the ``[Pot]`` tag of each record of a game paid from one."""

    objectives: Sequence[str] | None = None
    cards: bool = False
    variant: Mapping[str, object] | None = None
    asked: Mapping[str, Any] | None = None
    pot: int | None = None


# the longest line a batch output may hold (stich writes lines of some kilobytes: a record's place, its tags'
# values of at most 10,000 characters, the answers): a longer one is refused on resuming, never read whole
MAX_OUTPUT_LINE = 4 * 1024 * 1024


@dataclass(frozen=True)
class BatchSummary:
    """What a run did: records in the file, already done before it started, solved now, written as errors now;
    records that repeat one above them in the file (one line answers both), the output's lines from before the run
    that repeat a record's key answered on a line above (``repeated``: two outputs concatenated; they stay, and a
    reader of the file counts those records twice), and the output's lines that answer no
    record of the file (``stale``, the first few of their ids in ``stale_ids``: the input was regenerated or a
    record edited since they were written; they are kept); ``notes``, each note of the lines this run wrote (a
    Kratzen record without a pot settles at 0) with how many lines carry it, since nobody reads them line by line,
    and ``note_places``, each note with the place of the first record in the file, among those this run wrote, whose
    line carries it (``deals.tbn:19``), so that the text says where to look, as every other command says its
    records' notes;
    ``comments_alone`` and ``lines_read``, the comments and the count of lines of an input that held nothing else
    (:class:`~solver.formats.tbn.RecordItems`'), for ``stich batch`` to say where they are JSON or where reading
    ended; ``stream``, whether the output was a stream (:func:`~solver.files.is_stream_output`: stdout, a pipe, a
    device such as /dev/tty; stdout's names always), which holds nothing done before, so that no summary counts an
    "already done"."""

    records: int
    skipped: int
    solved: int
    errors: int
    seconds: float
    duplicates: int = 0
    repeated: int = 0
    stale: int = 0
    stale_ids: tuple[str, ...] = ()
    source: str = ""  # the file of records and the output as given, not escaped (the text shows them by shown_name)
    out: str = ""
    notes: tuple[tuple[str, int], ...] = ()
    note_games: tuple[tuple[str, str], ...] = ()  # each note's game, of the first line that carries it
    note_places: tuple[tuple[str, str], ...] = ()  # each note's first record written now, FILE:LINE (not escaped)
    comments_alone: tuple[Comment, ...] = ()
    lines_read: int = 0
    stream: bool = False

    def __post_init__(self) -> None:
        if names_stdout(self.out):  # stdout is a stream whoever made the summary
            object.__setattr__(self, "stream", True)

    @property
    def written(self) -> int:
        """The lines this run wrote: the records solved and the error lines."""
        return self.solved + self.errors

    def __str__(self) -> str:
        """The summary for people (``print(summary)``), as ``stich batch`` ends: the output's repeated and stale
        lines, if any (each a StichWarning too, as the run says it: :func:`repeated_text` as it starts,
        :func:`stale_text` as it ends), and what the run wrote (:func:`summary_text`)."""
        return "\n".join(line for line in (self._repeated_line(), stale_text(self), *notes_text(self),
                                            summary_text(self)) if line is not None)

    def __repr__(self) -> str:
        """One line that says what the run did, as every result's ``repr`` (``<BatchSummary 7 records: 7 written to
        out.jsonl (7 solved, 0 errors), 0 already done>``), not the dataclass's every field (the comments of the
        input among them)."""
        records = f"{self.records:,} record{'' if self.records == 1 else 's'}"
        return f"<BatchSummary {records}: {summary_text(self, timed=False)}>"

    def _repeated_line(self) -> str | None:
        """The output's lines that repeat a record answered above (:func:`repeated_text`); None where there are none."""
        return repeated_text(self.out or "the output", self.repeated) if self.repeated else None

    def _repr_html_(self) -> str:
        """The same for Jupyter, the counts as a table: the text's counts, as it writes them, with the records read
        and the output's repeated lines; a stream, which holds nothing from before, has no "already done",
        "repeated" or "stale" (:func:`summary_text`)."""
        counts = [("records", f"{self.records:,}"), ("written", f"{self.written:,}"), ("solved", f"{self.solved:,}"),
                  ("errors", f"{self.errors:,}"), ("duplicates", f"{self.duplicates:,}"),
                  *([] if self.stream else [("already done", f"{self.skipped:,}"), ("repeated", f"{self.repeated:,}"),
                                            ("stale", f"{self.stale:,}")]),
                  ("seconds", f"{self.seconds:.1f}")]
        table = html_table([name for name, _ in counts], [[count for _, count in counts]], right=range(len(counts)))
        return (f"<div>{html_lines([summary_text(self)], bold=True)}{table}"
                f"{html_lines([line] if (line := self._repeated_line()) else [], small=True)}"
                f"{html_lines([line] if (line := stale_text(self)) else [], small=True)}"
                f"{html_lines(notes_text(self), small=True)}</div>")

    def as_dict(self) -> dict[str, Any]:
        """The summary as the JSON document ``stich batch --json`` prints (json.md, ``batchSummary``)."""
        places = dict(self.note_places)
        return {"schema": SCHEMA, "command": "batch", "source": self.source, "out": self.out,
                "records": self.records, "skipped": self.skipped, "solved": self.solved, "errors": self.errors,
                "duplicates": self.duplicates, "repeated": self.repeated, "stale": self.stale,
                "stale_ids": list(self.stale_ids),
                "notes": [{"note": note, "records": count, "first": places.get(note) or None}
                          for note, count in self.notes],
                "seconds": round(self.seconds, 3)}


def _output_shown(path: str | os.PathLike) -> str:
    """The output as a message names it: ``stdout`` for stdout's names, else the path as shown_name shows it."""
    return "stdout" if names_stdout(path) else shown_name(path) or "the output"


def summary_text(summary: BatchSummary, *, timed: bool = True) -> str:
    """A run's last line (``stich batch``'s): what it wrote where, what was done before, its duplicates and its
    time (``timed``); counts with thousands separators, as the progress lines have them. A stream (which holds
    nothing done before) has no "already done"; stdout is said as ``stdout``."""
    one = summary.duplicates == 1
    duplicates = (f", {summary.duplicates:,} duplicate{'' if one else 's'} of {'a record' if one else 'records'} "
                  "above (the same text): answered once" if summary.duplicates else "")
    errors = f"{summary.errors:,} error{'' if summary.errors == 1 else 's'}"
    done = "" if summary.stream else f", {summary.skipped:,} already done"
    return (f"{summary.written:,} written to {_output_shown(summary.out)} "
            f"({summary.solved:,} solved, {errors}){done}{duplicates}{f', {summary.seconds:.1f} s' if timed else ''}")


def notes_text(summary: BatchSummary) -> list[str]:
    """A line for each note of the lines this run wrote, with how many carry it and where the first of them is in
    the file (``note: pot 0: ... (120 records solved now, the first at deals.tbn:1)``), as ``stich solve`` says a
    note of many records once: a pot of 0 in its words (:func:`~solver.games.outcome.pot_zero_said`)."""
    games, places = dict(summary.note_games), dict(summary.note_places)
    return [f"note: {with_aside(note_said(note, games.get(note, '')), records_said(count, places.get(note, '')))}"
            for note, count in summary.notes]


def records_said(count: int, place: str) -> str:
    """How many records' lines carry a note, and the place of the one, or of the first of several (``FILE:LINE``
    as given: shown as every message shows a file name, :func:`~solver.errors.shown_name`)."""
    records = f"{count:,} record{'' if count == 1 else 's'} solved now"
    return f"{records}, {'at' if count == 1 else 'the first at'} {shown_name(place)}" if place else records


def with_aside(text: str, aside: str) -> str:
    """``text (aside)``; inside the text's own last bracket where it ends in one, not two brackets in a row."""
    return f"{text[:-1]}; {aside})" if text.endswith(")") else f"{text} ({aside})"


def note_said(note: str, game: str) -> str:
    """A note of the lines written as a command says it on stderr: a pot of 0 in the unit of ``game``, asking for
    a pot only where none was given; any other as it is."""
    if note not in (POT_ZERO_LINES_NOTE, POT_ZERO_LINES_GIVEN_NOTE) or not game:
        return note
    return pot_zero_said("line", get_game(game).score_unit, note == POT_ZERO_LINES_GIVEN_NOTE)


def stale_text(summary: BatchSummary) -> str | None:
    """The output's lines that answer no record of the input (regenerated, or a record edited), said once as the
    run ends (a :class:`~solver.errors.StichWarning`) and in the summary; None where there are none."""
    if not summary.stale:
        return None
    ids = ", ".join(summary.stale_ids) + (", ..." if summary.stale > len(summary.stale_ids) else "")
    out, source = summary.out or "the output", summary.source or "the input"
    one = summary.stale == 1
    return checkpoint_note(out, f"{summary.stale:,} line{'' if one else 's'} answering "
                                f"{'a record' if one else 'records'} no longer in {shown_name(source)}",
                           f"kept: {ids}", then=f"remove {'it' if one else 'them'} or write to a new file")


# --- one record --------------------------------------------------------------------------------------------------


def record_id(source: str, line: int, board: str | None) -> str:
    """The id of a record in the output: where it starts, and its board when it has one (``deals.tbn:12#3``)."""
    return f"{source}:{line}" + (f"#{board}" if board else "")


def _located(error: StichError, position: Position) -> str:
    """An error raised while solving, pointed at the record's [Contract] tag (or [Deal] for a deal error), so that
    every error line reads ``file:line:col: message``."""
    record = position.record
    if isinstance(error, ParseError) or record is None:
        return str(error)
    tag = record.tag("Deal") if isinstance(error, InvalidDealError) else record.tag("Contract")
    line, column = (tag.value_line, tag.value_column) if tag is not None else (record.line, 1)
    return str(ParseError(str(error), source=record.source, line=line, column=column))


def _strip_timing(document: dict[str, Any]) -> dict[str, Any]:
    """Drop what differs between runs (seconds, node counts), so that the output does not depend on the workers."""
    for result in document.get("results", ()):
        result.pop("seconds", None)
        result.pop("nodes", None)
    return document


def record_key(identifier: str, record: Record | None, failure: str | None) -> str:
    """What identifies a record from one run to the next: a digest of its text as stich writes it back, so that a
    record moved to another line (a record above it mended) or a file named another way is still recognised, and a
    record whose text changed is solved again. Two identical records are one record."""
    text = format_record(record) if record is not None else f"{identifier}\n{failure}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def asked_of(source: str | os.PathLike, objectives: Sequence[str] | None, cards: bool,
             variant: Mapping[str, object] | None, pot: int | None = None) -> dict[str, Any]:
    """The question a batch answers, written on every line: a rerun on the same output must ask the same of the same
    file, or it would mix answers to different questions in one file. A ``pot`` is there only when one is given, so
    that the lines written before it could be are still the question without one."""
    asked = {"source": os.path.realpath(source), "objectives": list(objectives) if objectives is not None else None,
             "cards": cards, "variant": canonical_variant(variant)}
    return asked if pot is None else {**asked, "pot": pot}


def canonical_variant(variant: Mapping[str, object] | None) -> dict[str, str] | None:
    """``--variant`` flags as a batch line records them: names in lower case, each value as the games that have the
    flag read it (``TRUE`` and ``yes`` are ``true``), so that one question spelt two ways is one question. A flag
    at its default is kept: it replaces a record's ``[Variant]`` tag that sets it otherwise, so it asks another
    question than no flag. A flag no game reads the value of is kept as given: each record refuses it."""
    canonical: dict[str, str] = {}
    for name, value in (variant or {}).items():
        key = str(name).strip().lower()
        spellings = _spellings(key, value)
        canonical[key] = spellings[0] if spellings and len(set(spellings)) == 1 else str(value)
    return dict(sorted(canonical.items())) or None


def _spellings(key: str, value: object) -> list[str]:
    """``value`` as each game that has flag ``key`` spells it (:meth:`Variant.spelt`); none where a game that has it
    refuses the value."""
    return [value_text(reading) for reading in _readings(key, value)]


def _readings(key: str, value: object) -> list[object]:
    """``value`` as each game that has flag ``key`` reads it; none where a game that has it refuses the value."""
    readings = []
    for game in GAMES:
        flag = game.flags.get(key)
        if flag is None:
            continue
        try:
            readings.append(flag.parse(value))
        except StichError:
            return []
    return readings


def _at_default(key: str, value: object) -> bool:
    """Whether flag ``key`` at ``value`` is at its default in every game that has it (and some game has it)."""
    readings = _readings(key, value)
    return bool(readings) and readings == [game.flags[key].default for game in GAMES if key in game.flags]


def same_question(written: Mapping[str, Any], asked: Mapping[str, Any]) -> bool:
    """Whether a line's ``asked`` is this run's question."""
    return dict(written) == dict(asked)


def same_question_elsewhere(written: Mapping[str, Any], asked: Mapping[str, Any]) -> bool:
    """Whether a line's ``asked`` is this run's question of an input file by another path (the file moved, or the
    output copied with it): the same objectives, cards and variant flags."""
    return ({k: v for k, v in written.items() if k != "source"} == {k: v for k, v in asked.items() if k != "source"}
            and "source" in written and written["source"] != asked.get("source"))


def solve_item(item: Item, question: Question, engine: EngineSolver) -> dict[str, Any]:
    """The output line of one record: its solve report, or its error as ``file:line:col: message``."""
    head = _line_head(item, question.asked)
    if item.record is None:
        return {**head, **({"board": item.board} if item.board is not None else {}), "error": item.failure}
    board = item.record.get("Board")
    try:
        position = position_from_record(item.record, variant=question.variant)
        set_or_check_pot(position, question.pot)
    except StichError as error:
        return {**head, "board": board, "error": str(error)}
    try:
        document = solve_report(position, question.objectives, question.cards, engine=engine)
    except StichError as error:
        return {**head, "board": board, "error": _located(error, position)}
    except MemoryError as error:
        stop = table_does_not_fit(error)
        if stop is not None:
            raise stop from None
        return {**head, "board": board, "error": f"{item.id}: {out_of_memory_text()}"}
    return {**head, **_strip_timing(document)}


def _line_head(item: Item, asked: Mapping[str, Any] | None) -> dict[str, Any]:
    """The fields every output line of a record starts with: its id, its key and what the run asked."""
    head: dict[str, Any] = {"id": item.id, "key": item.key}
    if asked is not None:
        head["asked"] = asked
    return head


def error_line(item: Item, question: Question, error: str) -> Line:
    """The error line of a record that could not be solved for a reason of its worker's (``error`` follows its id)."""
    return Line(json_line({**_line_head(item, question.asked), "error": f"{item.id}: {error}"}), True)


def solve_chunk(items: list[Item], question: Question) -> list[Line]:
    """A chunk of records solved by one worker, as finished JSON lines (so the parent only writes them)."""
    try:
        engine = worker_engine()
    except MemoryError as error:  # the table does not fit: every record would say so, so the run stops
        stop = table_does_not_fit(error)
        if stop is None:  # a Dask worker short of memory: its records say so, the cluster's other workers go on
            return [error_line(item, question, out_of_memory_text()) for item in items]
        raise stop from None
    lines = []
    for item in items:
        document = solve_item(item, question, engine)
        lines.append(Line(json_line(document), "error" in document))
    return lines


def json_line(document: Mapping[str, Any]) -> str:
    return json_text(document, separators=(",", ":")) + "\n"


# --- the output file ----------------------------------------------------------------------------------------------


def done_ids(out_path: str | os.PathLike, asked: Mapping[str, Any] | None = None) -> set[str]:
    """The keys (:func:`record_key`) of the records already solved in the output, after trimming a half-written last
    line (a run killed while writing) and dropping the error lines, whose records are tried again (the cause may be
    gone: a worker's memory cap, a record mended, an objective that did not apply). The file is rewritten without
    them only when there are some, into a temporary file moved over it, so that an interruption leaves the old file
    or the new one.

    A file whose first line is not a batch line, a complete line that is none (edited by hand: kept, it would leave
    the file invalid JSON Lines for good), or lines that answer another question than ``asked`` (another input
    file, other objectives, cards or variant flags) are refused, with the line's number, before anything is
    changed."""
    scan = _scan_output(Path(out_path), asked)
    _tidy_output(Path(out_path), scan)
    if scan.torn:
        trim_partial_line(out_path)
    return scan.keys


class _OutputScan(NamedTuple):
    """What an output holds: the keys of its solved records, how many error lines, and, by input path, the keys
    of lines that answer this run's question of an input by another path (``elsewhere``; only when the scan
    was asked to collect them, else such lines are refused), and the length of its longest line in bytes (what
    the next line may need under a file size limit: :func:`~solver.checkpoint.room_refusal`), and of a half-written
    last line (``torn``), and how many solved lines repeat the key of one above them (``repeated``: outputs
    concatenated by hand), which a reader of the file would count twice."""

    keys: set[str]
    errors: int
    elsewhere: dict[str, set[str]]
    longest: int = 0
    torn: int = 0
    repeated: int = 0


def _scan_output(path: Path, asked: Mapping[str, Any] | None, moved: bool = False) -> _OutputScan:
    """The output read without changing it (:func:`done_ids` says what is refused); ``moved`` collects the lines of
    an input by another path instead of refusing them, for :func:`_check_moved` to judge."""
    if not path.exists() or not path.stat().st_size:
        return _OutputScan(set(), 0, {})
    _check_batch_output(path)
    keys: set[str] = set()
    elsewhere: dict[str, set[str]] = {}
    errors = longest = repeated = 0
    with open(path, "rb") as stream:
        for number, raw in _output_lines(stream):
            if raw is None:
                raise StichError(f"{shown_name(path)}:{number}: a line of more than {MAX_OUTPUT_LINE:,} bytes, not "
                                 "a stich batch line; remove the line (a rerun solves its record again) or choose "
                                 "another --out file")
            if not raw.endswith(b"\n"):
                break  # a half-written last line: trimmed later, once the question is known to be this one
            longest = max(longest, len(raw))
            document = _batch_line(raw)
            if document is None:
                column, fault = json_line_fault(raw, "id")
                fault = fault or 'no text "id"'  # read alike: not empty here
                raise StichError(f"{shown_name(path)}:{number}:{column}: not a stich batch line ({fault}; expected "
                                 "a result or an error line as JSON); remove the line (a rerun solves its record "
                                 "again) or choose another --out file")
            written: Any = document.get("asked")
            other_source = (moved and asked is not None and isinstance(written, dict)
                            and same_question_elsewhere(written, asked))
            if asked is not None and not other_source and not (isinstance(written, dict)
                                                               and same_question(written, asked)):
                if "asked" not in document:
                    raise StichError(f"{shown_name(path)}:{number}: this line does not say which question it "
                                     "answers (an output of an earlier stich); choose another --out file")
                raise StichError(f"{shown_name(path)}:{number}: this output answers {_describe(written)}, not "
                                 f"{_describe(asked)}; rerun with the same input and options, or choose another "
                                 f"--out file{_defaults_left_out(written, asked)}")
            if not isinstance(document.get("key"), str):
                raise StichError(f"{shown_name(path)}:{number}: this line has no key (an output of an earlier "
                                 "stich); choose another --out file")
            if "error" in document:
                errors += 1
            else:
                if document["key"] in keys:
                    repeated += 1
                keys.add(document["key"])
                if other_source:
                    elsewhere.setdefault(str(written["source"]), set()).add(document["key"])
    return _OutputScan(keys, errors, elsewhere, longest, torn_tail(path), repeated)


def _tidy_output(path: Path, scan: _OutputScan) -> None:
    """Drop the error lines, once the output is known to be this run's (a half-written last line is copied as it
    is: trimmed by the caller, once the run goes on)."""
    if not scan.errors:
        return
    try:
        _drop_error_lines(path)
    except OSError as error:
        if error.errno not in KEPT_ERRORS:
            raise
        # the rewrite is a copy beside the file, in its folder: the bare error would not say which step needed what
        lines = f"{scan.errors:,} error line" if scan.errors == 1 else f"{scan.errors:,} error lines"
        if error.errno in NOT_WRITABLE_ERRORS:
            needs, mend = "in its folder, which must be writable", "make the folder writable"
        else:
            needs, mend = "which needs room for a copy", write_error_fix(error.errno)
        raise StichError(f"{shown_name(path)}: {error.strerror} while dropping its {lines} (the file is written "
                         f"anew beside it, {needs}): nothing solved, its lines are kept; {mend} and rerun to "
                         "resume") from None


def _check_moved(source: str | os.PathLike, out_path: str | os.PathLike, scan: _OutputScan,
                 asked: Mapping[str, Any]) -> None:
    """Accept an output written for this question of an input by another path, and say so, when it is that input
    moved or copied (with the output beside it): every such line answers a record of ``source`` (records are
    recognised by their text, wherever the file is). Otherwise it is another file's output, refused, even under the
    same name: two files that share some records must not share an output. One pass over the input, only in that
    case."""
    wanted = set().union(*scan.elsewhere.values())
    lines = len(wanted)
    for item in read_items(source):
        wanted.discard(item.key)
        if not wanted:
            break
    old = ", ".join(sorted(scan.elsewhere))
    if wanted:
        first = sorted(scan.elsewhere)[0]
        missing = (f"none of its {lines:,} records is" if len(wanted) == lines
                   else f"{len(wanted):,} of its {lines:,} records {'is' if len(wanted) == 1 else 'are'} not")
        raise StichError(f"{shown_name(out_path)}: this output answers {_describe({**asked, 'source': first})}, not "
                         f"{_describe(asked)}, and {missing} in {shown_name(source)}; rerun with the same input, or "
                         "choose another --out file")
    warn_caller(checkpoint_note(out_path, f"answers written for {old}", "resumed",
                                f"{shown_name(asked['source'])} holds their records"))


def _defaults_left_out(written: Any, asked: Mapping[str, Any]) -> str:
    """The refusal's hint where the output asked this run's flags less those at their default, and some were: a
    stich before this one left such flags out of the question (``sagotrick=any_order tie_44=no_score`` written as
    ``tie_44=no_score``, one flag alone as no flags), so a rerun of the very command that wrote the output is refused,
    and the output may hold answers under those flags that no rerun can tell apart."""
    if not isinstance(written, Mapping):
        return ""
    flags = asked.get("variant") or {}
    kept = {key: value for key, value in flags.items() if not _at_default(key, value)}
    if len(kept) == len(flags) or (written.get("variant") or {}) != kept:
        return ""
    if {k: v for k, v in written.items() if k != "variant"} != {k: v for k, v in asked.items() if k != "variant"}:
        return ""
    return ("; if this output was written with these --variant flags, it was by an earlier stich, which left flags "
            "at their default out of the question: use a new --out (or delete this one) to solve them again")


def _describe(asked: Any) -> str:
    """A batch's question in words, for the message that refuses to mix two."""
    if not isinstance(asked, Mapping):
        return "another question"
    objectives = ", ".join(asked.get("objectives") or []) or "the default objectives"
    flags = ", ".join(f"{k}={v}" for k, v in (asked.get("variant") or {}).items()) or "no variant flags"
    cards = "with" if asked.get("cards") else "without"
    pot = f", pot {asked['pot']}" if asked.get("pot") is not None else ""
    return f"{asked.get('source')} ({objectives}, {cards} --cards, {flags}{pot})"


def _output_lines(stream: IO[bytes]) -> Iterator[tuple[int, bytes | None]]:
    """The lines of a batch output with their numbers, none held longer than :data:`MAX_OUTPUT_LINE`: a longer
    complete line is ``None`` (skipped in pieces, never read whole: an output edited by hand or a wrong ``--out``
    must not fill the memory), a longer last line without a line break its first piece (a half-written line)."""
    number = 0
    while raw := stream.readline(MAX_OUTPUT_LINE + 1):
        number += 1
        if len(raw) <= MAX_OUTPUT_LINE or raw.endswith(b"\n"):
            yield number, raw
            continue
        while piece := stream.readline(65536):
            if piece.endswith(b"\n"):
                yield number, None
                break
        else:
            yield number, raw[:MAX_OUTPUT_LINE]  # the file ends inside it


def _batch_line(raw: bytes) -> dict | None:
    """A line of a batch output as its document, or None for anything else."""
    try:
        document = json.loads(raw)
    except ValueError:
        return None
    return document if isinstance(document, dict) and isinstance(document.get("id"), str) else None


#: How a batch line starts, as json_line writes it (and earlier stich did).
BATCH_LINE_STARTS = (b'{"id":"', b'{"id": "')


def _check_batch_output(path: Path) -> None:
    """StichError unless the file starts with a batch line (or the start of one, if the first write was cut:
    :func:`~solver.checkpoint.unstarted_file`)."""
    with open(path, "rb") as stream:
        first = stream.readline(MAX_OUTPUT_LINE + 1)
    if _batch_line(first) is None and unstarted_file(path, BATCH_LINE_STARTS) is None:
        raise StichError(f"{shown_name(path)}: not a stich batch output (its first line is no result or error line); "
                         "choose another --out file")


def _drop_error_lines(path: Path) -> None:
    """Rewrite the output without its error lines (streamed, then moved over the old file in one step)."""
    with atomic_file(path, binary=True) as out, open(path, "rb") as stream:
        for raw in stream:
            document = _batch_line(raw)
            if document is None or "error" not in document:
                out.write(raw)


def read_items(source: str | os.PathLike | IO, name: str | None = None) -> Iterator[Item]:
    """Every record of the file with its id and key; a record too broken to read becomes an item carrying its
    error."""
    return _items_of(iter_records(source, name=name))


def _items_of(entries: Iterable[Record | ParseError]) -> Iterator[Item]:
    """Each of :func:`read_items`' ``entries`` (:func:`~solver.formats.tbn.iter_records`') as its item."""
    for entry in entries:
        if isinstance(entry, ParseError):
            identifier = record_id(entry.source, entry.record_line or entry.line, entry.record_board)
            yield Item(identifier, record_key(identifier, None, str(entry)), None, str(entry), entry.record_board)
        else:
            identifier = record_id(entry.source, entry.line, entry.get("Board"))
            yield Item(identifier, record_key(identifier, entry, None), entry, None)


def _chunks(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


#: About how long one local chunk should take: long enough that a task's overhead (a millisecond or so) does not
#: count, short enough that an interrupted run loses little solved work (what the workers' running chunks had done).
CHUNK_SECONDS = 0.5


class _TimedChunks:
    """Chunks of records sized to about CHUNK_SECONDS of one worker's work, at most ``most`` records, from the rate
    at which the writer has written lines so far (one record a chunk until the first lines are back). The clock
    starts when the first chunk is taken, so that a Dask run's connection and its wait for workers do not count as
    work; ``workers`` is a Dask cluster's worker threads once counted (:meth:`set_workers`)."""

    def __init__(self, items: Iterable[Item], most: int, workers: int) -> None:
        self.items = iter(items)
        self.most = most
        self.workers = workers
        self.start: float | None = None
        self.written = 0

    def wrote(self, count: int) -> None:
        self.written += count

    def set_workers(self, workers: int) -> None:
        self.workers = workers

    def size(self) -> int:
        if self.start is None:
            self.start = time.perf_counter()
        if not self.written:
            return 1
        per_record = (time.perf_counter() - self.start) * self.workers / self.written
        return max(1, min(self.most, int(CHUNK_SECONDS / max(per_record, 1e-6))))

    def __iter__(self) -> Iterator[list[Item]]:
        while chunk := list(islice(self.items, self.size())):
            yield chunk


class _OutputWriteError(Exception):
    """An output write's OSError, said as such (:func:`_output_full`), carried out of the runners to
    :func:`_solve_records` as no OSError, which no handler on the way takes for its own: only the writes' errors
    are the output file's, not any OSError met meanwhile (a Dask scheduler's has no file either)."""

    def __init__(self, cause: OSError) -> None:
        super().__init__(str(cause))
        self.cause = cause


def _output_full(error: OSError, out_path: str | os.PathLike, stream: bool) -> OSError:
    """A write's error (a full disk names no file) naming the output file and that the lines written stay; a stream
    (:func:`~solver.files.is_stream_output`: stdout, a pipe, a device) is never resumed, so its error says what a
    rerun does instead."""
    if error.filename is not None:
        return error
    if stream:
        kept = f"the lines before it were written to {_output_shown(out_path)}, a stream, which a rerun does not " \
            "resume: it solves every record again (an --out file is resumed)"
    else:
        kept = "the lines written so far are kept (a rerun with room trims a half-written last one): " \
            f"{write_error_fix(error.errno)} and rerun to resume"
    return type(error)(error.errno, f"{error.strerror}; {kept}", str(out_path))


@contextmanager
def _appended_to(out_path: str | os.PathLike, stream_output: bool) -> Iterator[IO[str]]:
    """The output, opened to append (an error opening it names it). Its closing writes what is still buffered (all
    of a write that failed): an output write too, unless the run already failed, whose error is then the one said,
    naming the output as given. Stdout's names (:data:`~solver.files.STDOUT_NAMES`) append to the descriptor
    already open (:data:`STDOUT_FILENO`), not to a name opened again, which a socket refuses."""
    if names_stdout(out_path):
        stream = os.fdopen(os.dup(STDOUT_FILENO), "a", encoding="utf-8")
    else:
        stream = open(out_path, "a", encoding="utf-8")
    try:
        yield stream
    except BaseException:
        with suppress(OSError):
            stream.close()
        raise
    try:
        stream.close()
    except OSError as error:
        raise _OutputWriteError(_output_full(error, out_path, stream_output)) from None


class _Writer:
    """Appends lines to the output, flushing each, and counts them for the summary and the progress display. A write
    error names the output ``name`` (as given: ``-`` for stdout), or else the stream's."""

    def __init__(self, stream: IO[str], total: int, progress: BatchProgress | None,
                 on_error: Callable[[str], None] | None = None, name: str | os.PathLike | None = None,
                 stream_output: bool = False) -> None:
        self.stream = stream
        self.stream_output = stream_output  # the output is a stream (stdout, a pipe), which a rerun never resumes
        self.name = name
        self.total = total
        self.progress = progress
        self.on_error = on_error
        self.solved = 0
        self.errors = 0
        self.notes: dict[str, int] = {}  # each note of the lines written: how many carry it
        self.note_games: dict[str, str] = {}  # each note's game, of the first line that carries it
        self.note_lines: dict[str, tuple[int, str]] = {}  # each note's first record in the file: its line and place
        self.chunks: _TimedChunks | None = None  # told how many lines are written, to size the next chunks

    def write_chunk(self, chunk: list[Item], lines: Iterable[Line]) -> None:
        """A pool's ``on_result``: the lines of a chunk that is back."""
        self.write(lines)

    def _note_place(self, note: str, record: dict[str, Any]) -> None:
        """Keeps ``record``'s place for ``note`` where it is the first in the file that carries it so far (a pool's
        chunks come back in any order)."""
        if not isinstance(record.get("line"), int):
            return
        if note not in self.note_lines or record["line"] < self.note_lines[note][0]:
            self.note_lines[note] = (record["line"], f"{record.get('source')}:{record['line']}")

    def write(self, lines: Iterable[Line]) -> None:
        for line, is_error in lines:
            if self.chunks is not None:
                self.chunks.wrote(1)
            try:
                self.stream.write(line)
                self.stream.flush()
            except OSError as error:
                named = self.stream.name if self.name is None else self.name
                raise _OutputWriteError(_output_full(error, named, self.stream_output)) from None
            if is_error:
                self.errors += 1
                if self.on_error is not None:
                    self.on_error(json.loads(line)["error"])
            else:
                self.solved += 1
                if '"notes":' in line:
                    document = json.loads(line)
                    for note in document.get("notes", ()):
                        self.notes[note] = self.notes.get(note, 0) + 1
                        self.note_games.setdefault(note, document.get("game") or "")
                        self._note_place(note, document.get("record") or {})
            if self.progress is not None:
                self.progress(self.solved + self.errors, self.total)


# --- runners -----------------------------------------------------------------------------------------------------


def _run_pool(chunks: Iterable[list[Item]], question: Question, writer: _Writer, workers: int,
              task: Callable[..., Any] | None = None, memory_mb: int | None = None,
              table_mb: int | None = None) -> None:
    """Chunks of records on local worker processes (:func:`solver.workers.run_pool`), each written as soon as it is
    back. A record whose worker dies whenever it is solved, alone, gets an error line instead of stopping the run."""

    def failed(chunk: list[Item]) -> list[Line]:
        return [error_line(item, question, "its worker process died twice while solving it alone (killed from "
                                           "outside, or out of memory beyond any limit given)") for item in chunk]

    run_pool(chunks, task or solve_chunk, (question,), writer.write_chunk, workers, memory_mb,
             split=lambda chunk: [[item] for item in chunk], failed=failed, table_mb=table_mb)


def solve_batch(source: str | os.PathLike, out_path: str | os.PathLike, *, objectives: Sequence[str] | None = None,
                cards: bool = False, workers: int | None = None, scheduler: str | None = None, chunk_size: int = 20,
                variant: Mapping[str, object] | None = None, progress: BatchProgress | None = None,
                memory_mb: int | None = None, on_error: Callable[[str], None] | None = None,
                worker_wait: float = DEFAULT_WORKER_WAIT_SECONDS, notify: Notify | None = None,
                verbose: bool = False, table_mb: int | None = None, pot: int | None = None) -> BatchSummary:
    """Solve every record of ``source`` into ``out_path`` (JSON Lines), resuming what an earlier run left.

    Each line is ``{"id": "file:line#board", ...}`` followed by the ``stich solve --json`` document of the record
    (without timings), or ``{"id": ..., "error": "file:line:col: message"}`` for a bad record, which does not stop
    the others. ``objectives`` None answers each game's default (the score beside points; in a game
    without them beside every seat's tricks).
    ``workers`` processes (default: every local core; 1 solves in this process unless ``memory_mb`` asks for a
    capped worker), or the Dask cluster at ``scheduler``. ``memory_mb`` caps each local worker process (see the
    module docstring); ``table_mb`` sizes its two tables (None: the default; each at most an eighth of ``memory_mb``).
    ``progress`` is called once what is left is counted (0 written) and after every line written; with it the file
    is read twice, first to count what is left to do. ``on_error`` is called with each error line's message as it is
    written. On a Dask cluster without workers the run waits ``worker_wait`` seconds for one (telling ``notify``),
    then gives up with a StichError; Dask's own log reaches stderr only when ``verbose``. ``pot`` (chips) stands for
    the ``[Pot]`` tag of each record of a game paid from one (Kratzen); the other games' records have none and do not
    use it.

    Every line carries the record's ``key`` (:func:`record_key`) and what the run ``asked`` (the input file's real
    path, objectives, cards, variant flags): a rerun skips the keys already solved and refuses an output written
    for another question, though not for the same question of the same file moved (:func:`_check_moved`). What the
    run says of the output's lines (that question moved, lines repeated, an output of no work written afresh) is a
    :class:`~solver.errors.StichWarning` (:func:`~solver.checkpoint.checkpoint_note`), as a checkpoint's is; a
    second run on an output in use is refused too (:func:`solver.files.locked_while_written`). The
    summary counts the duplicates of a record above and the lines that answer no record of the file any more.
    ``source`` is read more than once (to count, to judge an output written for another path, on a rerun), so one
    that can be read only once (a named pipe, /dev/stdin on a pipe, a device) is refused before it is opened.
    An ``out_path`` that names stdout (``-``, ``/dev/stdout``: :data:`~solver.files.STDOUT_NAMES`), a pipe or a device
    (/dev/tty) is a stream: the lines are written as they come, and nothing is read from it, resumed, rewritten or
    locked."""
    if not is_whole_number(chunk_size) or not 1 <= chunk_size <= MAX_CHUNK_SIZE:
        raise StichError(f"chunk_size must be a whole number from 1 to {MAX_CHUNK_SIZE:,}, not {chunk_size!r}")
    for name, path in (("source", source), ("out_path", out_path)):
        if not isinstance(path, (str, os.PathLike)):
            raise StichError(f"{name} must be a file path, not {type(path).__name__}")
    if (kind := read_once_kind(source)) is not None:  # read again to count what is left, and on a rerun to resume
        raise StichError(f"{shown_name(source)}: {kind}, not a regular file: batch reads its input more than once "
                         f"(to count what is left, and again on a rerun to resume), which {kind} gives only once; "
                         "save the records to a file and run batch on it")
    if os.path.exists(out_path) and os.path.exists(source) and os.path.samefile(source, out_path):
        raise StichError(f"{shown_name(out_path)}: the results would be appended to the deal file being read; "
                         "choose another output file")
    if isinstance(objectives, str):  # one name, not its letters
        objectives = [objectives]
    if isinstance(variant, str):
        variant = Variant.parse_pairs(variant)
    objectives = check_question_of_batch(objectives, cards, variant)
    if pot is not None:
        read_pot(None, pot)  # a whole number in range, before the output is opened
    pool = Pool(workers, scheduler, memory_mb, worker_wait, notify, verbose, table_mb)
    for name, callback in (("progress", progress), ("on_error", on_error)):
        check_callback(callback, name)
    start = time.perf_counter()
    asked = asked_of(source, objectives, cards, variant, pot)
    if is_stream_output(out_path):
        # a stream (stdout, a pipe, /dev/tty): nothing to resume from, tidy or lock (a file stdout appends to would be
        # read and replaced)
        question = Question(objectives, cards, dict(variant) if variant else None, asked, pot)
        return _solve_records(source, out_path, set(), question, pool, chunk_size, progress, start, on_error,
                              stream=True)
    # the run's lock on its output; a run that leaves no output (an empty or unreadable input) leaves no lock file
    with locked_while_written(out_path, "stich batch"):
        new = not os.path.exists(out_path)
        try:
            remove_stale_temporaries(out_path)  # a rewrite killed half way (the lock says no run is at work on it)
            scan = _scan_output(Path(out_path), asked, moved=True)
            if scan.elsewhere:
                _check_moved(source, out_path, scan, asked)
            _tidy_output(Path(out_path), scan)
            refusal = room_refusal(out_path, scan.longest, scan.torn, "nothing solved", "another --out file")
            # before any record is solved for nothing, its lines kept; a complete output has nothing to write
            if refusal is not None and not _answers_every_record(source, scan.keys):
                raise StichError(refusal)
            if not new and os.path.isfile(out_path) \
                    and (unstarted := unstarted_file(out_path, BATCH_LINE_STARTS)) is not None:
                warn_caller(no_work_note(out_path, unstarted))
            if scan.repeated:
                warn_caller(repeated_text(out_path, scan.repeated))
            if scan.torn:
                trim_partial_line(out_path)
            question = Question(objectives, cards, dict(variant) if variant else None, asked, pot)
            summary = _solve_records(source, out_path, scan.keys, question, pool, chunk_size, progress, start, on_error)
            if (stale := stale_text(summary)) is not None:
                warn_caller(stale)
            return replace(summary, repeated=scan.repeated)
        finally:
            if new and os.path.isfile(out_path) and not os.path.getsize(out_path):
                os.unlink(out_path)  # nothing was written (an input without records): leave no empty file behind


def repeated_text(out_path: str | os.PathLike, repeated: int) -> str:
    """What a run says of an output whose solved lines repeat a record's key (two outputs concatenated): the run
    counts each record once, a reader of the file would count it twice."""
    lines = "1 line" if repeated == 1 else f"{repeated:,} lines"
    return checkpoint_note(out_path, f"{lines} repeating the key of a line above", "kept",
                           "a reader of the file counts those records twice",
                           "keep the first line of each key, or write to a new file")


def _answers_every_record(source: str | os.PathLike, done: set[str]) -> bool:
    """Whether every record of ``source`` is solved in the output (its keys ``done``): a rerun of a finished batch,
    which writes nothing and so needs no room. One pass over the input, asked only when there is no room."""
    return all(item.key in done for item in read_items(source))


def check_question_of_batch(objectives: Sequence[str] | None, cards: object,
                            variant: Mapping[str, object] | None) -> tuple[str, ...] | None:
    """The objectives as names read (``Valat`` is ``valat``), after refusing, before the output is opened, a question
    that no record could answer: a file may mix games, so an objective or variant flag need only be some game's, but
    a typo or a wrong type would otherwise fill the output with one error line per record, and the output would
    then answer that question for good."""
    check_flag("cards", cards)
    names = None
    if objectives is not None:
        if not is_token_list(objectives):
            raise StichError(f"objectives are names (strings), not {objectives!r}")
        names = tuple(dict.fromkeys(name.strip().lower() for name in objectives))  # each once, as solve asks
        known = {name for game in GAMES for name in game.objectives} | {"all", "score"}
        for given in objectives:
            if (name := given.strip().lower()) not in known:
                raise StichError(f"objective {given!r} is no game's{objective_meant(name, sorted(known))} (the "
                                 f"objectives: {', '.join(sorted(known))})")
    if variant is not None:
        if not isinstance(variant, Mapping):
            raise StichError(f"variant must be flags (a mapping or 'NAME=VALUE, ...' text), not {variant!r}")
        check_flags_of_some_game(variant)
    return names


#: The descriptor ``--out -`` appends to: stdout's, whose lines a reader gets as they come.
STDOUT_FILENO = 1


def _solve_records(source: str | os.PathLike, out_path: str | os.PathLike, done: set[str], question: Question,
                   pool: Pool, chunk_size: int, progress: BatchProgress | None, start: float,
                   on_error: Callable[[str], None] | None = None, stream: bool = False) -> BatchSummary:
    """The records of ``source`` whose keys are not ``done`` (solved in the output), solved and appended to
    ``out_path`` (a ``stream``, :func:`~solver.files.is_stream_output`, or a file). The keys met in the file move
    from ``done`` to ``met``, so that what is left in ``done`` at the end is the lines that answer no record of the
    file, without a second set of them."""
    total = 0
    if progress is not None:
        counted: set[str] = set()
        for item in read_items(source):
            if item.key not in done:
                counted.add(item.key)
        total = len(counted)
        del counted
        progress(0, total)  # counted: the display can say how many are left before the first is solved
    met: set[str] = set()
    seen = [0, 0, 0]  # records read, records already done, duplicates of a record above

    reading = iter_records(source)  # its comments_alone, once read, go to the summary

    def todo() -> Iterator[Item]:
        for item in _items_of(reading):
            seen[0] += 1
            if item.key in done:
                done.discard(item.key)
                met.add(item.key)
                seen[1] += 1
            elif item.key in met:
                seen[2] += 1  # the same record again later in the file: one line answers both
            else:
                met.add(item.key)
                yield item

    try:
        with _appended_to(out_path, stream) as appended:
            writer = _Writer(appended, total, progress, on_error, out_path, stream)
            if pool.scheduler:  # chunks timed as a local pool's, by the cluster's threads once counted
                writer.chunks = _TimedChunks(todo(), chunk_size, pool.spread_over)
                pool.run(iter(writer.chunks), solve_chunk, (question,), writer.write_chunk,
                         on_threads=writer.chunks.set_workers)
            else:
                count = local_workers(pool.workers)
                items = todo()
                first = list(islice(items, chunk_size + 1))  # one chunk's worth or less: not worth a pool
                if (count == 1 or len(first) <= chunk_size) and pool.memory_mb is None:
                    # in this process a record costs no task overhead: each line is written when it is done
                    run_serial(([item] for item in chain(first, items)), solve_chunk, (question,), writer.write_chunk,
                               pool.table_mb, serial_threads(pool.workers))
                else:
                    writer.chunks = _TimedChunks(chain(first, items), chunk_size, count)
                    _run_pool(iter(writer.chunks), question, writer, count, memory_mb=pool.memory_mb,
                              table_mb=pool.table_mb)
    except _OutputWriteError as error:
        raise error.cause from None
    return BatchSummary(seen[0], seen[1], writer.solved, writer.errors, time.perf_counter() - start,
                        duplicates=seen[2], stale=len(done), stale_ids=_ids_of(out_path, done),
                        source=os.fspath(source), out=os.fspath(out_path), notes=tuple(writer.notes.items()),
                        note_games=tuple(writer.note_games.items()),
                        note_places=tuple((note, place) for note, (_, place) in writer.note_lines.items()),
                        comments_alone=tuple(reading.comments_alone), lines_read=reading.lines_read,
                        stream=stream)


#: How many ids of stale lines a summary names.
STALE_IDS_NAMED = 3


def _ids_of(out_path: str | os.PathLike, keys: set[str]) -> tuple[str, ...]:
    """The ids of the first few lines of the output whose keys are ``keys`` (none read when there are none)."""
    ids: list[str] = []
    if not keys:
        return ()
    with open(out_path, "rb") as stream:
        for raw in stream:
            document = _batch_line(raw)
            if document is not None and document.get("key") in keys and "error" not in document:
                ids.append(document["id"])
                if len(ids) == STALE_IDS_NAMED:
                    break
    return tuple(ids)


__all__ = ["BatchSummary", "done_ids", "record_id", "solve_batch"]
