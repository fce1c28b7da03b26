"""One anonymous client must not take the service down, lock others out or learn an address.

Each test is a reproduction of an attack that once worked, against the real server on
real sockets; each would fail if its fix were undone. (The transport-level ones, the
connection caps, timeouts and the log, are in test_connections.py.)
"""

from __future__ import annotations

import logging
import os
import select
import socket
import sqlite3
import stat
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tysiac.server.config import ConfigError, Settings
from tysiac.server.security import ip_hash

from .harness import JSON_TYPE, FakeClock, LiveServer, ProcessServer, live_server

MB = 1024 * 1024


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def post_chunked(port: int, path: str, total: int) -> tuple[int, int, bool]:
    """POST a chunked JSON body of ``total`` bytes, made as it goes (never held in memory).

    Stops sending as soon as the server answers or closes; returns the answer's status,
    how many bytes went out before it, and whether the server then ended the connection
    (rather than reading on through the rest of the body).
    """
    chunk = b" " * (64 * 1024)
    frame = b"%x\r\n%s\r\n" % (len(chunk), chunk)
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        sock.sendall(head.encode())
        while sent < total:
            if select.select([sock], [], [], 0)[0]:
                break  # the server has answered
            try:
                sock.sendall(frame)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(chunk)
        answer = b""
        while b"\r\n" not in answer:
            data = sock.recv(4096)
            assert data, f"closed without an answer after {sent} bytes"
            answer += data
        sock.settimeout(5)
        try:
            while sock.recv(4096):
                pass
            ended = True
        except TimeoutError:
            ended = False
        except ConnectionResetError:
            ended = True
    return int(answer.split()[1]), sent, ended


# --- 1. request bodies are read only up to their limit ------------------------------


def test_a_200_mb_chunked_body_gets_413_without_the_server_growing(tmp_path: Path) -> None:
    server = ProcessServer(tmp_path / "big.db", tmp_path / "server.log")
    server.start()
    try:
        assert server.process is not None
        code = server.create("Ala", 2)["code"]
        before = rss_kb(server.process.pid)
        for path in ("/api/games", f"/api/games/{code}/join", "/api/contact"):
            status, sent, ended = post_chunked(server.port, path, 200 * MB)
            assert status in (413, 503), path  # 503: the contact form is not configured here
            assert sent < 20 * MB, (path, sent)  # refused early, not after reading it all
            assert ended, path  # and the rest is not read either: the connection ends
        grown = rss_kb(server.process.pid) - before
        assert grown < 20 * 1024, f"the server grew by {grown} KiB"
        assert server.join(code, "Ola")["seat"] == 1  # and it still plays
    finally:
        server.stop()


# --- 8, 9. only the site's own pages may post, and only JSON ----------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Type": "text/plain"},
        {"Content-Type": "application/x-www-form-urlencoded"},
        {"Content-Type": "multipart/form-data; boundary=x"},
        {},
        {"Content-Type": "application/json", "Origin": "http://evil.example"},
        {"Content-Type": "application/json", "Origin": "null"},
    ],
)
def test_cross_site_and_non_json_posts_change_nothing(
    tmp_path: Path, headers: dict[str, str]
) -> None:
    body = b'{"nick": "Ala", "players": 2}'
    with live_server(tmp_path) as server, server.http() as http:
        code = server.create("Ola", 2)["code"]
        for path in ("/api/games", f"/api/games/{code}/join"):
            response = http.post(path, content=body, headers=headers)
            expected = 403 if "Origin" in headers else 415
            assert response.status_code == expected, response.text
            assert response.json()["error"]["code"] in ("foreign_origin", "unsupported_media_type")
        assert http.get(f"/api/games/{code}").json()["nicks"] == ["Ola", None]
        with sqlite3.connect(tmp_path / "test.db") as db:
            assert db.execute("select count(*) from games").fetchone() == (1,)
        response = http.post(
            "/api/games", content=body, headers={**JSON_TYPE, "Origin": server.base}
        )
        assert response.status_code == 201  # the site's own page may


