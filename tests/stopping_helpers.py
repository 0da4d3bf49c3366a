"""Searches stopped as a user stops them, shared by the stopping tests: from another thread, as the board and a bot
stop one, and by Ctrl-C on a terminal, as a person stops a command; and at a stop's given look, where a search
stops counted in looks rather than seconds."""

from __future__ import annotations

import os
import select
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Callable

import solver

ROOT = Path(__file__).resolve().parent.parent


def signals_as_a_shell_gives_them() -> None:
    """In a child before its exec: SIGINT, SIGTERM and SIGHUP as a terminal's shell starts a command, whatever this
    process inherited (pytest run in the background of a script ignores SIGINT, and under nohup SIGHUP, and the
    command then kept ignoring them, as it should, and ran on)."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def stopped_from_another_thread(search: Callable[[threading.Event], object],
                                after: float = 0.05) -> solver.SearchStopped:
    """Run ``search(stop)`` on a thread of its own, set ``stop`` ``after`` seconds later, and check that the search
    ended with SearchStopped (not with a result, nor still running a minute later); that SearchStopped, which says
    why."""
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
    worker.join(timeout=60)
    assert not worker.is_alive() and "result" not in outcome
    stopped = outcome["stopped"]
    assert isinstance(stopped, solver.SearchStopped)
    return stopped


class StopAtLook:
    """A stop (anything with ``is_set()`` is one) that says yes at its ``look``-th look and after: where a search
    stops, counted in looks rather than seconds."""

    def __init__(self, look: int) -> None:
        self.look = look
        self.looks = 0

    def is_set(self) -> bool:
        self.looks += 1
        return self.looks >= self.look


def read_pty(fd: int, seconds: float, until: Callable[[bytes], bool] | None = None) -> bytes:
    """What a pty's ``fd`` shows within ``seconds``: until the child is gone and the pty closed, or ``until(what was
    read)`` holds."""
    text, deadline = b"", time.monotonic() + seconds
    while time.monotonic() < deadline and not (until and until(text)):
        if select.select([fd], [], [], 0.05)[0]:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the child is gone and the pty closed
                break
            if not chunk:
                break
            text += chunk
    return text


def ctrl_c_on_a_terminal(arguments: list[str], ready: Callable[[bytes], bool], after: float = 0.0,
                         presses: int = 1, stdout: Path | None = None) -> tuple[int, str]:
    """``stich ARGUMENTS`` from this checkout on a pty, sent ``presses`` Ctrl-C 20 ms apart once ``ready(output so
    far)`` (and ``after`` seconds more), to its whole process group (workers too), as a terminal sends them: its exit
    code and everything it printed on the terminal. With ``stdout``, its stdout goes to that file instead (as to a
    pipe), so that the data is read apart from the messages."""
    import pty

    pid, terminal = pty.fork()
    if pid == 0:  # the child: a session of its own on the pty, whose process group is its pid
        os.chdir(ROOT)
        signals_as_a_shell_gives_them()
        if stdout is not None:
            os.dup2(os.open(stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 1)
        os.execv(sys.executable, [sys.executable, "-c", "from cli.main import main; main()", *arguments])

    def read(seconds: float, until: Callable[[bytes], bool] | None = None) -> bytes:
        return read_pty(terminal, seconds, until)

    try:
        output = read(120, until=ready)
        assert ready(output), output[-500:]
        output += read(after)
        for press in range(presses):
            if press:
                time.sleep(0.02)
            os.killpg(pid, signal.SIGINT)
        output += read(60)
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(terminal)
    return os.waitstatus_to_exitcode(status), output.decode(errors="replace")
