"""uvicorn's protocols, counting their transports and keeping the request deadlines.

A connection must deliver a request's complete headers within
``request_timeout_seconds`` of its first byte (of the connection, for the first
request), and then its complete body within the same time again; otherwise it gets a
408 and is closed. Between requests, uvicorn's ``timeout_keep_alive`` applies. uvicorn
itself has no such deadline: half-sent requests stayed open for ever.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Literal

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

from tysiac.server.serving.guard import (
    LINGER_SECONDS,
    REQUEST_TIMEOUT,
    SERVER_BUSY,
    ConnectionGuard,
    Refused,
)
from tysiac.server.serving.loop import ServingEventLoop


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


# permessage-deflate, as uvicorn sets it up but with less memory per socket. A socket
# keeps one compressor and one decompressor for its whole life (context takeover: each
# state is compressed against the previous ones, most of it repeats), and they are the
# largest part of the server's memory. memLevel 1 and a 2^9-byte window for what the
# clients send (a move is a few dozen bytes) keep the bytes on the wire and the CPU as
# they were with uvicorn's settings, for less memory; the server's own window stays
# 2^12, since a smaller one multiplies the bytes. The alternatives measured are in
# docs/performance.md.
DEFLATE_SERVER_WINDOW_BITS = 12
DEFLATE_CLIENT_WINDOW_BITS = 9
DEFLATE_MEM_LEVEL = 1


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol, releasing the transport it took over, and
    with permessage-deflate set to use less memory (see above).

    It only ever gets a transport by an upgrade from ``GuardedH11Protocol``, which
    counted it; asyncio then tells this protocol, not that one, when it is lost.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            # uvicorn fixes its extension's settings: the protocol it made is replaced
            # before it has seen a byte (the handshake comes in data_received).
            self.conn = ServerProtocol(
                extensions=[
                    ServerPerMessageDeflateFactory(
                        server_max_window_bits=DEFLATE_SERVER_WINDOW_BITS,
                        client_max_window_bits=DEFLATE_CLIENT_WINDOW_BITS,
                        compress_settings={"memLevel": DEFLATE_MEM_LEVEL},
                    )
                ],
                max_size=self.config.ws_max_size,
                logger=self.conn.logger,
            )

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            super().connection_lost(exc)
        finally:
            _serving(self.config).guard.release(self.transport)
