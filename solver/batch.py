"""Batch solving: every record of a ``.tbn`` file, one JSON line per record, resumable and parallel.

Why it is shaped like this (docs/batch.md, measurements in /work/shared/NOTES.md):

* Each result is appended to the output as one JSON line and flushed as soon as it is done, so a run killed at any
  moment (even with ``kill -9``) loses at most the line being written. On a rerun the half-written last line is
  trimmed and every record id already in the file is skipped: a finished record is never solved twice.
* Records are solved in chunks (about 20 deals a task): a few milliseconds of compiled work per deal is far less
  than a task's overhead, and each worker keeps one :class:`~solver.search.engine.EngineSolver` (its table memory
  is allocated once, not once per deal).
* Local parallelism uses :class:`concurrent.futures.ProcessPoolExecutor` (no extra dependency). Its workers watch
  their parent and exit when it dies, since a killed driver would otherwise leave them orphaned. A Dask cluster
  (``scheduler="tcp://host:port"``) runs the same chunks on other machines.
* Every value is exact and independent of the order in which deals are solved, so the lines are the same whatever
  the number of workers (only their order differs); timings and node counts are left out for that reason.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator, Mapping, Sequence

from .analysis import solve_report
from .errors import InvalidDealError, ParseError, StichError
from .formats.tbn import Record, iter_records
from .position import Position, position_from_record
from .search.engine import EngineSolver

#: Called after each written line with (lines written in this run, lines this run has to write).
BatchProgress = Callable[[int, int], None]

#: One unit of work: the record's id and the record (None for a record too broken to read, with its error).
Item = tuple[str, Record | None, str | None]

_PARENT_POLL_SECONDS = 0.5
_local = threading.local()


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
        engine = _local.engine = EngineSolver()
    return engine


def _watch_parent(parent: int) -> None:
    """Exit when the parent process is gone (it was killed with -9 and cannot shut the pool down)."""
    while True:
        time.sleep(_PARENT_POLL_SECONDS)
        if os.getppid() != parent:
            os._exit(1)


def init_worker(parent: int) -> None:
    """Pool worker setup: Ctrl-C is the parent's business (it stops the pool), and the worker must not outlive a
    parent killed without a chance to stop it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="stich-parent-watch").start()


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A process pool whose workers ignore SIGINT and exit with their parent."""
    return ProcessPoolExecutor(max_workers=workers, initializer=init_worker, initargs=(os.getpid(),))


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: queued chunks are cancelled and running ones abandoned (their results would be
    recomputed by a rerun, since nothing of them was written)."""
    pool.shutdown(wait=False, cancel_futures=True)
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        if process.is_alive():
            process.terminate()


def local_workers(workers: int | None) -> int:
    """The number of worker processes: all local cores (the ones this process may use) unless told."""
    if workers is not None:
        if workers < 1:
            raise StichError(f"workers must be at least 1, not {workers}")
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


def solve_item(item: Item, objectives: Sequence[str] | None, cards: bool,
               variant: Mapping[str, object] | None, engine: EngineSolver) -> dict[str, Any]:
    """The output line of one record: its solve report, or its error as ``file:line:col: message``."""
    identifier, record, failure = item
    if record is None:
        return {"id": identifier, "error": failure}
    board = record.get("Board")
    try:
        position = position_from_record(record, variant=variant)
    except StichError as error:
        return {"id": identifier, "board": board, "error": str(error)}
    try:
        document = solve_report(position, objectives, cards, engine=engine)
    except StichError as error:
        return {"id": identifier, "board": board, "error": _located(error, position)}
    return {"id": identifier, **_strip_timing(document)}


def solve_chunk(items: list[Item], objectives: Sequence[str] | None, cards: bool,
                variant: Mapping[str, object] | None) -> list[tuple[str, bool]]:
    """A chunk of records solved by one worker, as finished JSON lines (so the parent only writes them), each with
    whether it reports an error."""
    engine = worker_engine()
    lines = []
    for item in items:
        document = solve_item(item, objectives, cards, variant, engine)
        lines.append((json_line(document), "error" in document))
    return lines


