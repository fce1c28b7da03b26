"""Two ``python -m tysiac.server`` processes, one PostgreSQL, one Redis: the players of
one game on different processes, as behind a proxy without sticky sessions."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from ..server.harness import Client, play_until, settle
from ..services import POSTGRES, sql
from .conftest import Cluster

Message = dict[str, Any]
pytestmark = pytest.mark.slow  # two server processes a test


def connected(state: Message) -> list[bool]:
    return [seat["connected"] for seat in state["game"]["seats"]]


def finished(state: Message) -> bool:
    return bool(state["game"]["status"] == "finished")


def until(client: Client, predicate: Callable[[Message], bool], timeout: float = 10) -> None:
    """Wait for a state that satisfies ``predicate``, unless the client has one already."""
    if not (client.state and predicate(client.state)):
        client.wait_state(predicate, timeout)


def two_player_game(cluster: Cluster, **options: Any) -> tuple[str, list[str], list[Client]]:
    """Created through A, joined through B; the players on A and B, a spectator on each."""
    created = cluster.a.create("Ala", 2, **options)
    code = created["code"]
    joined = cluster.b.join(code, "Bartek")
    tokens = [created["token"], joined["token"]]
    clients = [
        cluster.a.client(code, tokens[0]),
        cluster.b.client(code, tokens[1]),
        cluster.a.client(code),
        cluster.b.client(code),
    ]
    for client in clients:
        until(client, lambda s: connected(s) == [True, True])
    return code, tokens, clients


def test_a_whole_game_with_the_players_on_different_processes(cluster: Cluster) -> None:
    code, _, everyone = two_player_game(cluster, short=True)
    ala, bartek = everyone[:2]
    start = max(client.state["v"] for client in everyone)
    line = "Cześć z drugiego serwera!"
    bartek.send({"type": "chat", "text": line})
    for client in everyone:
        until(client, lambda s: [entry["text"] for entry in s["chat"]] == [line])
    play_until([ala, bartek], finished, limit=120)
    for client in everyone:
        until(client, finished)
    final = settle(everyone)
    # Every connection, on either process, was told of every change, in order.
    told = [
        [m["v"] for m in c.messages if m["type"] == "event" and m["v"] > start] for c in everyone
    ]
    assert told[0] == sorted(set(told[0])) and told[0][-1] == final
    assert all(versions == told[0] for versions in told)
    assert len(told[0]) > 20  # the chat line and many moves
    outcome = ala.view["outcome"]
    assert outcome["reason"] == "points" and outcome["winner"] in (0, 1)
    assert all(client.view["outcome"] == outcome for client in everyone)
    for server in (cluster.a, cluster.b):
        with server.http() as http:
            assert http.get(f"/api/games/{code}").json()["status"] == "finished"


def test_presence_counts_the_connections_of_every_process(cluster: Cluster) -> None:
    created = cluster.a.create("Ala", 3)
    code = created["code"]
    ola = cluster.b.join(code, "Ola")
    ala_on_a = cluster.a.client(code, created["token"])
    ola_on_b = cluster.b.client(code, ola["token"])
    watchers = [cluster.a.client(code), cluster.b.client(code)]
    for watcher in watchers:
        until(watcher, lambda s: connected(s) == [True, True, False])
    ola_on_b.close()
    for watcher in watchers:
        until(watcher, lambda s: connected(s) == [True, False, False])
    seen = [len(watcher.messages) for watcher in watchers]
    ala_on_b = cluster.b.client(code, created["token"])  # a second tab, on the other process
    ala_on_a.close()
    # Each change of presence (B's open, then A's close) reaches every watcher as a state:
    # after the second one, A has dealt with the close, and the seat is still connected.
    for watcher, before in zip(watchers, seen, strict=True):

        def states(w: Client = watcher, n: int = before) -> int:
            return sum(m["type"] == "state" for m in w.messages[n:])

        watcher.wait(lambda m, count=states: count() >= 2)
        assert connected(watcher.state) == [True, False, False]
    ala_on_b.close()
    for watcher in watchers:
        until(watcher, lambda s: connected(s) == [False, False, False])


def test_a_timeout_is_applied_once_although_both_processes_sweep(cluster: Cluster) -> None:
    code, _, everyone = two_player_game(cluster)
    first = everyone[0].view["to_move"]
    # The move time (60 s) runs out now: both sweepers find the game due at once.
    sql(cluster.database, "UPDATE games SET deadline = now() WHERE code = $1", code)

    def timeouts(client: Client) -> int:
        events = [e for m in client.messages if m["type"] == "event" for e in m["events"]]
        return sum(e["kind"] == "timeout" for e in events)

    for client in everyone:
        client.wait(lambda m, c=client: m["type"] == "event" and timeouts(c) > 0)
    for server in (cluster.a, cluster.b):
        server.wait_sweeps()  # both sweepers have passed a few more times
    for client in everyone:
        client.drain(0.1)
        assert timeouts(client) == 1
        assert client.view["timeouts"][first] == 1 and client.view["to_move"] != first
    stored = sql(
        cluster.database,
        "SELECT count(*) FROM events JOIN games ON games.id = events.game_id"
        " WHERE games.code = $1 AND events.data->>'type' = 'timeout'",
        code,
    )
    assert stored[0][0] == 1


def test_the_operators_removal_reaches_the_players_of_both_processes(cluster: Cluster) -> None:
    code, _, everyone = two_player_game(cluster)
    reason = "Nick łamie regulamin."
    removed = cluster.admin("delete", code, "--reason", reason)
    assert removed.returncode == 0 and removed.stdout == f"Game {code} removed.\n", removed.stderr
    for client in everyone:
        message = client.wait(lambda m: m["type"] == "deleted")
        assert message["message"].endswith(f"Powód: {reason}")
        assert client.closed()
    for server in (cluster.a, cluster.b):
        with server.http() as http:
            response = http.get(f"/api/games/{code}")
        assert response.status_code == 410 and reason in response.json()["error"]["message"]


def test_a_finished_game_is_deleted_once_after_a_week_and_both_processes_tell(
    cluster: Cluster,
) -> None:
    code, _, everyone = two_player_game(cluster)
    everyone[0].move({"type": "surrender"})
    for client in everyone:
        until(client, finished)
    sql(
        cluster.database,
        "UPDATE games SET updated_at = now() - interval '8 days' WHERE code = $1",
        code,
    )
    for client in everyone:
        message = client.wait(lambda m: m["type"] == "deleted")
        assert message["message"] == "Ta gra została usunięta: zakończone gry znikają po 7 dniach."
    notices = sql(cluster.database, "SELECT reason FROM deleted_games WHERE code = $1", code)
    assert [row["reason"] for row in notices] == ["expired"]
    assert sql(cluster.database, "SELECT count(*) FROM events")[0][0] == 0


def test_sigkill_of_one_process_mid_game_and_the_game_goes_on_through_the_other(
    cluster: Cluster,
) -> None:
    created = cluster.a.create("Gracz0", 3)
    code = created["code"]
    tokens = [created["token"], cluster.b.join(code, "Gracz1")["token"]]
    tokens.append(cluster.a.join(code, "Gracz2")["token"])
    on_a = [cluster.a.client(code, tokens[0]), cluster.a.client(code, tokens[2])]
    on_b = cluster.b.client(code, tokens[1])
    players = [on_a[0], on_b, on_a[1]]
    play_until(players, lambda s: len(s.get("view", {}).get("hand", {}).get("trick", [])) == 2)
    version = settle(players)
    cluster.a.kill()
    # A's connections are gone with it; its presence entries lapse within seconds.
    until(on_b, lambda s: connected(s) == [False, True, False], timeout=20)
    players = [cluster.b.client(code, tokens[0]), on_b, cluster.b.client(code, tokens[2])]
    for client in players:
        assert client.state["v"] == version
        until(client, lambda s: connected(s) == [True, True, True])
    play_until(players, lambda s: s["view"]["hand_number"] == 2, limit=60)
    # A comes back and serves the same game, with what B accepted meanwhile.
    cluster.a.start()
    newest = settle(players)
    watcher = cluster.a.client(code)
    assert watcher.state["v"] == newest and watcher.view["hand_number"] == 2
    play_until(players, lambda s: s["v"] >= newest + 3, limit=30)
    until(watcher, lambda s: s["v"] >= newest + 3)


def test_creations_through_both_processes_keep_the_limits_exactly(cluster: Cluster) -> None:
    def create(index: int) -> int:
        server = cluster.a if index % 2 else cluster.b
        body = {"nick": f"Gracz{index}", "players": 2}
        return httpx.post(f"{server.base}/api/games", json=body, timeout=30).status_code

    with ThreadPoolExecutor(16) as pool:
        statuses = sorted(pool.map(create, range(16)))
    # 3 games waiting for players per address (the default; the first limit to bite here)
    assert statuses == [201] * 3 + [429] * 13
    assert sql(cluster.database, "SELECT count(*) FROM games")[0][0] == 3


def close_connections(cluster: Cluster) -> int:
    """Terminate every connection to the cluster's database (but the one asking), as a
    PostgreSQL restart or failover does: how many there were."""
    name = cluster.database.rsplit("/", 1)[1]
    terminated = sql(
        POSTGRES,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE datname = $1 AND pid <> pg_backend_pid()",
        name,
    )
    return len(terminated)


def test_the_database_closing_every_connection_costs_no_move_and_no_socket(
    cluster: Cluster,
) -> None:
    """A PostgreSQL restart or failover closes the pools' connections under both
    processes: the next commands get new ones, with no refusal, no traceback in either
    log (the fixture checks) and every socket still open."""
    _, _, everyone = two_player_game(cluster)
    players = everyone[:2]
    start = settle(everyone)
    play_until(players, lambda s: s["v"] >= start + 3)
    assert close_connections(cluster) >= 2  # at least one pooled connection of each process
    before = settle(everyone)
    seen = [len(client.messages) for client in everyone]
    play_until(players, lambda s: s["v"] >= before + 6)
    after = settle(everyone)  # every socket still reads: none was dropped
    assert after >= before + 6
    for client, first in zip(everyone, seen, strict=True):
        assert [m for m in client.messages[first:] if m["type"] == "error"] == []
        assert client.state["v"] == after


def test_a_whole_game_while_the_database_keeps_closing_connections_under_commands(
    cluster: Cluster,
) -> None:
    """Every connection to the database terminated every 50 ms for a whole game, so that
    commands lose theirs mid-way: each is run again on a new one, and the rare one that
    loses it under the commit is refused as busy (the player tries again). The game ends,
    no socket is dropped, no traceback in either log (the fixture checks)."""
    _, _, everyone = two_player_game(cluster, short=True)
    players = everyone[:2]
    stop = threading.Event()
    closed: list[int] = []

    def close_every_connection() -> None:
        while not stop.is_set():
            closed.append(close_connections(cluster))
            time.sleep(0.05)

    closing = threading.Thread(target=close_every_connection)
    closing.start()
    try:
        play_until(players, finished, limit=180)
    finally:
        stop.set()
        closing.join()
    final = settle(everyone)  # every socket still reads: none was dropped
    for client in everyone:
        assert finished(client.state) and client.state["v"] == final
        refused = [m["error"]["code"] for m in client.messages if m["type"] == "error"]
        assert set(refused) <= {"store_busy"}, refused
    assert sum(closed) > 20  # connections were closed while the game went on
    logged = "".join(log.read_text() for log in cluster.logs)
    assert "a command lost its database connection; run again" in logged
