"""The end of a hand: R22-R26 and the table options that change it, in the order that
docs/rules.md gives.

``settle`` is the one statement of that order: the hand's own result (R22-R24, V4, V5,
V7, V14, V15) -> the barrel (R25, or V10: the sitter's own result, seating and bumping,
tries; nothing with V16) -> bolts (V8) -> 555 (V9) -> the golden hands' count and reset
(V15) -> the winner (R26, or V16).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import variants
from .frozen import evolve
from .hand import End, Hand
from .options import DEFAULT, Options
from .variants import BARREL_PENALTY


@dataclass(frozen=True, slots=True)
class Counters:
    """The game-level counters of V7, V8 and V10 (zeros and no barrel by default)."""

    bolts: tuple[int, ...]  # per seat, 0-2 (V8)
    bombs: tuple[int, ...]  # per seat, bombs used (V7)
    barrel: int | None = None  # the seat on the barrel (V10)
    tries: int = 0  # the sitter's tries so far, 0-2 (V10)
    golden: int = 0  # golden hands played so far (V15)
    golden_made: bool = False  # a golden contract was made (V15)

    @classmethod
    def zero(cls, players: int) -> Counters:
        return cls((0,) * players, (0,) * players)


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand (R22-R26); per-seat tuples, zeros for the sitting-out dealer.

    A void (V6), bombed (V7), redealt (V13) or resigned (V15) hand has ``made`` None and
    zero points."""

    dealer: int
    declarer: int | None
    contract: int | None
    points: tuple[int, ...]  # card points in tricks won
    melds: tuple[int, ...]  # marriage points that count (V4)
    made: bool | None
    delta: tuple[int, ...]
    scores: tuple[int, ...]  # after the hand
    winner: int | None
    end: End = End.PLAYED
    golden: bool = False  # V15: a golden hand
    reset: bool = False  # V15: the last golden hand, none made: every score back to 0
    tie_break: str | None = None  # V16: "highest", "declarer" or "order" (None: no tie)


