"""The computer players against the rules alone: every move legal, hidden cards unseen."""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tysiac import bots, catalogue, rules
from tysiac.rules.cards import parse_card
from tysiac.rules.hand import Phase
from tysiac.rules.options import CHOICES

BOTS = Path(__file__).resolve().parents[2] / "src" / "tysiac" / "bots"
STDLIB = {
    "__future__",
    "collections",
    "dataclasses",
    "functools",
    "importlib",  # importlib.resources and json: bidding.py reads its own weights file,
    "itertools",
    "json",  # package data beside it, once (no file of the server's, no network)
    "math",
    "random",
    "time",
    "typing",
}


def random_options(rng: random.Random) -> rules.Options:
    return rules.options_from_json({key: rng.choice(values) for key, values in CHOICES.items()})


def play_game(
    levels: list[str], rng: random.Random, options: rules.Options, target: int | None = None
) -> rules.Game:
    players = len(levels)
    target = target or rng.choice((rules.game.TARGET, rules.game.SHORT_TARGET))
    game = rules.new_game(players, rng.randrange(players), target, options=options)
    moves = 0
    while not game.is_over:
        if game.awaiting_deal:
            game = rules.deal(game, rules.shuffle(rng))
            continue
        seat = game.to_move
        assert seat is not None
        seen = rules.view(game, seat, history=True)
        action = bots.choose(levels[seat], seen, rng)
        assert bots.is_legal(seen, action)
        game = rules.apply(game, rules.action_from_json(action))  # or IllegalAction
        moves += 1
        assert moves < 20_000, "a game of bots that never ends"
    return game


def moves_of_the_play(seed: int, games: int, hands: int) -> Iterator[rules.Game]:
    """The game before every card of the play in the first ``hands`` hands of games of
    medium bots: 2, 3 and 4 players in turn, the table options at random."""
    rng = random.Random(seed)
    for number in range(games):
        players = (2, 3, 4)[number % 3]
        game = rules.new_game(players, rng.randrange(players), options=random_options(rng))
        dealt = 0
        while not game.is_over and dealt < hands:
            if game.awaiting_deal:
                game = rules.deal(game, rules.shuffle(rng))
                dealt += 1
                continue
            assert game.hand is not None and game.to_move is not None
            if game.hand.phase is Phase.PLAY:
                yield game
            seen = rules.view(game, game.to_move, history=True)
            game = rules.apply(game, rules.action_from_json(bots.choose("medium", seen, rng)))


def test_the_bots_import_only_the_rules_and_pure_standard_modules() -> None:
    for path in BOTS.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert (
                    top in STDLIB or name == "tysiac.rules" or name.startswith("tysiac.rules.")
                ), f"{path.name} imports {name}"


def test_the_levels_are_named_for_good() -> None:
    assert bots.LEVELS == ("easy", "medium", "strong")
    names = {level: catalogue.text(f"level.{level}") for level in bots.LEVELS}
    assert names == {"easy": "łatwy", "medium": "średni", "strong": "mocny"}


MATRIX_SEEDS = range(40)


def matrix_case(seed: int) -> tuple[random.Random, list[str], rules.Options]:
    """The option matrix's game ``seed``: its generator (to play on with), a level per
    seat (easy or medium; strong: test_strong) and the table options drawn."""
    rng = random.Random(seed)
    players = rng.choice((2, 3, 4))
    levels = [rng.choice(("easy", "medium")) for _ in range(players)]
    return rng, levels, random_options(rng)


@pytest.mark.parametrize("seed", MATRIX_SEEDS)
def test_bots_play_whole_games_with_random_table_options_legally(seed: int) -> None:
    rng, levels, options = matrix_case(seed)
    game = play_game(levels, rng, options)
    assert game.outcome is not None
    check_house_rules(game)


def test_the_option_matrix_draws_golden_hands_and_games_without_a_barrel() -> None:
    """V15 (with 3-4 players, where it applies) and V16 are among the random draws, each
    also together with the other."""
    drawn = [(len(levels), options) for _, levels, options in map(matrix_case, MATRIX_SEEDS)]
    golden = [o for players, o in drawn if o.golden_ace and players > 2]
    assert len(golden) >= 5
    assert sum(o.barrel == "off" for _, o in drawn) >= 5
    assert any(o.barrel == "off" for o in golden)


def check_house_rules(game: rules.Game) -> None:
    """What a finished game of bots shows of V15 and V16: the first N hands golden (N
    players, 3-4) and no other; without a barrel (V16) the winner is at the target with
    the highest score, and nobody ever sat on a barrel."""
    assert game.outcome is not None
    golden = [result.golden for result in game.results]
    if game.options.golden_ace and game.players > 2:
        first = min(game.players, len(golden))
        assert golden[:first] == [True] * first and not any(golden[first:]), golden
    else:
        assert not any(golden)
    if game.options.barrel == "off":
        winner = game.outcome.winner
        assert winner is not None and game.scores[winner] >= game.target
        assert game.scores[winner] == max(game.scores)
        assert game.counters.barrel is None


