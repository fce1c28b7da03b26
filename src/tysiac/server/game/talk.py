"""What players write: nicks and game names screened, chat lines, reports (Regulamin §4.6-7).

A refused (vulgar) text is a violation of its author, committed before the refusal is
raised; the consequences are ``moderation.violations``'.
"""

from __future__ import annotations

import contextlib

from sqlalchemy.ext.asyncio import AsyncConnection

from tysiac.server.errors import ServiceError, refusal, text_refusals
from tysiac.server.game.service import GameService
from tysiac.server.game.snapshot import chat_refusal
from tysiac.server.game.table import Event, Table
from tysiac.server.moderation import texts, violations
from tysiac.server.moderation.authors import Author
from tysiac.server.moderation.violations import Refused
from tysiac.store import gamedb, moderationdb
from tysiac.store.schema import EventKind


async def check_not_blocked(
    service: GameService, author: Author, conn: AsyncConnection | None = None
) -> None:
    """Refuse a blocked device or address (403), saying until when; in ``conn`` if given."""
    async with contextlib.AsyncExitStack() as stack:
        if conn is None:
            conn = await stack.enter_async_context(service.reading())
        try:
            await violations.check_not_blocked(conn, author, service.now())
        except Refused as blocked:
            raise refusal(blocked) from None


async def screen(
    service: GameService,
    author: Author,
    texts: list[tuple[str, str | None]],
    nick: str,
    code: str | None,
) -> None:
    """Refuse a blocked author, or a vulgar nick or name (a violation, committed)."""
    await check_not_blocked(service, author)
    for field, text in texts:
        if text is not None and violations.is_vulgar(text):
            async with service.writing() as conn:
                violation = await violations.record_violation(
                    conn, author, service.now(), field=field, text=text, nick=nick, code=code
                )
            raise refusal(violation)


async def chat(
    service: GameService, code: str, seat: int | None, text: str, author: Author
) -> Table:
    if seat is not None and not service.throttle.chat(author.ip, code, seat):
        raise ServiceError("error.chat_rate", 429, field="text")

    async def decide(
        conn: AsyncConnection, row: gamedb.GameRow, table: Table
    ) -> tuple[list[Event], Refused | None]:
        reason = chat_refusal(table, seat)
        if reason is not None:
            raise ServiceError(reason, 403, field="text")
        assert seat is not None
        with text_refusals():
            line = texts.clean_chat(text)
        await check_not_blocked(service, author, conn)
        if violations.is_vulgar(line):
            violation = await violations.record_violation(
                conn,
                author,
                service.now(),
                field="chat",
                text=line,
                nick=table.nicks[seat],
                code=code,
            )
            return [(EventKind.CHAT_REJECTED, {"seat": seat})], violation  # raised once committed
        return [(EventKind.CHAT, {"seat": seat, "text": line, "device": author.device})], None

    table, violation = await service.change(code, decide)
    if violation is not None:
        raise refusal(violation)
    return table


async def report(service: GameService, code: str, seat: int | None, seq: int) -> None:
    """A player reports a chat line: it goes to the admin log with who wrote it."""
    if seat is None:
        raise ServiceError("error.spectator.report", 403)
    table = await service.table(code)
    line = next((line for line in table.chat if line.seq == seq), None)
    if line is None:
        raise ServiceError("error.no_such_message", 404)
    if line.seat == seat:
        raise ServiceError("error.own_message", 409)
    reporter = table.nicks[seat] or ""
    async with service.writing() as conn:
        if not await moderationdb.already_reported(conn, code, line.seq, reporter):
            await moderationdb.log_text(
                conn,
                at=service.now(),
                kind="reported",
                field="chat",
                text=line.text,
                nick=table.nicks[line.seat],
                reporter=reporter,
                code=code,
                device=line.device,
                seq=line.seq,
            )
