"""What the board refuses before any route sees a request (ASGI middleware).

The board runs on a shared machine, bound to the loopback address by default, and anything a browser on that machine
visits could try to reach it. Two attacks matter: a page elsewhere whose host name is made to resolve to the board's
address (DNS rebinding: its requests carry that page's Host), and a page elsewhere posting to the board (its requests
carry that page's Origin). So a request is answered only when its Host is one of the board's own names and port, and
its Origin, when it has one, is one of them too (or the request's own Host; on the network a loopback name in an
Origin is the visitor's own machine). Bound to every address of the machine (0.0.0.0 or ::, to show the board to
other machines) its own names are also any IP literal (an address cannot be rebound: only a name can) and the
machine's names; ``--allow-host`` adds others (a reverse proxy's, a club's DNS name). Bodies are limited in
size: a Content-Length over the limit is refused at once, and a body sent without one is counted as it arrives. They
are limited in time too: a body that has not all arrived within the limit is refused, so a client that trickles its
body (a byte a second, or short chunks each wrapped in long chunk headers, which are no body bytes) does not hold a
request open forever; and all of them at once are limited, so that many clients each sending a body just under the
limit do not hold memory without bound.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
import sys
from typing import Iterable

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send


#: Headers of every answer: no page elsewhere may frame the board (a click on its cards or buttons under a
#: disguise), and the page loads nothing but its own files.
SAFETY_HEADERS = [(b"x-frame-options", b"DENY"), (b"x-content-type-options", b"nosniff"),
                  (b"content-security-policy",
                   b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'")]


class BodyRefused(Exception):
    """A body the board stops reading: its answer's status and what it says."""

    status = 400

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


#: The names of the loopback address: each stands for the others.
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
#: The port a Host or Origin without one means, by scheme.
DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443"}


def loopback_names(host: str) -> set[str]:
    """The host names a browser on this machine may use for the board bound to ``host``."""
    names = {host.lower().strip("[]")}
    if names & LOOPBACK_NAMES:
        names |= LOOPBACK_NAMES
    return names


def ip_literal(host: str) -> bool:
    """Whether ``host`` (no brackets) is an IPv4 or IPv6 address rather than a name."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def is_wildcard(host: str) -> bool:
    """Whether ``host`` is the address of every interface (0.0.0.0, ::)."""
    host = host.strip("[]")
    return ip_literal(host) and ipaddress.ip_address(host).is_unspecified


def machine_names() -> set[str]:
    """This machine's own names (``socket.gethostname()``, ``socket.getfqdn()``) and its multicast-DNS name
    (``NAME.local``, which macOS and Linux with Avahi answer on the local network; no public DNS can rebind a name
    under ``.local``, RFC 6762), lower-cased."""
    names = {name.lower() for name in (socket.gethostname(), socket.getfqdn()) if name}
    short = socket.gethostname().split(".")[0].lower()
    if short and not ip_literal(short) and not short.startswith("localhost"):
        names.add(f"{short}.local")
    return names


#: The UDP port a multicast-DNS responder listens on (RFC 6762).
MULTICAST_DNS_PORT = 5353


def multicast_dns_answers(tables: Iterable[str] = ("/proc/net/udp", "/proc/net/udp6")) -> bool:
    """Whether something on this machine evidently answers multicast DNS, so that other machines may find it as
    ``NAME.local``: always on macOS (mDNSResponder); on Linux where a socket is bound to UDP port 5353 (Avahi,
    systemd-resolved with MulticastDNS, read from ``tables``); elsewhere no evidence. The startup list offers the name
    only then: a Linux machine without a responder is not found by it."""
    if sys.platform == "darwin":
        return True
    for table in tables:
        try:
            with open(table, encoding="ascii") as sockets:
                next(sockets, None)  # the column names
                for line in sockets:  # "  0: 00000000:14E9 00000000:0000 07 ...": local address:port in hex
                    fields = line.split()
                    if len(fields) > 1 and int(fields[1].rpartition(":")[2], 16) == MULTICAST_DNS_PORT:
                        return True
        except (OSError, ValueError):
            continue
    return False


def on_network(host: str) -> bool:
    """Whether the board bound to ``host`` serves other machines too (any address but loopback's, a wildcard above
    all): its own names are then also every IP literal and the machine's names."""
    address = host.strip("[]").lower()
    return address not in LOOPBACK_NAMES and not (ip_literal(address) and ipaddress.ip_address(address).is_loopback)


