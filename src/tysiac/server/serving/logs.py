"""Logging: no per-connection lines, no client addresses, overload notices rationed.

uvicorn logs every WebSocket with the client's address and port (``access_log=False``
does not cover it), and websockets adds "connection open"/"connection closed". Those
per-connection lines are dropped, other client-caused warnings are limited to one a
minute, and as a safety net any IP address left in a library's log record
(``uvicorn``, ``websockets``, ``asyncio``…) is redacted. The startup line with the
server's own address is kept.
"""

from __future__ import annotations

import logging
import math
import re
import time
from ipaddress import ip_address
from typing import Any

NOTICE_SECONDS = 60.0  # at most one log line this often about each kind of overload


class LogEvery:
    """Allows one log line per ``seconds`` and counts the ones it held back."""

    def __init__(self, seconds: float = NOTICE_SECONDS) -> None:
        self.seconds = seconds
        self.last = -math.inf
        self.held = 0

    def allow(self) -> int | None:
        """None: stay quiet. A number: log now, saying how many were held back since."""
        now = time.monotonic()
        if now - self.last < self.seconds:
            self.held += 1
            return None
        held, self.held, self.last = self.held, 0, now
        return held


def held_back(held: int) -> str:
    return f" ({held} more since the last such line)" if held else ""


PER_CONNECTION = frozenset(
    {
        # uvicorn's WebSocket "access log", with the client's address and port.
        '%s - "WebSocket %s" [accepted]',
        '%s - "WebSocket %s" 403',
        '%s - "WebSocket %s" %d',
        # websockets (it logs to uvicorn.error for uvicorn).
        "connection open",
        "connection closed",
        "connection rejected (%d %s)",
        "HTTP response sent (%d %s)",
    }
)
CLIENT_FAULTS = frozenset(
    {
        # uvicorn's warnings about what a client sent: one a minute, no traceback.
        "Invalid HTTP request received.",
        "Unsupported upgrade request.",
        "Invalid UTF-8 sequence received from client.",
        "Exceeded concurrency limit.",
    }
)
LIBRARIES = ("uvicorn", "websockets", "asyncio", "starlette", "py.warnings", "root")
OWN_ADDRESS = "Uvicorn running on"  # the startup line: where the server listens


def _library(name: str) -> bool:
    return any(name == library or name.startswith(library + ".") for library in LIBRARIES)


class QuietConnections(logging.Filter):
    """Drops uvicorn's and websockets' per-connection lines; client faults once a minute."""

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self.notices: dict[str, LogEvery] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if not _library(record.name) or not isinstance(record.msg, str):
            return True
        if record.msg in PER_CONNECTION and record.levelno <= logging.INFO:
            return False
        if record.msg in CLIENT_FAULTS:
            held = self.notices.setdefault(record.msg, LogEvery()).allow()
            if held is None:
                return False
            record.exc_info = None
            record.exc_text = None
            if held:
                record.msg = f"{record.msg}{held_back(held)}"
        return True


_CANDIDATE = re.compile(r"[0-9A-Fa-f:.\[\]%]*[:.][0-9A-Fa-f:.\[\]%]*")
_PORT = re.compile(r":\d{1,5}")


def _ip(text: str) -> bool:
    try:
        ip_address(text)
    except ValueError:
        return False
    return True


def _is_address(token: str) -> bool:
    """``1.2.3.4``, ``1.2.3.4:80``, ``::1``, ``[::1]:80``, ``::1:80`` (as uvicorn writes it)."""
    if token.startswith("["):
        end = token.find("]")
        rest = token[end + 1 :]
        return end > 0 and _ip(token[1:end]) and (not rest or bool(_PORT.fullmatch(rest)))
    if _ip(token):
        return True
    host, colon, port = token.rpartition(":")
    return bool(colon) and port.isdigit() and _ip(host)


def redact_addresses(text: str) -> str:
    """Every IP address (with its port) in ``text`` replaced by ``<address>``."""

    def replace(match: re.Match[str]) -> str:
        token = match.group()
        core = token.rstrip(".:")
        return "<address>" + token[len(core) :] if _is_address(core) else token

    return _CANDIDATE.sub(replace, text)


class RedactAddresses(logging.Filter):
    """The safety net: no IP address in a library's log record, traceback included.

    The record's message is rendered, redacted and kept as its message (no arguments);
    its traceback is rendered and redacted into ``exc_text``, which formatters use.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if not _library(record.name):
            return True
        if isinstance(record.msg, str) and record.msg.startswith(OWN_ADDRESS):
            return True
        try:
            message = record.getMessage()
        except Exception:  # arguments that do not fit: the formatter will report it
            return True
        redacted = redact_addresses(message)
        if redacted != message:
            record.msg = redacted
            record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact_addresses(record.exc_text)
        if record.stack_info:
            record.stack_info = redact_addresses(record.stack_info)
        return True


def logging_config(*, whole_process: bool) -> dict[str, Any]:
    """The ``logging.config`` dictionary uvicorn applies: one stderr handler, filtered.

    ``whole_process``: the handler is the root's, so the app's and the libraries' records
    all go through it (``python -m tysiac.server``). Otherwise only uvicorn's loggers
    get it and the root is left alone (a server inside the test process).
    """
    handler = {
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stderr",
        "formatter": "plain",
        "filters": ["quiet", "redact"],
    }
    config: dict[str, Any] = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
        "filters": {
            "quiet": {"()": QuietConnections},
            "redact": {"()": RedactAddresses},
        },
        "handlers": {"console": handler},
    }
    if whole_process:
        config["root"] = {"level": "INFO", "handlers": ["console"]}
        config["loggers"] = {"uvicorn": {"handlers": [], "propagate": True}}
    else:
        config["loggers"] = {"uvicorn": {"handlers": ["console"], "propagate": False}}
    return config
