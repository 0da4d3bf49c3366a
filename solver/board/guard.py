"""What the board refuses before any route sees a request (ASGI middleware).

The board runs on a shared machine, bound to the loopback address, and anything a browser on that machine visits
could try to reach it. Two attacks matter: a page elsewhere whose host name is made to resolve to 127.0.0.1 (DNS
rebinding: its requests carry that page's Host), and a page elsewhere posting to the board (its requests carry that
page's Origin). So a request is answered only when its Host is one of the board's own names and port, and its Origin,
when it has one, is the board's own address. Bodies are limited in size: a Content-Length over the limit is refused
at once, and a body sent without one is counted as it arrives.
"""

from __future__ import annotations

import json
import sys
from typing import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send


#: Headers of every answer: no page elsewhere may frame the board (a click on its cards or buttons under a
#: disguise), and the page loads nothing but its own files.
SAFETY_HEADERS = [(b"x-frame-options", b"DENY"), (b"x-content-type-options", b"nosniff"),
                  (b"content-security-policy",
                   b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'")]


class BodyTooLarge(Exception):
    """A body that grew past the limit while it was read."""


def loopback_names(host: str) -> set[str]:
    """The host names a browser on this machine may use for the board bound to ``host``."""
    names = {host.lower().strip("[]")}
    if names & {"127.0.0.1", "localhost", "::1"}:
        names |= {"127.0.0.1", "localhost", "::1"}
    return names


def split_host(value: str) -> tuple[str, str | None]:
    """``host[:port]`` (an IPv6 address in brackets) as (host, port or None), the host lower-cased."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return value, None
        rest = value[end + 1:]
        return value[1:end], rest[1:] if rest.startswith(":") else None
    host, colon, port = value.rpartition(":")
    return (host, port) if colon else (value, None)


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *SAFETY_HEADERS]})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """Host and Origin checks and the body size limit around an ASGI app (HTTP only: the board has no websockets)."""

    def __init__(self, app: ASGIApp, *, hosts: Iterable[str], port: int | None, max_body: int) -> None:
        self.app = app
        self.hosts = {name.lower() for name in hosts}
        self.port = None if port is None else str(port)
        self.max_body = max_body

    def _host_ok(self, value: str) -> bool:
        host, port = split_host(value)
        return host in self.hosts and (self.port is None or port == self.port)

    def _origin_ok(self, value: str) -> bool:
        scheme, separator, rest = value.partition("://")
        return scheme in ("http", "https") and bool(separator) and self._host_ok(rest.rstrip("/"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            await self.app(scope, receive, send)
            return
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        if not self._host_ok(headers.get("host", "")):
            await _refuse(send, 421, "this board answers only to its own address (the Host header is another's)")
            return
        origin = headers.get("origin")
        if origin is not None and origin != "null" and not self._origin_ok(origin):
            await _refuse(send, 403, "requests from other sites are refused (the Origin header is another's)")
            return
        if origin == "null" and scope["method"] != "GET":
            await _refuse(send, 403, "requests from other sites are refused (an opaque Origin)")
            return
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit():
                await _refuse(send, 400, "the Content-Length header is not a number")
                return
            if int(length) > self.max_body:
                await _refuse(send, 413, f"the request is larger than the board takes ({self.max_body:,} bytes)")
                return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise BodyTooLarge
            return message

        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", []), *SAFETY_HEADERS]}
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:
            if not started:
                await _refuse(send, 413, f"the request is larger than the board takes ({self.max_body:,} bytes)")
        except Exception as error:  # the app's handler has answered 500 already: one line on the console, no trace
            print(f"stich board: {scope.get('path')}: {type(error).__name__}: {error}", file=sys.stderr)
            if not started:
                await _refuse(send, 500, "the board failed on this request; please report it")
