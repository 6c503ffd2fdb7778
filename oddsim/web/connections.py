"""Connections and load: idle sockets are closed, overload is the API's one JSON line.

uvicorn's own ``limit_concurrency`` counts open connections, and its keep-alive timer starts only
after a response, so about 511 sockets that send nothing locked every user out with a
plain-text 503. Here instead:

- ``IdleClosing`` (the HTTP protocol) arms the timer when a connection opens and keeps it
  running until a whole request's headers have arrived: a connection that sends no complete
  request within ``REQUEST_SECONDS`` (nothing at all, or headers a byte at a time) is closed,
  as is a kept-alive one idle that long after its answer. Idle connections cost a socket
  each until then and never a place of a real request.
- ``RequestLimit`` (ASGI middleware) counts requests being answered, not connections: past
  ``MAX_REQUESTS`` at once a request gets 503 with ``{"error": "..."}``.
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
    """uvicorn's h11 protocol, its keep-alive timer armed from the start (see the module)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive,
                                                            self.timeout_keep_alive_handler)

    def data_received(self, data: bytes) -> None:
        # uvicorn stops the timer on any byte; here it runs on until a request's headers are
        # whole (``handle_events`` stops it on the request)
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
