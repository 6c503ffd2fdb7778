"""Who may ask: only requests made to this server by name, and changes only from its own page.

A web page the user opens elsewhere must not drive the local server:

- **Host** (DNS rebinding: a hostile name that resolves to 127.0.0.1 would make the server the
  page's own origin): only a Host that names the bound address is answered, ``127.0.0.1``,
  ``localhost``, ``[::1]`` or the ``--host`` given, with or without the server's port; any
  other gets 421.
- **Origin**: a request that changes something (POST, DELETE ...) whose ``Origin`` is there and
  is not the server's own (``http://`` and an allowed Host) gets 403. A browser always sends the
  Origin of a cross-site POST; ``curl`` and scripts send none.
- **Content type**: a POST body must be ``application/json`` (415): a cross-site form or a
  ``text/plain`` fetch, which a browser sends without asking first, is never one.

Each refusal is the API's one line, ``{"error": "..."}``.
"""

from __future__ import annotations

import socket

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from oddsim.errors import one_line

LOCAL_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
JSON_TYPE = "application/json"


def host_name(host: str) -> str:
    """``host`` as a Host header names it: lower case, an IPv6 address in brackets."""
    host = host.lower().rstrip(".")
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


class Allowed:
    """The Hosts that name this server: the loopback names, ``host`` and, for a wildcard bind
    (``0.0.0.0``, ``::``), this machine's name; with ``port``, only that port (or none)."""

    def __init__(self, host: str = "127.0.0.1", port: int | None = None) -> None:
        names = set(LOCAL_NAMES) | {host_name(host)}
        if host in ("0.0.0.0", "::", ""):
            names |= {host_name(socket.gethostname()), host_name(socket.getfqdn())}
        self.names = frozenset(names)
        self.port = port

    def __contains__(self, value: str) -> bool:
        """Whether ``value`` (``name`` or ``name:port``, as a Host header) names this server."""
        value = value.strip().lower()
        name, port = value, None
        if value.startswith("["):  # [::1] or [::1]:8765
            end = value.find("]")
            name, rest = value[:end + 1], value[end + 1:]
            if rest:
                if not rest.startswith(":"):
                    return False
                port = rest[1:]
        elif ":" in value:
            name, port = value.rsplit(":", 1)
        if port is not None and not (port.isdigit() and port.isascii()
                                     and (self.port is None or int(port) == self.port)):
            return False
        return name.rstrip(".") in self.names


class LocalOnly:
    """ASGI middleware refusing what the module docstring lists, before any route runs."""

    def __init__(self, app: ASGIApp, allowed: Allowed) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = self.refusal(scope["method"], Headers(scope=scope))
            if refusal is not None:
                message, status = refusal
                await JSONResponse({"error": one_line(message)}, status_code=status)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refusal(self, method: str, headers: Headers) -> tuple[str, int] | None:
        """(the error line, the status) of a request refused, or None."""
        host = headers.get("host", "")
        if host not in self.allowed:
            return (f"this server answers only requests to {', '.join(sorted(self.allowed.names))}, "
                    f"not to host {host!r}", 421)
        if method in SAFE_METHODS:
            return None
        origin = headers.get("origin")
        if origin is not None and not (origin.startswith("http://")
                                       and origin.removeprefix("http://") in self.allowed):
            return f"{method} from another site ({origin!r}) is refused: use this server's own page", 403
        if method == "POST":
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if media != JSON_TYPE:
                return (f"a POST body must be {JSON_TYPE}, not {media or 'untyped'}: send a JSON object "
                        f"with Content-Type: {JSON_TYPE}", 415)
        return None
