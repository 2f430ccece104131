"""Training paths (docs/training-paths.md): reading (visibility, the view with `can`, cards), the form
(create one path per learner, update with the fields that freeze once accepted, delete), the path and
assigned-module state machines of spec 2 §4 as one table each, gradings, and the learner's and the
validator's signatures (core.signatures).

For the other modules of the area (elements, query, the bell, the demo):

- `readable(user)`: the SQL condition of the paths a user may read;
- `load(db, *, user, path_id, for_update=False)`: 404 trainingPathNotFound, 403 not readable;
- `modules_of(db, path_id)`, `module_at(db, path, module_index)` (404 notFound);
- `facts(db, path, modules=None) -> policy.Facts`: what the rules of policy.py look at;
- `record(db, *, user, path, event, position=None, grade=None, comment=None)`: a history row and the
  version + 1 (409 staleVersion when a concurrent write moved it since the path was read);
- `refresh(db, path)`: element progress stored, and the automatic promotions (module started →
  finished once every element is done, path started → finished once every module is closed);
- `get(db, *, user, path_id) -> PathOut`; `CARD_COLUMNS`, `card_fields(db, rows)` (PathCard data)."""

import calendar
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from sqlalchemy import (
    Boolean,
    ColumnElement,
    Date,
    Integer,
    String,
    bindparam,
    cast,
    delete,
    func,
    insert,
    literal,
    literal_column,
    null,
    or_,
    select,
    true,
    union_all,
)
from sqlalchemy import update as update_statement
from sqlalchemy.orm import Session, aliased
from sqlalchemy.orm.attributes import set_committed_value

from spot.account.models import SessionToken
from spot.core import signatures
from spot.core.errors import ApiError, FieldError, conflict, ensure, illegal_transition, not_found
from spot.core.principal import Principal
from spot.core.time import today, utcnow
from spot.db import in_ids, plain
from spot.mapping.policy import hidden
from spot.permissions.names import Permission
from spot.references import service as references
from spot.references.models import Reference, ReferenceType
from spot.training.modules.models import TrainingModule
from spot.training.paths import elements, policy
from spot.training.paths.models import ModuleStatus as M
from spot.training.paths.models import (
    PathEvent,
    TrainingPath,
    TrainingPathGrading,
    TrainingPathHistory,
    TrainingPathModule,
    TrainingPathReferent,
    TrainingPathVisibleGroup,
    TrainingPathVisiblePerson,
)
from spot.training.paths.models import PathStatus as P
from spot.training.paths.schemas import (
    ClosingWarning,
    GradeBody,
    ModuleCan,
    PathCan,
    PathCreate,
    PathOut,
    PathSave,
    PathUpdate,
    SignBody,
    ValidateBody,
)
from spot.users.models import Group, User, user_group
from spot.users.schemas import UserName

NOT_FOUND = "trainingPathNotFound"
STALE_VERSION = "staleVersion"
FIELD_NOT_EDITABLE = "fieldNotEditable"
FORM_ERRORS = "atLeastOneErrorLeft"
EMPTY = "emptyFieldError"
DATES = "trainingPathDatesError"
PATH_RECORD = "trainingPath"
MODULE_RECORD = "trainingPathModule"
APPROVAL = "approval"
ACKNOWLEDGEMENT = "acknowledgement"
GRADE_CHANGED = "gradeChanged"
GRADE_SCALE = 10


def stale() -> ApiError:
    return conflict(STALE_VERSION)


# Reading ------------------------------------------------------------------------------------


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
        TrainingPath.id.in_(
            select(TrainingPathVisiblePerson.path_id).where(TrainingPathVisiblePerson.user_id == user.id)
        ),
    ]
    if user.group_ids:
        conditions.append(
            TrainingPath.id.in_(
                select(TrainingPathVisibleGroup.path_id).where(
                    TrainingPathVisibleGroup.group_id.in_(sorted(user.group_ids))
                )
            )
        )
    return or_(*conditions)


def _readable(row: Any) -> Any:
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
    path: TrainingPath = _readable(db.execute(statement).first())[0]
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


_REFERENT, _PERSON, _GROUP, _MODULE_SIGNER, _NAMED = "r", "p", "g", "s", "u"


def _links_statement() -> Any:
    path_id = bindparam("path_id", type_=Integer)
    Signature = signatures.Signature
    return union_all(
        select(
            literal(_PERSON),
            TrainingPathVisiblePerson.path_id,
            TrainingPathVisiblePerson.user_id,
            User.display_name,
        )
        .join(User, User.id == TrainingPathVisiblePerson.user_id)
        .where(TrainingPathVisiblePerson.path_id == path_id),
        select(
            literal(_GROUP), TrainingPathVisibleGroup.path_id, TrainingPathVisibleGroup.group_id, Group.name
        )
        .join(Group, Group.id == TrainingPathVisibleGroup.group_id)
        .where(TrainingPathVisibleGroup.path_id == path_id),
        select(
            literal(_REFERENT),
            TrainingPathReferent.path_module_id,
            TrainingPathReferent.user_id,
            User.display_name,
        )
        .join(User, User.id == TrainingPathReferent.user_id)
        .where(in_ids(TrainingPathReferent.path_module_id, "module_ids")),
        select(
            literal(_MODULE_SIGNER), Signature.record_id, Signature.signer_id, Signature.signer_name
        ).where(
            Signature.record_type == MODULE_RECORD,
            in_ids(Signature.record_id, "module_ids"),
            Signature.signer_id == bindparam("learner_id", type_=Integer),
            Signature.meaning == ACKNOWLEDGEMENT,
            Signature.revoked_at.is_(None),
        ),
        select(literal(_NAMED), User.id, User.id, User.display_name).where(in_ids(User.id, "people")),
    )


