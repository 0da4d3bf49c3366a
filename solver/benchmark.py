"""The standard benchmark lines, measured the same way every time.

Every line solves a fixed set of seeded deals (board ``k`` of a fixed seed per game, see
:func:`~solver.generate.random_record`), so two runs -- on two machines, or before and after an engine change -- time
the same positions. Each deal gets a fresh :class:`~solver.search.engine.EngineSolver`, created outside the timed part,
so a transposition table filled by an earlier deal cannot flatter the numbers; only the solve itself is timed, with
all the work the solver does for it (loading the deal into the engine included, as any API caller pays it).

A solve that runs past the limit (60 s by default) is stopped and recorded at the limit, flagged as over it: the deal
is never skipped, so the percentiles stay honest (they become lower bounds, which :meth:`BenchStats.is_lower_bound`
says). To be able to stop a compiled search, the deals are then solved in a child process (a
:class:`~solver.workers.SoloWorker`), which imports a copy of the solver package taken when the first one starts (the
engine is rebuilt in place while being tuned, and a run must measure one build); without a limit they are solved in
this process.

This module backs ``stich bench`` and ``bench/report.py``; it never prints (progress goes to a callback).
"""

from __future__ import annotations

import atexit
import dataclasses
import hashlib
import inspect
import math
import os
import platform
import random
import re
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, NamedTuple

from .cards import bits
from .errors import InvalidContractError, StichError
from .games import GAMES, get_game
from .games.base import Objective
from .generate import random_record
from .limits import DEFAULT_LIMIT_S, MAX_LIMIT_S
from .position import Position, position_from_record
from .search import reference
from .search.engine import EngineSolver, usable_cores
from .workers import SoloWorker

#: The fixed seed of every game's deals (board k of this seed is deal k of a line): each game's ``bench_seed``.
SEEDS: dict[str, int] = {game.name: game.bench_seed for game in GAMES}

#: Deals per line in a full run.
STANDARD_DEALS = 100


#: Tricks left in the endings on which the engine is compared with the reference solver.
ENDING_TRICKS = 5

#: The target for the engine/reference ratio of medians on the endings.
ENDINGS_TARGET_RATIO = 1000.0

#: The techniques switched off in turn by :func:`ablation` (engine options of each configuration).
ABLATIONS: dict[str, dict[str, Any]] = {
    "all on": {},
    "table off": {"use_table": False},
    "equivalence off": {"use_equivalence": False},
    "bounds off": {"use_bounds": False},
    "ordering off": {"use_ordering": False},
    "driver bisect": {"driver": "bisect"},
    "driver window": {"driver": "window"},
}


def ablation_configurations() -> dict[str, dict[str, Any]]:
    """:data:`ABLATIONS`, plus "<technique> off" for every other ``use_*`` switch the engine has grown since (the
    engine is being tuned: a new technique is measured without editing this list)."""
    configurations = dict(ABLATIONS)
    listed = {option for options in ABLATIONS.values() for option in options}
    for name, parameter in inspect.signature(EngineSolver.__init__).parameters.items():
        if name.startswith("use_") and name not in listed and parameter.default is True:
            configurations[f"{name.removeprefix('use_')} off"] = {name: False}
    return configurations


# What a line asks of each deal.
VALUE = "value"  # the exact value of the objective (with ``cards``, every legal card's value too)
REACHES = "reaches"  # yes/no: does the maximising side reach the objective's target?
EVERY_SEAT = "every_seat"  # a per-seat objective, for every seat in turn

#: One deal's answer: (value, card values...) for VALUE, (1,) or (0,) for REACHES, one value a seat for EVERY_SEAT.
Answer = tuple[int, ...]


