"""POST /account/login: credentials, the constant-time failure path, throttling and returnUrl."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from spot.account.models import LoginThrottle, SessionToken
from spot.config import get_settings
from spot.core import passwords
from support import API, PASSWORD, assert_error, field_codes

LOGIN = f"{API}/account/login"


def _login(client: TestClient, username: str, password: str = PASSWORD, **extra: str):
    return client.post(LOGIN, json={"username": username, "password": password, **extra})


def test_good_credentials_open_a_session(client, db, make_user):
    user = make_user("jeanne")
    response = _login(client, "jeanne")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"token", "redirectUrl", "failedAttempts"}
    assert body["failedAttempts"] == 0
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
    def __init__(self, real) -> None:
        self.real = real
        self.verified: list[str] = []

    def verify(self, password_hash: str, password: str) -> bool:
        self.verified.append(password_hash)
        return self.real.verify(password_hash, password)


def test_unknown_login_still_verifies_a_hash(client, monkeypatch):
    """The failure path for an unknown login does the same argon2 work as a wrong password."""
    dummy = passwords._dummy_hash()
    hasher = _CountingHasher(passwords._hasher)
    monkeypatch.setattr(passwords, "_hasher", hasher)
    assert_error(_login(client, "nobody"), 401, "Invalid login or password")
    assert hasher.verified == [dummy]


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


# Throttling ---------------------------------------------------------------------------------


def _from(client: TestClient, address: str) -> TestClient:
    return TestClient(client.app, client=(address, 4444))


def _wait(response) -> int:
    assert_error(response, 429, "Too many failed login attempts, try again later")
    return int(response.headers["retry-after"])


def test_failures_from_one_address_never_keep_the_user_out_from_another(client, make_user):
    """Wrong passwords for the administrator's login, from an attacker's address, do not refuse the
    right password from the administrator's own address."""
    make_user("admin")
    attacker = _from(client, "10.6.6.6")
    for _ in range(5):
        assert_error(_login(attacker, "admin", "wrong-password"), 401)
    assert _wait(_login(attacker, "admin", "wrong-password")) > 0
    assert _login(client, "admin").status_code == 200
    assert _login(_from(client, "10.0.0.9"), "admin").status_code == 200


def test_each_failure_past_the_free_ones_doubles_the_wait_up_to_the_bound(client, make_user, clock):
    settings = get_settings()
    make_user("jeanne")
    for _ in range(settings.login_free_failures_per_login - 1):
        assert_error(_login(client, "jeanne", "wrong-password"), 401)
    # The last free failure makes the pair wait; the right password waits too, from this address.
    assert_error(_login(client, "jeanne", "wrong-password"), 401)
    first = settings.login_backoff_first_seconds
    assert _wait(_login(client, "jeanne")) == first
    clock.advance(first - 1)
    assert _wait(_login(client, "jeanne", "wrong-password")) == 1
    waits = []
    for _ in range(7):
        clock.advance(waits[-1] if waits else first)
        assert_error(_login(client, "jeanne", "wrong-password"), 401)
        waits.append(_wait(_login(client, "jeanne")))
    bound = settings.login_backoff_max_seconds
    assert waits == [min(first * 2**n, bound) for n in range(1, 8)]
    assert waits[-1] == bound
    # Once the wait is over, the right password opens a session and the pair starts afresh.
    clock.advance(bound)
    assert _login(client, "jeanne").status_code == 200
    for _ in range(settings.login_free_failures_per_login - 1):
        assert_error(_login(client, "jeanne", "wrong-password"), 401)
    assert _login(client, "jeanne").status_code == 200


def test_parallel_attempts_reach_the_password_check_no_more_than_the_free_ones(
    client, make_user, monkeypatch
):
    make_user("jeanne")
    hasher = _CountingHasher(passwords._hasher)
    monkeypatch.setattr(passwords, "_hasher", hasher)
    with ThreadPoolExecutor(40) as pool:
        statuses = list(pool.map(lambda _: _login(client, "jeanne", "wrong-password").status_code, range(40)))
    free = get_settings().login_free_failures_per_login
    assert sorted(statuses) == [401] * free + [429] * (40 - free)
    assert len(hasher.verified) == free


def test_too_many_failures_from_one_address_make_every_login_from_it_wait(client, make_user, monkeypatch):
    monkeypatch.setattr(get_settings(), "login_free_failures_per_address", 3)
    make_user("jeanne")
    attacker = _from(client, "10.6.6.6")
    for n in range(3):
        assert_error(_login(attacker, f"guess{n}", "wrong"), 401)
    assert _wait(_login(attacker, "jeanne")) == get_settings().login_backoff_first_seconds
    # The victim signs in from elsewhere.
    assert _login(client, "jeanne").status_code == 200


