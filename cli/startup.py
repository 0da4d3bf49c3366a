"""What the ``stich`` command sets up before anything else loads: the interrupt handlers, and the one line of a
stop that comes before a command's own code has begun. Nothing heavier than :mod:`signal` is imported here."""

from __future__ import annotations

EXIT_INTERRUPTED = 130  # 128 + SIGINT: Typer's exit for a KeyboardInterrupt too

#: Whether a command's own code has started (:meth:`cli.main.Command.invoke`): a stop before it is said here, as
#: one line, since no command is there yet to say what it finished.
_work_began = False
#: Whether the command has said its own stop (:func:`mark_stop_said`): a stop it did not say, outside the part of
#: its work that says one, is said here (:func:`say_unsaid_stop`).
_stop_said = False


def install_interrupt_handlers() -> None:
    """Ctrl-C, SIGTERM and SIGHUP turned into the commands' stop (:func:`solver.interrupts.interrupt`), first thing,
    so that a SIGTERM during the start-up's imports ends the command with one line and 130, not with death by the
    signal (exit 143) and no word. A SIGINT ignored from outside (a background job) stays ignored, and so does a
    SIGHUP (``nohup``); only the main thread can set handlers. A command starts here: none of its own code has run
    yet."""
    import atexit

    from solver.interrupts import interrupt, take_stop_signals

    global _last_exit_step_registered
    reset_work_began()
    take_stop_signals(interrupt)
    if not _last_exit_step_registered:  # registered first, so run last of the exit's own steps
        atexit.register(_stops_ignored_for_the_last_of_the_exit)
        _last_exit_step_registered = True


_last_exit_step_registered = False


def _stops_ignored_for_the_last_of_the_exit() -> None:
    """The last step of the exit before the interpreter's own teardown: what is buffered for stdout and stderr is
    written, under the late stop's handler (a write blocked on a reader that does not read is still ended by one),
    then the stop signals whose handler is stich's own are ignored. The teardown puts every signal that has a
    Python handler back to its default (CPython's ``_PySignal_Fini``), then frees the modules, which takes a while
    after a match on several workers: a Ctrl-C in that time would kill the finished process by SIGINT (exit -2, not
    0 or 130). An ignored signal is left ignored there, so the finished command's exit code stands."""
    import signal
    import sys

    from solver.interrupts import STOP_SIGNALS, interrupt

    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # written (or said) again by the teardown's own flush, as it was before
            pass
    for signum in STOP_SIGNALS:
        if signal.getsignal(signum) in (interrupt, _late_stop):
            signal.signal(signum, signal.SIG_IGN)


def mark_work_began() -> None:
    """The command's own code starts: from here it says its own stop (``stopped by the interrupt ...``)."""
    global _work_began
    _work_began = True


def reset_work_began() -> None:
    """A new command starts in this process (:func:`install_interrupt_handlers`, a command invoked): none of its own
    code has run yet, so a stop now is said as one before any work."""
    global _work_began, _stop_said
    _work_began = _stop_said = False


def mark_stop_said() -> None:
    """The command has said its stop in its own words (:func:`cli.errors.say_interrupted`): nothing more is said."""
    global _stop_said
    _stop_said = True


#: How long a stop that came after the command returned lets the exit finish before it ends the process itself.
LATE_STOP_GRACE = 2.0


def work_ended() -> None:
    """The command's own code has returned (or ended with its own exit): all it does from here is exit. A Ctrl-C or
    SIGTERM now lets that exit finish, so that its finished output and exit code stand, instead of an exit 130 with
    no line (typer's for a KeyboardInterrupt after the command returned) or a traceback as the interpreter exits; but
    an exit that does not finish within :data:`LATE_STOP_GRACE` seconds (a flush to a reader that stopped reading, a
    pool's thread joined at exit), or a second signal, ends the process with one line and 130
    (:func:`_late_stop`), so that a stop is never ignored for good. Only where the command's handlers are set
    (:func:`install_interrupt_handlers`: not in a caller's process that runs the app itself, as tests do)."""
    import signal

    from solver.interrupts import STOP_SIGNALS, interrupt

    if signal.getsignal(signal.SIGTERM) is interrupt:
        for signum in STOP_SIGNALS:
            if signal.getsignal(signum) is interrupt:
                signal.signal(signum, _late_stop)


_late_stop_timer: object = None  # the grace's timer, once a late stop has come


def _late_stop(signum: int, frame: object) -> None:
    """A Ctrl-C or SIGTERM after the command returned (:func:`work_ended`): the exit goes on, and a timer ends the
    process if it has not exited within the grace; a second one ends it at once."""
    global _late_stop_timer
    import threading

    if _late_stop_timer is not None:
        _end_late_stop()
    timer = threading.Timer(LATE_STOP_GRACE, _end_late_stop)
    timer.daemon = True  # it must not keep the process alive, nor be joined at exit
    _late_stop_timer = timer
    try:
        timer.start()
    except RuntimeError:  # the interpreter is past the point where it starts threads: no grace to give
        _end_late_stop()


def _end_late_stop() -> None:
    """The process ends here, 130, once a late stop's grace is over: its exit did not finish."""
    import os
    import sys

    try:
        print(f"stich: {_command_word()}stopped by the interrupt as it exited, after its work was done: the exit did "
              f"not finish within {LATE_STOP_GRACE:g} s", file=sys.stderr, flush=True)
    except (OSError, ValueError):  # stderr closed or gone: the exit code still says it
        pass
    os._exit(EXIT_INTERRUPTED)


def _command_word() -> str:
    """``solve: `` for the command named on the command line (the root takes no option with a value), or nothing."""
    import sys

    words = [word for word in sys.argv[1:] if not word.startswith("-")]
    return f"{words[0]}: " if words else ""


def say_stopped_before_any_work() -> None:
    """``stich: solve: stopped before any work began``, where Ctrl-C or SIGTERM came during the start-up (the imports,
    the parsing of the command line); where the command had begun, its stop is its own to say, and one it did not say
    (it came outside the part of its work that says one) is said by :func:`say_unsaid_stop`."""
    import sys

    if _work_began:
        say_unsaid_stop()
        return
    try:
        print(f"stich: {_command_word()}stopped before any work began", file=sys.stderr)
    except (OSError, ValueError):  # stderr closed or gone: the exit code still says it
        pass


def say_unsaid_stop() -> None:
    """``stich: solve: stopped by the interrupt as it set up or closed its work ...``, for a stop that came after the
    command began but where it says none (while it checked its options and set up, or said its closing lines), so that
    the command does not exit 130 without a word. What it printed is whole: each command prints its data whole or not at
    all."""
    import sys

    if _stop_said:
        return
    try:
        print(f"stich: {_command_word()}stopped by the interrupt as it set up or closed its work: "
              "what is printed above is whole", file=sys.stderr)
    except (OSError, ValueError):
        pass


def stopped_during_start_up() -> None:
    """Called where a KeyboardInterrupt (Ctrl-C, or SIGTERM by :func:`install_interrupt_handlers`) ended the
    start-up: says so in one line (:func:`say_stopped_before_any_work`) and exits 130, not with a traceback."""
    say_stopped_before_any_work()
    raise SystemExit(EXIT_INTERRUPTED) from None
