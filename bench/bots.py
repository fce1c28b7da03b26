"""Bot strength: a candidate bot against an opponent, on duplicate hands and whole games.

    python bench/bots.py --candidate strong --opponent medium [--deals 1000] [--games 100]
        [--players 3] [--seed 1] [--jobs 2] [--options '{"bomb": "penalty"}'] [--json PATH]

A bot is any level of ``tysiac.bots.BOTS``, called as the server calls it
(``bots.choose(level, rules.view(game, seat, history=True), rng)``), or one of four
contenders of this script: ``random`` (a uniformly random legal move), ``cheat`` (sees
every card: the double-dummy solver's best card in play, its bids and contract by the
solver, ``medium`` elsewhere; an upper bound, for comparison only), ``ismcts``
(``strong`` with its card play by information-set MCTS, ``bots/ismcts.py``) and
``search`` (``strong`` bidding by its search alone, without the learned model of
``bots/bidding.py``).

The main figure compares single hands in duplicate. Each of ``--deals`` seeded deals is
the first hand of a new game (scores 0, the dealer rotating with the deal number),
played once by the opponent in every seat (the reference) and once per seating with
candidates: the candidate alone in each seat, and with three players also two
candidates beside one opponent. A seating's paired difference is the mean, over its
candidate seats, of the candidate's points for the hand (the score change, bombs and
void hands included) less the opponent's in that seat in the reference; a deal's
figure is the mean over its seatings. The report gives the mean over deals with a 95 %
t-interval and a bootstrap percentile interval: points per hand a seat gains by
holding the candidate instead of the opponent. Each seat's bot gets its own
``random.Random``, seeded by the deal, the seat and the bot, so a bot against itself
differs by exactly 0 and the figures do not depend on ``--jobs``.

Beside it: how often each bot was the declarer, made its contract and missed it by
more than 20 (its own seats of the duplicate hands: the reference's for the opponent),
whole games to 1000 (``--games``, the candidate in one seat rotating over the seats, the
opponent in the others) with a 95 % Wilson interval on its win rate, and the time each
bot took per decision, play and the other phases apart.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from tysiac import bots, rules
from tysiac.bots import ismcts, solver, strong
from tysiac.rules.cards import Card, card_code
from tysiac.rules.hand import End, Phase, allowed_contracts
from tysiac.rules.variants import MUS_BID

Action = dict[str, Any]
Report = dict[str, Any]
T = TypeVar("T")

BASELINES = ("random", "cheat", "ismcts", "search", "gifts")
SAME_DRAWS = {"search": "strong", "gifts": "strong"}  # contenders that draw as another bot
CANDIDATE, OPPONENT = "C", "o"  # a seating spelled seat by seat: "Coo", "oCC", ...
MOVE_CAP = 20_000  # a whole game of more steps (moves and deals) is left unfinished
RESAMPLES = 2_000
Z95 = 1.959964
# Student's t, 97.5th percentile, for 1-30 degrees of freedom (above: an expansion).
T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228)
T975 += (2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086)
T975 += (2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def bot_names() -> list[str]:
    return [*bots.BOTS, *BASELINES]


@dataclass(frozen=True)
class Setup:
    candidate: str
    opponent: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)  # JSON, rules.options_from_json

    @property
    def table_options(self) -> rules.Options:
        return rules.options_from_json(self.options)


# --- the bots ----------------------------------------------------------------------


@dataclass
class Clock:
    """Seconds per decision, by bot and by phase ("play" or "other")."""

    seconds: dict[str, dict[str, list[float]]] = field(default_factory=dict)

    def add(self, name: str, phase: str, seconds: float) -> None:
        self.seconds.setdefault(name, {"play": [], "other": []})[phase].append(seconds)

    def merge(self, other: Clock) -> None:
        for name, phases in other.seconds.items():
            for phase, times in phases.items():
                self.seconds.setdefault(name, {"play": [], "other": []})[phase].extend(times)


def random_move(view: rules.GameView, rng: random.Random) -> Action:
    """A uniformly random legal move: each bid, pass, card, pair of gifts or of discards
    is as likely as any other."""
    legal: Any = view["legal"]
    singles: list[Action] = [{"type": "bid", "value": v} for v in legal.get("bid", [])]
    singles += [{"type": "musik", "index": i} for i in legal.get("musik", [])]
    singles += [{"type": "declare", "value": v} for v in legal.get("declare", [])]
    singles += [{"type": "play", "card": c} for c in legal.get("play", [])]
    flags = ("pass", "bomb", "redeal", "blind", "look")
    singles += [{"type": kind} for kind in flags if legal.get(kind)]
    give, discard = legal.get("give"), legal.get("discard")
    gifts = math.perm(len(give["cards"]), len(give["to"])) if give else 0
    discards = math.comb(len(discard["cards"]), discard["count"]) if discard else 0
    pick = rng.randrange(len(singles) + gifts + discards)
    if pick < len(singles):
        return singles[pick]
    if pick < len(singles) + gifts:
        cards = rng.sample(give["cards"], len(give["to"]))
        return {
            "type": "give",
            "cards": {str(s): c for s, c in zip(give["to"], cards, strict=True)},
        }
    return {"type": "discard", "cards": rng.sample(discard["cards"], discard["count"])}


def cheat_move(game: rules.Game, seat: int, rng: random.Random) -> Action:
    """Sees every card. In play: the solver's best card for the declarer (ties: the
    first), its worst for a defender. It bids while the solver says it would make the
    smallest bid, takes the better musik and declares what the solver says it will make
    (the solver's figure is what the declarer scores against any defence); ``medium``
    in every other choice."""
    hand = game.hand
    assert hand is not None
    seen = rules.view(game, seat, history=True)
    legal = seen["legal"]
    if hand.phase is Phase.PLAY:
        gains: dict[Card, int] = solver.values(solver.from_hand(hand))
        best = max if seat == hand.declarer else min
        return {"type": "play", "card": card_code(best(gains, key=gains.__getitem__))}
    if legal.get("bid") and "redeal" not in legal:
        lowest = min(legal["bid"])
        worth = max(open_hand_gain(rules.apply(game, rules.Bid(seat, lowest)), seat))
        return {"type": "bid", "value": lowest} if worth >= lowest else {"type": "pass"}
    if "musik" in legal:
        gains = {i: max(open_hand_gain(game, seat, i)) for i in legal["musik"]}
        return {"type": "musik", "index": max(gains, key=gains.__getitem__)}
    if "declare" in legal:
        made = max(open_hand_gain(game, seat))
        values = legal["declare"]
        return {
            "type": "declare",
            "value": max([v for v in values if v <= made], default=values[0]),
        }
    return bots.choose("medium", seen, rng)


def gifts_move(game: rules.Game, seat: int, rng: random.Random) -> Action:
    """``strong``, but its gifts or discard are chosen among its own candidates (every
    set of its weakest cards, sparing marriages) by the open-card solve of the hand
    that follows, the smallest contract declared: the most points (ties: ``strong``'s
    own choice). It makes ``strong``'s move first, so its random draws stay the same as
    ``strong``'s: against the same opponent the two differ only where a gift does, and
    the difference bounds what any better judgement of the gifts could gain."""
    seen = rules.view(game, seat, history=True)
    action = strong.choose(seen, rng)
    if action["type"] not in ("give", "discard"):
        return action
    candidates = [action, *(strong.away_action(seen, c) for c in strong.away_candidates(seen))]

    def points(candidate: Action) -> int:
        after = rules.apply(game, rules.action_from_json({**candidate, "seat": seat}))
        return max(open_hand_gain(after, seat))

    return max(candidates, key=points)  # the first of the best: strong's own when tied


def ismcts_move(view: rules.GameView, rng: random.Random) -> Action:
    """``strong`` but for its cards, which information-set MCTS chooses."""
    if "play" in view["legal"]:
        return {"type": "play", "card": ismcts.play(view, rng)}
    return bots.choose("strong", view, rng)


def open_hand_gain(game: rules.Game, seat: int, musik: int | None = None) -> list[int]:
    """The solver's gain for ``seat`` as the declarer, from ``game`` on: the others pass,
    it plays ``medium``'s gifts or discards and the smallest contract, for each musik it
    may take (two players); -1 for a hand it would bomb or redeal."""
    assert game.hand is not None
    while game.hand.phase is Phase.BIDDING:
        game = rules.apply(game, rules.Pass(game.hand.to_move))
    if game.hand.phase is Phase.MUSIK:
        picks = (0, 1) if musik is None else (musik,)
        return [
            g
            for i in picks
            for g in open_hand_gain(rules.apply(game, rules.TakeMusik(seat, i)), seat)
        ]
    quiet = random.Random(0)
    while game.hand.phase not in (Phase.PLAY, Phase.OVER):
        if game.hand.phase is Phase.DECLARE:
            game = rules.apply(game, rules.Declare(seat, allowed_contracts(game.hand)[0]))
            continue
        action = bots.choose("medium", rules.view(game, seat, history=True), quiet)
        game = rules.apply(game, rules.action_from_json(action))
    if game.hand.phase is Phase.OVER or game.hand.declarer != seat:
        return [-1]
    return [solver.solve(solver.from_hand(game.hand))]


def move(name: str, game: rules.Game, seat: int, rng: random.Random, clock: Clock) -> rules.Action:
    """The move of bot ``name`` in ``seat``, timed; the levels see only their seat's view."""
    assert game.hand is not None
    phase = "play" if game.hand.phase is Phase.PLAY else "other"
    if name == "cheat":
        began = time.perf_counter()
        action = cheat_move(game, seat, rng)
    else:
        seen = rules.view(game, seat, history=True)
        began = time.perf_counter()
        if name == "random":
            action = random_move(seen, rng)
        elif name == "ismcts":
            action = ismcts_move(seen, rng)
        elif name == "search":
            action = strong.choose(seen, rng, learned=False)
        elif name == "gifts":
            action = gifts_move(game, seat, rng)
        else:
            action = bots.choose(name, seen, rng)
    clock.add(name, phase, time.perf_counter() - began)
    action["seat"] = seat
    return rules.action_from_json(action)  # rules.apply refuses an illegal one


def seat_rngs(key: str, lineup: Sequence[str]) -> list[random.Random]:
    """One generator per seat, from its bot's name too: a seat plays the same whoever sits
    beside it, as long as the game goes the same way. ``search`` draws as ``strong``
    does (the same search, another rule for the bid), so the two compare deal by deal
    down to the layouts drawn: only the bids differ."""
    return [
        random.Random(f"{key}:{seat}:{SAME_DRAWS.get(name, name)}")
        for seat, name in enumerate(lineup)
    ]


# --- duplicate hands ---------------------------------------------------------------


def deal_deck(seed: int, index: int) -> list[Card]:
    return rules.shuffle(random.Random(f"{seed}:deal:{index}"))


def seatings(players: int) -> list[str]:
    """The seatings with candidates: alone in each seat, and with three players also two
    candidates beside one opponent in each seat."""
    alone = [OPPONENT * s + CANDIDATE + OPPONENT * (players - s - 1) for s in range(players)]
    if players != 3:
        return alone
    pairs = [CANDIDATE * s + OPPONENT + CANDIDATE * (players - s - 1) for s in range(players)]
    return alone + pairs


def play_hand(
    setup: Setup, index: int, lineup: Sequence[str], clock: Clock
) -> tuple[rules.HandResult, bool]:
    """Deal ``index`` played to its end by ``lineup`` (a bot per seat): its result, and
    whether its contract was the mus player's forced 100 (R10) that nobody bid over."""
    dealer = index % setup.players
    game = rules.new_game(setup.players, dealer, options=setup.table_options)
    game = rules.deal(game, deal_deck(setup.seed, index))
    rngs = seat_rngs(f"{setup.seed}:deal:{index}", lineup)
    while not game.results:
        seat = game.to_move
        assert seat is not None
        game = rules.apply(game, move(lineup[seat], game, seat, rngs[seat], clock))
    hand = game.hand
    assert hand is not None
    forced = hand.bid == MUS_BID and all(value is None for _, value in hand.auction)
    return game.results[0], forced


@dataclass
class Declarer:
    """One bot's record as the declarer, summed over its seats of some hands."""

    seat_hands: int = 0  # seats it held that were dealt in
    declared: int = 0
    made: int = 0
    bombed: int = 0
    played: int = 0  # declared and played out (not bombed)
    margin: int = 0  # the sum over those of cards + melds - contract
    missed_by_20: int = 0
    forced: int = 0  # declared at the mus player's forced 100, nobody bidding (R10)
    forced_made: int = 0

    def add(self, result: rules.HandResult, seat: int, forced: bool = False) -> None:
        sitting_out = len(result.delta) == 4 and seat == result.dealer  # R7
        self.seat_hands += not sitting_out
        if result.declarer != seat:
            return
        self.declared += 1
        self.made += bool(result.made)
        self.forced += forced
        self.forced_made += forced and bool(result.made)
        self.bombed += result.end is End.BOMB
        if result.end is End.PLAYED and result.contract is not None:
            margin = result.points[seat] + result.melds[seat] - result.contract
            self.played += 1
            self.margin += margin
            self.missed_by_20 += margin < -20

    def merge(self, other: Declarer) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def figures(self) -> dict[str, float | int | None]:
        return {
            **vars(self),
            "declarer_share": ratio(self.declared, self.seat_hands),
            "make_rate": ratio(self.made, self.declared),
            "bid_make_rate": ratio(self.made - self.forced_made, self.declared - self.forced),
            "mean_margin": ratio(self.margin, self.played),
            "missed_by_20_rate": ratio(self.missed_by_20, self.played),
        }


@dataclass
class DealOutcome:
    index: int
    differences: dict[str, float]  # seating -> its paired difference
    value: float  # their mean: the deal's figure
    candidate: Declarer
    opponent: Declarer
    clock: Clock


def play_deal(setup: Setup, index: int) -> DealOutcome:
    """One deal in the reference seating and in every seating with candidates."""
    clock = Clock()
    names = {CANDIDATE: setup.candidate, OPPONENT: setup.opponent}
    reference, forced = play_hand(setup, index, [setup.opponent] * setup.players, clock)
    opponent, candidate = Declarer(), Declarer()
    for seat in range(setup.players):
        opponent.add(reference, seat, forced)
    differences = {}
    for seating in seatings(setup.players):
        result, forced = play_hand(setup, index, [names[c] for c in seating], clock)
        seats = [s for s, c in enumerate(seating) if c == CANDIDATE]
        for seat in seats:
            candidate.add(result, seat, forced)
        gains = [result.delta[s] - reference.delta[s] for s in seats]
        differences[seating] = statistics.fmean(gains)
    value = statistics.fmean(differences.values())
    return DealOutcome(index, differences, value, candidate, opponent, clock)


# --- whole games -------------------------------------------------------------------


@dataclass
class GameOutcome:
    number: int
    candidate_seat: int
    winner: int | None  # None: unfinished (MOVE_CAP)
    hands: int
    clock: Clock


def play_game(setup: Setup, number: int) -> GameOutcome:
    """Game ``number`` to 1000: the candidate in seat ``number % players``."""
    players = setup.players
    seat_of_candidate = number % players
    lineup = [setup.opponent] * players
    lineup[seat_of_candidate] = setup.candidate
    decks = random.Random(f"{setup.seed}:game:{number}")
    rngs = seat_rngs(f"{setup.seed}:game:{number}", lineup)
    clock = Clock()
    game = rules.new_game(players, number // players % players, options=setup.table_options)
    for _ in range(MOVE_CAP):
        if game.is_over:
            break
        if game.awaiting_deal:
            game = rules.deal(game, rules.shuffle(decks))
            continue
        seat = game.to_move
        assert seat is not None
        game = rules.apply(game, move(lineup[seat], game, seat, rngs[seat], clock))
    winner = game.outcome.winner if game.outcome is not None else None
    return GameOutcome(number, seat_of_candidate, winner, len(game.results), clock)


# --- statistics --------------------------------------------------------------------


def ratio(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def t975(df: int) -> float:
    if df <= len(T975):
        return T975[df - 1]
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def t_interval(values: Sequence[float]) -> tuple[float, float]:
    """The 95 % t-interval of the mean of ``values``."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean
    half = t975(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean - half, mean + half


def bootstrap_interval(values: Sequence[float], seed: int) -> tuple[float, float]:
    """The 95 % percentile interval of the mean, from RESAMPLES seeded resamples."""
    rng = random.Random(f"{seed}:bootstrap")
    n = len(values)
    means = sorted(math.fsum(rng.choices(values, k=n)) / n for _ in range(RESAMPLES))
    return means[round(0.025 * (RESAMPLES - 1))], means[round(0.975 * (RESAMPLES - 1))]


def wilson(wins: int, games: int) -> tuple[float, float] | None:
    """The 95 % Wilson score interval of a win rate."""
    if not games:
        return None
    p, z2 = wins / games, Z95**2
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(p * (1 - p) / games + z2 / (4 * games**2)) / (1 + z2 / games)
    return centre - half, centre + half


def percentiles(seconds: Sequence[float]) -> dict[str, float | int]:
    """Nearest-rank p50/p95/p99 and the maximum, in milliseconds."""
    ordered = sorted(seconds)

    def at(p: float) -> float:
        return 1000 * ordered[max(0, math.ceil(p * len(ordered)) - 1)]

    shown = {"p50": at(0.5), "p95": at(0.95), "p99": at(0.99), "max": 1000 * ordered[-1]}
    return {"moves": len(ordered), **shown}


# --- running -----------------------------------------------------------------------


def in_workers(work: Callable[[int], T], count: int, jobs: int) -> Iterator[T]:
    """``work`` over ``range(count)``, in order, in ``jobs`` processes."""
    if jobs <= 1 or count <= 1:
        yield from map(work, range(count))
        return
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(work, range(count), chunksize=max(1, count // (8 * jobs)))


def duplicate_figures(setup: Setup, deals: Sequence[DealOutcome]) -> Report:
    values = [deal.value for deal in deals]
    by_seating = {
        seating: statistics.fmean(deal.differences[seating] for deal in deals)
        for seating in seatings(setup.players)
        if deals  # --deals 0: whole games only
    }
    candidate, opponent = Declarer(), Declarer()
    for deal in deals:
        candidate.merge(deal.candidate)
        opponent.merge(deal.opponent)
    return {
        "deals": len(deals),
        "seatings": len(seatings(setup.players)),
        "mean": statistics.fmean(values) if values else None,
        "t_interval": t_interval(values) if values else None,
        "bootstrap_interval": bootstrap_interval(values, setup.seed) if values else None,
        "by_seating": by_seating if values else {},
        "per_deal": values,
        "declarer": {"candidate": candidate.figures(), "opponent": opponent.figures()},
    }


def game_figures(setup: Setup, games: Sequence[GameOutcome]) -> Report:
    finished = [g for g in games if g.winner is not None]
    wins = sum(g.winner == g.candidate_seat for g in finished)
    return {
        "games": len(games),
        "finished": len(finished),
        "unfinished": len(games) - len(finished),
        "wins": wins,
        "win_rate": ratio(wins, len(finished)),
        "wilson_interval": wilson(wins, len(finished)),
        "fair_share": 1 / setup.players,
        "mean_hands": statistics.fmean(g.hands for g in games) if games else None,
    }


def run(setup: Setup, deals: int, games: int, jobs: int = 2) -> Report:
    """Every figure of the report, JSON-ready."""
    clock = Clock()
    played = list(in_workers(partial(play_deal, setup), deals, jobs))
    whole = list(in_workers(partial(play_game, setup), games, jobs))
    for outcome in (*played, *whole):
        clock.merge(outcome.clock)
    return {
        "candidate": setup.candidate,
        "opponent": setup.opponent,
        "players": setup.players,
        "seed": setup.seed,
        "options": setup.options,
        "duplicate": duplicate_figures(setup, played),
        "games": game_figures(setup, whole),
        "times_ms": {
            name: {phase: percentiles(times) for phase, times in phases.items() if times}
            for name, phases in sorted(clock.seconds.items())
        },
    }


# --- the printed report ------------------------------------------------------------


def signed(value: float | None) -> str:
    return "-" if value is None else f"{value:+.1f}"


def share(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def interval(pair: Sequence[float] | None, show: Callable[[float], str] = signed) -> str:
    return "-" if pair is None else f"[{show(pair[0])}, {show(pair[1])}]"


def declarer_rows(report: Report) -> Iterable[str]:
    declarer = report["duplicate"]["declarer"]
    cand, opp = declarer["candidate"], declarer["opponent"]
    head = f"{report['candidate']} (candidate)", f"{report['opponent']} (opponent)"
    rows = [
        ("declarer, of its seat-hands", lambda d: share(d["declarer_share"])),
        ("contracts made", lambda d: f"{d['made']}/{d['declared']} {share(d['make_rate'])}"),
        ("forced 100s (nobody bid), made", lambda d: f"{d['forced_made']}/{d['forced']}"),
        ("made, the forced 100s apart", lambda d: share(d["bid_make_rate"])),
        ("bombed (V7)", lambda d: str(d["bombed"])),
        ("cards + melds - contract", lambda d: signed(d["mean_margin"])),
        ("missed by more than 20", lambda d: share(d["missed_by_20_rate"])),
    ]
    yield f"  {'as declarer':<30}{head[0]:>22}{head[1]:>22}"
    for label, show in rows:
        yield f"  {label:<30}{show(cand):>22}{show(opp):>22}"


def render(report: Report) -> str:
    """The report as a small plain-text table."""
    dup, games = report["duplicate"], report["games"]
    options = json.dumps(report["options"]) if report["options"] else "defaults"
    hands = "-" if games["mean_hands"] is None else f"{games['mean_hands']:.1f}"
    lines = [
        f"{report['candidate']} (candidate) against {report['opponent']} (opponent), "
        f"{report['players']} players, seed {report['seed']}, options {options}",
        "",
        f"Duplicate hands: {dup['deals']} deals, each played by the opponent alone and in "
        f"{dup['seatings']} seatings with candidates",
        "  a candidate's points per hand, less the opponent's in the same seat:",
        f"  mean {signed(dup['mean'])}   95% t {interval(dup['t_interval'])}   "
        f"bootstrap {interval(dup['bootstrap_interval'])}",
        "  by seating (C candidate, o opponent): "
        + ", ".join(f"{s} {signed(v)}" for s, v in dup["by_seating"].items()),
        "",
        *declarer_rows(report),
        "",
        f"Whole games to {rules.game.TARGET}: {games['games']} games, the candidate's seat "
        f"rotating, {hands} hands a game",
        f"  {report['candidate']} wins {games['wins']}/{games['finished']} "
        f"{share(games['win_rate'])}   95% Wilson {interval(games['wilson_interval'], share)}"
        f"   fair share {share(games['fair_share'])}   unfinished {games['unfinished']}",
        "",
        f"  {'decision times (ms)':<22}{'phase':>6}{'moves':>9}"
        + "".join(f"{k:>9}" for k in ("p50", "p95", "p99", "max")),
    ]
    for name, phases in report["times_ms"].items():
        for phase, t in phases.items():
            lines.append(
                f"  {name:<22}{phase:>6}{t['moves']:>9}"
                + "".join(f"{t[k]:>9.3f}" for k in ("p50", "p95", "p99", "max"))
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--candidate", required=True, choices=bot_names())
    parser.add_argument("--opponent", required=True, choices=bot_names())
    parser.add_argument("--deals", type=int, default=1000, help="duplicate deals")
    parser.add_argument("--games", type=int, default=100, help="whole games to 1000")
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--options", default="{}", help='table options, JSON: {"bomb":"penalty"}')
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    options = json.loads(args.options)
    rules.options_from_json(options)  # OptionsError for an unknown option
    setup = Setup(args.candidate, args.opponent, args.players, args.seed, options)
    report = run(setup, args.deals, args.games, args.jobs)
    print(render(report))
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