@pytest.mark.parametrize(
    ("table", "players", "seed"),
    [
        ({"golden_ace": True}, 3, 1),
        ({"golden_ace": True}, 4, 2),
        ({"barrel": "off"}, 3, 3),
        ({"barrel": "off"}, 2, 4),
        ({"golden_ace": True, "barrel": "off", "bolts": True, "dump_555": True}, 3, 5),
        ({"golden_ace": True, "barrel": "off", "blind": True}, 4, 6),
    ],
)
def test_bots_play_golden_and_barrel_free_games_to_their_end(
    table: dict[str, object], players: int, seed: int
) -> None:
    """V15 and V16 whatever the matrix draws: medium in one seat (it may resign a golden
    hand), easy or medium in the others; games to 1000 and to 500."""
    rng = random.Random(seed)
    levels = ["medium"] + [rng.choice(("easy", "medium")) for _ in range(players - 1)]
    game = play_game(levels, rng, rules.options_from_json(table))
    check_house_rules(game)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_medium_beats_easy_more_often_than_not(players: int) -> None:
    rng = random.Random(players)
    wins = 0
    for _ in range(12):
        levels = ["medium"] + ["easy"] * (players - 1)
        game = play_game(levels, rng, rules.Options())
        assert game.outcome is not None
        wins += game.outcome.winner == 0
    assert wins >= 6, wins


def _hidden(game: rules.Game, seat: int) -> set[int]:
    """The cards ``seat`` cannot see now: the others' hands and face-down musiks, less
    what it gave or discarded itself."""
    hand = game.hand
    assert hand is not None
    shown = rules.view(game, seat)["hand"]
    assert shown is not None
    known = {parse_card(c) for c in shown["cards"] or []}
    known |= {parse_card(c) for c in (shown["given"] or {}).values()}
    known |= {parse_card(c) for c in shown["discarded"] or []}
    known |= {parse_card(c) for m in shown["musiks"] for c in m["cards"] or []}
    hidden: set[int] = set()
    for other, held in enumerate(hand.held):
        if other != seat:
            hidden |= {c for c in range(24) if held >> c & 1}
    for musik, seen in zip(hand.musiks, shown["musiks"], strict=True):
        if seen["cards"] is None:
            hidden |= {c for c in range(24) if musik >> c & 1}
    return hidden - known


@pytest.mark.parametrize(
    "level",
    [pytest.param(level, marks=[pytest.mark.slow] * (level == "strong")) for level in bots.LEVELS],
)
def test_a_bot_answers_the_same_whatever_the_cards_it_cannot_see(level: str) -> None:
    """Two positions that differ only in cards hidden from the bot's seat: one answer."""
    rng = random.Random(7)
    compared = differed = 0
    enough = 30 if level == "strong" else 200  # the strong bot thinks: fewer positions
    for _ in range(30):
        players = rng.choice((2, 3, 4))
        options = random_options(rng)
        game = rules.new_game(players, rng.randrange(players), options=options)
        while not game.is_over and compared < enough:
            before_deal, deck = game, rules.shuffle(rng)
            game = rules.deal(game, deck)
            history: list[rules.Action] = []
            while game.to_move is not None:
                seat = game.to_move
                seen = rules.view(game, seat, history=True)
                hidden = _hidden(game, seat)
                if len(hidden) > 1 and rng.random() < 0.3:
                    places = [i for i, card in enumerate(deck) if card in hidden]
                    cards = [deck[i] for i in places]
                    rng.shuffle(cards)
                    other_deck = list(deck)
                    for i, card in zip(places, cards, strict=True):
                        other_deck[i] = card
                    try:
                        other = rules.deal(before_deal, other_deck)
                        for done in history:
                            other = rules.apply(other, done)
                    except rules.IllegalAction:
                        other = None  # a hidden card the history needed where it was
                    if other is not None and rules.view(other, seat, history=True) != seen:
                        other = None  # the history played out otherwise (a marriage)
                    if other is not None and other.to_move == seat:
                        one = bots.choose(level, seen, random.Random(compared))
                        two = bots.choose(
                            level, rules.view(other, seat, history=True), random.Random(compared)
                        )
                        assert one == two
                        compared += 1
                        assert other.hand is not None and game.hand is not None
                        differed += other.hand.held != game.hand.held
                action = rules.action_from_json(bots.choose(level, seen, rng))
                history.append(action)
                game = rules.apply(game, action)
            if game.hand is not None and not game.awaiting_deal:
                break
    assert compared >= min(enough, 50) and differed >= min(enough, 50) * 0.6, (compared, differed)
