"""The service's refusals: one exception with a stable code, a Polish message and a status.

``ServiceError`` is what every layer raises and every transport shows: the HTTP API as
``{"error": {"code", "message"}}`` with the status, the WebSocket as an ``error``
message. The converters here turn the other modules' refusals into it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from sqlalchemy.ext.asyncio import AsyncConnection

from tysiac import rules
from tysiac.store import gamedb

from . import names
from .moderation import Refused


class ServiceError(Exception):
    """A refused request: ``code`` is stable, ``message`` Polish, ``status`` the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


UNKNOWN_GAME = ("unknown_game", "Nie ma gry o takim kodzie.", 404)


class BrokenGame(ServiceError):
    """A game whose stored log the current rules no longer fold (a rules fix, a hand edit).

    Players get a clear error; the sweeper cancels such a game instead of retrying it.
    """

    def __init__(self, code: str) -> None:
        super().__init__(
            "broken_game", "Tej gry nie da się wczytać (błąd zapisu). Gra została anulowana.", 410
        )
        self.game_code = code


class Skipped(Exception):
    """A sweeper found the game's row held by another process, or gone: it moves on."""


def deleted_message(notice: gamedb.Notice) -> str:
    if notice.reason == "removed":
        return f"Ta gra została usunięta przez administratora serwisu. Powód: {notice.message}"
    return "Ta gra została usunięta: zakończone gry znikają po 7 dniach."


async def missing(conn: AsyncConnection, code: str) -> ServiceError:
    """The error for a code with no game: deleted (while the notice lasts), else unknown."""
    notice = await gamedb.deletion_notice(conn, code)
    if notice is None:
        return ServiceError(*UNKNOWN_GAME)
    return ServiceError("deleted", deleted_message(notice), 410)


def refusal(refused: Refused) -> ServiceError:
    """Moderation's refusal: a block is 403, a vulgar text 400."""
    return ServiceError(refused.code, refused.message, 403 if refused.code == "blocked" else 400)


@contextlib.contextmanager
def text_refusals() -> Iterator[None]:
    """A text that ``names`` refuses -> its ServiceError (400)."""
    try:
        yield
    except names.TextRefused as refused:
        raise ServiceError(refused.code, refused.message) from None


@contextlib.contextmanager
def rules_refusals() -> Iterator[None]:
    """An action the rules refuse -> its ServiceError (409), with the rules' code."""
    try:
        yield
    except rules.IllegalAction as refused:
        raise ServiceError(refused.code, refused.message, 409) from None
