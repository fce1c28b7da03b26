"""One hand (rozdanie): dealing, bidding, musik, contract and play (R5-R21).

``Hand`` is an immutable value; ``apply_to_hand`` returns a new one or raises
``IllegalAction`` and leaves the old one as it was. Scores, the barrel and the
game around the hand live in ``game.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from . import tricks, variants
from .actions import (
    Action,
    Bid,
    Blind,
    Bomb,
    Declare,
    Discard,
    Give,
    Look,
    Pass,
    Play,
    Redeal,
    Resign,
    TakeMusik,
)
from .cards import DECK, POINTS, Card, Mask, Suit, cards_of, mask_of
from .errors import IllegalAction
from .frozen import evolve
from .options import DEFAULT, Options
from .tricks import NO_SUIT
from .variants import BLIND_BID, FOUR_ACES, MUS_BID

__all__ = ["MUS_BID", "End", "Hand", "Phase"]


class Phase(StrEnum):
    BLIND = "blind"  # V14: the mus player chooses blind or look, before seeing the cards
    BIDDING = "bidding"
    MUSIK = "musik"
    GIVE = "give"
    DISCARD = "discard"
    DECLARE = "declare"
    PLAY = "play"
    OVER = "over"


class End(StrEnum):
    """How a hand ended. Stored values: never rename."""

    PLAYED = "played"
    VOID = "void"  # V6: everybody passed without a bid
    BOMB = "bomb"  # V7
    REDEAL = "redeal"  # V13
    RESIGN = "resign"  # V15: the golden declarer gave the hand up


def hand_size(players: int) -> int:
    return 10 if players == 2 else 7


def musik_sizes(players: int) -> tuple[int, ...]:
    return (2, 2) if players == 2 else (3,)


def active_seats(players: int, dealer: int) -> tuple[int, ...]:
    """R5-R8: the seats dealt in, in playing order from the mus player (R10)."""
    order = tuple((dealer + i) % players for i in range(1, players + 1))
    return order[:3] if players == 4 else order


@dataclass(frozen=True, slots=True)
class Hand:
    players: int
    dealer: int
    active: tuple[int, ...]  # seats dealt in, from the mus player on
    dealt: tuple[Mask, ...]  # per seat, as dealt (R13 looks at these)
    held: tuple[Mask, ...]  # per seat, now
    musiks: tuple[Mask, ...]  # one of 3 cards, or two of 2 (R6, R8)
    phase: Phase
    to_move: int | None
    bid: int | None  # None: no bid yet (V6)
    bidder: int | None  # holds the highest bid; the declarer once bidding ends (R14)
    auction: tuple[tuple[int, int | None], ...] = ()  # (seat, value), value None for a pass
    passed: frozenset[int] = frozenset()
    declarer: int | None = None
    contract: int | None = None
    musik_taken: int | None = None
    given: tuple[tuple[int, Card], ...] = ()  # (opponent, card), R15
    discarded: Mask = 0
    trick: tuple[tuple[int, Card], ...] = ()  # (seat, card) in the trick being played
    trump: Suit | None = None
    won: tuple[int, ...] = ()  # card points in tricks won, per seat
    tricks_won: tuple[int, ...] = ()
    melds: tuple[tuple[int, Suit], ...] = ()  # (seat, suit) in the order declared
    last_trick: tuple[tuple[int, Card], ...] = ()
    last_winner: int | None = None
    played: Mask = 0
    history: tuple[tuple[int, Card], ...] = ()  # (seat, card), every card played, in order
    options: Options = DEFAULT  # the table's house rules (V1-V16)
    bombers: frozenset[int] = frozenset()  # V7: seats that may bomb in this hand
    blind: bool = False  # V14: the mus player's blind stands (and in every golden hand)
    golden: bool = False  # V15: a golden hand, the mus player declarer for 120 unseen
    after_musik: Mask = 0  # the declarer's cards just after taking the musik (V2)
    end: End | None = None  # set when the phase is OVER

    @property
    def mus(self) -> int:
        return self.active[0]

    @property
    def first_trick(self) -> bool:
        return self.last_winner is None

    def face_down(self, seat: int | None) -> bool:
        """V14: the blind player's own cards are face down for them until bidding ends."""
        return seat == self.mus and (
            self.phase is Phase.BLIND or (self.blind and self.phase is Phase.BIDDING)
        )

    def can_bomb(self, seat: int) -> bool:
        """V7: the declarer, after taking the musik and before giving or discarding."""
        return (
            self.phase in (Phase.GIVE, Phase.DISCARD)
            and seat == self.declarer
            and seat in self.bombers
            and not self.blind
        )

    def can_resign(self, seat: int) -> bool:
        """V15: the golden declarer, instead of giving."""
        return self.golden and self.phase is Phase.GIVE and seat == self.declarer

    def can_redeal(self, seat: int) -> bool:
        """V13: a bad hand on one's bidding turn, or a bad musik before giving."""
        if seat != self.to_move:
            return False
        if self.phase is Phase.BIDDING:
            return variants.bad_hand(self.options, self.dealt[seat])
        if self.phase is Phase.GIVE and not self.blind:
            return variants.bad_musik(self.options, self.players, self.musiks[0])
        return False

    @property
    def opponents(self) -> tuple[int, ...]:
        """The declarer's opponents, from the next seat after the declarer (R28)."""
        if self.declarer is None:
            return ()
        i = self.active.index(self.declarer)
        return self.active[i + 1 :] + self.active[:i]

    def next_active(self, seat: int) -> int:
        return self.active[(self.active.index(seat) + 1) % len(self.active)]

    def meld_points(self, seat: int) -> int:
        """Marriage points declared (before V4 decides whether they count)."""
        return sum(variants.meld_value(kind) for who, kind in self.melds if who == seat)

    def led_and_winning(self) -> tuple[Suit, Card]:
        """The suit led and the card winning the current trick (NO_SUIT, -1 when leading)."""
        if not self.trick:
            return NO_SUIT, -1
        return self.trick[0][1] // 6, winning_play(self.trick, self.trump)[1]

    def legal_cards(self) -> Mask:
        """R19: what the seat to move may play (0 outside the play phase)."""
        if self.phase is not Phase.PLAY or self.to_move is None:
            return 0
        led, winning = self.led_and_winning()
        trump = NO_SUIT if self.trump is None else self.trump
        return tricks.legal_cards(self.held[self.to_move], led, winning, trump)


