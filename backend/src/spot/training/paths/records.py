"""Training paths' shared reads and writes, under every other module of the area: who may read a path
(`readable`, `load`), its assigned modules, the facts its rules look at (`facts`), what its signatures
vouch for, its history and version (`record`), and a status changed where it is still the one read
(`compare_and_set`)."""

import calendar
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from sqlalchemy import ColumnElement, Integer, bindparam, insert, literal, or_, select, true, union_all
from sqlalchemy import update as update_statement
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from spot.core import signatures
from spot.core.errors import ApiError, conflict, illegal_transition, not_found
from spot.core.principal import Principal
from spot.core.schemas import UserName
from spot.core.time import utcnow
from spot.core.visibility import VisibilityLinks, visible_to
from spot.db import in_ids, plain
from spot.mapping.policy import hidden
from spot.training.paths import policy
from spot.training.paths.models import ModuleStatus as M
from spot.training.paths.models import (
    PathEvent,
    TrainingPath,
    TrainingPathHistory,
    TrainingPathModule,
    TrainingPathReferent,
    TrainingPathVisibleGroup,
    TrainingPathVisiblePerson,
)
from spot.users.models import Group, User

NOT_FOUND = "trainingPathNotFound"
STALE_VERSION = "staleVersion"
FORM_ERRORS = "atLeastOneErrorLeft"
EMPTY = "emptyFieldError"
DATES = "trainingPathDatesError"
PATH_RECORD = "trainingPath"
MODULE_RECORD = "trainingPathModule"
APPROVAL = "approval"
ACKNOWLEDGEMENT = "acknowledgement"
GRADE_CHANGED = "gradeChanged"
GRADE_SCALE = 10
# The system actor: what Spot does itself (a requalification path it opens) is shown under this name,
# in every language, wherever a person's name would be (creator, history, reports).
SPOT = "Spot"


def stale() -> ApiError:
    return conflict(STALE_VERSION)


# Reading ------------------------------------------------------------------------------------


VISIBILITY = VisibilityLinks(
    person_item=TrainingPathVisiblePerson.path_id,
    person=TrainingPathVisiblePerson.user_id,
    group_item=TrainingPathVisibleGroup.path_id,
    group=TrainingPathVisibleGroup.group_id,
)


def readable(user: Principal) -> ColumnElement[bool]:
    """The paths `user` may read, as SQL on TrainingPath: every path for an administrator; else the
    learner, the creator, a referent of one of its modules, a person it is visible to, a member of a
    group it is visible to. Each link is `id IN (set)`, a set of the user's alone (mediations.readable)."""
    if policy.is_admin(user):
        return true()
    conditions: list[ColumnElement[bool]] = [
        TrainingPath.learner_id == user.id,
        TrainingPath.creator_id == user.id,
        TrainingPath.id.in_(
            select(TrainingPathReferent.path_id).where(TrainingPathReferent.user_id == user.id)
        ),
        *visible_to(user, TrainingPath.id, VISIBILITY),
    ]
    return or_(*conditions)


def readable_row(row: Any) -> Any:
    """The row of a path read with readable(user) second: 404 trainingPathNotFound when there is none,
    403 when the user may not read it."""
    if row is None:
        raise not_found(NOT_FOUND)
    if not row[1]:
        raise hidden()
    return row


def load(db: Session, *, user: Principal, path_id: int, for_update: bool = False) -> TrainingPath:
    """The path as `user` may read it (404 trainingPathNotFound unknown, 403 not readable);
    `for_update` locks its row until the end of the transaction (PostgreSQL; SQLite has one writer)."""
    statement = (
        select(TrainingPath, readable(user))
        .where(TrainingPath.id == path_id)
        .execution_options(populate_existing=True)
    )
    if for_update and db.get_bind().dialect.name == "postgresql":
        statement = statement.with_for_update(of=TrainingPath)
    path: TrainingPath = readable_row(db.execute(statement).first())[0]
    return path


def modules_of(db: Session, path_id: int) -> list[TrainingPathModule]:
    """The path's assigned modules by position (their index)."""
    return list(
        db.scalars(
            select(TrainingPathModule)
            .where(TrainingPathModule.path_id == path_id)
            .order_by(TrainingPathModule.position)
            .execution_options(populate_existing=True)
        )
    )


