"""A command whose caller goes away (its socket closed, its request cancelled) still ends
as it would have: stored and told, or refused with nobody to hear it; a fault is logged
once. asyncio is left nothing to report ("Task exception was never retrieved": seen in
the log under load, for moves refused as busy after their sockets had closed)."""

from __future__ import annotations

import asyncio
import gc
import logging
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncConnection

from tysiac.server.errors import ServiceError
from tysiac.server.game.table import Event, Table
from tysiac.store import gamedb
from tysiac.store.schema import EventKind

from .harness import host_game, sqlite_service


@pytest.mark.parametrize("outcome", ["stored", "refused", "fault"])
def test_a_command_whose_caller_went_away_ends_as_it_would_have(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, outcome: str
) -> None:
    reported: list[str] = []

    async def scenario() -> tuple[int, int, list[str]]:
        asyncio.get_running_loop().set_exception_handler(
            lambda _, context: reported.append(context["message"])
        )
        async with sqlite_service(tmp_path / "gone.db") as service:
            code = (await host_game(service, 2)).code
            before = (await service.table(code)).version
            watching = service.bus.subscribe(code)
            deciding, carry_on = asyncio.Event(), asyncio.Event()

            async def decide(
                conn: AsyncConnection, row: gamedb.GameRow, table: Table
            ) -> tuple[list[Event], None]:
                deciding.set()
                await carry_on.wait()  # meanwhile the caller goes away
                if outcome == "refused":
                    raise ServiceError("error.store_busy", 503)
                if outcome == "fault":
                    raise RuntimeError("a bug in a command")
                return [(EventKind.CHAT, {"seat": 0, "text": "Cześć", "device": None})], None

            caller = asyncio.ensure_future(service.change(code, decide))
            await deciding.wait()
            caller.cancel()
            with pytest.raises(asyncio.CancelledError):
                await caller
            carry_on.set()
            while service._commands:  # the command ends on its own
                await asyncio.sleep(0.01)
            told = _drain(watching)
            gc.collect()  # a task's unretrieved exception is reported when it is collected
            await asyncio.sleep(0)
            after = (await service.table(code)).version
            return before, after, told

    before, after, told = asyncio.run(scenario())
    assert reported == []
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    if outcome == "stored":  # stored and told, as if the caller were still there
        assert after == before + 1 and len(told) == 1 and errors == []
    elif outcome == "refused":  # nobody to hear the refusal: nothing stored, nothing logged
        assert after == before and told == [] and errors == []
    else:  # a fault is a fault: logged once, with its traceback
        assert after == before and told == []
        assert len(errors) == 1 and errors[0].exc_info is not None
        assert errors[0].getMessage().endswith(": a command failed after its caller went away")


def _drain(queue: asyncio.Queue[Any]) -> list[Any]:
    found: list[Any] = []
    while not queue.empty():
        found.append(queue.get_nowait())
    return found
