"""The deal review of finished games and uploaded records: what the endpoints ask for.

``Reviews`` answers the review's endpoints (``routes``): a finished game's record and
review (read in a worker, the last ``READS_KEPT`` kept), its analysis (stored with the
game once done, else started within the bounds, else ``later``), an uploaded record's
review and analysis (in memory only). Only a finished game has a review: before its
end every hand's cards would give the game away, and a cancelled game is not one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tysiac import rules
from tysiac.catalogue import Word
from tysiac.rules.record import RecordError
from tysiac.rules.timing import KEEP_FOR
from tysiac.server.errors import BrokenGame, ServiceError, unknown_game
from tysiac.server.game.service import GameService
from tysiac.server.game.table import Table
from tysiac.server.moderation.throttle import Buckets
from tysiac.server.review import work
from tysiac.server.review.analyses import (
    PER_ADDRESS,
    READ_SECONDS,
    READS_KEPT,
    READY_KEPT,
    UPLOAD_SECONDS,
    UPLOADS_KEPT,
    Analysis,
    Kept,
    Scheduler,
    Workers,
    later,
)
from tysiac.server.security import ip_hash
from tysiac.store import gamedb, reviewdb
from tysiac.store.schema import EventKind, GameStatus

log = logging.getLogger(__name__)

RECORD_KINDS = frozenset({EventKind.STARTED, EventKind.DEALT, EventKind.MOVE})
REQUEST_BURST = 20  # requests at once from one address, before the per-minute rate applies


@dataclass(frozen=True, slots=True)
class GameRead:
    """A finished game's read: the record and frames, with what its review adds."""

    code: str
    name: str | None
    kept_until: datetime
    read: work.Read


