"""Peak memory a node of a strategy tree, for each format ``stich tree`` writes: the figures of
``solver.tree.NODE_BYTES``.

    python bench/tree_memory.py

Each tree is built and written in a fresh process per format (an earlier writer's garbage would count otherwise).
After a first search has touched the engine's tables the peak resident memory (``VmHWM``) is reset to the resident
memory now (``5`` written to ``/proc/self/clear_refs``, Linux 4.0 on) and read as the baseline; the peak is read again
once the tree is written: the difference a node is what the tree and its writer take. (Without the reset a peak of
the search before the baseline, above the tree's, was counted as the tree's.) Memory is not time: these figures do
not depend on the machine's load.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The trees measured: a game, a depth from a whole random deal (seats 2, seed 1), some 10,000 to 20,000 nodes.
TREES = (("sk", 7), ("zr", 6))

CHILD = r"""
import os, sys, tempfile
import networkx  # imported before the baseline: not the tree's
import solver
from solver.position import position_from_record
from solver.tree import strategy_tree, write_tree

def kib(field):
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1])

game, depth, suffix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
position = position_from_record(solver.random_record(game, 2, 1))
solver.solve(position, "points")  # the engine's tables touched before the baseline
with open("/proc/self/clear_refs", "w") as clear:
    clear.write("5")  # the peak so far (the search's) reset to the resident memory now
base = kib("VmHWM")
graph = strategy_tree(position, depth)
with tempfile.TemporaryDirectory() as folder:
    write_tree(graph, os.path.join(folder, "tree" + suffix))
print(graph.number_of_nodes(), (kib("VmHWM") - base) * 1024)
"""


def main() -> None:
    for game, depth in TREES:
        for suffix in (".graphml", ".gexf", ".json"):
            done = subprocess.run([sys.executable, "-c", CHILD, game, str(depth), suffix], cwd=ROOT, check=True,
                                  capture_output=True, text=True)
            nodes, grown = map(int, done.stdout.split())
            print(f"{game} depth {depth}, {nodes:,} nodes, {suffix}: {grown / nodes / 1024:.1f} KB a node")


if __name__ == "__main__":
    main()
