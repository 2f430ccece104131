"""Subjects: reading with their contexts, the form (create, update, duplicate, delete) and the
lifetime marks (follow, resolve, rate, standardize). Every action records user and date,
updates lastUpdate, records a visit and a history entry."""

import logging
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from operator import attrgetter
from typing import Any

from sqlalchemy import ColumnElement, and_, bindparam, case, func, null, select, union_all
from sqlalchemy import update as update_statement
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session, joinedload, noload
from sqlalchemy.orm.exc import StaleDataError

from spot.core import files, history, parents
from spot.core.errors import ApiError, FieldError, conflict, ensure, not_found
from spot.core.files import get_file_store
from spot.core.history import Event
from spot.core.history_models import HistoryEntry, is_write
from spot.core.principal import Principal
from spot.core.routing import API_PREFIX
from spot.core.time import utcnow
from spot.db import UtcDateTime, in_ids, plain
from spot.discussions import service as discussions
from spot.discussions.service import SystemMessageType
from spot.mapping import policy as mapping_policy
from spot.mapping import service as mapping
from spot.mapping.models import (
    Activity,
    Cartography,
    Function,
    MindMapItem,
    NodeStatus,
    Subject,
    criticity_score,
)
from spot.mapping.policy import Viewer, by_viewer, sees_subject
from spot.mapping.schemas import ContextEntry
from spot.subjects import policy
from spot.subjects.mindmap import standardized
from spot.subjects.models import SubjectVisit
from spot.subjects.schemas import (
    HIGH_ABOVE,
    LOW_BELOW,
    Contributor,
    CriticityLevel,
    CriticityTable,
    MindMapItemOut,
    PreventionMeasuresSave,
    Ratings,
    SubjectOut,
    SubjectSave,
    SubjectUpdate,
    Visit,
)
from spot.users.models import User

log = logging.getLogger("spot.security")
ITEM_TYPE = "subject"


# Criticity ----------------------------------------------------------------------------------


def criticity_level(score: int | None) -> CriticityLevel | None:
    if score is None:
        return None
    if score < LOW_BELOW:
        return "low"
    if score > HIGH_ABOVE:
        return "high"
    return "medium"


def criticity_bands(score: Any) -> dict[str, ColumnElement[bool]]:
    """criticity_level in SQL: each level's condition on a score column ("none": not rated)."""
    return {
        "none": score.is_(None),
        "low": and_(score.is_not(None), score < LOW_BELOW),
        "medium": and_(score.is_not(None), score >= LOW_BELOW, score <= HIGH_ABOVE),
        "high": and_(score.is_not(None), score > HIGH_ABOVE),
    }


def criticity_table() -> CriticityTable:
    scale = range(6)
    return CriticityTable(levels=[[criticity_level(criticity_score(f, g)) for g in scale] for f in scale])


# Reading ------------------------------------------------------------------------------------


# The statements of the subject page and of lists are built once, with parameters (policy.VIEWER
# among them): composing a statement costs more than running it.
def sees_subject_row(viewer: Viewer) -> Any:
    """Whether the viewer sees the subject of the row (spot.mapping.policy)."""
    return sees_subject(viewer, Subject.function_id, Subject.activity_id, Subject.cartography_id)


# In two versions (policy.by_viewer): users who see everything run one without any visibility test.
_SUBJECT = by_viewer(
    lambda viewer: (
        select(Subject, sees_subject_row(viewer))
        .where(Subject.id == bindparam("subject_id"))
        .options(joinedload(Subject.mind_map_items))
    )
)
# Without its nodes, for the mind map's calls, which read what they need of the tree themselves.
_SUBJECT_ALONE = by_viewer(
    lambda viewer: (
        select(Subject, sees_subject_row(viewer))
        .where(Subject.id == bindparam("subject_id"))
        .options(noload(Subject.mind_map_items))
    )
)


def get(db: Session, *, user: Principal, subject_id: int, nodes: bool = True) -> Subject:
    """404 subjectNotFound, 403 hidden. `nodes=False`: its mind_map_items are not loaded (and read as
    empty): for callers that read the tree themselves."""
    statement = (_SUBJECT if nodes else _SUBJECT_ALONE).of(user)
    row = db.execute(statement, {"viewer_id": user.id, "subject_id": subject_id}).unique().first()
    if row is None:
        raise not_found("subjectNotFound")
    if not row[1]:
        raise mapping_policy.hidden()
    return row[0]


