"""The bell's subject kind (DESIGN §10): subjectChanged, the subjects the user follows that changed since
their last visit, or that they never visited."""

from typing import Any

from sqlalchemy import and_, bindparam, case, func, or_, select
from sqlalchemy.orm import Session

from spot.alerts import service as bell
from spot.alerts.schemas import Alert, AlertKind, AlertTarget
from spot.core.principal import Principal
from spot.mapping.models import Subject
from spot.mapping.policy import Viewer, by_viewer, sees_subject
from spot.subjects.models import SubjectVisit


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


def changed_subjects(db: Session, *, user: Principal, limit: int) -> tuple[list[Alert], int]:
    params = {"user_id": user.id, "viewer_id": user.id, "limit": limit}
    rows = db.execute(_CHANGED_SUBJECTS.of(user), params).all()
    alerts = [
        Alert(
            kind=AlertKind.subjectChanged,
            args={"name": name},
            date=changed_at,
            target=AlertTarget(type="subject", id=subject_id),
        )
        for subject_id, name, changed_at, _count in rows
    ]
    return alerts, rows[0][3] if rows else 0


bell.register(AlertKind.subjectChanged, changed_subjects)
