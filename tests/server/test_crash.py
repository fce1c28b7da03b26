"""A crash loses no accepted move: SIGKILL the real server process mid-game, start it again."""

from __future__ import annotations

import re
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
