"""``stich bench``: time the engine on seeded generated deals, and compare with an earlier run.

A wrapper over :mod:`solver.benchmark`: each line's medians, p90, p99, nodes per second and table memory, and the
machine they were measured on. ``--out FILE`` keeps a run; ``--compare FILE`` shows each line's ratios to that
run. The project's own speed targets are not a user's business: they live in ``bench/`` (``bench/report.py``).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import stat
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Collection, List, Optional, Sequence, TypeVar

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from solver.analysis import SCHEMA
from solver.errors import StichError, shown_name, source_name
from solver.files import json_kind
from solver.games import get_game
from solver.limits import DEFAULT_LIMIT_S, MAX_BENCH_DEALS
from solver.search.boundary import seconds_text
from solver.search.engine import default_threads, usable_cores

from .errors import OutputCut, file_name, input_errors, interrupts_held, message, say_interrupted
from .options import (TABLE_MB, THREADS, check_game_options, checked_seed, engine_for, game_option,
                      note_threads_over_cores, output_file, parse_variant_options, seconds_kept_or_no_limit,
                      time_limit_option)
from .output import atomic_writer, checked_output, is_stdout
from .records import emit_json, stdin_bytes
from .render import Document, fits, plural, progress_on_stderr, stdout_console

if TYPE_CHECKING:
    from solver.benchmark import BenchLine, BenchStats

T = TypeVar("T")

#: The statistics a comparison shows as ratios (this run / the saved one).
RATIOS = (("median_ms", "median"), ("p90_ms", "p90"), ("nodes_per_second", "nodes/s"))


def bench_document(line: BenchLine, stats: BenchStats, seed: int, host: Document, threads: int) -> Document:
    """One benchmark line's statistics as the JSON document of ``docs/json.md``."""
    memory = stats.peak_table_bytes
    return {
        "schema": SCHEMA, "command": "bench", "line": line.name, "game": line.game, "seed": seed,
        "variant": dict(line.variant) or None,
        "deals": stats.deals, "median_ms": stats.median, "p90_ms": stats.p90, "p99_ms": stats.p99,
        "max_ms": stats.max, "median_nodes": stats.median_nodes, "nodes_per_second": stats.nodes_per_second,
        "table_allocated_bytes": memory.allocated, "table_used_bytes": memory.used, "timeouts": stats.timeouts,
        "limit_ms": stats.limit_ms, "threads": threads, "threads_used": stats.threads_used, "machine": host,
        "boards": list(stats.boards), "times_ms": list(stats.times_ms), "nodes": list(stats.nodes),
    }


def selected_lines(game: str | None) -> list[BenchLine]:
    """The benchmark's lines, or those of one game."""
    from solver.benchmark import standard_lines  # the benchmark's pool: not for --help

    lines = standard_lines()
    if game is None:
        return lines
    return [line for line in lines if line.game == game]


# --- saved runs -------------------------------------------------------------------------------------------------


def saved_run(documents: Sequence[Document], host: Document, partial: Document | None = None) -> Document:
    """What ``--out`` writes: the machine, the time, and every line's document; ``partial`` (a run stopped by
    Ctrl-C: the lines asked and the one it stopped in) marks a run that holds only its finished lines."""
    run = {"schema": SCHEMA, "command": "bench", "saved": datetime.now(timezone.utc).isoformat(timespec="seconds"),
           "machine": host, "lines": list(documents)}
    return run | ({"partial": partial} if partial is not None else {})


def save_run(save: Path, run: Document) -> None:
    """``--out``: the run written atomically to the file, or to stdout for ``-``."""
    with atomic_writer(save) as stream:
        json.dump(run, stream, indent=1)
        stream.write("\n")


#: What the file beside a bench run's ``--out FILE`` holds (:func:`partial_beside`), as its notes name it.
PARTIAL_LINES = "the lines a run stopped by the interrupt finished"


def partial_beside(save: Path) -> Path:
    """``FILE.partial.json``, beside ``--out FILE``: where an interrupted run's finished lines go when FILE holds a
    whole run (:func:`partial_target`)."""
    return save.with_name(f"{save.stem}.partial{save.suffix or '.json'}")


def partial_target(save: Path) -> Path:
    """Where an interrupted run's finished lines go: ``--out FILE`` itself, unless FILE holds a whole run (a
    baseline a Ctrl-C must not replace with part of one), then ``FILE.partial.json`` beside it. Nothing reads it
    back (a rerun starts over): it is the finished lines' figures, to read or ``--compare`` with, removed once a run
    to FILE completes."""
    if is_stdout(save):
        return save
    kept = _run_in_file(save)
    if kept is not None and "lines" in kept and "partial" not in kept:
        return partial_beside(save)
    return save  # no saved run: nothing to keep


