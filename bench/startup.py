"""Start-up time of the ``stich`` command, paired with a bare interpreter in one run.

Each round runs ``python -c pass``, ``stich --version``, ``stich --help`` and ``stich solve`` on a two-trick ending
(bench/data/two_tricks.tbn) one after the other, in a rotated order, and keeps each command's wall time and its
difference to the round's ``python -c pass``: on a shared machine the load drifts, and a difference taken within a
round cancels most of the drift. Prints the medians (and the p90 of the differences); ``--json FILE`` keeps every
round.

    python bench/startup.py                 # 41 rounds
    python bench/startup.py --rounds 101 --json startup.json
    python bench/startup.py --also before=/path/to/an/older/stich
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENDING = HERE / "data" / "two_tricks.tbn"


def commands(stich: str, label: str = "stich") -> dict[str, list[str]]:
    return {
        f"{label} --version": [stich, "--version"],
        f"{label} --help": [stich, "--help"],
        f"{label} solve (two tricks)": [stich, "solve", str(ENDING)],
    }


def measure(argv: list[str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run, in ms. The CPU time suffers less from a loaded machine."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = (time.perf_counter() - start) * 1000
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{' '.join(argv)} exited with {process.returncode}")
    return wall, (usage.ru_utime + usage.ru_stime) * 1000


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, -(-9 * len(ordered) // 10) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=41)
    parser.add_argument("--stich", default=shutil.which("stich") or "stich", help="the stich executable")
    parser.add_argument("--also", action="append", default=[], metavar="LABEL=EXECUTABLE",
                        help="another stich to pair with (an older build, say): its commands join every round")
    parser.add_argument("--json", type=Path, help="write every round's times here")
    args = parser.parse_args()
    runs = {"python -c pass": [sys.executable, "-c", "pass"], **commands(args.stich)}
    for other in args.also:
        label, _, executable = other.partition("=")
        runs.update(commands(executable, label))
    names = list(runs)
    for argv in runs.values():  # warm the file cache and the bytecode caches
        measure(argv)
    wall: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    load = os.getloadavg()[0]
    for number in range(args.rounds):
        shift = number % len(names)
        for name in names[shift:] + names[:shift]:
            elapsed, used = measure(runs[name])
            wall[name].append(elapsed)
            cpu[name].append(used)
    print(f"{args.rounds} rounds, {os.cpu_count()} cores, load average {load:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after")
    print(f"{'command':32} {'wall':>7} {'- pass':>7} {'p90':>7}   {'cpu':>7} {'- pass':>7} {'p90':>7}   (ms; "
          "'- pass': the paired difference to python -c pass, median and p90)")
    for name in names:
        row = f"{name:32}"
        for times in (wall, cpu):
            extra = [t - b for t, b in zip(times[name], times[names[0]])]
            row += f" {statistics.median(times[name]):7.1f} {statistics.median(extra):7.1f} {p90(extra):7.1f}  "
        print(row)
    if args.json:
        args.json.write_text(json.dumps({"rounds": args.rounds, "wall_ms": wall, "cpu_ms": cpu}, indent=1) + "\n")


if __name__ == "__main__":
    main()
