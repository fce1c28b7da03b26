"""Opening games and taking seats: create, join, and the public list.

Every new game passes the limits (Regulamin §4.3 and the abuse limits) under one lock,
across processes too (``gamedb.lock_creations``), so the limits hold exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from tysiac import rules
from tysiac.rules.timing import MOVE_SECONDS, PRIVATE_MOVE_SECONDS
from tysiac.server.errors import ServiceError, text_refusals
from tysiac.server.game import computers, talk
from tysiac.server.game.service import GameService
from tysiac.server.game.table import Event, Table, empty_table
from tysiac.server.game.table import Settings as TableSettings
from tysiac.server.moderation import texts
from tysiac.server.moderation.authors import Author
from tysiac.server.security import new_code, new_token, token_hash
from tysiac.store import gamedb
from tysiac.store.schema import EventKind, GameStatus

HOUR = timedelta(hours=1)  # the window of max_games_per_ip_per_hour


@dataclass(frozen=True, slots=True)
class Seated:
    """A seat and its secret, returned to its owner alone."""

    code: str
    seat: int
    token: str


async def create(
    service: GameService,
    *,
    nick: str,
    players: int,
    name: str | None,
    public: bool,
    chat: bool,
    short: bool,
    move_seconds: int,
    options: dict[str, Any] | None = None,
    bots: list[str] | None = None,
    author: Author,
) -> Seated:
    """A new game with its creator in seat 0 and, with ``bots``, computer players in the
    next seats (levels of ``tysiac.bots``): filled so, it starts at once."""
    with text_refusals():
        nick = texts.clean_nick(nick)
        name = texts.clean_name(name)
    await talk.screen(service, author, [("nick", nick), ("name", name)], nick, None)
    if players not in (2, 3, 4):
        raise ServiceError("error.bad_players", field="players")
    if move_seconds not in PRIVATE_MOVE_SECONDS or (public and move_seconds != MOVE_SECONDS):
        raise ServiceError("error.bad_move_time", field="move_seconds")
    try:
        house_rules = rules.options_from_json(options or {})
    except rules.OptionsError as error:
        raise ServiceError(error.key, field="options", **error.params) from None
    levels = list(bots or [])
    for level in levels:
        computers.check_level(level)
    if len(levels) > players - 1:
        raise ServiceError("error.bad_bots", field="bots")
    token = new_token()
    async with service.creations, service.writing() as conn:
        target = rules.game.SHORT_TARGET if short else rules.game.TARGET
        settings = TableSettings(players, target, name, public, chat, move_seconds, house_rules)
        code, game_id = await open_game(service, conn, author.ip, settings, version=0)
        await gamedb.add_seat(conn, game_id, 0, nick, token_hash(token))
        opened = [_joined(0, nick, author)]
        nicks = [nick]
        for seat, level in enumerate(levels, start=1):
            opened.append(await computers.seat_bot(conn, game_id, seat, level, nicks))
        if len(nicks) == players:
            opened += service.dealer.start(players)
        row = await gamedb.game_by_code(conn, code)
        assert row is not None
        await service.append(conn, row, empty_table(code, settings), opened)
    return Seated(code, 0, token)


async def join(service: GameService, code: str, nick: str, author: Author) -> Seated:
    with text_refusals():
        nick = texts.clean_nick(nick)
    await service.table(code)  # an unknown code is no violation
    await talk.screen(service, author, [("nick", nick)], nick, code)
    token = new_token()

    async def decide(
        conn: AsyncConnection, row: gamedb.GameRow, table: Table
    ) -> tuple[list[Event], int]:
        _check_joinable(table, author)
        if any(n is not None and texts.same_nick(n, nick) for n in table.nicks):
            raise ServiceError("error.nick_taken", 409, field="nick")
        seat = table.free_seat()
        assert seat is not None
        await gamedb.add_seat(conn, row.id, seat, nick, token_hash(token))
        events: list[Event] = [_joined(seat, nick, author)]
        if sum(n is None for n in table.nicks) == 1:
            events += service.dealer.start(table.settings.players)
        return events, seat

    _, seat = await service.change(code, decide)
    return Seated(code, seat, token)


async def public_games(service: GameService) -> dict[str, list[dict[str, Any]]]:
    async with service.reading() as conn:
        listed = await gamedb.public_games(conn)
    waiting: list[dict[str, Any]] = []
    playing: list[dict[str, Any]] = []
    for row, seated in listed:
        nicks = [s.nick for s in seated]
        if row.status == GameStatus.WAITING and len(nicks) == row.players:
            continue  # a rematch waiting for its players: no seat to take, nothing to watch yet
        entry = {
            "code": row.code,
            "name": row.name,
            "players": row.players,
            "nicks": nicks,
            "bots": [computers.level_of(s.token_hash) for s in seated],
            "short": row.target == rules.game.SHORT_TARGET,
            "chat": row.chat,
            "options": rules.options_to_json(TableSettings.of(row).options),
        }
        (waiting if row.status == GameStatus.WAITING else playing).append(entry)
    return {"waiting": waiting, "playing": playing}


async def open_game(
    service: GameService,
    conn: AsyncConnection,
    creator_ip: str,
    settings: TableSettings,
    version: int,
) -> tuple[str, int]:
    """Within the limits, a new waiting game under a fresh code: its code and row id."""
    await gamedb.lock_creations(conn)  # the other processes' creations wait until we commit
    await _check_limits(service, conn, creator_ip)
    code = new_code()
    while await gamedb.code_exists(conn, code):
        code = new_code()
    now = service.now()
    game_id = await gamedb.insert_game(
        conn,
        code=code,
        status=GameStatus.WAITING,
        players=settings.players,
        name=settings.name,
        public=settings.public,
        chat=settings.chat,
        target=settings.target,
        move_seconds=settings.move_seconds,
        options=rules.options_to_json(settings.options),
        version=version,
        created_at=now,
        updated_at=now,
        creator_ip=creator_ip,
    )
    return code, game_id


async def _check_limits(service: GameService, conn: AsyncConnection, creator_ip: str) -> None:
    """Regulamin §4.3: at most N active games from one address, M in the service.

    And so that a few addresses cannot fill the lobby or churn through games: at most
    a few games from one address waiting for players, and a bounded number an hour.
    """
    settings = service.settings
    if await gamedb.count_active(conn) >= settings.max_active_games:
        raise ServiceError("error.service_full", 503)
    if await gamedb.count_active(conn, creator_ip) >= settings.max_games_per_ip:
        raise ServiceError("error.ip_limit", 429, limit=settings.max_games_per_ip)
    if await gamedb.count_waiting(conn, creator_ip) >= settings.max_waiting_games_per_ip:
        raise ServiceError("error.waiting_limit", 429, limit=settings.max_waiting_games_per_ip)
    hour_ago = service.now() - HOUR
    if await gamedb.count_created_since(conn, creator_ip, hour_ago) >= (
        settings.max_games_per_ip_per_hour
    ):
        raise ServiceError("error.creation_rate", 429, limit=settings.max_games_per_ip_per_hour)


def _joined(seat: int, nick: str, author: Author) -> Event:
    """A seat taken, with the joiner's device hash (a real device only; never sent)."""
    device = author.browser
    return EventKind.JOINED, {"seat": seat, "nick": nick, "device": device}


def _check_joinable(table: Table, author: Author) -> None:
    if table.status == GameStatus.CANCELLED:
        raise ServiceError("error.cancelled", 410)
    if table.status == GameStatus.FINISHED:
        raise ServiceError("error.finished", 409)
    if author.browser is not None and author.browser in table.devices:  # one browser, one seat
        nick = table.nicks[table.devices.index(author.browser)]
        raise ServiceError("error.already_seated", 409, nick=nick)
    if table.free_seat() is None:
        raise ServiceError("error.full", 409)
