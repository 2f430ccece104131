"""The bell (DESIGN §10): every action awaited from the signed-in user, gathered from the areas.

An area adds a kind with one provider: a function `(db, user, limit)` answering its newest alerts (at
most `limit`, newest first) and how many it has in all, read in SQL (one statement, no query per
alert), and listed in PROVIDERS. `alerts` merges them."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, bindparam, case, func, or_, select
from sqlalchemy.orm import Session

from spot.alerts import qualifications
from spot.alerts.schemas import Alert, AlertKind, Alerts, AlertTarget
from spot.core.principal import Principal
from spot.db import plain
from spot.mapping.policy import Viewer, by_viewer, sees_subject
from spot.mediations import actionable
from spot.subjects.models import Subject, SubjectVisit
from spot.training.paths import alerts as path_alerts

# The bell lists this many; its count is exact.
LIMIT = 50


@dataclass(frozen=True)
class Provided:
    """A provider's newest alerts (at most the limit asked, newest first) and how many it has in all."""

    alerts: list[Alert]
    count: int


Provider = Callable[[Session, Principal, int], Provided]


# Subjects the user follows that changed since their last visit -------------------------------------


def _changed_subjects(viewer: Viewer) -> Any:
    """Subjects followed by :user_id whose last update or mind-map change is after the user's last
    visit, or never visited; each with when it changed and the count of them all (computed before
    the LIMIT)."""
    visit = and_(SubjectVisit.subject_id == Subject.id, SubjectVisit.user_id == bindparam("user_id"))
    updated, mind_map = Subject.updated_at, Subject.last_mindmap_update
    # The later of the two (either may be missing); when neither is known, since it is followed.
    later = case((mind_map > updated, mind_map), else_=updated)
    changed_at = func.coalesce(later, mind_map, Subject.followed_at)
    return (
        select(Subject.id, Subject.name, changed_at.label("changed_at"), func.count().over())
        .outerjoin(SubjectVisit, visit)
        .where(
            Subject.followed_by == bindparam("user_id"),
            or_(
                SubjectVisit.visited_at.is_(None),
                SubjectVisit.visited_at < updated,
                SubjectVisit.visited_at < mind_map,
            ),
            sees_subject(viewer, Subject.function_id, Subject.activity_id, Subject.cartography_id),
        )
        .order_by(changed_at.desc(), Subject.id.desc())
        .limit(bindparam("limit"))
    )


_CHANGED_SUBJECTS = by_viewer(_changed_subjects)


def changed_subjects(db: Session, user: Principal, limit: int) -> Provided:
    params = {"user_id": user.id, "viewer_id": user.id, "limit": limit}
    rows = plain(db).execute(_CHANGED_SUBJECTS.of(user), params).all()
    alerts = [
        Alert(
            kind=AlertKind.subjectChanged,
            args={"name": name},
            date=changed_at,
            target=AlertTarget(type="subject", id=subject_id),
        )
        for subject_id, name, changed_at, _count in rows
    ]
    return Provided(alerts=alerts, count=rows[0][3] if rows else 0)


# Mediations awaiting the user: one provider per kind, in mediations.actionable's SQL -----------------


def _mediations(kind: AlertKind) -> Provider:
    def provide(db: Session, user: Principal, limit: int) -> Provided:
        found, count = actionable.alerts(db, user=user, kind=kind, limit=limit)
        return Provided(alerts=found, count=count)

    provide.__name__ = f"mediations_{kind.value}"
    return provide


MEDIATION_KINDS = [
    AlertKind.mediationToStart,
    AlertKind.mediationToReport,
    AlertKind.mediationToValidate,
    AlertKind.mediationToSign,
]


# Training paths awaiting the user: one provider per kind, in training.paths.alerts' SQL ----------------


def _paths(kind: AlertKind) -> Provider:
    def provide(db: Session, user: Principal, limit: int) -> Provided:
        found, count = path_alerts.alerts(db, user=user, kind=kind, limit=limit)
        return Provided(alerts=found, count=count)

    provide.__name__ = f"paths_{kind.value}"
    return provide


# Qualifications expiring: the user's own, and their groups' people's for managers (alerts.qualifications).


def _qualifications(kind: AlertKind) -> Provider:
    def provide(db: Session, user: Principal, limit: int) -> Provided:
        found, count = qualifications.KINDS[kind](db, user, limit)
        return Provided(alerts=found, count=count)

    provide.__name__ = f"qualifications_{kind.value}"
    return provide


# Every kind of alert: one provider each.
PROVIDERS: list[Provider] = [
    changed_subjects,
    *(_mediations(kind) for kind in MEDIATION_KINDS),
    *(_paths(kind) for kind in path_alerts.KINDS),
    *(_qualifications(kind) for kind in qualifications.KINDS),
]


def provided(db: Session, *, user: Principal, limit: int = LIMIT) -> list[Provided]:
    """What each provider answers, in the bell's order (My dashboard groups them by kind)."""
    return [provider(db, user, limit) for provider in PROVIDERS]


def alerts(db: Session, *, user: Principal, limit: int = LIMIT) -> Alerts:
    """The newest `limit` alerts of every provider, newest first, and the count of them all."""
    found = provided(db, user=user, limit=limit)
    newest = sorted((alert for p in found for alert in p.alerts), key=lambda a: a.date, reverse=True)
    return Alerts(alerts=newest[:limit], count=sum(p.count for p in found))
