"""Table options (V1-V14) as the server keeps them: chosen at creation, checked there,
stored with the game, shown to every viewer, kept by a rematch and across a crash."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tysiac import rules

from .harness import ProcessServer, live_server

CHOSEN = {"bid_step": 5, "bomb": "penalty", "bolts": True, "barrel": "880", "blind": True}
EXPECTED = {**rules.options_to_json(rules.Options()), **CHOSEN}


def test_options_chosen_at_creation_are_the_game_s_everywhere(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        created = server.create("Ala", 3, public=True, options=CHOSEN)
        code = created["code"]
        with server.http() as http:
            assert http.get(f"/api/games/{code}").json()["options"] == EXPECTED
            listed = http.get("/api/games").json()["waiting"]
            assert [g["options"] for g in listed if g["code"] == code] == [EXPECTED]
        for nick in ("Ola", "Ela"):
            server.join(code, nick)
        player = server.client(code, created["token"])
        watcher = server.client(code)
        for client in (player, watcher):
            assert client.state["game"]["options"] == EXPECTED
        player.close()
        watcher.close()


def test_no_options_are_the_standard_rules(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code = server.create("Ala", 2)["code"]
        with server.http() as http:
            options = http.get(f"/api/games/{code}").json()["options"]
        assert options == rules.options_to_json(rules.Options())
        assert options["bid_step"] == 10 and options["mus"] is True and options["bomb"] == "off"


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"bid_step": 7}, "Krok licytacji"),
        ({"bid_step": True}, "Krok licytacji"),  # a boolean is not a number here
        ({"blind": 1}, "Gra w ciemno"),
        ({"barrel": 880}, "Beczka"),  # the string "880"
        ({"golden_ace": True}, "Nieznana zasada stołu"),
        ([], "pole „options”"),  # not an object: the body's shape is wrong
    ],
)
def test_bad_options_are_refused_and_make_no_game(tmp_path: Path, options: Any, words: str) -> None:
    with live_server(tmp_path) as server, server.http() as http:
        body = {"nick": "Ala", "players": 3, "public": True, "options": options}
        response = http.post("/api/games", json=body)
        error = response.json()["error"]
        if isinstance(options, dict):
            assert (response.status_code, error["code"]) == (400, "bad_options")
        else:
            assert (response.status_code, error["code"]) == (422, "malformed")
        assert words in error["message"]
        assert http.get("/api/games").json()["waiting"] == []


def test_a_rematch_keeps_the_options(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, tokens = server.full_table(3, options=CHOSEN)
        clients = [server.client(code, t) for t in tokens]
        clients[0].move({"type": "surrender"})
        clients[1].wait_state(lambda s: s["game"]["status"] == "finished")
        clients[1].send({"type": "rematch"})
        again = clients[1].wait_state(lambda s: s["game"]["rematch"] is not None)
        with server.http() as http:
            rematch = http.get(f"/api/games/{again['game']['rematch']}").json()
        assert rematch["options"] == EXPECTED
        for client in clients:
            client.close()


def test_options_survive_a_sigkill(tmp_path: Path) -> None:
    server = ProcessServer(tmp_path / "crash.db", tmp_path / "server.log")
    server.start()
    try:
        code, tokens = server.full_table(3, options=CHOSEN)
        server.kill()
        server.start()
        client = server.client(code, tokens[0])
        assert client.state["game"]["options"] == EXPECTED
        client.close()
    finally:
        server.stop()
