"""Every API route needs a session except the few the login page uses; the list comes from the OpenAPI
document, so that a route added later is covered without touching this file."""

import re

import pytest

from support import API, assert_error, openapi_document

PUBLIC = {
    ("POST", f"{API}/account/login"),
    ("GET", f"{API}/account/identity-providers"),
    ("GET", f"{API}/account/oidc/{{index}}/start"),
    ("GET", f"{API}/account/oidc/{{index}}/callback"),
    ("GET", f"{API}/organization/info"),
    ("GET", f"{API}/organization/logo"),
    ("GET", f"{API}/organization/applogo"),
    # For load balancers, which hold no session (docs/operations.md).
    ("GET", f"{API}/health/live"),
    ("GET", f"{API}/health/ready"),
}

OPERATIONS = [
    (method.upper(), path, operation)
    for path, item in openapi_document()["paths"].items()
    for method, operation in item.items()
    if method in {"get", "post", "put", "delete", "patch"}
]
PROTECTED = [pytest.param(m, p, id=f"{m} {p}") for m, p, _ in OPERATIONS if (m, p) not in PUBLIC]


def _concrete(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "1", path)


@pytest.mark.parametrize(("method", "path"), PROTECTED)
def test_protected_routes_refuse_a_request_without_session(client, method, path):
    assert_error(client.request(method, _concrete(path)), 401, "notAuthenticated")


@pytest.mark.parametrize(("method", "path"), PROTECTED)
def test_protected_routes_refuse_an_unknown_token(client, method, path):
    response = client.request(method, _concrete(path), headers={"x-access-token": "forged"}, json={})
    assert_error(response, 401, "sessionExpired")


@pytest.mark.parametrize(("method", "path"), sorted(PUBLIC))
def test_public_routes_answer_without_session(client, method, path):
    response = client.request(
        method,
        _concrete(path),
        params={"redirectUrl": "/spotv2/"},
        json={"username": "nobody", "password": "nothing"},
        follow_redirects=False,
    )
    expected = {"login": 401, "start": 404, "callback": 303}.get(path.rsplit("/", 1)[-1], 200)
    assert response.status_code == expected


def test_the_openapi_document_declares_the_session_header_on_protected_routes():
    for method, path, operation in OPERATIONS:
        secured = bool(operation.get("security"))
        assert secured == ((method, path) not in PUBLIC), f"{method} {path}"


def test_every_public_route_still_exists():
    assert PUBLIC <= {(m, p) for m, p, _ in OPERATIONS}


def test_the_session_lookup_is_written_once(app):
    """No value of the session lookup is written into its text at each run (SQLAlchemy's
    POSTCOMPILE, a search and replace over the whole statement on every request)."""
    from spot import db as database
    from spot.account.service import _SIGNED_IN

    compiled = _SIGNED_IN.compile(dialect=database.get_engine().dialect)
    assert "POSTCOMPILE" not in compiled.string
