"""The ``stich`` command line: one module per command, each a thin wrapper over a library function."""


def main() -> None:
    """The ``stich`` command. The app (Typer) loads here, not when this package is imported, so that Ctrl-C during
    its loading ends the command quietly with 130, as it does later, instead of with a traceback; a command's own
    modules load when it runs (:mod:`cli.main`)."""
    try:
        from .main import main as run
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    run()
