"""OpenPGP (RFC 9580) for the contact form: the operator's key and what the form relays.

The operator's key is read by Sequoia (``pysequoia``), and its standard policy decides
what it may be used for:

- ``public_key``: one armored public key (certificate), v4 or v6, neither revoked nor
  expired, with at least one valid encryption-capable key (a subkey, or the primary
  key with the encryption flag). Sequoia chooses those keys, as it would to encrypt a
  message; their ids and fingerprints are what a relayed message must be encrypted to.
  The reasons a key is refused are spelt out (``OpenPGPError``) for ``--check-config``.

What stays hand-written, because it is small and the relay needs it exactly:

- ``dearmor``: ASCII armor -> bytes (header and footer, optional armor headers, strict
  base64, the optional CRC24 checksum checked when present). The relay accepts nothing
  but one armored block, and the Web Key Directory serves the key's bytes as given.
- ``packets``: the packet framing, old and new length formats, partial body lengths.
- ``encrypted_message``: a message is one or more public-key encrypted session keys
  (PKESK, tag 1) followed by one encrypted data packet (SEIPD, tag 18, or the LibrePGP
  AEAD packet, tag 20) and nothing else: no literal, compressed or signed plaintext.
  ``recipient`` reads the key id or fingerprint a session key names (pysequoia has no
  accessor for it).
- ``wkd_hash``: the z-base-32 SHA-1 of a local part (the WKD direct method's file name).

Nothing here decrypts: the server never has the operator's private key. Over 400
lines: the packet checks a relayed message must pass are read best in one place.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass
from datetime import UTC, datetime

import pysequoia
from pysequoia.packet import Packet as SequoiaPacket
from pysequoia.packet import PacketPile, SignatureType, Tag

MESSAGE = "PGP MESSAGE"
PUBLIC_KEY = "PGP PUBLIC KEY BLOCK"

PKESK, SIGNATURE, SECRET_KEY, PUBLIC_KEY_PACKET = 1, 2, 5, 6
SECRET_SUBKEY, COMPRESSED, SYMMETRIC, MARKER, LITERAL = 7, 8, 9, 10, 11
TRUST, USER_ID, PUBLIC_SUBKEY, USER_ATTRIBUTE, SEIPD, AEAD, PADDING = 12, 13, 14, 17, 18, 20, 21
# Only these may be split into partial body lengths (RFC 9580, 4.2.1.4).
PARTIAL_ALLOWED = frozenset({COMPRESSED, SYMMETRIC, LITERAL, SEIPD, AEAD})

CRC24_INIT = 0xB704CE
CRC24_POLY = 0x1864CFB
ZBASE32 = "ybndrfg8ejkmcpqxot1uwisza345h769"
ARMOR_LINE = re.compile(r"^-----(BEGIN|END) ([A-Z0-9 ,/]+)-----$")
ARMOR_HEADER = re.compile(r"^[!-9;-~]+: .*$")  # "Key: value", key printable without ':'
BASE64_LINE = re.compile(r"^[A-Za-z0-9+/]*={0,2}$")


class OpenPGPError(ValueError):
    """Input that is not what it claims to be; the text says why (English, for logs/tests)."""


@dataclass(frozen=True, slots=True)
class Packet:
    tag: int
    body: bytes


@dataclass(frozen=True, slots=True)
class PublicKey:
    fingerprint: bytes  # of the primary key
    version: int  # 4 or 6
    key_ids: frozenset[bytes]  # 8-byte ids of the keys a message may be encrypted to
    fingerprints: frozenset[bytes]  # the same keys' fingerprints
    binary: bytes  # the dearmored key block (what WKD serves)

    @property
    def fingerprint_text(self) -> str:
        """Upper-case hex in groups of four, as GnuPG and the description print it."""
        hexed = self.fingerprint.hex().upper()
        return " ".join(hexed[i : i + 4] for i in range(0, len(hexed), 4))


def crc24(data: bytes) -> int:
    crc = CRC24_INIT
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= CRC24_POLY
    return crc & 0xFFFFFF


def armor(kind: str, data: bytes) -> str:
    """Bytes -> ASCII armor with a checksum (used by tests and tools, not by the relay)."""
    encoded = base64.b64encode(data).decode()
    lines = [encoded[i : i + 64] for i in range(0, len(encoded), 64)]
    checksum = base64.b64encode(crc24(data).to_bytes(3, "big")).decode()
    return "\n".join(
        [f"-----BEGIN {kind}-----", "", *lines, f"={checksum}", f"-----END {kind}-----", ""]
    )


def dearmor(text: str, kind: str) -> bytes:
    """The bytes of the one armored block of ``kind`` that makes up ``text``."""
    lines = [line.rstrip(" \t\r") for line in text.strip().split("\n")]
    if len(lines) < 3 or lines[0] != f"-----BEGIN {kind}-----":
        raise OpenPGPError(f"does not start with -----BEGIN {kind}-----")
    if lines[-1] != f"-----END {kind}-----":
        raise OpenPGPError(f"does not end with -----END {kind}-----")
    body = lines[1:-1]
    index = 0
    while index < len(body) and body[index] != "":
        if not ARMOR_HEADER.match(body[index]):
            raise OpenPGPError("no blank line after the armor header lines")
        index += 1
    if index == len(body):
        raise OpenPGPError("no blank line after the armor header lines")
    data_lines = body[index + 1 :]
    checksum: bytes | None = None
    if data_lines and data_lines[-1].startswith("="):
        try:
            checksum = base64.b64decode(data_lines[-1][1:], validate=True)
        except binascii.Error:
            raise OpenPGPError("the armor checksum is not base64") from None
        if len(checksum) != 3:
            raise OpenPGPError("the armor checksum is not 24 bits")
        data_lines = data_lines[:-1]
    for line in data_lines:
        if not BASE64_LINE.match(line) or ARMOR_LINE.match(line):
            raise OpenPGPError("the armored data is not base64")
    try:
        data = base64.b64decode("".join(data_lines), validate=True)
    except binascii.Error:
        raise OpenPGPError("the armored data is not base64") from None
    if not data:
        raise OpenPGPError("the armored block is empty")
    if checksum is not None and crc24(data) != int.from_bytes(checksum, "big"):
        raise OpenPGPError("the armor checksum (CRC24) does not match")
    return data


def packets(data: bytes) -> list[Packet]:
    """Split bytes into packets; any truncated or malformed header raises."""
    found: list[Packet] = []
    at = 0
    while at < len(data):
        first = data[at]
        at += 1
        if not first & 0x80:
            raise OpenPGPError(f"byte {at - 1} is not a packet header")
        if first & 0x40:  # new format: tag in 6 bits, lengths may be partial
            tag = first & 0x3F
            body = bytearray()
            while True:
                length, partial, at = _new_length(data, at)
                if partial and tag not in PARTIAL_ALLOWED:
                    raise OpenPGPError(f"packet tag {tag} may not have partial lengths")
                body += _take(data, at, length, tag)
                at += length
                if not partial:
                    break
        else:  # old format: tag in 4 bits, length type in 2
            tag = (first >> 2) & 0x0F
            kind = first & 0x03
            if kind == 3:  # indeterminate: up to the end of the data
                length = len(data) - at
            else:
                size = 1 << kind
                length = int.from_bytes(_take(data, at, size, tag), "big")
                at += size
            body = bytearray(_take(data, at, length, tag))
            at += length
        if tag == 0:
            raise OpenPGPError("packet tag 0 is reserved")
        found.append(Packet(tag, bytes(body)))
    return found


def _new_length(data: bytes, at: int) -> tuple[int, bool, int]:
    """One new-format length: (length, partial, next position)."""
    if at >= len(data):
        raise OpenPGPError("truncated packet length")
    first = data[at]
    if first < 192:
        return first, False, at + 1
    if first < 224:
        if at + 1 >= len(data):
            raise OpenPGPError("truncated packet length")
        return ((first - 192) << 8) + data[at + 1] + 192, False, at + 2
    if first == 255:
        if at + 5 > len(data):
            raise OpenPGPError("truncated packet length")
        return int.from_bytes(data[at + 1 : at + 5], "big"), False, at + 5
    return 1 << (first & 0x1F), True, at + 1


def _take(data: bytes, at: int, length: int, tag: int) -> bytes:
    if at + length > len(data):
        raise OpenPGPError(f"packet tag {tag} is truncated")
    return data[at : at + length]


def encrypted_message(text: str) -> list[Packet]:
    """The packets of an armored public-key encrypted message; raises OpenPGPError."""
    found = packets(dearmor(text, MESSAGE))
    if not found:
        raise OpenPGPError("no packets")
    *sessions, data = found
    if data.tag not in (SEIPD, AEAD):
        raise OpenPGPError(f"expected encrypted data (tag 18 or 20) last, got tag {data.tag}")
    if not sessions or any(p.tag != PKESK for p in sessions):
        raise OpenPGPError(
            "expected public-key encrypted session keys (tag 1) first, got tags "
            + ", ".join(str(p.tag) for p in found)
        )
    for session in sessions:
        recipient(session)  # checks the version and the length of the key id
    if not data.body or (data.tag == SEIPD and data.body[0] not in (1, 2)):
        raise OpenPGPError("unknown encrypted data packet version")
    if data.tag == AEAD and data.body[0] != 1:
        raise OpenPGPError("unknown AEAD packet version")
    return found


def recipient(session: Packet) -> bytes:
    """The key id (v3 PKESK, 8 bytes) or fingerprint (v6 PKESK) a session key is for.

    All zeros or empty means an anonymous recipient.
    """
    body = session.body
    if not body:
        raise OpenPGPError("empty session key packet")
    if body[0] == 3:
        if len(body) < 10:
            raise OpenPGPError("truncated session key packet")
        return body[1:9]
    if body[0] == 6:
        if len(body) < 2 or len(body) < 2 + body[1]:
            raise OpenPGPError("truncated session key packet")
        size = body[1]
        if size == 0:
            return b""
        if size not in (21, 33):  # key version byte + v4 or v6 fingerprint
            raise OpenPGPError("bad recipient in session key packet")
        return body[3 : 2 + size]
    raise OpenPGPError(f"unknown session key packet version {body[0]}")


def addressed_to(found: list[Packet], key: PublicKey) -> bool:
    """Whether a session key of the message names one of ``key``'s encryption keys."""
    for session in found:
        if session.tag != PKESK:
            continue
        named = recipient(session)
        if named in key.key_ids or named in key.fingerprints:
            return True
    return False


