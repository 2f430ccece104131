"""Sign-in through a real OpenID provider: the certified oidc-provider (npm, tests/oidc_provider/),
started by these tests, with its default behaviour (profile claims only from UserInfo) and PKCE
required. A test plays the browser: Spot's start, the provider's pages (who signs in, or a cancel),
Spot's callback, and the sign-out."""

import json
import re
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlsplit

import httpx
import jwt
import pytest
from sqlalchemy import select

from spot.account.models import SessionToken
from spot.users.models import Group, User
from support import API

PROVIDER_DIR = Path(__file__).resolve().parent.parent / "oidc_provider"
PUBLIC = "http://spot.test"
CALLBACK = f"{PUBLIC}{API}/account/oidc/0/callback"
# How long node may take to start the provider on a loaded machine; the tests go on as soon as it answers.
START_DEADLINE_S = 120


class Provider:
    """The running provider: its address, its test hooks, and the browser's cookies there."""

    def __init__(self, issuer: str) -> None:
        self.issuer = issuer
        self.hooks = httpx.Client(base_url=issuer, timeout=30)
        self.browser = httpx.Client(timeout=30)

    def settings(self, **more: object) -> str:
        return json.dumps(
            [
                {
                    "name": "Usine SSO",
                    "issuer": self.issuer,
                    "client_id": "spot",
                    "client_secret": "spot-secret",
                    "authorization_endpoint": f"{self.issuer}/auth",
                    "token_endpoint": f"{self.issuer}/token",
                    "jwks_uri": f"{self.issuer}/jwks",
                    "userinfo_endpoint": f"{self.issuer}/me",
                    "end_session_endpoint": f"{self.issuer}/session/end",
                    **more,
                }
            ]
        )

    def accounts(self, **claims: dict) -> None:
        self.hooks.post("/test/accounts", json=claims).raise_for_status()

    def prompts(self) -> list[str]:
        return self.hooks.get("/test/prompts").json()

    def follow(self, location: str) -> str:
        """The browser at the provider's pages until they send it back to Spot."""
        while not location.startswith(PUBLIC):
            answer = self.browser.get(location)
            assert answer.status_code in (302, 303), answer.text
            location = urljoin(self.issuer, answer.headers["location"])
        return location


