"""Chat, surrender and rematch."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .harness import FakeClock, LiveServer, Message, live_server, simple_move


def test_private_game_chat_is_on_and_everyone_with_the_link_reads_it(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        created = server.create("Ala", 3)
        code = created["code"]
        ala = server.client(code, created["token"])
        watcher = server.client(code)
        assert ala.state["game"]["can_chat"] is True  # private: on, even before the start
        ala.send({"type": "chat", "text": "  Cześć,   gramy?  "})
        line = watcher.wait_state(lambda s: s["chat"] != [])["chat"][-1]
        assert line["text"] == "Cześć, gramy?" and line["nick"] == "Ala" and line["seat"] == 0
        ala.send({"type": "chat", "text": "x" * 201})
        error = ala.error()
        assert error["code"] == "too_long" and "200" in error["message"]
        ala.send({"type": "chat", "text": "   "})
        assert ala.error()["code"] == "empty_text"


def test_public_game_chat_is_off_unless_the_creator_turns_it_on(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, tokens = server.full_table(3, public=True)
        player = server.client(code, tokens[0])
        assert player.state["game"]["chat"] is False and player.state["game"]["can_chat"] is False
        player.send({"type": "chat", "text": "hej"})
        assert player.error()["message"] == "Czat w tej grze jest wyłączony."


def test_public_game_chat_only_after_a_move_of_ones_own(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, tokens = server.full_table(3, public=True, chat=True)
        clients = [server.client(code, t) for t in tokens]
        mover = next(c for c in clients if c.view["to_move"] == c.seat)
        mover.send({"type": "chat", "text": "hej"})
        assert (
            mover.error()["message"] == "W grze publicznej możesz pisać po swoim pierwszym ruchu."
        )
        mover.move(simple_move(mover.view))
        mover.wait_state(lambda s: s["game"]["can_chat"])
        mover.send({"type": "chat", "text": "hej"})
        mover.wait_state(lambda s: [line["text"] for line in s["chat"]] == ["hej"])


def test_r30_surrender_ends_the_game_for_everyone(tmp_path: Path) -> None:
    with live_server(tmp_path, start_scores=(100, 300, 200)) as server:
        code, tokens = server.full_table(3)
        clients = [server.client(code, t) for t in tokens]
        waiting = next(c for c in clients if c.view["to_move"] != c.seat)  # any time, any turn
        waiting.move({"type": "surrender"})
        for client in clients:
            state = client.wait_state(lambda s: s["game"]["status"] == "finished")
            assert state["view"]["outcome"]["reason"] == "surrender"
            assert state["view"]["outcome"]["loser"] == waiting.seat
            assert state["view"]["legal"] == {}
        expected = max((s for s in range(3) if s != waiting.seat), key=lambda s: (100, 300, 200)[s])
        assert clients[0].view["outcome"]["winner"] == expected
        clients[0].move({"type": "pass"})
        assert clients[0].error()["code"] == "game_over"


def test_rematch_same_players_same_seats_one_click(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, tokens = server.full_table(3)
        clients = [server.client(code, t) for t in tokens]
        watcher = server.client(code)
        clients[1].send({"type": "rematch"})
        assert clients[1].error()["code"] == "not_finished"
        clients[1].move({"type": "surrender"})
        clients[2].wait_state(lambda s: s["game"]["status"] == "finished")
        clients[2].send({"type": "rematch"})
        clients[0].send({"type": "rematch"})  # a second click changes nothing
        new_code = watcher.wait_state(lambda s: s["game"]["rematch"] is not None)["game"]["rematch"]
        for client in clients:
            assert (
                client.wait_state(lambda s: s["game"]["rematch"] is not None)["game"]["rematch"]
                == new_code
            )
        again = [server.client(new_code, t) for t in tokens]
        assert [c.seat for c in again] == [0, 1, 2]
        again[0].wait_state(lambda s: s["game"]["status"] == "playing")  # everyone is back
        assert [s["nick"] for s in again[0].state["game"]["seats"]] == [
            "Gracz0",
            "Gracz1",
            "Gracz2",
        ]
        assert again[0].view["scores"] == [0, 0, 0]
        with server.http() as http:
            assert http.get(f"/api/games/{code}").json()["rematch"] == new_code
        watcher.send({"type": "rematch"})
        assert watcher.error()["code"] == "spectator"


def playing(state: Message) -> bool:
    return bool(state["game"]["status"] == "playing")


def finished_with_a_rematch(server: LiveServer, **options: bool) -> tuple[str, list[str], str]:
    """A three-player game surrendered and its rematch asked for: the old code, the
    tokens (the rematch's too) and the rematch's code. Nobody is connected to it."""
    code, tokens = server.full_table(3, **options)
    player = server.client(code, tokens[0])
    player.move({"type": "surrender"})
    player.wait_state(lambda s: s["game"]["status"] == "finished")
    player.send({"type": "rematch"})
    rematch: str = player.wait_state(lambda s: s["game"]["rematch"] is not None)["game"]["rematch"]
    player.close()
    return code, tokens, rematch


def arrived(seat: int) -> Callable[[Message], bool]:
    return lambda s: any(e == {"kind": "arrived", "seat": seat, "v": e["v"]} for e in s["log"])


def test_a_rematch_deals_once_all_its_players_are_back(tmp_path: Path) -> None:
    clock = FakeClock()
    with live_server(tmp_path, clock=clock) as server:
        old, tokens, code = finished_with_a_rematch(server, public=True)
        watcher = server.client(code)
        game = watcher.state["game"]
        assert game["status"] == "waiting" and watcher.state["view"] is None
        assert game["rematch_of"] == old and game["time_left_ms"] == 60_000
        assert [(s["nick"], s["connected"]) for s in game["seats"]] == [
            ("Gracz0", False),
            ("Gracz1", False),
            ("Gracz2", False),
        ]
        with server.http() as http:  # no seat to take: not offered in the lobby
            assert http.get("/api/games").json() == {"waiting": [], "playing": []}
        server.client(code, tokens[0]).close()  # came and went: that counts
        back = server.client(code, tokens[1])
        state = watcher.wait_state(arrived(1))
        assert state["game"]["status"] == "waiting" and arrived(0)(state)
        assert [s["connected"] for s in state["game"]["seats"]] == [False, True, False]
        server.client(code, tokens[2])
        dealt = back.wait_state(playing)
        assert dealt["view"]["hand_number"] == 1 and dealt["game"]["time_left_ms"] == 60_000
        assert dealt["game"]["rematch_of"] == old
        assert [e["kind"] for e in dealt["log"]] == [
            "rematch_of",
            *["joined"] * 3,
            *["arrived"] * 3,
            "started",
            "dealt",
        ]
        with server.http() as http:
            assert [g["code"] for g in http.get("/api/games").json()["playing"]] == [code]


def test_a_rematch_starts_after_a_minute_without_everyone(tmp_path: Path) -> None:
    clock = FakeClock()
    with live_server(tmp_path, clock=clock) as server:
        _, tokens, code = finished_with_a_rematch(server)
        back = server.client(code, tokens[0])
        clock.advance(seconds=59)
        server.wait_sweeps()
        assert server.client(code).state["game"]["time_left_ms"] == 1000
        back.drain()
        assert back.state["game"]["status"] == "waiting"
        clock.advance(seconds=1)
        state = back.wait_state(playing)
        assert state["view"]["hand_number"] == 1
        assert [s["connected"] for s in state["game"]["seats"]] == [True, False, False]


def test_a_waiting_rematch_still_starts_after_a_restart(tmp_path: Path) -> None:
    clock = FakeClock()
    database = f"sqlite+aiosqlite:///{tmp_path / 'kept.db'}"  # the same store after the restart
    with live_server(tmp_path, clock=clock, database_url=database) as server:
        old, _, code = finished_with_a_rematch(server)
    clock.advance(seconds=61)
    with live_server(tmp_path, clock=clock, database_url=database) as server:
        watcher = server.client(code)
        state = watcher.state if playing(watcher.state) else watcher.wait_state(playing)
        assert state["game"]["status"] == "playing" and state["view"]["hand_number"] == 1
        assert state["game"]["rematch_of"] == old
