"""Where the cards a seat cannot see may be: what its view proves, and deals drawn from it.

``Knowledge.of(view)`` reads a seat's view (built with ``history=True``) for every fact
about the hidden cards: how many each player holds, the suits a player showed it lacks
(it did not follow, or did not trump), the cards it showed it lacks (R19: it followed
without beating, so it holds nothing higher), the cards a player must still hold (the
partner of a marriage it declared, a card the declarer gave it), the musik everyone saw
going to the declarer, and that a bid above 120 needs a marriage (V2, unless its limit
is 360; with V12 four aces will do).
``deals(knowledge, rng, count)`` then draws layouts of the hidden cards that agree with
all of it, or lists every one when there are few.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from tysiac.rules import variants
from tysiac.rules.cards import (
    ACE,
    DECK,
    KING,
    POINTS,
    QUEEN,
    SUIT_MASKS,
    SUITS,
    Mask,
    cards_of,
    make_card,
    parse_card,
)
from tysiac.rules.options import DEFAULT, Options, options_from_json
from tysiac.rules.tricks import NO_SUIT, beats, legal_cards
from tysiac.rules.view import GameView

DEAD = -1  # the place of cards out of play: a face-down musik, a discard (two players)
EXACT = 160  # at most this many layouts: search them all rather than sample
MUSIK_GIFT = 0.25  # how often one of the musik's cards is drawn as given on (R15)
THROW_CARE = 0.1  # how much a player throwing a card away prefers a cheap one (weight)
MARRIAGES: tuple[Mask, ...] = tuple(
    1 << make_card(QUEEN, s) | 1 << make_card(KING, s) for s in range(4)
)


def codes_mask(codes: Sequence[str] | None) -> Mask:
    mask = 0
    for code in codes or ():
        mask |= 1 << parse_card(code)
    return mask


def suit_index(letter: str | None) -> int:
    return NO_SUIT if letter is None else SUITS.index(letter)


@dataclass(frozen=True, slots=True)
class Throw:
    """A card a player played to a trick without beating it: a choice among the cards it
    held then (its cards now, ``later`` and this one), which says something about them."""

    seat: int
    card: int
    later: Mask  # what the seat played after this card
    led: int
    winning: int
    trump: int


@dataclass
class Knowledge:
    """What one seat knows of the cards it cannot see."""

    me: int
    mine: Mask  # its own cards
    places: list[int]  # the other seats holding cards, and DEAD if any card is out of play
    count: dict[int, int]  # cards per place
    barred: dict[int, Mask] = field(default_factory=dict)  # cards a place cannot hold
    held: dict[int, Mask] = field(default_factory=dict)  # cards a place surely holds
    musik: Mask = 0  # R15: the musik shown to all, now the declarer's or given on
    declarer: int | None = None
    played_by: dict[int, Mask] = field(default_factory=dict)
    married: set[int] = field(default_factory=set)  # seats that bid above 120 (V2)
    options: Options = DEFAULT
    thrown: list[Throw] = field(default_factory=list)  # cards played without beating

    @property
    def unseen(self) -> Mask:
        """The cards whose place is unknown to the seat (its own and played ones excluded)."""
        played = 0
        for mask in self.played_by.values():
            played |= mask
        return DECK & ~self.mine & ~played

    @classmethod
    def of(cls, view: GameView) -> Knowledge:
        hand = view["hand"]
        me = view["seat"]
        assert hand is not None and me is not None
        mine = codes_mask(hand["cards"])
        active = hand["active"]
        others = [s for s in active if s != me]
        count = {s: hand["counts"][s] for s in others}
        played_by = dict.fromkeys(active, 0)
        for play in hand.get("history", []):
            played_by[play["seat"]] |= 1 << parse_card(play["card"])
        knowledge = cls(me, mine, others, count, played_by=played_by)
        knowledge.barred = dict.fromkeys(others, 0)
        knowledge.held = dict.fromkeys(others, 0)
        knowledge.declarer = hand["declarer"]
        unseen = knowledge.unseen
        dead = unseen.bit_count() - sum(count.values())
        if dead > 0:
            knowledge.places.append(DEAD)
            knowledge.count[DEAD] = dead
            knowledge.barred[DEAD] = 0
            knowledge.held[DEAD] = 0
        knowledge._read_musik(view)
        knowledge._read_play(view)
        knowledge.options = options_from_json(view["options"])
        if knowledge.options.bid_limit != "360":  # V2: above 120 only with a meld
            for entry in hand["auction"]:  # (the declarer may have given a part of it on)
                if (entry["bid"] or 0) > 120 and entry["seat"] not in (me, hand["declarer"]):
                    knowledge.married.add(entry["seat"])
        for place in knowledge.places:  # what is known to be elsewhere is barred here
            knowledge.held[place] &= unseen
            knowledge.barred[place] &= ~knowledge.held[place]
        return knowledge

    def _read_musik(self, view: GameView) -> None:
        hand = view["hand"]
        assert hand is not None
        declarer = hand["declarer"]
        if declarer is None:
            return
        if declarer == self.me:
            for seat, code in (hand["given"] or {}).items():
                self.held[int(seat)] |= 1 << parse_card(code)
            if DEAD in self.places:
                self.held[DEAD] |= codes_mask(hand["discarded"])
            return
        taken = hand["musik_taken"]
        shown = [m["cards"] for m in hand["musiks"]]
        if len(shown) == 1 and shown[0] is not None:  # R15: seen by all, then one given on
            self.musik = codes_mask(shown[0]) & self.unseen
        elif taken is not None and shown[taken] is not None:  # V11: two players, open
            self.musik = codes_mask(shown[taken]) & self.unseen  # the declarer's, or discarded

    def _read_play(self, view: GameView) -> None:
        """R19-R21 read backwards: voids, cards too low to beat, marriages' partners; and
        the cards each player threw away, for ``weight``."""
        hand = view["hand"]
        assert hand is not None
        size = len(hand["active"])
        melds = [(m["seat"], m["suit"]) for m in hand["melds"]]
        history = hand.get("history", [])
        trump = NO_SUIT
        later = dict.fromkeys(self.played_by, 0)  # per seat: what it played after a point
        for play in history:
            later[play["seat"]] |= 1 << parse_card(play["card"])
        for start in range(0, len(history), size):
            trick = [(p["seat"], parse_card(p["card"])) for p in history[start : start + size]]
            leader, lead = trick[0]
            later[leader] &= ~(1 << lead)
            if melds and melds[0][0] == leader:
                seat, letter = melds[0]
                if letter is None and lead % 6 == ACE:  # V12: the four aces
                    melds.pop(0)
                    self._must_hold(seat, sum(1 << make_card(ACE, s) for s in range(4)))
                elif letter == SUITS[lead // 6] and lead % 6 in (KING, QUEEN):  # R21
                    melds.pop(0)
                    trump = lead // 6
                    self._must_hold(seat, MARRIAGES[trump])
            led, winning = lead // 6, lead
            for seat, card in trick[1:]:
                later[seat] &= ~(1 << card)
                self._showed(seat, card, led, winning, trump)
                if beats(card, winning, trump):
                    winning = card
                elif seat in self.barred:
                    self.thrown.append(Throw(seat, card, later[seat], led, winning, trump))

    def _must_hold(self, seat: int, cards: Mask) -> None:
        if seat in self.held:
            self.held[seat] |= cards

    def _showed(self, seat: int, card: int, led: int, winning: int, trump: int) -> None:
        """R19: what playing ``card`` to a trick led in ``led``, won so far by ``winning``,
        proves about the rest of ``seat``'s cards."""
        if seat not in self.barred:
            return
        barred = 0
        above = SUIT_MASKS[winning // 6] & ~((2 << winning) - 1)
        if card // 6 != led:
            barred |= SUIT_MASKS[led]
            if trump >= 0 and card // 6 != trump:
                barred |= SUIT_MASKS[trump]
            elif trump >= 0 and winning // 6 == trump and not beats(card, winning, trump):
                barred |= above
        elif winning // 6 == led and card < winning:
            barred |= above
        self.barred[seat] |= barred


def _fits(knowledge: Knowledge, layout: dict[int, Mask]) -> bool:
    for seat in knowledge.married:
        if seat in layout:
            dealt = layout[seat] | knowledge.played_by.get(seat, 0)
            if not variants.meld_kinds(knowledge.options, dealt):
                return False
    return True


def weight(knowledge: Knowledge, layout: dict[int, Mask]) -> float:
    """How likely ``layout`` makes the cards the others threw away, relative to a layout
    where nothing is learnt from them: a player who cannot win a trick throws a cheap
    card, so a layout that leaves it a cheaper card it could have thrown instead is less
    likely. Each throw counts as ``exp(-THROW_CARE * points)`` among the cards legal
    then (R19), over what a uniform choice would give."""
    total = 1.0
    for throw in knowledge.thrown:
        then = layout.get(throw.seat, 0) | throw.later | 1 << throw.card
        choices = cards_of(legal_cards(then, throw.led, throw.winning, throw.trump))
        if len(choices) > 1:
            scores = [math.exp(-THROW_CARE * POINTS[c]) for c in choices]
            total *= len(choices) * math.exp(-THROW_CARE * POINTS[throw.card]) / sum(scores)
    return total


def _free_cards(knowledge: Knowledge) -> tuple[Mask, dict[int, int], dict[int, Mask]]:
    """The hidden cards not yet placed, the room left per place, and what is placed."""
    placed = {p: knowledge.held[p] for p in knowledge.places}
    room = {p: knowledge.count[p] - placed[p].bit_count() for p in knowledge.places}
    free = knowledge.unseen
    for mask in placed.values():
        free &= ~mask
    return free, room, placed


def layouts(knowledge: Knowledge, rng: random.Random, count: int) -> Iterator[dict[int, Mask]]:
    """Up to ``count`` layouts of the hidden cards agreeing with ``knowledge``, each a place ->
    its cards; every such layout exactly once when there are at most ``EXACT`` of them."""
    free, room, placed = _free_cards(knowledge)
    if any(r < 0 for r in room.values()):
        return  # the view contradicts itself (a bug upstream): nothing to offer
    cards = cards_of(free)
    first, *rest = knowledge.places
    if len(rest) <= 1 and math.comb(len(cards), room[first]) <= EXACT:
        found = 0
        for chosen in itertools.combinations(cards, room[first]):
            layout = dict(placed)
            layout[first] |= sum(1 << c for c in chosen)
            if rest:
                layout[rest[0]] |= free & ~sum(1 << c for c in chosen)
            if _legal_layout(knowledge, layout):
                found += 1
                yield layout
        if found:
            return
    tries = 0
    made = 0
    while made < count and tries < count * 20:
        tries += 1
        drawn = _draw(knowledge, cards, dict(room), dict(placed), rng)
        if drawn is not None and _legal_layout(knowledge, drawn):
            made += 1
            yield drawn


def _legal_layout(knowledge: Knowledge, layout: dict[int, Mask]) -> bool:
    return all(not layout[p] & knowledge.barred[p] for p in knowledge.places) and _fits(
        knowledge, layout
    )


def _draw(
    knowledge: Knowledge,
    cards: Sequence[int],
    room: dict[int, int],
    layout: dict[int, Mask],
    rng: random.Random,
) -> dict[int, Mask] | None:
    """One random layout: the most constrained cards placed first, each where it may go,
    in proportion to the room left; the musik's cards go to the declarer, but now and then
    one of them to an opponent (the declarer gives one card to each)."""
    order = list(cards)
    rng.shuffle(order)
    declarer = knowledge.declarer
    musik = knowledge.musik & ~knowledge.barred[declarer] if declarer in room else 0
    if musik and rng.random() < MUSIK_GIFT:
        musik &= ~(1 << rng.choice(cards_of(musik)))

    def options(card: int) -> list[int]:
        if musik >> card & 1 and declarer is not None:  # not barred there, see above
            return [declarer]
        return [p for p in knowledge.places if not knowledge.barred[p] >> card & 1]

    order.sort(key=lambda c: len(options(c)))
    for card in order:
        where = [p for p in options(card) if room[p] > 0]
        if not where:
            return None
        place = rng.choices(where, weights=[room[p] for p in where])[0]
        room[place] -= 1
        layout[place] |= 1 << card
    return layout