def settle(
    hand: Hand,
    scores: Sequence[int],
    target: int,
    options: Options = DEFAULT,
    counters: Counters | None = None,
) -> tuple[HandResult, Counters]:
    """Score a finished hand; the result and the counters after it."""
    players = hand.players
    before = counters if counters is not None else Counters.zero(players)
    end = hand.end if hand.end is not None else End.PLAYED
    zero = (0,) * players
    if end in (End.VOID, End.REDEAL):  # nobody scores, no counter moves
        result = HandResult(
            hand.dealer, hand.declarer, hand.contract, zero, zero, None, zero, tuple(scores), None
        )
        return evolve(result, end=end), before
    declarer = hand.declarer
    assert declarer is not None and hand.bid is not None, "hand not played"
    opponents = [s for s in hand.active if s != declarer]
    points, melds = zero, zero
    made: bool | None = None
    gained = [0] * players  # each opponent's points, before R25 / V10
    if end is End.BOMB:
        own, each = variants.bomb_points(options, hand.bid)
        for seat in opponents:
            gained[seat] = each
    elif end is End.RESIGN:  # V15
        own = -variants.GOLDEN_RESIGN
        for seat in opponents:
            gained[seat] = variants.GOLDEN_RESIGN_GAIN
    else:
        contract = hand.contract
        assert contract is not None
        points = hand.won
        melds = tuple(
            variants.counted_melds(options, hand.meld_points(s), hand.tricks_won[s])
            for s in range(players)
        )
        made = points[declarer] + melds[declarer] >= contract  # R23: unrounded
        value = variants.blind_scores(contract) if hand.blind else contract
        own = value if made else -value
        cards = 2 if hand.blind else 1  # V14: the opponents' card points count double
        for seat in opponents:
            gained[seat] = variants.round_points(options, cards * points[seat] + melds[seat])
    after = list(scores)
    after[declarer] += own
    threshold = variants.barrel_threshold(options, target)
    for seat in opponents:
        if not variants.has_barrel(options):  # V16: always the rounded points
            after[seat] += gained[seat]
        elif variants.barrel_of_880(options):
            after[seat] += 0 if seat == before.barrel else gained[seat]
        elif scores[seat] < threshold:  # R25: capped below the barrel, nothing on it
            after[seat] = min(scores[seat] + gained[seat], threshold)
    winner = declarer if made and after[declarer] >= target else None
    barrel, tries = before.barrel, before.tries
    if variants.barrel_of_880(options):
        barrel, tries = _barrel(hand, after, threshold, before, own, made, winner)
    bolts = list(before.bolts)
    if end is End.PLAYED and variants.counts_bolts(options):
        for seat in hand.active:
            if hand.tricks_won[seat]:
                continue
            bolts[seat] += variants.bolt_weight(hand.blind)
            while bolts[seat] >= 3:  # V8: the third bolt costs 120
                bolts[seat] -= 3
                after[seat] -= BARREL_PENALTY
            if seat == barrel and after[seat] < threshold:
                barrel, tries = None, 0
    bombs = list(before.bombs)
    if end is End.BOMB:
        bombs[declarer] += 1
    if variants.dump_555(options, target):
        after = [0 if abs(score) == 555 else score for score in after]  # V9
    delta = tuple(a - s for a, s in zip(after, scores, strict=True))
    golden, golden_made = before.golden, before.golden_made
    reset = False
    if hand.golden:  # V15: count the golden hand; after the N-th with none made, reset
        golden, golden_made = golden + 1, golden_made or bool(made)
        reset = golden == players and not golden_made
    if reset:
        after = [0] * players
        bolts, bombs = [0] * players, [0] * players
        barrel, tries = None, 0
    tie_break = None
    if variants.has_barrel(options):  # R26, checked last
        winner = declarer if made and after[declarer] >= target else None
    else:  # V16
        order = (*hand.active, *(s for s in range(players) if s not in hand.active))
        winner, tie_break = variants.target_winner(tuple(after), target, declarer, order)
    result = HandResult(
        dealer=hand.dealer,
        declarer=declarer,
        contract=hand.contract,
        points=points,
        melds=melds,
        made=made,
        delta=delta,
        scores=tuple(after),
        winner=winner,
        end=end,
        golden=hand.golden,
        reset=reset,
        tie_break=tie_break,
    )
    return result, Counters(tuple(bolts), tuple(bombs), barrel, tries, golden, golden_made)


def _barrel(
    hand: Hand,
    after: list[int],
    threshold: int,
    before: Counters,
    own: int,
    made: bool | None,
    winner: int | None,
) -> tuple[int | None, int]:
    """V10 on ``after`` (changed in place): the sitter's own result, then seating and
    bumping, then tries. Returns the sitter and their tries after the hand."""
    sitter, tries = before.barrel, before.tries
    left: set[int] = set()
    if sitter is not None and sitter == hand.declarer and (made is False or own < 0):
        left.add(sitter)  # a failed contract or a penalty bomb: off, without -120
        sitter, tries = None, 0
    arrived = [
        s
        for s in hand.active
        if s != sitter and s not in left and s != winner and after[s] >= threshold
    ]
    if len(arrived) > 1:
        for seat in arrived:
            after[seat] = threshold - BARREL_PENALTY
        arrived = []
    if arrived:
        newcomer = arrived[0]
        after[newcomer] = threshold
        if sitter is not None:
            after[sitter] -= BARREL_PENALTY  # bumped off
        return newcomer, 0
    if sitter is not None and sitter == before.barrel and sitter in hand.active:
        if sitter == winner:
            return sitter, tries
        tries += 1
        if tries >= 3:
            after[sitter] -= BARREL_PENALTY
            return None, 0
    return sitter, tries


def result_json(result: HandResult) -> dict[str, Any]:
    """A hand's result as JSON: what the record holds, and the seat views' results
    (``view``) besides the dealer."""
    return {
        "end": str(result.end),
        "declarer": result.declarer,
        "contract": result.contract,
        "points": list(result.points),
        "melds": list(result.melds),
        "made": result.made,
        "delta": list(result.delta),
        "scores": list(result.scores),
        "winner": result.winner,
        "golden": result.golden,
        "reset": result.reset,
        "tie_break": result.tie_break,
    }
