"""A command's stop on Ctrl-C, SIGTERM and SIGHUP: the handler every command (and ``bench/report.py``) installs, and the
switch that ignores later signals while the stop runs. Nothing but :mod:`signal` and :mod:`threading` is imported: the
handler runs at any moment, and a second signal during an import left a module half imported."""

from __future__ import annotations

import signal
import threading
from types import FrameType
from typing import Any, Callable, Union

#: What :func:`signal.signal` takes and returns: a function, SIG_DFL or SIG_IGN, or None (one not set from Python).
Handler = Union[Callable[[int, Union[FrameType, None]], Any], int, signal.Handlers, None]

#: The signals that stop a command as Ctrl-C does: SIGTERM (``kill``), and SIGHUP (its terminal closed, as an ssh
#: session that drops), where the system has it: a run so stopped keeps and says what it finished, as on Ctrl-C.
STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def stop_signals_taken() -> tuple[signal.Signals, ...]:
    """The stop signals a command takes over (handled, or held while a piece of output is written): SIGINT and
    SIGTERM, and SIGHUP unless it is ignored from outside (``nohup``), where a closed terminal must not stop the run.
    The one rule for every handler a command sets."""
    return tuple(signum for signum in STOP_SIGNALS
                 if signum in (signal.SIGINT, signal.SIGTERM) or signal.getsignal(signum) is not signal.SIG_IGN)


def take_stop_signals(handler: Callable[[int, FrameType | None], Any]) -> dict[signal.Signals, Handler]:
    """``handler`` set for the stop signals a command takes (:func:`stop_signals_taken`); SIGINT only where Python's
    own handler has it (a background job's ignored SIGINT stays ignored); nothing off the main thread, where no
    handler can be set. The handlers replaced, by signal, to put back. The one loop of ``cli.main`` and
    ``bench/report.py``."""
    previous: dict[signal.Signals, Handler] = {}
    if threading.current_thread() is not threading.main_thread():
        return previous
    for signum in stop_signals_taken():
        if signum != signal.SIGINT or signal.getsignal(signum) is signal.default_int_handler:
            previous[signum] = signal.signal(signum, handler)
    return previous


def begin_stop() -> None:
    """A command's stop has begun (its first Ctrl-C, SIGTERM or SIGHUP): later ones are ignored until it exits, since
    they would cut the stop short (a second KeyboardInterrupt in the middle of stopping a pool, or death by SIGINT
    once Python has put its default back at exit); the stop is bounded (:func:`solver.workers.stop_pool`)."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)


def interrupt(signum: int, frame: object) -> None:
    """A command's SIGINT, SIGTERM and SIGHUP handler (``cli.main`` and ``bench/report.py`` install it):
    :func:`begin_stop`, then KeyboardInterrupt, which the command turns into its report so far and exit 130. Later
    signals are ignored, so that a double press cannot cut the stop short; the stop is bounded
    (:func:`solver.workers.stop_pool` kills a worker that does not stop in a second), so nothing waits on it."""
    begin_stop()
    raise KeyboardInterrupt


__all__ = ["STOP_SIGNALS", "Handler", "begin_stop", "interrupt", "stop_signals_taken", "take_stop_signals"]
