"""The game server: HTTP API, WebSocket play, timers, lifetimes, limits."""
