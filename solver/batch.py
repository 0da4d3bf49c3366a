"""Batch solving: every record of a ``.tbn`` file, one JSON line per record, resumable and parallel.

Why it is shaped like this (docs/batch.md, measurements in /work/shared/NOTES.md):

* Each result is appended to the output as one JSON line and flushed as soon as it is done, so a run killed at any
  moment (even with ``kill -9``) loses at most the line being written. On a rerun the half-written last line is
  trimmed and every record already solved in the file (by its key, a digest of its text) is skipped: a finished
  record is never solved twice. Error lines are dropped and their records tried again. Every line says what the run
  asked, and a rerun asking something else of the same output is refused; a lock keeps a second run off it.
* Records are solved in chunks, each about half a second of one worker's work (at most ``chunk_size`` records; the
  first chunks one record each, until the rate is known): a few milliseconds of compiled work per deal is far less
  than a task's overhead, and an interrupted run loses at most what its running chunks had solved. Each worker keeps
  one :class:`~solver.search.engine.EngineSolver` (its table memory is allocated once, not once per deal). Without
  a pool (one worker) every record's line is written when it is done.
* Local parallelism uses :class:`concurrent.futures.ProcessPoolExecutor` (no extra dependency). Its workers watch
  their parent and exit when it dies, since a killed driver would otherwise leave them orphaned. A Dask cluster
  (``scheduler="tcp://host:port"``) runs the same chunks on other machines.
* Input and output are streamed: the input file is read record by record (twice when a progress display needs the
  total), and the ids already done are scanned line by line, so a file of any size never sits in memory at once.
* ``memory_mb`` bounds each worker process: its address space is capped with ``RLIMIT_AS`` and its transposition
  table sized to fit (a quarter of the limit, at most the default). A record that still runs out of memory is
  written as an error line and the others go on. On a Dask cluster the workers' own ``--memory-limit`` applies, and
  each task sizes its table from it the same way.
* Every value is exact and independent of the order in which deals are solved, so the lines are the same whatever
  the number of workers (only their order differs); timings and node counts are left out for that reason.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from itertools import chain, islice
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator, Mapping, Sequence

from .analysis import solve_report
from .errors import InvalidDealError, ParseError, StichError, is_token_list, is_whole_number
from .files import atomic_file, lock_beside, remove_stale_temporaries
from .formats.tbn import Record, format_record, iter_records
from .games import GAMES
from .position import Position, position_from_record
from .search.boundary import check_flag
from .search.engine import EngineSolver, table_megabytes
from .variant import Variant, value_text

#: Called after each written line with (lines written in this run, lines this run has to write).
BatchProgress = Callable[[int, int], None]

#: One unit of work: the record's id, its key (:func:`record_key`) and the record (None for a record too broken to
#: read, with its error).
Item = tuple[str, str, Record | None, str | None]

_PARENT_POLL_SECONDS = 0.5
_local = threading.local()
#: The smallest worker memory limit accepted: a spawned worker maps some 115 MB of address space (the interpreter,
#: numpy, the compiled package) before its table, which must fit in what is left (153 MB was the least that ran).
MIN_WORKER_MEMORY_MB = 256
MAX_WORKER_MEMORY_MB = 1 << 30  # 1 PiB: in bytes it still fits setrlimit's C long
MAX_CHUNK_SIZE = 1_000_000
#: The table size of this process's worker engines (set by the worker initializer under a memory limit).
_worker_tt_megabytes: int | None = None


@dataclass(frozen=True)
class BatchSummary:
    """What a run did: records in the file, already done before it started, solved now, written as errors now."""

    records: int
    skipped: int
    solved: int
    errors: int
    seconds: float

    @property
    def written(self) -> int:
        return self.solved + self.errors

    def as_dict(self) -> dict[str, Any]:
        return {"records": self.records, "skipped": self.skipped, "solved": self.solved, "errors": self.errors,
                "seconds": round(self.seconds, 3)}


# --- workers ---------------------------------------------------------------------------------------------------


def worker_engine() -> EngineSolver:
    """The engine of this worker (thread), created on first use and kept between chunks: allocating the table once
    per worker instead of once per deal. Thread-local because a Dask worker may run several tasks at once."""
    engine = getattr(_local, "engine", None)
    if engine is None:
        size = _worker_tt_megabytes or _dask_tt_megabytes()
        engine = _local.engine = EngineSolver(size) if size else EngineSolver()
    return engine


def table_megabytes_for(memory_mb: int, engines: int = 1) -> int:
    """The table size that keeps ``engines`` engines within a ``memory_mb`` limit: a quarter of the limit shared
    between them (the rest is for the interpreter, the records and the search), at most the default size."""
    return max(1, min(table_megabytes(), memory_mb // (4 * max(1, engines))))


def _dask_tt_megabytes() -> int | None:
    """Inside a Dask worker with a memory limit: the table size that fits it (one engine per worker thread)."""
    if "distributed" not in sys.modules:  # not in a Dask worker (which has it imported): spare the 0.4 s import
        return None
    try:
        from distributed import get_worker
        worker = get_worker()
    except (ImportError, ValueError):
        return None
    limit = worker.memory_manager.memory_limit
    if not limit:
        return None
    return table_megabytes_for(int(limit) // (1 << 20), worker.state.nthreads)


def check_memory_limit(memory_mb: int | None) -> int | None:
    """``memory_mb`` if it is a usable worker limit (None: no limit)."""
    if memory_mb is not None and (not is_whole_number(memory_mb)
                                  or not MIN_WORKER_MEMORY_MB <= memory_mb <= MAX_WORKER_MEMORY_MB):
        raise StichError(f"the worker memory limit must be {MIN_WORKER_MEMORY_MB} to {MAX_WORKER_MEMORY_MB:,} MB, "
                         f"not {memory_mb}")
    return memory_mb


def _watch_parent(parent: int) -> None:
    """Exit when the parent process is gone (it was killed with -9 and cannot shut the pool down)."""
    while True:
        time.sleep(_PARENT_POLL_SECONDS)
        if os.getppid() != parent:
            os._exit(1)


def init_worker(parent: int, memory_mb: int | None = None) -> None:
    """Pool worker setup: Ctrl-C is the parent's business (it stops the pool), the worker must not outlive a
    parent killed without a chance to stop it, and under a memory limit its address space is capped and its table
    sized to fit."""
    global _worker_tt_megabytes
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the command's SIGTERM handler, which would let it outlive the pool's terminate()
    # while it is blocked writing a large result into a full pipe (the run then never exits).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="stich-parent-watch").start()
    if memory_mb is not None:
        import resource
        limit = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        _worker_tt_megabytes = table_megabytes_for(memory_mb)


def process_pool(workers: int, memory_mb: int | None = None) -> ProcessPoolExecutor:
    """A process pool whose workers ignore SIGINT, exit with their parent and keep within ``memory_mb``.

    Capped workers are started fresh (``spawn``) rather than forked: a forked worker would begin with all of its
    parent's address space (and its engine), counted against the cap before it solves anything."""
    context = multiprocessing.get_context("spawn") if memory_mb is not None else None
    return ProcessPoolExecutor(max_workers=workers, initializer=init_worker, initargs=(os.getpid(), memory_mb),
                               mp_context=context)


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: queued chunks are cancelled and running ones abandoned (their results would be
    recomputed by a rerun, since nothing of them was written)."""
    pool.shutdown(wait=False, cancel_futures=True)
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(1.0)
        if process.is_alive():  # still alive a second after SIGTERM: not going to stop by itself
            process.kill()


def local_workers(workers: int | None) -> int:
    """The number of worker processes: all local cores (the ones this process may use) unless told."""
    if workers is not None:
        if not is_whole_number(workers) or workers < 1:
            raise StichError(f"workers must be a whole number of at least 1, not {workers!r}")
        return workers
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


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
             variant: Mapping[str, object] | None) -> dict[str, Any]:
    """The question a batch answers, written on every line: a rerun on the same output must ask the same of the same
    file, or it would mix answers to different questions in one file."""
    return {"source": os.path.realpath(source), "objectives": list(objectives) if objectives is not None else None,
            "cards": cards, "variant": canonical_variant(variant)}


def canonical_variant(variant: Mapping[str, object] | None) -> dict[str, str] | None:
    """``--variant`` flags as a batch line records them: names in lower case, each value as the games that have the
    flag read it (``TRUE`` and ``yes`` are ``true``), and a flag at its default in every such game left out, so that
    one question spelt two ways is one question. A flag no game reads the value of is kept as given: each record
    refuses it."""
    canonical: dict[str, str] = {}
    for name, value in (variant or {}).items():
        key = str(name).strip().lower()
        readings = []
        for game in GAMES:
            flag = game.flags.get(key)
            if flag is None:
                continue
            try:
                readings.append((flag.parse(value), flag.default))
            except StichError:
                readings = []
                break
        if not readings or any(reading != readings[0] for reading in readings):
            canonical[key] = str(value)
        elif readings[0][0] != readings[0][1]:
            canonical[key] = value_text(readings[0][0])
    return dict(sorted(canonical.items())) or None


def same_question(written: Mapping[str, Any], asked: Mapping[str, Any]) -> bool:
    """Whether a line's ``asked`` is this run's question (its variant compared as :func:`canonical_variant` reads
    it, so that the lines of earlier stich, which kept the flags as typed, still match)."""
    if {k: v for k, v in written.items() if k != "variant"} != {k: v for k, v in asked.items() if k != "variant"}:
        return False
    return canonical_variant(written.get("variant")) == canonical_variant(asked.get("variant"))


def solve_item(item: Item, objectives: Sequence[str] | None, cards: bool,
               variant: Mapping[str, object] | None, engine: EngineSolver,
               asked: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The output line of one record: its solve report, or its error as ``file:line:col: message``."""
    identifier, _, record, failure = item
    head = _line_head(item, asked)
    if record is None:
        return {**head, "error": failure}
    board = record.get("Board")
    try:
        position = position_from_record(record, variant=variant)
    except StichError as error:
        return {**head, "board": board, "error": str(error)}
    try:
        document = solve_report(position, objectives, cards, engine=engine)
    except StichError as error:
        return {**head, "board": board, "error": _located(error, position)}
    except MemoryError:
        return {**head, "board": board, "error": f"{identifier}: out of memory within the worker's limit"}
    return {**head, **_strip_timing(document)}


