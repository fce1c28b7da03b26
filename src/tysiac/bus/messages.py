"""What a bus carries to the connections watching a game, as frozen types.

Every connection of a game gets, in order:

- ``Update``: the game changed to ``version``; ``events`` are the public events of that
  change. The connection sends them as an ``event`` message, then a fresh ``state``.
- ``Presence``: the seats with an open connection changed; a fresh ``state`` shows them.
- ``Resync``: messages may have been lost (a backlog dropped, the link to Redis lost and
  back); a fresh ``state`` read from the store catches the connection up.
- ``Deleted``: the game is gone (removed, or past its keeping time), ``message`` says why;
  the connection is told so and closed.
- ``Broken``: the game was cancelled because its stored log no longer folds (the
  sweeper's doing, after it dropped the game from its process's cache); the connection
  re-reads its state, which is refused there as ``broken_game``.

Beside an ``Update``, a process may publish the ``Change`` it stored, for the other
processes' caches; a bus hands it to their ``on_change`` and never to a connection.

These objects stay in the process that made them; ``to_json`` and ``from_json`` turn them
into bytes and back only where they cross Redis (``bus/redis.py``). The JSON is the one
the processes exchanged before these types existed, so old and new processes on one
Redis still understand each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import orjson

JSON_OPTIONS = orjson.OPT_NON_STR_KEYS


@dataclass(frozen=True, slots=True)
class Update:
    """The game changed to ``version``; ``events``: what every viewer is told of it."""

    version: int
    events: tuple[Mapping[str, Any], ...]
    # The ``event`` message's text, encoded on first use (``event_text``): every
    # connection of this process is handed this same object, so once per process.
    # Not a field of the value: excluded from comparison and repr, never serialised.
    _event_text: str | None = field(default=None, init=False, repr=False, compare=False)

    def event_text(self) -> str:
        """The ``event`` message of this update as JSON text, for every connection."""
        text = self._event_text
        if text is None:
            message = {"type": "event", "v": self.version, "events": self.events}
            text = orjson.dumps(message, option=JSON_OPTIONS).decode()
            # A frozen object's cache of a pure function of its own fields: the one
            # write, and nothing that compares, prints or serialises it can tell.
            object.__setattr__(self, "_event_text", text)
        return text


@dataclass(frozen=True, slots=True)
class Presence:
    """The seats with at least one open connection, in any process, in order."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Resync:
    """Messages may have been lost: refetch a full state."""


@dataclass(frozen=True, slots=True)
class Deleted:
    """The game is gone; ``message``: why, for its players (None: no reason given), in
    Polish; ``reason`` (``removed``, ``expired``) and the operator's ``note``: the same,
    for the page to word it in its own language (``error.deleted.<reason>``)."""

    message: str | None = None
    reason: str | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Broken:
    """The game was cancelled: its stored log no longer folds (see ``sweeper``)."""


Message = Update | Presence | Resync | Deleted | Broken


@dataclass(frozen=True, slots=True)
class Change:
    """What a process stored of a game's change, for the other processes' caches."""

    after: int  # the game's version before the change
    events: tuple[tuple[str, dict[str, Any]], ...]  # (kind, data) each, as stored
    at: datetime  # the events' time
    deadline: datetime | None  # the game's deadline after the change


class Unreadable(ValueError):
    """Bytes from the bus that are not a message (``from_json``)."""


def to_json(message: Message, change: Change | None = None) -> bytes:
    """A message, and with an ``Update`` the change stored of it, as JSON."""
    if change is not None and not isinstance(message, Update):
        raise ValueError("a change goes with an update only")
    payload: dict[str, Any]
    match message:
        case Update(version=version, events=events):
            payload = {"v": version, "events": events}
            if change is not None:
                payload["change"] = {
                    "after": change.after,
                    "events": change.events,
                    "at": change.at,
                    "deadline": change.deadline,
                }
        case Presence(seats=seats):
            payload = {"presence": seats}
        case Resync():
            payload = {"resync": True}
        case Deleted(message=text, reason=reason, note=note):
            payload = {"deleted": True, "message": text}
            # Only when there is one: the JSON of a deletion without stays as it was.
            payload |= {name: v for name, v in (("reason", reason), ("note", note)) if v}
        case Broken():
            payload = {"v": -1, "events": []}
    return orjson.dumps(payload, option=JSON_OPTIONS)


def from_json(data: bytes | str) -> tuple[Message, Change | None]:
    """The message ``to_json`` made, and the change that went with it (None: none);
    raises ``Unreadable`` for anything else."""
    try:
        payload = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise Unreadable(str(error)) from None
    try:
        match payload:
            case {"presence": list(seats)}:
                return Presence(tuple(int(seat) for seat in seats)), None
            case {"resync": True}:
                return Resync(), None
            case {"deleted": True, **rest}:
                text, reason, note = (rest.get(name) for name in ("message", "reason", "note"))
                return Deleted(
                    None if text is None else str(text),
                    None if reason is None else str(reason),
                    None if note is None else str(note),
                ), None
            case {"v": -1, "events": []}:
                return Broken(), None
            case {"v": int(version), "events": list(events), **rest}:
                stored = rest.get("change")
                change = None if stored is None else _change(stored)
                return Update(version, tuple(events)), change
    except (KeyError, TypeError, ValueError) as error:
        raise Unreadable(f"{error!r} in {payload!r:.200}") from None
    raise Unreadable(f"not a bus message: {payload!r:.200}")


def _change(stored: Any) -> Change:
    deadline = stored["deadline"]
    return Change(
        after=int(stored["after"]),
        events=tuple((str(kind), data) for kind, data in stored["events"]),
        at=datetime.fromisoformat(stored["at"]),
        deadline=None if deadline is None else datetime.fromisoformat(deadline),
    )
