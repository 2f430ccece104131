"""Sign-in through an OpenID Connect provider (authorization-code flow with PKCE).

The browser goes to `start`, which sends it to the provider with a signed `state` (provider, return
path, nonce, expiry), a PKCE challenge (S256), and `prompt=login` when the browser signed out of Spot
since; the nonce and the PKCE verifier go in a cookie, so that the answer can only be used by the
browser that asked. The provider sends it back to `callback`, which exchanges the code (with the
verifier), checks the ID token (signature from the provider's keys, issuer, audience, expiry, nonce),
reads the UserInfo endpoint when the provider has one (many give profile claims only there), and opens
a Spot session for the person the claims name: created from them when the provider may create people,
their managed groups following the groups claim. Nothing is kept on the server in between.

Each failure says why (the `ssoError` the login page shows): the person cancelled at the provider,
the provider refused, the provider could not be reached, the ID token is not valid, the person is not
known, or deactivated.
"""

import base64
import hashlib
import hmac
import json
import logging
import secrets
import time
from dataclasses import dataclass
from urllib.parse import urlencode

import httpx
import jwt
from pydantic import TypeAdapter, ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from spot.account.service import ACCOUNT_DEACTIVATED, issue_token
from spot.config import IdentityProvider, get_settings
from spot.core.errors import ApiError
from spot.core.schemas import Email
from spot.users import service as users
from spot.users.models import Group, User

log = logging.getLogger("spot.security")

STATE_TTL_SECONDS = 600
# The nonce and the PKCE verifier of a sign-in under way, "nonce.verifier" (both URL-safe base64).
NONCE_COOKIE = "spot_oidc_nonce"
# Set when a session opened through a provider ends: the next sign-in there asks for the person again.
PROMPT_COOKIE = "spot_oidc_prompt"

CANCELLED = "identityProviderCancelled"
REFUSED = "identityProviderRefused"
UNREACHABLE = "identityProviderUnreachable"
INVALID_ID_TOKEN = "invalidIdToken"
UNKNOWN_PERSON = "unknownExternalUser"

_email = TypeAdapter(Email)


def http_client() -> httpx.Client:
    """The client that talks to providers."""
    return httpx.Client(timeout=10)


def provider(index: int) -> IdentityProvider:
    providers = get_settings().identity_providers
    if not 0 <= index < len(providers):
        raise ApiError(404, "unknownIdentityProvider")
    return providers[index]


def callback_url(index: int) -> str:
    return f"{get_settings().public_url.rstrip('/')}/backend/api/v2/account/oidc/{index}/callback"


def _sign(payload: dict[str, object]) -> str:
    body = base64.urlsafe_b64encode(json.dumps(payload, separators=(",", ":")).encode()).decode()
    mac = hmac.new(get_settings().secret_key.encode(), body.encode(), hashlib.sha256).hexdigest()
    return f"{body}.{mac}"


def _unsign(state: str) -> dict[str, object]:
    body, _, mac = state.rpartition(".")
    expected = hmac.new(get_settings().secret_key.encode(), body.encode(), hashlib.sha256).hexdigest()
    if not body or not hmac.compare_digest(mac.encode(), expected.encode()):  # any text, even non-ASCII
        raise ApiError(400, "invalidSignInState")
    try:
        payload = json.loads(base64.urlsafe_b64decode(body.encode()))
    except ValueError as exc:
        raise ApiError(400, "invalidSignInState") from exc
    if not isinstance(payload, dict) or float(payload.get("exp", 0)) < time.time():
        raise ApiError(400, "invalidSignInState")
    return payload


