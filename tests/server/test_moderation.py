"""Moderation over real HTTP and WebSockets: warnings, blocks, chat, reports, removals."""

from __future__ import annotations

import io
import json
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from tysiac.server import admin

from .harness import FakeClock, LiveServer, live_server, simple_move

VULGAR = "kurwa"


class Device:
    """One browser: its own cookie jar (so its own ivoca_did), from one address."""

    def __init__(self, server: LiveServer, address: str = "203.0.113.7") -> None:
        self.server = server
        self.address = address
        self.http = httpx.Client(
            base_url=server.base, timeout=10, headers={"X-Forwarded-For": address}
        )
        self.http.get("/")  # the first page sets the device cookie

    @property
    def device_id(self) -> str:
        value = self.http.cookies.get("ivoca_did")
        assert value is not None
        return value

    def create(self, nick: str = "Ala", **options: Any) -> httpx.Response:
        return self.http.post("/api/games", json={"nick": nick, "players": 2, **options})

    def join(self, code: str, nick: str) -> httpx.Response:
        return self.http.post(f"/api/games/{code}/join", json={"nick": nick})

    def socket(self, code: str, token: str | None) -> Any:
        headers = {"Cookie": f"ivoca_did={self.device_id}", "X-Forwarded-For": self.address}
        return self.server.client(code, token, headers)


def two_at_a_table(server: LiveServer) -> tuple[Device, Any, Device, Any, Any, str]:
    """Ala and Ola, each on a device of her own, at a private table, and a spectator."""
    ala, ola = Device(server), Device(server, "198.51.100.2")
    created = ala.create("Ala").json()
    joined = ola.join(created["code"], "Ola").json()
    ala_ws = ala.socket(created["code"], created["token"])
    ola_ws = ola.socket(created["code"], joined["token"])
    return ala, ala_ws, ola, ola_ws, server.client(created["code"]), created["code"]


def error(response: httpx.Response) -> dict[str, str]:
    body: dict[str, dict[str, str]] = response.json()
    return body["error"]


def admin_output(server: LiveServer, *argv: str) -> str:
    out = io.StringIO()
    admin.run(list(argv), server.settings, out, server.clock)
    return out.getvalue()


@contextmanager
def moderated(tmp_path: Path) -> Iterator[tuple[LiveServer, FakeClock]]:
    clock = FakeClock()
    with live_server(tmp_path, clock=clock) as server:
        yield server, clock


def test_the_device_cookie_is_random_http_only_lax_a_year_and_never_stored(
    tmp_path: Path,
) -> None:
    with moderated(tmp_path) as (server, _clock):
        with httpx.Client(base_url=server.base) as http:
            first = http.get("/")
            cookie = first.headers["set-cookie"]
            assert cookie.startswith("ivoca_did=")
            for part in ("HttpOnly", "SameSite=Lax", "Max-Age=31536000", "Path=/"):
                assert part in cookie
            device_id = http.cookies["ivoca_did"]
            assert "set-cookie" not in http.get("/zasady").headers  # kept, not renewed
            http.post("/api/games", json={"nick": VULGAR, "players": 2})
        with httpx.Client(base_url=server.base) as other:
            assert other.get("/").cookies["ivoca_did"] != device_id
        stored = (tmp_path / "test.db").read_bytes() + (tmp_path / "test.db-wal").read_bytes()
        assert device_id.encode() not in stored
        assert b"127.0.0.1" not in stored


