"""``strong`` (mocny): determinized search with the double-dummy solver.

Card play: draw layouts of the hidden cards that agree with everything the seat has seen
(``sampling``), solve each with every card face up (``solver``), and play the card that
gives the declarer the best chance of making its contract, or, for a defender, the best
chance of breaking it; the mean of the declarer's points breaks ties. Late in a hand,
where few layouts remain, it solves them all.

Bidding, giving, discarding, the contract and the bomb (V7) are judged the same way
before the play: deals of the unseen cards, each played out face up from the declarer's
first lead. Face-up play could be optimistic for the declarer (it never guesses wrong):
``OPTIMISM`` trims it by what self-play measures (docs/bots.md).
A bid or a contract is taken when it is worth more than defending (``_worth``): the
chance of making it, what it scores or loses, what a defender would score instead, the
barrel and a game won.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence
from typing import Any

from tysiac.rules.cards import DECK, Mask, cards_of, codes, parse_card
from tysiac.rules.options import Options, options_from_json
from tysiac.rules.view import GameView

from . import medium, sampling, solver
from .common import marriage_cards, weakest
from .sampling import Knowledge, codes_mask, layouts, suit_index

SAMPLES = 40  # layouts solved per card played, at most
# Seconds a card may take, at most: a safety net only, far above what a card takes
# (docs/bots.md), since reaching it would make the answer depend on time.
BUDGET = 1.5
# Layouts are not weighted by the cards the others threw away (sampling.weight): R19's
# must-beat leaves little choice to read, and weighting gained nothing (docs/bots.md).
WEIGHTED = False
PLAN_SAMPLES = 24  # deals per choice before the play (bid, give, discard, contract)
# Points face-up play finds that real play does not, taken off the declarer's forecast:
# none, since both sides play blind to the others' cards and face-up play overrates the
# defence as much (bench/bot_calibration.py; docs/bots.md).
OPTIMISM = 0
# What a hand is worth to a defender, on average (its card and marriage points as
# scored): what a seat gives up by declaring (bench/bots.py's hands).
DEFENCE = {2: 45, 3: 30, 4: 30}
WIN_BONUS = 100  # a contract that wins the game is worth this much more than its points
BOMB_BELOW = 0.2  # V7: bomb a contract with less chance than this
GIVE_CANDIDATES = 5  # gifts and discards are chosen among this many weakest cards


def choose(
    view: GameView,
    rng: random.Random,
    *,
    samples: int = SAMPLES,
    plan_samples: int = PLAN_SAMPLES,
) -> dict[str, Any]:
    """The strong bot's move. ``samples``: layouts solved per card played, at most;
    ``plan_samples``: deals per choice before the play (half of them per candidate gift
    or discard). The defaults are the bot's own; a smaller search plays the same legal
    moves, chosen with less care (the tests that check only legality pass one)."""
    legal = view["legal"]
    hand = view["hand"]
    assert hand is not None
    if "blind" in legal:
        return {"type": "blind" if _blind_pays(view) else "look"}
    if "redeal" in legal:
        return {"type": "redeal"}
    if "play" in legal:
        return {"type": "play", "card": play(view, rng, samples)}
    if "bid" in legal:
        return bid(view, rng, plan_samples)
    if "musik" in legal:
        return {"type": "musik", "index": rng.choice(legal["musik"])}
    if "give" in legal or "discard" in legal:
        return prepare(view, rng, plan_samples)
    if "declare" in legal:
        return declare(view, rng, plan_samples)
    return medium.choose(view, rng)


# --- the play -------------------------------------------------------------------


def _melds_by_seat(view: GameView) -> dict[int, int]:
    hand = view["hand"]
    assert hand is not None
    melds: dict[int, int] = {}
    for meld in hand["melds"]:
        melds[meld["seat"]] = melds.get(meld["seat"], 0) + meld["value"]
    return melds


def _position(view: GameView, options: Options, layout: dict[int, Mask]) -> solver.Position:
    hand = view["hand"]
    me = view["seat"]
    assert hand is not None and me is not None and hand["declarer"] is not None
    held = {s: layout.get(s, 0) for s in hand["active"]}
    held[me] = codes_mask(hand["cards"])
    seats = range(view["players"])
    return solver.position(
        order=hand["active"],
        held=held,
        trick=[(p["seat"], parse_card(p["card"])) for p in hand["trick"]],
        to_move=me,
        trump=None if hand["trump"] is None else suit_index(hand["trump"]),
        first_trick=hand["last_trick"] is None,
        declarer=hand["declarer"],
        options=options,
        won={s: hand["points"][s] for s in seats},
        melds=_melds_by_seat(view),
        tricks={s: hand["tricks"][s] for s in seats},
    )


def _counted(view: GameView, options: Options, seat: int) -> int:
    """The card points and counting marriage points ``seat`` has so far (R22, V4)."""
    hand = view["hand"]
    assert hand is not None
    melds = _melds_by_seat(view).get(seat, 0)
    if options.meld_needs_trick and not hand["tricks"][seat]:
        melds = 0
    return hand["points"][seat] + melds


def play(view: GameView, rng: random.Random, samples: int = SAMPLES) -> str:
    legal: list[str] = view["legal"]["play"]
    if len(legal) == 1:
        return legal[0]
    hand = view["hand"]
    me = view["seat"]
    assert hand is not None and me is not None
    declarer, contract = hand["declarer"], hand["contract"]
    assert declarer is not None and contract is not None
    options = options_from_json(view["options"])
    need = contract - _counted(view, options, declarer)
    knowledge = Knowledge.of(view)
    made = {parse_card(c): 0.0 for c in legal}
    gain = {parse_card(c): 0.0 for c in legal}
    weight = 0
    started = time.perf_counter()
    for layout in layouts(knowledge, rng, samples):
        w = sampling.weight(knowledge, layout) if WEIGHTED else 1.0
        for card, value in solver.values(_position(view, options, layout)).items():
            made[card] += w * (value >= need)
            gain[card] += w * value
        weight += 1
        if time.perf_counter() - started > BUDGET:
            break
    if not weight:  # nothing agrees with the view: a bug, but play on
        return medium.play(view)
    if me == declarer:
        best = max(made, key=lambda c: (made[c], gain[c], -c))
    else:
        best = max(made, key=lambda c: (-made[c], -gain[c], -c))
    return codes(1 << best)[0]


# --- before the play ----------------------------------------------------------------


def _deal_outcomes(
    view: GameView,
    options: Options,
    mine: Mask,
    rng: random.Random,
    count: int,
    *,
    gifts: dict[int, int] | None = None,
    dead: Mask = 0,
    musik: int = 0,
) -> list[int]:
    """What the seat as declarer would score in ``count`` deals of the unseen cards, each
    played face up from its first lead (card points and marriages), less ``OPTIMISM``.

    ``mine``: its cards for the play, or, with ``musik`` (the musik's size), its cards
    before the musik: then each deal adds a musik to them and gives away or lays down the
    weakest. ``gifts``: the card it gave each opponent (R15); ``dead``: what it laid down
    (R16)."""
    hand = view["hand"]
    me = view["seat"]
    assert hand is not None and me is not None
    order = hand["active"]
    others = [s for s in order if s != me]
    gifts = gifts or {}
    unseen = DECK & ~mine & ~dead & ~sum(1 << c for c in gifts.values())
    pool = list(cards_of(unseen))
    size = 10 if view["players"] == 2 else 7  # cards dealt to each player
    results = []
    for _ in range(count):
        rng.shuffle(pool)
        cards, rest, given = mine, pool, gifts
        if musik:
            cards |= sum(1 << c for c in pool[:musik])
            rest = pool[musik:]
            cards, away = _prepared(cards)
            given = _gifts(others, away) if len(order) == 3 else {}
        held = {me: cards}
        for i, seat in enumerate(others):
            held[seat] = sum(1 << c for c in rest[i * size : (i + 1) * size])
            if seat in given:
                held[seat] |= 1 << given[seat]
        position = solver.position(
            order=order,
            held=held,
            trick=(),
            to_move=me,
            trump=None,
            first_trick=True,
            declarer=me,
            options=options,
            won={},
            melds={},
            tricks={},
        )
        results.append(solver.solve(position) - OPTIMISM)
    return results


def _gifts(to: Sequence[int], cards: Sequence[int]) -> dict[int, int]:
    """R15: one card to each opponent, the higher to the one after the declarer."""
    ordered = sorted(cards, key=lambda c: (c % 6, c), reverse=True)
    return dict(zip(to, ordered, strict=True))


def _prepared(cards: Mask) -> tuple[Mask, list[int]]:
    """A hand after the musik with its two weakest cards taken out (given or laid down)."""
    codes_held = codes(cards)
    keep = marriage_cards(codes_held) | {c for c in codes_held if c[0] == "A"}
    out = [parse_card(c) for c in weakest(codes_held, 2, keep)]
    for card in out:
        cards &= ~(1 << card)
    return cards, out


def _chance(outcomes: Sequence[int], contract: int) -> float:
    return sum(o >= contract for o in outcomes) / len(outcomes) if outcomes else 0.0


def _worth(view: GameView, outcomes: Sequence[int], contract: int) -> float:
    """What declaring ``contract`` is worth to the seat over defending, in points: a made
    contract scores it and a missed one loses it (R23), against what a defender scores
    (nothing on the barrel, R25, and no more than the room left below it). A contract
    that would win the game (R26) counts ``WIN_BONUS`` more."""
    me = view["seat"]
    assert me is not None
    score = view["scores"][me]
    made = _chance(outcomes, contract)
    gain = contract + (WIN_BONUS if score + contract >= view["target"] else 0)
    defence = 0 if view["on_barrel"][me] else DEFENCE[view["players"]]
    if view["barrel"] is not None:  # V16: no barrel caps a defender
        defence = min(defence, view["barrel"] - score)
    return made * gain - (1 - made) * contract - max(0, defence)


def bid(view: GameView, rng: random.Random, plan_samples: int = PLAN_SAMPLES) -> dict[str, Any]:
    legal = view["legal"]
    hand = view["hand"]
    assert hand is not None
    bids: list[int] = legal["bid"]
    if hand["cards"] is None or not bids:  # V14: cards still face down
        return {"type": "pass"} if legal.get("pass") else {"type": "bid", "value": min(bids)}
    if not legal.get("pass"):
        return {"type": "bid", "value": min(bids)}
    options = options_from_json(view["options"])
    mine = codes_mask(hand["cards"])
    musik = 3 if view["players"] != 2 else 2
    outcomes = _deal_outcomes(view, options, mine, rng, plan_samples, musik=musik)
    value = min(bids)
    if _worth(view, outcomes, value) > 0:
        return {"type": "bid", "value": value}
    return {"type": "pass"}


def prepare(view: GameView, rng: random.Random, plan_samples: int = PLAN_SAMPLES) -> dict[str, Any]:
    """R15 / R16: the gifts (or the discard) that give the contract its best chance; and
    V7's bomb when no choice gives it much."""
    legal = view["legal"]
    hand = view["hand"]
    assert hand is not None and hand["bid"] is not None
    options = options_from_json(view["options"])
    cards = codes_mask(hand["cards"])
    giving = "give" in legal
    away = len(legal["give"]["to"]) if giving else legal["discard"]["count"]
    held = hand["cards"] or []
    keep = marriage_cards(held)
    weak = [parse_card(c) for c in weakest(held, GIVE_CANDIDATES, keep)]
    to = legal["give"]["to"] if giving else []
    best: tuple[float, float, tuple[int, ...]] | None = None
    for chosen in itertools.combinations(weak, away):
        rest = cards & ~sum(1 << c for c in chosen)
        outcomes = _deal_outcomes(
            view,
            options,
            rest,
            rng,
            max(1, plan_samples // 2),
            gifts=_gifts(to, chosen) if giving else None,
            dead=0 if giving else sum(1 << c for c in chosen),
        )
        score = (_chance(outcomes, hand["bid"]), sum(outcomes) / len(outcomes), chosen)
        if best is None or score[:2] > best[:2]:
            best = score
    assert best is not None
    if legal.get("bomb") and best[0] < BOMB_BELOW:
        return {"type": "bomb"}
    if giving:
        gifts = _gifts(to, best[2])
        return {"type": "give", "cards": {str(s): codes(1 << c)[0] for s, c in gifts.items()}}
    return {"type": "discard", "cards": [codes(1 << c)[0] for c in best[2]]}


def declare(view: GameView, rng: random.Random, plan_samples: int = PLAN_SAMPLES) -> dict[str, Any]:
    """R17: the contract worth the most (``_worth``), the lowest of equals."""
    values: list[int] = view["legal"]["declare"]
    hand = view["hand"]
    assert hand is not None
    options = options_from_json(view["options"])
    mine = codes_mask(hand["cards"])
    gifts = {int(s): parse_card(c) for s, c in (hand["given"] or {}).items()}
    dead = codes_mask(hand["discarded"])
    outcomes = _deal_outcomes(view, options, mine, rng, plan_samples, gifts=gifts, dead=dead)
    best = max(values, key=lambda v: (_worth(view, outcomes, v), -v))
    return {"type": "declare", "value": best}


def _blind_pays(view: GameView) -> bool:
    """V14, decided before seeing a card: only as a last chance, when an opponent is one hand
    from winning and the seat is too far behind to catch up otherwise."""
    me = view["seat"]
    assert me is not None
    scores = view["scores"]
    leader = max(s for seat, s in enumerate(scores) if seat != me)
    return leader >= view["target"] - 120 and scores[me] + 240 < leader
