"""The one exception the rules raise for a refused action."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules refuse. ``code`` is stable; ``message`` is Polish, for players."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"
