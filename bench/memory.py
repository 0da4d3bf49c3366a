"""Peak memory of the engine on the hardest bench deals, for several table sizes: the table honours its size option.

    python bench/memory.py [--deals 100] [--hardest 3] [--sizes 1 8 64 256] [--out bench/MEMORY.md]

For the two lines with the longest solves (Zwanzigerrufen and Schafkopf Solo, exact points with every opening card)
the ``--hardest`` deals by nodes searched among the first ``--deals`` are solved again, each in a fresh process per
table size. The process's peak resident memory (``VmHWM``) is read after the deal is prepared and again after the
solve: the difference is what the search itself took (the table, which is mapped lazily and grows by linear
splitting, plus the search's small stacks). It must stay within the table size given, plus a little, whatever the
deal. Memory is not time: these figures do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without an install
    sys.path.insert(0, str(ROOT))

from solver.benchmark import run_line, standard_lines  # noqa: E402

#: What the search may take beyond its table: stacks, the compiled tables, Python objects of the answer.
ALLOWANCE_MIB = 8

CHILD = r"""
import json, sys, time
from solver.benchmark import ask, line_seed, prepare_deal, standard_lines
from solver.search.engine import EngineSolver

def peak_kib():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])

index, board, size = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
line = standard_lines()[index]
deal = prepare_deal(line, board, line_seed(line))
before = peak_kib()
solver = EngineSolver(tt_megabytes=size)
start = time.perf_counter()
outcome = ask(solver, line, deal)
ms = (time.perf_counter() - start) * 1000
print(json.dumps({"before_kib": before, "after_kib": peak_kib(), "allocated": solver.table_bytes,
                  "bytes_used": outcome.bytes_used, "nodes": outcome.nodes, "ms": ms,
                  "answer": list(outcome.answer)}))
"""


def measure(index: int, board: int, size: int) -> dict:
    """One solve in a fresh process (so that the peak is this solve's alone)."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(index), str(board), str(size)], check=True,
                          capture_output=True, text=True, cwd=ROOT)
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--hardest", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 8, 64, 256])
    parser.add_argument("--limit", type=float, default=60.0, help="Seconds per solve when finding the hardest.")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    lines = standard_lines()
    chosen = [i for i, line in enumerate(lines) if line.name.startswith(("Zwanzigerrufen Normal: points + every",
                                                                         "Schafkopf Solo H"))]
    rows = []
    failures = 0
    for index in chosen:
        line = lines[index]
        print(f"finding the hardest deals of {line.name} ...", file=sys.stderr)
        stats = run_line(line, deals=args.deals, limit_s=args.limit)
        order = sorted(range(len(stats.boards)), key=lambda k: (stats.timed_out[k], stats.nodes[k]), reverse=True)
        for k in order[:args.hardest]:
            board = stats.boards[k]
            answers = set()
            for size in args.sizes:
                result = measure(index, board, size)
                answers.add(tuple(result["answer"]))
                growth_mib = (result["after_kib"] - result["before_kib"]) / 1024
                within = growth_mib <= size + ALLOWANCE_MIB
                failures += not within
                rows.append((line.name, board, size, result["allocated"] / (1 << 20),
                             result["bytes_used"] / (1 << 20), growth_mib, result["nodes"], result["ms"],
                             within))
                print(f"  board {board} table {size} MiB: +{growth_mib:.1f} MiB peak, {result['nodes']} nodes",
                      file=sys.stderr)
            if len(answers) != 1:
                failures += 1
                print(f"  board {board}: the answer depends on the table size! {answers}", file=sys.stderr)
    text = ["| line | board | table option (MiB) | allocated (MiB) | used (MiB) | peak RSS growth (MiB) | nodes | "
            "ms | within option + 8 MiB |", "|---|---|---|---|---|---|---|---|---|"]
    for name, board, size, allocated, used, growth, nodes, ms, within in rows:
        text.append(f"| {name} | {board} | {size} | {allocated:.1f} | {used:.1f} | {growth:.1f} | {nodes:,} | "
                    f"{ms:,.0f} | {'yes' if within else '**no**'} |")
    report = "\n".join(text) + "\n"
    if args.out:
        header = ("# Memory: the table honours its size option\n\nMade by `python bench/memory.py "
                  f"--deals {args.deals} --hardest {args.hardest} --sizes {' '.join(map(str, args.sizes))}`. "
                  "Each row is one solve in a fresh process; the growth is the peak resident memory after the "
                  "solve minus before it (the deal already prepared). The answers were the same for every table "
                  "size.\n\n" if not failures else "# Memory\n\n")
        args.out.write_text(header + report, encoding="utf-8")
    print(report)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