# Names of users, computed by the database (User.display_name), not from whole users.
_NAMED = (User.id, User.display_name)
_USERS = select(*_NAMED).where(in_ids(User.id, "ids"))


def _people_statement() -> Any:
    """The subject's contributors with their first contribution, then the users of `ids` (no date)."""
    writers = (
        select(HistoryEntry.user_id, func.min(HistoryEntry.at).label("first"))
        .where(
            HistoryEntry.item_type == ITEM_TYPE, HistoryEntry.item_id == bindparam("subject_id"), is_write()
        )
        .group_by(HistoryEntry.user_id)
        .subquery()
    )
    return union_all(
        select(*_NAMED, writers.c.first).join(writers, writers.c.user_id == User.id),
        select(*_NAMED, null()).where(in_ids(User.id, "ids")),
    )


_PEOPLE = _people_statement()


def _people(db: Session, subject: Subject) -> tuple[dict[int, str], list[Contributor]]:
    """In one statement: the names of the users of the subject's lifetime events, and its
    contributors (users who wrote to it, from the history, first contribution first)."""
    wanted = [i for i in set(_event_user_ids(subject)) if i is not None]
    rows = plain(db).execute(_PEOPLE, {"subject_id": subject.id, "ids": wanted}).all()
    contributors = sorted((first, user_id, name) for user_id, name, first in rows if first is not None)
    names = {user_id: name for user_id, name, _first in rows}
    return names, [Contributor(id=user_id, name=name) for _first, user_id, name in contributors]


def _user_names(db: Session, ids: Iterable[int | None]) -> dict[int, str]:
    wanted = [i for i in set(ids) if i is not None]
    if not wanted:
        return {}
    return dict(plain(db).execute(_USERS, {"ids": wanted}).all())


# (event key in JSON, column prefix) of the lifetime events, in SubjectSummary's order.
_EVENTS = (
    ("creation", "created"),
    ("lastUpdate", "updated"),
    ("followed", "followed"),
    ("resolved", "resolved"),
    ("criticity", "criticity"),
    ("standardized", "standardized"),
)
_EVENT_COLUMNS = [prefix for _key, prefix in _EVENTS]
_EVENT_USERS = attrgetter(*(f"{prefix}_by" for prefix in _EVENT_COLUMNS))

# What lists read of a subject, in the order _summary_fields takes it, then the main node's status
# (Subject.main_node_status, kept by the database, not the mind map).
SUMMARY_COLUMNS = (
    Subject.id,
    Subject.code,
    Subject.name,
    Subject.type,
    Subject.cartography_id,
    Subject.function_id,
    Subject.activity_id,
    Subject.frequency,
    Subject.gravity,
    Subject.detectability,
    Subject.criticity_score,
    Subject.has_diagram,
    Subject.last_mindmap_update,
    *(getattr(Subject, f"{prefix}_{part}") for prefix in _EVENT_COLUMNS for part in ("at", "by")),
    Subject.main_node_status,
)
# The position of created_at, followed by (at, by) of every event.
_FIRST_EVENT = [column.key for column in SUMMARY_COLUMNS].index("created_at")
_EVENT_USER_POSITIONS = range(_FIRST_EVENT + 1, _FIRST_EVENT + 2 * len(_EVENTS), 2)
# The same values of a Subject (the subject page).
_SUMMARY_VALUES = attrgetter(*(column.key for column in SUMMARY_COLUMNS[:-1]))


def _event_user_ids(subject: Subject) -> tuple[int | None, ...]:
    return _EVENT_USERS(subject)


def _main_status(subject: Subject) -> NodeStatus | None:
    main = next((n for n in subject.mind_map_items if n.code == 0), None)
    return NodeStatus(main.status) if main else None


