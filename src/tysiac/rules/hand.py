"""One hand (rozdanie): dealing, bidding, musik, contract and play (R5-R21).

``Hand`` is an immutable value; ``apply_to_hand`` returns a new one or raises
``IllegalAction`` and leaves the old one as it was. Scores, the barrel and the
game around the hand live in ``game.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from . import tricks
from .actions import Action, Bid, Declare, Discard, Give, Pass, Play, TakeMusik
from .cards import (
    DECK,
    MARRIAGE_VALUES,
    POINTS,
    Card,
    Mask,
    Suit,
    cards_of,
    marriage_suits,
    mask_of,
)
from .errors import IllegalAction
from .tricks import NO_SUIT

MUS_BID = 100
BID_STEP = 10
MAX_BID_WITHOUT_MARRIAGE = 120
MAX_BID = 300
MAX_CONTRACT = 400


class Phase(StrEnum):
    BIDDING = "bidding"
    MUSIK = "musik"
    GIVE = "give"
    DISCARD = "discard"
    DECLARE = "declare"
    PLAY = "play"
    OVER = "over"


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
    bid: int
    bidder: int  # holds the highest bid; the declarer once bidding ends (R14)
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

    @property
    def mus(self) -> int:
        return self.active[0]

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
        return sum(MARRIAGE_VALUES[s] for who, s in self.melds if who == seat)

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


def deal_hand(players: int, dealer: int, deck: Sequence[Card]) -> Hand:
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
    return new_hand(players, dealer, tuple(held), tuple(musiks))


def deck_of(players: int, dealer: int, held: Sequence[Mask], musiks: Sequence[Mask]) -> list[Card]:
    """The deck order that ``deal_hand`` turns into these hands and musiks."""
    deck: list[Card] = []
    for seat in active_seats(players, dealer):
        deck.extend(cards_of(held[seat]))
    for musik in musiks:
        deck.extend(cards_of(musik))
    return deck


def new_hand(players: int, dealer: int, held: tuple[Mask, ...], musiks: tuple[Mask, ...]) -> Hand:
    """A hand as dealt, bidding under way with the mus player's 100 (R10)."""
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
    return Hand(
        players=players,
        dealer=dealer,
        active=active,
        dealt=held,
        held=held,
        musiks=musiks,
        phase=Phase.BIDDING,
        to_move=active[1],
        bid=MUS_BID,
        bidder=active[0],
        won=(0,) * players,
        tricks_won=(0,) * players,
    )


# --- bidding -------------------------------------------------------------------


def bid_ceiling(hand: Hand, seat: int) -> int:
    """R13: 300 with a marriage in the hand as dealt, else 120."""
    return MAX_BID if marriage_suits(hand.dealt[seat]) else MAX_BID_WITHOUT_MARRIAGE


def allowed_bids(hand: Hand, seat: int) -> range:
    """R12-R13: the values ``seat`` may bid now."""
    return range(hand.bid + BID_STEP, bid_ceiling(hand, seat) + 1, BID_STEP)


def _bid(hand: Hand, seat: int, value: int | None) -> Hand:
    if value is None:
        passed = hand.passed | {seat}
        bid, bidder = hand.bid, hand.bidder
    else:
        if value % BID_STEP:
            raise IllegalAction("bid_step", "Licytuje się pełnymi dziesiątkami.")
        if value <= hand.bid:
            raise IllegalAction("bid_too_low", f"Trzeba przebić {hand.bid}.")
        ceiling = bid_ceiling(hand, seat)
        if value > ceiling:
            if ceiling == MAX_BID_WITHOUT_MARRIAGE:
                raise IllegalAction(
                    "bid_no_marriage", "Bez meldunku w ręce możesz licytować najwyżej do 120."
                )
            raise IllegalAction("bid_too_high", "Można licytować najwyżej do 300.")
        passed, bid, bidder = hand.passed, value, seat
    auction = (*hand.auction, (seat, value))
    in_play = [s for s in hand.active if s not in passed]
    if len(in_play) > 1:
        following = hand.next_active(seat)
        while following in passed:
            following = hand.next_active(following)
        return replace(
            hand, bid=bid, bidder=bidder, passed=passed, auction=auction, to_move=following
        )
    # R14: one player is left, and it is always the highest bidder.
    declarer = in_play[0]
    held = list(hand.held)
    if hand.players == 2:
        phase = Phase.MUSIK  # R16: the declarer picks a musik next
    else:
        held[declarer] |= hand.musiks[0]  # R15: shown to all, taken by the declarer
        phase = Phase.GIVE
    return replace(
        hand,
        bid=bid,
        bidder=bidder,
        passed=passed,
        auction=auction,
        declarer=declarer,
        to_move=declarer,
        held=tuple(held),
        phase=phase,
    )


# --- musik and contract ---------------------------------------------------------


def _take_musik(hand: Hand, seat: int, index: int) -> Hand:
    if index not in (0, 1):
        raise IllegalAction("no_such_musik", "Wybierz pierwszy albo drugi musik.")
    held = list(hand.held)
    held[seat] |= hand.musiks[index]
    return replace(hand, held=tuple(held), musik_taken=index, phase=Phase.DISCARD)


def _give(hand: Hand, seat: int, cards: tuple[tuple[int, Card], ...]) -> Hand:
    if sorted(o for o, _ in cards) != sorted(hand.opponents):
        raise IllegalAction("give_one_each", "Oddaj po jednej karcie każdemu przeciwnikowi.")
    gift = mask_of(c for _, c in cards)
    if gift.bit_count() != len(cards):
        raise IllegalAction("give_same_card", "Każdy przeciwnik musi dostać inną kartę.")
    if gift & ~hand.held[seat]:
        raise IllegalAction("not_in_hand", "Nie masz tej karty.")
    held = list(hand.held)
    held[seat] &= ~gift
    for opponent, card in cards:
        held[opponent] |= 1 << card
    return replace(hand, held=tuple(held), given=cards, phase=Phase.DECLARE)