def test_two_warnings_then_a_day_then_a_week(tmp_path: Path) -> None:
    with moderated(tmp_path) as (server, clock):
        ala = Device(server)
        first = ala.create(VULGAR)
        assert first.status_code == 400 and error(first)["code"] == "vulgar"
        assert error(first)["message"].startswith("Ten nick zawiera niedozwolone słowo")
        assert "pierwsze ostrzeżenie" in error(first)["message"]
        # The page words it by its keys: the refusal's, then the sentences that follow.
        assert error(first)["key"] == "error.vulgar.nick"
        assert error(first)["more"] == [{"key": "moderation.warning.first", "params": {}}]
        second = ala.create("Ala", name="k u r w a mać")
        assert "Nazwa gry zawiera niedozwolone słowo" in error(second)["message"]
        assert "ostatnie ostrzeżenie" in error(second)["message"]
        assert ala.http.get("/api/games").json() == {"waiting": [], "playing": []}
        assert ala.create("Ala").status_code == 201  # warnings only: still allowed

        third = ala.create("Kurwiszon")
        assert "zablokowane na 24 godziny, do 30.11.2026, 13:00" in error(third)["message"]
        code = server.create("Ola", 2)["code"]
        for refused in (ala.create("Ala"), ala.join(code, "Ala")):
            assert refused.status_code == 403 and error(refused)["code"] == "blocked"
            assert "do 30.11.2026, 13:00" in error(refused)["message"]
        assert Device(server, "198.51.100.1").create("Ela").status_code == 201  # others may

        clock.advance(hours=23, minutes=59)
        assert ala.create("Ala").status_code == 403
        clock.advance(minutes=1)
        assert ala.create("Ala").status_code == 201  # the day is over

        fourth = ala.create("chuj")
        assert "zablokowane na tydzień" in error(fourth)["message"]
        clock.advance(days=6, hours=23)
        assert ala.create("Ala").status_code == 403
        clock.advance(hours=1)
        assert ala.create("Ala").status_code == 201


def test_three_devices_with_violations_block_their_address_for_a_day(tmp_path: Path) -> None:
    with moderated(tmp_path) as (server, clock):
        # IPv6 addresses count by their /64.
        devices = [Device(server, f"2001:db8:1:2::{n}") for n in (1, 2, 3)]
        assert "adres" not in error(devices[0].create(VULGAR))["message"]
        clock.advance(hours=12)
        assert "adres" not in error(devices[1].create(VULGAR))["message"]
        clock.advance(hours=11)
        blocked = error(devices[2].create(VULGAR))["message"]
        assert "adres jest zablokowany do 01.12.2026, 12:00" in blocked  # 11:00 UTC + 24 h

        newcomer = Device(server, "2001:db8:1:2::99")  # a clean device, same /64
        refused = newcomer.create("Ela")
        assert (
            refused.status_code == 403 and "adres IP jest zablokowany" in error(refused)["message"]
        )
        assert Device(server, "2001:db8:1:3::1").create("Ela").status_code == 201  # another /64
        clock.advance(hours=24)
        assert newcomer.create("Ela").status_code == 201


def test_devices_spread_over_more_than_a_day_do_not_block_the_address(tmp_path: Path) -> None:
    with moderated(tmp_path) as (server, clock):
        for _ in range(3):
            Device(server, "192.0.2.5").create(VULGAR)
            clock.advance(hours=13)
        assert Device(server, "192.0.2.5").create("Ela").status_code == 201


def test_a_vulgar_chat_line_is_not_sent_and_two_turn_the_games_chat_off(tmp_path: Path) -> None:
    with moderated(tmp_path) as (server, _clock):
        ala, ala_ws, _, ola_ws, watcher, code = two_at_a_table(server)

        ala_ws.send({"type": "chat", "text": "ty ch.u.j.u"})
        refused = ala_ws.error()
        assert refused["code"] == "vulgar" and "Wiadomość nie została wysłana" in refused["message"]
        ola_ws.send({"type": "chat", "text": "grzecznie"})
        watcher.wait_state(lambda s: [line["text"] for line in s["chat"]] == ["grzecznie"])
        assert ala_ws.state["game"]["can_chat"] is True  # one rejection: still on

        ola_ws.send({"type": "chat", "text": "SPIERDALAJ"})
        assert ola_ws.error()["code"] == "vulgar"
        closed = "Czat w tej grze wyłączył się po dwóch odrzuconych wiadomościach."
        for client in (ala_ws, ola_ws):  # the refusal and the new state: in either order
            state = client.state
            if state["game"]["can_chat"]:
                state = client.wait_state(lambda s: not s["game"]["can_chat"])
            assert state["game"]["chat_note"] == closed
        ala_ws.send({"type": "chat", "text": "dobra gra"})
        assert ala_ws.error() == {
            "code": "chat_closed",
            "key": "error.chat_closed.closed",
            "message": closed,
            "field": "text",
        }
        for client in (ala_ws, ola_ws, watcher):
            client.drain()
            text = str(client.messages)
            assert "ch.u.j.u" not in text and "SPIERDALAJ" not in text
            assert ala.device_id not in text

        log = admin_output(server, "log")
        assert "'ty ch.u.j.u'" in log and "'SPIERDALAJ'" in log and code in log