def _summary_fields(values: Sequence[Any], names: dict[int, str], main_status: str | None) -> dict:
    """SubjectSummary as plain data with its JSON keys, from the values of SUMMARY_COLUMNS: lists
    send it as it is (summary_fields), the subject page validates it with the rest of SubjectOut."""
    (
        subject_id,
        code,
        name,
        kind,
        cartography_id,
        function_id,
        activity_id,
        frequency,
        gravity,
        detectability,
        score,
        has_diagram,
        last_mindmap_update,
    ) = values[:_FIRST_EVENT]
    lifetime = {}
    for index, (key, _prefix) in enumerate(_EVENTS):
        at, by = values[_FIRST_EVENT + 2 * index], values[_FIRST_EVENT + 2 * index + 1]
        lifetime[key] = None if at is None else {"userId": by, "userName": names.get(by, ""), "date": at}
    return {
        "id": subject_id,
        "code": code,
        "name": name,
        "type": kind,
        "cartographyId": cartography_id,
        "functionId": function_id,
        "activityId": activity_id,
        "lifetimeEvents": lifetime,
        "ratings": {"frequency": frequency, "gravity": gravity, "detectability": detectability},
        "criticity": score,
        "criticityLevel": criticity_level(score),
        "mainNodeStatus": main_status,
        "hasDiagram": has_diagram,
        "lastMindmapUpdate": last_mindmap_update,
    }


def event_user_names(db: Session, rows: Sequence[Any]) -> dict[int, str]:
    """The names of the users of the lifetime events of these rows of SUMMARY_COLUMNS, in one statement."""
    return _user_names(db, (row[i] for row in rows for i in _EVENT_USER_POSITIONS))


def summary_fields(rows: Sequence[Any], names: dict[int, str]) -> list[dict]:
    """SubjectSummary of each row of SUMMARY_COLUMNS as JSON-ready data (camelCase keys, values that
    pydantic_core.to_json writes as the model would), from the names of their events' users.
    Lists send these without validating them again (spot.core.schemas.json_response): on a page of
    hundreds of subjects, validating data read from our own columns cost more than the rest of the
    request (tests/subjects/test_subjects_json.py checks them against the models). Rows are read
    by position: by name, a row's attributes cost as much as the rest."""
    return [_summary_fields(row, names, row[-1] or None) for row in rows]


def _ancestors(contexts: list[list[ContextEntry]]) -> list[ContextEntry]:
    seen: set[tuple[str, int]] = set()
    out = []
    for chain in contexts:
        for step in chain:
            if (step.type, step.id) not in seen:
                seen.add((step.type, step.id))
                out.append(step)
    return out


def view(db: Session, *, user: Principal, subject: Subject) -> SubjectOut:
    names, contributors = _people(db, subject)
    contexts = mapping.subject_contexts(db, subject)
    return SubjectOut.model_validate(
        {
            **_summary_fields(_SUMMARY_VALUES(subject), names, _main_status(subject)),
            "contexts": contexts,
            "ancestors": _ancestors(contexts),
            "standardized_comment": subject.standardized_comment,
            "prevention_measures": subject.prevention_measures,
            "mind_map_items": [
                MindMapItemOut(code=n.code, name=n.name, status=NodeStatus(n.status))
                for n in subject.mind_map_items
            ],
            "picture_url": f"{API_PREFIX}/subject/{subject.id}/picture" if subject.picture_ref else None,
            "contributors": contributors,
            "discussion_id": subject.discussion_id,
            "version": subject.version,
            "can": policy.can(user, subject),
        }
    )


def read(db: Session, *, user: Principal, subject_id: int) -> SubjectOut:
    """The subject page: a read in the history and a visit, written after the reads (on SQLite
    the first write holds the database's write lock until the commit)."""
    subject = get(db, user=user, subject_id=subject_id)
    page = view(db, user=user, subject=subject)
    if history.reads_lazily(db, "R"):
        entry = _entry(user, subject, mode="R")
        plain(db).execute(_READ_AND_VISIT, {**entry, "subject_id": subject.id, "visited_at": entry["at"]})
    else:
        _record(db, user, subject, mode="R")
        record_visit(db, user=user, subject_id=subject.id)
    return page


# Visits -------------------------------------------------------------------------------------


def _visiting(upsert: Any) -> Any:
    table = SubjectVisit.__table__
    at = bindparam("visited_at", type_=UtcDateTime)
    statement = upsert(table).values(
        user_id=bindparam("user_id"), subject_id=bindparam("subject_id"), visited_at=at
    )
    return statement.on_conflict_do_update(
        index_elements=[table.c.user_id, table.c.subject_id], set_={"visited_at": at}
    )