def local_ipv4_addresses(fib_trie: str) -> set[str]:
    """The IPv4 addresses of this machine in the text of Linux's ``/proc/net/fib_trie``: each ``|-- ADDRESS`` line
    followed by ``/32 host LOCAL`` (every address of every interface, a second address or alias too)."""
    found: set[str] = set()
    last = None
    for line in fib_trie.splitlines():
        words = line.split()
        if words[:1] == ["|--"] and len(words) == 2:
            last = words[1]
        elif last is not None and words[:3] == ["/32", "host", "LOCAL"] and ip_literal(last):
            found.add(last)
    return found


def interface_addresses() -> set[str]:
    """The addresses of this machine's network interfaces where the system tells them without a library (Linux:
    every IPv4 address from /proc's routing table, else each interface's first by ioctl; every IPv6 address from
    /proc); empty elsewhere. A club PC on both a cable and a wireless network is reached at both, and only one of
    them is its default route's."""
    found: set[str] = set()
    try:
        with open("/proc/net/if_inet6", encoding="ascii") as table:
            found |= {str(ipaddress.IPv6Address(bytes.fromhex(line.split()[0]))) for line in table if line.strip()}
    except (OSError, ValueError):
        pass
    try:
        with open("/proc/net/fib_trie", encoding="ascii") as trie:
            ipv4 = local_ipv4_addresses(trie.read())
    except (OSError, ValueError):
        ipv4 = set()
    if ipv4:
        return found | ipv4
    try:
        import fcntl
        import struct

        names = [name for _, name in socket.if_nameindex()]
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            for name in names:
                try:  # SIOCGIFADDR: the interface's (first) IPv4 address
                    answer = fcntl.ioctl(probe.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))
                except OSError:  # no IPv4 address on it
                    continue
                found.add(socket.inet_ntoa(answer[20:24]))
    except (ImportError, AttributeError, OSError):  # not Linux, or no sockets
        pass
    return found


def machine_addresses() -> list[str]:
    """This machine's addresses on its networks as far as the standard library finds them (its interfaces', its
    names' addresses and the one its default route leaves from: a UDP socket's connect sends no packet), loopback
    and link-local addresses left out; IPv4 first."""
    found: set[str] = interface_addresses()
    for name in machine_names():
        if found and name.endswith(".local"):  # a multicast-DNS query can wait seconds for no answer, and the
            continue                            # interfaces gave the addresses (not so off Linux: a Mac's Name.local)
        try:
            found |= {str(info[4][0]) for info in socket.getaddrinfo(name, None, type=socket.SOCK_STREAM)}
        except OSError:
            continue
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):  # documentation nets
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                found.add(str(udp.getsockname()[0]))
        except OSError:  # no route, or no such family here
            continue
    addresses = [ipaddress.ip_address(a) for a in found if ip_literal(a)]
    usable = [a for a in addresses if not (a.is_loopback or a.is_link_local or a.is_unspecified)]
    return [str(a) for a in sorted(usable, key=lambda a: (a.version, int(a)))]


def allowed_host(value: str) -> tuple[str, str | None]:
    """An ``--allow-host`` value, ``NAME`` or ``NAME:PORT`` (an IPv6 address in brackets), as (name, port or None);
    ValueError with what is wrong and what is expected."""
    expected = "expected NAME or NAME:PORT, such as board.club.example or board.club.example:443"
    text = value.strip().lower()
    if not text or "://" in text or any(sign in text for sign in "/@?#*, \t\\"):
        raise ValueError(f"{value!r} is not a host name ({expected}: no scheme, path, list or wildcard)")
    if ip_literal(text):  # a bare address: an IPv6 address's colons are no port
        return text, None
    host, port = split_host(text)
    if port is not None and not (port.isdigit() and 1 <= int(port) <= 65535):
        raise ValueError(f"{value!r} has no port from 1 to 65535 after its last colon ({expected})")
    if ip_literal(host):
        return host, port
    labels = host.split(".")
    if text.startswith("[") or not all(label and all(c.isascii() and (c.isalnum() or c in "-_") for c in label)
                                       for label in labels):
        raise ValueError(f"{value!r} is not a host name ({expected}; a name in other letters in its xn-- form)")
    return host, port


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


