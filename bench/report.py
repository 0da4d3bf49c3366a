"""The benchmark report: every standard line on its fixed deals, the engine/reference ratio on the endings and
the Zwanzigerrufen ablation, as Markdown tables.

    python bench/report.py [--deals N] [--dds-deals N] [--out bench/README.md] [--json results.json]

``--deals`` defaults to all 100 fixed deals of each line. With ``--out`` an existing file keeps everything outside
the ``<!-- report:begin -->`` / ``<!-- report:end -->`` markers (so the README's instructions survive a rerun); a file
without the markers is replaced by the report. Progress goes to stderr: a line per deal on a terminal; in a log
one a minute, and each line's last deal. Every solve is stopped at ``--limit`` seconds
(default 60) and then counts at the limit: such figures are printed with ">=" and never meet a target. The options
are checked before the run (a file that cannot be written, ``--dds-only`` without bridge DDS: exit 2); Ctrl-C, SIGTERM
or SIGHUP stops it with a word and exit 130, as they stop a stich command, and keeps the lines it finished and the
deals of the line it stopped in ("37 of 100 deals"): the report of those, marked partial, on stdout, or beside
``--out FILE`` in ``FILE.partial.md`` (and beside ``--json``) so that the whole report in FILE is not replaced by part
of one; a completed run removes those partial files. A stop after the last line waits until the report is written.

It measures the installed package (``pip install -e .`` in a checkout; ``pip install -e '.[bench]'`` adds bridge DDS
for the side-by-side lines, bench/dds.py); the checkout's own ``solver/`` only when no package is installed.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import signal
import subprocess
import sys
import time
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

ROOT = Path(__file__).resolve().parents[1]
try:
    from solver import _engine  # noqa: F401 -- the installed package, compiled engine included
except ImportError:  # nothing installed: the checkout, built in place
    sys.path.insert(0, str(ROOT))

from dds import Paired, dds_missing, paired_run  # noqa: E402
from solver.benchmark import (DEFAULT_LIMIT_S, ENDINGS_TARGET_RATIO, MAX_LIMIT_S, SEEDS, STANDARD_DEALS,  # noqa: E402
                              BenchLine, BenchStats, Progress, ablation, ablation_configurations, endings_lines,
                              engine_fingerprint, pinned_package, run_endings_ratio, run_line, standard_lines,
                              target_met)
from solver.files import atomic_file, check_writable  # noqa: E402
from solver.search.engine import usable_cores  # noqa: E402
from solver.interrupts import (interrupt, restore_signals,  # noqa: E402  (a stop: a word, not a traceback)
                               take_stop_signals)

if TYPE_CHECKING:  # mypy reads the checkout's cli/, which the installed package maps to solver.cli
    from cli.bench import partial_beside, partial_note, remove_partial_beside
    from cli.errors import interrupts_held
else:
    try:  # the stich command's own: a stop held while the report is written, and the partial files beside a run's
        from solver.cli.bench import partial_beside, partial_note, remove_partial_beside
        from solver.cli.errors import interrupts_held
    except ImportError:  # the checkout, not installed
        from cli.bench import partial_beside, partial_note, remove_partial_beside
        from cli.errors import interrupts_held

BEGIN = "<!-- report:begin -->"
END = "<!-- report:end -->"


# --- formatting -------------------------------------------------------------------------------------------------------


def fmt_ms(ms: float, stats: BenchStats | None = None) -> str:
    """Milliseconds with the digits that mean something on a noisy machine; '>=' for a lower bound."""
    if ms < 1:
        text = f"{ms:.3f}"
    elif ms < 10:
        text = f"{ms:.2f}"
    elif ms < 1000:
        text = f"{ms:.1f}"
    else:
        text = f"{ms:,.0f}"
    return f">= {text}" if stats is not None and stats.is_lower_bound(ms) else text


def fmt_count(value: float | None) -> str:
    if value is None:
        return "over limit"
    for size, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= size:
            return f"{value / size:.2f} {unit}"
    return f"{value:.0f}"


def fmt_rate(value: float) -> str:
    """A line's nodes per second, or ``-`` where none of its deals finished (the figure is 0: a stopped solve's nodes
    are unknown), as ``stich bench`` prints it."""
    return fmt_count(value) if value > 0 else "-"


def fmt_bytes(value: int) -> str:
    for size, unit in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if value >= size:
            return f"{value / size:.1f} {unit}"
    return f"{value} B"


def fmt_ratio(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{value:,.0f}x" if value >= 100 else f"{value:.2f}x"


def fmt_met(met: bool | None) -> str:
    return "n/a" if met is None else ("**yes**" if met else "no")


def fmt_boards(boards: list[int]) -> str:
    return "none" if not boards else "**boards " + ", ".join(str(b) for b in boards) + "**"


def fmt_deals(stats: BenchStats) -> str:
    if not stats.timeouts:
        return str(stats.deals)
    return f"{stats.deals} ({stats.timeouts} over {fmt_ms(stats.limit_ms or 0)} ms)"


# --- the machine ------------------------------------------------------------------------------------------------------


def _command(*args: str, cwd: Path = ROOT) -> str:
    try:
        return subprocess.run(args, capture_output=True, text=True, cwd=cwd, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def engine_build(package: Path | None = None) -> str:
    """Which engine build the run measured: the fingerprint of the copy of the package its workers import (or of
    the package in ``package``), and when its compiled engine was built."""
    directory = (pinned_package() / "solver") if package is None else package
    built = max(p.stat().st_mtime for p in directory.glob("_engine*.so"))
    when = datetime.datetime.fromtimestamp(built, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    return f"sha256 {engine_fingerprint(package)} (engine built {when} UTC)"


def live_package() -> Path:
    import solver

    return Path(solver.__file__).resolve().parent


def stale_sources() -> str:
    """Engine sources edited after the compiled engine was built (a run then measures an older engine than the
    sources say): the sources beside the measured package, which need not be this checkout's."""
    built = max((p.stat().st_mtime for p in live_package().glob("_engine*.so")), default=0.0)
    newer = sorted(p.name for p in (live_package().parent / "src_ext").glob("*.p*") if p.stat().st_mtime > built)
    return ", ".join(newer) if newer else "none"


