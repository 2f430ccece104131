"""OpenID Connect: the login page's provider buttons, and what a real provider never sends (tokens
signed by another key, forged states, replayed nonces), from a fake provider whose token and key
endpoints a mock transport answers. The round trips through a real provider are in
test_oidc_provider.py."""

import json
import time
from urllib.parse import parse_qs, urlsplit

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from spot.account import oidc
from support import API, assert_error, field_codes

URL = f"{API}/account/identity-providers"
PROVIDER = {
    "name": "Entreprise SSO",
    "issuer": "https://sso.example.com",
    "client_id": "spot-client",
    "client_secret": "s3cret",
    "authorization_endpoint": "https://sso.example.com/authorize",
    "token_endpoint": "https://sso.example.com/token",
    "jwks_uri": "https://sso.example.com/jwks",
    "icon_url": "https://sso.example.com/icon.png",
}
KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
OTHER_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)


def test_redirect_url_is_required(client):
    response = client.get(URL)
    assert_error(response, 400, "The parameter 'redirectUrl' must be defined")
    assert field_codes(response) == {("redirectUrl", "emptyFieldError")}
    assert_error(client.get(URL, params={"redirectUrl": ""}), 400)


def test_no_provider_configured_gives_an_empty_list(client, settings_env):
    settings_env(SPOT_IDENTITY_PROVIDERS="[]")
    response = client.get(URL, params={"redirectUrl": "/spotv2/"})
    assert response.status_code == 200
    assert response.json() == []


def test_a_configured_provider_is_listed_without_a_session(client, settings_env):
    settings_env(SPOT_IDENTITY_PROVIDERS=json.dumps([PROVIDER]))
    response = client.get(URL, params={"redirectUrl": "/spotv2/subjects"})
    assert response.status_code == 200
    [provider] = response.json()
    assert provider["name"] == "Entreprise SSO"
    assert provider["iconUrl"] == "https://sso.example.com/icon.png"
    url = urlsplit(provider["loginUrl"])
    assert url.path == f"{API}/account/oidc/0/start"
    assert parse_qs(url.query) == {"redirectUrl": ["/spotv2/subjects"]}


def test_a_foreign_redirect_is_not_carried_to_the_provider(client, settings_env):
    settings_env(SPOT_IDENTITY_PROVIDERS=json.dumps([PROVIDER]))
    [provider] = client.get(URL, params={"redirectUrl": "https://evil.example/"}).json()
    assert parse_qs(urlsplit(provider["loginUrl"]).query)["redirectUrl"] == ["/spotv2/"]


@pytest.fixture
def provider(settings_env, monkeypatch):
    """A fake provider: issues an ID token for whatever claims the test sets."""
    settings_env(SPOT_IDENTITY_PROVIDERS=json.dumps([PROVIDER]), SPOT_PUBLIC_URL="https://spot.example.com")
    state = {"claims": {}, "key": KEY, "token_status": 200, "requests": []}

    def handler(request: httpx.Request) -> httpx.Response:
        state["requests"].append(request)
        if request.url.path == "/token":
            now = int(time.time())
            claims = {
                "iss": PROVIDER["issuer"],
                "aud": PROVIDER["client_id"],
                "iat": now,
                "exp": now + 300,
                "sub": "subject-1",
                **state["claims"],
            }
            token = jwt.encode(claims, state["key"], algorithm="RS256", headers={"kid": "k1"})
            return httpx.Response(state["token_status"], json={"id_token": token, "token_type": "Bearer"})
        jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(KEY.public_key()))
        return httpx.Response(200, json={"keys": [{**jwk, "kid": "k1", "use": "sig", "alg": "RS256"}]})

    monkeypatch.setattr(oidc, "http_client", lambda: httpx.Client(transport=httpx.MockTransport(handler)))
    return state


def _start(client, return_url="/spotv2/subjects"):
    response = client.get(
        f"{API}/account/oidc/0/start", params={"redirectUrl": return_url}, follow_redirects=False
    )
    assert response.status_code == 307
    query = parse_qs(urlsplit(response.headers["location"]).query)
    return query, response.cookies[oidc.NONCE_COOKIE].partition(".")[0]