# --- dealing -----------------------------------------------------------------


def deal_hand(
    players: int,
    dealer: int,
    deck: Sequence[Card],
    options: Options = DEFAULT,
    bombers: frozenset[int] = frozenset(),
    blind_offer: bool = False,
    golden: bool = False,
) -> Hand:
    """Deal a shuffled deck: blocks of cards to the active seats in order, then the musiks."""
    if sorted(deck) != list(range(24)):
        raise ValueError("A deck must hold each of the 24 cards once.")
    size = hand_size(players)
    held = [0] * players
    position = 0
    for seat in active_seats(players, dealer):
        held[seat] = mask_of(deck[position : position + size])
        position += size
    musiks = []
    for musik_size in musik_sizes(players):
        musiks.append(mask_of(deck[position : position + musik_size]))
        position += musik_size
    return new_hand(
        players, dealer, tuple(held), tuple(musiks), options, bombers, blind_offer, golden
    )


def deck_of(players: int, dealer: int, held: Sequence[Mask], musiks: Sequence[Mask]) -> list[Card]:
    """The deck order that ``deal_hand`` turns into these hands and musiks."""
    deck: list[Card] = []
    for seat in active_seats(players, dealer):
        deck.extend(cards_of(held[seat]))
    for musik in musiks:
        deck.extend(cards_of(musik))
    return deck


