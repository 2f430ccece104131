import hashlib
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import String, bindparam, cast, func, literal_column, select, update
from sqlalchemy.orm import Session, contains_eager
from starlette.concurrency import run_in_threadpool

from spot.account import throttle
from spot.account.models import SessionToken
from spot.config import get_settings
from spot.core import auth
from spot.core.errors import ApiError, FieldError
from spot.core.passwords import verify_password
from spot.core.principal import Principal
from spot.core.time import utcnow
from spot.db import plain
from spot.mapping.policy import SEES_EVERY_CARTOGRAPHY
from spot.users import service as users
from spot.users.models import GRANTED, User, user_group

log = logging.getLogger("spot.security")

RENEWAL_AFTER = timedelta(hours=1)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(
    db: Session,
    *,
    user: User,
    authenticated_at: datetime | None = None,
    identity_provider: str | None = None,
    id_token: str | None = None,
) -> str:
    """A new session of the user, authenticated now unless `authenticated_at` (a renewal) says when;
    opened through `identity_provider` (its name), whose ID token is kept for signing out there."""
    token = secrets.token_urlsafe(32)
    now = utcnow()
    db.add(
        SessionToken(
            token_hash=_hash(token),
            user_id=user.id,
            issued_at=now,
            authenticated_at=authenticated_at or now,
            expires_at=now + timedelta(hours=get_settings().session_hours),
            identity_provider=identity_provider,
            id_token=id_token,
        )
    )
    db.flush()
    return token


@dataclass(frozen=True)
class SignedIn:
    token: str
    # Wrong passwords given for the login since its previous sign-in with a password, to tell its owner.
    failed_attempts: int


def _count_failure(db: Session, user: User | None) -> None:
    """A wrong password was given for this user's login: counted for its owner, and committed before
    the request fails (which rolls back what it wrote)."""
    if user is not None:
        db.execute(update(User).where(User.id == user.id).values(failed_sign_ins=User.failed_sign_ins + 1))
        db.commit()


async def login(db: Session, *, username: str, password: str, address: str) -> SignedIn:
    """Check the credentials and open a session. The attempt is counted first, and throttled
    (account.throttle); the hash is checked in the thread pool, with nothing of the request pending.
    The wrong passwords given for the login since its last sign-in are told once, then start afresh."""
    throttle.check(db, login=username, address=address)
    user = db.scalar(select(User).where(User.login == username))
    known = await run_in_threadpool(verify_password, user.password_hash if user else None, password)
    if not known or user is None:
        _count_failure(db, user)
        log.warning("login failed login=%r address=%s", username, address)
        raise ApiError(401, "Invalid login or password")
    if not user.active:
        # Told only to whoever gives the right password: a guess learns nothing more.
        log.warning("login refused user_id=%s address=%s: deactivated", user.id, address)
        raise ApiError(401, ACCOUNT_DEACTIVATED)
    throttle.succeeded(db, login=username, address=address)
    failed = user.failed_sign_ins
    if failed:
        # Those counted meanwhile (a guess answered after this read) stay for the next sign-in.
        db.execute(
            update(User).where(User.id == user.id).values(failed_sign_ins=User.failed_sign_ins - failed)
        )
    log.info("login user_id=%s address=%s failed_since_last=%s", user.id, address, failed)
    return SignedIn(token=issue_token(db, user=user), failed_attempts=failed)


REAUTHENTICATION_BY_PROVIDER_NEEDED = "reauthenticationByProviderNeeded"
ACCOUNT_DEACTIVATED = "accountDeactivated"


async def reauthenticate(db: Session, *, session: SessionToken, password: str, address: str) -> None:
    """The session's user gives their password again (before a signature, core.signatures): the
    session counts as authenticated now. Throttled like a sign-in, with the user's login; a wrong
    password is 400 loginError on the field. A user without a password (signed in through an identity
    provider) cannot prove themself here: 400 reauthenticationByProviderNeeded, they sign in again
    through their provider, which opens a freshly authenticated session."""
    user = session.user
    if not user.password_hash:
        raise ApiError(400, REAUTHENTICATION_BY_PROVIDER_NEEDED)
    throttle.check(db, login=user.login, address=address)
    if not await run_in_threadpool(verify_password, user.password_hash, password):
        _count_failure(db, user)
        log.warning(
            "reauthentication failed user_id=%s session_id=%s address=%s", user.id, session.id, address
        )
        raise ApiError(400, "loginError", [FieldError(field="password", code="loginError")])
    throttle.succeeded(db, login=user.login, address=address)
    session.authenticated_at = utcnow()
    log.info("reauthentication user_id=%s session_id=%s address=%s", user.id, session.id, address)