def _line_head(item: Item, asked: Mapping[str, Any] | None) -> dict[str, Any]:
    """The fields every output line of a record starts with: its id, its key and what the run asked."""
    head: dict[str, Any] = {"id": item[0], "key": item[1]}
    if asked is not None:
        head["asked"] = asked
    return head


def solve_chunk(items: list[Item], objectives: Sequence[str] | None, cards: bool,
                variant: Mapping[str, object] | None,
                asked: Mapping[str, Any] | None = None) -> list[tuple[str, bool]]:
    """A chunk of records solved by one worker, as finished JSON lines (so the parent only writes them), each with
    whether it reports an error."""
    try:
        engine = worker_engine()
    except MemoryError:  # the table does not fit in the worker's limit: every record of the chunk says so
        return [(json_line({**_line_head(item, asked), "error": f"{item[0]}: out of memory within the worker's limit "
                                                                "(its transposition table could not be allocated)"}),
                 True) for item in items]
    lines = []
    for item in items:
        document = solve_item(item, objectives, cards, variant, engine, asked)
        lines.append((json_line(document), "error" in document))
    return lines


def json_line(document: Mapping[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"


# --- the output file ----------------------------------------------------------------------------------------------


def done_ids(out_path: str | os.PathLike, asked: Mapping[str, Any] | None = None) -> set[str]:
    """The keys (:func:`record_key`) of the records already solved in the output (the ids of lines written before
    there were keys), after trimming a half-written last line (a run killed while writing) and dropping the error
    lines, whose records are tried again (the cause may be gone: a worker's memory cap, a record mended, an
    objective that did not apply). The file is rewritten without them only when there are some, into a temporary
    file moved over it, so that an interruption leaves the old file or the new one.

    A file whose first line is not a batch line, a complete line that is none (edited by hand: kept, it would leave
    the file invalid JSON Lines for good), or lines that answer another question than ``asked`` (another input
    file, other objectives, cards or variant flags) are refused, with the line's number, before anything is
    changed."""
    path = Path(out_path)
    if not path.exists() or not path.stat().st_size:
        return set()
    _check_batch_output(path)
    keys: set[str] = set()
    errors = 0
    with open(path, "rb") as stream:
        for number, raw in enumerate(stream, 1):
            if not raw.endswith(b"\n"):
                break  # a half-written last line: trimmed below, once the question is known to be this one
            document = _batch_line(raw)
            if document is None:
                raise StichError(f"{path}:{number}: not a stich batch line (a result or an error line as JSON); "
                                 "remove the line (a rerun solves its record again) or choose another --out file")
            if asked is not None and not (isinstance(document.get("asked"), dict)
                                          and same_question(document["asked"], asked)):
                if "asked" not in document:
                    raise StichError(f"{path}:{number}: this line does not say which question it answers (an "
                                     "output of an earlier stich); choose another --out file")
                raise StichError(f"{path}:{number}: this output answers {_describe(document['asked'])}, not "
                                 f"{_describe(asked)}; rerun with the same input and options, or choose another "
                                 "--out file")
            if "error" in document:
                errors += 1
            else:
                keys.add(document.get("key") or document["id"])
    trim_partial_line(path)
    if errors:
        _drop_error_lines(path)
    return keys


def _describe(asked: Mapping[str, Any]) -> str:
    """A batch's question in words, for the message that refuses to mix two."""
    if not isinstance(asked, Mapping):
        return "another question"
    objectives = ", ".join(asked.get("objectives") or []) or "the default objectives"
    flags = ", ".join(f"{k}={v}" for k, v in (asked.get("variant") or {}).items()) or "no variant flags"
    cards = "with" if asked.get("cards") else "without"
    return f"{asked.get('source')} ({objectives}, {cards} --cards, {flags})"


def _batch_line(raw: bytes) -> dict | None:
    """A line of a batch output as its document, or None for anything else."""
    try:
        document = json.loads(raw)
    except ValueError:
        return None
    return document if isinstance(document, dict) and isinstance(document.get("id"), str) else None


def _check_batch_output(path: Path) -> None:
    """StichError unless the file starts with a batch line (or the start of one, if the first write was cut)."""
    with open(path, "rb") as stream:
        first = stream.readline()
    if _batch_line(first) is None and not (b"\n" not in first and first.startswith((b'{"id":"', b'{"id": "'))):
        raise StichError(f"{path}: not a stich batch output (its first line is no result or error line); "
                         "choose another --out file")


def _drop_error_lines(path: Path) -> None:
    """Rewrite the output without its error lines (streamed, then moved over the old file in one step)."""
    with atomic_file(path, binary=True) as out, open(path, "rb") as stream:
        for raw in stream:
            document = _batch_line(raw)
            if document is None or "error" not in document:
                out.write(raw)


def trim_partial_line(path: Path) -> None:
    """Cut a half-written last line (a run killed while writing it), reading only the file's tail."""
    with open(path, "r+b") as stream:
        size = end = stream.seek(0, os.SEEK_END)
        while end > 0:
            start = max(0, end - 65536)
            stream.seek(start)
            newline = stream.read(end - start).rfind(b"\n")
            if newline >= 0:
                end = start + newline + 1
                break
            end = start
        if end != size:
            stream.truncate(end)


def read_items(source: str | os.PathLike | IO, name: str | None = None) -> Iterator[Item]:
    """Every record of the file with its id and key; a record too broken to read becomes an item carrying its
    error."""
    for entry in iter_records(source, name=name):
        if isinstance(entry, ParseError):
            identifier = record_id(entry.source, entry.record_line or entry.line, None)
            yield identifier, record_key(identifier, None, str(entry)), None, str(entry)
        else:
            identifier = record_id(entry.source, entry.line, entry.get("Board"))
            yield identifier, record_key(identifier, entry, None), entry, None


def _chunks(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


#: About how long one local chunk should take: long enough that a task's overhead (a millisecond or so) does not
#: count, short enough that an interrupted run loses little solved work (what the workers' running chunks had done).
CHUNK_SECONDS = 0.5


class _TimedChunks:
    """Chunks of records sized to about CHUNK_SECONDS of one worker's work, at most ``most`` records, from the rate
    at which the writer has written lines so far (one record a chunk until the first lines are back)."""

    def __init__(self, items: Iterable[Item], most: int, workers: int) -> None:
        self.items = iter(items)
        self.most = most
        self.workers = workers
        self.start = time.perf_counter()
        self.written = 0

    def wrote(self, count: int) -> None:
        self.written += count

    def size(self) -> int:
        if not self.written:
            return 1
        per_record = (time.perf_counter() - self.start) * self.workers / self.written
        return max(1, min(self.most, int(CHUNK_SECONDS / max(per_record, 1e-6))))

    def __iter__(self) -> Iterator[list[Item]]:
        while chunk := list(islice(self.items, self.size())):
            yield chunk


class _Writer:
    """Appends lines to the output, flushing each, and counts them for the summary and the progress display."""

    def __init__(self, stream: IO[str], total: int, progress: BatchProgress | None,
                 on_error: Callable[[str], None] | None = None) -> None:
        self.stream = stream
        self.total = total
        self.progress = progress
        self.on_error = on_error
        self.solved = 0
        self.errors = 0
        self.chunks: _TimedChunks | None = None  # told how many lines are written, to size the next chunks

    def write(self, lines: Iterable[tuple[str, bool]]) -> None:
        for line, is_error in lines:
            if self.chunks is not None:
                self.chunks.wrote(1)
            self.stream.write(line)
            self.stream.flush()
            if is_error:
                self.errors += 1
                if self.on_error is not None:
                    self.on_error(json.loads(line)["error"])
            else:
                self.solved += 1
            if self.progress is not None:
                self.progress(self.solved + self.errors, self.total)


# --- runners -----------------------------------------------------------------------------------------------------


def _run_serial(parts: Iterable[Iterable[Item]], args: tuple, writer: _Writer) -> None:
    for part in parts:
        for item in part:  # in this process a record costs no task overhead: each line is written when it is done
            writer.write(solve_chunk([item], *args))


#: How many times in a row a local run replaces a broken pool (a worker that died) with no job finished in between
#: before it gives up: then the workers cannot run at all.
MAX_POOL_RESTARTS = 5


def run_pool(jobs: Iterable[Any], task: Callable[..., Any], args: tuple, on_result: Callable[[Any, Any], None],
             workers: int, memory_mb: int | None = None, split: Callable[[Any], list[Any]] | None = None,
             failed: Callable[[Any], Any] | None = None) -> None:
    """``task(job, *args)`` for every job on local worker processes, about 4 per worker in flight, each result
    handed to ``on_result(job, result)`` as soon as it is back.

    A worker that dies (killed, out of memory) breaks the whole pool: the jobs that were in flight are then
    submitted again to a new pool, so the results stay complete and, since a job's result is only handed on when it
    is whole, without duplicates. A job that was in flight at two breaks is a suspect: it is cut into parts
    (``split``, else kept whole) that then run one at a time with nothing beside them, so that a job that kills
    its worker is told from its neighbours; one that dies twice alone is handed to ``failed`` for its result (a
    batch's error lines), or without ``failed`` ends the run with a StichError. The pool is given up after
    MAX_POOL_RESTARTS breaks in a row with no job finished between them.
    """
    iterator = iter(jobs)
    retry: list[tuple[Any, int]] = []  # jobs to submit again, with the breaks they were in flight at
    suspects: deque[tuple[Any, int]] = deque()  # parts to run alone, with the times they died alone
    barren = 0  # breaks since a job last finished
    pool = process_pool(workers, memory_mb)
    try:
        pending: dict[Future, tuple[Any, int, bool]] = {}  # job, its count, whether it runs alone
        while True:
            if suspects:
                if not pending:
                    job, deaths = suspects.popleft()
                    pending[pool.submit(task, job, *args)] = (job, deaths, True)
            else:
                while len(pending) < 4 * workers:
                    job, count = retry.pop() if retry else (next(iterator, None), 0)
                    if job is None:
                        break
                    pending[pool.submit(task, job, *args)] = (job, count, False)
            if not pending:
                break
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            victims = []
            for future in done:
                entry = pending.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    victims.append(entry)
                    continue
                barren = 0
                on_result(entry[0], result)
            if not victims:
                continue
            barren += 1
            if barren > MAX_POOL_RESTARTS:
                raise StichError(f"worker processes died {barren} times in a row without finishing anything; "
                                 "giving up (rerun to resume)")
            victims.extend(pending.values())
            pending.clear()
            stop_pool(pool)
            pool = process_pool(workers, memory_mb)
            for job, count, alone in victims:
                if alone:
                    if count + 1 < 2:
                        suspects.appendleft((job, count + 1))
                    elif failed is not None:
                        barren = 0
                        on_result(job, failed(job))
                    else:
                        raise StichError("a job killed its worker process twice while running alone (out of memory, "
                                         "or killed from outside); giving up (rerun to resume)")
                elif count + 1 < 2:
                    retry.append((job, count + 1))
                else:
                    suspects.extend((part, 0) for part in (split(job) if split is not None else [job]))
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def _run_pool(chunks: Iterable[list[Item]], args: tuple, writer: _Writer, workers: int,
              task: Callable[..., Any] | None = None, memory_mb: int | None = None) -> None:
    """Chunks of records on local worker processes (see :func:`run_pool`), each written as soon as it is back. A
    record whose worker dies whenever it is solved, alone, gets an error line instead of stopping the run."""
    asked = args[3] if len(args) > 3 else None

    def failed(chunk: list[Item]) -> list[tuple[str, bool]]:
        return [(json_line({**_line_head(item, asked), "error": f"{item[0]}: its worker process died twice while "
                                                                "solving it alone (killed from outside, or out of "
                                                                "memory beyond any limit given)"}), True)
                for item in chunk]

    run_pool(chunks, task or solve_chunk, args, lambda chunk, lines: writer.write(lines), workers, memory_mb,
             split=lambda chunk: [[item] for item in chunk], failed=failed)


def _run_dask(chunks: Iterable[list[Item]], args: tuple, writer: _Writer, scheduler: str,
              task: Callable[..., Any] | None = None) -> None:
    """The same chunks on a Dask cluster: about 4 chunks per worker thread in flight, finished futures gathered in
    batches (cheaper than one ``result()`` each) and released once written. A worker that dies is restarted by its
    nanny and the scheduler runs its tasks again elsewhere; a chunk's lines are written only when the whole chunk is
    back, so the output stays complete and without duplicates."""
    task = task or solve_chunk
    try:
        from dask.distributed import Client, wait as dask_wait
    except ImportError:
        raise StichError("--scheduler needs Dask: pip install 'stich[cluster]' (or \"dask[distributed]\")") from None
    client = _dask_client(Client, scheduler)
    with client:
        slots, counted = 4, 0.0
        pending: set = set()
        iterator = iter(chunks)
        exhausted = False
        try:
            while True:
                if time.monotonic() - counted > DASK_RECOUNT_SECONDS:  # workers that join later get work too
                    slots, counted = 4 * max(1, sum(client.nthreads().values())), time.monotonic()
                while not exhausted and len(pending) < slots:
                    chunk = next(iterator, None)
                    if chunk is None:
                        exhausted = True
                        break
                    pending.add(client.submit(task, chunk, *args, pure=False))
                if not pending:
                    break
                finished = dask_wait(list(pending), return_when="FIRST_COMPLETED").done
                pending -= set(finished)
                for lines in client.gather(list(finished)):
                    writer.write(lines)
                for future in finished:
                    future.release()
        except BaseException as error:
            for future in pending:
                future.cancel()
            if isinstance(error, OSError) or isinstance(error, Exception) and type(error).__module__.split(".")[0] in (
                    "distributed", "tornado", "asyncio", "concurrent"):
                # a task the scheduler gave up on (KilledWorker), the scheduler gone: the lines written stay
                raise StichError(f"the Dask cluster at {scheduler} failed: {type(error).__name__}: {error} (every "
                                 "line written so far is kept; rerun to resume)") from None
            raise


#: How long the connection to a Dask scheduler may take, all in all (Dask's own timeout does not cover a peer that
#: accepts the connection and never answers).
DASK_CONNECT_SECONDS = 40
#: How often the number of chunks kept in flight on a Dask cluster is fitted to its worker threads.
DASK_RECOUNT_SECONDS = 2.0


def _dask_client(client_class: Any, scheduler: str) -> Any:
    """A Dask client connected to ``scheduler``, or a StichError within DASK_CONNECT_SECONDS: whatever the peer at
    that address does (nothing, or bytes that are not Dask's), the message says so and no traceback follows."""
    box: dict[str, Any] = {}

    def connect() -> None:
        try:
            box["client"] = client_class(scheduler, timeout="30s")
        except BaseException as error:  # noqa: BLE001 - handed to the caller as a message
            box["error"] = error

    thread = threading.Thread(target=connect, name="stich-dask-connect", daemon=True)
    thread.start()
    thread.join(DASK_CONNECT_SECONDS)
    if thread.is_alive():
        raise StichError(f"cannot use the Dask scheduler {scheduler!r}: no answer in {DASK_CONNECT_SECONDS} s (is "
                         "a Dask scheduler listening at that address?)")
    if "error" in box:
        error = box["error"]
        raise StichError(f"cannot use the Dask scheduler {scheduler!r}: {type(error).__name__}: {error}") from None
    return box["client"]


def solve_batch(source: str | os.PathLike, out_path: str | os.PathLike, *, objectives: Sequence[str] | None = None,
                cards: bool = False, workers: int | None = None, scheduler: str | None = None, chunk_size: int = 20,
                variant: Mapping[str, object] | None = None, progress: BatchProgress | None = None,
                memory_mb: int | None = None, on_error: Callable[[str], None] | None = None) -> BatchSummary:
    """Solve every record of ``source`` into ``out_path`` (JSON Lines), resuming what an earlier run left.

    Each line is ``{"id": "file:line#board", ...}`` followed by the ``stich solve --json`` document of the record
    (without timings), or ``{"id": ..., "error": "file:line:col: message"}`` for a bad record, which does not stop
    the others. ``objectives`` None answers each game's default (points; Kratzen: every seat's tricks).
    ``workers`` processes (default: every local core; 1 solves in this process unless ``memory_mb`` asks for a
    capped worker), or the Dask cluster at ``scheduler``. ``memory_mb`` caps each local worker process (see the
    module docstring). ``progress`` is called after every line written; with it the file is read twice, first to
    count what is left to do. ``on_error`` is called with each error line's message as it is written.

    Every line carries the record's ``key`` (:func:`record_key`) and what the run ``asked`` (the input file's real
    path, objectives, cards, variant flags): a rerun skips the keys already solved and refuses an output written
    for another question; a second run on an output in use is refused too (:func:`_lock_output`)."""
    if not is_whole_number(chunk_size) or not 1 <= chunk_size <= MAX_CHUNK_SIZE:
        raise StichError(f"chunk_size must be a whole number from 1 to {MAX_CHUNK_SIZE:,}, not {chunk_size!r}")
    for name, path in (("source", source), ("out_path", out_path)):
        if not isinstance(path, (str, os.PathLike)):
            raise StichError(f"{name} must be a file path, not {type(path).__name__}")
    if os.path.exists(out_path) and os.path.exists(source) and os.path.samefile(source, out_path):
        raise StichError(f"{out_path}: the results would be appended to the deal file being read; "
                         f"choose another output file")
    if isinstance(objectives, str):  # one name, not its letters
        objectives = [objectives]
    if isinstance(variant, str):
        variant = Variant.parse_pairs(variant)
    objectives = check_question_of_batch(objectives, cards, variant)
    memory_mb = check_memory_limit(memory_mb)
    for name, callback in (("progress", progress), ("on_error", on_error)):
        if callback is not None and not callable(callback):
            raise StichError(f"{name} must be a function (or None), not {callback!r}")
    start = time.perf_counter()
    asked = asked_of(source, objectives, cards, variant)
    lock = _lock_output(out_path)
    new = not os.path.exists(out_path)
    try:
        remove_stale_temporaries(out_path)  # a rewrite killed half way (the lock says no run is at work on it)
        skip = done_ids(out_path, asked)
        return _solve_records(source, out_path, skip, (objectives, cards, dict(variant) if variant else None, asked),
                              workers, scheduler, chunk_size, progress, memory_mb, start, on_error)
    finally:
        if new and os.path.isfile(out_path) and not os.path.getsize(out_path):
            os.unlink(out_path)  # nothing was written (an input without records): leave no empty file behind
        lock.close()


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
        names = tuple(name.strip().lower() for name in objectives)
        known = {name for game in GAMES for name in game.objectives} | {"all"}
        for name, given in zip(names, objectives):
            if name not in known:
                raise StichError(f"objective {given!r} is no game's: the objectives are "
                                 f"{', '.join(sorted(known))}")
    if variant is not None:
        if not isinstance(variant, Mapping):
            raise StichError(f"variant must be flags (a mapping or 'name=value' text), not {variant!r}")
        for name, value in variant.items():
            games = [game for game in GAMES if str(name).strip().lower() in game.flags]  # read as Variant reads it
            if not games:
                every = sorted({flag for game in GAMES for flag in game.flags})
                raise StichError(f"variant flag {name!r} is no game's: the flags are {', '.join(every)}")
            errors = []
            for game in games:
                try:
                    game.variant({name: value})
                except StichError as error:
                    errors.append(f"{game.name}: {error}")
            if len(errors) == len(games):
                raise StichError(f"variant flag {name}={value!r}: " + "; ".join(errors))
    return names


def _done(item: Item, skip: set[str]) -> bool:
    """Whether a record is among those already solved (by its key; by its id for lines written before keys)."""
    return item[1] in skip or item[0] in skip


def _lock_output(out_path: str | os.PathLike) -> IO:
    """The run's lock on its output (see :func:`solver.files.lock_beside`)."""
    return lock_beside(out_path, "stich batch")


def _solve_records(source: str | os.PathLike, out_path: str | os.PathLike, skip: set[str], args: tuple,
                   workers: int | None, scheduler: str | None, chunk_size: int, progress: BatchProgress | None,
                   memory_mb: int | None, start: float,
                   on_error: Callable[[str], None] | None = None) -> BatchSummary:
    """The records of ``source`` not in ``skip``, solved and appended to ``out_path``."""
    total = 0
    if progress is not None:
        counted = set(skip)
        for item in read_items(source):
            if not _done(item, counted):
                counted.add(item[1])
                total += 1
    seen = [0, 0]  # records read, records already done

    def todo() -> Iterator[Item]:
        for item in read_items(source):
            seen[0] += 1
            if _done(item, skip):
                seen[1] += 1
            else:
                skip.add(item[1])  # the same record again later in the file: one line answers both
                yield item

    try:
        with open(out_path, "a", encoding="utf-8") as stream:
            writer = _Writer(stream, total, progress, on_error)
            if scheduler:
                _run_dask(_chunks(todo(), chunk_size), args, writer, scheduler)
            else:
                count = local_workers(workers)
                items = todo()
                first = list(islice(items, chunk_size + 1))  # one chunk's worth or less: not worth a pool
                if (count == 1 or len(first) <= chunk_size) and memory_mb is None:
                    _run_serial([first, items], args, writer)
                else:
                    writer.chunks = _TimedChunks(chain(first, items), chunk_size, count)
                    _run_pool(iter(writer.chunks), args, writer, count, memory_mb=memory_mb)
    except OSError as error:  # a full disk: the error of a write names no file; the message must
        if error.filename is None:
            raise type(error)(error.errno, error.strerror, str(out_path)) from None
        raise
    return BatchSummary(seen[0], seen[1], writer.solved, writer.errors, time.perf_counter() - start)


__all__ = ["BatchSummary", "done_ids", "record_id", "solve_batch"]