def test_a_blocked_device_cannot_chat(tmp_path: Path) -> None:
    with moderated(tmp_path) as (server, _clock):
        ala = Device(server)
        created = ala.create("Ala").json()
        server.join(created["code"], "Ola")
        ala_ws = ala.socket(created["code"], created["token"])
        for _ in range(3):
            ala.create(VULGAR)
        ala_ws.send({"type": "chat", "text": "dzień dobry"})
        assert ala_ws.error()["code"] == "blocked"
        # Until when, in Polish time, which a reader of another language is told.
        for lang, zone in (("pl", ""), ("en", " (Polish time)"), ("uk", " (за польським часом)")):
            error = ala.http.post(
                "/api/games", json={"nick": "Ala", "players": 2}, params={"lang": lang}
            ).json()["error"]
            assert error["key"] == "error.blocked.device"
            assert re.fullmatch(
                r"\d\d\.\d\d\.\d{4}, \d\d:\d\d" + re.escape(zone), error["params"]["until"]
            )
            assert error["params"]["until"] in error["message"]


def test_public_chat_only_after_ones_own_move_even_for_a_clean_device(tmp_path: Path) -> None:
    with moderated(tmp_path) as (server, _clock):
        code, tokens = server.full_table(2, public=True, chat=True)
        clients = [server.client(code, token) for token in tokens]
        mover = next(c for c in clients if c.view["to_move"] == c.seat)
        other = next(c for c in clients if c is not mover)
        other.send({"type": "chat", "text": "hej"})
        assert other.error()["code"] == "chat_closed"
        mover.move(simple_move(mover.view))
        mover.wait_state(lambda s: s["game"]["can_chat"])
        mover.send({"type": "chat", "text": "hej"})
        other.wait_state(lambda s: [line["text"] for line in s["chat"]] == ["hej"])


def test_a_player_reports_a_chat_line_to_the_admin_log(tmp_path: Path) -> None:
    with moderated(tmp_path) as (server, _clock):
        ala, ala_ws, _, ola_ws, watcher, code = two_at_a_table(server)
        ala_ws.send({"type": "chat", "text": "jesteś beznadziejna, głupia krowo"})
        line = ola_ws.wait_state(lambda s: s["chat"] != [])["chat"][0]
        assert set(line) == {"seq", "seat", "nick", "text", "at"}  # no device hash

        watcher.send({"type": "report", "seq": line["seq"]})
        assert watcher.error()["code"] == "spectator"
        ala_ws.send({"type": "report", "seq": line["seq"]})
        assert ala_ws.error()["code"] == "own_message"
        ola_ws.send({"type": "report", "seq": 999})
        assert ola_ws.error()["code"] == "no_such_message"
        ola_ws.send({"type": "report", "seq": line["seq"]})
        assert ola_ws.wait(lambda m: m["type"] == "reported") == {
            "type": "reported",
            "seq": line["seq"],
        }
        ola_ws.send({"type": "report", "seq": line["seq"]})  # twice is one entry
        ola_ws.wait(lambda m: m["type"] == "reported")

        log = admin_output(server, "log").splitlines()
        assert len(log) == 1
        entry = log[0]
        assert "reported" in entry and "Ala (reported by Ola)" in entry
        assert code in entry and "'jesteś beznadziejna, głupia krowo'" in entry
        device_hash = entry.rsplit("device ", 1)[1]
        assert len(device_hash) == 64 and ala.device_id not in entry
        ala.create(VULGAR)  # the same device's rejected nick carries the same hash
        assert admin_output(server, "log").count(device_hash) == 2


