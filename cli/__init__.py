"""The ``stich`` command line: one module per command, each a thin wrapper over a library function."""


def main() -> None:
    """The ``stich`` command. The commands' modules load here, not when this package is imported, so that Ctrl-C
    during that second ends the command quietly with 130, as it does later, instead of with a traceback."""
    try:
        from .main import main as run
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    run()
