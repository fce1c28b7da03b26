"""The language a request is answered in: the page's own choice (``?lang=``), else the
browser's (``Accept-Language``, its q-values weighed by ICU's matcher), else Polish.

Only the languages with a catalogue count (``catalogue.AVAILABLE``); an unknown or
unavailable one is Polish. What the server words itself (an error's ``message``, the
manifest) is in this language; the page words the rest from its own catalogue.
"""

from __future__ import annotations

import icu
from starlette.requests import HTTPConnection

from tysiac import catalogue

MAX_HEADER = 500  # characters of Accept-Language read; browsers send a few dozen


def negotiate(accept_language: str | None, available: tuple[str, ...] = catalogue.AVAILABLE) -> str:
    """The first language of an ``Accept-Language`` header among ``available``, by
    q-value: ``"de-DE,uk-UA;q=0.8,en;q=0.5"`` -> ``"uk"``; none, or a malformed header,
    -> Polish."""
    if not accept_language:
        return catalogue.DEFAULT
    try:
        best, _ = icu.LocaleMatcher.acceptLanguageFromHTTP(
            accept_language[:MAX_HEADER], list(available)
        )
    except icu.ICUError:
        return catalogue.DEFAULT
    return best if best in available else catalogue.DEFAULT


def asked(request: HTTPConnection) -> str | None:
    """The language named by ``?lang=``: one the site has, Polish for any other, or None
    when the request names none."""
    lang = request.query_params.get("lang")
    if lang is None:
        return None
    return lang if lang in catalogue.AVAILABLE else catalogue.DEFAULT


def language(request: HTTPConnection) -> str:
    """The request's language: ``?lang=``, else ``Accept-Language``, else Polish."""
    return asked(request) or negotiate(request.headers.get("accept-language"))


def vary(request: HTTPConnection) -> dict[str, str]:
    """The headers of an answer in ``language(request)``: chosen by ``Accept-Language``
    unless the URL names the language, so caches must keep one per language then."""
    return {} if asked(request) is not None else {"Vary": "Accept-Language"}
