"""Mediations: reading (with `can` and signatures), the form (create, 'Create and start', update with the
field rules of spec 1 §6), the status transitions of spec 1 §4 as one table with their tracking
periods, and signing (core.signatures).

Helpers for the other modules of the area (reporting, actionable, the bell):

- `load(db, *, user, mediation_id, for_update=False) -> Mediation`: 404 unknown, 403 not readable;
- `facts(db, mediation) -> policy.Facts`: what the rules of policy.py look at;
- `bump(db, mediation, user, *, version=None)`: the version and lastUpdate of a write, 409
  staleVersion when `version` (the client's) or the row moved meanwhile;
- `record(db, *, user, mediation, event)`: the history entry of a write and its discussion system message;
- `set_execution(db, mediation)`: execution_start/stop from the stored periods;
- `signed_content(db, mediation) -> dict`: what a signature hashes (title, participants, periods,
  report comment and items);
- `validation(db, mediation) -> Validation | None`: who validated it and when, while it stays validated;
- `get(db, *, user, mediation_id) -> MediationOut`, `view(db, *, user, mediation) -> MediationOut`;
- `readable(user)`: the SQL condition of the mediations a user may read; `readable_items(user)`: the
  items a report may refer to, with the condition of those a user may read.

A mediation's card in lists is cards.py's."""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, delete, false, insert, literal, or_, select, union_all
from sqlalchemy import update as update_statement
from sqlalchemy.orm import Session

from spot.account.models import SessionToken
from spot.core import history, parents, signatures
from spot.core.errors import (
    ApiError,
    FieldError,
    conflict,
    ensure,
    illegal_transition,
    not_found,
    refuse_frozen_fields,
)
from spot.core.history import Event
from spot.core.principal import Principal
from spot.core.time import midnight, today, utcnow
from spot.core.visibility import VisibilityLinks, visible_to
from spot.discussions import service as discussions
from spot.discussions.models import DiscussionMessage
from spot.discussions.schemas import SystemMessageType
from spot.mapping.models import Activity, Cartography, Function, Subject
from spot.mapping.policy import hidden, sees_activity, sees_cartography, sees_function, sees_subject
from spot.mediations import cards, policy
from spot.mediations.models import (
    Mediation,
    MediationParticipant,
    MediationReportItem,
    MediationStatus,
    MediationVisibleGroup,
    MediationVisiblePerson,
    TrackingPeriod,
)
from spot.mediations.models import MediationStatus as S
from spot.mediations.schemas import MediationOut, MediationSave, MediationUpdate, Period
from spot.querylang.text import fold
from spot.users import service as users
from spot.users.models import Group, User

ITEM_TYPE = "mediation"
RECORD_TYPE = "mediation"
SIGNATURE_MEANING = "attendanceAndAgreement"
INVALIDATED = "mediationInvalidated"
STALE_VERSION = "staleVersion"


# Reading ------------------------------------------------------------------------------------


VISIBILITY = VisibilityLinks(
    person_item=MediationVisiblePerson.mediation_id,
    person=MediationVisiblePerson.user_id,
    group_item=MediationVisibleGroup.mediation_id,
    group=MediationVisibleGroup.group_id,
)


def readable(user: Principal) -> ColumnElement[bool]:
    """The mediations `user` may read, as SQL on Mediation: creator, mediator, participant, a person
    it is visible to, or a member of a group it is visible to. Each link is `id IN (set)`, a set of the
    user's alone that the database computes once per statement and hashes; correlated EXISTS per row
    priced a list page high enough for PostgreSQL to JIT-compile it (docs/performance.md)."""
    conditions: list[ColumnElement[bool]] = [
        Mediation.creator_id == user.id,
        Mediation.mediator_id == user.id,
        Mediation.id.in_(
            select(MediationParticipant.mediation_id).where(MediationParticipant.user_id == user.id)
        ),
        *visible_to(user, Mediation.id, VISIBILITY),
    ]
    return or_(*conditions)


