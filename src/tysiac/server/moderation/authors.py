"""Who is acting, as the server knows them: a device and an address, as keyed hashes.

A device is the technical cookie ``ivoca_did``, issued by this server and signed with
its key: a random part and its HMAC. A client without it, or with one the server did
not issue (forged or from an older key), counts as its address. The device and the
address are stored only as keyed hashes.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from tysiac.server.security import ip_hash

DEVICE_COOKIE = "ivoca_did"
ISSUED_DEVICE = "issued_device"  # request state: the device id this response sets, if any
DEVICE_COOKIE_SECONDS = 365 * 24 * 3600
DEVICE_ID = re.compile(r"^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$")  # random part . its MAC
ADDRESS_DEVICE = "ip:"  # how the device of a client without a valid cookie begins


def _device_mac(key: str, random_part: str) -> str:
    digest = hmac.new(key.encode(), f"device-id:{random_part}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[:16]).decode().rstrip("=")


def new_device_id(key: str) -> str:
    """A device id for the cookie: 128 random bits and their MAC under the server's key."""
    random_part = secrets.token_urlsafe(16)
    return f"{random_part}.{_device_mac(key, random_part)}"


def valid_device_id(key: str, value: str | None) -> bool:
    """True only for an id this server issued (under its current key)."""
    match = DEVICE_ID.match(value) if value is not None else None
    return match is not None and hmac.compare_digest(match[2], _device_mac(key, match[1]))


def _device_hash(key: str, device_id: str) -> str:
    return hmac.new(key.encode(), f"device:{device_id}".encode(), hashlib.sha256).hexdigest()


@dataclass(frozen=True, slots=True)
class Author:
    """Who is writing, as keyed hashes: the device and the address (IPv6 by its /64).

    ``device`` is what moderation counts: the cookie the client brought, else its
    address. ``browser`` is which browser holds a seat (one browser, one seat): the
    cookie it brought or, on its first request, the one this response gives it; None
    where no cookie is brought or given (a WebSocket, a forged cookie's socket).
    """

    device: str
    ip: str
    browser: str | None = None

    @classmethod
    def of(cls, key: str, device_id: str | None, address: str, issued: str | None = None) -> Author:
        ip = ip_hash(key, address)
        if device_id is None or not valid_device_id(key, device_id):
            # No cookie: the address is the device; a new cookie marks the browser only.
            browser = _device_hash(key, issued) if issued is not None else None
            return cls(device=f"{ADDRESS_DEVICE}{ip}"[:64], ip=ip, browser=browser)
        device = _device_hash(key, device_id)
        return cls(device=device, ip=ip, browser=device)
