"""How the game is served: uvicorn, hardened so that one client cannot take it down.

``build_server`` makes the ``uvicorn.Server`` that both ``python -m tysiac.server`` and
the tests' ``LiveServer`` run, so the tests exercise exactly what production runs:

- **Request deadlines.** A connection must deliver a request's complete headers within
  ``request_timeout_seconds`` of its first byte (of the connection, for the first
  request), and then its complete body within the same time again; otherwise it gets
  a 408 and is closed. Between requests, uvicorn's ``timeout_keep_alive`` applies.
  uvicorn itself has no such deadline: half-sent requests stayed open for ever.
- **Connections per address.** At most ``max_connections_per_ip`` open connections
  from one client address (IPv6 by its /64, as ``security.ip_hash`` canonicalises it),
  HTTP and WebSocket together. They are counted on the transport, from the moment it
  is accepted, so idle and half-sent connections count too. One over the cap gets a
  429 written straight on the transport and is closed. Connections from a trusted
  proxy (an address in ``forwarded_allow_ips``) are not counted: **such a proxy must
  limit connections per client itself**, since every client behind it shares its
  address here. (``forwarded_allow_ips = "*"`` therefore turns the cap off.)
- **File descriptors.** Connections are refused with a 503 while so many are open that
  the process would run out of descriptors (``RLIMIT_NOFILE`` less a reserve for the
  database, log and listening sockets), so a full server still answers. When accept()
  fails all the same (EMFILE, ENFILE), the listener pauses for a moment and tries
  again, logging at most one line a minute. asyncio's own handling of that case
  (Python 3.11's ``BaseSelectorEventLoop._accept_connection``) neither stops its loop
  nor limits its logging: each readiness of the listener made it try ``backlog`` (2048)
  more accepts, each logging a 6-line traceback through the loop's exception handler
  and scheduling one more retry - about 2048 records a second (CPython gh-151615).
- **Logs without client addresses.** uvicorn logs every WebSocket with the client's
  address and port (``access_log=False`` does not cover it), and websockets adds
  "connection open"/"connection closed". Those per-connection lines are dropped, other
  client-caused warnings are limited to one a minute, and as a safety net any IP
  address left in a library's log record (``uvicorn``, ``websockets``, ``asyncio``…) is
  redacted. The startup line with the server's own address is kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import http
import json
import logging
import math
import re
import resource
import secrets
import socket
import sys
import time
from collections.abc import Callable
from ipaddress import ip_address
from typing import Any, Literal

import h11
import uvicorn
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect
from uvicorn.config import STARTUP_FAILURE
from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from .config import Settings
from .protocol import MAX_BODY
from .security import ip_hash

log = logging.getLogger(__name__)

NOTICE_SECONDS = 60.0  # at most one log line this often about each kind of overload
LINGER_SECONDS = 2.0  # the longest a refused connection stays open to read its error
MAX_REFUSED_HEAD = 16384  # bytes of a refused request read before it is answered anyway
ACCEPT_RETRY_SECONDS = 0.5  # pause of a listener that ran out of file descriptors
WS_MAX_SIZE = MAX_BODY * 4  # bytes of a WebSocket frame; larger ones are closed with 1009


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


def error_response(status: int, code: str, message: str, *extra: tuple[str, str]) -> bytes:
    """A whole HTTP/1.1 response in the project's error shape, closing the connection."""
    body = json.dumps({"error": {"code": code, "message": message}}, ensure_ascii=False).encode()
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
    "too_many_connections",
    "Za dużo otwartych połączeń z Twojego adresu. Zamknij inne karty z grą"
    " i spróbuj ponownie za chwilę.",
    ("Retry-After", "10"),
)
SERVER_BUSY = error_response(
    503,
    "server_busy",
    "Serwer jest teraz przeciążony. Spróbuj ponownie za chwilę.",
    ("Retry-After", "10"),
)
REQUEST_TIMEOUT = error_response(
    408, "request_timeout", "Żądanie nie dotarło w całości na czas. Spróbuj ponownie."
)


class LogEvery:
    """Allows one log line per ``seconds`` and counts the ones it held back."""

    def __init__(self, seconds: float = NOTICE_SECONDS) -> None:
        self.seconds = seconds
        self.last = -math.inf
        self.held = 0

    def allow(self) -> int | None:
        """None: stay quiet. A number: log now, saying how many were held back since."""
        now = time.monotonic()
        if now - self.last < self.seconds:
            self.held += 1
            return None
        held, self.held, self.last = self.held, 0, now
        return held


def _since(held: int) -> str:
    return f" ({held} more since the last such line)" if held else ""