class Reviews:
    def __init__(self, service: GameService, clock: Callable[[], float] = time.monotonic) -> None:
        settings = service.settings
        self.service = service
        self.queue = settings.review_queue
        self.workers = Workers(settings.review_workers)
        self.scheduler = Scheduler(self.workers, self._complete)
        rate = settings.review_requests_per_minute / 60
        self.requests = Buckets(REQUEST_BURST, rate, clock)
        self._reads: Kept[int, GameRead] = Kept(READS_KEPT, READ_SECONDS, clock)
        self._ready: Kept[str, Analysis] = Kept(READY_KEPT, float("inf"), clock)
        self._uploads: Kept[str, Analysis] = Kept(UPLOADS_KEPT, UPLOAD_SECONDS, clock)
        self._storing: set[asyncio.Task[None]] = set()

    def close(self) -> None:
        self.workers.close()

    def address(self, address: str) -> str:
        """The keyed hash the bounds count an address by (never the address itself)."""
        return ip_hash(self.service.hash_key, address)

    def allow(self, address: str) -> bool:
        """A request of the review's from this address (a hash), within its rate."""
        return self.requests.allow(("review", address))

    # --- a finished game -------------------------------------------------------------

    async def _finished(self, code: str) -> Table:
        """The game's table: 404 or 410 when there is none, 409 before its end."""
        table = await self.service.table(code)
        if table.status != GameStatus.FINISHED:
            raise ServiceError("error.record.not_finished", 409)
        return table

    async def game(self, code: str) -> GameRead:
        """The finished game's read: its record, frames and hands (404/410 for no game,
        409 before its end)."""
        table = await self._finished(code)
        async with self.service.reading() as conn:
            row = await self.service.store.game(conn, code)
            if row is None:  # deleted since
                raise unknown_game()
            kept = self._reads.fresh(row.id)
            if kept is not None:
                return kept
            events = await gamedb.events_of(conn, row.id)
        nicks = [nick or "" for nick in table.nicks]
        log_ = work.GameLog(
            code=code,
            date=row.started_at.date().isoformat() if row.started_at else None,
            players=row.players,
            target=row.target,
            options=rules.options_to_json(table.settings.options),
            nicks=nicks,
            events=[(e.kind, e.data) for e in events if e.kind in RECORD_KINDS],
        )
        try:
            read = await self.scheduler.read(work.read_game, log_)
        except RecordError as error:  # the rules no longer replay its log
            log.error("game %s: its record does not replay: %s", code, error)
            raise BrokenGame(code) from None
        game_read = GameRead(code, row.name, row.updated_at + KEEP_FOR, read)
        self._reads.put(row.id, game_read)
        return game_read

    async def game_analysis(self, code: str, address: str) -> dict[str, Any]:
        """The finished game's analysis as it stands: stored, under way, or started now
        (``later`` past the bounds)."""
        await self._finished(code)  # still there (its analysis here may outlive it)
        name = f"game:{code}"
        known = self.scheduler.running(name) or self._ready.fresh(name)
        if known is not None:
            return known.state()
        game_read = await self.game(code)
        async with self.service.reading() as conn:
            stored = await reviewdb.stored_analysis(conn, code, work.VERDICTS_VERSION)
        players = game_read.read.head["players"]
        if stored is not None:
            analysis = Analysis.ready(name, players, stored)
            self._ready.put(name, analysis)
            return analysis.state()
        known = self.scheduler.running(name)  # started while the store was read
        if known is not None:
            return known.state()
        return self._start(Analysis(name, players, game_read.read.inputs, address))

    def _start(self, analysis: Analysis) -> dict[str, Any]:
        """Start an analysis within the bounds: ``review_queue`` in the server,
        ``PER_ADDRESS`` an address; past them, ``later``."""
        assert analysis.address is not None
        if self.scheduler.analyses >= self.queue:
            return later()
        if self.scheduler.started_by(analysis.address) >= PER_ADDRESS:
            return later()
        self.scheduler.analyse(analysis)
        return analysis.state()

    def _complete(self, analysis: Analysis) -> None:
        """An analysis is done: a game's is stored (once) and kept; an upload's kept."""
        if analysis.name.startswith("file:"):
            return  # it stays in ``_uploads``
        self._ready.put(analysis.name, analysis)
        task = asyncio.get_running_loop().create_task(self._store(analysis))
        self._storing.add(task)
        task.add_done_callback(self._storing.discard)

    async def _store(self, analysis: Analysis) -> None:
        code = analysis.name.removeprefix("game:")
        try:
            async with self.service.writing() as conn:
                await reviewdb.store_analysis(
                    conn, code, work.VERDICTS_VERSION, analysis.verdicts, self.service.now()
                )
        except Exception:
            log.exception("the analysis of game %s was not stored; it is kept in memory", code)

    # --- an uploaded record ----------------------------------------------------------

    async def upload(self, body: bytes, address: str) -> tuple[work.Read, dict[str, Any]]:
        """An uploaded record read (400 when it is none) and its analysis started."""
        read = await self.scheduler.read(work.read_upload, body)
        if isinstance(read, work.Refused):
            if read.reason == "json":
                raise ServiceError("error.bad_json", 400)
            if read.reason == "bug":
                log.warning("an uploaded record the reader failed on: %s", read.detail)
                raise ServiceError("error.record.invalid", 400)
            # Where, in the reader's words; why, in the format's own (docs/records.md).
            detail = (Word("error.record.detail", {"detail": read.detail}),)
            if read.hand is None:
                raise ServiceError("error.record.invalid", 400, more=detail)
            if read.move is None:
                raise ServiceError("error.record.invalid_hand", 400, more=detail, hand=read.hand)
            raise ServiceError(
                "error.record.invalid_move", 400, more=detail, hand=read.hand, move=read.move
            )
        name = f"file:{read.head['key']}"
        known = self.scheduler.running(name) or self._uploads.fresh(name)
        if known is not None:
            return read, known.state()
        analysis = Analysis(name, read.head["players"], read.inputs, address)
        for gone in self._uploads.put(name, analysis):
            self.scheduler.drop(gone.name)
        return read, self._start(analysis)

    def upload_analysis(self, key: str, address: str) -> dict[str, Any]:
        """An uploaded record's analysis, while it is kept (404 after); one that was
        ``later`` when it was uploaded is started now if the bounds allow."""
        name = f"file:{key}"
        analysis = self._uploads.fresh(name)
        if analysis is None:
            self.scheduler.drop(name)
            raise ServiceError("error.record.gone", 404)
        if analysis.submitted == 0 and not analysis.complete and not self.scheduler.running(name):
            analysis.address = address
            return self._start(analysis)
        return analysis.state()
