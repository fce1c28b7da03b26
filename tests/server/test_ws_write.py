"""What a connection sends for each bus message (``Connection._write``), without a server."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any, cast

from starlette.websockets import WebSocket

from tysiac.bus.messages import Broken, Deleted, Message, Presence, Resync, Update
from tysiac.server.errors import BrokenGame
from tysiac.server.game.service import GameService
from tysiac.server.game.table import Settings, Table, empty_table
from tysiac.server.http.ws import Connection
from tysiac.server.moderation.authors import Author

CODE = "K7F9DB"


class FakeSocket:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed: int | None = None
        # The handshake's: no ?lang= and no Accept-Language, so Polish.
        self.query_params: dict[str, str] = {}
        self.headers: dict[str, str] = {}

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    async def close(self, code: int) -> None:
        self.closed = code


class FakeBus:
    def __init__(self, queue: asyncio.Queue[Message]) -> None:
        self.queue = queue

    def subscribe(self, code: str) -> asyncio.Queue[Message]:
        return self.queue

    def unsubscribe(self, code: str, queue: asyncio.Queue[Message]) -> None:
        pass


class FakeService:
    """A game at ``version``; each read's ``at_least`` is kept. With ``forgotten``, a read
    that the cache cannot serve fails as the sweeper's process does for a broken game."""

    def __init__(self, queue: asyncio.Queue[Message], version: int, forgotten: bool) -> None:
        self.bus = FakeBus(queue)
        table = empty_table(CODE, Settings(3, 1000, None, False, True, 60))
        self.table_at = replace(table, version=version)
        self.reads: list[int | None] = []
        self.forgotten = forgotten

    async def table(self, code: str, at_least: int | None = None) -> Table:
        self.reads.append(at_least)
        if self.forgotten and len(self.reads) > 1:
            raise BrokenGame(code)
        return self.table_at

    def snapshot(self, table: Table, seat: int | None, held: object = None) -> dict[str, Any]:
        return {"type": "state", "v": table.version}


def written(
    messages: list[Message], version: int = 5, forgotten: bool = False
) -> tuple[FakeSocket, FakeService]:
    """The socket and the service after a spectator's connection wrote ``messages``."""

    async def scenario() -> tuple[FakeSocket, FakeService]:
        queue: asyncio.Queue[Message] = asyncio.Queue()
        for message in messages:
            queue.put_nowait(message)
        socket, service = FakeSocket(), FakeService(queue, version, forgotten)
        connection = Connection(
            cast(WebSocket, socket), cast(GameService, service), CODE, None, cast(Author, None)
        )
        await asyncio.wait_for(connection.write(), 5)
        return socket, service

    return asyncio.run(scenario())


def test_each_message_is_told_as_before_until_the_game_is_deleted() -> None:
    played = {"kind": "played", "seat": 1, "card": 3, "v": 6}
    socket, service = written(
        [
            Update(5, ({"kind": "chat"},)),  # already in the first state: no event
            Update(6, (played,)),
            Presence((0, 2)),
            Resync(),
            Broken(),
            Deleted("Powód"),
            Update(7, ()),  # never read: the connection is closed
        ]
    )
    assert socket.sent == [
        {"type": "state", "v": 5},
        {"type": "state", "v": 5},
        {"type": "event", "v": 6, "events": [played]},
        {"type": "state", "v": 5},  # the fake serves 5 whatever is asked: see ``reads``
        {"type": "state", "v": 5},
        {"type": "state", "v": 5},
        {"type": "state", "v": 5},
        {"type": "deleted", "message": "Powód"},
    ]
    assert service.reads == [None, 5, 6, None, None, -1]
    assert socket.closed == 1000


def test_a_broken_game_dropped_from_the_cache_is_an_error_and_the_end() -> None:
    socket, service = written([Broken(), Update(9, ())], forgotten=True)
    assert socket.sent[0] == {"type": "state", "v": 5}
    assert socket.sent[1]["type"] == "error" and socket.sent[1]["error"]["code"] == "broken_game"
    assert len(socket.sent) == 2 and socket.closed == 4410
    assert service.reads == [None, -1]
