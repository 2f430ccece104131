"""POST /account/login: credentials, the constant-time failure path, throttling and returnUrl."""

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from spot.account.models import LoginFailure, SessionToken
from spot.config import get_settings
from spot.core import passwords
from support import API, PASSWORD, assert_error, field_codes

LOGIN = f"{API}/account/login"


def _login(client: TestClient, username: str, password: str = PASSWORD, **extra: str):  # noqa: ANN202
    return client.post(LOGIN, json={"username": username, "password": password, **extra})


def _failures(db, login: str | None = None, address: str | None = None) -> int:  # noqa: ANN001
    query = select(func.count()).select_from(LoginFailure)
    if login is not None:
        query = query.where(LoginFailure.login == login)
    if address is not None:
        query = query.where(LoginFailure.address == address)
    db.expire_all()
    return db.scalar(query)


def test_good_credentials_open_a_session(client, db, make_user):
    user = make_user("jeanne")
    response = _login(client, "jeanne")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"token", "redirectUrl"}
    assert len(body["token"]) >= 43  # 32 random bytes, URL-safe base64
    assert body["redirectUrl"] == "/spotv2/"
    whoami = client.get(f"{API}/account/whoAmI", headers={"x-access-token": body["token"]})
    assert whoami.json()["id"] == user.id
    # Only a hash of the token is stored.
    stored = db.scalars(select(SessionToken.token_hash)).all()
    assert stored and body["token"] not in stored


def test_each_login_gets_its_own_token(client, make_user):
    make_user("jeanne")
    assert _login(client, "jeanne").json()["token"] != _login(client, "jeanne").json()["token"]


def test_wrong_password_is_refused(client, make_user):
    make_user("jeanne")
    assert_error(_login(client, "jeanne", "wrong-password"), 401, "Invalid login or password")


def test_unknown_login_answers_exactly_like_a_wrong_password(client, make_user):
    make_user("jeanne")
    wrong_password = _login(client, "jeanne", "wrong-password")
    unknown = _login(client, "nobody", PASSWORD)
    assert unknown.status_code == wrong_password.status_code == 401
    assert unknown.json() == wrong_password.json()


class _CountingHasher:
    def __init__(self, real) -> None:  # noqa: ANN001
        self.real = real
        self.verified: list[str] = []

    def verify(self, password_hash: str, password: str) -> bool:
        self.verified.append(password_hash)
        return self.real.verify(password_hash, password)


def test_unknown_login_still_verifies_a_hash(client, monkeypatch):
    """The failure path for an unknown login does the same argon2 work as a wrong password."""
    hasher = _CountingHasher(passwords._hasher)
    monkeypatch.setattr(passwords, "_hasher", hasher)
    assert_error(_login(client, "nobody"), 401, "Invalid login or password")
    assert hasher.verified == [passwords._DUMMY_HASH]


def test_the_dummy_password_never_opens_a_session_without_a_hash(client, db, make_user):
    user = make_user("external")
    user.password_hash = ""
    db.commit()
    assert_error(_login(client, "external", "spot-dummy-password"), 401, "Invalid login or password")
    assert_error(_login(client, "external", ""), 401, "Invalid login or password")


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({}, {("username", "emptyFieldError"), ("password", "emptyFieldError")}),
        ({"username": "jeanne"}, {("password", "emptyFieldError")}),
        ({"username": "x" * 201, "password": "p"}, {("username", "string_too_long")}),
        ({"username": "jeanne", "password": 12}, {("password", "string_type")}),
    ],
)
def test_malformed_credentials_answer_field_codes(client, body, expected):
    response = client.post(LOGIN, json=body)
    assert_error(response, 422, "atLeastOneErrorLeft")
    assert field_codes(response) == expected


def test_failures_are_kept_in_the_database(client, db, make_user):
    make_user("jeanne")
    for _ in range(2):
        _login(client, "jeanne", "wrong-password")
    _login(client, "nobody", "whatever")
    assert _failures(db, login="jeanne") == 2
    assert _failures(db, login="nobody") == 1
    assert _failures(db, address="testclient") == 3


