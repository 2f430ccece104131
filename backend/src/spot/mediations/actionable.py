"""The mediations awaiting something from the signed-in user (GET /mediation/actionable) and the bell's
four kinds of them, from the same SQL:

- start: the mediator, of a created mediation scheduled today or earlier in the organisation's time
  zone, or not scheduled;
- report: the mediator, of a stopped mediation with participants and no report yet;
- validate: the mediator, of a stopped mediation with participants and a report;
- sign: a participant of a validated mediation, without a live signature of it.

Each kind is one statement built once (parameters: the user, the end of today, the limit), dated by
when the mediation came to await it: its scheduling date (its creation when unscheduled) for start,
its last update otherwise (the stop, the report, the validation)."""

from datetime import datetime, timedelta
from functools import partial
from typing import Any

from sqlalchemy import Integer, Select, and_, bindparam, exists, func, literal, not_, select, union_all
from sqlalchemy.orm import Session

from spot.alerts import service as bell
from spot.alerts.schemas import Alert, AlertKind, AlertTarget
from spot.core.principal import Principal
from spot.core.signatures import Signature
from spot.core.time import midnight, today
from spot.db import UtcDateTime
from spot.mediations import service
from spot.mediations.cards import CARD_COLUMNS, card_fields
from spot.mediations.models import Mediation, MediationParticipant
from spot.mediations.models import MediationStatus as S
from spot.mediations.schemas import ActionableMediation

# GET /mediation/actionable lists this many, newest first.
LIMIT = 50

_USER = bindparam("user_id", type_=Integer)
_END_OF_TODAY = bindparam("end_of_today", type_=UtcDateTime)

_m = Mediation
_has_participant = exists(
    select(MediationParticipant.user_id).where(MediationParticipant.mediation_id == _m.id)
)
_updated = func.coalesce(_m.updated_at, _m.created_at)

# action → (its condition on Mediation, the date it is awaited since)
_KINDS: dict[str, tuple[Any, Any]] = {
    "start": (
        and_(
            _m.mediator_id == _USER,
            _m.status == S.created.value,
            (_m.scheduling_date.is_(None)) | (_m.scheduling_date < _END_OF_TODAY),
        ),
        func.coalesce(_m.scheduling_date, _m.created_at),
    ),
    "report": (
        and_(
            _m.mediator_id == _USER, _m.status == S.stopped.value, _m.reported_at.is_(None), _has_participant
        ),
        _updated,
    ),
    "validate": (
        and_(
            _m.mediator_id == _USER,
            _m.status == S.stopped.value,
            _m.reported_at.is_not(None),
            _has_participant,
        ),
        _updated,
    ),
    "sign": (
        and_(
            _m.status == S.validated.value,
            exists(
                select(MediationParticipant.user_id).where(
                    MediationParticipant.mediation_id == _m.id, MediationParticipant.user_id == _USER
                )
            ),
            not_(
                exists(
                    select(Signature.id).where(
                        Signature.record_type == service.RECORD_TYPE,
                        Signature.record_id == _m.id,
                        Signature.signer_id == _USER,
                        Signature.revoked_at.is_(None),
                    )
                )
            ),
        ),
        _updated,
    ),
}


def end_of_today() -> datetime:
    """The instant today ends in the organisation's time zone (DESIGN §4)."""
    return midnight(today() + timedelta(days=1))


def _params(user: Principal, limit: int) -> dict[str, Any]:
    return {"user_id": user.id, "end_of_today": end_of_today(), "limit": limit}


def _actionable() -> Select[Any]:
    """Every kind, newest first: the card's columns, the action and its date."""
    kinds = union_all(
        *(
            select(_m.id.label("mediation_id"), literal(action).label("action"), since.label("since")).where(
                condition
            )
            for action, (condition, since) in _KINDS.items()
        )
    ).subquery("kinds")
    return (
        select(*CARD_COLUMNS, kinds.c.action)
        .join(kinds, kinds.c.mediation_id == _m.id)
        .order_by(kinds.c.since.desc(), _m.id.desc())
        .limit(bindparam("limit"))
    )


_ACTIONABLE = _actionable()


def actionable(db: Session, *, user: Principal) -> list[ActionableMediation]:
    """The mediations awaiting an action of the user (start, report, validate, sign), newest first, at
    most LIMIT; one statement, then the persons' names in one more."""
    rows = db.execute(_ACTIONABLE, _params(user, LIMIT)).all()
    cards = card_fields(db, rows)
    return [
        ActionableMediation.model_validate({**card, "action": row.action})
        for card, row in zip(cards, rows, strict=True)
    ]


# The bell ------------------------------------------------------------------------------------------------


def _alerts_of(action: str) -> Select[Any]:
    """One kind's newest mediations (at most :limit) with the count of them all."""
    condition, since = _KINDS[action]
    return (
        select(_m.id, _m.title, since.label("since"), func.count().over())
        .where(condition)
        .order_by(since.desc(), _m.id.desc())
        .limit(bindparam("limit"))
    )


_BELL: dict[AlertKind, Select[Any]] = {
    AlertKind.mediationToStart: _alerts_of("start"),
    AlertKind.mediationToReport: _alerts_of("report"),
    AlertKind.mediationToValidate: _alerts_of("validate"),
    AlertKind.mediationToSign: _alerts_of("sign"),
}


def alerts(db: Session, *, user: Principal, kind: AlertKind, limit: int) -> tuple[list[Alert], int]:
    """The bell's alerts of one kind (at most `limit`, newest first) and how many there are."""
    rows = db.execute(_BELL[kind], _params(user, limit)).all()
    found = [
        Alert(
            kind=kind,
            args={"title": title},
            date=since,
            target=AlertTarget(type="mediation", id=mediation_id),
        )
        for mediation_id, title, since, _count in rows
    ]
    return found, rows[0][3] if rows else 0


for _kind in _BELL:
    bell.register(_kind, partial(alerts, kind=_kind))
