"""How the game is served: uvicorn, hardened so that one client cannot take it down.

``build_server`` makes the ``uvicorn.Server`` that both ``python -m tysiac.server`` and
the tests' ``LiveServer`` run, so the tests exercise exactly what production runs:

- ``protocols``: uvicorn's h11 and websockets-sansio protocols, with a deadline for each
  request's headers and body (408), counting their transports in
- ``guard``: open connections per client address and in all (429 over the cap per
  address, 503 when file descriptors would run out), trusted proxies not counted;
- ``loop``: an event loop that pauses calmly when ``accept()`` runs out of descriptors
  instead of retrying and logging thousands of times a second;
- ``logs``: no per-connection lines, no client address in anything a library logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys

import uvicorn
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect
from uvicorn.config import STARTUP_FAILURE

from tysiac.server.config import Settings
from tysiac.server.http.messages import MAX_BODY
from tysiac.server.serving.guard import ConnectionGuard
from tysiac.server.serving.logs import logging_config
from tysiac.server.serving.protocols import (
    GuardedH11Protocol,
    GuardedWebSocketProtocol,
    ServingConfig,
)

log = logging.getLogger(__name__)

WS_MAX_SIZE = MAX_BODY * 4  # bytes of a WebSocket frame; larger ones are closed with 1009


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


# The cyclic garbage collector runs on a clock here, not on Python's allocation counts:
# a move's objects die young by reference counting, so under load the counts let the
# young generation grow large between collections, and each collection of it paused
# every game of the process. Collected every tenth of a second, it holds only what the
# last tenth allocated and is still alive; the middle generation is collected every
# GC_MIDDLE_EVERY-th time, and the whole heap (every socket's objects) only every
# GC_FULL_SECONDS. The thresholds only catch a burst the clock is too slow for. The
# pauses measured each way are in docs/performance.md.
GC_YOUNG_SECONDS = 0.1
GC_MIDDLE_EVERY = 5  # young collections; the fifth collects the middle generation too
GC_FULL_SECONDS = 600.0
GC_YOUNG = 50_000
GC_MIDDLE = 10
GC_OLD = 10_000  # middle collections: the clock's full collection comes long before


def tune_garbage_collection() -> None:
    """The objects of start-up never scanned again, and collections left to the clock
    (``collect_garbage``) but for bursts."""
    gc.collect()
    gc.freeze()  # modules, settings, the app: alive as long as the process
    gc.set_threshold(GC_YOUNG, GC_MIDDLE, GC_OLD)


async def collect_garbage(
    young_seconds: float = GC_YOUNG_SECONDS, full_seconds: float = GC_FULL_SECONDS
) -> None:
    """Collect the young generation every ``young_seconds``, the middle one every
    ``GC_MIDDLE_EVERY``-th time, and everything every ``full_seconds``; until cancelled."""
    loop = asyncio.get_running_loop()
    full_at = loop.time() + full_seconds
    young = 0
    while True:
        await asyncio.sleep(young_seconds)
        young += 1
        if loop.time() >= full_at:
            gc.collect(2)
            full_at = loop.time() + full_seconds
        else:
            gc.collect(1 if young % GC_MIDDLE_EVERY == 0 else 0)


async def serve_collecting(server: uvicorn.Server) -> None:
    """Run the server with ``collect_garbage`` beside it."""
    collector = asyncio.create_task(collect_garbage())
    try:
        await server.serve()
    finally:
        collector.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await collector


def serve(app: ASGIApp, settings: Settings, *, host: str, port: int) -> None:
    """Serve until stopped (SIGINT, SIGTERM); exit with status 3 if it could not start."""
    server = build_server(app, settings, host=host, port=port)
    tune_garbage_collection()
    with (
        contextlib.suppress(KeyboardInterrupt),
        asyncio.Runner(loop_factory=server.config.get_loop_factory()) as runner,
    ):
        runner.run(serve_collecting(server))
    if not server.started:
        sys.exit(STARTUP_FAILURE)
