"""What every level shares: reading cards off a view, judging a hand, counting the cards
played, checking a move."""

from __future__ import annotations

from collections.abc import Iterable, Sequence, Set
from typing import Any

from tysiac.rules.cards import MARRIAGE_VALUES, RANK_POINTS, RANKS, SUITS
from tysiac.rules.view import GameView, PlayedCard

KING, QUEEN, TEN, ACE = RANKS.index("K"), RANKS.index("Q"), RANKS.index("T"), RANKS.index("A")


def rank(card: str) -> int:
    return RANKS.index(card[0])


def suit(card: str) -> int:
    return SUITS.index(card[1])


def points(card: str) -> int:
    return RANK_POINTS[rank(card)]


def marriages(cards: Iterable[str]) -> list[int]:
    """The suits in which ``cards`` hold both the king and the queen."""
    held = set(cards)
    return [s for s, letter in enumerate(SUITS) if {"K" + letter, "Q" + letter} <= held]


def marriage_cards(cards: Iterable[str]) -> set[str]:
    return {r + SUITS[s] for s in marriages(cards) for r in ("K", "Q")}


def strength(cards: Sequence[str]) -> int:
    """A rough count of the points ``cards`` should bring their declarer: the card points
    of the sure winners (aces, tens behind an ace), half of the others', the marriages."""
    total = 0
    held = set(cards)
    for card in cards:
        r, letter = rank(card), card[1]
        if r == ACE or (r == TEN and "A" + letter in held):
            total += points(card) + 6  # a winner, and what it takes from the others
        else:
            total += points(card) // 2
    total += sum(MARRIAGE_VALUES[s] for s in marriages(cards))
    aces = sum(rank(c) == ACE for c in cards)
    return total + 10 * max(0, aces - 1)


def weakest(cards: Iterable[str], count: int, keep: Set[str] = frozenset()) -> list[str]:
    """The ``count`` weakest of ``cards``, sparing ``keep`` while others remain."""
    ordered = sorted(cards, key=lambda c: (c in keep, points(c), rank(c), c))
    return ordered[:count]


def beats(card: str, best: str, trump: str | None) -> bool:
    """Whether ``card`` played now beats ``best``, the trick's winning card so far."""
    if card[1] == best[1]:
        return rank(card) > rank(best)
    return trump is not None and card[1] == trump


def history(view: GameView) -> list[PlayedCard]:
    """Every card played this hand, in order (``view(history=True)``; else nothing known)."""
    hand = view["hand"]
    return list(hand.get("history", [])) if hand is not None else []


def voids(view: GameView) -> dict[int, set[str]]:
    """The suits each seat has shown it lacks: it played another suit to a trick led in them."""
    hand = view["hand"]
    shown: dict[int, set[str]] = {}
    if hand is None:
        return shown
    plays, size = history(view), len(hand["active"])
    for start in range(0, len(plays), size):
        led, *rest = plays[start : start + size]
        for play in rest:
            if play["card"][1] != led["card"][1]:
                shown.setdefault(play["seat"], set()).add(led["card"][1])
    return shown


def higher(card: str) -> set[str]:
    """The cards of ``card``'s suit that beat it."""
    return {r + card[1] for r in RANKS[rank(card) + 1 :]}


def unbeatable(
    card: str, known: Set[str], trump: str | None, may_trump: Iterable[set[str]]
) -> bool:
    """Whether ``card``, once played, wins the trick whatever the others hold, as far as
    the seat knows: every card that beats it in its suit is ``known`` (played or its own),
    and nobody to play after it may trump it (``may_trump``: those players' known voids;
    a void in the suit with a trump not yet seen could trump)."""
    if not higher(card) <= known:
        return False
    if trump is None or card[1] == trump:
        return True
    trumps_out = any(r + trump not in known for r in RANKS)
    return not (trumps_out and any(card[1] in void for void in may_trump))


def is_legal(view: GameView, action: dict[str, Any]) -> bool:
    """Whether ``action`` is one of the moves ``view["legal"]`` lists."""
    legal: Any = view["legal"]
    kind = action.get("type")
    if kind not in legal:
        return False
    match kind:
        case "bid" | "musik" | "declare":
            key = "index" if kind == "musik" else "value"
            return action.get(key) in legal[kind]
        case "play":
            return action.get("card") in legal["play"]
        case "give":
            given = action.get("cards")
            to = [str(s) for s in legal["give"]["to"]]
            return (
                isinstance(given, dict)
                and sorted(given) == sorted(to)
                and len(set(given.values())) == len(to)
                and all(c in legal["give"]["cards"] for c in given.values())
            )
        case "discard":
            cards = action.get("cards")
            return (
                isinstance(cards, list)
                and len(cards) == legal["discard"]["count"]
                and len(set(cards)) == len(cards)
                and all(c in legal["discard"]["cards"] for c in cards)
            )
    return legal[kind] is True
