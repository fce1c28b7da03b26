"""Group commit on SQLite (``store/commits.py``): many commands, one commit, each on its own."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import text

from tysiac.store import backend, gamedb
from tysiac.store.backend import create_engine
from tysiac.store.commits import GroupCommit
from tysiac.store.sqlite import SqliteStore

from ..rows import insert_plain_game


async def _table(path: Path) -> GroupCommit:
    engine = create_engine(f"sqlite+aiosqlite:///{path / 'commits.db'}")
    async with engine.begin() as conn:
        await conn.execute(text("CREATE TABLE t (n INTEGER PRIMARY KEY)"))
    return GroupCommit(engine)


async def _stored(commits: GroupCommit) -> list[int]:
    async with commits.engine.connect() as conn:  # another connection: committed rows only
        return [n for (n,) in await conn.execute(text("SELECT n FROM t ORDER BY n"))]


def test_commands_that_queue_together_share_a_commit_and_each_is_stored_when_told(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        commits = await _table(tmp_path)
        seen_when_told: list[bool] = []

        async def command(n: int) -> None:
            async with commits.writing() as conn:
                await conn.execute(text("INSERT INTO t VALUES (:n)"), {"n": n})
            seen_when_told.append(n in await _stored(commits))  # told only once committed

        await asyncio.gather(*(command(n) for n in range(200)))
        assert await _stored(commits) == list(range(200))
        assert all(seen_when_told) and len(seen_when_told) == 200
        assert commits.commands == 200
        assert commits.commits < 50  # batched: the 200 did not each wait for an fsync
        await commits.close()
        await commits.engine.dispose()

    asyncio.run(scenario())


def test_a_failing_command_undoes_only_its_own_writes(tmp_path: Path) -> None:
    async def scenario() -> None:
        commits = await _table(tmp_path)

        async def command(n: int) -> None:
            async with commits.writing() as conn:
                await conn.execute(text("INSERT INTO t VALUES (:n)"), {"n": n})
                if n % 3 == 0:
                    await conn.execute(text("INSERT INTO t VALUES (:n)"), {"n": 1000 + n})
                    raise ValueError(n)

        results = await asyncio.gather(*(command(n) for n in range(30)), return_exceptions=True)
        failed = [n for n, result in enumerate(results) if isinstance(result, ValueError)]
        assert failed == list(range(0, 30, 3))
        assert await _stored(commits) == [n for n in range(30) if n % 3]
        await commits.close()
        await commits.engine.dispose()

    asyncio.run(scenario())


def test_writing_inside_writing_is_refused_rather_than_waiting_for_itself(tmp_path: Path) -> None:
    async def scenario() -> None:
        commits = await _table(tmp_path)
        async with commits.writing() as conn:
            await conn.execute(text("INSERT INTO t VALUES (1)"))
            with pytest.raises(RuntimeError, match="inside"):
                async with commits.writing():
                    pass
        assert await _stored(commits) == [1]
        await commits.close()
        await commits.engine.dispose()

    asyncio.run(scenario())


def test_a_failed_commit_fails_every_command_of_its_batch(tmp_path: Path) -> None:
    async def scenario() -> None:
        commits = await _table(tmp_path)
        async with commits.engine.begin() as conn:  # checked only at COMMIT
            await conn.execute(text("CREATE TABLE c (n INTEGER PRIMARY KEY)"))
            await conn.execute(
                text("CREATE TABLE r (n INTEGER REFERENCES c(n) DEFERRABLE INITIALLY DEFERRED)")
            )

        async def command(n: int) -> None:
            async with commits.writing() as conn:
                await conn.execute(text("INSERT INTO t VALUES (:n)"), {"n": n})
                if n == 1:
                    await conn.execute(text("INSERT INTO r VALUES (42)"))  # no such c

        results = await asyncio.gather(*(command(n) for n in range(3)), return_exceptions=True)
        assert all(isinstance(result, Exception) for result in results)
        assert await _stored(commits) == []  # nobody was told, nothing was kept
        await command(7)  # the next batch is fine
        assert await _stored(commits) == [7]
        await commits.close()
        await commits.engine.dispose()

    asyncio.run(scenario())


def test_a_command_cancelled_mid_statement_stays_cancelled_and_loses_only_its_batch(
    tmp_path: Path,
) -> None:
    """SQLAlchemy closes a connection whose statement was cancelled (the sweeper's, when
    the server stops): the cancel must reach the caller as a cancel, not as the undo's
    error (the sweeper caught that and swept on, and the server never stopped)."""

    async def scenario() -> None:
        commits = await _table(tmp_path)
        slow_started = asyncio.Event()

        async def quick() -> None:
            async with commits.writing() as conn:
                await conn.execute(text("INSERT INTO t VALUES (1)"))

        async def slow() -> None:
            async with commits.writing() as conn:
                await conn.execute(text("INSERT INTO t VALUES (2)"))
                slow_started.set()
                await conn.execute(
                    text(
                        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c"
                        " WHERE x < 3000000) SELECT count(*) FROM c"
                    )
                )

        told = asyncio.ensure_future(quick())  # opens the batch; slow joins it
        cancelled = asyncio.ensure_future(slow())
        await slow_started.wait()
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
        with pytest.raises(Exception, match="lost"):  # its batch went with the connection
            await told
        assert await _stored(commits) == []
        async with commits.writing() as conn:  # the next command opens a batch of its own
            await conn.execute(text("INSERT INTO t VALUES (3)"))
        assert await _stored(commits) == [3]
        await commits.close()
        await commits.engine.dispose()

    asyncio.run(scenario())


def test_the_prepared_statements_store_what_sqlalchemy_reads_back(tmp_path: Path) -> None:
    """The two statements of every move run on the driver (``store/sqlite.py``)."""

    async def scenario() -> None:
        engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'prepared.db'}")
        await backend.migrate(engine)
        store = SqliteStore(engine)
        now = datetime(2026, 12, 1, 21, 0, 0, 123456, tzinfo=UTC)
        async with engine.begin() as conn:
            game_id = await insert_plain_game(conn, "ABCDEF", now)
            warsaw = timezone(timedelta(hours=1))
            new = [("joined", {"seat": 0, "nick": "Żaneta"}), ("move", {"seat": 0, "n": [1, 2]})]
            await store.append_events(conn, game_id, 1, new, now.astimezone(warsaw))
            row = await gamedb.game_by_code(conn, "ABCDEF")
            assert row is not None
            playing = dataclasses.replace(
                row,
                version=2,
                status="playing",
                deadline=now + timedelta(seconds=60),
                started_at=now,
            )
            await store.store_change(conn, playing, version_was=0)
            finished = dataclasses.replace(playing, version=3, status="finished", deadline=None)
            with pytest.raises(gamedb.StaleRow):
                await store.store_change(conn, finished, version_was=0)
        async with engine.connect() as conn:
            row = await gamedb.game_by_code(conn, "ABCDEF")
            logged = await gamedb.events_of(conn, game_id)
        assert row is not None and (row.version, row.status) == (2, "playing")
        assert row.deadline == now + timedelta(seconds=60) and row.started_at == now
        assert [(e.seq, e.kind, e.data, e.at) for e in logged] == [
            (1, "joined", {"seat": 0, "nick": "Żaneta"}, now),
            (2, "move", {"seat": 0, "n": [1, 2]}, now),
        ]
        await engine.dispose()

    asyncio.run(scenario())


def test_a_transaction_that_reads_then_writes_waits_for_the_other_process(tmp_path: Path) -> None:
    """The admin command reads, then writes, while the server commits moves: its
    transaction takes SQLite's write lock first (BEGIN IMMEDIATE), so the server's next
    commit waits for it instead of either one failing with "database is locked"."""

    async def scenario() -> None:
        commits = await _table(tmp_path)  # the server
        admin = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'commits.db'}")  # another process

        async def move() -> None:
            async with commits.writing() as conn:
                await conn.execute(text("INSERT INTO t VALUES (1)"))

        async with backend.writer(admin).begin() as conn:
            assert list(await conn.execute(text("SELECT n FROM t"))) == []
            server_move = asyncio.ensure_future(move())
            await asyncio.sleep(0.2)  # the move waits for the admin's write lock
            assert not server_move.done()
            await conn.execute(text("INSERT INTO t VALUES (2)"))
        await server_move
        assert await _stored(commits) == [1, 2]
        await admin.dispose()
        await commits.close()
        await commits.engine.dispose()

    asyncio.run(scenario())


def test_closing_waits_for_the_commit_under_way_and_hands_the_connection_back(
    tmp_path: Path,
) -> None:
    """The batches share one connection, kept between them; the server's stop closes it,
    once the commands already writing are stored and told."""

    async def scenario() -> None:
        commits = await _table(tmp_path)

        async def command(n: int) -> None:
            async with commits.writing() as conn:
                await conn.execute(text("INSERT INTO t VALUES (:n)"), {"n": n})

        first = [asyncio.ensure_future(command(n)) for n in range(5)]
        await asyncio.sleep(0)  # they are writing, or waiting for their turn
        await commits.close()
        await asyncio.gather(*first)
        assert await _stored(commits) == list(range(5))
        pool = commits.engine.sync_engine.pool
        assert pool.checkedout() == 0  # type: ignore[attr-defined]
        await command(5)  # a command after the close opens the connection again
        assert await _stored(commits) == list(range(6))
        await commits.close()
        assert pool.checkedout() == 0  # type: ignore[attr-defined]
        await commits.engine.dispose()

    asyncio.run(scenario())
