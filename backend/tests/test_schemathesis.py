"""Property-based tests of the whole API from its OpenAPI document (schemathesis): whatever the input, no
answer is a 5xx, every answer matches the document (status code and body), protected routes included."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import schemathesis
from fastapi.routing import APIRoute
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from spot import db as database
from spot.account import service as account_service
from spot.main import create_app
from spot.permissions.names import ALL_PERMISSIONS
from spot.scim.routes import router as scim_router
from spot.users.models import User
from support import API

# Uploaded archives are bytes like any other.
schemathesis.serializer.alias("application/zip", "application/octet-stream")


@asynccontextmanager
async def _routes_only(_app: Any) -> AsyncIterator[None]:
    yield


# The fuzz calls the routes. Schemathesis runs the app's lifespan around each operation's examples (and
# here at collection, to read the document): the process's background work (the job runner, the outbox's
# sender, the daily scan, each a thread started then stopped) is not what it tests, and starting and
# stopping it took much of the fuzz's time (docs/performance.md, "The test suite"). Routes need none of
# it: the test client of the other tests runs no lifespan either.
fuzzed_app = create_app()
fuzzed_app.router.lifespan_context = _routes_only
# The coverage phase adds the cases the document implies to the random ones (each required field
# missing, each wrong type, each bound and its neighbour: about 8,600 cases) and, for each path, a
# method it does not declare. Any undeclared method takes the same way through the app (the router's
# 405 behind the same middleware), so one of them is tried rather than the eight it would try.
schema = schemathesis.openapi.from_asgi(
    f"{API}/openapi.json",
    fuzzed_app,
    config=SchemathesisConfig.from_dict({"phases": {"coverage": {"unexpected-methods": ["trace"]}}}),
)
# Without a session, the cases of a protected operation all meet the same 401 before its parameters
# are read, and the open ones (signing in, the organisation's information…) read their input as they do
# with a session: the test without a session keeps the random cases of each operation and leaves the
# coverage phase to the signed-in one.
schema_without_a_session = schemathesis.openapi.from_asgi(
    f"{API}/openapi.json",
    fuzzed_app,
    config=SchemathesisConfig.from_dict({"phases": {"coverage": {"enabled": False}}}),
)

CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance]


@pytest.fixture
def admin_id(app, make_user) -> int:
    """An administrator holding every permission, so that the protected routes do their work."""
    make_user("first", ["perm_SetPermissions"])
    return make_user("admin", ALL_PERMISSIONS).id


def _token(user_id: int) -> str:
    with database.session_factory()() as db:
        user = db.get(User, user_id)
        token = account_service.issue_token(db, user=user) if user else "deleted-user"
        db.commit()
    return token


@pytest.fixture
def admin_token(admin_id) -> str:
    return _token(admin_id)


@schema.parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_api_conforms_to_its_document(case, admin_id, admin_token):
    # Logging out ends the session: each of its examples gets a session of its own.
    token = _token(admin_id) if case.path.endswith("/account/logout") else admin_token
    case.call_and_validate(headers={"x-access-token": token}, checks=CHECKS)


@schema_without_a_session.parametrize()
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_api_conforms_to_its_document_without_a_session(case, app):
    """Whoever has not signed in gets the documented answers too (401 mostly), never a 5xx."""
    case.call_and_validate(checks=CHECKS)


# Out of the document, so out of schemathesis's reach: the learning platform's protocol with the course
# player (xAPI, the one-time fetch, the player's files; tests/lms), the per-type copies of one
# documented list route, and SCIM, whose clients learn it from its own discovery (tests/scim, where
# scim2-tester checks it against RFC 7643 and 7644).
# The xAPI runtime answers at its endpoint and with the doubled slash of the cmi5 library 3.0/3.1.
_XAPI = (f"{API}/lms/xapi/", f"{API}/lms/xapi//")
UNDOCUMENTED = {
    ("POST", f"{API}/training/references/query/{{type}}"),
    ("POST", f"{API}/lms/fetch/{{token}}"),
    *(("GET", f"{xapi}about") for xapi in _XAPI),
    *((method, f"{xapi}statements") for xapi in _XAPI for method in ("GET", "PUT", "POST")),
    *(
        (method, f"{xapi}{resource}")
        for xapi in _XAPI
        for resource in ("activities/state", "agents/profile")
        for method in ("GET", "PUT", "POST", "DELETE")
    ),
    ("GET", f"{API}/lms/play/{{key}}/{{path}}"),
    # The SCORM runtime of a launched SCO, by its launch's key.
    ("GET", f"{API}/lms/scorm/{{key}}/cmi"),
    ("POST", f"{API}/lms/scorm/{{key}}/commit"),
    *((method, route.path_format) for route in scim_router.routes for method in route.methods),  # type: ignore[attr-defined]
}


def test_every_operation_of_the_api_is_tested(app):
    """Every route of the API but the few above is in the document schemathesis reads, and each loads
    from it (an operation it cannot read would be left untested)."""
    loaded = [result.ok() for result in schema.get_all_operations()]
    tested = {(operation.method.upper(), operation.path) for operation in loaded}
    routes = {
        (method, route.path_format)
        for route in app.routes
        if isinstance(route, APIRoute) and route.path.startswith(API)
        for method in route.methods
        if method != "HEAD"
    }
    assert routes - tested == UNDOCUMENTED
