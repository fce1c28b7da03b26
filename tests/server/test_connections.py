"""The transport layer: one client cannot take the service down, and leaves no address in the log.

Real servers on real sockets. Clients play different addresses by connecting from
127.0.0.2, 127.0.0.3, … (all loopback on Linux); 127.0.0.1 plays a trusted proxy in
``live_server`` (see ``LiveServer``), so it is never used here as a client.
"""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, closing, contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from tysiac.server.serving.guard import ConnectionGuard
from tysiac.server.serving.logs import redact_addresses

from .harness import Client, Endpoint, ProcessServer, live_server, play_until


def raw(server: Endpoint, source: str) -> socket.socket:
    """A plain TCP connection to the server from ``source``."""
    return socket.create_connection(
        ("127.0.0.1", server.port), timeout=10, source_address=(source, 0)
    )


def read_until_closed(sock: socket.socket, limit: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes (or ``limit`` passes), and the time."""
    started = time.monotonic()
    data = b""
    while (left := limit - (time.monotonic() - started)) > 0:
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
    return data, time.monotonic() - started


def response(data: bytes) -> tuple[int, dict[str, str], Any]:
    """Status, headers (lower-case names) and JSON body of one raw HTTP response."""
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, json.loads(body) if body else None


def refused_with_429(data: bytes) -> None:
    status, headers, body = response(data)
    assert status == 429, data
    assert headers["connection"] == "close"
    assert body["error"]["code"] == "too_many_connections"
    assert body["error"]["message"]


# Deadlines.


@pytest.mark.slow
def test_half_sent_headers_and_stalled_bodies_are_cut_off(tmp_path: Path) -> None:
    with live_server(tmp_path, request_timeout_seconds=1.0) as server:
        with closing(raw(server, "127.0.0.2")) as sock:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line
            data, seconds = read_until_closed(sock, 6)
        assert 0.8 < seconds < 3, seconds
        status, headers, body = response(data)
        assert (status, headers["connection"]) == (408, "close")
        assert body["error"]["code"] == "request_timeout"

        with closing(raw(server, "127.0.0.2")) as sock:
            sock.sendall(
                b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                b'{"nick": "Ala",'
            )  # and then nothing more of the body
            data, seconds = read_until_closed(sock, 6)
        assert 0.8 < seconds < 3, seconds
        assert response(data)[0] == 408

        with closing(raw(server, "127.0.0.2")) as sock:  # sends nothing at all: just closed
            data, seconds = read_until_closed(sock, 6)
        assert (data, 0.8 < seconds < 3) == (b"", True)

        # On a kept-alive connection: a whole request is answered, a half-sent next one is cut.
        with closing(raw(server, "127.0.0.2")) as sock:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sock.settimeout(5)
            assert sock.recv(65536).startswith(b"HTTP/1.1 200")
            sock.sendall(b"GET /health HTTP/1.1\r\n")
            data, seconds = read_until_closed(sock, 6)
        assert 0.8 < seconds < 3, seconds
        assert response(data)[0] == 408

        # A request that takes its time within the deadline is served.
        with closing(raw(server, "127.0.0.2")) as sock:
            sock.sendall(b"GET /health HTTP/1.1\r\n")
            time.sleep(0.5)
            sock.sendall(b"Host: 127.0.0.1\r\nConnection: close\r\n\r\n")
            data, _ = read_until_closed(sock, 5)
        assert data.startswith(b"HTTP/1.1 200"), data


# Connections per address.


def spectator(server: Endpoint, code: str) -> Client:
    return server.client(code)


def test_one_address_is_capped_and_others_still_play(tmp_path: Path) -> None:
    with live_server(tmp_path, max_connections_per_ip=20, request_timeout_seconds=30) as server:
        crowd, other = server.from_address("127.0.0.2"), server.from_address("127.0.0.3")
        code, tokens = other.full_table(3)
        with ExitStack() as held:
            # 20 connections from 127.0.0.2: idle HTTP connections and game sockets, mixed.
            for index in range(20):
                if index % 2:
                    held.enter_context(closing(raw(crowd, "127.0.0.2")))
                else:
                    held.callback(spectator(crowd, code).close)
            # The 21st is refused, over HTTP and over WebSocket alike.
            with closing(raw(crowd, "127.0.0.2")) as sock:
                sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                data, seconds = read_until_closed(sock, 5)
            refused_with_429(data)
            assert seconds < 3  # answered and closed, not left hanging
            with pytest.raises(InvalidStatus) as refusal:
                spectator(crowd, code)
            assert refusal.value.response.status_code == 429
            # Another address plays on: it joins, gets its state and moves.
            players = [other.client(code, token) for token in tokens]
            try:
                assert all(player.state["v"] >= 0 for player in players)
                start = players[0].state["v"]
                play_until(players, lambda state: state["v"] > start, limit=20)
                with other.http() as client:
                    assert client.get(f"/api/games/{code}").status_code == 200
                    created = client.post("/api/games", json={"nick": "Ola", "players": 2})
                    assert created.status_code == 201
            finally:
                for player in players:
                    player.close()
        # Its connections closed, 127.0.0.2 may connect again: all 20 of them.
        wait_until_served(crowd)
        with ExitStack() as held:
            for _ in range(19):
                held.enter_context(closing(raw(crowd, "127.0.0.2")))
            again = spectator(crowd, code)  # the 20th: a game socket, counted once
            held.callback(again.close)
            assert again.state["type"] == "state"
            with closing(raw(crowd, "127.0.0.2")) as sock:
                sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                refused_with_429(read_until_closed(sock, 5)[0])


def wait_until_served(endpoint: Endpoint, limit: float = 10) -> None:
    """Until GET /health answers 200 from the endpoint's address."""
    deadline = time.monotonic() + limit
    while True:
        try:
            with endpoint.http() as client:
                if client.get("/health").status_code == 200:
                    return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the server did not serve again"
        time.sleep(0.1)


# File descriptors.


@contextmanager
def process_server(
    tmp_path: Path, open_files: int | None = None, **env: str
) -> Iterator[ProcessServer]:
    server = ProcessServer(tmp_path / "serve.db", tmp_path / "server.log", **env)
    server.open_files = open_files
    try:
        server.start()
        yield server
    finally:
        if server.process is not None and server.process.poll() is None:
            server.process.send_signal(signal.SIGCONT)
        server.stop()


@pytest.mark.slow
def test_out_of_descriptors_the_server_refuses_calmly_and_recovers(tmp_path: Path) -> None:
    if int(Path("/proc/sys/net/core/somaxconn").read_text()) < 512:
        pytest.skip("the accept queue is too short to hold the burst")
    with process_server(tmp_path, open_files=256, TYSIAC_REQUEST_TIMEOUT_SECONDS="30") as server:
        assert server.process is not None
        before = server.log.read_bytes()
        # Stopped, the server accepts nothing: 400 connections wait in the accept queue,
        # and it meets them all at once (more than its 256 descriptors) when it goes on.
        sockets: list[socket.socket] = []
        server.process.send_signal(signal.SIGSTOP)
        try:
            for index in range(400):
                sockets.append(raw(server, f"127.0.0.{2 + index % 5}"))
        finally:
            server.process.send_signal(signal.SIGCONT)
        try:
            # A full server still answers, with a 503 (it may take a moment to get there).
            visitor = server.from_address("127.0.0.9")
            deadline = time.monotonic() + 10
            while True:
                try:
                    with visitor.http() as client:
                        busy = client.get("/health")
                    if busy.status_code == 503:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, "no 503 from the full server"
                time.sleep(0.2)
            assert busy.json()["error"]["code"] == "server_busy"
            answered = 0
            for sock in sockets:
                sock.setblocking(False)
                with suppress(BlockingIOError, ConnectionResetError):  # not answered yet
                    answered += sock.recv(20).startswith(b"HTTP/1.1 503")
            assert answered > 0
        finally:
            for sock in sockets:
                sock.close()
        wait_until_served(server)
        assert server.from_address("127.0.0.9").create()["code"]
        written = server.log.read_bytes()[len(before) :]
        text = written.decode(errors="replace")
        assert len(written) < 4000 and text.count("\n") < 20, text[:3000]
        assert text.count("accept() failed") == 1, text  # descriptors did run out, once
        assert "Traceback" not in text


# The log.


@pytest.mark.slow
def test_no_client_address_and_no_traceback_in_the_log(tmp_path: Path) -> None:
    address = "127.0.0.5"
    with process_server(tmp_path, TYSIAC_REQUEST_TIMEOUT_SECONDS="1") as server:
        client = server.from_address(address)
        code, tokens = client.full_table(3)
        players = [client.client(code, token) for token in tokens]
        start = players[0].state["v"]
        play_until(players, lambda state: state["v"] > start, limit=20)
        for player in players:
            player.close()
        with client.http() as http:
            assert http.get("/nie-ma-takiej-strony").status_code == 404
            assert http.get(f"/api/games/{code}").status_code == 200
        url = f"ws://127.0.0.1:{server.port}/ws/{code}"
        with pytest.raises(InvalidStatus) as refusal:  # another site's page
            connect(url, origin="https://evil.example", source_address=(address, 0))
        assert refusal.value.response.status_code == 403
        with connect(url, source_address=(address, 0)) as ws:  # a first frame over 16 KiB
            ws.send("x" * 20000)
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        with connect(url, source_address=(address, 0)) as ws:  # a binary first frame
            ws.send(b"\x00\x01")
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=5)
        with connect(url, source_address=(address, 0)) as ws:  # hello, then gone at once
            ws.send(json.dumps({"type": "hello", "token": "nie-ten"}))
        with connect(url.replace(code, "ZZZZZZ"), source_address=(address, 0)) as ws:
            ws.send(json.dumps({"type": "hello", "token": None}))
        with closing(raw(server, address)) as sock:  # not HTTP at all
            sock.sendall(b"\x16\x03\x01 hello?\r\n\r\n")
            read_until_closed(sock, 5)
        with closing(raw(server, address)) as sock:  # half-sent headers, cut off
            sock.sendall(b"GET /health HTTP/1.1\r\n")
            assert response(read_until_closed(sock, 5)[0])[0] == 408
        with closing(raw(server, address)) as sock:  # a stalled body, cut off
            sock.sendall(
                b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
            )
            assert response(read_until_closed(sock, 5)[0])[0] == 408
        time.sleep(0.5)
    written = server.log.read_text(errors="replace")
    assert "Uvicorn running on http://127.0.0.1:" in written  # the server's own address stays
    assert address not in written, written
    assert "Traceback" not in written, written
    assert "connection open" not in written and "connection closed" not in written


