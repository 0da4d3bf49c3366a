"""The board's web application: Starlette routes over :mod:`solver.board.session` and the engine.

Routes answer JSON (``{"error": message}`` with a 4xx status for bad input: never a traceback). Searches run on
one worker thread beside the event loop, with the engine's time limit and a stop event per question: a new question
of a page (a click) sets the stop event of the one it makes stale, so the worker is free for it within a
millisecond or two. Card values stream as JSON lines: a position the engine answers within
:data:`FIRST_SLICE` seconds comes as one line, a slower one card by card as each value is found. The odds stream
too: the odds so far after each chunk of samples, then the odds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Mapping, Sequence, TypeVar, cast

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import STDIN_NAME, SearchStopped, StichError, quoted, shown_name, visible, visible_lines
from ..generate import DEFAULT_SEED
from ..limits import DEFAULT_BOARD_TIME_LIMIT_S, MAX_LIMIT_S
from ..postmortem import analyse_play
from ..sampling import analyse_position
from ..score_objective import objective_named
from ..search.boundary import TimeLeft, check_time_limit, seconds_text
from ..search.engine import EngineSolver
from ..workers import worker_engine, worker_settlement_engine
from ..api import _solve_checked
from .guard import LOOPBACK_NAMES, BodyRefused, Guard, allowed_host, loopback_names, machine_names, on_network
from .session import (MAX_FILE_BYTES, Board, BoardError, Boards, attachment_header, card_values_document,
                      chosen_objective, curve_document, file_text, file_name_for, graph_measure, named_file, new_deal,
                      objective_seat, odds_document, pasted_bytes, saved_record, too_large_text, values_document,
                      variant_by_game, view)

#: Seconds a position gets to answer with every card at once before its cards are searched one by one.
FIRST_SLICE = 1.0
#: The largest request body (an upload included), in bytes.
DEFAULT_MAX_BODY = 2_000_000
#: What an uploaded file without a name is called in messages and board labels.
UPLOAD_NAME = "upload.tbn"
#: python-multipart logs a malformed upload's fault ("Expected boundary character 45, got 120 at index 2") as a
#: warning, which reached the console through logging's last resort; the page is told in the board's words instead.
MULTIPART_LOGGER = "python_multipart"
#: The longest error message the board sends: each quotes the user's text cut short (solver.errors.quoted), and this
#: bounds one that does not.
MAX_ERROR_LENGTH = 2000
#: The longest a request's body may take to arrive, in seconds from the request's start (2 MB over a slow wireless
#: network takes some 20).
DEFAULT_BODY_SECONDS = 60.0
#: The most digits a whole number in a request's JSON may have (a seed's range, +-2**64, takes 20; Python converts
#: at most 4,300).
MAX_NUMBER_DIGITS = 100
#: Samples of the single-dummy view: the default and the most a request may ask for.
DEFAULT_SAMPLES = 100
MAX_SAMPLES = 2000
#: The most questions (card values, graphs, odds) the server holds at once, asked or waiting for a worker thread: a
#: page asks at most three at a time, and a script that asks thousands is told the board is busy (503) rather than
#: have them all wait in memory.
MAX_QUESTIONS = 64

T = TypeVar("T")


@dataclass
class BoardFile:
    """A file named on the command line: the only files the board reads."""

    path: Path
    board: str | None = None  # the --board the command asked to open first
    #: The text of standard input (the FILE ``-``), read and decoded once at the start (its bytes where they are not
    #: all UTF-8: :func:`~solver.board.session.file_text`): served from memory, as a pipe cannot be read again at
    #: each page load. None for a file, read from its name.
    text: str | bytes | None = None

    @property
    def source(self) -> str:
        """The file's name in messages and board labels."""
        return STDIN_NAME if self.text is not None else str(self.path)


class CheckedEngine(EngineSolver):
    """An engine that also looks at a stop event before each search it is asked for. The engine itself looks every
    16,384 nodes, which a long search reaches at once; the post-mortem asks for many short searches (a few per card),
    and a stale graph must end at its next one, not after all of them."""

    stop_event: threading.Event | None = None

    def _check_stop(self) -> None:
        if self.stop_event is not None and self.stop_event.is_set():
            raise SearchStopped("the question was replaced by a newer one")

    def value(self, *args: Any, **kwargs: Any) -> int:
        self._check_stop()
        return super().value(*args, **kwargs)

    def reaches(self, *args: Any, **kwargs: Any) -> bool:
        self._check_stop()
        return super().reaches(*args, **kwargs)

    def card_values(self, *args: Any, **kwargs: Any) -> Any:
        self._check_stop()
        return super().card_values(*args, **kwargs)

    def value_and_cards(self, *args: Any, **kwargs: Any) -> Any:
        self._check_stop()
        return super().value_and_cards(*args, **kwargs)


