"""R28: the move the server makes for a player whose time ran out."""

from __future__ import annotations

from .actions import Action, Declare, Discard, Give, Look, Pass, Play, TakeMusik
from .cards import POINTS, Card, Mask, Suit, cards_of
from .hand import Hand, Phase


def weakness(card: Card, trump: Suit | None) -> tuple[int, bool, int]:
    """Sort key, weakest first: fewer points, then non-trump before trump, then ♠ ♣ ♦ ♥."""
    return POINTS[card], card // 6 == trump, card // 6


def weakest(cards: Mask, trump: Suit | None, count: int) -> list[Card]:
    return sorted(cards_of(cards), key=lambda card: weakness(card, trump))[:count]


def auto_move(hand: Hand) -> Action:
    """Pass; take musik 0; give or discard the two weakest; declare the bid; play the weakest.

    V14's choice is ``look``; no option adds an automatic bomb, redeal or resign (V15)."""
    seat = hand.to_move
    if seat is None:
        raise ValueError("Nobody is to move.")
    match hand.phase:
        case Phase.BLIND:
            return Look(seat)
        case Phase.BIDDING:
            return Pass(seat)
        case Phase.MUSIK:
            return TakeMusik(seat, 0)
        case Phase.GIVE:
            first, second = weakest(hand.held[seat], hand.trump, 2)
            after, next_after = hand.opponents
            return Give.of(seat, {after: first, next_after: second})
        case Phase.DISCARD:
            return Discard(seat, tuple(weakest(hand.held[seat], hand.trump, 2)))
        case Phase.DECLARE:
            assert hand.bid is not None
            return Declare(seat, hand.bid)
        case Phase.PLAY:
            return Play(seat, weakest(hand.legal_cards(), hand.trump, 1)[0])
    raise ValueError("The hand is over.")
