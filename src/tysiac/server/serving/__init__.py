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

import contextlib
import gc
import logging
import sys

import uvicorn
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect
from uvicorn.config import STARTUP_FAILURE

from ..config import Settings
from ..protocol import MAX_BODY
from .guard import ConnectionGuard
from .logs import logging_config
from .protocols import GuardedH11Protocol, GuardedWebSocketProtocol, ServingConfig

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


# The cyclic garbage collector's youngest generation is collected after this many more
# container objects were allocated than freed (Python's default: 700). Every object alive
# at such a collection is promoted, and when the promoted ones reach a quarter of all
# old objects a full collection runs, scanning every object of the process: about 0.45 s
# with 1,000 games open, a pause no move gets through. Most of this server's objects die
# by reference counting within seconds (a game's table lives until its next move), so
# collecting the young less often promotes far fewer of them, and full collections,
# frequent at the default, become rare. The young collection scans at most this many
# objects: a few milliseconds.
GC_YOUNG = 10_000
GC_MIDDLE = 5  # young collections between two of the middle generation: it holds fewer
GC_OLD = 100  # middle collections before a full one is even considered (Python's: 10)


def tune_garbage_collection() -> None:
    """Fewer, longer-spaced collections, and the objects of start-up never scanned again."""
    gc.collect()
    gc.freeze()  # modules, settings, the app: alive as long as the process
    gc.set_threshold(GC_YOUNG, GC_MIDDLE, GC_OLD)


def serve(app: ASGIApp, settings: Settings, *, host: str, port: int) -> None:
    """Serve until stopped (SIGINT, SIGTERM); exit with status 3 if it could not start."""
    server = build_server(app, settings, host=host, port=port)
    tune_garbage_collection()
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        sys.exit(STARTUP_FAILURE)
