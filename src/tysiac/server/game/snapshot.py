"""What one viewer is sent: the ``state`` snapshot, built by one pure function.

The rules' view of the seat (``rules.view``, the only place that decides which cards a
seat may see) plus the table around it: seats and who is connected, the timers, the
move log, the chat. Nothing else serialises a table for a client.

The move log and the chat are a connection's to keep: its first state carries both
whole, and each later one only the entries it does not hold yet (``delta``). Most of a
state's bytes were those hundred log entries, sent again after every move.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal, TypedDict

from tysiac import rules
from tysiac.catalogue import text
from tysiac.rules.view import GameView
from tysiac.server.game.table import ChatLine, PublicEvent, Table

TRICK_SHOWN_MS = 1500  # a completed trick stays on the table this long before it is collected


class SeatInfo(TypedDict):
    seat: int
    nick: str | None
    connected: bool
    bot: str | None  # a computer player's level (tysiac.bots.LEVELS), None for a person


class GameInfo(TypedDict):
    code: str
    name: str | None
    status: str
    players: int
    public: bool
    chat: bool
    short: bool
    move_seconds: int
    options: dict[str, Any]
    seats: list[SeatInfo]
    you: int | None
    time_left_ms: int | None
    trick_shown_ms: int | None
    can_chat: bool
    chat_note: str | None
    chat_note_key: str | None  # the same by its catalogue key, for the page to word
    cancelled: str | None
    rematch: str | None
    rematch_of: str | None


class ChatInfo(TypedDict):
    seq: int
    seat: int
    nick: str | None
    text: str
    at: str


class StateMessage(TypedDict):
    type: Literal["state"]
    v: int
    game: GameInfo
    view: GameView | None
    delta: bool  # log and chat hold only what came after the connection's previous state
    log: list[PublicEvent]
    chat: list[ChatInfo]


@dataclass(frozen=True, slots=True)
class Held:
    """What of the log and the chat a connection was sent: the newest of each."""

    log: int  # the version of the newest log entry, 0 for none
    chat: int  # the seq of the newest chat line, 0 for none

    @classmethod
    def of(cls, table: Table) -> Held:
        return cls(table.log[-1]["v"] if table.log else 0, table.chat[-1].seq if table.chat else 0)


def chat_refusal(table: Table, seat: int | None) -> str | None:
    """Why ``seat`` may not write now (the catalogue's key), or None (Regulamin §4.6)."""
    if seat is None:
        return "error.chat_closed.spectator"
    if not table.settings.chat:
        return "error.chat_closed.off"
    if not table.chat_open:
        return "error.chat_closed.closed"
    if table.settings.public and seat not in table.moved:
        return "error.chat_closed.first_move"
    return None


def snapshot(
    table: Table, seat: int | None, online: set[int], now: datetime, held: Held | None = None
) -> StateMessage:
    """The full state one connection may see: ``seat`` (None for a spectator), the seats
    ``online`` now, and the time ``now`` for the timer; with ``held``, what it was sent of
    the log and the chat already, only the rest of them."""
    time_left_ms = None
    if table.deadline is not None:
        time_left_ms = max(0, int((table.deadline - now).total_seconds() * 1000))
    settings = table.settings
    refused = chat_refusal(table, seat)
    return {
        "type": "state",
        "v": table.version,
        "game": {
            "code": table.code,
            "name": settings.name,
            "status": table.status,
            "players": settings.players,
            "public": settings.public,
            "chat": settings.chat,
            "short": settings.target == rules.game.SHORT_TARGET,
            "move_seconds": settings.move_seconds,
            "options": rules.options_to_json(settings.options),
            "seats": [
                {"seat": s, "nick": nick, "connected": s in online, "bot": table.bot(s)}
                for s, nick in enumerate(table.nicks)
            ],
            "you": seat,
            "time_left_ms": time_left_ms,
            "trick_shown_ms": _trick_shown_ms(table, now),
            "can_chat": refused is None,
            # Why this seat may not write: the catalogue's key (the page words it in its
            # language) and its Polish text, for a page that lacks the key.
            "chat_note": text(refused) if settings.chat and refused is not None else None,
            "chat_note_key": refused if settings.chat else None,
            "cancelled": table.cancelled,
            "rematch": table.rematch,
            "rematch_of": table.rematch_of,
        },
        "view": rules.view(table.game, seat) if table.game is not None else None,
        "delta": held is not None,
        "log": [entry for entry in table.log if held is None or entry["v"] > held.log],
        "chat": [
            _chat_line(table, line)
            for line in table.chat
            if settings.chat and (held is None or line.seq > held.chat)
        ],
    }


def _trick_shown_ms(table: Table, now: datetime) -> int | None:
    """How much longer the trick completed last (``view.hand.last_trick``) stays shown."""
    if table.trick_at is None:
        return None
    left = TRICK_SHOWN_MS - (now - table.trick_at) / timedelta(milliseconds=1)
    return min(TRICK_SHOWN_MS, int(left)) if left > 0 else None


def _chat_line(table: Table, line: ChatLine) -> ChatInfo:
    return {
        "seq": line.seq,
        "seat": line.seat,
        "nick": table.nicks[line.seat],
        "text": line.text,
        "at": line.at.isoformat(),
    }
