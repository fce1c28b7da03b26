"""HTTP endpoints: create, join, list and look up games; health; the pages."""

from __future__ import annotations

import functools
import hashlib
import html
import json
import re
import string
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
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
from tysiac.server.http.inbound import json_body
from tysiac.server.http.language import asked, language
from tysiac.server.http.messages import MAX_BODY, CreateGame, JoinGame, error_body, parse_body
from tysiac.server.moderation import texts
from tysiac.server.moderation.authors import DEVICE_COOKIE, ISSUED_DEVICE, Author
from tysiac.server.security import normalise_code
from tysiac.web import STATIC, WEB

# Pages by path; files served at the root because browsers look for them there.
PAGES = {
    "/": "index.html",
    "/kontakt": "contact.html",
    "/przebieg": "review.html",  # the deal review of a record opened from a file
    "/offline.html": "offline.html",
    "/sw.js": "sw.js",
    "/manifest.webmanifest": "manifest.webmanifest",
}

# The documents' pages: the shell web/document.html around the document of the
# request's language (catalogue.document).
DOCUMENT_PAGES = {"/zasady": "rules", "/regulamin": "terms"}


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


# A page's words for when /api/site cannot be reached (site.js): the HTML names their keys,
# ``<script type="application/json" id="words-fallback" data-keys="a.b c.d">{}</script>``,
# and is served with their texts in every language, {"pl": {key: text}, "en": …}.
FALLBACK = re.compile(
    r'(<script type="application/json" id="words-fallback" data-keys="([^"]*)">)\{\}(</script>)'
)


def fallback_words(keys: Iterable[str]) -> str:
    """The JSON of ``keys``' texts in every language, safe inside a ``<script>``."""
    table = {
        lang: {key: catalogue.words(lang)[key] for key in keys} for lang in catalogue.AVAILABLE
    }
    return json.dumps(table, ensure_ascii=False).replace("</", "<\\/")


def with_fallback(page: str) -> str:
    """``page`` with its fallback words filled in."""
    return FALLBACK.sub(
        lambda m: m.group(1) + fallback_words(m.group(2).split()) + m.group(3), page
    )


Tagged = tuple[bytes, str]  # a body the server built, and its ETag


def tagged(text: str) -> Tagged:
    body = text.encode()
    return body, f'"{hashlib.sha256(body).hexdigest()[:20]}"'


def revalidated(
    request: Request, built: Tagged, media: str, headers: dict[str, str] | None = None
) -> Response:
    """A body the server built, sent with ``no-cache`` and its ETag: the next load asks
    again and gets a 304 with no body while nothing changed, and a new release or
    configuration is seen at once."""
    body, etag = built
    headers = {**(headers or {}), "ETag": etag, "Cache-Control": "no-cache"}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media, headers=headers)


HTML = "text/html; charset=utf-8"


@functools.lru_cache(maxsize=32)
def _filled(path: Path, modified: int) -> Tagged:
    """The page at ``path`` (as of ``modified``) with its fallback words filled in."""
    return tagged(with_fallback(path.read_text(encoding="utf-8")))


def _file(request: Request, name: str) -> Response:
    path = STATIC / name
    if not path.is_file():
        raise HTTPException(404)
    if name.endswith(".html"):
        return revalidated(request, _filled(path, path.stat().st_mtime_ns), HTML)
    media = "application/manifest+json" if name.endswith(".webmanifest") else None
    return FileResponse(path, headers={"Cache-Control": "no-cache"}, media_type=media)


# sw.js names its cache after this line, which the server fills in (below).
WORKER_ASSETS = 'const ASSETS = "dev";'
_assets: dict[tuple[object, ...], str] = {}


def assets_version(static: Path = STATIC) -> str:
    """A hash of every static file but the worker itself, vendor files included.

    The service worker's cache is named after it: a new asset lock (another OpenPGP.js,
    other fonts) or any changed file makes a new worker with a cache of its own, and the
    old cache goes whole, so a returning visitor never keeps an old library or a mix.
    Hashed again only when a file's size or time changes.
    """
    files = {
        p.relative_to(static).as_posix(): p
        for p in sorted(static.rglob("*"))
        if p.is_file() and p.name != "sw.js"
    }
    stamp = (static, *((name, p.stat().st_size, p.stat().st_mtime_ns) for name, p in files.items()))
    if stamp not in _assets:
        digest = hashlib.sha256()
        for name, path in files.items():
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
        _assets.clear()
        _assets[stamp] = digest.hexdigest()[:16]
    return _assets[stamp]