def new_hand(
    players: int,
    dealer: int,
    held: tuple[Mask, ...],
    musiks: tuple[Mask, ...],
    options: Options = DEFAULT,
    bombers: frozenset[int] = frozenset(),
    blind_offer: bool = False,
    golden: bool = False,
) -> Hand:
    """A hand as dealt, bidding under way with the mus player's 100 (R10; V6: no bid yet),
    or, with ``blind_offer`` (V14), the mus player's choice first, or, ``golden`` (V15),
    the mus player already declarer for 120 with the musik in hand."""
    if players not in (2, 3, 4):
        raise ValueError("Tysiąc is played by 2, 3 or 4 players.")
    if not 0 <= dealer < players or len(held) != players:
        raise ValueError("Wrong dealer or number of hands.")
    active = active_seats(players, dealer)
    if len(musiks) != len(musik_sizes(players)):
        raise ValueError("Wrong number of musiks.")
    for seat in range(players):
        expected = hand_size(players) if seat in active else 0
        if held[seat].bit_count() != expected:
            raise ValueError(f"Seat {seat} must be dealt {expected} cards.")
    for musik, size in zip(musiks, musik_sizes(players), strict=True):
        if musik.bit_count() != size:
            raise ValueError(f"A musik must hold {size} cards.")
    union = 0
    for part in (*held, *musiks):
        if union & part:
            raise ValueError("A card is dealt twice.")
        union |= part
    if union != DECK:
        raise ValueError("The deal must use the whole deck.")
    opening = variants.opening_bid(options)
    dealt = Hand(
        players=players,
        dealer=dealer,
        active=active,
        dealt=held,
        held=held,
        musiks=musiks,
        phase=Phase.BLIND if blind_offer else Phase.BIDDING,
        to_move=active[0] if blind_offer else first_bidder(active, opening),
        bid=opening,
        bidder=None if opening is None else active[0],
        won=(0,) * players,
        tricks_won=(0,) * players,
        options=options,
        bombers=bombers,
    )
    return _golden(dealt) if golden else dealt


def _golden(hand: Hand) -> Hand:
    """V15: no bidding; the mus player is declarer for exactly 120, the musik goes to them
    face down (``blind``: shown to nobody else, scored as V14's blind game)."""
    declarer = hand.mus
    held = list(hand.held)
    held[declarer] |= hand.musiks[0]
    return evolve(
        hand,
        phase=Phase.GIVE,
        to_move=declarer,
        bid=BLIND_BID,
        bidder=declarer,
        declarer=declarer,
        contract=BLIND_BID,
        held=tuple(held),
        after_musik=held[declarer],
        blind=True,
        golden=True,
    )


def first_bidder(active: tuple[int, ...], opening: int | None) -> int:
    """R10: the player after the mus player; V6: the first active player."""
    return active[0] if opening is None else active[1]


# --- bidding -------------------------------------------------------------------


def bid_ceiling(hand: Hand, seat: int) -> int:
    """R13 / V2: judged on the hand as dealt."""
    return variants.bid_ceiling(hand.options, hand.dealt[seat])


def lowest_bid(hand: Hand) -> int:
    """R12 / V1: one step above the highest bid; 100 before any bid (V6)."""
    return MUS_BID if hand.bid is None else hand.bid + variants.bid_step(hand.options)


def allowed_bids(hand: Hand, seat: int) -> range:
    """R12-R13: the values ``seat`` may bid now."""
    step = variants.bid_step(hand.options)
    return range(lowest_bid(hand), bid_ceiling(hand, seat) + 1, step)


def _choose_blind(hand: Hand, seat: int, blind: bool) -> Hand:
    """V14: ``look`` starts bidding as usual; ``blind`` bids 120 and the next player acts."""
    if not blind:
        return evolve(hand, phase=Phase.BIDDING, to_move=first_bidder(hand.active, hand.bid))
    return evolve(
        hand,
        phase=Phase.BIDDING,
        bid=BLIND_BID,
        bidder=seat,
        blind=True,
        auction=(*hand.auction, (seat, BLIND_BID)),
        to_move=hand.next_active(seat),
    )


