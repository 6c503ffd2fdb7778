"""``oddsim serve``: a local web app with the engines kept warm, a page and a JSON API.

``create_app`` builds the ASGI app (Starlette); ``serve`` warms the engines and runs it on
uvicorn. The page (``static/``) is plain HTML, CSS and JavaScript: no build step, no network.
"""

from __future__ import annotations

from oddsim.web.app import create_app
from oddsim.web.server import serve

__all__ = ["create_app", "serve"]
