"""The double-dummy verdicts of one hand: how each card played compares with perfect play.

``analyse_hand`` replays one hand (the one-hand replay format of docs/rules.md, with its
``options``, ``counters``, ``scores`` and ``target``) and, at every card, asks the
solver (``tysiac.bots.solver``) how many points the declarer ends the hand with when
everybody plays perfectly from there **with every card face up**, and both defenders
play together against the declarer. Those are not the odds a player at the table could
see: a card that looks bad here may have been the best guess with the cards hidden.

The declarer's *total* is what R23 compares with the contract: its card points in the
tricks it won plus the marriage points that count for it (V4: only once it has won a
trick). At a position that is the total so far plus the solver's gain from there on
(the gain includes the marriages waiting for a first trick under V4).

- ``best``: the total with perfect play from the position before the card (the most for
  the declarer, the least for a defender); ``after``: the total with perfect play after
  the card actually played; ``loss = |best - after|``; ``best_cards``: every card of the
  position worth ``best``.
- ``mark``: ``best`` (no loss), ``contract`` (the card turned a made contract into a
  missed one, or, for a defender, a beaten contract into a made one), otherwise
  ``mistake`` (a loss of 10 points or more) or ``inaccuracy``.
- ``open``: at the first card, the most the declarer can make with open cards,
  whether that reaches the contract, and ``bid``: ``short`` (it does not), ``room``
  (at least one step of the bids above the contract: more could have been declared)
  or ``exact``.

Deterministic: the solver's values are exact, whatever its table holds from earlier hands.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tysiac import rules
from tysiac.bots import solver
from tysiac.rules import variants
from tysiac.rules.cards import Card, card_code, cards_of, mask_of
from tysiac.rules.hand import Hand, Phase
from tysiac.rules.replay import start

MISTAKE = 10  # a loss of this many points or more is a mistake, below an inaccuracy

Verdict = dict[str, Any]


def analyse_hand(hand_input: Mapping[str, Any]) -> dict[str, Any] | None:
    """The verdicts of every card played in ``hand_input``; None when the hand never
    reached the play phase. ``ReplayInputError`` for an invalid deal, ``IllegalAction``
    for a move the rules refuse. A ``timeout`` stands for the move the server made
    (``rules.auto_action``); a ``surrender`` ends the hand where it is."""
    game = start(dict(hand_input))
    cards: list[Verdict] = []
    opening: dict[str, Any] | None = None
    declarer = contract = None
    for index, raw in enumerate(hand_input.get("actions", [])):
        action = rules.action_from_json(raw)
        if isinstance(action, rules.Surrender):
            break
        if isinstance(action, rules.Timeout):
            made = rules.auto_action(game)
            if made is None or made.seat != action.seat:
                raise rules.IllegalAction("error.not_your_turn")
            action = made
        hand = game.hand
        assert hand is not None
        if hand.phase is Phase.PLAY and isinstance(action, rules.Play):
            verdict = card_verdict(hand, action, index + 1)
            if opening is None:
                declarer, contract = hand.declarer, hand.contract
                opening = open_verdict(hand, verdict)
            cards.append(verdict)
        game = rules.apply(game, action)
    if opening is None:
        return None
    return {
        "declarer": declarer,
        "contract": contract,
        "open": opening,
        "cards": cards,
        "mistakes": worst_first(cards),
    }


def declarer_total(hand: Hand) -> int:
    """R22-R23 / V4: the declarer's card points and the marriage points that count."""
    declarer = hand.declarer
    assert declarer is not None
    melds = variants.counted_melds(
        hand.options, hand.meld_points(declarer), hand.tricks_won[declarer]
    )
    return hand.won[declarer] + melds


def totals(hand: Hand) -> dict[Card, int]:
    """Each legal card of the seat to move -> the declarer's total for the hand after it,
    with perfect open-card play from there."""
    now = declarer_total(hand)
    return {card: now + gain for card, gain in solver.values(solver.from_hand(hand)).items()}


def card_verdict(hand: Hand, play: rules.Play, step: int) -> Verdict:
    """The verdict on ``play`` in ``hand`` (its play phase, ``play`` legal there)."""
    worth = totals(hand)
    if play.card not in worth:
        raise rules.IllegalAction("error.not_in_hand")  # the rules would refuse it
    contract = hand.contract
    assert contract is not None
    declarer = play.seat == hand.declarer
    best = max(worth.values()) if declarer else min(worth.values())
    after = worth[play.card]
    loss = abs(best - after)
    if loss == 0:
        mark = "best"
    elif (best >= contract > after) if declarer else (best < contract <= after):
        mark = "contract"
    elif loss >= MISTAKE:
        mark = "mistake"
    else:
        mark = "inaccuracy"
    return {
        "step": step,
        "seat": play.seat,
        "card": card_code(play.card),
        "side": "declarer" if declarer else "defence",
        "after": after,
        "best": best,
        "best_cards": [
            card_code(c) for c in cards_of(mask_of(c for c, v in worth.items() if v == best))
        ],
        "loss": loss,
        "mark": mark,
    }


def open_verdict(hand: Hand, first: Verdict) -> dict[str, Any]:
    """At the first card: the declarer's best total with open cards against the contract.
    ``first`` is the first card's verdict: its ``best`` is the value of this position
    (whoever leads, the best card for their side)."""
    contract = hand.contract
    assert contract is not None
    best: int = first["best"]
    if best < contract:
        bid = "short"
    elif best >= contract + variants.bid_step(hand.options):
        bid = "room"
    else:
        bid = "exact"
    return {"step": first["step"], "best": best, "makeable": best >= contract, "bid": bid}


def worst_first(cards: list[Verdict]) -> list[int]:
    """Indexes of the cards that were not best: those that flipped the contract first,
    then by the points lost, most first, then in the order played."""
    flawed = [i for i, card in enumerate(cards) if card["mark"] != "best"]
    return sorted(flawed, key=lambda i: (cards[i]["mark"] != "contract", -cards[i]["loss"], i))
