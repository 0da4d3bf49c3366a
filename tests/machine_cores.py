"""What a test needs of the machine's cores, where a patch cannot give it: said as a skip on a machine with fewer."""

from __future__ import annotations

import pytest

from solver.search.engine import usable_cores

#: For a test that runs ``-j 2`` or ``workers=2`` in a process of its own, which no patch of ``usable_cores`` reaches
#: (in-process tests take the ``two_worker_cores`` fixture instead): on fewer than 2 usable cores the command cuts
#: it to one worker, so the test would test one worker where it means two.
needs_two_cores = pytest.mark.skipif(
    usable_cores() < 2, reason="runs 2 worker processes in a process of its own: this machine gives the tests fewer "
                               "than 2 cores, which would cut them to one")

#: Python code that gives a process of its own 2 usable cores whatever the machine has, as the ``two_worker_cores``
#: fixture does in-process: put before the code of a ``python -c`` command. The library's cut of ``workers=`` reads
#: ``solver.workers``' name; the commands' cut of ``-j`` binds the engine's when their module is first imported, after.
TWO_CORES = ("import solver.search.engine, solver.workers; "
             "solver.search.engine.usable_cores = solver.workers.usable_cores = lambda: 2; ")