def refusal(message: str) -> tuple[bytes, list[tuple[bytes, bytes]]]:
    """A refusal's JSON body and headers, the connection closed after it (the rest of a refused request is not
    read: a client still sending it would otherwise hold the connection for as long as it trickles)."""
    body = json.dumps({"error": message}).encode()
    return body, [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                  (b"connection", b"close"), (b"cache-control", b"no-store"), *SAFETY_HEADERS]


async def _refuse(send: Send, status: int, message: str, kind: str = "http") -> None:
    """A refusal before the app (:func:`refusal`); ``kind`` ``websocket.http`` answers a WebSocket's handshake with
    it (the ASGI denial response)."""
    body, headers = refusal(message)
    await send({"type": f"{kind}.response.start", "status": status, "headers": headers})
    await send({"type": f"{kind}.response.body", "body": body})


#: What a WebSocket's handshake is told: the board has none (RFC 6455 4.2.2 refuses one with an HTTP status).
NO_WEBSOCKETS = "the board has no WebSocket: it answers plain HTTP requests only"


def asks_websocket(headers: dict[str, str]) -> bool:
    """Whether a request's (lower-cased) headers ask to upgrade its connection to a WebSocket (``Connection:
    Upgrade`` and ``Upgrade: websocket``): an Upgrade to another protocol (h2c) is answered as the plain request it
    also is."""
    connection = {token.strip().lower() for token in headers.get("connection", "").split(",")}
    return "upgrade" in connection and headers.get("upgrade", "").strip().lower() == "websocket"