def _callback(client, query, code="the-code"):
    return client.get(
        f"{API}/account/oidc/0/callback",
        params={"code": code, "state": query["state"][0]},
        follow_redirects=False,
    )


def test_start_sends_the_browser_to_the_provider_with_a_bound_nonce(client, provider):
    query, nonce = _start(client)
    assert query["client_id"] == ["spot-client"]
    assert query["response_type"] == ["code"]
    assert query["redirect_uri"] == [f"https://spot.example.com{API}/account/oidc/0/callback"]
    assert query["nonce"] == [nonce]


def test_unknown_provider_index(client, provider):
    response = client.get(f"{API}/account/oidc/3/start", follow_redirects=False)
    assert_error(response, 404, "unknownIdentityProvider")


def test_the_round_trip_opens_a_session_for_the_named_user(client, provider, make_user):
    user = make_user("jdupont")
    query, nonce = _start(client)
    provider["claims"] = {"preferred_username": "jdupont", "nonce": nonce}
    response = _callback(client, query)
    assert response.status_code == 303
    target = urlsplit(response.headers["location"])
    assert target.path == "/spotv2/login"
    assert parse_qs(target.query) == {"returnUrl": ["/spotv2/subjects"]}
    token = parse_qs(target.fragment)["ssoToken"][0]
    me = client.get(f"{API}/account/whoAmI", headers={"x-access-token": token})
    assert me.status_code == 200 and me.json()["id"] == user.id
    exchange = provider["requests"][0]
    assert parse_qs(exchange.content.decode())["code"] == ["the-code"]


def _refused(response, code):
    assert response.status_code == 303
    assert parse_qs(urlsplit(response.headers["location"]).query)["ssoError"] == [code]
    assert "ssoToken" not in response.headers["location"]


def test_an_unknown_user_is_refused(client, provider):
    query, nonce = _start(client)
    provider["claims"] = {"preferred_username": "nobody", "nonce": nonce}
    _refused(_callback(client, query), "unknownExternalUser")


def test_a_deactivated_person_is_refused_and_told_why(client, db, provider, make_user):
    user = make_user("jdupont")
    user.active = False
    db.commit()
    query, nonce = _start(client)
    provider["claims"] = {"preferred_username": "jdupont", "nonce": nonce}
    _refused(_callback(client, query), "accountDeactivated")


def test_a_token_signed_by_another_key_is_refused(client, provider, make_user):
    make_user("jdupont")
    query, nonce = _start(client)
    provider["claims"] = {"preferred_username": "jdupont", "nonce": nonce}
    provider["key"] = OTHER_KEY
    _refused(_callback(client, query), "invalidIdToken")


def test_a_replayed_nonce_is_refused(client, provider, make_user):
    make_user("jdupont")
    query, _nonce = _start(client)
    provider["claims"] = {"preferred_username": "jdupont", "nonce": "another"}
    _refused(_callback(client, query), "invalidIdToken")


def test_a_callback_without_the_browser_cookie_is_refused(client, provider, make_user):
    make_user("jdupont")
    query, nonce = _start(client)
    provider["claims"] = {"preferred_username": "jdupont", "nonce": nonce}
    client.cookies.clear()
    _refused(_callback(client, query), "invalidSignInState")


@pytest.mark.parametrize("state", ["e30.abc", "e30.é", "é.", "\u00e9\u00e9.\u00e9"])
def test_a_forged_state_is_refused(client, provider, state):
    """Whatever text stands in the state, even non-ASCII (a 500 once), it is refused as such."""
    _start(client)
    response = client.get(
        f"{API}/account/oidc/0/callback", params={"code": "c", "state": state}, follow_redirects=False
    )
    _refused(response, "invalidSignInState")


def test_a_provider_refusing_the_code(client, provider):
    query, _nonce = _start(client)
    provider["token_status"] = 400
    _refused(_callback(client, query), "identityProviderRefused")
