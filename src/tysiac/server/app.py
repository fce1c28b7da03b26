"""The ASGI app: routes, security headers and the lifespan (store, bus, service, sweeper)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.routing import Mount, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tysiac.bus.base import Bus
from tysiac.bus.local import LocalBus
from tysiac.bus.redis import RedisBus
from tysiac.server.clock import utc_now
from tysiac.server.config import Settings
from tysiac.server.contact.operator_key import with_operator_key
from tysiac.server.contact.routes import routes as contact_routes
from tysiac.server.errors import ServiceError
from tysiac.server.game.dealing import REAL, Dealing
from tysiac.server.game.service import GameService
from tysiac.server.game.sweeper import Sweeper
from tysiac.server.hashing import hashing_key, make_private_file, sqlite_file
from tysiac.server.http.api import http_error, routes, service_error
from tysiac.server.http.inbound import UnreadBodyCloses
from tysiac.server.http.ws import game_socket
from tysiac.server.moderation.authors import (
    DEVICE_COOKIE,
    DEVICE_COOKIE_SECONDS,
    ISSUED_DEVICE,
    new_device_id,
    valid_device_id,
)
from tysiac.server.review.reviews import Reviews
from tysiac.server.review.routes import routes as review_routes
from tysiac.store import backend
from tysiac.store.stores import open_store
from tysiac.web import STATIC

log = logging.getLogger(__name__)

SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
        b"form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    # Nothing on the site uses the camera, microphone, location, payments and the like.
    (
        b"permissions-policy",
        b"accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), "
        b"microphone=(), payment=(), usb=(), interest-cohort=(), browsing-topics=()",
    ),
]
HSTS = (b"strict-transport-security", b"max-age=31536000; includeSubDomains")


class SecurityHeaders:
    """The headers of every response; HSTS too when the site is served over HTTPS."""

    def __init__(self, app: ASGIApp, public_https: bool) -> None:
        self.app = app
        self.public_https = public_https

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = SECURITY_HEADERS
        if self.public_https or scope.get("scheme") == "https":
            headers = [*headers, HSTS]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], *headers]
            await send(message)

        await self.app(scope, receive, send_with_headers)


class DeviceCookie:
    """The one cookie: a signed random device id (``ivoca_did``) for moderation.

    Set when missing, and in place of one this server did not issue.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        key = scope["app"].state.service.hash_key
        if valid_device_id(key, Request(scope).cookies.get(DEVICE_COOKIE)):
            await self.app(scope, receive, send)
            return
        device_id = new_device_id(key)
        scope.setdefault("state", {})[ISSUED_DEVICE] = device_id
        secure = "; Secure" if scope.get("scheme") == "https" else ""
        cookie = (
            f"{DEVICE_COOKIE}={device_id}; Max-Age={DEVICE_COOKIE_SECONDS}; Path=/; "
            f"HttpOnly; SameSite=Lax{secure}"
        )

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"set-cookie", cookie.encode())]
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def create_app(
    settings: Settings | None = None,
    *,
    dealing: Dealing | None = None,
    clock: Callable[[], datetime] = utc_now,
) -> Starlette:
    """The app for ``settings`` (by default the operator's, with the key file checked).

    ``dealing`` (where decks and start scores come from) and ``clock`` (the time) are
    the real ones unless a test hands the app its own.
    """
    settings = settings or with_operator_key(Settings.from_env())

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        database = sqlite_file(settings.database_url)
        if database is not None:
            make_private_file(database)
        engine = backend.create_engine(settings.database_url)
        await backend.migrate(engine)
        key = await hashing_key(settings, engine)
        # Redis when several processes serve the games, else in memory.
        bus: Bus = RedisBus(settings.redis_url) if settings.redis_url else LocalBus()
        await bus.start()
        service = GameService(
            open_store(engine),
            bus,
            settings,
            key,
            random.SystemRandom(),
            dealing=dealing or REAL,
            clock=clock,
        )
        bus.on_change = service.heard  # other processes' changes, into this one's cache
        app.state.service = service
        app.state.reviews = Reviews(service)
        app.state.sweeper = Sweeper(service)
        sweeper = asyncio.create_task(app.state.sweeper.run())
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            app.state.reviews.close()
            await service.close()
            await bus.stop()
            await engine.dispose()

    app = Starlette(
        routes=[
            *routes,
            *review_routes,
            *contact_routes,
            WebSocketRoute("/ws/{code}", game_socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        exception_handlers={ServiceError: service_error, HTTPException: http_error},
        lifespan=lifespan,
    )
    app.add_middleware(GZipMiddleware, minimum_size=500)
    public_https = (settings.public_url or "").startswith("https://")
    app.add_middleware(SecurityHeaders, public_https=public_https)
    app.add_middleware(DeviceCookie)
    app.add_middleware(UnreadBodyCloses)
    return app
