"""The training path form (spec 2 §5 Path): create one path per learner, update with the fields that
freeze once the path is accepted (policy.editable_fields, which the page's can.fields shows), delete
while never accepted."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from spot.core.errors import ApiError, FieldError, ensure, illegal_transition, refuse_frozen_fields
from spot.core.principal import Principal
from spot.core.time import today, utcnow
from spot.permissions.names import Permission
from spot.references import service as references
from spot.references.models import Reference, ReferenceType
from spot.training.modules.models import TrainingModule
from spot.training.paths import elements, policy
from spot.training.paths.models import ModuleStatus as M
from spot.training.paths.models import (
    PathEvent,
    TrainingPath,
    TrainingPathModule,
    TrainingPathReferent,
    TrainingPathVisibleGroup,
    TrainingPathVisiblePerson,
)
from spot.training.paths.models import PathStatus as P
from spot.training.paths.records import (
    DATES,
    EMPTY,
    FORM_ERRORS,
    facts,
    facts_from,
    links_of,
    load,
    modules_of,
    record,
    stale,
)
from spot.training.paths.schemas import PathCreate, PathSave, PathUpdate
from spot.users.models import Group, User, user_group


@dataclass(frozen=True)
class _Assigned:
    """An assigned module of the form as it will be stored (dates defaulted to the path's)."""

    module_id: int
    referents: tuple[int, ...]
    start_date: date
    stop_date: date


def _existing(db: Session, model: Any, ids: Iterable[int]) -> set[int]:
    wanted = sorted(set(ids))
    if not wanted:
        return set()
    return set(db.scalars(select(model.id).where(model.id.in_(wanted))))


def _validate(
    db: Session,
    data: PathSave,
    *,
    learners: Sequence[int],
    creator_id: int | None,
    check_learners: bool,
    not_accepted: bool,
    current_reference_id: int | None = None,
    current_module_ids: frozenset[int] = frozenset(),
    learner_groups: Sequence[int] = (),
    creator_left_out: bool = False,
) -> tuple[int | None, list[_Assigned]]:
    """The reference's id and the assigned modules as stored, or 400 atLeastOneErrorLeft naming every
    faulty field (spec 2 §5 Path; the schema checked the texts). `learners`
    include the members of `learner_groups` but the creator, `creator_left_out` when they were one."""
    errors: list[FieldError] = []

    def error(field: str, code: str) -> None:
        errors.append(FieldError(field=field, code=code))

    people = {*learners, *data.visible_by_persons, *(r for a in data.assigned_modules for r in a.referents)}
    users = _existing(db, User, people)
    if check_learners:
        unknown_groups = set(learner_groups) - _existing(db, Group, learner_groups)
        if unknown_groups:
            error("learnerGroupIds", "groupNotFound")
        if not learners:
            if creator_left_out:
                # Groups whose only member is the creator, who may not follow their own path.
                error("learnerGroupIds", "creatorOnlyMemberOfGroups")
            elif not unknown_groups:
                error("learnerIds", "defineAtLeastOneLearnerOrGroup")
        elif creator_id is not None and creator_id in learners:
            error("learnerIds", "creatorCantBeLearner")
        elif any(i not in users for i in learners):
            error("learnerIds", "userNotFound")
    first = today()
    path_dates_ok = data.stop_date >= data.start_date and not (not_accepted and data.stop_date < first)
    if not path_dates_ok:
        error("stopDate", DATES)
    try:
        reference_id = references.resolve(
            db, type=ReferenceType.path, code=data.reference, current_id=current_reference_id
        )
    except ApiError as refused:
        errors += refused.errors
        reference_id = None
    if not data.assigned_modules:
        error("assignedModules", EMPTY)
    wanted = {a.module_id for a in data.assigned_modules if a.module_id is not None}
    enabled = dict(
        db.execute(
            select(TrainingModule.id, TrainingModule.enabled).where(TrainingModule.id.in_(wanted))
        ).all()
        if wanted
        else []
    )
    assigned: list[_Assigned] = []
    for index, a in enumerate(data.assigned_modules):
        field = f"assignedModules[{index}]"
        if a.module_id is None:
            error(f"{field}.moduleId", EMPTY)
        elif a.module_id not in enabled:
            error(f"{field}.moduleId", "unknownItem")
        elif not enabled[a.module_id] and a.module_id not in current_module_ids:
            error(f"{field}.moduleId", "trainingModuleDisabled")
        referents = tuple(dict.fromkeys(a.referents))
        if not referents:
            error(f"{field}.referents", EMPTY)
        elif any(r in learners for r in referents):
            error(f"{field}.referents", "learnerCantBeReferent")
        elif any(r not in users for r in referents):
            error(f"{field}.referents", "userNotFound")
        start = a.start_date or data.start_date
        stop = a.stop_date or data.stop_date
        if path_dates_ok:
            if not data.start_date <= start <= data.stop_date:
                error(f"{field}.startDate", DATES)
            if (
                not (data.start_date <= stop <= data.stop_date)
                or stop < start
                or (not_accepted and stop < first)
            ):
                error(f"{field}.stopDate", DATES)
        if a.module_id is not None:
            assigned.append(_Assigned(a.module_id, referents, start, stop))
    if any(i not in users for i in data.visible_by_persons):
        error("visibleByPersons", "userNotFound")
    if set(data.visible_by_groups) - _existing(db, Group, data.visible_by_groups):
        error("visibleByGroups", "groupNotFound")
    if errors:
        raise ApiError(400, FORM_ERRORS, errors)
    return reference_id, assigned


def _insert_modules(db: Session, path_id: int, assigned: Sequence[_Assigned], now: datetime) -> None:
    rows = [
        TrainingPathModule(
            path_id=path_id,
            position=position,
            module_id=a.module_id,
            start_date=a.start_date,
            stop_date=a.stop_date,
            status=M.notStarted.value,
            status_changed_at=now,
        )
        for position, a in enumerate(assigned)
    ]
    db.add_all(rows)
    db.flush()
    referents = [
        {"path_module_id": row.id, "user_id": user_id, "path_id": path_id}
        for row, a in zip(rows, assigned, strict=True)
        for user_id in a.referents
    ]
    if referents:
        db.execute(insert(TrainingPathReferent), referents)


def _set_visibility(
    db: Session, path_id: int, persons: Iterable[int] | None, groups: Iterable[int] | None
) -> None:
    """Replace the visible persons (and/or groups; None: left as they are)."""
    for model, column, ids in (
        (TrainingPathVisiblePerson, "user_id", persons),
        (TrainingPathVisibleGroup, "group_id", groups),
    ):
        if ids is None:
            continue
        db.execute(delete(model).where(model.path_id == path_id))
        rows = [{"path_id": path_id, column: i} for i in sorted(set(ids))]
        if rows:
            db.execute(insert(model), rows)


def _members(db: Session, group_ids: Sequence[int]) -> list[int]:
    """The members of these groups, each once, by name."""
    if not group_ids:
        return []
    return list(
        db.scalars(
            select(User.id)
            .where(User.id.in_(select(user_group.c.user_id).where(user_group.c.group_id.in_(group_ids))))
            .order_by(User.last_name, User.first_name, User.id)
        )
    )


def create(db: Session, *, user: Principal, data: PathCreate) -> list[int]:
    """One path per learner (in learnerIds order), the user its creator, status notAccepted; their ids."""
    ensure(user.may(Permission.TrainingManagement))
    members = _members(db, data.learner_group_ids)
    learners = list(dict.fromkeys([*data.learner_ids, *(m for m in members if m != user.id)]))
    reference_id, assigned = _validate(
        db,
        data,
        learners=learners,
        creator_id=user.id,
        check_learners=True,
        not_accepted=True,
        learner_groups=data.learner_group_ids,
        creator_left_out=user.id in members,
    )
    now = utcnow()
    ids = []
    for learner_id in learners:
        path = TrainingPath(
            title=data.title,
            reference_id=reference_id,
            learner_id=learner_id,
            creator_id=user.id,
            status=P.notAccepted.value,
            created_at=now,
            version=1,
            start_date=data.start_date,
            stop_date=data.stop_date,
            pass_threshold=data.pass_threshold,
            status_changed_at=now,
        )
        db.add(path)
        db.flush()
        _insert_modules(db, path.id, assigned, now)
        _set_visibility(db, path.id, data.visible_by_persons, data.visible_by_groups)
        record(db, user=user, path=path, event=PathEvent.created)
        elements.refresh(db, path)  # the totals the cards show
        ids.append(path.id)
    return ids


def open_by_spot(
    db: Session,
    *,
    title: str,
    learner_id: int,
    module_id: int,
    referents: Sequence[int],
    start_date: date,
    stop_date: date,
    pass_threshold: int,
    visible_by_persons: Iterable[int] = (),
    visible_by_groups: Iterable[int] = (),
) -> TrainingPath:
    """A path Spot opens itself (a requalification, qualifications.requalification): no creator,
    `opened_by_spot`, one module with its referents, notAccepted, its history's creation by Spot. As the
    form's paths, it tells its people (records.on_change: the learner's path to accept). The caller
    gives what the form's rules would check: an enabled module, known referents who are not the
    learner, start ≤ stop and stop not past."""
    now = utcnow()
    path = TrainingPath(
        title=title[:300],
        learner_id=learner_id,
        creator_id=None,
        opened_by_spot=True,
        status=P.notAccepted.value,
        created_at=now,
        version=1,
        start_date=start_date,
        stop_date=stop_date,
        pass_threshold=pass_threshold,
        status_changed_at=now,
    )
    db.add(path)
    db.flush()
    _insert_modules(
        db, path.id, [_Assigned(module_id, tuple(dict.fromkeys(referents)), start_date, stop_date)], now
    )
    _set_visibility(db, path.id, visible_by_persons, visible_by_groups)
    record(db, user=None, path=path, event=PathEvent.created, by_spot=True)
    elements.refresh(db, path)  # the totals the cards show
    return path


def update(db: Session, *, user: Principal, path_id: int, data: PathUpdate) -> TrainingPath:
    """The form: 403 for anyone but the creator and administrators (and once archived or canceled),
    409 staleVersion for a stale version, 409 fieldNotEditable naming each field changed that
    policy.editable_fields does not allow (what the learner accepted), then the form's rules (400). A
    save that changes nothing writes nothing; one without a version applies over the path as it is now."""
    path = load(db, user=user, path_id=path_id, for_update=True)
    modules = modules_of(db, path.id)
    links = links_of(db, path, [m.id for m in modules])
    f = facts_from(path, modules, links)
    ensure(policy.can_edit(user, f))
    if data.version is not None and data.version != path.version:
        raise stale()
    current_code = (
        db.scalar(select(Reference.code).where(Reference.id == path.reference_id))
        if path.reference_id is not None
        else None
    )
    structure = [
        (a.module_id, a.start_date or data.start_date, a.stop_date or data.stop_date)
        for a in data.assigned_modules
    ]
    changed = {
        "title": data.title != path.title,
        "reference": (data.reference or None) != current_code,
        "startDate": data.start_date != path.start_date,
        "stopDate": data.stop_date != path.stop_date,
        "passThreshold": data.pass_threshold != path.pass_threshold,
        "assignedModules": structure != [(m.module_id, m.start_date, m.stop_date) for m in modules],
        "referents": [set(a.referents) for a in data.assigned_modules]
        != [set(m.referent_ids) for m in f.modules],
        "visibleByPersons": set(data.visible_by_persons) != f.visible_person_ids,
        "visibleByGroups": set(data.visible_by_groups) != f.visible_group_ids,
    }
    editable = policy.editable_fields(user, f)
    refuse_frozen_fields(changed, editable, policy.FIELDS)
    reference_id, assigned = _validate(
        db,
        data,
        learners=[path.learner_id] if path.learner_id is not None else [],
        creator_id=path.creator_id,
        check_learners=False,
        not_accepted=path.status == P.notAccepted,
        current_reference_id=path.reference_id,
        current_module_ids=frozenset(m.module_id for m in modules),
    )
    if not any(changed.values()):
        return path
    values: dict[str, Any] = {}
    if changed["title"]:
        path.title = data.title  # through the model: title_folded follows
    for name, column, value in (
        ("reference", "reference_id", reference_id),
        ("startDate", "start_date", data.start_date),
        ("stopDate", "stop_date", data.stop_date),
        ("passThreshold", "pass_threshold", data.pass_threshold),
    ):
        if changed[name]:
            values[column] = value
    for column, value in values.items():
        setattr(path, column, value)
    db.flush()
    if changed["assignedModules"]:
        # Only while notAccepted: nothing was started, graded, visited or signed on these rows yet.
        db.execute(delete(TrainingPathModule).where(TrainingPathModule.path_id == path.id))
        _insert_modules(db, path.id, assigned, utcnow())
        elements.refresh(db, path)
    elif changed["referents"]:
        for module, a in zip(modules, assigned, strict=True):
            db.execute(delete(TrainingPathReferent).where(TrainingPathReferent.path_module_id == module.id))
            db.execute(
                insert(TrainingPathReferent),
                [{"path_module_id": module.id, "user_id": r, "path_id": path.id} for r in a.referents],
            )
    _set_visibility(
        db,
        path.id,
        data.visible_by_persons if changed["visibleByPersons"] else None,
        data.visible_by_groups if changed["visibleByGroups"] else None,
    )
    record(db, user=user, path=path, event=PathEvent.updated)
    return path


def delete_path(db: Session, *, user: Principal, path_id: int) -> None:
    """Only a path never accepted (409 illegalTransition otherwise), by its creator or an administrator."""
    path = load(db, user=user, path_id=path_id, for_update=True)
    f = facts(db, path)
    ensure(policy.creator_or_admin(user, f))
    if path.status != P.notAccepted:
        raise illegal_transition(path.status)
    db.execute(delete(TrainingPath).where(TrainingPath.id == path.id))
