"""Move timers (R27-R29) and lifetimes (R31), with the server's clock in the test's hand."""

from __future__ import annotations

import time
from pathlib import Path

from tysiac.server.config import Settings

from .harness import Client, FakeClock, LiveServer, live_server, play_until


def test_r28_time_up_the_server_moves_and_r29_three_in_a_row_lose(tmp_path: Path) -> None:
    with live_server(tmp_path, move_time=0.3) as server:
        code, _ = server.full_table(3)
        watcher = server.client(code)
        first = watcher.view["to_move"]
        assert 0 < watcher.state["game"]["time_left_ms"] <= 300
        moved = watcher.wait_state(lambda s: s["view"]["to_move"] != first)
        assert moved["view"]["timeouts"][first] == 1
        assert moved["view"]["hand"]["auction"] == [{"seat": first, "bid": None}]  # auto pass
        end = watcher.wait_state(lambda s: s["game"]["status"] == "finished", timeout=30)
        outcome = end["view"]["outcome"]
        assert outcome["reason"] == "walkover"
        assert end["view"]["timeouts"][outcome["loser"]] == 3
        assert outcome["winner"] != outcome["loser"]
        assert end["game"]["time_left_ms"] is None
        events = [e for m in watcher.messages if m["type"] == "event" for e in m["events"]]
        assert any(e["kind"] == "timeout" for e in events)


def test_r29_own_move_resets_the_count(tmp_path: Path) -> None:
    clock = FakeClock()
    with live_server(tmp_path, clock=clock) as server:
        code, tokens = server.full_table(3)
        clients = [server.client(code, t) for t in tokens]
        first = clients[0].view["to_move"]
        clock.advance(seconds=59)
        clients[0].drain(0.2)
        assert clients[0].view["timeouts"] == [0, 0, 0]
        clock.advance(seconds=2)
        clients[0].wait_state(lambda s: s["view"]["timeouts"][first] == 1)
        play_until(clients, lambda s: s["view"]["timeouts"][first] == 0)


def test_r31_waiting_game_cancelled_after_an_hour(tmp_path: Path) -> None:
    clock = FakeClock()
    with live_server(tmp_path, clock=clock) as server:
        created = server.create("Ala", 3)
        creator = server.client(created["code"], created["token"])
        assert creator.state["game"]["status"] == "waiting" and creator.state["view"] is None
        clock.advance(minutes=59)
        creator.drain(0.2)
        assert creator.state["game"]["status"] == "waiting"
        clock.advance(minutes=1, seconds=1)
        state = creator.wait_state(lambda s: s["game"]["status"] == "cancelled")
        assert state["game"]["cancelled"] == "not_filled"
        with server.http() as http:
            response = http.post(f"/api/games/{created['code']}/join", json={"nick": "Ola"})
            assert response.status_code == 410
            assert response.json()["error"]["message"] == "Ta gra została anulowana."


def test_r31_game_not_finished_in_a_day_is_cancelled_then_deleted_after_a_week(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    with live_server(tmp_path, clock=clock) as server:
        code, tokens = server.full_table(3)
        player = server.client(code, tokens[0])
        clock.advance(hours=23, minutes=59)
        player.wait_state(lambda s: s["view"]["timeouts"] != [0, 0, 0])  # move timers ran
        assert player.state["game"]["status"] == "playing"
        clock.advance(minutes=2)
        state = player.wait_state(lambda s: s["game"]["status"] == "cancelled")
        assert state["game"]["cancelled"] == "not_finished"
        assert state["view"]["outcome"] == {"reason": "cancelled", "winner": None, "loser": None}
        clock.advance(days=6, hours=23)
        player.drain(0.3)
        with server.http() as http:
            assert http.get(f"/api/games/{code}").status_code == 200
        clock.advance(hours=1, minutes=1)
        player.wait(lambda m: m["type"] == "deleted")
        with server.http() as http:
            gone = http.get(f"/api/games/{code}")
            assert gone.status_code == 410
            assert gone.json()["error"]["message"] == (
                "Ta gra została usunięta: zakończone gry znikają po 7 dniach."
            )
            assert http.post(f"/api/games/{code}/join", json={"nick": "Ela"}).status_code == 410
        late = server.client(code, tokens[0])
        assert late.messages[-1]["error"]["code"] == "deleted"
        assert late.closed()
        clock.advance(days=7)  # the notice itself goes after a week
        with server.http() as http:
            deadline = time.monotonic() + 5
            while http.get(f"/api/games/{code}").status_code != 404:
                assert time.monotonic() < deadline
                time.sleep(0.02)


def finished_game(server: LiveServer) -> tuple[str, Client]:
    """A two-player game ended by a surrender: its code and the loser's connection."""
    code, tokens = server.full_table(2)
    player = server.client(code, tokens[0])
    player.move({"type": "surrender"})
    player.wait_state(lambda s: s["game"]["status"] == "finished")
    return code, player


def test_finished_game_deleted_seven_days_after_its_last_change(tmp_path: Path) -> None:
    clock = FakeClock()
    with live_server(tmp_path, clock=clock) as server:
        code, player = finished_game(server)
        clock.advance(days=7, seconds=1)
        player.wait(lambda m: m["type"] == "deleted")
        with server.http() as http:
            assert http.get(f"/api/games/{code}").status_code == 410


def test_r27_sixty_seconds_a_move_or_what_a_private_game_chose(tmp_path: Path) -> None:
    clock = FakeClock()
    with live_server(tmp_path, clock=clock) as server:
        code, _ = server.full_table(3)
        watcher = server.client(code)
        assert watcher.state["game"]["move_seconds"] == 60
        assert watcher.state["game"]["time_left_ms"] == 60_000
        slow, _ = server.full_table(3, move_seconds=300)
        patient = server.client(slow)
        first = patient.view["to_move"]
        assert patient.state["game"]["time_left_ms"] == 300_000
        clock.advance(seconds=61)
        watcher.wait_state(lambda s: s["view"]["timeouts"] != [0, 0, 0])
        patient.drain(0.2)
        assert patient.view["timeouts"] == [0, 0, 0]
        clock.advance(seconds=240)
        patient.wait_state(lambda s: s["view"]["timeouts"][first] == 1)


def test_retention_runs_once_a_minute_of_the_clock_so_nothing_stays_a_minute_too_long(
    tmp_path: Path,
) -> None:
    """Retention (a write) runs on a pass at least ``retention_seconds`` (a minute) of the
    clock after its last run, not on every pass: a finished game goes within a minute of
    its seven days."""
    assert Settings.model_fields["retention_seconds"].default == 60
    clock = FakeClock()
    with live_server(tmp_path, clock=clock) as server:
        code, player = finished_game(server)
        clock.advance(days=7, seconds=-30)  # retention runs here: nothing is a week old
        server.wait_sweeps()
        clock.advance(seconds=31)  # past the week, 31 s after retention last ran
        server.wait_sweeps()
        with server.http() as http:
            assert http.get(f"/api/games/{code}").status_code == 200
        clock.advance(seconds=29)  # a minute after it last ran: it runs again
        player.wait(lambda m: m["type"] == "deleted")
        with server.http() as http:
            assert http.get(f"/api/games/{code}").status_code == 410
