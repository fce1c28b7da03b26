"""A table's options (house rules V1-V16, docs/rules.md "Table options"): one frozen value
per game, fixed at creation and kept by its rematches. The defaults are the standard
rules, so ``Options()`` (or ``options_from_json({})``) plays exactly as before.

Options come from outside (the create form, a replay file) as JSON: ``options_from_json``
is strict (booleans are not 0/1, ``bid_step`` is the number 5, the strings are the listed
ones) and refuses unknown keys and values with ``OptionsError``, whose ``message`` is
Polish, for players.

The options' names, values' names and explanations are the catalogue's
(``option.<key>.name``, ``.help``, ``.value.<value as JSON>``, ``preset.<key>.name``…);
this module has their keys, values and presets, which ``/api/site`` gives the page.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

from tysiac.catalogue import Word, text

BidLimit = Literal["marriage", "melds", "360"]
Rounding = Literal["10", "10_down", "5", "none"]
Bomb = Literal["off", "penalty", "free"]
Barrel = Literal["800", "880", "off"]


class OptionsError(ValueError):
    """Options the rules do not know: ``key`` the catalogue's (``error.bad_options.…``),
    ``params`` its values; ``message`` is Polish, for players."""

    def __init__(self, key: str, /, **params: object) -> None:
        self.key = key
        self.params: dict[str, Any] = params
        self.message = text(key, **params)
        super().__init__(self.message)


@dataclass(frozen=True, slots=True)
class Options:
    """The options of one game; each field's default is the standard rule."""

    bid_step: Literal[10, 5] = 10  # V1
    bid_limit: BidLimit = "marriage"  # V2
    meld_first_trick: bool = True  # V3
    meld_needs_trick: bool = False  # V4
    rounding: Rounding = "10"  # V5
    mus: bool = True  # V6
    bomb: Bomb = "off"  # V7
    bolts: bool = False  # V8
    dump_555: bool = False  # V9
    barrel: Barrel = "800"  # V10, V16 ("off")
    open_musik: bool = False  # V11
    ace_marriage: bool = False  # V12
    redeal: bool = False  # V13
    blind: bool = False  # V14
    golden_ace: bool = False  # V15


DEFAULT = Options()

# Each key: the values it may take, default first, in the order the form lists them. Its
# id is V1, V2… in this order (docs/rules.md); its names are the catalogue's.
CHOICES: dict[str, tuple[object, ...]] = {
    "bid_step": (10, 5),
    "bid_limit": ("marriage", "melds", "360"),
    "meld_first_trick": (True, False),
    "meld_needs_trick": (False, True),
    "rounding": ("10", "10_down", "5", "none"),
    "mus": (True, False),
    "bomb": ("off", "penalty", "free"),
    "bolts": (False, True),
    "dump_555": (False, True),
    "barrel": ("800", "880", "off"),
    "open_musik": (False, True),
    "ace_marriage": (False, True),
    "redeal": (False, True),
    "blind": (False, True),
    "golden_ace": (False, True),
}
assert tuple(CHOICES) == tuple(f.name for f in fields(Options))

# A value with an id of its own, past the keys' V1-V15: barrel "off" is V16 (the game
# without a barrel), while the key itself is V10.
VALUE_IDS: dict[tuple[str, object], str] = {("barrel", "off"): "V16"}

# The create form's presets, in its order: the options each sets, the rest at their
# defaults (None: each chosen, "Własne"). Each is named after the tables that play so
# (preset.<key>.where, docs/rules.md "Presets"). A preset is only where the form starts:
# a game stores its options, never the preset they came from.
PRESETS: dict[str, dict[str, object] | None] = {
    "standard": {},
    "gracz_pl": {"bid_limit": "360", "mus": False, "barrel": "off"},
    "gamedesire": {"bid_limit": "melds", "open_musik": True},
    "mizerca": {"meld_needs_trick": True, "rounding": "10_down"},
    "east": {
        "bid_step": 5,
        "bolts": True,
        "dump_555": True,
        "barrel": "880",
        "ace_marriage": True,
        "redeal": True,
        "blind": True,
        "golden_ace": True,
    },
    "custom": None,
}


def option_id(key: str) -> str:
    """``bid_step`` -> ``V1``."""
    return f"V{list(CHOICES).index(key) + 1}"


def value_id(key: str, value: object) -> str:
    """The id a value goes by: its own (``barrel`` ``"off"`` -> ``V16``), else its key's."""
    for (owner, own), number in VALUE_IDS.items():
        if owner == key and _same(value, own):
            return number
    return option_id(key)


def value_key(key: str, value: object) -> str:
    """A value's name in the catalogue: ``option.bid_step.value.5``, ``….value.true``."""
    shown = _shown(value).strip('"')
    return f"option.{key}.value.{shown}"


def option_table() -> list[dict[str, Any]]:
    """The options as the page lists them: key, id, values (default first), and the ids
    of the values that have their own (``{"off": "V16"}``, by the value as a string)."""
    return [
        {
            "key": key,
            "id": option_id(key),
            "values": list(values),
            "default": values[0],
            "value_ids": {
                str(value): number for (owner, value), number in VALUE_IDS.items() if owner == key
            },
        }
        for key, values in CHOICES.items()
    ]


def _same(value: object, allowed: object) -> bool:
    """Strict equality: True is not 1, 5.0 is not 5."""
    return type(value) is type(allowed) and value == allowed


def options_from_json(data: object) -> Options:
    """The options a JSON object names; missing keys keep their defaults."""
    if not isinstance(data, dict):
        raise OptionsError("error.bad_options.not_object")
    chosen: dict[str, Any] = {}
    for key, value in data.items():
        if key not in CHOICES:
            raise OptionsError("error.bad_options.unknown", key=key)
        allowed = CHOICES[key]
        if not any(_same(value, option) for option in allowed):
            raise OptionsError(
                "error.bad_options.value",
                option=Word(f"option.{key}.name"),
                value=_shown(value),
                allowed=", ".join(_shown(option) for option in allowed),
            )
        chosen[key] = value
    return Options(**chosen)


def options_to_json(options: Options) -> dict[str, Any]:
    """Every option with its value (a stored game and its state carry them all)."""
    return {f.name: getattr(options, f.name) for f in fields(Options)}


def _shown(value: object) -> str:
    """A value as JSON spells it: true, 5, "880"."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)