def _check_step(options: Options, value: int, key: str) -> None:
    """R12 / R17 / V1: ``key`` ends in the step, 10 or 5 (their messages differ)."""
    step = variants.bid_step(options)
    if value % step:
        raise IllegalAction(f"{key}.{step}")


def _bid(hand: Hand, seat: int, value: int | None) -> Hand:
    blind = hand.blind
    if value is None:
        passed = hand.passed | {seat}
        bid, bidder = hand.bid, hand.bidder
    else:
        _check_step(hand.options, value, "error.bid_step")  # error.bid_step.10, .5
        if value < lowest_bid(hand):
            if hand.bid is None:
                raise IllegalAction("error.bid_too_low.first", bid=MUS_BID)
            raise IllegalAction("error.bid_too_low", bid=hand.bid)
        ceiling = bid_ceiling(hand, seat)
        if value > ceiling:
            raise variants.bid_refusal(hand.options, ceiling)
        passed, bid, bidder = hand.passed, value, seat
        blind = False  # V14: an overbid ends the blind
    auction = (*hand.auction, (seat, value))
    in_play = [s for s in hand.active if s not in passed]
    if len(in_play) > 1 or (in_play and bidder is None):
        following = hand.next_active(seat)
        while following in passed:
            following = hand.next_active(following)
        return evolve(
            hand,
            bid=bid,
            bidder=bidder,
            passed=passed,
            auction=auction,
            to_move=following,
            blind=blind,
        )
    if not in_play:  # V6: everybody passed without a bid
        return evolve(
            hand, passed=passed, auction=auction, to_move=None, phase=Phase.OVER, end=End.VOID
        )
    # R14: one player is left, and it is always the highest bidder.
    declarer = in_play[0]
    held = list(hand.held)
    after_musik = 0
    if hand.players == 2:
        phase = Phase.MUSIK  # R16: the declarer picks a musik next
    else:
        held[declarer] |= hand.musiks[0]  # R15: shown to all, taken by the declarer
        after_musik = held[declarer]
        phase = Phase.GIVE
    return evolve(
        hand,
        bid=bid,
        bidder=bidder,
        passed=passed,
        auction=auction,
        declarer=declarer,
        to_move=declarer,
        held=tuple(held),
        phase=phase,
        blind=blind,
        after_musik=after_musik,
        contract=BLIND_BID if blind else None,  # V14: exactly 120, no declare step
    )


def _end(hand: Hand, seat: int, end: End) -> Hand:
    """V7 bomb, V13 redeal, V15 resign: the hand is over at once."""
    if end is End.BOMB and not hand.can_bomb(seat):
        if seat == hand.declarer and not hand.blind:
            raise variants.bomb_refusal(hand.options)
        raise IllegalAction("error.no_bomb")
    if end is End.REDEAL and not hand.can_redeal(seat):
        raise IllegalAction("error.no_redeal")
    if end is End.RESIGN and not hand.can_resign(seat):
        raise IllegalAction("error.no_resign")
    return evolve(hand, phase=Phase.OVER, to_move=None, end=end)


# --- musik and contract ---------------------------------------------------------


def _take_musik(hand: Hand, seat: int, index: int) -> Hand:
    if index not in (0, 1):
        raise IllegalAction("error.no_such_musik")
    held = list(hand.held)
    held[seat] |= hand.musiks[index]
    return evolve(
        hand, held=tuple(held), musik_taken=index, phase=Phase.DISCARD, after_musik=held[seat]
    )


def _give(hand: Hand, seat: int, cards: tuple[tuple[int, Card], ...]) -> Hand:
    if sorted(o for o, _ in cards) != sorted(hand.opponents):
        raise IllegalAction("error.give_one_each")
    gift = mask_of(c for _, c in cards)
    if gift.bit_count() != len(cards):
        raise IllegalAction("error.give_same_card")
    if gift & ~hand.held[seat]:
        raise IllegalAction("error.not_in_hand")
    held = list(hand.held)
    held[seat] &= ~gift
    for opponent, card in cards:
        held[opponent] |= 1 << card
    if hand.blind:  # V14: the contract is 120, play starts
        return evolve(hand, held=tuple(held), given=cards, phase=Phase.PLAY)
    return evolve(hand, held=tuple(held), given=cards, phase=Phase.DECLARE)


