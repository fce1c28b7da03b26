"""The server's one configuration, validated at start (pydantic-settings).

Every documented setting (a field of ``Settings`` with a ``description``) can come from
a TOML file named by ``TYSIAC_CONFIG`` (keys as below, e.g. ``smtp_host =
"mail.example.org"``) and from an environment variable ``TYSIAC_<KEY>``
(``TYSIAC_SMTP_HOST``), which wins over the file. With nothing set, ``make run`` serves
the game on SQLite; the contact form then says it is not configured.
``python -m tysiac.server --check-config`` validates and prints the result (secrets
masked).

Only ``Settings.from_env`` reads the environment and the file. ``Settings(...)`` with
keyword arguments (the tests, the harness) takes those and the defaults, nothing else;
the fields without a description (``sweep_seconds`` and the key's text) can only be set
that way. The clock and the dealing are not settings: they are handed to ``create_app``.

Longer than most modules here on purpose: it is the one list of every setting, with the
description the README table is checked against, and the checks that need several.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, Self, get_args
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
from pydantic_core import ErrorDetails, PydanticCustomError
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from tysiac.server.contact.openpgp import OpenPGPError, public_key

ENV_PREFIX = "TYSIAC_"
EMAIL = re.compile(r"^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$")
DATABASE_SCHEMES = ("sqlite+aiosqlite", "postgresql+asyncpg")
TOGETHER = "settings_together"  # the error type of the checks that need several settings


class ConfigError(Exception):
    """Every problem found in the configuration, one per line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_ignore_empty=True,
        extra="forbid",
        frozen=True,
    )

    # Storage and scale-out.
    database_url: str = Field(
        "sqlite+aiosqlite:///tysiac.db",
        description="where games are kept",
    )
    redis_url: str | None = Field(
        None,
        description="redis://host:port/db: updates and presence shared by several server processes",
    )
    public_url: str | None = Field(None, description="the site's address, for game links")
    hashing_secret: SecretStr | None = Field(
        None, description="key of the IP and device hashes, 32+ characters"
    )
    forwarded_allow_ips: str | None = Field(
        None, description="reverse proxies trusted for X-Forwarded-For"
    )
    # From the environment comma-separated, in the file a list of strings.
    allowed_origins: Annotated[tuple[str, ...], NoDecode] = Field(
        (), description="extra page origins allowed to open game sockets"
    )
    # Limits.
    max_games_per_ip: int = Field(10, gt=0, description="active games one address may create")
    max_active_games: int = Field(200, gt=0, description="active games in the whole service")
    max_waiting_games_per_ip: int = Field(
        3, gt=0, description="games one address may have waiting for players at once"
    )
    max_games_per_ip_per_hour: int = Field(
        30, gt=0, description="games (and rematches) one address may create in an hour"
    )
    max_connections_per_ip: int = Field(
        100, gt=0, description="open connections from one address, HTTP and WebSocket together"
    )
    max_sockets_per_seat: int = Field(
        8, gt=0, description="game sockets one player key may hold open at once"
    )
    request_timeout_seconds: float = Field(
        10.0, gt=0, description="time a client has to send a request's headers and body"
    )
    chat_per_minute: int = Field(
        20, gt=0, description="chat lines a minute from one seat, and from one address"
    )
    messages_per_second_per_ip: int = Field(
        20, gt=0, description="game messages a second from one address"
    )
    stats_events_per_ip_per_day: int = Field(
        40,
        gt=0,
        description="game starts and ends a day from the games of one address that the"
        " statistics count",
    )
    contact_per_day: int = Field(
        5, gt=0, description="contact-form messages a day from one address"
    )
    hand_pause_seconds: float = Field(
        5.0, ge=0, description="time to read a hand's result before the next deal"
    )
    bot_workers: int = Field(
        1, ge=1, le=16, description="processes the strong computer players search in"
    )
    bot_pause_seconds: float = Field(
        1.2,
        ge=0,
        description="a computer player's pause before its move, ±⅓ (a third of it when"
        " only one move is legal)",
    )
    # Who runs this copy: shown on the terms and privacy pages, receives the contact form.
    operator_name: str = Field(
        "Operator tej kopii serwisu (nie skonfigurowano)", description="who runs this copy"
    )
    operator_address: str | None = Field(None, description="the operator's postal address")
    operator_email: str | None = Field(
        None, description="the operator's e-mail: contact form, reports, daily stats"
    )
    operator_pgp_key_file: str | None = Field(
        None,
        description="the operator's OpenPGP public key (armored .asc file) for the contact form",
    )
    # Mail: the contact relay and the daily statistics.
    smtp_host: str | None = Field(None, description="SMTP server for outgoing mail")
    smtp_port: int = Field(587, gt=0, description="SMTP port")
    smtp_security: Literal["starttls", "tls", "none"] = Field(
        "starttls", description="starttls, tls (implicit, port 465) or none"
    )
    smtp_username: str | None = Field(None, description="SMTP login")
    smtp_password: SecretStr | None = Field(None, description="SMTP password")
    mail_from: str | None = Field(None, description="sender address of outgoing mail")
    stats_email: bool = Field(
        False, description="e-mail the operator the daily statistics once a day"
    )

    # Code only (no description: never from the file or the environment).
    # The text of operator_pgp_key_file, read and checked at load time; code may give
    # the text itself (the contact tests), which is then checked when used.
    operator_pgp_key: str | None = Field(None, validate_default=True)
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
        """Keyword arguments only: ``from_env`` reads the environment and the file."""
        return (init_settings,)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The file named by TYSIAC_CONFIG, then TYSIAC_* variables; raises ConfigError."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        problems: list[str] = []
        path = environ.get(f"{ENV_PREFIX}CONFIG")
        if path:
            if not Path(path).is_file():
                raise ConfigError([f"{ENV_PREFIX}CONFIG={path}: no such file"])
            try:
                file = ConfigFile(cls, Path(path))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
                raise ConfigError([f"{ENV_PREFIX}CONFIG={path}: {error}"]) from error
            values.update(file())
            problems += [f"{path}: unknown setting {key!r}" for key in file.unknown]
        values.update(Environment(cls, environ)())
        try:
            settings = cls(**values)
        except ValidationError as error:
            raise ConfigError(problems + _problems(error)) from None
        if problems:
            raise ConfigError(problems)
        return settings

    @property
    def contact_configured(self) -> bool:
        return bool(self.operator_email and self.operator_pgp_key and self.smtp_host)

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

    @field_validator(
        "database_url",
        "operator_name",
        "redis_url",
        "public_url",
        "hashing_secret",
        "forwarded_allow_ips",
        "operator_address",
        "operator_email",
        "operator_pgp_key_file",
        "smtp_host",
        "smtp_username",
        "smtp_password",
        "mail_from",
        mode="before",
    )
    @classmethod
    def _trimmed(cls, value: object, info: ValidationInfo) -> object:
        """Text without surrounding blanks; blank text is an unset optional setting."""
        if not isinstance(value, str):
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

    @field_validator("operator_pgp_key")
    @classmethod
    def _key_file(cls, text: str | None, info: ValidationInfo) -> str | None:
        """The key file's text (UTF-8: armor headers may hold any letters), when one is
        set: a public key that can encrypt now, as ``openpgp.public_key`` checks it."""
        path = info.data.get("operator_pgp_key_file")
        if path is None:
            return text
        try:
            text = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ValueError(
                "not UTF-8 text: expected an armored key (gpg --armor --export)"
            ) from None
        except OSError as error:
            raise ValueError(f"cannot read it: {error}") from None
        try:
            public_key(text)
        except OpenPGPError as error:
            raise ValueError(str(error)) from None
        return text

    # Several settings together: one validator, every problem at once.

    @model_validator(mode="after")
    def _together(self) -> Self:
        problems: list[tuple[str, str]] = []
        postgresql = urlsplit(self.database_url).scheme == "postgresql+asyncpg"
        if postgresql and self.hashing_secret is None:
            problems.append(
                (
                    "hashing_secret",
                    "required with PostgreSQL: every server process must hash with the same key",
                )
            )
        if self.smtp_host is not None and self.sender is None:
            problems.append(("mail_from", "set it or operator_email to send mail"))
        if self.stats_email and (self.smtp_host is None or self.operator_email is None):
            problems.append(("stats_email", "needs smtp_host and operator_email"))
        if problems:
            raise PydanticCustomError(
                TOGETHER,
                "{summary}",
                {"summary": "; ".join(map(": ".join, problems)), "problems": problems},
            )
        return self