def test_five_failures_throttle_the_login_even_with_the_right_password(client, db, make_user):
    make_user("jeanne")
    for _ in range(5):
        assert_error(_login(client, "jeanne", "wrong-password"), 401)
    throttled = _login(client, "jeanne", PASSWORD)
    assert_error(throttled, 429, "Too many failed login attempts, try again later")
    assert throttled.headers["retry-after"].isdigit()
    # Another login from another address is not affected.
    make_user("paul")
    other = TestClient(client.app, client=("10.0.0.9", 1234))
    assert _login(other, "paul").status_code == 200
    # The same login from another address stays throttled: the counter is per login.
    assert_error(_login(other, "jeanne"), 429)


def test_four_failures_do_not_throttle_and_a_success_clears_the_login_counter(client, db, make_user):
    make_user("jeanne")
    for _ in range(4):
        _login(client, "jeanne", "wrong-password")
    assert _login(client, "jeanne").status_code == 200
    assert _failures(db, login="jeanne") == 0
    for _ in range(4):
        _login(client, "jeanne", "wrong-password")
    assert _login(client, "jeanne").status_code == 200


def test_failures_older_than_the_window_do_not_count(client, db, make_user):
    from datetime import timedelta

    from spot.core.time import utcnow

    make_user("jeanne")
    long_ago = utcnow() - timedelta(minutes=get_settings().login_window_minutes + 1)
    db.add_all([LoginFailure(login="jeanne", address="testclient", at=long_ago) for _ in range(10)])
    db.commit()
    assert _login(client, "jeanne").status_code == 200


def test_too_many_failures_from_one_address_throttle_every_login_from_it(client, make_user, monkeypatch):
    monkeypatch.setattr(get_settings(), "login_max_failures_per_address", 3)
    make_user("jeanne")
    attacker = TestClient(client.app, client=("10.6.6.6", 4444))
    for n in range(3):
        assert_error(_login(attacker, f"guess{n}", "wrong"), 401)
    assert_error(_login(attacker, "jeanne"), 429)
    # The victim signs in from elsewhere.
    assert _login(client, "jeanne").status_code == 200


@pytest.mark.parametrize(
    ("return_url", "redirect"),
    [
        (None, "/spotv2/"),
        ("", "/spotv2/"),
        ("/spotv2/subjects?applyDefaultFilter=true", "/spotv2/subjects?applyDefaultFilter=true"),
        ("/spotv2/mediation/view/12", "/spotv2/mediation/view/12"),
        ("https://evil.example/phish", "/spotv2/"),
        ("http://testserver/spotv2/", "/spotv2/"),
        ("//evil.example/spotv2/", "/spotv2/"),
        ("/\\evil.example", "/spotv2/"),
        ("javascript:alert(1)", "/spotv2/"),
        ("spotv2/relative", "/spotv2/"),
    ],
)
def test_return_url_only_follows_same_site_paths(client, make_user, return_url, redirect):
    make_user("jeanne")
    extra = {} if return_url is None else {"returnUrl": return_url}
    response = _login(client, "jeanne", **extra)
    assert response.status_code == 200
    assert response.json()["redirectUrl"] == redirect


def test_failures_older_than_the_window_are_forgotten(client, db, make_user):
    from datetime import timedelta

    from spot.core.time import utcnow

    db.add(LoginFailure(login="ancien", address="10.0.0.9", at=utcnow() - timedelta(hours=2)))
    db.commit()
    client.post(f"{API}/account/login", json={"username": "quelquun", "password": "mauvais"})
    db.expire_all()

    def failures(login: str) -> int | None:
        return db.scalar(select(func.count()).select_from(LoginFailure).where(LoginFailure.login == login))

    assert failures("ancien") == 0
    assert failures("quelquun") == 1