# Built once: every read of a path and every action runs it.
_LINKS = _links_statement()
Links = dict[str, list[tuple[int, int, str]]]


def _links(
    db: Session, path: TrainingPath, module_ids: Sequence[int], people: Iterable[int | None] = ()
) -> Links:
    """(owner, id, name) triples, in one statement: the referents of each module, the visible persons
    and groups of the path, the modules the learner has a live acknowledgement of, and the names of
    `people` (owner and id both the person's)."""
    links: Links = {_REFERENT: [], _PERSON: [], _GROUP: [], _MODULE_SIGNER: [], _NAMED: []}
    params = {
        "path_id": path.id,
        "module_ids": list(module_ids),
        "learner_id": path.learner_id,
        "people": sorted({i for i in people if i is not None}),
    }
    for kind, owner, item, name in plain(db).execute(_LINKS, params):
        links[kind].append((owner, item, name))
    return links


def _facts(path: TrainingPath, modules: Sequence[TrainingPathModule], links: Links) -> policy.Facts:
    referents: dict[int, set[int]] = defaultdict(set)
    for module_id, user_id, _name in links[_REFERENT]:
        referents[module_id].add(user_id)
    signed = {module_id for module_id, _id, _name in links[_MODULE_SIGNER]}
    return policy.Facts(
        status=path.status,
        learner_id=path.learner_id,
        creator_id=path.creator_id,
        stop_date=path.stop_date,
        visible_person_ids=frozenset(i for _, i, _name in links[_PERSON]),
        visible_group_ids=frozenset(i for _, i, _name in links[_GROUP]),
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
    return _facts(path, modules, _links(db, path, [m.id for m in modules]))


def _person(person_id: int | None, name: str | None) -> dict[str, Any] | None:
    if person_id is None or name is None:
        return None
    return {"id": person_id, "name": name}


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


# The state machines (spec 2 §4 and docs/training-paths.md) ----------------------------------------


def _always(*_args: Any) -> bool:
    return True


@dataclass(frozen=True)
class PathTransition:
    target: str
    event: PathEvent
    # Whether the user's role allows it (else 403).
    who: Callable[[Principal, policy.Facts], bool]
    # Whether the path is ready for it (else 409 illegalTransition with the current status).
    ready: Callable[[policy.Facts], bool] = _always


# (action, current status) → the transition; anything else is illegal (409). The automatic
# started → finished (every module not disabled is validated or archived) is refresh's.
PATH_TRANSITIONS: dict[tuple[str, str], PathTransition] = {
    ("accept", P.notAccepted): PathTransition(
        P.accepted, PathEvent.accepted, policy.is_learner, lambda f: policy.accept_ready(f, today())
    ),
    ("start", P.accepted): PathTransition(P.started, PathEvent.started, policy.starter),
    ("validate", P.finished): PathTransition(P.validated, PathEvent.validated, policy.creator_or_admin),
    ("sign", P.validated): PathTransition(P.archived, PathEvent.signed, policy.is_learner, policy.sign_ready),
    **{
        ("cancel", status): PathTransition(P.canceled, PathEvent.canceled, policy.creator_or_admin)
        for status in (P.accepted, P.started, P.finished, P.validated)
    },
}


@dataclass(frozen=True)
class ModuleTransition:
    target: str
    event: PathEvent
    # The path statuses it may happen in (else 409 with the path's status).
    path_statuses: frozenset[str]
    who: Callable[[Principal, policy.Facts, policy.ModuleFacts], bool]
    ready: Callable[[Principal, policy.Facts, policy.ModuleFacts], bool] = _always


_STARTED = frozenset({P.started})
_GRADE = ModuleTransition(M.validated, PathEvent.moduleGraded, _STARTED, policy.module_referent_or_admin)
_DISABLE = ModuleTransition(
    M.disabled,
    PathEvent.moduleDisabled,
    frozenset({P.accepted, P.started, P.finished}),
    policy.module_referent_or_admin,
    policy.disable_ready,
)

# (action, current module status) → the transition. The automatic started → finished (every element
# done) is refresh's.
MODULE_TRANSITIONS: dict[tuple[str, str], ModuleTransition] = {
    ("startNow", M.notStarted): ModuleTransition(
        M.started, PathEvent.moduleStarted, _STARTED, policy.module_referent_or_admin
    ),
    ("grade", M.started): _GRADE,
    ("grade", M.finished): _GRADE,
    ("grade", M.validated): ModuleTransition(
        M.validated, PathEvent.moduleGradeChanged, _STARTED, policy.module_referent_or_admin
    ),
    ("grade", M.archived): ModuleTransition(
        M.validated, PathEvent.moduleGradeChanged, frozenset({P.started, P.finished}), policy.module_admin
    ),
    **{("disable", status): _DISABLE for status in M if status != M.disabled},
    ("sign", M.validated): ModuleTransition(
        M.archived, PathEvent.moduleSigned, frozenset(P) - {P.canceled}, policy.module_learner
    ),
}


def _path_transition(user: Principal, f: policy.Facts, action: str) -> PathTransition:
    """The transition `action` from the path's status: 409 when there is none or the path is not
    ready, 403 when the user's role does not allow it."""
    transition = PATH_TRANSITIONS.get((action, f.status))
    if transition is None:
        raise illegal_transition(f.status)
    ensure(transition.who(user, f))
    if not transition.ready(f):
        raise illegal_transition(f.status)
    return transition


def _module_transition(
    user: Principal, f: policy.Facts, m: policy.ModuleFacts, action: str
) -> ModuleTransition:
    transition = MODULE_TRANSITIONS.get((action, m.status))
    if transition is None:
        raise illegal_transition(m.status)
    if f.status not in transition.path_statuses:
        raise illegal_transition(f.status)
    ensure(transition.who(user, f, m))
    if not transition.ready(user, f, m):
        raise illegal_transition(m.status)
    return transition


def _permits_path(user: Principal, f: policy.Facts, action: str) -> bool:
    transition = PATH_TRANSITIONS.get((action, f.status))
    return transition is not None and transition.who(user, f) and transition.ready(f)


def _permits_module(user: Principal, f: policy.Facts, m: policy.ModuleFacts, action: str) -> bool:
    transition = MODULE_TRANSITIONS.get((action, m.status))
    return (
        transition is not None
        and f.status in transition.path_statuses
        and transition.who(user, f, m)
        and transition.ready(user, f, m)
    )


def path_can(user: Principal, f: policy.Facts) -> PathCan:
    return PathCan(
        edit=policy.can_edit(user, f),
        create_from=policy.can_create_from(user),
        delete=policy.can_delete(user, f),
        accept=_permits_path(user, f, "accept"),
        start=_permits_path(user, f, "start"),
        validate_=_permits_path(user, f, "validate"),
        sign=_permits_path(user, f, "sign"),
        cancel=_permits_path(user, f, "cancel"),
        see_grading=policy.sees_grading(user, f),
    )


def module_can(user: Principal, f: policy.Facts, m: policy.ModuleFacts) -> ModuleCan:
    return ModuleCan(
        start=_permits_module(user, f, m, "startNow"),
        disable=_permits_module(user, f, m, "disable"),
        grade=_permits_module(user, f, m, "grade"),
        sign=_permits_module(user, f, m, "sign"),
        manage_mediations=policy.can_manage_mediations(user, f, m),
        open_elements=policy.can_open_elements(user, f, m),
    )


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
) -> None:
    """A history row of the path (user None: an automatic promotion) and the version + 1, where the
    version is still the one this request read (409 staleVersion otherwise; `strict` false: whatever
    it is now, for what refresh finds to do on a read)."""
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
                "user_name": user.display_name if user is not None else "",
                "event": event.value,
                "grade": grade,
                "comment": comment,
            }
        ],
    )


