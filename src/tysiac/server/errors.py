"""The service's refusals: one exception with a stable code, a status and its words.

``ServiceError`` is what every layer raises and every transport shows: the HTTP API as
``{"error": {"code", "message", "field"?, "params"?}}`` with the status, the WebSocket as
an ``error`` message. Its message is the catalogue's (``tysiac.catalogue``): the key
``error.<code>`` or ``error.<code>.<variant>``, with named parameters. The converters here
turn the other modules' refusals into it.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from typing import Any

from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from tysiac import rules
from tysiac.catalogue import Word, spell, spelled, text
from tysiac.server.moderation import texts
from tysiac.server.moderation.violations import Refused


class ServiceError(Exception):
    """A refused request.

    ``key`` is the catalogue's (``error.<code>[.<variant>]``): ``code``, its second part,
    is stable (clients match on it), ``message`` the Polish text, ``status`` the HTTP
    status, ``field`` the form field the refusal concerns (``nick``, ``name``, ``players``,
    ``move_seconds``, ``options``, ``bots``, ``text``…), ``params`` the named values the
    message shows. ``more``: sentences that follow the first (moderation's consequences).
    """

    def __init__(
        self,
        key: str,
        status: int = 400,
        /,
        *,
        field: str | None = None,
        more: tuple[Word, ...] = (),
        **params: object,
    ) -> None:
        kind, code, *_ = key.split(".")
        if kind != "error":
            raise KeyError(f"not an error's key: {key!r}")
        self.words = (Word(key, params), *more)
        self.message = spell(self.words)  # KeyError for an unknown key or a wrong parameter
        super().__init__(self.message)
        self.key = key
        self.code = code
        self.status = status
        self.field = field
        self.params: dict[str, Any] = {
            name: spelled(value) for word in self.words for name, value in word.params.items()
        }


UNKNOWN_GAME = "error.unknown_game"
BUSY_WARNING_SECONDS = 60  # the log says the store is busy at most once a minute

log = logging.getLogger(__name__)
_busy = {"warned": -float(BUSY_WARNING_SECONDS), "since": 0}


def unknown_game() -> ServiceError:
    return ServiceError(UNKNOWN_GAME, 404)


def lost_connection(error: BaseException) -> bool:
    """The database closed the connection under a statement (a restart, a failover,
    ``pg_terminate_backend``): not a fault of ours, and the pool replaces the connection
    (it checks each one it hands out)."""
    return isinstance(error, DBAPIError) and error.connection_invalidated


class Unstored(ServiceError):
    """The database closed a write transaction's connection before its commit, so nothing
    of it was stored and it may run again on a new connection (``GameService.change``
    runs a command again once). Not run again, it is refused as ``store_busy``."""

    def __init__(self) -> None:
        super().__init__("error.store_busy", 503)


@contextlib.contextmanager
def unstored() -> Iterator[None]:
    """Inside a write transaction, before its commit: a connection the database closed
    is ``Unstored``."""
    try:
        yield
    except DBAPIError as error:
        if not lost_connection(error):
            raise
        raise Unstored() from None


@contextlib.contextmanager
def store_busy() -> Iterator[None]:
    """The store did not answer (no free connection in time, locked, unreachable, the
    connection closed under a read or a commit): the request is refused as ``store_busy``
    (503). What it asked for was not done, but for a commit the database may have taken
    before it closed the connection: the player, told to try again, finds the move made.
    The log says so once a minute, with the count and the cause, never the statement."""
    try:
        yield
    except (PoolTimeout, DBAPIError) as error:
        if isinstance(error, DBAPIError) and not (
            isinstance(error, OperationalError) or lost_connection(error)
        ):
            raise
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
        raise ServiceError("error.store_busy", 503) from None


class BrokenGame(ServiceError):
    """A game whose stored log the current rules no longer fold (a rules fix, a hand edit).

    Players get a clear error; the sweeper cancels such a game instead of retrying it.
    """

    def __init__(self, code: str) -> None:
        super().__init__("error.broken_game", 410)
        self.game_code = code


class Skipped(Exception):
    """A sweeper found the game's row held by another process, or gone: it moves on."""


def deleted_message(reason: str, message: str | None) -> str:
    """What a deleted game's players are told: removed by the operator (with the reason
    given), or gone with its keeping time."""
    if reason == "removed":
        return text("error.deleted.removed", reason=message)
    return text("error.deleted.expired")


def deleted(reason: str, message: str | None) -> ServiceError:
    if reason == "removed":
        return ServiceError("error.deleted.removed", 410, reason=message)
    return ServiceError("error.deleted.expired", 410)


def refusal(refused: Refused) -> ServiceError:
    """Moderation's refusal: a block is 403, a vulgar text 400."""
    first, *more = refused.words
    status = 403 if refused.code == "blocked" else 400
    return ServiceError(first.key, status, field=refused.field, more=tuple(more), **first.params)


@contextlib.contextmanager
def text_refusals() -> Iterator[None]:
    """A text that ``moderation.texts`` refuses -> its ServiceError (400), with its field."""
    try:
        yield
    except texts.TextRefused as refused:
        raise ServiceError(refused.key, field=refused.field, **refused.params) from None


@contextlib.contextmanager
def rules_refusals() -> Iterator[None]:
    """An action the rules refuse -> its ServiceError (409), with the rules' code."""
    try:
        yield
    except rules.IllegalAction as refused:
        raise ServiceError(refused.key, 409, **refused.params) from None
