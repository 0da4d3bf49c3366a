"""The ``stich`` command line: one module per command, each a thin wrapper over a library function."""

from __future__ import annotations

from .startup import install_interrupt_handlers, stopped_during_start_up


def main() -> None:
    """The ``stich`` command. The interrupt handlers are set before anything else loads, and the app (Typer) loads
    here, not when this package is imported, so that Ctrl-C or SIGTERM during its loading ends the command with one
    line and 130, as later, instead of with a traceback or death by the signal; a command's own modules load when
    it runs (:mod:`cli.main`). Setting the handlers imports modules too, so a Ctrl-C while they are set is caught
    here as well."""
    try:
        install_interrupt_handlers()
        from .main import main as run
    except KeyboardInterrupt:
        stopped_during_start_up()
    run(handlers_set=True)
