"""The server's one configuration, validated at start.

Every documented setting can come from a TOML file named by ``TYSIAC_CONFIG`` (keys as
below, e.g. ``smtp_host = "mail.example.org"``) and from an environment variable
``TYSIAC_<KEY>`` (``TYSIAC_SMTP_HOST``), which wins over the file. With nothing set,
``make run`` serves the game on SQLite; the contact form then says it is not configured.
``python -m tysiac.server --check-config`` validates and prints the result (secrets masked).
"""

from __future__ import annotations

import os
import re
import tomllib
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit


def utc_now() -> datetime:
    return datetime.now(UTC)


class ConfigError(Exception):
    """Every problem found in the configuration, one per line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def _doc(text: str, secret: bool = False) -> dict[str, Any]:
    """Field metadata: only documented fields are read from the file and the environment."""
    return {"doc": text, "secret": secret}


PGP_PUBLIC_KEY_HEADER = "-----BEGIN PGP PUBLIC KEY BLOCK-----"
EMAIL = re.compile(r"^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$")


@dataclass(frozen=True)
class Settings:
    # Storage and scale-out.
    database_url: str = field(
        default="sqlite+aiosqlite:///tysiac.db",
        metadata=_doc("where games are kept: sqlite+aiosqlite:///file or postgresql+asyncpg://…"),
    )
    redis_url: str | None = field(
        default=None,
        metadata=_doc(
            "redis://host:port/db: updates and presence shared by several server processes"
        ),
    )
    public_url: str | None = field(
        default=None,
        metadata=_doc("the site's address, e.g. https://tysiac.example.org (game links, e-mail)"),
    )
    hashing_secret: str | None = field(
        default=None,
        metadata=_doc(
            "key of the IP and device hashes, 32+ characters; required with PostgreSQL; on"
            " SQLite by default one is made on first start and kept in a file beside the"
            " database (tysiac.db.key, mode 0600)",
            secret=True,
        ),
    )
    forwarded_allow_ips: str | None = field(
        default=None, metadata=_doc("reverse proxies trusted for X-Forwarded-For")
    )
    allowed_origins: tuple[str, ...] = field(
        default=(),
        metadata=_doc("extra page origins allowed to open game sockets, comma-separated"),
    )
    # Limits.
    max_games_per_ip: int = field(default=10, metadata=_doc("active games one address may create"))
    max_active_games: int = field(default=200, metadata=_doc("active games in the whole service"))
    max_waiting_games_per_ip: int = field(
        default=3, metadata=_doc("games one address may have waiting for players at once")
    )
    max_games_per_ip_per_hour: int = field(
        default=30, metadata=_doc("games (and rematches) one address may create in an hour")
    )
    max_connections_per_ip: int = field(
        default=100,
        metadata=_doc(
            "open connections (HTTP and WebSocket together) from one address; a trusted"
            " proxy (forwarded_allow_ips) is not counted"
        ),
    )
    max_sockets_per_seat: int = field(
        default=8, metadata=_doc("game sockets one player key may hold open at once")
    )
    request_timeout_seconds: float = field(
        default=10.0,
        metadata=_doc("time a client has to send a request's headers and body, and its hello"),
    )
    chat_per_minute: int = field(
        default=20, metadata=_doc("chat lines a minute from one seat, and from one address")
    )
    messages_per_second_per_ip: int = field(
        default=20,
        metadata=_doc("game messages a second from one address over all its sockets"),
    )
    stats_events_per_ip_per_day: int = field(
        default=40,
        metadata=_doc("game starts and ends a day from one address counted in the statistics"),
    )
    contact_per_day: int = field(
        default=5, metadata=_doc("contact-form messages a day from one address")
    )
    hand_pause_seconds: float = field(
        default=5.0, metadata=_doc("time to read a hand's result before the next deal")
    )
    # Who runs this copy: shown on the terms and privacy pages, receives the contact form.
    operator_name: str = field(
        default="Operator tej kopii serwisu (nie skonfigurowano)",
        metadata=_doc("who runs this copy (terms and privacy pages)"),
    )
    operator_address: str | None = field(default=None, metadata=_doc("the operator's address"))
    operator_email: str | None = field(
        default=None, metadata=_doc("the operator's e-mail: contact form, reports, daily stats")
    )
    operator_pgp_key_file: str | None = field(
        default=None,
        metadata=_doc("the operator's OpenPGP public key (armored .asc file) for the contact form"),
    )
    # Mail: the contact relay and the daily statistics.
    smtp_host: str | None = field(default=None, metadata=_doc("SMTP server for outgoing mail"))
    smtp_port: int = field(default=587, metadata=_doc("SMTP port"))
    smtp_security: str = field(
        default="starttls", metadata=_doc("starttls, tls (implicit, port 465) or none")
    )
    smtp_username: str | None = field(default=None, metadata=_doc("SMTP login"))
    smtp_password: str | None = field(default=None, metadata=_doc("SMTP password", secret=True))
    mail_from: str | None = field(
        default=None, metadata=_doc("sender address of outgoing mail (default: operator_email)")
    )
    stats_email: bool = field(
        default=False, metadata=_doc("e-mail the operator the daily statistics once a day")
    )

    # Derived at load time: the text of operator_pgp_key_file.
    operator_pgp_key: str | None = None
    sweep_seconds: float = 1.0
    # Test-only knobs: settable from code only, never from a client, a file or the environment.
    testing: bool = False
    test_move_seconds: float | None = None
    test_start_scores: tuple[int, ...] | None = None
    test_deck: tuple[str, ...] | None = None  # every hand dealt from this order
    clock: Callable[[], datetime] = field(default=utc_now)

    @property
    def contact_configured(self) -> bool:
        return bool(self.operator_email and self.operator_pgp_key and self.smtp_host)

    @property
    def sender(self) -> str | None:
        return self.mail_from or self.operator_email

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The file named by TYSIAC_CONFIG, then TYSIAC_* variables; raises ConfigError."""
        environ = os.environ if environ is None else environ
        values: dict[str, object] = {}
        problems: list[str] = []
        path = environ.get("TYSIAC_CONFIG")
        if path:
            try:
                with open(path, "rb") as file:
                    values.update(tomllib.load(file))
            except (OSError, tomllib.TOMLDecodeError) as error:
                raise ConfigError([f"TYSIAC_CONFIG={path}: {error}"]) from error
            for key in values:
                if key not in DOCUMENTED:
                    problems.append(f"{path}: unknown setting {key!r}")
        for key in DOCUMENTED:
            text = environ.get(f"TYSIAC_{key.upper()}")
            if text is not None and text != "":
                values[key] = text
        parsed: dict[str, Any] = {}
        for key, value in values.items():
            if key in DOCUMENTED:
                try:
                    parsed[key] = _parse(value, DOCUMENTED[key])
                except ValueError as error:
                    problems.append(f"{key} (TYSIAC_{key.upper()}): {error}")
        if problems:
            raise ConfigError(problems)
        return cls(**parsed).validated()

    def validated(self) -> Settings:
        """Checks that need several values or the file system; returns the loaded settings."""
        problems: list[str] = []

        def check(ok: bool, key: str, message: str) -> None:
            if not ok:
                problems.append(f"{key} (TYSIAC_{key.upper()}): {message}")

        scheme = urlsplit(self.database_url).scheme
        check(
            scheme in ("sqlite+aiosqlite", "postgresql+asyncpg"),
            "database_url",
            f"expected sqlite+aiosqlite:// or postgresql+asyncpg://, got {scheme or 'no'} scheme",
        )
        if scheme == "postgresql+asyncpg":
            check(
                self.hashing_secret is not None,
                "hashing_secret",
                "required with PostgreSQL: every server process must hash with the same key",
            )
        if self.redis_url is not None:
            check(
                urlsplit(self.redis_url).scheme in ("redis", "rediss"),
                "redis_url",
                "expected redis://host:port/db or rediss://…",
            )
        if self.public_url is not None:
            url = urlsplit(self.public_url)
            check(
                url.scheme in ("http", "https") and bool(url.netloc),
                "public_url",
                f"expected https://host, got {self.public_url!r}",
            )
        if self.hashing_secret is not None:
            check(len(self.hashing_secret) >= 32, "hashing_secret", "use 32 characters or more")
        for key in (
            "max_games_per_ip",
            "max_active_games",
            "max_waiting_games_per_ip",
            "max_games_per_ip_per_hour",
            "max_connections_per_ip",
            "max_sockets_per_seat",
            "chat_per_minute",
            "messages_per_second_per_ip",
            "stats_events_per_ip_per_day",
            "contact_per_day",
            "smtp_port",
        ):
            check(getattr(self, key) > 0, key, "must be a positive number")
        check(self.hand_pause_seconds >= 0, "hand_pause_seconds", "must not be negative")
        check(self.request_timeout_seconds > 0, "request_timeout_seconds", "must be positive")
        for key in ("operator_email", "mail_from"):
            value = getattr(self, key)
            if value is not None:
                check(bool(EMAIL.match(value)), key, f"not an e-mail address: {value!r}")
        check(
            self.smtp_security in ("starttls", "tls", "none"),
            "smtp_security",
            f"expected starttls, tls or none, got {self.smtp_security!r}",
        )
        if self.smtp_host is not None:
            check(self.sender is not None, "mail_from", "set it or operator_email to send mail")
        if self.stats_email:
            check(
                self.smtp_host is not None and self.operator_email is not None,
                "stats_email",
                "needs smtp_host and operator_email",
            )
        key_text = self.operator_pgp_key
        if self.operator_pgp_key_file is not None:
            try:
                key_text = Path(self.operator_pgp_key_file).read_text(encoding="ascii")
            except (OSError, UnicodeDecodeError) as error:
                problems.append(f"operator_pgp_key_file: cannot read it: {error}")
        if key_text is not None:
            check(
                PGP_PUBLIC_KEY_HEADER in key_text,
                "operator_pgp_key_file",
                "not an armored OpenPGP public key (-----BEGIN PGP PUBLIC KEY BLOCK-----)",
            )
        if problems:
            raise ConfigError(problems)
        return replace(self, operator_pgp_key=key_text)

    def describe(self) -> list[tuple[str, str]]:
        """Each documented setting and its value as text, secrets masked."""
        shown = []
        for key, f in DOCUMENTED.items():
            value = getattr(self, key)
            if f.metadata["secret"] and value is not None:
                text = "(set, hidden)"
            elif isinstance(value, tuple):
                text = ",".join(value)
            else:
                text = "" if value is None else str(value)
            shown.append((key, text))
        return shown


def _parse(value: object, spec: Any) -> object:
    """A file or environment value -> the field's type (str, int, float, bool, tuple)."""
    kind = typing.get_type_hints(Settings)[spec.name]
    optional = isinstance(kind, types.UnionType)
    if optional:
        kind = next(arg for arg in typing.get_args(kind) if arg is not type(None))
    if kind is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"expected true or false, got {value!r}")
    if kind is int or kind is float:
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise ValueError(f"expected a number, got {value!r}")
        try:
            return int(value) if kind is int else float(value)
        except (TypeError, ValueError):
            raise ValueError(f"expected a number, got {value!r}") from None
    if typing.get_origin(kind) is tuple:
        items = value if isinstance(value, list) else str(value).split(",")
        return tuple(str(item).strip() for item in items if str(item).strip())
    if not isinstance(value, str):
        raise ValueError(f"expected text, got {value!r}")
    text = value.strip()
    if spec.name == "public_url":
        text = text.rstrip("/")
    return text or (None if optional else text)


DOCUMENTED = {f.name: f for f in fields(Settings) if "doc" in f.metadata}