# Connections: counted per address and in all.


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
                    _since(held),
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
                        _since(held),
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


# The protocols: uvicorn's, counting their transports and keeping the deadlines.


class ServingConfig(uvicorn.Config):
    """uvicorn's configuration plus what the guarded protocols and the loop need."""

    def __init__(
        self, app: ASGIApp, *, guard: ConnectionGuard, request_timeout: float, **options: Any
    ) -> None:
        self.guard = guard
        self.request_timeout = request_timeout
        super().__init__(app, **options)

    def get_loop_factory(self) -> Callable[[], asyncio.AbstractEventLoop] | None:
        """Always asyncio's selector loop with the accept() fix (uvloop is not used)."""
        return ServingEventLoop


def _serving(config: uvicorn.Config) -> ServingConfig:
    if not isinstance(config, ServingConfig):
        raise TypeError("the guarded protocols need a ServingConfig (see build_server)")
    return config


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, counted per address, with deadlines for each request.

    ``http="auto"`` would pick h11 here too (httptools is not installed); it is named
    explicitly so that installing httptools cannot silently drop these guards.
    """

    def __init__(
        self,
        config: uvicorn.Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        serving = _serving(config)
        self.guard = serving.guard
        self.request_timeout = serving.request_timeout
        self.deadline: asyncio.TimerHandle | None = None
        self.phase: Literal["headers", "body"] | None = None
        self.counted = False
        self.upgraded = False

    def connection_made(  # type: ignore[override]
        self, transport: asyncio.Transport
    ) -> None:
        refusal = self.guard.admit(transport)
        if refusal is not None:
            linger = 0.0 if refusal is SERVER_BUSY else LINGER_SECONDS
            refused = Refused(refusal, self.guard, self.server_state, self.loop, linger)
            transport.set_protocol(refused)
            refused.connection_made(transport)
            return
        self.counted = True
        super().connection_made(transport)
        self._arm("headers")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        try:
            super().connection_lost(exc)
        finally:
            if self.counted:
                self.guard.release(self.transport)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._follow_request()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._follow_request()  # a pipelined request may have begun

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        # The handshake's headers are in; the WebSocket protocol takes the transport
        # (still counted) and the app bounds the time to the hello.
        self.upgraded = True
        self._disarm()
        super().handle_websocket_upgrade(event)

    def _follow_request(self) -> None:
        """Keep the deadline that fits where the client is in its request."""
        if self.upgraded:
            return  # the transport is the WebSocket protocol's now
        state = self.conn.their_state
        if state is h11.IDLE:
            # Between requests uvicorn's keep-alive timer runs; once the first bytes of
            # a request are in (and not yet its headers), the headers' deadline does.
            if self.phase is None and self.conn.trailing_data[0]:
                self._arm("headers")
        elif state is h11.SEND_BODY:
            if self.phase != "body":
                self._arm("body")
        else:
            self._disarm()  # the whole request is in (or the connection is done)

    def _arm(self, phase: Literal["headers", "body"]) -> None:
        self._disarm()
        self.phase = phase
        self.deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
        self.deadline = None
        self.phase = None

    def _too_slow(self) -> None:
        """The request did not arrive in time: a 408 if nothing was answered yet, closed."""
        phase = self.phase
        self.deadline = None
        self.phase = None
        if self.transport.is_closing():
            return
        if phase == "headers":
            # Part of a request: answer it. Nothing at all (an idle preconnect): just close.
            if self.conn.trailing_data[0]:
                self.transport.write(REQUEST_TIMEOUT)
        elif self.cycle is not None:
            if not self.cycle.response_started:
                self.transport.write(REQUEST_TIMEOUT)
            # The app reading the body gets a disconnect; what it sends now is dropped.
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self.transport.close()


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol, releasing the transport it took over.

    It only ever gets a transport by an upgrade from ``GuardedH11Protocol``, which
    counted it; asyncio then tells this protocol, not that one, when it is lost.
    """

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            super().connection_lost(exc)
        finally:
            _serving(self.config).guard.release(self.transport)


# The event loop: backing off when accept() runs out of file descriptors.


_OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
ACCEPT_FAILED = "socket.accept() out of system resource"  # asyncio's message for it


class _OutOfResources(Exception):
    """Not an OSError, so that it leaves asyncio's accept loop instead of being logged."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error)
        self.error = error


class _Listener:
    """The listening socket as asyncio's accept loop sees it: EMFILE & co. end the loop."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock

    def accept(self) -> tuple[socket.socket, Any]:
        try:
            return self._sock.accept()
        except OSError as error:
            if error.errno in _OUT_OF_RESOURCES:
                raise _OutOfResources(error) from None
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


