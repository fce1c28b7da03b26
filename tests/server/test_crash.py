"""A crash loses no accepted move: SIGKILL the real server process mid-game, start it again."""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path

import pytest

from .harness import ProcessServer, play_until, settle


@pytest.mark.slow
def test_sigkill_mid_game_then_the_game_goes_on_from_the_last_accepted_move(tmp_path: Path) -> None:
    server = ProcessServer(tmp_path / "crash.db", tmp_path / "server.log")
    server.start()
    try:
        code, tokens = server.full_table(3)
        clients = [server.client(code, t) for t in tokens]
        # Play into the middle of the play phase: a few tricks.
        play_until(clients, lambda s: len(s.get("view", {}).get("hand", {}).get("trick", [])) == 2)
        settle(clients)
        mover = next(c for c in clients if c.view["to_move"] == c.seat)
        version = mover.state["v"]
        mover.move({"type": "play", "card": mover.view["legal"]["play"][0]})
        accepted = mover.wait_state(lambda s: s["v"] > version)
        assert accepted["view"]["hand"]["trick"] == []  # the trick was completed
        server.kill()  # the move was acknowledged: it must survive
        server.start()
        again = [server.client(code, t) for t in tokens]
        for client in again:
            assert client.state["v"] == accepted["v"]
            assert client.view["hand"]["last_trick"] == accepted["view"]["hand"]["last_trick"]
        mine = next(c for c in again if c.seat == mover.seat)
        assert mine.view == accepted["view"]
        # The pending move's deadline was stored, not restarted.
        left = again[0].state["game"]["time_left_ms"]
        assert left is not None and 0 < left <= accepted["game"]["time_left_ms"]
        play_until(again, lambda s: s["view"]["hand_number"] == 2, limit=60)  # and it goes on
    finally:
        server.stop()
    log = (tmp_path / "server.log").read_text()
    for token in tokens:
        assert token not in log
    assert not re.search(r"Traceback", log), log
    assert not re.search(r'"(GET|POST) /', log), log  # no access log: no client addresses


def test_sigusr1_writes_every_threads_stack_to_the_log_and_the_server_goes_on(
    tmp_path: Path,
) -> None:
    """For an operator's server that hangs (one that does not stop on SIGTERM): `kill -USR1`
    puts where each thread is into the log, names of files and functions only."""
    log = tmp_path / "server.log"
    server = ProcessServer(tmp_path / "stack.db", log)
    server.start()
    try:
        code, tokens = server.full_table(2)
        assert server.process is not None
        server.process.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + 10
        while "most recent call first" not in log.read_text(errors="replace"):
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        dump = log.read_text(errors="replace")
        assert "Thread 0x" in dump and "uvicorn" in dump
        assert tokens[0] not in dump and tokens[1] not in dump
        assert server.client(code, tokens[0]).state["v"] >= 1  # still serving
    finally:
        server.stop()