_VISIT = {"postgresql": _visiting(pg_insert), "sqlite": _visiting(sqlite_insert)}
# A GET of a subject on PostgreSQL: its read entry and its visit in one statement.
_READ_AND_VISIT = history.lazy_read_with(_VISIT["postgresql"])


def record_visit(db: Session, *, user: Principal, subject_id: int) -> None:
    """Insert or refresh the (user, subject) visit in one statement, safe under concurrency."""
    visit = {"user_id": user.id, "subject_id": subject_id, "visited_at": utcnow()}
    plain(db).execute(_VISIT[db.get_bind().dialect.name], visit)


def visits(db: Session, *, user: Principal) -> list[Visit]:
    rows = db.execute(
        select(SubjectVisit.subject_id, SubjectVisit.visited_at)
        .join(Subject, Subject.id == SubjectVisit.subject_id)
        .where(
            SubjectVisit.user_id == user.id,
            sees_subject(user, Subject.function_id, Subject.activity_id, Subject.cartography_id),
        )
        .order_by(SubjectVisit.subject_id)
    ).all()
    return [Visit(subject_id=s, date=d) for s, d in rows]


# Writing ------------------------------------------------------------------------------------


def _entry(
    user: Principal | None, subject: Subject, *, mode: history.Mode, event: Event | None = None
) -> dict:
    return history.entry(
        user=user,
        item_type=ITEM_TYPE,
        item_id=subject.id,
        item_key=subject.code,
        item_name=subject.name,
        mode=mode,
        event=event,
        cartography_id=subject.cartography_id,
    )


def _record(
    db: Session, user: Principal | None, subject: Subject, *, mode: history.Mode, event: Event | None = None
) -> None:
    history.record(db, _entry(user, subject, mode=mode, event=event))


def _touch(
    db: Session, user: Principal, subject: Subject, event: Event, *, at: datetime | None = None
) -> None:
    """What every action does: lastUpdate, a history write and a visit."""
    now = at or utcnow()
    subject.updated_by, subject.updated_at = user.id, now
    _flush(db)
    _tracked(db, user, subject, event)


def _tracked(db: Session, user: Principal, subject: Subject, event: Event) -> None:
    """The visit, then the history entry (whose trigger updates the cartography's counter): the order
    in which a concurrent GET of the subject takes the same rows (its entry's trigger fires at the end
    of its statement, after the visit). The other order deadlocked with it on PostgreSQL."""
    record_visit(db, user=user, subject_id=subject.id)
    _record(db, user, subject, mode="W", event=event)
    changed(db, subject.id)


# What other areas keep of a subject, told when it changes (its fields, a mark, its mind map).
ChangeListener = Callable[[Session, int], None]
_CHANGE_LISTENERS: list[ChangeListener] = []


def on_change(listener: ChangeListener) -> None:
    """`listener(db, subject_id)` runs in the transaction of every write of the subject, after the
    writer's visit (notifications.bell tells its follower it changed)."""
    _CHANGE_LISTENERS.append(listener)


def changed(db: Session, subject_id: int) -> None:
    """The listeners of on_change (mindmap.service calls it after a change of the tree)."""
    for listener in _CHANGE_LISTENERS:
        listener(db, subject_id)


def _parent(subject: Subject) -> parents.Parent:
    return parents.Parent(ITEM_TYPE, subject.id, subject.code, subject.name, subject.cartography_id)


def _system_message(
    db: Session, user: Principal, subject: Subject, kind: SystemMessageType, args: dict[str, Any]
) -> None:
    discussions.system_message(db, parent=_parent(subject), user=user, type=kind, args=args)


def _flush(db: Session) -> None:
    """Write now, so that a concurrent writer who won (the version moved) answers 409."""
    try:
        db.flush()
    except StaleDataError as exc:
        raise conflict("staleVersion") from exc


