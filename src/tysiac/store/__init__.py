"""Persistence: the schema, its migrations and the queries. SQLite by default, PostgreSQL too."""