def readable_items(user: Principal) -> dict[str, tuple[Any, ColumnElement[bool]]]:
    """The items a report may refer to, by history item type: the table and the condition on it of those
    `user` may read (the cartographies, functions, activities and subjects they see (mapping.policy),
    the mediations they may read). Items of any other type cannot be checked here."""
    return {
        "cartography": (Cartography, sees_cartography(user, Cartography.id)),
        "function": (Function, sees_function(user, Function.id, Function.cartography_id)),
        "activity": (Activity, sees_activity(user, Activity.id, Activity.cartography_id)),
        "subject": (
            Subject,
            sees_subject(user, Subject.function_id, Subject.activity_id, Subject.cartography_id),
        ),
        ITEM_TYPE: (Mediation, readable(user)),
    }


def _readable_refs(db: Session, user: Principal, refs: Iterable[tuple[str, int]]) -> set[tuple[str, int]]:
    """Those of the (item type, id) that exist and that `user` may read, one statement per type."""
    by_type: dict[str, set[int]] = {}
    for item_type, item_id in refs:
        by_type.setdefault(item_type, set()).add(item_id)
    readers = readable_items(user)
    found: set[tuple[str, int]] = set()
    for item_type, ids in by_type.items():
        if item_type not in readers:
            continue
        model, seen = readers[item_type]
        found |= {(item_type, i) for i in db.scalars(select(model.id).where(model.id.in_(sorted(ids)), seen))}
    return found


def load(db: Session, *, user: Principal, mediation_id: int, for_update: bool = False) -> Mediation:
    """The mediation as `user` may read it (404 unknown, 403 not readable); `for_update`
    locks its row until the end of the transaction (PostgreSQL; SQLite has one writer anyway)."""
    statement = (
        select(Mediation, readable(user))
        .where(Mediation.id == mediation_id)
        .execution_options(populate_existing=True)
    )
    if for_update and db.get_bind().dialect.name == "postgresql":
        statement = statement.with_for_update(of=Mediation)
    row = db.execute(statement).first()
    if row is None:
        raise not_found("mediationNotFound")
    if not row[1]:
        raise hidden()
    return row[0]


_PARTICIPANT, _PERSON, _GROUP, _SIGNER = "p", "v", "g", "s"


def _links(db: Session, mediation_id: int) -> dict[str, list[int]]:
    """Participants, visible persons, visible groups and live signers, in one statement."""
    statement: Any = union_all(
        select(literal(_PARTICIPANT), MediationParticipant.user_id).where(
            MediationParticipant.mediation_id == mediation_id
        ),
        select(literal(_PERSON), MediationVisiblePerson.user_id).where(
            MediationVisiblePerson.mediation_id == mediation_id
        ),
        select(literal(_GROUP), MediationVisibleGroup.group_id).where(
            MediationVisibleGroup.mediation_id == mediation_id
        ),
        select(literal(_SIGNER), signatures.Signature.signer_id).where(
            signatures.Signature.record_type == RECORD_TYPE,
            signatures.Signature.record_id == mediation_id,
            signatures.Signature.revoked_at.is_(None),
            signatures.Signature.signer_id.is_not(None),
        ),
    )
    links: dict[str, list[int]] = {_PARTICIPANT: [], _PERSON: [], _GROUP: [], _SIGNER: []}
    for kind, item_id in db.execute(statement).all():
        links[kind].append(item_id)
    return links


def _facts(mediation: Mediation, links: dict[str, list[int]]) -> policy.Facts:
    return policy.Facts(
        status=mediation.status,
        creator_id=mediation.creator_id,
        mediator_id=mediation.mediator_id,
        participant_ids=frozenset(links[_PARTICIPANT]),
        has_report=mediation.reported_at is not None,
        live_signer_ids=frozenset(links[_SIGNER]),
    )


def facts(db: Session, mediation: Mediation) -> policy.Facts:
    return _facts(mediation, _links(db, mediation.id))


def _periods(db: Session, mediation_id: int) -> list[TrackingPeriod]:
    return list(
        db.scalars(
            select(TrackingPeriod)
            .where(TrackingPeriod.mediation_id == mediation_id)
            .order_by(TrackingPeriod.start, TrackingPeriod.id)
        )
    )


def _items(db: Session, mediation_id: int) -> list[MediationReportItem]:
    return list(
        db.scalars(
            select(MediationReportItem)
            .where(MediationReportItem.mediation_id == mediation_id)
            .order_by(MediationReportItem.position, MediationReportItem.id)
        )
    )


