"""The contact form's server side: the operator's key, the encrypted relay and WKD.

The page (``/kontakt``) encrypts the message, the nick and the e-mail together in the
browser with the operator's public key; this module only ever sees the armored
ciphertext. ``POST /api/contact`` checks that it is a well-formed public-key encrypted
OpenPGP message addressed to the operator's key, counts it against the address's
daily limit (a keyed hash of the address, kept a day), and mails it unchanged to the
operator as PGP/MIME. Nothing else is stored or logged.

Also here: ``/klucz.asc`` (the armored key) and the Web Key Directory, direct method
(``/.well-known/openpgpkey/hu/<hash>`` and ``/.well-known/openpgpkey/policy``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tysiac.catalogue import text
from tysiac.server.config import Settings
from tysiac.server.contact.mail import MailError, pgp_mime, send_mail
from tysiac.server.contact.openpgp import (
    OpenPGPError,
    PublicKey,
    addressed_to,
    encrypted_message,
    public_key,
    wkd_hash,
)
from tysiac.server.errors import ServiceError
from tysiac.server.http.api import client_address, service_of
from tysiac.server.http.inbound import json_body
from tysiac.server.http.language import language
from tysiac.server.security import ip_hash
from tysiac.store.contact import (
    forget_old_contact_sends,
    release_contact_send,
    reserve_contact_send,
)

log = logging.getLogger(__name__)

MAX_ARMORED = 64 * 1024  # characters of the armored message
MAX_BODY = MAX_ARMORED + 4096  # bytes of the JSON body: the message plus its escaping
MAX_TEXT = 5000  # characters the page lets one type (the server cannot see them)
KEY_URL = "/klucz.asc"
SUBJECT = "Tysiąc: wiadomość z formularza kontaktowego"

# Refusals by code: (status, the catalogue's key). The page adds what the user should do.
REFUSALS = {
    "contact_off": (503, "error.contact_off"),
    "too_large": (413, "error.too_large.contact"),
    "malformed": (422, "error.malformed"),
    "not_encrypted": (400, "error.not_encrypted"),
    "wrong_key": (400, "error.wrong_key"),
    "relay_failed": (502, "error.relay_failed"),
}


def refusal(code: str) -> ServiceError:
    status, key = REFUSALS[code]
    if code == "malformed":
        return ServiceError(key, status, field="message", where="message")
    return ServiceError(key, status)


def _limit_reached(limit: int) -> ServiceError:
    return ServiceError("error.contact_limit", 429, limit=limit)


@lru_cache(maxsize=4)
def _parsed_key(text: str) -> PublicKey | None:
    try:
        return public_key(text)
    except OpenPGPError as error:
        log.error("operator_pgp_key_file is not a usable OpenPGP public key: %s", error)
        return None


def operator_key(settings: Settings) -> PublicKey | None:
    """The operator's key, parsed once; None when unset or unusable (logged once)."""
    return _parsed_key(settings.operator_pgp_key) if settings.operator_pgp_key else None


def contact_ready(settings: Settings) -> bool:
    return settings.contact_configured and operator_key(settings) is not None


async def contact_info(request: Request) -> Response:
    """What the page needs: whether the form works, the key and its fingerprint."""
    settings = service_of(request).settings
    key = operator_key(settings)
    info: dict[str, Any] = {
        "configured": contact_ready(settings),
        "fingerprint": key.fingerprint_text if key else None,
        "key": settings.operator_pgp_key if key else None,
        "key_url": KEY_URL if key else None,
        "wkd": _wkd_local_part(request) is not None,
        "per_day": settings.contact_per_day,
        "max_text": MAX_TEXT,
    }
    return JSONResponse(info, headers={"Cache-Control": "no-store"})