def _discard(hand: Hand, seat: int, cards: tuple[Card, ...]) -> Hand:
    laid = mask_of(cards)
    if len(cards) != 2 or laid.bit_count() != 2:
        raise IllegalAction("error.discard_two")
    if laid & ~hand.held[seat]:
        raise IllegalAction("error.not_in_hand")
    held = list(hand.held)
    held[seat] &= ~laid
    return evolve(hand, held=tuple(held), discarded=laid, phase=Phase.DECLARE)


def contract_ceiling(hand: Hand) -> int:
    """R17 / V2."""
    assert hand.bid is not None
    return variants.contract_ceiling(hand.options, hand.after_musik, hand.bid)


def allowed_contracts(hand: Hand) -> range:
    """R17: from the winning bid to the ceiling (400), in steps (V1)."""
    assert hand.bid is not None
    return range(hand.bid, contract_ceiling(hand) + 1, variants.bid_step(hand.options))


def _declare(hand: Hand, seat: int, value: int) -> Hand:
    assert hand.bid is not None
    _check_step(hand.options, value, "error.contract_step")  # error.contract_step.10, .5
    if value < hand.bid:
        raise IllegalAction("error.contract_too_low", bid=hand.bid)
    ceiling = contract_ceiling(hand)
    if value > ceiling:
        raise IllegalAction("error.contract_too_high", ceiling=ceiling)
    return evolve(hand, contract=value, phase=Phase.PLAY, to_move=seat)


# --- play ---------------------------------------------------------------------


def _play(hand: Hand, seat: int, card: Card) -> Hand:
    mine = hand.held[seat]
    if not mine >> card & 1:
        raise IllegalAction("error.not_in_hand")
    led, winning = hand.led_and_winning()
    trump = NO_SUIT if hand.trump is None else hand.trump
    if not tricks.legal_cards(mine, led, winning, trump) >> card & 1:
        raise tricks.refusal(mine, led, winning, trump, card)
    melds = hand.melds
    if led == NO_SUIT:  # R21, V3, V12
        kind = variants.meld_on_lead(hand.options, mine, card, hand.first_trick)
        if kind is not None:
            melds = (*melds, (seat, kind))
            if kind != FOUR_ACES:
                trump = kind
    held = list(hand.held)
    held[seat] = mine & ~(1 << card)
    trick = (*hand.trick, (seat, card))
    played = hand.played | 1 << card
    history = (*hand.history, (seat, card))
    trump_suit = None if trump == NO_SUIT else trump
    if len(trick) < len(hand.active):
        return evolve(
            hand,
            held=tuple(held),
            trick=trick,
            melds=melds,
            trump=trump_suit,
            played=played,
            history=history,
            to_move=hand.next_active(seat),
        )
    # R20: the trick is complete.
    winner = winning_play(trick, trump_suit)[0]
    won = list(hand.won)
    won[winner] += sum(POINTS[c] for _, c in trick)
    tricks_won = list(hand.tricks_won)
    tricks_won[winner] += 1
    over = held[winner] == 0
    return evolve(
        hand,
        held=tuple(held),
        melds=melds,
        trump=trump_suit,
        played=played,
        history=history,
        trick=(),
        last_trick=trick,
        last_winner=winner,
        won=tuple(won),
        tricks_won=tuple(tricks_won),
        to_move=None if over else winner,
        phase=Phase.OVER if over else Phase.PLAY,
        end=End.PLAYED if over else None,
    )