def _check_links(
    db: Session, *, user: Principal, data: SubjectSave, locked_cartography_id: int | None = None
) -> tuple[Cartography, Function, Activity]:
    """Cartography, function and activity are required and must belong together."""
    errors: list[FieldError] = []
    for field in ("cartography_id", "function_id", "activity_id"):
        if getattr(data, field) is None:
            errors.append(FieldError(field=_camel(field), code="mustNotBeEmpty"))
    if errors:
        raise ApiError(400, "atLeastOneErrorLeft", errors)
    cartography = db.get(Cartography, data.cartography_id)
    if (
        cartography is None
        or not mapping_policy.may_see_cartography(db, user, cartography.id)
        or (locked_cartography_id is not None and cartography.id != locked_cartography_id)
    ):
        raise ApiError(400, "atLeastOneErrorLeft", [FieldError(field="cartographyId", code="invalidValue")])
    function = db.get(Function, data.function_id)
    activity = db.get(Activity, data.activity_id)
    if function is None or function.cartography_id != cartography.id:
        errors.append(FieldError(field="functionId", code="invalidValue"))
    if activity is None or activity.cartography_id != cartography.id:
        errors.append(FieldError(field="activityId", code="invalidValue"))
    if errors:
        raise ApiError(400, "atLeastOneErrorLeft", errors)
    assert function is not None and activity is not None
    # In a cartography the user sees only in part, a subject goes where the user would see it.
    if not mapping_policy.may_see_function(db, user, function):
        errors.append(FieldError(field="functionId", code="invalidValue"))
    elif not mapping_policy.may_see_subject_at(db, user, function, activity):
        errors.append(FieldError(field="activityId", code="invalidValue"))
    if errors:
        raise ApiError(400, "atLeastOneErrorLeft", errors)
    return cartography, function, activity


def _camel(field: str) -> str:
    head, *rest = field.split("_")
    return head + "".join(p.title() for p in rest)


def _new_code(db: Session, cartography_id: int, subject_id: int) -> str:
    """Subjects created in the application get S<id>; a suffix avoids an imported code."""
    code, n = f"S{subject_id}", 1
    while db.scalar(
        select(Subject.id).where(
            Subject.cartography_id == cartography_id, Subject.code == code, Subject.id != subject_id
        )
    ):
        n += 1
        code = f"S{subject_id}-{n}"
    return code


def create(db: Session, *, user: Principal, data: SubjectSave) -> Subject:
    ensure(policy.can_create(user))
    cartography, function, activity = _check_links(db, user=user, data=data)
    now = utcnow()
    subject = Subject(
        code=f"new-{now.timestamp()}-{user.id}",
        name=data.name,
        type=data.type,
        cartography_id=cartography.id,
        function_id=function.id,
        activity_id=activity.id,
        created_by=user.id,
        created_at=now,
        updated_by=user.id,
        updated_at=now,
        mind_map_items=[
            MindMapItem(
                code=0,
                name=data.name,
                status=NodeStatus.empty.value,
                created_by=user.id,
                created_at=now,
                updated_by=user.id,
                updated_at=now,
            )
        ],
    )
    db.add(subject)
    db.flush()
    subject.code = _new_code(db, cartography.id, subject.id)
    subject.discussion_id = discussions.create(db, parent_type=ITEM_TYPE, parent_id=subject.id)
    db.flush()
    _record(db, user, subject, mode="W", event=Event.created)
    record_visit(db, user=user, subject_id=subject.id)
    return subject


def update(db: Session, *, user: Principal, subject: Subject, data: SubjectUpdate) -> Subject:
    ensure(policy.can_edit(user, subject))
    if data.version != subject.version:
        raise conflict("staleVersion")
    _, function, activity = _check_links(
        db, user=user, data=data, locked_cartography_id=subject.cartography_id
    )
    subject.name, subject.type = data.name, data.type
    subject.function_id, subject.activity_id = function.id, activity.id
    _touch(db, user, subject, Event.updated)
    _system_message(db, user, subject, SystemMessageType.updated, {"name": subject.name})
    return subject


def set_prevention_measures(
    db: Session, *, user: Principal, subject: Subject, data: PreventionMeasuresSave
) -> Subject:
    """The prevention measures (the DUERP prints them): as editing the subject, a stale version 409."""
    ensure(policy.can_edit(user, subject))
    if data.version != subject.version:
        raise conflict("staleVersion")
    subject.prevention_measures = data.prevention_measures
    _touch(db, user, subject, Event.updated)
    return subject


