"""A server for the web tests: the app in-process (TestClient), or on a real port (uvicorn)."""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time
import urllib.parse
import warnings

import pytest

pytest.importorskip("starlette")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
"""Debian's chromium, which Playwright drives (it never downloads a browser); None where absent."""


@pytest.fixture(scope="session")
def browser():
    """One chromium for every browser test (each test opens its own pages)."""
    if CHROMIUM is None:
        pytest.skip("no chromium on this machine: apt-get install chromium (CI does)")
    from playwright import sync_api

    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM,
                                              args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def client():
    """The app behind Starlette's test client (no socket), engines warm after the first call."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # starlette: "install httpx2" (httpx works)
        from starlette.testclient import TestClient
    from oddsim.web import create_app

    with TestClient(create_app(), base_url="http://127.0.0.1") as test_client:
        yield test_client


@pytest.fixture(scope="session")
def live_server():
    """The app on uvicorn on a free loopback port, in a thread; yields its base URL."""
    import uvicorn

    from oddsim.web import create_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    # the app warms its engines before it serves: with an empty kernel cache on a busy machine
    # that is compiling, which took over a minute once
    deadline = time.monotonic() + 240
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def page(browser, live_server):
    """A page of its own at 1200x1000 (``page.base``: the live server), failing its test on a
    script error; test files that open the page otherwise define their own."""
    context = browser.new_context(viewport={"width": 1200, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.base = live_server
    yield page
    context.close()
    assert not errors, errors


def paste_link(page, tab: str, req: dict) -> None:
    """Open ``tab`` with the request ``req`` as a pasted link does, returning once the page has
    taken the link: from then on nothing it asked before lands, and an answer still in sight is
    marked stale, so the next answer marked done is the link's (a wait for "done" begun earlier
    could be met by the answer before it)."""
    taken = page.evaluate("""hash => {
        if (!('linksTaken' in window)) {  // (a listener after the page's own: the link taken)
            window.linksTaken = 0;
            window.addEventListener('hashchange', () => { window.linksTaken += 1; });
        }
        if (location.hash === hash) history.replaceState(null, '', '#');  // (the same link again)
        location.hash = hash;
        return window.linksTaken; }""", f"#{tab}=" + urllib.parse.quote(json.dumps(req)))
    page.wait_for_function("n => window.linksTaken > n", arg=taken, timeout=30_000)
