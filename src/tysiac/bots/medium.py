"""``medium`` (średni): a rule-based player, a few lines per phase.

It bids while the smallest legal bid is within what its cards are worth (``strength``
plus what a musik brings on average), takes a musik it cannot see at random, gives and
discards its weakest cards (sparing marriages and aces), declares the lowest contract
it may, bombs (V7) only a contract clearly out of reach, resigns a golden hand (V15)
only when what it keeps is very weak and the opponents may hold many marriages
(``hopeless_golden``), asks for a redeal (V13) whenever it may, and looks at its cards
before bidding (V14: a blind needs cards it cannot see yet). It never reads the barrel
(``view["barrel"]`` is None without one, V16).

In play it counts the cards: those played this hand (``view["hand"]["history"]``;
without it nothing is known) and the suits a player has shown it lacks. It leads a
marriage when it holds one; as the declarer, its top trump while the others may still
hold trumps; then a card nobody can beat (every higher card played or its own, and
nobody known to lack the suit while trumps are out), else its cheapest card. It wins
a trick when the trick is worth it, with its cheapest card nobody after it can beat,
else its best ace or ten that wins (the cheapest winner when it plays last or has
neither), and otherwise throws its least valuable card, keeping trumps and the kings
and queens of its marriages.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Set
from typing import Any

from tysiac.rules.cards import MARRIAGE_VALUES, RANKS, SUITS
from tysiac.rules.view import GameView, HandView

from .common import (
    ACE,
    TEN,
    beats,
    history,
    marriage_cards,
    points,
    rank,
    strength,
    unbeatable,
    voids,
    weakest,
)

MUSIK_WORTH = 15  # points a musik adds to a hand, on average
HOPELESS = 50  # a contract this far above the hand's worth is bombed (V7)
TEN_POINTS = 10  # a trick worth this much is worth winning
GOLDEN_WEAK = 40  # V15: a golden hand kept this weak (``strength``) may be resigned...
GOLDEN_OPEN = 100  # ...when the opponents may hold marriages worth this much


def choose(view: GameView, rng: random.Random) -> dict[str, Any]:
    legal = view["legal"]
    hand = view["hand"]
    assert hand is not None
    cards = hand["cards"] or []
    if "blind" in legal:
        return {"type": "look"}
    if "redeal" in legal:
        return {"type": "redeal"}
    if "bid" in legal:
        return bid(view, cards)
    if "musik" in legal:
        return {"type": "musik", "index": rng.choice(legal["musik"])}
    contract = hand["contract"]
    if "bomb" in legal and contract is not None and strength(cards) + HOPELESS < contract:
        return {"type": "bomb"}
    if "give" in legal:
        gifts = give(view, cards)
        if legal.get("resign") and hopeless_golden(view, cards, gifts["cards"].values()):
            return {"type": "resign"}
        return gifts
    if "discard" in legal:
        return discard(view, cards)
    if "declare" in legal:
        return {"type": "declare", "value": min(legal["declare"])}
    return {"type": "play", "card": play(view)}


def bid(view: GameView, cards: list[str]) -> dict[str, Any]:
    """The smallest legal bid while the hand is worth it, else a pass."""
    bids = view["legal"]["bid"]
    worth = strength(cards) + MUSIK_WORTH
    if bids and (min(bids) <= worth or not view["legal"].get("pass")):
        return {"type": "bid", "value": min(bids)}
    return {"type": "pass"}


def give(view: GameView, cards: list[str]) -> dict[str, Any]:
    """R15: the weakest cards, one to each opponent, marriages and aces kept."""
    choice = view["legal"]["give"]
    keep = marriage_cards(cards) | {c for c in cards if rank(c) == ACE}
    gifts = weakest(choice["cards"], len(choice["to"]), keep)
    return {"type": "give", "cards": {str(s): c for s, c in zip(choice["to"], gifts, strict=True)}}


def hopeless_golden(view: GameView, cards: list[str], gifts: Iterable[str]) -> bool:
    """V15: resign the golden hand when what it keeps after ``gifts`` is worth less than
    ``GOLDEN_WEAK`` (``strength``) and the opponents may hold marriages worth
    ``GOLDEN_OPEN`` or more (suits of which it keeps neither king nor queen): then a
    failed 120 likely costs more than resigning, as the opponents' card points count
    double. Never in the last golden hand while none has been made: every score goes back
    to 0 unless this one is made, so resigning saves nothing."""
    counters = view["counters"]
    if not counters["golden_made"] and counters["golden"] + 1 >= view["players"]:
        return False
    kept = [c for c in cards if c not in set(gifts)]
    held = set(kept)
    open_marriages = sum(
        value
        for s, value in enumerate(MARRIAGE_VALUES)
        if not {"K" + SUITS[s], "Q" + SUITS[s]} & held
    )
    return strength(kept) < GOLDEN_WEAK and open_marriages >= GOLDEN_OPEN


def discard(view: GameView, cards: list[str]) -> dict[str, Any]:
    """R16: the weakest cards that are in no marriage."""
    choice = view["legal"]["discard"]
    keep = marriage_cards(cards) | {c for c in cards if rank(c) == ACE}
    return {"type": "discard", "cards": weakest(choice["cards"], choice["count"], keep)}


def _cheap(card: str, trump: str | None, keep: Set[str]) -> tuple[bool, bool, int, int, str]:
    """Sort key: the card least worth keeping first (no trump, in no marriage still held,
    few points, low rank)."""
    return (card[1] == trump, card in keep, points(card), rank(card), card)


def _still_to_play(hand: HandView, me: int) -> list[int]:
    """The seats to play after ``me`` in the trick being played."""
    active = hand["active"]
    i = active.index(me)
    return (active[i + 1 :] + active[:i])[: len(active) - len(hand["trick"]) - 1]


def play(view: GameView) -> str:
    hand = view["hand"]
    assert hand is not None
    legal: list[str] = view["legal"]["play"]
    me, declarer, trump = view["seat"], hand["declarer"], hand["trump"]
    assert me is not None
    cards, trick = hand["cards"] or [], hand["trick"]
    keep = marriage_cards(cards)  # kept while they may still meld
    known = set(cards) | {p["card"] for p in history(view)} | set(hand["discarded"] or [])
    shown = voids(view)
    later = [shown.get(seat, set()) for seat in _still_to_play(hand, me)]  # their voids
    if not trick:
        return lead(view, legal, known, later, keep)
    best = next(p["card"] for p in trick if p["seat"] == hand["winning"])
    last = len(trick) == len(hand["active"]) - 1
    ally = me != declarer and hand["winning"] != declarer
    winners = sorted(
        (c for c in legal if beats(c, best, trump)), key=lambda c: _cheap(c, trump, keep)
    )
    worth = sum(points(p["card"]) for p in trick)
    if winners and not ally and (last or me == declarer or worth >= TEN_POINTS):
        sure = [c for c in winners if unbeatable(c, known, trump, later)]
        if last or sure:
            return (sure or winners)[0]
        strong = [c for c in winners if rank(c) >= TEN and c[1] != trump]
        return strong[-1] if strong else winners[0]
    return min(legal, key=lambda c: _cheap(c, trump, keep))


def lead(
    view: GameView, legal: list[str], known: set[str], others: list[set[str]], keep: set[str]
) -> str:
    """A marriage first; as declarer, its top trump while the others may still hold
    trumps; then a card nobody can beat (the most points, a trump last), else the cheapest."""
    hand = view["hand"]
    assert hand is not None
    trump = hand["trump"]
    melds = [c for c in legal if c in hand["meld_cards"]]
    if melds:
        values = hand["meld_values"]
        return max(melds, key=lambda c: (values.get(c, 0), rank(c), c))
    if trump is not None and view["seat"] == hand["declarer"]:
        outstanding = [r + trump for r in RANKS if r + trump not in known]
        trumps = [c for c in legal if c[1] == trump and unbeatable(c, known, trump, others)]
        if outstanding and trumps and not all(trump in void for void in others):
            return max(trumps, key=rank)
    sure = [c for c in legal if unbeatable(c, known, trump, others)]
    if sure:
        return max(sure, key=lambda c: (c[1] != trump, points(c), c))
    return min(legal, key=lambda c: _cheap(c, trump, keep))