def stop_questions(app: Guard) -> None:
    """Stop the searches of the board ``app`` (:func:`create_app`'s) and refuse new ones: the server is stopping."""
    cast(Starlette, app.app).state.searches.stop_all()


def json_line(document: dict[str, Any]) -> str:
    """One line of a streamed answer (JSON lines)."""
    return json.dumps(document) + "\n"


def stopped_document(replaced: bool, searches: Searches) -> dict[str, Any]:
    """The last line of a streamed answer that was stopped: by the server's stopping (``stopping``: true, which the
    page reads, not the reason's words, to ask nothing again), a newer question of the page, or the time limit."""
    if searches.stopping:
        return {"kind": "stopped", "reason": "the board is stopping", "stopping": True}
    if replaced:
        return {"kind": "stopped", "reason": "replaced by a newer question"}
    if searches.time_limit is None:  # only past the engine clock's longest wait
        return {"kind": "stopped", "reason": f"the engine clock's longest wait ({MAX_LIMIT_S:,.0f} s) ran out"}
    return {"kind": "stopped", "reason": f"the time limit ({seconds_text(searches.time_limit)}) ran out"}


def failure_document(route: str, error: Exception) -> dict[str, Any]:
    """The last line of a streamed answer whose question failed: bad input's message, or for an internal fault a
    line here and on the page, with no trace."""
    if isinstance(error, StichError):
        return {"kind": "error", "error": str(error)}
    print(f"stich board: {route}: {type(error).__name__}: {error}", file=sys.stderr)
    return {"kind": "error", "error": failure_text(error)}


def failure_text(error: Exception) -> str:
    """What the page says of an internal fault: a table the server may not map (``--table-mb 1024`` under a 2 GB
    ``ulimit -v``: the search's table fits, the settlement's beside it does not) in words that say what to do, every
    other fault as one to report."""
    if isinstance(error, MemoryError):
        return (f"{error or 'out of memory'}: the board may not use that much memory (start it with a smaller "
                "--table-mb: its searches hold two tables of that size, the card values' and the settlement's)")
    return f"the board failed on this request ({type(error).__name__}); please report it"


@dataclass
class Searches:
    """The worker threads and the question each page is waiting for, by slot (``client:kind``).

    Two threads: the card values on ``search`` with ``engine``, never waiting behind the slower questions, which
    take turns on ``analysis`` (the graph with ``graph_engine``, the odds with the sampling module's own engine).
    The card values, what the player waits for, search on every core the analysis is not using: an analysis question
    that starts takes its core back from their helper (the process's core budget, ``engine.CORES``)."""

    engine: EngineSolver
    #: The seconds one question may take (``--time-limit``), None for no limit
    time_limit: float | None
    graph_engine: CheckedEngine = field(default_factory=lambda: CheckedEngine(threads=1))
    search: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(1, "stich-board-search"))
    analysis: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(1, "stich-board-analysis"))
    slots: dict[str, threading.Event] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: The stop events of the questions claimed and not yet released, at most ``max_questions``.
    live: set[threading.Event] = field(default_factory=set)
    max_questions: int = MAX_QUESTIONS
    #: Set once the server is stopping (:meth:`stop_all`): a question asked after it is refused, not searched.
    stopping: bool = False

    @property
    def question_seconds(self) -> float:
        """The seconds the engine's clock gives one question: the time limit, or without one the longest wait the
        clock takes (:data:`~solver.limits.MAX_LIMIT_S`, some 11.6 days), as a question's searches are timed by it."""
        return MAX_LIMIT_S if self.time_limit is None else self.time_limit

    def claim(self, slot: str) -> threading.Event:
        """A stop event for a new question in ``slot``; the question it replaces is told to stop. A BoardError (503)
        when ``max_questions`` are claimed already, or the server is stopping."""
        event = threading.Event()
        with self.lock:
            if self.stopping:
                raise BoardError("the board is stopping: start stich board again to ask", status=503, stopping=True)
            if len(self.live) >= self.max_questions:
                raise BoardError(f"the board is busy: {len(self.live)} questions are being answered or waiting (other "
                                 "pages or a script asking many); ask again when they are answered", status=503)
            self.live.add(event)
            stale = self.slots.get(slot)
            self.slots[slot] = event
        if stale is not None:
            stale.set()
        return event

    def stop(self, slot: str) -> None:
        """Tell the question in ``slot`` (if any) to stop."""
        with self.lock:
            stale = self.slots.get(slot)
        if stale is not None:
            stale.set()

    def release(self, slot: str, event: threading.Event) -> None:
        """The question of ``event`` is over (answered, stopped or its page gone): its place is free. Idempotent."""
        event.set()
        with self.lock:
            self.live.discard(event)
            if self.slots.get(slot) is event:
                del self.slots[slot]

    async def run(self, work: Callable[[], T], pool: ThreadPoolExecutor | None = None) -> T:
        return await asyncio.get_running_loop().run_in_executor(pool or self.search, work)

    def stop_all(self) -> None:
        """Stop every question being answered or waiting, and refuse new ones: the server is stopping. Called as
        the server's stop begins (Ctrl-C, SIGTERM), on its event loop, before uvicorn waits for the open
        connections, so that a streaming search (odds, values, a graph) ends at once with its "stopped"
        line instead of running on to its answer or the time limit."""
        with self.lock:
            self.stopping = True
            live = list(self.live)
        for event in live:
            event.set()

    def close(self) -> None:
        self.stop_all()
        self.search.shutdown(wait=False, cancel_futures=True)
        self.analysis.shutdown(wait=False, cancel_futures=True)


