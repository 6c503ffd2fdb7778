"""Connections and load: idle sockets are closed, overload is the API's one JSON line.

uvicorn's keep-alive timer starts only after a response, and no option of its ``Config`` closes
a connection that never sends a request (uvicorn 0.55, ``timeout_keep_alive=5``, with h11,
``h11_max_incomplete_event_size`` or httptools: none of 40 idle sockets closed in 12 s, nor one
sending headers a byte at a time). ``HeadersDeadline`` is the HTTP protocol uvicorn runs
(``Config(http=...)`` takes any ``asyncio.Protocol`` class): it holds uvicorn's own h11 protocol
and hands it every event unchanged, through the ``asyncio.Protocol`` methods alone (no uvicorn
attribute is read or set), and closes the connection when its first request's headers are not
whole ``REQUEST_SECONDS`` after it opened; after an answer uvicorn's public
``timeout_keep_alive`` closes an idle connection. (Narrower than the h11 subclass it replaces:
a connection answered once that then trickles its next request's headers a byte at a time is
not cut off, since uvicorn stops its timer on any byte; it holds a socket, not a request
slot.) A body withheld after its headers is the app's to time out (408, ``oddsim.web.app``).
``RequestLimit`` (ASGI middleware) counts requests being answered, not sockets: past
``MAX_REQUESTS`` a 503 JSON line.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.config import HTTP_PROTOCOLS
from uvicorn.importer import import_from_string

from oddsim.errors import one_line

REQUEST_SECONDS = 5.0
"""A connection must send a whole request's headers this soon after it opens (or after its
last answer), else it is closed."""
MAX_REQUESTS = 256
"""Requests answered at once; one more gets 503 until one ends."""


HEADERS_END = b"\r\n\r\n"
STOCK_PROTOCOL: type[asyncio.Protocol] = import_from_string(HTTP_PROTOCOLS["h11"])
"""uvicorn's h11 protocol, as ``uvicorn.Config(http="h11")`` names it."""


class HeadersDeadline(asyncio.Protocol):
    """uvicorn's h11 protocol (held, not subclassed), closed when its first request's headers
    are not whole ``REQUEST_SECONDS`` after the connection opened."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.inner: Any = STOCK_PROTOCOL(*args, **kwargs)  # (uvicorn's arguments, passed on unread)
        self.transport: asyncio.BaseTransport | None = None
        self.deadline: asyncio.TimerHandle | None = None
        self.tail = b""  # the last bytes received, while the headers are not yet whole

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.deadline = asyncio.get_running_loop().call_later(REQUEST_SECONDS, self._too_late)
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.deadline is not None:
            seen = self.tail + data
            if HEADERS_END in seen:
                self._disarm()
            else:
                self.tail = seen[-(len(HEADERS_END) - 1):]
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_late(self) -> None:
        self.deadline = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()


class RequestLimit:
    """ASGI middleware: at most ``limit`` HTTP requests in the app at once, the rest 503."""

    def __init__(self, app: ASGIApp, limit: int = MAX_REQUESTS) -> None:
        self.app = app
        self.limit = limit
        self.active = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.active >= self.limit:
            message = f"the server is busy ({self.active} requests at once): try again in a moment"
            await JSONResponse({"error": one_line(message)}, status_code=503,
                               headers={"retry-after": "1"})(scope, receive, send)
            return
        self.active += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.active -= 1