def _challenge(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")


def authorization_redirect(index: int, return_url: str, *, prompt_again: bool) -> tuple[str, str]:
    """The provider's address to send the browser to, and the cookie value (nonce and PKCE verifier)
    that ties the answer to this browser."""
    chosen = provider(index)
    nonce = secrets.token_urlsafe(24)
    verifier = secrets.token_urlsafe(48)
    state = _sign({"p": index, "r": return_url, "n": nonce, "exp": time.time() + STATE_TTL_SECONDS})
    query = {
        "client_id": chosen.client_id,
        "response_type": "code",
        "scope": chosen.scope,
        "redirect_uri": callback_url(index),
        "state": state,
        "nonce": nonce,
        "code_challenge": _challenge(verifier),
        "code_challenge_method": "S256",
    }
    if prompt_again:
        query["prompt"] = "login"
    return f"{chosen.authorization_endpoint}?{urlencode(query)}", f"{nonce}.{verifier}"


def provider_error(error: str) -> ApiError:
    """The provider sent the browser back with an error instead of a code (RFC 6749 §4.1.2.1)."""
    return ApiError(401, CANCELLED if error in ("access_denied", "login_required") else REFUSED)


@dataclass(frozen=True)
class Answer:
    """What the provider said of the person: the claims (ID token, then UserInfo), and the ID token."""

    claims: dict[str, object]
    id_token: str


async def sign_in(db: Session, *, index: int, code: str, state: str, cookie: str | None) -> tuple[str, str]:
    """Check the provider's answer and open a session: (token, return path). The calls to the
    provider go through the thread pool."""
    payload = _unsign(state)
    nonce, _, verifier = (cookie or "").partition(".")
    same_browser = bool(nonce) and hmac.compare_digest(str(payload["n"]), nonce)
    if payload.get("p") != index or not same_browser or not verifier:
        raise ApiError(400, "invalidSignInState")
    if not code:
        raise ApiError(401, REFUSED)
    chosen = provider(index)
    answer = await run_in_threadpool(_answer, chosen, index, code, nonce=nonce, verifier=verifier)
    user = _person(db, chosen, answer.claims)
    log.info("oidc sign-in user_id=%s provider=%r", user.id, chosen.name)
    token = issue_token(db, user=user, identity_provider=chosen.name, id_token=answer.id_token)
    return token, str(payload["r"])


def _person(db: Session, chosen: IdentityProvider, claims: dict[str, object]) -> User:
    """The person the claims name (created when the provider may create people), their managed groups
    following the groups claim."""
    value = claims.get(chosen.user_claim)
    value = str(value) if isinstance(value, str | int) and str(value).strip() else None
    column = User.login if chosen.user_field == "login" else User.external_id
    user = db.scalar(select(User).where(column == value)) if value else None
    if user is None and value and chosen.create_users:
        user = _create(db, chosen, claims, value)
    if user is None:
        log.warning("oidc sign-in refused provider=%r claim=%r: unknown", chosen.name, value)
        raise ApiError(401, UNKNOWN_PERSON)
    if not user.active:
        log.warning("oidc sign-in refused user_id=%s provider=%r: deactivated", user.id, chosen.name)
        raise ApiError(401, ACCOUNT_DEACTIVATED)
    if chosen.groups_claim and chosen.managed_groups:
        _follow_groups(db, chosen, user, claims.get(chosen.groups_claim))
    return user


def _text(claims: dict[str, object], name: str) -> str:
    value = claims.get(name)
    return value.strip()[:200] if isinstance(value, str) else ""


def _create(db: Session, chosen: IdentityProvider, claims: dict[str, object], value: str) -> User:
    """A person the provider knows and Spot does not yet: login from user_claim (or, matched on the
    external id, the preferred username), names, e-mail and language from the standard claims."""
    login = value if chosen.user_field == "login" else (_text(claims, "preferred_username") or value)
    try:
        email = _email.validate_python(_text(claims, "email") or None)
    except ValidationError:
        email = None
    locale = _text(claims, "locale")[:2].lower()
    user = users.provision(
        db,
        user=None,
        login=login[:200],
        first_name=_text(claims, "given_name"),
        last_name=_text(claims, "family_name"),
        external_id=value if chosen.user_field == "external_id" else None,
        email=email,
        language=locale if locale in ("fr", "en") else None,
    )
    log.info("oidc person created user_id=%s provider=%r", user.id, chosen.name)
    return user


def _follow_groups(db: Session, chosen: IdentityProvider, user: User, claim: object) -> None:
    """Put the person in the managed groups the claim names, take them out of the other managed
    groups, leave every other group alone. A managed group Spot does not have yet is created (without
    permissions, for an administrator to give)."""
    named = (
        {claim} if isinstance(claim, str) else {str(g) for g in claim} if isinstance(claim, list) else set()
    )
    managed = set(chosen.managed_groups)
    existing = {g.name: g for g in db.scalars(select(Group).where(Group.name.in_(managed)))}
    for name in sorted((managed & named) - set(existing)):
        existing[name] = users.save_group(db, name=name)
    kept = [g for g in user.groups if g.name not in managed]
    wanted = [existing[name] for name in sorted(managed & named)]
    if {g.id for g in user.groups} != {g.id for g in kept + wanted}:
        users.set_groups(db, user=user, group_ids=[g.id for g in kept + wanted])
        log.info(
            "oidc groups followed user_id=%s provider=%r groups=%s",
            user.id,
            chosen.name,
            sorted(named & managed),
        )


def _answer(chosen: IdentityProvider, index: int, code: str, *, nonce: str, verifier: str) -> Answer:
    with http_client() as client:
        try:
            answer = client.post(
                chosen.token_endpoint,
                data={
                    "grant_type": "authorization_code",
                    "code": code,
                    "redirect_uri": callback_url(index),
                    "client_id": chosen.client_id,
                    "client_secret": chosen.client_secret,
                    "code_verifier": verifier,
                },
            )
            if answer.is_error:
                log.warning("oidc provider %r refused the code: %s", chosen.name, answer.status_code)
                raise ApiError(401, REFUSED)
            tokens = answer.json()
            id_token = tokens["id_token"]
            keys = jwt.PyJWKSet.from_dict(client.get(chosen.jwks_uri).raise_for_status().json())
            claims = _id_token_claims(chosen, id_token, keys, nonce=nonce)
            if chosen.userinfo_endpoint and tokens.get("access_token"):
                claims = _with_userinfo(client, chosen, claims, str(tokens["access_token"]))
        except httpx.TransportError as exc:
            log.warning("oidc provider %r unreachable: %s", chosen.name, exc)
            raise ApiError(502, UNREACHABLE) from exc
        except (httpx.HTTPError, ValueError, KeyError, TypeError, jwt.PyJWTError) as exc:
            log.warning("oidc provider %r answered what Spot cannot read: %s", chosen.name, exc)
            raise ApiError(502, REFUSED) from exc
    return Answer(claims=claims, id_token=id_token)


def _id_token_claims(
    chosen: IdentityProvider, id_token: str, keys: jwt.PyJWKSet, *, nonce: str
) -> dict[str, object]:
    try:
        kid = jwt.get_unverified_header(id_token).get("kid")
        key = next((k for k in keys.keys if kid is None or k.key_id == kid), None)
        if key is None:
            raise jwt.InvalidTokenError("no matching key")
        claims = jwt.decode(
            id_token,
            key=key,
            algorithms=["RS256", "ES256", "PS256"],
            audience=chosen.client_id,
            issuer=chosen.issuer,
            options={"require": ["exp", "iat", "iss", "aud", "sub"]},
        )
    except jwt.PyJWTError as exc:
        log.warning("oidc id token refused provider=%r: %s", chosen.name, exc)
        raise ApiError(401, INVALID_ID_TOKEN) from exc
    if claims.get("nonce") != nonce:
        raise ApiError(401, INVALID_ID_TOKEN)
    return claims


def _with_userinfo(
    client: httpx.Client, chosen: IdentityProvider, claims: dict[str, object], access_token: str
) -> dict[str, object]:
    """The UserInfo claims under the ID token's (OIDC Core §5.3.2: its `sub` must be the ID token's)."""
    answer = client.get(chosen.userinfo_endpoint, headers={"Authorization": f"Bearer {access_token}"})
    if answer.is_error:
        log.warning("oidc userinfo refused provider=%r: %s", chosen.name, answer.status_code)
        raise ApiError(401, REFUSED)
    info = answer.json()
    if not isinstance(info, dict) or info.get("sub") != claims.get("sub"):
        log.warning("oidc userinfo of another subject provider=%r", chosen.name)
        raise ApiError(401, INVALID_ID_TOKEN)
    return {**info, **claims}


def end_session_url(name: str | None, id_token: str | None) -> str | None:
    """Where the browser ends the provider's session after signing out of Spot (RP-initiated logout),
    back to Spot's login page; None when the session did not come from a provider offering it."""
    chosen = next((p for p in get_settings().identity_providers if p.name == name), None) if name else None
    if chosen is None or not chosen.end_session_endpoint:
        return None
    query = {
        "client_id": chosen.client_id,
        "post_logout_redirect_uri": f"{get_settings().public_url.rstrip('/')}/spotv2/login",
    }
    if id_token:
        query["id_token_hint"] = id_token
    return f"{chosen.end_session_endpoint}?{urlencode(query)}"
