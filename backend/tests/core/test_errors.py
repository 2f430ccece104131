"""Every non-2xx answer is {status, reason, message, errors}; bad input is a 4xx, never a 5xx."""

from http import HTTPStatus

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.exc import DataError, IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from spot.core.errors import install_error_handlers
from support import API, assert_error, field_codes


def test_unknown_api_paths_answer_the_error_body(client):
    assert assert_error(client.get(f"{API}/no/such/thing"), 404) == {
        "status": 404,
        "reason": "Not Found",
        "message": "Not Found",
        "errors": [],
    }
    assert_error(client.post(f"{API}/user"), 404)
    assert_error(client.get("/no-such-page"), 404)


def test_wrong_methods_answer_the_error_body(client):
    response = client.delete(f"{API}/account/login")
    body = assert_error(response, 405)
    assert body["reason"] == "Method Not Allowed"
    assert "POST" in response.headers["allow"]
    assert_error(client.put(f"{API}/account/whoAmI"), 405)


def test_validation_errors_name_each_field_with_a_code(client, make_user, login):
    headers = login(make_user("manager", ["perm_UserManagement", "perm_SetPermissions"]))
    response = client.put(
        f"{API}/user/create", json={"login": " x", "password": "1", "groupIds": "no"}, headers=headers
    )
    body = assert_error(response, 422, "atLeastOneErrorLeft")
    assert body["reason"] == HTTPStatus(422).phrase
    assert field_codes(response) == {
        ("login", "beginEndWhitespaceError"),
        ("password", "string_too_short"),
        ("groupIds", "list_type"),
    }


@pytest.mark.parametrize(
    ("content", "content_type"),
    [
        (b"{not json", "application/json"),
        (b"", "application/json"),
        (b"login=x", "application/x-www-form-urlencoded"),
    ],
)
def test_unreadable_bodies_are_bad_input(client, content, content_type):
    response = client.post(f"{API}/account/login", content=content, headers={"content-type": content_type})
    assert_error(response, 422)


@pytest.mark.parametrize(
    "path",
    [
        "/user/byId/99999999999999999999999999",
        "/user/byId/-2147483649",
        "/user/byId/-2147483648",
        "/user/byId/-1",
        "/user/byId/+1",
        "/user/byId/2147483648",
        "/user/byId/1.5",
        "/user/byId/abc",
    ],
)
def test_ids_that_are_not_database_integers_are_bad_input(client, make_user, login, path):
    response = client.get(API + path, headers=login(make_user()))
    body = assert_error(response, 422)
    assert [e["field"] for e in body["errors"]] == ["userId"]


@pytest.mark.parametrize("path", ["/user/byId/2147483647", "/user/byId/0"])
def test_ids_in_range_that_match_nothing_are_not_found(client, make_user, login, path):
    assert_error(client.get(API + path, headers=login(make_user())), 404, "userNotFound")


def test_huge_ids_in_bodies_are_bad_input(client, make_user, login):
    headers = login(make_user())
    for path in (
        "/user/getUserNames",
        "/user/byIds",
        "/user/byGroups",
        "/user/getGroupNames",
        "/user/getUserGroups",
    ):
        assert_error(client.post(API + path, json=[2**31], headers=headers), 422)
        assert_error(client.post(API + path, json=[2**64], headers=headers), 422)
        assert_error(client.post(API + path, json=[-1], headers=headers), 422)
        assert client.post(API + path, json=[2**31 - 1, 0], headers=headers).json() == []


@pytest.mark.parametrize(
    ("method", "path", "kwargs"),
    [
        ("GET", "/user/search", {"params": {"name": "a\x00b"}}),
        ("GET", "/user/searchGroup", {"params": {"name": "\x00"}}),
        ("GET", "/user/byLogin", {"params": {"login": "a\x00"}}),
        ("GET", "/user/byName", {"params": {"name": "a\x00"}}),
        ("GET", "/user/byExternalId/a%00b", {}),
        ("POST", "/account/login", {"json": {"username": "a\x00", "password": "x"}}),
        ("PUT", "/user/create", {"json": {"login": "a\x00b", "password": "long-enough"}}),
        ("PUT", "/user/group", {"json": {"name": "a\x00b"}}),
        ("PUT", "/permission/group/1", {"json": ["perm_\x00"]}),
    ],
)
def test_nul_characters_are_refused_on_every_database(client, make_user, login, method, path, kwargs):
    """PostgreSQL cannot store NUL in text: refuse it the same way everywhere, as bad input."""
    headers = login(make_user("admin", ["perm_UserManagement", "perm_SetPermissions"]))
    response = client.request(method, API + path, headers=headers, **kwargs)
    assert 400 <= response.status_code < 500, response.text
    assert_error(response, response.status_code)


def test_the_openapi_document_is_served(client):
    document = client.get(f"{API}/openapi.json").json()
    assert document["info"]["title"] == "Spot"
    assert f"{API}/account/login" in document["paths"]
    assert "ErrorBody" in document["components"]["schemas"]


def _app_raising(exc: Exception) -> TestClient:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/boom")
    def boom() -> None:
        raise exc

    return TestClient(app, raise_server_exceptions=False)


@pytest.mark.parametrize(
    "exc",
    [
        DataError("INSERT ...", {}, Exception("PostgreSQL text fields cannot contain NUL (0x00) bytes")),
        OverflowError("Python int too large to convert to SQLite INTEGER"),
    ],
)
def test_values_the_database_refuses_are_bad_input(exc):
    assert_error(_app_raising(exc).get("/boom"), 400, "invalidValue")


def test_a_constraint_broken_by_a_concurrent_write_is_a_conflict():
    exc = IntegrityError("INSERT INTO site ...", {}, Exception("UNIQUE constraint failed: site.code"))
    assert_error(_app_raising(exc).get("/boom"), 409, "conflictingData")


def test_a_row_changed_by_a_concurrent_request_is_a_conflict():
    exc = StaleDataError("UPDATE statement on table 'user' expected to update 1 row(s); 0 were matched.")
    assert_error(_app_raising(exc).get("/boom"), 409, "conflictingData")


def test_a_transaction_the_database_rolled_back_for_a_concurrent_one_is_a_conflict():
    from psycopg.errors import DeadlockDetected, SerializationFailure

    for orig in (DeadlockDetected("deadlock detected"), SerializationFailure("could not serialize access")):
        exc = OperationalError("UPDATE map_version ...", {}, orig)
        assert_error(_app_raising(exc).get("/boom"), 409, "conflictingData")


def test_other_operational_errors_are_500s():
    import sqlite3

    exc = OperationalError("SELECT ...", {}, sqlite3.OperationalError("disk I/O error"))
    assert_error(_app_raising(exc).get("/boom"), 500, "An unexpected server error occurred.")


def test_a_bug_is_a_500_with_the_error_body():
    assert_error(_app_raising(RuntimeError("bug")).get("/boom"), 500, "An unexpected server error occurred.")
