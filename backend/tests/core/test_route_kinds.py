"""Route kinds (core.routing, DESIGN §4): every route has one; a read that fails leaves nothing written;
a hot read writes one statement at most; a work route runs off the event loop in a transaction of its
own; a streamed body cannot use the request's session, and leaks no connection."""

import asyncio
import re
import threading
from collections.abc import Iterator

import pytest
from fastapi import FastAPI, Response
from fastapi.responses import StreamingResponse
from fastapi.testclient import TestClient
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from mapping.maps import load
from spot import db as database
from spot.core.auth import DB
from spot.core.errors import ApiError, install_error_handlers
from spot.core.routing import API_PREFIX, Kind, SpotRoute, api_router, hot_read, streamed, work
from spot.main import ROUTERS
from spot.querylang.lists import LIST_ROUTES
from spot.users.models import User
from support import API


def _api_routes() -> list[SpotRoute]:
    return [route for router in ROUTERS for route in router.routes if isinstance(route, SpotRoute)]


def test_every_route_of_the_api_has_a_kind():
    routes = [route for router in ROUTERS for route in router.routes]
    assert routes and all(isinstance(route, SpotRoute) for route in routes)
    assert {route.kind for route in _api_routes()} <= set(Kind)


def test_a_route_whose_kind_cannot_be_told_is_refused():
    router = api_router()

    async def endpoint() -> dict[str, int]:
        return {}

    with pytest.raises(ValueError, match="no route kind"):
        router.add_api_route("/odd", endpoint, methods=["OPTIONS"])
    setattr(endpoint, "spot_route_kind", "fast")  # noqa: B010 (a mark no kind has)
    with pytest.raises(ValueError):
        router.add_api_route("/fast", endpoint, methods=["GET"])


def test_only_work_routes_leave_the_event_loop():
    router = api_router()

    def blocking() -> dict[str, int]:
        return {}

    with pytest.raises(ValueError, match="coroutine"):
        router.add_api_route("/blocking", blocking, methods=["GET"])

    @work
    async def not_in_a_thread() -> dict[str, int]:
        return {}

    with pytest.raises(ValueError, match="plain def"):
        router.add_api_route("/work", not_in_a_thread, methods=["POST"])


def test_list_routes_are_hot_reads():
    kinds = {route.path: route.kind for route in _api_routes() if route.path in LIST_ROUTES}
    assert set(kinds) == set(LIST_ROUTES) and len(kinds) >= 4
    assert set(kinds.values()) == {Kind.hot_read}


def _count(login: str) -> int:
    with database.session_factory()() as other:
        return other.scalar(select(func.count()).select_from(User).where(User.login == login)) or 0


# A work route asked to hold waits until the test releases it (or 2 minutes pass, which it notes).
_HOLDING, _RELEASE, _HELD_TOO_LONG = threading.Event(), threading.Event(), threading.Event()


@pytest.fixture
def kinds_app(app) -> TestClient:  # the app fixture prepares the database
    router = api_router(prefix="/kinds")

    @router.get("/refused/{login}")
    async def refused(db: DB, login: str) -> dict[str, int]:
        db.add(User(login=login))
        db.flush()
        raise ApiError(409, "refused")

    @router.get("/stream-with-request-session")
    async def leaky(db: DB) -> StreamingResponse:
        def body() -> Iterator[bytes]:
            yield str(db.scalar(select(func.count()).select_from(User))).encode()

        return StreamingResponse(body())

    @router.get("/stream")
    async def stream() -> StreamingResponse:
        def users(session: Session) -> Iterator[bytes]:
            yield str(session.scalar(select(func.count()).select_from(User))).encode()

        return StreamingResponse(streamed(users))

    @router.post("/work/{login}")
    @work
    def slow(db: DB, login: str, hold: bool = False, fail: bool = False) -> dict[str, bool]:
        db.add(User(login=login))
        db.flush()
        if hold:
            _HOLDING.set()
            if not _RELEASE.wait(timeout=120):
                _HELD_TOO_LONG.set()
        if fail:
            raise ApiError(409, "refused")
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return {"onTheLoop": False}
        return {"onTheLoop": True}

    @router.get("/quick")
    async def quick() -> dict[str, int]:
        return {}

    small = FastAPI()
    install_error_handlers(small)
    small.router.routes.extend(router.routes)
    return TestClient(small, raise_server_exceptions=False)


def test_a_read_that_fails_leaves_nothing_written(kinds_app: TestClient):
    """On both databases: the GET's write goes with its answer (on PostgreSQL too, where GETs once
    ran each statement as its own transaction)."""
    assert kinds_app.get(f"{API_PREFIX}/kinds/refused/ghost").status_code == 409
    assert _count("ghost") == 0


def test_a_streamed_body_cannot_use_the_request_session(kinds_app: TestClient):
    engine = database.get_engine()
    before = engine.pool.checkedout()  # type: ignore[attr-defined]
    for _ in range(5):
        with pytest.raises(database.SessionEnded):
            TestClient(kinds_app.app, raise_server_exceptions=True).get(
                f"{API_PREFIX}/kinds/stream-with-request-session"
            )
    assert engine.pool.checkedout() == before  # type: ignore[attr-defined]


