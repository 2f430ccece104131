"""POST /account/reauthenticate and session_token.authenticated_at: when a session's user last proved
who they are, which signatures require recent (core.signatures)."""

import hashlib
import logging
from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import select

from spot.account import throttle
from spot.account.models import SessionToken
from spot.config import get_settings
from spot.core.time import utcnow
from support import API, PASSWORD, assert_error, field_codes

REAUTHENTICATE = f"{API}/account/reauthenticate"
RENEW = f"{API}/account/renewToken"
WHO = f"{API}/account/whoAmI"


def _reauthenticate(client: TestClient, headers: dict[str, str], password: str = PASSWORD):
    return client.post(REAUTHENTICATE, json={"password": password}, headers=headers)


def _session(db, headers: dict[str, str]) -> SessionToken:
    db.expire_all()
    token_hash = hashlib.sha256(headers["x-access-token"].encode()).hexdigest()
    return db.scalars(select(SessionToken).where(SessionToken.token_hash == token_hash)).one()


def test_sign_in_authenticates_the_session_at_its_issue(client, db, make_user, login):
    before = utcnow()
    session = _session(db, login(make_user()))
    assert session.authenticated_at == session.issued_at
    assert before <= session.authenticated_at <= utcnow()


def test_the_password_again_authenticates_the_session_now(client, db, make_user, login, authentication):
    headers = login(make_user())
    authentication.stale(headers)
    stale = _session(db, headers).authenticated_at
    before = utcnow()
    response = _reauthenticate(client, headers)
    assert response.status_code == 204, response.text
    assert response.content == b""
    session = _session(db, headers)
    assert before <= session.authenticated_at <= utcnow()
    assert session.authenticated_at > stale
    # The token stays the same and the session goes on.
    assert client.get(WHO, headers=headers).status_code == 200


def test_only_the_current_session_is_authenticated_again(client, db, make_user, login, authentication):
    user = make_user()
    this, other = login(user), login(user)
    authentication.stale(this)
    authentication.stale(other)
    assert _reauthenticate(client, this).status_code == 204
    assert utcnow() - _session(db, other).authenticated_at > timedelta(minutes=5)


def test_a_wrong_password_is_refused_on_its_field(client, db, make_user, login, authentication):
    headers = login(make_user())
    authentication.stale(headers)
    stale = _session(db, headers).authenticated_at
    response = _reauthenticate(client, headers, "wrong-password")
    assert_error(response, 400, "loginError")
    assert field_codes(response) == {("password", "loginError")}
    assert _session(db, headers).authenticated_at == stale
    # A wrong password does not end the session.
    assert client.get(WHO, headers=headers).status_code == 200


def test_an_empty_password_is_a_wrong_one(client, make_user, login):
    response = _reauthenticate(client, login(make_user()), "")
    assert_error(response, 400, "loginError")
    assert field_codes(response) == {("password", "loginError")}


def test_a_too_long_password_is_bad_input(client, make_user, login):
    response = _reauthenticate(client, login(make_user()), "x" * 201)
    assert_error(response, 422)
    assert field_codes(response) == {("password", "string_too_long")}


def test_a_password_that_cannot_be_encoded_is_bad_input(client, make_user, login):
    headers = {**login(make_user()), "content-type": "application/json"}
    response = client.post(REAUTHENTICATE, content=b'{"password": "a\\ud800"}', headers=headers)
    assert_error(response, 422)
    assert field_codes(response) == {("password", "invalidCharacter")}


def test_without_a_session_there_is_nothing_to_authenticate(client, make_user, login):
    assert_error(client.post(REAUTHENTICATE, json={"password": PASSWORD}), 401)
    headers = login(make_user())
    assert client.post(f"{API}/account/logout", headers=headers).status_code == 200
    assert_error(_reauthenticate(client, headers), 401, "sessionExpired")


def test_a_user_without_a_password_must_sign_in_through_their_provider(client, db, make_user, login):
    user = make_user("external")
    headers = login(user)
    user.password_hash = ""
    db.commit()
    assert_error(_reauthenticate(client, headers, ""), 400, "reauthenticationByProviderNeeded")
    assert_error(
        _reauthenticate(client, headers, "spot-dummy-password"), 400, "reauthenticationByProviderNeeded"
    )