class ServingEventLoop(asyncio.SelectorEventLoop):
    """asyncio's selector loop, pausing a listener calmly when descriptors run out.

    When ``accept()`` fails for lack of descriptors the listener stops being polled
    for ``ACCEPT_RETRY_SECONDS`` and then tries again, so it recovers by itself once
    connections close; one log line a minute at most says so. (asyncio's code does the
    pause too, but keeps looping after it: see the module's docstring.)
    """

    def __init__(self) -> None:
        super().__init__()
        self._descriptors = LogEvery()

    def _accept_connection(
        self,
        protocol_factory: Callable[[], asyncio.BaseProtocol],
        sock: socket.socket,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        # args, kwargs: as asyncio's _start_serving passes them on (sslcontext, server,
        # backlog, the handshake timeouts…); they differ between Python versions.
        try:
            super()._accept_connection(  # type: ignore[misc]
                protocol_factory, _Listener(sock), *args, **kwargs
            )
        except _OutOfResources as out:
            self._remove_reader(sock.fileno())  # type: ignore[attr-defined]
            self.call_later(
                ACCEPT_RETRY_SECONDS, self._resume_accepting, protocol_factory, sock, args, kwargs
            )
            self._out_of_descriptors(out.error)

    def _resume_accepting(
        self,
        protocol_factory: Callable[[], asyncio.BaseProtocol],
        sock: socket.socket,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> None:
        server = args[1] if len(args) > 1 else kwargs.get("server")
        if sock.fileno() < 0 or (server is not None and not server.is_serving()):
            return  # the server closed meanwhile
        self._start_serving(protocol_factory, sock, *args, **kwargs)  # type: ignore[attr-defined]

    def _out_of_descriptors(self, error: BaseException | None) -> None:
        if (held := self._descriptors.allow()) is not None:
            reason = error.strerror if isinstance(error, OSError) else "out of resources"
            log.warning(
                "accept() failed (%s): not accepting connections for %.1f s at a time"
                " until descriptors are free%s",
                reason,
                ACCEPT_RETRY_SECONDS,
                _since(held),
            )

    def default_exception_handler(self, context: dict[str, Any]) -> None:
        # Should asyncio report the accept failure itself after all, one line a minute.
        if context.get("message") == ACCEPT_FAILED:
            self._out_of_descriptors(context.get("exception"))
            return
        super().default_exception_handler(context)


# The app: a client that went away ends its request quietly.


class ClientGone:
    """Ends a request quietly when its client is gone instead of logging a traceback.

    Starlette raises ``ClientDisconnect`` when the client disconnects (or its stalled
    body is cut off) while the app reads the body, and a WebSocket handler may meet
    ``WebSocketDisconnect`` where it did not expect one; there is nobody left to
    answer, and the client's leaving is not the server's error.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except (ClientDisconnect, WebSocketDisconnect) as gone:
            log.debug("client gone during %s %s: %r", scope["type"], scope.get("path"), gone)


# Logging: no per-connection lines, no client addresses.


PER_CONNECTION = frozenset(
    {
        # uvicorn's WebSocket "access log", with the client's address and port.
        '%s - "WebSocket %s" [accepted]',
        '%s - "WebSocket %s" 403',
        '%s - "WebSocket %s" %d',
        # websockets (it logs to uvicorn.error for uvicorn).
        "connection open",
        "connection closed",
        "connection rejected (%d %s)",
        "HTTP response sent (%d %s)",
    }
)
CLIENT_FAULTS = frozenset(
    {
        # uvicorn's warnings about what a client sent: one a minute, no traceback.
        "Invalid HTTP request received.",
        "Unsupported upgrade request.",
        "Invalid UTF-8 sequence received from client.",
        "Exceeded concurrency limit.",
    }
)
LIBRARIES = ("uvicorn", "websockets", "asyncio", "starlette", "py.warnings", "root")
OWN_ADDRESS = "Uvicorn running on"  # the startup line: where the server listens


def _library(name: str) -> bool:
    return any(name == library or name.startswith(library + ".") for library in LIBRARIES)


class QuietConnections(logging.Filter):
    """Drops uvicorn's and websockets' per-connection lines; client faults once a minute."""

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self.notices: dict[str, LogEvery] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if not _library(record.name) or not isinstance(record.msg, str):
            return True
        if record.msg in PER_CONNECTION and record.levelno <= logging.INFO:
            return False
        if record.msg in CLIENT_FAULTS:
            held = self.notices.setdefault(record.msg, LogEvery()).allow()
            if held is None:
                return False
            record.exc_info = None
            record.exc_text = None
            if held:
                record.msg = f"{record.msg}{_since(held)}"
        return True


_CANDIDATE = re.compile(r"[0-9A-Fa-f:.\[\]%]*[:.][0-9A-Fa-f:.\[\]%]*")
_PORT = re.compile(r":\d{1,5}")


def _ip(text: str) -> bool:
    try:
        ip_address(text)
    except ValueError:
        return False
    return True


def _is_address(token: str) -> bool:
    """``1.2.3.4``, ``1.2.3.4:80``, ``::1``, ``[::1]:80``, ``::1:80`` (as uvicorn writes it)."""
    if token.startswith("["):
        end = token.find("]")
        rest = token[end + 1 :]
        return end > 0 and _ip(token[1:end]) and (not rest or bool(_PORT.fullmatch(rest)))
    if _ip(token):
        return True
    host, colon, port = token.rpartition(":")
    return bool(colon) and port.isdigit() and _ip(host)


def redact_addresses(text: str) -> str:
    """Every IP address (with its port) in ``text`` replaced by ``<address>``."""

    def replace(match: re.Match[str]) -> str:
        token = match.group()
        core = token.rstrip(".:")
        return "<address>" + token[len(core) :] if _is_address(core) else token

    return _CANDIDATE.sub(replace, text)


class RedactAddresses(logging.Filter):
    """The safety net: no IP address in a library's log record, traceback included.

    The record's message is rendered, redacted and kept as its message (no arguments);
    its traceback is rendered and redacted into ``exc_text``, which formatters use.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if not _library(record.name):
            return True
        if isinstance(record.msg, str) and record.msg.startswith(OWN_ADDRESS):
            return True
        try:
            message = record.getMessage()
        except Exception:  # arguments that do not fit: the formatter will report it
            return True
        redacted = redact_addresses(message)
        if redacted != message:
            record.msg = redacted
            record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact_addresses(record.exc_text)
        if record.stack_info:
            record.stack_info = redact_addresses(record.stack_info)
        return True


def logging_config(*, whole_process: bool) -> dict[str, Any]:
    """The ``logging.config`` dictionary uvicorn applies: one stderr handler, filtered.

    ``whole_process``: the handler is the root's, so the app's and the libraries' records
    all go through it (``python -m tysiac.server``). Otherwise only uvicorn's loggers
    get it and the root is left alone (a server inside the test process).
    """
    handler = {
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stderr",
        "formatter": "plain",
        "filters": ["quiet", "redact"],
    }
    config: dict[str, Any] = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
        "filters": {
            "quiet": {"()": QuietConnections},
            "redact": {"()": RedactAddresses},
        },
        "handlers": {"console": handler},
    }
    if whole_process:
        config["root"] = {"level": "INFO", "handlers": ["console"]}
        config["loggers"] = {"uvicorn": {"handlers": [], "propagate": True}}
    else:
        config["loggers"] = {"uvicorn": {"handlers": ["console"], "propagate": False}}
    return config


# Putting it together.


def build_server(
    app: ASGIApp,
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    log_level: str = "info",
    whole_process: bool = True,
) -> uvicorn.Server:
    """The uvicorn server for ``app``: ``server.run()``, or ``server.run(sockets=[…])``."""
    guard = ConnectionGuard(settings.max_connections_per_ip, settings.forwarded_allow_ips)
    config = ServingConfig(
        ClientGone(app),
        guard=guard,
        request_timeout=settings.request_timeout_seconds,
        host=host,
        port=port,
        http=GuardedH11Protocol,
        ws=GuardedWebSocketProtocol,
        ws_max_size=WS_MAX_SIZE,
        proxy_headers=settings.forwarded_allow_ips is not None,
        forwarded_allow_ips=settings.forwarded_allow_ips,
        server_header=False,
        access_log=False,  # no client addresses in the log: they are kept only as keyed hashes
        log_config=logging_config(whole_process=whole_process),
        log_level=log_level,
    )
    if whole_process:
        logging.captureWarnings(True)  # warnings go through the filtered handler too
    if guard.trusted is not None and guard.trusted.always_trust:
        log.warning("forwarded_allow_ips is '*': connections are not limited per address")
    return uvicorn.Server(config)


def serve(app: ASGIApp, settings: Settings, *, host: str, port: int) -> None:
    """Serve until stopped (SIGINT, SIGTERM); exit with status 3 if it could not start."""
    server = build_server(app, settings, host=host, port=port)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        sys.exit(STARTUP_FAILURE)
