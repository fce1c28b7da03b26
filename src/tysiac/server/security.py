"""Game codes, player tokens and keyed hashes of IP addresses."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets

# No 0/O, 1/I/L: a code read aloud or typed from a phone is unambiguous.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str | None:
    """A code as typed (any case, spaces or dashes) -> the canonical code, or None."""
    code = "".join(ch for ch in text.upper() if ch not in " -")
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


def new_token() -> str:
    """A player's secret: 192 random bits. Only its hash is stored."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def ip_hash(key: str, address: str) -> str:
    """HMAC of the address (IPv6 by its /64): the address itself is never stored."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        canonical = address
    else:
        mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
        if isinstance(ip, ipaddress.IPv6Address) and mapped is None:
            canonical = str(ipaddress.ip_network(f"{ip}/64", strict=False))
        else:
            canonical = str(mapped or ip)
    return hmac.new(key.encode(), canonical.encode(), hashlib.sha256).hexdigest()
