"""``evolve``: a copy of a frozen dataclass with some fields changed.

The rules' states (``Hand``, ``Game``, ``HandResult``) are immutable, so every move copies
the hand and the game. ``dataclasses.replace`` does it by calling the class's ``__init__``
with every field as a keyword, a large part of what a move costs the engine
(docs/performance.md). ``evolve`` sets the slots directly instead: the same copy, without
``__init__`` and so without ``__post_init__`` (the states it copies were built valid, and
a change never needs what construction fills in: ``Game``'s zero counters).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

State = TypeVar("State")

_new = object.__new__
_set = object.__setattr__


_known: dict[type, tuple[tuple[str, ...], frozenset[str]]] = {}  # by class, on first use


def _names(cls: type) -> tuple[tuple[str, ...], frozenset[str]]:
    if cls not in _known:
        names = tuple(f.name for f in fields(cls))
        _known[cls] = names, frozenset(names)
    return _known[cls]


def evolve(state: State, **changes: Any) -> State:
    """``state`` with ``changes`` (field names to new values), as ``dataclasses.replace``."""
    cls: type[Any] = type(state)
    names, known = _names(cls)
    if not known.issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field {sorted(set(changes) - known)}")
    copy = _new(cls)
    for name in names:
        _set(copy, name, changes[name] if name in changes else getattr(state, name))
    return copy  # type: ignore[no-any-return]
