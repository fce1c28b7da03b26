"""Tricks on bitmasks: legal cards (R19), the winner (R20), marriages on lead (R21).

These small functions are the only statement of the play rules: the immutable
``Hand`` and the fast random playouts both call them. ``NO_SUIT`` (-1) stands
for "no trump yet" and, as the led suit, for "leading".
"""

from __future__ import annotations

from .cards import ABOVE, KING, MARRIAGE_VALUES, QUEEN, SUIT_MASKS, Card, Mask, Suit
from .errors import IllegalAction

NO_SUIT = -1

# MELDABLE[s]: the queen and king of suit s.
MELDABLE: tuple[Mask, ...] = tuple((1 << (6 * s + QUEEN)) | (1 << (6 * s + KING)) for s in range(4))


def legal_cards(hand: Mask, led: Suit, winning: Card, trump: Suit) -> Mask:
    """R19: the cards of ``hand`` that may be played.

    ``led`` is the suit led (``NO_SUIT`` when leading), ``winning`` the card now
    winning the trick and ``trump`` the trump suit or ``NO_SUIT``.
    """
    if led < 0:
        return hand
    follow = hand & SUIT_MASKS[led]
    if follow:
        if winning // 6 == led:
            return follow & ABOVE[winning] or follow
        return follow  # the winning card is a trump of another suit
    if trump >= 0:
        trumps = hand & SUIT_MASKS[trump]
        if trumps:
            if winning // 6 == trump:
                return trumps & ABOVE[winning] or trumps
            return trumps
    return hand


def beats(card: Card, winning: Card, trump: Suit) -> bool:
    """R20: does ``card`` take the trick from ``winning``?"""
    if card // 6 == winning // 6:
        return card > winning
    return card // 6 == trump


def melds(hand: Mask, card: Card) -> bool:
    """R21: leading ``card`` from ``hand`` declares a marriage."""
    pair = MELDABLE[card // 6]
    return bool(1 << card & pair) and hand & pair == pair


def meld_value(card: Card) -> int:
    return MARRIAGE_VALUES[card // 6]


def meld_cards(hand: Mask) -> Mask:
    """The cards of ``hand`` that would meld if led."""
    mask = 0
    for pair in MELDABLE:
        if hand & pair == pair:
            mask |= pair
    return mask


def refusal(hand: Mask, led: Suit, winning: Card, trump: Suit, card: Card) -> IllegalAction:
    """Why ``card`` may not be played (it is in ``hand`` but not legal)."""
    if card // 6 != led and hand & SUIT_MASKS[led]:
        return IllegalAction("error.must_follow")
    if card // 6 == led:
        return IllegalAction("error.must_beat")
    if card // 6 != trump:
        return IllegalAction("error.must_trump")
    return IllegalAction("error.must_overtrump")
