"""The report of a mediation (spec 1 §2 'Edit mediation report', §3 'Report item' and 'Selectable tracked
action', §5 'Mediation report'): its tracking periods, the actions tracked during them (read from the
history of the mediator and the participants) and the report, a comment and a choice of those actions.

Only the mediator of a stopped mediation with participants writes it (policy.can_edit_report);
validation locks it. A period runs from the start of its start minute to the end of its stop minute:
instants are kept to the minute, and the actions of a period are the history entries from its start
minute up to the end of its stop minute."""

from collections.abc import Sequence
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any

from sqlalchemy import ColumnElement, and_, delete, exists, insert, literal, or_, select, union_all
from sqlalchemy.orm import Session

from spot.core.errors import ApiError, FieldError, ensure
from spot.core.history import Event
from spot.core.history_models import HistoryEntry
from spot.core.principal import Principal
from spot.core.time import utcnow
from spot.mediations import policy, service
from spot.mediations.models import (
    Mediation,
    MediationParticipant,
    MediationReportItem,
    TrackingPeriod,
)
from spot.mediations.schemas import Period, ReportItemIn, TrackedAction
from spot.mediations.service import minute

MINUTE = timedelta(minutes=1)
# The most tracked actions one call lists, oldest first.
MAX_TRACKED_ACTIONS = 1000


def _refused(errors: list[FieldError]) -> ApiError:
    return ApiError(400, errors[0].code if len(errors) == 1 else "atLeastOneErrorLeft", errors)


# Tracking periods ----------------------------------------------------------------------------------------


def period_errors(periods: Sequence[Period], now: datetime) -> list[FieldError]:
    """Every error of the periods by field, none when they may be saved: at least one period
    (mustNotBeEmpty); each stopped, not before its start (errors.lessThanMin) nor after the current
    minute (errors.greaterThanMax); then, when each is right, none starting in or before the minute its
    predecessor stops in (trackingPeriodDateConflict, on the later one's start). Fields are named by the
    position the period was sent at."""
    if not periods:
        return [FieldError(field="periods", code="mustNotBeEmpty")]
    latest = minute(now)
    errors: list[FieldError] = []
    spans: list[tuple[datetime, datetime, int]] = []
    for i, period in enumerate(periods):
        start = minute(period.start)
        if period.stop is None:
            errors.append(FieldError(field=f"periods.{i}.stop", code="mustNotBeEmpty"))
            continue
        stop = minute(period.stop)
        if stop < start:
            errors.append(FieldError(field=f"periods.{i}.stop", code="errors.lessThanMin"))
        elif stop > latest:
            errors.append(FieldError(field=f"periods.{i}.stop", code="errors.greaterThanMax"))
        spans.append((start, stop, i))
    if errors:
        return errors
    spans.sort()
    return [
        FieldError(field=f"periods.{i}.start", code="trackingPeriodDateConflict")
        for (_, previous_stop, _), (start, _, i) in pairwise(spans)
        if start <= previous_stop
    ]


def checked_periods(periods: Sequence[Period], now: datetime) -> list[tuple[datetime, datetime]]:
    """The periods to the minute, sorted by start, or 400 with every error of period_errors."""
    errors = period_errors(periods, now)
    if errors:
        raise _refused(errors)
    return sorted((minute(p.start), minute(p.stop)) for p in periods if p.stop is not None)


def check_tracking(
    db: Session, *, user: Principal, mediation_id: int, periods: Sequence[Period]
) -> list[FieldError]:
    """What saving these periods would refuse, for the report page as the mediator edits them: the
    errors of period_errors, under the rule of save_tracking about who may write them."""
    mediation = service.load(db, user=user, mediation_id=mediation_id)
    ensure(policy.can_edit_report(user, service.facts(db, mediation)))
    return period_errors(periods, utcnow())


def save_tracking(
    db: Session, *, user: Principal, mediation_id: int, periods: list[Period], version: int | None
) -> None:
    """Replace the periods of a stopped mediation (its mediator only), keeping its execution start and
    stop on the first start and the last stop."""
    mediation = service.load(db, user=user, mediation_id=mediation_id)
    ensure(policy.can_edit_report(user, service.facts(db, mediation)))
    spans = checked_periods(periods, utcnow())
    service.bump(db, mediation, user, version=version)
    db.execute(delete(TrackingPeriod).where(TrackingPeriod.mediation_id == mediation.id))
    db.execute(
        insert(TrackingPeriod),
        [{"mediation_id": mediation.id, "start": start, "stop": stop} for start, stop in spans],
    )
    service.set_execution(db, mediation)
    service.record(db, user=user, mediation=mediation, event=Event.trackingPeriodsChanged)


# Tracked actions -----------------------------------------------------------------------------------------


def _readable_item(user: Principal, mediation_id: int) -> ColumnElement[bool]:
    """The entry is about an item the user may read (service.readable_items), other than this mediation.
    Entries of other types of item, whose reading cannot be checked here, are left out."""
    h = HistoryEntry
    return and_(
        or_(
            *(
                and_(h.item_type == item_type, exists(select(model.id).where(model.id == h.item_id, seen)))
                for item_type, (model, seen) in service.readable_items(user).items()
            )
        ),
        or_(h.item_type != service.ITEM_TYPE, h.item_id != mediation_id),
    )


