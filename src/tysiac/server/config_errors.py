"""pydantic's validation errors of the configuration as the operator reads them.

One line per problem, naming the setting and its variable (``smtp_port
(TYSIAC_SMTP_PORT): expected a number, got 'abc'``); a secret's value is never repeated.
"""

from __future__ import annotations

from collections.abc import Collection

from pydantic import ValidationError
from pydantic_core import ErrorDetails

ENV_PREFIX = "TYSIAC_"
TOGETHER = "settings_together"  # the error type of the checks that need several settings
NUMBER_ERRORS = {"int_parsing", "int_type", "int_from_float", "float_parsing", "float_type"}
TRUTH_ERRORS = {"bool_parsing", "bool_type"}


def named(key: str, message: str) -> str:
    """A problem of setting ``key``, named as the operator sets it."""
    return f"{key} ({ENV_PREFIX}{key.upper()}): {message}"


def problems(error: ValidationError, secrets: Collection[str], file: str | None) -> list[str]:
    """The lines of ``error``: the unknown keys of ``file`` first (only the file can hold
    a key that is no setting), then each setting's problem. A ``TOGETHER`` error holds
    its ``(setting, message)`` pairs in its context."""
    unknown: list[str] = []
    found: list[str] = []
    for item in error.errors(include_url=False):
        if item["type"] == TOGETHER:
            together: list[tuple[str, str]] = (item.get("ctx") or {})["problems"]
            found += [named(key, message) for key, message in together]
            continue
        key = str(item["loc"][0]) if item["loc"] else ""
        if item["type"] == "extra_forbidden":
            unknown.append(f"{file}: unknown setting {key!r}")
        else:
            found.append(named(key, _message(item, hidden=key in secrets)))
    return unknown + found


def _message(item: ErrorDetails, hidden: bool) -> str:
    """Our words for pydantic's error ``item``; a secret's value (``hidden``) is not shown."""
    kind = item["type"]
    context = item.get("ctx") or {}
    got = "" if hidden else f", got {item['input']!r}"
    if kind in NUMBER_ERRORS:
        return f"expected a number{got}"
    if kind in TRUTH_ERRORS:
        return f"expected true or false{got}"
    if kind == "greater_than":
        return "must be a positive number"
    if kind == "greater_than_equal":
        return "must not be negative"
    if kind == "literal_error":
        return f"expected {context['expected']}{got}"
    if kind == "string_type":
        return f"expected text{got}"
    if kind == "value_error":
        return str(context["error"])
    return item["msg"]