@pytest.fixture(scope="module")
def running() -> Iterator[str]:
    if not (PROVIDER_DIR / "node_modules" / "oidc-provider").is_dir():
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=PROVIDER_DIR, check=True
        )
    options = {
        "redirectUris": [CALLBACK],
        "postLogoutRedirectUris": [f"{PUBLIC}/spotv2/login"],
        "requirePkce": True,
    }
    process = subprocess.Popen(
        ["node", "provider.mjs", json.dumps(options)],
        cwd=PROVIDER_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = process.stdout.readline() if process.stdout else ""
        assert line.startswith("listening "), f"the provider did not start: {line!r}"
        issuer = f"http://127.0.0.1:{int(line.split()[1])}"
        deadline = time.monotonic() + START_DEADLINE_S
        while True:
            try:
                httpx.get(f"{issuer}/.well-known/openid-configuration", timeout=30).raise_for_status()
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the provider does not answer"
                time.sleep(0.1)
        yield issuer
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture
def op(running, settings_env) -> Provider:
    provider = Provider(running)
    settings_env(SPOT_IDENTITY_PROVIDERS=provider.settings(), SPOT_PUBLIC_URL=PUBLIC)
    return provider


def _sign_in(client, op: Provider, *, account: str | None = None, deny: bool = False, start_query=None):
    """Spot's start, the provider's pages (signing in as `account` in a browser new to the provider, or
    cancelling; neither: the provider's session as it is), Spot's callback: Spot's answer (a redirection
    to the login page)."""
    if account:
        op.browser.cookies.clear()
    if account or deny:
        op.hooks.post(
            "/test/next", json={"deny": True} if deny else {"accountId": account}
        ).raise_for_status()
    start = client.get(
        f"{API}/account/oidc/0/start", params={"redirectUrl": "/spotv2/subjects"}, follow_redirects=False
    )
    assert start.status_code == 307, start.text
    if start_query is not None:
        start_query.update(parse_qs(urlsplit(start.headers["location"]).query))
    back = urlsplit(op.follow(start.headers["location"]))
    return client.get(f"{back.path}?{back.query}", follow_redirects=False)


def _token(response) -> str:
    assert response.status_code == 303
    target = urlsplit(response.headers["location"])
    assert "ssoError" not in target.query, target.query
    return parse_qs(target.fragment)["ssoToken"][0]


def _refused(response) -> str:
    assert response.status_code == 303
    assert "ssoToken" not in response.headers["location"]
    return parse_qs(urlsplit(response.headers["location"]).query)["ssoError"][0]


def test_the_person_is_named_by_userinfo_claims_and_pkce_is_sent(client, db, op, make_user):
    """The provider's default puts preferred_username in UserInfo only, and it requires PKCE."""
    user = make_user("jdupont")
    op.accounts(**{"sub-jd": {"preferred_username": "jdupont", "email": "jd@usine.example"}})
    query: dict = {}
    token = _token(_sign_in(client, op, account="sub-jd", start_query=query))
    assert (query["code_challenge_method"], len(query["code_challenge"][0])) == (["S256"], 43)
    me = client.get(f"{API}/account/whoAmI", headers={"x-access-token": token})
    assert me.status_code == 200 and me.json()["id"] == user.id
    session = db.scalar(select(SessionToken).where(SessionToken.user_id == user.id))
    id_claims = jwt.decode(session.id_token, options={"verify_signature": False})
    assert "preferred_username" not in id_claims and session.identity_provider == "Usine SSO"


def test_a_cancel_at_the_provider_is_told_as_such(client, op):
    assert _refused(_sign_in(client, op, deny=True)) == "identityProviderCancelled"


def test_each_failure_says_why(client, db, op, make_user, settings_env):
    op.accounts(**{"sub-x": {"preferred_username": "nobody"}, "sub-y": {"preferred_username": "left"}})
    assert _refused(_sign_in(client, op, account="sub-x")) == "unknownExternalUser"
    left = make_user("left")
    left.active = False
    db.commit()
    assert _refused(_sign_in(client, op, account="sub-y")) == "accountDeactivated"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    settings_env(SPOT_IDENTITY_PROVIDERS=op.settings(token_endpoint=f"http://127.0.0.1:{closed}/token"))
    assert _refused(_sign_in(client, op, account="sub-y")) == "identityProviderUnreachable"
    settings_env(SPOT_IDENTITY_PROVIDERS=op.settings(client_secret="wrong"))
    assert _refused(_sign_in(client, op, account="sub-y")) == "identityProviderRefused"


def test_the_groups_claim_moves_the_person_between_managed_groups_and_leaves_others(
    client, db, op, make_user, settings_env
):
    settings_env(
        SPOT_IDENTITY_PROVIDERS=op.settings(
            scope="openid profile email groups",
            groups_claim="groups",
            managed_groups=["Opérateurs", "Régleurs"],
        )
    )
    make_user("keeper", ["perm_SetPermissions"])
    user = make_user("mgroupe")
    operators, quality = Group(name="Opérateurs"), Group(name="Qualité")
    db.add_all([operators, quality])
    user.groups = [*user.groups, operators, quality]
    db.commit()
    op.accounts(**{"sub-g": {"preferred_username": "mgroupe", "groups": ["Régleurs", "Cantine"]}})
    _token(_sign_in(client, op, account="sub-g"))
    db.expire_all()
    names = {g.name for g in db.get(User, user.id).groups}
    assert names == {"group-of-mgroupe", "Qualité", "Régleurs"}
    assert db.scalar(select(Group).where(Group.name == "Cantine")) is None
    op.accounts(**{"sub-g": {"preferred_username": "mgroupe", "groups": ["Opérateurs"]}})
    _token(_sign_in(client, op))  # the provider's session is still open: no login prompt
    db.expire_all()
    assert {g.name for g in db.get(User, user.id).groups} == {"group-of-mgroupe", "Qualité", "Opérateurs"}


def test_an_unknown_person_is_created_from_the_claims_when_the_provider_may(
    client, db, op, make_user, settings_env
):
    make_user("keeper", ["perm_SetPermissions"])
    op.accounts(
        **{
            "sub-new": {
                "preferred_username": "lmartin",
                "given_name": "Léa",
                "family_name": "Martin",
                "email": "Lea.Martin@usine.example",
                "locale": "en-GB",
            }
        }
    )
    assert _refused(_sign_in(client, op, account="sub-new")) == "unknownExternalUser"
    settings_env(SPOT_IDENTITY_PROVIDERS=op.settings(create_users=True))
    token = _token(_sign_in(client, op))
    me = client.get(f"{API}/account/whoAmI", headers={"x-access-token": token}).json()
    assert (me["login"], me["firstName"], me["lastName"], me["email"], me["language"]) == (
        "lmartin",
        "Léa",
        "Martin",
        "lea.martin@usine.example",
        "en",
    )
    assert db.scalar(select(User).where(User.login == "lmartin")).password_hash == ""


def _confirm_sign_out(op: Provider, url: str) -> str:
    """The provider's sign-out page: its form, confirmed; where it sends the browser back."""
    page = op.browser.get(url)
    assert page.status_code == 200, page.text
    action = re.search(r'action="([^"]+)"', page.text)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page.text))
    assert action, page.text
    answer = op.browser.post(urljoin(op.issuer, action.group(1)), data={**fields, "logout": "yes"})
    assert answer.status_code in (302, 303), answer.text
    return answer.headers["location"]


