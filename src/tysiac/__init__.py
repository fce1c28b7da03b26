"""Tysiąc: the Polish card game 1000, played online."""
