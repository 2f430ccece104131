"""API tokens: created (the value shown once), listed, revoked, and recognised for their scope only."""

import hashlib
import logging
import secrets
from datetime import timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from spot.apitokens.models import ApiToken
from spot.apitokens.schemas import ApiTokenOut
from spot.core.errors import conflict, not_found
from spot.core.principal import Principal
from spot.core.time import utcnow

log = logging.getLogger("spot.security")

PREFIX = "spot_"
# How stale `last_used_at` may be before a use writes it again: a busy provider does not write a row
# at every call.
USE_PRECISION = timedelta(minutes=1)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create(db: Session, *, name: str, scope: str, by: Principal | None) -> tuple[ApiToken, str]:
    """A new token; the value is returned this once and never kept."""
    value = PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(
        name=name.strip(), scope=scope, token_hash=_hash(value), created_by_id=by.id if by else None
    )
    db.add(token)
    db.flush()
    log.info("api token created id=%s scope=%s by=%s", token.id, scope, by.id if by else "operator")
    return token, value


def view(token: ApiToken) -> ApiTokenOut:
    return ApiTokenOut(
        id=token.id,
        name=token.name,
        scope=token.scope,  # type: ignore[arg-type]
        created_at=token.created_at,
        created_by=token.created_by.display_name if token.created_by else None,
        last_used_at=token.last_used_at,
        revoked_at=token.revoked_at,
    )


def list_all(db: Session) -> list[ApiToken]:
    return list(db.scalars(select(ApiToken).order_by(ApiToken.revoked_at.is_not(None), ApiToken.id.desc())))


def revoke(db: Session, *, token_id: int, by: Principal) -> ApiToken:
    token = db.get(ApiToken, token_id)
    if token is None:
        raise not_found("apiTokenNotFound")
    if token.revoked_at is not None:
        raise conflict("apiTokenRevoked")
    token.revoked_at = utcnow()
    log.info("api token revoked id=%s by=%s", token.id, by.id)
    return token


def holder(db: Session, *, value: str, scope: str) -> ApiToken | None:
    """The live token of this value and scope, its use recorded; None for any other value, a revoked
    token, or a token of another scope."""
    if not value.startswith(PREFIX):
        return None
    token = db.scalar(select(ApiToken).where(ApiToken.token_hash == _hash(value)))
    if token is None or token.revoked_at is not None or token.scope != scope:
        return None
    now = utcnow()
    if token.last_used_at is None or now - token.last_used_at > USE_PRECISION:
        db.execute(update(ApiToken).where(ApiToken.id == token.id).values(last_used_at=now))
    return token