def _compare_and_set(
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


def refresh(
    db: Session,
    path: TrainingPath,
    *,
    modules: list[TrainingPathModule] | None = None,
    facts: elements.Facts | None = None,
) -> list[TrainingPathModule]:
    """What the elements say now: each module's and the path's done/total elements stored (no new
    version: derived data), then, while the path is started, a started module whose elements are all
    done becomes finished, and the path becomes finished once every module that is not disabled (at
    least one) is validated or archived. The modules as they are now, by position. Two readers refreshing
    at once promote once: the second finds it done (no 409 on a read)."""
    modules = modules_of(db, path.id) if modules is None else modules
    progress = elements.progress(db, path=path, modules=modules, facts=facts)
    for module in modules:
        done, total = progress.get(module.id, (0, 0))
        if (module.done_items, module.total_items) != (done, total):
            plain(db).execute(
                update_statement(TrainingPathModule)
                .where(TrainingPathModule.id == module.id)
                .values(done_items=done, total_items=total)
            )
            set_committed_value(module, "done_items", done)
            set_committed_value(module, "total_items", total)
    done, total = elements.totals(modules, progress)
    if (path.done_items, path.total_items) != (done, total):
        plain(db).execute(
            update_statement(TrainingPath)
            .where(TrainingPath.id == path.id)
            .values(done_items=done, total_items=total)
        )
        set_committed_value(path, "done_items", done)
        set_committed_value(path, "total_items", total)
    if path.status != P.started:
        return modules
    for module in modules:
        if module.status == M.started and module.total_items > 0 and module.done_items >= module.total_items:
            if _compare_and_set(db, module, M.started, M.finished, strict=False):
                record(
                    db,
                    user=None,
                    path=path,
                    event=PathEvent.moduleFinished,
                    position=module.position,
                    strict=False,
                )
    live = [m for m in modules if m.status != M.disabled]
    if live and all(m.status in (M.validated, M.archived) for m in live):
        if _compare_and_set(db, path, P.started, P.finished, strict=False):
            record(db, user=None, path=path, event=PathEvent.finished, strict=False)
    return modules


# The view -------------------------------------------------------------------------------------


def _reference(code: str | None, label: str | None, description: str | None) -> dict[str, Any] | None:
    if code is None:
        return None
    return {"code": code, "label": label, "description": description}


_ModuleReference = aliased(Reference)
# What the page's first statement reads beside the path and whether the user may read it: its
# reference, then each assigned module (by index) with its module's summary (a path without module is
# one row with nulls there).
_PAGE_COLUMNS = (
    Reference.code,
    Reference.label,
    Reference.description,
    TrainingPathModule,
    TrainingModule.name,
    TrainingModule.goals,
    TrainingModule.module_type,
    TrainingModule.estimated_duration,
    TrainingModule.pass_threshold,
    TrainingModule.periodicity,
    _ModuleReference.code,
    _ModuleReference.label,
    _ModuleReference.description,
)


def _load_page(
    db: Session, user: Principal, path_id: int
) -> tuple[TrainingPath, dict[str, Any] | None, list[TrainingPathModule], dict[int, dict[str, Any]]]:
    """The path (404, 403 as load), its reference, its assigned modules by index and their modules'
    summaries by training_module.id, in one statement."""
    rows = db.execute(
        select(TrainingPath, readable(user), *_PAGE_COLUMNS)
        .outerjoin(Reference, Reference.id == TrainingPath.reference_id)
        .outerjoin(TrainingPathModule, TrainingPathModule.path_id == TrainingPath.id)
        .outerjoin(TrainingModule, TrainingModule.id == TrainingPathModule.module_id)
        .outerjoin(_ModuleReference, _ModuleReference.id == TrainingModule.reference_id)
        .where(TrainingPath.id == path_id)
        .order_by(TrainingPathModule.position)
        .execution_options(populate_existing=True)
    ).all()
    first = _readable(rows[0] if rows else None)
    modules: list[TrainingPathModule] = []
    summaries: dict[int, dict[str, Any]] = {}
    for row in rows:
        module = row[5]
        if module is None:
            continue
        modules.append(module)
        summaries[module.module_id] = {
            "id": module.module_id,
            "name": row[6],
            "goals": row[7],
            "module_type": row[8],
            "estimated_duration": row[9],
            "pass_threshold": row[10],
            "periodicity": row[11],
            "reference": _reference(row[12], row[13], row[14]),
        }
    return first[0], _reference(*first[2:5]), modules, summaries


_GRADING, _EVENT = "g", "h"


def _records_statement() -> Any:
    """The gradings of the path's modules (owner: the assigned module) and the path's history (owner:
    the module's index, null for the path), oldest first, with the current name of the person of each
    (null once the person is gone) beside the name stored, in one statement."""
    G, H = TrainingPathGrading, TrainingPathHistory
    return union_all(
        select(
            literal(_GRADING).label("kind"),
            G.path_module_id.label("owner"),
            G.graded_at.label("at"),
            G.id.label("id"),
            G.referent_id.label("user_id"),
            User.display_name.label("name"),
            G.referent_name.label("stored_name"),
            G.grade.label("grade"),
            G.comment.label("comment"),
            G.is_success.label("is_success"),
            G.valid_until.label("valid_until"),
            cast(null(), String).label("event"),
        )
        .outerjoin(User, User.id == G.referent_id)
        .where(in_ids(G.path_module_id, "module_ids")),
        select(
            literal(_EVENT),
            H.position,
            H.at,
            H.id,
            H.user_id,
            User.display_name,
            H.user_name,
            H.grade,
            H.comment,
            cast(null(), Boolean),
            cast(null(), Date),
            H.event,
        )
        .outerjoin(User, User.id == H.user_id)
        .where(H.path_id == bindparam("path_id", type_=Integer)),
    ).order_by(literal_column("at"), literal_column("id"))


_RECORDS = _records_statement()


def _records(
    db: Session, path: TrainingPath, module_ids: Sequence[int]
) -> tuple[dict[int, list[Any]], list[Any]]:
    """The gradings of each assigned module and the path's history, oldest first (_records_statement)."""
    gradings: dict[int, list[Any]] = defaultdict(list)
    history: list[Any] = []
    for row in plain(db).execute(_RECORDS, {"module_ids": list(module_ids), "path_id": path.id}):
        if row.kind == _GRADING:
            gradings[row.owner].append(row)
        else:
            history.append(row)
    return gradings, history


def closing_warnings(
    path: TrainingPath, modules: Sequence[TrainingPathModule], f: policy.Facts
) -> list[ClosingWarning]:
    """What closing the path now warns about (spec 2 §4 Validate, §8), while it is finished."""
    if path.status != P.finished:
        return []
    live = [m for m in modules if m.status != M.disabled]
    signed = {m.id for m in f.modules if m.signed_by_learner}
    warnings: list[ClosingWarning] = []
    if any(m.is_success is not True for m in live):
        warnings.append("atLeastOneModuleNotPassed")
    if any(m.status == M.validated for m in live):
        warnings.append("atLeastOneModuleNotSignedByLearner")
    if any(m.id not in signed for m in modules):
        warnings.append("atLeastOneModuleNotSigned")
    return warnings


def _average(modules: Sequence[TrainingPathModule]) -> float | None:
    grades = [m.grade for m in modules if m.status != M.disabled and m.grade is not None]
    return round_grade(sum(grades) / len(grades)) if grades else None


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


def view(
    db: Session,
    *,
    user: Principal,
    path: TrainingPath,
    reference: dict[str, Any] | None,
    summaries: dict[int, dict[str, Any]],
    modules: Sequence[TrainingPathModule],
    facts: elements.Facts,
) -> PathOut:
    """The path as `user` sees it (grades only for those who may see grading), with `can`, from what
    get read: its reference, its modules' summaries, its modules as refresh left them, and their
    elements."""
    module_ids = [m.id for m in modules]
    links = _links(db, path, module_ids, (path.learner_id, path.creator_id, path.validator_id))
    f = _facts(path, modules, links)
    grading = policy.sees_grading(user, f)
    gradings, history = _records(db, path, module_ids)
    names = {person_id: name for person_id, _id, name in links[_NAMED]}
    results = elements.results(db, user=user, path=path, modules=modules, facts=facts)

    def people(pairs: Iterable[tuple[int, str]]) -> list[dict[str, Any]]:
        return sorted(({"id": i, "name": n} for i, n in pairs), key=lambda p: (p["name"], p["id"]))

    def grading_out(g: Any) -> dict[str, Any]:
        return {
            "grade": g.grade,
            "comment": g.comment,
            "is_success": g.is_success,
            "referent": None
            if g.user_id is None
            else {"id": g.user_id, "name": g.name if g.name is not None else g.stored_name},
            "valid_until": validity(g.is_success, g.valid_until),
            "date": g.at,
        }

    referents: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for module_id, user_id, name in links[_REFERENT]:
        referents[module_id].append((user_id, name))
    contents: list[tuple[str, int, Any]] = [(PATH_RECORD, path.id, path_content(path, modules))]
    for module in modules:
        rows = gradings.get(module.id, [])
        name = summaries[module.module_id]["name"]
        comment = rows[-1].comment if rows else None
        contents.append(
            (MODULE_RECORD, module.id, module_content(path, module, module_name=name, comment=comment))
        )
    signed = signature_lists(db, contents)
    assigned = []
    for module, m in zip(modules, f.modules, strict=True):
        summary = summaries[module.module_id]
        rows = gradings.get(module.id, [])
        current = rows[-1] if rows else None
        assigned.append(
            {
                "index": module.position,
                "module": summary,
                "referents": people(referents[module.id]),
                "start_date": module.start_date,
                "stop_date": module.stop_date,
                "status": module.status,
                "disabled": module.status == M.disabled,
                "started_at": module.started_at,
                "total_items": module.total_items,
                "done_items": module.done_items,
                "completion": elements.completion(module.done_items, module.total_items),
                "results": results.get(module.id, []),
                "grading": grading_out(current) if grading and current is not None else None,
                "gradings": [grading_out(g) for g in rows] if grading else [],
                "signature": None
                if module.signed_at is None
                else {
                    "comment": module.signature_comment or "",
                    "satisfaction": module.signature_satisfaction or 1,
                    "date": module.signed_at,
                },
                "signatures": signed[(MODULE_RECORD, module.id)],
                "can": module_can(user, f, m),
            }
        )
    live = [m for m in modules if m.status != M.disabled]
    return PathOut.model_validate(
        {
            "id": path.id,
            "title": path.title,
            "reference": reference,
            "learner": _person(path.learner_id, names.get(path.learner_id or -1)),
            "start_date": path.start_date,
            "stop_date": path.stop_date,
            "status": path.status,
            "pass_threshold": path.pass_threshold,
            "visible_by_persons": people((i, n) for _, i, n in links[_PERSON]),
            "visible_by_groups": [
                {"id": i, "name": n} for _, i, n in sorted(links[_GROUP], key=lambda g: (g[2], g[1]))
            ],
            "creation": {
                "user_id": path.creator_id,
                "user_name": names.get(path.creator_id, "") if path.creator_id is not None else "",
                "date": path.created_at,
            },
            "total_estimated_duration": sum(summaries[m.module_id]["estimated_duration"] for m in live),
            "total_sub_module_items": path.total_items,
            "done_sub_module_items": path.done_items,
            "total_assigned_modules": len(modules),
            "completion": elements.completion(path.done_items, path.total_items),
            "average_grade": _average(modules) if grading else None,
            "acceptance_date": path.accepted_at,
            "validation": None
            if path.validated_at is None
            else {
                "validator": _person(path.validator_id, names.get(path.validator_id or -1)),
                "comment": path.validation_comment or "",
                "date": path.validated_at,
            },
            "signature": None
            if path.signed_at is None
            else {
                "comment": path.signature_comment or "",
                "satisfaction": path.signature_satisfaction or 1,
                "date": path.signed_at,
            },
            "signatures": signed[(PATH_RECORD, path.id)],
            "closing_warnings": closing_warnings(path, modules, f),
            "assigned_modules": assigned,
            "history": [
                {
                    "at": h.at,
                    "user": _person(h.user_id, h.name),
                    "user_name": h.stored_name,
                    "event": h.event,
                    "module_index": h.owner,
                    "grade": h.grade if grading else None,
                    "comment": h.comment if grading or h.owner is None else None,
                }
                for h in history
            ],
            "can": path_can(user, f),
            "version": path.version,
        }
    )


def get(db: Session, *, user: Principal, path_id: int) -> PathOut:
    """The path as the user sees it. A read writes nothing: the progress it shows was stored when
    what the learner did changed (elements.py)."""
    path, reference, modules, summaries = _load_page(db, user, path_id)
    facts = elements.read(db, path=path, modules=modules, user=user)
    return view(
        db, user=user, path=path, reference=reference, summaries=summaries, modules=modules, facts=facts
    )


def reload(db: Session, *, user: Principal, path_id: int) -> None:
    """The view's reload button (`POST …/update`): the elements read again and the progress stored."""
    refresh(db, load(db, user=user, path_id=path_id, for_update=True))


# Cards (lists, infos, the creation's answer) --------------------------------------------------

CARD_COLUMNS: tuple[Any, ...] = (
    TrainingPath.id,
    TrainingPath.title,
    TrainingPath.status,
    TrainingPath.start_date,
    TrainingPath.stop_date,
    TrainingPath.created_at,
    TrainingPath.accepted_at,
    TrainingPath.validated_at,
    TrainingPath.signed_at,
    TrainingPath.done_items,
    TrainingPath.total_items,
)
_Learner = aliased(User)
_Creator = aliased(User)
# What a page's cards add to its rows, in one statement for the page: reference, learner, creator and
# number of assigned modules of each path.
_CARD_EXTRAS = (
    select(
        TrainingPath.id,
        Reference.code,
        Reference.label,
        Reference.description,
        TrainingPath.learner_id,
        _Learner.display_name,
        TrainingPath.creator_id,
        _Creator.display_name,
        select(func.count())
        .where(TrainingPathModule.path_id == TrainingPath.id)
        .correlate(TrainingPath)
        .scalar_subquery(),
    )
    .outerjoin(Reference, Reference.id == TrainingPath.reference_id)
    .outerjoin(_Learner, _Learner.id == TrainingPath.learner_id)
    .outerjoin(_Creator, _Creator.id == TrainingPath.creator_id)
    .where(in_ids(TrainingPath.id, "ids"))
)


def _named(person_id: int | None, name: str | None) -> dict[str, Any] | None:
    return None if person_id is None or name is None else {"id": person_id, "name": name}


def card_fields(db: Session, rows: Sequence[Any]) -> list[dict[str, Any]]:
    """PathCard of each row of CARD_COLUMNS as JSON-ready data (camelCase keys), what the rows lack read
    in one statement for the page."""
    if not rows:
        return []
    extras = {row[0]: row[1:] for row in plain(db).execute(_CARD_EXTRAS, {"ids": [row[0] for row in rows]})}
    cards = []
    for row in rows:
        (path_id, title, status, start, stop, created, accepted, validated, signed, done, total) = row[
            : len(CARD_COLUMNS)
        ]
        code, label, description, learner_id, learner, creator_id, creator, count = extras.get(
            path_id, (None,) * 8 + (0,)
        )
        cards.append(
            {
                "id": path_id,
                "title": title,
                "reference": _reference(code, label, description),
                "learner": _named(learner_id, learner),
                "creator": _named(creator_id, creator),
                "status": status,
                "startDate": start,
                "stopDate": stop,
                "createdAt": created,
                "acceptanceDate": accepted,
                "validationDate": validated,
                "signatureDate": signed,
                "totalAssignedModules": count,
                "completion": elements.completion(done, total),
            }
        )
    return cards


def infos(db: Session, *, user: Principal, ids: Sequence[int]) -> list[dict[str, Any]]:
    """The cards of the paths of `ids` the user may read, in the order given."""
    wanted = list(dict.fromkeys(ids))
    if not wanted:
        return []
    rows = db.execute(select(*CARD_COLUMNS).where(TrainingPath.id.in_(wanted), readable(user))).all()
    by_id = {row[0]: row for row in rows}
    return card_fields(db, [by_id[i] for i in wanted if i in by_id])


# The form -------------------------------------------------------------------------------------


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
        plain(db).execute(insert(TrainingPathReferent), referents)


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
        plain(db).execute(delete(model).where(model.path_id == path_id))
        rows = [{"path_id": path_id, column: i} for i in sorted(set(ids))]
        if rows:
            plain(db).execute(insert(model), rows)


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
        refresh(db, path)  # the totals the cards show
        ids.append(path.id)
    return ids


# The fields that change only while notAccepted, by their JSON names.
RESTRICTED = ("title", "reference", "startDate", "stopDate", "passThreshold", "assignedModules")


def update(db: Session, *, user: Principal, path_id: int, data: PathUpdate) -> TrainingPath:
    """The form: 403 for anyone but the creator and administrators (and once archived or canceled),
    409 staleVersion for a stale version, 409 fieldNotEditable naming each restricted field changed
    after notAccepted, then the form's rules (400). A save that changes nothing writes nothing; one
    without a version applies over the path as it is now."""
    path = load(db, user=user, path_id=path_id, for_update=True)
    modules = modules_of(db, path.id)
    links = _links(db, path, [m.id for m in modules])
    f = _facts(path, modules, links)
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
    }
    if not policy.editable_restricted(f):
        refused = [name for name in RESTRICTED if changed[name]]
        if refused:
            raise ApiError(
                409, FIELD_NOT_EDITABLE, [FieldError(field=name, code=FIELD_NOT_EDITABLE) for name in refused]
            )
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
    current_referents = [set(m.referent_ids) for m in f.modules]
    referents_changed = (
        changed["assignedModules"] or [set(a.referents) for a in assigned] != current_referents
    )
    persons_changed = set(data.visible_by_persons) != f.visible_person_ids
    groups_changed = set(data.visible_by_groups) != f.visible_group_ids
    if not any(changed.values()) and not referents_changed and not persons_changed and not groups_changed:
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
        plain(db).execute(delete(TrainingPathModule).where(TrainingPathModule.path_id == path.id))
        _insert_modules(db, path.id, assigned, utcnow())
        refresh(db, path)
    elif referents_changed:
        for module, a in zip(modules, assigned, strict=True):
            plain(db).execute(
                delete(TrainingPathReferent).where(TrainingPathReferent.path_module_id == module.id)
            )
            plain(db).execute(
                insert(TrainingPathReferent),
                [{"path_module_id": module.id, "user_id": r, "path_id": path.id} for r in a.referents],
            )
    _set_visibility(
        db,
        path.id,
        data.visible_by_persons if persons_changed else None,
        data.visible_by_groups if groups_changed else None,
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
    plain(db).execute(delete(TrainingPath).where(TrainingPath.id == path.id))


# Path actions ---------------------------------------------------------------------------------


def _path_action(
    db: Session, *, user: Principal, path_id: int, action: str, values: dict[str, Any] | None = None
) -> tuple[TrainingPath, PathTransition]:
    path = load(db, user=user, path_id=path_id, for_update=True)
    f = facts(db, path)
    transition = _path_transition(user, f, action)
    _compare_and_set(db, path, f.status, transition.target, values)
    return path, transition


def accept(db: Session, *, user: Principal, path_id: int) -> None:
    """The learner accepts the path (its stop date not past)."""
    path, transition = _path_action(
        db, user=user, path_id=path_id, action="accept", values={"accepted_at": utcnow()}
    )
    record(db, user=user, path=path, event=transition.event)


def start(db: Session, *, user: Principal, path_id: int) -> None:
    """The creator, an administrator or a referent starts the accepted path."""
    path, transition = _path_action(db, user=user, path_id=path_id, action="start")
    record(db, user=user, path=path, event=transition.event)


def cancel(db: Session, *, user: Principal, path_id: int) -> None:
    """The creator or an administrator cancels an accepted path that is not archived."""
    path, transition = _path_action(db, user=user, path_id=path_id, action="cancel")
    record(db, user=user, path=path, event=transition.event)


def validate(
    db: Session, *, user: Principal, session: SessionToken, path_id: int, data: ValidateBody
) -> None:
    """Closing: the creator or an administrator validates the finished path with a comment and signs it
    (meaning approval; 401 reauthenticationRequired without a recent password). The closing warnings
    are shown beforehand, never a refusal."""
    values = {"validator_id": user.id, "validation_comment": data.comment, "validated_at": utcnow()}
    path, transition = _path_action(db, user=user, path_id=path_id, action="validate", values=values)
    signatures.sign(
        db,
        user=user,
        session=session,
        record_type=PATH_RECORD,
        record_id=path.id,
        meaning=APPROVAL,
        content=path_content(path, modules_of(db, path.id)),
    )
    record(db, user=user, path=path, event=transition.event, comment=data.comment)


def sign(db: Session, *, user: Principal, session: SessionToken, path_id: int, data: SignBody) -> None:
    """The learner signs the closed path once every module is signed (meaning acknowledgement), with a
    comment and a satisfaction; 401 reauthenticationRequired without a recent password."""
    values = {
        "signature_comment": data.comment,
        "signature_satisfaction": data.satisfaction,
        "signed_at": utcnow(),
    }
    path, transition = _path_action(db, user=user, path_id=path_id, action="sign", values=values)
    signatures.sign(
        db,
        user=user,
        session=session,
        record_type=PATH_RECORD,
        record_id=path.id,
        meaning=ACKNOWLEDGEMENT,
        content=path_content(path, modules_of(db, path.id)),
    )
    record(db, user=user, path=path, event=transition.event, comment=data.comment)


# Module actions -------------------------------------------------------------------------------


def _module_action(
    db: Session, *, user: Principal, path_id: int, module_index: int, action: str, version: int | None = None
) -> tuple[TrainingPath, TrainingPathModule, policy.Facts, policy.ModuleFacts, ModuleTransition]:
    """The path (locked), the module, their facts and the transition `action` allowed from the module's
    status; 409 staleVersion first when `version` (the client's) is not the path's."""
    path = load(db, user=user, path_id=path_id, for_update=True)
    if version is not None and version != path.version:
        raise stale()
    modules = modules_of(db, path.id)
    if not 0 <= module_index < len(modules):
        raise not_found()
    f = facts(db, path, modules)
    m = f.modules[module_index]
    return path, modules[module_index], f, m, _module_transition(user, f, m, action)


def start_now(db: Session, *, user: Principal, path_id: int, module_index: int) -> None:
    """A referent of the module or an administrator starts it (path started): spot elements count the
    subjects read from now on."""
    path, module, _f, m, transition = _module_action(
        db, user=user, path_id=path_id, module_index=module_index, action="startNow"
    )
    _compare_and_set(db, module, m.status, transition.target, {"started_at": utcnow()})
    record(db, user=user, path=path, event=transition.event, position=module.position)


def disable(db: Session, *, user: Principal, path_id: int, module_index: int) -> None:
    """The module leaves the path's totals and closing (spec 2 §4 Disable a module)."""
    path, module, _f, m, transition = _module_action(
        db, user=user, path_id=path_id, module_index=module_index, action="disable"
    )
    _compare_and_set(db, module, m.status, transition.target)
    record(db, user=user, path=path, event=transition.event, position=module.position)
    refresh(db, path)  # out of the totals; the path finishes if every other module is closed


def validate_grade(data: GradeBody) -> float:
    """The grade rounded, or 400 atLeastOneErrorLeft: grade set (emptyFieldError) and within 0–10
    (valueMustBeBetween), a comment (emptyFieldError)."""
    errors: list[FieldError] = []
    if data.grade is None:
        errors.append(FieldError(field="grade", code=EMPTY))
    elif not 0 <= data.grade <= GRADE_SCALE:
        errors.append(FieldError(field="grade", code="valueMustBeBetween"))
    if not data.comment.strip():
        errors.append(FieldError(field="comment", code=EMPTY))
    if errors or data.grade is None:
        raise ApiError(400, FORM_ERRORS, errors)
    return round_grade(data.grade)


def grade(db: Session, *, user: Principal, path_id: int, module_index: int, data: GradeBody) -> None:
    """Grade and close the module, or change its grade (spec 2 §4): a grading row (the earlier ones
    stay), the module's current grading, success against the module's threshold, a success valid for
    the module's periodicity (a failure for nothing). Regrading an archived module revokes the
    learner's signature of it (gradeChanged): they sign again. A body whose version is not the
    path's answers 409 staleVersion."""
    path, module, _f, m, transition = _module_action(
        db, user=user, path_id=path_id, module_index=module_index, action="grade", version=data.version
    )
    value = validate_grade(data)
    threshold, periodicity = db.execute(
        select(TrainingModule.pass_threshold, TrainingModule.periodicity).where(
            TrainingModule.id == module.module_id
        )
    ).one()
    now = utcnow()
    success = value >= threshold
    valid_until = add_months(today(), periodicity) if success and periodicity > 0 else None
    db.add(
        TrainingPathGrading(
            path_module_id=module.id,
            grade=value,
            comment=data.comment,
            is_success=success,
            referent_id=user.id,
            referent_name=user.display_name,
            valid_until=valid_until,
            graded_at=now,
        )
    )
    db.flush()
    values: dict[str, Any] = {
        "grade": value,
        "is_success": success,
        "valid_until": valid_until,
        "graded_at": now,
    }
    if m.status == M.archived:
        signatures.revoke_all(
            db, record_type=MODULE_RECORD, record_id=module.id, reason=GRADE_CHANGED, by=user
        )
        values |= {"signature_comment": None, "signature_satisfaction": None, "signed_at": None}
    try:
        _compare_and_set(db, module, m.status, transition.target, values)
    except ApiError:
        if data.version is None:
            raise
        raise stale() from None  # another grading came first: the version read is stale
    record(
        db,
        user=user,
        path=path,
        event=transition.event,
        position=module.position,
        grade=value,
        comment=data.comment,
    )
    refresh(db, path)  # the path finishes once every module is closed


def sign_module(
    db: Session, *, user: Principal, session: SessionToken, path_id: int, module_index: int, data: SignBody
) -> None:
    """The learner signs the graded module (meaning acknowledgement, record trainingPathModule), with a
    comment and a satisfaction; 401 reauthenticationRequired without a recent password."""
    path, module, _f, m, transition = _module_action(
        db, user=user, path_id=path_id, module_index=module_index, action="sign"
    )
    values = {
        "signature_comment": data.comment,
        "signature_satisfaction": data.satisfaction,
        "signed_at": utcnow(),
    }
    _compare_and_set(db, module, m.status, transition.target, values)
    name = db.scalar(select(TrainingModule.name).where(TrainingModule.id == module.module_id)) or ""
    comment = db.scalar(
        select(TrainingPathGrading.comment)
        .where(TrainingPathGrading.path_module_id == module.id)
        .order_by(TrainingPathGrading.graded_at.desc(), TrainingPathGrading.id.desc())
        .limit(1)
    )
    signatures.sign(
        db,
        user=user,
        session=session,
        record_type=MODULE_RECORD,
        record_id=module.id,
        meaning=ACKNOWLEDGEMENT,
        content=module_content(path, module, module_name=name, comment=comment),
    )
    record(db, user=user, path=path, event=transition.event, position=module.position, comment=data.comment)