def test_the_operator_removes_a_game_and_everyone_sees_why(tmp_path: Path) -> None:
    with moderated(tmp_path) as (server, clock):
        code, tokens = server.full_table(3)
        players = [server.client(code, token) for token in tokens]
        watcher = server.client(code)
        reason = "obraźliwa nazwa gry (zgłoszenie z 29.11.2026)"
        assert admin_output(server, "delete", code.lower(), "--reason", reason) == (
            f"Game {code} removed.\n"
        )
        expected = f"Ta gra została usunięta przez administratora serwisu. Powód: {reason}"
        for client in (*players, watcher):
            told = client.wait(lambda m: m["type"] == "deleted")
            assert told["message"] == expected
            # The page words it by its key, the operator's reason as written.
            assert told["key"] == "error.deleted.removed"
            assert told["params"] == {"reason": reason}
            assert client.closed()
        with server.http() as http:
            for response in (
                http.get(f"/api/games/{code}"),
                http.post(f"/api/games/{code}/join", json={"nick": "Ewa"}),
            ):
                assert response.status_code == 410
                refusal = error(response)
                assert (refusal["code"], refusal["message"]) == ("deleted", expected)
        late = server.client(code)
        assert late.messages[-1]["error"]["message"] == expected
        assert admin_output(server, "delete", "ZZZZZZ", "--reason", "x") == "No game ZZZZZZ.\n"

        database = sqlite3.connect(tmp_path / "test.db")
        assert database.execute("select count(*) from events").fetchone() == (0,)
        assert database.execute("select count(*) from seats").fetchone() == (0,)
        clock.advance(days=7)
        server.client(code)  # a sweep later the notice is gone
        with server.http() as http:
            for _ in range(100):
                if http.get(f"/api/games/{code}").status_code == 404:
                    break
            assert error(http.get(f"/api/games/{code}"))["code"] == "unknown_game"


def test_the_operator_lifts_a_block(tmp_path: Path) -> None:
    with moderated(tmp_path) as (server, _clock):
        ala = Device(server)
        for _ in range(3):
            ala.create(VULGAR)
        blocks = admin_output(server, "blocks")
        assert blocks.startswith("device ")
        device_hash = blocks.split()[1]
        assert admin_output(server, "unblock", device_hash) == "Block lifted.\n"
        assert ala.create("Ala").status_code == 201
        assert admin_output(server, "unblock", device_hash) == "No block with that hash.\n"
        assert admin_output(server, "blocks") == "Nothing is blocked.\n"


def test_retention_texts_30_days_hashes_90_days_after_the_last_violation(tmp_path: Path) -> None:
    with moderated(tmp_path) as (server, clock):
        ala = Device(server)
        for _ in range(3):
            ala.create(VULGAR)
        database = tmp_path / "test.db"

        def count(table: str) -> int:
            with sqlite3.connect(database) as db:
                found: int = db.execute(f"select count(*) from {table}").fetchone()[0]
                return found

        def sweep() -> None:  # the sweeper runs every 20 ms
            time.sleep(0.02)

        assert (count("moderation_log"), count("offenders"), count("violations")) == (3, 2, 3)
        clock.advance(days=1, seconds=1)
        wait_until(lambda: count("violations") == 0, sweep)
        assert count("offenders") == 2
        with sqlite3.connect(database) as db:
            assert db.execute("select blocked_until from offenders").fetchall() == [
                (None,),
                (None,),
            ]  # a block is kept until its end at most
        clock.advance(days=29)
        wait_until(lambda: count("moderation_log") == 0, sweep)
        assert count("offenders") == 2
        clock.advance(days=60)
        wait_until(lambda: count("offenders") == 0, sweep)
        # Forgotten: the device starts again from a warning.
        assert "pierwsze ostrzeżenie" in error(ala.create(VULGAR))["message"]


def wait_until(condition: Any, poke: Any) -> None:
    for _ in range(200):
        if condition():
            return
        poke()
    raise AssertionError("the sweeper never got there")


