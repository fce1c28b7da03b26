"""The solver's verdicts on a hand (review/verdicts.py) against the rules themselves.

Hands are dealt at random under random table options and played by random legal moves;
near their end (2-4 tricks left) a plain minimax over ``tysiac.rules`` (every legal
card applied with ``rules.apply``; the declarer maximises its points plus counted
marriages as the rules score them at the end of the hand, the defenders minimise it)
gives what each card is worth, and every verdict there must agree with it. The marks
are checked on cases built from that minimax: the contract is set (a different
``declare``) so that the card played flips it.
"""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

import pytest

from tysiac import rules
from tysiac.review.verdicts import analyse_hand
from tysiac.rules.cards import card_code, codes
from tysiac.rules.hand import Phase, allowed_contracts, deal_hand
from tysiac.rules.replay import start

Input = dict[str, Any]
MARKS = ("best", "contract", "mistake", "inaccuracy")


def random_options(rng: random.Random, players: int) -> rules.Options:
    """Every option that changes the play (V3, V4, V12, V15 and V14's blind game) at
    random, with a few that change only the bidding or the scoring."""
    return rules.Options(
        meld_first_trick=rng.random() < 0.5,
        meld_needs_trick=rng.random() < 0.5,
        ace_marriage=rng.random() < 0.5,
        golden_ace=players != 2 and rng.random() < 0.3,
        blind=rng.random() < 0.3,
        bid_step=rng.choice((10, 5)),
        bid_limit=rng.choice(("marriage", "melds", "360")),
        mus=rng.random() < 0.8,
    )


def dealt(
    rng: random.Random, players: int, options: rules.Options, golden: int | None = None
) -> Input:
    """A freshly dealt hand in the replay format; ``golden``: golden hands played (V15)."""
    dealer = rng.randrange(players)
    hand = deal_hand(players, dealer, rules.shuffle(rng))
    scores = [rng.choice((0, 0, 120, 340)) for _ in range(players)]  # V14 needs a score
    return {
        "players": players,
        "dealer": dealer,
        "target": 1000,
        "scores": scores,
        "options": rules.options_to_json(options),
        "counters": {"golden": rng.randrange(players + 1) if golden is None else golden},
        "hands": [codes(m) for m in hand.dealt],
        "musik": [codes(m) for m in hand.musiks],
        "actions": [],
    }


def act(game: rules.Game, data: Input, action: rules.Action) -> rules.Game:
    data["actions"].append(rules.action_to_json(action))
    return rules.apply(game, action)


def to_play(rng: random.Random, data: Input) -> rules.Game | None:
    """Random legal moves up to the first card (None: the hand ended before it)."""
    game = start(data)
    while game.hand is not None and game.hand.phase not in (Phase.PLAY, Phase.OVER):
        actions = rules.legal_actions(game)
        passes = [a for a in actions if isinstance(a, rules.Pass)]
        chosen = passes[0] if passes and rng.random() < 0.6 else rng.choice(actions)
        game = act(game, data, chosen)
    return game if game.hand is not None and game.hand.phase is Phase.PLAY else None


def hand_in_play(
    rng: random.Random, players: int, options: rules.Options | None = None, **kwargs: Any
) -> tuple[Input, rules.Game]:
    while True:
        data = dealt(rng, players, options or random_options(rng, players), **kwargs)
        game = to_play(rng, data)
        if game is not None:
            return data, game


def cards_left(game: rules.Game) -> int:
    hand = game.hand
    assert hand is not None
    return sum(hand.held[s].bit_count() for s in hand.active)


def play_on(
    rng: random.Random, game: rules.Game, data: Input, left: int = 0
) -> tuple[rules.Game, dict[int, rules.Game]]:
    """Random cards until ``left`` cards are held in all; the game before each step."""
    before: dict[int, rules.Game] = {}
    while cards_left(game) > left:
        before[len(data["actions"]) + 1] = game
        game = act(game, data, rng.choice(rules.legal_actions(game)))
    return game, before


