"""The ASGI app: the page, the JSON API, and its error handling (Starlette).

Every bad request gets a 4xx answer ``{"error": "<the one line the CLI prints>"}``; a request
is computed in a worker thread (the event loop keeps answering), and an abandoned one (the
page aborted it, the client went away) tells Monte Carlo to stop between chunks.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import threading
import time
from importlib import resources

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from oddsim._runtime import kernel_cache, strict_json
from oddsim.errors import OddsimError, one_line
from oddsim.model.battle import Battle, RetreatPolicy
from oddsim.model.options import OPTIONS
from oddsim.model.rules import builtin_names, load_ruleset
from oddsim.web.battle_requests import quick_battle_answer
from oddsim.web.capabilities import CAPABILITIES, JOB_ONLY, SPECS
from oddsim.web.connections import REQUEST_SECONDS, RequestLimit
from oddsim.web.game_requests import GAME_BODY_BYTES, GAME_FIELD, game_request, listing
from oddsim.web.guard import Allowed, LocalOnly
from oddsim.web.jobs import JobBoard
from oddsim.web.limits import (
    FETCHED_SECONDS,
    FINISHED_BYTES,
    FINISHED_SECONDS,
    JOBS_PER_ADDRESS,
    MAX_BODY_BYTES,
    MAX_JOBS_WAITING,
    SYNC_THREADS,
    WebError,
    check_field_sizes,
)
from oddsim.web.rules_requests import rules_request, ruleset_json

STATIC = resources.files("oddsim.web") / "static"
CLIENT_HEADER = "x-oddsim-client"
"""The page sends a random id per tab; other clients are told apart by address and port."""
INPUT_ERRORS = (OddsimError, TypeError, ValueError, KeyError, AttributeError, OverflowError,
                RecursionError)
"""What building a value from a JSON request may raise: all of them are bad input."""
QUICK = {"battle": quick_battle_answer}
"""Per endpoint, the answer when it is cheap (or None), computed on the event loop: a small
battle solves faster than a hand-off to a worker thread and back."""
QUICK_BODY_BYTES = 4 * 1024
"""A request longer than this, or with a ruleset's text, is never answered on the event loop
(parsing it there would hold every other request up): a small battle's request is a few hundred
bytes."""
GONE_LOG_SECONDS = 10.0
"""Clients that went away mid-request are logged in one line at most this often."""
LOG = logging.getLogger("uvicorn.error")


class ClientGone(WebError):
    """The client closed its connection before its request's body came whole (nobody reads the
    answer)."""


class _GoneLog:
    """One short line for clients that go away mid-upload, at most every ``GONE_LOG_SECONDS``
    (a traceback each was 3.1 KB, 2.8 MB of log a second from one client)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._next = 0.0
        self._unsaid = 0

    def gone(self, request: Request) -> None:
        with self._lock:
            self._unsaid += 1
            now = time.monotonic()
            if now < self._next:
                return
            count, self._unsaid, self._next = self._unsaid, 0, now + GONE_LOG_SECONDS
        LOG.warning("%s %s: the client went away before its request's body came whole%s",
                    request.method, request.url.path,
                    f" ({count - 1} more since the last such line)" if count > 1 else "")


GONE = _GoneLog()


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": one_line(message)}, status_code=status)


def _json(text: str, status: int = 200) -> Response:
    return Response(text, status_code=status, media_type="application/json")


