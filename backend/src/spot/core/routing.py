"""How a route runs: its kind (DESIGN §4) decides where the handler runs and how its transaction
ends, so that a route author picks a kind instead of remembering the rules behind it.

- write (POST, PUT, PATCH, DELETE by default): on the event loop, one transaction committed once the
  response is ready, rolled back on error;
- read (GET by default): the same, one transaction; what it writes goes or stays with the answer;
- hot read (`@hot_read`): a measured fast path (subject page, zones, pictograms, list pages). On
  PostgreSQL each statement is its own transaction (no BEGIN or COMMIT round trip); it may write one
  statement at most, the tracking of its read (tests/core/test_route_kinds.py runs each one and counts);
  list pages (querylang.lists) also wait for PostgreSQL in the thread pool;
- work (`@work`): a plain `def` run in a worker thread, for what takes long (imports, uploads, exports,
  reports). The session lookup's transaction ends first; the handler's `DB` then begins its own
  transaction in the worker, which commits there. A streamed body opens its own session (streamed).
"""

import contextvars
import inspect
from collections.abc import Callable, Coroutine, Iterator, MutableMapping
from enum import StrEnum
from typing import Any, TypeVar

from fastapi import APIRouter, Request, Response
from fastapi.routing import APIRoute
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool
from starlette.convertors import StringConvertor, register_url_convertor

from spot.core.errors import ERROR_RESPONSES
from spot.db import REQUEST_SESSION, end_request, reopen, session_factory

API_PREFIX = "/backend/api/v2"


class Kind(StrEnum):
    write = "write"
    read = "read"
    hot_read = "hot read"
    work = "work"


_KIND = "spot_route_kind"
E = TypeVar("E", bound=Callable[..., Any])


def _marked(kind: Kind) -> Callable[[E], E]:
    def mark(endpoint: E) -> E:
        setattr(endpoint, _KIND, kind)
        return endpoint

    return mark


hot_read = _marked(Kind.hot_read)
work = _marked(Kind.work)

_DEFAULT_KINDS = {"GET": Kind.read, "HEAD": Kind.read, "POST": Kind.write, "PUT": Kind.write}
_DEFAULT_KINDS |= {"PATCH": Kind.write, "DELETE": Kind.write}


def kind_of(endpoint: Callable[..., Any], methods: set[str]) -> Kind:
    """The route's kind: as marked, else its method's. A route whose kind cannot be told is refused
    when the app is built."""
    marked = getattr(endpoint, _KIND, None)
    if marked is not None:
        return Kind(marked)
    kinds = {_DEFAULT_KINDS.get(method) for method in methods}
    if len(kinds) != 1 or None in kinds:
        raise ValueError(f"{endpoint.__name__}: no route kind for the methods {sorted(methods)}")
    kind = kinds.pop()
    assert kind is not None
    return kind


# The scope of the request whose work route is being called (set by SpotRoute around the call).
_WORK_SCOPE: contextvars.ContextVar[MutableMapping[str, Any]] = contextvars.ContextVar("spot_work_scope")


def _in_worker(endpoint: Callable[..., Any]) -> Callable[..., Coroutine[Any, Any, Any]]:
    """A work route's handler: the session lookup's transaction ends on the loop, then the handler
    runs in the thread pool, where the session (if the handler uses it) begins, commits or rolls back,
    and closes."""

    async def call(**values: Any) -> Any:
        scope = _WORK_SCOPE.get()
        session: Session | None = scope.get(REQUEST_SESSION)
        end_request(scope, commit=True)
        if session is not None:
            reopen(session)

        def unit() -> Any:
            try:
                result = endpoint(**values)
                if session is not None:
                    session.commit()
                return result
            except BaseException:
                if session is not None:
                    session.rollback()
                raise
            finally:
                if session is not None:
                    session.close()

        return await run_in_threadpool(unit)

    return call


class SpotRoute(APIRoute):
    """A route of the API, run as its kind says. Once the response is ready it commits the request's
    transaction (or rolls it back when it fails) and closes its session, if the route opened one
    (db.request_db)."""

    ends_request_session = True

    def __init__(self, path: str, endpoint: Callable[..., Any], **options: Any) -> None:
        methods = {m.upper() for m in options.get("methods") or ["GET"]}
        self.kind = kind_of(endpoint, methods)
        is_coroutine = inspect.iscoroutinefunction(endpoint)
        if self.kind is Kind.work and is_coroutine:
            raise ValueError(f"{endpoint.__name__}: a work route is a plain def (it runs in a worker thread)")
        if self.kind is not Kind.work and not is_coroutine:
            # A plain def would run in FastAPI's thread pool with the request's session, whose
            # transaction the route ends on the loop: only work routes run off the loop.
            raise ValueError(f"{endpoint.__name__}: a {self.kind} route is a coroutine (async def)")
        super().__init__(path, endpoint, **options)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        if self.kind is Kind.work and self.dependant.call is self.endpoint:
            self.dependant.call = _in_worker(self.endpoint)
        handle = super().get_route_handler()
        is_work = self.kind is Kind.work

        async def handle_in_transaction(request: Request) -> Response:
            token = _WORK_SCOPE.set(request.scope) if is_work else None
            try:
                response = await handle(request)
            except BaseException:
                end_request(request.scope, commit=False)
                raise
            finally:
                if token is not None:
                    _WORK_SCOPE.reset(token)
            end_request(request.scope, commit=True)
            return response

        return handle_in_transaction


class _IdSegment(StringConvertor):
    """`{name:id}` in an address: a segment holding a digit, handed on as written for the route's `Id`
    parameter to read (422 invalidId unless plain digits in range). The words of the API's addresses
    hold none, so `/training/path/{trainingPathId:id}` never matches `/training/path/query`, which
    another router serves. Starlette's `int` convertor would keep them apart too, but it parses the
    digits before the route runs, and Python refuses to read more than 4,300 of them: a 500. What comes
    before the first digit holds none, so a long segment that fails to match is given up in one pass,
    not retried at every digit (what that cost is in docs/performance.md, "How requests run")."""

    regex = "[^/0-9]*[0-9][^/]*"


register_url_convertor("id", _IdSegment())


def streamed(produce: Callable[[Session], Iterator[bytes]]) -> Iterator[bytes]:
    """The body of a streamed response that reads the database: `produce` gets a session of its own,
    opened when the body starts and closed when it ends (the request's is closed by then). A plain
    iterator: Starlette runs each step in the thread pool."""
    with session_factory()() as db:
        try:
            yield from produce(db)
            db.commit()
        except BaseException:
            db.rollback()
            raise


def api_router(prefix: str = "", **options: Any) -> APIRouter:
    """An area's router, whose routes are complete as declared: under the API's prefix, with the
    error responses every route may give. The app lists them as they are (spot.main.create_app)
    instead of including the router, which FastAPI (since 0.137) keeps as a subtree that each
    request walks two or three times."""
    return APIRouter(prefix=API_PREFIX + prefix, responses=ERROR_RESPONSES, route_class=SpotRoute, **options)