def winning_play(trick: Sequence[tuple[int, Card]], trump: Suit | None) -> tuple[int, Card]:
    """R20: the (seat, card) winning a trick: highest trump, else highest of the suit led."""
    trump_suit = NO_SUIT if trump is None else trump
    winner, winning = trick[0]
    for who, card in trick[1:]:
        if tricks.beats(card, winning, trump_suit):
            winner, winning = who, card
    return winner, winning


# --- dispatch -----------------------------------------------------------------

_PHASES_OF: dict[type, tuple[Phase, ...]] = {
    Bid: (Phase.BIDDING,),
    Pass: (Phase.BIDDING,),
    TakeMusik: (Phase.MUSIK,),
    Give: (Phase.GIVE,),
    Discard: (Phase.DISCARD,),
    Declare: (Phase.DECLARE,),
    Play: (Phase.PLAY,),
    Bomb: (Phase.GIVE, Phase.DISCARD),
    Redeal: (Phase.BIDDING, Phase.GIVE),
    Blind: (Phase.BLIND,),
    Look: (Phase.BLIND,),
    Resign: (Phase.GIVE,),
}


def apply_to_hand(hand: Hand, action: Action) -> Hand:
    """Apply a seat's move to the hand, or raise ``IllegalAction`` (the hand is unchanged)."""
    if hand.phase is Phase.OVER:
        raise IllegalAction("error.hand_over")
    seat = action.seat
    if not 0 <= seat < hand.players:
        raise IllegalAction("error.no_such_seat")
    if seat not in hand.active:
        raise IllegalAction("error.sitting_out")
    if seat != hand.to_move:
        raise IllegalAction("error.not_your_turn")
    if hand.phase not in _PHASES_OF.get(type(action), ()):
        raise IllegalAction("error.wrong_phase")
    match action:
        case Bid(_, value):
            return _bid(hand, seat, value)
        case Pass():
            return _bid(hand, seat, None)
        case TakeMusik(_, index):
            return _take_musik(hand, seat, index)
        case Give(_, cards):
            return _give(hand, seat, cards)
        case Discard(_, cards):
            return _discard(hand, seat, cards)
        case Declare(_, value):
            return _declare(hand, seat, value)
        case Play(_, card):
            return _play(hand, seat, card)
        case Bomb():
            return _end(hand, seat, End.BOMB)
        case Redeal():
            return _end(hand, seat, End.REDEAL)
        case Resign():
            return _end(hand, seat, End.RESIGN)
        case Blind():
            return _choose_blind(hand, seat, True)
        case Look():
            return _choose_blind(hand, seat, False)
    raise IllegalAction("error.wrong_phase")


def hand_actions(hand: Hand) -> list[Action]:
    """Every legal move of the seat to move (empty when the hand is over)."""
    seat = hand.to_move
    if seat is None:
        return []
    extra: list[Action] = []
    if hand.can_bomb(seat):
        extra.append(Bomb(seat))
    if hand.can_redeal(seat):
        extra.append(Redeal(seat))
    if hand.can_resign(seat):
        extra.append(Resign(seat))
    match hand.phase:
        case Phase.BLIND:
            return [Blind(seat), Look(seat)]
        case Phase.BIDDING:
            return [*(Bid(seat, v) for v in allowed_bids(hand, seat)), Pass(seat), *extra]
        case Phase.MUSIK:
            return [TakeMusik(seat, 0), TakeMusik(seat, 1)]
        case Phase.GIVE:
            mine = cards_of(hand.held[seat])
            first, second = hand.opponents
            gifts: list[Action] = [
                Give.of(seat, {first: a, second: b}) for a in mine for b in mine if a != b
            ]
            return [*gifts, *extra]
        case Phase.DISCARD:
            mine = cards_of(hand.held[seat])
            laid: list[Action] = [
                Discard(seat, (a, b)) for i, a in enumerate(mine) for b in mine[i + 1 :]
            ]
            return [*laid, *extra]
        case Phase.DECLARE:
            return [Declare(seat, v) for v in allowed_contracts(hand)]
        case Phase.PLAY:
            return [Play(seat, c) for c in cards_of(hand.legal_cards())]
    return []