def delete(db: Session, *, user: Principal, subject: Subject) -> None:
    ensure(policy.can_delete(user, subject))
    _record(db, user, subject, mode="W", event=Event.deleted)
    log.info("subject deleted subject_id=%s code=%s by user_id=%s", subject.id, subject.code, user.id)
    files.retired(db, subject.picture_ref)
    files.retired(db, subject.diagram_ref)
    parents.removing(db, parent_type=ITEM_TYPE, parent_id=subject.id)
    discussion_id = subject.discussion_id
    db.delete(subject)
    db.flush()
    discussions.remove(db, discussion_id=discussion_id)


def duplicate(db: Session, *, user: Principal, subject: Subject, data: SubjectSave | None) -> Subject:
    """A copy with the same name, links, ratings and mind map, or with the form's name and links."""
    ensure(policy.can_duplicate(user, subject))
    if data is not None:
        _, function, activity = _check_links(db, user=user, data=data)
        name, kind, links = data.name, data.type.value, (function.cartography_id, function.id, activity.id)
    else:
        name, kind, links = (
            subject.name,
            subject.type,
            (subject.cartography_id, subject.function_id, subject.activity_id),
        )
    now = utcnow()
    copy = Subject(
        code=f"new-{now.timestamp()}-{user.id}",
        name=name,
        type=kind,
        cartography_id=links[0],
        function_id=links[1],
        activity_id=links[2],
        frequency=subject.frequency,
        gravity=subject.gravity,
        detectability=subject.detectability,
        criticity_score=subject.criticity_score,
        criticity_by=subject.criticity_by,
        criticity_at=subject.criticity_at,
        picture_ref=subject.picture_ref,
        picture_media_type=subject.picture_media_type,
        picture_sha256=subject.picture_sha256,
        # Its stored diagram (the file is shared until one of them changes it); a diagram kept by the
        # legacy application (has_diagram without a file) is that subject's, not the copy's.
        diagram_ref=subject.diagram_ref,
        diagram_media_type=subject.diagram_media_type,
        diagram_sha256=subject.diagram_sha256,
        diagram_name=subject.diagram_name,
        has_diagram=subject.diagram_ref is not None,
        created_by=user.id,
        created_at=now,
        updated_by=user.id,
        updated_at=now,
        last_mindmap_update=subject.last_mindmap_update,
    )
    db.add(copy)
    db.flush()
    copy_mind_map(db, source=subject.mind_map_items, subject_id=copy.id, user_id=user.id, at=now)
    copy.code = _new_code(db, copy.cartography_id, copy.id)
    copy.discussion_id = discussions.create(db, parent_type=ITEM_TYPE, parent_id=copy.id)
    db.flush()
    _record(db, user, copy, mode="W", event=Event.duplicatedFrom)
    _system_message(
        db, user, copy, SystemMessageType.duplicatedFrom, {"id": subject.id, "name": subject.name}
    )
    record_visit(db, user=user, subject_id=copy.id)
    return copy


def copy_mind_map(
    db: Session, *, source: Sequence[MindMapItem], subject_id: int, user_id: int | None, at: datetime
) -> None:
    """The nodes of `source` (a subject's) under `subject_id`, with their codes, structure, positions,
    texts and statuses: one flush per level of the tree, parents first, for their new ids."""
    by_id = {n.id: n for n in source}
    new_ids: dict[int | None, int | None] = {None: None}
    level = [n for n in source if n.parent_id is None or n.parent_id not in by_id]
    while level:
        copies = [
            (
                n.id,
                MindMapItem(
                    subject_id=subject_id,
                    code=n.code,
                    name=n.name,
                    text=n.text,
                    status=n.status,
                    position=n.position,
                    parent_id=new_ids.get(n.parent_id),
                    created_by=user_id,
                    created_at=at,
                    updated_by=user_id,
                    updated_at=at,
                ),
            )
            for n in level
        ]
        db.add_all(copy for _id, copy in copies)
        db.flush()
        new_ids.update((old_id, copy.id) for old_id, copy in copies)
        done = {old_id for old_id, _copy in copies}
        level = [n for n in source if n.parent_id in done and n.id not in new_ids]