def final_total(game: rules.Game) -> int:
    """The declarer's points and counted marriages as the rules score a finished hand."""
    hand = game.hand
    assert hand is not None and hand.phase is Phase.OVER and hand.declarer is not None
    result = game.results[-1]
    return result.points[hand.declarer] + result.melds[hand.declarer]


class Minimax:
    """The declarer's final total with perfect open-card play, by trying every card."""

    def __init__(self) -> None:
        self.memo: dict[object, int] = {}

    def value(self, game: rules.Game) -> int:
        hand = game.hand
        assert hand is not None
        if hand.phase is Phase.OVER:
            return final_total(game)
        key = (
            hand.held,
            hand.trick,
            hand.trump,
            hand.won,
            hand.tricks_won,
            hand.melds,
            hand.to_move,
            hand.first_trick,
        )
        if key not in self.memo:
            outcomes = [self.value(rules.apply(game, a)) for a in rules.legal_actions(game)]
            self.memo[key] = max(outcomes) if hand.to_move == hand.declarer else min(outcomes)
        return self.memo[key]

    def cards(self, game: rules.Game) -> dict[str, int]:
        """Each legal card -> the total after it."""
        return {
            card_code(a.card): self.value(rules.apply(game, a))
            for a in rules.legal_actions(game)
            if isinstance(a, rules.Play)
        }


def endgame(rng: random.Random, players: int, **kwargs: Any) -> tuple[Input, dict[int, rules.Game]]:
    """A random hand played to its end, its last 2-4 tricks (sometimes starting
    mid-trick) recorded: the game before each of their steps."""
    data, game = hand_in_play(rng, players, **kwargs)
    n = len(game.hand.active) if game.hand else 3
    tricks = rng.choice((2, 3, 4)) if players == 2 else rng.choice((2, 3, 3, 4))
    game, _ = play_on(rng, game, data, tricks * n - rng.randrange(n))
    _, before = play_on(rng, game, data)
    return data, before


def check_sheet(sheet: dict[str, Any], data: Input) -> None:
    """What holds for every analysed hand, whatever the position."""
    game = start(data)
    for raw in data["actions"]:
        game = rules.apply(game, rules.action_from_json(raw))
    hand = game.hand
    assert hand is not None
    cards = sheet["cards"]
    assert sheet["declarer"] == hand.declarer and sheet["contract"] == hand.contract
    assert [c["step"] for c in cards] == [
        i + 1 for i, a in enumerate(data["actions"]) if a["type"] == "play"
    ]
    assert sheet["open"]["step"] == cards[0]["step"]
    assert sheet["open"]["best"] == cards[0]["best"]
    for card, following in itertools.pairwise(cards):
        assert following["best"] == card["after"]  # the position after a card is the next's
    if hand.phase is Phase.OVER:  # the totals end in the rules' own score
        assert cards[-1]["after"] == final_total(game)
    contract = sheet["contract"]
    for card in cards:
        assert card["loss"] == abs(card["best"] - card["after"])
        assert card["card"] in card["best_cards"] or card["loss"] > 0
        declarer = card["seat"] == sheet["declarer"]
        assert card["side"] == ("declarer" if declarer else "defence")
        assert (card["after"] <= card["best"]) if declarer else (card["after"] >= card["best"])
        best, after = card["best"], card["after"]
        flipped = best >= contract > after if declarer else best < contract <= after
        if card["loss"] == 0:
            assert card["mark"] == "best"
        elif flipped:
            assert card["mark"] == "contract"
        else:
            assert card["mark"] == ("mistake" if card["loss"] >= 10 else "inaccuracy")
    flawed = [i for i, c in enumerate(cards) if c["mark"] != "best"]
    assert sorted(sheet["mistakes"]) == flawed
    order = [(cards[i]["mark"] != "contract", -cards[i]["loss"], i) for i in sheet["mistakes"]]
    assert order == sorted(order)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_verdict_near_the_end_agrees_with_minimax_over_the_rules(players: int) -> None:
    rng = random.Random(2700 + players)
    checked = 0
    for _ in range(60):
        data, before = endgame(rng, players)
        sheet = analyse_hand(data)
        assert sheet is not None
        check_sheet(sheet, data)
        search = Minimax()
        for card in sheet["cards"]:
            if card["step"] not in before:
                continue
            worth = search.cards(before[card["step"]])
            best = (max if card["side"] == "declarer" else min)(worth.values())
            assert card["best"] == best
            assert card["after"] == worth[card["card"]]
            assert card["best_cards"] == [c for c, v in worth.items() if v == best]
            checked += 1
    assert checked > 100


