"""The training dashboards (spec 2 §2 Dashboards, §9): My dashboard, and path progress per group and
per member of a group. Each is computed by the database (sums and counts grouped by user and by group),
from the paths' stored totals of done and counted elements (training.paths.service.refresh keeps them),
never by loading every path into Python.

Completion (spec 2 §9, docs/qualifications.md 'Path completion and levels'): of a path,
round(done / total × 100), -1 when its total is 0; of a user, the same over the sums of their current
paths (as learner: start date on or before today, stop date on or after today, not canceled), -1 without
current path or with nothing to count; of a group, the rounded average of its members' completions that
can be told, -1 when none can."""

from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import ColumnElement, Integer, and_, bindparam, case, func, select
from sqlalchemy.orm import Session

from spot.alerts import service as alerts
from spot.core.principal import Principal
from spot.core.time import today
from spot.dashboards.schemas import (
    HIGH_ABOVE,
    MEDIUM_FROM,
    AlertGroup,
    CartographySummary,
    CoverageLevels,
    CurrentPath,
    GroupProgress,
    GroupTrainingPathDashboard,
    Level,
    MyDashboard,
    Named,
    PeriodicModule,
    TrainingPathDashboard,
    UserProgress,
)
from spot.history import service as history
from spot.history.schemas import ContributionsQuery, Granularity
from spot.mapping import service as mapping
from spot.qualifications import dashboards as qualification_dashboards
from spot.qualifications import validity
from spot.training.modules.models import TrainingModule
from spot.training.paths.completion import completion
from spot.training.paths.models import ModuleStatus, PathStatus, TrainingPath, TrainingPathModule
from spot.training.paths.service import add_months
from spot.users.models import Group, User, user_group
from spot.users.service import get_group

# My dashboard: periodic modules expired up to 2 months ago still show; green from a month ahead.
PERIODIC_PAST_MONTHS = 2
PERIODIC_GREEN_MONTHS = 1
# My dashboard's personal chart: months, the last one this month.
PERSONAL_MONTHS = 12

_p = TrainingPath
_TODAY = bindparam("today", type_=_p.start_date.type)


def level(value: int) -> Level:
    if value < 0:
        return Level.none
    if value > HIGH_ABOVE:
        return Level.high
    if value >= MEDIUM_FROM:
        return Level.medium
    return Level.low


def _current() -> ColumnElement[bool]:
    """A current path (spec 2 §9): started on or before today, stopping on or after it, not canceled."""
    return and_(_p.start_date <= _TODAY, _p.stop_date >= _TODAY, _p.status != PathStatus.canceled.value)