def test_signing_out_ends_the_provider_session_so_the_next_person_must_sign_in(client, op, make_user):
    make_user("jdupont")
    op.accounts(**{"sub-jd": {"preferred_username": "jdupont"}})
    token = _token(_sign_in(client, op, account="sub-jd"))
    assert op.prompts()[-2:] == ["login", "consent"]
    again = _token(_sign_in(client, op))  # without signing out, the provider's session signs in at once
    prompts_before = len(op.prompts())

    out = client.post(f"{API}/account/logout", headers={"x-access-token": again})
    end = out.json()["endSessionUrl"]
    assert end.startswith(f"{op.issuer}/session/end?")
    assert parse_qs(urlsplit(end).query)["post_logout_redirect_uri"] == [f"{PUBLIC}/spotv2/login"]
    assert _confirm_sign_out(op, end) == f"{PUBLIC}/spotv2/login"
    client.post(f"{API}/account/logout", headers={"x-access-token": token})

    start = client.get(f"{API}/account/oidc/0/start", params={"redirectUrl": "/"}, follow_redirects=False)
    assert parse_qs(urlsplit(start.headers["location"]).query)["prompt"] == ["login"]
    interaction = op.browser.get(start.headers["location"]).headers["location"]
    login_page = op.browser.get(urljoin(op.issuer, interaction))
    assert login_page.status_code == 409  # the provider waits for someone to sign in: nobody is in
    assert op.prompts()[prompts_before:] == ["login"]


def test_without_an_end_session_endpoint_the_next_sign_in_asks_for_the_person(
    client, op, make_user, settings_env
):
    settings_env(SPOT_IDENTITY_PROVIDERS=op.settings(end_session_endpoint=""))
    make_user("jdupont")
    op.accounts(**{"sub-jd": {"preferred_username": "jdupont"}})
    token = _token(_sign_in(client, op, account="sub-jd"))
    out = client.post(f"{API}/account/logout", headers={"x-access-token": token})
    assert out.json() == {"endSessionUrl": None}
    query: dict = {}
    op.hooks.post("/test/next", json={"accountId": "sub-jd"}).raise_for_status()
    prompts_before = len(op.prompts())
    _token(_sign_in(client, op, start_query=query))  # the same browser: the provider's session is open
    assert query["prompt"] == ["login"]
    assert op.prompts()[prompts_before:] == ["login"]  # asked for the person again
