"""Fan-out of game updates to every connection watching a game."""