DOCUMENTED: dict[str, FieldInfo] = {
    name: field for name, field in Settings.model_fields.items() if field.description
}
SECRETS = frozenset(
    name for name, field in DOCUMENTED.items() if SecretStr in get_args(field.annotation)
)
# Where a problem of a code-only field comes from.
REPORTED_AS = {"operator_pgp_key": "operator_pgp_key_file"}


class Environment(EnvSettingsSource):
    """The TYSIAC_* variables of ``environ`` (not necessarily ``os.environ``) for the
    documented settings; ``allowed_origins`` is comma-separated text (NoDecode)."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        self.environ = environ
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return {
            name if self.case_sensitive else name.lower(): value
            for name, value in self.environ.items()
            if name.upper().startswith(ENV_PREFIX) and not (self.env_ignore_empty and not value)
        }

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        if field_name not in DOCUMENTED:
            return None, field_name, False
        return super().get_field_value(field, field_name)


class ConfigFile(TomlConfigSettingsSource):
    """The TOML file's documented settings; ``unknown`` are its other keys (refused)."""

    def __init__(self, settings_cls: type[BaseSettings], path: Path) -> None:
        super().__init__(settings_cls, toml_file=path)
        self.unknown = [key for key in self.toml_data if key not in DOCUMENTED]

    def __call__(self) -> dict[str, Any]:
        return {key: value for key, value in super().__call__().items() if key in DOCUMENTED}


