"""The site's pages: the HTML pages with their fallback words and module preloads, the
rules and the terms in the reader's language, the service worker and the PWA manifest.
Each page the server builds is built once per process (and language) and revalidated by
its ETag."""

from __future__ import annotations

import functools
import hashlib
import html
import json
import posixpath
import re
import string
from collections.abc import Iterable
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from tysiac import catalogue
from tysiac.server.http.language import language, vary
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


# A page's module script, and the imports of a module that are loaded with it (not those
# behind ``import()``, loaded on demand): ``import … from "./x.js"``, ``export … from``,
# ``import "./x.js"``.
MODULE_SCRIPT = re.compile(r'([ \t]*)<script type="module" src="(/static/js/[^"]+)"></script>')
STATIC_IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^;"'`]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']""",
    re.M,
)


@functools.cache
def imported(module: str) -> tuple[str, ...]:
    """Every module that ``module`` (a path under /static/js) imports, directly or through
    others, in the order first met: the modules its page needs before it can run."""
    found: dict[str, None] = {}
    waiting = [module]
    while waiting:
        path = waiting.pop(0)
        text = (STATIC / path.removeprefix("/static/")).read_text(encoding="utf-8")
        for target in (a or b for a, b in STATIC_IMPORT.findall(text)):
            url = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
            if url not in found and url != module:
                found[url] = None
                waiting.append(url)
    return tuple(found)


def with_preloads(page: str) -> str:
    """``page`` with a ``<link rel="modulepreload">`` for every module its module script
    imports: the browser asks for them all at once, instead of one level of imports a
    round trip (a first visit to a game page: six levels)."""

    def links(match: re.Match[str]) -> str:
        indent, module = match.groups()
        preloads = (f'{indent}<link rel="modulepreload" href="{url}">' for url in imported(module))
        return "\n".join([*preloads, match[0]])

    return MODULE_SCRIPT.sub(links, page)


def built(page: str) -> str:
    """A page as the server sends it: its fallback words and its modules' preloads."""
    return with_preloads(with_fallback(page))


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
    """The page at ``path`` (as of ``modified``) as the server sends it (``built``)."""
    return tagged(built(path.read_text(encoding="utf-8")))


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
    headers = {"Cache-Control": "no-cache", **vary(request)}
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
    return tagged(built(page))


async def documents(request: Request) -> Response:
    """/zasady and /regulamin in the request's language (``?lang=``, which the page asks
    for when its reader chose another language than the browser's, else the browser's
    ``Accept-Language``)."""
    lang = language(request)
    headers = {"Content-Language": lang, **vary(request)}
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


routes = [
    *(Route(path, page) for path in PAGES),
    *(Route(path, documents) for path in DOCUMENT_PAGES),
    Route("/g/{code}", game_page),
    Route("/g/{code}/przebieg", review_page),
]