def test_golden_hands_agree_with_minimax() -> None:
    rng = random.Random(15)
    for number in range(30):
        players = 3 + number % 2
        options = random_options(rng, players)
        options = rules.Options(**{**rules.options_to_json(options), "golden_ace": True})
        data, before = endgame(rng, players, options=options, golden=number % players)
        sheet = analyse_hand(data)
        assert sheet is not None and sheet["contract"] == 120
        assert not any(a["type"] in ("bid", "declare") for a in data["actions"])  # V15
        check_sheet(sheet, data)
        search = Minimax()
        for card in sheet["cards"]:
            if card["step"] in before:
                worth = search.cards(before[card["step"]])
                assert card["after"] == worth[card["card"]]
                assert card["best"] == (max if card["side"] == "declarer" else min)(worth.values())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_hands_end_in_the_rules_score(players: int) -> None:
    """From the first card to the last, with every play option: the declarer's total after
    the last card is the rules' points plus counted marriages (V4 included)."""
    rng = random.Random(1000 + players)
    for number in range(30):
        options = random_options(rng, players)
        if number % 3 == 0:  # V4 with marriages that wait for a trick
            options = rules.Options(meld_needs_trick=True, ace_marriage=number % 2 == 0)
        data, game = hand_in_play(rng, players, options)
        play_on(rng, game, data)
        sheet = analyse_hand(data)
        assert sheet is not None
        check_sheet(sheet, data)


def flip_cases(rng: random.Random, side: str) -> tuple[Input, int]:
    """A hand whose contract is set so that a card played near the end flips it: for the
    declarer a card worth less than the contract where the best card reaches it, for a
    defender a card that lets the declarer reach a contract the best card keeps it from.
    The minimax decides; returns the hand (cut after that card) and the card's step."""
    while True:
        players = rng.choice((2, 3, 4))
        data, game = hand_in_play(rng, players, rules.Options())
        declare = next((i for i, a in enumerate(data["actions"]) if a["type"] == "declare"), None)
        if declare is None:
            continue
        replay = start(data)
        for raw in data["actions"][:declare]:
            replay = rules.apply(replay, rules.action_from_json(raw))
        assert replay.hand is not None
        contracts = allowed_contracts(replay.hand)
        game, _ = play_on(rng, game, data, 3 * len(game.hand.active) if game.hand else 9)
        search = Minimax()
        while game.hand is not None and game.hand.phase is Phase.PLAY:
            mine = game.hand.to_move == game.hand.declarer
            if mine == (side == "declarer"):
                worth = search.cards(game)
                best = (max if mine else min)(worth.values())
                for card, after in worth.items():
                    fits = [
                        t for t in contracts if (best >= t > after if mine else best < t <= after)
                    ]
                    if fits:
                        cut = copy.deepcopy(data)
                        cut["actions"][declare]["value"] = rng.choice(fits)
                        seat = game.hand.to_move
                        cut["actions"].append({"seat": seat, "type": "play", "card": card})
                        return cut, len(cut["actions"])
            game = act(game, data, rng.choice(rules.legal_actions(game)))


@pytest.mark.parametrize("side", ["declarer", "defence"])
def test_a_card_that_flips_the_contract_is_marked_contract_and_comes_first(side: str) -> None:
    rng = random.Random(side)
    for _ in range(6):
        data, step = flip_cases(rng, side)
        sheet = analyse_hand(data)
        assert sheet is not None
        check_sheet(sheet, data)
        card = sheet["cards"][-1]
        assert card["step"] == step and card["side"] == side
        assert card["mark"] == "contract"
        assert sheet["cards"][sheet["mistakes"][0]]["mark"] == "contract"


