"""Single-process server tests again, on PostgreSQL and Redis (a fresh database each).

These are the ones that lean hardest on the store and the bus; the whole server suite
runs so with ``TYSIAC_TEST_SCALE_OUT=1 pytest tests/server`` (only the tests that open
the SQLite file directly cannot).
"""

from __future__ import annotations

import pytest

from ..server import test_games, test_limits, test_moderation, test_table_talk, test_timers


@pytest.fixture(autouse=True)
def on_postgres_and_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSIAC_TEST_SCALE_OUT", "1")


test_full_game_to_the_end = test_games.test_full_game_to_the_end
test_reconnect_resumes_the_same_seat_and_state = (
    test_games.test_reconnect_resumes_the_same_seat_and_state
)
test_stale_and_repeated_commands_change_nothing = (
    test_games.test_stale_and_repeated_commands_change_nothing
)
test_timeout_event_tells_what_the_server_did = (
    test_games.test_timeout_event_tells_what_the_server_did
)
test_r28_time_up_the_server_moves_and_r29_three_in_a_row_lose = (
    test_timers.test_r28_time_up_the_server_moves_and_r29_three_in_a_row_lose
)
test_r31_game_not_finished_in_a_day_is_cancelled_then_deleted_after_a_week = (
    test_timers.test_r31_game_not_finished_in_a_day_is_cancelled_then_deleted_after_a_week
)
test_at_most_n_active_games_per_address_then_a_clear_message = (
    test_limits.test_at_most_n_active_games_per_address_then_a_clear_message
)
test_two_warnings_then_a_day_then_a_week = test_moderation.test_two_warnings_then_a_day_then_a_week
test_rematch_same_players_same_seats_one_click = (
    test_table_talk.test_rematch_same_players_same_seats_one_click
)
