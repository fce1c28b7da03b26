"""The review's endpoints (docs/review.md, docs/protocol.md):

- ``GET /api/games/{code}/record`` (``?download=1``: as a file) the finished game's record;
- ``GET /api/games/{code}/review`` its every hand step by step, with the analysis so far;
- ``GET /api/games/{code}/analysis`` the analysis alone, for polling;
- ``POST /api/records/review`` an uploaded record's review (kept in memory only);
- ``GET /api/records/{key}/analysis`` an uploaded record's analysis.

Every one counts against its address's rate (a token bucket of ``Reviews``): past it, an
analysis is ``later`` (the page asks again), anything else a 429.
"""

from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tysiac.rules.record import MAX_BYTES
from tysiac.server.errors import ServiceError
from tysiac.server.http.api import client_address, game_code, service_of
from tysiac.server.http.inbound import json_body
from tysiac.server.review.analyses import later
from tysiac.server.review.reviews import Reviews
from tysiac.server.review.work import Read, dumps

MAX_RECORD = MAX_BYTES  # bytes of an uploaded record: 512 KiB
KEY = re.compile(r"^[0-9a-f]{64}$")
LIMITED_MS = 5000  # when to ask again after the rate refused an analysis
NO_STORE = {"Cache-Control": "no-store"}


def reviews_of(request: Request) -> Reviews:
    reviews: Reviews = request.app.state.reviews
    return reviews


def _address(request: Request) -> str:
    return reviews_of(request).address(client_address(request))


def _allowed(request: Request) -> str:
    """The request's address (a keyed hash), within its rate; else a 429."""
    address = _address(request)
    if not reviews_of(request).allow(address):
        raise ServiceError("error.review_rate", 429)
    return address


def _review(head: dict[str, Any], read: Read, analysis: dict[str, Any]) -> Response:
    """The review as JSON: the head, the analysis, and the frames as they came (JSON text
    made by the worker, not encoded again here)."""
    start = dumps({**head, "analysis": analysis})
    body = start[:-1] + b',"hands":' + read.frames + b"}"
    return Response(body, media_type="application/json", headers=NO_STORE)


async def game_record(request: Request) -> Response:
    _allowed(request)
    game = await reviews_of(request).game(game_code(request))
    headers = dict(NO_STORE)
    if request.query_params.get("download") == "1":
        headers["Content-Disposition"] = f'attachment; filename="tysiac-{game.code}.json"'
    return Response(game.read.record, media_type="application/json", headers=headers)


async def game_review(request: Request) -> Response:
    address = _allowed(request)
    reviews = reviews_of(request)
    code = game_code(request)
    game = await reviews.game(code)
    analysis = await reviews.game_analysis(code, address)
    head = {
        "source": "game",
        "code": game.code,
        "name": game.name,
        **game.read.head,
        "kept_until": game.kept_until.isoformat(),
    }
    return _review(head, game.read, analysis)


async def game_analysis(request: Request) -> Response:
    address = _address(request)
    reviews = reviews_of(request)
    code = game_code(request)
    if not reviews.allow(address):
        await service_of(request).table(code)  # an unknown code is still 404
        return JSONResponse(later(LIMITED_MS), headers=NO_STORE)
    return JSONResponse(await reviews.game_analysis(code, address), headers=NO_STORE)


async def record_review(request: Request) -> Response:
    settings = service_of(request).settings
    too_large = ServiceError("error.too_large.record", 413)
    body = await json_body(request, settings, MAX_RECORD, too_large)
    address = _allowed(request)
    read, analysis = await reviews_of(request).upload(body, address)
    head = {"source": "file", **read.head, "kept_until": None}
    return _review(head, read, analysis)


async def record_analysis(request: Request) -> Response:
    key = str(request.path_params["key"])
    if not KEY.match(key):
        raise ServiceError("error.record.gone", 404)
    address = _address(request)
    reviews = reviews_of(request)
    if not reviews.allow(address):
        return JSONResponse(later(LIMITED_MS), headers=NO_STORE)
    return JSONResponse(reviews.upload_analysis(key, address), headers=NO_STORE)


routes = [
    Route("/api/games/{code}/record", game_record, methods=["GET"]),
    Route("/api/games/{code}/review", game_review, methods=["GET"]),
    Route("/api/games/{code}/analysis", game_analysis, methods=["GET"]),
    Route("/api/records/review", record_review, methods=["POST"]),
    Route("/api/records/{key}/analysis", record_analysis, methods=["GET"]),
]
