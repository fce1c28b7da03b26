"""Cards, suits and sets of cards (R1-R4).

A card is a small int, ``suit * 6 + rank``: ranks run 9, J, Q, K, 10, A (weakest
first, so a higher rank beats a lower one of the same suit) and suits run
spades, clubs, diamonds, hearts (R28's order, weakest first). A set of cards is a
24-bit mask with bit ``card`` set for each card in it.
"""

from __future__ import annotations

from collections.abc import Iterable

from tysiac.catalogue import DEFAULT, text

Card = int
Suit = int
Mask = int

RANKS = "9JQKTA"
SUITS = "SCDH"
SPADES, CLUBS, DIAMONDS, HEARTS = range(4)
NINE, JACK, QUEEN, KING, TEN, ACE = range(6)

DECK: Mask = (1 << 24) - 1
ALL_CARDS: tuple[Card, ...] = tuple(range(24))

RANK_POINTS = (0, 2, 3, 4, 10, 11)
MARRIAGE_VALUES = (40, 60, 80, 100)

# The names (R2) are the catalogue's, by code, the same the page shows: the on-screen
# label card.face.<rank> ("D"), the spoken name card.name of card.rank.<rank> and
# card.suit.<suit> ("dama kier").
SUIT_SYMBOLS = ("♠", "♣", "♦", "♥")

POINTS: tuple[int, ...] = tuple(RANK_POINTS[c % 6] for c in ALL_CARDS)
SUIT_MASKS: tuple[Mask, ...] = tuple(0b111111 << (6 * s) for s in range(4))
# ABOVE[c]: the cards of c's suit that beat c.
ABOVE: tuple[Mask, ...] = tuple(SUIT_MASKS[c // 6] & ~((1 << (c + 1)) - 1) for c in ALL_CARDS)


class NotationError(ValueError):
    """A card code or a list of cards could not be read."""


def make_card(rank: int, suit: Suit) -> Card:
    return suit * 6 + rank


def parse_card(code: str) -> Card:
    """``"TH"`` -> the ten of hearts (R3)."""
    if not isinstance(code, str) or len(code) != 2:
        raise NotationError(f"Nieznana karta: {code!r}.")
    rank, suit = RANKS.find(code[0]), SUITS.find(code[1])
    if rank < 0 or suit < 0:
        raise NotationError(f"Nieznana karta: {code!r}.")
    return make_card(rank, suit)


def card_code(card: Card) -> str:
    return RANKS[card % 6] + SUITS[card // 6]


def suit_code(suit: Suit) -> str:
    return SUITS[suit]


def card_name(card: Card, lang: str = DEFAULT) -> str:
    """The screen-reader name, e.g. ``"dama kier"`` (R2)."""
    rank = text(f"card.rank.{RANKS[card % 6]}", lang)
    suit = text(f"card.suit.{SUITS[card // 6]}", lang)
    return text("card.name", lang, rank=rank, suit=suit)


def card_label(card: Card, lang: str = DEFAULT) -> str:
    """The on-screen label, e.g. ``"D♥"`` (R2)."""
    return text(f"card.face.{RANKS[card % 6]}", lang) + SUIT_SYMBOLS[card // 6]


def _table(bits: int, offset: int) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(i + offset for i in range(bits) if m >> i & 1) for m in range(1 << bits))


_LOW = _table(12, 0)
_HIGH = _table(12, 12)


def cards_of(mask: Mask) -> tuple[Card, ...]:
    """The cards of a mask, weakest suit and rank first."""
    return _LOW[mask & 0xFFF] + _HIGH[mask >> 12]


def mask_of(cards: Iterable[Card]) -> Mask:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def parse_cards(text: str) -> Mask:
    """``"AS KH QH"`` -> a mask; duplicates are an error."""
    mask = 0
    for code in text.split():
        card = parse_card(code)
        if mask >> card & 1:
            raise NotationError(f"Karta {code} występuje dwa razy.")
        mask |= 1 << card
    return mask


def codes(mask: Mask) -> list[str]:
    return [card_code(c) for c in cards_of(mask)]


def points_of(mask: Mask) -> int:
    return sum(POINTS[c] for c in cards_of(mask))


def marriage_suits(mask: Mask) -> tuple[Suit, ...]:
    """Suits in which the mask holds both king and queen."""
    return tuple(
        s for s in range(4) if mask >> make_card(QUEEN, s) & 1 and mask >> make_card(KING, s) & 1
    )
