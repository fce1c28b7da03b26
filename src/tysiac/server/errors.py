"""The service's refusals: one exception with a stable code, a Polish message and a status.

``ServiceError`` is what every layer raises and every transport shows: the HTTP API as
``{"error": {"code", "message"}}`` with the status, the WebSocket as an ``error``
message. The converters here turn the other modules' refusals into it.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator

from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from tysiac import rules
from tysiac.server.moderation import texts
from tysiac.server.moderation.violations import Refused


class ServiceError(Exception):
    """A refused request: ``code`` is stable, ``message`` Polish, ``status`` the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


UNKNOWN_GAME = ("unknown_game", "Nie ma gry o takim kodzie.", 404)
BUSY = ("store_busy", "Serwer jest teraz przeciążony. Spróbuj ponownie za chwilę.", 503)
BUSY_WARNING_SECONDS = 60  # the log says the store is busy at most once a minute

log = logging.getLogger(__name__)
_busy = {"warned": -float(BUSY_WARNING_SECONDS), "since": 0}


@contextlib.contextmanager
def store_busy() -> Iterator[None]:
    """The store did not answer (no free connection in time, locked, unreachable): the
    request is refused as ``store_busy`` (503), and what it asked for was not done. The log
    says so once a minute, with the count and the cause, never the statement."""
    try:
        yield
    except (PoolTimeout, OperationalError) as error:
        _busy["since"] += 1
        now = time.monotonic()
        if now - _busy["warned"] >= BUSY_WARNING_SECONDS:
            # The driver's own words (database is locked, disk is full, refused), never
            # SQLAlchemy's, which quote the statement and its values.
            cause = getattr(error, "orig", None)
            log.warning(
                "the store did not answer (%s%s): %d request(s) refused as busy",
                type(error).__name__,
                f": {str(cause)[:200]}" if cause is not None else "",
                _busy["since"],
            )
            _busy["warned"], _busy["since"] = now, 0
        raise ServiceError(*BUSY) from None


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


def deleted_message(reason: str, message: str | None) -> str:
    """What a deleted game's players are told: removed by the operator (with the reason
    given), or gone with its keeping time."""
    if reason == "removed":
        return f"Ta gra została usunięta przez administratora serwisu. Powód: {message}"
    return "Ta gra została usunięta: zakończone gry znikają po 7 dniach."


def deleted(reason: str, message: str | None) -> ServiceError:
    return ServiceError("deleted", deleted_message(reason, message), 410)


def refusal(refused: Refused) -> ServiceError:
    """Moderation's refusal: a block is 403, a vulgar text 400."""
    return ServiceError(refused.code, refused.message, 403 if refused.code == "blocked" else 400)


@contextlib.contextmanager
def text_refusals() -> Iterator[None]:
    """A text that ``moderation.texts`` refuses -> its ServiceError (400)."""
    try:
        yield
    except texts.TextRefused as refused:
        raise ServiceError(refused.code, refused.message) from None


@contextlib.contextmanager
def rules_refusals() -> Iterator[None]:
    """An action the rules refuse -> its ServiceError (409), with the rules' code."""
    try:
        yield
    except rules.IllegalAction as refused:
        raise ServiceError(refused.code, refused.message, 409) from None
