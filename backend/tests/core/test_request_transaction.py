"""The request is the transaction: db.request_db opens the session, the route (core.routing.SpotRoute)
commits it once the response is ready, rolls it back when the request fails, and closes it."""

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from spot import db as database
from spot.core.auth import DB
from spot.core.errors import ApiError, install_error_handlers
from spot.core.routing import API_PREFIX, api_router
from spot.users.models import User


def _count(login: str) -> int:
    with database.session_factory()() as other:
        return other.scalar(select(func.count()).select_from(User).where(User.login == login)) or 0


@pytest.fixture
def small_app(app) -> TestClient:  # the app fixture prepares the database
    router = api_router(prefix="/tx")
    seen: dict[str, int] = {}

    @router.post("/ok/{login}")
    async def ok(db: DB, login: str) -> dict[str, int]:
        db.add(User(login=login))
        db.flush()
        seen["before commit"] = _count(login)
        return {}

    @router.post("/refused/{login}")
    async def refused(db: DB, login: str) -> dict[str, int]:
        db.add(User(login=login))
        db.flush()
        raise ApiError(409, "refused")

    @router.post("/duplicate/{login}")
    async def duplicate(db: DB, login: str) -> dict[str, int]:
        db.add(User(login=login))  # its INSERT only runs at the commit, where it breaks the unique login
        return {}

    @router.get("/none")
    async def none() -> dict[str, int]:
        return {}

    small = FastAPI()
    install_error_handlers(small)
    small.router.routes.extend(router.routes)

    @small.get(f"{API_PREFIX}/tx/outside")
    async def outside(db: DB) -> dict[str, int]:
        return {}

    client = TestClient(small, raise_server_exceptions=False)
    client.seen = seen  # type: ignore[attr-defined]
    return client


def _checked_out() -> int:
    return database.get_engine().pool.checkedout()  # type: ignore[attr-defined]


def test_a_request_commits_once_its_response_is_ready(small_app):
    before = _checked_out()
    assert small_app.post(f"{API_PREFIX}/tx/ok/committed").status_code == 200
    assert small_app.seen["before commit"] == 0  # the request had not committed yet
    assert _count("committed") == 1
    assert _checked_out() == before


def test_a_failed_request_leaves_no_trace(small_app):
    before = _checked_out()
    assert small_app.post(f"{API_PREFIX}/tx/refused/rolled-back").status_code == 409
    assert _count("rolled-back") == 0
    assert _checked_out() == before


def test_a_commit_that_fails_is_answered_and_gives_its_connection_back(small_app, make_user):
    make_user("taken")
    before = _checked_out()
    response = small_app.post(f"{API_PREFIX}/tx/duplicate/taken")
    assert response.status_code == 409
    assert _count("taken") == 1
    assert _checked_out() == before


def test_a_route_without_the_database_opens_no_session(small_app):
    before = _checked_out()
    assert small_app.get(f"{API_PREFIX}/tx/none").status_code == 200
    assert _checked_out() == before


def test_a_route_built_outside_api_router_may_not_use_the_database(small_app):
    """Nothing would end its session: it is refused instead of leaking a connection."""
    assert small_app.get(f"{API_PREFIX}/tx/outside").status_code == 500
