"""Reading the history (core.history writes it): a user's own entries, and the views and contributions
per period behind the usage chart (spec 1 §2, §7, §9) and the contributions dashboard (spec 2)."""

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import (
    ColumnElement,
    DateTime,
    Integer,
    Select,
    and_,
    bindparam,
    case,
    cast,
    func,
    literal,
    or_,
    select,
    true,
    union_all,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from spot.config import get_settings
from spot.core.errors import ApiError, FieldError
from spot.core.history_models import HistoryEntry
from spot.core.principal import Principal
from spot.core.time import midnight
from spot.db import UtcDateTime, in_ids
from spot.history.schemas import (
    MAX_EXPORT_PERIODS,
    ContributionPeriod,
    Contributions,
    ContributionsQuery,
    Granularity,
    HistoryItem,
)
from spot.mapping import service as mapping
from spot.mapping.models import Activity, Cartography, Function, MapItemId, Subject
from spot.mapping.policy import sees_cartography, sees_function, sees_subject
from spot.subjects import service as subjects
from spot.users.models import Group, User, user_group

# The most entries GET /history/mine answers, newest first.
MAX_MINE = 1000
# The item types of the map, whose entries contributions count and whose visibility they follow.
MAP_TYPES = ("cartography", "function", "subject")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _zone() -> ZoneInfo:
    return ZoneInfo(get_settings().timezone)


# A user's own history ----------------------------------------------------------------------------------


def _day(value: str | None, name: str) -> date:
    if value is None or value == "":
        raise ApiError(422, "atLeastOneErrorLeft", [FieldError(field=name, code="emptyFieldError")])
    try:
        if not _DATE.fullmatch(value):
            raise ValueError(value)
        return date.fromisoformat(value)
    except ValueError:
        raise ApiError(422, "atLeastOneErrorLeft", [FieldError(field=name, code="invalidDate")]) from None


def mine(db: Session, *, user: Principal, from_: str | None, to: str | None) -> list[HistoryItem]:
    """The user's entries from the first day to the last, both included (days of the organisation's
    time zone), newest first, at most MAX_MINE of them."""
    first, last = _day(from_, "from"), _day(to, "to")
    if last < first:
        raise ApiError(422, "atLeastOneErrorLeft", [FieldError(field="to", code="dateRangeReversed")])
    h = HistoryEntry
    rows = db.execute(
        select(h.at, h.item_type, h.item_id, h.item_key, h.item_name, h.mode, h.event)
        .where(h.user_id == user.id, h.at >= midnight(first), h.at < midnight(last + timedelta(days=1)))
        .order_by(h.at.desc(), h.id.desc())
        .limit(MAX_MINE)
    ).all()
    return [
        HistoryItem(
            date=r.at,
            item_type=r.item_type,
            item_id=r.item_id,
            item_key=r.item_key,
            item_name=r.item_name,
            mode=r.mode,
            event=r.event,
        )
        for r in rows
    ]


# Contributions ------------------------------------------------------------------------------------------


def period_starts(granularity: Granularity, from_year: int, start: int, count: int) -> list[date]:
    """The first days of periods start .. start + count, the last one being the end of the range.
    Period 0 is the week (Monday to Sunday) that contains 1 January of from_year, or its January."""
    if granularity is Granularity.week:
        january = date(from_year, 1, 1)
        week0 = january - timedelta(days=january.weekday())
        return [week0 + timedelta(weeks=start + i) for i in range(count + 1)]
    months = [from_year * 12 + start + i for i in range(count + 1)]
    return [date(m // 12, m % 12 + 1, 1) for m in months]


@dataclass
class _Scope:
    """What the request's itemIds and subjectIds name, each checked visible to the user."""

    cartographies: set[int] = field(default_factory=set)
    functions: set[int] = field(default_factory=set)
    activities: set[int] = field(default_factory=set)
    subjects: set[int] = field(default_factory=set)
    # The cartographies of all of them: the visible sets of a limited user are looked for there only.
    within: set[int] = field(default_factory=set)

    def empty(self) -> bool:
        return not (self.cartographies or self.functions or self.activities or self.subjects)


def _scope(db: Session, user: Principal, item_ids: Sequence[int], subject_ids: Sequence[int]) -> _Scope:
    """Unknown ids answer 404, ids of items hidden from the user 403 (mapping.policy)."""
    scope = _Scope()
    types: dict[int, str] = {}
    if item_ids:
        rows = db.execute(select(MapItemId.id, MapItemId.type).where(MapItemId.id.in_(set(item_ids))))
        types = {item_id: kind for item_id, kind in rows}
    for item_id in dict.fromkeys(item_ids):
        kind = types.get(item_id)
        if kind == "site":
            mapping.get_site(db, user=user, site_id=item_id)
            ids = set(db.scalars(select(Cartography.id).where(Cartography.site_id == item_id)))
            scope.cartographies |= ids
            scope.within |= ids
        elif kind == "cartography":
            scope.cartographies.add(mapping.get_cartography(db, user=user, cartography_id=item_id).id)
            scope.within.add(item_id)
        elif kind == "function":
            function = mapping.get_function(db, user=user, function_id=item_id)
            scope.functions.add(function.id)
            scope.within.add(function.cartography_id)
        elif kind == "activity":
            activity = mapping.get_activity(db, user=user, activity_id=item_id)
            scope.activities.add(activity.id)
            scope.within.add(activity.cartography_id)
        elif kind == "subject":
            subject_ids = [*subject_ids, item_id]
        else:
            raise ApiError(404, "itemNotFound", [FieldError(field="itemIds", code="itemNotFound")])
    for subject_id in dict.fromkeys(subject_ids):
        subject = subjects.get(db, user=user, subject_id=subject_id)
        scope.subjects.add(subject.id)
        scope.within.add(subject.cartography_id)
    return scope


def _activity_tree(ids: set[int]) -> Select[Any]:
    """The activities and all their sub-activities, at any depth."""
    tree = select(Activity.id).where(Activity.id.in_(ids)).cte(recursive=True)
    tree = tree.union_all(select(Activity.id).where(Activity.parent_id == tree.c.id))
    return select(tree.c.id)


def _scope_parts(scope: _Scope) -> list[ColumnElement[bool]]:
    """Entries of the items named, as conditions that no entry meets twice, each answered from one
    index (by cartography and time, or by item and time): the entries of the cartographies named;
    of the functions named; of the subjects named or under the functions and activities named. None
    for the whole map."""
    h = HistoryEntry
    parts: list[ColumnElement[bool]] = []
    elsewhere: list[ColumnElement[bool]] = []
    if scope.cartographies:
        parts.append(h.cartography_id.in_(scope.cartographies))
        # Entries of a function or subject of a cartography named are counted with it.
        elsewhere.append(or_(h.cartography_id.is_(None), h.cartography_id.not_in(scope.cartographies)))
    if scope.functions:
        parts.append(and_(h.item_type == "function", h.item_id.in_(scope.functions), *elsewhere))
    of_subjects = []
    if scope.functions:
        of_subjects.append(Subject.function_id.in_(scope.functions))
    if scope.activities:
        of_subjects.append(Subject.activity_id.in_(_activity_tree(scope.activities)))
    if scope.subjects:
        of_subjects.append(Subject.id.in_(scope.subjects))
    if of_subjects:
        subject_ids = select(Subject.id).where(or_(*of_subjects))
        parts.append(and_(h.item_type == "subject", h.item_id.in_(subject_ids), *elsewhere))
    return parts


def _visible(user: Principal, within: set[int]) -> ColumnElement[bool]:
    """Entries of the map items the user may read (mapping.policy), each set computed once per
    statement; looked for in the cartographies of the request (`within`) when it names items."""

    def narrowed(statement: Select[Any], column: Any) -> Select[Any]:
        return statement.where(column.in_(within)) if within else statement

    h = HistoryEntry
    cartographies = narrowed(
        select(Cartography.id).where(sees_cartography(user, Cartography.id)), Cartography.id
    )
    functions = narrowed(
        select(Function.id).where(sees_function(user, Function.id, Function.cartography_id)),
        Function.cartography_id,
    )
    visible_subjects = narrowed(
        select(Subject.id).where(
            sees_subject(user, Subject.function_id, Subject.activity_id, Subject.cartography_id)
        ),
        Subject.cartography_id,
    )
    return or_(
        and_(h.item_type == "cartography", h.item_id.in_(cartographies)),
        and_(h.item_type == "function", h.item_id.in_(functions)),
        and_(h.item_type == "subject", h.item_id.in_(visible_subjects)),
    )


def _offsets(first: datetime, last: datetime) -> list[tuple[datetime, int]]:
    """The organisation's UTC offset (seconds) from `first`, then each change of it before `last`
    (daylight saving time), found day by day then to the minute."""
    zone = _zone()

    def offset(at: datetime) -> int:
        delta = at.astimezone(zone).utcoffset()
        return int(delta.total_seconds()) if delta else 0

    changes = [(first, offset(first))]
    day = first
    while day < last:
        following = min(day + timedelta(days=1), last)
        if offset(following) != changes[-1][1]:
            low, high = day, following
            while high - low > timedelta(minutes=1):
                middle = low + (high - low) / 2
                low, high = (middle, high) if offset(middle) == changes[-1][1] else (low, middle)
            changes.append((high, offset(high)))
        day = following
    return changes


# Julian day of the Unix epoch, and milliseconds in a day and in a week.
_EPOCH_JULIAN_DAY = 2440587.5
_DAY_MS = 86_400_000
_WEEK_MS = 7 * _DAY_MS


def _period_sqlite(
    at: Any, query: ContributionsQuery, starts: list[date], first: datetime, last: datetime
) -> Any:
    """The period of an entry, counted from the first one asked for, from its local wall time in whole
    milliseconds (julianday() keeps them exactly once rounded) plus the organisation's offset at that
    instant (a CASE over the few changes of offset in the range; SQLite has no time zones), so that
    periods begin at local midnight."""
    utc_ms = cast(func.round((func.julianday(at) - _EPOCH_JULIAN_DAY) * _DAY_MS), Integer)
    offsets = _offsets(first, last)
    offset: Any = literal(offsets[-1][1] * 1000, Integer)
    if len(offsets) > 1:
        offset = case(
            *(
                (at < literal(since, UtcDateTime), literal(before * 1000, Integer))
                for (since, _), (_, before) in zip(offsets[1:], offsets, strict=False)
            ),
            else_=offset,
        )
    local_ms = utc_ms + offset
    if query.granularity is Granularity.week:
        origin = int(datetime.combine(starts[0], time(0), tzinfo=UTC).timestamp()) * 1000
        return (local_ms - origin) // literal(_WEEK_MS, Integer)
    month = cast(func.strftime("%Y%m", local_ms // 1000, "unixepoch"), Integer)
    return (month // 100 - query.from_year) * 12 + month % 100 - 1 - query.start


def _period_postgresql(at: Any, bounds: list[datetime]) -> Any:
    """The period of an entry: its bucket among the periods' bounds (a binary search)."""
    thresholds = bindparam("bounds", value=bounds, type_=ARRAY(DateTime(timezone=True)))
    return func.width_bucket(at, thresholds) - 1


@dataclass
class _Entries:
    """The entries a contributions request counts (at, mode, user_id), the period of each (0 first),
    the statement's parameters and the periods' first days (the last one the end of the range)."""

    entries: Any
    period: Any
    params: dict[str, Any]
    starts: list[date]


def _named_users(db: Session, query: ContributionsQuery) -> tuple[ColumnElement[bool] | None, dict[str, Any]]:
    """The condition on a user id of being named (userIds, or a member of groupIds), None when nobody
    is named; 404 groupNotFound for an unknown group."""
    params: dict[str, Any] = {}
    named: list[ColumnElement[bool]] = []
    user_ids, group_ids = sorted(set(query.user_ids)), sorted(set(query.group_ids))
    if group_ids:
        known = set(db.scalars(select(Group.id).where(Group.id.in_(group_ids))))
        if len(known) < len(group_ids):
            raise ApiError(404, "groupNotFound", [FieldError(field="groupIds", code="groupNotFound")])
        members = select(user_group.c.user_id).where(in_ids(user_group.c.group_id, "group_ids"))
        named.append(HistoryEntry.user_id.in_(members))
        params["group_ids"] = group_ids
    if user_ids:
        named.append(in_ids(HistoryEntry.user_id, "user_ids"))
        params["user_ids"] = user_ids
    if not named:
        return None, params
    return (named[0] if len(named) == 1 else or_(*named)), params


def _entries(db: Session, *, user: Principal, query: ContributionsQuery) -> _Entries:
    starts = period_starts(query.granularity, query.from_year, query.start, query.count)
    scope = _scope(db, user, query.item_ids, query.subject_ids)
    bounds = [midnight(day) for day in starts]
    h = HistoryEntry
    conditions: list[ColumnElement[bool]] = [h.at >= bounds[0], h.at < bounds[-1]]
    parts = _scope_parts(scope)
    if not user.sees_every_cartography:
        conditions.append(_visible(user, scope.within))
    elif not parts:
        conditions.append(h.item_type.in_(MAP_TYPES))
    named, params = _named_users(db, query)
    if named is not None:
        conditions.append(named)
    # One SELECT per part rather than an OR of them, which the databases would answer by reading
    # the whole range of time.
    selects = [select(h.at, h.mode, h.user_id).where(*conditions, part) for part in parts or [true()]]
    entries = (union_all(*selects) if len(selects) > 1 else selects[0]).subquery("entries")
    if db.get_bind().dialect.name == "postgresql":
        period = _period_postgresql(entries.c.at, bounds)
    else:
        period = _period_sqlite(entries.c.at, query, starts, bounds[0], bounds[-1])
    return _Entries(entries=entries, period=period, params=params, starts=starts)


def _counts(entries: Any) -> tuple[Any, Any]:
    return (
        func.sum(case((entries.c.mode == "R", 1), else_=0)).label("views"),
        func.sum(case((entries.c.mode == "W", 1), else_=0)).label("contributions"),
    )


def contributions(db: Session, *, user: Principal, query: ContributionsQuery) -> Contributions:
    """Per period, the reads (views) and writes (contributions) of the entries on map items the user
    may read, of the users named (userIds and the members of groupIds; everyone's when none), on the
    items named (the whole map when none).

    One statement: the entries of the range, found by cartography and time or by item and time, are
    grouped by their period, computed by the database (PostgreSQL: width_bucket over the periods'
    bounds; SQLite: arithmetic on the local time). Periods begin at local midnight of the
    organisation's time zone, whatever the daylight saving time."""
    found = _entries(db, user=user, query=query)
    idx = found.period.label("idx")
    statement = select(idx, *_counts(found.entries)).group_by(idx)
    counted = {row.idx: (row.views, row.contributions) for row in db.execute(statement, found.params)}
    return Contributions(
        granularity=query.granularity,
        periods=[
            ContributionPeriod(
                start=day, views=counted.get(i, (0, 0))[0], contributions=counted.get(i, (0, 0))[1]
            )
            for i, day in enumerate(found.starts[:-1])
        ],
    )


@dataclass(frozen=True)
class UserContributions:
    """One user's views and contributions per period; user_id None for the entries of deleted accounts.
    `active` False for a person who left (deactivated), whom the export marks."""

    user_id: int | None
    name: str | None
    active: bool | None
    views: list[int]
    contributions: list[int]


def check_export(query: ContributionsQuery) -> None:
    """An export covers at most 78 weeks or 18 months: 422 valueMustBeBetween on count beyond."""
    if query.count > MAX_EXPORT_PERIODS[query.granularity]:
        raise ApiError(422, "atLeastOneErrorLeft", [FieldError(field="count", code="valueMustBeBetween")])


def contributions_by_user(
    db: Session, *, user: Principal, query: ContributionsQuery
) -> tuple[list[date], Iterator[UserContributions]]:
    """The periods' first days, and per user (by name) their views and contributions per period, as
    `contributions` counts them: a row for each user named (userIds, members of groupIds), whether or
    not they have entries, or, when nobody is named, for each user who has entries (and one for the
    entries of deleted accounts). One statement, grouped by user and period, read as it streams."""
    found = _entries(db, user=user, query=query)
    idx = found.period.label("idx")
    counts = (
        select(found.entries.c.user_id, idx, *_counts(found.entries))
        .group_by(found.entries.c.user_id, idx)
        .subquery("counts")
    )
    columns = (counts.c.idx, counts.c.views, counts.c.contributions)
    if query.user_ids or query.group_ids:
        members = select(user_group.c.user_id).where(in_ids(user_group.c.group_id, "group_ids"))
        statement = (
            select(User.id, User.display_name, User.active, *columns)
            .outerjoin(counts, counts.c.user_id == User.id)
            .where(or_(in_ids(User.id, "user_ids"), User.id.in_(members)))
        )
        params = {"user_ids": [], "group_ids": [], **found.params}
    else:
        statement = select(counts.c.user_id, User.display_name, User.active, *columns).outerjoin(
            User, User.id == counts.c.user_id
        )
        params = found.params
    statement = statement.order_by(
        User.last_name.nulls_last(), User.first_name.nulls_last(), User.id.nulls_last(), counts.c.idx
    ).execution_options(yield_per=1000)
    periods = len(found.starts) - 1

    def rows() -> Iterator[UserContributions]:
        current: UserContributions | None = None
        for user_id, name, active, period, views, writes in db.execute(statement, params):
            if current is None or current.user_id != user_id:
                if current is not None:
                    yield current
                current = UserContributions(user_id, name, active, [0] * periods, [0] * periods)
            if period is not None:
                current.views[period] = views
                current.contributions[period] = writes
        if current is not None:
            yield current

    return found.starts[:-1], rows()