def _worker() -> Response:
    """sw.js with its cache name filled in; at the root, so its scope is the whole site."""
    text = (STATIC / "sw.js").read_text(encoding="utf-8")
    if WORKER_ASSETS not in text:
        raise RuntimeError(f"sw.js lost its line {WORKER_ASSETS!r}")
    text = text.replace(WORKER_ASSETS, f'const ASSETS = "{assets_version()}";', 1)
    return Response(
        text,
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


# The manifest's words, the catalogue's (manifest.*), in the request's language.
MANIFEST_WORDS = {
    "name": "manifest.name",
    "short_name": "manifest.short_name",
    "description": "manifest.description",
}


def _manifest(request: Request) -> Response:
    """The PWA manifest worded in the request's language (``?lang=``, else the browser's
    ``Accept-Language``, by which the browser asks for it), with its ``lang``."""
    lang = language(request)
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text(encoding="utf-8"))
    manifest.update({field: catalogue.text(key, lang) for field, key in MANIFEST_WORDS.items()})
    manifest["lang"] = lang
    headers = {"Cache-Control": "no-cache"}
    if asked(request) is None:
        headers["Vary"] = "Accept-Language"
    return JSONResponse(manifest, media_type="application/manifest+json", headers=headers)


@functools.cache
def document_page(name: str, lang: str) -> Tagged:
    """The whole page of the document ``name`` in ``lang``: its title, description and
    the page's own words in that language, so it reads right before any script runs."""
    words = catalogue.words(lang)
    shell = string.Template((WEB / "document.html").read_text(encoding="utf-8"))
    current = ' aria-current="page"'
    page = shell.substitute(
        lang=lang,
        name=name,
        title=html.escape(words[f"document.{name}.title"]),
        description=html.escape(words[f"document.{name}.description"]),
        skip=html.escape(words["page.skip"]),
        brand=html.escape(words["page.brand"]),
        install=html.escape(words["page.install"]),
        settings=html.escape(words["review.settings"]),
        document=catalogue.document(name, lang),
        rules_current=current if name == "rules" else "",
        terms_current=current if name == "terms" else "",
        footer_rules=html.escape(words["review.footer.rules"]),
        footer_terms=html.escape(words["review.footer.terms"]),
        footer_contact=html.escape(words["review.footer.contact"]),
    )
    return tagged(with_fallback(page))


async def documents(request: Request) -> Response:
    """/zasady and /regulamin in the request's language (``?lang=``, which the page asks
    for when its reader chose another language than the browser's, else the browser's
    ``Accept-Language``)."""
    lang = language(request)
    headers = {"Content-Language": lang}
    if asked(request) is None:
        headers["Vary"] = "Accept-Language"
    return revalidated(
        request, document_page(DOCUMENT_PAGES[request.url.path], lang), HTML, headers
    )


async def page(request: Request) -> Response:
    name = PAGES[request.url.path]
    if name == "sw.js":
        return await run_in_threadpool(_worker)  # hashing reads files: off the event loop
    if name == "manifest.webmanifest":
        return _manifest(request)
    return _file(request, name)


async def game_page(request: Request) -> Response:
    return _file(request, "game.html")


async def review_page(request: Request) -> Response:
    """The deal review of a finished game (the page asks for the review itself)."""
    return _file(request, "review.html")


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
    headers = {} if asked(request) is not None else {"Vary": "Accept-Language"}
    return revalidated(request, _site[id(settings), lang], "application/json", headers)


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
    *(Route(path, page) for path in PAGES),
    *(Route(path, documents) for path in DOCUMENT_PAGES),
    Route("/g/{code}", game_page),
    Route("/g/{code}/przebieg", review_page),
    Route("/api/site", site),
    Route("/health", health),
    Route("/api/games", games, methods=["GET", "POST"]),
    Route("/api/games/{code}", game_summary, methods=["GET"]),
    Route("/api/games/{code}/join", join_game, methods=["POST"]),
]
