"""Electronic signatures of records (DESIGN §5), the one service every area signs through: mediation
participants now, training path and module sign-offs later.

Built to the bar of 21 CFR Part 11 §11.50-11.200 and EU GMP Annex 11 §14: the signer proves who they
are at the moment of signing (a session whose user gave their password less than 5 minutes earlier,
else 401 `reauthenticationRequired` and the client asks for it again); a signature keeps the signer's
printed name as it was, the date and time, its meaning, and a hash of the signed content, so that a
later change of the record shows as "modified after signature". A signature is never deleted, only
revoked with a reason (and who revoked it, when); each signature and revocation writes a security
log line.

A record is named by type and id (like core.parents): the area decides what content it signs (the
fields that make the record's meaning, as plain JSON-able data) and passes the same shape again to
`for_record` to learn whether the record changed since. Sessions and users are areas of their own
(account, users): a signature takes any session that says whose it is and when its user last proved
who they are (`Authentication`), and reads revokers' printed names through what users.models
registers as it loads (`register_user_names`)."""

import hashlib
import json
import logging
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Protocol

from pydantic import BaseModel
from sqlalchemy import ColumnElement, ForeignKey, FromClause, Index, Integer, String, select, text, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from spot.core.errors import ApiError, conflict
from spot.core.principal import Principal
from spot.core.schemas import CamelModel, UserName
from spot.core.time import utcnow
from spot.db import Base, UtcDateTime, load_models

log = logging.getLogger("spot.security")

REAUTHENTICATE_AFTER = timedelta(minutes=5)
REAUTHENTICATION_REQUIRED = "reauthenticationRequired"
ALREADY_SIGNED = "alreadySigned"


class Authentication(Protocol):
    """What signing needs of a session (account.models.SessionToken): whose it is, and when its user
    last gave their password."""

    @property
    def user_id(self) -> int: ...

    @property
    def authenticated_at(self) -> datetime: ...


@dataclass(frozen=True)
class _UserNames:
    table: FromClause
    id: ColumnElement[int]
    name: ColumnElement[str]
    active: ColumnElement[bool]


_user_names: _UserNames | None = None


def register_user_names(
    table: FromClause, id: ColumnElement[int], name: ColumnElement[str], active: ColumnElement[bool]
) -> None:
    """The user table, its id, the SQL of a user's printed name (users.models.User.display_name) and
    whether they are active (a signer who left is marked so)."""
    global _user_names
    _user_names = _UserNames(table, id, name, active)


def _users() -> _UserNames:
    if _user_names is None:
        load_models()
    if _user_names is None:
        raise RuntimeError("the users' names were not registered (spot.users.models registers them)")
    return _user_names


