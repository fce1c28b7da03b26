"""The real parts the contact tests need: GnuPG in a home of its own and an SMTP server.

Outside CI a missing ``gpg`` skips these tests; under CI (CI=true) it fails them.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import tempfile
import threading
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any, TypeVar

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

GPG = "gpg"
OPERATOR = "operator@example.org"
T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end in a thread of its own (the caller may be inside a loop,
    e.g. Playwright's in the browser tests)."""
    result: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(asyncio.run(coroutine))
        except BaseException as error:
            failure.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(60)
    if failure:
        raise failure[0]
    assert result, "the coroutine did not finish"
    return result[0]


def gpg_or_skip() -> str:
    found = shutil.which(GPG)
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("gpg is missing: `make test` installs Debian's gnupg")
        pytest.skip("GnuPG (gpg) is not installed (make test installs it)")
    return found


class GnuPG:
    """``gpg`` with a throwaway home: keys made on the spot, never the user's keyring."""

    def __init__(self) -> None:
        self.binary = gpg_or_skip()
        # Short path: gpg-agent's socket lives here and socket paths are limited.
        self.home = tempfile.mkdtemp(prefix="gpg-")

    def run(self, *args: str, data: bytes = b"") -> bytes:
        done = subprocess.run(
            [self.binary, "--batch", "--no-tty", "--homedir", self.home, *args],
            input=data,
            capture_output=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr.decode(errors="replace")
        return done.stdout

    def generate(
        self,
        address: str,
        *,
        encryption: bool = True,
        expires: str = "never",
        made: str | None = None,
    ) -> str:
        """An ed25519 key with a cv25519 encryption subkey, no passphrase: its fingerprint.

        ``encryption=False``: no subkey (a signing-only key). ``expires``: when the key and
        its subkey expire (``never``, or an ISO date); ``made``: the time GnuPG believes
        it is while making them (``20240101T000000``), so that a key can be expired now.
        """
        secretless = ("--pinentry-mode", "loopback", "--passphrase", "")
        when = ("--faked-system-time", made) if made else ()
        self.run(
            *secretless,
            *when,
            "--quick-gen-key",
            f"Test <{address}>",
            "ed25519",
            "cert,sign",
            expires,
        )
        fingerprint = self.fingerprint(address)
        if encryption:
            self.run(*secretless, *when, "--quick-add-key", fingerprint, "cv25519", "encr", expires)
        return fingerprint

    def revoke(self, address: str) -> None:
        """Revoke the key with the revocation certificate GnuPG made beside it."""
        fingerprint = self.fingerprint(address)
        certificate = Path(self.home, "openpgp-revocs.d", f"{fingerprint}.rev").read_text()
        # GnuPG guards the certificate against a careless import with a leading colon.
        self.run("--import", data=certificate.replace(":-----BEGIN", "-----BEGIN").encode())

    def fingerprint(self, address: str) -> str:
        """The primary key's fingerprint, as ``gpg --with-colons --fingerprint`` prints it."""
        listing = self.run("--with-colons", "--fingerprint", address).decode()
        return next(line.split(":")[9] for line in listing.splitlines() if line.startswith("fpr:"))

    def wkd_hash(self, address: str) -> str:
        listing = self.run("--with-wkd-hash", "--list-keys", address).decode()
        domain = address.rpartition("@")[2]
        hashed = next(
            line.strip()
            for line in listing.splitlines()
            if f"@{domain}" in line and "<" not in line
        )
        return hashed.partition("@")[0]

    def export(self, address: str, armored: bool = True) -> bytes:
        return self.run(*(["--armor"] if armored else []), "--export", address)

    def encrypt(self, text: bytes, *recipients: str) -> str:
        named = [arg for r in recipients for arg in ("--recipient", r)]
        return self.run(
            "--armor", "--trust-model", "always", "--encrypt", *named, data=text
        ).decode()

    def decrypt(self, armored: str | bytes) -> bytes:
        data = armored.encode() if isinstance(armored, str) else armored
        return self.run("--pinentry-mode", "loopback", "--passphrase", "", "--decrypt", data=data)

    def close(self) -> None:
        subprocess.run(
            ["gpgconf", "--homedir", self.home, "--kill", "all"], capture_output=True, check=False
        )
        shutil.rmtree(self.home, ignore_errors=True)


@contextmanager
def gnupg() -> Iterator[GnuPG]:
    keyring = GnuPG()
    try:
        yield keyring
    finally:
        keyring.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Received:
    sender: str
    recipients: list[str]
    message: EmailMessage


@dataclass
class MailSink:
    """An SMTP server (aiosmtpd) on 127.0.0.1: keeps every message, or refuses them all."""

    port: int = field(default_factory=free_port)
    refuse: bool = False
    received: list[Received] = field(default_factory=list)
    arrived: threading.Event = field(default_factory=threading.Event)

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        if self.refuse:
            return "554 5.7.1 Refused by the test"
        content = envelope.original_content or b""
        parsed = message_from_bytes(content, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        self.received.append(
            Received(str(envelope.mail_from), [str(r) for r in envelope.rcpt_tos], parsed)
        )
        self.arrived.set()
        return "250 OK"


@contextmanager
def mail_sink() -> Iterator[MailSink]:
    sink = MailSink()
    controller = Controller(sink, hostname="127.0.0.1", port=sink.port)
    controller.start()
    try:
        yield sink
    finally:
        controller.stop()


def encrypted_part(message: EmailMessage) -> str:
    """The armored OpenPGP message of an RFC 3156 multipart/encrypted mail."""
    assert message.get_content_type() == "multipart/encrypted"
    assert message.get_param("protocol") == "application/pgp-encrypted"
    control, data = message.iter_parts()
    assert control.get_content_type() == "application/pgp-encrypted"
    assert "Version: 1" in control.get_payload()
    assert data.get_content_type() == "application/octet-stream"
    payload = data.get_payload()
    assert isinstance(payload, str)
    return payload


def contact_settings(keys: GnuPG, port: int, **more: Any) -> dict[str, Any]:
    """Settings of a server whose contact form relays to ``port`` with OPERATOR's key."""
    return {
        "operator_email": OPERATOR,
        "operator_pgp_key": keys.export(OPERATOR).decode(),
        "smtp_host": "127.0.0.1",
        "smtp_port": port,
        "smtp_security": "none",
        "mail_from": "tysiac@example.org",
        **more,
    }
