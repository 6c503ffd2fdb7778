"""Run the app on uvicorn: warm the engines, bind (loopback unless asked), say where."""

from __future__ import annotations

import ipaddress
import threading
import webbrowser
from collections.abc import Callable

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
    """Warm the engines, then serve until Ctrl-C."""
    import uvicorn

    from oddsim.web.app import create_app
    from oddsim.web.engines import warm_up

    if not is_loopback(host):
        say(f"oddsim serve: warning: listening on {host}, not loopback: anyone who can reach "
            f"this machine can use the server (it has no login)")
    seconds = warm_up(say)
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    say(f"oddsim serve: engines ready in {seconds:.1f} s; serving {url} (Ctrl-C stops)")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(create_app(), host=host, port=port, log_level="warning",
                limit_concurrency=512, timeout_keep_alive=30)
