"""``stich board``: the local web analysis board (``solver/board``), served on this machine and opened in a browser."""

from __future__ import annotations

import errno
import logging
import os
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer

from solver.errors import STDIN_NAME, ParseError, StichError, shown_name, source_name
from solver.files import not_file_kind
from solver.limits import DEFAULT_BOARD_TIME_LIMIT_S

from .errors import EXIT_BAD_INPUT, EXIT_INTERRUPTED, file_name, input_errors, message, say_interrupted
from .options import TABLE_MB, engine_for, parse_variant_options, time_limit_option

if TYPE_CHECKING:
    import socket

    from solver.board.guard import Guard


def checked_allow_hosts(values: Optional[List[str]]) -> Optional[List[str]]:
    """``--allow-host``'s callback: each value a NAME or NAME:PORT, else a usage error (exit 2) saying what is
    expected."""
    if not values:  # completion runs this on the default: the board's modules load only for a host given
        return values
    from solver.board.guard import allowed_host

    for value in values:
        try:
            allowed_host(value)
        except ValueError as error:
            raise typer.BadParameter(str(error)) from None
    return values


def board(
    files: Optional[List[Path]] = typer.Argument(
        None, metavar="[FILE]...", show_default=False, parser=file_name,
        help="The .tbn files to open, any number (the first file's first record, or its --board record, opens "
             "first; - is standard input, read once at the start); the board reads no other file but uploads."),
    board: Optional[str] = typer.Option(None, "--board", "-b", metavar="BOARD",
                                        help="Open first the record whose [Board] tag is this."),
    port: int = typer.Option(8421, "--port", "-p", metavar="PORT", min=0, max=65535,
                             help="The port to listen on (0: any free port)."),
    host: str = typer.Option("127.0.0.1", "--host", metavar="ADDRESS",
                             help="The address to listen on: 127.0.0.1 (this machine alone), or 0.0.0.0 or :: to show "
                                  "the board to other machines (they may name it by any IP address of this machine "
                                  "or by its name)."),
    allow_hosts: Optional[List[str]] = typer.Option(
        None, "--allow-host", metavar="NAME[:PORT]", callback=checked_allow_hosts,
        help="Answer requests that name the board NAME too (repeatable): a reverse proxy's or a DNS name of this "
             "machine. Without :PORT, with the board's port or none (a proxy on its standard port)."),
    no_open: bool = typer.Option(False, "--no-open", help="Only print the address; do not open a browser."),
    time_limit: Optional[float] = time_limit_option("each question's searches (card values, the graph, the odds)",
                                                    "the board says the time limit ran out",
                                                    default=DEFAULT_BOARD_TIME_LIMIT_S,
                                                    reference_refuses=False),
    table_mb: Optional[int] = TABLE_MB,
    variant: Optional[List[str]] = typer.Option(
        None, "--variant", metavar="NAME=VALUE",
        help="A variant flag (repeatable); overrides the [Variant] tags of the FILEs' records and of uploaded and "
             "pasted ones alike. Deals of its game are dealt under it."),
) -> None:
    """Open records on a table in the browser: every hand, the trick, each legal card's double-dummy value, click
    to play, undo and redo, the evaluation graph with the mistakes, single-dummy odds, save as .tbn. Ctrl-C stops."""
    import socket  # the board's listener, like the web stack: its help and the other commands start without it

    import uvicorn  # the web stack is imported by this command alone: the others start without it

    from solver.board.app import create_app
    from solver.board.guard import is_wildcard, on_network
    from solver.search.engine import EngineSolver

    from solver.board.session import MAX_FILE_BYTES, too_large_text

    flags = parse_variant_options(variant)
    files = files or []
    piped = [str(path) for path in files].count("-")
    if piped > 1:
        raise typer.BadParameter("- (standard input) is given more than once: it can be read once",
                                 param_hint="'[FILE]...'")
    for path in files:
        if str(path) == "-":  # read after the files are checked: a bad one is said at once, not when stdin ends
            continue
        # what is there, by the one rule for "not a regular file" (a folder, a pipe, a socket, a device)
        kind = not_file_kind(path.stat().st_mode) if path.exists() else None
        if kind is not None:
            instead = "upload its text on the page" if kind == "a folder" else \
                "give its text as - (standard input), or upload it on the page"
            message(f"stich: {shown_name(path)}: {kind}, not a regular file (the board reads its files again when a "
                    f"page loads, which {kind} cannot give; {instead})")
            raise typer.Exit(EXIT_BAD_INPUT)
        if not path.is_file():
            message(f"stich: {shown_name(path)}: not a readable file (the board opens files by name, or - for "
                    "standard input; upload others on the page)")
            raise typer.Exit(EXIT_BAD_INPUT)
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            message(f"stich: {too_large_text(path, size)}")
            raise typer.Exit(EXIT_BAD_INPUT)
    stdin = standard_input() if piped else None
    said_at_start(files, board, flags, stdin)
    # the card values search on every core the graph and the odds leave free (docs/board.md: the core budget)
    engine = engine_for(table_mb) or EngineSolver()
    try:
        ipv6 = ":" in host
        family = socket.AF_INET6 if ipv6 else socket.AF_INET
        # resolved apart: create_server says a name that does not resolve in a plain OSError, as of a busy port
        socket.getaddrinfo(host.strip("[]"), port, family, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)
        # "::" takes IPv4 too where the system can (a wildcard means every address)
        listener = socket.create_server((host.strip("[]"), port), family=family,
                                        dualstack_ipv6=ipv6 and is_wildcard(host) and socket.has_dualstack_ipv6())
    except OSError as error:
        message(f"stich: cannot listen on {host}:{port}: {listen_reason(error)}{listen_hint(error, port)}")
        raise typer.Exit(EXIT_BAD_INPUT) from None
    bound = listener.getsockname()[1]
    network = on_network(str(listener.getsockname()[0]))  # a name is as local as the address it was bound to
    app = create_app(files, board=board, host=host, port=bound, time_limit=time_limit,
                     engine=engine, allow_hosts=allow_hosts or [], network=network, variant=flags, stdin=stdin)
    local = ("::1" if ipv6 else "127.0.0.1") if is_wildcard(host) else host.strip("[]")  # what this machine opens
    url = address_url(local, bound)
    print(url, flush=True)
    if network:
        message(network_message(host, bound, reachable_addresses(host, listener), listed_names(),
                                allow_hosts or []))
    else:
        message("stich board: serving on this machine"
                + (f"; it also answers to {', '.join(allow_hosts)} (--allow-host)" if allow_hosts else "")
                + "; Ctrl-C stops it")
    if not no_open:
        import webbrowser  # the browser's launcher: only where one is opened

        threading.Timer(0.5, webbrowser.open, [url]).start()
    # no WebSocket protocol (the board has none): an Upgrade to one reaches the app as the plain request it also is,
    # which the guard refuses in JSON, as every other refusal, whichever WebSocket library is installed
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", http=_board_protocol(),
                            ws="none")
    logging.getLogger(REQUESTS_LOGGER).setLevel(logging.getLogger("uvicorn.error").level)  # not 0: no trace per call
    server = _board_server(app)(config)
    try:
        server.run(sockets=[listener])
    except KeyboardInterrupt:  # uvicorn's stop done, the signal it took is raised again to stich's handler
        stopped = True
    else:  # that signal ignored from outside, as a background job's SIGINT
        stopped = server.stop_signal is not None
    finally:
        listener.close()
    sys.stdout.flush()
    if stopped:
        say_interrupted("board", STOPPED_BOARD)
        raise typer.Exit(EXIT_INTERRUPTED)


