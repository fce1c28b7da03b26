"""Random garbage and random legal and illegal moves at a live server.

After each burst: the server is up, every connection agrees with a fresh one on
the state, and no message to a seat carried a card another seat holds unseen.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .harness import Client, LiveServer, live_server, settle, simple_move

CARD = re.compile(r'"([9JQKTA][SCDH])"')
CARDS = [r + s for r in "9JQKTA" for s in "SCDH"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
actions = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            ["bid", "pass", "musik", "give", "discard", "declare", "play", "timeout"]
        )
    },
    optional={
        "value": st.integers(-50, 500) | st.text(max_size=3),
        "index": st.integers(-2, 3),
        "card": st.sampled_from(CARDS) | st.text(max_size=3),
        "cards": st.lists(st.sampled_from(CARDS), max_size=3)
        | st.dictionaries(st.sampled_from(["0", "1", "2", "3", "x"]), st.sampled_from(CARDS)),
        "seat": st.integers(-1, 4),
    },
)
messages = st.one_of(
    st.tuples(st.just("raw"), st.text(max_size=200)),
    st.tuples(st.just("json"), json_values),
    st.tuples(st.just("move"), actions),
    st.tuples(st.just("stale"), actions),
    st.tuples(st.just("legal"), st.none()),
    st.tuples(st.just("legal"), st.none()),
    st.tuples(st.just("chat"), st.text(max_size=250)),
    st.tuples(st.just("report"), st.integers(-5, 60) | st.text(max_size=3)),
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(
        tmp_path_factory.mktemp("fuzz"), max_games_per_ip=10_000, max_active_games=10_000
    ) as live:
        yield live


def send(client: Client, kind: str, payload: Any) -> None:
    if kind == "raw":
        client.send_raw(payload)
    elif kind == "json":
        client.send_raw(json.dumps(payload))
    elif kind == "move":
        client.move(payload)
    elif kind == "stale":
        client.move(payload, client.state["v"] - 1)
    elif kind == "chat":
        client.send({"type": "chat", "text": payload})
    elif kind == "report":
        client.send({"type": "report", "seq": payload})
    elif client.state.get("view") and client.view["legal"]:
        client.move(simple_move(client.view))


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@pytest.mark.slow
@given(st.lists(st.tuples(st.integers(0, 3), messages), min_size=1, max_size=25))
def test_random_input_never_breaks_or_leaks(
    server: LiveServer, burst: list[tuple[int, Any]]
) -> None:
    code, tokens = server.full_table(3)
    clients = [server.client(code, t) for t in tokens] + [server.client(code)]
    for who, (kind, payload) in burst:
        send(clients[who], kind, payload)
        clients[who].drain(0.005)
    version = settle(clients)
    with server.http() as http:
        assert http.get("/health").status_code == 200
    fresh = [server.client(code, t) for t in tokens] + [server.client(code)]
    # A message of the burst may have been on its way still: every connection, old and
    # new, must come to the same newest state.
    version = settle(clients + fresh)
    for old, new in zip(clients, fresh, strict=True):
        assert new.state["v"] == version
        assert old.state["view"] == new.state["view"]
    hand_number = fresh[0].view["hand_number"]
    for seat, client in enumerate(fresh[:3]):
        hand = client.view["hand"]
        musik = set(hand["musiks"][0]["cards"] or [])
        for other_seat, other in enumerate(clients):
            if other_seat == seat:
                continue
            gave = set((other.state["view"]["hand"].get("given") or {}).values())
            hidden = set(hand["cards"]) - musik - gave
            same_hand = [
                m
                for m in other.messages
                if m["type"] != "state" or m["view"]["hand_number"] == hand_number
            ]
            assert not hidden & set(CARD.findall(json.dumps(same_hand)))
    for client in clients + fresh:
        client.close()
