"""The deal review on PostgreSQL: its table (stored once, replaced only by another format,
deleted with its game by the sweeper and by the operator), and the review's server
tests again on PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tysiac.store import backend, reviewdb, sweeps

from ..rows import insert_plain_game
from ..server import test_review
from ..server.harness import FakeClock, live_server
from ..server.test_review import (
    NEAR_END,
    POLLING,
    analysis_until_ready,
    finished_game,
    get,
)
from ..services import fresh_database, redis_url_or_skip, sql

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
VERDICTS = [{"declarer": 1, "contract": 100, "cards": [], "mistakes": []}, None]


def test_the_analysis_is_stored_once_and_deleted_with_its_game(database: str) -> None:
    async def scenario() -> None:
        engine = backend.create_engine(database)
        await backend.migrate(engine)
        async with engine.begin() as conn:
            for code in ("K7F9DB", "M3N4PQ"):
                await insert_plain_game(
                    conn,
                    code,
                    NOW - timedelta(days=9),
                    status="finished",
                    updated_at=NOW - timedelta(days=8),
                )
        async with engine.begin() as conn:
            assert await reviewdb.store_analysis(conn, "K7F9DB", 1, VERDICTS, NOW)
            assert not await reviewdb.store_analysis(conn, "K7F9DB", 1, [None], NOW)  # once
            assert await reviewdb.store_analysis(conn, "M3N4PQ", 1, VERDICTS, NOW)
            assert not await reviewdb.store_analysis(conn, "ZZZZZZ", 1, VERDICTS, NOW)  # no game
        async with engine.connect() as conn:
            assert await reviewdb.stored_analysis(conn, "K7F9DB", 1) == VERDICTS
            assert await reviewdb.stored_analysis(conn, "K7F9DB", 2) is None  # another format
        async with engine.begin() as conn:
            assert await reviewdb.store_analysis(conn, "K7F9DB", 2, [None, None], NOW)
            assert await reviewdb.stored_analysis(conn, "K7F9DB", 2) == [None, None]
            assert await sweeps.remove_game(conn, "M3N4PQ", "spam", NOW)
        async with engine.begin() as conn:
            assert await sweeps.delete_ended(conn, NOW - timedelta(days=7), NOW) == ["K7F9DB"]
        await engine.dispose()

    asyncio.run(scenario())
    assert sql(database, "SELECT count(*) AS n FROM game_reviews")[0]["n"] == 0


def test_a_server_on_postgresql_stores_the_analysis_and_its_sweeper_deletes_it(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    with fresh_database(migrated=True) as database:
        settings = {
            "database_url": database,
            "redis_url": redis_url_or_skip(),
            "hashing_secret": "review on postgres " * 3,
            **POLLING,
        }
        with live_server(
            tmp_path, start_scores=NEAR_END, bot_pause_seconds=0, clock=clock, **settings
        ) as server:
            code = finished_game(server, players=2)
            ready = analysis_until_ready(server, f"/api/games/{code}/analysis")[-1]
            deadline = time.monotonic() + 10
            query = "SELECT r.hands FROM game_reviews r JOIN games g ON g.id = r.game_id"
            while not sql(database, query):
                assert time.monotonic() < deadline, "the analysis was not stored"
                time.sleep(0.05)
            assert json.loads(sql(database, query)[0]["hands"]) == ready["hands"]
        with live_server(tmp_path, clock=clock, **settings) as server:
            assert get(server, f"/api/games/{code}/analysis").json() == ready  # read back
            clock.advance(days=7, minutes=1)
            deadline = time.monotonic() + 10
            while get(server, f"/api/games/{code}").status_code != 410:
                assert time.monotonic() < deadline, "the game was not deleted"
                time.sleep(0.05)
        assert sql(database, "SELECT count(*) AS n FROM game_reviews")[0]["n"] == 0


@pytest.fixture
def on_postgres_and_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSIAC_TEST_SCALE_OUT", "1")


@pytest.mark.usefixtures("on_postgres_and_redis")
def test_review_on_postgres(tmp_path: Path) -> None:
    test_review.test_the_review_shows_every_hand_and_step_and_the_analysis_fills_in(tmp_path)


@pytest.mark.usefixtures("on_postgres_and_redis")
def test_bad_uploads_on_postgres(tmp_path: Path) -> None:
    test_review.test_bad_uploads_are_refused_clearly_and_change_nothing(tmp_path)
