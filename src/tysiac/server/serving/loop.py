"""The event loop: backing off calmly when accept() runs out of file descriptors.

asyncio's own handling of that case (Python 3.11's
``BaseSelectorEventLoop._accept_connection``) neither stops its loop nor limits its
logging: each readiness of the listener made it try ``backlog`` (2048) more accepts,
each logging a 6-line traceback through the loop's exception handler and scheduling one
more retry - about 2048 records a second (CPython gh-151615). This loop pauses the
listener for a moment instead and says so at most once a minute. It overrides private
methods of asyncio's selector loop (marked ``type: ignore``); ``test_connections.py``
checks the behaviour on every run.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
from collections.abc import Callable
from typing import Any

from tysiac.server.serving.logs import LogEvery, held_back

log = logging.getLogger(__name__)

ACCEPT_RETRY_SECONDS = 0.5  # pause of a listener that ran out of file descriptors


_OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
ACCEPT_FAILED = "socket.accept() out of system resource"  # asyncio's message for it


class _OutOfResources(Exception):
    """Not an OSError, so that it leaves asyncio's accept loop instead of being logged."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error)
        self.error = error


class _Listener:
    """The listening socket as asyncio's accept loop sees it: EMFILE & co. end the loop."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock

    def accept(self) -> tuple[socket.socket, Any]:
        try:
            return self._sock.accept()
        except OSError as error:
            if error.errno in _OUT_OF_RESOURCES:
                raise _OutOfResources(error) from None
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


class ServingEventLoop(asyncio.SelectorEventLoop):
    """asyncio's selector loop, pausing a listener calmly when descriptors run out.

    When ``accept()`` fails for lack of descriptors the listener stops being polled
    for ``ACCEPT_RETRY_SECONDS`` and then tries again, so it recovers by itself once
    connections close; one log line a minute at most says so. (asyncio's code does the
    pause too, but keeps looping after it: see the module's docstring.)
    """

    def __init__(self) -> None:
        super().__init__()
        self._descriptors = LogEvery()

    def _accept_connection(
        self,
        protocol_factory: Callable[[], asyncio.BaseProtocol],
        sock: socket.socket,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        # args, kwargs: as asyncio's _start_serving passes them on (sslcontext, server,
        # backlog, the handshake timeouts…); they differ between Python versions.
        try:
            super()._accept_connection(  # type: ignore[misc]
                protocol_factory, _Listener(sock), *args, **kwargs
            )
        except _OutOfResources as out:
            self._remove_reader(sock.fileno())  # type: ignore[attr-defined]
            self.call_later(
                ACCEPT_RETRY_SECONDS, self._resume_accepting, protocol_factory, sock, args, kwargs
            )
            self._out_of_descriptors(out.error)

    def _resume_accepting(
        self,
        protocol_factory: Callable[[], asyncio.BaseProtocol],
        sock: socket.socket,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> None:
        server = args[1] if len(args) > 1 else kwargs.get("server")
        if sock.fileno() < 0 or (server is not None and not server.is_serving()):
            return  # the server closed meanwhile
        self._start_serving(protocol_factory, sock, *args, **kwargs)  # type: ignore[attr-defined]

    def _out_of_descriptors(self, error: BaseException | None) -> None:
        if (held := self._descriptors.allow()) is not None:
            reason = error.strerror if isinstance(error, OSError) else "out of resources"
            log.warning(
                "accept() failed (%s): not accepting connections for %.1f s at a time"
                " until descriptors are free%s",
                reason,
                ACCEPT_RETRY_SECONDS,
                held_back(held),
            )

    def default_exception_handler(self, context: dict[str, Any]) -> None:
        # Should asyncio report the accept failure itself after all, one line a minute.
        if context.get("message") == ACCEPT_FAILED:
            self._out_of_descriptors(context.get("exception"))
            return
        super().default_exception_handler(context)