#: What the line of a board stopped by Ctrl-C or SIGTERM says after ``stopped by the interrupt``.
STOPPED_BOARD = "while serving: the server is closed, its searches stopped"


#: Seconds a connection has to send a request's headers, from its opening or from the end of the answer before.
HEADER_SECONDS = 30.0


def standard_input() -> bytes:
    """The FILE ``-``: standard input read once, whole, at the start (the page serves it from memory). A text
    larger than the board reads, or an input that cannot be read, is said as every command says it, and exits 1;
    a stop (Ctrl-C, SIGTERM) while it is read says so, and exits 130."""
    from solver.board.session import MAX_FILE_BYTES, too_large_text

    from .records import stdin_bytes

    with input_errors():
        try:
            raw = stdin_bytes().read(MAX_FILE_BYTES + 1)
        except KeyboardInterrupt:
            say_interrupted("board", "while reading standard input")
            raise typer.Exit(EXIT_INTERRUPTED) from None
        if len(raw) > MAX_FILE_BYTES:
            raise StichError(too_large_text(STDIN_NAME))
    return raw


def said_at_start(files: List[Path], board: Optional[str], variant: Optional[dict] = None,
                  stdin: Optional[bytes] = None) -> None:
    """What the page would say of the files only once opened, said on stderr before serving, read as the page
    reads them (at most its 1,000 records a file, record by record as ``stich check`` reads them): each record that
    cannot be opened (``FILE:LINE:COL: ...``, at most the page's 20 a file), a file the page opens nothing of, and a
    ``--board`` no file has or whose record cannot be opened (exit 1, as every other command refuses it: the page
    opened another record and said so in a corner). ``variant``: the --variant flags, over each record's as the page
    takes them (the page's uploads and pastes take them so too, and its deals are dealt under them, so --variant
    needs no FILE); a flag of another game than a record's is left out of it, as of an upload's, said once a
    game. ``stdin``: the text of the FILE ``-``, read already. A file name is said as the page says it
    (:func:`solver.errors.shown_name`)."""
    import io

    from solver.board.session import OTHERS_OPENED, BoardError, Boards, file_text
    from solver.formats.tbn import iter_records

    from .records import BoardsSeen, GameRefusals, no_such_record, selected

    if board is not None and not files:
        raise typer.BadParameter("--board picks a record of the FILEs: give the file", param_hint="'--board'")
    store = Boards()  # the page's reading, on boards of its own
    found = unreadable = False
    broken = 0
    seen = BoardsSeen("its" if len(files) == 1 else "their")  # what --board could have named

    def scanned(source: str | bytes, path: Path) -> tuple[bool, int]:
        """Whether the file (its text, or its bytes where they are not UTF-8) holds a record ``--board`` picks that
        the board could not open (said above), and how many of its records are too broken to read (said above:
        ``--board``'s may be one of them). One reading for both."""
        picked, unread = False, 0
        stream = io.StringIO(source) if isinstance(source, str) else io.BytesIO(source)
        for item in iter_records(stream, name=name_of(path)):
            if isinstance(item, ParseError):
                unread += 1
            elif not isinstance(item, StichError):
                seen.add(item)
                picked = picked or selected(item, board)
        return picked, unread

    def name_of(path: Path) -> str:
        return shown_name(source_name(path))

    for path in files:
        raw, text = b"", None
        variant_refused = GameRefusals("--variant")  # said once a game, as every command says them
        left_out = GameRefusals("--variant")  # another game's flags: the records open under their own rules
        try:
            raw = (stdin or b"") if str(path) == "-" else path.read_bytes()
            text = file_text(raw)
            boards, refused = store.add_text_said(text, name_of(path), variant, variant_refused.add,
                                                  variant_left_out=left_out.add)
        except BoardError as error:
            variant_refused.say("not opened")
            message(f"stich: {error} (the board opens nothing of this file)")
            if board is not None and not found:
                # the --board record may be there, refused (a --variant of another game), or in a record too broken
                # to read (a byte that is not UTF-8, each such record said on its own): not missing
                picked, unread = scanned(raw if text is None else text, path)
                unreadable, broken = unreadable or picked, broken + unread
            continue
        for line in refused:  # the line counting those left unsaid says so itself
            message(f"stich: {line}" + ("" if line.endswith(OTHERS_OPENED) else
                                        " (the board opens the file's other records)"))
        variant_refused.say("not opened")
        left_out.say("opened under their own game's rules, as an upload's are")
        if board is None or found:
            continue
        found = any(selected(opened.record, board) for opened in boards)
        if not found:  # a record the board could not open, or one too broken to read: --board's may be one of them
            picked, unread = scanned(text, path)
            unreadable, broken = unreadable or picked, broken + unread
    if board is not None and not found:
        if not unreadable:  # a record that cannot be opened was said above, with why
            names = ", ".join(name_of(path) for path in files)
            message(f"stich: {no_such_record(names, board, None, 0, broken, seen)}")
        raise typer.Exit(EXIT_BAD_INPUT)


