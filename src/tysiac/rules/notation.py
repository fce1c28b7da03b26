"""A compact notation for deals, for tests and tools.

``"0: AS KH QH ... | 1: ... | 2: ... | musik: JD QD KD"``; two players write the
two musiks as ``"musik: JD QD / KD 9D"``; a sitting-out dealer is simply left out.
"""

from __future__ import annotations

from .cards import NotationError, parse_cards
from .hand import Hand, new_hand


def parse_deal(text: str, players: int, dealer: int) -> Hand:
    held = [0] * players
    musiks: list[int] = []
    for part in text.split("|"):
        label, colon, cards = part.partition(":")
        label = label.strip()
        if not colon:
            raise NotationError(f"Expected 'seat: cards' or 'musik: cards', got {part!r}.")
        if label == "musik":
            musiks = [parse_cards(m) for m in cards.split("/")]
        elif label.isdigit() and int(label) < players:
            held[int(label)] = parse_cards(cards)
        else:
            raise NotationError(f"Unknown seat {label!r}.")
    try:
        return new_hand(players, dealer, tuple(held), tuple(musiks))
    except ValueError as error:
        raise NotationError(str(error)) from None
