"""Limits and bad input: every refusal is clear, and none of them changes anything."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from .harness import JSON_TYPE, live_server

# What an error body may carry (docs/protocol.md §2).
ERROR_FIELDS = ("code", "key", "message", "field", "params", "more")


def error_of(response: Any) -> dict[str, str]:
    body: dict[str, dict[str, str]] = response.json()
    assert set(body) == {"error"}
    assert {"code", "key", "message"} <= set(body["error"]) <= {*ERROR_FIELDS}
    return body["error"]


def test_at_most_n_active_games_per_address_then_a_clear_message(tmp_path: Path) -> None:
    with live_server(tmp_path, max_games_per_ip=2) as server:
        first = server.create("Ala", 2)
        server.create("Ala", 2)
        with server.http() as http:
            refused = http.post("/api/games", json={"nick": "Ala", "players": 2})
            assert refused.status_code == 429
            assert error_of(refused)["message"] == (
                "Z Twojego adresu jest już 2 aktywnych gier. Spróbuj później."
            )
        # A finished game no longer counts.
        server.join(first["code"], "Ola")
        player = server.client(first["code"], first["token"])
        player.move({"type": "surrender"})
        player.wait_state(lambda s: s["game"]["status"] == "finished")
        server.create("Ala", 2)


def test_at_most_n_active_games_in_the_service(tmp_path: Path) -> None:
    with live_server(tmp_path, max_active_games=1) as server:
        server.create("Ala", 2)
        with server.http() as http:
            refused = http.post("/api/games", json={"nick": "Ola", "players": 3})
            assert refused.status_code == 503
            assert "Spróbuj później" in error_of(refused)["message"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"{not json", 422, "malformed"),
        (b"[]", 422, "malformed"),
        (json.dumps({"nick": "Ala", "players": "3"}).encode(), 422, "malformed"),
        (json.dumps({"nick": "Ala", "players": 5}).encode(), 422, "malformed"),
        (json.dumps({"nick": "Ala", "players": 3, "admin": True}).encode(), 422, "malformed"),
        (json.dumps({"nick": "   ", "players": 3}).encode(), 400, "empty_text"),
        (json.dumps({"nick": "x" * 21, "players": 3}).encode(), 400, "too_long"),
        (json.dumps({"nick": "a\u0000b", "players": 3}).encode(), 400, "bad_characters"),
        (
            json.dumps({"nick": "Ala", "players": 3, "public": True, "move_seconds": 300}).encode(),
            400,
            "bad_move_time",
        ),
        (b"{" + b" " * 5000 + b"}", 413, "too_large"),
    ],
)
def test_bad_create_requests(tmp_path: Path, body: bytes, status: int, code: str) -> None:
    with live_server(tmp_path) as server, server.http() as http:
        response = http.post("/api/games", content=body, headers=JSON_TYPE)
        assert response.status_code == status, response.text
        assert error_of(response)["code"] == code
        assert error_of(response)["message"]
        assert http.get("/api/games").json() == {"waiting": [], "playing": []}


def test_unknown_codes_and_joining_refusals(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, _ = server.full_table(2)
        with server.http() as http:
            for path in ("/api/games/ZZZZZZ", "/api/games/abc", "/api/games/ZZZZZZ/join"):
                response = (
                    http.post(path, json={"nick": "Ela"})
                    if path.endswith("join")
                    else http.get(path)
                )
                assert response.status_code == 404
                assert error_of(response)["message"] == "Nie ma gry o takim kodzie."
            full = http.post(f"/api/games/{code}/join", json={"nick": "Ela"})
            assert full.status_code == 409 and error_of(full)["code"] == "full"
            # Codes are read the way people type them.
            assert http.get(f"/api/games/{code.lower()}").status_code == 200


def test_private_game_is_not_listed_public_one_is(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        server.create("Ala", 3)
        public = server.create("Ola", 3, public=True, name="Stolik Oli")
        with server.http() as http:
            listed = http.get("/api/games").json()
        assert [g["code"] for g in listed["waiting"]] == [public["code"]]
        assert (
            listed["waiting"][0]["nicks"] == ["Ola"]
            and listed["waiting"][0]["name"] == "Stolik Oli"
        )
        assert listed["playing"] == []


def test_security_headers_on_every_page(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, server.http() as http:
        for path in ("/", "/g/ABCDEF", "/api/games", "/health", "/api/games/ZZZZZZ"):
            headers = http.get(path).headers
            csp = headers["content-security-policy"]
            assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
            assert "unsafe-inline" not in csp
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "no-referrer"


def test_websocket_from_a_foreign_origin_is_refused(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, _ = server.full_table(2)
        url = f"ws://127.0.0.1:{server.port}/ws/{code}"
        with pytest.raises(InvalidStatus) as refused:
            connect(url, origin="http://evil.example")  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
        with connect(url, origin=f"http://127.0.0.1:{server.port}") as ws:  # type: ignore[arg-type]
            ws.send(json.dumps({"type": "hello"}))
            assert json.loads(ws.recv(timeout=5))["type"] == "state"


def test_forged_token_and_unknown_game_close_the_socket(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, tokens = server.full_table(2)
        forged = server.client(code, tokens[0][:-2] + "xx")
        assert forged.messages[-1]["error"]["code"] == "bad_token"
        assert forged.closed()
        unknown = server.client("ZZZZZZ")
        assert unknown.messages[-1]["error"]["code"] == "unknown_game"
        assert unknown.closed()


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("not json", "bad_json"),
        (b"\x00\x01binary", "bad_json"),
        ("[1, 2]", "malformed"),
        ('{"type": "dance"}', "malformed"),
        ('{"type": "move", "v": "7", "action": {"type": "pass"}}', "malformed"),
        ('{"type": "move", "v": 7, "action": "pass"}', "malformed"),
        ('{"type": "move", "v": 7, "action": {"type": "pass"}, "extra": 1}', "malformed"),
        ('{"type": "move", "action": {"type": "pass"}}', "malformed"),
        ('{"type": "hello", "token": null}', "already_hello"),
        ('{"type": "chat", "text": "' + "x" * 5000 + '"}', "too_large"),
    ],
)
def test_garbage_over_the_socket_changes_nothing(
    tmp_path: Path, raw: str | bytes, code: str
) -> None:
    with live_server(tmp_path) as server:
        game, tokens = server.full_table(3)
        clients = [server.client(game, t) for t in tokens]
        mover = next(c for c in clients if c.view["to_move"] == c.seat)
        before = mover.state
        mover.send_raw(raw)
        assert mover.error()["code"] == code
        mover.send({"type": "ping"})
        mover.wait(lambda m: m["type"] == "pong")
        assert mover.state["v"] == before["v"] and mover.state["view"] == before["view"]
        mover.move({"type": "pass"})
        mover.wait_state(lambda s: s["v"] == before["v"] + 1)


def test_a_message_over_the_frame_limit_closes_only_that_connection(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, tokens = server.full_table(2)
        greedy = server.client(code, tokens[0])
        greedy.send_raw("x" * 100_000)
        assert greedy.closed()
        again = server.client(code, tokens[0])
        assert again.seat == 0


def test_flooding_is_refused_then_cut_off(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, tokens = server.full_table(2)
        flooder = server.client(code, tokens[0])
        for _ in range(40):  # a burst over the bucket: refused, not yet cut off
            flooder.send({"type": "ping"})
        assert flooder.error()["code"] == "rate_limited"
        with contextlib.suppress(ConnectionClosed):  # the cut-off may come mid-flood
            for _ in range(200):
                flooder.send({"type": "ping"})
        assert flooder.closed()
        with server.http() as http:
            assert http.get("/health").json()["ok"] is True