@dataclass(frozen=True)
class BenchLine:
    """One line of the benchmark: which deals, which question, and its target.

    ``contract`` None lets :func:`random_record` pick (the game's ``bench_calls``, else its ``default_contracts``).
    ``tricks_left`` None solves from trick 1; a number solves the ending reached by a seeded random playout.
    """

    name: str
    game: str
    contract: str | None
    objective: str
    cards: bool = False
    deals: int = STANDARD_DEALS
    seats: int | None = None
    question: str = VALUE
    tricks_left: int | None = None
    target_median_ms: float | None = None
    target_p99_ms: float | None = None
    variant: tuple[tuple[str, str], ...] = ()  # variant flags of the line's game (name, value)

    @property
    def target(self) -> str:
        """The target in words ('' when the line has none of its own)."""
        parts = []
        if self.target_median_ms is not None:
            parts.append(f"median <= {self.target_median_ms:g} ms")
        if self.target_p99_ms is not None:
            parts.append(f"p99 <= {self.target_p99_ms:g} ms")
        return ", ".join(parts)


def standard_lines() -> list[BenchLine]:
    """The standard lines, in a fixed order: every game's ``Game.bench_lines`` (the endings comparison is
    :func:`endings_lines`)."""
    return [BenchLine(game=game.name, **spec) for game in GAMES for spec in game.bench_lines]


def endings_line(game: str, contract: str | None, deals: int = STANDARD_DEALS, label: str | None = None) -> BenchLine:
    """Exact points on the 5-trick endings of a game's deals (the engine/reference comparison); ``label`` names a
    contract left to :func:`random_record` (None), by default as the game's ``bench_endings`` name it, so that a
    line built from the game and contract alone (:func:`run_endings_ratio`) is named as the report's tables name it."""
    if not contract and label is None:
        label = next((name for known, name in get_game(game).bench_endings if known == contract), None)
    shown = contract or label or ""
    return BenchLine(f"{game} {shown}: {ENDING_TRICKS}-trick endings, exact points".replace("  ", " "), game,
                     contract, "points", deals=deals, tricks_left=ENDING_TRICKS)


def endings_lines() -> list[BenchLine]:
    """The endings of line 9: every game's ``Game.bench_endings`` (contract, label)."""
    return [endings_line(game.name, contract, label=label) for game in GAMES for contract, label in game.bench_endings]


# --- deals ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BenchDeal:
    """A deal of a line, ready to solve: the position and the objectives the line asks about (one a seat for a
    per-seat objective)."""

    board: int
    position: Position
    objectives: tuple[Objective, ...]


def _playout(position: Position, tricks_left: int, seed: int, board: int) -> Position:
    """The ending with ``tricks_left`` tricks to go reached by seeded random legal play (the same every run)."""
    rng = random.Random(f"stich-bench-ending:{seed}:{board}")
    state = position.state
    while len(state.history) < position.rules.tricks_in_deal - tricks_left:
        state = state.advance(rng.choice(list(bits(state.legal_cards()))))
    return Position(position.game, position.rules, state, position.played, position.record)


def prepare_deal(line: BenchLine, board: int, seed: int) -> BenchDeal:
    """Board ``board`` of ``seed`` as a deal of ``line``. Raises InvalidContractError when the line's objective does
    not exist on it (Pagat Ultimo when the Pagat is in no hand)."""
    record = random_record(line.game, seed, board, contract=line.contract, seats=line.seats,
                           variant=dict(line.variant), calls=get_game(line.game).bench_calls)
    position = position_from_record(record)
    if line.tricks_left is not None:
        position = _playout(position, line.tricks_left, seed, board)
    if line.question == EVERY_SEAT:
        objectives = tuple(position.objective(line.objective, seat) for seat in range(1, position.rules.seats + 1))
    else:
        objectives = (position.objective(line.objective),)
    return BenchDeal(board, position, objectives)


def line_seed(line: BenchLine, seed: int | None = None) -> int:
    """``seed``, or the game's fixed seed when None: the default is what makes every run solve the same deals."""
    return get_game(line.game).bench_seed if seed is None else seed


#: Boards a line may pass over before :func:`bench_deals` gives up on finding its deals (the Pagat Ultimo line passes
#: over the boards where no hand holds the Pagat: about one in six).
MAX_BOARDS_PASSED = 1000