def test_the_same_words_from_two_players_are_two_reports(tmp_path: Path) -> None:
    with moderated(tmp_path) as (server, _clock):
        code, tokens = server.full_table(3)
        players = [server.client(code, token) for token in tokens]
        for writer in players[:2]:
            writer.send({"type": "chat", "text": "ale z ciebie łajza"})
        lines = players[2].wait_state(lambda s: len(s["chat"]) == 2)["chat"]
        for line in [*lines, *lines]:  # each twice: still one entry per line
            players[2].send({"type": "report", "seq": line["seq"]})
            players[2].wait(lambda m: m["type"] == "reported")
        log = admin_output(server, "log").splitlines()
        assert len(log) == 2
        assert {entry.split(" (reported by")[0].rsplit(" ", 1)[-1] for entry in log} == {
            "Gracz0",
            "Gracz1",
        }


def test_a_browser_that_creates_on_its_first_request_holds_one_seat(tmp_path: Path) -> None:
    """The creator's first request brings no cookie: the one its response sets is the
    browser's, and the same browser joining again under another nick is refused."""
    with moderated(tmp_path) as (server, _clock):
        headers = {"X-Forwarded-For": "203.0.113.9"}
        with httpx.Client(base_url=server.base, timeout=10, headers=headers) as browser:
            created = browser.post("/api/games", json={"nick": "Ala", "players": 3})
            assert created.status_code == 201 and "ivoca_did" in browser.cookies
            code = created.json()["code"]
            again = browser.post(f"/api/games/{code}/join", json={"nick": "Ola"})
            assert again.status_code == 409
            assert error(again) == {
                "code": "already_seated",
                "key": "error.already_seated",
                "message": "Już siedzisz przy tym stole jako Ala.",
                "params": {"nick": "Ala"},
            }
            assert browser.get(f"/api/games/{code}").json()["nicks"] == ["Ala", None, None]


def test_one_browser_holds_one_seat_at_a_table(tmp_path: Path) -> None:
    with moderated(tmp_path) as (server, _clock):
        ala, ola = Device(server), Device(server, "198.51.100.2")
        created = ala.create("Ala", players=4).json()
        code = created["code"]
        again = ala.join(code, "Alicja")
        assert again.status_code == 409
        assert error(again) == {
            "code": "already_seated",
            "key": "error.already_seated",
            "message": "Już siedzisz przy tym stole jako Ala.",
            "params": {"nick": "Ala"},
        }
        assert ola.join(code, "Ola").json()["seat"] == 1  # another browser sits down
        # Without a valid cookie the address stands in for the device, and many clients
        # share an address: they are not one browser.
        forged = {"Cookie": f"ivoca_did={'A' * 22}.{'B' * 22}"}
        for seat, nick in ((2, "Ela"), (3, "Iza")):
            with httpx.Client(base_url=server.base, headers=forged) as http:
                joined = http.post(f"/api/games/{code}/join", json={"nick": nick})
                assert joined.status_code == 200 and joined.json()["seat"] == seat
        full = ola.join(code, "Ola2")  # a full table: still told where it sits
        assert error(full) == {
            "code": "already_seated",
            "key": "error.already_seated",
            "message": "Już siedzisz przy tym stole jako Ola.",
            "params": {"nick": "Ola"},
        }
        assert ala.http.get(f"/api/games/{code}").json()["nicks"] == ["Ala", "Ola", "Ela", "Iza"]

        # The joiners' device hashes stay in the log: never in a message.
        with sqlite3.connect(tmp_path / "test.db") as db:
            rows = db.execute("select data from events where kind = 'joined' order by seq")
            devices = [json.loads(data)["device"] for (data,) in rows]
        # The forged cookies were replaced: each joiner is the browser of its new cookie.
        assert None not in devices and len(set(devices)) == 4
        watchers = [
            ala.socket(code, created["token"]),
            server.client(code),
            server.client(code, created["token"]),
        ]
        for watcher in watchers:
            watcher.drain()
            text = json.dumps(watcher.messages)
            assert watcher.state["log"][0] == {"kind": "joined", "seat": 0, "nick": "Ala", "v": 1}
            assert not any(device in text for device in devices[:2])
