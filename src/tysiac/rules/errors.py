"""The one exception the rules raise for a refused action."""

from __future__ import annotations

from typing import Any

from tysiac.catalogue import text


class IllegalAction(Exception):
    """An action the rules refuse: ``key`` is the catalogue's (``error.<code>[.<variant>]``),
    ``code`` (its second part) is stable, ``params`` the message's named values.

    The rules name the refusal and leave its wording to the catalogue: ``message`` is the
    Polish text, for the replay tool; the server spells it in the page's language.
    """

    def __init__(self, key: str, /, **params: object) -> None:
        self.key = key
        self.code = key.split(".")[1]
        self.params: dict[str, Any] = params
        self.message = text(key, **params)  # an unknown key fails here, in the tests too
        super().__init__(self.message)

    def __repr__(self) -> str:
        return f"IllegalAction({self.key!r}, {self.params!r})"