def bench_deals(line: BenchLine, count: int | None = None, seed: int | None = None) -> list[BenchDeal]:
    """The first ``count`` deals of the line (all its deals by default): boards 1, 2, ... of the game's seed, passing
    over the boards on which the objective does not exist, so every run solves the same deals."""
    return list(iter_bench_deals(line, count, seed))


def iter_bench_deals(line: BenchLine, count: int | None = None, seed: int | None = None) -> Iterator[BenchDeal]:
    """:func:`bench_deals` one at a time, each dealt when it is asked for: a run of ``-n 1000000000`` dealt every deal
    before solving the first (14 MB a second, never a figure)."""
    count = line.deals if count is None else count
    seed = line_seed(line, seed)
    dealt = board = 0
    while dealt < count:
        board += 1
        try:
            deal = prepare_deal(line, board, seed)
        except InvalidContractError as error:
            if board >= MAX_BOARDS_PASSED + count and dealt * 4 < board:
                # a contract or objective that (almost) never exists: say so rather than deal for ever
                raise InvalidContractError(f"{line.name}: {dealt} of the first {board} boards have the line's "
                                           f"contract and objective ({error})") from None
            continue
        dealt += 1
        yield deal


# --- asking -----------------------------------------------------------------------------------------------------------


class Outcome(NamedTuple):
    """What one deal's question gave: the answer, the nodes searched and the most table memory filled (bytes)."""

    answer: Answer
    nodes: int
    bytes_used: int


def ask(solver: EngineSolver, line: BenchLine, deal: BenchDeal) -> Outcome:
    """The line's question on one deal, by the engine: exactly the work a benchmark times."""
    state = deal.position.state
    if line.question == VALUE:
        result = solver.solve(state, deal.objectives[0], cards=line.cards)
        answer = (result.total, *(cv.value for cv in result.card_values))
        return Outcome(answer, result.nodes, solver.engine.table_bytes_used)
    if line.question == REACHES:
        objective = deal.objectives[0]
        assert objective.target is not None, "a yes/no line needs an objective with a target"
        solver.engine.reset_counters()
        yes = solver.reaches(state, objective, objective.target - objective.achieved(state.rules, state))
        return Outcome((int(yes),), solver.engine.nodes, solver.engine.table_bytes_used)
    if line.question == EVERY_SEAT:
        values = []
        nodes = used = 0
        for objective in deal.objectives:  # each seat's objective starts a new table generation
            result = solver.solve(state, objective)
            values.append(result.total)
            nodes += result.nodes
            used = max(used, solver.engine.table_bytes_used)
        return Outcome(tuple(values), nodes, used)
    raise ValueError(f"unknown benchmark question {line.question!r}")


def ask_reference(line: BenchLine, deal: BenchDeal) -> Outcome:
    """The line's question on one deal, by the reference solver (no table: no table memory used)."""
    state = deal.position.state
    if line.question == VALUE:
        result = reference.solve(state, deal.objectives[0], cards=line.cards)
        return Outcome((result.total, *(cv.value for cv in result.card_values)), result.nodes, 0)
    if line.question == REACHES:
        result = reference.solve(state, deal.objectives[0])
        return Outcome((int(bool(result.success)),), result.nodes, 0)
    if line.question == EVERY_SEAT:
        results = [reference.solve(state, objective) for objective in deal.objectives]
        return Outcome(tuple(r.total for r in results), sum(r.nodes for r in results), 0)
    raise ValueError(f"unknown benchmark question {line.question!r}")


# --- statistics -------------------------------------------------------------------------------------------------------


class TableMemory(NamedTuple):
    """Transposition-table memory: what the engine allocated, and what the fullest question wrote to."""

    allocated: int
    used: int


