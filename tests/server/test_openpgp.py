"""OpenPGP: the small reader of relayed messages (armor, CRC24, packet framing in every
length format, z-base-32) and the operator's key as Sequoia judges it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pysequoia
import pytest

from tysiac.server.contact import openpgp
from tysiac.server.contact.openpgp import OpenPGPError, Packet

from .contact_kit import GnuPG, gnupg

OPERATOR = "operator@example.org"
PARTS = "parts@example.org"


@pytest.fixture(scope="module")
def keys() -> Iterator[GnuPG]:
    with gnupg() as keyring:
        keyring.generate(OPERATOR)
        # Beside the encryption subkey that never expires, one that expires at the end of 2030.
        keyring.generate(PARTS)
        fingerprint = keyring.fingerprint(PARTS)
        secretless = ("--pinentry-mode", "loopback", "--passphrase", "")
        keyring.run(*secretless, "--quick-add-key", fingerprint, "cv25519", "encr", "2030-12-31")
        yield keyring


def subkeys(keys: GnuPG, address: str) -> dict[str, str]:
    """GnuPG's own listing: each encryption subkey's fingerprint -> its expiry (or "")."""
    found: dict[str, str] = {}
    expiry = None
    for line in keys.run("--with-colons", "--fingerprint", address).decode().splitlines():
        fields = line.split(":")
        if fields[0] == "sub":
            expiry = fields[6] if "e" in fields[11] else None
        elif fields[0] == "fpr" and expiry is not None:
            found[fields[9].lower()] = expiry
            expiry = None
    return found


def old(tag: int, body: bytes, size: int | None = None) -> bytes:
    """An old-format packet; ``size`` 1, 2 or 4 bytes of length, or None for indeterminate."""
    if size is None:
        return bytes([0x80 | tag << 2 | 3]) + body
    kind = {1: 0, 2: 1, 4: 2}[size]
    return bytes([0x80 | tag << 2 | kind]) + len(body).to_bytes(size, "big") + body


def length(n: int) -> bytes:
    """The shortest new-format definite length."""
    if n < 192:
        return bytes([n])
    if n < 8384:
        return bytes([((n - 192) >> 8) + 192, (n - 192) & 0xFF])
    return b"\xff" + n.to_bytes(4, "big")


def new(tag: int, body: bytes) -> bytes:
    return bytes([0xC0 | tag]) + length(len(body)) + body


def partial(tag: int, body: bytes, chunk_power: int = 9) -> bytes:
    """A new-format packet split into partial chunks of 2**chunk_power, then the rest."""
    chunk = 1 << chunk_power
    out = bytearray([0xC0 | tag])
    at = 0
    while len(body) - at > chunk:
        out += bytes([224 + chunk_power]) + body[at : at + chunk]
        at += chunk
    rest = body[at:]
    return bytes(out + length(len(rest)) + rest)


PKESK_V3 = bytes([3]) + bytes.fromhex("abdbeb48b70df469") + bytes([18]) + b"\x01" * 20
PKESK_V6 = bytes([6, 33, 6]) + b"\x02" * 32 + bytes([25]) + b"\x03" * 20
SEIPD_V1 = bytes([1]) + b"\x04" * 600


def armored(data: bytes) -> str:
    return openpgp.armor(openpgp.MESSAGE, data)


def test_crc24_of_known_data() -> None:
    # RFC 9580's CRC-24 of the empty string is its initial value.
    assert openpgp.crc24(b"") == 0xB704CE
    # Computed with GnuPG's armor for the bytes "abc".
    assert openpgp.crc24(b"abc") == 0xBA1C7B


@pytest.mark.parametrize("size", [1, 2, 4, None])
def test_old_format_lengths(size: int | None) -> None:
    # Old-format tags have four bits: tag 9 (symmetrically encrypted data) fits, 18 does not.
    data = old(1, PKESK_V3, 1) + old(9, SEIPD_V1, size if size != 1 else 2)
    assert openpgp.packets(data) == [Packet(1, PKESK_V3), Packet(9, SEIPD_V1)]
    if size is not None:
        assert openpgp.packets(old(1, PKESK_V3, size)) == [Packet(1, PKESK_V3)]


@pytest.mark.parametrize("length", [0, 191, 192, 8383, 8384, 70000])
def test_new_format_lengths(length: int) -> None:
    body = bytes([1]) + b"\x05" * length
    assert openpgp.packets(new(18, body)) == [Packet(18, body)]


def test_partial_lengths_join_into_one_packet() -> None:
    body = bytes([1]) + bytes(range(256)) * 5
    data = new(1, PKESK_V6) + partial(18, body)
    assert openpgp.encrypted_message(armored(data)) == [Packet(1, PKESK_V6), Packet(18, body)]


def test_partial_lengths_only_for_data_packets() -> None:
    with pytest.raises(OpenPGPError, match="partial"):
        openpgp.packets(partial(1, b"\x03" * 600))


@pytest.mark.parametrize(
    "data",
    [
        b"\x00\x01",  # no packet bit
        new(18, SEIPD_V1)[:-1],  # body cut short
        bytes([0xC0 | 18, 0xFF, 0, 0]),  # four-byte length cut short
        bytes([0xC0 | 18, 200]),  # two-byte length cut short
        bytes([0xC0 | 18]),  # no length at all
        old(18, SEIPD_V1, 4)[:3],  # old-format length cut short
        new(0, b"x"),  # reserved tag
    ],
)
def test_malformed_framing(data: bytes) -> None:
    with pytest.raises(OpenPGPError):
        openpgp.packets(data)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (new(18, SEIPD_V1), "session keys"),
        (new(1, PKESK_V3), "encrypted data"),
        (new(1, PKESK_V3) + new(11, b"b\x00\x00\x00\x00\x00hi"), "encrypted data"),
        (new(11, b"b\x00\x00\x00\x00\x00hi"), "encrypted data"),
        (new(3, b"\x04\x09\x03") + new(11, b"b\x00\x00\x00\x00\x00hi"), "encrypted data"),
        (new(3, b"\x04\x09\x03") + new(18, SEIPD_V1), "session keys"),
        (new(1, PKESK_V3) + new(18, SEIPD_V1) + new(2, b"\x04"), "encrypted data"),
        (new(1, bytes([5]) + PKESK_V3[1:]) + new(18, SEIPD_V1), "version"),
        (new(1, PKESK_V3[:5]) + new(18, SEIPD_V1), "truncated"),
        (new(1, PKESK_V3) + new(18, bytes([7]) + SEIPD_V1[1:]), "version"),
    ],
)
def test_only_session_keys_then_encrypted_data(data: bytes, reason: str) -> None:
    with pytest.raises(OpenPGPError, match=reason):
        openpgp.encrypted_message(armored(data))


def test_armor_rules() -> None:
    data = new(1, PKESK_V3) + new(18, SEIPD_V1)
    text = armored(data)
    assert openpgp.dearmor(text, openpgp.MESSAGE) == data
    # Armor headers, CRLF line ends and no checksum are all fine.
    lines = text.strip().split("\n")
    with_headers = [lines[0], "Comment: hello", "Version: Test 1.0", *lines[1:]]
    assert openpgp.dearmor("\r\n".join(with_headers), openpgp.MESSAGE) == data
    no_checksum = [line for line in lines if not line.startswith("=")]
    assert openpgp.dearmor("\n".join(no_checksum), openpgp.MESSAGE) == data
    bad = {
        "wrong kind": text.replace("PGP MESSAGE", "PGP SIGNATURE"),
        "no footer": "\n".join(lines[:-1]),
        "no blank line": "\n".join([lines[0], *lines[2:]]),
        "bad header": "\n".join([lines[0], "not a header", *lines[1:]]),
        "bad checksum": "\n".join([*lines[:-2], "=AAAA", lines[-1]]),
        "short checksum": "\n".join([*lines[:-2], "=AA==", lines[-1]]),
        "not base64": "\n".join([*lines[:2], "!!!!", *lines[2:]]),
        "empty": "\n".join([lines[0], "", lines[-1]]),
    }
    for name, broken in bad.items():
        with pytest.raises(OpenPGPError):
            openpgp.dearmor(broken, openpgp.MESSAGE)
            pytest.fail(name)


def test_recipients_of_v3_and_v6_session_keys() -> None:
    assert openpgp.recipient(Packet(1, PKESK_V3)) == bytes.fromhex("abdbeb48b70df469")
    assert openpgp.recipient(Packet(1, PKESK_V6)) == b"\x02" * 32
    anonymous = bytes([6, 0, 25]) + b"\x03" * 20
    assert openpgp.recipient(Packet(1, anonymous)) == b""


# RFC 9580, appendix A.3: the sample version 6 certificate (Ed25519 key, X25519 subkey).
RFC9580_V6_CERTIFICATE = """\
-----BEGIN PGP PUBLIC KEY BLOCK-----

