"""Whole games over real HTTP and WebSockets: players, spectators, reconnecting."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from .harness import (
    STRONG_DECK,
    Client,
    FakeClock,
    Message,
    live_server,
    play_until,
    settle,
    simple_move,
)

CARD = re.compile(r'"([9JQKTA][SCDH])"')


def over(state: dict) -> bool:
    return state.get("game", {}).get("status") == "finished"


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_full_game_to_the_end(tmp_path: Path, players: int) -> None:
    near = (850,) * players  # test-only: start near the target, and a deck the mus player wins
    with live_server(tmp_path, start_scores=near, deck=STRONG_DECK) as server:
        code, tokens = server.full_table(players)
        clients = [server.client(code, token) for token in tokens]
        watcher = server.client(code)
        assert [c.seat for c in clients] == list(range(players)) and watcher.seat is None
        play_until(clients, over)
        view = (
            clients[0].wait_state(over)["view"] if not over(clients[0].state) else clients[0].view
        )
        assert view["status"] == "over"
        outcome = view["outcome"]
        assert outcome["reason"] == "points"
        winner = outcome["winner"]
        assert view["scores"][winner] >= 1000
        assert view["results"][-1]["declarer"] == winner and view["results"][-1]["made"]
        assert len(view["results"]) >= 2  # several hands: the deal moved round the table
        watcher.wait_state(lambda s: s["game"]["status"] == "finished")
        assert watcher.view["outcome"] == outcome
        with server.http() as http:
            assert http.get(f"/api/games/{code}").json()["status"] == "finished"


def test_each_seat_sees_only_its_own_cards(tmp_path: Path) -> None:
    with live_server(tmp_path, start_scores=(950, 950, 950)) as server:
        code, tokens = server.full_table(3)
        clients = [server.client(code, token) for token in tokens]
        watcher = server.client(code)
        play_until(clients, lambda s: s.get("view", {}).get("hand", {}).get("phase") == "play")
        for client in (*clients, watcher):
            client.drain()
        for index, client in enumerate(clients):
            own = set(client.view["hand"]["cards"])
            musik = set(client.view["hand"]["musiks"][0]["cards"] or [])  # shown to all
            for other in clients[:index] + clients[index + 1 :]:
                text = json.dumps(other.messages)
                gave = set((other.view["hand"]["given"] or {}).values())  # the declarer knows
                hidden = own - musik - gave
                assert hidden and not hidden & set(CARD.findall(text)), (index, hidden)
        spectator_text = json.dumps(watcher.messages)
        for client in clients:
            musik = set(client.view["hand"]["musiks"][0]["cards"] or [])
            assert not (set(client.view["hand"]["cards"]) - musik) & set(
                CARD.findall(spectator_text)
            )


def test_spectator_cannot_play_or_write(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, _ = server.full_table(3)
        watcher = server.client(code)
        assert watcher.view["hand"]["cards"] is None and watcher.view["legal"] == {}
        watcher.move({"type": "pass"})
        assert watcher.error()["code"] == "spectator"
        watcher.send({"type": "chat", "text": "hej"})
        assert watcher.error()["code"] == "chat_closed"
        assert watcher.state["game"]["can_chat"] is False


def test_reconnect_resumes_the_same_seat_and_state(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, tokens = server.full_table(3)
        clients = [server.client(code, token) for token in tokens]
        mover = next(c for c in clients if c.view["to_move"] == c.seat)
        mover.move({"type": "pass"})
        mover.wait_state(lambda s: s["view"]["to_move"] != mover.seat)
        before = mover.state
        mover.close()
        others = [c for c in clients if c is not mover]
        others[0].wait_state(lambda s: not s["game"]["seats"][before["game"]["you"]]["connected"])
        again = server.client(code, tokens[before["game"]["you"]])
        assert again.seat == before["game"]["you"]
        assert again.state["v"] == before["v"] and again.view == before["view"]
        others[0].wait_state(lambda s: s["game"]["seats"][again.seat]["connected"])


def test_stale_and_repeated_commands_change_nothing(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, tokens = server.full_table(3)
        clients = [server.client(code, token) for token in tokens]
        mover = next(c for c in clients if c.view["to_move"] == c.seat)
        version = mover.state["v"]
        mover.move({"type": "pass"}, version)
        mover.move({"type": "pass"}, version)  # a double click
        assert mover.error()["code"] == "stale"
        mover.wait_state(lambda s: s["v"] == version + 1)
        mover.drain(0.2)
        assert mover.state["v"] == version + 1
        assert len(mover.state["view"]["hand"]["auction"]) == 1


def test_out_of_turn_and_illegal_moves_are_refused(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, tokens = server.full_table(3)
        clients = [server.client(code, token) for token in tokens]
        waiting = next(c for c in clients if c.view["to_move"] != c.seat)
        waiting.move({"type": "pass"})
        assert waiting.error()["code"] == "not_your_turn"
        mover = next(c for c in clients if c.view["to_move"] == c.seat)
        mover.move({"type": "bid", "value": 105})
        error = mover.error()
        assert (
            error["code"] == "bid_step" and error["message"] == "Licytuje się pełnymi dziesiątkami."
        )
        mover.move({"type": "timeout"})
        assert mover.error()["code"] == "malformed"
        mover.move(simple_move(mover.view))
        mover.wait_state(lambda s: s["view"]["to_move"] != mover.seat)


def test_hand_result_stays_on_the_table_before_the_next_deal(tmp_path: Path) -> None:
    clock = FakeClock()
    with live_server(tmp_path, clock=clock, hand_pause_seconds=5, deck=STRONG_DECK) as server:
        code, tokens = server.full_table(2)
        clients = [server.client(code, t) for t in tokens]
        watcher = server.client(code)
        play_until(clients, lambda s: s["view"]["hand"]["phase"] == "over")
        state = watcher.wait_state(lambda s: s["view"]["hand"]["phase"] == "over")
        view = state["view"]
        assert view["to_move"] is None and view["legal"] == {} and view["awaiting_deal"]
        assert state["game"]["time_left_ms"] == 5000
        result = view["results"][-1]
        assert result["made"] and result["declarer"] == view["hand"]["declarer"]
        hand = view["hand"]
        unused = 1 - hand["musik_taken"]
        assert hand["musiks"][unused]["cards"] is not None  # R16: shown when the hand ends
        assert hand["musiks"][hand["musik_taken"]]["cards"] is None  # still the declarer's
        assert len(hand["last_trick"]["cards"]) == 2
        clock.advance(seconds=5)
        nxt = watcher.wait_state(lambda s: s["view"]["hand_number"] == 2)
        assert nxt["view"]["hand"]["phase"] == "bidding"
        assert nxt["view"]["hand"]["dealer"] != hand["dealer"]  # R5


def test_chat_in_between_does_not_make_a_move_stale(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, tokens = server.full_table(3)
        clients = [server.client(code, t) for t in tokens]
        mover = next(c for c in clients if c.view["to_move"] == c.seat)
        talker = next(c for c in clients if c is not mover)
        version = mover.state["v"]
        talker.send({"type": "chat", "text": "powodzenia"})
        talker.wait_state(lambda s: s["v"] == version + 1)
        mover.move({"type": "pass"}, version)  # acted on the state before the chat line
        state = mover.wait_state(lambda s: s["view"]["hand"]["auction"] != [])
        assert state["v"] == version + 2  # the chat line, then the pass: not refused as stale
        assert state["view"]["hand"]["auction"][-1]["seat"] == mover.seat
        assert not any(m["type"] == "error" for m in mover.messages)


def test_timeout_event_tells_what_the_server_did(tmp_path: Path) -> None:
    clock = FakeClock()
    with live_server(tmp_path, clock=clock) as server:
        code, _ = server.full_table(3)
        watcher = server.client(code)
        first = watcher.view["to_move"]
        clock.advance(seconds=61)
        message = watcher.wait(lambda m: m["type"] == "event")
        auto_pass = {"kind": "pass", "seat": first}
        assert message["events"] == [
            {"kind": "timeout", "seat": first, "walkover": False, "move": auto_pass}
        ]


def test_unknown_paths_get_the_error_shape(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, server.http() as http:
        missing = http.get("/nope")
        assert missing.status_code == 404
        assert missing.json()["error"] == {
            "code": "not_found",
            "key": "error.not_found",
            "message": "Nie ma takiej strony.",
        }
        wrong = http.delete("/api/games")
        assert wrong.status_code == 405 and wrong.json()["error"]["code"] == "method_not_allowed"
        assert set(wrong.headers["allow"].replace(" ", "").split(",")) >= {"GET", "POST"}


def test_links_use_the_address_the_player_came_by(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        created = server.create("Ala", 2)
        assert created["link"] == f"{server.base}/g/{created['code']}"


def told_live(client: Client) -> list[Message]:
    """The game events a connection was told in ``event`` messages, each with its version."""
    told = []
    for message in client.messages:
        if message["type"] == "event":
            first = message["v"] - len(message["events"]) + 1
            told += [{**event, "v": first + i} for i, event in enumerate(message["events"])]
    return [event for event in told if event["kind"] not in ("chat", "chat_rejected")]


def test_the_move_log_survives_a_reload_and_is_what_was_told_live(tmp_path: Path) -> None:
    with live_server(tmp_path, deck=STRONG_DECK, hand_pause_seconds=60) as server:
        created = server.create("Gracz0", 3)
        code = created["code"]
        watcher = server.client(code)  # from before the start: it is told every later event
        tokens = [created["token"], *(server.join(code, f"Gracz{s}")["token"] for s in (1, 2))]
        clients = [server.client(code, token) for token in tokens]
        clients[1].send({"type": "chat", "text": "powodzenia"})
        play_until(clients, lambda s: s["view"]["hand"]["phase"] == "over")
        settle([*clients, watcher])
        log = [*watcher.messages[0]["log"], *told_live(watcher)]
        assert [e["kind"] for e in log[:5]] == ["joined", "joined", "joined", "started", "dealt"]
        assert "chat" not in {e["kind"] for e in log} and len(log) == watcher.state["v"] - 1
        assert watcher.state["log"] == log
        reloaded, late = server.client(code, tokens[1]), server.client(code)
        assert reloaded.state["log"] == late.state["log"] == log
        # What the client used to read off two states is in the events themselves.
        view = watcher.view
        plays = [e for e in log if e["kind"] == "play"]
        assert [("took" in e) for e in plays] == [i % 3 == 2 for i in range(24)]  # 8 tricks
        took = Counter(e["took"] for e in plays if "took" in e)
        assert [took[seat] for seat in range(3)] == view["hand"]["tricks"]
        assert plays[-1]["took"] == view["hand"]["last_trick"]["winner"]
        melds = [e["meld"] for e in log if "meld" in e]
        assert melds == view["hand"]["melds"] and melds[0]["value"] in (40, 100)
        assert [e for e in log if "result" in e] == [plays[-1]] and plays[-1]["result"] == 0
        assert len(view["results"]) == 1


@pytest.mark.slow
def test_the_move_log_keeps_the_last_100_game_events(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, tokens = server.full_table(2)
        clients = [server.client(code, token) for token in tokens]
        play_until(clients, lambda s: s["v"] > 110)
        settle(clients)
        state = server.client(code).state
        versions = [e["v"] for e in state["log"]]
        assert versions == list(range(state["v"] - 99, state["v"] + 1))


@pytest.mark.slow
def test_later_states_carry_only_what_the_connection_does_not_hold(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        code, tokens = server.full_table(2)  # a private game: chat on
        clients = [server.client(code, token) for token in tokens]
        clients[0].send({"type": "chat", "text": "powodzenia"})
        play_until(clients, lambda s: s["v"] > 110)
        settle(clients)
        states = [m for m in clients[1].raw if m["type"] == "state"]
        assert not states[0]["delta"] and [e["kind"] for e in states[0]["log"]][:3] == [
            "joined",
            "joined",
            "started",
        ]
        later = states[1:]
        assert later and all(m["delta"] for m in later)
        assert max(len(m["log"]) for m in later) < 10  # a state or two behind at most
        logged = [e["v"] for m in states for e in m["log"]]
        chat_seq = next(line["seq"] for m in states for line in m["chat"])
        # Every event once on this connection, nothing twice, nothing left out.
        assert logged == [v for v in range(1, clients[1].state["v"] + 1) if v != chat_seq]
        assert [line["text"] for m in states for line in m["chat"]] == ["powodzenia"]
        # What the connection put together is what a new one is sent whole.
        fresh = server.client(code, tokens[1]).raw[0]
        assert not fresh["delta"] and len(fresh["log"]) == 100
        assert clients[1].state["log"] == fresh["log"] and clients[1].state["chat"] == fresh["chat"]


def test_a_completed_trick_stays_shown_for_a_moment(tmp_path: Path) -> None:
    clock = FakeClock()
    with live_server(tmp_path, clock=clock, deck=STRONG_DECK) as server:
        code, tokens = server.full_table(3)
        clients = [server.client(code, token) for token in tokens]
        play_until(clients, lambda s: len(s["view"]["hand"]["trick"]) == 2)
        version = settle(clients)
        assert clients[0].state["game"]["trick_shown_ms"] is None  # no trick completed yet
        clock.advance(seconds=61)  # the trick's last card comes from the server (R28)
        state = clients[0].wait_state(lambda s: s["v"] > version)
        assert state["view"]["hand"]["trick"] == [] and state["game"]["trick_shown_ms"] == 1500
        timeout = state["log"][-1]
        assert timeout["kind"] == "timeout" and timeout["move"]["kind"] == "play"
        assert timeout["took"] == state["view"]["hand"]["last_trick"]["winner"]
        clock.advance(seconds=1)
        assert server.client(code).state["game"]["trick_shown_ms"] == 500
        clock.advance(milliseconds=500)
        assert server.client(code).state["game"]["trick_shown_ms"] is None