def test_the_harness_connects_from_the_address_it_is_told(tmp_path: Path) -> None:
    """The tests above rely on it: a server sees 127.0.0.2 when told so."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        endpoint = Endpoint()
        endpoint.port = listener.getsockname()[1]
        with closing(raw(endpoint, "127.0.0.2")):
            peer, (host, _port) = listener.accept()
            peer.close()
    assert host == "127.0.0.2"


# The pieces, without a server.


class Peer(asyncio.Transport):
    """A transport that only knows its peer's address."""

    def __init__(self, peername: Any) -> None:
        super().__init__()
        self.peername = peername

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.peername if name == "peername" else default


def test_addresses_are_counted_as_their_hashes_say_ipv6_by_its_64() -> None:
    guard = ConnectionGuard(per_address=2, trusted_proxies="10.0.0.1,192.0.2.0/24")
    key = guard.address_key
    assert key(Peer(("2001:db8:1:2::1", 5000, 0, 0))) == key(Peer(("2001:db8:1:2:ff::9", 1, 0, 0)))
    assert key(Peer(("2001:db8:1:2::1", 5000, 0, 0))) != key(Peer(("2001:db8:1:3::1", 1, 0, 0)))
    assert key(Peer(("::ffff:198.51.100.7", 1, 0, 0))) == key(Peer(("198.51.100.7", 2)))
    assert key(Peer(("198.51.100.7", 1))) != key(Peer(("198.51.100.8", 1)))
    assert "198.51.100.7" not in str(key(Peer(("198.51.100.7", 1))))
    # Trusted proxies and Unix sockets are not counted.
    assert key(Peer(("10.0.0.1", 1))) is None and key(Peer(("192.0.2.9", 1))) is None
    assert key(Peer("/run/tysiac.sock")) is None
    # Two from a /64, the third refused; a transport is counted once however often admitted.
    first, second, third = (Peer((f"2001:db8::{n}", n, 0, 0)) for n in (1, 2, 3))
    assert guard.admit(first) is None and guard.admit(first) is None
    assert guard.admit(second) is None
    assert guard.admit(third) is not None and b" 429 " in (guard.admit(third) or b"")
    guard.release(first)
    guard.release(first)
    assert guard.admit(third) is None
    assert guard.admit(Peer(("10.0.0.1", 7))) is None  # the proxy: any number


