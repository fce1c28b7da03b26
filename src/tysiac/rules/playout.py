"""Fast random playouts, from any position of the play phase to the last trick.

The bots live on this: thousands of playouts a second on determinised hands.
It is a driver, not a second statement of the rules: every rule it applies is a
call into ``tricks`` (R19-R21), the same functions ``Hand`` uses.
"""

from __future__ import annotations

import random

from . import variants
from .cards import POINTS, cards_of
from .hand import Hand, Phase, winning_play
from .tricks import NO_SUIT, beats, legal_cards


def random_playout(hand: Hand, rng: random.Random) -> list[int]:
    """Play random legal cards to the end; each seat's card points plus the marriages that
    count (R22; V3, V4, V12 through ``variants``)."""
    if hand.phase is not Phase.PLAY or hand.to_move is None:
        raise ValueError("A playout starts in the play phase.")
    held = list(hand.held)
    order = hand.active
    players = len(order)
    options = hand.options
    won = list(hand.won)
    meld = [hand.meld_points(s) for s in range(hand.players)]
    took = list(hand.tricks_won)
    first = hand.first_trick
    trump = NO_SUIT if hand.trump is None else hand.trump
    uniform = rng.random
    position = order.index(hand.to_move)
    in_trick = len(hand.trick)
    led, win_seat, win_card, pot = NO_SUIT, -1, -1, 0
    if in_trick:
        led = hand.trick[0][1] // 6
        win_seat, win_card = winning_play(hand.trick, hand.trump)
        pot = sum(POINTS[c] for _, c in hand.trick)
    while True:
        seat = order[position]
        mine = held[seat]
        if not mine:
            return [
                won[s] + variants.counted_melds(options, meld[s], took[s])
                for s in range(hand.players)
            ]
        choices = cards_of(legal_cards(mine, led, win_card, trump))
        card = choices[int(uniform() * len(choices))]
        held[seat] = mine ^ (1 << card)
        pot += POINTS[card]
        if not in_trick:
            led = card // 6
            kind = variants.meld_on_lead(options, mine, card, first)
            if kind is not None:
                meld[seat] += variants.meld_value(kind)
                if kind != variants.FOUR_ACES:
                    trump = kind
            win_seat, win_card = seat, card
        elif beats(card, win_card, trump):
            win_seat, win_card = seat, card
        in_trick += 1
        if in_trick == players:
            won[win_seat] += pot
            took[win_seat] += 1
            first = False
            in_trick, pot, led = 0, 0, NO_SUIT
            position = order.index(win_seat)
        else:
            position = position + 1 if position + 1 < players else 0
