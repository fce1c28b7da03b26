"""The bus's messages: frozen values, and JSON only where they cross Redis."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta, timezone

import orjson
import pytest

from tysiac.bus.messages import (
    Broken,
    Change,
    Deleted,
    Message,
    Presence,
    Resync,
    Unreadable,
    Update,
    from_json,
    to_json,
)

EVENTS = ({"kind": "played", "seat": 1, "card": 17, "v": 12}, {"kind": "trick", "winner": 2})
CHANGE = Change(
    after=11,
    events=(("play", {"seat": 1, "card": 17}), ("trick", {"winner": 2, "cards": [1, 2, 3]})),
    at=datetime(2026, 12, 3, 14, 5, 6, 789012, tzinfo=UTC),
    deadline=datetime(2026, 12, 3, 14, 6, 6, 789012, tzinfo=UTC),
)
MESSAGES: list[Message] = [
    Update(12, EVENTS),
    Update(3, ()),
    Presence((0, 2)),
    Presence(()),
    Resync(),
    Deleted("Ta gra została usunięta przez administratora serwisu. Powód: test"),
    Deleted(None),
    Deleted("Ta gra została usunięta przez administratora serwisu. Powód: x", "removed", "x"),
    Deleted("Ta gra została usunięta: zakończone gry znikają po 7 dniach.", "expired"),
    Broken(),
]


@pytest.mark.parametrize("message", MESSAGES, ids=repr)
def test_every_message_comes_back_from_json_as_it_went(message: Message) -> None:
    assert from_json(to_json(message)) == (message, None)
    assert from_json(to_json(message).decode()) == (message, None)  # redis-py's text too


@pytest.mark.parametrize(
    "change",
    [
        CHANGE,
        dataclasses.replace(CHANGE, deadline=None),
        dataclasses.replace(CHANGE, at=datetime(2026, 12, 3, 15, 0, tzinfo=timezone(timedelta(0)))),
        dataclasses.replace(CHANGE, at=datetime(2026, 12, 3, 15, 0), deadline=None),  # naive
    ],
    ids=repr,
)
def test_an_update_s_change_comes_back_with_it(change: Change) -> None:
    update = Update(12, EVENTS)
    message, heard = from_json(to_json(update, change))
    assert message == update and heard == change
    assert heard is not None and heard.at.tzinfo == change.at.tzinfo


def test_the_json_is_what_processes_exchanged_before_these_types() -> None:
    """Old and new processes on one Redis understand each other."""
    assert orjson.loads(to_json(Update(12, EVENTS), CHANGE)) == {
        "v": 12,
        "events": [dict(event) for event in EVENTS],
        "change": {
            "after": 11,
            "events": [
                ["play", {"seat": 1, "card": 17}],
                ["trick", {"winner": 2, "cards": [1, 2, 3]}],
            ],
            "at": "2026-12-03T14:05:06.789012+00:00",
            "deadline": "2026-12-03T14:06:06.789012+00:00",
        },
    }  # fmt: skip
    assert orjson.loads(to_json(Presence((1, 3)))) == {"presence": [1, 3]}
    assert orjson.loads(to_json(Resync())) == {"resync": True}
    assert orjson.loads(to_json(Deleted("why"))) == {"deleted": True, "message": "why"}
    assert orjson.loads(to_json(Broken())) == {"v": -1, "events": []}
    assert from_json(b'{"deleted": true}') == (Deleted(None), None)


def test_a_change_goes_with_an_update_only() -> None:
    with pytest.raises(ValueError):
        to_json(Presence((1,)), CHANGE)


@pytest.mark.parametrize(
    "data",
    [b"", b"[1]", b"{}", b'{"v": "7", "events": []}', b'{"v": 7, "events": [], "change": {}}'],
)
def test_anything_else_is_unreadable(data: bytes) -> None:
    with pytest.raises(Unreadable):
        from_json(data)


def test_messages_are_frozen_values() -> None:
    update = Update(12, EVENTS)
    with pytest.raises(dataclasses.FrozenInstanceError):
        update.version = 13  # type: ignore[misc]
    assert Resync() == Resync() and Deleted("a") != Deleted("b") and Presence((1,)) != Broken()


def test_an_update_s_event_text_is_encoded_once_and_changes_nothing_it_is_compared_by() -> None:
    update = Update(12, EVENTS)
    text = update.event_text()
    assert orjson.loads(text) == {"type": "event", "v": 12, "events": [dict(e) for e in EVENTS]}
    assert update.event_text() is text  # the same text for every connection
    assert update == Update(12, EVENTS) and repr(update) == repr(Update(12, EVENTS))
    assert from_json(to_json(update)) == (update, None)