def test_a_streamed_body_reads_through_its_own_session_and_gives_it_back(kinds_app: TestClient):
    engine = database.get_engine()
    before = engine.pool.checkedout()  # type: ignore[attr-defined]
    for _ in range(25):
        response = kinds_app.get(f"{API_PREFIX}/kinds/stream")
        assert response.status_code == 200 and response.text == "0"
    assert engine.pool.checkedout() == before  # type: ignore[attr-defined]


def test_a_work_route_commits_in_its_worker(kinds_app: TestClient):
    response = kinds_app.post(f"{API_PREFIX}/kinds/work/worker")
    assert response.status_code == 200
    assert response.json() == {"onTheLoop": False}
    assert _count("worker") == 1


def test_a_work_route_that_fails_writes_nothing(kinds_app: TestClient):
    assert kinds_app.post(f"{API_PREFIX}/kinds/work/failed?fail=true").status_code == 409
    assert _count("failed") == 0


def test_other_requests_answer_while_work_runs(kinds_app: TestClient):
    """The event loop serves other requests while a work route's handler runs: one loop serves every
    request (the client as a context, as `spot serve` has one loop), and a quick request is answered
    while the work waits to be released, whatever the machine's speed."""
    for flag in (_HOLDING, _RELEASE, _HELD_TOO_LONG):
        flag.clear()
    with kinds_app as client:
        worker = threading.Thread(target=lambda: client.post(f"{API_PREFIX}/kinds/work/long?hold=true"))
        worker.start()
        try:
            assert _HOLDING.wait(timeout=120), "the work route did not start"
            assert client.get(f"{API_PREFIX}/kinds/quick").status_code == 200
            assert not _HELD_TOO_LONG.is_set(), "the quick request was answered only once the work ended"
        finally:
            _RELEASE.set()
            worker.join(timeout=120)
    assert not worker.is_alive()


# Hot reads: each with a request to make. A new hot read must be added here, or this test fails.
_HOT_READS = {
    f"{API}/subject/{{subjectId}}": lambda m: f"{API}/subject/{m.subject('T1')}",
    f"{API}/function/{{functionId}}": lambda m: f"{API}/function/{m.function('G1')}",
    f"{API}/cartography/{{cartographyId}}": lambda m: f"{API}/cartography/{m.cartography('C1')}",
    f"{API}/cartography/{{cartographyId}}/zones": lambda m: f"{API}/cartography/{m.cartography('C1')}/zones",
    f"{API}/pictos/{{cartographyId}}": lambda m: f"{API}/pictos/{m.cartography('C1')}",
    f"{API}/search": lambda m: f"{API}/search?text=test",
}


def _writes(statement: str) -> bool:
    return re.search(r"\b(INSERT|UPDATE|DELETE)\b", statement.upper()) is not None


def test_every_hot_read_writes_one_statement_at_most(client, db, make_user, login):
    """On PostgreSQL a hot read runs each statement as its own transaction: a second write could be
    kept when the request then fails."""
    hot = {
        route.path for route in _api_routes() if route.kind is Kind.hot_read and route.path not in LIST_ROUTES
    }
    assert hot == set(_HOT_READS), "each hot read is checked here"
    test_map = load(db)
    headers = login(make_user())
    engine = database.get_engine()
    writes: list[str] = []

    def seen(_conn, _cursor, statement: str, *_args) -> None:
        if _writes(statement):
            writes.append(statement)

    for path, make_url in _HOT_READS.items():
        url = make_url(test_map)
        client.get(url, headers=headers)  # a first read fills caches
        writes.clear()
        event.listen(engine, "before_cursor_execute", seen)
        try:
            response = client.get(url, headers=headers)
        finally:
            event.remove(engine, "before_cursor_execute", seen)
        assert response.status_code == 200, (path, response.text)
        if engine.dialect.name == "postgresql":
            assert len(writes) <= 1, (path, writes)


def test_the_count_of_writes_sees_two():
    assert _writes("INSERT INTO x VALUES (1)") and _writes("WITH along AS (INSERT INTO v) INSERT INTO h")
    assert not _writes("SELECT updated_at FROM subject") and not _writes(
        "WITH t AS (SELECT 1) SELECT * FROM t"
    )


def test_a_hot_read_has_no_transaction_of_its_own_on_postgresql(client, db, make_user, login):
    """What a hot read buys: no BEGIN or COMMIT round trip on PostgreSQL."""
    if database.get_engine().dialect.name != "postgresql":
        pytest.skip("PostgreSQL only")
    import psycopg

    test_map = load(db)
    headers = login(make_user())
    engine = database.get_engine()
    statuses: list[object] = []

    def ended(connection, _cursor, statement, *_args) -> None:
        statuses.append((connection.connection.dbapi_connection.info.transaction_status, statement))

    url = f"{API}/subject/{test_map.subject('T1')}"
    client.get(url, headers=headers)
    event.listen(engine, "after_cursor_execute", ended)
    try:
        assert client.get(url, headers=headers).status_code == 200
    finally:
        event.remove(engine, "after_cursor_execute", ended)
    assert statuses and {status for status, _ in statuses} == {psycopg.pq.TransactionStatus.IDLE}, statuses


def test_hot_read_mark_is_a_kind():
    @hot_read
    async def endpoint() -> Response:
        return Response()

    assert SpotRoute("/x", endpoint, methods=["GET"]).kind is Kind.hot_read
