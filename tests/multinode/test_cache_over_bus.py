"""Two game services on one PostgreSQL database and one Redis, in one test process: what
one stores reaches the other's cache over the bus, so the other reads nothing back."""

from __future__ import annotations

import asyncio
import random
from asyncio import Queue

from tysiac.bus.messages import Change, Message, Update
from tysiac.bus.redis import RedisBus
from tysiac.server.config import Settings
from tysiac.server.game import lobby
from tysiac.server.game.service import GameService
from tysiac.server.game.table import Table
from tysiac.store import backend
from tysiac.store.stores import open_store

from ..server.harness import service_move, statements
from ..services import redis_url_or_skip


async def _service(database: str, redis_url: str, seed: int) -> GameService:
    engine = backend.create_engine(database)
    await backend.migrate(engine)
    bus = RedisBus(redis_url)
    await bus.start()
    service = GameService(
        open_store(engine), bus, Settings(), "scale-out tests " * 4, random.Random(seed)
    )
    bus.on_change = service.heard  # as the app wires it
    return service


async def _close(service: GameService) -> None:
    await service.close()
    await service.bus.stop()
    await service.store.engine.dispose()


async def _folded(service: GameService, watching: Queue[Message], code: str, v: int) -> Table:
    """The service's table at version ``v`` once its bus has told its connections (on
    ``watching``) of that version; it must come from the cache, with no statement run."""
    while True:
        message = await asyncio.wait_for(watching.get(), 5)
        assert not isinstance(message, Change)  # what was stored is for the cache, not players
        if isinstance(message, Update) and message.version == v:
            break
    with statements(service.store.engine) as run:
        table = await service.table(code, at_least=v)
    assert table.version == v and run == [], f"v{v} was read back, not folded: {run}"
    return table


def test_each_change_reaches_the_other_process_cache_as_stored(database: str) -> None:
    redis_url = redis_url_or_skip()

    async def scenario() -> None:
        a, b = await _service(database, redis_url, 1), await _service(database, redis_url, 2)
        fresh = None
        try:
            author = a.author(None, "127.0.0.1")
            created = await lobby.create(
                a, nick="Ala", players=2, name=None, public=False, chat=True, short=True,
                move_seconds=60, author=author,
            )  # fmt: skip
            code = created.code
            for service in (a, b):  # both serve the game: both cache it
                await service.table(code)
            watching = {a: a.bus.subscribe(code), b: b.bus.subscribe(code)}
            await lobby.join(b, code, "Bartek", author)  # B's change (it starts the game)
            table = await _folded(a, watching[a], code, (await b.table(code)).version)
            for turn in range(20):  # seat 0 moves through A, seat 1 through B
                game = table.game
                assert game is not None and game.to_move is not None
                mover, other = (a, b) if game.to_move == 0 else (b, a)
                moved = await service_move(mover, table)
                table = await _folded(other, watching[other], code, moved.version)
                assert table == moved, f"turn {turn}: the folded table differs"
            fresh = await _service(database, redis_url, 3)  # a cold cache reads the log
            assert await fresh.table(code) == table
        finally:
            for service in (a, b, fresh):
                if service is not None:
                    await _close(service)

    asyncio.run(scenario())
