"""A whole game: hands one after another, scores, the barrel, the winner (R5, R22-R32).

The public API of the rules, in one place:

- ``new_game(players, first_dealer, target)`` and ``deal(game, deck)`` (with
  ``shuffle(rng)`` for the deck) start the game and each hand;
- ``legal_actions(game)`` lists the moves of the seat to move;
- ``apply(game, action)`` returns the next game or raises ``IllegalAction``;
- ``auto_action(game)`` is the move the server makes when time runs out (R28);
- ``cancel(game)`` ends a game with no winner (R31).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from . import variants
from .actions import Action, Surrender, Timeout
from .auto import auto_move
from .cards import ALL_CARDS, Card
from .errors import IllegalAction
from .frozen import evolve
from .hand import End, Hand, Phase, active_seats, apply_to_hand, deal_hand, hand_actions, new_hand
from .options import DEFAULT, Options
from .scoring import Counters, HandResult, settle

__all__ = ["Counters", "Game", "HandResult", "Outcome", "Reason"]

TARGET = 1000
SHORT_TARGET = 500  # R32
TIMEOUTS_TO_LOSE = 3  # R29
NO_COUNTERS = Counters((), ())  # replaced by zeros for the game's seats


def barrel_for(target: int) -> int:
    """R25/R32: 800 in the game to 1000, 300 in the short game to 500."""
    return 300 if target == SHORT_TARGET else 800


class Reason(StrEnum):
    """Why a game ended. Stored values: never rename."""

    POINTS = "points"
    WALKOVER = "walkover"
    SURRENDER = "surrender"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Outcome:
    reason: Reason
    winner: int | None
    loser: int | None = None  # who walked over or surrendered


@dataclass(frozen=True, slots=True)
class Game:
    players: int
    target: int
    first_dealer: int
    scores: tuple[int, ...]
    timeouts: tuple[int, ...]  # timeouts in a row, per seat (R29)
    hand: Hand | None = None  # the hand being played, or the last one once over
    results: tuple[HandResult, ...] = ()
    outcome: Outcome | None = None
    options: Options = DEFAULT  # the table's house rules (V1-V16), fixed for the game
    counters: Counters = NO_COUNTERS  # bolts, bombs, barrel, golden hands (V7, V8, V10, V15)

    def __post_init__(self) -> None:
        if len(self.counters.bolts) != self.players:
            object.__setattr__(self, "counters", Counters.zero(self.players))

    @property
    def barrel(self) -> int | None:
        """The barrel's score: 800 (300), or 880 (380) with V10; None with V16."""
        if not variants.has_barrel(self.options):
            return None
        return variants.barrel_threshold(self.options, self.target)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def awaiting_deal(self) -> bool:
        """True before each hand: the server must call ``deal`` with a shuffled deck."""
        return self.outcome is None and (self.hand is None or self.hand.phase is Phase.OVER)

    @property
    def to_move(self) -> int | None:
        if self.outcome is not None or self.hand is None:
            return None
        return self.hand.to_move

    @property
    def next_dealer(self) -> int:
        """R5: the first dealer is drawn; then the deal passes to the next seat."""
        if self.hand is None:
            return self.first_dealer
        if self.hand.end is End.REDEAL:  # V13: the same dealer deals again
            return self.hand.dealer
        return (self.hand.dealer + 1) % self.players

    def on_barrel(self, seat: int) -> bool:
        return variants.on_barrel(
            self.options, seat, self.scores, self.target, self.counters.barrel
        )


def new_game(
    players: int,
    first_dealer: int,
    target: int = TARGET,
    scores: Sequence[int] | None = None,
    options: Options = DEFAULT,
    counters: Counters | None = None,
) -> Game:
    """A game waiting for its first deal, with the table's ``options``. ``scores`` and
    ``counters`` let tests and replays start mid-game."""
    if players not in (2, 3, 4):
        raise ValueError("Tysiąc is played by 2, 3 or 4 players.")
    if not 0 <= first_dealer < players:
        raise ValueError("No such dealer seat.")
    if target not in (TARGET, SHORT_TARGET):
        raise ValueError("The target is 1000 or, in the short game, 500.")
    start = tuple(scores) if scores is not None else (0,) * players
    if len(start) != players:
        raise ValueError("One score per seat.")
    if counters is None:
        counters = Counters.zero(players)
    if len(counters.bolts) != players or len(counters.bombs) != players:
        raise ValueError("One bolt count and one bomb count per seat.")
    return Game(
        players, target, first_dealer, start, (0,) * players, options=options, counters=counters
    )


def shuffle(rng: random.Random) -> list[Card]:
    """A shuffled deck. The server passes ``random.SystemRandom()`` (R9)."""
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    return deck


