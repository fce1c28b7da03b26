"""Self-play hands for the strong bot's bidding model (issue 29): each one a seeded deal
in which one seat, the first to bid, is made the declarer at the smallest bid, and the
strong bot then plays the hand for every seat (the musik, the gifts, the contract, the
cards), as it would at a table.

Every hand dealt becomes a sample, so the data has no selection: a hand the bot would
have passed on is played as declarer too, and what it scored says what passing cost.
Each line of the output (JSON) holds the deal, the declarer's contract, what every seat
scored, and the Monte-Carlo forecasts of the declarer's points the bot computes at that
first bid and when it chooses its contract (``strong._deal_outcomes``: its search as the
teacher).

    python tools/bid_data.py --players 3 --hands 3000 --seed 1 --jobs 2 --out bids-3.jsonl

The run is reproducible: hand ``i`` of seed ``s`` is the same deal, dealer and bot
generators on any machine and with any ``--jobs``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tysiac import bots, rules
from tysiac.bots import strong
from tysiac.bots.sampling import codes_mask
from tysiac.rules.cards import codes
from tysiac.rules.hand import Phase


def sample(players: int, seed: int, index: int) -> dict[str, Any]:
    """Hand ``index``: the first bidder declares at the smallest bid, the strong bot plays."""
    key = f"bid-data:{players}:{seed}:{index}"
    dealer = random.Random(key).randrange(players)
    game = rules.new_game(players, dealer)
    game = rules.deal(game, rules.shuffle(random.Random(f"{key}:deck")))
    hand = game.hand
    assert hand is not None
    declarer = hand.active[0]
    rngs = [random.Random(f"{key}:seat:{seat}") for seat in range(players)]
    seen = rules.view(game, declarer, history=True)
    forecast = strong.bid_outcomes(seen, random.Random(f"{key}:forecast"))
    record: dict[str, Any] = {
        "players": players,
        "seed": seed,
        "index": index,
        "dealer": dealer,
        "declarer": declarer,
        "dealt": [codes(cards) for cards in hand.held],
        "musiks": [codes(cards) for cards in hand.musiks],
        "forecast": forecast,
    }
    while game.hand is not None and game.hand.phase is Phase.BIDDING:
        seat = game.hand.to_move
        assert seat is not None
        legal = rules.view(game, seat)["legal"]
        if seat != declarer and legal.get("pass"):
            action: dict[str, Any] = {"type": "pass"}
        else:
            action = {"type": "bid", "value": min(legal["bid"])}
        action["seat"] = seat
        game = rules.apply(game, rules.action_from_json(action))
    assert game.hand is not None
    record["bid"] = game.hand.bid
    while not game.results:
        seat = game.to_move
        assert seat is not None
        view = rules.view(game, seat, history=True)
        if "declare" in view["legal"]:
            record["declaring"] = declaring(view, random.Random(f"{key}:declaring"))
        action = bots.choose("strong", view, rngs[seat])
        game = rules.apply(game, rules.action_from_json(action))
    result = game.results[0]
    record.update(
        contract=result.contract,
        made=result.made,
        points=list(result.points),
        melds=list(result.melds),
        delta=list(result.delta),
        end=str(result.end),
    )
    return record


def declaring(view: rules.GameView, rng: random.Random) -> list[int]:
    """The search's forecast when the contract is chosen (the musik seen, the gifts or the
    discard made): ``strong.declare``'s deals, drawn with a generator of their own."""
    hand = view["hand"]
    assert hand is not None
    gifts = {int(s): rules.parse_card(c) for s, c in (hand["given"] or {}).items()}
    return strong._deal_outcomes(
        view,
        rules.options_from_json(view["options"]),
        codes_mask(hand["cards"]),
        rng,
        strong.PLAN_SAMPLES,
        gifts=gifts,
        dead=codes_mask(hand["discarded"]),
    )


def _one(job: tuple[int, int, int]) -> dict[str, Any]:
    return sample(*job)


def samples(players: int, seed: int, hands: range, jobs: int) -> Iterator[dict[str, Any]]:
    work = [(players, seed, i) for i in hands]
    if jobs <= 1:
        yield from map(_one, work)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(_one, work, chunksize=4)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=3)
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--start", type=int, default=0, help="the first hand's index (appends)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    began = time.monotonic()
    hands = range(args.start, args.start + args.hands)
    with open(args.out, "a" if args.start else "w", encoding="utf-8") as out:
        for done, record in enumerate(samples(args.players, args.seed, hands, args.jobs), 1):
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
            if done % 100 == 0:
                out.flush()
                print(f"{done} hands, {time.monotonic() - began:.0f} s", file=sys.stderr)
    print(f"{args.hands} hands in {time.monotonic() - began:.0f} s -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
