"""The server's clock: aware UTC datetimes. The service takes a clock as an argument
(tests hand it their own); everything that stores or compares times uses UTC."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> datetime:
    return datetime.now(UTC)
