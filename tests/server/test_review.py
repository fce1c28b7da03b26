"""The deal review through a real server: a finished game's record (read back by the rules
and the command line), its review, its analysis (done in the review's workers, stored
with the game, read back after a restart, deleted with the game), the bounds, uploads."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tysiac import catalogue
from tysiac.rules.record import read_record

from ..records import recorded_game
from .harness import JSON_TYPE, Endpoint, FakeClock, Message, live_server, play_until

NEAR_END = (850, 850, 850, 850)  # start scores: a game of a few hands
NO_BARREL = {"barrel": "off"}
POLLING = {"review_requests_per_minute": 60_000}  # the tests poll faster than a page


def finished(state: Message) -> bool:
    return bool(state.get("game", {}).get("status") == "finished")


def finished_game(server: Endpoint, players: int = 3) -> str:
    """A game against easy computer players, played to its end: its code."""
    created = server.create("Ala", players, bots=["easy"] * (players - 1), options=NO_BARREL)
    me = server.client(created["code"], created["token"])
    play_until([me], finished, limit=120)
    me.close()
    code: str = created["code"]
    return code


def get(server: Endpoint, path: str, **params: str) -> httpx.Response:
    with server.http() as http:
        return http.get(path, params=params)


def analysis_until_ready(server: Endpoint, path: str, limit: float = 120) -> list[Message]:
    """Every answer of ``path`` (an analysis) until it is ready."""
    seen: list[Message] = []
    deadline = time.monotonic() + limit
    with server.http() as http:
        while True:
            assert time.monotonic() < deadline, seen[-1:]
            answer = http.get(path)
            assert answer.status_code == 200, answer.text
            seen.append(answer.json())
            if seen[-1]["status"] == "ready":
                return seen
            assert seen[-1]["status"] == "pending", seen[-1]
            time.sleep(0.1)


def stored_rows(database: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(database) as conn:
        return conn.execute("SELECT game_id, version, hands FROM game_reviews").fetchall()


def test_a_finished_game_s_record_reads_back_and_the_command_line_checks_it(
    tmp_path: Path,
) -> None:
    with live_server(tmp_path, start_scores=NEAR_END, bot_pause_seconds=0) as server:
        playing = server.create("Ola", 2, bots=["easy"])["code"]
        for path in ("record", "review", "analysis"):
            refused = get(server, f"/api/games/{playing}/{path}")
            assert refused.status_code == 409, refused.text
            error = refused.json()["error"]
            assert error["code"] == "record"
            assert error["message"] == (
                "Przebieg partii i jej zapis są dostępne dopiero po końcu gry."
            )
        assert get(server, "/api/games/ZZZZZZ/record").status_code == 404
        code = finished_game(server)
        summary = get(server, f"/api/games/{code}").json()
        answer = get(server, f"/api/games/{code}/record")
        assert answer.status_code == 200 and "content-disposition" not in answer.headers
        record = answer.json()
        download = get(server, f"/api/games/{code}/record", download="1")
        assert download.headers["content-disposition"] == (
            f'attachment; filename="tysiac-{code}.json"'
        )
        assert download.json() == record
    assert record["format"] == "tysiac-record" and record["version"] == 1
    assert record["code"] == code and record["nicks"] == summary["nicks"]
    assert record["scores"] == [850, 850, 850] and record["options"]["barrel"] == "off"
    replayed = read_record(record)
    assert replayed.game.is_over and record["outcome"]["reason"] == "points"
    file = tmp_path / "game.json"
    file.write_text(json.dumps(record), encoding="utf-8")
    checked = subprocess.run(
        [sys.executable, "-m", "tysiac.rules", "record", str(file)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout) == {
        "hands": len(record["hands"]),
        "scores": record["hands"][-1]["result"]["scores"],
        "outcome": record["outcome"],
    }
    tampered = json.loads(json.dumps(record))
    tampered["hands"][0]["result"]["delta"][0] += 10
    file.write_text(json.dumps(tampered), encoding="utf-8")
    refused = subprocess.run(
        [sys.executable, "-m", "tysiac.rules", "record", str(file)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode == 2
    assert refused.stderr.startswith("tysiac-rules: invalid record: hand 1")


def test_the_review_shows_every_hand_and_step_and_the_analysis_fills_in(
    tmp_path: Path,
) -> None:
    with live_server(tmp_path, start_scores=NEAR_END, bot_pause_seconds=0, **POLLING) as server:
        code = finished_game(server)
        record = get(server, f"/api/games/{code}/record").json()
        answer = get(server, f"/api/games/{code}/review")
        assert answer.status_code == 200, answer.text
        assert answer.headers["cache-control"] == "no-store"
        review = answer.json()
        states = analysis_until_ready(server, f"/api/games/{code}/analysis")
        again = get(server, f"/api/games/{code}/review").json()
    assert review["source"] == "game" and review["code"] == code
    for key in ("players", "target", "options", "nicks", "outcome"):
        assert review[key] == record[key], key
    assert review["kept_until"].endswith("+00:00")
    assert len(review["hands"]) == len(record["hands"])
    for hand, recorded in zip(review["hands"], record["hands"], strict=True):
        assert len(hand["steps"]) == len(recorded["actions"]) + 1
    analysis = review["analysis"]
    assert analysis["status"] in ("pending", "ready")
    ready = states[-1]
    assert len(ready["hands"]) == len(record["hands"]) and all(ready["analysed"])
    assert ready["retry_ms"] is None and len(ready["counts"]) == 3
    for pending in states[:-1]:
        assert pending["counts"] is None and pending["retry_ms"] > 0
        assert len(pending["hands"]) == len(record["hands"])
    played = [h for h in record["hands"] if h["result"] and h["result"]["end"] == "played"]
    assert sum(v is not None for v in ready["hands"]) >= len(played) > 0
    assert again["analysis"] == ready


def test_the_analysis_is_stored_once_served_after_a_restart_and_deleted_with_the_game(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    database = tmp_path / "test.db"
    with live_server(
        tmp_path, start_scores=NEAR_END, bot_pause_seconds=0, clock=clock, **POLLING
    ) as server:
        code = finished_game(server, players=2)
        ready = analysis_until_ready(server, f"/api/games/{code}/analysis")[-1]
        deadline = time.monotonic() + 10
        while not stored_rows(database):
            assert time.monotonic() < deadline, "the analysis was not stored"
            time.sleep(0.05)
    [(_, version, hands)] = stored_rows(database)
    assert version == 1 and json.loads(hands) == ready["hands"]
    with live_server(tmp_path, bot_pause_seconds=0, clock=clock) as server:
        # Another process on the same file: read back, not computed again.
        first = get(server, f"/api/games/{code}/analysis").json()
        assert first == ready
        clock.advance(days=7, minutes=1)
        deadline = time.monotonic() + 10
        while get(server, f"/api/games/{code}").status_code != 410:
            assert time.monotonic() < deadline, "the game was not deleted"
            time.sleep(0.05)
        assert stored_rows(database) == []
        gone = get(server, f"/api/games/{code}/analysis")
        assert gone.status_code == 410


def upload(server: Endpoint, body: object) -> httpx.Response:
    with server.http() as http:
        return http.post("/api/records/review", json=body)


def test_the_bounds_per_address_and_server_wide_answer_later(tmp_path: Path) -> None:
    # 40 hands: each analysis takes the one worker some 0.4 s, beside the others' in turn,
    # so the first ones are still under way when the last of these uploads come.
    record = recorded_game(33, players=3, target=1000).record()
    assert len(record["hands"]) == 40

    def copy(code: str) -> dict[str, Any]:
        return {**record, "code": code}

    with live_server(tmp_path, review_queue=3, review_workers=1, **POLLING) as server:
        one = server.from_address("127.0.0.2")
        first, second, third = (upload(one, copy(c)).json() for c in ("AAAAAA", "BBBBBB", "CCCCCC"))
        assert first["source"] == "file" and len(first["key"]) == 64
        assert first["analysis"]["status"] == "pending"
        assert second["analysis"]["status"] == "pending"
        assert third["analysis"] == {
            "status": "later",
            "hands": [],
            "analysed": [],
            "counts": None,
            "retry_ms": 15000,
        }
        assert len(third["hands"]) == len(record["hands"])  # the review itself is there
        other = server.from_address("127.0.0.3")
        assert upload(other, copy("DDDDDD")).json()["analysis"]["status"] == "pending"
        full = upload(server.from_address("127.0.0.4"), copy("EEEEEE")).json()
        assert full["analysis"]["status"] == "later"  # three in the server
        # The first ones go on and end; then there is room again.
        analysis_until_ready(one, f"/api/records/{first['key']}/analysis")
        analysis_until_ready(one, f"/api/records/{second['key']}/analysis")
        again = get(one, f"/api/records/{third['key']}/analysis").json()
        assert again["status"] == "pending"  # started now
        assert get(one, f"/api/records/{'0' * 64}/analysis").status_code == 404


def test_requests_per_address_pass_a_token_bucket(tmp_path: Path) -> None:
    with live_server(
        tmp_path, start_scores=NEAR_END, bot_pause_seconds=0, review_requests_per_minute=1
    ) as server:
        code = finished_game(server, players=2)
        greedy = server.from_address("127.0.0.5")
        answers = [get(greedy, f"/api/games/{code}/analysis").json() for _ in range(21)]
        assert all(a["status"] in ("pending", "ready") for a in answers[:20])
        assert answers[20]["status"] == "later" and answers[20]["retry_ms"] == 5000
        refused = get(greedy, f"/api/games/{code}/review")
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "review_rate"
        # Another address is not held up.
        assert get(server.from_address("127.0.0.6"), f"/api/games/{code}/review").is_success


def test_bad_uploads_are_refused_clearly_and_change_nothing(tmp_path: Path) -> None:
    record = recorded_game(3, players=2, target=500, max_hands=3).record()
    with live_server(tmp_path, review_queue=1) as server:
        client = server.from_address("127.0.0.7")
        with client.http() as http:
            answer = http.post(
                "/api/records/review",
                content=b"{not json",
                headers={"Content-Type": "application/json"},
            )
            assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_json"
            answer = http.post("/api/records/review", content=b"[]", headers={})
            assert answer.status_code == 415
        # A body past 512 KiB: refused by its declared length, before it is read.
        head = (
            "POST /api/records/review HTTP/1.1\r\nHost: x\r\n"
            f"Content-Type: application/json\r\nContent-Length: {512 * 1024 + 1}\r\n\r\n"
        )
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(head.encode() + b'{"format": "')
            received = b""
            while chunk := sock.recv(65536):
                received += chunk
        answer_text = received.decode()
        assert answer_text.startswith("HTTP/1.1 413"), answer_text
        assert "Za duży plik: zapis partii może mieć do 512 KiB." in answer_text
        for bad, where in (
            ([], ""),
            ({**record, "players": "2"}, "players"),
            ({**record, "format": "other"}, "format"),
            ({**record, "hands": "none"}, "hands"),
        ):
            answer = upload(client, bad)
            assert answer.status_code == 400, answer.text
            error = answer.json()["error"]
            assert error["code"] == "record" and where in error["message"]
            assert error["message"].startswith(catalogue.text("error.record.invalid"))
            assert error["key"] == "error.record.invalid"
        deep = "[" * 5000 + "]" * 5000
        with client.http() as http:
            for text in ("null", '"x"', "1e999", deep, '{"format": "tysiac-record", "version": 1}'):
                answer = http.post("/api/records/review", content=text, headers=JSON_TYPE)
                assert answer.status_code == 400, (text[:40], answer.text)
        for odd in (
            {**record, "hands": [{"dealer": "0"}]},
            {**record, "nicks": [1, 2]},
            {**record, "hands": [{**record["hands"][0], "actions": [{"type": "play"}]}]},
            {**record, "options": {"bid_step": "x"}},
        ):
            answer = upload(client, odd)
            assert answer.status_code == 400, answer.text
            assert answer.json()["error"]["code"] == "record"
        tampered = json.loads(json.dumps(record))
        tampered["hands"][-1]["result"]["scores"][0] += 10
        answer = upload(client, tampered)
        assert answer.status_code == 400
        error = answer.json()["error"]
        assert f"hand {len(record['hands'])}" in error["params"]["detail"]
        # Where, in the reader's language; why, in the format's own words after it.
        assert error["key"] == "error.record.invalid_hand"
        assert error["params"]["hand"] == len(record["hands"])
        assert error["more"] == [
            {"key": "error.record.detail", "params": {"detail": error["params"]["detail"]}}
        ]
        # Nothing was queued: the one place in the server is free for a good record.
        good = upload(client, record)
        assert good.status_code == 200, good.text
        assert good.json()["analysis"]["status"] in ("pending", "ready")


@pytest.mark.parametrize("players", [2, 4])
def test_the_review_of_two_and_four_player_games(tmp_path: Path, players: int) -> None:
    with live_server(tmp_path, start_scores=NEAR_END, bot_pause_seconds=0, **POLLING) as server:
        code = finished_game(server, players=players)
        review = get(server, f"/api/games/{code}/review").json()
        assert review["players"] == players and len(review["nicks"]) == players
        ready = analysis_until_ready(server, f"/api/games/{code}/analysis")[-1]
        assert len(ready["counts"]) == players
