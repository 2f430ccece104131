"""Sign-in through an OpenID Connect provider (authorization-code flow).

The browser goes to `start`, which sends it to the provider with a signed `state` (provider,
return path, nonce, expiry) and puts the nonce in a cookie, so that the answer can only be used
by the browser that asked. The provider sends it back to `callback`, which exchanges the code,
checks the ID token (signature from the provider's keys, issuer, audience, expiry, nonce) and
opens a Spot session for the user the token names. Nothing is kept on the server in between.
"""

import base64
import hashlib
import hmac
import json
import logging
import secrets
import time
from urllib.parse import urlencode

import httpx
import jwt
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from spot.account.service import issue_token
from spot.config import IdentityProvider, get_settings
from spot.core.errors import ApiError
from spot.users.models import User

log = logging.getLogger("spot.security")

STATE_TTL_SECONDS = 600
NONCE_COOKIE = "spot_oidc_nonce"


def http_client() -> httpx.Client:
    """The client that talks to providers; tests replace it with one on a mock transport."""
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


def authorization_redirect(index: int, return_url: str) -> tuple[str, str]:
    """The provider's address to send the browser to, and the nonce to keep in its cookie."""
    chosen = provider(index)
    nonce = secrets.token_urlsafe(24)
    state = _sign({"p": index, "r": return_url, "n": nonce, "exp": time.time() + STATE_TTL_SECONDS})
    query = urlencode(
        {
            "client_id": chosen.client_id,
            "response_type": "code",
            "scope": chosen.scope,
            "redirect_uri": callback_url(index),
            "state": state,
            "nonce": nonce,
        }
    )
    return f"{chosen.authorization_endpoint}?{query}", nonce


async def sign_in(
    db: Session, *, index: int, code: str, state: str, cookie_nonce: str | None
) -> tuple[str, str]:
    """Check the provider's answer and open a session: (token, return path). The calls to the
    provider go through the thread pool."""
    payload = _unsign(state)
    same_browser = bool(cookie_nonce) and hmac.compare_digest(str(payload["n"]), cookie_nonce or "")
    if payload.get("p") != index or not same_browser:
        raise ApiError(400, "invalidSignInState")
    chosen = provider(index)
    claims = await run_in_threadpool(_id_token_claims, chosen, index, code, nonce=str(payload["n"]))
    value = claims.get(chosen.user_claim)
    column = User.login if chosen.user_field == "login" else User.external_id
    user = db.scalar(select(User).where(column == str(value))) if value else None
    if user is None:
        log.warning("oidc sign-in refused provider=%r claim=%r", chosen.name, value)
        raise ApiError(401, "unknownExternalUser")
    if not user.active:
        log.warning("oidc sign-in refused user_id=%s provider=%r: deactivated", user.id, chosen.name)
        raise ApiError(401, "accountDeactivated")
    log.info("oidc sign-in user_id=%s provider=%r", user.id, chosen.name)
    return issue_token(db, user=user), str(payload["r"])


def _id_token_claims(chosen: IdentityProvider, index: int, code: str, *, nonce: str) -> dict[str, object]:
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
                },
            )
            answer.raise_for_status()
            id_token = answer.json()["id_token"]
            keys = jwt.PyJWKSet.from_dict(client.get(chosen.jwks_uri).raise_for_status().json())
        except (httpx.HTTPError, ValueError, KeyError, jwt.PyJWTError) as exc:
            log.warning("oidc provider %r unreachable or refused the code: %s", chosen.name, exc)
            raise ApiError(502, "identityProviderError") from exc
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
            options={"require": ["exp", "iat", "iss", "aud"]},
        )
    except jwt.PyJWTError as exc:
        log.warning("oidc id token refused provider=%r: %s", chosen.name, exc)
        raise ApiError(401, "invalidIdToken") from exc
    if claims.get("nonce") != nonce:
        raise ApiError(401, "invalidIdToken")
    return claims
