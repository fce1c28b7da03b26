"""Reviewing a finished game: every step of every hand face up, and the solver's verdicts."""