def minute(at: datetime) -> datetime:
    """The start of the minute of `at`."""
    return at.replace(second=0, microsecond=0)


def duration_minutes(periods: Sequence[Period | TrackingPeriod], now: datetime | None = None) -> int:
    """Each period runs from the start of its start minute to the end of its stop minute (a running
    one up to now): (stop - start) in minutes + 1, summed."""
    current = minute(now or utcnow())
    total = 0
    for period in periods:
        stop = minute(period.stop) if period.stop is not None else current
        total += max(0, int((stop - minute(period.start)).total_seconds() // 60) + 1)
    return total


def _content(
    mediation: Mediation,
    participant_ids: Iterable[int],
    periods: Sequence[TrackingPeriod],
    items: Sequence[MediationReportItem],
) -> dict[str, Any]:
    return {
        "title": mediation.title,
        "participants": sorted(participant_ids),
        "periods": [[p.start, p.stop] for p in periods],
        "report": {
            "comment": mediation.report_comment,
            "items": [[i.tracking_id, i.entity_type, i.entity_id, i.date, i.mode, i.content] for i in items],
        },
    }


def signed_content(db: Session, mediation: Mediation) -> dict[str, Any]:
    """What a participant's signature covers: the title, the participants, the periods and the report
    (comment and items). A later change of any of them shows as 'modified after signature'."""
    return _content(
        mediation,
        _links(db, mediation.id)[_PARTICIPANT],
        _periods(db, mediation.id),
        _items(db, mediation.id),
    )


def view(db: Session, *, user: Principal, mediation: Mediation) -> MediationOut:
    links = _links(db, mediation.id)
    rules = _facts(mediation, links)
    names = cards.read_names(
        db,
        [
            mediation.creator_id,
            mediation.mediator_id,
            mediation.updated_by,
            *links[_PARTICIPANT],
            *links[_PERSON],
        ],
    )
    groups = dict(
        db.execute(select(Group.id, Group.name).where(Group.id.in_(links[_GROUP])).order_by(Group.name)).all()
        if links[_GROUP]
        else []
    )
    periods = _periods(db, mediation.id)
    items = _items(db, mediation.id)
    content = _content(mediation, links[_PARTICIPANT], periods, items)

    def people(ids: list[int]) -> list[dict[str, Any]]:
        return sorted(
            (p for p in (cards.person(i, names) for i in ids) if p is not None),
            key=lambda p: (p["name"], p["id"]),
        )

    signed = signatures.for_record(db, record_type=RECORD_TYPE, record_id=mediation.id, content=content)

    return MediationOut.model_validate(
        {
            **cards.card([getattr(mediation, c.key) for c in cards.CARD_COLUMNS], names),
            "participants": people(links[_PARTICIPANT]),
            "visibleByGroups": [{"id": i, "name": n} for i, n in groups.items()],
            "visibleByPersons": people(links[_PERSON]),
            "trackingPeriods": [{"start": p.start, "stop": p.stop} for p in periods],
            "durationMinutes": duration_minutes(periods),
            "discussionId": mediation.discussion_id,
            "reporting": None
            if mediation.reported_at is None
            else {
                "comment": mediation.report_comment,
                "items": _report_items(db, user, items),
                "date": mediation.reported_at,
            },
            "signatures": signed,
            "inactivePeople": users.inactive_among(db, [*names, *(s.user_id for s in signed)]),
            "version": mediation.version,
            "can": policy.can(user, rules),
        }
    )


@dataclass(frozen=True)
class Validation:
    """The mediator's act on a validated mediation: who validated it (their name and whether they are
    still active; no name once their account is gone) and when."""

    user_id: int | None
    name: str | None
    active: bool | None
    at: datetime


def validation(db: Session, mediation: Mediation) -> Validation | None:
    """Who validated the mediation and when, while it has an attendance sheet (policy): the latest
    statusChanged message to validated of its discussion, which the transition writes with its author
    (the mediator validates by that transition, without an electronic signature). None otherwise."""
    if mediation.status not in policy.ATTENDANCE_SHEET_STATUSES or mediation.discussion_id is None:
        return None
    messages = db.execute(
        select(
            DiscussionMessage.author_id,
            DiscussionMessage.at,
            DiscussionMessage.system_args,
            User.display_name,
            User.active,
        )
        .outerjoin(User, User.id == DiscussionMessage.author_id)
        .where(
            DiscussionMessage.discussion_id == mediation.discussion_id,
            DiscussionMessage.system_type == SystemMessageType.statusChanged.value,
        )
        .order_by(DiscussionMessage.at.desc(), DiscussionMessage.id.desc())
    )
    for author_id, at, args, name, active in messages:
        if isinstance(args, dict) and args.get("status") == S.validated.value:
            return Validation(user_id=author_id, name=name, active=active, at=at)
    return None


def _report_items(db: Session, user: Principal, items: Sequence[MediationReportItem]) -> list[dict[str, Any]]:
    """The report's actions for `user`: what each refers to, named only when `user` may read the item."""
    readable_refs = _readable_refs(db, user, ((i.entity_type, i.entity_id) for i in items))
    return [
        {
            "itemType": "Tracking",
            "trackingId": i.tracking_id,
            "relatedEntity": {
                "entityType": i.entity_type,
                "id": i.entity_id,
                "name": i.entity_name if (i.entity_type, i.entity_id) in readable_refs else None,
            },
            "date": i.date,
            "mode": i.mode,
            "event": i.event,
        }
        for i in items
    ]


def get(db: Session, *, user: Principal, mediation_id: int) -> MediationOut:
    """The mediation as the user sees it, with `can` (no history entry: the answer of a write)."""
    return view(db, user=user, mediation=load(db, user=user, mediation_id=mediation_id))


def read(db: Session, *, user: Principal, mediation_id: int) -> MediationOut:
    """The mediation page: counts as a read in the history."""
    mediation = load(db, user=user, mediation_id=mediation_id)
    page = view(db, user=user, mediation=mediation)
    history.record(db, _entry(user, mediation, mode="R"))
    return page


# Writing: history, discussion, version ------------------------------------------------------


def _entry(
    user: Principal | None, mediation: Mediation, *, mode: history.Mode, event: Event | None = None
) -> dict:
    return history.entry(
        user=user,
        item_type=ITEM_TYPE,
        item_id=mediation.id,
        item_key=str(mediation.id),
        item_name=mediation.title,
        mode=mode,
        event=event,
    )


def parent_of(mediation: Mediation) -> parents.Parent:
    return parents.Parent(ITEM_TYPE, mediation.id, str(mediation.id), mediation.title)


# The system message each event writes on the mediation's discussion, with its arguments.
_MESSAGES: dict[Event, tuple[SystemMessageType, Callable[[Mediation], dict[str, Any]]]] = {
    Event.updated: (SystemMessageType.updated, lambda m: {"name": m.title}),
    Event.statusChanged: (SystemMessageType.statusChanged, lambda m: {"status": m.status}),
    Event.trackingPeriodsChanged: (SystemMessageType.trackingPeriodsChanged, lambda m: {}),
    Event.mediationSigned: (SystemMessageType.mediationSigned, lambda m: {}),
}


def record(db: Session, *, user: Principal, mediation: Mediation, event: Event) -> None:
    """A write of the mediation in the history, and the system message of the event on its discussion
    (updated, statusChanged, trackingPeriodsChanged, mediationSigned; none for created)."""
    history.record(db, _entry(user, mediation, mode="W", event=event))
    message = _MESSAGES.get(event)
    if message is not None:
        kind, args = message
        discussions.system_message(
            db, parent=parent_of(mediation), user=user, type=kind, args=args(mediation)
        )


def stale() -> ApiError:
    return conflict(STALE_VERSION)


def bump(db: Session, mediation: Mediation, user: Principal, *, version: int | None = None) -> None:
    """Version + 1 and lastUpdate (user, now) of a write, in one UPDATE that checks the version read:
    409 staleVersion when `version` (the one the client edited) is not the stored one, or when a
    concurrent write moved it meanwhile."""
    expected = mediation.version if version is None else version
    if expected != mediation.version:
        raise stale()
    _write(db, mediation, {}, expected_version=expected, user=user)


def _write(
    db: Session,
    mediation: Mediation,
    values: dict[str, Any],
    *,
    user: Principal,
    expected_version: int | None = None,
    expected_status: str | None = None,
) -> bool:
    """UPDATE the row with `values`, version + 1 and lastUpdate, where the version (or the status) is
    still the one read; the object is reloaded. False when no row matched."""
    condition = [Mediation.id == mediation.id]
    if expected_version is not None:
        condition.append(Mediation.version == expected_version)
    if expected_status is not None:
        condition.append(Mediation.status == expected_status)
    result = db.execute(
        update_statement(Mediation)
        .where(*condition)
        .values(**values, version=Mediation.version + 1, updated_by=user.id, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    if result.rowcount == 0:  # type: ignore[attr-defined]
        if expected_status is None:
            raise stale()
        return False
    db.refresh(mediation)
    return True


def set_execution(db: Session, mediation: Mediation) -> None:
    """execution_start and execution_stop from the stored periods: the first start, and the last stop
    (null while the last period runs, or without periods)."""
    periods = _periods(db, mediation.id)
    start = periods[0].start if periods else None
    stop = periods[-1].stop if periods else None
    db.execute(
        update_statement(Mediation)
        .where(Mediation.id == mediation.id)
        .values(execution_start=start, execution_stop=stop)
        .execution_options(synchronize_session=False)
    )
    db.refresh(mediation)


# The form -----------------------------------------------------------------------------------


def _check_date(errors: list[FieldError], scheduled: datetime) -> None:
    """Not before today in the organisation's time zone; today, at least one minute after now."""
    now = utcnow()
    if scheduled < midnight(today()) or scheduled < now + timedelta(minutes=1):
        errors.append(FieldError(field="schedulingDate", code="errors.lessThanMin"))


def _existing(db: Session, model: Any, ids: Iterable[int]) -> set[int]:
    wanted = sorted(set(ids))
    if not wanted:
        return set()
    return set(db.scalars(select(model.id).where(model.id.in_(wanted))))


def _validate(db: Session, data: MediationSave, *, check_date: bool) -> None:
    """The save rules of spec 1 §5 (400, errors by field)."""
    errors: list[FieldError] = []
    people = {*data.participants, *data.visible_by_persons}
    if data.mediator is not None:
        people.add(data.mediator)
    users = _existing(db, User, people)
    if data.mediator is None:
        errors.append(FieldError(field="mediator", code="mustNotBeEmpty"))
    elif data.mediator not in users:
        errors.append(FieldError(field="mediator", code="invalidValue"))
    if not data.participants:
        errors.append(FieldError(field="participants", code="mustNotBeEmpty"))
    elif any(p not in users for p in data.participants):
        errors.append(FieldError(field="participants", code="invalidValue"))
    elif data.mediator is not None and data.mediator in data.participants:
        errors.append(FieldError(field="participants", code="mediatorCantBeParticipant"))
    if any(p not in users for p in data.visible_by_persons):
        errors.append(FieldError(field="visibleByPersons", code="invalidValue"))
    if set(data.visible_by_groups) - _existing(db, Group, data.visible_by_groups):
        errors.append(FieldError(field="visibleByGroups", code="invalidValue"))
    if check_date and data.scheduling_date is not None:
        _check_date(errors, data.scheduling_date)
    if errors:
        raise ApiError(400, errors[0].code, errors)


_LINK_TABLES: dict[str, tuple[Any, str]] = {
    "participants": (MediationParticipant, "user_id"),
    "visibleByPersons": (MediationVisiblePerson, "user_id"),
    "visibleByGroups": (MediationVisibleGroup, "group_id"),
}


def _set_links(db: Session, mediation_id: int, field: str, ids: Iterable[int]) -> None:
    model, column = _LINK_TABLES[field]
    db.execute(delete(model).where(model.mediation_id == mediation_id))
    rows = [{"mediation_id": mediation_id, column: i} for i in sorted(set(ids))]
    if rows:
        db.execute(insert(model), rows)


def _link_values(data: MediationSave) -> dict[str, list[int]]:
    return {
        "participants": data.participants,
        "visibleByPersons": data.visible_by_persons,
        "visibleByGroups": data.visible_by_groups,
    }


def _new(db: Session, user: Principal, values: dict[str, Any]) -> Mediation:
    now = utcnow()
    mediation = Mediation(
        creator_id=user.id, created_at=now, updated_by=user.id, updated_at=now, version=1, **values
    )
    db.add(mediation)
    db.flush()
    discussions.attach(db, item=mediation, parent_type=ITEM_TYPE)
    return mediation


def create(db: Session, *, user: Principal, data: MediationSave) -> Mediation:
    """A scheduled mediation (status created), the user its creator; any signed-in user."""
    _validate(db, data, check_date=True)
    mediation = _new(
        db,
        user,
        {
            "title": data.title,
            "description": data.description,
            "scheduling_date": data.scheduling_date,
            "mediator_id": data.mediator,
            "status": S.created.value,
        },
    )
    for field, ids in _link_values(data).items():
        _set_links(db, mediation.id, field, ids)
    record(db, user=user, mediation=mediation, event=Event.created)
    _changed(db, mediation)
    return mediation


def create_unplanned(db: Session, *, user: Principal, title: str) -> Mediation:
    """'Create and start': the user creator and mediator, no participant, no description, no
    visibility, no scheduling date; started with a running period."""
    now = minute(utcnow())
    mediation = _new(
        db,
        user,
        {
            "title": title,
            "description": "",
            "mediator_id": user.id,
            "status": S.started.value,
            "execution_start": now,
        },
    )
    db.add(TrackingPeriod(mediation_id=mediation.id, start=now, stop=None))
    db.flush()
    record(db, user=user, mediation=mediation, event=Event.created)
    record(db, user=user, mediation=mediation, event=Event.statusChanged)
    return mediation


def update(db: Session, *, user: Principal, mediation_id: int, data: MediationUpdate) -> Mediation:
    """The form: a stale version answers 409 staleVersion; a field changed that the user may not change
    in this status 409 fieldNotEditable (each named); then the save rules (400)."""
    mediation = load(db, user=user, mediation_id=mediation_id, for_update=True)
    links = _links(db, mediation.id)
    rules = _facts(mediation, links)
    ensure(policy.can_edit(user, rules))
    if data.version is not None and data.version != mediation.version:
        raise stale()
    changed = {
        "title": data.title != mediation.title,
        "description": data.description != mediation.description,
        "schedulingDate": data.scheduling_date != mediation.scheduling_date,
        "mediator": data.mediator != mediation.mediator_id,
        "participants": set(data.participants) != set(links[_PARTICIPANT]),
        "visibleByGroups": set(data.visible_by_groups) != set(links[_GROUP]),
        "visibleByPersons": set(data.visible_by_persons) != set(links[_PERSON]),
    }
    editable = policy.editable_fields(user, rules)
    refuse_frozen_fields(changed, editable, policy.FIELDS)
    _validate(db, data, check_date=changed["schedulingDate"])
    if not any(changed.values()):
        return mediation  # nothing to write: no new version, no history entry
    values: dict[str, Any] = {}
    if changed["title"]:
        values |= {"title": data.title, "title_folded": fold(data.title)}
    if changed["description"]:
        values |= {"description": data.description, "description_folded": fold(data.description)}
    if changed["schedulingDate"]:
        values["scheduling_date"] = data.scheduling_date
    if changed["mediator"]:
        values["mediator_id"] = data.mediator
    _write(db, mediation, values, user=user, expected_version=mediation.version)
    for field, ids in _link_values(data).items():
        if changed[field]:
            _set_links(db, mediation.id, field, ids)
    record(db, user=user, mediation=mediation, event=Event.updated)
    _changed(db, mediation)
    return mediation


# Status transitions (spec 1 §4) -------------------------------------------------------------


def _open_period(db: Session, mediation: Mediation, now: datetime) -> None:
    """A running period from this minute; a resume in the minute of the last stop reopens that period."""
    periods = _periods(db, mediation.id)
    last = periods[-1] if periods else None
    if last is not None and last.stop is not None and minute(last.stop) == now:
        last.stop = None
    elif last is None or last.stop is not None:
        db.add(TrackingPeriod(mediation_id=mediation.id, start=now, stop=None))
    db.flush()


def _close_period(db: Session, mediation: Mediation, now: datetime) -> None:
    db.execute(
        update_statement(TrackingPeriod)
        .where(TrackingPeriod.mediation_id == mediation.id, TrackingPeriod.stop.is_(None))
        .values(stop=now)
        .execution_options(synchronize_session=False)
    )


def change_status(db: Session, *, user: Principal, mediation_id: int, status: MediationStatus) -> Mediation:
    """Apply the transition of policy.TRANSITIONS from the current status to `status`: 403 when the
    user's role does not allow it, 409 illegalTransition with the current status when there is none or
    the mediation is not ready. Applied where the status is still the one read, so that of two
    concurrent changes one wins and the other answers 409."""
    mediation = load(db, user=user, mediation_id=mediation_id)
    rules = facts(db, mediation)
    current = mediation.status
    action = policy.TRANSITIONS.leading_to(rules, status.value)
    policy.TRANSITIONS.check(user, rules, action)
    if not _write(db, mediation, {"status": status.value}, user=user, expected_status=current):
        db.expire(mediation)
        now_status = db.scalar(select(Mediation.status).where(Mediation.id == mediation_id))
        raise illegal_transition(now_status or current)
    now = minute(utcnow())
    if action in ("start", "resume"):
        _open_period(db, mediation, now)
        set_execution(db, mediation)
    elif action in ("pause", "stop", "cancel"):
        # A running mediation canceled stops running too: its duration no longer grows.
        _close_period(db, mediation, now)
        set_execution(db, mediation)
    elif action == "invalidate":
        signatures.revoke_all(
            db, record_type=RECORD_TYPE, record_id=mediation.id, reason=INVALIDATED, by=user
        )
    record(db, user=user, mediation=mediation, event=Event.statusChanged)
    _changed(db, mediation)
    return mediation


# What other areas keep of a mediation (the training paths it is an element of), told when it changes.
ChangeListener = Callable[[Session, int], None]
_CHANGE_LISTENERS: list[ChangeListener] = []


def on_change(listener: ChangeListener) -> None:
    """`listener(db, mediation_id)` runs in the transaction that created, saved, signed the mediation or
    changed its status (training.paths.elements registers how a path counts it, notifications.invitations
    the participants' calendar invitations)."""
    _CHANGE_LISTENERS.append(listener)


def _changed(db: Session, mediation: Mediation) -> None:
    for listener in _CHANGE_LISTENERS:
        listener(db, mediation.id)


def changed(db: Session, mediation: Mediation) -> None:
    """The listeners of on_change, for the area's other modules (reporting: a report written)."""
    _changed(db, mediation)


# Signing ------------------------------------------------------------------------------------


def sign(db: Session, *, user: Principal, session: SessionToken, mediation_id: int) -> Mediation:
    """A participant signs the validated mediation ('attendance and agreement with the report'):
    403 for anyone else, 409 illegalTransition unless validated, 401 reauthenticationRequired without
    a recent password, 409 alreadySigned for a second live signature."""
    mediation = load(db, user=user, mediation_id=mediation_id, for_update=True)
    rules = facts(db, mediation)
    ensure(policy.is_participant(user, rules))
    if mediation.status != S.validated:
        raise illegal_transition(mediation.status)
    signatures.sign(
        db,
        user=user,
        session=session,
        record_type=RECORD_TYPE,
        record_id=mediation.id,
        meaning=SIGNATURE_MEANING,
        content=signed_content(db, mediation),
    )
    bump(db, mediation, user)
    record(db, user=user, mediation=mediation, event=Event.mediationSigned)
    _changed(db, mediation)
    return mediation


# Discussion and gallery parent --------------------------------------------------------------


def _parent(db: Session, user: Principal, mediation_id: int) -> parents.Parent:
    return parent_of(load(db, user=user, mediation_id=mediation_id))


parents.register(ITEM_TYPE, _parent)
discussions.register_parent(
    ITEM_TYPE,
    discussions.ParentTable(Mediation, Mediation.title, lambda viewer: _sees(viewer)),
)


def _sees(viewer: Any) -> ColumnElement[bool]:
    """The teamwork menu's test of a mediation for a viewer (a Principal; a viewer without groups
    (a bound user id) sees only those they are named in)."""
    if isinstance(viewer, Principal):
        return readable(viewer)
    return false()
