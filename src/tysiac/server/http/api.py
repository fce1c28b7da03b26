"""HTTP endpoints: create, join, list and look up games; health; what every page learns
once (/api/site). The pages themselves are pages.py's."""

from __future__ import annotations

import json
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tysiac import bots as computer
from tysiac import catalogue, rules
from tysiac.rules import timing
from tysiac.rules.hand import Phase
from tysiac.rules.options import PRESETS, option_table
from tysiac.server.config import Settings
from tysiac.server.errors import ServiceError, unknown_game
from tysiac.server.game import lobby
from tysiac.server.game.lobby import Seated
from tysiac.server.game.service import GameService
from tysiac.server.game.table import KEPT
from tysiac.server.http import pages
from tysiac.server.http.inbound import json_body
from tysiac.server.http.language import language, vary
from tysiac.server.http.messages import MAX_BODY, CreateGame, JoinGame, error_body, parse_body
from tysiac.server.http.pages import Tagged, revalidated, tagged
from tysiac.server.moderation import texts
from tysiac.server.moderation.authors import DEVICE_COOKIE, ISSUED_DEVICE, Author
from tysiac.server.security import normalise_code


def service_of(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def game_code(request: Request) -> str:
    """The game code of the path, normalised; an impossible one is an unknown game (404)."""
    code = normalise_code(str(request.path_params["code"]))
    if code is None:
        raise unknown_game()
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
    """Who is asking: the device cookie and the address.

    For moderation only a cookie the client brought counts: one that this response is
    only now setting is not a device yet (else every cookie-less request would be a new
    device). It does mark the browser that takes a seat (``DeviceCookie``).
    """
    issued = getattr(request.state, ISSUED_DEVICE, None)
    return service_of(request).author(
        request.cookies.get(DEVICE_COOKIE), client_address(request), issued
    )


async def _body(request: Request) -> bytes:
    return await json_body(request, service_of(request).settings, MAX_BODY)


async def create_game(request: Request) -> Response:
    body = parse_body(CreateGame, await _body(request))
    seated = await lobby.create(
        service_of(request),
        nick=body.nick,
        players=body.players,
        name=body.name,
        public=body.public,
        chat=body.chat if body.chat is not None else not body.public,
        short=body.short,
        move_seconds=body.move_seconds,
        options=body.options,
        bots=body.bots,
        author=author_of(request),
    )
    return _seated(request, seated, 201)


async def join_game(request: Request) -> Response:
    body = parse_body(JoinGame, await _body(request))
    seated = await lobby.join(
        service_of(request), game_code(request), body.nick, author_of(request)
    )
    return _seated(request, seated, 200)


async def list_games(request: Request) -> Response:
    return JSONResponse(await lobby.public_games(service_of(request)))


async def games(request: Request) -> Response:
    """GET lists public games, POST creates one (one route, so 405 names both)."""
    if request.method == "POST":
        return await create_game(request)
    return await list_games(request)


async def game_summary(request: Request) -> Response:
    table = await service_of(request).table(game_code(request))
    summary: dict[str, Any] = {
        "code": table.code,
        "name": table.settings.name,
        "status": table.status,
        "players": table.settings.players,
        "nicks": list(table.nicks),
        "bots": [table.bot(s) for s in range(table.settings.players)],
        "public": table.settings.public,
        "chat": table.settings.chat,
        "short": table.settings.target == rules.game.SHORT_TARGET,
        "move_seconds": table.settings.move_seconds,
        "options": rules.options_to_json(table.settings.options),
        "rematch": table.rematch,
    }
    return JSONResponse(summary)


async def health(request: Request) -> Response:
    """Up, and how many sweeps this process has completed (a stuck sweeper shows)."""
    return JSONResponse({"ok": True, "sweeps": request.app.state.sweeper.passes})


def site_facts(settings: Settings, lang: str = catalogue.DEFAULT) -> dict[str, Any]:
    """What every page learns once: who runs this copy (the terms and privacy pages),
    what the home page's form offers (the move times, R27, the short game, R32, the table
    options with their presets, the computer levels), the limits the pages share with the
    server, and the catalogue of the page's language (``words``), by which it names them
    all."""
    return {
        "operator": {
            "name": settings.operator_name,
            "address": settings.operator_address,
            "email": settings.operator_email,
        },
        "move_seconds": {
            "public": [timing.MOVE_SECONDS],
            "private": list(timing.PRIVATE_MOVE_SECONDS),
        },
        "short_game": {
            "target": rules.game.SHORT_TARGET,
            "barrel": rules.game.barrel_for(rules.game.SHORT_TARGET),
        },
        "options": option_table(),
        "presets": [{"key": key, "options": chosen} for key, chosen in PRESETS.items()],
        "levels": list(computer.LEVELS),
        "phases": [phase.value for phase in Phase],
        "limits": {
            "kept": KEPT,
            "nick": texts.NICK_MAX,
            "name": texts.NAME_MAX,
            "chat": texts.CHAT_MAX,
        },
        "lang": lang,
        "languages": list(catalogue.AVAILABLE),
        "words": dict(catalogue.words(lang)),
    }


_site: dict[tuple[int, str], Tagged] = {}


async def site(request: Request) -> Response:
    """``site_facts`` as JSON in the request's language (``?lang=``, else
    ``Accept-Language``: then the answer varies by it), the same bytes per language while
    the process runs, revalidated by its ETag."""
    settings = service_of(request).settings
    lang = language(request)
    if (id(settings), lang) not in _site:
        body = json.dumps(site_facts(settings, lang), ensure_ascii=False, separators=(",", ":"))
        if any(held != id(settings) for held, _ in _site):
            _site.clear()
        _site[id(settings), lang] = tagged(body)
    return revalidated(request, _site[id(settings), lang], "application/json", vary(request))


async def service_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ServiceError)
    return JSONResponse(error_body(error, language(request)), status_code=error.status)


async def http_error(request: Request, error: Exception) -> Response:
    """Unknown paths and wrong methods get the same error shape as everything else."""
    assert isinstance(error, HTTPException)
    if error.status_code == 404:
        refusal = ServiceError("error.not_found", 404)
    elif error.status_code == 405:
        refusal = ServiceError("error.method_not_allowed", 405)
    else:
        refusal = ServiceError("error.http_error", error.status_code)
    return JSONResponse(
        error_body(refusal, language(request)), status_code=refusal.status, headers=error.headers
    )


routes = [
    *pages.routes,
    Route("/api/site", site),
    Route("/health", health),
    Route("/api/games", games, methods=["GET", "POST"]),
    Route("/api/games/{code}", game_summary, methods=["GET"]),
    Route("/api/games/{code}/join", join_game, methods=["POST"]),
]
