"""The server's one configuration, validated at start (pydantic-settings).

Longer than most modules: ``OperatorSettings`` is the one list of every setting, each
with its checks and the ``description`` that the settings table of docs/operating.md
is checked against.

pydantic-settings reads an operator's settings from ``TYSIAC_<KEY>`` variables
(``TYSIAC_SMTP_HOST``) and from the TOML file named by ``TYSIAC_CONFIG`` (``smtp_host =
"mail.example.org"``); a variable wins over the file. With nothing set, ``make run``
serves the game on SQLite. ``Settings`` adds the fields only code sets and takes its
keyword arguments and the defaults, nothing else (the tests); ``Settings.from_env`` is
the operator's settings, or a ``ConfigError`` with one line per problem
(``config_errors``). The key file is checked by ``contact.operator_key`` at start.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Annotated, Literal, Self, get_args
from urllib.parse import urlsplit

from pydantic import (
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from tysiac.server.config_errors import ENV_PREFIX, TOGETHER, problems

CONFIG = f"{ENV_PREFIX}CONFIG"  # the variable naming the TOML file
EMAIL = re.compile(r"^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$")
DATABASE_SCHEMES = ("sqlite+aiosqlite", "postgresql+asyncpg")


class ConfigError(Exception):
    """Every problem found in the configuration, one per line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def config_file() -> str | None:
    """The TOML file TYSIAC_CONFIG names; unset or empty: none."""
    return os.environ.get(CONFIG) or None


