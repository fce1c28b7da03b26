"""What the review's worker processes do: read a game's record, and analyse one hand.

Each function here runs in a worker process (``analyses.Workers``), never on the event
loop: replaying a long game or an uploaded record, drawing its frames and solving a
hand with open cards all cost CPU that would stall every game of the server. What they
return crosses back to the server pickled, so the large parts are JSON text already
(``Read.frames``, ``Read.record``): the server sends them on as they are.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from typing import Any

from tysiac import rules
from tysiac.review.frames import frames
from tysiac.review.verdicts import analyse_hand
from tysiac.rules.record import Recorder, RecordError, Replayed, hand_input, read_record
from tysiac.server.game.thinking import _outlive_no_server

# The format of the stored verdicts: a stored analysis of another version is computed
# again (``reviewdb``). Raise it when ``review.verdicts`` changes what it says.
VERDICTS_VERSION = 1
NICE = 10  # the workers' niceness: the server and the bots' searches come first


def start_worker(server: int) -> None:
    """A worker's start: lower priority than its server, and gone with it."""
    os.nice(NICE)
    _outlive_no_server(server)


def _warm() -> None:
    """Nothing: running it imports this module (the rules, the frames, the solver)."""


def dumps(value: object) -> bytes:
    """JSON as the server sends it: UTF-8, compact."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def record_key(record: dict[str, Any]) -> str:
    """An uploaded record's key: the SHA-256 of its canonical JSON (sorted keys, compact)."""
    canonical = json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Read:
    """A record read and replayed: what the review of it shows.

    ``head``: players, target, options, nicks, outcome (and an upload's ``key``);
    ``record``: the record, as JSON; ``frames``: every step of every hand
    (``review.frames``), as JSON; ``inputs``: each hand as the solver's input
    (``rules.record.hand_input``), in order.
    """

    head: dict[str, Any]
    record: bytes
    frames: bytes
    inputs: list[dict[str, Any]]


def _read(replayed: Replayed, head: dict[str, Any]) -> Read:
    record = replayed.record
    head = {
        **head,
        "players": record["players"],
        "target": record["target"],
        "options": record["options"],
        "nicks": record["nicks"],
        "outcome": record.get("outcome"),
    }
    inputs = [hand_input(replayed, hand.number) for hand in replayed.hands]
    return Read(head, dumps(record), dumps(frames(replayed)), inputs)


@dataclass(frozen=True, slots=True)
class GameLog:
    """What the server hands a worker of a finished game: its settings and the events
    of its log that make the record (``started``, ``dealt``, ``move``), in order."""

    code: str
    date: str | None
    players: int
    target: int
    options: dict[str, Any]
    nicks: list[str]
    events: list[tuple[str, dict[str, Any]]]


def read_game(log: GameLog) -> Read:
    """A game's record, built from its log (``Recorder``) and read back, which replays it
    and checks every result: a log the rules no longer fold raises ``RecordError``."""
    try:
        recorder = _recorded(log)
    except (rules.IllegalAction, ValueError, KeyError, TypeError) as error:
        raise RecordError(f"the game's log does not replay: {error}") from None
    return _read(read_record(recorder.record()), {})


def _recorded(log: GameLog) -> Recorder:
    """The game's log fed to a ``Recorder``: the start, each deck, each move."""
    options = rules.options_from_json(log.options)
    recorder: Recorder | None = None
    for kind, data in log.events:
        if kind == "started":
            recorder = Recorder(
                log.players,
                log.target,
                options,
                log.nicks,
                data["first_dealer"],
                data.get("scores"),
                code=log.code,
                date=log.date,
            )
        elif recorder is None:
            raise ValueError(f"a {kind} event before the start")
        elif kind == "dealt":
            recorder.deal([rules.parse_card(code) for code in data["deck"]])
        elif kind == "move":
            recorder.move(data)
    if recorder is None:
        raise ValueError("the game never started")
    return recorder


@dataclass(frozen=True, slots=True)
class Refused:
    """An upload that is no record: ``json`` (not JSON at all), ``record`` (it does not
    read or replay; ``detail`` says where and why, in the record format's English, and
    ``hand`` and ``move`` where, when it is in one) or ``bug`` (the reader failed on it:
    refused too, and logged)."""

    reason: str
    detail: str
    hand: int | None = None
    move: int | None = None


def read_upload(body: bytes) -> Read | Refused:
    """An uploaded record, read and replayed; its ``head`` has its ``key``."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as error:
        return Refused("json", str(error)[:200])
    try:
        replayed = read_record(data)
    except RecordError as error:
        return Refused("record", str(error)[:500], error.hand, error.move)
    except RecursionError:
        return Refused("record", "nested too deeply")
    except Exception as error:  # a reader's bug: refused all the same, and logged
        return Refused("bug", f"{type(error).__name__}: {str(error)[:200]}")
    return _read(replayed, {"key": record_key(replayed.record)})


def analyse(hand: dict[str, Any]) -> dict[str, Any] | None:
    """One hand's verdicts (``review.verdicts``), or None if it never reached the play."""
    return analyse_hand(hand)