def _armored(body: bytes) -> str:
    """The ``message`` of ``{"message": "-----BEGIN PGP MESSAGE-----…"}``, nothing else."""
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise refusal("malformed") from None
    if not isinstance(data, dict) or set(data) != {"message"}:
        raise refusal("malformed")
    message = data["message"]
    if not isinstance(message, str):
        raise refusal("malformed")
    if len(message) > MAX_ARMORED:
        raise refusal("too_large")
    if not message.isascii():
        raise refusal("not_encrypted")
    return message


def _lock(request: Request) -> asyncio.Lock:
    """One reservation at a time in this process (the database checks across processes)."""
    state = request.app.state
    lock: asyncio.Lock | None = getattr(state, "contact_lock", None)
    if lock is None:
        lock = state.contact_lock = asyncio.Lock()
    return lock


async def send_contact(request: Request) -> Response:
    service = service_of(request)
    settings = service.settings
    key = operator_key(settings)
    if not settings.contact_configured or key is None:
        raise refusal("contact_off")
    armored = _armored(await json_body(request, settings, MAX_BODY, refusal("too_large")))
    try:
        found = encrypted_message(armored)
    except OpenPGPError:
        raise refusal("not_encrypted") from None
    if not addressed_to(found, key):
        raise refusal("wrong_key")
    address = ip_hash(service.hash_key, client_address(request))
    now = service.now()
    async with _lock(request), service.writing() as conn:
        await forget_old_contact_sends(conn, now)
        reserved = await reserve_contact_send(conn, address, now, settings.contact_per_day)
    if reserved is None:
        raise _limit_reached(settings.contact_per_day)
    try:
        await send_mail(settings, SUBJECT, pgp_mime(armored), now)
    except MailError:
        async with service.writing() as conn:
            await release_contact_send(conn, reserved)
        raise refusal("relay_failed") from None
    log.info("contact message relayed to the operator")
    return JSONResponse(
        {"sent": True, "message": text("contact.sent", language(request))},
        headers={"Cache-Control": "no-store"},
    )


async def contact(request: Request) -> Response:
    """GET: the form's configuration; POST: relay an encrypted message."""
    if request.method == "POST":
        return await send_contact(request)
    return await contact_info(request)


def _key_or_404(request: Request) -> PublicKey:
    key = operator_key(service_of(request).settings)
    if key is None:
        raise ServiceError("error.not_found.openpgp", 404)
    return key


async def key_file(request: Request) -> Response:
    _key_or_404(request)
    text = service_of(request).settings.operator_pgp_key or ""
    return Response(
        text,
        media_type="text/plain; charset=utf-8",
        headers={"Cache-Control": "no-cache", "Access-Control-Allow-Origin": "*"},
    )


def _wkd_local_part(request: Request) -> str | None:
    """The operator's local part when this site serves WKD for the operator's domain."""
    settings = service_of(request).settings
    if operator_key(settings) is None or not settings.operator_email:
        return None
    local, _, domain = settings.operator_email.rpartition("@")
    if settings.public_url:
        host = urlsplit(settings.public_url).hostname or ""
    else:
        host = request.url.hostname or ""
    return local if host.lower() == domain.lower() else None


WKD_HEADERS = {"Cache-Control": "no-cache", "Access-Control-Allow-Origin": "*"}


async def wkd_key(request: Request) -> Response:
    local = _wkd_local_part(request)
    if local is None or request.path_params["hash"] != wkd_hash(local):
        raise ServiceError("error.not_found.key", 404)
    return Response(
        _key_or_404(request).binary, media_type="application/octet-stream", headers=WKD_HEADERS
    )


async def wkd_policy(request: Request) -> Response:
    if _wkd_local_part(request) is None:
        raise ServiceError("error.not_found", 404)
    return Response(b"", media_type="text/plain", headers=WKD_HEADERS)


routes = [
    Route("/api/contact", contact, methods=["GET", "POST"]),
    Route(KEY_URL, key_file, methods=["GET"]),
    Route("/.well-known/openpgpkey/hu/{hash}", wkd_key, methods=["GET"]),
    Route("/.well-known/openpgpkey/policy", wkd_policy, methods=["GET"]),
]
