import random
from datetime import UTC, datetime, timedelta

import pytest

from tysiac.rules import (
    Declare,
    Discard,
    Game,
    Give,
    Pass,
    Play,
    Reason,
    TakeMusik,
    Timeout,
    apply,
    auto_action,
    cancel,
    deal,
    legal_actions,
    new_game,
    shuffle,
)
from tysiac.rules.auto import weakest
from tysiac.rules.cards import codes, parse_card, parse_cards
from tysiac.rules.game import walkover_winner
from tysiac.rules.hand import Phase
from tysiac.rules.timing import MOVE_SECONDS, cancel_due, delete_due, move_deadline

from .helpers import DEAL_A, act, bid, declare, game_from, give, pass_, play, refused
from .test_bidding import TWO_PLAYERS

S, C, D, H = range(4)


def timeout(seat: int) -> dict[str, object]:
    return {"seat": seat, "type": "timeout"}


def test_r27_every_kind_of_move_can_time_out_for_the_seat_to_move_only() -> None:
    three = game_from(DEAL_A)
    two = game_from(TWO_PLAYERS, players=2, dealer=1)
    phases = []
    for game in (three, two):
        while game.to_move is not None:
            assert game.hand is not None
            phases.append(game.hand.phase)
            others = [s for s in range(game.players) if s != game.to_move]
            for other in others:
                refused(game, timeout(other), "not_your_turn")
            mover = game.to_move
            game = act(game, timeout(mover))
            if game.timeouts[mover] == 2:  # keep clear of the walkover: move once yourself
                action = auto_action(game)
                if action is None:
                    break
                game = apply(game, action)
    assert set(phases) == set(Phase) - {Phase.OVER, Phase.BLIND}  # V14 only with options


def test_r27_move_deadline_is_60_seconds_by_default() -> None:
    start = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    assert MOVE_SECONDS == 60
    assert move_deadline(start) == start + timedelta(seconds=60)
    assert move_deadline(start, 300) == start + timedelta(minutes=5)


def test_r28_weakest_is_points_then_non_trump_then_suit() -> None:
    cards = parse_cards("9H 9S JS JH AS KC")
    assert codes_in_order(weakest(cards, None, 6)) == ["9S", "9H", "JS", "JH", "KC", "AS"]
    assert codes_in_order(weakest(cards, S, 6)) == ["9H", "9S", "JH", "JS", "KC", "AS"]


def codes_in_order(cards: list[int]) -> list[str]:
    return [codes(1 << c)[0] for c in cards]


def test_r28_auto_moves_in_each_phase() -> None:
    game = game_from(DEAL_A)
    assert auto_action(game) == Pass(1)
    game = act(game, bid(1, 110), pass_(2), pass_(0))
    # Seat 1 holds KH QH AD TD KD QD JD + 9H JH TH: weakest 9H, then JD (♦ before ♥).
    assert auto_action(game) == Give.of(1, {2: parse_card("9H"), 0: parse_card("JD")})
    game = act(game, give(1, {2: "9H", 0: "JH"}))
    assert auto_action(game) == Declare(1, 110)
    game = act(game, declare(1, 120), play(1, "KH"), play(2, "9H"))
    assert auto_action(game) == Play(0, parse_card("AH"))  # the only legal card
    game = act(game, play(0, "AH"))
    # Seat 0 leads with hearts trump: 9S is weakest (0 points).
    assert auto_action(game) == Play(0, parse_card("9S"))

    two = act(game_from(TWO_PLAYERS, players=2, dealer=1), bid(1, 110), pass_(0))
    assert auto_action(two) == TakeMusik(1, 0)
    two = act(two, timeout(1))
    # Seat 1 holds AD TD KD QD JD 9D AC TC KC QC + JC 9C: weakest 9C, 9D (♣ before ♦).
    assert auto_action(two) == Discard(1, (parse_card("9C"), parse_card("9D")))


def test_r28_four_players_give_goes_to_the_next_active_opponents() -> None:
    game = deal(new_game(4, 0), list(range(24)))
    hand = game.hand
    assert hand is not None and hand.active == (1, 2, 3)
    game = act(game, pass_(2), pass_(3))
    assert game.hand is not None and game.hand.declarer == 1
    action = auto_action(game)
    assert isinstance(action, Give) and [o for o, _ in action.cards] == [2, 3]
    weakest_two = weakest(game.hand.held[1], None, 2)
    assert dict(action.cards) == {2: weakest_two[0], 3: weakest_two[1]}
    game = deal(new_game(4, 0), list(range(24)))
    game = act(game, bid(2, 110), pass_(3), pass_(1))
    action = auto_action(game)
    assert game.hand is not None and game.hand.opponents == (3, 1)  # skips the dealer, 0
    weakest_two = weakest(game.hand.held[2], None, 2)
    assert isinstance(action, Give) and dict(action.cards) == {3: weakest_two[0], 1: weakest_two[1]}


