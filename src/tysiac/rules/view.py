"""What one seat, or a spectator, may see of a game: the only way state leaves the rules.

``view(game, seat)`` returns plain JSON-ready data. It holds the viewer's own hand
and legal moves, and of everything else only what is public: never another
seat's cards, never a face-down musik, never a discard or a given card the
viewer did not give or get (R9, R15, R16). The sitting-out dealer (R7) and
spectators (``seat=None``) see the same public table.

``public_action(action_json)`` is the same decision for one move: what every viewer
may learn of it (the server publishes moves as events in that form).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict, cast

from . import variants
from .cards import Card, Mask, card_code, codes, suit_code
from .game import Game, HandResult
from .hand import (
    Hand,
    Phase,
    active_seats,
    allowed_bids,
    allowed_contracts,
    hand_size,
    winning_play,
)
from .options import options_to_json
from .scoring import result_json


class PlayedCard(TypedDict):
    seat: int
    card: str


class AuctionEntry(TypedDict):
    seat: int
    bid: int | None  # None: a pass


class MeldView(TypedDict):
    seat: int
    suit: str | None  # None: the four aces (V12), which change no trump
    value: int


class MusikView(TypedDict):
    count: int
    cards: list[str] | None  # None: face down for this viewer


class TrickView(TypedDict):
    cards: list[PlayedCard]
    winner: int


class GiveChoice(TypedDict):
    to: list[int]  # opponents, the next seat after the declarer first
    cards: list[str]


class DiscardChoice(TypedDict):
    cards: list[str]  # the cards held, to choose from
    count: int  # how many to lay down, all different (R16: two)


# Keys are the action types of the JSON protocol; a missing key is a move not allowed now.
LegalView = TypedDict(
    "LegalView",
    {
        "bid": list[int],
        "pass": bool,
        "musik": list[int],
        "give": GiveChoice,
        "discard": DiscardChoice,
        "declare": list[int],
        "play": list[str],
        "bomb": bool,  # V7
        "redeal": bool,  # V13
        "blind": bool,  # V14
        "look": bool,  # V14
        "resign": bool,  # V15
    },
    total=False,
)


class HandView(TypedDict):
    phase: str
    dealer: int
    sitting_out: int | None  # four players: the dealer, dealt nothing (R7); else None
    mus: int
    mus_bid: int | None  # the mus player's obligatory opening bid (R10); None without (V6)
    active: list[int]
    to_move: int | None
    bid: int | None  # None: no bid yet (V6)
    bidder: int | None
    blind: int | None  # V14: the seat whose blind stands (and then the blind declarer)
    face_down: bool  # V14: the viewer's own cards are face down (counts only)
    golden: bool  # V15: a golden hand (the mus player declarer for 120, unseen)
    end: str | None  # when over: "played", "void", "bomb", "redeal" or "resign"
    auction: list[AuctionEntry]
    passed: list[int]
    declarer: int | None
    contract: int | None
    musiks: list[MusikView]
    musik_taken: int | None
    counts: list[int]  # cards held, per seat
    cards: list[str] | None  # the viewer's own hand; None for a spectator
    meld_cards: list[str]  # the viewer's cards that would meld if led (R21)
    meld_values: dict[str, int]  # each of meld_cards -> the marriage value it scores (R4)
    received: str | None  # the card the declarer gave the viewer
    given: dict[str, str] | None  # the declarer's own gifts, for the declarer only
    discarded: list[str] | None  # for the declarer only
    trick: list[PlayedCard]
    winning: int | None  # the seat now winning the trick
    last_trick: TrickView | None
    trump: str | None
    melds: list[MeldView]
    points: list[int]  # card points in tricks won, per seat
    tricks: list[int]  # tricks won, per seat
    history: NotRequired[list[PlayedCard]]  # every card played this hand; view(history=True)


class ResultView(TypedDict):
    dealer: int
    sitting_out: int | None  # four players: the dealer, who scored nothing (R7, R25)
    end: str  # "played", "void" (V6), "bomb" (V7), "redeal" (V13) or "resign" (V15)
    declarer: int | None
    contract: int | None
    points: list[int]
    melds: list[int]
    made: bool | None  # None unless played
    delta: list[int]
    scores: list[int]
    winner: int | None
    golden: bool  # V15: a golden hand
    reset: bool  # V15: the last golden hand, none made: every score went back to 0
    tie_break: str | None  # V16: "highest", "declarer" or "order"; None without a tie


class OutcomeView(TypedDict):
    reason: str
    winner: int | None
    loser: int | None


class CountersView(TypedDict):
    bolts: list[int]  # per seat, 0-2 (V8)
    bombs: list[int]  # per seat, bombs used (V7)
    barrel: int | None  # the seat on the barrel (V10)
    tries: int  # the sitter's tries so far, 0-2 (V10)
    golden: int  # golden hands played so far (V15)
    golden_made: bool  # a golden contract was made (V15)


class GameView(TypedDict):
    seat: int | None
    players: int
    target: int
    barrel: int | None  # the barrel's score (R25, V10); None without a barrel (V16)
    options: dict[str, Any]  # every option (V1-V16) with its value
    counters: CountersView
    status: str  # "playing" or "over"
    scores: list[int]
    on_barrel: list[bool]
    timeouts: list[int]
    to_move: int | None
    awaiting_deal: bool
    hand_number: int  # 1 for the first hand; 0 before it
    hand: HandView | None
    legal: LegalView
    results: list[ResultView]
    outcome: OutcomeView | None


def _sitting_out(players: int, dealer: int) -> int | None:
    """R7: the seat dealt no cards this hand, if any."""
    dealt = active_seats(players, dealer)
    return next((seat for seat in range(players) if seat not in dealt), None)


def _plays(trick: tuple[tuple[int, Card], ...]) -> list[PlayedCard]:
    return [{"seat": seat, "card": card_code(card)} for seat, card in trick]


def _musik_visible(hand: Hand, index: int, seat: int | None) -> bool:
    is_declarer = seat is not None and seat == hand.declarer
    if hand.declarer is None:
        return False  # bidding goes on, or nobody took it (V6 void, V13 redeal)
    if hand.players != 2:
        return is_declarer or not hand.blind  # R15: face up; V14, V15: the declarer only
    if index == hand.musik_taken:
        return is_declarer or variants.open_musik(hand.options, hand.players)  # R16, V11
    return hand.phase is Phase.OVER  # R16: the other one at the end of the hand


def meld_view(seat: int, kind: int) -> MeldView:
    """A declared meld (R21; V12's four aces) as every viewer sees it."""
    suit = None if kind == variants.FOUR_ACES else suit_code(kind)
    return {"seat": seat, "suit": suit, "value": variants.meld_value(kind)}


def _hand_view(hand: Hand, seat: int | None, history: bool) -> HandView:
    face_down = hand.face_down(seat)
    own: Mask = hand.held[seat] if seat is not None and not face_down else 0
    is_declarer = seat is not None and seat == hand.declarer
    received = [card for opponent, card in hand.given if opponent == seat]
    melding = variants.meld_cards(hand.options, own, hand.first_trick)
    shown: HandView = {
        "phase": str(hand.phase),
        "dealer": hand.dealer,
        "sitting_out": _sitting_out(hand.players, hand.dealer),
        "mus": hand.mus,
        "mus_bid": variants.opening_bid(hand.options),
        "active": list(hand.active),
        "to_move": hand.to_move,
        "bid": hand.bid,
        "bidder": hand.bidder,
        "blind": hand.mus if hand.blind and not hand.golden else None,
        "face_down": face_down,
        "golden": hand.golden,
        "end": None if hand.end is None else str(hand.end),
        "auction": [{"seat": s, "bid": value} for s, value in hand.auction],
        "passed": sorted(hand.passed),
        "declarer": hand.declarer,
        "contract": hand.contract,
        "musiks": [
            {
                "count": musik.bit_count(),
                "cards": codes(musik) if _musik_visible(hand, i, seat) else None,
            }
            for i, musik in enumerate(hand.musiks)
        ],
        "musik_taken": hand.musik_taken,
        "counts": [held.bit_count() for held in hand.held],
        "cards": codes(own) if seat is not None and not face_down else None,
        "meld_cards": [card_code(card) for card, _ in melding],
        "meld_values": {card_code(card): value for card, value in melding},
        "received": card_code(received[0]) if received else None,
        "given": {str(o): card_code(c) for o, c in hand.given}
        if is_declarer and hand.given
        else None,
        "discarded": codes(hand.discarded) if is_declarer and hand.discarded else None,
        "trick": _plays(hand.trick),
        "winning": winning_play(hand.trick, hand.trump)[0] if hand.trick else None,
        "last_trick": (
            {"cards": _plays(hand.last_trick), "winner": hand.last_winner}
            if hand.last_winner is not None
            else None
        ),
        "trump": None if hand.trump is None else suit_code(hand.trump),
        "melds": [meld_view(s, suit) for s, suit in hand.melds],
        "points": list(hand.won),
        "tricks": list(hand.tricks_won),
    }
    if history:
        shown["history"] = _plays(hand.history)
    return shown


def _legal(hand: Hand, seat: int) -> LegalView:
    own = hand.held[seat]
    legal: LegalView = {}
    if hand.can_bomb(seat):
        legal["bomb"] = True
    if hand.can_redeal(seat):
        legal["redeal"] = True
    if hand.can_resign(seat):
        legal["resign"] = True
    match hand.phase:
        case Phase.BLIND:
            return {"blind": True, "look": True}
        case Phase.BIDDING:
            return {"bid": list(allowed_bids(hand, seat)), "pass": True, **legal}
        case Phase.MUSIK:
            return {"musik": [0, 1]}
        case Phase.GIVE:
            return {"give": {"to": list(hand.opponents), "cards": codes(own)}, **legal}
        case Phase.DISCARD:
            over = own.bit_count() - hand_size(hand.players)  # R16: what the musik added
            return {"discard": {"cards": codes(own), "count": over}, **legal}
        case Phase.DECLARE:
            return {"declare": list(allowed_contracts(hand))}
        case Phase.PLAY:
            return {"play": codes(hand.legal_cards())}
    return {}


def _result_view(result: HandResult, players: int) -> ResultView:
    view = {
        "dealer": result.dealer,
        "sitting_out": _sitting_out(players, result.dealer),
        **result_json(result),
    }
    return cast(ResultView, view)


def view(game: Game, seat: int | None, *, history: bool = False) -> GameView:
    """What ``seat`` (or a spectator, ``None``) may see of ``game``.

    With ``history`` the hand also lists every card played in it, in order: public, as
    every player saw them fall, but left out of what is sent to browsers, whose move log
    keeps them; the bots count cards and infer voids from it.
    """
    if seat is not None and not 0 <= seat < game.players:
        raise ValueError("No such seat.")
    hand = game.hand
    to_move = game.to_move
    outcome = game.outcome
    return {
        "seat": seat,
        "players": game.players,
        "target": game.target,
        "barrel": game.barrel,
        "options": options_to_json(game.options),
        "counters": {
            "bolts": list(game.counters.bolts),
            "bombs": list(game.counters.bombs),
            "barrel": game.counters.barrel,
            "tries": game.counters.tries,
            "golden": game.counters.golden,
            "golden_made": game.counters.golden_made,
        },
        "status": "over" if outcome is not None else "playing",
        "scores": list(game.scores),
        "on_barrel": [game.on_barrel(s) for s in range(game.players)],
        "timeouts": list(game.timeouts),
        "to_move": to_move,
        "awaiting_deal": game.awaiting_deal,
        "hand_number": len(game.results)
        + (1 if hand is not None and hand.phase is not Phase.OVER else 0),
        "hand": _hand_view(hand, seat, history) if hand is not None else None,
        "legal": _legal(hand, seat)
        if hand is not None and seat is not None and seat == to_move
        else {},
        "results": [_result_view(r, game.players) for r in game.results],
        "outcome": (
            {"reason": str(outcome.reason), "winner": outcome.winner, "loser": outcome.loser}
            if outcome is not None
            else None
        ),
    }


# What every viewer may see of a move, per action type: "type" and "seat", and these
# fields. Anything else (a given or discarded card, a field added later) is dropped
# unless it is listed here, so a secret can never leak by default (R9, R15, R16).
PUBLIC_FIELDS: Mapping[str, frozenset[str]] = {
    "bid": frozenset({"value"}),
    "pass": frozenset(),
    "musik": frozenset({"index"}),  # which musik was taken is public (R16)
    "give": frozenset(),  # the cards go face down, one to each opponent (R15)
    "discard": frozenset(),  # face down (R16)
    "declare": frozenset({"value"}),
    "play": frozenset({"card"}),
    "bomb": frozenset(),  # V7: the declarer's cards stay hidden
    "redeal": frozenset(),  # V13
    "blind": frozenset(),  # V14
    "look": frozenset(),  # V14
    "resign": frozenset(),  # V15
    "surrender": frozenset(),
    "timeout": frozenset(),
}


def public_action(action: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of one action's JSON (``action_to_json``) that every viewer may see.

    An unknown type keeps only ``type`` and ``seat``.
    """
    kind = action.get("type")
    fields = PUBLIC_FIELDS.get(kind, frozenset()) if isinstance(kind, str) else frozenset()
    shown = {"type", "seat"} | fields
    return {key: value for key, value in action.items() if key in shown}