def test_failures_are_throttled_like_sign_ins(client, db, make_user, login, clock):
    settings = get_settings()
    headers = login(make_user("jeanne"))
    for _ in range(settings.login_free_failures_per_login):
        assert_error(_reauthenticate(client, headers, "wrong-password"), 400, "loginError")
    throttled = _reauthenticate(client, headers)
    assert_error(throttled, 429, throttle.THROTTLED_MESSAGE)
    assert int(throttled.headers["retry-after"]) == settings.login_backoff_first_seconds
    # Once the wait is over, the right password goes through.
    clock.advance(settings.login_backoff_first_seconds + 1)
    assert _reauthenticate(client, headers).status_code == 204


def test_reauthentication_failures_count_with_sign_in_failures(client, make_user, login):
    """One budget of guesses for a login from an address, whichever door they knock at."""
    settings = get_settings()
    headers = login(make_user("jeanne"))
    for _ in range(settings.login_free_failures_per_login - 1):
        client.post(f"{API}/account/login", json={"username": "jeanne", "password": "wrong"})
    assert_error(_reauthenticate(client, headers, "wrong-password"), 400, "loginError")
    assert_error(_reauthenticate(client, headers), 429)


def _from(client: TestClient, address: str) -> TestClient:
    return TestClient(client.app, client=(address, 4444))


def test_guesses_from_ever_new_addresses_in_one_held_session_wait_past_the_free_ones(
    client, make_user, login, clock
):
    """Whoever holds a session cannot guess its owner's password by changing address at each attempt."""
    settings = get_settings()
    headers = login(make_user("jeanne"))
    free = settings.login_free_failures_per_account
    for n in range(free):
        assert_error(
            _reauthenticate(_from(client, f"10.6.6.{n}"), headers, "wrong-password"), 400, "loginError"
        )
    throttled = _reauthenticate(_from(client, "10.6.7.1"), headers, "wrong-password")
    assert_error(throttled, 429, throttle.THROTTLED_MESSAGE)
    assert int(throttled.headers["retry-after"]) == settings.login_backoff_first_seconds
    assert_error(client.post(f"{API}/account/login", json={"username": "jeanne", "password": PASSWORD}), 429)
    # The wait over, the right password goes through, and the owner is told at their next sign-in.
    clock.advance(settings.login_backoff_first_seconds + 1)
    assert _reauthenticate(_from(client, "10.6.7.2"), headers).status_code == 204
    signed_in = client.post(f"{API}/account/login", json={"username": "jeanne", "password": PASSWORD})
    assert signed_in.json()["failedAttempts"] == free


def test_a_right_password_clears_the_failures(client, make_user, login):
    settings = get_settings()
    headers = login(make_user("jeanne"))
    for _ in range(settings.login_free_failures_per_login - 1):
        assert_error(_reauthenticate(client, headers, "wrong-password"), 400)
    assert _reauthenticate(client, headers).status_code == 204
    for _ in range(settings.login_free_failures_per_login - 1):
        assert_error(_reauthenticate(client, headers, "wrong-password"), 400)
    assert _reauthenticate(client, headers).status_code == 204


def test_renewal_carries_the_last_authentication_over(client, db, make_user, login, authentication):
    """A renewed token is no proof of identity: the new session keeps the old one's authentication."""
    headers = login(make_user())
    authentication.stale(headers)
    old = _session(db, headers)
    old.issued_at = old.issued_at - timedelta(hours=1, minutes=1)
    db.commit()
    response = client.post(RENEW, headers=headers)
    assert response.status_code == 200
    renewed = {"x-access-token": response.json()["token"]}
    assert renewed != headers
    new = _session(db, renewed)
    assert new.issued_at > old.issued_at
    assert new.authenticated_at == _session(db, headers).authenticated_at


def test_reauthentication_writes_security_log_lines(client, db, make_user, login, caplog):
    user = make_user()
    headers = login(user)
    session_id = _session(db, headers).id
    with caplog.at_level(logging.INFO, logger="spot.security"):
        _reauthenticate(client, headers, "wrong-password")
        _reauthenticate(client, headers)
    lines = [r.getMessage() for r in caplog.records if r.name == "spot.security"]
    assert lines == [
        f"reauthentication failed user_id={user.id} session_id={session_id} address=testclient",
        f"reauthentication user_id={user.id} session_id={session_id} address=testclient",
    ]