# The routes on the session itself (renew, logout, change password) run it: the session and its user
# in one statement (groups load only when asked for), built once with the hash as a parameter.
_SIGNED_IN = (
    select(SessionToken)
    .join(User, User.id == SessionToken.user_id)
    .options(contains_eager(SessionToken.user).lazyload(User.groups))
    .where(SessionToken.token_hash == bindparam("token_hash"), User.active)
)


# What every signed-in request reads: the session's validity and its user as a Principal (id, display
# name, the names of its permissions, its groups, whether it sees every cartography). One row, without
# the ORM (principal_for).
_GROUP_IDS = func.coalesce(
    select(func.aggregate_strings(cast(user_group.c.group_id, String), literal_column("','")))  # type: ignore[arg-type]
    .where(user_group.c.user_id == User.id)
    .scalar_subquery(),
    "",
)
_PRINCIPAL = (User.id, User.display_name, GRANTED, _GROUP_IDS, SEES_EVERY_CARTOGRAPHY)
_SIGNED_IN_PRINCIPAL = (
    select(SessionToken.revoked_at, SessionToken.expires_at, *_PRINCIPAL)
    .join(User, User.id == SessionToken.user_id)
    .where(SessionToken.token_hash == bindparam("token_hash"), User.active)
)


def _principal(row: Any) -> Principal:
    user_id, display_name, permissions, group_ids, sees_every_cartography = row
    return Principal(
        id=user_id,
        display_name=display_name,
        permission_names=frozenset(permissions.split(",")) if permissions else frozenset(),
        group_ids=frozenset(int(g) for g in group_ids.split(",")) if group_ids else frozenset(),
        sees_every_cartography=bool(sees_every_cartography),
    )


def principal_for(db: Session, *, token: str) -> Principal | None:
    """Who holds a token's live session, or None when it is unknown, revoked or expired, or its person
    deactivated."""
    row = plain(db).execute(_SIGNED_IN_PRINCIPAL, {"token_hash": _hash(token)}).one_or_none()
    if row is None or row[0] is not None or row[1] <= utcnow():
        return None
    return _principal(row[2:])


def principal_of(db: Session, *, user_id: int) -> Principal:
    """A user as a Principal, for work done on someone's behalf outside a request (the demo, the CLI)."""
    return _principal(plain(db).execute(select(*_PRINCIPAL).where(User.id == user_id)).one())


def session_for(db: Session, *, token: str) -> SessionToken | None:
    """The live session of a token, or None when it is unknown, revoked or expired."""
    session = db.scalars(_SIGNED_IN, {"token_hash": _hash(token)}).one_or_none()
    if session is None or session.revoked_at is not None or session.expires_at <= utcnow():
        return None
    return session


def renew(db: Session, *, session: SessionToken, token: str) -> str:
    """A new token once more than an hour has passed since issue (the old one is revoked); else the same."""
    if utcnow() - session.issued_at <= RENEWAL_AFTER:
        return token
    session.revoked_at = utcnow()
    return issue_token(
        db,
        user=session.user,
        authenticated_at=session.authenticated_at,
        identity_provider=session.identity_provider,
        id_token=session.id_token,
    )


def revoke_sessions(db: Session, *, user_id: int, keep: int | None = None) -> None:
    """End every live session of a user (but `keep`), e.g. once its password has changed."""
    db.execute(
        update(SessionToken)
        .where(
            SessionToken.user_id == user_id,
            SessionToken.revoked_at.is_(None),
            SessionToken.id != (keep or 0),
        )
        .values(revoked_at=utcnow())
    )


def logout(db: Session, *, session: SessionToken) -> None:
    session.revoked_at = utcnow()
    log.info("logout user_id=%s", session.user_id)


auth.register_principal_reader(lambda db, token: principal_for(db, token=token))
users.on_deactivation.append(lambda db, user_id: revoke_sessions(db, user_id=user_id))
