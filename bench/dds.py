"""Bridge DDS side by side with stich: the same kind of question, timed deal by deal in one run.

Bridge's double-dummy solver (DDS 2.9, through the endplay package: ``pip install -e '.[bench]'``) is the bar a
double-dummy solver is measured against. Its deals are not ours, so the pairing is by work, not by deal: deal k of a
line is stich's board k and DDS's seeded deal k (``generate_deal(seed=k)``, the five strains in turn), and the two
are timed one after the other, deal by deal, so that the machine's load falls on both alike; the report gives
medians and their ratios, never a single time. Each side runs in its own process (the DDS side on one thread,
``SetMaxThreads(1)``), so neither's memory or threads slow the other.

DDS's two questions: every lead card's tricks (``solve_board``, the default mode: the counterpart of stich's every
opening card) and the value alone (``OptimalOne``: one best card and its tricks). The value is asked of another
deal (seed k + 100000): DDS keeps its table from one call to the next on the same deal, and the value right after
every lead of the same deal costs it almost nothing.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Callable

from solver.benchmark import DEFAULT_LIMIT_S, BenchLine, _Task, _worker, bench_deals, line_seed
from solver.search.engine import usable_cores

#: The DDS side's loop: one line "k mode" in, one line with the milliseconds (or "error: ...") out.
DDS_WORKER = r"""
import signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)  # the terminal's Ctrl-C is the report's to handle: no traceback here
import endplay._dds
from endplay.dds import solve_board
from endplay.dds.solve import SolveMode
from endplay.dealer import generate_deal
from endplay.types import Denom, Player
endplay._dds.SetMaxThreads(1)
VALUE_SEEDS = 100000
strains = [Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades, Denom.nt]
print("ready", flush=True)
for request in sys.stdin:
    k, mode = request.split()
    deal = generate_deal(seed=int(k) + (0 if mode == "every" else VALUE_SEEDS))
    deal.trump = strains[int(k) % 5]
    deal.first = Player.west
    start = time.perf_counter()
    solve_board(deal, SolveMode.Default if mode == "every" else SolveMode.OptimalOne)
    print((time.perf_counter() - start) * 1000, flush=True)
"""


def dds_missing() -> str | None:
    """None when endplay (bridge DDS) can be imported, else why not, as the report prints it."""
    try:
        import endplay.dds  # noqa: F401
    except ImportError:
        return "not installed (pip install -e '.[bench]')"
    except OSError as error:  # the bundled library does not load on this system
        return f"not loadable ({error})"
    return None


class DDSWorker:
    """The DDS side's process."""

    def __init__(self) -> None:
        # a session of its own: the terminal's Ctrl-C reaches only the report (whose handler stops the run), not a
        # worker still starting up, before its own SIG_IGN; it ends when its stdin closes
        self._process = subprocess.Popen([sys.executable, "-c", DDS_WORKER], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True, start_new_session=True)
        if self._readline() != "ready":
            raise RuntimeError("the DDS worker did not start")

    def _readline(self) -> str:
        assert self._process.stdout is not None
        line = self._process.stdout.readline().strip()
        if not line:
            raise RuntimeError(f"the DDS worker died (exit code {self._process.poll()})")
        return line

    def solve(self, k: int, mode: str) -> float:
        """Milliseconds DDS took on its deal ``k``: ``every`` lead card's tricks, or the ``value`` alone."""
        assert self._process.stdin is not None
        self._process.stdin.write(f"{k} {mode}\n")
        self._process.stdin.flush()
        return float(self._readline())

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


@dataclass
class Paired:
    """One line's medians beside DDS's, from one run."""

    line: BenchLine
    one_thread: list[float] = field(default_factory=list)     # stich's milliseconds per deal, one thread
    all_cores: list[float] = field(default_factory=list)      # ... on every core
    dds_every: list[float] = field(default_factory=list)      # DDS's, every lead card, on its paired deals
    dds_value: list[float] = field(default_factory=list)      # DDS's, the value alone
    stopped_deals: list[int] = field(default_factory=list)    # the deal of each stich solve stopped at the limit

    @property
    def timed_out(self) -> int:
        """How many of stich's solves (one thread and all cores, each) were stopped at the limit."""
        return len(self.stopped_deals)

    @property
    def deals(self) -> int:
        """The deals whose every time is recorded (a stop part way through a deal leaves the others behind)."""
        return min(map(len, (self.one_thread, self.all_cores, self.dds_every, self.dds_value)))

    def complete(self) -> Paired:
        """This line cut to its :attr:`deals`: what a run stopped part way through it measured."""
        kept = self.deals
        return Paired(self.line, self.one_thread[:kept], self.all_cores[:kept], self.dds_every[:kept],
                      self.dds_value[:kept], [deal for deal in self.stopped_deals if deal <= kept])

    @staticmethod
    def median(values: list[float]) -> float:
        return statistics.median(values) if values else float("nan")

    @property
    def speed_up(self) -> float:
        """The one-thread median over the all-cores median."""
        return self.median(self.one_thread) / self.median(self.all_cores)

    @property
    def speed_up_per_deal(self) -> float:
        """The median of each deal's one-thread time over its all-cores time: the same speed-up, paired deal by deal,
        so that it moves less from run to run than the ratio of medians (which takes its two medians from different
        deals)."""
        return self.median([one / many for one, many in zip(self.one_thread, self.all_cores) if many > 0])

    def ratio(self, dds: list[float]) -> float:
        """The all-cores median over a DDS median."""
        return self.median(self.all_cores) / self.median(dds)


def paired_run(lines: list[BenchLine], deals: int, *, threads: int | None = None, limit_s: float = DEFAULT_LIMIT_S,
               progress: Callable[[str], None] | None = None, results: list[Paired] | None = None,
               started: Callable[[Paired], None] | None = None) -> list[Paired]:
    """Every line's first ``deals`` deals on one thread and on ``threads`` (None: every core), each deal followed by
    DDS's every-lead and value-only solves of its paired deal. A solve past ``limit_s`` counts at the limit. Each
    line is put in ``results`` (a new list by default) once its deals are done, so that a caller stopped part way
    holds the lines finished; ``started`` is given each line as its first deal starts, filled deal by deal."""
    threads = threads or usable_cores()
    results = [] if results is None else results
    dds = DDSWorker()
    stich = _worker()
    try:
        for paired in map(Paired, lines):
            if started is not None:
                started(paired)
            seed = line_seed(paired.line)
            for k, deal in enumerate(bench_deals(paired.line, deals, seed), 1):
                for options, times in (({"threads": 1}, paired.one_thread), ({"threads": threads}, paired.all_cores)):
                    measured = stich.run(_Task(paired.line, deal.board, seed, options), limit_s)
                    if measured is None:  # the worker is stuck in the search: a new one for the next deal
                        stich.close(stop=True)
                        stich = _worker()
                        paired.stopped_deals.append(k)
                        times.append(limit_s * 1000)
                    else:
                        times.append(measured.ms)
                paired.dds_every.append(dds.solve(k, "every"))
                paired.dds_value.append(dds.solve(k, "value"))
                if progress is not None:
                    progress(f"{paired.line.name} [vs DDS]: {k}/{deals}")
            results.append(paired)
    finally:
        stich.close()
        dds.close()
    return results