#: The protocol's log, under uvicorn's (its console handler), with :class:`_AnsweredInJson` on it.
REQUESTS_LOGGER = "uvicorn.error.board"

#: uvicorn's warning on a client's request that the board answers all the same: one it cannot read, answered in
#: JSON (``send_400_response``). (An ``Upgrade``'s are the protocol's to leave out: ``_unsupported_upgrade_warning``.)
ANSWERED_REQUESTS = frozenset({"Invalid HTTP request received."})


class _AnsweredInJson(logging.Filter):
    """Leaves out uvicorn's console warnings on a client's request it answers anyway (:data:`ANSWERED_REQUESTS`):
    anyone who reaches the board (on the network, any machine) would otherwise write a line on the operator's console
    per request, as a malformed upload's warning was (app.py's MULTIPART_LOGGER)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() not in ANSWERED_REQUESTS


def _board_protocol(header_seconds: float = HEADER_SECONDS) -> type:
    """uvicorn's HTTP protocol (h11), but a connection that has not sent a request's headers within
    ``header_seconds`` is closed: uvicorn waited for them forever, so a client that opened connections and sent
    nothing, or a header a byte at a time, held each (and a file descriptor: some hundreds use them all up) as long
    as it liked. The body's time is the app's (``Guard``); an idle connection between requests is uvicorn's
    keep-alive's, 5 s."""
    import asyncio

    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    requests_log = logging.getLogger(REQUESTS_LOGGER)
    if not any(isinstance(kept, _AnsweredInJson) for kept in requests_log.filters):
        requests_log.addFilter(_AnsweredInJson())

    class BoardProtocol(H11Protocol):
        header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            self.logger = requests_log
            super().connection_made(transport)
            self._await_headers()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._await_headers()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_waiting()
            super().connection_lost(exc)

        def _stop_waiting(self) -> None:
            if self.header_timer is not None:
                self.header_timer.cancel()
                self.header_timer = None

        def _await_headers(self) -> None:
            self._stop_waiting()
            self.header_timer = self.loop.call_later(header_seconds, self._headers_due)

        def _headers_due(self) -> None:
            self.header_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():  # no request's headers yet
                self.transport.close()

        def _unsupported_upgrade_warning(self) -> None:
            """Nothing on the console for an ``Upgrade`` (uvicorn warned that it is not supported, and without a
            WebSocket protocol that no WebSocket library is installed): one to WebSocket is refused by the guard in
            JSON, one to another protocol (``h2c``) answered as the plain HTTP request it also is."""

        def send_400_response(self, msg: str) -> None:
            """A request h11 cannot read (a bad request line or header, headers over 16 KB) is refused in JSON,
            as every other refusal of the board, not in uvicorn's plain text."""
            from solver.board.guard import refusal

            body, headers = refusal("the request is not HTTP the board reads (a malformed request line or header, "
                                    f"or headers over 16 KB): {msg}")
            for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"), h11.Data(data=body),
                          h11.EndOfMessage()):
                self.transport.write(self.conn.send(event) or b"")
            self.transport.close()

    return BoardProtocol


