"""Run the app on uvicorn: bind (loopback unless asked), say where, serve at once while the
engines warm in the background."""

from __future__ import annotations

import ipaddress
import socket
import threading
import webbrowser
from collections.abc import Callable

import uvicorn

from oddsim.web.connections import REQUEST_SECONDS, HeadersDeadline
from oddsim.web.guard import host_name
from oddsim.web.limits import WebError

LOOPBACK = "127.0.0.1"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(host: str = LOOPBACK, port: int = 8765, open_browser: bool = False,
          say: Callable[[str], None] = print, game: str | None = None) -> None:
    """Serve until Ctrl-C, warming the engines meanwhile; ``game``: a TripleA game file whose
    battles the page lists (read first: a file that cannot be read stops here, in one line)."""

    from oddsim.web.app import create_app
    from oddsim.web.game_requests import keep_game, load_served_game
    from oddsim.web.warm_up import warm_in_background

    token = keep_game(*load_served_game(game), pinned=True) if game is not None else None
    if not is_loopback(host):
        say(f"oddsim serve: warning: listening on {host}, not loopback: anyone who can reach "
            f"this machine can use the server (it has no login)")
    listening = _listen(host, port)  # a busy port fails now
    url = page_url(host, listening.getsockname()[1])
    say(f"oddsim serve: serving {url} (Ctrl-C stops)")
    warm_in_background(say)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server_for(create_app(host=host, port=listening.getsockname()[1], game=token)).run(sockets=[listening])


def page_url(host: str, port: int) -> str:
    """The address a browser opens for a server bound to ``host``: loopback for a wildcard bind,
    an IPv6 address in brackets (``http://[::1]:8765/``; without them a browser reads a port)."""
    return f"http://{host_name('127.0.0.1' if host in ('0.0.0.0', '::', '') else host)}:{port}/"


def server_for(app, **config) -> uvicorn.Server:
    """The uvicorn server ``oddsim serve`` runs ``app`` on (``config``: more ``uvicorn.Config``
    options, e.g. a host and port for a test): idle connections closed (``connections``), no
    limit counted in sockets, and a stop on Ctrl-C or SIGTERM that stops the app's work too."""
    return _Server(uvicorn.Config(app, log_level="warning", http=HeadersDeadline, limit_concurrency=None,
                                  timeout_keep_alive=int(REQUEST_SECONDS),
                                  timeout_graceful_shutdown=int(SHUTDOWN_SECONDS), **config), app)


SHUTDOWN_SECONDS = 5.0
"""After Ctrl-C or SIGTERM, requests still being answered get this long (every Monte Carlo
run stops at its next chunk, so they end sooner); then the server stops anyway."""


class _Server(uvicorn.Server):
    """uvicorn's server, which on Ctrl-C or SIGTERM first tells the app's work to stop."""

    def __init__(self, config: uvicorn.Config, app) -> None:
        super().__init__(config)
        self.app = app

    def handle_exit(self, sig: int, frame) -> None:
        from oddsim.web.app import stop_work

        stop_work(self.app)
        super().handle_exit(sig, frame)


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; WebError in one line when that is impossible."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        listening = socket.socket(family, kind, proto)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
        listening.listen(2048)
    except OSError as exc:
        raise WebError(f"cannot listen on {host}:{port}: {exc.strerror or exc}: choose another "
                       f"--port or --host") from None
    return listening