def test_a_success_clears_the_pair_but_not_the_failures_of_the_address(client, db, make_user):
    make_user("jeanne")
    for _ in range(4):
        assert_error(_login(client, "jeanne", "wrong-password"), 401)
    for _ in range(3):
        assert_error(_login(client, "paul", "wrong-password"), 401)
    assert _login(client, "jeanne").status_code == 200
    db.expire_all()
    counts = dict(db.execute(select(LoginThrottle.key, LoginThrottle.failures)).tuples().all())
    assert counts == {"pair\x1ftestclient\x1fpaul": 3, "address\x1ftestclient": 7, "account\x1fpaul": 3}
    for _ in range(4):
        assert_error(_login(client, "jeanne", "wrong-password"), 401)
    assert _login(client, "jeanne").status_code == 200


def test_failures_older_than_the_window_are_forgotten(client, db, make_user, clock):
    make_user("jeanne")
    for _ in range(5):
        _login(client, "jeanne", "wrong-password")
    assert _wait(_login(client, "jeanne")) > 0
    clock.advance(get_settings().login_window_minutes * 60 + 1)
    _login(client, "quelquun", "mauvais")  # forgets the keys that have not failed within the window
    db.expire_all()
    keys = set(db.scalars(select(LoginThrottle.key)))
    assert keys == {"pair\x1ftestclient\x1fquelquun", "address\x1ftestclient", "account\x1fquelquun"}
    for _ in range(4):
        assert_error(_login(client, "jeanne", "wrong-password"), 401)
    assert _login(client, "jeanne").status_code == 200


def test_guesses_at_one_login_from_ever_new_addresses_wait_past_the_free_ones(client, make_user, clock):
    """Addresses cost a guesser nothing (X-Forwarded-For from a trusted proxy): past the account's free
    failures every attempt at the login waits its turn, from any address, the owner's first sign-in
    from a clean address included; a delay, never a refusal of the right password once it is over."""
    settings = get_settings()
    make_user("jeanne")
    free, first = settings.login_free_failures_per_account, settings.login_backoff_first_seconds
    addresses = (f"10.6.{n // 250}.{n % 250}" for n in range(1000))
    for _ in range(free):
        assert_error(_login(_from(client, next(addresses)), "jeanne", "wrong-password"), 401)
    assert _wait(_login(_from(client, next(addresses)), "jeanne", "wrong-password")) == first
    assert _wait(_login(_from(client, next(addresses)), "jeanne")) == first
    # Another login is not held up.
    make_user("paul")
    assert _login(_from(client, next(addresses)), "paul").status_code == 200
    # Each guess past the free ones doubles the wait, up to the bound.
    waits = [first]
    for _ in range(7):
        clock.advance(waits[-1])
        assert_error(_login(_from(client, next(addresses)), "jeanne", "wrong-password"), 401)
        waits.append(_wait(_login(_from(client, next(addresses)), "jeanne")))
    bound = settings.login_backoff_max_seconds
    assert waits == [min(first * 2**n, bound) for n in range(8)]
    # Once the wait is over, the right password opens a session, and the account starts afresh.
    clock.advance(bound)
    signed_in = _login(_from(client, next(addresses)), "jeanne")
    assert signed_in.status_code == 200
    assert signed_in.json()["failedAttempts"] == free + 7
    for _ in range(free):
        assert_error(_login(_from(client, next(addresses)), "jeanne", "wrong-password"), 401)


def test_the_owner_is_told_once_of_the_wrong_passwords_given_since_their_last_sign_in(
    client, make_user, clock
):
    make_user("jeanne")
    make_user("paul")
    for n in range(3):
        assert_error(_login(_from(client, f"10.6.6.{n}"), "jeanne", "wrong-password"), 401)
    assert_error(_login(client, "paul", "wrong-password"), 401)
    assert_error(_login(client, "personne", "wrong-password"), 401)
    assert _login(client, "jeanne").json()["failedAttempts"] == 3
    assert _login(client, "jeanne").json()["failedAttempts"] == 0
    assert _login(client, "paul").json()["failedAttempts"] == 1
    # Attempts made to wait were not evaluated: they count for nothing.
    for _ in range(get_settings().login_free_failures_per_login + 2):
        _login(client, "jeanne", "wrong-password")
    clock.advance(get_settings().login_backoff_max_seconds)
    assert _login(client, "jeanne").json()["failedAttempts"] == get_settings().login_free_failures_per_login


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
        ("/\t/evil.example", "/spotv2/"),
        ("/\n/evil.example/spotv2/", "/spotv2/"),
        ("/ /evil.example", "/spotv2/"),
        # The pages a QR code label opens (docs/documents.md).
        ("/spotv2/function/12", "/spotv2/function/12"),
        ("/spotv2/subjects/location%20oneOf%2042", "/spotv2/subjects/location%20oneOf%2042"),
    ],
)
def test_return_url_only_follows_same_site_paths(client, make_user, return_url, redirect):
    make_user("jeanne")
    extra = {} if return_url is None else {"returnUrl": return_url}
    response = _login(client, "jeanne", **extra)
    assert response.status_code == 200
    assert response.json()["redirectUrl"] == redirect