class Guard:
    """Host and Origin checks and the body size limit around an ASGI app (HTTP only: a WebSocket's handshake is
    refused in JSON, the board has none).

    ``hosts`` are the board's own names, on ``port`` (None: any port, for the test client); ``any_ip`` accepts every
    IP literal on that port too (bound to an address other machines reach). ``allowed`` are ``--allow-host``'s
    (name, port): a name without a port is accepted with the board's port or with none (a proxy in front on its
    scheme's standard port), a name with a port on that port (and with none when it is 80 or 443, which a browser
    leaves out). ``max_body`` bytes of a body are read at most, for at most ``body_seconds`` from the request's
    start; the bodies of all the requests being answered hold at most ``max_reading`` bytes (16 largest bodies by
    default: many clients each sending a body just under the limit held memory without bound), past which a request
    is told the board is busy (503)."""

    def __init__(self, app: ASGIApp, *, hosts: Iterable[str], port: int | None, max_body: int,
                 body_seconds: float = 60.0, max_reading: int | None = None, any_ip: bool = False,
                 allowed: Iterable[tuple[str, str | None]] = ()) -> None:
        self.app = app
        self.hosts = {name.lower() for name in hosts}
        # in an Origin, a loopback name is the visitor's own machine: the board's only when bound to loopback (or
        # when it is the request's own Host, which _origin_ok accepts apart)
        self.origin_hosts = self.hosts - LOOPBACK_NAMES if any_ip else self.hosts
        self.port = None if port is None else str(port)
        self.max_body = max_body
        self.body_seconds = body_seconds
        self.max_reading = 16 * max_body if max_reading is None else max_reading
        self.reading = 0  # bytes of the bodies of the requests being answered
        self.any_ip = any_ip
        self.allowed = {(name.lower(), None if allowed_port is None else str(allowed_port))
                        for name, allowed_port in allowed}

    def _host_ok(self, value: str, scheme: str, any_ip: bool, hosts: set[str] | None = None) -> bool:
        """Whether ``value`` (a Host header, or an Origin's host and port) names this board: one of ``hosts`` (the
        board's names by default), any IP literal too when ``any_ip``; a missing port is the standard port of
        ``scheme``."""
        host, port = split_host(value)
        if (host, port) in self.allowed or (port is None or port == self.port) and (host, None) in self.allowed:
            return True
        if port is None and ((host, "80") in self.allowed or (host, "443") in self.allowed):  # a browser omits them
            return True
        if not (host in (self.hosts if hosts is None else hosts) or any_ip and ip_literal(host)):
            return False
        return self.port is None or (port or DEFAULT_PORTS.get(scheme)) == self.port

    def _origin_ok(self, value: str, host: str, host_scheme: str) -> bool:
        """Whether the page behind Origin ``value`` is the board's own: one of its names, or the very address of the
        request (``host``, its Host header). An IP literal is the board's in a Host (the browser connected to it),
        but in an Origin it is only where the page came from: any machine's."""
        scheme, separator, rest = value.partition("://")
        if scheme not in ("http", "https") or not separator:
            return False
        rest = rest.rstrip("/")
        if self._host_ok(rest, scheme, any_ip=False, hosts=self.origin_hosts):
            return True
        (origin_host, origin_port), (own_host, own_port) = split_host(rest), split_host(host)
        return self.any_ip and origin_host == own_host and \
            (origin_port or DEFAULT_PORTS[scheme]) == (own_port or DEFAULT_PORTS.get(host_scheme))

    def too_large(self) -> str:
        return f"the request is larger than the board takes ({self.max_body:,} bytes)"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "websocket":  # a server that hands the app WebSockets (stich board's does not)
                if "websocket.http.response" in (scope.get("extensions") or {}):
                    await _refuse(send, 403, NO_WEBSOCKETS, "websocket.http")
                else:  # a server without the denial response says 403 in its own words
                    await send({"type": "websocket.close", "code": 1008})
                return
            await self.app(scope, receive, send)
            return
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        host = headers.get("host", "")
        scheme = scope.get("scheme", "http")
        if not self._host_ok(host, scheme, self.any_ip):
            await _refuse(send, 421, f"this board answers only to its own addresses (the Host header names {host!r}; "
                                     "stich board --allow-host NAME accepts another name)")
            return
        origin = headers.get("origin")
        if origin is not None and origin != "null" and not self._origin_ok(origin, host, scheme):
            await _refuse(send, 403, "requests from other sites are refused (the Origin header is another's)")
            return
        if origin == "null" and scope["method"] != "GET":
            await _refuse(send, 403, "requests from other sites are refused (an opaque Origin)")
            return
        if asks_websocket(headers):
            await _refuse(send, 403, NO_WEBSOCKETS)
            return
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit():
                await _refuse(send, 400, "the Content-Length header is not a number")
                return
            if int(length) > self.max_body:
                await _refuse(send, 413, self.too_large())
                return
        received = 0
        whole = False  # the body has all arrived: what the app waits for next (a client's leaving) has no time limit
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_seconds

        async def counted() -> Message:
            nonlocal received, whole
            if whole:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), deadline - loop.time())
            except asyncio.TimeoutError:
                came = f"{received:,} of {int(length):,} bytes" if length is not None else f"{received:,} bytes"
                raise BodyRefused(f"the request's body did not arrive within {self.body_seconds:g} s ({came} came); "
                                  "the board waits no longer for a body", 408) from None
            if message["type"] == "http.request":
                size = len(message.get("body", b""))
                received += size
                self.reading += size
                whole = not message.get("more_body", False)
                if received > self.max_body:
                    raise BodyRefused(self.too_large(), 413)  # it grew past the limit while it was read
                if self.reading > self.max_reading:
                    raise BodyRefused("the board is busy: the bodies of the requests it is answering hold "
                                      f"{self.max_reading:,} bytes already; send this one again in a moment", 503)
            return message

        started = False
        # an API answer is of the moment (a file read again, a board forgotten): never kept; the page's own files are
        # asked again each time (a 304 where unchanged), so an upgraded stich never runs an old board.js
        caching = b"no-store" if scope.get("path", "").startswith("/api/") else b"no-cache"

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = [*message.get("headers", []), *SAFETY_HEADERS]
                if not any(name.lower() == b"cache-control" for name, _ in headers):
                    headers.append((b"cache-control", caching))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyRefused as refusal:
            if not started:
                await _refuse(send, refusal.status, refusal.message)
        except ClientDisconnect:  # the client left before its body was whole (a page closed mid-upload): no fault
            pass
        except Exception as error:  # the app's handler has answered 500 already: one line on the console, no trace
            print(f"stich board: {scope.get('path')}: {type(error).__name__}: {error}", file=sys.stderr)
            if not started:
                await _refuse(send, 500, "the board failed on this request; please report it")
        finally:
            self.reading -= received
