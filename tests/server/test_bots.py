"""Computer players at real tables: bot seats, their moves by deadline, a crash, secrecy."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tysiac import bots

from .harness import Message, ProcessServer, live_server, play_until, settle


def finished(state: Message) -> bool:
    return bool(state.get("game", {}).get("status") == "finished")


@pytest.mark.slow
def test_a_game_alone_against_two_medium_bots_is_played_to_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[dict[str, Any]] = []
    choose = bots.choose

    def spy(level: str, view: Any, rng: random.Random) -> dict[str, Any]:
        seen.append(json.loads(json.dumps(view)))
        return choose(level, view, rng)

    monkeypatch.setattr(bots, "choose", spy)
    with live_server(tmp_path, bot_pause_seconds=0) as server:
        created = server.create("Ala", 3, short=True, bots=["medium", "medium"])
        code = created["code"]
        me = server.client(code, created["token"])
        watcher = server.client(code)
        assert me.state["game"]["status"] == "playing"  # started at once
        seats = me.state["game"]["seats"]
        assert [s["bot"] for s in seats] == [None, "medium", "medium"]
        assert [s["nick"] for s in seats] == ["Ala", "Komputer 1", "Komputer 2"]
        assert all(s["connected"] for s in seats)
        with server.http() as http:
            summary = http.get(f"/api/games/{code}").json()
        assert summary["bots"] == [None, "medium", "medium"]
        play_until([me, watcher], finished, limit=180)  # the watcher read meanwhile too
        state = settle([me, watcher]) and me.state
        assert state["view"]["timeouts"] == [0, 0, 0]
        assert not any(e["kind"] == "timeout" for e in state["log"])
        watcher.drain(0.1)
        for message in watcher.messages:  # a spectator never sees a bot's hand
            if message["type"] == "state" and message["view"] and message["view"]["hand"]:
                assert message["view"]["hand"]["cards"] is None
    # The bots were handed their own seat's view, nothing else.
    assert seen
    keys = set(state["view"])
    for view in seen:
        assert set(view) == keys and view["seat"] in (1, 2) and view["to_move"] == view["seat"]
        assert view["legal"]


def test_the_creator_adds_and_removes_bots_in_the_waiting_room(tmp_path: Path) -> None:
    with live_server(tmp_path, bot_pause_seconds=0) as server:
        created = server.create("Ala", 4)
        code = created["code"]
        host = server.client(code, created["token"])
        host.send({"type": "add_bot", "level": "medium"})
        host.wait_state(lambda s: s["game"]["seats"][1]["bot"] == "medium")
        host.send({"type": "add_bot", "level": "easy"})
        state = host.wait_state(lambda s: s["game"]["seats"][2]["bot"] == "easy")
        assert [s["nick"] for s in state["game"]["seats"]] == [
            "Ala",
            "Komputer 1",
            "Komputer 2",
            None,
        ]
        assert state["game"]["seats"][2]["connected"] and state["game"]["status"] == "waiting"
        with server.http() as http:
            listed = http.get("/api/games").json()  # private: not listed; the summary says
            assert not listed["waiting"]
            assert http.get(f"/api/games/{code}").json()["bots"] == [None, "medium", "easy", None]
        host.send({"type": "remove_bot", "seat": 1})
        state = host.wait_state(lambda s: s["game"]["seats"][1]["nick"] is None)
        assert state["log"][-1] == {"kind": "left", "seat": 1, "v": state["v"]}
        host.send({"type": "add_bot", "level": "hard"})
        assert host.error()["code"] == "bad_bot_level"
        host.send({"type": "remove_bot", "seat": 0})
        assert host.error()["code"] == "not_a_bot"
        joined = server.join(code, "Bolek")
        assert joined["seat"] == 1  # the freed seat
        guest = server.client(code, joined["token"])
        guest.send({"type": "add_bot", "level": "easy"})
        assert guest.error()["code"] == "not_host"
        guest.send({"type": "remove_bot", "seat": 2})
        assert guest.error()["code"] == "not_host"
        host.send({"type": "add_bot", "level": "medium"})  # the last seat: the game starts
        state = host.wait_state(lambda s: s["game"]["status"] == "playing")
        assert [s["bot"] for s in state["game"]["seats"]] == [None, None, "easy", "medium"]
        host.send({"type": "remove_bot", "seat": 2})
        assert host.error()["code"] == "not_waiting"


@pytest.mark.slow
def test_a_game_alone_against_two_strong_bots_is_played_to_its_end(tmp_path: Path) -> None:
    """The strong level thinks in a worker process, outside the game's lock, and moves
    when its pause is over: the game is played to its end with no timeout."""
    with live_server(tmp_path, bot_pause_seconds=0) as server:
        created = server.create("Ala", 3, short=True, bots=["strong", "strong"])
        me = server.client(created["code"], created["token"])
        play_until([me], finished, limit=240)
        state = settle([me]) and me.state
        assert state["view"]["timeouts"] == [0, 0, 0]
        assert [s["bot"] for s in state["game"]["seats"]] == [None, "strong", "strong"]
        assert any(e.get("seat") in (1, 2) and e["kind"] == "play" for e in state["log"])


def test_creating_with_bots_is_checked(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, server.http() as http:
        for bots_, code in (
            (["medium", "medium"], "bad_bots"),
            (["grandmaster"], "bad_bot_level"),
            ([1], "malformed"),
        ):
            body = {"nick": "Ala", "players": 2, "bots": bots_}
            response = http.post("/api/games", json=body)
            assert response.json()["error"]["code"] == code, response.text
        response = http.post("/api/games", json={"nick": "Ala", "players": 3, "bots": ["easy"]})
        assert response.status_code == 201
        waiting = http.get(f"/api/games/{response.json()['code']}").json()
        assert waiting["status"] == "waiting" and waiting["bots"] == [None, "easy", None]


def test_no_token_takes_a_bot_seat_and_no_message_holds_a_secret(tmp_path: Path) -> None:
    with live_server(tmp_path, bot_pause_seconds=0) as server:
        created = server.create("Ala", 2, bots=["easy"], public=True)
        code = created["code"]
        for token in ("bot:easy", "bot", "", "Komputer 1"):
            intruder = server.client(code, token)
            assert intruder.messages[-1]["type"] == "error"
        with server.http() as http:
            full = http.post(f"/api/games/{code}/join", json={"nick": "Bolek"})
            assert full.json()["error"]["code"] == "full"
            listed = http.get("/api/games").json()["playing"]
        assert listed[0]["bots"] == [None, "easy"] and listed[0]["nicks"] == ["Ala", "Komputer 1"]
        me = server.client(code, created["token"])
        play_until([me], lambda s: s["view"]["hand_number"] >= 2, limit=60)
        for message in me.messages:
            assert "bot:" not in json.dumps(message)
            assert "token" not in json.dumps(message)


@pytest.mark.slow
def test_a_game_with_bots_goes_on_after_sigkill(tmp_path: Path) -> None:
    server = ProcessServer(
        tmp_path / "crash.db", tmp_path / "server.log", TYSIAC_BOT_PAUSE_SECONDS="0.1"
    )
    server.start()
    try:
        with httpx.Client(base_url=server.base) as http:
            body = {"nick": "Ala", "players": 4, "bots": ["strong", "easy", "medium"]}
            created = http.post("/api/games", json=body).json()
        code, token = created["code"], created["token"]
        me = server.client(code, token)
        play_until([me], lambda s: s["view"]["hand_number"] >= 2, limit=60)
        before = settle([me])
        server.kill()
        server.start()
        again = server.client(code, token)
        assert again.state["v"] >= before
        assert [s["bot"] for s in again.state["game"]["seats"]] == [
            None,
            "strong",
            "easy",
            "medium",
        ]
        play_until([again], lambda s: s["v"] >= before + 40, limit=60)  # the bots play on
        moves = [e for e in again.state["log"] if e["v"] > before and e.get("seat") in (1, 2, 3)]
        assert any(e["kind"] in ("bid", "pass", "play") for e in moves)
        assert again.state["view"]["timeouts"] == [0, 0, 0, 0]
    finally:
        server.stop()
    log = (tmp_path / "server.log").read_text()
    assert token not in log
    assert not re.search(r"Traceback", log), log


def test_a_rematch_keeps_the_bots_and_starts_when_the_person_is_back(tmp_path: Path) -> None:
    with live_server(tmp_path, bot_pause_seconds=0) as server:
        created = server.create("Ala", 3, bots=["strong", "easy"])
        me = server.client(created["code"], created["token"])
        while True:  # sent again when a bot moved first: it was on an older version
            me.move({"type": "surrender"})
            answer = me.wait(
                lambda m: m["type"] == "error" or (m["type"] == "state" and finished(m))
            )
            if answer["type"] == "state":
                break
            assert answer["error"]["code"] == "stale"
        me.send({"type": "rematch"})
        code = me.wait_state(lambda s: s["game"]["rematch"] is not None)["game"]["rematch"]
        me.close()
        watcher = server.client(code)
        game = watcher.state["game"]
        assert game["status"] == "waiting"  # the bots are back at once; Ala is not yet
        assert [s["bot"] for s in game["seats"]] == [None, "strong", "easy"]
        again = server.client(code, created["token"])
        state = again.wait_state(lambda s: s["game"]["status"] == "playing")
        assert [s["nick"] for s in state["game"]["seats"]] == ["Ala", "Komputer 1", "Komputer 2"]
        play_until([again], lambda s: s["view"]["hand_number"] >= 2, limit=60)  # they play on
        assert again.state["view"]["timeouts"] == [0, 0, 0]


@pytest.mark.parametrize("players", [2, 4])
def test_people_and_a_strong_bot_play_at_one_table(tmp_path: Path, players: int) -> None:
    """A mixed table: the host seats a strong bot beside the people who joined."""
    with live_server(tmp_path, bot_pause_seconds=0) as server:
        created = server.create("Ala", players)
        code = created["code"]
        tokens = [created["token"]] + [
            server.join(code, f"Gość{i}")["token"] for i in range(1, players - 1)
        ]
        people = [server.client(code, t) for t in tokens]
        people[0].send({"type": "add_bot", "level": "strong"})
        state = people[0].wait_state(lambda s: s["game"]["status"] == "playing")
        assert [s["bot"] for s in state["game"]["seats"]][-1] == "strong"
        settle(people)  # every person has a state of the game under way (a view)
        play_until(people, lambda s: s["view"]["hand_number"] >= 3, limit=120)
        log = people[0].state["log"]
        assert any(e.get("seat") == players - 1 and e["kind"] == "play" for e in log)
        assert people[0].state["view"]["timeouts"] == [0] * players
