"""The review of a finished game: every step of every hand with all cards face up
(``frames``), and what the solver says of each hand's play (``verdicts``).

A pure library like the rules: it imports the rules (and the verdicts the bots' solver),
nothing of the server (a test checks it).
"""

from __future__ import annotations

from .frames import frames, hand_frames

__all__ = ["frames", "hand_frames"]
