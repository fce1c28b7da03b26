"""What a seat can do, as frozen values, and their JSON form (the replay format of docs/rules.md).

The JSON form is also what the server stores in its event log and reads from clients,
so the ``type`` names never change once released.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import Card, NotationError, card_code, parse_card
from .errors import IllegalAction


@dataclass(frozen=True, slots=True)
class Bid:
    seat: int
    value: int


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int


@dataclass(frozen=True, slots=True)
class TakeMusik:
    """Two players: the declarer picks musik 0 or 1 (R16)."""

    seat: int
    index: int


@dataclass(frozen=True, slots=True)
class Give:
    """Three or four players: one card to each opponent (R15), as (opponent, card) pairs."""

    seat: int
    cards: tuple[tuple[int, Card], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))  # one spelling per move

    @classmethod
    def of(cls, seat: int, cards: Mapping[int, Card]) -> Give:
        return cls(seat, tuple(cards.items()))


@dataclass(frozen=True, slots=True)
class Discard:
    """Two players: the declarer lays two cards face down (R16)."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))  # one spelling per move


@dataclass(frozen=True, slots=True)
class Declare:
    seat: int
    value: int


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Bomb:
    """V7: the declarer ends the hand instead of playing it (rozpisanie)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Redeal:
    """V13: a bad hand (bidding) or a bad musik (the declarer) asks for a new deal."""

    seat: int


@dataclass(frozen=True, slots=True)
class Blind:
    """V14: the mus player plays blind, for 120 counted double, without seeing the hand."""

    seat: int


@dataclass(frozen=True, slots=True)
class Look:
    """V14: the mus player looks at the hand; bidding starts as usual."""

    seat: int


@dataclass(frozen=True, slots=True)
class Resign:
    """V15: the golden declarer gives up the hand instead of giving (-240, +120 each)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Surrender:
    """R30: the game ends for the whole table."""

    seat: int


@dataclass(frozen=True, slots=True)
class Timeout:
    """R28/R29: the seat to move ran out of time; the rules make its auto-move."""

    seat: int


Action = (
    Bid
    | Pass
    | TakeMusik
    | Give
    | Discard
    | Declare
    | Play
    | Bomb
    | Redeal
    | Blind
    | Look
    | Resign
    | Surrender
    | Timeout
)


def action_to_json(action: Action) -> dict[str, Any]:
    match action:
        case Bid(seat, value):
            return {"seat": seat, "type": "bid", "value": value}
        case Pass(seat):
            return {"seat": seat, "type": "pass"}
        case TakeMusik(seat, index):
            return {"seat": seat, "type": "musik", "index": index}
        case Give(seat, cards):
            return {"seat": seat, "type": "give", "cards": {str(o): card_code(c) for o, c in cards}}
        case Discard(seat, cards):
            return {"seat": seat, "type": "discard", "cards": [card_code(c) for c in cards]}
        case Declare(seat, value):
            return {"seat": seat, "type": "declare", "value": value}
        case Play(seat, card):
            return {"seat": seat, "type": "play", "card": card_code(card)}
        case Bomb(seat):
            return {"seat": seat, "type": "bomb"}
        case Redeal(seat):
            return {"seat": seat, "type": "redeal"}
        case Blind(seat):
            return {"seat": seat, "type": "blind"}
        case Look(seat):
            return {"seat": seat, "type": "look"}
        case Resign(seat):
            return {"seat": seat, "type": "resign"}
        case Surrender(seat):
            return {"seat": seat, "type": "surrender"}
        case Timeout(seat):
            return {"seat": seat, "type": "timeout"}


_FIELDS: dict[str, frozenset[str]] = {
    "bid": frozenset({"value"}),
    "pass": frozenset(),
    "musik": frozenset({"index"}),
    "give": frozenset({"cards"}),
    "discard": frozenset({"cards"}),
    "declare": frozenset({"value"}),
    "play": frozenset({"card"}),
    "bomb": frozenset(),
    "redeal": frozenset(),
    "blind": frozenset(),
    "look": frozenset(),
    "resign": frozenset(),
    "surrender": frozenset(),
    "timeout": frozenset(),
}


def _malformed(what: str, /, **params: object) -> IllegalAction:
    return IllegalAction(f"error.malformed.action.{what}", **params)


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if type(value) is not int:
        raise _malformed("not_int", key=key)
    return value


def _card(value: object) -> Card:
    if not isinstance(value, str):
        raise _malformed("card_not_text")
    try:
        return parse_card(value)
    except NotationError:
        raise _malformed("unknown_card", card=repr(value)) from None


def action_from_json(data: object) -> Action:
    """Read one action; anything malformed raises ``IllegalAction('error.malformed.action.…')``."""
    if not isinstance(data, dict):
        raise _malformed("not_object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise _malformed("unknown_type", kind=repr(kind))
    extra = set(data) - {"seat", "type"} - _FIELDS[kind]
    if extra:
        raise _malformed("unknown_fields", fields=", ".join(sorted(map(str, extra))))
    seat = _int(data, "seat")
    match kind:
        case "bid":
            return Bid(seat, _int(data, "value"))
        case "pass":
            return Pass(seat)
        case "musik":
            return TakeMusik(seat, _int(data, "index"))
        case "give":
            given = data.get("cards")
            if not isinstance(given, dict):
                raise _malformed("cards_not_object")
            pairs: dict[int, Card] = {}
            for key, value in given.items():
                if not (isinstance(key, str) and key.isdigit() and len(key) <= 2):
                    raise _malformed("bad_seat", seat=repr(key))
                pairs[int(key)] = _card(value)
            return Give.of(seat, pairs)
        case "discard":
            cards = data.get("cards")
            if not isinstance(cards, list) or len(cards) > 24:
                raise _malformed("cards_not_list")
            return Discard(seat, tuple(_card(c) for c in cards))
        case "declare":
            return Declare(seat, _int(data, "value"))
        case "play":
            return Play(seat, _card(data.get("card")))
        case "bomb":
            return Bomb(seat)
        case "redeal":
            return Redeal(seat)
        case "blind":
            return Blind(seat)
        case "look":
            return Look(seat)
        case "resign":
            return Resign(seat)
        case "surrender":
            return Surrender(seat)
        case _:
            return Timeout(seat)