def json_line(document: Mapping[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"


# --- the output file ----------------------------------------------------------------------------------------------


def done_ids(out_path: str | os.PathLike) -> set[str]:
    """The ids already in the output, after trimming a half-written last line (a run killed while writing).

    A complete line that is not JSON (edited by hand) is ignored: its record is solved again."""
    path = Path(out_path)
    if not path.exists():
        return set()
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if end != len(data):
        with open(path, "r+b") as stream:
            stream.truncate(end)
        data = data[:end]
    ids: set[str] = set()
    for raw in data.splitlines():
        try:
            document = json.loads(raw)
        except ValueError:
            continue
        if isinstance(document, dict) and isinstance(document.get("id"), str):
            ids.add(document["id"])
    return ids


def read_items(source: str | os.PathLike | IO, name: str | None = None) -> Iterator[Item]:
    """Every record of the file with its id; a record too broken to read becomes an item carrying its error."""
    for entry in iter_records(source, name=name):
        if isinstance(entry, ParseError):
            yield record_id(entry.source, entry.line, None), None, str(entry)
        else:
            yield record_id(entry.source, entry.line, entry.get("Board")), entry, None


def _chunks(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


class _Writer:
    """Appends lines to the output, flushing each, and counts them for the summary and the progress display."""

    def __init__(self, stream: IO[str], total: int, progress: BatchProgress | None) -> None:
        self.stream = stream
        self.total = total
        self.progress = progress
        self.solved = 0
        self.errors = 0

    def write(self, lines: Iterable[tuple[str, bool]]) -> None:
        for line, is_error in lines:
            self.stream.write(line)
            self.stream.flush()
            if is_error:
                self.errors += 1
            else:
                self.solved += 1
            if self.progress is not None:
                self.progress(self.solved + self.errors, self.total)


# --- runners -----------------------------------------------------------------------------------------------------


def _run_serial(chunks: Iterable[list[Item]], args: tuple, writer: _Writer) -> None:
    for chunk in chunks:
        writer.write(solve_chunk(chunk, *args))


#: How often a local run replaces a broken pool (a worker that died) before it gives up.
MAX_POOL_RESTARTS = 5


def _run_pool(chunks: Iterable[list[Item]], args: tuple, writer: _Writer, workers: int,
              task: Callable[..., Any] = None) -> None:
    """Chunks on local worker processes, about 4 per worker in flight, each written as soon as it is back.

    A worker that dies (killed, out of memory) breaks the whole pool: the chunks that were in flight are then
    submitted again to a new pool, so the result set stays complete and, since nothing of an unfinished chunk was
    written, without duplicates. A pool that keeps breaking is given up after MAX_POOL_RESTARTS.
    """
    task = task or solve_chunk
    iterator = iter(chunks)
    retry: list[list[Item]] = []
    restarts = 0
    pool = process_pool(workers)
    try:
        pending: dict[Future, list[Item]] = {}
        while True:
            while len(pending) < 4 * workers:
                chunk = retry.pop() if retry else next(iterator, None)
                if chunk is None:
                    break
                pending[pool.submit(task, chunk, *args)] = chunk
            if not pending:
                break
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            broken = False
            for future in done:
                chunk = pending.pop(future)
                try:
                    lines = future.result()
                except BrokenProcessPool:
                    retry.append(chunk)
                    broken = True
                    continue
                writer.write(lines)
            if broken:
                restarts += 1
                if restarts > MAX_POOL_RESTARTS:
                    raise StichError(f"worker processes died {restarts} times; giving up (rerun to resume)")
                retry.extend(pending.values())
                pending.clear()
                stop_pool(pool)
                pool = process_pool(workers)
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def _run_dask(chunks: Iterable[list[Item]], args: tuple, writer: _Writer, scheduler: str) -> None:
    """The same chunks on a Dask cluster: about 4 chunks per worker thread in flight, finished futures gathered in
    batches (cheaper than one ``result()`` each) and released once written."""
    try:
        from dask.distributed import Client, wait as dask_wait
    except ImportError:
        raise StichError("--scheduler needs Dask: pip install 'stich[cluster]' (or \"dask[distributed]\")") from None
    with Client(scheduler) as client:
        slots = 4 * max(1, sum(client.nthreads().values()))
        pending: set = set()
        iterator = iter(chunks)
        exhausted = False
        try:
            while True:
                while not exhausted and len(pending) < slots:
                    chunk = next(iterator, None)
                    if chunk is None:
                        exhausted = True
                        break
                    pending.add(client.submit(solve_chunk, chunk, *args, pure=False))
                if not pending:
                    break
                finished = dask_wait(list(pending), return_when="FIRST_COMPLETED").done
                pending -= set(finished)
                for lines in client.gather(list(finished)):
                    writer.write(lines)
                for future in finished:
                    future.release()
        except BaseException:
            for future in pending:
                future.cancel()
            raise


def solve_batch(source: str | os.PathLike, out_path: str | os.PathLike, *, objectives: Sequence[str] | None = ("points",),
                cards: bool = False, workers: int | None = None, scheduler: str | None = None, chunk_size: int = 20,
                variant: Mapping[str, object] | None = None, progress: BatchProgress | None = None) -> BatchSummary:
    """Solve every record of ``source`` into ``out_path`` (JSON Lines), resuming what an earlier run left.

    Each line is ``{"id": "file:line#board", ...}`` followed by the ``stich solve --json`` document of the record
    (without timings), or ``{"id": ..., "error": "file:line:col: message"}`` for a bad record, which does not stop
    the others. ``objectives`` None answers each game's default (points; Kratzen: every seat's tricks).
    ``workers`` processes (default: every local core; 1 solves in this process), or the Dask cluster at
    ``scheduler``. ``progress`` is called after every line written."""
    if chunk_size < 1:
        raise StichError(f"chunk_size must be at least 1, not {chunk_size}")
    start = time.perf_counter()
    skip = done_ids(out_path)
    items = list(read_items(source))
    todo = [item for item in items if item[0] not in skip]
    objectives = tuple(objectives) if objectives is not None else None
    args = (objectives, cards, dict(variant) if variant else None)
    with open(out_path, "a", encoding="utf-8") as stream:
        writer = _Writer(stream, len(todo), progress)
        chunks = _chunks(todo, chunk_size)
        if scheduler:
            _run_dask(chunks, args, writer, scheduler)
        else:
            count = local_workers(workers)
            if count == 1 or len(todo) <= chunk_size:
                _run_serial(chunks, args, writer)
            else:
                _run_pool(chunks, args, writer, min(count, -(-len(todo) // chunk_size)))
    return BatchSummary(len(items), len(items) - len(todo), writer.solved, writer.errors,
                        time.perf_counter() - start)


__all__ = ["BatchSummary", "done_ids", "record_id", "solve_batch"]