def play_with_timeouts(game: Game, idle: int, own_move_after: int | None = None) -> Game:
    """Everyone moves but ``idle``, who times out (and, once, moves after N timeouts)."""
    rng = random.Random(7)
    count = 0
    while not game.is_over:
        if game.awaiting_deal:
            game = deal(game, shuffle(rng))
        elif game.to_move == idle and count != own_move_after:
            game = apply(game, Timeout(idle))
            count += 1
        else:
            if game.to_move == idle:
                count += 1
            game = apply(game, rng.choice(legal_actions(game)))
    return game


def test_r29_third_timeout_in_a_row_loses_by_walkover() -> None:
    game = play_with_timeouts(deal(new_game(3, 2, scores=[0, 300, 300]), list(range(24))), idle=0)
    assert game.outcome is not None
    assert game.outcome.reason is Reason.WALKOVER and game.outcome.loser == 0
    assert game.outcome.winner == 1  # tie 300/300: first seat after the loser
    assert game.timeouts[0] == 3


def test_r29_own_move_resets_the_count() -> None:
    base = deal(new_game(3, 2), list(range(24)))
    game = base
    for _ in range(2):
        while game.to_move != 0:
            game = apply(game, legal_actions(game)[-1])
        game = apply(game, Timeout(0))
    assert game.timeouts[0] == 2 and not game.is_over
    while game.to_move != 0:
        game = apply(game, legal_actions(game)[-1])
    game = apply(game, legal_actions(game)[0])
    assert game.timeouts[0] == 0


def test_r29_winner_is_highest_score_among_the_others_ties_after_the_loser() -> None:
    assert walkover_winner([500, 100, 700], 0) == 2
    assert walkover_winner([300, 0, 300], 1) == 2
    assert walkover_winner([300, 300, 0], 2) == 0
    assert walkover_winner([-20, 10, -20, 10], 2) == 3
    assert walkover_winner([0, 5], 1) == 0


def test_r30_surrender_at_any_time_ends_the_game_for_everyone() -> None:
    fresh = new_game(4, 0, scores=[100, 200, 200, 50])
    over = act(fresh, {"seat": 3, "type": "surrender"})
    assert over.outcome is not None
    assert over.outcome.reason is Reason.SURRENDER and over.outcome.winner == 1
    game = act(deal(fresh, list(range(24))), {"seat": 0, "type": "surrender"})  # sitting-out dealer
    assert game.outcome is not None and game.outcome.winner == 1 and game.outcome.loser == 0
    refused(game, {"seat": 1, "type": "pass"}, "game_over")
    refused(game, {"seat": 2, "type": "surrender"}, "game_over")
    refused(game, timeout(1), "game_over")
    assert legal_actions(game) == [] and auto_action(game) is None and game.to_move is None


def test_r31_lifetimes() -> None:
    created = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    assert cancel_due(created, None) == created + timedelta(hours=1)
    started = created + timedelta(minutes=20)
    assert cancel_due(created, started) == started + timedelta(hours=24)
    assert delete_due(started) == started + timedelta(days=7)
    game = cancel(deal(new_game(3, 0), list(range(24))))
    assert game.outcome is not None and game.outcome.reason is Reason.CANCELLED
    assert game.outcome.winner is None
    with pytest.raises(Exception, match="zakończona"):
        cancel(game)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("target", [1000, 500])
def test_r26_r32_a_whole_game_ends_with_a_declarer_at_the_target(players: int, target: int) -> None:
    rng = random.Random(players * target)
    game = new_game(players, rng.randrange(players), target)
    while not game.is_over:
        if game.awaiting_deal:
            game = deal(game, shuffle(rng))
            continue
        action = auto_action(game)
        assert action is not None
        if isinstance(action, Pass) and rng.random() < 0.4:
            action = legal_actions(game)[0]  # bid the least, now and then
        game = apply(game, action)
    assert game.outcome is not None and game.outcome.reason is Reason.POINTS
    last = game.results[-1]
    assert game.outcome.winner == last.declarer and last.made
    assert game.scores[last.declarer] >= target
    assert all(r.winner is None for r in game.results[:-1])
    refused(game, {"seat": 0, "type": "pass"}, "game_over")


def test_deal_only_when_a_hand_is_due() -> None:
    game = game_from(DEAL_A)
    with pytest.raises(Exception, match="rozdać"):
        deal(game, list(range(24)))
    refused(new_game(3, 0), {"seat": 1, "type": "pass"}, "not_dealt")
