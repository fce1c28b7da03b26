"""HTTP endpoints: create, join, list and look up games; health; the pages."""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from tysiac.web import STATIC

from .moderation import DEVICE_COOKIE, Author
from .protocol import MAX_BODY, CreateGame, JoinGame, error_body, parse_body
from .requests import json_body
from .security import normalise_code
from .service import UNKNOWN_GAME, GameService, Seated, ServiceError

# Pages by path; files served at the root because browsers look for them there.
PAGES = {
    "/": "index.html",
    "/zasady": "rules.html",
    "/regulamin": "terms.html",
    "/kontakt": "contact.html",
    "/offline.html": "offline.html",
    "/sw.js": "sw.js",
    "/manifest.webmanifest": "manifest.webmanifest",
}


def service_of(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def _code(request: Request) -> str:
    code = normalise_code(str(request.path_params["code"]))
    if code is None:
        raise ServiceError(*UNKNOWN_GAME)
    return code


def _seated(request: Request, seated: Seated, status: int) -> JSONResponse:
    base = service_of(request).settings.public_url or str(request.base_url).rstrip("/")
    return JSONResponse(
        {
            "code": seated.code,
            "link": f"{base}/g/{seated.code}",
            "seat": seated.seat,
            "token": seated.token,
        },
        status_code=status,
        headers={"Cache-Control": "no-store"},
    )


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def author_of(request: Request) -> Author:
    """Who is asking, for moderation: the device cookie and the address.

    Only a cookie the client brought counts: one that this response is only now setting
    is not a device yet (else every cookie-less request would be a new device).
    """
    return service_of(request).author(request.cookies.get(DEVICE_COOKIE), client_address(request))


async def _body(request: Request) -> bytes:
    return await json_body(request, service_of(request).settings, MAX_BODY)


async def create_game(request: Request) -> Response:
    body = parse_body(CreateGame, await _body(request))
    seated = await service_of(request).create(
        nick=body.nick,
        players=body.players,
        name=body.name,
        public=body.public,
        chat=body.chat if body.chat is not None else not body.public,
        short=body.short,
        move_seconds=body.move_seconds,
        author=author_of(request),
    )
    return _seated(request, seated, 201)


async def join_game(request: Request) -> Response:
    body = parse_body(JoinGame, await _body(request))
    seated = await service_of(request).join(_code(request), body.nick, author_of(request))
    return _seated(request, seated, 200)


async def list_games(request: Request) -> Response:
    return JSONResponse(await service_of(request).public_games())


async def games(request: Request) -> Response:
    """GET lists public games, POST creates one (one route, so 405 names both)."""
    if request.method == "POST":
        return await create_game(request)
    return await list_games(request)


async def game_summary(request: Request) -> Response:
    table = await service_of(request).table(_code(request))
    summary: dict[str, Any] = {
        "code": table.code,
        "name": table.settings.name,
        "status": table.status,
        "players": table.settings.players,
        "nicks": list(table.nicks),
        "public": table.settings.public,
        "chat": table.settings.chat,
        "short": table.settings.target == 500,
        "move_seconds": table.settings.move_seconds,
        "rematch": table.rematch,
    }
    return JSONResponse(summary)


async def health(request: Request) -> Response:
    return JSONResponse({"ok": True})


def _file(name: str) -> Response:
    path = STATIC / name
    if not path.is_file():
        raise HTTPException(404)
    headers = {"Cache-Control": "no-cache"}
    if name == "sw.js":
        headers["Service-Worker-Allowed"] = "/"
    media = "application/manifest+json" if name.endswith(".webmanifest") else None
    return FileResponse(path, headers=headers, media_type=media)


async def page(request: Request) -> Response:
    return _file(PAGES[request.url.path])


async def game_page(request: Request) -> Response:
    return _file("game.html")


async def site(request: Request) -> Response:
    """Who runs this copy of the game: for the terms and privacy pages."""
    settings = service_of(request).settings
    return JSONResponse(
        {
            "operator": {
                "name": settings.operator_name,
                "address": settings.operator_address,
                "email": settings.operator_email,
            }
        }
    )


async def service_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ServiceError)
    return JSONResponse(error_body(error), status_code=error.status)


async def http_error(request: Request, error: Exception) -> Response:
    """Unknown paths and wrong methods get the same error shape as everything else."""
    assert isinstance(error, HTTPException)
    if error.status_code == 404:
        refusal = ServiceError("not_found", "Nie ma takiej strony.", 404)
    elif error.status_code == 405:
        refusal = ServiceError("method_not_allowed", "Ta metoda nie jest tu obsługiwana.", 405)
    else:
        refusal = ServiceError("http_error", "Nieprawidłowe żądanie.", error.status_code)
    return JSONResponse(error_body(refusal), status_code=refusal.status, headers=error.headers)


routes = [
    *(Route(path, page) for path in PAGES),
    Route("/g/{code}", game_page),
    Route("/api/site", site),
    Route("/health", health),
    Route("/api/games", games, methods=["GET", "POST"]),
    Route("/api/games/{code}", game_summary, methods=["GET"]),
    Route("/api/games/{code}/join", join_game, methods=["POST"]),
]