def measured_package() -> str:
    """Where the measured package lives: the installed one is measured (module docstring), which is another
    checkout's when this one is not the one installed (a second clone or worktree), and the report says so."""
    package = live_package()
    if package == ROOT / "solver":
        return str(package)
    return (f"{package} (not this checkout's {ROOT / 'solver'}: the installed package is measured; "
            f"PYTHONPATH={ROOT} measures this one)")


def machine() -> dict[str, str]:
    """What the figures depend on besides the code: cores, CPU, Python, the load when the run started, the commit
    of the measured package (not necessarily this checkout's: :func:`measured_package`)."""
    repository = live_package().parent
    commit = _command("git", "rev-parse", "--short", "HEAD", cwd=repository) or "unknown"
    changed = _command("git", "status", "--porcelain", "--untracked-files=no", cwd=repository)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    return {
        "nproc": _command("nproc") or str(os.cpu_count()),
        "cpu": _cpu_model(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "load average at start": load,
        "package": measured_package(),
        "commit": commit + (" with uncommitted changes" if changed else ""),
        "engine": engine_build() + ", pinned for the whole run",
        "engine sources newer than the build": stale_sources(),
    }


# --- the run ----------------------------------------------------------------------------------------------------------


@dataclass
class Report:
    deals: int
    limit_s: float
    machine: dict[str, str]
    lines: list[tuple[BenchLine, BenchStats]]
    endings: list[tuple[BenchLine, BenchStats, BenchStats, float]]
    ablation_line: BenchLine | None
    ablation: dict[str, BenchStats]
    dds: list[Paired] = field(default_factory=list)
    dds_missing: str | None = None            # why the DDS lines were not run (None: they were, or were not asked)
    threads: int = 1
    seconds: float = 0.0
    engine_at_end: str = ""
    dds_only: bool = False
    dds_deals: int = 0                        # the deals of each line paired with DDS
    planned: list[str] = field(default_factory=list)  # every line the run is to measure, by name
    whole: bool = False                       # every planned line measured
    #: The line being measured, by name, and its runs as they start (:meth:`started`), filled deal by deal
    measuring: tuple[str | None, list[BenchStats | Paired]] = field(default_factory=lambda: (None, []))

    @property
    def working(self) -> str | None:
        """The line being measured (the first planned one not finished); None once the run is whole."""
        finished = finished_lines(self)
        return None if self.whole or finished >= len(self.planned) else self.planned[finished]

    def started(self, run: BenchStats | Paired) -> None:
        """Each run as it starts (the ``started`` of :mod:`solver.benchmark`'s runs and of bench/dds.py's
        ``paired_run``): held with the line being measured, so that a stop keeps the deals it measured; an ending's
        reference solver joins its engine's run."""
        if self.measuring[0] != self.working:
            self.measuring = (self.working, [])
        self.measuring[1].append(run)


#: Where stderr is no terminal (a log), the least time between two progress lines, as ``stich batch`` logs: a line
#: per deal wrote 300 lines a run into the log, several a second.
LOG_SECONDS = 60.0


def _progress_log(started: float, terminal: bool | None = None) -> Callable[[str, bool], None]:
    """The run's progress on stderr, ``say(text, always)``: on a terminal every line; elsewhere the first, then one
    every LOG_SECONDS, and every line said ``always`` (a benchmark line's last deal, a deal stopped at the limit)."""
    on_a_terminal = sys.stderr.isatty() if terminal is None else terminal
    said = [float("-inf")]

    def say(text: str, always: bool) -> None:
        now = time.monotonic()
        if on_a_terminal or always or now - said[0] >= LOG_SECONDS:
            said[0] = now
            print(f"[{now - started:7.0f} s] {text}", file=sys.stderr, flush=True)
    return say


def _progress(say: Callable[[str, bool], None]) -> Callable[[Progress], None]:
    def report(p: Progress) -> None:
        what = "stopped at the limit" if p.timed_out else f"{fmt_ms(p.ms)} ms"
        say(f"{p.line}: {p.done}/{p.total} (board {p.board}) {what}", p.done == p.total or p.timed_out)
    return report


#: One thread per question: the lines that compare techniques or solvers by nodes and time stay node-exact.
ONE_THREAD = {"threads": 1}


def dds_lines() -> list[BenchLine]:
    """The lines paired with DDS (issue targets: all cores against DDS's every-lead median)."""
    by_name = {line.name: line for line in standard_lines()}
    return [by_name["Zwanzigerrufen Normal: points + every opening card"],
            by_name["Zwanzigerrufen Normal: exact points"],
            by_name["Schafkopf Rufer: points + every opening card"]]


#: The targets of the DDS lines: the all-cores median at most this share of DDS's every-lead median.
DDS_TARGETS = {"Zwanzigerrufen Normal: points + every opening card": 1.0, "Zwanzigerrufen Normal: exact points": 0.5,
               "Schafkopf Rufer: points + every opening card": 0.1}
#: The target speed-up of all cores over one thread (2 cores) on the Zwanzigerrufen lines.
SPEED_UP_TARGET = 1.6


def run(deals: int, ablation_deals: int, limit_s: float, dds_deals: int = 0, threads: int | None = None,
        dds_only: bool = False, report: Report | None = None) -> Report:
    """Measure every section into ``report`` (a new one by default) as each line finishes, so that a run stopped
    part way holds what it finished (:func:`stopped_text`); ``report.working`` names the line being measured."""
    started = time.monotonic()
    say = _progress_log(started)
    pinned_package()  # before the first line: every worker of the run imports this copy
    if report is None:
        report = Report(deals, limit_s, {}, [], [], None, {})
    report.deals, report.limit_s, report.dds_only, report.dds_deals = deals, limit_s, dds_only, dds_deals
    report.threads = threads or usable_cores()
    report.machine = machine()
    configurations = {name: {**ONE_THREAD, **options} for name, options in ablation_configurations().items()}
    zwanzigerrufen = standard_lines()[0]
    planned = [] if dds_only else [line.name for line in standard_lines()] + [line.name for line in endings_lines()]
    if ablation_deals and not dds_only:
        planned += [f"{zwanzigerrufen.name} [{name}]" for name in configurations]
    missing = dds_missing() if dds_deals else None
    if dds_deals and missing is None:
        planned += [f"{line.name} [vs DDS]" for line in dds_lines()]
    report.dds_missing, report.planned = missing, planned  # whole: a stop before here names no line and no total
    try:
        measure(report, deals, ablation_deals, limit_s, dds_deals, threads, say, configurations, zwanzigerrufen)
    finally:  # a stopped run's report says its wall time too
        report.seconds = time.monotonic() - started
    return report


def completed(report: Report) -> None:
    """Every planned line measured: ``report`` marked whole, with the engine build found at its end."""
    report.whole = True
    report.engine_at_end = engine_build(live_package())


def measure(report: Report, deals: int, ablation_deals: int, limit_s: float, dds_deals: int, threads: int | None,
            say: Callable[[str, bool], None], configurations: dict[str, dict], zwanzigerrufen: BenchLine) -> None:
    """The lines of :func:`run`, each put in ``report`` as it finishes; ``configurations`` are the ablation's, of the
    line ``zwanzigerrufen``."""
    progress = _progress(say)
    dds_only = report.dds_only
    for line in [] if dds_only else standard_lines():
        report.lines.append((line, run_line(line, deals=deals, limit_s=limit_s, progress=progress,
                                            engine_options=ONE_THREAD, started=report.started)))
    for line in [] if dds_only else endings_lines():
        engine, reference, ratio = run_endings_ratio(line.game, line.contract, deals, progress=progress,
                                                     limit_s=limit_s, engine_options=ONE_THREAD,
                                                     started=report.started)
        report.endings.append((line, engine, reference, ratio))
    if ablation_deals and not dds_only:
        report.ablation_line = zwanzigerrufen
        ablation(zwanzigerrufen, ablation_deals, progress=progress, limit_s=limit_s, configurations=configurations,
                 results=report.ablation, started=report.started)
    if dds_deals and report.dds_missing is None:
        paired_run(dds_lines(), dds_deals, threads=threads, limit_s=limit_s, progress=lambda text: say(text, False),
                   results=report.dds, started=report.started)


def finished_lines(report: Report) -> int:
    """How many of the run's lines are measured in ``report``: each standard line, ending, ablation configuration and
    DDS line counts once all its deals are done."""
    return len(report.lines) + len(report.endings) + len(report.ablation) + len(report.dds)


def _stopped_runs(report: Report) -> list[BenchStats | Paired]:
    """The runs of the line a stopped run was in; none once the run is whole or that line is among the finished."""
    name, runs = report.measuring
    return runs if name is not None and name == report.working else []


def unfinished_runs(report: Report) -> list[BenchStats]:
    """The runs of the line a stopped run was in (a line's or an ablation configuration's one, an ending's engine and
    reference solver), each cut to the deals it measured whole."""
    return [run.complete() for run in _stopped_runs(report) if isinstance(run, BenchStats)]


def unfinished_dds(report: Report) -> Paired | None:
    """The DDS line a stopped run was in, cut to the deals it measured whole; None where there is none, or it has
    none."""
    kept = next((run.complete() for run in _stopped_runs(report) if isinstance(run, Paired)), None)
    return kept if kept is not None and kept.deals else None


def unfinished_text(report: Report) -> str:
    """``37 of 100 deals``, for an ending each run's (``100 of 100 deals of the engine, 0 of the reference solver``):
    what the line a stopped run was in measured; '' where it measured none."""
    paired = unfinished_dds(report)
    if paired is not None:
        return f"{paired.deals:,} of {report.dds_deals:,} deals"
    runs = unfinished_runs(report)
    if not any(run.deals for run in runs):
        return ""
    if report.working not in {line.name for line in endings_lines()}:
        return f"{runs[0].deals:,} of {runs[0].planned or 0:,} deals"
    engine = runs[0]
    reference = runs[1].deals if len(runs) > 1 else 0
    return f"{engine.deals:,} of {engine.planned or 0:,} deals of the engine, {reference:,} of the reference solver"


def stopped_text(report: Report) -> str:
    """``stopped during 'LINE' after 37 of 100 deals: 3 of 24 lines finished``: what a stopped run holds, said in the
    partial report and on stderr (as ``stich bench`` says its own)."""
    if not report.planned:
        return "stopped before its first line"
    during = f"during {report.working!r}" if report.working is not None else "after its last line"
    measured = unfinished_text(report)
    return (f"stopped {during}{f' after {measured}' if measured else ''}: {finished_lines(report)} of "
            f"{len(report.planned)} lines finished")


# --- rendering --------------------------------------------------------------------------------------------------------


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out


def render(report: Report) -> str:
    """The report as Markdown; a stopped run's (not ``report.whole``) says so first, and shows only the sections it
    has lines of."""
    measured = unfinished_text(report)
    stopped = [] if report.whole else [f"{PARTIAL_MARK}{stopped_text(report)}: every figure below is of a "
                                       f"finished line{UNFINISHED_NOTE if measured else ''}; the "
                                       "lines after it were not measured.**", ""]
    if report.dds_only:
        dds = render_dds(report)[1:] if report.whole or report.dds else []
        return "\n".join(stopped + dds + render_unfinished(report, measured) + render_machine(report)) + "\n"
    seeds = ", ".join(f"{game} {seed}" for game, seed in SEEDS.items())
    out = [
        f"### Results: {report.deals} of the {STANDARD_DEALS} fixed deals per line",
        "",
        f"Deals: boards 1-{report.deals} of the fixed seed of each game ({seeds}); a fresh engine per deal with the "
        f"default {table_size(report)} of tables, single "
        f"thread, only the solve timed. Every solve is stopped at {report.limit_s:g} s and then counts at the limit "
        "(such figures are marked >= and never meet a target). Percentiles are nearest-rank, so with fewer than "
        "100 deals p99 is the max.",
        "",
        *stopped,
    ]
    wrong = wrong_answers(report)
    if wrong:
        out += [f"**Wrong answers: {'; '.join(wrong)}. The engine build measured here is incorrect on those deals.**",
                ""]
    rows = []
    for number, (line, stats) in enumerate(report.lines, 1):
        memory = stats.peak_table_bytes
        rows.append([f"{number}. {line.name}", fmt_deals(stats), fmt_ms(stats.median, stats), fmt_ms(stats.p90, stats),
                     fmt_ms(stats.p99, stats), fmt_ms(stats.max, stats), fmt_rate(stats.nodes_per_second),
                     f"{fmt_bytes(memory.allocated)} / {fmt_bytes(memory.used)}", line.target,
                     fmt_met(target_met(line, stats))])
    if report.whole or rows:
        out += _table(["line", "deals", "median", "p90", "p99", "max (ms)", "nodes/s",
                       "table memory (allocated / used)", "target", "met"], rows)
    if report.whole or report.endings:
        out += render_endings(report)
    if report.ablation_line is not None and report.ablation:
        out += render_ablation(report)
    if report.whole or report.dds:
        out += render_dds(report)
    out += render_unfinished(report, measured)
    out += render_machine(report)
    return "\n".join(out) + "\n"


#: How a partial report's first line says that a section is of the line stopped part way.
UNFINISHED_NOTE = ", but for the deals of the line it stopped in (Stopped part way, below)"


def render_unfinished(report: Report, measured: str) -> list[str]:
    """The line a stopped run was in, with the deals it measured before the stop (``measured``, its
    :func:`unfinished_text`: ``37 of 100 deals``): figures of those deals alone, which meet no target; nothing where
    it measured none."""
    if not measured:
        return []
    out = ["", f"#### Stopped part way: {report.working} ({measured})", ""]
    paired = unfinished_dds(report)
    if paired is not None:
        rows = [[f"{paired.deals:,} of {report.dds_deals:,}", fmt_ms(Paired.median(paired.one_thread)),
                 fmt_ms(Paired.median(paired.all_cores)), fmt_ms(Paired.median(paired.dds_every)),
                 fmt_ms(Paired.median(paired.dds_value))]]
        return out + _table(["deals", "stich 1 thread (ms)", "stich all cores (ms)", "DDS every lead (ms)",
                             "DDS value only (ms)"], rows)
    rows = []
    for label, stats in zip(("engine", "reference solver"), unfinished_runs(report)):
        memory = stats.peak_table_bytes
        figures = ([fmt_ms(stats.median, stats), fmt_ms(stats.p90, stats), fmt_ms(stats.p99, stats),
                    fmt_ms(stats.max, stats), fmt_rate(stats.nodes_per_second)] if stats.deals else ["-"] * 5)
        over = f" ({stats.timeouts} over the limit)" if stats.timeouts else ""
        rows.append([label, f"{stats.deals:,} of {stats.planned or 0:,}{over}", *figures,
                     f"{fmt_bytes(memory.allocated)} / {fmt_bytes(memory.used)}"])
    return out + _table(["run", "deals", "median", "p90", "p99", "max (ms)", "nodes/s",
                         "table memory (allocated / used)"], rows)


def table_size(report: Report) -> str:
    """The table a line's engine allocated, as the first line measured says it ('?' before any deal)."""
    measured = [stats for _, stats in report.lines] + unfinished_runs(report)
    return fmt_bytes(measured[0].table_allocated_bytes) if measured and measured[0].deals else "?"


def render_endings(report: Report) -> list[str]:
    out = ["", f"#### 9. Engine vs reference solver on the same {report.deals} 5-trick endings (exact points)", ""]
    rows = []
    for line, engine, reference, ratio in report.endings:
        lower = engine.timeouts or reference.timeouts
        rows.append([line.name, fmt_deals(engine), fmt_ms(engine.median, engine), fmt_ms(engine.p99, engine),
                     fmt_ms(reference.median, reference), fmt_ms(reference.max, reference),
                     fmt_ratio(ratio) + (" (limit reached)" if lower else ""),
                     f"ratio >= {ENDINGS_TARGET_RATIO:,.0f}x", fmt_boards(engine.mismatches),
                     fmt_met(ratio >= ENDINGS_TARGET_RATIO and not lower and not engine.mismatches)])
    return out + _table(["endings", "deals", "engine median (ms)", "engine p99 (ms)", "reference median (ms)",
                         "reference max (ms)", "ratio of medians", "target", "engine value differs from reference",
                         "met"], rows)


def render_ablation(report: Report) -> list[str]:
    """The ablation's configurations measured (all on first: the others' ratios are to it)."""
    assert report.ablation_line is not None
    base = report.ablation["all on"]
    deals = base.deals
    plural = "" if deals == 1 else "s"
    out = ["", f"#### Ablation: {report.ablation_line.name}, {deals} deal{plural}, one technique off at a time", ""]
    rows = []
    configurations = ablation_configurations()
    for name, stats in report.ablation.items():
        base_nodes, nodes = base.median_nodes, stats.median_nodes
        time_ratio = stats.median / base.median if base.median > 0 else None
        nodes_ratio = nodes / base_nodes if nodes is not None and base_nodes else None
        rows.append([name, ", ".join(f"{k}={v}" for k, v in configurations.get(name, {}).items()) or "-",
                     fmt_ms(stats.median, stats), fmt_count(nodes),
                     ("> " if stats.is_lower_bound(stats.median) else "") + fmt_ratio(time_ratio),
                     fmt_ratio(nodes_ratio), str(stats.timeouts), fmt_boards(stats.mismatches)])
    return out + _table(["configuration", "engine options", "median (ms)", "median nodes", "median time vs all on",
                         "median nodes vs all on", "over limit", "value differs from all on"], rows)


def render_machine(report: Report) -> list[str]:
    out = ["", "#### Machine", ""]
    out += [f"- {key}: {value}" for key, value in report.machine.items()]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    out += [f"- load average at the end: {load}", f"- wall time of the run: {report.seconds / 60:.1f} min"]
    if report.engine_at_end and not report.machine["engine"].startswith(report.engine_at_end):
        out += [f"- the engine in the source tree changed during the run (now {report.engine_at_end}); every "
                "figure above is of the pinned build"]
    return out


def render_dds(report: Report) -> list[str]:
    """The side-by-side lines with bridge DDS (bench/dds.py), or why they are missing."""
    out = ["", "#### Side by side with bridge DDS 2.9 (endplay), paired deal by deal in one run", ""]
    if report.dds_missing is not None:
        return out + [f"DDS: {report.dds_missing}."]
    if not report.dds:
        return out + ["DDS: not run (--dds-deals 0)."]
    out += [f"stich on one thread and on {report.threads} (all cores), DDS on one thread (every lead card's tricks, "
            "and the value alone: one best card); DDS deal k is endplay's generate_deal(seed=k), the five strains in "
            "turn. Ratios are of medians: stich's all-cores median over DDS's; the speed-up is the one-thread median "
            "over the all-cores median (the target's measure), and beside it the median of each deal's own ratio, "
            "which moves less from run to run.", ""]
    rows = []
    for paired in report.dds:
        target = DDS_TARGETS.get(paired.line.name)
        every = paired.ratio(paired.dds_every)
        speed_target = paired.line.game == "Zwanzigerrufen"
        met = target is not None and every <= target and (not speed_target or paired.speed_up >= SPEED_UP_TARGET)
        rows.append([paired.line.name, str(len(paired.all_cores)) + (f" ({paired.timed_out} over the limit)"
                                                                      if paired.timed_out else ""),
                     fmt_ms(Paired.median(paired.one_thread)), fmt_ms(Paired.median(paired.all_cores)),
                     fmt_ratio(paired.speed_up), fmt_ratio(paired.speed_up_per_deal),
                     fmt_ms(Paired.median(paired.dds_every)), fmt_ms(Paired.median(paired.dds_value)),
                     fmt_ratio(every), fmt_ratio(paired.ratio(paired.dds_value)),
                     (f"<= {target:g}x DDS every lead" if target is not None else "")
                     + (f", speed-up >= {SPEED_UP_TARGET:g}x" if speed_target else ""), fmt_met(met)])
    return out + _table(["line", "deals", "stich 1 thread (ms)", "stich all cores (ms)", "speed-up",
                         "speed-up per deal (median)", "DDS every lead (ms)", "DDS value only (ms)",
                         "vs DDS every lead", "vs DDS value only", "target", "met"], rows)


def wrong_answers(report: Report) -> list[str]:
    """Where the engine disagreed with the reference solver or with itself (all techniques on)."""
    wrong = [f"{line.name} boards {engine.mismatches} (vs the reference)" for line, engine, _, _ in report.endings
             if engine.mismatches]
    wrong += [f"ablation [{name}] boards {stats.mismatches} (vs all on)" for name, stats in report.ablation.items()
              if stats.mismatches]
    return wrong


def as_json(report: Report) -> dict:
    """Every measurement as JSON; a stopped run's (not ``report.whole``) is marked ``partial`` and, as its Markdown,
    leaves out the sections it did not reach."""
    partial = {} if report.whole else {"partial": {"lines": len(report.planned), "finished": finished_lines(report),
                                                   "interrupted_during": report.working}}
    document = partial | {
        "deals": report.deals, "limit_s": report.limit_s, "machine": report.machine,
        "lines": [{**stats.as_dict(), "target": line.target, "met": target_met(line, stats)}
                  for line, stats in report.lines],
        "endings": [{"line": line.name, "engine": engine.as_dict(), "reference": reference.as_dict(),
                     "ratio_of_medians": ratio, "target_ratio": ENDINGS_TARGET_RATIO}
                    for line, engine, reference, ratio in report.endings],
        "ablation": {name: stats.as_dict() for name, stats in report.ablation.items()},
        "dds": {"missing": report.dds_missing, "threads": report.threads,
                "lines": [{"line": p.line.name, "one_thread_ms": p.one_thread, "all_cores_ms": p.all_cores,
                           "dds_every_lead_ms": p.dds_every, "dds_value_ms": p.dds_value,
                           "speed_up": p.speed_up, "speed_up_per_deal": p.speed_up_per_deal} for p in report.dds]},
    }
    if not report.whole:
        reached = {"endings": report.endings, "ablation": report.ablation, "dds": report.dds}
        document = {key: value for key, value in document.items() if reached.get(key, True)}
        if unfinished_text(report):  # the line stopped part way: its runs' deals, and how many were planned
            paired = unfinished_dds(report)
            runs = ([{"line": paired.line.name, "deals": paired.deals, "planned": report.dds_deals,
                      "one_thread_ms": paired.one_thread, "all_cores_ms": paired.all_cores,
                      "dds_every_lead_ms": paired.dds_every, "dds_value_ms": paired.dds_value}]
                    if paired is not None else
                    [{**(stats.as_dict() if stats.deals else {"line": stats.line, "deals": 0}),
                      "planned": stats.planned} for stats in unfinished_runs(report)])  # a run not begun: its count
            document["unfinished"] = {"line": report.working, "runs": runs}
    return document


def write(path: Path, text: str) -> None:
    """Replace the part between the markers, or write the whole file when there are none. Written through a
    temporary file renamed into place (:func:`~solver.files.atomic_file`, as ``stich bench --out`` writes): a kill
    during the write leaves the old file whole, not a README cut off in the middle."""
    block = f"{BEGIN}\n{text}{END}\n"
    if path.exists():
        old = path.read_text(encoding="utf-8")
        if BEGIN in old and END in old:
            head, rest = old.split(BEGIN, 1)
            tail = rest.split(END, 1)[1].lstrip("\n")
            block = head + block + tail
    with atomic_file(path) as stream:
        stream.write(block)


def markdown_beside(out: Path) -> Path:
    """``FILE.partial.md`` beside ``--out FILE`` (:func:`~cli.bench.partial_beside`, as beside ``--json``): where a
    stopped run's report goes, so that the whole report in FILE (the README's) is not replaced by part of one."""
    return partial_beside(out if out.suffix else out.with_suffix(".md"))


#: How a partial report's Markdown begins its section (:func:`render`): what marks a file beside ``--out`` as one.
PARTIAL_MARK = "**A partial run, "


def remove_partials(report: Report, out: Path | None, json_path: Path | None) -> None:
    """A completed run's reports make the partial files a stopped run left beside them (:func:`markdown_beside`) out
    of date: removed, and said on stderr. Only a stopped run's own: a JSON run marked ``partial`` all of whose lines
    this run measured (:func:`~cli.bench.remove_partial_beside`), a Markdown file holding the partial note."""
    if json_path is not None:
        remove_partial_beside(json_path, None, report.planned, command="report.py")
    if out is None:
        return
    beside = markdown_beside(out)
    try:
        if not beside.is_file() or beside.is_symlink() or beside.stat().st_size > 1 << 24:
            return
        if PARTIAL_MARK not in beside.read_text(encoding="utf-8", errors="replace"):
            return
        beside.unlink()
    except OSError as error:
        print(f"report.py: {partial_note(beside, error)}", file=sys.stderr)
        return
    print(f"report.py: {partial_note(beside)}", file=sys.stderr)


def keep_partial(report: Report, out: Path | None, json_path: Path | None) -> str:
    """A stopped run's finished lines written (to stdout, or beside ``--out`` and ``--json``: :func:`markdown_beside`),
    and what is said of them: where they are, and how to finish."""
    finished, measured = finished_lines(report), unfinished_text(report)
    if not finished and not measured:
        return f"{stopped_text(report)}: no report written"
    kept = []
    try:
        if out is None:
            sys.stdout.write(render(report))
            kept.append("on stdout")
        else:
            markdown = markdown_beside(out)
            with atomic_file(markdown) as stream:
                stream.write(render(report))
            kept.append(f"in {markdown} ({out} left as it was)")
        if json_path is not None:
            beside = partial_beside(json_path)
            with atomic_file(beside) as stream:
                stream.write(json.dumps(as_json(report), indent=1) + "\n")
            kept.append(f"in {beside}")
    except OSError as error:
        kept.append(f"and no more: a write failed ({error.strerror or error})")
    held = [f"the finished {'line' if finished == 1 else 'lines'}"] if finished else []
    held += ["the deals of the line stopped in"] if measured else []
    what = " and ".join(held)
    return (f"{stopped_text(report)}; {what} kept, marked partial, "
            f"{' and '.join(kept)}; run the same command again for the whole report (a run measures every line anew)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=STANDARD_DEALS, help="deals per line (default: all 100)")
    parser.add_argument("--ablation-deals", type=int, default=None,
                        help="deals of the ablation (default: --deals; 0 skips it)")
    parser.add_argument("--dds-deals", type=int, default=None,
                        help="deals of the lines paired with bridge DDS (default: --deals; 0 skips them)")
    parser.add_argument("--dds-only", action="store_true", help="only the lines paired with bridge DDS")
    parser.add_argument("--threads", type=int, default=None,
                        help="threads of the all-cores side of the DDS lines (default: every core)")
    parser.add_argument("--limit", type=float, default=DEFAULT_LIMIT_S, help="seconds after which a solve is stopped")
    parser.add_argument("--out", type=Path, default=None, help="Markdown file to write (default: stdout)")
    parser.add_argument("--json", type=Path, default=None, help="also write every measurement as JSON here")
    args = parser.parse_args(argv)
    if not 1 <= args.deals <= STANDARD_DEALS:
        parser.error(f"--deals must be from 1 to {STANDARD_DEALS}")
    ablation_deals = args.deals if args.ablation_deals is None else args.ablation_deals
    if not 0 <= ablation_deals <= STANDARD_DEALS:
        parser.error(f"--ablation-deals must be from 0 to {STANDARD_DEALS}")
    dds_deals = args.deals if args.dds_deals is None else args.dds_deals
    if not 0 <= dds_deals <= STANDARD_DEALS:
        parser.error(f"--dds-deals must be from 0 to {STANDARD_DEALS}")
    if args.threads is not None and not 1 <= args.threads <= 64:
        parser.error("--threads must be from 1 to 64")
    if not 0 < args.limit <= MAX_LIMIT_S:  # nan too: it failed deep in the first solve, with a traceback
        parser.error(f"--limit must be a number of seconds above 0 and at most {MAX_LIMIT_S:,.0f}, not {args.limit}")
    if args.dds_only and (dds_deals == 0 or dds_missing() is not None):  # it measured nothing and exited 0
        parser.error("--dds-only measures only the lines paired with bridge DDS, and "
                     + ("--dds-deals is 0" if dds_deals == 0 else f"bridge DDS is {dds_missing()}"))
    for path in (args.out, args.json):  # asked before the run, which a failed write at its end would lose
        if path is not None:
            try:
                check_writable(path)
            except OSError as error:
                parser.error(f"{path}: {error.strerror or error}")
    stopped_by: list[str] = []  # the signal that stopped the run, once one has

    def stop(signum: int, frame: object) -> None:
        stopped_by.append(signal.Signals(signum).name)
        interrupt(signum, frame)

    previous = take_stop_signals(stop)  # as the stich command takes them: a word and 130
    report = Report(args.deals, args.limit, {}, [], [], None, {})
    written = False
    try:
        run(args.deals, ablation_deals, args.limit, dds_deals, args.threads, args.dds_only, report=report)
        with interrupts_held():  # a stop here comes after the writes; a second one cuts them, each file left whole
            completed(report)
            text = render(report)
            if args.out is None:
                sys.stdout.write(text)
            else:
                write(args.out, text)
                print(f"wrote {args.out}", file=sys.stderr)
            if args.json is not None:
                with atomic_file(args.json) as stream:
                    stream.write(json.dumps(as_json(report), indent=1) + "\n")
                print(f"wrote {args.json}", file=sys.stderr)
            remove_partials(report, args.out, args.json)
            written = True
    except KeyboardInterrupt:
        by = f" by {stopped_by[0]}" if stopped_by else ""
        if written:
            said = "stopped as the report was finished: the whole report is written"
        elif report.whole:
            said = "the report is written only where 'wrote' says so"
        else:  # later stops are ignored (interrupt): the finished lines are written whole
            said = keep_partial(report, args.out, args.json)
        with suppress(OSError, ValueError):  # stderr gone with a closed terminal (SIGHUP): the exit code says it
            print(f"report.py: interrupted{by}: {said}", file=sys.stderr, flush=True)
        return 130
    finally:
        if not stopped_by:  # a stop leaves the signals ignored until the exit, as the stich command does
            restore_signals(previous)
    wrong = wrong_answers(report)
    for what in wrong:
        print(f"WRONG ANSWERS: {what}", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