def _board_server(app: Guard):
    """uvicorn's server, but its stop first stops the searches of ``app``: uvicorn waits for the open connections before
    the app's shutdown, so a streaming question (the odds of a whole deal) would run on to its answer or the time limit.
    They are stopped as the stop begins on the event loop, not in the signal handler: the handler runs on the loop's
    thread between two instructions, perhaps while it holds the searches' lock, which it would then wait for forever. A
    second Ctrl-C while the board stops is ignored: uvicorn takes it as a forced exit that cancels the app's shutdown
    half-way and prints its CancelledError traceback (the stop takes a moment anyway)."""
    import uvicorn

    from solver.board.app import stop_questions

    class BoardServer(uvicorn.Server):
        stop_signal: int | None = None  # the signal that stopped the server, said as stich's stop

        def handle_exit(self, sig: int, frame: object) -> None:
            if not self.should_exit:
                self.stop_signal = sig
                super().handle_exit(sig, frame)  # type: ignore[arg-type]

        async def shutdown(self, sockets: Optional[list] = None) -> None:
            stop_questions(app)
            await super().shutdown(sockets)

    return BoardServer


def listen_reason(error: OSError) -> str:
    """The system's words for why the board could not listen, once: create_server adds "(while attempting to bind
    on address ('192.0.2.1', 8421))" to them, which our message already says as "cannot listen on HOST:PORT"."""
    import socket

    if not isinstance(error, socket.gaierror) and error.errno is not None and error.errno > 0:
        return os.strerror(error.errno)
    return str(error.strerror or error)