def _problems(error: ValidationError) -> list[str]:
    """One readable line per problem, naming the setting and its variable."""
    found: list[str] = []
    for item in error.errors(include_url=False):
        if item["type"] == TOGETHER:
            together: list[tuple[str, str]] = (item.get("ctx") or {})["problems"]
            found += [_named(key, message) for key, message in together]
            continue
        key = str(item["loc"][0]) if item["loc"] else ""
        if item["type"] == "extra_forbidden":
            found.append(f"unknown setting {key!r}")
            continue
        key = REPORTED_AS.get(key, key)
        found.append(_named(key, _message(item, hidden=key in SECRETS)))
    return found


def _named(key: str, message: str) -> str:
    if key in DOCUMENTED:
        return f"{key} ({ENV_PREFIX}{key.upper()}): {message}"
    return f"{key}: {message}"


NUMBER_ERRORS = {"int_parsing", "int_type", "int_from_float", "float_parsing", "float_type"}
TRUTH_ERRORS = {"bool_parsing", "bool_type"}


def _message(item: ErrorDetails, hidden: bool) -> str:
    """Our words for pydantic's error ``item``; a secret's value is never repeated."""
    kind = item["type"]
    context = item.get("ctx") or {}
    got = "" if hidden else f", got {item['input']!r}"
    if kind in NUMBER_ERRORS:
        return f"expected a number{got}"
    if kind in TRUTH_ERRORS:
        return f"expected true or false{got}"
    if kind == "greater_than":
        return "must be a positive number"
    if kind == "greater_than_equal":
        return "must not be negative"
    if kind == "literal_error":
        return f"expected {context['expected']}{got}"
    if kind == "string_type":
        return f"expected text{got}"
    if kind == "value_error":
        return str(context["error"])
    return item["msg"]
