"""``strong`` (mocny): determinized search with the double-dummy solver.

Card play: draw layouts of the hidden cards that agree with everything the seat has seen
(``sampling``), solve each with every card face up (``solver``), and play the card that
gives the declarer the best chance of making its contract; the mean of the declarer's
points breaks ties. A defender weighs two things: what it scores itself (R24, R25: its
own cards and marriages, solved once more with everyone else playing against it) less
the contract times the chance the declarer makes it (half the declarer's swing between
making and missing, an opponent's points weighed at half its own); the declarer's points
break ties. Late in a hand, where few layouts remain, it solves them all.

Bidding, giving, discarding, the contract and the bomb (V7) are judged the same way
before the play: deals of the unseen cards, each played out face up from the declarer's
first lead. Face-up play could be optimistic for the declarer (it never guesses wrong):
``OPTIMISM`` trims it by what self-play measures (docs/bots.md).
A bid is taken when the learned model (``bidding``, ``_learned_worth``) says winning the
auction is worth more than defending, where it applies; elsewhere, and for the contract,
when the search says so (``_worth``): the
chance of making it, what it scores or loses, what a defender would score instead, the
barrel and a game won; without a barrel (V16), also a game an opponent wins by
defending, and a game the seat would win by defending. A golden hand (V15) is resigned
when its deals say playing is worth less than resigning (``resign_pays``).
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from tysiac.rules import variants
from tysiac.rules.cards import DECK, Mask, cards_of, codes, parse_card
from tysiac.rules.hand import musik_sizes
from tysiac.rules.options import Options, options_from_json
from tysiac.rules.view import GameView

from . import bidding, medium, sampling, solver
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
# A contract that wins the game is worth this much more than its points; a game an
# opponent wins (V16: by defending too) this much less.
WIN_BONUS = 100
CARD_POINTS = 120  # all the card points of a hand (R3)
BOMB_BELOW = 0.2  # V7: bomb a contract with less chance than this
# V15: a golden hand whose best gifts make 120 in this share of the deals is played
# without weighing the resign: made it scores +240 and failed at worst about -730
# against the opponents (their doubled cards, every marriage, a bolt, a game lost), so
# it expects more than the -360 of resigning.
RESIGN_BELOW = 0.6
GIVE_CANDIDATES = 5  # gifts and discards are chosen among this many weakest cards
# By the learned model, a seat bids while winning the auction is worth no more than this
# less than defending: the model's value is a mean over hands the seat cannot tell apart,
# and a bidder who waits for more than even passes on contracts a daring player makes
# (docs/bots.md: the make rate).
DARE = 30


def choose(
    view: GameView,
    rng: random.Random,
    *,
    samples: int = SAMPLES,
    plan_samples: int = PLAN_SAMPLES,
    learned: bool = True,
) -> dict[str, Any]:
    """The strong bot's move. ``samples``: layouts solved per card played, at most;
    ``plan_samples``: deals per choice before the play (half of them per candidate gift
    or discard); ``learned``: bid by the learned model (``bidding``) where it applies, else
    (``False``) by the search alone, as the benchmark's ``search`` does. The defaults are
    the bot's own; a smaller search plays the same legal moves, chosen with
    less care (the tests that check only legality pass one)."""
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
        return bid(view, rng, plan_samples, learned=learned)
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


def _position(
    view: GameView, options: Options, layout: dict[int, Mask], scorer: int | None = None
) -> solver.Position:
    """The position with the unseen cards as ``layout`` has them, solved for the points
    of ``scorer`` (the declarer unless given) against everyone else together."""
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
        declarer=hand["declarer"] if scorer is None else scorer,
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
    own = {parse_card(c): 0.0 for c in legal}
    defending = me != declarer
    so_far = _counted(view, options, me)
    weight = 0
    started = time.perf_counter()
    for layout in layouts(knowledge, rng, samples):
        w = sampling.weight(knowledge, layout) if WEIGHTED else 1.0
        for card, value in solver.values(_position(view, options, layout)).items():
            made[card] += w * (value >= need)
            gain[card] += w * value
        if defending:
            mine = solver.values(_position(view, options, layout, scorer=me))
            for card, value in mine.items():
                own[card] += w * _scored_as_defender(view, options, so_far + value)
        weight += 1
        if time.perf_counter() - started > BUDGET:
            break
    if not weight:  # nothing agrees with the view: a bug, but play on
        return medium.play(view)
    if not defending:
        best = max(made, key=lambda c: (made[c], gain[c], -c))
    else:
        best = max(made, key=lambda c: ((own[c] - contract * made[c]) / weight, -gain[c], -c))
    return codes(1 << best)[0]


def _scored_as_defender(view: GameView, options: Options, total: int) -> int:
    """What a hand ``total`` (card and marriage points) adds to the seat's score as a
    defender: rounded (R24, V5), nothing on the barrel, no more than the room below it
    (R25, V10, V16). A blind contract's doubling of its card points (V14) is left out:
    it ranks the cards nearly alike."""
    me = view["seat"]
    assert me is not None
    return _opponent_gain(view, options, me, variants.round_points(options, total))


# --- before the play ----------------------------------------------------------------


def _deals(
    view: GameView,
    options: Options,
    mine: Mask,
    rng: random.Random,
    count: int,
    *,
    gifts: dict[int, int] | None = None,
    dead: Mask = 0,
    musik: int = 0,
) -> Iterator[tuple[solver.Position, dict[int, Mask]]]:
    """``count`` deals of the unseen cards, each as the position of its first lead with
    the seat as declarer, and every active seat's cards in it. The arguments are
    ``_deal_outcomes``'s."""
    hand = view["hand"]
    me = view["seat"]
    assert hand is not None and me is not None
    order = hand["active"]
    others = [s for s in order if s != me]
    gifts = gifts or {}
    unseen = DECK & ~mine & ~dead & ~sum(1 << c for c in gifts.values())
    pool = list(cards_of(unseen))
    size = 10 if view["players"] == 2 else 7  # cards dealt to each player
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
        yield position, held


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
    deals = _deals(view, options, mine, rng, count, gifts=gifts, dead=dead, musik=musik)
    return [solver.solve(position) - OPTIMISM for position, _ in deals]


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
    that would win the game (R26) counts ``WIN_BONUS`` more. Without a barrel (V16),
    ``_worth_to_target``."""
    me = view["seat"]
    assert me is not None
    if view["barrel"] is None:
        return _worth_to_target(view, outcomes, contract)
    score = view["scores"][me]
    made = _chance(outcomes, contract)
    gain = contract + (WIN_BONUS if score + contract >= view["target"] else 0)
    defence = 0 if view["on_barrel"][me] else DEFENCE[view["players"]]
    defence = min(defence, view["barrel"] - score)
    return made * gain - (1 - made) * contract - max(0, defence)


def _worth_to_target(view: GameView, outcomes: Sequence[int], contract: int) -> float:
    """``_worth`` without a barrel (V16), where a defender's points are never capped and
    any player whose score reaches the target wins, an opponent too.

    Each deal is judged with the game it may end: the contract made or missed (R23), plus
    ``WIN_BONUS`` if the seat is then the winner and less ``WIN_BONUS`` if an opponent is
    (``variants.target_winner``: the highest score, then the declarer). The defenders
    share evenly the card points the seat leaves them, 120 less its points, rounded (V5):
    a floor, since its points include its marriages and theirs are not counted. So
    declaring while an opponent near the target defends is dangerous: from 960, a share of
    40 wins them the game unless the seat wins it first with a higher score. Defending is
    worth a defender's usual points (``DEFENCE``) and, when those carry the seat to the
    target, ``WIN_BONUS`` more: near the target, defending may be the surer way to win.
    (Who would win the hand the seat leaves to another declarer is not known here.)"""
    hand = view["hand"]
    me = view["seat"]
    assert hand is not None and me is not None
    options = options_from_json(view["options"])
    scores, target = view["scores"], view["target"]
    active = hand["active"]
    defenders = [s for s in active if s != me]
    order = (*active, *(s for s in range(view["players"]) if s not in active))
    total = 0.0
    for points in outcomes:
        own = contract if points >= contract else -contract
        share = variants.round_points(options, max(0, CARD_POINTS - points) // len(defenders))
        after = list(scores)
        after[me] += own
        for seat in defenders:
            after[seat] += share
        winner, _ = variants.target_winner(tuple(after), target, me, order)
        total += own + _game_value(me, winner)
    defence = DEFENCE[view["players"]]
    if scores[me] + defence >= target:
        defence += WIN_BONUS
    return (total / len(outcomes) if outcomes else -contract) - defence


def _game_value(me: int, winner: int | None) -> int:
    """A game that ends with the hand: ``WIN_BONUS`` for the seat winning it, as much
    less for an opponent winning it, 0 when it goes on."""
    if winner is None:
        return 0
    return WIN_BONUS if winner == me else -WIN_BONUS


# --- V15: the golden hand's resign -----------------------------------------------------


def _opponent_gain(view: GameView, options: Options, seat: int, gain: int) -> int:
    """What an opponent's ``gain`` adds to its score: all of it without a barrel (V16),
    nothing on the barrel (R25, V10), no more than the room below it (R25)."""
    if view["barrel"] is None:
        return gain
    if view["on_barrel"][seat]:
        return 0
    if variants.barrel_of_880(options):
        return gain
    return max(0, min(gain, view["barrel"] - view["scores"][seat]))


def _standing(view: GameView, delta: Mapping[int, int], winner: int | None) -> float:
    """What a hand's score changes (``delta``, per active seat) are worth to the seat:
    its own change less the mean change of its active opponents, and ``_game_value``."""
    me = view["seat"]
    assert me is not None
    others = [delta[s] for s in delta if s != me]
    return delta[me] - sum(others) / len(others) + _game_value(me, winner)


def _hand_winner(view: GameView, after: Sequence[int], made: bool) -> int | None:
    """Who wins the game with the scores ``after`` a hand the seat declared: R26 (the
    declarer, by a made contract), or V16 (anyone at the target)."""
    hand = view["hand"]
    me = view["seat"]
    assert hand is not None and me is not None
    if view["barrel"] is not None:
        return me if made and after[me] >= view["target"] else None
    active = hand["active"]
    order = (*active, *(s for s in range(view["players"]) if s not in active))
    return variants.target_winner(tuple(after), view["target"], me, order)[0]


def _resigning(view: GameView, options: Options) -> float:
    """V15: what resigning is worth (``_standing``): -240 for the seat, +120 for each
    active opponent as its score takes it (``_opponent_gain``)."""
    hand = view["hand"]
    me = view["seat"]
    assert hand is not None and me is not None
    delta = {me: -variants.GOLDEN_RESIGN}
    for seat in hand["active"]:
        if seat != me:
            delta[seat] = _opponent_gain(view, options, seat, variants.GOLDEN_RESIGN_GAIN)
    after = list(view["scores"])
    for seat, change in delta.items():
        after[seat] += change
    return _standing(view, delta, _hand_winner(view, after, made=False))


def _playing(view: GameView, options: Options, gain: int, held: Mapping[int, Mask]) -> float:
    """V15: what playing the golden hand is worth (``_standing``) in one deal, ``held``
    the active seats' cards in it after the gifts, ``gain`` the seat's points with best
    play (cards and marriages). Made (120 or more): +240, else -240 (V14's scoring). Each
    opponent: its card points doubled, plus the marriages it holds (melded: the hand
    is theirs to lead when the seat is weak), rounded (V5) and taken as its score takes
    them (``_opponent_gain``); the card points are the 120 the seat's card points leave
    (``_melded`` parts its points), shared evenly. No points at all counts as no trick: with
    bolts (V8) a golden bolt counts two, and a third bolt costs 120."""
    hand = view["hand"]
    me = view["seat"]
    assert hand is not None and me is not None
    contract = hand["contract"] or variants.BLIND_BID
    made = gain >= contract
    cards = min(CARD_POINTS, gain - _melded(options, held[me], gain))
    opponents = [s for s in hand["active"] if s != me]
    share = (CARD_POINTS - cards) / len(opponents)
    value = variants.blind_scores(contract)
    delta = {me: value if made else -value}
    if gain <= 0 and options.bolts and view["counters"]["bolts"][me] + 2 >= 3:
        delta[me] -= variants.BARREL_PENALTY
    for seat in opponents:
        melds = sum(variants.meld_value(k) for k in variants.meld_kinds(options, held[seat]))
        raw = variants.round_points(options, round(2 * share) + melds)
        delta[seat] = _opponent_gain(view, options, seat, raw)
    after = list(view["scores"])
    for seat, change in delta.items():
        after[seat] += change
    return _standing(view, delta, _hand_winner(view, after, made))


def _melded(options: Options, cards: Mask, gain: int) -> int:
    """The marriage points within ``gain``, the declarer's points from ``cards`` with
    best play: the most its marriages can add up to without passing ``gain`` (a weak
    hand's points are mostly its marriages; the rest are card points)."""
    values = [variants.meld_value(k) for k in variants.meld_kinds(options, cards)]
    sums = (sum(c) for n in range(len(values) + 1) for c in itertools.combinations(values, n))
    return max(total for total in sums if total <= max(0, gain))


def resign_pays(
    view: GameView,
    rng: random.Random,
    plan_samples: int,
    mine: Mask,
    gifts: dict[int, int],
) -> bool:
    """V15: whether the golden declarer resigns rather than gives ``gifts`` and plays
    with ``mine``.

    It resigns when its expected result from playing is worse than -240 for itself and
    the opponents' gain from its resigning, both measured the same way (``_standing``):
    its own score change less the mean change of its active opponents, with
    ``WIN_BONUS`` for a game won or lost by it. Resigning (``_resigning``) is worth -240
    less the mean of +120 each (less if a barrel caps them): -360 as a rule. Playing is
    the mean of ``_playing`` over ``plan_samples`` deals of the unseen cards, each played
    face up from the first lead: a failed contract costs 240 and the opponents their
    doubled card points and marriages, so resigning pays only when they would take more
    than the 120 each it gives them, with the seat's hand hopeless and their marriages
    many.

    Never in the last golden hand while none has been made: unless this contract is made
    every score goes back to 0, so resigning saves nothing."""
    hand = view["hand"]
    assert hand is not None
    counters = view["counters"]
    if not counters["golden_made"] and counters["golden"] + 1 >= view["players"]:
        return False
    options = options_from_json(view["options"])
    deals = _deals(view, options, mine, rng, max(1, plan_samples), gifts=gifts)
    playing = [
        _playing(view, options, solver.solve(position) - OPTIMISM, held) for position, held in deals
    ]
    return sum(playing) / len(playing) < _resigning(view, options)


def bid(
    view: GameView, rng: random.Random, plan_samples: int = PLAN_SAMPLES, *, learned: bool = True
) -> dict[str, Any]:
    """The smallest legal bid while declaring is worth more than defending: by the learned
    model where it applies (``_learned_worth``; within ``DARE`` of defending is enough),
    else by the deals' chance (``_worth``)."""
    legal = view["legal"]
    hand = view["hand"]
    assert hand is not None
    bids: list[int] = legal["bid"]
    if hand["cards"] is None or not bids:  # V14: cards still face down
        return {"type": "pass"} if legal.get("pass") else {"type": "bid", "value": min(bids)}
    if not legal.get("pass"):
        return {"type": "bid", "value": min(bids)}
    options = options_from_json(view["options"])
    outcomes = bid_outcomes(view, rng, plan_samples)
    value = min(bids)
    fitted = bidding.model(view["players"]) if learned and bidding.applies(options) else None
    if fitted is None:
        worth = _worth(view, outcomes, value)
    else:
        worth = _learned_worth(view, fitted, hand["cards"], outcomes, value) + DARE
    if worth > 0:
        return {"type": "bid", "value": value}
    return {"type": "pass"}


def bid_outcomes(view: GameView, rng: random.Random, plan_samples: int = PLAN_SAMPLES) -> list[int]:
    """What the seat would make as declarer in ``plan_samples`` deals of the unseen cards,
    each adding a musik to its cards before the musik (``_deal_outcomes``): the forecast
    its bidding acts on, and the learned model's features (``bidding.features``)."""
    hand = view["hand"]
    assert hand is not None and hand["cards"] is not None
    options = options_from_json(view["options"])
    musik = musik_sizes(view["players"])[0]
    return _deal_outcomes(view, options, codes_mask(hand["cards"]), rng, plan_samples, musik=musik)


def _learned_worth(
    view: GameView, fitted: bidding.Model, cards: Sequence[str], outcomes: Sequence[int], bid: int
) -> float:
    """``_worth`` by the learned model: the expected score change of winning the auction
    at ``bid`` (the contract then declared with the musik seen, so a raise counts), a game
    won counting ``WIN_BONUS`` more at the model's chance, against the model's score of
    defending with these cards (nothing on the barrel, R25, and no more than the room
    left below it)."""
    me, barrel = view["seat"], view["barrel"]
    assert me is not None and barrel is not None  # bidding.applies: not V16
    score = view["scores"][me]
    declaring = fitted.declaring(cards, outcomes, bid)
    if score + bid >= view["target"]:
        declaring += WIN_BONUS * fitted.chance(cards, outcomes, bid)
    defence = 0.0 if view["on_barrel"][me] else fitted.defending(cards)
    defence = min(defence, float(barrel - score))
    return declaring - max(0.0, defence)


def prepare(view: GameView, rng: random.Random, plan_samples: int = PLAN_SAMPLES) -> dict[str, Any]:
    """R15 / R16: the gifts (or the discard) that give the contract its best chance; and
    V7's bomb when no choice gives it much, or V15's resign when playing is worth less
    (``resign_pays``)."""
    legal = view["legal"]
    hand = view["hand"]
    assert hand is not None and hand["bid"] is not None
    options = options_from_json(view["options"])
    cards = codes_mask(hand["cards"])
    giving = "give" in legal
    to = legal["give"]["to"] if giving else []
    best: tuple[float, float, tuple[int, ...]] | None = None
    for chosen in away_candidates(view):
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
    chosen_gifts = _gifts(to, best[2]) if giving else {}
    if legal.get("resign") and best[0] < RESIGN_BELOW:  # V15: the golden declarer
        rest = cards & ~sum(1 << c for c in best[2])
        if resign_pays(view, rng, plan_samples, rest, chosen_gifts):
            return {"type": "resign"}
    if legal.get("bomb") and best[0] < BOMB_BELOW:
        return {"type": "bomb"}
    return away_action(view, best[2])


def away_candidates(view: GameView) -> Iterator[tuple[int, ...]]:
    """The card sets ``prepare`` weighs to give away (R15) or lay down (R16): every set of
    as many as go, of the ``GIVE_CANDIDATES`` weakest cards, sparing marriages."""
    legal = view["legal"]
    hand = view["hand"]
    assert hand is not None
    away = len(legal["give"]["to"]) if "give" in legal else legal["discard"]["count"]
    held = hand["cards"] or []
    weak = [parse_card(c) for c in weakest(held, GIVE_CANDIDATES, marriage_cards(held))]
    return itertools.combinations(weak, away)


def away_action(view: GameView, chosen: Sequence[int]) -> dict[str, Any]:
    """The gifts (the higher to the player after the declarer) or the discard of ``chosen``."""
    legal = view["legal"]
    if "give" in legal:
        gifts = _gifts(legal["give"]["to"], chosen)
        return {"type": "give", "cards": {str(s): codes(1 << c)[0] for s, c in gifts.items()}}
    return {"type": "discard", "cards": [codes(1 << c)[0] for c in chosen]}


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
