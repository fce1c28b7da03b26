"""Złoty As (V15) and the game without a barrel (V16) through the real server: what each
seat and a spectator are sent, resign, a restart mid-hand and across the golden reset,
a rematch, and a game won by an opponent past the target."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .harness import Client, Message, ProcessServer, live_server, play_until, settle

GOLDEN = {"golden_ace": True}
# Dealt in blocks from the mus player on: 7, 7, 7 and the musik (3 players). In a golden
# hand the mus player is declarer with their block and the musik, unseen by the others.
DECK = tuple("KH QH AH TH AS TS QS 9S 9C 9D JS JC JD KS 9H JH AD TD KD QD AC TC KC QC".split())
CARD = re.compile(r'"([9JQKTA][SCDH])"')


def move_and_settle(clients: list[Client], mover: Client, action: Message) -> None:
    """``mover`` moves; every client then has the state after the move."""
    version = mover.state["v"]
    mover.move(action)
    for client in clients:
        client.wait_state(lambda s: s["v"] > version)


def until(client: Client, predicate: Callable[[Message], bool]) -> Message:
    """The client's state once ``predicate`` holds: the one it has, or a later one."""
    if client.state and predicate(client.state):
        return client.state
    return client.wait_state(predicate)


def to_move(clients: list[Client]) -> Client:
    return next(c for c in clients if c.view["to_move"] == c.seat)


def hand_states(client: Client, number: int) -> list[Message]:
    return [
        m
        for m in client.messages
        if m.get("type") == "state" and m["view"] and m["view"]["hand_number"] == number
    ]


def test_v15_a_golden_hand_keeps_the_declarer_s_cards_and_the_musik_hidden(
    tmp_path: Path,
) -> None:
    with live_server(tmp_path, deck=DECK, hand_pause_seconds=60) as server:
        code, tokens = server.full_table(3, options=GOLDEN)
        clients = [server.client(code, token) for token in tokens]
        watcher = server.client(code)
        declarer = to_move(clients)
        hand = declarer.view["hand"]
        # No bidding: the mus player is declarer for 120 at once, the musik in their hand.
        assert (hand["phase"], hand["golden"], hand["contract"]) == ("give", True, 120)
        assert hand["declarer"] == hand["mus"] == declarer.seat
        own, musik = set(DECK[:7]), set(DECK[21:])
        assert set(hand["cards"]) == own | musik
        assert declarer.view["legal"]["resign"] is True and "give" in declarer.view["legal"]
        assert declarer.view["counters"]["golden"] == 0
        others = [c for c in clients if c is not declarer]
        for client in others:
            assert "resign" not in client.view["legal"]
            client.move({"type": "resign"})  # not theirs to give up
            assert client.error()["code"] in {"not_your_turn", "no_resign"}
        watcher.move({"type": "resign"})
        assert watcher.error()["code"] == "spectator"
        move_and_settle([*clients, watcher], declarer, {"type": "resign"})
        result = declarer.view["results"][0]
        seat = declarer.seat
        assert (result["end"], result["golden"], result["made"]) == ("resign", True, None)
        assert result["delta"] == [-240 if s == seat else 120 for s in range(3)]
        assert declarer.view["counters"]["golden"] == 1
        assert not declarer.view["counters"]["golden_made"]
        dealt = next(e for e in declarer.state["log"] if e["kind"] == "dealt")
        assert (dealt["golden"], dealt["declarer"]) == (1, seat)  # the log says whose
        assert [e["kind"] for e in declarer.state["log"]][-1] == "resign"
        # Nobody else, the spectator included, was ever sent a card of the declarer's
        # hand or of the musik during that hand.
        for client in (*others, watcher):
            states = hand_states(client, 1)
            assert states and states[-1]["view"]["hand"]["phase"] == "over"
            assert not (own | musik) & set(CARD.findall(json.dumps(states))), client.seat
        for client in (*clients, watcher):
            client.close()


def resign_golden_hand(clients: list[Client], number: int) -> None:
    """Hand ``number`` is golden: its declarer resigns; wait until every client has it."""
    for client in clients:
        until(
            client,
            lambda s: s["view"]["hand_number"] == number and s["view"]["hand"]["phase"] == "give",
        )
    settle(clients)
    declarer = to_move(clients)
    assert declarer.view["hand"]["golden"] and declarer.view["legal"]["resign"]
    move_and_settle(clients, declarer, {"type": "resign"})


def start(server: ProcessServer, patience: float = 90) -> None:
    """Start the server process and wait for its health answer: longer than the harness's
    20 s, as a loaded machine (parallel runs on two cores) takes that long to import."""
    server.launch()
    deadline = time.monotonic() + patience
    while True:
        try:
            server.wait_ready()
            return
        except AssertionError:
            assert time.monotonic() < deadline, server.log.read_text()


