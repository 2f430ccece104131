"""Whether a person holds a module, and until when (spec 2 §4 'Qualification validity state', §9): the
one place that computes it, for the status records, every qualification dashboard, My dashboard and
the bell.

A person holds a module from their latest successful grading of it (`training_path_module.is_success`
with its `valid_until`), in a path that is not canceled, on an assigned module that is not disabled:
`valid_until` null is a permanent validation (a module that is not periodic). Remaining days count
from today in the organisation's time zone to the last valid day (0: valid today, the last day).
Sentinels: NONE (-10000) for never validated, UNLIMITED (10000) for permanent. A qualification takes
the earliest expiry of its modules (the minimum), NONE when it has no module. A requalification path is
a path not yet closed (notAccepted to finished) in which the module is not yet graded.

`computed` states that rule as one SELECT. The database keeps its answer per (person, module) in
`module_hold` (triggers on every write of a path or a path module, migration 3b9e6c1d7a52, a copy of
the same SQL that the tests hold equal to `computed`), so a dashboard reads a few thousand stored rows
instead of ranking every path module of its people on each request."""

from collections.abc import Iterable
from datetime import date
from enum import StrEnum
from typing import Any, NamedTuple

from sqlalchemy import Select, and_, case, func, or_, select
from sqlalchemy.orm import Session

from spot.db import plain
from spot.qualifications.models import ModuleHold
from spot.training.paths.models import ModuleStatus, PathStatus, TrainingPath, TrainingPathModule

NONE = -10000
UNLIMITED = 10000
# At 30 days or fewer a validity warns.
WARN_DAYS = 30

_IN_PROGRESS_PATH = (PathStatus.notAccepted, PathStatus.accepted, PathStatus.started, PathStatus.finished)
_NOT_GRADED = (ModuleStatus.notStarted, ModuleStatus.started, ModuleStatus.finished)


class State(StrEnum):
    good = "good"
    warn = "warn"
    none = "none"


def remaining_days(*, validated: bool, valid_until: date | None, today: date) -> int:
    if not validated:
        return NONE
    if valid_until is None:
        return UNLIMITED
    return (valid_until - today).days


def days_left(valid_until: date, today: date) -> int:
    """Days of validity left, counted inclusively as spec 2 counts them on My dashboard: 1 on the last
    valid day, 0 the day after, negative once expired longer; what My dashboard and the bell say."""
    return (valid_until - today).days + 1


def state(remaining: int) -> State:
    """good above 30 days (permanent included), warn from 0 to 30, none once expired or never validated."""
    if remaining > WARN_DAYS:
        return State.good
    if remaining >= 0:
        return State.warn
    return State.none


def obtained(remaining: int) -> bool:
    """Counted as obtained in dashboards: valid today at least."""
    return remaining >= 0


def earliest(remainings: Iterable[int]) -> int:
    """A qualification's remaining days: its modules' earliest expiry; NONE without module."""
    return min(remainings, default=NONE)


class ModuleValidity(NamedTuple):
    """One person's hold on one module (a tuple: dashboards build thousands of them; the pair is the
    key it is found under)."""

    remaining_days: int
    valid_until: date | None
    # The path of the latest successful grading; None when never validated.
    validation_path_id: int | None
    # The newest path in progress that contains the module, not yet graded in it.
    requalification_path_id: int | None

    @property
    def state(self) -> State:
        return state(self.remaining_days)


# A pair without any path: never validated, no requalification.
NEVER = ModuleValidity(NONE, None, None, None)


def computed(learners: Select[Any], modules: Select[Any]) -> Select[Any]:
    """The rule, per (person, module) of `learners` × `modules` with a path: the latest successful
    grading's path and last valid day (not canceled, not disabled; the latest by grading time, then
    id), and the requalification path (the latest path in progress where the module is not graded
    yet). Columns as `stored`'s. One pass over the people's path modules (window functions). What the
    triggers keep in module_hold; the tests compare the two."""
    m, p = TrainingPathModule, TrainingPath
    success = and_(
        m.is_success.is_(True), m.status != ModuleStatus.disabled.value, p.status != PathStatus.canceled.value
    )
    requalifying = and_(
        p.status.in_([s.value for s in _IN_PROGRESS_PATH]), m.status.in_([s.value for s in _NOT_GRADED])
    )
    pair = (p.learner_id, m.module_id)
    rows = (
        select(
            p.learner_id.label("user_id"),
            m.module_id.label("module_id"),
            case((success, m.path_id)).label("validation"),
            case((success, m.valid_until)).label("valid_until"),
            func.max(case((requalifying, m.path_id))).over(partition_by=pair).label("requalification"),
            func.row_number()
            .over(
                partition_by=pair,
                order_by=(case((success, 1), else_=0).desc(), m.graded_at.desc(), m.id.desc()),
            )
            .label("rank"),
        )
        .join(p, p.id == m.path_id)
        .where(p.learner_id.in_(learners), m.module_id.in_(modules), or_(success, requalifying))
        .subquery("pairs")
    )
    return select(
        rows.c.user_id, rows.c.module_id, rows.c.validation, rows.c.valid_until, rows.c.requalification
    ).where(rows.c.rank == 1)


def stored(
    learners: Select[Any], modules: Select[Any]
) -> Select[int, int, int | None, date | None, int | None]:
    """The same pairs as `computed`, read from module_hold (its primary key: person, module)."""
    h = ModuleHold
    return select(
        h.user_id, h.module_id, h.validation_path_id, h.valid_until, h.requalification_path_id
    ).where(h.user_id.in_(learners), h.module_id.in_(modules))


def module_validities(
    db: Session,
    *,
    learners: Select[Any],
    modules: Select[Any],
    today: date,
    params: dict[str, Any] | None = None,
) -> dict[tuple[int, int], ModuleValidity]:
    """The validity of every (person, module) pair of `learners` (a SELECT of user ids) and `modules`
    (a SELECT of module ids), in one statement over module_hold; pairs with no path at all are absent
    (never validated, no requalification: NONE)."""
    return {
        (user_id, module_id): ModuleValidity(
            remaining_days(validated=validation is not None, valid_until=until, today=today),
            until,
            validation,
            requalification,
        )
        for user_id, module_id, validation, until, requalification in plain(db).execute(
            stored(learners, modules), params or {}
        )
    }


def of(validities: dict[tuple[int, int], ModuleValidity], user_id: int, module_id: int) -> ModuleValidity:
    """The pair's validity, NEVER when absent from module_validities' answer."""
    return validities.get((user_id, module_id), NEVER)
