"""``stich board``: the local web analysis board (``solver/board``), served on this machine and opened in a browser."""

from __future__ import annotations

import socket
import sys
import threading
import webbrowser
from pathlib import Path
from typing import List, Optional

import typer

from .errors import EXIT_BAD_INPUT, file_name, message
from .options import TABLE_MB, engine_for


def board(
    files: Optional[List[Path]] = typer.Argument(
        None, metavar="FILE", show_default=False, parser=file_name,
        help="The .tbn files to open, any number (the first file's first record, or its --board record, opens "
             "first); the board reads no other file but uploads."),
    board: Optional[str] = typer.Option(None, "--board", "-b", metavar="BOARD",
                                        help="Open first the record whose [Board] tag is this."),
    port: int = typer.Option(8421, "--port", "-p", metavar="PORT", min=0, max=65535,
                             help="The port to listen on (0: any free port)."),
    host: str = typer.Option("127.0.0.1", "--host", metavar="ADDRESS",
                             help="The address to listen on; requests must name it (or, on loopback, localhost)."),
    no_open: bool = typer.Option(False, "--no-open", help="Only print the address; do not open a browser."),
    time_limit: float = typer.Option(120.0, "--time-limit", metavar="SECONDS", min=0.1, max=86400.0,
                                     help="The longest one question (card values, the graph, the odds) may search."),
    table_mb: Optional[int] = TABLE_MB,
) -> None:
    """Open records on a table in the browser: every hand, the trick, each legal card's double-dummy value, click
    to play, undo and redo, the evaluation graph with the mistakes, single-dummy odds, save as .tbn. Ctrl-C stops."""
    import uvicorn  # the web stack is imported by this command alone: the others start without it

    from solver.board.app import create_app
    from solver.search.engine import EngineSolver

    for path in files or []:
        if path == Path("-") or not path.is_file():
            message(f"stich: {path}: not a readable file (the board opens files by name; upload others on the page)")
            raise typer.Exit(EXIT_BAD_INPUT)
    # the card values search on every core the graph and the odds leave free (docs/board.md: the core budget)
    engine = engine_for(table_mb) or EngineSolver()
    try:
        listener = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    except OSError as error:
        message(f"stich: cannot listen on {host}:{port}: {error.strerror or error}"
                + (" (another board? try --port 0)" if port else ""))
        raise typer.Exit(EXIT_BAD_INPUT) from None
    bound = listener.getsockname()[1]
    app = create_app(files or [], board=board, host=host, port=bound, time_limit=time_limit,
                     engine=engine)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    print(url, flush=True)
    message("stich board: serving on this machine; Ctrl-C stops it")
    if not no_open:
        threading.Timer(0.5, webbrowser.open, [url]).start()
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    try:
        uvicorn.Server(config).run(sockets=[listener])
    except KeyboardInterrupt:
        pass
    finally:
        listener.close()
    sys.stdout.flush()
