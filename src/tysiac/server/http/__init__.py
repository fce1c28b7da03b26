"""The HTTP API and the WebSocket play, over the game service."""
