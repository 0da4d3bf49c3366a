import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import os  # noqa: E402

# Output for people is PIPE_WIDTH wide when piped, unless COLUMNS says otherwise: the tests compare text made at
# that width, so a COLUMNS from the shell that runs them must not change it.
os.environ.pop("COLUMNS", None)


import pytest  # noqa: E402


@pytest.fixture
def two_cores_at_least(monkeypatch):
    """The two-thread tests get their helper thread on any machine: the process's core budget (engine.CORES) counts at
    least two cores, and starts empty whatever another test left searching."""
    from solver.search import engine

    real = engine.usable_cores
    monkeypatch.setattr(engine, "usable_cores", lambda: max(2, real()))
    monkeypatch.setattr(engine, "CORES", engine.CoreBudget())


@pytest.fixture
def two_worker_cores(monkeypatch):
    """Two usable cores for ``workers=`` whatever the machine has: the library cuts ``workers=`` to the cores
    (tests/test_cores.py), so on a 1-core runner ``workers=2`` would run one process, and a match would not refuse
    a bot's ``workers=2``."""
    from solver import workers

    monkeypatch.setattr(workers, "usable_cores", lambda: 2)


@pytest.fixture(autouse=True)
def _stop_signals_put_back():
    """SIGINT, SIGTERM and SIGHUP as they were before each test: a command run in this process begins its stop by
    ignoring later signals (solver.interrupts.begin_stop), which lasts where no exit follows, and every process a later
    test starts inherits an ignored signal and keeps ignoring it (a board reading standard input ran on past Ctrl-C)."""
    import signal
    import threading

    signals = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    before = {signum: signal.getsignal(signum) for signum in signals}
    yield
    if threading.current_thread() is threading.main_thread():
        for signum, handler in before.items():
            if handler is not None and signal.getsignal(signum) is not handler:
                signal.signal(signum, handler)