def listen_hint(error: OSError, port: int) -> str:
    """What to do about a socket the board could not open, by its cause: another board on the port is one cause
    among several, and for a name that does not resolve or an address this machine does not have no port helps."""
    import socket

    if isinstance(error, socket.gaierror):
        return " (--host takes an address of this machine or a name that resolves to one)"
    if error.errno == errno.EADDRNOTAVAIL:
        return " (not an address of this machine: --host takes one of its addresses, or 0.0.0.0 or :: for all)"
    if error.errno == errno.EACCES and 0 < port < 1024:
        return " (a port under 1024 is the system's: try --port 0)"
    return " (another board? try --port 0)" if port else ""


def address_url(host: str, port: int) -> str:
    """The board's address at ``host`` (an IPv6 address in brackets)."""
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def listed_names() -> set[str]:
    """The machine's names the startup list offers: its own, and its multicast-DNS ``NAME.local`` only where a
    responder evidently answers for it (else no other machine finds it by that name; the board still accepts it)."""
    import socket

    from solver.board.guard import machine_names, multicast_dns_answers

    names = machine_names()
    if multicast_dns_answers():
        return names
    own = {name.lower() for name in (socket.gethostname(), socket.getfqdn())}
    return {name for name in names if not name.endswith(".local") or name in own}


def reachable_addresses(host: str, listener: socket.socket) -> List[str]:
    """The addresses other machines reach the board at: bound to a wildcard, the machine's addresses of the
    listener's families (:: takes IPv4 too when dual-stack), else the address it was given."""
    import socket

    from solver.board.guard import is_wildcard, machine_addresses

    if not is_wildcard(host):
        return [host.strip("[]")]
    ipv6 = listener.family == socket.AF_INET6
    v6_only = ipv6 and bool(listener.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY))
    return [address for address in machine_addresses()
            if (":" in address and ipv6) or (":" not in address and not v6_only)]


def network_message(host: str, port: int, addresses: List[str], names: set[str], allowed: List[str]) -> str:
    """The startup message of a board bound to the network: the addresses other machines can open."""
    from solver.board.guard import LOOPBACK_NAMES, is_wildcard

    urls = [address_url(address, port) for address in addresses]
    if is_wildcard(host):  # bound to one address, the machine's name may be another's
        urls += [address_url(name, port) for name in sorted(names - LOOPBACK_NAMES)
                 if not name.startswith("localhost")]
    reach = ", ".join(urls) if urls else "this machine's IP address (none found here; `ip addr` shows them)"
    also = f"; names given with --allow-host: {', '.join(allowed)}" if allowed else ""
    return (f"stich board: serving on {host} port {port}, to other machines too: they open {reach} (any IP "
            f"address of this machine, or its name where their network knows it{also}); Ctrl-C stops it")
