"""``stich batch``: solve every record of a file into a resumable JSON Lines file, in parallel."""

from __future__ import annotations

import signal
import time
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, List, Optional

import typer

from solver.errors import shown_name
from solver.files import is_stream_output
from solver.formats.tbn import no_records_said
from solver.interrupts import begin_stop, restore_signals, stop_signals_taken
from solver.limits import MAX_CHUNK_SIZE, MAX_WORKER_MEMORY_MB, MIN_WORKER_MEMORY_MB

from .errors import (EXIT_BAD_INPUT, EXIT_INTERRUPTED, RecordMessages, file_name, input_errors, message,
                     say_interrupted, warnings_said)
from .options import (ALL_MESSAGES, CAPPED_POOL, DASK_VERBOSE, OBJECTIVES, POOL_TABLE_MB, POOL_THREADS, POT, SCHEDULER,
                      WORKER_WAIT, engine_for, output_file, parse_variant_options, pool_options, variant_examples,
                      workers_option)
from .records import emit_json
from .output import checked_output, names_stdout
from .render import on_a_terminal, plural, stderr_console

if TYPE_CHECKING:
    from rich.progress import Progress


class Stopped(Exception):
    """Raised in the main thread by the SIGINT/SIGTERM/SIGHUP handler: the run stops where it is, keeping what it
    wrote."""


def _stop(signum: int, frame: object) -> None:
    """Stop the run; a second SIGINT, SIGTERM or SIGHUP is ignored from here on, since it would cut the stop short (a
    double Ctrl-C would end in a KeyboardInterrupt traceback or kill the process by SIGINT)."""
    begin_stop()
    raise Stopped(signal.Signals(signum).name)


def _kept_text(out: Path) -> str:
    """What a stopped run leaves in its output file: how many whole lines (results and error lines, from this run
    and the ones before it; a line cut by the stop is no result, and a rerun trims it), so that the stop says what
    the file holds, not only that it holds something."""
    try:
        with open(out, "rb") as stream:
            lines = sum(chunk.count(b"\n") for chunk in iter(lambda: stream.read(1 << 20), b""))
    except FileNotFoundError:
        lines = 0
    except OSError:  # unreadable now (its disk gone): that the lines are kept is all there is to say
        return f"the lines written so far are kept in {shown_name(out)}: rerun the command to resume"
    if not lines:
        return f"nothing was written to {shown_name(out)} yet: rerun the command to resume"
    kept = f"the {plural(lines, 'line')} written so far {'is' if lines == 1 else 'are'} kept"
    return f"{kept} in {shown_name(out)}: rerun the command to resume"


def _install_handlers() -> dict[signal.Signals, Any]:
    """Our own SIGINT, SIGTERM and SIGHUP handlers: a background job ignores SIGINT, and SIGTERM or SIGHUP (a closed
    terminal) would otherwise kill the run without stopping its workers; a SIGHUP ignored from outside (``nohup``)
    stays ignored."""
    previous: dict[signal.Signals, Any] = {}
    for signum in stop_signals_taken():
        previous[signum] = signal.signal(signum, _stop)
    return previous


class _Bar:
    """A rich progress bar on stderr (count, rate, time left) on a terminal; elsewhere (a cluster job's log) one
    plain line every LOG_SECONDS, so that a long run shows it is alive without filling the log."""

    LOG_SECONDS = 60.0

    def __init__(self) -> None:
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn,
                                   TimeRemainingColumn)

        console = stderr_console()
        self.progress: Progress | None = None
        if on_a_terminal(console):
            self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                     TaskProgressColumn(), TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
                                     console=console, transient=True)

    def __enter__(self) -> Callable[[int, int], None]:
        if self.progress is None:
            started = last = time.monotonic()

            def log(done: int, total: int) -> None:
                nonlocal last
                now = time.monotonic()
                if now - last >= self.LOG_SECONDS and done:
                    last = now
                    message(f"stich: {done:,} of {total:,} written ({done / max(now - started, 1e-9):.1f}/s)")

            return log
        self.progress.start()
        task = self.progress.add_task("reading", total=None, rate="")  # the input and the output, before a count

        def update(done: int, total: int) -> None:
            assert self.progress is not None
            elapsed = self.progress.tasks[0].elapsed or 0.0
            rate = f"{done / elapsed:.1f}/s" if elapsed > 0 and done else ""
            self.progress.update(task, description="solving", completed=done, total=total, rate=rate)

        return update

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()


