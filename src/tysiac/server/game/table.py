"""A game table as the fold of its event log: seats, the rules state, chat.

Event kinds (stored; never rename): ``joined`` {seat, nick, device (the joiner's
keyed hash, a real device only; never sent)}, ``started`` {first_dealer, scores},
``dealt`` {deck}, ``move`` {a rules action in JSON, with its seat}, ``chat`` {seat,
text, device (keyed hash, for reports; never sent)}, ``chat_rejected`` {seat},
``cancelled`` {reason}, ``rematch`` {code}; a rematch game's log opens with
``rematch_of`` {code} and notes ``arrived`` {seat} as each seat first connects. A seat
taken by a computer player is ``joined`` with ``bot`` (its level, ``tysiac.bots``);
``left`` {seat} frees a waiting game's bot seat again.

Every event also has its public form (``PublicEvent``), what every viewer is told of it:
``apply_event`` makes it once, for the live ``event`` message and the table's log alike.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Required, TypedDict, cast

from tysiac import rules
from tysiac.rules.cards import card_code, parse_card
from tysiac.rules.options import DEFAULT as DEFAULT_OPTIONS
from tysiac.rules.view import MeldView, meld_view
from tysiac.store.gamedb import GameRow
from tysiac.store.schema import EventKind, GameStatus

Event = tuple[str, dict[str, Any]]  # an event to store: its kind and data
KEPT = 100  # chat lines and log entries a snapshot carries (the page keeps as many: /api/site)
CHAT_KEPT = KEPT  # lines of chat a snapshot carries
LOG_KEPT = KEPT  # public game events a snapshot carries (the move log)
CHAT_REJECTIONS = 2  # refused messages after which a game's chat turns off for everyone
TALK_KINDS = (EventKind.CHAT, EventKind.CHAT_REJECTED)  # events that do not change the game


@dataclass(frozen=True, slots=True)
class ChatLine:
    seq: int  # the chat event's place in the log: how a report names the line
    seat: int
    text: str
    at: datetime
    device: str | None  # the author's device hash, for the admin log of a report


@dataclass(frozen=True, slots=True)
class Settings:
    """What the creator chose; fixed for the life of the game."""

    players: int
    target: int
    name: str | None
    public: bool
    chat: bool
    move_seconds: int
    options: rules.Options = DEFAULT_OPTIONS  # the house rules (V1-V16)

    @classmethod
    def of(cls, row: GameRow) -> Settings:
        """The settings as stored in the game's row; house rules checked at creation
        (NULL in games older than them: the defaults)."""
        options = rules.options_from_json(row.options or {})
        return cls(
            row.players, row.target, row.name, row.public, row.chat, row.move_seconds, options
        )


@dataclass(frozen=True, slots=True)
class Table:
    code: str
    settings: Settings
    version: int = 0  # events in the log
    game_version: int = 0  # the last event that changed the game (chat does not)
    deadline: datetime | None = None  # of the pending move, or of the next deal
    nicks: tuple[str | None, ...] = ()
    game: rules.Game | None = None  # None until every seat is taken
    chat: tuple[ChatLine, ...] = ()
    moved: frozenset[int] = frozenset()  # seats that made a move of their own
    cancelled: str | None = None  # why the game was cancelled
    rematch: str | None = None
    chat_rejections: int = 0
    log: tuple[PublicEvent, ...] = ()  # the last LOG_KEPT public game events, with "v"
    trick_at: datetime | None = None  # when this hand's latest trick was completed
    devices: tuple[str | None, ...] = ()  # per seat, the joiner's device hash (never sent)
    rematch_of: str | None = None  # the game this one is the rematch of
    arrived: frozenset[int] = frozenset()  # a rematch's seats connected to it at least once
    bots: tuple[str | None, ...] = ()  # per seat, a computer player's level, or None

    @property
    def chat_open(self) -> bool:
        return self.settings.chat and self.chat_rejections < CHAT_REJECTIONS

    @property
    def status(self) -> GameStatus:
        if self.cancelled is not None:
            return GameStatus.CANCELLED
        if self.game is None:
            return GameStatus.WAITING
        return GameStatus.FINISHED if self.game.is_over else GameStatus.PLAYING

    @property
    def awaiting_players(self) -> bool:
        """A rematch not started yet: it waits for its players to come back."""
        return self.rematch_of is not None and self.status == GameStatus.WAITING

    def bot(self, seat: int) -> str | None:
        """The level of the computer player in ``seat``, None for a person or nobody."""
        return self.bots[seat] if seat < len(self.bots) else None

    def free_seat(self) -> int | None:
        return next((s for s, nick in enumerate(self.nicks) if nick is None), None)


def empty_table(code: str, settings: Settings) -> Table:
    seats = (None,) * settings.players
    return Table(code=code, settings=settings, nicks=seats, devices=seats, bots=seats)


def apply_event(
    table: Table, kind: str, data: dict[str, Any], at: datetime
) -> tuple[Table, PublicEvent]:
    """The table after one event of its log (events were checked before they were stored),
    and what every viewer is told of the event: the log keeps the same, with its ``v``."""
    after = _fold(table, kind, data, at)
    public = _public_event(table, after, kind, data)
    if kind not in TALK_KINDS:
        logged: PublicEvent = {**public, "v": after.version}
        after = replace(after, log=(*after.log, logged)[-LOG_KEPT:])
    return after, public


def _fold(table: Table, kind: str, data: dict[str, Any], at: datetime) -> Table:
    version = table.version + 1
    if kind not in TALK_KINDS:
        table = replace(table, game_version=version)
    match kind:
        case EventKind.JOINED:
            seat = data["seat"]
            nicks, devices = list(table.nicks), list(table.devices)
            nicks[seat], devices[seat] = data["nick"], data.get("device")
            bots = list(table.bots or (None,) * len(nicks))
            bots[seat] = data.get("bot")
            return replace(
                table,
                version=version,
                nicks=tuple(nicks),
                devices=tuple(devices),
                bots=tuple(bots),
            )
        case EventKind.LEFT:
            seat = data["seat"]
            nicks, devices, bots = list(table.nicks), list(table.devices), list(table.bots)
            nicks[seat] = devices[seat] = bots[seat] = None
            return replace(
                table, version=version, nicks=tuple(nicks), devices=tuple(devices), bots=tuple(bots)
            )
        case EventKind.STARTED:
            game = rules.new_game(
                table.settings.players,
                data["first_dealer"],
                table.settings.target,
                data.get("scores"),
                table.settings.options,
            )
            return replace(table, version=version, game=game)
        case EventKind.DEALT:
            assert table.game is not None
            deck = [parse_card(code) for code in data["deck"]]
            game = rules.deal(table.game, deck)
            return replace(table, version=version, game=game, trick_at=None)
        case EventKind.MOVE:
            assert table.game is not None
            action = rules.action_from_json(data)
            moved = table.moved
            if not isinstance(action, rules.Timeout | rules.Surrender):
                moved = moved | {action.seat}
            game = rules.apply(table.game, action)
            trick_at = at if _trick_taken(table.game, game) is not None else table.trick_at
            return replace(table, version=version, game=game, moved=moved, trick_at=trick_at)
        case EventKind.CHAT:
            line = ChatLine(version, data["seat"], data["text"], at, data.get("device"))
            return replace(table, version=version, chat=(*table.chat, line)[-CHAT_KEPT:])
        case EventKind.CHAT_REJECTED:
            return replace(table, version=version, chat_rejections=table.chat_rejections + 1)
        case EventKind.CANCELLED:
            cancelled = table.game
            if cancelled is not None and not cancelled.is_over:
                cancelled = rules.cancel(cancelled)
            return replace(table, version=version, game=cancelled, cancelled=data["reason"])
        case EventKind.REMATCH:
            return replace(table, version=version, rematch=data["code"])
        case EventKind.REMATCH_OF:
            return replace(table, version=version, rematch_of=data["code"])
        case EventKind.ARRIVED:
            return replace(table, version=version, arrived=table.arrived | {data["seat"]})
    raise ValueError(f"Unknown event kind {kind!r}.")


def deck_event(deck: list[int]) -> Event:
    return EventKind.DEALT, {"deck": [card_code(c) for c in deck]}


class PublicEvent(TypedDict, total=False):
    """What every viewer is told of one event (the ``events`` of an ``event`` message).

    ``kind`` is the stored kind, or for a move its action type (``bid``, ``play``,
    ``timeout``…); the other keys are those of that kind (docs/protocol.md §8).
    """

    kind: Required[str]
    v: int  # in the table's log only: the event's version, its place in the log
    seat: int  # joined, chat, a move, arrived, left
    nick: str  # joined
    bot: str  # joined: a computer player's level
    first_dealer: int  # started
    dealer: int | None  # dealt
    golden: int  # dealt, a golden hand (V15): its number, 1 to the number of players
    declarer: int  # dealt, a golden hand (V15): the golden declarer (the mus player)
    value: int  # bid, declare
    index: int  # musik
    card: str  # play
    walkover: bool  # timeout: the third in a row lost the game (R29)
    move: PublicEvent  # timeout: the move the server made for the seat (R28)
    took: int  # a move that completed a trick: the seat that won it (R20)
    meld: MeldView  # a play that declared a marriage (R21)
    result: int  # a move that ended a hand: its index in view.results
    text: str  # chat
    chat_open: bool  # chat_rejected
    reason: str  # cancelled
    code: str  # rematch, rematch_of


def _public_event(before: Table, after: Table, kind: str, data: dict[str, Any]) -> PublicEvent:
    """What every viewer may learn of an event: no deck, no given or discarded card."""
    match kind:
        case EventKind.JOINED:
            joined: PublicEvent = {"kind": kind, "seat": data["seat"], "nick": data["nick"]}
            if data.get("bot") is not None:
                joined["bot"] = data["bot"]
            return joined
        case EventKind.LEFT:
            return {"kind": kind, "seat": data["seat"]}
        case EventKind.STARTED:
            return {"kind": kind, "first_dealer": data["first_dealer"]}
        case EventKind.DEALT:
            hand = after.game.hand if after.game else None
            dealt: PublicEvent = {"kind": kind, "dealer": hand.dealer if hand else None}
            if hand is not None and hand.golden and hand.declarer is not None:
                # V15: the golden hands are counted once over, so this one is the next.
                assert after.game is not None
                dealt["golden"] = after.game.counters.golden + 1
                dealt["declarer"] = hand.declarer
            return dealt
        case EventKind.MOVE:
            public = _public_action(data)
            if public["kind"] == "timeout" and before.game is not None:
                auto = rules.auto_action(before.game)
                outcome = after.game.outcome if after.game else None
                public["walkover"] = outcome is not None and outcome.reason is rules.Reason.WALKOVER
                if auto is not None and not public["walkover"]:
                    public["move"] = _public_action(rules.action_to_json(auto))
            if before.game is not None and after.game is not None:
                _add_effects(public, before.game, after.game)
            return public
        case EventKind.CHAT:
            return {"kind": kind, "seat": data["seat"], "text": data["text"]}
        case EventKind.CHAT_REJECTED:
            return {"kind": kind, "chat_open": after.chat_open}
        case EventKind.CANCELLED:
            return {"kind": kind, "reason": data["reason"]}
        case EventKind.REMATCH | EventKind.REMATCH_OF:
            return {"kind": kind, "code": data["code"]}
        case EventKind.ARRIVED:
            return {"kind": kind, "seat": data["seat"]}
    raise ValueError(f"Unknown event kind {kind!r}.")


def _trick_taken(before: rules.Game, after: rules.Game) -> int | None:
    """The seat that won the trick a move completed, if it completed one."""
    old, new = before.hand, after.hand
    if old is None or new is None or sum(new.tricks_won) <= sum(old.tricks_won):
        return None
    return new.last_winner


def _add_effects(event: PublicEvent, before: rules.Game, after: rules.Game) -> None:
    """What a move did that a viewer would otherwise read off two states: the trick it
    completed, the marriage it declared, the hand it ended."""
    took = _trick_taken(before, after)
    if took is not None:
        event["took"] = took
    old, new = before.hand, after.hand
    if old is not None and new is not None and len(new.melds) > len(old.melds):
        event["meld"] = meld_view(*new.melds[-1])
    if len(after.results) > len(before.results):
        event["result"] = len(after.results) - 1


def _public_action(data: dict[str, Any]) -> PublicEvent:
    """A move as an event: what the rules say every viewer may see, ``type`` as ``kind``."""
    public = rules.public_action(data)
    event: PublicEvent = {"kind": public.pop("type")}
    event.update(cast(PublicEvent, public))
    return event
