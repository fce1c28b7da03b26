"""One WebSocket per open game page: accept, say hello, loop, clean up.

The first message must be ``hello`` (with the player's token, or none for a
spectator). Then the server sends a ``state`` snapshot for that viewer, and after
every change an ``event`` message followed by a fresh ``state``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping
from typing import Any

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect

from tysiac.bus.messages import Broken, Deleted, Message, Presence, Resync, Update
from tysiac.catalogue import spell
from tysiac.server.errors import ServiceError, unknown_game
from tysiac.server.game import computers, play, rematch, talk
from tysiac.server.game.service import GameService
from tysiac.server.game.snapshot import Held
from tysiac.server.http import inbound
from tysiac.server.http.language import language
from tysiac.server.http.messages import (
    AddBot,
    Chat,
    Hello,
    Move,
    Ping,
    Rematch,
    RemoveBot,
    Report,
    error_body,
    parse_message,
)
from tysiac.server.moderation.authors import DEVICE_COOKIE, Author
from tysiac.server.moderation.throttle import Buckets
from tysiac.server.security import normalise_code

log = logging.getLogger(__name__)

BUCKET_SIZE = 30  # messages in a burst
BUCKET_RATE = 10.0  # messages a second, sustained
FLOOD_LIMIT = 50  # messages refused in a row for the rate before the connection is closed


def encode(message: Mapping[str, Any]) -> str:
    """A message as JSON text (orjson: several times faster than ``json``, same output)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def origin_allowed(ws: WebSocket, service: GameService) -> bool:
    """A page from another site may not drive a player's seat (see ``requests``)."""
    return inbound.origin_allowed(ws.headers, service.settings)