def batch(
    context: typer.Context,
    file: Path = typer.Argument(..., metavar="FILE", parser=file_name, show_default=False,
                                help="A .tbn file; every record is solved."),
    out: Path = output_file("The JSON Lines output, batch's checkpoint too: each record's result is appended to "
                            "it; rerun the same command to continue from it.", required=True),
    objective: Optional[List[str]] = OBJECTIVES,
    cards: bool = typer.Option(False, "--cards", help="Also the value of every legal card."),
    workers: Optional[int] = workers_option(after=CAPPED_POOL),
    scheduler: Optional[str] = SCHEDULER,
    chunk_size: int = typer.Option(20, "--chunk-size", metavar="N", min=1, max=MAX_CHUNK_SIZE,
                                   help="At most N records per task (each holds about half a second of work)."),
    variant: Optional[List[str]] = typer.Option(None, "--variant", metavar="NAME=VALUE",
                                                help=f"A variant flag (repeatable), such as {variant_examples()}; "
                                                     "overrides each record's [Variant] tag."),
    worker_memory: Optional[int] = typer.Option(
        None, "--worker-memory", metavar="MB", min=MIN_WORKER_MEMORY_MB, max=MAX_WORKER_MEMORY_MB,
        help="Cap each local worker process at MB megabytes (its table sized to fit; default: no cap); a record "
             "that needs more is written as an error."),
    threads: Optional[int] = POOL_THREADS,
    table_mb: Optional[int] = POOL_TABLE_MB,
    worker_wait: float = WORKER_WAIT,
    verbose: bool = DASK_VERBOSE,
    pot: Optional[int] = POT,
    all_messages: bool = ALL_MESSAGES,
    as_json: bool = typer.Option(False, "--json", help="The run's summary as one JSON document on stdout (the "
                                                        "results go to --out either way; docs/json.md)."),
) -> None:
    """Solve every record of FILE into --out, one JSON line per record as it is done. A rerun skips what is
    already solved in --out (and tries its error lines again), so an interrupted or killed run is resumed by running
    it again."""
    from solver.batch import notes_text, solve_batch, summary_text  # the pool: not for --help

    if str(file) == "-":
        raise typer.BadParameter("batch reads a file, not standard input: its answers name the file they answer, "
                                 "and a rerun reads it again to resume", param_hint="'FILE'")
    scheduler, workers = pool_options(threads, scheduler, workers, worker_memory, table_mb, context)
    flags = parse_variant_options(variant)
    engine_for(None)  # STICH_TABLE_MB and STICH_IMPLEMENTATION checked before any record
    # stdout's names are a stream, which --json's summary ends (docs/json.md); a file stdout is redirected to is
    # resumed from, which a summary line in it would spoil
    stream = is_stream_output(out)  # stdout, a pipe, /dev/tty: written as it comes, never resumed
    with input_errors():
        checked_output(out, inputs=[file], appends=True,
                       stdout_holds="--json writes the run's summary" if as_json and not names_stdout(out) else None)
    previous = _install_handlers()
    stopped = False
    errors = RecordMessages(file, every=all_messages)  # the first 20, then a count: each an error line of --out
    kept_in = (f"every one is an error line on {shown_name(out)}" if stream else
               f"every one is an error line in {shown_name(out)}, which a rerun tries again")
    try:
        with input_errors(), warnings_said("batch"), _Bar() as progress:
            summary = solve_batch(file, out, objectives=objective or None, cards=cards, workers=workers,
                                  scheduler=scheduler, chunk_size=chunk_size, variant=flags or None,
                                  progress=progress, memory_mb=worker_memory,
                                  on_error=lambda error: errors(f"stich: {error}"), worker_wait=worker_wait,
                                  notify=lambda text: message(f"stich: {text}"), verbose=verbose,
                                  table_mb=table_mb, pot=pot)
    except (Stopped, KeyboardInterrupt) as stop:
        # a signal's stop (_stop) leaves both ignored until the exit; another interrupt (a caller's) restores them
        stopped = signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
        with suppress(OSError, ValueError):  # stderr gone with a closed terminal: the stop's exit code stands
            errors.close(kept_in)
        if stream:
            kept = f"the results so far were written to {shown_name(out)}, which holds nothing to resume from"
        else:
            kept = _kept_text(out)
        say_interrupted("batch", f"({str(stop) or 'SIGINT'}); {kept}")  # a bare KeyboardInterrupt: Ctrl-C's
        raise typer.Exit(EXIT_INTERRUPTED) from None
    finally:
        if not stopped:
            restore_signals(previous)
    errors.close(kept_in)
    if summary.records == 0:
        message(f"stich: {no_records_said(str(file), summary.comments_alone, summary.lines_read)}")
        raise typer.Exit(EXIT_BAD_INPUT)
    for note in notes_text(summary):
        message(f"stich: batch: {note.removeprefix('note: ')}")
    message(f"stich: batch: {summary_text(summary)}")
    if as_json:
        emit_json(summary.as_dict())
    if summary.errors:
        raise typer.Exit(EXIT_BAD_INPUT)
