"""A socket's hello finds its seat: from the seats last read when they know the token,
from the store when they do not (a player who joined since), never wrongly."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tysiac.server.errors import ServiceError
from tysiac.server.game import lobby
from tysiac.server.game.service import GameService

from .harness import host_game, sqlite_service, statements


@contextmanager
def queries(service: GameService) -> Iterator[list[str]]:
    """The queries the service's engine runs inside the block (not its BEGINs)."""
    with statements(service.store.engine) as run:
        queried: list[str] = []
        yield queried
    queried.extend(statement for statement in run if statement.startswith("SELECT"))


def test_seats_are_read_once_a_game_and_a_new_or_wrong_token_is_asked_of_the_store(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with sqlite_service(tmp_path / "seats.db") as service:
            created = await host_game(service, 3)
            code = created.code
            with queries(service) as run:
                assert await service.seat_of(code, created.token) == 0
            assert len(run) == 1  # the game and its seats, in one query
            joined = await lobby.join(service, code, "Bartek", service.author(None, "127.0.0.3"))
            with queries(service) as run:  # joined since: not known yet, so read again
                assert await service.seat_of(code, joined.token) == 1
            assert len(run) == 1
            with queries(service) as run:  # both known now: nothing is read
                assert await service.seat_of(code, created.token) == 0
                assert await service.seat_of(code, joined.token) == 1
                assert await service.seat_of(code, None) is None  # a spectator
            assert run == []
            with queries(service) as run, pytest.raises(ServiceError) as refused:
                await service.seat_of(code, "x" * 32)  # a forged token: the store decides
            assert refused.value.code == "bad_token" and len(run) == 1
            service.forget(code)  # deleted, say: its seats are forgotten with it
            with queries(service) as run:
                assert await service.seat_of(code, joined.token) == 1
            assert len(run) == 1
            with pytest.raises(ServiceError) as unknown:
                await service.seat_of("ZZZZZZ", created.token)
            assert unknown.value.code == "unknown_game"

    asyncio.run(scenario())