class Connection:
    def __init__(
        self, ws: WebSocket, service: GameService, code: str, seat: int | None, author: Author
    ) -> None:
        self.ws = ws
        self.author = author
        self.service = service
        self.code = code
        self.seat = seat
        self.sent_version = -1  # of the last state sent
        self.told_version = -1  # of the last events sent
        self.held: Held | None = None  # what it was sent of the log and chat; None: nothing
        self.lang = language(ws)  # of the messages the server words itself
        self._send_lock = asyncio.Lock()

    async def send(self, message: Mapping[str, Any]) -> None:
        await self.send_text(encode(message))

    async def send_text(self, text: str) -> None:
        async with self._send_lock:
            await self.ws.send_text(text)

    async def send_state(self, version: int | None = None) -> None:
        table = await self.service.table(self.code, at_least=version)
        if table.version >= self.sent_version:
            self.sent_version = table.version
            state = self.service.snapshot(table, self.seat, self.held)
            self.held = Held.of(table)  # before any await: the states go out in this order
            await self.send(state)

    async def error(self, error: ServiceError) -> None:
        await self.send({"type": "error", **error_body(error, self.lang)})

    async def read(self) -> None:
        own = Buckets(BUCKET_SIZE, BUCKET_RATE, time.monotonic)  # this socket's own rate
        refused = 0  # in a row
        while True:
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            # This socket's bucket, then its address's and seat's over all their sockets.
            if not own.allow(None) or not self.service.throttle.message(
                self.author.ip, self.code, self.seat
            ):
                refused += 1
                if refused > FLOOD_LIMIT:
                    await self.ws.close(code=1008)
                    return
                await self.error(ServiceError("error.rate_limited"))
                continue
            refused = 0
            text = message.get("text")
            try:
                if text is None:
                    raise ServiceError("error.bad_json.text")
                await self.dispatch(text)
            except ServiceError as error:
                await self.error(error)
                if error.code == "stale":
                    await self.send_state()

    async def dispatch(self, text: str) -> None:
        command = parse_message(text)
        match command:
            case Move(v=version, action=action):
                await play.move(self.service, self.code, self.seat, version, action)
            case Chat(text=chat_text):
                await talk.chat(self.service, self.code, self.seat, chat_text, self.author)
            case Report(seq=seq):
                await talk.report(self.service, self.code, self.seat, seq)
                await self.send({"type": "reported", "seq": seq})
            case Rematch():
                await rematch.rematch(self.service, self.code, self.seat, self.author)
            case AddBot(level=level):
                await computers.add_bot(self.service, self.code, self.seat, level)
            case RemoveBot(seat=seat):
                await computers.remove_bot(self.service, self.code, self.seat, seat)
            case Ping():
                await self.send({"type": "pong"})
            case Hello():
                raise ServiceError("error.already_hello")

    async def write(self) -> None:
        queue = self.service.bus.subscribe(self.code)
        try:
            if self.seat is not None:  # a rematch waiting for its players: one more is back
                await rematch.arrive(self.service, self.code, self.seat)
            await self._write(queue)
        except ServiceError as error:  # the game went away under us
            if error.code == "deleted":  # found before the notice came (another process's)
                await self._deleted(spell(error.words, self.lang), error.key, error.params)
            else:
                await self.error(error)
                await self.ws.close(code=4000 + min(error.status, 999))
        finally:
            self.service.bus.unsubscribe(self.code, queue)

    async def _deleted(
        self, message: str | None, key: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        """Tell the page its game is gone: why in the server's words (``message``) and by
        the catalogue's ``key`` and ``params``, for the page to word it."""
        told: dict[str, Any] = {"type": "deleted", "message": message}
        if key is not None:
            told |= {"key": key, "params": dict(params or {})}
        await self.send(told)
        await self.ws.close(code=1000)

    async def _write(self, queue: asyncio.Queue[Message]) -> None:
        await self.send_state()
        self.told_version = self.sent_version  # what came before is in that state
        while True:
            match await queue.get():
                case Update(version=version) as update:
                    if version > self.told_version:
                        self.told_version = version
                        # Encoded once for every connection of this process (all are
                        # handed this same update).
                        await self.send_text(update.event_text())
                    await self.send_state(version)
                case Presence() | Resync():
                    await self.send_state()
                case Broken():
                    # The cached table will do, whatever its version (other processes
                    # send theirs again); the sweeper's process dropped the game, so its
                    # read is refused as broken_game: the connection is told and closed.
                    await self.send_state(-1)
                case Deleted(message=text, reason=reason, note=note):
                    if reason == "removed":
                        await self._deleted(text, "error.deleted.removed", {"reason": note})
                    elif reason is not None:
                        await self._deleted(text, "error.deleted.expired")
                    else:
                        await self._deleted(text)
                    return


async def game_socket(ws: WebSocket) -> None:
    service: GameService = ws.app.state.service
    if not origin_allowed(ws, service):
        await ws.close(code=1008)  # before accept: the handshake is refused (HTTP 403)
        return
    await ws.accept()
    code = normalise_code(str(ws.path_params["code"]))
    try:
        if code is None:
            raise unknown_game()
        hello_seconds = service.settings.request_timeout_seconds
        hello = parse_message(await asyncio.wait_for(ws.receive_text(), hello_seconds))
        if not isinstance(hello, Hello):
            raise ServiceError("error.hello_first")
        seat = await service.seat_of(code, hello.token)
        await service.table(code)
        if not service.throttle.open_socket(code, seat):
            raise ServiceError(
                "error.too_many_sockets", 429, limit=service.settings.max_sockets_per_seat
            )
    except ServiceError as error:
        # The client may be gone by now: then there is nobody to tell (WebSocketDisconnect).
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await ws.send_json({"type": "error", **error_body(error, language(ws))})
            await ws.close(code=4000 + min(error.status, 999))
        return
    except WebSocketDisconnect:
        # The client closed, or uvicorn closed the connection for it (1009: a frame over
        # ws_max_size; 1002, 1007: broken frames): the connection is gone, nothing to close.
        # Closing it anyway raised WebSocketDisconnect again, out of the handler.
        return
    except (TimeoutError, KeyError, RuntimeError):  # no hello in time, a binary first frame
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await ws.close(code=1008)
        return
    try:
        await _serve(ws, service, code, seat)
    finally:
        service.throttle.close_socket(code, seat)


async def _serve(ws: WebSocket, service: GameService, code: str, seat: int | None) -> None:
    """A greeted connection: read its commands and write the game's changes until it ends."""
    address = ws.client.host if ws.client else "unknown"
    author = service.author(ws.cookies.get(DEVICE_COOKIE), address)
    connection = Connection(ws, service, code, seat, author)
    await service.connected(code, seat, +1)
    tasks = [asyncio.create_task(connection.read()), asyncio.create_task(connection.write())]
    try:
        done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        for task in done:
            failure = task.exception()
            if failure is not None and not isinstance(failure, WebSocketDisconnect | RuntimeError):
                log.error("connection to game %s failed", code, exc_info=failure)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await service.connected(code, seat, -1)