def module_at(db: Session, path: TrainingPath, module_index: int) -> TrainingPathModule:
    """The assigned module at this index of the path; 404 notFound out of range."""
    module = db.scalar(
        select(TrainingPathModule)
        .where(TrainingPathModule.path_id == path.id, TrainingPathModule.position == module_index)
        .execution_options(populate_existing=True)
    )
    if module is None:
        raise not_found()
    return module


REFERENT, PERSON, GROUP, MODULE_SIGNER, NAMED = "r", "p", "g", "s", "u"


def _links_statement() -> Any:
    path_id = bindparam("path_id", type_=Integer)
    Signature = signatures.Signature
    return union_all(
        select(
            literal(PERSON),
            TrainingPathVisiblePerson.path_id,
            TrainingPathVisiblePerson.user_id,
            User.display_name,
        )
        .join(User, User.id == TrainingPathVisiblePerson.user_id)
        .where(TrainingPathVisiblePerson.path_id == path_id),
        select(
            literal(GROUP), TrainingPathVisibleGroup.path_id, TrainingPathVisibleGroup.group_id, Group.name
        )
        .join(Group, Group.id == TrainingPathVisibleGroup.group_id)
        .where(TrainingPathVisibleGroup.path_id == path_id),
        select(
            literal(REFERENT),
            TrainingPathReferent.path_module_id,
            TrainingPathReferent.user_id,
            User.display_name,
        )
        .join(User, User.id == TrainingPathReferent.user_id)
        .where(in_ids(TrainingPathReferent.path_module_id, "module_ids")),
        select(literal(MODULE_SIGNER), Signature.record_id, Signature.signer_id, Signature.signer_name).where(
            Signature.record_type == MODULE_RECORD,
            in_ids(Signature.record_id, "module_ids"),
            Signature.signer_id == bindparam("learner_id", type_=Integer),
            Signature.meaning == ACKNOWLEDGEMENT,
            Signature.revoked_at.is_(None),
        ),
        select(literal(NAMED), User.id, User.id, User.display_name).where(in_ids(User.id, "people")),
    )


# Built once: every read of a path and every action runs it.
_LINKS = _links_statement()
Links = dict[str, list[tuple[int, int, str]]]


def links_of(
    db: Session, path: TrainingPath, module_ids: Sequence[int], people: Iterable[int | None] = ()
) -> Links:
    """(owner, id, name) triples, in one statement: the referents of each module, the visible persons
    and groups of the path, the modules the learner has a live acknowledgement of, and the names of
    `people` (owner and id both the person's)."""
    links: Links = {REFERENT: [], PERSON: [], GROUP: [], MODULE_SIGNER: [], NAMED: []}
    params = {
        "path_id": path.id,
        "module_ids": list(module_ids),
        "learner_id": path.learner_id,
        "people": sorted({i for i in people if i is not None}),
    }
    for kind, owner, item, name in plain(db).execute(_LINKS, params):
        links[kind].append((owner, item, name))
    return links


def facts_from(path: TrainingPath, modules: Sequence[TrainingPathModule], links: Links) -> policy.Facts:
    referents: dict[int, set[int]] = defaultdict(set)
    for module_id, user_id, _name in links[REFERENT]:
        referents[module_id].add(user_id)
    signed = {module_id for module_id, _id, _name in links[MODULE_SIGNER]}
    return policy.Facts(
        status=path.status,
        learner_id=path.learner_id,
        creator_id=path.creator_id,
        stop_date=path.stop_date,
        visible_person_ids=frozenset(i for _, i, _name in links[PERSON]),
        visible_group_ids=frozenset(i for _, i, _name in links[GROUP]),
        modules=tuple(
            policy.ModuleFacts(
                id=m.id,
                index=m.position,
                status=m.status,
                referent_ids=frozenset(referents[m.id]),
                signed_by_learner=m.id in signed,
            )
            for m in modules
        ),
    )


def facts(
    db: Session, path: TrainingPath, modules: Sequence[TrainingPathModule] | None = None
) -> policy.Facts:
    modules = modules_of(db, path.id) if modules is None else modules
    return facts_from(path, modules, links_of(db, path, [m.id for m in modules]))


