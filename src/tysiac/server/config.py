"""Server settings, from environment variables (TYSIAC_*) with defaults for `make run`."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime


def utc_now() -> datetime:
    return datetime.now(UTC)


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


@dataclass(frozen=True)
class Settings:
    database_url: str = "sqlite+aiosqlite:///tysiac.db"
    public_url: str | None = None  # the address in game links; by default the request's own
    max_games_per_ip: int = 10
    max_active_games: int = 200
    sweep_seconds: float = 1.0
    hand_pause_seconds: float = 5.0  # to read a hand's result before the next deal
    forwarded_allow_ips: str | None = None  # proxies trusted for X-Forwarded-For
    allowed_origins: tuple[str, ...] = ()  # besides the server's own
    # Who runs this copy: shown on the terms and privacy pages.
    operator_name: str = "Operator tej kopii serwisu (nie skonfigurowano)"
    operator_address: str | None = None
    operator_email: str | None = None
    # Test-only knobs: settable from code, never from a client or the environment.
    testing: bool = False
    test_move_seconds: float | None = None
    test_start_scores: tuple[int, ...] | None = None
    test_deck: tuple[str, ...] | None = None  # every hand dealt from this order
    clock: Callable[[], datetime] = field(default=utc_now)

    @classmethod
    def from_env(cls) -> Settings:
        origins = tuple(o for o in os.environ.get("TYSIAC_ALLOWED_ORIGINS", "").split(",") if o)
        return cls(
            database_url=os.environ.get("TYSIAC_DATABASE_URL", cls.database_url),
            public_url=(os.environ.get("TYSIAC_PUBLIC_URL") or "").rstrip("/") or None,
            forwarded_allow_ips=os.environ.get("TYSIAC_FORWARDED_ALLOW_IPS") or None,
            max_games_per_ip=_env_int("TYSIAC_MAX_GAMES_PER_IP", cls.max_games_per_ip),
            max_active_games=_env_int("TYSIAC_MAX_ACTIVE_GAMES", cls.max_active_games),
            hand_pause_seconds=float(
                os.environ.get("TYSIAC_HAND_PAUSE_SECONDS") or cls.hand_pause_seconds
            ),
            allowed_origins=origins,
            operator_name=os.environ.get("TYSIAC_OPERATOR_NAME") or cls.operator_name,
            operator_address=os.environ.get("TYSIAC_OPERATOR_ADDRESS") or None,
            operator_email=os.environ.get("TYSIAC_OPERATOR_EMAIL") or None,
        )