class RangeRefusals:
    """Starlette's file responses refuse a Range header they cannot serve in plain text (a 400 in its own words, a
    416 with no body) while every other refusal of the board is JSON: these are JSON too, naming the header and
    what it takes (ASGI middleware: the page and its static files). A Range of another unit than bytes is ignored,
    the whole file served, as RFC 9110 (14.2) has a server do, not refused."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        asked = next((value.decode("latin-1") for name, value in scope.get("headers", [])
                      if name.lower() == b"range"), None) if scope["type"] == "http" else None
        if asked is None:
            await self.app(scope, receive, send)
            return
        unit, equals, _ = asked.partition("=")
        if equals and unit.strip().lower() != "bytes":
            headers = [(name, value) for name, value in scope["headers"] if name.lower() != b"range"]
            scope = {**scope, "headers": headers}
            await self.app(scope, receive, send)
            return
        refusal: Message | None = None  # a plain-text refusal's start, held until its body is read
        said = b""

        async def answer(message: Message) -> None:
            nonlocal refusal, said
            if message["type"] == "http.response.start" and message["status"] in (400, 416):
                headers = {name.lower(): value for name, value in message.get("headers", [])}
                if not headers.get(b"content-type", b"").startswith(b"application/json"):
                    refusal = message
                    return
            if refusal is None or message["type"] != "http.response.body":
                await send(message)
                return
            said += message.get("body", b"")
            if not message.get("more_body", False):
                await self._refuse(scope, send, refusal, asked, said.decode("utf-8", "replace"))

        await self.app(scope, receive, answer)

    @staticmethod
    async def _refuse(scope: Scope, send: Send, refusal: Message, asked: str, said: str) -> None:
        expected = "a Range is bytes=FIRST-LAST, bytes=FIRST- or bytes=-COUNT, byte numbers from 0 and FIRST up to LAST"
        headers = {name.lower(): value for name, value in refusal.get("headers", [])}
        extra = [(b"content-range", headers[b"content-range"])] if b"content-range" in headers else []
        if refusal["status"] == 416:
            size = headers.get(b"content-range", b"").decode("latin-1").rpartition("/")[2]
            error = f"the Range header {asked!r} starts past the end of this file ({size} bytes); {expected}"
        else:
            error = f"the Range header {asked!r} names no range of this file's bytes ({said.strip()}); {expected}"
        body = json.dumps({"error": error}).encode()
        await send({"type": "http.response.start", "status": refusal["status"],
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                *extra]})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})


class QuestionResponse(StreamingResponse):
    """A streamed answer whose question is released however the response ends: a stream whose client left before
    its first line never runs its generator, whose ``finally`` would have released it."""

    def __init__(self, lines: AsyncIterator[str], release: Callable[[], None]) -> None:
        super().__init__(lines, media_type="application/x-ndjson", headers={"Cache-Control": "no-store"})
        self.release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()


def _quiet_multipart_log() -> None:
    """Keep python-multipart's warnings off the console: the refusal it causes is answered to the page."""
    logger = logging.getLogger(MULTIPART_LOGGER)
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())
    logger.propagate = False


def _filled(field: object) -> bool:
    """Whether a form's field holds text other than white space (a file part is no text)."""
    return isinstance(field, str) and bool(field.strip())


