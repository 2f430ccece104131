"""A learner's record on the learning platform, for the audit pack (docs/reports.md 'The audit pack'):
every course they took part in, and in each every unit they launched, attempted, completed or satisfied
(waived included), with its attempts, oldest first. Units and courses removed since keep their names:
the record is what happened. Part of the connector boundary (docs/learning-platform.md): another
platform gives the same record from its own data."""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.lms.models import (
    LmsAttempt,
    LmsCompletion,
    LmsCourse,
    LmsItem,
    LmsLaunch,
    LmsSatisfaction,
)


@dataclass(frozen=True)
class Attempt:
    at: datetime
    grade: float
    success: bool


@dataclass
class UnitRecord:
    item_id: int
    name: str
    kind: str
    position: int
    launches: int = 0
    first_launch: datetime | None = None
    attempts: list[Attempt] = field(default_factory=list)
    completed_at: datetime | None = None
    satisfied_at: datetime | None = None
    # How the unit was satisfied (lms.models.SatisfactionMethod), and a waiver's reason.
    satisfied_by: str | None = None
    waiver_reason: str | None = None


@dataclass
class CourseRecord:
    course_id: int
    title: str
    standard: str
    removed: bool
    satisfied_at: datetime | None = None
    units: list[UnitRecord] = field(default_factory=list)


def learner_record(db: Session, *, learner_id: int) -> list[CourseRecord]:
    """The learner's courses (by title) and in each the units they did anything in (in the course's
    order): a handful of statements, whatever the number of courses."""
    units: dict[int, UnitRecord] = {}
    course_of: dict[int, int] = {}

    def unit(item: LmsItem) -> UnitRecord:
        if item.id not in units:
            units[item.id] = UnitRecord(item.id, item.name, item.kind, item.position)
            course_of[item.id] = item.course_id
        return units[item.id]

    for item, _launch_id, first in db.execute(
        select(LmsItem, LmsLaunch.id, LmsLaunch.created_at)
        .join(LmsLaunch, LmsLaunch.item_id == LmsItem.id)
        .where(LmsLaunch.user_id == learner_id)
        .order_by(LmsLaunch.created_at, LmsLaunch.id)
    ).tuples():
        record = unit(item)
        record.launches += 1
        record.first_launch = record.first_launch or first
    for item, attempt in db.execute(
        select(LmsItem, LmsAttempt)
        .join(LmsAttempt, LmsAttempt.item_id == LmsItem.id)
        .where(LmsAttempt.user_id == learner_id)
        .order_by(LmsAttempt.at, LmsAttempt.id)
    ).tuples():
        unit(item).attempts.append(Attempt(attempt.at, attempt.grade, attempt.success))
    for item, completed_at in db.execute(
        select(LmsItem, LmsCompletion.completed_at)
        .join(LmsCompletion, LmsCompletion.item_id == LmsItem.id)
        .where(LmsCompletion.user_id == learner_id)
    ).tuples():
        unit(item).completed_at = completed_at
    course_satisfied: dict[int, datetime] = {}
    for satisfaction, item in db.execute(
        select(LmsSatisfaction, LmsItem)
        .outerjoin(LmsItem, LmsItem.id == LmsSatisfaction.item_id)
        .where(LmsSatisfaction.user_id == learner_id)
        .order_by(LmsSatisfaction.satisfied_at, LmsSatisfaction.id)
    ).tuples():
        if item is None:  # the course itself
            course_satisfied.setdefault(satisfaction.course_id, satisfaction.satisfied_at)
        elif item.kind != "group":
            record = unit(item)
            if record.satisfied_at is None:
                record.satisfied_at = satisfaction.satisfied_at
                record.satisfied_by = satisfaction.method
                record.waiver_reason = satisfaction.reason
    if not units:
        return []
    by_course: dict[int, list[UnitRecord]] = defaultdict(list)
    for item_id, record in units.items():
        by_course[course_of[item_id]].append(record)
    courses = db.scalars(select(LmsCourse).where(LmsCourse.id.in_(by_course))).all()
    return [
        CourseRecord(
            course_id=course.id,
            title=course.title,
            standard=course.standard,
            removed=course.removed_at is not None,
            satisfied_at=course_satisfied.get(course.id),
            units=sorted(by_course[course.id], key=lambda u: (u.position, u.item_id)),
        )
        for course in sorted(courses, key=lambda c: (c.title.casefold(), c.id))
    ]
