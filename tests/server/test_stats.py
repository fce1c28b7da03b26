"""Anonymous statistics: games started and finished a day, kept 400 days, mailed daily."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

from tysiac.server import admin

from .contact_kit import mail_sink
from .harness import FakeClock, LiveServer, live_server


def stats(server: LiveServer, days: int = 3, *, bots: bool = False) -> dict[str, tuple[int, int]]:
    """Per day: games of people started and finished (with ``bots``: games with bots)."""
    out = io.StringIO()
    admin.run(["stats", "--days", str(days)], server.settings, out, server.clock)
    rows = [line.split() for line in out.getvalue().splitlines()[1:]]
    first = 3 if bots else 1
    return {row[0]: (int(row[first]), int(row[first + 1])) for row in rows}


def finish_a_game(server: LiveServer, players: int = 2) -> None:
    code, tokens = server.full_table(players)
    player = server.client(code, tokens[0])
    player.move({"type": "surrender"})
    player.wait_state(lambda s: s["game"]["status"] == "finished")
    player.close()


def test_real_games_are_counted_by_day_and_nothing_else_is_stored(tmp_path: Path) -> None:
    clock = FakeClock()
    with live_server(tmp_path, clock=clock) as server:
        finish_a_game(server)
        code, _ = server.full_table(3)  # started, still being played
        server.create("Ala", 2)  # waiting: not started
        assert stats(server)["2026-11-29"] == (2, 1)
        clock.advance(days=1)
        finish_a_game(server, 4)
        counted = stats(server)
        assert counted["2026-11-29"] == (2, 1) and counted["2026-11-30"] == (1, 1)
        assert counted["total"] == (3, 2)
        with sqlite3.connect(tmp_path / "test.db") as db:
            columns = [row[1] for row in db.execute("pragma table_info(daily_stats)")]
        # No address, cookie or player: counts only.
        assert columns == ["day", "started", "finished", "bot_started", "bot_finished"]
        assert code


def test_games_with_bots_are_counted_apart(tmp_path: Path) -> None:
    clock = FakeClock()
    with live_server(tmp_path, clock=clock, bot_pause_seconds=60) as server:
        finish_a_game(server)
        created = server.create("Ala", 3, bots=["easy", "strong"])
        player = server.client(created["code"], created["token"])
        player.move({"type": "surrender"})
        player.wait_state(lambda s: s["game"]["status"] == "finished")
        assert stats(server)["2026-11-29"] == (1, 1)  # people only, as before
        assert stats(server, bots=True)["2026-11-29"] == (1, 1)
        assert stats(server, bots=True)["total"] == (1, 1)


def test_counts_are_kept_400_days(tmp_path: Path) -> None:
    clock = FakeClock()
    with live_server(tmp_path, clock=clock) as server:
        finish_a_game(server)
        clock.advance(days=400)
        server.wait_sweeps()
        assert stats(server, 401)["2026-11-29"] == (1, 1)
        clock.advance(days=1)
        server.wait_sweeps()
        assert stats(server, 402)["2026-11-29"] == (0, 0)


def test_the_operator_gets_the_summary_once_a_day(tmp_path: Path) -> None:
    clock = FakeClock()
    with mail_sink() as sink:
        options = {
            "clock": clock,
            "smtp_host": "127.0.0.1",
            "smtp_port": sink.port,
            "smtp_security": "none",
            "operator_email": "operator@example.org",
            "stats_email": True,
        }
        with live_server(tmp_path, **options) as server:
            assert sink.arrived.wait(10)  # at start: the day before is due
            finish_a_game(server)
            sink.arrived.clear()
            server.wait_sweeps()
            assert len(sink.received) == 1  # not again the same day
            clock.advance(days=1)
            assert sink.arrived.wait(10)
            server.wait_sweeps()
            assert len(sink.received) == 2
            mail = sink.received[-1]
            assert mail.recipients == ["operator@example.org"]
            assert mail.message["Subject"] == "Tysiąc: statystyki dzienne"
            body = mail.message.get_content()
            assert "2026-11-29        1         1" in body
            assert "total" in body
