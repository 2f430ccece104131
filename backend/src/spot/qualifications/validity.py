"""Whether a person holds a module, and until when (spec 2 §4 'Qualification validity state', §9): the
one place that computes it, for the status records, every qualification dashboard, My dashboard and
the bell.

A person holds a module from their latest successful grading of it (`training_path_module.is_success`
with its `valid_until`), in a path that is not canceled, on an assigned module that is not disabled:
`valid_until` null is a permanent validation (a module that is not periodic). Remaining days count
from today in the organisation's time zone to the last valid day (0: valid today, the last day).
Sentinels: NONE (-10000) for never validated, UNLIMITED (10000) for permanent. A qualification takes
the earliest expiry of its modules (the minimum), NONE when it has no module. A requalification path is
a path not yet closed (notAccepted to finished) in which the module is not yet graded."""

from collections.abc import Iterable
from datetime import date
from enum import StrEnum
from typing import Any, NamedTuple

from sqlalchemy import Select, func, literal, select, union_all
from sqlalchemy.orm import Session

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
    """One person's hold on one module (a tuple: dashboards build thousands of them)."""

    user_id: int
    module_id: int
    remaining_days: int
    valid_until: date | None
    # The path of the latest successful grading; None when never validated.
    validation_path_id: int | None
    # The newest path in progress that contains the module, not yet graded in it.
    requalification_path_id: int | None

    @property
    def state(self) -> State:
        return state(self.remaining_days)


def _latest_success(learners: Select[Any], modules: Select[Any]) -> Select[Any]:
    m, p = TrainingPathModule, TrainingPath
    ranked = (
        select(
            p.learner_id.label("user_id"),
            m.module_id.label("module_id"),
            m.path_id.label("path_id"),
            m.valid_until.label("valid_until"),
            func.row_number()
            .over(partition_by=(p.learner_id, m.module_id), order_by=(m.graded_at.desc(), m.id.desc()))
            .label("rank"),
        )
        .join(p, p.id == m.path_id)
        .where(
            p.learner_id.in_(learners),
            m.module_id.in_(modules),
            m.is_success.is_(True),
            m.status != ModuleStatus.disabled.value,
            p.status != PathStatus.canceled.value,
        )
        .subquery("ranked")
    )
    return select(
        literal("v").label("kind"),
        ranked.c.user_id,
        ranked.c.module_id,
        ranked.c.path_id,
        ranked.c.valid_until,
    ).where(ranked.c.rank == 1)


def _requalifications(learners: Select[Any], modules: Select[Any]) -> Any:
    m, p = TrainingPathModule, TrainingPath
    return (
        select(
            literal("r").label("kind"),
            p.learner_id,
            m.module_id,
            func.max(m.path_id),
            func.max(m.valid_until),  # always null here; keeps the union's columns typed alike
        )
        .join(p, p.id == m.path_id)
        .where(
            p.learner_id.in_(learners),
            m.module_id.in_(modules),
            p.status.in_([s.value for s in _IN_PROGRESS_PATH]),
            m.status.in_([s.value for s in _NOT_GRADED]),
        )
        .group_by(p.learner_id, m.module_id)
    )


def module_validities(
    db: Session,
    *,
    learners: Select[Any],
    modules: Select[Any],
    today: date,
    params: dict[str, Any] | None = None,
) -> dict[tuple[int, int], ModuleValidity]:
    """The validity of every (person, module) pair of `learners` (a SELECT of user ids) and `modules`
    (a SELECT of module ids), in one statement; pairs with no path at all are absent (never validated,
    no requalification: NONE)."""
    found: dict[tuple[int, int], list[Any]] = {}
    statement = union_all(_latest_success(learners, modules), _requalifications(learners, modules))
    for kind, user_id, module_id, path_id, valid_until in db.execute(statement, params or {}):
        entry = found.setdefault((user_id, module_id), [None, None, None])
        if kind == "v":
            entry[0], entry[1] = path_id, valid_until
        else:
            entry[2] = path_id
    return {
        key: ModuleValidity(
            user_id=key[0],
            module_id=key[1],
            remaining_days=remaining_days(validated=validation is not None, valid_until=until, today=today),
            valid_until=until,
            validation_path_id=validation,
            requalification_path_id=requalification,
        )
        for key, (validation, until, requalification) in found.items()
    }


def of(validities: dict[tuple[int, int], ModuleValidity], user_id: int, module_id: int) -> ModuleValidity:
    """The pair's validity, NONE when absent from module_validities' answer."""
    found = validities.get((user_id, module_id))
    return ModuleValidity(user_id, module_id, NONE, None, None, None) if found is None else found