class OperatorSettings(BaseSettings):
    """Every setting an operator can make: TYSIAC_* variables over the TOML file."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_ignore_empty=True,
        extra="forbid",
        frozen=True,
    )

    # Storage and scale-out.
    database_url: str = Field(
        default="sqlite+aiosqlite:///tysiac.db",
        description="where games are kept",
    )
    redis_url: str | None = Field(
        default=None,
        description="redis://host:port/db: updates and presence shared by several server processes",
    )
    public_url: str | None = Field(default=None, description="the site's address, for game links")
    hashing_secret: SecretStr | None = Field(
        default=None, description="key of the IP and device hashes, 32+ characters"
    )
    forwarded_allow_ips: str | None = Field(
        default=None, description="reverse proxies trusted for X-Forwarded-For"
    )
    # From the environment comma-separated, in the file a list of strings.
    allowed_origins: Annotated[tuple[str, ...], NoDecode] = Field(
        default=(), description="extra page origins allowed to open game sockets"
    )
    # Limits.
    max_games_per_ip: int = Field(
        default=10, gt=0, description="active games one address may create"
    )
    max_active_games: int = Field(
        default=200, gt=0, description="active games in the whole service"
    )
    max_waiting_games_per_ip: int = Field(
        default=3, gt=0, description="games one address may have waiting for players at once"
    )
    max_games_per_ip_per_hour: int = Field(
        default=30, gt=0, description="games (and rematches) one address may create in an hour"
    )
    max_connections_per_ip: int = Field(
        default=100,
        gt=0,
        description="open connections from one address, HTTP and WebSocket together",
    )
    max_sockets_per_seat: int = Field(
        default=8, gt=0, description="game sockets one player key may hold open at once"
    )
    request_timeout_seconds: float = Field(
        default=10.0, gt=0, description="time a client has to send a request's headers and body"
    )
    chat_per_minute: int = Field(
        default=20, gt=0, description="chat lines a minute from one seat, and from one address"
    )
    messages_per_second_per_ip: int = Field(
        default=20, gt=0, description="game messages a second from one address"
    )
    stats_events_per_ip_per_day: int = Field(
        default=40,
        gt=0,
        description="game starts and ends a day from the games of one address that the"
        " statistics count",
    )
    contact_per_day: int = Field(
        default=5, gt=0, description="contact-form messages a day from one address"
    )
    hand_pause_seconds: float = Field(
        default=5.0, ge=0, description="time to read a hand's result before the next deal"
    )
    bot_workers: int = Field(
        default=1, ge=1, le=16, description="processes the strong computer players search in"
    )
    bot_pause_seconds: float = Field(
        default=1.2,
        ge=0,
        description="a computer player's pause before its move, ±⅓ (a third of it when"
        " only one move is legal)",
    )
    review_workers: int = Field(
        default=1, ge=1, le=16, description="processes finished games' deals are analysed in"
    )
    retention_seconds: float = Field(
        default=60.0,
        ge=0,
        le=3600,
        description="how often each process forgets what is past its keeping time (ended"
        " games after 7 days, moderation records, daily counts); 0: every sweep",
    )
    review_queue: int = Field(
        default=20,
        gt=0,
        description="analyses of deals queued or running at once in the whole server"
        " (2 per address)",
    )
    review_requests_per_minute: int = Field(
        default=60,
        gt=0,
        description="requests a minute from one address for game records, reviews and analyses",
    )
    # Who runs this copy: shown on the terms and privacy pages, receives the contact form.
    operator_name: str | None = Field(default=None, description="who runs this copy")
    operator_address: str | None = Field(default=None, description="the operator's postal address")
    operator_email: str | None = Field(
        default=None, description="the operator's e-mail: contact form, reports, daily stats"
    )
    operator_pgp_key_file: str | None = Field(
        default=None,
        description="the operator's OpenPGP public key (armored .asc file) for the contact form",
    )
    # Mail: the contact relay and the daily statistics.
    smtp_host: str | None = Field(default=None, description="SMTP server for outgoing mail")
    smtp_port: int = Field(default=587, gt=0, description="SMTP port")
    smtp_security: Literal["starttls", "tls", "none"] = Field(
        default="starttls", description="starttls, tls (implicit, port 465) or none"
    )
    smtp_username: str | None = Field(default=None, description="SMTP login")
    smtp_password: SecretStr | None = Field(default=None, description="SMTP password")
    mail_from: str | None = Field(default=None, description="sender address of outgoing mail")
    stats_email: bool = Field(
        default=False, description="e-mail the operator the daily statistics once a day"
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """The variables first, then the file (a key that is no field is refused)."""
        file = TomlConfigSettingsSource(settings_cls, toml_file=config_file())
        return (init_settings, env_settings, file)

    @property
    def sender(self) -> str | None:
        return self.mail_from or self.operator_email

    def describe(self) -> list[tuple[str, str]]:
        """Each documented setting and its value as text, secrets masked."""
        shown = []
        for key in DOCUMENTED:
            value = getattr(self, key)
            if isinstance(value, SecretStr):
                text = "(set, hidden)"
            elif isinstance(value, tuple):
                text = ",".join(value)
            else:
                text = "" if value is None else str(value)
            shown.append((key, text))
        return shown

    # One setting at a time.

    @field_validator("*", mode="before")
    @classmethod
    def _trimmed(cls, value: object, info: ValidationInfo) -> object:
        """An operator's text without surrounding blanks; blank text is an unset optional
        setting. What code sets (the key's text) is kept as given."""
        if not isinstance(value, str) or info.field_name not in DOCUMENTED:
            return value
        text = value.strip()
        optional = info.field_name is not None and cls.model_fields[info.field_name].default is None
        return None if optional and not text else text

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        items = value.split(",") if isinstance(value, str) else value
        if isinstance(items, list | tuple):
            return tuple(item.strip() if isinstance(item, str) else item for item in items)
        return items

    @field_validator("allowed_origins")
    @classmethod
    def _no_blank_origins(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(item for item in value if item)

    @field_validator("database_url")
    @classmethod
    def _database(cls, value: str) -> str:
        scheme = urlsplit(value).scheme
        if scheme not in DATABASE_SCHEMES:
            raise ValueError(
                "expected sqlite+aiosqlite:// or postgresql+asyncpg://,"
                f" got {scheme or 'no'} scheme"
            )
        return value

    @field_validator("redis_url")
    @classmethod
    def _redis(cls, value: str | None) -> str | None:
        if value is not None and urlsplit(value).scheme not in ("redis", "rediss"):
            raise ValueError("expected redis://host:port/db or rediss://…")
        return value

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.rstrip("/")
        url = urlsplit(value)
        if url.scheme not in ("http", "https") or not url.netloc:
            raise ValueError(f"expected https://host, got {value!r}")
        return value

    @field_validator("hashing_secret")
    @classmethod
    def _long_enough(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value()) < 32:
            raise ValueError("use 32 characters or more")
        return value

    @field_validator("operator_email", "mail_from")
    @classmethod
    def _email(cls, value: str | None) -> str | None:
        if value is not None and not EMAIL.match(value):
            raise ValueError(f"not an e-mail address: {value!r}")
        return value

    # Several settings together: one validator, every problem at once.

    @model_validator(mode="after")
    def _together(self) -> Self:
        found: list[tuple[str, str]] = []
        postgresql = urlsplit(self.database_url).scheme == "postgresql+asyncpg"
        if postgresql and self.hashing_secret is None:
            found.append(
                (
                    "hashing_secret",
                    "required with PostgreSQL: every server process must hash with the same key",
                )
            )
        if self.smtp_host is not None and self.sender is None:
            found.append(("mail_from", "set it or operator_email to send mail"))
        if self.stats_email and (self.smtp_host is None or self.operator_email is None):
            found.append(("stats_email", "needs smtp_host and operator_email"))
        if found:
            raise PydanticCustomError(
                TOGETHER,
                "{summary}",
                {"summary": "; ".join(map(": ".join, found)), "problems": found},
            )
        return self


class Settings(OperatorSettings):
    """The operator's settings and the fields only code sets, from keyword arguments."""

    # The text of the operator's key: read from operator_pgp_key_file at start
    # (contact.operator_key), or given by code (the contact tests).
    operator_pgp_key: str | None = None
    sweep_seconds: float = 1.0

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Keyword arguments only: the environment and the file are ``from_env``'s."""
        return (init_settings,)

    @classmethod
    def from_env(cls) -> Settings:
        """The operator's settings (``OperatorSettings``); raises ConfigError."""
        path = config_file()
        if path is not None and not Path(path).is_file():
            raise ConfigError([f"{CONFIG}={path}: no such file"])
        try:
            operator = OperatorSettings()
        except (OSError, tomllib.TOMLDecodeError) as error:
            raise ConfigError([f"{CONFIG}={path}: {error}"]) from error
        except ValidationError as error:
            raise ConfigError(problems(error, SECRETS, path)) from None
        return cls(**dict(operator))

    @property
    def contact_configured(self) -> bool:
        return bool(self.operator_email and self.operator_pgp_key and self.smtp_host)


DOCUMENTED: dict[str, FieldInfo] = dict(OperatorSettings.model_fields)
SECRETS = frozenset(
    name for name, field in DOCUMENTED.items() if SecretStr in get_args(field.annotation)
)
