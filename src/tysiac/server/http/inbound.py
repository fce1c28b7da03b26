"""What every request must be before the server spends anything on it.

One place for the checks that all state-changing requests share:

- **Origin.** A browser sends ``Origin`` with every POST and WebSocket handshake. Only
  the site's own origin may drive the API: the public URL's (``TYSIAC_PUBLIC_URL``)
  when it is set, else the address the request came by, plus any
  ``TYSIAC_ALLOWED_ORIGINS``. With the public URL set the ``Host`` header is not
  trusted at all (DNS rebinding: a page at ``evil.example`` that resolves to this
  server sends ``Host: evil.example``). A request without ``Origin`` is not from a
  page (bots, tools, tests) and is allowed.
- **JSON only.** A POST must say ``Content-Type: application/json``: a form or
  ``text/plain`` POST is what another site's page can send without asking, so it
  would spend this site's per-address quotas on its visitors' behalf.
- **Bounded bodies.** A body is read chunk by chunk and refused with 413 the moment
  it passes its limit, so a huge (or endless, chunked) upload costs no memory. And any
  answer given before its request's body was read to the end (a 413, a 415, a 404 to a
  POST…) either reads a small rest first or closes the connection
  (``UnreadBodyCloses``): else the server would go on reading the rest of a huge body,
  and dropping it, to reach the next request.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import HTTPConnection, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tysiac.server.config import Settings
from tysiac.server.errors import ServiceError

DRAIN_LIMIT = 128 * 1024  # bytes of an unread body read to its end rather than cut off


def origin_of(url: str) -> str:
    """``https://Example.org:443/path`` -> ``https://example.org:443``: scheme and host."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def site_origins(settings: Settings, host: str) -> set[str]:
    """The origins whose pages may use this server, for a request that named ``host``."""
    if settings.public_url is not None:
        allowed = {origin_of(settings.public_url)}
    else:
        allowed = {f"http://{host}".lower(), f"https://{host}".lower()}
    return allowed | {origin_of(origin) for origin in settings.allowed_origins}


def origin_allowed(headers: Mapping[str, str], settings: Settings) -> bool:
    """True for requests from the site's own pages, or from no page at all."""
    origin = headers.get("origin")
    if origin is None:
        return True  # not a browser: bots and tools
    return origin.lower() in site_origins(settings, headers.get("host", ""))


def check_origin(connection: HTTPConnection, settings: Settings) -> None:
    if not origin_allowed(connection.headers, settings):
        raise ServiceError("error.foreign_origin", 403)


async def json_body(
    request: Request, settings: Settings, limit: int, too_large: ServiceError | None = None
) -> bytes:
    """The body of a JSON POST from this site, read up to ``limit`` bytes.

    Past the limit ``too_large`` is raised (by default a plain 413).
    """
    too_large = too_large or ServiceError("error.too_large", 413)
    check_origin(request, settings)
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise ServiceError("error.unsupported_media_type", 415)
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


class UnreadBodyCloses:
    """A response sent before its request's body was read: drain a small body, or close.

    A body of known length up to ``DRAIN_LIMIT`` is read to its end (and dropped) before
    the response goes out, so the connection stays usable and the client reads the
    answer: closing a socket with unread input resets it (TCP RST), and the client may
    lose the answer. A larger or chunked body is not read: the response says
    ``Connection: close`` and the server stops reading there.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        length = headers.get("content-length", "0")
        chunked = "transfer-encoding" in headers or not length.isdigit()
        pending = chunked or int(length) > 0
        drain = not chunked and int(length) <= DRAIN_LIMIT

        async def receive_body() -> Message:
            nonlocal pending
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                pending = False
            return message

        async def send_closing(message: Message) -> None:
            if message["type"] == "http.response.start" and pending:
                if drain:
                    while pending:
                        await receive_body()
                else:
                    message["headers"] = [*message.get("headers", []), (b"connection", b"close")]
            await send(message)

        await self.app(scope, receive_body, send_closing)
