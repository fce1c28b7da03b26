"""Card play by information-set Monte Carlo tree search (tried against ``strong``).

Single-Observer Information-Set MCTS (SO-ISMCTS: P. I. Cowling, E. J. Powley and
D. Whitehouse, "Information Set Monte Carlo Tree Search", IEEE Transactions on
Computational Intelligence and AI in Games 4(2), 2012, pp. 120-143). ``strong`` solves
each layout of the hidden cards on its own and averages the answers, so every layout
is played as if the cards were face up from the first card on. ISMCTS searches one
tree for all of them instead: a node is a sequence of cards played from now on, which
every seat sees fall, so it is an information set of the seat to move; each iteration

1. draws one layout of the hidden cards (from a pool of ``POOL`` drawn once per move by
   ``sampling.layouts``, all of them when there are few; in proportion to
   ``sampling.weight`` when ``strong.WEIGHTED`` is on, as ``strong`` weights them, else
   uniformly): a *determinization*;
2. descends the tree, at each node only among the cards legal in that layout, by UCB1
   with *availability counts*: a child's exploration term uses how often it could have
   been chosen, not how often its parent was visited (the paper's subset-armed bandit);
3. expands one card not yet tried there;
4. evaluates the leaf (``PLAYOUT``): ``"solve"``, the double-dummy solver's exact value
   of the rest of that layout (``solver.solve``), or ``"random"``, random legal cards to
   the end of the hand;
5. backs the result up the path: for the declarer 1 if its total (its counted points,
   what the cards along the path brought it, and the leaf's value) reaches the contract,
   else 0, plus ``TIE_BREAK`` per point; a defender's nodes score 1 minus that (the
   defenders play together, as in the solver).

The card played is the root's most visited child. The budget is a number of iterations
(``ITERATIONS``), not a time, so the answer is a function of the view and the generator.
Moves go through ``solver.step`` (compiled), so the tree is the only Python work.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field

from tysiac.rules.cards import Card, cards_of, codes
from tysiac.rules.options import options_from_json
from tysiac.rules.view import GameView

from . import medium, sampling, solver
from .sampling import Knowledge, layouts
from .strong import WEIGHTED, _counted, _position

ITERATIONS = 1_300  # per card played (at most about 0.5 s at the first trick, three players)
POOL = 200  # layouts drawn per card played, one taken at random per iteration
EXPLORATION = 0.7  # UCB1's constant, for rewards in [0, 1] (the paper's value)
TIE_BREAK = 0.001  # reward per point of the declarer's: more points when made or lost
# "solve": the solver's exact value at the leaf; "random": random cards to the end (it
# needs 10,000 iterations for the same time). Measured against strong, 200 duplicate
# deals of three: solve +0.9 a hand (95 % t -2.1 to +4.0), random +1.6 (-1.4 to +4.6),
# random less solve +0.7 (-1.5 to +2.9) at ten times the median time: solve is kept.
PLAYOUT = "solve"


@dataclass(slots=True)
class Node:
    """A card sequence from the root: the reward is summed for the side that played its
    last card."""

    visits: int = 0
    available: int = 0  # iterations in which its card was legal when its parent was left
    reward: float = 0.0
    children: dict[Card, Node] = field(default_factory=dict)

    def ucb(self) -> float:
        return self.reward / self.visits + EXPLORATION * math.sqrt(
            math.log(self.available) / self.visits
        )


def play(view: GameView, rng: random.Random) -> str:
    legal: list[str] = view["legal"]["play"]
    if len(legal) == 1:
        return legal[0]
    hand = view["hand"]
    assert hand is not None
    declarer, contract = hand["declarer"], hand["contract"]
    assert declarer is not None and contract is not None
    options = options_from_json(view["options"])
    need = contract - _counted(view, options, declarer)
    knowledge = Knowledge.of(view)
    pool = list(layouts(knowledge, rng, POOL))
    weights = [sampling.weight(knowledge, layout) if WEIGHTED else 1.0 for layout in pool]
    if not pool or not sum(weights):  # nothing agrees with the view: a bug, but play on
        return medium.play(view)
    roots = [_position(view, options, layout) for layout in pool]
    cumulative = list(itertools.accumulate(weights))
    tree = Node()
    for _ in range(ITERATIONS):
        _iterate(tree, rng.choices(roots, cum_weights=cumulative)[0], need, rng)
    best = max(tree.children, key=lambda c: (tree.children[c].visits, -c))
    return codes(1 << best)[0]


def _iterate(tree: Node, position: solver.Position, need: int, rng: random.Random) -> None:
    """One iteration in one determinization: select, expand, evaluate, back up."""
    path: list[tuple[Node, bool]] = []  # each node entered, and whether the declarer entered it
    gained = 0
    node = tree
    while not position.over:
        legal = cards_of(solver.legal(position))
        by_declarer = position.to_move == position.declarer
        untried = [c for c in legal if c not in node.children]
        if untried:
            card = rng.choice(untried)
            child = node.children[card] = Node(available=1)
        else:
            for c in legal:
                node.children[c].available += 1
            card = max(legal, key=lambda c: node.children[c].ucb())
            child = node.children[card]
        position, gain = solver.step(position, card)
        gained += gain
        path.append((child, by_declarer))
        node = child
        if untried:
            break
    total = gained + _rest(position, rng)
    made = (total >= need) + TIE_BREAK * total
    for entered, by_declarer in path:
        entered.visits += 1
        entered.reward += made if by_declarer else 1 - made


def _rest(position: solver.Position, rng: random.Random) -> int:
    """What the declarer gains from ``position`` to the end of the hand."""
    if PLAYOUT == "solve":
        return solver.solve(position)
    gained = 0
    while not position.over:
        position, gain = solver.step(position, rng.choice(cards_of(solver.legal(position))))
        gained += gain
    return gained