def _completion_sql(done: Any, total: Any) -> Any:
    """completion() in SQL: round half up of done / total × 100 in integers, -1 when total is 0."""
    return case((total > 0, (done * 200 + total) // (total * 2)), else_=-1)


def _path(row: Any) -> CurrentPath:
    return CurrentPath(
        id=row.path_id,
        title=row.title,
        status=PathStatus(row.status),
        start_date=row.start_date,
        stop_date=row.stop_date,
        completion=completion(row.done, row.total),
    )


_PATH_COLUMNS = (
    _p.id.label("path_id"),
    _p.title,
    _p.status,
    _p.start_date,
    _p.stop_date,
    _p.done_items.label("done"),
    _p.total_items.label("total"),
)


# My dashboard -----------------------------------------------------------------------------------------

_MY_PATHS = (
    select(*_PATH_COLUMNS)
    .where(_p.learner_id == bindparam("user_id"), _current())
    .order_by(_p.stop_date, _p.start_date, _p.id)
)

_m = TrainingPathModule
_MY_PERIODIC = (
    select(_p.id, _p.title, _m.position, _m.module_id, TrainingModule.name, _m.valid_until)
    .select_from(_p)
    .join(_m, _m.path_id == _p.id)
    .join(TrainingModule, TrainingModule.id == _m.module_id)
    .where(
        _p.learner_id == bindparam("user_id"),
        _p.status != PathStatus.canceled.value,
        _m.status != ModuleStatus.disabled.value,
        _m.is_success.is_(True),
        _m.valid_until >= bindparam("since", type_=_m.valid_until.type),
        TrainingModule.periodicity > 0,
    )
    .order_by(_m.valid_until, _p.id, _m.position)
)


def periodic_module(
    *, path_id: int, path_title: str, index: int, module_id: int, name: str, valid_until: date, day: date
) -> PeriodicModule:
    """Days left as validity.days_left counts them; green from a month ahead, red when valid today but
    for less than a month, grey once expired."""
    if valid_until < day:
        color = "grey"
    elif valid_until >= add_months(day, PERIODIC_GREEN_MONTHS):
        color = "green"
    else:
        color = "red"
    return PeriodicModule(
        path_id=path_id,
        path_title=path_title,
        module_index=index,
        module_id=module_id,
        module_name=name,
        valid_until=valid_until,
        days=validity.days_left(valid_until, day),
        color=color,
    )


def personal_contributions_query(day: date, user_id: int) -> ContributionsQuery:
    """The user's entries over the 12 months ending with the month of `day` (periods counted from
    January of the year before)."""
    return ContributionsQuery(
        user_ids=[user_id],
        from_year=day.year - 1,
        granularity=Granularity.month,
        start=day.month + 12 - PERSONAL_MONTHS,
        count=PERSONAL_MONTHS,
    )


def mine(db: Session, *, user: Principal) -> MyDashboard:
    day = today()
    paths = [_path(row) for row in db.execute(_MY_PATHS, {"user_id": user.id, "today": day})]
    since = add_months(day, -PERIODIC_PAST_MONTHS)
    periodic = [
        periodic_module(
            path_id=row.id,
            path_title=row.title,
            index=row.position,
            module_id=row.module_id,
            name=row.name,
            valid_until=row.valid_until,
            day=day,
        )
        for row in db.execute(_MY_PERIODIC, {"user_id": user.id, "since": since})
    ]
    query = personal_contributions_query(day, user.id)
    return MyDashboard(
        current_paths=paths,
        alerts=[
            AlertGroup(kind=found.alerts[0].kind, count=found.count, alerts=found.alerts)
            for found in alerts.provided(db, user=user)
            if found.alerts
        ],
        contributions=history.contributions(db, user=user, query=query).periods,
        periodic_modules=periodic,
    )


# Path progress per group ------------------------------------------------------------------------------


def _per_learner() -> Any:
    """Each learner's sums of done and counted elements over their current paths."""
    return (
        select(
            _p.learner_id.label("user_id"),
            func.sum(_p.done_items).label("done"),
            func.sum(_p.total_items).label("total"),
        )
        .where(_p.learner_id.is_not(None), _current())
        .group_by(_p.learner_id)
        .subquery("learner")
    )


def _groups() -> Any:
    learner = _per_learner()
    member = (
        select(
            user_group.c.group_id,
            user_group.c.user_id,
            learner.c.user_id.label("learner_id"),
            _completion_sql(learner.c.done, learner.c.total).label("completion"),
        )
        .join(User, and_(User.id == user_group.c.user_id, User.active))
        .outerjoin(learner, learner.c.user_id == user_group.c.user_id)
        .subquery("member")
    )
    told = member.c.completion >= 0

    def members(condition: ColumnElement[bool]) -> Any:
        return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)

    return (
        select(
            Group.id,
            Group.name,
            func.count(member.c.user_id).label("users"),
            func.count(member.c.learner_id).label("with_paths"),
            func.coalesce(func.sum(case((told, member.c.completion))), 0).label("told_sum"),
            members(told).label("told"),
            members(member.c.completion > HIGH_ABOVE).label("high"),
            members(and_(member.c.completion >= MEDIUM_FROM, member.c.completion <= HIGH_ABOVE)).label(
                "medium"
            ),
            members(and_(told, member.c.completion < MEDIUM_FROM)).label("low"),
        )
        .outerjoin(member, member.c.group_id == Group.id)
        .group_by(Group.id, Group.name)
        .order_by(Group.name, Group.id)
    )


_GROUPS = _groups()


def average(total: int, count: int) -> int:
    """The rounded (half up) average of `count` whole percentages summing to `total`; -1 for none."""
    return completion(total, count * 100)


def training_paths(db: Session) -> TrainingPathDashboard:
    rows = db.execute(_GROUPS, {"today": today()})
    return TrainingPathDashboard(
        groups=[
            GroupProgress(
                id=row.id,
                name=row.name,
                users=row.users,
                with_paths=row.with_paths,
                completion=average(int(row.told_sum), int(row.told)),
                high=int(row.high),
                medium=int(row.medium),
                low=int(row.low),
            )
            for row in rows
        ]
    )


_GROUP_MEMBERS = (
    select(User.id.label("user_id"), User.display_name.label("user_name"), *_PATH_COLUMNS)
    .select_from(user_group)
    .join(User, User.id == user_group.c.user_id)
    .outerjoin(_p, and_(_p.learner_id == User.id, _current()))
    .where(user_group.c.group_id == bindparam("group_id", type_=Integer), User.active)
    .order_by(User.last_name, User.first_name, User.id, _p.stop_date, _p.start_date, _p.id)
)


def _member(user_id: int, name: str, rows: Sequence[Any]) -> UserProgress:
    paths = [_path(row) for row in rows if row.path_id is not None]
    value = completion(sum(p.done for p in rows if p.path_id), sum(p.total for p in rows if p.path_id))
    return UserProgress(id=user_id, name=name, completion=value, level=level(value), paths=paths)


def group_training_paths(db: Session, *, group_id: int) -> GroupTrainingPathDashboard:
    """404 groupNotFound for an unknown group."""
    group = get_group(db, group_id=group_id)
    users: list[UserProgress] = []
    rows: list[Any] = []
    for row in db.execute(_GROUP_MEMBERS, {"group_id": group_id, "today": today()}):
        if rows and rows[0].user_id != row.user_id:
            users.append(_member(rows[0].user_id, rows[0].user_name, rows))
            rows = []
        rows.append(row)
    if rows:
        users.append(_member(rows[0].user_id, rows[0].user_name, rows))
    return GroupTrainingPathDashboard(group=Named(id=group.id, name=group.name), users=users)


# The Dashboard manager's cartographies -----------------------------------------------------------------


def manager_cartographies(db: Session, *, user: Principal) -> list[CartographySummary]:
    """The cartographies the user sees, in the sites' order, each with the figures of its qualification
    dashboard (qualifications naming it, functions by coverage level)."""
    cartographies = mapping.list_cartographies(db, user=user)
    counts = qualification_dashboards.coverage_counts(
        db, user=user, cartography_ids=[c.id for c in cartographies], today=today()
    )
    return [
        CartographySummary(
            id=c.id,
            name=c.name,
            site_name=c.site.name,
            qualifications=counts[c.id].qualifications,
            functions=CoverageLevels(**counts[c.id].levels, under_minimum=counts[c.id].under_minimum),
        )
        for c in cartographies
    ]