def deal(game: Game, deck: Sequence[Card]) -> Game:
    """Start the next hand from a shuffled deck (the server's ``hand_dealt`` event)."""
    if not game.awaiting_deal:
        raise IllegalAction("error.not_dealing")
    dealer = game.next_dealer
    bombers, blind, golden = _hand_setup(game, dealer)
    hand = deal_hand(game.players, dealer, deck, game.options, bombers, blind, golden)
    return evolve(game, hand=hand)


def _hand_setup(game: Game, dealer: int) -> tuple[frozenset[int], bool, bool]:
    """What a hand needs from the game: who may bomb (V7), whether blind is offered (V14),
    whether it is golden (V15, which has no V14 choice)."""
    active = active_seats(game.players, dealer)
    bombers = frozenset(
        s for s in active if variants.may_bomb(game.options, game.counters.bombs[s])
    )
    golden = variants.golden_hand(game.options, game.players, game.counters.golden)
    blind = not golden and variants.blind_offered(
        game.options, game.players, active[0], game.scores, game.target, game.counters.barrel
    )
    return bombers, blind, golden


def deal_hand_of(game: Game, hand: Hand) -> Game:
    """Start the next hand from a hand built directly (replays give hands, not decks): its
    cards as dealt, under the game's options."""
    if not game.awaiting_deal or hand.dealer != game.next_dealer or hand.players != game.players:
        raise IllegalAction("error.not_dealing")
    bombers, blind, golden = _hand_setup(game, hand.dealer)
    dealt = new_hand(
        hand.players, hand.dealer, hand.dealt, hand.musiks, game.options, bombers, blind, golden
    )
    return evolve(game, hand=dealt)


def round_to_ten(total: int) -> int:
    """R24: to the nearest ten, fives up."""
    return variants.round_points(DEFAULT, total)


def score_hand(
    hand: Hand,
    scores: Sequence[int],
    target: int,
    options: Options = DEFAULT,
    counters: Counters | None = None,
) -> HandResult:
    """R22-R26 (and the options) for a finished hand."""
    return settle(hand, scores, target, options, counters)[0]


def walkover_winner(scores: Sequence[int], loser: int) -> int:
    """R29/R30: the highest score among the others; ties to the first seat after the loser."""
    players = len(scores)
    others = [(loser + i) % players for i in range(1, players)]
    return max(others, key=lambda seat: scores[seat])


def _check_seat(game: Game, seat: int) -> None:
    if game.outcome is not None:
        raise IllegalAction("error.game_over")
    if not 0 <= seat < game.players:
        raise IllegalAction("error.no_such_seat")


def _move(game: Game, action: Action, timeouts: tuple[int, ...]) -> Game:
    if game.hand is None:
        raise IllegalAction("error.not_dealt")
    hand = apply_to_hand(game.hand, action)
    if hand.phase is not Phase.OVER:
        return evolve(game, hand=hand, timeouts=timeouts)
    result, counters = settle(hand, game.scores, game.target, game.options, game.counters)
    outcome = None if result.winner is None else Outcome(Reason.POINTS, result.winner)
    return evolve(
        game,
        hand=hand,
        timeouts=timeouts,
        scores=result.scores,
        counters=counters,
        results=(*game.results, result),
        outcome=outcome,
    )


def apply(game: Game, action: Action) -> Game:
    """The game after ``action``, or ``IllegalAction`` with the game unchanged."""
    _check_seat(game, action.seat)
    seat = action.seat
    timeouts = list(game.timeouts)
    match action:
        case Surrender():
            winner = walkover_winner(game.scores, seat)
            return evolve(game, outcome=Outcome(Reason.SURRENDER, winner, seat))
        case Timeout():
            if game.to_move != seat:
                raise IllegalAction("error.not_your_turn")
            timeouts[seat] += 1
            if timeouts[seat] >= TIMEOUTS_TO_LOSE:
                winner = walkover_winner(game.scores, seat)
                outcome = Outcome(Reason.WALKOVER, winner, seat)
                return evolve(game, timeouts=tuple(timeouts), outcome=outcome)
            assert game.hand is not None
            return _move(game, auto_move(game.hand), tuple(timeouts))
    timeouts[seat] = 0  # R29: a move of one's own resets the count
    return _move(game, action, tuple(timeouts))


def legal_actions(game: Game) -> list[Action]:
    """Every legal move of the seat to move; surrender (always allowed) is not listed."""
    if game.to_move is None or game.hand is None:
        return []
    return hand_actions(game.hand)


def auto_action(game: Game) -> Action | None:
    """R28: the move the server makes for the seat to move when its time is up."""
    if game.to_move is None or game.hand is None:
        return None
    return auto_move(game.hand)


def cancel(game: Game) -> Game:
    """R31: the game ends with no winner."""
    if game.outcome is not None:
        raise IllegalAction("error.game_over")
    return evolve(game, outcome=Outcome(Reason.CANCELLED, None))