def _tracked(user: Principal, mediation: Mediation) -> list[ColumnElement[bool]]:
    """Entries of the mediator and the participants on items the user may read."""
    people: list[Any] = [
        select(MediationParticipant.user_id).where(MediationParticipant.mediation_id == mediation.id)
    ]
    if mediation.mediator_id is not None:
        people.append(select(literal(mediation.mediator_id)))
    h = HistoryEntry
    return [h.user_id.in_(union_all(*people)), _readable_item(user, mediation.id)]


def _action(row: Any) -> TrackedAction:
    return TrackedAction(
        id=row.id,
        entity_type=row.item_type,
        entity_key=row.item_key,
        entity_name=row.item_name,
        date=row.at,
        mode=row.mode,
        event=row.event,
    )


def tracked_actions(
    db: Session, *, user: Principal, mediation_id: int, start: datetime, stop: datetime
) -> list[TrackedAction]:
    """The history entries of the mediator and the participants from the start minute to the end of the
    stop minute, oldest first, at most MAX_TRACKED_ACTIONS, on items the signed-in user may read.
    400 errors.lessThanMin on `stop` when it is before `start`."""
    mediation = service.load(db, user=user, mediation_id=mediation_id)
    ensure(policy.can_edit_report(user, service.facts(db, mediation)))
    if stop < start:
        raise _refused([FieldError(field="stop", code="errors.lessThanMin")])
    h = HistoryEntry
    rows = db.execute(
        select(h.id, h.item_type, h.item_key, h.item_name, h.at, h.mode, h.event)
        .where(h.at >= minute(start), h.at < minute(stop) + MINUTE, *_tracked(user, mediation))
        .order_by(h.at, h.id)
        .limit(MAX_TRACKED_ACTIONS)
    ).all()
    return [_action(row) for row in rows]


# The report ----------------------------------------------------------------------------------------------


def save_report(
    db: Session,
    *,
    user: Principal,
    mediation_id: int,
    comment: str,
    items: list[ReportItemIn],
    version: int | None,
) -> None:
    """The comment and the chosen actions, replacing the previous report. Each action must be one the
    report page lists for the stored periods (400 invalidValue on `items.<i>.trackingId`); what it is
    about, when, how and what it did come from its history entry. The client's wording is not kept:
    each reader's client words the lines in the reader's language."""
    mediation = service.load(db, user=user, mediation_id=mediation_id)
    ensure(policy.can_edit_report(user, service.facts(db, mediation)))
    comment = comment.strip()
    if not comment and not items:
        raise _refused([FieldError(field="comment", code="commentOrActionSelectionNeeded")])
    entries = _entries_of_periods(db, user, mediation, {item.tracking_id for item in items})
    errors: list[FieldError] = []
    seen: set[int] = set()
    for i, item in enumerate(items):
        if item.tracking_id not in entries or item.tracking_id in seen:
            errors.append(FieldError(field=f"items.{i}.trackingId", code="invalidValue"))
        seen.add(item.tracking_id)
    if errors:
        raise _refused(errors)
    service.bump(db, mediation, user, version=version)
    db.execute(delete(MediationReportItem).where(MediationReportItem.mediation_id == mediation.id))
    if items:
        db.execute(
            insert(MediationReportItem),
            [
                {
                    "mediation_id": mediation.id,
                    "position": position,
                    "tracking_id": item.tracking_id,
                    "entity_type": entries[item.tracking_id].item_type,
                    "entity_id": entries[item.tracking_id].item_id,
                    "date": entries[item.tracking_id].at,
                    "mode": entries[item.tracking_id].mode,
                    "event": entries[item.tracking_id].event,
                    "entity_name": entries[item.tracking_id].item_name,
                    "content": "",
                }
                for position, item in enumerate(items)
            ],
        )
    mediation.report_comment = comment
    mediation.reported_at = utcnow()
    service.record(db, user=user, mediation=mediation, event=Event.updated)
    service.changed(db, mediation)


def _entries_of_periods(db: Session, user: Principal, mediation: Mediation, ids: set[int]) -> dict[int, Any]:
    """Those of the history entries `ids` that are tracked actions of the mediation's stored periods."""
    if not ids:
        return {}
    periods = db.execute(
        select(TrackingPeriod.start, TrackingPeriod.stop).where(TrackingPeriod.mediation_id == mediation.id)
    ).all()
    if not periods:
        return {}
    h = HistoryEntry
    now = utcnow()
    within = or_(
        *(and_(h.at >= minute(start), h.at < minute(stop or now) + MINUTE) for start, stop in periods)
    )
    rows = db.execute(
        select(h.id, h.item_type, h.item_id, h.item_name, h.at, h.mode, h.event).where(
            h.id.in_(sorted(ids)), within, *_tracked(user, mediation)
        )
    ).all()
    return {row.id: row for row in rows}