def test_with_a_public_url_only_its_origin_may_open_sockets_and_post(tmp_path: Path) -> None:
    public = "https://tysiac.example.org"
    with live_server(tmp_path, public_url=public) as server:
        code = server.create("Ala", 2)["code"]
        # DNS rebinding: evil.example resolves to this server, so Host and Origin agree.
        evil = f"evil.example:{server.port}"
        rebinding = {"Origin": f"http://{evil}", "Host": evil}
        with pytest.raises(InvalidStatus) as refused:
            connect(
                f"ws://{evil}/ws/{code}",
                sock=socket.create_connection(("127.0.0.1", server.port)),
                additional_headers={"Origin": f"http://{evil}"},
                open_timeout=5,
            )
        assert refused.value.response.status_code == 403
        url = f"ws://127.0.0.1:{server.port}/ws/{code}"
        with connect(url, additional_headers={"Origin": public}, open_timeout=5) as ws:
            ws.send('{"type": "hello"}')
            assert '"state"' in str(ws.recv(timeout=5))
        with server.http() as http:
            posted = http.post("/api/games", json={"nick": "Ola", "players": 2}, headers=rebinding)
            assert posted.status_code == 403
            posted = http.post(
                "/api/games", json={"nick": "Ola", "players": 2}, headers={"Origin": public}
            )
            assert posted.status_code == 201
            assert posted.json()["link"].startswith(f"{public}/g/")


# --- 3. chat and messages are bounded per seat and per address ---------------------


def test_one_seat_over_many_sockets_cannot_flood_the_chat(tmp_path: Path) -> None:
    with live_server(tmp_path, chat_per_minute=6) as server:
        created = server.create("Ala", 2, chat=True)
        server.join(created["code"], "Ola")
        sockets = [server.client(created["code"], created["token"]) for _ in range(6)]
        watcher = server.client(created["code"])
        for round_ in range(3):
            for index, ws in enumerate(sockets):
                ws.send({"type": "chat", "text": f"linia {round_}-{index}"})
        refusals = []
        for ws in sockets:
            ws.drain(0.3)
            refusals += [m["error"]["code"] for m in ws.messages if m["type"] == "error"]
        watcher.drain(0.5)
        lines = watcher.state["chat"]
        assert 5 <= len(lines) <= 6, lines  # the burst of five, and at most one refilled
        assert refusals.count("chat_rate") == 18 - len(lines)


