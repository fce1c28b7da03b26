"""The game: its tables, the service that changes them, and the commands of play."""
