"""The rules of Tysiąc as a pure library: no I/O, no clock, randomness only injected.

Start here::

    rng = random.SystemRandom()             # R9: the deck comes from a secure generator
    game = new_game(players=3, first_dealer=0)
    game = deal(game, shuffle(rng))
    while not game.is_over:
        if game.awaiting_deal:
            game = deal(game, shuffle(rng))
            continue
        action = legal_actions(game)[0]
        game = apply(game, action)          # or IllegalAction: .code, .message (Polish)
    view(game, seat)                        # what one seat may see, JSON-ready
    public_action(action_to_json(action))   # what everyone may see of a move
    read_record(json.loads(text))           # a whole game's record, replayed and checked

Nothing here imports the server (a test checks it).
"""

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
    Surrender,
    TakeMusik,
    Timeout,
    action_from_json,
    action_to_json,
)
from .cards import Card, Mask, Suit, card_code, card_label, card_name, parse_card, parse_cards
from .errors import IllegalAction
from .game import (
    Counters,
    Game,
    HandResult,
    Outcome,
    Reason,
    apply,
    auto_action,
    cancel,
    deal,
    legal_actions,
    new_game,
    shuffle,
)
from .hand import End, Hand, Phase
from .options import Options, OptionsError, options_from_json, options_to_json
from .record import Recorder, RecordError, Replayed, ReplayedHand, hand_input, read_record
from .view import GameView, public_action, view

__all__ = [
    "Action",
    "Bid",
    "Blind",
    "Bomb",
    "Card",
    "Counters",
    "Declare",
    "Discard",
    "End",
    "Game",
    "GameView",
    "Give",
    "Hand",
    "HandResult",
    "IllegalAction",
    "Look",
    "Mask",
    "Options",
    "OptionsError",
    "Outcome",
    "Pass",
    "Phase",
    "Play",
    "Reason",
    "RecordError",
    "Recorder",
    "Redeal",
    "Replayed",
    "ReplayedHand",
    "Resign",
    "Suit",
    "Surrender",
    "TakeMusik",
    "Timeout",
    "action_from_json",
    "action_to_json",
    "apply",
    "auto_action",
    "cancel",
    "card_code",
    "card_label",
    "card_name",
    "deal",
    "hand_input",
    "legal_actions",
    "new_game",
    "options_from_json",
    "options_to_json",
    "parse_card",
    "parse_cards",
    "public_action",
    "read_record",
    "shuffle",
    "view",
]
