"""Just enough OpenPGP (RFC 9580) to check what the contact form relays, without a library.

- ``dearmor``: ASCII armor -> bytes (header and footer, optional armor headers, strict
  base64, the optional CRC24 checksum checked when present).
- ``packets``: the packet framing, old and new length formats, partial body lengths.
- ``encrypted_message``: a message is one or more public-key encrypted session keys
  (PKESK, tag 1) followed by one encrypted data packet (SEIPD, tag 18, or the LibrePGP
  AEAD packet, tag 20) and nothing else: no literal, compressed or signed plaintext.
- ``public_key``: the primary key's fingerprint and every key's id (v4: SHA-1 over
  0x99 ‖ 2-byte length ‖ body; v5: SHA-256 over 0x9A ‖ 4-byte length ‖ body; v6:
  SHA-256 over 0x9B ‖ 4-byte length ‖ body), and the binary key for the Web Key Directory.
- ``wkd_hash``: the z-base-32 SHA-1 of a local part (the WKD direct method's file name).

Nothing here decrypts: the server never has the operator's private key.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass

MESSAGE = "PGP MESSAGE"
PUBLIC_KEY = "PGP PUBLIC KEY BLOCK"

PKESK, SIGNATURE, SECRET_KEY, PUBLIC_KEY_PACKET = 1, 2, 5, 6
SECRET_SUBKEY, COMPRESSED, SYMMETRIC, MARKER, LITERAL = 7, 8, 9, 10, 11
TRUST, USER_ID, PUBLIC_SUBKEY, USER_ATTRIBUTE, SEIPD, AEAD, PADDING = 12, 13, 14, 17, 18, 20, 21
# Only these may be split into partial body lengths (RFC 9580, 4.2.1.4).
PARTIAL_ALLOWED = frozenset({COMPRESSED, SYMMETRIC, LITERAL, SEIPD, AEAD})
KEY_BLOCK_PACKETS = frozenset(
    {PUBLIC_KEY_PACKET, PUBLIC_SUBKEY, SIGNATURE, USER_ID, USER_ATTRIBUTE, TRUST, PADDING}
)

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
    version: int
    key_ids: frozenset[bytes]  # 8-byte ids of the primary key and every subkey
    fingerprints: frozenset[bytes]  # of the primary key and every subkey
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
    """Whether a session key of the message names one of ``key``'s keys."""
    for session in found:
        if session.tag != PKESK:
            continue
        named = recipient(session)
        if named in key.key_ids or named in key.fingerprints:
            return True
    return False


def _key_fingerprint(body: bytes) -> tuple[int, bytes, bytes]:
    """(version, fingerprint, key id) of a public key or subkey packet body."""
    if not body:
        raise OpenPGPError("empty public key packet")
    version = body[0]
    if version == 4:
        digest = hashlib.sha1(b"\x99" + len(body).to_bytes(2, "big") + body).digest()
        return version, digest, digest[-8:]
    if version == 5:
        digest = hashlib.sha256(b"\x9a" + len(body).to_bytes(4, "big") + body).digest()
        return version, digest, digest[:8]
    if version == 6:
        digest = hashlib.sha256(b"\x9b" + len(body).to_bytes(4, "big") + body).digest()
        return version, digest, digest[:8]
    raise OpenPGPError(f"unsupported public key version {version}")


def public_key(text: str) -> PublicKey:
    """The operator's armored public key: fingerprints, ids and the binary block."""
    binary = dearmor(text, PUBLIC_KEY)
    found = packets(binary)
    if found[0].tag != PUBLIC_KEY_PACKET:
        raise OpenPGPError(f"a public key block starts with tag 6, got tag {found[0].tag}")
    for packet in found:
        if packet.tag not in KEY_BLOCK_PACKETS:
            raise OpenPGPError(f"unexpected packet tag {packet.tag} in a public key block")
    version, primary, _ = _key_fingerprint(found[0].body)
    ids: set[bytes] = set()
    prints: set[bytes] = set()
    for packet in found:
        if packet.tag in (PUBLIC_KEY_PACKET, PUBLIC_SUBKEY):
            _, fingerprint, key_id = _key_fingerprint(packet.body)
            prints.add(fingerprint)
            ids.add(key_id)
    return PublicKey(primary, version, frozenset(ids), frozenset(prints), binary)


def zbase32(data: bytes) -> str:
    bits = "".join(f"{byte:08b}" for byte in data)
    bits += "0" * (-len(bits) % 5)
    return "".join(ZBASE32[int(bits[i : i + 5], 2)] for i in range(0, len(bits), 5))


def wkd_hash(local_part: str) -> str:
    """The WKD file name of an address's local part: z-base-32 of SHA-1 of it, ASCII-lowercased."""
    lowered = "".join(ch.lower() if "A" <= ch <= "Z" else ch for ch in local_part)
    return zbase32(hashlib.sha1(lowered.encode()).digest())