xioGY4d/4xsAAAAg+U2nu0jWCmHlZ3BqZYfQMxmZu52JGggkLq2EVD34laPCsQYf
GwoAAABCBYJjh3/jAwsJBwUVCg4IDAIWAAKbAwIeCSIhBssYbE8GCaaX5NUt+mxy
KwwfHifBilZwj2Ul7Ce62azJBScJAgcCAAAAAK0oIBA+LX0ifsDm185Ecds2v8lw
gyU2kCcUmKfvBXbAf6rhRYWzuQOwEn7E/aLwIwRaLsdry0+VcallHhSu4RN6HWaE
QsiPlR4zxP/TP7mhfVEe7XWPxtnMUMtf15OyA51YBM4qBmOHf+MZAAAAIIaTJINn
+eUBXbki+PSAld2nhJh/LVmFsS+60WyvXkQ1wpsGGBsKAAAALAWCY4d/4wKbDCIh
BssYbE8GCaaX5NUt+mxyKwwfHifBilZwj2Ul7Ce62azJAAAAAAQBIKbpGG2dWTX8
j+VjFM21J0hqWlEg+bdiojWnKfA5AQpWUWtnNwDEM0g12vYxoWM8Y81W+bHBw805
I8kWVkXU6vFOi+HWvv/ira7ofJu16NnoUkhclkUrk0mXubZvyl4GBg==
-----END PGP PUBLIC KEY BLOCK-----
"""


def test_v6_fingerprints_of_the_rfc_sample_certificate() -> None:
    key = openpgp.public_key(RFC9580_V6_CERTIFICATE)
    primary = "CB186C4F0609A697E4D52DFA6C722B0C1F1E27C18A56708F6525EC27BAD9ACC9"
    subkey = "12C83F1E706F6308FE151A417743A1F033790E93E9978488D1DB378DA9930885"
    assert key.version == 6
    assert key.fingerprint.hex().upper() == primary
    # Only the X25519 subkey encrypts: a message must name it, not the signing key.
    assert key.fingerprints == {bytes.fromhex(subkey)}
    assert key.key_ids == {bytes.fromhex(subkey)[:8]}
    assert (
        key.fingerprint_text
        == "CB18 6C4F 0609 A697 E4D5 2DFA 6C72 2B0C 1F1E 27C1 8A56 708F 6525 EC27 BAD9 ACC9"
    )
    # A v6 session key names the subkey by its fingerprint.
    session = Packet(1, bytes([6, 33, 6]) + bytes.fromhex(subkey) + bytes([25]) + b"\x03" * 20)
    assert openpgp.addressed_to([session], key)
    to_primary = Packet(1, bytes([6, 33, 6]) + bytes.fromhex(primary) + bytes([25]) + b"\x03" * 20)
    assert not openpgp.addressed_to([to_primary], key)


def test_a_v6_key_made_by_sequoia() -> None:
    secret = pysequoia.Tsk.generate("V6 <v6@example.org>", profile=pysequoia.Profile.RFC9580)
    cert = secret.extract_certificate()
    key = openpgp.public_key(pysequoia.armor(bytes(cert), pysequoia.ArmorKind.PublicKey))
    assert key.version == 6 and key.fingerprint.hex() == cert.fingerprint
    assert len(key.fingerprints) == 1 and key.fingerprint not in key.fingerprints


def test_the_encryption_subkeys_are_the_ones_gnupg_lists(keys: GnuPG) -> None:
    for address in (OPERATOR, PARTS):
        key = openpgp.public_key(keys.export(address).decode())
        listed = subkeys(keys, address)
        assert {fingerprint.hex() for fingerprint in key.fingerprints} == set(listed)
        assert {fingerprint[-8:] for fingerprint in key.fingerprints} == key.key_ids  # v4
        assert key.fingerprint.hex().upper() == keys.fingerprint(address)
        assert key.binary == keys.export(address, armored=False)
    # GnuPG encrypts to the newest encryption subkey: the relay accepts it.
    armored = keys.encrypt(b"hello", PARTS)
    key = openpgp.public_key(keys.export(PARTS).decode())
    assert openpgp.addressed_to(openpgp.encrypted_message(armored), key)


def test_a_subkey_expired_at_the_time_asked_does_not_count(keys: GnuPG) -> None:
    text = keys.export(PARTS).decode()
    listed = subkeys(keys, PARTS)
    lasting = {bytes.fromhex(fingerprint) for fingerprint, expiry in listed.items() if not expiry}
    assert len(openpgp.public_key(text).fingerprints) == 2
    # In 2031 only the subkey that never expires may be encrypted to.
    later = openpgp.public_key(text, now=datetime(2031, 6, 1, tzinfo=UTC))
    assert later.fingerprints == lasting and len(lasting) == 1


def test_a_key_block_must_be_one_public_key(keys: GnuPG) -> None:
    body = bytes([4, 0, 0, 0, 0, 22]) + b"\x01" * 10
    for broken in (new(5, body), new(6, body) + new(7, body)):
        with pytest.raises(OpenPGPError, match="not an OpenPGP public key"):
            openpgp.public_key(openpgp.armor(openpgp.PUBLIC_KEY, broken))
    with pytest.raises(OpenPGPError, match="not an armored OpenPGP public key"):
        openpgp.public_key("hello")
    with pytest.raises(OpenPGPError, match="not an armored OpenPGP public key"):
        openpgp.public_key(keys.export(OPERATOR).decode().replace("PUBLIC KEY", "MESSAGE"))
    secret = keys.run(
        *("--armor", "--pinentry-mode", "loopback", "--passphrase", ""),
        *("--export-secret-keys", OPERATOR),
    ).decode()
    with pytest.raises(OpenPGPError, match="a secret key"):
        openpgp.public_key(secret.replace("PRIVATE KEY BLOCK", "PUBLIC KEY BLOCK"))


def test_zbase32() -> None:
    assert openpgp.zbase32(b"") == ""
    assert openpgp.zbase32(b"\x00") == "yy"
    assert openpgp.zbase32(b"\xff" * 5) == "99999999"
    assert openpgp.wkd_hash("Joe.Doe") == "iy9q119eutrkn8s1mk4r39qejnbu3n5q"
    assert openpgp.wkd_hash("joe.doe") == openpgp.wkd_hash("JOE.DOE")