# pysequoia reports its (Rust) errors as RuntimeError, bad arguments as ValueError.
SEQUOIA_ERRORS = (RuntimeError, ValueError)
NO_ENCRYPTION_KEY = "the key has no valid encryption subkey"
REVOCATIONS = (SignatureType.KeyRevocation, SignatureType.SubkeyRevocation)


def _first_line(error: Exception) -> str:
    """Sequoia's message without the backtrace that RUST_BACKTRACE adds to it."""
    return str(error).strip().split("\n", 1)[0]


@dataclass(slots=True)
class _Key:
    """The primary key or a subkey, as its packets say (Sequoia has checked the signatures
    it relies on; these details only explain a refusal and date an expiry)."""

    fingerprint: bytes
    key_id: bytes
    version: int
    created: datetime | None
    encrypts: bool = False  # by the newest self-signature's key flags
    expires: datetime | None = None  # by the newest self-signature's validity period
    signed: datetime | None = None  # that self-signature's time
    revoked: datetime | None = None

    def note(self, signature: SequoiaPacket) -> None:
        made = signature.signature_created
        if signature.signature_type in REVOCATIONS:
            self.revoked = made or self.revoked
            return
        if made is None or (self.signed is not None and made < self.signed):
            return
        flags = signature.key_flags
        if flags is not None:
            self.encrypts = flags.transport_encryption or flags.storage_encryption
        period = signature.key_validity_period
        self.expires = self.created + period if period and self.created else None
        self.signed = made


