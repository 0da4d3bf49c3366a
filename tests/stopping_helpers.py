"""A search stopped from another thread, as the board and a bot stop one: shared by the stopping tests."""

from __future__ import annotations

import threading
import time
from typing import Callable

import solver


def stopped_from_another_thread(search: Callable[[threading.Event], object], after: float = 0.05) -> float:
    """Run ``search(stop)`` on a thread of its own, set ``stop`` ``after`` seconds later, and check that the search
    ended with SearchStopped (not with a result, nor still running a minute later); the seconds it took to stop."""
    stop = threading.Event()
    outcome: dict[str, object] = {}

    def work() -> None:
        try:
            outcome["result"] = search(stop)
        except solver.SearchStopped as stopped:
            outcome["stopped"] = stopped

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(after)
    stop.set()
    asked = time.monotonic()
    worker.join(timeout=60)
    assert not worker.is_alive() and "result" not in outcome
    assert isinstance(outcome["stopped"], solver.SearchStopped)
    return time.monotonic() - asked
