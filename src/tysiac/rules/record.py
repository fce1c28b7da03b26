"""The game record, format "tysiac-record" version 1 (docs/records.md): a whole game as
JSON (options, nicks, every deal, every move, every hand's result, the outcome) and its
reader, which replays the game and checks every result against the moves.

``Recorder`` builds a record from what the server logs (the start, each deck, each
move); ``read_record`` checks a record field by field, replays it and raises
``RecordError`` naming the hand and the move where it goes wrong; ``hand_input`` turns
one replayed hand into the one-hand replay input of docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .actions import Action, Surrender, Timeout, action_from_json, action_to_json
from .cards import Card, codes
from .errors import IllegalAction
from .game import Game, HandResult, Reason, apply, auto_action, deal, deal_hand_of, new_game
from .hand import Phase, new_hand
from .options import Options, OptionsError, options_from_json, options_to_json
from .replay import ReplayInputError, read_cards
from .scoring import result_json

FORMAT = "tysiac-record"
VERSION = 1
# The bounds of a record this reader accepts (the server also bounds an upload's body,
# MAX_BYTES): a real game is far inside them.
MAX_HANDS = 2000
MAX_ACTIONS = 200  # per hand: the longest (every step bid, then the play) has < 90
MAX_NICK = 40
MAX_CODE = 32
MAX_DATE = 40
MAX_BYTES = 512 * 1024
MAX_DETAIL = 300  # characters of an error's message, besides the hand and the move
# The fields of a hand's result, in the order they are compared (HandResult's own,
# ``dealer`` being the hand's).
RESULT_FIELDS = (
    "end",
    "declarer",
    "contract",
    "points",
    "melds",
    "made",
    "delta",
    "scores",
    "winner",
    "golden",
    "reset",
    "tie_break",
)
OUTCOME_FIELDS = ("reason", "winner", "loser")


class RecordError(ValueError):
    """A record that is not well formed or does not replay. ``hand`` and ``move`` count
    from 1 (None when the error is not in one); the text names them, e.g.
    ``hand 3, move 12 (seat 1 play KH): refused: …``."""

    def __init__(
        self,
        detail: str,
        hand: int | None = None,
        move: int | None = None,
        action: str | None = None,
    ) -> None:
        if len(detail) > MAX_DETAIL:  # a value quoted from the record may be long
            detail = detail[: MAX_DETAIL - 1] + "…"
        self.detail = detail
        self.hand = hand
        self.move = move
        where = "" if hand is None else f"hand {hand}"
        if move is not None:
            where += f", move {move}"
        if action is not None:  # the move spelled out: seat 1 play KH
            where += f" ({action})"
        super().__init__(f"{where}: {detail}" if where else detail)


@dataclass(frozen=True, slots=True)
class ReplayedHand:
    number: int  # from 1
    before: Game  # just dealt
    actions: list[dict[str, Any]]  # as recorded (in their canonical JSON form)
    games: list[Game]  # the game after each action, one per action
    result: HandResult | None  # None: the game ended before the hand did

    @property
    def dealer(self) -> int:
        assert self.before.hand is not None
        return self.before.hand.dealer


@dataclass(frozen=True, slots=True)
class Replayed:
    record: dict[str, Any]  # the record in its canonical form (what ``Recorder`` writes)
    game: Game  # after the last move
    hands: list[ReplayedHand]


# --- the JSON of the parts ---------------------------------------------------------------


def outcome_json(game: Game) -> dict[str, Any] | None:
    outcome = game.outcome
    if outcome is None:
        return None
    return {"reason": str(outcome.reason), "winner": outcome.winner, "loser": outcome.loser}


def _dealt_json(game: Game) -> dict[str, Any]:
    """A hand just dealt, its actions and result to come."""
    hand = game.hand
    assert hand is not None
    return {
        "dealer": hand.dealer,
        "hands": [codes(held) for held in hand.dealt],
        "musik": [codes(musik) for musik in hand.musiks],
        "actions": [],
        "result": None,
    }


def _head(
    players: int,
    target: int,
    options: Options,
    nicks: Sequence[str],
    first_dealer: int,
    scores: Sequence[int],
    code: str | None,
    date: str | None,
) -> dict[str, Any]:
    head: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    if code is not None:
        head["code"] = code
    if date is not None:
        head["date"] = date
    return head | {
        "players": players,
        "target": target,
        "options": options_to_json(options),
        "nicks": list(nicks),
        "first_dealer": first_dealer,
        "scores": list(scores),
    }


# --- writing -------------------------------------------------------------------------------


class Recorder:
    """A record built as the game goes: ``deal`` each deck, ``move`` each stored move (the
    server's log: ``started``, ``dealt``, ``move``). Each is checked by the rules, so a
    record made here always reads back."""

    def __init__(
        self,
        players: int,
        target: int,
        options: Options,
        nicks: Sequence[str],
        first_dealer: int,
        scores: Sequence[int] | None = None,
        code: str | None = None,
        date: str | None = None,
    ) -> None:
        if len(nicks) != players:
            raise ValueError("One nick per seat.")
        self._game = new_game(players, first_dealer, target, scores, options)
        self._head = _head(
            players, target, options, nicks, first_dealer, self._game.scores, code, date
        )
        self._hands: list[dict[str, Any]] = []

    @property
    def game(self) -> Game:
        """The game after everything recorded so far."""
        return self._game

    def deal(self, deck: Sequence[Card]) -> None:
        """The next hand, dealt from a shuffled deck (``IllegalAction`` if none is due)."""
        self._game = deal(self._game, deck)
        self._hands.append(_dealt_json(self._game))

    def move(self, action: Mapping[str, Any]) -> None:
        """One stored move (``action_to_json``), timeouts and surrenders included;
        ``IllegalAction`` if the rules refuse it."""
        parsed = action_from_json(dict(action))
        if not self._hands:
            raise IllegalAction("error.not_dealt")
        before = self._game
        self._game = apply(before, parsed)
        current = self._hands[-1]
        current["actions"].append(action_to_json(parsed))
        if len(self._game.results) > len(before.results):
            current["result"] = result_json(self._game.results[-1])

    def record(self) -> dict[str, Any]:
        """The record so far (a new object each time); ``outcome`` null until the game is
        over."""
        record = {**self._head, "hands": self._hands, "outcome": outcome_json(self._game)}
        copied: dict[str, Any] = _copied(record)
        return copied


def _copied(value: Any) -> Any:
    """A JSON value copied all the way down (a caller may change what it is given)."""
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    return value


# --- reading ---------------------------------------------------------------------------------


def _shown(value: object) -> str:
    """A value as JSON spells it, for messages: null, true, [120, 0, -10], "played"."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_shown(k)}: {_shown(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _spelled(action: Mapping[str, Any]) -> str:
    """A move for a message: ``seat 1 play KH``, ``seat 1 give 9H to 2, JH to 0``."""
    kind = action["type"]
    text = f"seat {action['seat']} {kind}"
    match kind:
        case "bid" | "declare":
            return f"{text} {action['value']}"
        case "musik":
            return f"{text} {action['index']}"
        case "play":
            return f"{text} {action['card']}"
        case "discard":
            return f"{text} {' '.join(action['cards'])}"
        case "give":
            return f"{text} " + ", ".join(f"{c} to {s}" for s, c in action["cards"].items())
    return text


def _seat(value: object, players: int) -> bool:
    return type(value) is int and 0 <= value < players


def _int_list(value: object, players: int) -> bool:
    return isinstance(value, list) and len(value) == players and all(type(v) is int for v in value)


def _read_head(data: object) -> tuple[Game, dict[str, Any], list[Any]]:
    """The game before its first deal, the canonical head and the raw hands."""
    if not isinstance(data, dict):
        raise RecordError("the record must be a JSON object.")
    if data.get("format") != FORMAT:
        raise RecordError(f'"format" must be "{FORMAT}".')
    version = data.get("version")
    if type(version) is not int:
        raise RecordError('"version" must be an integer.')
    if version != VERSION:
        raise RecordError(f"version {version} is not known: this reader reads version {VERSION}.")
    players = data.get("players")
    if type(players) is not int or players not in (2, 3, 4):
        raise RecordError('"players" must be 2, 3 or 4.')
    target = data.get("target")
    if type(target) is not int or target not in (1000, 500):
        raise RecordError('"target" must be 1000 or 500.')
    if "options" not in data:
        raise RecordError('"options" is missing (an object, {} for the defaults).')
    try:
        options = options_from_json(data["options"])
    except OptionsError as error:
        raise RecordError(f'"options": {error.message}') from None
    nicks = data.get("nicks")
    if not (
        isinstance(nicks, list)
        and len(nicks) == players
        and all(isinstance(n, str) and 0 < len(n) <= MAX_NICK for n in nicks)
    ):
        raise RecordError(
            f'"nicks" must list one name per seat, each of 1 to {MAX_NICK} characters.'
        )
    first_dealer = data.get("first_dealer")
    if not _seat(first_dealer, players):
        raise RecordError('"first_dealer" must be a seat number.')
    assert isinstance(first_dealer, int)
    scores = data.get("scores", [0] * players)
    if not _int_list(scores, players):
        raise RecordError('"scores" must be a list of integers, one per seat.')
    code = data.get("code")
    if code is not None and not (isinstance(code, str) and len(code) <= MAX_CODE):
        raise RecordError(f'"code" must be text of at most {MAX_CODE} characters, or null.')
    date = data.get("date")
    if date is not None and not _is_date(date):
        raise RecordError('"date" must be an ISO date (2026-12-03) or time, or null.')
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise RecordError('"hands" must be a list of hands.')
    if len(hands) > MAX_HANDS:
        raise RecordError(f"more than {MAX_HANDS} hands.")
    if "outcome" not in data:
        raise RecordError('"outcome" is missing (null for a game not over).')
    game = new_game(players, first_dealer, target, scores, options)
    head = _head(players, target, options, nicks, first_dealer, scores, code, date)
    return game, head, hands


def _is_date(value: object) -> bool:
    if not isinstance(value, str) or len(value) > MAX_DATE:
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def _deal(game: Game, raw: object, number: int) -> Game:
    """The hand ``raw`` dealt in ``game``, its fields checked."""
    if not isinstance(raw, dict):
        raise RecordError("a hand must be a JSON object.", number)
    players = game.players
    dealer = raw.get("dealer")
    if not _seat(dealer, players):
        raise RecordError('"dealer" must be a seat number.', number)
    if dealer != game.next_dealer:
        raise RecordError(
            f'"dealer" says seat {dealer}, but seat {game.next_dealer} deals this hand.', number
        )
    assert isinstance(dealer, int)
    hands, musiks = raw.get("hands"), raw.get("musik")
    if not isinstance(hands, list) or len(hands) != players:
        raise RecordError('"hands" must hold one list of cards per seat.', number)
    if not isinstance(musiks, list) or len(musiks) != (2 if players == 2 else 1):
        raise RecordError('"musik" must be a list of one musik (two with two players).', number)
    try:
        held = tuple(read_cards(h, f'"hands"[{i}]') for i, h in enumerate(hands))
        dealt = tuple(read_cards(m, f'"musik"[{i}]') for i, m in enumerate(musiks))
    except ReplayInputError as error:
        raise RecordError(str(error), number) from None
    try:
        hand = new_hand(players, dealer, held, dealt)
    except ValueError as error:
        raise RecordError(f"the deal: {error}", number) from None
    return deal_hand_of(game, hand)


def _check_result(raw: object, result: HandResult | None, number: int) -> None:
    if result is None:
        if raw is not None:
            raise RecordError(
                "the record gives a result, but the moves do not end the hand.", number
            )
        return
    replayed = result_json(result)
    if raw is None:
        raise RecordError(
            f"the result is null, but the moves end the hand ({replayed['end']}, "
            f"delta {_shown(replayed['delta'])}).",
            number,
        )
    if not isinstance(raw, dict):
        raise RecordError('"result" must be a JSON object or null.', number)
    for key in RESULT_FIELDS:
        if key not in raw:
            raise RecordError(f'the result lacks "{key}".', number)
        if _shown(raw[key]) != _shown(replayed[key]):
            raise RecordError(
                f"the result says {key} {_shown(raw[key])}, the moves give "
                f"{_shown(replayed[key])}.",
                number,
            )


def _check_outcome(raw: object, game: Game) -> None:
    replayed = outcome_json(game)
    if replayed is None:
        if raw is not None:
            raise RecordError("the record gives an outcome, but the moves do not end the game.")
        return
    if raw is None:
        raise RecordError(
            f"the outcome is null, but the moves end the game ({replayed['reason']}, "
            f"winner {_shown(replayed['winner'])})."
        )
    if not isinstance(raw, dict):
        raise RecordError('"outcome" must be a JSON object or null.')
    for key in OUTCOME_FIELDS:
        if key not in raw:
            raise RecordError(f'the outcome lacks "{key}".')
        if _shown(raw[key]) != _shown(replayed[key]):
            raise RecordError(
                f"the outcome says {key} {_shown(raw[key])}, the moves give "
                f"{_shown(replayed[key])}."
            )


def _replay_hand(game: Game, raw: dict[str, Any], number: int) -> ReplayedHand:
    """Every move of a dealt hand, checked; the hand's result compared."""
    moves = raw.get("actions")
    if not isinstance(moves, list):
        raise RecordError('"actions" must be a list.', number)
    if len(moves) > MAX_ACTIONS:
        raise RecordError(f"more than {MAX_ACTIONS} actions.", number)
    before = game
    done = len(game.results)
    actions: list[dict[str, Any]] = []
    games: list[Game] = []
    for index, move in enumerate(moves, start=1):
        try:
            action = action_from_json(move)
        except IllegalAction as refusal:
            raise RecordError(refusal.message, number, index) from None
        canonical = action_to_json(action)
        if game.is_over:
            raise RecordError("the game is over; the record goes on.", number, index)
        hand = game.hand
        assert hand is not None
        if hand.phase is Phase.OVER and not isinstance(action, Surrender):
            raise RecordError("the hand is over; the record goes on.", number, index)
        try:
            game = apply(game, action)
        except IllegalAction as refusal:
            raise RecordError(
                f"refused: {refusal.message}", number, index, _spelled(canonical)
            ) from None
        actions.append(canonical)
        games.append(game)
    result = game.results[done] if len(game.results) > done else None
    _check_result(raw.get("result"), result, number)
    return ReplayedHand(number, before, actions, games, result)


def read_record(data: object) -> Replayed:
    """Check a record (the parsed JSON) and replay it: every field, every move, every
    result and the outcome; ``RecordError`` at the first thing that does not hold."""
    game, head, raw_hands = _read_head(data)
    assert isinstance(data, dict)
    hands: list[ReplayedHand] = []
    for number, raw in enumerate(raw_hands, start=1):
        if game.is_over:
            raise RecordError("the game is over; the record goes on.", number)
        if not game.awaiting_deal:
            raise RecordError(
                "the moves stop before the hand is over, yet another hand follows.", number - 1
            )
        game = _deal(game, raw, number)
        replayed = _replay_hand(game, raw, number)
        hands.append(replayed)
        if replayed.games:
            game = replayed.games[-1]
    _check_outcome(data.get("outcome"), game)
    record = head | {
        "hands": [_hand_json(h) for h in hands],
        "outcome": outcome_json(game),
    }
    return Replayed(record, game, hands)


def _hand_json(hand: ReplayedHand) -> dict[str, Any]:
    dealt = _dealt_json(hand.before)
    dealt["actions"] = [dict(a) for a in hand.actions]
    dealt["result"] = None if hand.result is None else result_json(hand.result)
    return dealt


# --- one hand for the replay tool ------------------------------------------------------------


def concrete_actions(hand: ReplayedHand) -> list[Action]:
    """The hand's moves as they happened at the table: a timeout is the move the server
    made (R28); a surrender, or a third timeout (R29), ends the list."""
    made: list[Action] = []
    game = hand.before
    for raw, after in zip(hand.actions, hand.games, strict=True):
        action = action_from_json(raw)
        walkover = after.outcome is not None and after.outcome.reason is Reason.WALKOVER
        if isinstance(action, Surrender) or walkover:
            break
        if isinstance(action, Timeout):
            auto = auto_action(game)
            assert auto is not None
            action = auto
        made.append(action)
        game = after
    return made


def hand_input(replayed: Replayed, number: int) -> dict[str, Any]:
    """Hand ``number`` (from 1) in the one-hand replay format of docs/rules.md, with the
    options, target, scores and counters before it: ``replay.replay`` reproduces it."""
    if not 1 <= number <= len(replayed.hands):
        raise ValueError(f"No hand {number}.")
    hand = replayed.hands[number - 1]
    game = hand.before
    dealt = game.hand
    assert dealt is not None
    counters = game.counters
    return {
        "players": game.players,
        "dealer": dealt.dealer,
        "target": game.target,
        "scores": list(game.scores),
        "options": options_to_json(game.options),
        "counters": {
            "bolts": list(counters.bolts),
            "bombs": list(counters.bombs),
            "barrel": counters.barrel,
            "tries": counters.tries,
            "golden": counters.golden,
            "golden_made": counters.golden_made,
        },
        "hands": [codes(held) for held in dealt.dealt],
        "musik": [codes(musik) for musik in dealt.musiks],
        "actions": [action_to_json(action) for action in concrete_actions(hand)],
    }
