"""The double-dummy solver: how a hand's play ends with every card face up.

``solve(position)`` is the most card and marriage points the declarer can still be sure
to score from ``position`` (its *gain*) when everyone sees every card and both defenders
play together against it; ``values(position)`` is that gain after each legal card of the
player to move. The search is compiled (``_dd.c``: alpha-beta over card masks, with a
transposition table at trick boundaries that outlives a call, so the many deals a bot
samples share their endgames); this module turns a ``rules.Hand``, or a deal a bot has
imagined, into the tuple the C code reads.

A position's players are numbered by their place in the playing order (``hand.active``),
not by seat; ``Position.order`` maps them back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tysiac.rules.cards import Card, Mask
from tysiac.rules.hand import Hand, Phase
from tysiac.rules.options import Options

from . import _dd

MELD_FIRST, FOUR_ACES, NEEDS_TRICK = 1, 2, 4  # the C code's flags: V3, V12, V4
NO_TRUMP = -1


def flags_of(options: Options) -> int:
    return (
        (MELD_FIRST if options.meld_first_trick else 0)
        | (FOUR_ACES if options.ace_marriage else 0)
        | (NEEDS_TRICK if options.meld_needs_trick else 0)
    )


@dataclass(frozen=True, slots=True)
class Position:
    """One moment of the play, every card known. ``state`` is the C code's 24 ints: players,
    three hands, leader, cards in the trick and those cards, trump, first trick, declarer,
    flags, whether the declarer's marriages count yet (V4) and the points waiting, then
    card points, marriage points and tricks taken per place."""

    order: tuple[int, ...]  # the seat at each place
    state: tuple[int, ...]

    @property
    def to_move(self) -> int:
        """The seat to play."""
        s = self.state
        return self.order[(s[4] + s[5]) % s[0]]

    @property
    def declarer(self) -> int:
        return self.order[self.state[11]]

    @property
    def over(self) -> bool:
        s = self.state
        return s[5] == 0 and s[1 + s[4]] == 0

    def held(self, seat: int) -> Mask:
        return self.state[1 + self.order.index(seat)]

    def won(self, seat: int) -> int:
        """Card points taken so far."""
        return self.state[15 + self.order.index(seat)]

    def melds(self, seat: int) -> int:
        """Marriage points declared so far (V4 decides whether they count)."""
        return self.state[18 + self.order.index(seat)]

    def tricks(self, seat: int) -> int:
        return self.state[21 + self.order.index(seat)]


def position(
    *,
    order: Sequence[int],
    held: Mapping[int, Mask],
    trick: Sequence[tuple[int, Card]],
    to_move: int,
    trump: int | None,
    first_trick: bool,
    declarer: int,
    options: Options,
    won: Mapping[int, int],
    melds: Mapping[int, int],
    tricks: Mapping[int, int],
) -> Position:
    """A position from seat-keyed facts (``order``: the seats in playing order)."""
    places = tuple(order)
    n = len(places)
    leader = places.index(trick[0][0] if trick else to_move)
    cards = [card for _, card in trick] + [0] * (3 - len(trick))
    counting = not options.meld_needs_trick or tricks.get(declarer, 0) > 0
    pending = 0 if counting else melds.get(declarer, 0)
    hands = [held[seat] for seat in places] + [0] * (3 - n)
    per_place = [0] * 3

    def column(values: Mapping[int, int]) -> list[int]:
        return [values.get(seat, 0) for seat in places] + per_place[n:]

    state = (
        n,
        *hands,
        leader,
        len(trick),
        *cards,
        NO_TRUMP if trump is None else trump,
        int(first_trick),
        places.index(declarer),
        flags_of(options),
        int(counting),
        pending,
        *column(won),
        *column(melds),
        *column(tricks),
    )
    return Position(places, state)


def from_hand(hand: Hand) -> Position:
    """The position of a hand in its play phase, every card where it really is."""
    if hand.phase is not Phase.PLAY or hand.to_move is None or hand.declarer is None:
        raise ValueError("The solver starts in the play phase.")
    seats = range(hand.players)
    return position(
        order=hand.active,
        held={s: hand.held[s] for s in hand.active},
        trick=hand.trick,
        to_move=hand.to_move,
        trump=hand.trump,
        first_trick=hand.first_trick,
        declarer=hand.declarer,
        options=hand.options,
        won={s: hand.won[s] for s in seats},
        melds={s: hand.meld_points(s) for s in seats},
        tricks={s: hand.tricks_won[s] for s in seats},
    )


def legal(p: Position) -> Mask:
    return _dd.legal(p.state)


def step(p: Position, card: Card) -> tuple[Position, int]:
    """Play ``card`` for the seat to move: the new position and what it brought the
    declarer at once. ``ValueError`` for a card that may not be played."""
    state, gain = _dd.step(p.state, card)
    return Position(p.order, state), gain


def solve(p: Position, alpha: int = -1, beta: int = 10_000) -> int:
    """The declarer's gain from ``p`` with best play: exact when it falls strictly between
    ``alpha`` and ``beta``, otherwise a bound on that side (``solve(p, t - 1, t) >= t``
    answers "can the declarer still gain ``t``?" faster than the exact value)."""
    return _dd.solve(p.state, alpha, beta)


def values(p: Position) -> dict[Card, int]:
    """Each legal card of the seat to move -> the declarer's gain after it, what the card
    itself brings included."""
    return dict(_dd.values(p.state))


def nodes() -> int:
    """Positions searched by this process so far (for the benchmarks)."""
    return _dd.nodes()
