"""The deal review on the server: finished games' records, their review and analysis."""