def _error(message: str, status: int = 400, field: str | None = None, stopping: bool = False) -> JSONResponse:
    """A refusal as JSON: its message, the form field at fault where one is (the Deal dialog marks it), and
    ``stopping``: true where the server is stopping (the page asks nothing again)."""
    if len(message) > MAX_ERROR_LENGTH:
        message = f"{message[:MAX_ERROR_LENGTH]}... ({len(message):,} characters)"
    document: dict[str, Any] = {"error": message}
    if field:
        document["field"] = field
    if stopping:
        document["stopping"] = True
    return JSONResponse(document, status_code=status)


class _LongNumber(Exception):
    """A number of more digits than the board reads, in a body that is valid JSON: its own exception, so the message
    names the number (a ValueError, as int() raises past 4,300 digits, is taken for a body that is not JSON)."""

    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _whole_number(text: str) -> int:
    digits = len(text.lstrip("-"))  # the sign is no digit
    if digits > MAX_NUMBER_DIGITS:
        raise _LongNumber(digits)
    return int(text)


#: What a JSON body that is no object is, in JSON's words (a list is an array).
_JSON_KINDS = {list: "array", str: "string", int: "number", float: "number", bool: "boolean",
               type(None): "null"}


#: The request body most routes read, the example their refusal of a body that is no object gives.
_BOARD_BODY = '{"board": "b1", "moves": []}'


async def _json_body(request: Request, example: str) -> dict[str, Any]:
    """The JSON object of the request's body; ``example`` is one the route reads, said where the body is none."""
    raw = await request.body() or b"{}"
    try:  # decoded as UTF-8, a BOM allowed: json.loads would guess UTF-16 or UTF-32 from bytes
        body = json.loads(raw.decode("utf-8-sig"), parse_int=_whole_number)
    except _LongNumber as error:
        raise BoardError(f"the request body has a number of {error.digits:,} digits; the board reads numbers of "
                         f"at most {MAX_NUMBER_DIGITS} (a seed, a pot, a seat, a sample count)") from None
    except UnicodeDecodeError as error:  # a ValueError too: said apart, as a record's bad byte is
        at = error.start + len(raw) - len(error.object)  # counting the BOM the codec skipped
        raise BoardError(f"the request body is not UTF-8 text (byte {error.object[error.start]:02x} at byte "
                         f"{at + 1:,}); JSON is sent as UTF-8") from None
    except ValueError:
        raise BoardError("the request body is not JSON") from None
    except RecursionError:  # arrays or objects nested deeper than the decoder goes: no request of the page's
        raise BoardError("the request body is nested too deeply") from None
    if not isinstance(body, dict):
        raise BoardError(f"the request body is a JSON {_JSON_KINDS.get(type(body), 'value')}, not the JSON object "
                         f"the board reads (such as {example})")
    return body


def _client(body: dict[str, Any]) -> str:
    client = body.get("client", "")
    if not isinstance(client, str) or len(client) > 64:
        raise BoardError("client is a short text the page makes up")
    return client


def _moves(body: dict[str, Any]) -> Sequence[object]:
    moves = body.get("moves", [])
    if not isinstance(moves, list):
        raise BoardError("moves is a list of card tokens")
    return moves