async def _body(request: Request, most: int = MAX_BODY_BYTES, unsized: frozenset[str] = frozenset()) -> dict:
    """The request's JSON object, refused when longer than ``most`` bytes, not JSON, or not an
    object; its text fields but ``unsized`` (checked where they are read) checked for size."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > most):
        raise WebError(f"the request body is over {most // 1024} KiB", status=413)
    chunks, size = [], 0
    try:
        with anyio.fail_after(REQUEST_SECONDS):  # (a body that never comes holds a request slot)
            async for chunk in request.stream():
                size += len(chunk)
                if size > most:
                    raise WebError(f"the request body is over {most // 1024} KiB", status=413)
                chunks.append(chunk)
    except TimeoutError:
        raise WebError(f"the request body did not arrive within {REQUEST_SECONDS:g} s of its headers: "
                       f"send the whole request at once", status=408) from None
    except ClientDisconnect:
        GONE.gone(request)
        raise ClientGone("the client went away before its request's body came whole") from None
    raw = b"".join(chunks)
    request.state.body_bytes = len(raw)
    try:
        body = strict_json.loads(raw.decode("utf-8")) if raw.strip() else {}
    except (UnicodeDecodeError, strict_json.JSONInputError) as exc:
        raise WebError(f"the request body is not JSON oddsim takes: {exc}") from None
    if not isinstance(body, dict):
        raise WebError(f"the request body must be a JSON object of fields, not {type(body).__name__}")
    check_field_sizes({key: value for key, value in body.items() if key not in unsized})
    return body


async def _compute(request: Request, work) -> Response:
    """Run ``work(progress)`` in a thread; if the client goes away, progress says stop."""
    stop = threading.Event()

    async def watch() -> None:
        while not stop.is_set():
            if await request.is_disconnected():
                stop.set()
                return
            await anyio.sleep(0.05)

    text: str = ""
    error: Exception | None = None
    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        try:
            stopping = request.app.state.stopping
            text = await anyio.to_thread.run_sync(
                work, lambda done, total: stop.is_set() or stopping.is_set(),
                limiter=request.app.state.limiter)
        except Exception as exc:  # noqa: BLE001 - raised below, outside the task group
            error = exc
        finally:
            stop.set()
            group.cancel_scope.cancel()
    if error is not None:
        raise error
    return _json(text)


def _capability(name: str):
    run = CAPABILITIES[name]

    quick = QUICK.get(name)

    async def endpoint(request: Request) -> Response:
        body = await _body(request)
        if quick is not None and request.state.body_bytes <= QUICK_BODY_BYTES and "ruleset_toml" not in body:
            text = _checked(lambda b, p: quick(b), body, None)
            if text is not None:
                return _json(text)
        return await _compute(request, lambda progress: _checked(run, body, progress))

    endpoint.__name__ = f"post_{name}"
    endpoint.__doc__ = run.__doc__
    return endpoint


def _checked(run, body, progress) -> str:
    """``run`` with every input error as an OddsimError (its message is the answer)."""
    try:
        return run(body, progress)
    except OddsimError:
        raise
    except INPUT_ERRORS as exc:
        raise WebError(f"bad request: {exc}") from None


async def index(request: Request) -> Response:
    return FileResponse(str(STATIC / "index.html"))


async def rules_list(request: Request) -> Response:
    return JSONResponse({"editions": [{"name": name, "title": load_ruleset(name).title}
                                      for name in builtin_names()]})


async def rules_show(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in builtin_names():
        raise WebError(f"unknown edition {name!r}: use one of {', '.join(builtin_names())}",
                       status=404)
    return JSONResponse(ruleset_json(load_ruleset(name)))


async def game_get(request: Request) -> Response:
    """``GET /api/game``: the game ``oddsim serve --game FILE`` serves, listed."""
    token = request.app.state.game
    if token is None:
        raise WebError("no game is served: pick a game file on the page, or start oddsim serve --game FILE",
                       status=404)
    return await _compute(request, lambda progress: _checked(lambda _, p: listing(token, None, p), {},
                                                             progress))


async def game_post(request: Request) -> Response:
    """``POST /api/game``: a game file sent by the page (or a game read before), listed."""
    body = await _body(request, GAME_BODY_BYTES, frozenset({GAME_FIELD}))
    return await _compute(request, lambda progress: _checked(game_request, body, progress))


async def rules_post(request: Request) -> Response:
    body = await _body(request)
    return await _compute(request, lambda progress: _checked(rules_request, body, progress))


def _client(request: Request) -> str:
    given = request.headers.get(CLIENT_HEADER)
    if given:
        return given[:64]
    host = request.client
    return f"{host.host}:{host.port}" if host else "unknown"


async def job_create(request: Request) -> Response:
    kind = request.path_params["kind"]
    if kind not in CAPABILITIES:
        raise WebError(f"unknown job kind {kind!r}: use {', '.join(CAPABILITIES)}", status=404)
    body = await _body(request)
    run = CAPABILITIES[kind]
    await anyio.to_thread.run_sync(_validate, kind, body, limiter=request.app.state.limiter)
    address = request.client.host if request.client else "unknown"
    job = request.app.state.jobs.submit(kind, _client(request), address,
                                        lambda progress: _checked(run, body, progress))
    return _json(job.to_json(), status=202)


def _validate(kind: str, body: dict) -> None:
    """Refuse a bad job at once (400), not after it was queued."""
    check = SPECS[kind]
    _checked(lambda b, p: check(b), body, None)


async def job_get(request: Request) -> Response:
    job = request.app.state.jobs.get(request.path_params["job_id"])
    return _json(job.to_json())


async def job_cancel(request: Request) -> Response:
    job = request.app.state.jobs.cancel(request.path_params["job_id"])
    return _json(job.to_json())


async def api_index(request: Request) -> Response:
    """What the API offers, each endpoint with its first docstring line."""
    routes = {f"POST /api/{name}": (run.__doc__ or "").split("\n")[0]
              for name, run in CAPABILITIES.items() if name not in JOB_ONLY}
    routes.update({
        "GET /api/rules": "the built-in editions",
        "GET /api/rules/{name}": "an edition's units, technologies and rules",
        "POST /api/rules": "a user's ruleset, sent as {\"ruleset_toml\": text}, checked and described",
        "GET /api/game": "the battles of the game oddsim serve --game FILE serves",
        "POST /api/game": "a TripleA game file's battles, sent as {\"game_base64\": its bytes, \"name\": "
                          "its name, \"attacker\": the player attacking at sea}; the answer's game "
                          "token is a ruleset: {\"game\": token} where a request takes rules",
        "POST /api/jobs/{kind}": f"start a job ({', '.join(CAPABILITIES)}): purchase sweeps, "
                                 f"Longest Trench advice (advise: oddsim trench advise's "
                                 f"options), plans (plan: oddsim plan's options), long Monte "
                                 f"Carlo; one unfinished job per client "
                                 f"(X-Oddsim-Client), {JOBS_PER_ADDRESS} per client address, "
                                 f"{MAX_JOBS_WAITING} in all; the answer's id is unguessable and "
                                 f"only its holder can read or cancel the job",
        "GET /api/jobs/{id}": f"a job's state, progress (done of total) and result; a finished "
                              f"job is kept {FINISHED_SECONDS / 60:g} minutes after it ends or "
                              f"{FETCHED_SECONDS:g} s after its result was first read (then 404), "
                              f"all finished results within {FINISHED_BYTES // 2**20} MiB (the "
                              f"oldest go first)",
        "DELETE /api/jobs/{id}": "cancel a job",
    })
    return JSONResponse({"endpoints": routes, "errors": "4xx with {\"error\": \"<one line>\"}",
                         "requests": "answered only when the Host names this server (127.0.0.1, "
                                     "localhost, [::1] or its --host; else 421); POST and DELETE "
                                     "from another Origin are refused (403); a POST body is "
                                     "application/json (415); a connection that sends no whole "
                                     f"request within {REQUEST_SECONDS:g} s is closed",
                         "battle_fields": _field_types(Battle),
                         "retreat_fields": _field_types(RetreatPolicy),
                         "battle_options": _declared_options()})


def _field_types(value_type: type) -> dict[str, str]:
    """A dataclass's fields and their annotations: the page shows an input for each field it
    does not know yet (options added to ``Battle`` after the page was written)."""
    return {f.name: str(f.type) for f in dataclasses.fields(value_type) if f.init}


def _declared_options() -> dict[str, dict[str, object]]:
    """The battle options as ``oddsim.model.options`` declares them (their flag, kind, choices
    and help): the page builds its choice of each from these (the Purchase and Plan tabs' casualty
    goal), not from a copy of its own."""
    return {o.name: {"flag": o.flag, "kind": o.kind.value, "choices": list(o.choices), "help": o.help}
            for o in OPTIONS if o.on_command_line}


async def _oddsim_error(request: Request, exc: Exception) -> Response:
    return _error(str(exc), getattr(exc, "status", 400))


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    where = f"{request.method} {request.url.path}"
    message = {404: f"no such endpoint: {where} (GET /api lists them)",
               405: f"{where}: method not allowed (GET /api lists the endpoints)"}
    return _error(message.get(exc.status_code, str(exc.detail)), exc.status_code)


async def _internal_error(request: Request, exc: Exception) -> Response:
    if kernel_cache.damaged(exc):  # (no fault of the request's: 503, the fix in its line)
        return _error(f"{kernel_cache.DAMAGED}, then restart oddsim serve", 503)
    return _error(f"internal error: {type(exc).__name__}: {exc}", 500)


def create_app(jobs: JobBoard | None = None, host: str = "127.0.0.1", port: int | None = None,
               game: str | None = None) -> Starlette:
    """The app for a server bound to ``host`` (and ``port``: None, any), which answers only
    requests that name it (``oddsim.web.guard``); ``game``: the token of the game it serves
    (``oddsim.web.game_requests.keep_game``); the caller warms the engines
    (``oddsim.web.warm_up.warm_up``) before serving."""
    routes = [
        Route("/", index),
        Route("/api", api_index),
        Route("/api/rules", rules_list),
        Route("/api/rules", rules_post, methods=["POST"]),
        Route("/api/rules/{name}", rules_show),
        Route("/api/game", game_get),
        Route("/api/game", game_post, methods=["POST"]),
        *(Route(f"/api/{name}", _capability(name), methods=["POST"]) for name in CAPABILITIES
          if name not in JOB_ONLY),
        Route("/api/purchase", _purchase_job, methods=["POST"]),
        Route("/api/jobs/{kind}", job_create, methods=["POST"]),
        Route("/api/jobs/{job_id}", job_get),
        Route("/api/jobs/{job_id}", job_cancel, methods=["DELETE"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    board = jobs or JobBoard()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        app.state.limiter = anyio.CapacityLimiter(SYNC_THREADS)  # needs the running loop
        yield
        board.shutdown()

    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(RequestLimit), Middleware(LocalOnly, allowed=Allowed(host, port))],
                    exception_handlers={OddsimError: _oddsim_error, HTTPException: _http_error,
                                        Exception: _internal_error})
    app.state.jobs = board
    app.state.game = game
    app.state.stopping = threading.Event()
    return app


def stop_work(app: Starlette) -> None:
    """The server is stopping: every request's Monte Carlo and every job stop at their next
    chunk (Ctrl-C, SIGTERM)."""
    app.state.stopping.set()
    app.state.jobs.cancel_all()


async def _purchase_job(request: Request) -> Response:
    """``POST /api/purchase`` starts a purchase job (as ``POST /api/jobs/purchase``)."""
    request.path_params["kind"] = "purchase"
    return await job_create(request)
