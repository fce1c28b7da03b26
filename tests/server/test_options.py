"""Table options (V1-V16) as the server keeps them: chosen at creation, checked there,
stored with the game, shown to every viewer, kept by a rematch and across a crash."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tysiac import rules

from .harness import STRONG_DECK, ProcessServer, live_server, play_until

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
        ({"golden_axe": True}, "Nieznana zasada stołu"),
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


def finished(state: dict[str, Any]) -> bool:
    return state.get("game", {}).get("status") == "finished"


HEAVY = {
    "bid_step": 5,
    "bid_limit": "melds",
    "meld_needs_trick": True,
    "rounding": "5",
    "bomb": "penalty",
    "bolts": True,
    "dump_555": True,
    "ace_marriage": True,
    "redeal": True,
}


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_with_options_to_its_end(tmp_path: Path, players: int) -> None:
    options = {**HEAVY, "open_musik": True} if players == 2 else {**HEAVY, "blind": True}
    near = (850,) * players  # test-only: near the target, a deck the mus player wins
    with live_server(tmp_path, start_scores=near, deck=STRONG_DECK) as server:
        code, tokens = server.full_table(players, options=options)
        clients = [server.client(code, token) for token in tokens]
        play_until(clients, finished)
        last = clients[0].state
        view = (last if finished(last) else clients[0].wait_state(finished))["view"]
        assert view["options"] == {**rules.options_to_json(rules.Options()), **options}
        assert view["outcome"]["reason"] == "points"
        assert view["scores"][view["outcome"]["winner"]] >= 1000
        assert {r["end"] for r in view["results"]} <= {"played", "void", "bomb", "redeal"}
        assert set(view["counters"]) == {
            "bolts",
            "bombs",
            "barrel",
            "tries",
            "golden",
            "golden_made",
        }
        for client in clients:
            client.close()


# Dealt in blocks from the mus player on: 7, 7, 7 and the musik (3 players).
BLIND_DECK = tuple(
    "KH QH AH TH AS TS QS 9S 9C 9D JS JC JD KS 9H JH AD TD KD QD AC TC KC QC".split()
)
CARD = re.compile(r'"([9JQKTA][SCDH])"')


def test_v14_a_blind_hand_keeps_the_blind_player_s_cards_and_the_musik_hidden(
    tmp_path: Path,
) -> None:
    start = (100, 100, 100)  # a blind game needs a score above 0
    with live_server(tmp_path, start_scores=start, deck=BLIND_DECK) as server:
        code, tokens = server.full_table(3, options={"blind": True})
        clients = [server.client(code, token) for token in tokens]
        watcher = server.client(code)
        blind = next(c for c in clients if c.view["to_move"] == c.seat)
        assert blind.view["hand"]["phase"] == "blind"
        mus = blind.seat
        own, musik = set(BLIND_DECK[:7]), set(BLIND_DECK[21:])
        assert blind.view["hand"]["face_down"] and blind.view["hand"]["cards"] is None
        assert blind.view["legal"] == {"blind": True, "look": True}
        others = [c for c in clients if c is not blind]

        def move(mover: Any, action: dict[str, Any]) -> None:
            version = mover.state["v"]
            mover.move(action)
            for client in clients:
                client.wait_state(lambda s: s["v"] > version)

        move(blind, {"type": "blind"})
        for _ in others:  # both pass: the blind player plays for 120
            move(next(c for c in others if c.view["to_move"] == c.seat), {"type": "pass"})
        state = blind.state  # the last one: bidding is over
        assert state["view"]["hand"]["phase"] == "give"
        assert state["view"]["hand"]["declarer"] == mus and state["view"]["hand"]["contract"] == 120
        seen = set(state["view"]["hand"]["cards"])
        assert own | musik == seen  # now the declarer sees the hand and the musik
        # Until bidding ended the blind player was never sent their own cards...
        before = [m for m in blind.messages if m.get("type") == "state"][:-1]
        early = [m for m in before if m["view"]["hand"]["phase"] in ("blind", "bidding")]
        assert early, [m["view"]["hand"]["phase"] for m in before]
        assert not own & set(CARD.findall(json.dumps(early)))
        # ...and nobody else, the spectator included, ever sees the musik.
        watcher.wait_state(lambda s: s["v"] >= state["v"])
        for client in (*others, watcher):
            assert not musik & set(CARD.findall(json.dumps(client.messages))), client.seat
        for client in (*clients, watcher):
            client.close()
