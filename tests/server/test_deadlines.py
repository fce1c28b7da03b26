"""When the next deadline falls (R27, R28): ``game/deadlines.py``, a pure function of a
change, tested on tables folded from their events."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from tysiac import rules
from tysiac.server.game.deadlines import REMATCH_WAIT_SECONDS, Pauses, bot_pause, next_deadline
from tysiac.server.game.table import Event, Settings, Table, apply_event, deck_event, empty_table
from tysiac.store.schema import EventKind, GameStatus

NOW = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)
PAUSES = Pauses(hand=5.0, bot=1.2)


def fold(table: Table, events: list[Event]) -> Table:
    for kind, data in events:
        table, _ = apply_event(table, kind, data, NOW)
    return table


def started(bots: tuple[str | None, ...] = (None, None, None), move_seconds: int = 60) -> Table:
    """A three-player game with its first hand dealt; ``bots`` by seat."""
    table = empty_table("ABCDEF", Settings(3, 1000, None, False, True, move_seconds))
    joined: list[Event] = []
    for seat, level in enumerate(bots):
        data: dict[str, Any] = {"seat": seat, "nick": f"Gracz{seat}", "device": None}
        if level is not None:
            data["bot"] = level
        joined.append((EventKind.JOINED, data))
    opening = [(EventKind.STARTED, {"first_dealer": 0})]
    return fold(table, [*joined, *opening, deck_event(rules.shuffle(random.Random(7)))])


def first_move(table: Table) -> Event:
    assert table.game is not None
    return EventKind.MOVE, rules.action_to_json(rules.legal_actions(table.game)[0])


def deadline_after(before: Table, new: list[Event], rng_seed: int = 1) -> datetime | None:
    return next_deadline(before, fold(before, new), new, NOW, PAUSES, random.Random(rng_seed))


def test_after_a_players_move_the_next_seat_gets_the_games_move_time() -> None:
    for seconds in (60, 120, 300):  # R27: a minute, or two or five in a private game
        before = started(move_seconds=seconds)
        assert deadline_after(before, [first_move(before)]) == NOW + timedelta(seconds=seconds)


def test_a_move_time_the_server_was_given_wins_over_the_games() -> None:
    before = started()
    new = [first_move(before)]
    after = fold(before, new)
    pauses = Pauses(hand=5.0, bot=1.2, move=0.5)
    moved = next_deadline(before, after, new, NOW, pauses, random.Random(1))
    assert moved == NOW + timedelta(seconds=0.5)


def test_a_chat_line_leaves_the_clock_running() -> None:
    before = started()
    running = NOW - timedelta(seconds=20)
    before = replace(before, deadline=running)
    chat = [(EventKind.CHAT, {"seat": 0, "text": "cześć", "device": None})]
    assert deadline_after(before, chat) == running


def test_after_a_hand_the_next_deal_waits_for_the_hand_pause() -> None:
    table = started()
    while True:  # play the first legal action until the hand is over
        assert table.game is not None
        if table.game.awaiting_deal:
            break
        before, new = table, [first_move(table)]
        table = fold(table, new)
    assert deadline_after(before, new) == NOW + timedelta(seconds=PAUSES.hand)


def test_a_computer_player_moves_after_a_natural_pause() -> None:
    before = started(bots=("easy", "easy", "easy"))
    assert before.game is not None and before.game.to_move is not None
    new = [first_move(before)]
    after = fold(before, new)
    assert after.game is not None and after.game.to_move is not None
    pauses = {deadline_after(before, new, seed) for seed in range(20)}
    assert len(pauses) > 1  # not the same pause every time
    for deadline in pauses:
        assert deadline is not None
        seconds = (deadline - NOW).total_seconds()
        assert PAUSES.bot * 2 / 3 <= seconds <= PAUSES.bot * 4 / 3


def test_a_forced_move_is_not_thought_over() -> None:
    table = started()
    rng = random.Random(3)
    while True:  # to a position where the seat to move has exactly one legal action
        game = table.game
        assert game is not None and not game.awaiting_deal
        legal = rules.legal_actions(game)
        if len(legal) == 1:
            break
        table = fold(table, [(EventKind.MOVE, rules.action_to_json(rng.choice(legal)))])
    assert bot_pause(game, 1.2, random.Random(1)) == 1.2 / 3
    opening = started().game
    assert opening is not None and len(rules.legal_actions(opening)) > 1
    assert 0.8 <= bot_pause(opening, 1.2, random.Random(1)) <= 1.6


def test_a_rematch_waits_a_minute_for_its_players_from_when_it_was_made() -> None:
    waiting = empty_table("REMTCH", Settings(3, 1000, None, False, True, 60))
    opened: list[Event] = [(EventKind.REMATCH_OF, {"code": "ABCDEF"})]
    opened += [
        (EventKind.JOINED, {"seat": s, "nick": f"Gracz{s}", "device": None}) for s in range(3)
    ]
    made = deadline_after(waiting, opened)
    assert made == NOW + timedelta(seconds=REMATCH_WAIT_SECONDS)
    table = replace(fold(waiting, opened), deadline=made)
    arrived = [(EventKind.ARRIVED, {"seat": 0})]
    assert deadline_after(table, arrived) == made  # one player back: the same minute


def test_a_game_that_is_over_or_not_started_has_no_deadline() -> None:
    waiting = empty_table("ABCDEF", Settings(3, 1000, None, False, True, 60))
    joined = [(EventKind.JOINED, {"seat": 0, "nick": "Ala", "device": None})]
    assert deadline_after(waiting, joined) is None
    before = started()
    assert before.game is not None and before.game.to_move is not None
    surrender = [(EventKind.MOVE, {"seat": before.game.to_move, "type": "surrender"})]
    after = fold(before, surrender)
    assert after.status == GameStatus.FINISHED
    assert deadline_after(before, surrender) is None