def test_addresses_are_redacted_wherever_they_are_written() -> None:
    text = (
        "127.0.0.5:59668 - \"WebSocket /ws/ABCDEF\" [accepted]; peer ('10.1.2.3', 443), "
        "[2001:db8::7]:8080, ::1:40000, fe80::1 and ::ffff:192.0.2.1. "
        "At 10:42:43, version 3.11.7, 0.5 s, ratio 1:2, file ws.py."
    )
    redacted = redact_addresses(text)
    for address in ("127.0.0.5", "59668", "10.1.2.3", "2001:db8::7", "8080", "::1", "fe80::1"):
        assert address not in redacted, redacted
    assert "192.0.2.1" not in redacted
    assert "At 10:42:43, version 3.11.7, 0.5 s, ratio 1:2, file ws.py." in redacted


def test_game_sockets_are_compressed_with_small_windows_and_play_on(tmp_path: Path) -> None:
    """permessage-deflate with the server's own windows (``serving/protocols.py``): a
    client that offers it, as browsers do, gets those, and its states arrive whole."""
    with live_server(tmp_path) as server:
        code, tokens = server.full_table(3)
        players = [server.client(code, token) for token in tokens]
        try:
            for player in players:
                extensions = player.ws.response.headers["Sec-WebSocket-Extensions"]
                assert extensions.startswith("permessage-deflate")
                assert "server_max_window_bits=12" in extensions
                assert "client_max_window_bits=9" in extensions
            start = players[0].state["v"]
            play_until(players, lambda state: state["v"] > start + 5, limit=20)
            assert all(player.state["view"]["hand"] is not None for player in players)
        finally:
            for player in players:
                player.close()