@pytest.mark.parametrize("step", [10, 5])
def test_the_open_verdict_compares_the_best_with_the_contract(step: int) -> None:
    """The same deals declared at every contract: ``short`` below the open-card best,
    ``exact`` within a step of the bids (V1) of it, ``room`` from a step above it."""
    rng = random.Random(27 + step)
    seen: set[str] = set()
    while len(seen) < 3:
        options = rules.options_from_json({"bid_limit": "360", "bid_step": step})
        data, game = hand_in_play(rng, rng.choice((2, 3, 4)), options)
        declare = next((i for i, a in enumerate(data["actions"]) if a["type"] == "declare"), None)
        if declare is None:
            continue
        act(game, data, rng.choice(rules.legal_actions(game)))  # the first card
        sheet = analyse_hand(data)
        assert sheet is not None
        best = sheet["open"]["best"]
        for value in range(100, 361, step):
            data["actions"][declare]["value"] = value
            try:
                opening = analyse_hand(data)
            except rules.IllegalAction:
                continue  # below the bid
            assert opening is not None
            expected = "short" if best < value else "room" if best >= value + step else "exact"
            assert opening["open"] == {
                "step": declare + 2,
                "best": best,
                "makeable": best >= value,
                "bid": expected,
            }
            seen.add(expected)


def test_a_hand_that_never_reached_the_play_gives_none() -> None:
    rng = random.Random(3)
    data = dealt(rng, 3, rules.Options(), golden=3)
    assert analyse_hand(data) is None  # nothing played yet
    game = to_play(rng, data)
    assert game is not None
    data["actions"].pop()  # the last move before the first card
    assert analyse_hand(data) is None
    void = dealt(rng, 3, rules.Options(mus=False))  # V6: everybody passes
    game = start(void)
    for _ in range(3):
        assert game.to_move is not None
        game = act(game, void, rules.Pass(game.to_move))
    assert game.hand is not None and game.hand.end is rules.End.VOID
    assert analyse_hand(void) is None


def test_a_timeout_is_the_servers_move_and_a_surrender_ends_the_hand() -> None:
    rng = random.Random(28)
    data, game = hand_in_play(rng, 3, rules.Options())
    first = len(data["actions"])
    play_on(rng, game, data)
    whole = analyse_hand(data)
    assert whole is not None
    timed = copy.deepcopy(data)
    seat = data["actions"][first]["seat"]
    auto = rules.auto_action(game)
    assert isinstance(auto, rules.Play)
    timed["actions"][first] = {"seat": seat, "type": "timeout"}
    timed["actions"] = timed["actions"][: first + 1]
    sheet = analyse_hand(timed)
    assert sheet is not None and sheet["cards"][0]["card"] == card_code(auto.card)
    surrendered = copy.deepcopy(data)
    surrendered["actions"] = [*data["actions"][: first + 4], {"seat": 0, "type": "surrender"}]
    cut = analyse_hand(surrendered)
    assert cut is not None and cut["cards"] == whole["cards"][:4]


def test_the_verdicts_are_the_same_every_time() -> None:
    rng = random.Random(1)
    for players in (2, 3, 4):
        data, game = hand_in_play(rng, players)
        play_on(rng, game, data)
        assert analyse_hand(data) == analyse_hand(copy.deepcopy(data))


def test_a_card_the_rules_refuse_is_refused() -> None:
    rng = random.Random(9)
    data, game = hand_in_play(rng, 3, rules.Options())
    assert game.hand is not None and game.hand.to_move is not None
    legal = game.hand.legal_cards()
    wrong = next(c for c in range(24) if not legal >> c & 1)
    data["actions"].append({"seat": game.hand.to_move, "type": "play", "card": card_code(wrong)})
    with pytest.raises(rules.IllegalAction):
        analyse_hand(data)