def person(person_id: int | None, name: str | None) -> dict[str, Any] | None:
    if person_id is None or name is None:
        return None
    return {"id": person_id, "name": name}


def reference_of(code: str | None, label: str | None, description: str | None) -> dict[str, Any] | None:
    if code is None:
        return None
    return {"code": code, "label": label, "description": description}


def round_grade(grade: float) -> float:
    """One decimal, half up (7.25 → 7.3, 7.05 → 7.1): the grade as written, not its binary double."""
    return float(Decimal(repr(grade)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def add_months(day: date, months: int) -> date:
    """`day` + `months` calendar months, the day clamped to the month's last (31 Jan + 1 = 28/29 Feb)."""
    month0 = day.month - 1 + months
    year, month = day.year + month0 // 12, month0 % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def validity(is_success: bool | None, valid_until: date | None) -> date | None:
    """Until when a grading is valid, as readers are given it: a failure is valid for nothing. Gradings
    stored before failures were kept without a day may carry one; it stays stored, since the learner's
    signature of the module covers it (module_content), but is never shown as a validity."""
    return valid_until if is_success else None


# What a signature vouches for -----------------------------------------------------------------


def path_content(path: TrainingPath, modules: Sequence[TrainingPathModule]) -> dict[str, Any]:
    """The path as the validator approves it and the learner acknowledges it: its title, learner,
    dates, threshold, each module's grade (and whether it was disabled), and the closing comment. Not
    the modules' statuses: a module the learner signs after the closing moves from validated to
    archived, which changes nothing the validator approved."""
    return {
        "id": path.id,
        "title": path.title,
        "learnerId": path.learner_id,
        "startDate": path.start_date,
        "stopDate": path.stop_date,
        "passThreshold": path.pass_threshold,
        "modules": [
            {
                "moduleId": m.module_id,
                "disabled": m.status == M.disabled,
                "grade": m.grade,
                "isSuccess": m.is_success,
            }
            for m in modules
        ],
        "validationComment": path.validation_comment,
    }


def module_content(
    path: TrainingPath, module: TrainingPathModule, *, module_name: str, comment: str | None
) -> dict[str, Any]:
    """The graded module as the learner acknowledges it: which module, whose, and its current grading
    (grade, the referent's comment, success, validity, date)."""
    return {
        "pathId": path.id,
        "index": module.position,
        "moduleId": module.module_id,
        "moduleName": module_name,
        "learnerId": path.learner_id,
        "grade": module.grade,
        "comment": comment,
        "isSuccess": module.is_success,
        "validUntil": module.valid_until,
        "gradedAt": module.graded_at,
    }


# Writing: history, version, statuses ----------------------------------------------------------


def record(
    db: Session,
    *,
    user: Principal | None,
    path: TrainingPath,
    event: PathEvent,
    position: int | None = None,
    grade: float | None = None,
    comment: str | None = None,
    strict: bool = True,
    by_spot: bool = False,
) -> None:
    """A history row of the path (user None: an automatic promotion, or Spot's own act when `by_spot`,
    named SPOT) and the version + 1, where the
    version is still the one this request read (409 staleVersion otherwise; `strict` false: whatever
    it is now, for the promotions of elements.refresh, which follow another change of the path). Then
    the listeners of on_change."""
    if strict:
        result = db.execute(
            update_statement(TrainingPath)
            .where(TrainingPath.id == path.id, TrainingPath.version == path.version)
            .values(version=TrainingPath.version + 1)
            .execution_options(synchronize_session=False)
        )
        if result.rowcount == 0:  # type: ignore[attr-defined]
            raise stale()
        set_committed_value(path, "version", path.version + 1)
    else:
        version = db.scalar(
            update_statement(TrainingPath)
            .where(TrainingPath.id == path.id)
            .values(version=TrainingPath.version + 1)
            .returning(TrainingPath.version)
            .execution_options(synchronize_session=False)
        )
        set_committed_value(path, "version", version)
    plain(db).execute(
        insert(TrainingPathHistory),
        [
            {
                "path_id": path.id,
                "position": position,
                "at": utcnow(),
                "user_id": user.id if user is not None else None,
                "user_name": user.display_name if user is not None else (SPOT if by_spot else ""),
                "event": event.value,
                "grade": grade,
                "comment": comment,
            }
        ],
    )
    _changed(db, path.id)


# What other areas keep of a path, told when it changes: every change writes a history row (record),
# whether an action's, the form's or an automatic promotion's.
ChangeListener = Callable[[Session, int], None]
_CHANGE_LISTENERS: list[ChangeListener] = []


def on_change(listener: ChangeListener) -> None:
    """`listener(db, path_id)` runs in the transaction that created or saved the path, changed its or a
    module's status, graded or signed it (notifications.bell tells its people what now awaits them)."""
    _CHANGE_LISTENERS.append(listener)


def _changed(db: Session, path_id: int) -> None:
    for listener in _CHANGE_LISTENERS:
        listener(db, path_id)


def compare_and_set(
    db: Session,
    row: TrainingPath | TrainingPathModule,
    current: str,
    target: str,
    values: dict[str, Any] | None = None,
    *,
    strict: bool = True,
) -> bool:
    """The path's or module's status (and `values`) where it is still `current`: of two concurrent
    changes one wins, the other answers 409 with the status it found (`strict` false: False, the row
    read again). A change of status dates itself (status_changed_at)."""
    model = type(row)
    changes: dict[str, Any] = dict(values or {})
    if target != current:
        changes["status_changed_at"] = utcnow()
    result = db.execute(
        update_statement(model)
        .where(model.id == row.id, model.status == current)
        .values(status=target, **changes)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount == 0:  # type: ignore[attr-defined]
        if strict:
            now_status = db.scalar(select(model.status).where(model.id == row.id))
            raise illegal_transition(now_status or current)
        db.refresh(row)
        return False
    db.refresh(row)
    return True


# The signatures a path's page shows ----------------------------------------------------------------


def _signatures_statement() -> Any:
    Signature = signatures.Signature
    return (
        select(
            Signature.id,
            Signature.record_type,
            Signature.record_id,
            Signature.signer_id,
            Signature.signer_name,
            Signature.signed_at,
            Signature.meaning,
            Signature.content_hash,
            Signature.revoked_at,
            Signature.revoke_reason,
            User.id.label("revoker_id"),
            User.display_name.label("revoker_name"),
            Signature.signer_id.in_(select(User.id).where(~User.active).correlate(None)).label("signer_left"),
        )
        .outerjoin(User, User.id == Signature.revoked_by)
        .where(
            or_(
                (Signature.record_type == PATH_RECORD) & in_ids(Signature.record_id, "path_ids"),
                (Signature.record_type == MODULE_RECORD) & in_ids(Signature.record_id, "module_ids"),
            )
        )
        .order_by(Signature.signed_at, Signature.id)
    )


_SIGNATURES = _signatures_statement()


def signature_lists(
    db: Session, records: Sequence[tuple[str, int, Any]]
) -> dict[tuple[str, int], list[signatures.SignatureOut]]:
    """signatures.for_record of several records (type, id, content now) in one statement: a path's
    page shows the path's and each module's signatures without a statement per module."""
    hashes = {(kind, record_id): signatures.content_hash(content) for kind, record_id, content in records}
    out: dict[tuple[str, int], list[signatures.SignatureOut]] = {key: [] for key in hashes}
    by_type: dict[str, list[int]] = {PATH_RECORD: [], MODULE_RECORD: []}
    for kind, record_id in hashes:
        by_type[kind].append(record_id)
    params = {"path_ids": by_type[PATH_RECORD], "module_ids": by_type[MODULE_RECORD]}
    for signature in plain(db).execute(_SIGNATURES, params):
        revoker_id, revoker_name = signature.revoker_id, signature.revoker_name
        key = (signature.record_type, signature.record_id)
        out[key].append(
            signatures.SignatureOut(
                id=signature.id,
                user_id=signature.signer_id,
                user_name=signature.signer_name,
                user_active=not signature.signer_left,
                date=signature.signed_at,
                meaning=signature.meaning,
                modified_after_signature=signature.content_hash != hashes[key],
                revoked=None
                if signature.revoked_at is None
                else signatures.SignatureRevocation(
                    date=signature.revoked_at,
                    reason=signature.revoke_reason or "",
                    by=UserName(id=revoker_id, name=revoker_name) if revoker_id is not None else None,
                ),
            )
        )
    return out
