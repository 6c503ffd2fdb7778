"""Run the app on uvicorn: bind (loopback unless asked), say where, serve at once while the
engines warm in the background."""

from __future__ import annotations

import ipaddress
import socket
import threading
import webbrowser
from collections.abc import Callable

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
          say: Callable[[str], None] = print) -> None:
    """Serve until Ctrl-C, warming the engines meanwhile."""
    import uvicorn

    from oddsim.web.app import create_app
    from oddsim.web.engines import warm_in_background

    if not is_loopback(host):
        say(f"oddsim serve: warning: listening on {host}, not loopback: anyone who can reach "
            f"this machine can use the server (it has no login)")
    listening = _listen(host, port)  # a busy port fails now
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    say(f"oddsim serve: serving {url} (Ctrl-C stops)")
    warm_in_background(say)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    config = uvicorn.Config(create_app(), log_level="warning", limit_concurrency=512,
                            timeout_keep_alive=30)
    uvicorn.Server(config).run(sockets=[listening])


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