def test_one_address_over_many_sockets_is_bounded_in_messages(tmp_path: Path) -> None:
    with live_server(tmp_path, messages_per_second_per_ip=5) as server:
        code, tokens = server.full_table(2)
        sockets = [server.client(code) for _ in range(8)]  # spectators: no seat bucket
        for ws in sockets:
            for _ in range(4):
                ws.send({"type": "ping"})
        answers: list[str] = []
        for ws in sockets:
            ws.drain(0.3)
            answers += [
                m["type"] if m["type"] == "pong" else m["error"]["code"]
                for m in ws.messages
                if m["type"] in ("pong", "error")
            ]
        assert len(answers) == 32
        assert 10 <= answers.count("pong") <= 13, answers  # a burst of 2 × 5, and a refill
        assert answers.count("rate_limited") == 32 - answers.count("pong")
        other = server.client(code, tokens[0], {"X-Forwarded-For": "198.51.100.9"})
        other.send({"type": "ping"})
        assert other.wait(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"


def test_a_seat_holds_at_most_max_sockets_per_seat_sockets(tmp_path: Path) -> None:
    with live_server(tmp_path, max_sockets_per_seat=3) as server:
        code, tokens = server.full_table(2)
        held = [server.client(code, tokens[0]) for _ in range(3)]
        assert all(ws.state["game"]["you"] == 0 for ws in held)
        extra = server.client(code, tokens[0])
        assert extra.messages[-1]["type"] == "error"
        assert extra.messages[-1]["error"]["code"] == "too_many_sockets"
        assert extra.closed()
        assert server.client(code, tokens[1]).state["game"]["you"] == 1  # other seats are free
        held[0].close()
        time.sleep(0.2)
        again = server.client(code, tokens[0])
        assert again.state["game"]["you"] == 0


# --- 4. the lobby cannot be filled or churned from one address ----------------------


def create_from(server: LiveServer, address: str, **body: Any) -> httpx.Response:
    with server.http() as http:
        return http.post(
            "/api/games",
            json={"nick": "Ala", "players": 2, **body},
            headers={"X-Forwarded-For": address},
        )


def test_an_address_may_keep_only_a_few_games_waiting(tmp_path: Path) -> None:
    with live_server(tmp_path, max_waiting_games_per_ip=3) as server:
        made = [create_from(server, "203.0.113.7") for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 201]
        refused = create_from(server, "203.0.113.7")
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "waiting_limit"
        assert "(3)" in refused.json()["error"]["message"]
        assert create_from(server, "198.51.100.2").status_code == 201  # others still can
        server.join(made[0].json()["code"], "Ola")  # one fills up and starts
        assert create_from(server, "203.0.113.7").status_code == 201


def test_an_address_may_create_only_so_many_games_an_hour(tmp_path: Path) -> None:
    clock = FakeClock()
    with live_server(tmp_path, clock=clock, max_games_per_ip_per_hour=4) as server:
        for _ in range(4):
            created = create_from(server, "203.0.113.7")
            assert created.status_code == 201
            server.join(created.json()["code"], "Ola")  # filled: not waiting
        refused = create_from(server, "203.0.113.7")
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "creation_rate"
        assert create_from(server, "198.51.100.2").status_code == 201
        clock.advance(minutes=61)
        assert create_from(server, "203.0.113.7").status_code == 201


def test_statistics_count_a_bounded_number_of_games_from_one_address(tmp_path: Path) -> None:
    with live_server(tmp_path, stats_events_per_ip_per_day=2) as server:
        for address in ("203.0.113.7",) * 4 + ("198.51.100.2",):
            created = create_from(server, address)
            server.join(created.json()["code"], "Ola")
    with sqlite3.connect(tmp_path / "test.db") as db:
        started = db.execute("select sum(started) from daily_stats").fetchone()[0]
    assert started == 3  # two of the first address's four, and the other address's one


# --- 6. the address hashes cannot be reversed from the database file alone ----------


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_database_and_the_key_file_are_private_and_the_key_is_not_in_the_database(
    tmp_path: Path,
) -> None:
    database = tmp_path / "test.db"
    with live_server(tmp_path, migrated=False) as server:  # the server makes the file
        server.create("Ala", 2)
        key_file = tmp_path / "test.db.key"
        assert mode(database) == 0o600
        assert mode(tmp_path / "test.db-wal") == 0o600
        assert mode(key_file) == 0o600
        key = key_file.read_text().strip()
    with sqlite3.connect(database) as db:
        assert db.execute("select count(*) from server_values").fetchone() == (0,)
        stored = db.execute("select creator_ip from games").fetchone()[0]
    assert stored == ip_hash(key, "127.0.0.1")


def test_a_key_kept_in_the_database_by_an_older_version_moves_to_its_file(
    tmp_path: Path,
) -> None:
    database = tmp_path / "test.db"
    with live_server(tmp_path):
        pass
    (tmp_path / "test.db.key").unlink()
    old_key = "0123456789abcdef" * 4
    with sqlite3.connect(database) as db:
        db.execute("insert into server_values values ('ip_hash_key', ?)", (old_key,))
    os.chmod(database, 0o644)
    with live_server(tmp_path) as server:
        server.create("Ala", 2)
    assert mode(database) == 0o600
    assert (tmp_path / "test.db.key").read_text().strip() == old_key
    with sqlite3.connect(database) as db:
        assert db.execute("select count(*) from server_values").fetchone() == (0,)
        stored = db.execute("select creator_ip from games").fetchone()[0]
    assert stored == ip_hash(old_key, "127.0.0.1")  # the hashes already stored still match


def test_postgresql_needs_a_configured_hashing_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TYSIAC_CONFIG", raising=False)
    monkeypatch.delenv("TYSIAC_HASHING_SECRET", raising=False)
    monkeypatch.setenv("TYSIAC_DATABASE_URL", "postgresql+asyncpg://tysiac@db.internal/tysiac")
    with pytest.raises(ConfigError) as error:
        Settings.from_env()
    assert any("hashing_secret" in problem for problem in error.value.problems)
    monkeypatch.setenv("TYSIAC_HASHING_SECRET", "s" * 40)
    Settings.from_env()


# --- 7. only device ids the server issued count as devices --------------------------


def test_forged_device_ids_count_as_the_address_and_cannot_block_it(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        refusals = []
        for forged in ("A" * 22, "B" * 40, "C" * 22 + "." + "D" * 22):
            with httpx.Client(
                base_url=server.base, timeout=10, cookies={"ivoca_did": forged}
            ) as http:
                response = http.post(
                    "/api/games",
                    json={"nick": "kurwa", "players": 2},
                    headers={"X-Forwarded-For": "203.0.113.7"},
                )
                assert response.status_code == 400
                refusals.append(response.json()["error"]["message"])
                issued = response.cookies.get("ivoca_did")
                assert issued is not None and issued != forged  # a real one instead
        # Three "devices", but all one: the address (no issued cookie) - blocked itself
        # at its third violation, while the address as such is not blocked.
        assert "adres" not in refusals[1]
        assert "zablokowane na 24 godziny" in refusals[2] and "/kontakt" in refusals[2]
        with httpx.Client(base_url=server.base, timeout=10) as neighbour:
            neighbour.get("/", headers={"X-Forwarded-For": "203.0.113.7"})
            response = neighbour.post(
                "/api/games",
                json={"nick": "Sąsiad", "players": 2},
                headers={"X-Forwarded-For": "203.0.113.7"},
            )
            assert response.status_code == 201, response.text  # a real device still plays


def test_an_issued_device_id_is_signed(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, server.http() as http:
        issued = http.get("/").cookies["ivoca_did"]
        random_part, mac = issued.split(".")
        assert len(random_part) == 22 and len(mac) == 22
        tampered = ("A" if random_part[0] != "A" else "B") + random_part[1:] + "." + mac
        again = httpx.get(f"{server.base}/", cookies={"ivoca_did": tampered})
        assert again.cookies.get("ivoca_did") not in (None, tampered)
        kept = httpx.get(f"{server.base}/", cookies={"ivoca_did": issued})
        assert kept.cookies.get("ivoca_did") is None  # a valid one is not replaced


# --- 11. one bad game does not stop the sweeper --------------------------------------


def test_a_game_whose_log_no_longer_folds_is_cancelled_and_the_rest_are_swept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    with live_server(tmp_path, clock=clock) as server:
        old = server.create("Ala", 2)["code"]
        clock.advance(minutes=61)  # never filled: cancelled (R31)
        watcher = server.client(old)  # its first state is cancelled already if the sweep came first
        if watcher.state["game"]["status"] != "cancelled":
            watcher.wait_state(lambda s: s["game"]["status"] == "cancelled")
        broken, _ = server.full_table(3)
        clock.advance(seconds=1)
        due, _ = server.full_table(3)
    with sqlite3.connect(tmp_path / "test.db") as db:  # say, a rules fix since
        db.execute(
            "update events set data = '{\"deck\": [1, 2]}' where kind = 'dealt' and game_id = "
            "(select id from games where code = ?)",
            (broken,),
        )
    clock.advance(days=7)  # the old game is past keeping, both others are due
    with caplog.at_level(logging.ERROR), live_server(tmp_path, clock=clock) as server:
        deadline = time.monotonic() + 10
        while True:
            with sqlite3.connect(tmp_path / "test.db") as db:
                statuses = dict(db.execute("select code, status from games").fetchall())
            swept = statuses.get(broken) == "cancelled" and statuses.get(due) != "playing"
            if swept and old not in statuses:  # retention ran too: deleted after 7 days
                break
            assert time.monotonic() < deadline, statuses
            time.sleep(0.05)
        with server.http() as http:
            response = http.get(f"/api/games/{broken}")
            assert response.status_code == 410
            assert response.json()["error"]["code"] == "broken_game"
    assert any(broken in record.getMessage() for record in caplog.records)


# --- 13. security headers ---------------------------------------------------------


def test_permissions_policy_always_and_hsts_when_served_over_https(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        plain = httpx.get(f"{server.base}/")
        assert "camera=()" in plain.headers["permissions-policy"]
        assert "strict-transport-security" not in plain.headers
    with live_server(tmp_path, public_url="https://tysiac.example.org") as server:
        secure = httpx.get(f"{server.base}/health")
        assert secure.headers["strict-transport-security"].startswith("max-age=")


# --- 10. look-alike and invisible nicks ---------------------------------------------


@pytest.mark.parametrize(
    "twin", ["Аla", "Ａｌａ", "Ala\u034f", "Ala\ufe0f", "Ala\u180b", "ALA", "Aｌa"]
)
def test_a_look_alike_of_a_nick_at_the_table_is_taken(tmp_path: Path, twin: str) -> None:
    with live_server(tmp_path) as server, server.http() as http:
        code = server.create("Ala", 3)["code"]
        response = http.post(f"/api/games/{code}/join", json={"nick": twin})
        assert response.status_code in (400, 409), response.text
        assert response.json()["error"]["code"] in ("nick_taken", "bad_characters")
        assert http.get(f"/api/games/{code}").json()["nicks"] == ["Ala", None, None]
        assert server.join(code, "Ola")["seat"] == 1  # a different nick is fine


@pytest.mark.parametrize(
    ("nick", "code"),
    [
        ("\u3164", "invisible_nick"),
        ("\u3164\u3164", "invisible_nick"),
        ("\uffa0", "invisible_nick"),
        ("\u115f", "invisible_nick"),
        ("\u2800", "empty_text"),
        ("Z\u0301\u0302\u0303\u0304ala", "too_many_marks"),
        ("k\u0443rwa", "vulgar"),
    ],
)
def test_invisible_zalgo_and_disguised_nicks_are_refused(
    tmp_path: Path, nick: str, code: str
) -> None:
    with live_server(tmp_path) as server, server.http() as http:
        response = http.post("/api/games", json={"nick": nick, "players": 2, "public": True})
        assert response.json()["error"]["code"] == code, response.text
        assert http.get("/api/games").json() == {"waiting": [], "playing": []}  # none made
