"""How optimistic face-up play is: the strong bot's forecast of a contract against the points
its declarer really made.

Before the play the strong bot judges a hand by dealing the unseen cards many ways and
playing each deal out with every card face up (``strong._deal_outcomes``). Face-up play
never guesses wrong, so it promises the declarer more than real play gives; the bot trims
its forecasts by ``strong.OPTIMISM``. This script measures the gap on fixed, seeded hands
of strong bots playing each other: for each hand, the forecast made when the contract is
declared (untrimmed) and the card and marriage points the declarer then made, and prints
the mean gap with a 95 % interval and the share of forecasts that were too high.

And the chance of the contract, per contract band: the share of the deals that make it
at declaring (the bot's forecast of its chance) against the share of the hands that
were made, with the Brier score (the mean squared gap between the forecast chance and
the 0 or 1 that came), so a forecast of the chance (this one, or a learned model's) is
judged where it matters: 0.25 is a coin's, 0 a prophet's. Twice: at declaring (the musik
taken) against the contract, and at the declarer's last bid (the musik unseen: the forecast
the bidding acts on) against that bid; a forced bid (the mus player's 100) has none;
there, also the learned model's chance (``bots/bidding.py``) of the same bids.

    python bench/bot_calibration.py --hands 300 --players 3 --seed 1
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from typing import NamedTuple

from tysiac import bots, rules
from tysiac.bots import bidding, strong
from tysiac.bots.sampling import codes_mask
from tysiac.rules import variants
from tysiac.rules.hand import Phase
from tysiac.rules.options import options_from_json

# Contract bands: the forced or barely raised contract, the common ones, the bold ones.
BANDS = ((100, 110), (120, 140), (150, 170), (180, 400))


class Forecast(NamedTuple):
    points: float  # the untrimmed mean of what the declarer would make
    chance: float  # the share of the deals that make the contract


def forecast(view: rules.GameView, rng: random.Random, contract: int) -> Forecast:
    """What the declarer would make and its chance of making ``contract``, as the bot sees
    it at declaring."""
    hand = view["hand"]
    assert hand is not None
    options = options_from_json(view["options"])
    gifts = {int(s): rules.parse_card(c) for s, c in (hand["given"] or {}).items()}
    outcomes = strong._deal_outcomes(
        view,
        options,
        codes_mask(hand["cards"]),
        rng,
        strong.PLAN_SAMPLES,
        gifts=gifts,
        dead=codes_mask(hand["discarded"]),
    )
    return judged(outcomes, contract)


def judged(outcomes: list[int], value: int) -> Forecast:
    """The untrimmed forecast of ``outcomes`` (``strong._deal_outcomes``'s) for ``value``."""
    untrimmed = [o + strong.OPTIMISM for o in outcomes]
    return Forecast(statistics.fmean(untrimmed), strong._chance(untrimmed, value))


class Declared(NamedTuple):
    predicted: Forecast
    contract: int
    made: int  # card and marriage points the declarer made
    bidding: Forecast | None  # at its last bid, of making that bid (None: forced)
    bid: int | None
    learned: float | None  # the learned model's chance of that bid (None: no model)


def bid_forecast(
    view: rules.GameView, rng: random.Random, value: int
) -> tuple[Forecast, float | None]:
    """The chance of making ``value`` as the bot sees it when bidding it: deals of the
    unseen cards, a musik added to its hand (``strong.bid``'s own forecast); and the
    learned model's chance from that forecast (``bidding.Model.chance``), where it applies."""
    hand = view["hand"]
    assert hand is not None and hand["cards"] is not None
    options = options_from_json(view["options"])
    outcomes = strong.bid_outcomes(view, rng)
    fitted = bidding.model(view["players"]) if bidding.applies(options) else None
    learned = fitted.chance(hand["cards"], outcomes, value) if fitted else None
    return judged(outcomes, value), learned


def one_hand(players: int, seed: int) -> Declared | None:
    """One hand of strong bots: its declarer's forecast, contract and points, or None if
    void."""
    rng = random.Random(seed)
    game = rules.deal(rules.new_game(players, seed % players), rules.shuffle(rng))
    predicted: Forecast | None = None
    last_bids: dict[int, tuple[rules.GameView, int]] = {}  # each seat's last chosen bid
    while game.hand is not None and game.hand.phase is not Phase.OVER:
        seat = game.to_move
        assert seat is not None
        view = rules.view(game, seat, history=True)
        action = bots.choose("strong", view, rng)
        if action["type"] == "declare":
            predicted = forecast(view, random.Random(seed), int(action["value"]))
        if action["type"] == "bid" and view["legal"].get("pass"):
            last_bids[seat] = view, int(action["value"])
        game = rules.apply(game, rules.action_from_json(action))
    hand = game.hand
    if predicted is None or hand is None or hand.declarer is None or hand.contract is None:
        return None
    made = hand.won[hand.declarer] + variants.counted_melds(
        hand.options, hand.meld_points(hand.declarer), hand.tricks_won[hand.declarer]
    )
    if hand.declarer not in last_bids:
        return Declared(predicted, hand.contract, made, None, None, None)
    view, value = last_bids[hand.declarer]
    searched, learned = bid_forecast(view, random.Random(seed), value)
    return Declared(predicted, hand.contract, made, searched, value, learned)


def bands(judged: list[tuple[float, int, int]], title: str) -> None:
    """``judged``: (forecast chance, value, points made) per hand, by the value's band."""
    print(f"{title:<10} hands  forecast chance  made   Brier")
    for low, high in BANDS:
        inside = [(c, v, m) for c, v, m in judged if low <= v <= high]
        if not inside:
            continue
        chance = statistics.fmean(c for c, _, _ in inside)
        made = statistics.fmean(m >= v for _, v, m in inside)
        brier = statistics.fmean((c - (m >= v)) ** 2 for c, v, m in inside)
        band = f"{low}-{high}" if high < 400 else f"{low}+"
        print(f"{band:<9} {len(inside):>6}  {chance:>14.0%}  {made:>5.0%}  {brier:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pairs = [one_hand(args.players, args.seed * 100_003 + i) for i in range(args.hands)]
    played = [p for p in pairs if p is not None]
    gaps = [d.predicted.points - d.made for d in played]
    mean = statistics.fmean(gaps)
    half = 1.96 * statistics.stdev(gaps) / math.sqrt(len(gaps))
    high = sum(g > 0 for g in gaps) / len(gaps)
    print(f"hands played: {len(played)} of {args.hands} ({args.players} players)")
    print(
        f"forecast - made: mean {mean:+.1f} points, 95% CI [{mean - half:+.1f}, {mean + half:+.1f}]"
    )
    print(f"forecasts above the result: {high:.0%}; OPTIMISM in use: {strong.OPTIMISM}")
    bands([(d.predicted.chance, d.contract, d.made) for d in played], "contract")
    bid = [(d.bidding.chance, d.bid, d.made) for d in played if d.bidding and d.bid]
    print(f"at the declarer's last bid ({len(bid)} hands; the others' bid was forced):")
    bands(bid, "bid")
    model = [(d.learned, d.bid, d.made) for d in played if d.learned is not None and d.bid]
    if model:
        print("the learned model's chance at the same bids:")
        bands(model, "bid")


if __name__ == "__main__":
    main()