def _keys(cert: pysequoia.Cert) -> list[_Key]:
    """The primary key first, then every subkey, each with its own self-signatures."""
    keys: list[_Key] = []
    for packet in PacketPile.from_bytes(bytes(cert)):
        if packet.tag in (Tag.PublicKey, Tag.PublicSubkey):
            keys.append(
                _Key(
                    bytes.fromhex(packet.fingerprint or ""),
                    bytes.fromhex(packet.key_id or ""),
                    packet.body[0] if packet.body else 0,
                    packet.key_created,
                )
            )
        elif packet.tag == Tag.Signature and keys:
            primary = keys[0]
            issuer = packet.issuer_fingerprint or packet.issuer_key_id or ""
            if bytes.fromhex(issuer) in (primary.fingerprint, primary.key_id):
                keys[-1].note(packet)
    return keys


def _encryption_recipients(cert: pysequoia.Cert) -> set[bytes] | None:
    """The key ids or fingerprints Sequoia encrypts to for ``cert``; None if it will not.

    Sequoia takes every valid, unrevoked, encryption-capable key that is alive, and when
    none is alive falls back to the expired ones: the caller tells the two apart.
    """
    try:
        probe = pysequoia.encrypt(b"", [cert], armor=False)
    except SEQUOIA_ERRORS:
        return None
    return {recipient(packet) for packet in packets(probe) if packet.tag == PKESK}