def _discard(hand: Hand, seat: int, cards: tuple[Card, ...]) -> Hand:
    laid = mask_of(cards)
    if len(cards) != 2 or laid.bit_count() != 2:
        raise IllegalAction("discard_two", "Odłóż dokładnie dwie różne karty.")
    if laid & ~hand.held[seat]:
        raise IllegalAction("not_in_hand", "Nie masz tej karty.")
    held = list(hand.held)
    held[seat] &= ~laid
    return replace(hand, held=tuple(held), discarded=laid, phase=Phase.DECLARE)


def allowed_contracts(hand: Hand) -> range:
    """R17: from the winning bid to 400, in tens."""
    return range(hand.bid, MAX_CONTRACT + 1, BID_STEP)


def _declare(hand: Hand, seat: int, value: int) -> Hand:
    if value % BID_STEP:
        raise IllegalAction("contract_step", "Deklaruje się pełne dziesiątki.")
    if value < hand.bid:
        raise IllegalAction(
            "contract_too_low", f"Nie możesz grać mniej, niż wylicytowałeś ({hand.bid})."
        )
    if value > MAX_CONTRACT:
        raise IllegalAction("contract_too_high", "Można grać najwyżej za 400.")
    return replace(hand, contract=value, phase=Phase.PLAY, to_move=seat)


# --- play ---------------------------------------------------------------------


def _play(hand: Hand, seat: int, card: Card) -> Hand:
    mine = hand.held[seat]
    if not mine >> card & 1:
        raise IllegalAction("not_in_hand", "Nie masz tej karty.")
    led, winning = hand.led_and_winning()
    trump = NO_SUIT if hand.trump is None else hand.trump
    if not tricks.legal_cards(mine, led, winning, trump) >> card & 1:
        raise tricks.refusal(mine, led, winning, trump, card)
    melds = hand.melds
    if led == NO_SUIT and tricks.melds(mine, card):  # R21
        trump = card // 6
        melds = (*melds, (seat, trump))
    held = list(hand.held)
    held[seat] = mine & ~(1 << card)
    trick = (*hand.trick, (seat, card))
    played = hand.played | 1 << card
    trump_suit = None if trump == NO_SUIT else trump
    if len(trick) < len(hand.active):
        return replace(
            hand,
            held=tuple(held),
            trick=trick,
            melds=melds,
            trump=trump_suit,
            played=played,
            to_move=hand.next_active(seat),
        )
    # R20: the trick is complete.
    winner = winning_play(trick, trump_suit)[0]
    won = list(hand.won)
    won[winner] += sum(POINTS[c] for _, c in trick)
    tricks_won = list(hand.tricks_won)
    tricks_won[winner] += 1
    over = held[winner] == 0
    return replace(
        hand,
        held=tuple(held),
        melds=melds,
        trump=trump_suit,
        played=played,
        trick=(),
        last_trick=trick,
        last_winner=winner,
        won=tuple(won),
        tricks_won=tuple(tricks_won),
        to_move=None if over else winner,
        phase=Phase.OVER if over else Phase.PLAY,
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

_PHASE_OF = {
    Bid: Phase.BIDDING,
    Pass: Phase.BIDDING,
    TakeMusik: Phase.MUSIK,
    Give: Phase.GIVE,
    Discard: Phase.DISCARD,
    Declare: Phase.DECLARE,
    Play: Phase.PLAY,
}


def apply_to_hand(hand: Hand, action: Action) -> Hand:
    """Apply a seat's move to the hand, or raise ``IllegalAction`` (the hand is unchanged)."""
    if hand.phase is Phase.OVER:
        raise IllegalAction("hand_over", "Rozdanie jest już zakończone.")
    seat = action.seat
    if not 0 <= seat < hand.players:
        raise IllegalAction("no_such_seat", "Nie ma takiego miejsca przy stole.")
    if seat not in hand.active:
        raise IllegalAction("sitting_out", "W tym rozdaniu pauzujesz.")
    if seat != hand.to_move:
        raise IllegalAction("not_your_turn", "Teraz nie Twój ruch.")
    phase = _PHASE_OF.get(type(action))
    if phase is not hand.phase:
        raise IllegalAction("wrong_phase", "Ten ruch nie jest teraz możliwy.")
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
    raise IllegalAction("wrong_phase", "Ten ruch nie jest teraz możliwy.")


def hand_actions(hand: Hand) -> list[Action]:
    """Every legal move of the seat to move (empty when the hand is over)."""
    seat = hand.to_move
    if seat is None:
        return []
    match hand.phase:
        case Phase.BIDDING:
            return [*(Bid(seat, v) for v in allowed_bids(hand, seat)), Pass(seat)]
        case Phase.MUSIK:
            return [TakeMusik(seat, 0), TakeMusik(seat, 1)]
        case Phase.GIVE:
            mine = cards_of(hand.held[seat])
            first, second = hand.opponents
            return [Give.of(seat, {first: a, second: b}) for a in mine for b in mine if a != b]
        case Phase.DISCARD:
            mine = cards_of(hand.held[seat])
            return [Discard(seat, (a, b)) for i, a in enumerate(mine) for b in mine[i + 1 :]]
        case Phase.DECLARE:
            return [Declare(seat, v) for v in allowed_contracts(hand)]
        case Phase.PLAY:
            return [Play(seat, c) for c in cards_of(hand.legal_cards())]
    return []
