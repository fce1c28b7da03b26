"""The sweeper: what happens because time passes, in every server process.

Each pass (every ``sweep_seconds``): moves whose deadline passed are made (R28: the
next deal after a hand's pause, or the auto-move of the seat out of time), games past
their lifetimes are cancelled (R31), and each process tells its own connections of
every deletion. What is past its keeping time (hours or days) is forgotten (retention)
on a pass ``retention_seconds`` (a minute) of the service's clock after its last run:
its write need not take the store's writer every pass. Once a day the statistics may be
mailed.

With several processes every one sweeps: a due or expired game is changed under its
row lock after checking again that it is due, and a row another process holds is
skipped (that process is on it), so each timeout or cancellation happens once.
Deletions claim their rows the same way.

Whatever goes wrong stays with its game or step: a game whose stored log no longer
folds is cancelled, any other failure is logged and tried again on the next pass.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from tysiac.bus.messages import Broken, Deleted
from tysiac.rules.timing import FILL_WITHIN, FINISH_WITHIN, KEEP_FOR
from tysiac.server import stats
from tysiac.server.errors import (
    BrokenGame,
    ServiceError,
    Skipped,
    deleted_message,
    lost_connection,
)
from tysiac.server.game import play
from tysiac.server.game.service import GameService
from tysiac.server.moderation import violations
from tysiac.store import moderationdb, statsdb, sweeps
from tysiac.store.contact import forget_old_contact_sends

log = logging.getLogger(__name__)

KEEP_STATS = timedelta(days=400)
NOTICE_WINDOW = timedelta(minutes=10)  # deletions each process's sweeper looks back on


def cut_short(error: Exception) -> bool:
    """A pass, or a step of one, that the store cut short: no free connection, or the
    database closed the connection under it (a restart, a failover; ``Unstored``, a
    ``store_busy``). The next pass, on a new connection (the pool checks it first), does it
    again. Not a fault of ours: a warning, no traceback in the log."""
    return lost_connection(error) or (isinstance(error, ServiceError) and error.status == 503)


class Sweeper:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.passes = 0  # completed passes: what a test can wait on
        self._told: set[str] = set()  # deleted games whose connections here were told
        self._retained: datetime | None = None  # when retention last ran whole

    async def run(self) -> None:
        """Sweep for ever, a pass every ``sweep_seconds``; a failed pass is logged."""
        while True:
            try:
                await self.sweep()
            except Exception as error:
                if cut_short(error):
                    log.warning("the store cut a sweep short; the next pass tries again")
                else:
                    log.exception("sweep failed; trying again")
            await asyncio.sleep(self.service.settings.sweep_seconds)

    async def sweep(self) -> None:
        """One pass: due moves, expired games, retention, deletion notices, statistics."""
        service = self.service
        now = service.now()
        async with service.store.reading() as conn:
            due = await sweeps.due_moves(conn, now)
            expired = await sweeps.expired(conn, now - FILL_WITHIN, now - FINISH_WITHIN)
        for change, codes in ((play.due, due), (play.expire, expired)):
            for code in codes:
                await self._one(change, code)
        every = timedelta(seconds=service.settings.retention_seconds)
        retain = self._retained is None or now - self._retained >= every
        if retain and await self._retention(now):
            self._retained = now
        await self._tell_deletions(now)
        await self._mail_statistics(now)
        self.passes += 1

    async def _one(self, change: Callable[[GameService, str], Awaitable[None]], code: str) -> None:
        """One game's timeout or expiry; whatever goes wrong stays with that game."""
        try:
            await change(self.service, code)
        except BrokenGame as broken:
            await self._cancel_broken(broken)
        except (Skipped, ServiceError):  # held by another process, or gone meanwhile
            pass
        except Exception:
            log.exception("sweeping game %s failed; it is tried again on the next sweep", code)

    async def _cancel_broken(self, error: BrokenGame) -> None:
        """Cancel a game whose log no longer folds: it is no longer due, and is deleted later."""
        log.error(
            "game %s: its stored log no longer folds; it is cancelled",
            error.game_code,
            exc_info=error.__cause__,
        )
        self.service.forget(error.game_code)
        async with self.service.writing() as conn:
            await sweeps.cancel_broken(conn, error.game_code, self.service.now())
        await self.service.bus.publish(error.game_code, Broken())

    async def _retention(self, now: datetime) -> bool:
        """Forget what is past its keeping time: all steps in one transaction (one commit);
        should that fail, each step alone, so one that fails is logged while the others
        run, and the whole is tried again next pass. True when the one transaction ran."""
        steps = (
            lambda conn: sweeps.delete_ended(conn, now - KEEP_FOR, now),
            lambda conn: sweeps.forget_notices(conn, now - KEEP_FOR),
            lambda conn: moderationdb.forget_moderation(
                conn,
                now,
                texts_before=now - violations.KEEP_TEXTS,
                offenders_before=now - violations.KEEP_OFFENDERS,
                violations_before=now - violations.IP_WINDOW,
            ),
            lambda conn: statsdb.forget_days(conn, (now - KEEP_STATS).date().isoformat()),
            lambda conn: forget_old_contact_sends(conn, now),
        )
        try:
            async with self.service.writing() as conn:
                for step in steps:
                    await step(conn)
            return True
        except Exception:
            log.warning("retention failed as a whole; trying each step alone")
        for step in steps:
            try:
                async with self.service.writing() as conn:
                    await step(conn)
            except Exception as error:
                if cut_short(error):
                    log.warning("the store cut a retention step short; tried again next sweep")
                else:
                    log.exception("a retention step failed; it is tried again on the next sweep")
        return False

    async def _tell_deletions(self, now: datetime) -> None:
        """Every process tells its own connections of each deletion, by anyone, once."""
        async with self.service.store.reading() as conn:
            notices = await sweeps.notices_since(conn, now - NOTICE_WINDOW)
        told, self._told = self._told, {notice.code for notice in notices}
        for notice in notices:
            if notice.code not in told:
                self.service.forget(notice.code)
                text = deleted_message(notice.reason, notice.message)
                deleted = Deleted(text, notice.reason, notice.message)
                self.service.bus.deliver(notice.code, deleted)

    async def _mail_statistics(self, now: datetime) -> None:
        settings = self.service.settings
        if not settings.stats_email:
            return
        async with self.service.writing() as conn:
            summary = await stats.due_summary(conn, now)
        if summary is None:
            return
        try:
            await stats.mail_summary(settings, summary, now)
        except Exception as error:  # the next day's mail will carry these days too
            log.warning("daily statistics not mailed: %s", type(error).__name__)
