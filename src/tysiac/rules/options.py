"""A table's options (house rules V1-V14, docs/rules.md "Table options"): one frozen value
per game, fixed at creation and kept by its rematches. The defaults are the standard
rules, so ``Options()`` (or ``options_from_json({})``) plays exactly as before.

Options come from outside (the create form, a replay file) as JSON: ``options_from_json``
is strict (booleans are not 0/1, ``bid_step`` is the number 5, the strings are the listed
ones) and refuses unknown keys and values with ``OptionsError``, whose ``message`` is
Polish, for players.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

BidLimit = Literal["marriage", "melds", "360"]
Rounding = Literal["10", "10_down", "5", "none"]
Bomb = Literal["off", "penalty", "free"]
Barrel = Literal["800", "880"]


class OptionsError(ValueError):
    """Options the rules do not know. ``message`` is Polish, for players."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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
    barrel: Barrel = "800"  # V10
    open_musik: bool = False  # V11
    ace_marriage: bool = False  # V12
    redeal: bool = False  # V13
    blind: bool = False  # V14


DEFAULT = Options()

# Each key: the values it may take, default first, and its name in messages (Polish).
CHOICES: dict[str, tuple[tuple[object, ...], str]] = {
    "bid_step": ((10, 5), "Krok licytacji"),
    "bid_limit": (("marriage", "melds", "360"), "Granica licytacji"),
    "meld_first_trick": ((True, False), "Meldunek w pierwszej lewie"),
    "meld_needs_trick": ((False, True), "Meldunek tylko z wziętą lewą"),
    "rounding": (("10", "10_down", "5", "none"), "Zaokrąglanie"),
    "mus": ((True, False), "Musik za 100 (mus)"),
    "bomb": (("off", "penalty", "free"), "Bomba"),
    "bolts": ((False, True), "Błoty"),
    "dump_555": ((False, True), "555 na zero"),
    "barrel": (("800", "880"), "Beczka"),
    "open_musik": ((False, True), "Odkryty musik dla dwóch"),
    "ace_marriage": ((False, True), "Cztery asy"),
    "redeal": ((False, True), "Ponowne rozdanie przy słabych kartach"),
    "blind": ((False, True), "Gra w ciemno"),
}
assert tuple(CHOICES) == tuple(f.name for f in fields(Options))


def _same(value: object, allowed: object) -> bool:
    """Strict equality: True is not 1, 5.0 is not 5."""
    return type(value) is type(allowed) and value == allowed


def options_from_json(data: object) -> Options:
    """The options a JSON object names; missing keys keep their defaults."""
    if not isinstance(data, dict):
        raise OptionsError("Zasady stołu muszą być obiektem JSON.")
    chosen: dict[str, Any] = {}
    for key, value in data.items():
        if key not in CHOICES:
            raise OptionsError(f"Nieznana zasada stołu: „{key}”.")
        allowed, name = CHOICES[key]
        if not any(_same(value, option) for option in allowed):
            listed = ", ".join(_shown(option) for option in allowed)
            raise OptionsError(f"{name}: niedozwolona wartość {_shown(value)}. Można: {listed}.")
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
