"""The game record (docs/records.md): recorded games read back to the same results, each
hand replays alone, and a record whose results do not follow from its moves is refused
with the hand and the move named."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from tests.records import recorded_game
from tysiac import rules
from tysiac.rules.record import (
    MAX_ACTIONS,
    MAX_HANDS,
    MAX_NICK,
    RESULT_FIELDS,
    Recorder,
    RecordError,
    Replayed,
    hand_input,
    read_record,
)
from tysiac.rules.replay import replay
from tysiac.rules.scoring import result_json


def check_round_trip(record: dict[str, Any]) -> Replayed:
    """The record reads back as itself; every hand replays alone to the same result."""
    replayed = read_record(record)
    assert replayed.record == record
    assert len(replayed.hands) == len(record["hands"])
    for hand, raw in zip(replayed.hands, record["hands"], strict=True):
        assert hand.actions == raw["actions"]
        assert len(hand.games) == len(hand.actions)
        result = replay(hand_input(replayed, hand.number))
        assert result["rejected"] is None
        if hand.result is None:
            continue
        assert result["result"] is not None, hand.number
        expected = result_json(hand.result)
        for key in ("points", "melds", "made", "delta", "scores", "winner", "end"):
            assert result["result"][key] == expected[key], (hand.number, key)
        done = len(hand.before.results)
        after = next(g for g in hand.games if len(g.results) > done)
        counters = result["result"]["counters"]
        assert counters["bolts"] == list(after.counters.bolts)
        assert counters["bombs"] == list(after.counters.bombs)
        assert counters["barrel"] == after.counters.barrel
    return replayed


@pytest.mark.parametrize("seed", range(40))
def test_recorded_games_read_back_to_the_same_results(seed: int) -> None:
    recorder = recorded_game(seed, max_hands=12)
    record = recorder.record()
    replayed = check_round_trip(record)
    assert replayed.game.scores == recorder.game.scores
    assert replayed.game.outcome == recorder.game.outcome


def test_short_recorded_games_end_and_read_back() -> None:
    """Games starting near the target: a few hands each, played to their end."""
    reasons: set[str | None] = set()
    for seed in range(150):
        record = recorded_game(seed, near_target=True, max_hands=15).record()
        check_round_trip(record)
        reasons.add(record["outcome"] and record["outcome"]["reason"])
    assert reasons >= {"points", "surrender", "walkover"}


CHUNK = 100  # games per test: the 1,200 games spread over the parallel workers


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(12))
def test_twelve_hundred_recorded_games_read_back(chunk: int) -> None:
    """A thousand short games (most played to their end) and two hundred long ones, a
    hundred a test. Every hundred reaches the ends of a game by points and by surrender
    and the played, void and redealt hands; those from 1,400 to 1,500 every way a game
    or a hand ends."""
    reasons: set[str | None] = set()
    ends: set[str] = set()
    for seed in range(1000 + chunk * CHUNK, 1000 + (chunk + 1) * CHUNK):
        near = seed < 2000
        record = recorded_game(seed, max_hands=30 if near else 60, near_target=near).record()
        check_round_trip(record)
        reasons.add(record["outcome"] and record["outcome"]["reason"])
        ends |= {h["result"]["end"] for h in record["hands"] if h["result"]}
    assert reasons >= {"points", "surrender"}
    assert ends >= {"played", "void", "redeal"}
    if chunk == 4:
        assert reasons >= {"points", "surrender", "walkover"}
        assert ends == {"played", "void", "bomb", "redeal", "resign"}


def test_a_record_so_far_reads_back_at_any_time() -> None:
    recorder = Recorder(3, 1000, rules.Options(), ["A", "B", "C"], 0)
    assert read_record(recorder.record()).hands == []
    rng = random.Random(5)
    for _ in range(60):
        check_round_trip(recorder.record())
        if recorder.game.awaiting_deal:
            recorder.deal(rules.shuffle(rng))
        else:
            recorder.move(rules.action_to_json(rng.choice(rules.legal_actions(recorder.game))))
    record = recorder.record()
    assert record["outcome"] is None and len(record["hands"]) >= 2
    assert record["hands"][-1]["result"] is None


# --- tampered records --------------------------------------------------------------------


@pytest.fixture(scope="module")
def base() -> dict[str, Any]:
    """A finished three-player game whose second hand was played out, no timeouts in it."""
    for seed in range(100):
        record = recorded_game(seed, players=3, target=500).record()
        second = record["hands"][1] if len(record["hands"]) > 2 else None
        if (
            record["outcome"] is not None
            and second is not None
            and second["result"]["end"] == "played"
            and all(a["type"] != "timeout" for a in second["actions"])
        ):
            return record
    raise AssertionError("no such game")


def refused(record: object) -> RecordError:
    with pytest.raises(RecordError) as caught:
        read_record(record)
    return caught.value


def first_play(hand: dict[str, Any]) -> int:
    return next(i for i, a in enumerate(hand["actions"]) if a["type"] == "play")


def test_the_base_game_reads(base: dict[str, Any]) -> None:
    check_round_trip(base)


def test_a_card_swapped_in_a_deal_is_refused_in_that_hand(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    hand = record["hands"][1]
    player = hand["actions"][first_play(hand)]["seat"]
    other = next(s for s in range(3) if s != player and hand["hands"][s])
    mine, theirs = hand["hands"][player], hand["hands"][other]
    card = hand["actions"][first_play(hand)]["card"]
    if card not in mine:  # the declarer's card came from the musik
        mine = hand["musik"][0]
    swap = theirs[0]
    mine[mine.index(card)], theirs[0] = swap, card
    error = refused(record)
    assert error.hand == 2, error
    assert str(error).startswith("hand 2")


def test_a_card_dealt_twice_is_refused(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    hands = record["hands"][2]["hands"]
    seat = next(s for s in range(3) if hands[s])
    hands[seat][0] = record["hands"][2]["musik"][0][0]
    error = refused(record)
    assert (error.hand, error.move) == (3, None)
    assert str(error) == "hand 3: the deal: A card is dealt twice."


def test_a_changed_card_play_is_refused_at_that_move(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    hand = record["hands"][1]
    index = first_play(hand)
    action = hand["actions"][index]
    seat = action["seat"]
    replayed = read_record(base)
    before = replayed.hands[1].games[index - 1]
    assert before.hand is not None
    foreign = next(
        rules.card_code(c)
        for c in range(24)
        if not before.hand.held[seat] >> c & 1 and not before.hand.played >> c & 1
    )
    action["card"] = foreign
    error = refused(record)
    assert (error.hand, error.move) == (2, index + 1)
    assert str(error).startswith(
        f"hand 2, move {index + 1} (seat {seat} play {foreign}): refused: "
    )
    assert rules.IllegalAction("error.not_in_hand").message in str(error)


def test_a_changed_action_type_is_refused(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    record["hands"][0]["actions"][0] = {"seat": 0, "type": "fly"}
    error = refused(record)
    assert (error.hand, error.move) == (1, 1)


@pytest.mark.parametrize("key", RESULT_FIELDS)
def test_a_changed_result_field_is_refused(base: dict[str, Any], key: str) -> None:
    record = copy.deepcopy(base)
    result = record["hands"][1]["result"]
    value = result[key]
    if isinstance(value, list):
        result[key] = [value[0] + 10, *value[1:]]
    elif isinstance(value, bool):
        result[key] = not value
    elif isinstance(value, int):
        result[key] = value + 10
    elif key == "end":
        result[key] = "void"
    else:  # None: winner, tie_break
        result[key] = 1 if key == "winner" else "order"
    error = refused(record)
    assert (error.hand, error.move) == (2, None)
    assert str(error).startswith(f"hand 2: the result says {key} "), error


def test_a_result_field_of_the_wrong_type_or_missing_is_refused(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    made = record["hands"][1]["result"]["made"]
    record["hands"][1]["result"]["made"] = int(made)  # 1 is not true
    assert str(refused(record)) == f"hand 2: the result says made {int(made)}, the moves give " + (
        "true." if made else "false."
    )
    del record["hands"][1]["result"]["made"]
    assert str(refused(record)) == 'hand 2: the result lacks "made".'
    record["hands"][1]["result"] = None
    assert str(refused(record)).startswith("hand 2: the result is null, but the moves end")


def test_a_removed_action_is_refused(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    del record["hands"][1]["actions"][-1]  # the last card of the hand
    assert str(refused(record)) == (
        "hand 2: the record gives a result, but the moves do not end the hand."
    )
    record = copy.deepcopy(base)
    index = first_play(record["hands"][1]) + 1
    del record["hands"][1]["actions"][index]  # a card in the middle: the next is out of turn
    error = refused(record)
    assert (error.hand, error.move) == (2, index + 1)
    assert "refused" in str(error)


def test_an_action_after_the_end_of_a_hand_is_refused(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    actions = record["hands"][1]["actions"]
    actions.append({"seat": 0, "type": "pass"})
    assert str(refused(record)) == (
        f"hand 2, move {len(actions)}: the hand is over; the record goes on."
    )


def test_a_hand_after_the_end_of_the_game_is_refused(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    record["hands"].append(copy.deepcopy(record["hands"][-1]))
    number = len(record["hands"])
    assert str(refused(record)) == f"hand {number}: the game is over; the record goes on."


def test_a_wrong_outcome_is_refused(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    winner = record["outcome"]["winner"]
    record["outcome"]["winner"] = (winner + 1) % 3
    assert str(refused(record)) == (
        f"the outcome says winner {(winner + 1) % 3}, the moves give {winner}."
    )
    record["outcome"] = None
    assert str(refused(record)).startswith("the outcome is null, but the moves end the game")
    record["outcome"] = {"reason": "surrender", "winner": winner, "loser": None}
    assert str(refused(record)) == ('the outcome says reason "surrender", the moves give "points".')
    error = refused({**base, "hands": base["hands"][:1]})
    assert str(error) == "the record gives an outcome, but the moves do not end the game."
    assert (error.hand, error.move) == (None, None)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "tysiac"}, '"format" must be "tysiac-record".'),
        ({"version": 2}, "version 2 is not known: this reader reads version 1."),
        ({"version": "1"}, '"version" must be an integer.'),
        ({"players": 5}, '"players" must be 2, 3 or 4.'),
        ({"players": True}, '"players" must be 2, 3 or 4.'),
        ({"target": 700}, '"target" must be 1000 or 500.'),
        ({"options": None}, '"options": '),
        ({"options": {"bid_step": 7}}, '"options": '),
        ({"nicks": ["A", "B"]}, '"nicks" must list one name per seat'),
        ({"nicks": ["A", "B", "x" * (MAX_NICK + 1)]}, '"nicks" must list one name per seat'),
        ({"first_dealer": 3}, '"first_dealer" must be a seat number.'),
        ({"scores": [0, 0]}, '"scores" must be a list of integers, one per seat.'),
        ({"scores": [0, 0, 1.5]}, '"scores" must be a list of integers, one per seat.'),
        ({"code": 12}, '"code" must be text'),
        ({"date": "yesterday"}, '"date" must be an ISO date'),
        ({"hands": {}}, '"hands" must be a list of hands.'),
    ],
)
def test_wrong_fields_are_named(base: dict[str, Any], change: dict[str, Any], message: str) -> None:
    assert str(refused({**base, **change})).startswith(message)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"dealer": "0"}, 'hand 2: "dealer" must be a seat number.'),
        ({"hands": [[], []]}, 'hand 2: "hands" must hold one list of cards per seat.'),
        ({"musik": []}, 'hand 2: "musik" must be a list of one musik (two with two players).'),
        ({"musik": [["9H", "JH", "XX"]]}, "hand 2: \"musik\"[0]: unknown card code 'XX'."),
        ({"actions": None}, 'hand 2: "actions" must be a list.'),
        ({"result": []}, 'hand 2: "result" must be a JSON object or null.'),
    ],
)
def test_wrong_hand_fields_are_named(
    base: dict[str, Any], change: dict[str, Any], message: str
) -> None:
    record = copy.deepcopy(base)
    record["hands"][1].update(change)
    assert str(refused(record)) == message


def test_missing_fields_are_named(base: dict[str, Any]) -> None:
    for key in ("format", "version", "players", "target", "options", "nicks", "first_dealer"):
        record = {k: v for k, v in base.items() if k != key}
        assert f'"{key}"' in str(refused(record)), key
    record = {k: v for k, v in base.items() if k != "outcome"}
    assert str(refused(record)) == '"outcome" is missing (null for a game not over).'
    assert str(refused([])) == "the record must be a JSON object."
    hand = {k: v for k, v in base["hands"][0].items() if k != "actions"}
    assert str(refused({**base, "hands": [hand]})) == 'hand 1: "actions" must be a list.'


def test_a_wrong_dealer_is_named(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    dealer = record["hands"][1]["dealer"]
    record["hands"][1]["dealer"] = (dealer + 1) % 3
    assert str(refused(record)) == (
        f'hand 2: "dealer" says seat {(dealer + 1) % 3}, but seat {dealer} deals this hand.'
    )


def test_over_the_bounds_is_refused(base: dict[str, Any]) -> None:
    hands = [base["hands"][0]] * (MAX_HANDS + 1)
    assert str(refused({**base, "hands": hands})) == f"more than {MAX_HANDS} hands."
    record = copy.deepcopy(base)
    record["hands"][0]["actions"] = [{"seat": 0, "type": "pass"}] * (MAX_ACTIONS + 1)
    assert str(refused(record)) == f"hand 1: more than {MAX_ACTIONS} actions."


def test_unknown_fields_are_left_out_of_the_canonical_record(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    record["comment"] = "a later writer's note"
    record["hands"][0]["seconds"] = [3, 4]
    assert read_record(record).record == base


def test_a_surrender_between_hands_ends_the_hand_before() -> None:
    """R30: a seat may surrender while the next deal waits; the record keeps it as the
    last action of the hand just over, and that hand keeps its result."""
    rng = random.Random(11)
    recorder = Recorder(3, 1000, rules.Options(), ["A", "B", "C"], 2)
    recorder.deal(rules.shuffle(rng))
    while not recorder.game.awaiting_deal:
        made = rules.auto_action(recorder.game)
        assert made is not None
        recorder.move(rules.action_to_json(made))
    recorder.move({"seat": 1, "type": "surrender"})
    record = recorder.record()
    assert record["hands"][0]["actions"][-1] == {"seat": 1, "type": "surrender"}
    assert record["hands"][0]["result"] is not None
    assert record["outcome"]["reason"] == "surrender" and record["outcome"]["loser"] == 1
    replayed = check_round_trip(record)
    assert hand_input(replayed, 1)["actions"] == record["hands"][0]["actions"][:-1]
    # anything but a surrender after the end is refused
    tampered = copy.deepcopy(record)
    tampered["hands"][0]["actions"][-1] = {"seat": 1, "type": "timeout"}
    error = refused(tampered)
    assert (error.hand, error.move) == (1, len(record["hands"][0]["actions"]))


def test_the_recorder_refuses_what_the_rules_refuse() -> None:
    recorder = Recorder(2, 500, rules.Options(), ["A", "B"], 0)
    with pytest.raises(rules.IllegalAction):
        recorder.move({"seat": 0, "type": "pass"})  # nothing dealt yet
    recorder.deal(rules.shuffle(random.Random(1)))
    with pytest.raises(rules.IllegalAction):
        recorder.deal(rules.shuffle(random.Random(2)))  # the hand is not over
    with pytest.raises(rules.IllegalAction):
        recorder.move({"seat": 1, "type": "fly"})
    with pytest.raises(ValueError, match="One nick per seat"):
        Recorder(2, 500, rules.Options(), ["A"], 0)
    assert len(recorder.record()["hands"]) == 1
    assert recorder.record()["hands"][0]["actions"] == []


def test_a_record_given_out_is_a_copy() -> None:
    recorder = recorded_game(3, max_hands=2)
    record = recorder.record()
    record["hands"][0]["actions"].clear()
    record["hands"][0]["hands"][1].clear()
    record["options"]["bid_step"] = 7
    assert recorder.record() != record
    check_round_trip(recorder.record())


def test_a_long_value_quoted_in_a_message_is_cut(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    record["hands"][1]["result"]["end"] = "x" * 10_000
    message = str(refused(record))
    assert message.startswith('hand 2: the result says end "xxx') and len(message) < 320
