"""Connections counted per client address and in all, and the answer of one refused.

At most ``max_connections_per_ip`` open connections from one client address (IPv6 by
its /64, as ``security.ip_hash`` canonicalises it), HTTP and WebSocket together. They
are counted on the transport, from the moment it is accepted, so idle and half-sent
connections count too. One over the cap gets a 429 written straight on the transport
and is closed. Connections from a trusted proxy (an address in ``forwarded_allow_ips``)
are not counted: **such a proxy must limit connections per client itself**, since
every client behind it shares its address here (``forwarded_allow_ips = "*"``
therefore turns the cap off). And while so many connections are open that the process
would run out of file descriptors (``RLIMIT_NOFILE`` less a reserve), new ones get a
503 at once, so a full server still answers.
"""

from __future__ import annotations

import asyncio
import http
import json
import logging
import resource
import secrets

from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.server import ServerState

from tysiac.server.errors import ServiceError
from tysiac.server.http.messages import error_body
from tysiac.server.security import ip_hash
from tysiac.server.serving.logs import LogEvery, held_back

log = logging.getLogger(__name__)

LINGER_SECONDS = 2.0  # the longest a refused connection stays open to read its error
MAX_REFUSED_HEAD = 16384  # bytes of a refused request read before it is answered anyway


def descriptor_capacity() -> int:
    """Connections this process may hold open: its file descriptor limit less a reserve.

    The reserve (an eighth of the limit, at least 64) is for what else needs
    descriptors: the listening sockets, the database and its journal files, the log,
    and the connection being refused, so that a full server can still say so.
    """
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 1 << 20
    return max(16, soft - max(64, soft // 8))


def error_response(status: int, key: str, *extra: tuple[str, str]) -> bytes:
    """A whole HTTP/1.1 response in the project's error shape, closing the connection."""
    refusal = ServiceError(key, status)
    body = json.dumps(error_body(refusal), ensure_ascii=False).encode()
    headers = [
        ("Content-Type", "application/json"),
        ("Content-Length", str(len(body))),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        *extra,
        ("Connection", "close"),
    ]
    head = f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in headers)
    return head.encode("latin-1") + b"\r\n" + body


TOO_MANY_CONNECTIONS = error_response(
    429,
    "error.too_many_connections",
    ("Retry-After", "10"),
)
SERVER_BUSY = error_response(
    503,
    "error.server_busy",
    ("Retry-After", "10"),
)
REQUEST_TIMEOUT = error_response(408, "error.request_timeout")


class ConnectionGuard:
    """The open connections of one server, by client address, counted on the transports.

    A transport is admitted when it is accepted and released when it is lost; after a
    WebSocket upgrade uvicorn hands the same transport to the WebSocket protocol, so
    it stays counted once until that protocol loses it. Addresses are kept only as
    ``ip_hash`` under a key of this process (IPv6 by its /64, IPv4-mapped as IPv4).
    """

    def __init__(
        self, per_address: int, trusted_proxies: str | None, capacity: int | None = None
    ) -> None:
        self.per_address = per_address
        # The same test as uvicorn's X-Forwarded-For handling, so that exactly the
        # proxies whose headers are believed go uncounted.
        self.trusted = _TrustedHosts(trusted_proxies) if trusted_proxies is not None else None
        self.capacity = descriptor_capacity() if capacity is None else capacity
        self._key = secrets.token_hex(16)
        self._open: dict[asyncio.BaseTransport, str | None] = {}
        self._per_address: dict[str, int] = {}
        self._refused: set[asyncio.BaseTransport] = set()
        self._crowded = LogEvery()
        self._full = LogEvery()

    def address_key(self, transport: asyncio.BaseTransport) -> str | None:
        """The key the transport's peer is counted under; None: not counted.

        A Unix socket (no address) and a trusted proxy are not counted.
        """
        peer = transport.get_extra_info("peername")
        if not isinstance(peer, tuple) or not peer or not isinstance(peer[0], str):
            return None
        if self.trusted is not None and peer[0] in self.trusted:
            return None
        return ip_hash(self._key, peer[0])

    def admit(self, transport: asyncio.BaseTransport) -> bytes | None:
        """Count a new connection, or return the response that refuses it."""
        if transport in self._open:
            return None
        if len(self._open) + len(self._refused) >= self.capacity:
            if (held := self._full.allow()) is not None:
                log.warning(
                    "%d connections are open, as many as the file descriptor limit allows:"
                    " refusing new ones with 503%s",
                    len(self._open),
                    held_back(held),
                )
            return SERVER_BUSY
        key = self.address_key(transport)
        if key is not None:
            count = self._per_address.get(key, 0)
            if count >= self.per_address:
                if (held := self._crowded.allow()) is not None:
                    log.warning(
                        "A client address has %d connections open (max_connections_per_ip):"
                        " refusing more with 429%s",
                        count,
                        held_back(held),
                    )
                return TOO_MANY_CONNECTIONS
            self._per_address[key] = count + 1
        self._open[transport] = key
        return None

    def refused(self, transport: asyncio.BaseTransport) -> None:
        """A refused connection still holds a descriptor until it is closed."""
        self._refused.add(transport)

    def release(self, transport: asyncio.BaseTransport) -> None:
        """The transport is lost (called once per protocol that held it; idempotent)."""
        self._refused.discard(transport)
        if transport not in self._open:
            return
        key = self._open.pop(transport)
        if key is not None:
            left = self._per_address[key] - 1
            if left:
                self._per_address[key] = left
            else:
                del self._per_address[key]

    @property
    def open(self) -> int:
        return len(self._open)


class Refused(asyncio.Protocol):
    """A connection over a limit: its error response, then closed.

    The response waits for the request's headers (a client may not expect an answer
    to a request it is still sending), then it is written and the sending side shut
    (FIN); what the client still sends is dropped until it closes. All this takes at
    most ``linger`` seconds from the connection: then the response goes anyway and the
    connection is closed. Closing at once could reset the connection (RST) with the
    request unread, and the client might never see the error. Out of descriptors,
    though, the response goes at once and the connection is closed (``linger`` 0):
    the descriptor is needed more.
    """

    def __init__(
        self,
        response: bytes,
        guard: ConnectionGuard,
        server_state: ServerState,
        loop: asyncio.AbstractEventLoop,
        linger: float,
    ) -> None:
        self.response = response
        self.linger = linger
        self.guard = guard
        self.server_state = server_state
        self.loop = loop
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.answered = False
        self.tail = b""  # the last bytes seen, to find the end of the headers across reads
        self.read = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.guard.refused(transport)
        # Shut down with the server like any connection (server.shutdown() closes it).
        self.server_state.connections.add(self)  # type: ignore[arg-type]
        if self.linger <= 0:
            self._answer()
            transport.close()
            return
        self.timer = self.loop.call_later(self.linger, self._done)

    def data_received(self, data: bytes) -> None:
        if self.answered:
            return  # the rest of the request: dropped
        self.read += len(data)
        seen = self.tail + data
        if b"\r\n\r\n" in seen or self.read > MAX_REFUSED_HEAD:
            self._answer()
        self.tail = seen[-3:]

    def eof_received(self) -> bool | None:
        self._answer()
        return None  # the client is done: the transport closes once the answer is out

    def _answer(self) -> None:
        if self.answered or self.transport is None:
            return
        self.answered = True
        self.transport.write(self.response)
        if self.transport.can_write_eof():
            self.transport.write_eof()

    def _done(self) -> None:
        self._answer()
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.server_state.connections.discard(self)
        if self.transport is not None:
            self.guard.release(self.transport)
            self.transport.close()

    def shutdown(self) -> None:
        if self.transport is not None:
            self.transport.close()
