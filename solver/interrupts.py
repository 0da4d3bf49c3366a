"""A command's stop on Ctrl-C and SIGTERM: the handler every command (and ``bench/report.py``) installs, and the
switch that ignores later signals while the stop runs. Nothing but :mod:`signal` is imported: the handler runs at
any moment, and a second signal during an import left a module half imported."""

from __future__ import annotations

import signal


def begin_stop() -> None:
    """A command's stop has begun (its first Ctrl-C or SIGTERM): later ones are ignored until it exits, since they
    would cut the stop short (a second KeyboardInterrupt in the middle of stopping a pool, or death by SIGINT once
    Python has put its default back at exit); the stop is bounded (:func:`solver.workers.stop_pool`)."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)


def interrupt(signum: int, frame: object) -> None:
    """A command's SIGINT and SIGTERM handler (``cli.main`` and ``bench/report.py`` install it): :func:`begin_stop`,
    then KeyboardInterrupt, which the command turns into its report so far and exit 130. Later signals are ignored,
    so that a double press cannot cut the stop short; the stop is bounded (:func:`solver.workers.stop_pool` kills a
    worker that does not stop in a second), so nothing waits on it."""
    begin_stop()
    raise KeyboardInterrupt


__all__ = ["begin_stop", "interrupt"]
