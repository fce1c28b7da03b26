"""The table options (V1-V16) as rules: each option is read here, in one function per rule.

The engine (``hand.py``, ``scoring.py``, ``view.py``, ``playout.py``) asks these functions
and never looks at an ``Options`` field itself, so every house rule has one statement.
With ``Options()`` every function gives the standard rule (R12-R13, R17, R21, R24, R25).
"""

from __future__ import annotations

from .cards import ACE, JACK, MARRIAGE_VALUES, NINE, POINTS, Card, Mask, cards_of
from .errors import IllegalAction
from .options import Options
from .tricks import MELDABLE, melds

MUS_BID = 100  # R10
BLIND_BID = 120  # V14: blind counts as a bid of 120; V15: the golden contract
GOLDEN_RESIGN = 240  # V15: what the golden declarer loses by resigning
GOLDEN_RESIGN_GAIN = 120  # V15: what each active opponent gains then
MAX_BID_WITHOUT_MARRIAGE = 120  # R13
MAX_BID = 300  # R13
MAX_CONTRACT = 400  # R17
OPEN_CEILING = 360  # V2 "360"
BARREL_PENALTY = 120  # V8, V10: also in the short game
FOUR_ACES = 4  # the meld kind of V12 (kinds 0-3 are the suits' marriages)
FOUR_ACES_VALUE = 200
ACES: Mask = sum(1 << (6 * s + ACE) for s in range(4))


# --- V1, V2: bidding and the contract ------------------------------------------------


def bid_step(options: Options) -> int:
    """V1: bids and contracts are multiples of 10 (R12), or of 5."""
    return options.bid_step


def opening_bid(options: Options) -> int | None:
    """R10 / V6: the mus player's obligatory 100, or no bid at all."""
    return MUS_BID if options.mus else None


def meld_kinds(options: Options, cards: Mask) -> tuple[int, ...]:
    """The marriages (suits, R4) in ``cards``, and V12's four aces (``FOUR_ACES``)."""
    kinds = tuple(s for s, pair in enumerate(MELDABLE) if cards & pair == pair)
    if options.ace_marriage and cards & ACES == ACES:
        kinds = (*kinds, FOUR_ACES)
    return kinds


def meld_value(kind: int) -> int:
    """R4 for a suit's marriage; 200 for the four aces (V12)."""
    return FOUR_ACES_VALUE if kind == FOUR_ACES else MARRIAGE_VALUES[kind]


def bid_refusal(options: Options, ceiling: int) -> IllegalAction:
    """R13 / V2: why a bid above ``ceiling`` is refused."""
    if options.bid_limit == "marriage" and ceiling == MAX_BID_WITHOUT_MARRIAGE:
        return IllegalAction("error.bid_no_marriage")
    return IllegalAction("error.bid_too_high", ceiling=ceiling)


def bid_ceiling(options: Options, dealt: Mask) -> int:
    """R13 / V2: the highest bid allowed to a hand as dealt."""
    kinds = meld_kinds(options, dealt)
    match options.bid_limit:
        case "360":
            return OPEN_CEILING
        case "melds":
            return min(MAX_CONTRACT, MAX_BID_WITHOUT_MARRIAGE + sum(map(meld_value, kinds)))
    return MAX_BID if kinds else MAX_BID_WITHOUT_MARRIAGE


def contract_ceiling(options: Options, after_musik: Mask, bid: int) -> int:
    """R17 / V2: the highest contract; ``after_musik`` is the declarer's hand just after
    taking the musik."""
    match options.bid_limit:
        case "360":
            return OPEN_CEILING
        case "melds":
            return max(bid, bid_ceiling(options, after_musik))
    return MAX_CONTRACT


# --- V3, V4, V12: melds ------------------------------------------------------------------


def meld_on_lead(options: Options, held: Mask, card: Card, first_trick: bool) -> int | None:
    """R21 / V3 / V12: the meld kind that leading ``card`` from ``held`` declares, or None."""
    if first_trick and not options.meld_first_trick:
        return None
    if melds(held, card):  # R21
        return card // 6
    if options.ace_marriage and card % 6 == ACE and held & ACES == ACES:
        return FOUR_ACES
    return None


def meld_cards(options: Options, held: Mask, first_trick: bool) -> tuple[tuple[Card, int], ...]:
    """The cards of ``held`` that would meld if led now, each with the points it scores."""
    found = []
    for card in cards_of(held):
        kind = meld_on_lead(options, held, card, first_trick)
        if kind is not None:
            found.append((card, meld_value(kind)))
    return tuple(found)


def counted_melds(options: Options, meld_points: int, tricks_won: int) -> int:
    """R22 / V4: the marriage points that count for a player."""
    return meld_points if tricks_won or not options.meld_needs_trick else 0


# --- V5: rounding ------------------------------------------------------------------------


def round_points(options: Options, total: int) -> int:
    """R24 / V5: an opponent's total (and a bomb's half) as scored."""
    match options.rounding:
        case "10_down":
            return (total + 4) // 10 * 10
        case "5":
            return (total + 2) // 5 * 5
        case "none":
            return total
    return (total + 5) // 10 * 10


# --- V7: the bomb ------------------------------------------------------------------------