def _day(moment: datetime) -> str:
    return moment.astimezone(UTC).date().isoformat()


def _why_no_encryption_key(keys: list[_Key]) -> str:
    marked = [key for key in keys if key.encrypts]
    if not marked:
        return "none is marked for encryption: it can only sign and certify"
    revoked = [key.revoked for key in marked if key.revoked is not None]
    if len(revoked) == len(marked):
        return f"revoked {_day(max(revoked))}"
    return "Sequoia's standard policy refuses its encryption keys (a weak algorithm or hash?)"


def public_key(text: str, now: datetime | None = None) -> PublicKey:
    """The operator's armored public key, usable for encryption at ``now``; raises
    OpenPGPError saying why not (signing only, expired, revoked, secret, malformed)."""
    try:
        binary = dearmor(text, PUBLIC_KEY)
    except OpenPGPError as error:
        raise OpenPGPError(f"not an armored OpenPGP public key: {error}") from None
    try:
        tags = [packet.tag for packet in PacketPile.from_bytes(binary)]
        certs = pysequoia.Cert.split_bytes(binary)
    except SEQUOIA_ERRORS as error:
        raise OpenPGPError(f"not an OpenPGP public key: {_first_line(error)}") from None
    if Tag.SecretKey in tags or Tag.SecretSubkey in tags:
        raise OpenPGPError("a secret key: give the public key only (gpg --armor --export)")
    if len(certs) != 1:
        raise OpenPGPError(f"expected one OpenPGP key, found {len(certs)}")
    cert = certs[0]
    keys = _keys(cert)
    version = keys[0].version
    if version not in (4, 6):
        raise OpenPGPError(f"a version {version} key: use a version 4 or 6 (RFC 9580) key")
    now = now or datetime.now(UTC)
    try:
        expires = cert.expiration
    except SEQUOIA_ERRORS as error:
        raise OpenPGPError(
            f"Sequoia's standard policy refuses the key's self-signature: {_first_line(error)}"
        ) from None
    if cert.is_revoked:
        when = keys[0].revoked
        raise OpenPGPError(f"{NO_ENCRYPTION_KEY} (revoked{f' {_day(when)}' if when else ''})")
    if expires is not None and expires <= now:
        raise OpenPGPError(f"{NO_ENCRYPTION_KEY} (expired {_day(expires)})")
    named = _encryption_recipients(cert)
    if named is None:
        raise OpenPGPError(f"{NO_ENCRYPTION_KEY} ({_why_no_encryption_key(keys)})")
    chosen = [key for key in keys if key.key_id in named or key.fingerprint in named]
    if not chosen:
        raise OpenPGPError(f"{NO_ENCRYPTION_KEY} (Sequoia encrypts to none of its keys)")
    # Sequoia judged at this moment, and takes expired keys when none is alive.
    alive = [key for key in chosen if key.expires is None or key.expires > now]
    if not alive:
        last = max(key.expires for key in chosen if key.expires is not None)
        raise OpenPGPError(f"{NO_ENCRYPTION_KEY} (expired {_day(last)})")
    return PublicKey(
        fingerprint=bytes.fromhex(cert.fingerprint),
        version=version,
        key_ids=frozenset(key.key_id for key in alive),
        fingerprints=frozenset(key.fingerprint for key in alive),
        binary=binary,
    )


def zbase32(data: bytes) -> str:
    bits = "".join(f"{byte:08b}" for byte in data)
    bits += "0" * (-len(bits) % 5)
    return "".join(ZBASE32[int(bits[i : i + 5], 2)] for i in range(0, len(bits), 5))


def wkd_hash(local_part: str) -> str:
    """The WKD file name of an address's local part: z-base-32 of SHA-1 of it, ASCII-lowercased."""
    lowered = "".join(ch.lower() if "A" <= ch <= "Z" else ch for ch in local_part)
    return zbase32(hashlib.sha1(lowered.encode()).digest())