def _run_in_file(path: Path) -> dict | None:
    """The JSON object in the regular file ``path`` (symbolic links followed), read where it may be a saved run: at
    most :data:`MAX_SAVED_RUN_BYTES`, as ``--compare`` reads one; None for anything else (no such file, a folder or
    a device, a larger file, not a JSON object)."""
    try:
        with path.open("rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                return None
            raw = stream.read(MAX_SAVED_RUN_BYTES + 1)
        kept = json.loads(raw) if len(raw) <= MAX_SAVED_RUN_BYTES else None
    except (OSError, ValueError):
        return None
    return kept if isinstance(kept, dict) else None


def replaces_compared(save: Path, compare: Path) -> str | None:
    """How ``--out`` would replace the run ``--compare`` reads, said for the refusal; None where it would not. Only
    a file that exists can be replaced: one ``--compare`` names, which ``--out`` names too or through a symbolic link
    (written through to it); or the file standard input is (``--compare - < base.json``). A hard link of it is no
    clash: the write renames a new file over ``--out``'s name alone, and the other name keeps the run compared with.
    Stdout's names as ``--out`` write no file."""
    if is_stdout(save):
        return None
    if str(compare) == "-":
        given, written = _status(compare), _status(save)
        if given is not None and written is not None and os.path.samestat(given, written):
            return f"{shown_name(save)} is the file --compare - reads from standard input"
        return None
    try:
        same = save.samefile(compare)  # through symbolic links; both must exist, each path as given
    except OSError:
        return None
    if same and os.path.realpath(save) == os.path.realpath(compare):  # not a hard link: one name, the one replaced
        return f"{shown_name(save)} and --compare {shown_name(compare)} name the same file"
    return None


def _status(path: Path) -> os.stat_result | None:
    """The status of the file ``path`` names (``-``: the one standard input reads); None where there is none."""
    try:
        return os.fstat(0) if str(path) == "-" else path.stat()
    except (OSError, ValueError):
        return None


def remove_partial_beside(save: Path, compare: Path | None, measured: Collection[str],
                          command: str = "stich: bench") -> None:
    """A completed run's ``--out FILE`` makes the finished lines an interrupted run left beside it
    (:func:`partial_beside`) out of date: removed, and said (after ``command``, as ``bench/report.py``'s ``--json``
    says it too), where it is such a run (a regular file holding a run marked ``partial``) all of whose lines this
    run ``measured`` again, and not the run just compared with (``--compare``, by its name or as standard input).
    Anything else by that name (a user's own file, a folder, the lines of other games) is left alone, unsaid."""
    if is_stdout(save):
        return
    beside = partial_beside(save)
    try:
        status = beside.lstat()
    except OSError:
        return
    kept = _run_in_file(beside) if stat.S_ISREG(status.st_mode) else None  # not a link's target
    if not (kept is not None and "partial" in kept and isinstance(kept.get("lines"), list)
            and all(isinstance(line, dict) and line.get("line") in measured for line in kept["lines"])):
        return
    if compare is not None:
        read = _status(compare)
        if read is not None and os.path.samestat(read, status):
            return
    try:
        beside.unlink()
    except FileNotFoundError:
        return
    except OSError as error:  # the run is saved whole: this is only said
        message(f"{command}: {partial_note(beside, error)}")
        return
    message(f"{command}: {partial_note(beside)}")


def partial_note(beside: Path, error: OSError | None = None) -> str:
    """What a completed run says of the finished lines a stopped run left beside its output (:func:`partial_beside`,
    or ``bench/report.py``'s Markdown beside ``--out``), which it removed or, where removing them failed (``error``),
    leaves to the user, out of date: a checkpoint's note (:func:`~solver.checkpoint.removed_note`,
    :func:`~solver.checkpoint.checkpoint_note`), as every command says the work a file holds."""
    from solver.checkpoint import checkpoint_note, removed_note  # not for --help

    if error is None:
        return removed_note(beside, PARTIAL_LINES, "each measured again by this run")
    return checkpoint_note(beside, f"{PARTIAL_LINES}, out of date now", "not removed", str(error.strerror or error),
                           "remove it by hand")


def stopped_early_text(partial: Document) -> str:
    """``a partial run: stopped in 'X' after 6 of 30 deals``: a saved run's ``partial`` (:func:`saved_run`) said in
    a message."""
    unfinished = partial.get("unfinished")
    planned = partial.get("planned_deals")
    after = (f" after {unfinished['deals']:,} of {planned:,} deals"
             if isinstance(unfinished, dict) and isinstance(unfinished.get("deals"), int) and isinstance(planned, int)
             else "")
    return f"a partial run: stopped in {partial.get('interrupted_during')!r}{after}"


def holds_finished_lines(path: Path) -> bool:
    """Whether the file ``path`` holds a saved run with a finished line, whole or partial (:func:`_run_in_file`): one
    a run stopped before any line finished must not replace."""
    kept = _run_in_file(path)
    return kept is not None and isinstance(kept.get("lines"), list) and bool(kept["lines"])


def partial_text(run: Document) -> str:
    """``partial: 1 of 3 lines (stopped by the interrupt during '...')`` for a saved run stopped by Ctrl-C, else ''."""
    partial = run.get("partial")
    if not isinstance(partial, dict):
        return ""
    return (f"partial: {len(run['lines'])} of {partial.get('lines')} lines (stopped by the interrupt during "
            f"{partial.get('interrupted_during')!r})")


#: What a comparison reads of a saved line, and the JSON kinds each may be (absent and null: not recorded, as in a
#: run saved before the key was): a line of another shape is refused rather than read as something it is not.
SAVED_LINE_KEYS: dict[str, tuple[type, ...]] = {
    "game": (str,), "seed": (int,), "variant": (dict,), "deals": (int,), "boards": (list,),
    "median_ms": (int, float), "p90_ms": (int, float), "nodes_per_second": (int, float),
    "table_allocated_bytes": (int,), "threads": (int,), "threads_used": (int,), "machine": (dict,),
    "timeouts": (int,), "limit_ms": (int, float)}


@dataclass(frozen=True)
class SavedRun:
    """A run as ``--out`` saved it (or as ``--json`` wrote its lines), read once: the comparison reads its lines
    by name and its machine as saved, and derives nothing from them."""

    path: Path
    document: Document  # the run: its "machine", "saved", "partial" and "lines"
    lines: dict[str, Document]  # each saved line's document, by the line's name

    @property
    def machine(self) -> Document | None:
        return self.document.get("machine")


#: The most of a ``--compare`` file read: a saved run of 100 deals a line is some 40 KB, so a file past this is none
#: (a device such as /dev/zero, read whole, ran the process out of memory).
MAX_SAVED_RUN_BYTES = 256 << 20


def saved_run_bytes(path: Path) -> bytes:
    """The bytes of a ``--compare`` FILE (``-``: standard input, as every command reads it), at most
    :data:`MAX_SAVED_RUN_BYTES`; more is bad input."""
    with (nullcontext(stdin_bytes("the saved run")) if str(path) == "-" else path.open("rb")) as stream:
        raw = stream.read(MAX_SAVED_RUN_BYTES + 1)
    if len(raw) > MAX_SAVED_RUN_BYTES:
        raise StichError(f"{shown_name(source_name(path))}: over {_size(MAX_SAVED_RUN_BYTES)}, more than "
                         "any saved run: not a saved stich bench run; write one with stich bench --out FILE")
    return raw


def read_saved_run(path: Path) -> SavedRun:
    """A run written by ``--out`` (or the JSON Lines of ``--json``), checked to be of the shape the comparison
    reads (:data:`SAVED_LINE_KEYS`); a file that is not is bad input, named with the line where it stops making
    sense."""
    raw = saved_run_bytes(path)
    path = Path(source_name(path))
    shown = shown_name(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:  # a binary or Latin-1 file: bad input at its place, not a traceback
        line = raw.count(b"\n", 0, error.start) + 1
        line_start = raw.rfind(b"\n", 0, error.start) + 1
        column = len(raw[line_start:error.start].decode("utf-8", errors="replace")) + 1
        raise StichError(f"{shown}:{line}:{column}: not a saved stich bench run (invalid UTF-8, byte "
                         f"{raw[error.start]:02x}); write one with stich bench --out FILE") from None
    if not text.strip():
        raise StichError(f"{shown}: empty: not a saved stich bench run; write one with stich bench "
                         "--out FILE")
    try:
        whole = json.loads(text)
        stopped = None
    except json.JSONDecodeError as error:
        whole, stopped = None, error
    if isinstance(whole, dict) and isinstance(whole.get("lines"), list):
        run = whole
    else:  # JSON Lines: one line document per row
        lines = []
        for number, row in enumerate(text.splitlines(), 1):
            if not row.strip():
                continue
            try:
                lines.append(json.loads(row))
            except json.JSONDecodeError as error:
                if not lines and stopped is not None:  # not JSON Lines either: where the document stops (a cut run)
                    number, error = stopped.lineno, stopped
                raise StichError(f"{shown}:{number}:{error.colno}: not a saved stich bench run "
                                 f"({error.msg}); write one with stich bench --out FILE") from None
        run = {"lines": lines, "machine": next((line.get("machine") for line in lines
                                                 if isinstance(line, dict)), None)}
    by_name: dict[str, Document] = {}
    for number, line in enumerate(run["lines"], 1):
        if not isinstance(line, dict) or line.get("command") != "bench" or not isinstance(line.get("line"), str):
            raise StichError(f"{shown}: line document {number} is not a stich bench line; write a run with "
                             "stich bench --out FILE")
        for key, kinds in SAVED_LINE_KEYS.items():
            if line.get(key) is not None and not _of_kind(line[key], kinds):
                raise StichError(f"{shown}: line document {number}: its {key!r} is "
                                 f"{_json_kind(line[key])}, not {_json_kind(kinds[0]())}; write a run with stich "
                                 "bench --out FILE")
        for key, kinds in SAVED_LINE_KEYS.items():  # a figure JSON cannot hold (NaN) or no run measures
            if float in kinds and line.get(key) is not None and not 0 <= line[key] < math.inf:
                raise StichError(f"{shown}: line document {number}: its {key!r} is "
                                 f"{json.dumps(line[key])}, not a figure a run measures; write a run with stich "
                                 "bench --out FILE")
        if not all(_of_kind(board, (int,)) for board in line.get("boards") or ()):
            raise StichError(f"{shown}: line document {number}: its 'boards' are not all board numbers; "
                             "write a run with stich bench --out FILE")
        if line.get("variant"):
            line["variant"] = saved_variant(path, number, line)
        if line["line"] in by_name:  # two runs in one file (JSON Lines appended to): which to compare with?
            raise StichError(f"{shown}: line document {number} times the line {line['line']!r} again; "
                             "compare with one run, written with stich bench --out FILE")
        by_name[line["line"]] = line
    if run.get("machine") is not None and not isinstance(run["machine"], dict):
        raise StichError(f"{shown}: not a saved stich bench run: its 'machine' is "
                         f"{_json_kind(run['machine'])}, not an object; write one with stich bench --out FILE")
    if not by_name and isinstance(run.get("partial"), dict):  # stopped before its first line finished
        raise StichError(f"{shown}: {stopped_early_text(run['partial'])}, no finished line to compare; write a "
                         "whole run with stich bench --out FILE")
    if not by_name:  # every other run stich saves has a line: a file of none compares with nothing
        raise StichError(f"{shown}: not a saved stich bench run: it holds no line document; write one "
                         "with stich bench --out FILE")
    return SavedRun(path, run, by_name)


def saved_variant(path: Path, number: int, line: Document) -> dict[str, str]:
    """A saved line's variant flags as this run spells them (:meth:`~solver.variant.Variant.spelt`): a run saved by a
    stich that wrote the flags as given (``YES``, ``On``) times the same deals as this run's ``true``, and is compared
    as such. A flag or value the game does not take (of another version of stich) is said, named with the line."""
    flags = line["variant"]
    shown = " ".join(f"{name}={value if isinstance(value, str) else json.dumps(value)}"
                     for name, value in flags.items())  # as JSON spells a value that is no word: null, 1, true
    where = f"{shown_name(path)}: line document {number} ({line['line']!r}): its variant {shown} cannot be read"
    words = [name for name, value in flags.items() if not isinstance(value, str)]
    if words:  # the game's own message would offer a word for it
        raise StichError(f"{where}: the value of {', '.join(words)} is {_json_kind(flags[words[0]])}, not a string; "
                         "write a run with stich bench --out FILE")
    try:
        return get_game(str(line.get("game"))).variant(flags).spelt(flags)
    except StichError as error:
        raise StichError(f"{where} (write a run with stich bench --out FILE): {error}") from None


def _of_kind(value: object, kinds: tuple[type, ...]) -> bool:
    """Whether a JSON value is of one of ``kinds`` (true and false are not numbers, as JSON has it)."""
    return isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)


def _json_kind(value: object) -> str:
    """What a JSON value is, in a message, in JSON's words: ``an object``, ``an array``, ``a boolean``, ``null``."""
    kind = json_kind(value)
    return kind if kind == "null" else f"an {kind}" if kind[0] in "ao" else f"a {kind}"


def _same_deals(now: Document, before: Document) -> bool:
    return all(now.get(key) == before.get(key) for key in ("game", "seed", "boards", "variant"))


def _deals_text(document: Document) -> str:
    """``2 deals, boards 1-2 of seed 1766`` (and the variant flags): which deals a line timed (a line may pass over
    boards, so the count is said beside the span)."""
    boards = document.get("boards") or [None]
    span = f"board {boards[0]}" if len(boards) == 1 else f"boards {boards[0]}-{boards[-1]}"
    flags = document.get("variant") or {}
    variant = ", variant " + " ".join(f"{k}={v}" for k, v in sorted(flags.items())) if flags else ""
    return f"{plural(document.get('deals') or len(boards), 'deal')}, {span} of seed {document.get('seed')}{variant}"


def not_compared_reason(document: Document, before: Document | None) -> str | None:
    """Why a line shows no ratios (None when it has them): the saved run has no such line, or timed other deals."""
    if before is None:
        return "the saved run has no such line"
    if not _same_deals(document, before):
        return f"the saved run timed {_deals_text(before)}, this run {_deals_text(document)}"
    return None


def run_differences(host: Document, run: SavedRun, documents: Sequence[Document]) -> list[str]:
    """What besides the deals differs between this run and the saved one (the ratios measure that too): the
    machine, the engine build, the threads a question, the table size. A run saved before builds were named says
    so."""
    saved_host = run.machine or {}
    differ = []
    if any(saved_host.get(key) != host.get(key) for key in ("cpu", "cores", "cores_total", "python", "system")):
        differ.append("the machine")
    if saved_host.get("stich") not in (None, host.get("stich")):  # its lines may be timed other ways
        differ.append(f"the version of stich ({saved_host['stich']} then, {host.get('stich')} now)")
    if "engine" not in saved_host:
        differ.append("the engine build (the saved run does not name its build)")
    elif saved_host["engine"] != host.get("engine"):
        differ.append(f"the engine build ({saved_host['engine']} then, {host.get('engine')} now)")
    # the threads used where the saved run has them; a run saved before they were recorded, the threads asked
    key = "threads_used" if all("threads_used" in line for line in run.lines.values()) else "threads"
    threads = [(run.lines[doc["line"]].get(key), doc.get(key)) for doc in documents if doc["line"] in run.lines]
    if any(then != now for then, now in threads):
        differ.append(f"the threads a question ({_thread_counts([then for then, _ in threads])} then, "
                      f"{_thread_counts([now for _, now in threads])} now)")
    saved_limits = {line.get("limit_ms") for line in run.lines.values() if "limit_ms" in line}
    if saved_limits and saved_limits != {doc["limit_ms"] for doc in documents}:  # --time-limit
        then = " and ".join(map(_limit, sorted(saved_limits, key=lambda limit: limit or math.inf)))
        differ.append(f"the time limit ({then} then, {_limit(documents[0]['limit_ms'])} now)")
    saved_tables = {line["table_allocated_bytes"] for line in run.lines.values()
                    if line.get("table_allocated_bytes") is not None}
    if saved_tables and saved_tables != {doc["table_allocated_bytes"] for doc in documents}:  # --table-mb
        now_tables = {doc["table_allocated_bytes"] for doc in documents}
        differ.append(f"the table size ({' and '.join(_size(size) for size in sorted(saved_tables))} then, "
                      f"{' and '.join(_size(size) for size in sorted(now_tables))} now)")
    return differ


def _thread_counts(values: Sequence[int | None]) -> str:
    """The distinct threads of a run's lines, ``1 and 2``; ``not recorded`` for a run saved before ``--threads``."""
    known = sorted({value for value in values if value is not None})
    return " and ".join(map(str, known)) if known else "not recorded"


def _limit(limit_ms: float | None) -> str:
    """A line's ``limit_ms`` as ``--time-limit`` takes it: ``60 s``, or ``none`` (``--time-limit 0``)."""
    return "none" if limit_ms is None else seconds_text(limit_ms / 1000)


def comparison(document: Document, before: Document | None) -> Document | None:
    """The ratios of this run's line to the saved run's (this / saved), or None when the saved run has no such line
    or measured other deals (another seed, deal count or variant: the times would not compare)."""
    if before is None or not _same_deals(document, before):
        return None
    ratios: Document = {}
    for key, _ in RATIOS:
        old, new = before.get(key), document[key]
        # a 0 on either side has no ratio (a nodes/s of 0: none of the line's deals finished)
        ratios[key] = new / old if isinstance(old, (int, float)) and old > 0 and new > 0 else None
    return ratios


# --- rendering --------------------------------------------------------------------------------------------------


def _ms(value: float) -> str:
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def _size(count: int) -> str:
    """Bytes for people: ``1.4 KB``, ``64 MB``."""
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if count >= size:
            return f"{count / size:.3g} {unit}"
    return f"{count} B"


def machine_text(host: Document | None) -> str:
    if not host:
        return "an unknown machine"
    cores = f"{host.get('cores')} of {host.get('cores_total')} cores" if host.get("cores") != host.get("cores_total") \
        else f"{host.get('cores')} cores"
    build = f", engine {host['engine']}" if host.get("engine") else ""  # a run saved before builds were named has none
    return f"{host.get('cpu')}, {cores}, Python {host.get('python')}, stich {host.get('stich')}{build}"


def _nodes_per_second(value: float) -> str:
    """A line's nodes per second, or ``-`` where none of its deals finished (the figure is 0: a stopped solve's
    nodes are unknown), as its ratio then is."""
    return f"{value:,.0f}" if value > 0 else "-"


def _ratio(value: float | None, faster_when_below: bool) -> Text:
    if value is None:
        return Text("-")
    better = value < 1 if faster_when_below else value > 1
    style = "" if 0.95 <= value <= 1.05 else ("green" if better else "red")
    return Text(f"{value:.2f}", style=style)


def _used_threads(document: Document) -> int | None:
    """The threads a line's questions searched on: ``threads_used``, or for a run saved before it the threads asked
    (None before ``--threads``)."""
    for key in ("threads_used", "threads"):
        if isinstance(document.get(key), int):
            return document[key]
    return None


def _threads_text(documents: Sequence[Document]) -> str:
    """", N threads a question" for a run's line documents: the threads the questions searched on, and the number
    asked where that differs (a deal under 5 tricks, as every Kratzen deal, searches on one), so that a figure is
    not published as measured on threads that sat idle. Nothing for a run saved before ``--threads``."""
    asked = next((doc["threads"] for doc in documents if isinstance(doc.get("threads"), int)), None)
    used = sorted({threads for threads in map(_used_threads, documents) if threads is not None})
    if asked is None or not used:
        return ""
    if used == [asked]:
        return f", {plural(asked, 'thread')} a question"
    if len(used) == 1:
        return f", {plural(used[0], 'thread')} a question; {asked} asked, but under 5 tricks left one searches"
    return f", {' or '.join(map(str, used))} threads a question; {asked} asked, but under 5 tricks left one searches"


def lower_bounds(stats: BenchStats) -> set[str]:
    """The statistics of a line that are only lower bounds (a solve stopped at the limit counts at it), by their
    document keys: the table marks them ``>=``, as bench/report.py does."""
    figures = {"median_ms": stats.median, "p90_ms": stats.p90, "p99_ms": stats.p99, "max_ms": stats.max}
    return {key for key, value in figures.items() if stats.is_lower_bound(value)}


def differences_text(host: Document, compared: SavedRun, documents: Sequence[Document]) -> str:
    """``not the same in the two runs: ...`` (:func:`run_differences`), or '' when the runs differ only in time."""
    differ = run_differences(host, compared, documents)
    return f"not the same in the two runs: {', '.join(differ)}; the ratios measure that too" if differ else ""


def comparison_notes(documents: Sequence[Document], compared: SavedRun) -> list[str]:
    """What a line's ratios are not, said under the table (or on stderr with ``--json`` or ``--out -``): why a line
    has none, and that a saved line stopped at its limit gave ratios to lower bounds."""
    notes = []
    for doc in documents:
        before = compared.lines.get(doc["line"])
        reason = not_compared_reason(doc, before)
        if reason is not None:
            notes.append(f"- {doc['line']}: {reason}")
        elif before is not None and (before.get("timeouts") or 0) > 0:  # the same deals, as many
            notes.append(f"{doc['line']}: the saved run stopped {before['timeouts']} of {plural(doc['deals'], 'deal')}"
                         f" at its limit ({_limit(before.get('limit_ms'))}) and counted them at it: its times are "
                         "lower bounds, and the ratios to them upper bounds")
    return notes


def render_bench(documents: Sequence[Document], console: Console, host: Document,
                 compared: SavedRun | None = None, bounds: dict[str, set[str]] | None = None,
                 unfinished: tuple[Document, int] | None = None) -> None:
    """``stich bench``: the machine, then one row per benchmark line; with a saved run, its ratios. ``bounds``: each
    line's statistics that are lower bounds (:func:`lower_bounds`), marked ``>=``. ``unfinished``: the line a stop
    came in, of the deals it measured, and how many it was to measure: a last row, its deals ``37 of 100``."""
    console.print(Text(f"machine: {machine_text(host)}"))  # one line each piped (stdout_console), for grep
    if compared is not None:
        run = compared.document
        when = f", saved {run['saved']}" if run.get("saved") else ""
        console.print(Text(f"compared with {compared.path}{when}: {machine_text(compared.machine)}"
                           f"{_threads_text(list(compared.lines.values()))}"
                           + (f"; {partial_text(run)}" if partial_text(run) else "")))
        differ = differences_text(host, compared, documents)
        if differ:
            console.print(Text(differ))
    stopped, planned = (None, 0) if unfinished is None else unfinished
    rows = [*documents] if stopped is None else [*documents, stopped]  # the stopped line last
    table = Table(title=f"Engine benchmark (ms per deal{_threads_text(rows)})",
                  title_justify="left", title_style="bold")
    table.add_column("line", ratio=1, min_width=24)
    for column in ("deals", "median", "p90", "p99", "max", "nodes/s", "table used/alloc"):
        table.add_column(column, justify="right", no_wrap=True)
    if compared is not None:
        for _, label in RATIOS:
            table.add_column(f"x{label}", justify="right", no_wrap=True)
    for doc in rows:
        marked = (bounds or {}).get(doc["line"], set())
        times = [(">= " if key in marked else "") + _ms(doc[key])
                 for key in ("median_ms", "p90_ms", "p99_ms", "max_ms")]
        deals = f"{doc['deals']:,} of {planned:,}" if doc is stopped else f"{doc['deals']:,}"
        row: list[Text | str] = [doc["line"], deals, *times, _nodes_per_second(doc["nodes_per_second"]),
                                 f"{_size(doc['table_used_bytes'])} / {_size(doc['table_allocated_bytes'])}"]
        if compared is not None and doc is stopped:
            row += ["-"] * len(RATIOS)
        elif compared is not None:
            ratios = doc.get("compared") or {}
            row += [_ratio(ratios.get(key), key != "nodes_per_second") for key, _ in RATIOS]
        table.add_row(*row)
    if getattr(console, "narrows", False) and not fits(console, table):
        table.columns[0].min_width = None  # at 80 columns the figures wrap too: the table was 124 wide
        for laid_out in table.columns:
            laid_out.no_wrap = False
    console.print(table)
    console.print(Text("table: the most any deal wrote to / what the engine allocated", style="dim"))
    deal_sets = dict.fromkeys(f"{doc['game']} {_deals_text(doc)}" for doc in rows)
    console.print(Text(f"deals: {'; '.join(deal_sets)}", style="dim"))  # --seed, -n, --variant
    if compared is not None:
        console.print(Text("x: this run / the saved one (times below 1 and nodes/s above 1 are faster; - where "
                           "the saved run has no such line or timed other deals, and for nodes/s where either run "
                           "finished none of the line's deals)", style="dim"))
        for note in comparison_notes(documents, compared):
            console.print(Text(note, style="dim"))
    if stopped is not None:
        console.print(Text(f"{stopped['line']}: stopped by the interrupt after {stopped['deals']:,} of "
                           f"{plural(planned, 'deal')}: its figures are of those", style="dim"))
    for doc in rows:
        if doc["timeouts"]:
            console.print(Text(f"{doc['line']}: {doc['timeouts']} of {plural(doc['deals'], 'deal')} stopped at the "
                               f"limit ({_limit(doc['limit_ms'])}) and counted at it: the figures marked >= are "
                               "lower bounds, and nodes/s counts only the finished deals"
                               f"{'; none finished, so nodes/s is -' if doc['timeouts'] >= doc['deals'] else ''}",
                               style="dim"))


# --- the command ------------------------------------------------------------------------------------------------


def under_old_name(context: typer.Context, name: str, value: T, old: str, old_value: T | None) -> T:
    """An option's value, or its old name's (``--limit``, ``--deals``, ``--save``: bench's names before they took the
    other commands' ``--time-limit``, ``--count`` and ``--out``), kept hidden so that scripts do not break; both at
    once is a usage error. ``name`` is the new option's parameter, whose source tells whether it was given. The old
    name alone is taken with a note on stderr naming the new one, so that a script learns it before the old goes."""
    if old_value is None:
        return value
    option = next(opt for opt in context.command.params if opt.name == name).opts[-1]
    source = context.get_parameter_source(name)
    if source is not None and source.name == "COMMANDLINE":
        raise typer.BadParameter(f"give {option} alone ({old} is its old name)", param_hint=f"'{old}'")
    message(f"stich: bench: {old} is the old name of {option}, as every command names it: give {option} (the old "
            "name still works)")
    return old_value


def bench(
    context: typer.Context,
    game: Optional[str] = game_option(None, "Only this game's lines (default: all)."),
    count: int = typer.Option(10, "-n", "--count", metavar="N", min=1, max=MAX_BENCH_DEALS,
                              help="How many deals per line (the full benchmark uses 100)."),
    old_count: Optional[int] = typer.Option(None, "--deals", metavar="N", min=1, max=MAX_BENCH_DEALS,
                                            hidden=True),  # --count's old name
    seed: Optional[int] = typer.Option(None, "--seed", "-s", metavar="SEED", callback=checked_seed,
                                       help="Seed of the deals: the same seed gives the same deals (default: each "
                                            "game's fixed seed)."),
    limit: Optional[float] = time_limit_option("each deal's solve", "the solve is stopped and counted at the limit",
                                               default=DEFAULT_LIMIT_S, reference_refuses=False,
                                               with_none=" (each deal then solved in this process)"),
    old_limit: Optional[float] = typer.Option(None, "--limit", metavar="SECONDS",  # --time-limit's old name
                                              callback=seconds_kept_or_no_limit, hidden=True),
    as_json: bool = typer.Option(False, "--json",
                                 help="One JSON document per line on stdout (JSON Lines, docs/json.md)."),
    variant: Optional[List[str]] = typer.Option(None, "--variant", metavar="NAME=VALUE",
                                                help="A variant flag of the --game's lines (repeatable)."),
    out: Optional[Path] = output_file("Keep this run in FILE (JSON), to --compare a later run with (- is stdout)."),
    old_out: Optional[Path] = typer.Option(None, "--save", metavar="FILE", parser=file_name,
                                           hidden=True),  # --out's old name
    compare: Optional[Path] = typer.Option(None, "--compare", metavar="FILE", parser=file_name,
                                           help="Show each line's ratios to the run saved in FILE."),
    table_mb: Optional[int] = TABLE_MB,
    threads: Optional[int] = THREADS,
) -> None:
    """Time the engine on seeded deals: median, p90, p99 and max per deal, nodes per second and table memory, for
    each line of the benchmark (a fresh engine per deal, so no table is reused), and the machine they ran on. Run
    the same command with --out before a change and with --compare after it to see what the change did."""
    limit = under_old_name(context, "limit", limit, "--limit", old_limit)
    deals = under_old_name(context, "count", count, "--deals", old_count)
    save = under_old_name(context, "out", out, "--save", old_out)
    flags = parse_variant_options(variant)
    engine_for(None)  # STICH_IMPLEMENTATION and STICH_TABLE_MB checked before any line
    if flags and game is None:
        raise typer.BadParameter("--variant needs --game (flags belong to one game)", param_hint="'--variant'")
    typed = "--save" if old_out is not None else "--out"  # the name the user gave it
    if game is not None:
        check_game_options(game, flags)
    if save is not None and compare is not None and (clash := replaces_compared(save, compare)) is not None:
        raise typer.BadParameter(f"{typed} {clash}: the run would replace the run it is compared with; give {typed} "
                                 "another file", param_hint=f"'{typed}'")
    compared: SavedRun | None = None
    with input_errors():
        # before the lines run, not after; stdout: the run's one document is then stdout's data
        saved_to_stdout = save is not None and checked_output(
            save, typed, stdout_holds="--json writes its lines" if as_json else None)
        if compare is not None:
            compared = read_saved_run(compare)
            if as_json and partial_text(compared.document):  # the table's "compared with" line says it otherwise
                message(f"stich: bench: {compare} holds a run stopped early, {partial_text(compared.document)}: "
                        "the lines it has not show no ratios")
    from solver.benchmark import line_seed, machine, run_line  # the pool, once the options and files are checked

    host = machine()
    note_threads_over_cores(threads)
    asked = default_threads() if threads is None else threads
    options = {"threads": asked} | ({"tt_megabytes": table_mb} if table_mb is not None else {})
    recorded = min(asked, usable_cores())  # what a question alone gets (never more threads than cores)
    documents: list[Document] = []
    bounds: dict[str, set[str]] = {}
    lines = selected_lines(game)
    with input_errors():
        for line in lines:
            if flags:
                spelt = get_game(line.game).variant(flags).spelt(flags)  # YES as the game spells it: true
                line = dataclasses.replace(line, variant=tuple(sorted(spelt.items())))
            working: str | None = line.name  # the line being measured (None: finished, the next not begun)
            measuring: list[BenchStats] = []  # its stats, filled deal by deal: a stop keeps the deals measured
            try:
                with progress_on_stderr(line.name) as progress:
                    stats = run_line(line, deals=deals, seed=seed, limit_s=limit or None, engine_options=options,
                                     progress=lambda p: progress(f"deal {p.done}/{p.total}, {p.ms:.1f} ms"),
                                     started=measuring.append)
                document = bench_document(line, stats, line_seed(line, seed), host, recorded)
                bounds[line.name] = lower_bounds(stats)
                if compared is not None:
                    document["compared"] = comparison(document, compared.lines.get(line.name))
                with interrupts_held():  # printed and counted together, for what an interrupt says
                    if as_json:
                        emit_json(document)
                    documents.append(document)
                    working = None
            except KeyboardInterrupt:  # the finished lines are whole: show and save them, marked partial
                part = measuring[0].complete() if measuring and working is not None else None
                unfinished: tuple[Document, int] | None = None
                if part is not None and part.deals:
                    unfinished = (bench_document(line, part, line_seed(line, seed), host, recorded), deals)
                    bounds[line.name] = lower_bounds(part)
                shown = bool(documents or unfinished) and not as_json and not saved_to_stdout
                if shown:
                    render_bench(documents, stdout_console(), host, compared, bounds, unfinished)
                target = None if save is None or not (documents or unfinished) else partial_target(save)
                refused = None  # a file holding finished lines, which a run that finished none does not replace
                if target is not None and not documents and not is_stdout(target) and holds_finished_lines(target):
                    refused, target = target, None
                if target is not None:
                    stopped_in = {} if unfinished is None else {"unfinished": unfinished[0], "planned_deals": deals}
                    save_run(target, saved_run(documents, host, {"lines": len(lines), "interrupted_during": line.name,
                                                                 **stopped_in}))
                held = ["the finished lines"] if documents else []
                held += ["the deals of the line stopped in"] if unfinished else []
                kept = f" ({save} holds a whole run: kept)" if target is not None and target != save else ""
                saved = ("" if save is None else
                         f"; {' and '.join(held)} saved to {target}, marked partial{kept}" if target is not None else
                         f"; nothing saved to {refused}: it holds finished lines, which this run has none of (kept)"
                         if refused is not None else f"; nothing saved to {save}")
                above = " (above)" if shown else ""
                finished = f"{len(documents)} of {plural(len(lines), 'line')} finished" + (above if documents else "")
                where = f"in the line {working!r}" if working is not None else "between two lines"
                if unfinished is not None:
                    where += (f" after {unfinished[0]['deals']:,} of {plural(deals, 'deal')}"
                              + ("" if documents else above))
                say_interrupted("bench", f"{where}: {finished}{saved}")
                raise
    if (as_json or saved_to_stdout) and compared is not None:  # what the table says of the comparison, beside JSON
        for note in filter(None, [differences_text(host, compared, documents), *comparison_notes(documents, compared)]):
            message(f"stich: bench: {note.removeprefix('- ')}")
    table_shown = run_saved = False
    try:
        with interrupts_held():  # the run printed and saved whole before a stop that comes now, which then says so
            if not as_json and not saved_to_stdout:  # the table first: a save that fails (a full disk) keeps it
                render_bench(documents, stdout_console(), host, compared, bounds)
                table_shown = True
            with input_errors():
                if save is not None:
                    save_run(save, saved_run(documents, host))
                    run_saved = True
                    remove_partial_beside(save, compare, {doc["line"] for doc in documents})
    except KeyboardInterrupt as stop:
        said = f"after {'its one line' if len(lines) == 1 else f'all {len(lines)} lines'} finished"
        if isinstance(stop, OutputCut):
            said += ": a second interrupt cut the table short"
        elif table_shown:
            said += ": the table above is whole"
        if save is not None:
            said += f"; the run saved whole to {save}" if run_saved else f"; nothing saved to {save}"
        say_interrupted("bench", said)
        raise
