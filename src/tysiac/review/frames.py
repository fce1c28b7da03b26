"""Every step of every hand of a replayed game, all cards face up, as JSON for the review
page: step 0 is the deal, step i (i >= 1) the table after the hand's i-th move.

Nothing is hidden here: the hands, the musiks, the given and discarded cards, the move
the server made for a seat that ran out of time. A review is shown once the game is
over, to everyone with its link (terms: the whole deal of every hand).
"""

from __future__ import annotations

from typing import Any, TypedDict

from tysiac.rules import Game, Reason, action_to_json, auto_action
from tysiac.rules.actions import Timeout, action_from_json
from tysiac.rules.cards import Card, Mask, card_code, codes, suit_code
from tysiac.rules.hand import Hand
from tysiac.rules.record import Replayed, ReplayedHand
from tysiac.rules.scoring import result_json
from tysiac.rules.view import meld_view

Event = dict[str, Any]
Plays = list[list[int | str]]  # [seat, card] in the order played: [[1, "KH"], ...]


class Step(TypedDict):
    event: Event  # what happened: "dealt", or a move (its type as "kind"), all of it
    phase: str
    to_move: int | None
    held: list[list[str]]  # every seat's cards now, weakest suit and rank first
    musik: list[list[str]]  # per musik, its cards while on the table; [] once taken
    discarded: list[str]  # two players: the declarer's two cards laid away
    trick: Plays  # on the table; after a trick's last card, the whole trick
    last_trick: Plays  # the trick completed before the one on the table
    taken: list[list[str]]  # per seat, the cards of the tricks it won (not on the table)
    trump: str | None
    bid: int | None
    declarer: int | None
    contract: int | None
    won: list[int]  # card points in tricks won, per seat
    melds: list[int]  # marriage points declared, per seat
    tricks: list[int]  # tricks won, per seat
    scores: list[int]  # the game's scores (after the hand's result once it is over)


class HandFrames(TypedDict):
    number: int  # from 1
    dealer: int
    declarer: int | None
    contract: int | None
    end: str | None  # as the result's ``end``; None when the game ended mid-hand
    steps: list[Step]
    result: dict[str, Any] | None  # as in the record


def _plays(trick: tuple[tuple[int, Card], ...]) -> Plays:
    return [[seat, card_code(card)] for seat, card in trick]


def _musiks(hand: Hand) -> list[list[str]]:
    """The musiks still on the table: three or four players, until there is a declarer
    (R15; a golden hand's goes to the declarer at once); two, until picked (R16)."""
    if hand.players == 2:
        return [[] if hand.musik_taken == i else codes(m) for i, m in enumerate(hand.musiks)]
    return [[] if hand.declarer is not None else codes(m) for m in hand.musiks]


def _taken(hand: Hand, trick: tuple[tuple[int, Card], ...]) -> list[list[str]]:
    """Per seat, the cards of its tricks so far, but the trick shown on the table."""
    piles: list[Mask] = [0] * hand.players
    history = hand.history[: len(hand.history) - len(trick)] if trick else hand.history
    size = len(hand.active)
    for start in range(0, len(history) - len(history) % size, size):
        played = history[start : start + size]
        winner = _winner(hand, history, start)
        for _, card in played:
            piles[winner] |= 1 << card
    return [codes(pile) for pile in piles]


def _winner(hand: Hand, history: tuple[tuple[int, Card], ...], start: int) -> int:
    """Who won the trick of ``history`` starting at ``start``: the next trick's leader,
    or for the last one completed, the hand's last winner."""
    size = len(hand.active)
    following = start + size
    if following < len(hand.history):
        return hand.history[following][0]
    assert hand.last_winner is not None
    return hand.last_winner


def _step(event: Event, game: Game, trick: tuple[tuple[int, Card], ...], last: Plays) -> Step:
    hand = game.hand
    assert hand is not None
    return {
        "event": event,
        "phase": str(hand.phase),
        "to_move": game.to_move,
        "held": [codes(held) for held in hand.held],
        "musik": _musiks(hand),
        "discarded": codes(hand.discarded),
        "trick": _plays(trick),
        "last_trick": last,
        "taken": _taken(hand, trick),
        "trump": None if hand.trump is None else suit_code(hand.trump),
        "bid": hand.bid,
        "declarer": hand.declarer,
        "contract": hand.contract,
        "won": list(hand.won),
        "melds": [hand.meld_points(seat) for seat in range(hand.players)],
        "tricks": list(hand.tricks_won),
        "scores": list(game.scores),
    }


def _full(action: dict[str, Any]) -> Event:
    """A move as an event: every field of it, its type as ``kind``."""
    event: Event = {"kind": action["type"]}
    event.update((key, value) for key, value in action.items() if key != "type")
    return event


def _event(action: dict[str, Any], before: Game, after: Game) -> Event:
    """The move and what it did, as the table's public events tell it (``took``, ``meld``,
    ``result``; a timeout's ``walkover`` and ``move``), but with nothing hidden."""
    event = _full(action)
    if isinstance(action_from_json(action), Timeout):
        walkover = after.outcome is not None and after.outcome.reason is Reason.WALKOVER
        event["walkover"] = walkover
        made = auto_action(before)
        if made is not None and not walkover:
            event["move"] = _full(action_to_json(made))
    old, new = before.hand, after.hand
    assert old is not None and new is not None
    if sum(new.tricks_won) > sum(old.tricks_won):
        event["took"] = new.last_winner
    if len(new.melds) > len(old.melds):
        event["meld"] = meld_view(*new.melds[-1])
    if len(after.results) > len(before.results):
        event["result"] = len(after.results) - 1
    return event


def _dealt(game: Game) -> Event:
    hand = game.hand
    assert hand is not None
    event: Event = {"kind": "dealt", "dealer": hand.dealer}
    if hand.golden:  # V15: the golden hand's number and its declarer (the mus player)
        event["golden"] = game.counters.golden + 1
        event["declarer"] = hand.declarer
    return event


def hand_frames(hand: ReplayedHand) -> HandFrames:
    """One hand, step by step."""
    game = hand.before
    steps = [_step(_dealt(game), game, (), [])]
    for action, after in zip(hand.actions, hand.games, strict=True):
        old, new = game.hand, after.hand
        assert old is not None and new is not None
        completed = sum(new.tricks_won) > sum(old.tricks_won)
        trick = new.last_trick if completed else new.trick
        last = _plays(old.last_trick if completed else new.last_trick)
        steps.append(_step(_event(action, game, after), after, trick, last))
        game = after
    final = game.hand
    assert final is not None
    result = None if hand.result is None else result_json(hand.result)
    return {
        "number": hand.number,
        "dealer": final.dealer,
        "declarer": final.declarer,
        "contract": final.contract,
        "end": None if result is None else result["end"],
        "steps": steps,
        "result": result,
    }


def frames(replayed: Replayed) -> list[HandFrames]:
    """Every hand of a replayed game (``rules.read_record``), step by step."""
    return [hand_frames(hand) for hand in replayed.hands]
