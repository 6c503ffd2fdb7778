"""Connections and load: idle sockets are closed, overload is the API's one JSON line.

uvicorn's keep-alive timer starts only after a response, and no public option of its ``Config``
closes a connection that never sends a request (uvicorn 0.55, ``timeout_keep_alive=5``, with h11,
``h11_max_incomplete_event_size`` or httptools: none of 40 idle sockets closed in 12 s, nor one
sending headers a byte at a time), so ``IdleClosing``, the one subclass of a uvicorn internal
left (pinned to the uvicorn minor tested), arms that timer when a connection opens and keeps it
running until a request's headers are whole. ``RequestLimit`` (ASGI
middleware) counts requests being answered, not sockets: past ``MAX_REQUESTS`` a 503 JSON line.
"""

from __future__ import annotations

import asyncio

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from oddsim.errors import one_line

REQUEST_SECONDS = 5.0
"""A connection must send a whole request's headers this soon after it opens (or after its
last answer), else it is closed."""
MAX_REQUESTS = 256
"""Requests answered at once; one more gets 503 until one ends."""


class IdleClosing(H11Protocol):
    """uvicorn's h11 protocol, its keep-alive timer armed from the start."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive,
                                                            self.timeout_keep_alive_handler)

    def data_received(self, data: bytes) -> None:
        # (uvicorn stops the timer on any byte; ``handle_events`` stops it on a whole request)
        self.conn.receive_data(data)
        self.handle_events()


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
