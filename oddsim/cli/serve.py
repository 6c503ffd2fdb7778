"""``oddsim serve``: the local web app."""

from __future__ import annotations

import click

from oddsim.errors import OddsimError


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (another than loopback only when you mean it).")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
@click.option("--game", "game_file", type=click.Path(dir_okay=False), default=None,
              help="A TripleA game file whose battles the page's Game tab lists (read once, at start).")
def serve(host, port, open_browser, game_file) -> None:
    """A local web app: the page and a JSON API, with the engines kept warm."""
    try:
        from oddsim.web import serve as run_server
    except ImportError as exc:
        raise OddsimError(f"oddsim serve needs {exc.name}: pip install oddsim (or pip install "
                          f"starlette uvicorn)") from None
    run_server(host=host, port=port, open_browser=open_browser, say=click.echo, game=game_file)