def _mark(
    db: Session, user: Principal, subject: Subject, event: Event, at: datetime, values: dict[str, Any]
) -> Subject:
    """A mark (follow, resolve, rate, standardize) carries no version: it applies over whatever was
    saved meanwhile. One UPDATE sets it and bumps the version from the row it finds, so a concurrent
    writer never makes it fail (the version the form sends is checked by `update`)."""
    marked = db.scalars(
        update_statement(Subject)
        .where(Subject.id == subject.id)
        .values(**values, updated_by=user.id, updated_at=at, version=Subject.version + 1)
        .returning(Subject)
        .execution_options(populate_existing=True, synchronize_session=False)
    ).one_or_none()
    if marked is None:  # deleted meanwhile
        raise not_found("subjectNotFound")
    _tracked(db, user, marked, event)
    return marked


def follow(db: Session, *, user: Principal, subject: Subject) -> Subject:
    ensure(policy.can_mark(user, subject))
    now = utcnow()
    return _mark(db, user, subject, Event.followed, now, {"followed_by": user.id, "followed_at": now})


def resolve(db: Session, *, user: Principal, subject: Subject) -> Subject:
    """Resolving also marks the subject followed when it was not (as it stands when written)."""
    ensure(policy.can_mark(user, subject))
    now = utcnow()
    unfollowed = Subject.followed_at.is_(None)
    values = {
        "resolved_by": user.id,
        "resolved_at": now,
        "followed_by": case((unfollowed, user.id), else_=Subject.followed_by),
        "followed_at": case(
            (unfollowed, bindparam("marked_at", now, type_=UtcDateTime)), else_=Subject.followed_at
        ),
    }
    return _mark(db, user, subject, Event.resolved, now, values)


def rate(db: Session, *, user: Principal, subject: Subject, ratings: Ratings) -> Subject:
    ensure(policy.can_mark(user, subject))
    now = utcnow()
    values = {
        "frequency": ratings.frequency,
        "gravity": ratings.gravity,
        "detectability": ratings.detectability,
        "criticity_score": criticity_score(ratings.frequency, ratings.gravity),
        "criticity_by": user.id,
        "criticity_at": now,
    }
    marked = _mark(db, user, subject, Event.criticity, now, values)
    args = {"frequency": ratings.frequency, "gravity": ratings.gravity}
    _system_message(db, user, marked, SystemMessageType.criticity, args)
    return marked


def standardize(db: Session, *, user: Principal, subject: Subject, comment: str) -> Subject:
    ensure(policy.can_standardize(user, subject))
    now = utcnow()
    values = {"standardized_by": user.id, "standardized_at": now, "standardized_comment": comment.strip()}
    marked = _mark(db, user, subject, Event.standardized, now, values)
    standardized.keep_copy(db, user=user, subject=marked)
    return marked


def picture(db: Session, *, user: Principal, subject_id: int) -> mapping.StoredImage:
    subject = get(db, user=user, subject_id=subject_id)
    if not subject.picture_ref or not subject.picture_media_type or not subject.picture_sha256:
        raise not_found("pictureNotFound")
    ext = "png" if subject.picture_media_type == "image/png" else "jpg"
    return mapping.StoredImage(
        content=get_file_store().get(subject.picture_ref),
        media_type=subject.picture_media_type,
        etag=f'"{subject.picture_sha256}"',
        filename=f"subject-{subject.id}.{ext}",
    )


def _subject_parent(db: Session, user: Principal, subject_id: int) -> parents.Parent:
    return _parent(get(db, user=user, subject_id=subject_id))


parents.register(ITEM_TYPE, _subject_parent)
discussions.register_parent(
    ITEM_TYPE, discussions.ParentTable(Subject, Subject.name, sees_subject_row, follower=Subject.followed_by)
)


def _visible_subjects(db: Session, user: Principal, ids: list[int]) -> set[int]:
    """Of the subjects a duplicatedFrom message names, those still there for the reader."""
    return set(db.scalars(select(Subject.id).where(Subject.id.in_(ids), sees_subject_row(user))))


discussions.register_element_check(SystemMessageType.duplicatedFrom, _visible_subjects)