class Signature(Base):
    """One signature of one record by one user. Never deleted: revoked_at, revoked_by and
    revoke_reason say when, by whom and why it stopped counting."""

    __tablename__ = "signature"
    __table_args__ = (
        Index("ix_signature_record", "record_type", "record_id"),
        # One live signature per signer, record and meaning: two requests signing at once cannot both win.
        Index(
            "uq_signature_live",
            "record_type",
            "record_id",
            "signer_id",
            "meaning",
            unique=True,
            sqlite_where=text("revoked_at IS NULL"),
            postgresql_where=text("revoked_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    record_type: Mapped[str] = mapped_column(String(40))
    record_id: Mapped[int] = mapped_column(Integer)
    # Null once the signer's account is removed; the printed name stays.
    signer_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    signer_name: Mapped[str] = mapped_column(String(700))
    signed_at: Mapped[datetime] = mapped_column(UtcDateTime)
    meaning: Mapped[str] = mapped_column(String(60))
    content_hash: Mapped[str] = mapped_column(String(64))
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    revoked_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    revoke_reason: Mapped[str | None] = mapped_column(String(100))


class SignatureRevocation(CamelModel):
    date: datetime
    # A message key of the client (signatures.reasons.<reason>), e.g. mediationInvalidated.
    reason: str
    # Null once the revoker's account is removed.
    by: UserName | None


class SignatureOut(CamelModel):
    id: int
    user_id: int | None
    # The signer's printed name as it was when they signed.
    user_name: str
    # False once the signer left (deactivated): they stay named, marked as inactive.
    user_active: bool = True
    date: datetime
    # A message key of the client (signatures.meanings.<meaning>), e.g. attendanceAndAgreement.
    meaning: str
    # The record's content no longer has the hash it had when signed.
    modified_after_signature: bool
    revoked: SignatureRevocation | None


def _canonical(value: Any) -> Any:
    """What json.dumps cannot write itself, in one stable form: date-times and dates in ISO-8601,
    models as their JSON data, sets sorted; anything else as its str()."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    if isinstance(value, set | frozenset):
        return sorted(value, key=lambda item: json.dumps(item, sort_keys=True, default=_canonical))
    return str(value)


def content_hash(content: Any) -> str:
    """SHA-256 (hex) of the content's canonical JSON: keys sorted, no spaces, UTF-8. The same content
    gives the same hash whatever the order of its keys or the database it was read from."""
    canonical = json.dumps(
        content, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_canonical
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def require_recent_authentication(session: Authentication) -> None:
    """401 reauthenticationRequired unless the session's user gave their password (sign-in or
    POST /account/reauthenticate) within the last REAUTHENTICATE_AFTER. A renewed token keeps the
    time of the last proof: renewal proves nothing."""
    if utcnow() - session.authenticated_at > REAUTHENTICATE_AFTER:
        raise ApiError(401, REAUTHENTICATION_REQUIRED)


def sign(
    db: Session,
    *,
    user: Principal,
    session: Authentication,
    record_type: str,
    record_id: int,
    meaning: str,
    content: Any,
) -> Signature:
    """Sign a record in the name of the session's user: 401 reauthenticationRequired when the session
    was not authenticated recently, 409 alreadySigned when the user has a live signature of that
    meaning on the record. The area checks first that the user may sign it at all."""
    if session.user_id != user.id:
        raise ValueError("the session is not the signer's")
    require_recent_authentication(session)
    live = select(Signature.id).where(
        Signature.record_type == record_type,
        Signature.record_id == record_id,
        Signature.signer_id == user.id,
        Signature.meaning == meaning,
        Signature.revoked_at.is_(None),
    )
    if db.scalar(live) is not None:
        raise conflict(ALREADY_SIGNED)
    signature = Signature(
        record_type=record_type,
        record_id=record_id,
        signer_id=user.id,
        signer_name=user.display_name,
        signed_at=utcnow(),
        meaning=meaning,
        content_hash=content_hash(content),
    )
    db.add(signature)
    db.flush()
    log.info(
        "signature signed id=%s record=%s:%s user_id=%s meaning=%s hash=%s authenticated_at=%s",
        signature.id,
        record_type,
        record_id,
        user.id,
        meaning,
        signature.content_hash,
        session.authenticated_at.isoformat(),
    )
    return signature


def revoke_all(db: Session, *, record_type: str, record_id: int, reason: str, by: Principal) -> int:
    """Revoke every live signature of a record (e.g. a mediation invalidated); the rows stay. How
    many were revoked."""
    revoked_at = utcnow()
    ids = db.scalars(
        update(Signature)
        .where(
            Signature.record_type == record_type,
            Signature.record_id == record_id,
            Signature.revoked_at.is_(None),
        )
        .values(revoked_at=revoked_at, revoked_by=by.id, revoke_reason=reason)
        .returning(Signature.id)
        .execution_options(synchronize_session="fetch")
    ).all()
    for signature_id in sorted(ids):
        log.info(
            "signature revoked id=%s record=%s:%s by_user_id=%s reason=%s",
            signature_id,
            record_type,
            record_id,
            by.id,
            reason,
        )
    return len(ids)


def for_record(db: Session, *, record_type: str, record_id: int, content: Any) -> list[SignatureOut]:
    """Every signature of a record, revoked ones included, oldest first; `content` is the record's
    content now, in the shape it was signed in, to tell which signatures it no longer matches."""
    current = content_hash(content)
    users = _users()
    # Not correlated with the revoker's row, the same table.
    inactive = select(users.id).where(~users.active).correlate(None)
    rows = db.execute(
        select(Signature, users.id, users.name, Signature.signer_id.in_(inactive))
        .outerjoin(users.table, users.id == Signature.revoked_by)
        .where(Signature.record_type == record_type, Signature.record_id == record_id)
        .order_by(Signature.signed_at, Signature.id)
    ).all()
    return [
        SignatureOut(
            id=signature.id,
            user_id=signature.signer_id,
            user_name=signature.signer_name,
            user_active=not signer_left,
            date=signature.signed_at,
            meaning=signature.meaning,
            modified_after_signature=signature.content_hash != current,
            revoked=None
            if signature.revoked_at is None
            else SignatureRevocation(
                date=signature.revoked_at,
                reason=signature.revoke_reason or "",
                by=UserName(id=revoker_id, name=revoker_name) if revoker_id is not None else None,
            ),
        )
        for signature, revoker_id, revoker_name, signer_left in rows
    ]


def live_signers(db: Session, *, record_type: str, record_id: int) -> set[int]:
    """The ids of the users who have a signature of the record that is not revoked."""
    return set(
        db.scalars(
            select(Signature.signer_id).where(
                Signature.record_type == record_type,
                Signature.record_id == record_id,
                Signature.revoked_at.is_(None),
                Signature.signer_id.is_not(None),
            )
        )
    )
