"""The replay format of docs/rules.md: one JSON hand in, one JSON result out."""

from __future__ import annotations

from typing import Any

from .actions import Surrender, Timeout, action_from_json
from .cards import Mask, NotationError, codes, parse_card, suit_code
from .errors import IllegalAction
from .game import Counters, Game, deal_hand_of, new_game
from .game import apply as apply_action
from .hand import Phase, new_hand
from .options import DEFAULT, OptionsError, options_from_json


class ReplayInputError(ValueError):
    """The input is not a valid hand to replay (exit status 2)."""


def _int(data: dict[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if type(value) is not int:
        raise ReplayInputError(f'"{key}" must be an integer.')
    return value


def read_cards(value: object, what: str) -> Mask:
    """A list of distinct card codes as a mask; ``what`` names the field in the message."""
    if not isinstance(value, list):
        raise ReplayInputError(f"{what} must be a list of card codes.")
    mask = 0
    for code in value:
        try:
            card = parse_card(code)
        except NotationError:
            raise ReplayInputError(f"{what}: unknown card code {code!r}.") from None
        if mask >> card & 1:
            raise ReplayInputError(f"{what}: card {code} appears twice.")
        mask |= 1 << card
    return mask


def start(data: object) -> Game:
    """The game described by a replay input, its hand dealt and bidding under way."""
    if not isinstance(data, dict):
        raise ReplayInputError("The input must be a JSON object.")
    players = _int(data, "players")
    if players not in (2, 3, 4):
        raise ReplayInputError('"players" must be 2, 3 or 4.')
    dealer = _int(data, "dealer")
    if not 0 <= dealer < players:
        raise ReplayInputError('"dealer" must be a seat number.')
    target = _int(data, "target", 1000)
    if target not in (1000, 500):
        raise ReplayInputError('"target" must be 1000 or 500.')
    scores = data.get("scores", [0] * players)
    if not (
        isinstance(scores, list) and len(scores) == players and all(type(s) is int for s in scores)
    ):
        raise ReplayInputError('"scores" must be a list of integers, one per seat.')
    hands, musiks = data.get("hands"), data.get("musik")
    if not isinstance(hands, list) or len(hands) != players:
        raise ReplayInputError('"hands" must hold one list of cards per seat.')
    if not isinstance(musiks, list) or len(musiks) != (2 if players == 2 else 1):
        raise ReplayInputError('"musik" must be a list of one musik (two with two players).')
    if not isinstance(data.get("actions", []), list):
        raise ReplayInputError('"actions" must be a list.')
    held = tuple(read_cards(h, f"hands[{i}]") for i, h in enumerate(hands))
    dealt = tuple(read_cards(m, f"musik[{i}]") for i, m in enumerate(musiks))
    try:
        options = options_from_json(data["options"]) if "options" in data else DEFAULT
    except OptionsError as error:
        raise ReplayInputError(f'"options": {error.message}') from None
    counters = read_counters(data.get("counters", {}), players)
    try:
        hand = new_hand(players, dealer, held, dealt)
        game = new_game(players, dealer, target, scores, options, counters)
    except ValueError as error:
        raise ReplayInputError(str(error)) from None
    return deal_hand_of(game, hand)


def read_counters(data: object, players: int) -> Counters:
    """The counters before the hand (docs/rules.md, the replay format); missing keys are
    zeros and no barrel."""
    known = {"bolts", "bombs", "barrel", "tries", "golden", "golden_made"}
    if not isinstance(data, dict) or set(data) - known:
        raise ReplayInputError(
            '"counters" must be an object with bolts, bombs, barrel, tries, golden, golden_made.'
        )
    per_seat: dict[str, tuple[int, ...]] = {}
    for key, top in (("bolts", 2), ("bombs", None)):
        value = data.get(key, [0] * players)
        if not (
            isinstance(value, list)
            and len(value) == players
            and all(type(v) is int and v >= 0 and (top is None or v <= top) for v in value)
        ):
            raise ReplayInputError(f'"counters.{key}" must list one count per seat.')
        per_seat[key] = tuple(value)
    barrel = data.get("barrel")
    if barrel is not None and not (type(barrel) is int and 0 <= barrel < players):
        raise ReplayInputError('"counters.barrel" must be a seat or null.')
    tries = data.get("tries", 0)
    if type(tries) is not int or not 0 <= tries <= 2:
        raise ReplayInputError('"counters.tries" must be 0, 1 or 2.')
    golden = data.get("golden", 0)
    if type(golden) is not int or golden < 0:  # V15: N or more means the golden hands are over
        raise ReplayInputError('"counters.golden" must be an integer, 0 or more.')
    golden_made = data.get("golden_made", False)
    if type(golden_made) is not bool:
        raise ReplayInputError('"counters.golden_made" must be true or false.')
    return Counters(per_seat["bolts"], per_seat["bombs"], barrel, tries, golden, golden_made)


def replay(data: object) -> dict[str, Any]:
    """Replay one hand; ``ReplayInputError`` if the deal itself is invalid."""
    game = start(data)
    assert isinstance(data, dict)
    rejected: dict[str, Any] | None = None
    for index, raw in enumerate(data.get("actions", [])):
        try:
            game = _step(game, raw)
        except IllegalAction as refusal:
            rejected = {"index": index, "reason": refusal.message}
            break
    return result_of(game, rejected, "options" in data)


def _step(game: Game, raw: object) -> Game:
    action = action_from_json(raw)
    if isinstance(action, Surrender | Timeout):
        raise IllegalAction("error.malformed.not_in_record")
    assert game.hand is not None
    if game.hand.phase is Phase.OVER:
        raise IllegalAction("error.hand_over")
    return apply_action(game, action)


def result_of(
    game: Game, rejected: dict[str, Any] | None, with_options: bool = False
) -> dict[str, Any]:
    """The replay output; ``with_options`` adds the options' ``end`` and ``counters``."""
    hand = game.hand
    assert hand is not None
    over = hand.phase is Phase.OVER
    result: dict[str, Any] | None = None
    if over:
        last = game.results[-1]
        result = {
            "points": list(last.points),
            "melds": list(last.melds),
            "made": last.made,
            "delta": list(last.delta),
            "scores": list(last.scores),
            "winner": last.winner,
        }
        if with_options:
            assert result is not None
            counters = game.counters
            result["end"] = str(last.end)
            result["counters"] = {
                "bolts": list(counters.bolts),
                "bombs": list(counters.bombs),
                "barrel": counters.barrel,
                "tries": counters.tries,
            }
            if game.options.golden_ace:  # V15
                result["counters"] |= {
                    "golden": counters.golden,
                    "golden_made": counters.golden_made,
                }
    return {
        "rejected": rejected,
        "phase": str(hand.phase),
        "to_move": hand.to_move,
        "bid": hand.bid,
        "declarer": hand.declarer,
        "contract": hand.contract,
        "trump": None if hand.trump is None else suit_code(hand.trump),
        "legal": codes(hand.legal_cards()) if hand.phase is Phase.PLAY else [],
        "result": result,
    }