@pytest.mark.slow
def test_v15_golden_counters_and_the_reset_survive_a_sigkill(tmp_path: Path) -> None:
    server = ProcessServer(
        tmp_path / "crash.db", tmp_path / "server.log", TYSIAC_HAND_PAUSE_SECONDS="0"
    )
    start(server)
    try:
        code, tokens = server.full_table(3, options=GOLDEN)
        clients = [server.client(code, t) for t in tokens]
        resign_golden_hand(clients, 1)
        for client in clients:
            until(client, lambda s: s["view"]["hand_number"] == 2)
        settle(clients)
        before = clients[0].view
        server.kill()  # mid-hand: the second golden hand waits for its declarer
        start(server)
        clients = [server.client(code, t) for t in tokens]
        view = clients[0].view
        assert view["hand"]["golden"] and view["hand"]["phase"] == "give"
        assert view["counters"] == before["counters"] and view["counters"]["golden"] == 1
        assert view["scores"] == before["scores"] != [0, 0, 0]
        resign_golden_hand(clients, 2)
        resign_golden_hand(clients, 3)  # the third of three, none made: all back to 0
        last = clients[0].view
        assert last["results"][2]["reset"] and not last["results"][1]["reset"]
        assert last["scores"] == [0, 0, 0]
        assert (last["counters"]["golden"], last["counters"]["golden_made"]) == (3, False)
        for client in clients:
            until(client, lambda s: s["view"]["hand_number"] == 4)
        settle(clients)
        server.kill()  # after the reset: it is rebuilt from the stored moves too
        start(server)
        clients = [server.client(code, t) for t in tokens]
        view = clients[0].view
        assert view["hand_number"] == 4 and not view["hand"]["golden"]
        assert view["hand"]["phase"] == "bidding"  # ordinary hands from now on
        assert view["scores"] == [0, 0, 0]
        assert [r["reset"] for r in view["results"]] == [False, False, True]
        assert [r["end"] for r in view["results"]] == ["resign"] * 3
        assert (view["counters"]["golden"], view["counters"]["golden_made"]) == (3, False)
        for client in clients:
            client.close()
    finally:
        server.stop()
    assert "Traceback" not in (tmp_path / "server.log").read_text()


def test_v15_a_rematch_starts_with_golden_hands_again(tmp_path: Path) -> None:
    with live_server(tmp_path, deck=DECK) as server:
        code, tokens = server.full_table(3, options=GOLDEN)
        clients = [server.client(code, t) for t in tokens]
        resign_golden_hand(clients, 1)
        for client in clients:
            until(client, lambda s: s["view"]["hand_number"] == 2)
        assert clients[0].view["counters"]["golden"] == 1
        move_and_settle(clients, clients[0], {"type": "surrender"})
        clients[1].send({"type": "rematch"})
        new_code = clients[1].wait_state(lambda s: s["game"]["rematch"] is not None)["game"][
            "rematch"
        ]
        again = [server.client(new_code, t) for t in tokens]
        state = until(again[0], lambda s: s["game"]["status"] == "playing")
        view = state["view"]
        assert view["options"]["golden_ace"] is True
        assert (view["counters"]["golden"], view["counters"]["golden_made"]) == (0, False)
        assert view["hand_number"] == 1 and view["hand"]["golden"]
        assert view["hand"]["phase"] == "give" and view["scores"] == [0, 0, 0]
        for client in (*clients, *again):
            client.close()


# The next player after the mus player (the first opponent) holds every marriage and the
# aces; the mus player, declarer for 100 when both pass, cannot make it.
WEAK_MUS = tuple(
    "9S 9C 9D JS JC JD 9H "  # the mus player
    "KH QH AH TH KS QS AS "  # the next player
    "TS KD QD AD TD KC QC "
    "JH AC TC".split()
)


def finished(state: dict[str, Any]) -> bool:
    return state.get("game", {}).get("status") == "finished"


def test_v16_an_opponent_past_the_target_wins(tmp_path: Path) -> None:
    near = (950, 950, 950)
    with live_server(tmp_path, deck=WEAK_MUS, start_scores=near) as server:
        code, tokens = server.full_table(3, options={"barrel": "off"})
        clients = [server.client(code, t) for t in tokens]
        assert clients[0].view["barrel"] is None
        assert clients[0].view["on_barrel"] == [False, False, False]
        mus = clients[0].view["hand"]["mus"]
        play_until(clients, finished)
        state = next(c.state for c in clients if finished(c.state))
        view = state["view"]
        assert len(view["results"]) == 1  # the first hand ends it
        result = view["results"][0]
        winner = view["outcome"]["winner"]
        assert view["outcome"]["reason"] == "points"
        assert result["declarer"] == mus and result["made"] is False
        assert winner != mus and result["winner"] == winner  # an opponent wins
        assert view["scores"][winner] >= 1000 and view["scores"][mus] < 1000
        assert result["tie_break"] in (None, "highest")
        for client in clients:
            client.close()