def percentile(values: Iterable[float], p: float) -> float:
    """The nearest-rank percentile: always one of the measured values, never an interpolation, so that
    p90 <= p99 <= max holds for any number of deals."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no measurements")
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class DealResult:
    """One deal's measurement; ``timed_out`` deals carry the limit as their time and no nodes. ``threads``: what the
    question searched on (the asked threads, at most the usable cores; one under 5 tricks left, and for the
    reference solver)."""

    board: int
    ms: float
    nodes: int
    bytes_used: int
    answer: Answer
    timed_out: bool = False
    threads: int = 1
    table_bytes: int = 0  # the table the deal's engine allocated (0: the reference solver, or a stopped solve)


@dataclass
class BenchStats:
    """Per-deal times (ms) and nodes of one line, and the statistics reported on them."""

    line: str
    times_ms: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)
    boards: list[int] = field(default_factory=list)
    answers: list[Answer | None] = field(default_factory=list)
    timed_out: list[bool] = field(default_factory=list)
    bytes_used: list[int] = field(default_factory=list)
    threads: list[int] = field(default_factory=list)  # the threads each deal's question searched on
    table_allocated_bytes: int = 0
    limit_ms: float | None = None
    mismatches: list[int] = field(default_factory=list)  # boards whose answer disagrees with the check's
    planned: int | None = None  # the deals the run was to time: more than ``deals`` in a run stopped part way

    def compare(self, other: BenchStats) -> list[int]:
        """Record (and return) the boards on which these answers disagree with ``other``'s (the reference's, or all
        techniques on). Kept with the figures rather than raised: a long run should still report what it measured,
        and say loudly that a fast wrong engine is no result."""
        theirs = dict(zip(other.boards, other.answers))
        self.mismatches = [board for board, answer in zip(self.boards, self.answers)
                           if answer is not None and theirs.get(board) is not None and answer != theirs[board]]
        return self.mismatches

    def complete(self) -> BenchStats:
        """These stats cut to the deals every list records: a stop that came inside :meth:`add` left one list a deal
        ahead of the others."""
        kept = min(len(values) for values in (self.times_ms, self.nodes, self.boards, self.answers, self.timed_out,
                                             self.bytes_used, self.threads))
        return dataclasses.replace(self, times_ms=self.times_ms[:kept], nodes=self.nodes[:kept],
                                   boards=self.boards[:kept], answers=self.answers[:kept],
                                   timed_out=self.timed_out[:kept], bytes_used=self.bytes_used[:kept],
                                   threads=self.threads[:kept], mismatches=list(self.mismatches))

    def add(self, result: DealResult) -> None:
        self.times_ms.append(result.ms)
        self.nodes.append(result.nodes)
        self.boards.append(result.board)
        self.answers.append(None if result.timed_out else result.answer)
        self.timed_out.append(result.timed_out)
        self.bytes_used.append(result.bytes_used)
        self.threads.append(result.threads)

    @property
    def deals(self) -> int:
        return len(self.times_ms)

    @property
    def timeouts(self) -> int:
        return sum(self.timed_out)

    @property
    def median(self) -> float:
        if not self.times_ms:
            raise ValueError("no measurements")
        return statistics.median(self.times_ms)

    @property
    def p90(self) -> float:
        return percentile(self.times_ms, 90)

    @property
    def p99(self) -> float:
        return percentile(self.times_ms, 99)

    @property
    def max(self) -> float:
        return percentile(self.times_ms, 100)

    @property
    def nodes_per_second(self) -> float:
        """Total nodes / total seconds of the deals that finished (a stopped solve's nodes are unknown)."""
        done = [(ms, n) for ms, n, out in zip(self.times_ms, self.nodes, self.timed_out) if not out]
        seconds = sum(ms for ms, _ in done) / 1000
        return sum(n for _, n in done) / seconds if seconds > 0 else 0.0

    @property
    def median_nodes(self) -> float | None:
        """The median nodes, counting a stopped solve as more than any finished one; None when the median deal
        itself was stopped (its nodes are unknown)."""
        finished = sorted(n for n, out in zip(self.nodes, self.timed_out) if not out)
        ordered: list[float] = [*finished, *[math.inf] * self.timeouts]
        if not ordered:
            return None
        middle = statistics.median(ordered)
        return None if math.isinf(middle) or math.isnan(middle) else middle

    @property
    def threads_used(self) -> int:
        """The most threads a question of the line searched on (a line's deals all leave as many tricks, so all of
        them): what a published figure was measured on, whatever ``--threads`` asked."""
        return max(self.threads, default=1)

    @property
    def peak_table_bytes(self) -> TableMemory:
        return TableMemory(self.table_allocated_bytes, max(self.bytes_used, default=0))

    def is_lower_bound(self, ms: float) -> bool:
        """Whether a statistic is only a lower bound: it reaches the limit at which solves were stopped, or it is the
        median of an even number of deals whose two middle ones include a stopped solve (their mean then lies below
        the limit, and the true median above it)."""
        if self.timeouts == 0 or self.limit_ms is None:
            return False
        if ms >= self.limit_ms:
            return True
        ordered = sorted(zip(self.times_ms, self.timed_out))
        middle = ordered[(len(ordered) - 1) // 2:len(ordered) // 2 + 1]
        return ms == self.median and any(out for _, out in middle)

    def as_dict(self) -> dict[str, Any]:
        memory = self.peak_table_bytes
        return {
            "line": self.line, "deals": self.deals, "boards": list(self.boards),
            "median_ms": self.median, "p90_ms": self.p90, "p99_ms": self.p99, "max_ms": self.max,
            "median_nodes": self.median_nodes, "nodes_per_second": self.nodes_per_second,
            "table_allocated_bytes": memory.allocated, "table_used_bytes": memory.used,
            "timeouts": self.timeouts, "limit_ms": self.limit_ms, "threads_used": self.threads_used,
            "mismatches": list(self.mismatches),
            "times_ms": list(self.times_ms), "nodes": list(self.nodes),
        }


# --- measuring --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Progress:
    """Reported after every deal: which line, how far, and what the deal took."""

    line: str
    done: int
    total: int
    board: int
    ms: float
    timed_out: bool


ProgressCallback = Callable[[Progress], None]
#: Called with a run's stats as its first deal starts, which it then fills deal by deal: a caller stopped part way
#: holds the deals measured (bench/report.py keeps them).
StartedCallback = Callable[["BenchStats"], None]


@dataclass(frozen=True)
class _Task:
    line: BenchLine
    board: int
    seed: int
    engine_options: dict[str, Any] | None  # None: the reference solver


def _measure(task: _Task, on_start: Callable[[], None] | None = None) -> DealResult:
    """Solve one deal with a fresh solver; only the solve is timed."""
    deal = prepare_deal(task.line, task.board, task.seed)
    solver = EngineSolver(**task.engine_options) if task.engine_options is not None else None
    if on_start is not None:
        on_start()
    start = time.perf_counter()
    outcome = ask(solver, task.line, deal) if solver is not None else ask_reference(task.line, deal)
    ms = (time.perf_counter() - start) * 1000
    threads = 1 if solver is None else min(solver.threads_for(deal.position.state), usable_cores())
    return DealResult(task.board, ms, outcome.nodes, outcome.bytes_used, outcome.answer, threads=threads,
                      table_bytes=0 if solver is None else solver.table_bytes)


_snapshot: Path | None = None

#: The start of the name of :func:`pinned_package`'s directory (``stich-bench-PID-XXXXXXXX``, PID the process that
#: made it), by which :func:`remove_orphaned_copies` knows such copies.
COPY_PREFIX = "stich-bench-"
#: The file in a copy that its process holds an exclusive ``flock`` on for its whole life: released by the system
#: however the process ends (``kill -9`` too), and seen as held from any PID namespace that shares the directory.
COPY_LOCK = ".in-use"
_COPY_NAME = re.compile(rf"{re.escape(COPY_PREFIX)}[\w-]+")
_copy_lock: Any = None  # the open lock file of this process's copy, held until it exits


def remove_orphaned_copies(directory: Path | None = None) -> list[Path]:
    """Remove the :func:`pinned_package` copies in ``directory`` (the temporary directory by default) that this user
    made and whose run has ended: a run ended by SIGKILL (or a crash) runs no clean-up, and its copy of the package
    would stay for good. Only folders named as the copies are, owned by this user and not links, are looked at, and
    one is removed only when its lock file (:data:`COPY_LOCK`) can be locked now, its process gone (a process number
    would not do: another PID namespace sharing the directory has its own); a copy without a lock file (an older
    stich's) is left. Returns the directories removed."""
    folder = Path(tempfile.gettempdir()) if directory is None else directory
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        try:
            if (not _COPY_NAME.fullmatch(entry.name) or not entry.is_dir(follow_symlinks=False)
                    or entry.stat(follow_symlinks=False).st_uid != os.getuid()):
                continue
            lock = os.open(os.path.join(entry.path, COPY_LOCK), os.O_RDONLY | os.O_NOFOLLOW)
        except (OSError, AttributeError):  # no lock file (an older copy), a link, or no O_NOFOLLOW here
            continue
        try:
            if _locked_now(lock):  # held until the folder is gone: no new owner can take it meanwhile
                shutil.rmtree(entry.path, ignore_errors=True)
                removed.append(Path(entry.path))
        finally:
            os.close(lock)
    return removed


def _locked_now(descriptor: int) -> bool:
    """Whether an exclusive ``flock`` on ``descriptor`` is taken now, without waiting: no process holds the file."""
    try:
        import fcntl
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except (ImportError, OSError):  # held by its process, or no flock on this system: left alone
        return False
    return True


def _hold_copy(root: Path) -> None:
    """Take this process's lock on its copy (:data:`COPY_LOCK`), made under another name and renamed into place once
    locked, so that no other run ever finds the copy's lock file unlocked while its process lives."""
    global _copy_lock
    try:
        import fcntl
    except ImportError:  # no flock here: the copy has no lock file, and is never removed by another run
        return
    staged = root / f"{COPY_LOCK}.new"
    handle = open(staged, "w")
    fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
    os.replace(staged, root / COPY_LOCK)
    _copy_lock = handle
    atexit.register(handle.close)  # before the copy's removal, registered earlier (atexit runs last in first)


def pinned_package() -> Path:
    """A private copy of the solver package (compiled engine included), made at the first call: every worker this
    process starts imports it instead of the source tree.

    The engine and its Python wrapper are edited and rebuilt in place while they are being tuned; without the copy a
    long run would mix builds (a worker restarted after a stopped solve imports whatever is on disk then), and a
    rebuild could pull the file from under a running search. Returns the directory that holds the copy."""
    global _snapshot
    if _snapshot is None or not _snapshot.exists():
        source = Path(__file__).resolve().parent
        remove_orphaned_copies()
        root = Path(tempfile.mkdtemp(prefix=f"{COPY_PREFIX}{os.getpid()}-"))
        atexit.register(shutil.rmtree, root, True)
        _hold_copy(root)
        shutil.copytree(source, root / source.name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        _snapshot = root
    return _snapshot


def engine_fingerprint(package: Path | None = None) -> str:
    """The first digits of the sha256 of the compiled engine and its wrapper (of the pinned copy by default, of the
    package in ``package`` otherwise), to say which build a run measured."""
    solver_dir = (pinned_package() / "solver") if package is None else package
    digest = hashlib.sha256()
    for path in sorted(solver_dir.glob("_engine*.so")) + [solver_dir / "search" / "engine.py"]:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _worker() -> SoloWorker:
    """A child process that measures one deal at a time (a compiled search over the limit can only be stopped by
    stopping its process), importing the :func:`pinned_package` copy of the solver."""
    return SoloWorker("solver.benchmark:_measure", pinned_package())


def _threads_for(task: _Task, sizing: EngineSolver | None) -> int:
    """The threads a stopped solve was searching on (its worker, stopped, cannot say), asked of ``sizing`` (an
    engine of the line's options); one for the reference solver (``sizing`` None)."""
    if sizing is None:
        return 1
    return min(sizing.threads_for(prepare_deal(task.line, task.board, task.seed).position.state), usable_cores())


def _table_bytes(engine_options: dict[str, Any] | None) -> int:
    """The table an engine with these options allocates (0 for the reference solver, which has none)."""
    return 0 if engine_options is None else EngineSolver(**engine_options).table_bytes


def _run_tasks(name: str, tasks: Iterable[_Task], total: int, limit_s: float | None,
               progress: ProgressCallback | None, engine_options: dict[str, Any] | None,
               started: StartedCallback | None = None) -> BenchStats:
    """Each task measured (in a worker under ``limit_s``), into the line's stats. The table size is the one the
    deals' engines allocated, as they report it: an engine made here only to be sized, with the deals' options, is
    made only when every deal was stopped at the limit."""
    if limit_s is not None and (isinstance(limit_s, bool) or not isinstance(limit_s, (int, float))
                                or not 0 < limit_s <= MAX_LIMIT_S):
        raise StichError(f"the time limit is a number of seconds above 0 and at most {MAX_LIMIT_S:,.0f} (or None: "
                         f"no limit), not {limit_s!r}")
    stats = BenchStats(name, limit_ms=None if limit_s is None else limit_s * 1000, planned=total)
    if started is not None:
        started(stats)
    worker: SoloWorker | None = None
    sizing: EngineSolver | None = None  # the line's stopped deals share one (each made its own 1 MB table)
    try:
        for done, task in enumerate(tasks, 1):
            if limit_s is None:
                measured: DealResult | None = _measure(task)
            else:
                worker = worker or _worker()
                measured = worker.run(task, limit_s)
            if measured is None:
                assert worker is not None and limit_s is not None
                worker.close(stop=True)
                worker = None
                if task.engine_options is not None:
                    sizing = sizing or EngineSolver(**{**task.engine_options, "tt_megabytes": 1})  # smallest table
                result = DealResult(task.board, limit_s * 1000, 0, 0, (), timed_out=True,
                                    threads=_threads_for(task, sizing))
            else:
                result = measured
            stats.add(result)
            stats.table_allocated_bytes = stats.table_allocated_bytes or result.table_bytes
            if progress is not None:
                progress(Progress(name, done, total, task.board, result.ms, result.timed_out))
    except BaseException:  # Ctrl-C (which the worker ignores) or an error: a search in flight is not waited for
        if worker is not None:
            worker.close(stop=True)
        raise
    if worker is not None:
        worker.close()
    if not stats.table_allocated_bytes:
        stats.table_allocated_bytes = _table_bytes(engine_options)
    return stats


def _tasks(line: BenchLine, deals: int | None, seed: int | None,
           engine_options: dict[str, Any] | None) -> Iterator[_Task]:
    """The line's deals as tasks, each dealt just before it is solved (memory does not grow with ``deals``)."""
    seed = line_seed(line, seed)
    return (_Task(line, deal.board, seed, engine_options) for deal in iter_bench_deals(line, deals, seed))


def run_line(line: BenchLine, *, deals: int | None = None, seed: int | None = None,
             engine_options: dict[str, Any] | None = None, progress: ProgressCallback | None = None,
             limit_s: float | None = DEFAULT_LIMIT_S, started: StartedCallback | None = None) -> BenchStats:
    """Time the engine on the line's first ``deals`` deals (all of them by default), a fresh engine per deal.

    ``seed`` None is the game's fixed seed; ``limit_s`` None solves in this process without a limit; ``started`` is
    given the stats before the first deal (:data:`StartedCallback`).
    """
    options = dict(engine_options or {})
    return _run_tasks(line.name, _tasks(line, deals, seed, options), line.deals if deals is None else deals, limit_s,
                      progress, options, started)


def run_reference(line: BenchLine, *, deals: int | None = None, seed: int | None = None,
                  progress: ProgressCallback | None = None, limit_s: float | None = DEFAULT_LIMIT_S,
                  started: StartedCallback | None = None) -> BenchStats:
    """Time the reference solver on the line's deals (meant for endings: it cannot solve whole deals)."""
    total = line.deals if deals is None else deals
    return _run_tasks(f"{line.name} (reference)", _tasks(line, deals, seed, None), total, limit_s, progress, None,
                      started)


def ratio_of_medians(slow: BenchStats, fast: BenchStats) -> float:
    return slow.median / fast.median if fast.median > 0 else math.inf


class EndingsComparison(NamedTuple):
    """The engine and the reference solver timed on the same endings, and the reference's median / the engine's."""

    engine: BenchStats
    reference: BenchStats
    ratio: float


def run_endings_ratio(game: str, contract: str | None, deals: int, seed: int | None = None, *,
                      engine_options: dict[str, Any] | None = None, progress: ProgressCallback | None = None,
                      limit_s: float | None = DEFAULT_LIMIT_S,
                      started: StartedCallback | None = None) -> EndingsComparison:
    """Engine and reference on the same 5-trick endings. The engine's answers are compared with the reference's:
    boards where they differ are in the engine stats' ``mismatches``. ``started`` is given the engine's stats, then
    the reference's (:data:`StartedCallback`)."""
    line = endings_line(game, contract, deals)
    engine = run_line(line, deals=deals, seed=seed, engine_options=engine_options, progress=progress,
                      limit_s=limit_s, started=started)
    slow = run_reference(line, deals=deals, seed=seed, progress=progress, limit_s=limit_s, started=started)
    engine.compare(slow)
    return EndingsComparison(engine, slow, ratio_of_medians(slow, engine))


def ablation(line: BenchLine, deals: int | None = None, *, seed: int | None = None,
             progress: ProgressCallback | None = None, limit_s: float | None = DEFAULT_LIMIT_S,
             configurations: dict[str, dict[str, Any]] | None = None,
             results: dict[str, BenchStats] | None = None,
             started: StartedCallback | None = None) -> dict[str, BenchStats]:
    """The line with each technique switched off in turn (and the other drivers), keyed as
    :func:`ablation_configurations`, put in ``results`` (a new dict by default) as each finishes, so that a caller
    stopped part way holds the configurations measured (and, through ``started``, the deals of the one it was in).

    Every configuration must give the same answers as the first (all on): boards where one does not are in its
    ``mismatches`` (a bug of the engine, not a benchmark figure)."""
    results = {} if results is None else results
    for name, options in (configurations or ablation_configurations()).items():
        stats = run_line(line, deals=deals, seed=seed, engine_options=options, progress=progress, limit_s=limit_s,
                         started=started)
        stats.line = f"{line.name} [{name}]"
        first = next(iter(results.values()), None)
        if first is not None:
            stats.compare(first)
        results[name] = stats
    return results


def target_met(line: BenchLine, stats: BenchStats) -> bool | None:
    """Whether the line's targets are met (None when it has none). A statistic that reaches the limit is only a lower
    bound of the truth, and a target is never claimed met on a lower bound, nor with wrong answers."""
    checks = []
    for target, value in ((line.target_median_ms, stats.median), (line.target_p99_ms, stats.p99)):
        if target is not None:
            checks.append(value <= target and not stats.is_lower_bound(value))
    return (all(checks) and not stats.mismatches) if checks else None


# --- the machine ------------------------------------------------------------------------------------------------------


def cpu_model() -> str:
    """The processor's name as the system reports it (Linux: /proc/cpuinfo), or the platform's guess."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            for row in info:
                key, _, value = row.partition(":")
                if key.strip() in ("model name", "Hardware", "cpu model") and value.strip():
                    return " ".join(value.split())
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine() -> dict[str, Any]:
    """What a run was measured on, saved with it so that two runs can be told apart: the processor, the cores this
    process may use (of all the machine has), Python, stich, the engine build and the system. The version number
    is the same on every commit, so the build is told by :func:`engine_fingerprint` of the package in use."""
    from . import __version__

    return {"cpu": cpu_model(), "cores": usable_cores(), "cores_total": os.cpu_count() or 1,
            "python": platform.python_version(), "implementation": platform.python_implementation(),
            "stich": __version__, "engine": engine_fingerprint(Path(__file__).resolve().parent),
            "system": f"{platform.system()} {platform.release()}".strip()}