def may_bomb(options: Options, bombs_used: int) -> bool:
    """V7: may a declarer with ``bombs_used`` bombs this game bomb (blind hands aside)?"""
    match options.bomb:
        case "penalty":
            return True
        case "free":
            return bombs_used < 1
    return False


def bomb_refusal(options: Options) -> IllegalAction:
    """V7: why a declarer allowed to bomb by the phase may not."""
    if options.bomb == "free":
        return IllegalAction("error.bomb_used")
    return IllegalAction("error.no_bomb")


def bomb_points(options: Options, bid: int) -> tuple[int, int]:
    """V7: the declarer's score and each opponent's points (before R25/V10)."""
    if options.bomb == "free":
        return 0, 60
    return -bid, round_points(options, bid // 2)


# --- V13: redeals --------------------------------------------------------------------


def _count_rank(cards: Mask, rank: int) -> int:
    return sum(cards >> (6 * s + rank) & 1 for s in range(4))


def bad_hand(options: Options, dealt: Mask) -> bool:
    """V13: a hand as dealt that may ask for a redeal during bidding."""
    if not options.redeal:
        return False
    points = sum(POINTS[c] for c in cards_of(dealt))
    return points < 13 or _count_rank(dealt, NINE) == 4 or _count_rank(dealt, JACK) == 4


def bad_musik(options: Options, players: int, musik: Mask) -> bool:
    """V13: a musik (3-4 players) for which the declarer may ask for a redeal."""
    if not options.redeal or players == 2:
        return False
    points = sum(POINTS[c] for c in cards_of(musik))
    return points < 6 or _count_rank(musik, NINE) >= 2 or _count_rank(musik, JACK) == 3


# --- V11, V14: what is shown ---------------------------------------------------------------


def open_musik(options: Options, players: int) -> bool:
    """V11: the musik the declarer picked is shown to everyone (two players)."""
    return options.open_musik and players == 2


def blind_offered(
    options: Options,
    players: int,
    mus: int,
    scores: tuple[int, ...],
    target: int,
    sitter: int | None,
) -> bool:
    """V14: does the hand start with the mus player's choice, blind or look? Only with a
    score above 0 and nobody else on the barrel."""
    if not options.blind or players == 2 or scores[mus] <= 0:
        return False
    if not has_barrel(options):  # V16: nobody sits on a barrel
        return True
    if options.barrel == "880":
        return sitter is None or sitter == mus
    threshold = barrel_threshold(options, target)
    return all(score < threshold for seat, score in enumerate(scores) if seat != mus)


def blind_scores(contract: int) -> int:
    """V14: a blind contract scores double (120 -> 240)."""
    return 2 * contract


# --- V10: the barrel ---------------------------------------------------------------------


def barrel_threshold(options: Options, target: int) -> int:
    """R25 / R32 / V10: 800 (300), or 880 (380) with V10. (V16 has no barrel: ask
    ``has_barrel`` first.)"""
    short = target == 500
    if options.barrel == "880":
        return 380 if short else 880
    return 300 if short else 800


def has_barrel(options: Options) -> bool:
    """V16: with ``barrel: "off"`` nobody ever sits on a barrel."""
    return options.barrel != "off"


def on_barrel(
    options: Options, seat: int, scores: tuple[int, ...], target: int, sitter: int | None
) -> bool:
    """R25: a score of 800 or more; V10: the one seat sitting on the barrel; V16: nobody."""
    if not has_barrel(options):
        return False
    if options.barrel == "880":
        return seat == sitter
    return scores[seat] >= barrel_threshold(options, target)


def barrel_of_880(options: Options) -> bool:
    """V10 replaces R25 whole."""
    return options.barrel == "880"


def dump_555(options: Options, target: int) -> bool:
    """V9: only in the game to 1000."""
    return options.dump_555 and target == 1000


def counts_bolts(options: Options) -> bool:
    """V8: bolts are counted."""
    return options.bolts


def bolt_weight(blind: bool) -> int:
    """V8 / V14: a bolt earned in a blind hand counts two."""
    return 2 if blind else 1


# --- V15: Złoty As --------------------------------------------------------------------------


def golden_hand(options: Options, players: int, golden: int) -> bool:
    """V15: the first N hands of a game (N players, 3 or 4) are golden; ``golden`` is how
    many have been played."""
    return options.golden_ace and players != 2 and golden < players


# --- V16: no barrel, the first past the target wins ------------------------------------------


def target_winner(
    scores: tuple[int, ...], target: int, declarer: int, order: tuple[int, ...]
) -> tuple[int | None, str | None]:
    """V16 (replaces R26): of the seats at or past ``target``, the highest score wins; a
    tie goes to the declarer if among them, else to the first in ``order`` (the active
    seats from the mus player on, the sitting-out dealer last). Returns the winner and
    how a tie was broken: None (one seat there), ``"highest"``, ``"declarer"`` or
    ``"order"``."""
    there = [seat for seat in order if scores[seat] >= target]
    if not there:
        return None, None
    if len(there) == 1:
        return there[0], None
    best = max(scores[seat] for seat in there)
    top = [seat for seat in there if scores[seat] == best]
    if len(top) == 1:
        return top[0], "highest"
    if declarer in top:
        return declarer, "declarer"
    return top[0], "order"