async def _client_left(request: Request) -> None:
    """Returns once the client of ``request``, whose body has been read, has gone (its connection closed)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def create_app(files: Sequence[Path] = (), *, board: str | None = None, host: str = "127.0.0.1",
               port: int | None = None, time_limit: float | None = DEFAULT_BOARD_TIME_LIMIT_S,
               max_body: int = DEFAULT_MAX_BODY, body_seconds: float = DEFAULT_BODY_SECONDS,
               engine: EngineSolver | None = None, allow_hosts: Sequence[str] = (), network: bool | None = None,
               variant: Mapping[str, object] | None = None, stdin: bytes | None = None) -> Guard:
    """The board as an ASGI app. ``files`` are the only files it reads (``board`` picks the record opened first).
    Requests must name ``host`` and ``port`` (None: any port, for the test client) in their Host header: bound to
    loopback, any loopback name; bound to another address (0.0.0.0, ::), also any IP literal and the machine's names.
    ``allow_hosts`` are further names, ``NAME`` or ``NAME:PORT`` (ValueError for another text). ``network`` says
    whether the address bound is one other machines reach (None: judged from ``host``; a name is as local as the
    address it was bound to, which the caller knows). A request body may hold ``max_body`` bytes and take
    ``body_seconds`` to arrive. ``variant`` (``--variant``) overrides the ``[Variant]`` tags of the records of
    ``files`` and of uploads and pastes alike, flag by flag, as every command's ``--variant`` does (one rule, so that
    a file opens the same named or uploaded); a deal of a game it has flags of is dealt and played under them.
    ``stdin``: the text of the FILE ``-`` (standard input, which the command reads once), served from memory.
    ``time_limit``: the seconds one question may take, None for no limit (``--time-limit 0``)."""
    check_time_limit(time_limit, StichError)  # as every time_limit: None is no limit, 0 refused
    allowed = [allowed_host(name) for name in allow_hosts]
    boards = Boards()
    searches = Searches(engine or EngineSolver(), time_limit)  # every free core (see Searches)
    named = [BoardFile(Path(path), board, file_text(stdin) if str(path) == "-" and stdin is not None else None)
             for path in files]
    # the command a page shows names a file by its absolute name: it works from any directory, not only this one.
    # Its ".." and symlinks are kept as typed: the system reads link/../x.tbn in the folder the link points into,
    # which os.path.abspath's text-only "x.tbn" would not name
    absolute = {item.path: str(item.path.absolute()) for item in named if item.text is None}
    static = resources.files("solver.board") / "static"

    async def index(request: Request) -> Response:
        return FileResponse(str(static / "index.html"), headers={"Cache-Control": "no-store"})

    # a named file's boards and the refusals of its bad records, by its size and time
    read: dict[Path, tuple[tuple[int, int], list[Board], list[str]]] = {}
    # standard input's, whose text does not change
    given: dict[Path, tuple[list[Board], list[str]]] = {}

    def file_boards(item: BoardFile) -> tuple[list[Board], list[str]]:
        """The boards of a file named on the command line: read again when it changed (a page reload shows the
        edit), else the same boards under the same ids, so that reloads and other tabs do not pile up copies and
        push an open page's board out of the server's memory. Standard input's, from the text read and decoded at
        the start, the same boards while they are open (the text is not hashed again at each load): its command
        names the file Save .tbn downloads, as an upload's does."""
        path = item.path
        if item.text is not None:
            kept = given.get(path)
            if kept is None or not boards.holds(kept[0]):
                kept = given[path] = boards.add_text_said(item.text, item.source, variant)
            return kept
        with named_file(path) as (status, handle):
            stamp = (status.st_size, status.st_mtime_ns)
            known = read.get(path)
            if known is not None and known[0] == stamp and boards.holds(known[1]):
                return known[1], known[2]
            raw = handle.read(MAX_FILE_BYTES + 1)  # a file that grew since it was looked at reads no further
        if len(raw) > MAX_FILE_BYTES:
            raise BoardError(too_large_text(path))
        found, refused = boards.add_text_said(file_text(raw), str(path), variant, named=absolute[path])
        read[path] = (stamp, found, refused)
        return found, refused

    # A new token at every start of the server: board ids (b1, b2, ...) start again at each, so a page that kept an
    # upload's id from an earlier start would take another record's board for it.
    server_start = secrets.token_hex(8)

    async def start(request: Request) -> Response:
        """The files named on the command line with their boards, the record to open first, the games, and the
        token of this start of the server (a reload drops what it kept of an earlier start's uploads)."""
        from ..games import GAMES

        listed: list[dict[str, Any]] = []
        opened = None
        for number, item in enumerate(named):
            try:
                found, refused = await run_in_threadpool(file_boards, item)  # a big file parses off the loop
            except OSError as error:
                unread = f"{shown_name(item.path)}: cannot be read ({visible(str(error))})"
                listed.append({"file": shown_name(item.path.name), "error": unread, "boards": []})
                continue
            except BoardError as error:
                listed.append({"file": shown_name(Path(item.source).name), "error": visible_lines(str(error)),
                               "boards": []})
                continue
            listed.append({"file": shown_name(Path(item.source).name), "boards": [b.summary() for b in found]}
                          | ({"error": visible_lines("\n".join(refused))} if refused else {}))
            if opened is None:
                wanted = [b for b in found if item.board is None or b.record.board == item.board]
                if not wanted:
                    missing = f"{shown_name(item.source)} has no record with [Board \"{item.board}\"]"
                    listed[-1]["error"] = "\n".join(filter(None, (listed[-1].get("error"), missing)))
                opened = (wanted or found)[0].id
        games = [{"name": game.name, "seats": list(game.seat_counts), "contracts": game.contract_help,
                  "examples": game.default_contracts(random.Random(0)), "has_pot": game.has_pot,
                  "declarer_title": game.declarer_title} for game in GAMES]
        # the --variant flags in force, each game's: the page says them, and its uploads and deals are played so
        return JSONResponse({"files": listed, "open": opened, "games": games, "time_limit": searches.time_limit,
                             "variant": variant_by_game(variant or {}), "server": server_start})

    async def load(request: Request) -> Response:
        """An uploaded .tbn file (multipart field ``file``) or pasted text (field ``text``): its records as boards."""
        content_type = request.headers.get("content-type", "")
        if content_type.startswith("multipart/form-data"):
            # a part may be as large as the body (whose limit is said in the board's words), as JSON's text may
            try:
                form = await request.form(max_files=1, max_fields=4, max_part_size=max_body)
            except HTTPException as error:  # Starlette's and python-multipart's words ("Invalid multipart data.")
                raise BoardError(f"the upload is not form data the board reads ({error.detail}); send a .tbn file "
                                 "as the multipart field file, or text as the field text") from None
            try:
                if "file" not in form and "text" not in form:  # else read as an empty paste: "no records"
                    fields = ", ".join(quoted(name) for name in sorted(form.keys())) or "none"  # the client's, cut
                    raise BoardError(f"the upload has no field file or text (its fields: {fields}); send a .tbn "
                                     "file as the multipart field file, or text as the field text")
                upload, pasted = form.get("file"), form.get("text")
                if isinstance(upload, UploadFile):
                    raw = await upload.read()
                    source = Path(upload.filename or UPLOAD_NAME).name or UPLOAD_NAME
                elif isinstance(upload, str) and not _filled(pasted) and (upload.strip() or "text" not in form):
                    # a file part sent without a file name reads as a plain field; beside it a text field with
                    # something in it is read instead, and one left blank is not
                    raw, source = pasted_bytes(upload, UPLOAD_NAME), UPLOAD_NAME
                else:
                    source = "pasted text"
                    # the text sent as a file part is read as its bytes, not as the part's repr
                    raw = await pasted.read() if isinstance(pasted, UploadFile) else pasted_bytes(pasted or "", source)
            finally:
                await form.close()
        else:
            body = await _json_body(request, '{"text": "[Game \\"Kratzen\\"] ..."}')
            text = body.get("text")
            if not isinstance(text, str):
                raise BoardError("paste the text of a .tbn record")
            raw, source = pasted_bytes(text, "pasted text"), "pasted text"
        text = file_text(raw)  # an empty one is said as the commands say it, without a place: "SOURCE: no records"
        # 1,000 records parse in about 0.3 s: on a worker thread, so that the event loop answers others meanwhile
        # --variant over the records' own tags, as for a named FILE: the same text opens the same way either way
        found, refused = await run_in_threadpool(lambda: boards.add_text_said(text, source, variant))
        return JSONResponse({"boards": [b.summary() for b in found], "open": found[0].id, "refused": refused})

    async def deal(request: Request) -> Response:
        body = await _json_body(request, '{"game": "Kratzen", "seed": 1}')
        record = new_deal(body.get("game"), body.get("contract"), body.get("seed", 1), body.get("seats"),
                          body.get("declarer", 1), body.get("pot"), variant)
        found = boards.add(record, f"{record.get('Game')} seed {record.get('Seed')}", variant)
        return JSONResponse({"boards": [found.summary()], "open": found.id})

    async def position(request: Request) -> Response:
        body = await _json_body(request, _BOARD_BODY)
        return JSONResponse(view(boards.get(body.get("board")), _moves(body)))

    async def values(request: Request) -> Response:
        """The value of every legal card, streamed as JSON lines (see the module doc)."""
        body = await _json_body(request, _BOARD_BODY)
        board = boards.get(body.get("board"))
        current = board.position(_moves(body))
        name = chosen_objective(current, body.get("objective"))
        seat = objective_seat(current, name)
        client = _client(body)
        slot = client + ":values"
        stop = searches.claim(slot)
        searches.stop(client + ":curve")  # the graph of the moves before this click: the page asks again after it
        return QuestionResponse(_value_lines(current, name, seat, stop, slot), lambda: searches.release(slot, stop))

    async def _value_lines(current: Any, name: str, seat: int | None, stop: threading.Event,
                           slot: str) -> AsyncIterator[str]:
        started = time.monotonic()
        engine = searches.engine

        def left(most: float = MAX_LIMIT_S) -> float:  # 0 once the question's time is up: the search stops at once
            seconds = min(most, searches.question_seconds - (time.monotonic() - started))
            return TimeLeft(max(0.0, seconds), searches.time_limit)

        try:
            yield json_line({"kind": "thinking", "objective": name})
            if current.state.is_over:
                result = await searches.run(lambda: _solve_checked(current, name, seat=seat, engine=engine))
                yield json_line(values_document(current, name, result))
                return
            try:
                result = await searches.run(lambda: _solve_checked(current, name, seat=seat, cards=True, engine=engine,
                                                                   time_limit=left(FIRST_SLICE), stop=stop))
                yield json_line(values_document(current, name, result))
                return
            except SearchStopped:
                if stop.is_set():
                    yield json_line(stopped_document(True, searches))
                    return
            objective = objective_named(current, name, seat)
            achieved = objective.achieved(current.rules, current.state)
            legal = current.state.legal_list()
            yield json_line({"kind": "slow", "cards": len(legal), "seconds": round(time.monotonic() - started, 3)})
            found: dict[int, int] = {}
            for card in legal:
                child = current.play(card)
                result = await searches.run(lambda: _solve_checked(child, name, seat=seat, engine=engine,
                                                                   time_limit=left(), stop=stop))
                found[card] = result.total
                yield json_line({"kind": "card", "card": current.pack[card].name, "value": result.total})
            maximises = current.state.to_move in objective.maximiser
            best_value = max(found.values()) if maximises else min(found.values())
            pack = current.pack
            yield json_line(card_values_document(
                current, name, objective, total=best_value, achieved=achieved,
                cards={pack[c].name: v for c, v in found.items()},
                best=[pack[c].name for c, v in found.items() if v == best_value],
                seconds=round(time.monotonic() - started, 4), nodes=None))
        except SearchStopped:
            yield json_line(stopped_document(stop.is_set() and left() > 0, searches))
        except Exception as error:
            yield json_line(failure_document("/api/values", error))
        finally:
            searches.release(slot, stop)

    async def curve(request: Request) -> Response:
        """The post-mortem of the moves so far: the evaluation graph with every card graded, by the score when the
        page asks for it (and the deal has one), else by card points or tricks."""
        body = await _json_body(request, _BOARD_BODY)
        current = boards.get(body.get("board")).position(_moves(body))
        by = graph_measure(current, body.get("objective"))
        engine = searches.graph_engine

        def work(stop: threading.Event) -> Any:
            engine.stop_event = stop
            try:  # the limit bounds the whole post-mortem, its settlements too, and is looked at between cards
                return curve_document(analyse_play(current, engine=engine, objective=by,
                                                   time_limit=searches.question_seconds, stop=stop))
            finally:
                engine.stop_event = None

        return await analysed(request, _client(body) + ":curve", work)

    async def odds(request: Request) -> Response:
        """The single-dummy view: the analyser's odds for the seat to move (or the seat asked for), streamed as JSON
        lines (the odds so far after each chunk of samples, then the odds)."""
        body = await _json_body(request, _BOARD_BODY)
        current = boards.get(body.get("board")).position(_moves(body))
        samples = body.get("samples", DEFAULT_SAMPLES)
        if not isinstance(samples, int) or isinstance(samples, bool) or not 1 <= samples <= MAX_SAMPLES:
            raise BoardError(f"samples is a whole number from 1 to {MAX_SAMPLES}")
        state = current.state
        seat = body.get("seat")
        if seat is None:  # the seat to move; a seat given as 0 or false is refused below, not read as this default
            seat = None if state.is_over else state.to_move + 1
        if seat is None:
            raise BoardError("the deal is over: there is no seat to move")
        if not current.game.is_whole(current.rules.deal):  # said at once, not after the stream began as sampling
            raise BoardError("single-dummy odds redeal the unseen cards of a whole deal played from its first trick; "
                             "this record is an ending (hands of a few cards): the double-dummy view values it")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= current.rules.seats:
            raise BoardError(f"seat is a seat number from 1 to {current.rules.seats}")
        client = _client(body)
        slot = client + ":odds"
        stop = searches.claim(slot)
        # a graph asked in double dummy before the page turned to single dummy: the odds would wait behind it on the
        # one analysis thread
        searches.stop(client + ":curve")
        return QuestionResponse(_odds_lines(current, seat, samples, stop, slot), lambda: searches.release(slot, stop))

    async def _odds_lines(current: Any, seat: int, samples: int, stop: threading.Event,
                          slot: str) -> AsyncIterator[str]:
        loop = asyncio.get_running_loop()
        updates: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        def progress(analysis: Any) -> None:  # on the analysis thread, after each chunk of samples
            loop.call_soon_threadsafe(updates.put_nowait, dict(odds_document(analysis), kind="progress", of=samples))

        def work() -> Any:
            # with one worker the samples are solved in this thread, by its worker engine and its settlement engine
            # (each sample's score): both are stopped
            with contextlib.ExitStack() as stopping:
                stopping.enter_context(worker_engine().stopping(time_limit=searches.question_seconds, stop=stop))
                stopping.enter_context(worker_settlement_engine().stopping(searches.question_seconds, stop))
                # the library's and stich analyse's default seed: the board's odds are the command's odds of the
                # position
                return analyse_position(current, seat, samples=samples, seed=DEFAULT_SEED, workers=1,
                                        progress=progress)

        analysis = asyncio.ensure_future(searches.run(work, searches.analysis))
        # a page that leaves stops the samples (finally, below); what they end with is then nobody's
        analysis.add_done_callback(lambda done: done.cancelled() or done.exception())
        update: asyncio.Future[dict[str, Any]] | None = None
        try:
            yield json_line({"kind": "thinking", "of": samples})
            while not analysis.done():
                update = asyncio.ensure_future(updates.get())
                await asyncio.wait({analysis, update}, return_when=asyncio.FIRST_COMPLETED)
                if update.done():
                    yield json_line(update.result())
                else:
                    update.cancel()
            yield json_line(odds_document(analysis.result()))
        except SearchStopped:
            yield json_line(stopped_document(stop.is_set(), searches))
        except Exception as error:
            yield json_line(failure_document("/api/odds", error))
        finally:  # a page that left mid-stream leaves a wait for the next update: ended, not dropped pending
            if update is not None:
                update.cancel()
            searches.release(slot, stop)

    async def analysed(request: Request, slot: str, work: Callable[[threading.Event], dict[str, Any]]) -> Response:
        """``work(stop)`` on the analysis thread as the question of ``slot``: its document, or 409 when it was
        stopped (by a newer question of the slot, or the time limit). A client that leaves stops it, as does the
        handler's cancelling (the server's shutdown): its answer is nobody's, and it would hold the analysis thread
        (the odds waiting behind it) until the time limit."""
        stop = searches.claim(slot)
        answer = asyncio.ensure_future(searches.run(lambda: work(stop), searches.analysis))
        answer.add_done_callback(lambda done: done.cancelled() or done.exception())  # a left client's is nobody's
        leaving = asyncio.ensure_future(_client_left(request))
        try:
            await asyncio.wait({answer, leaving}, return_when=asyncio.FIRST_COMPLETED)
            if not answer.done():
                stop.set()
                return JSONResponse({"kind": "stopped", "reason": "the client left"}, status_code=409)
            return JSONResponse(answer.result())
        except SearchStopped:
            return JSONResponse(stopped_document(stop.is_set(), searches), status_code=409)
        finally:
            leaving.cancel()
            if not answer.done():
                stop.set()
            searches.release(slot, stop)

    async def save(request: Request) -> Response:
        """The position as a .tbn record with its Play section, as a download."""
        body = await _json_body(request, _BOARD_BODY)
        board_ = boards.get(body.get("board"))
        text = saved_record(board_, _moves(body))
        return Response(text, media_type="text/plain; charset=utf-8",
                        headers={"Content-Disposition": attachment_header(file_name_for(board_))})

    async def bad_input(request: Request, error: Exception) -> Response:
        status = getattr(error, "status", 400)
        return _error(str(error), status, getattr(error, "field", None), getattr(error, "stopping", False))

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        return _error(error.detail or "refused", error.status_code)

    async def body_refused(request: Request, error: Exception) -> Response:
        assert isinstance(error, BodyRefused)
        refusal = _error(error.message, error.status)
        refusal.headers["connection"] = "close"  # the rest of the body is not read: a trickling client is let go
        return refusal

    async def internal(request: Request, error: Exception) -> Response:
        return _error(failure_text(error), 500)

    routes = [
        Route("/", index),
        Route("/api/start", start),
        Route("/api/load", load, methods=["POST"]),
        Route("/api/deal", deal, methods=["POST"]),
        Route("/api/position", position, methods=["POST"]),
        Route("/api/values", values, methods=["POST"]),
        Route("/api/curve", curve, methods=["POST"]),
        Route("/api/odds", odds, methods=["POST"]),
        Route("/api/save", save, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=str(static)), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            searches.close()

    _quiet_multipart_log()
    app = Starlette(routes=routes, exception_handlers={
        StichError: bad_input, HTTPException: http_error, BodyRefused: body_refused, Exception: internal},
        middleware=[Middleware(RangeRefusals)], lifespan=lifespan)
    app.state.boards = boards
    app.state.searches = searches
    network = on_network(host) if network is None else network
    hosts = loopback_names(host) | (LOOPBACK_NAMES | machine_names() if network else set())
    return Guard(app, hosts=hosts, port=port, max_body=max_body, body_seconds=body_seconds, any_ip=network,
                 allowed=allowed)
