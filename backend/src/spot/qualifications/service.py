"""Qualifications: reading (with `can`), the form (create, update with optimistic locking, delete), the
history of each, and the gallery and discussion parent "qualification".

Helpers for the other modules of the area (query, dashboards):

- `load(db, *, qualification_id, for_update=False) -> Qualification`: 404 qualificationNotFound;
- `links(db, qualification_ids, user) -> {id: Links}`: cartographies (with their site) that the user may
  see, qualifiable groups and modules of the qualifications, in one statement."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Boolean, Integer, String, cast, delete, insert, literal, select, true, union_all
from sqlalchemy import update as update_statement
from sqlalchemy.orm import Session

from spot.core import history, parents
from spot.core.errors import ApiError, FieldError, conflict, ensure, not_found, refuse_frozen_fields
from spot.core.history import Event
from spot.core.principal import Principal
from spot.core.time import utcnow
from spot.discussions import service as discussions
from spot.discussions.schemas import SystemMessageType
from spot.mapping.models import Cartography, Function, Site
from spot.mapping.policy import sees_cartography, sees_function
from spot.qualifications import policy
from spot.qualifications.models import (
    Qualification,
    QualificationCartography,
    QualificationFunction,
    QualificationGroup,
    QualificationModule,
    QualificationReferent,
)
from spot.qualifications.schemas import (
    DEFAULT_WINDOW,
    QualificationOut,
    QualificationSave,
    QualificationUpdate,
)
from spot.querylang.text import fold
from spot.training.modules.models import TrainingModule
from spot.users.models import Group, User

ITEM_TYPE = "qualification"
NOT_FOUND = "qualificationNotFound"
STALE_VERSION = "staleVersion"
FORM_ERRORS = "atLeastOneErrorLeft"
EMPTY = "emptyFieldError"
INVALID = "invalidValue"


# Reading ----------------------------------------------------------------------------------------------


def load(db: Session, *, qualification_id: int, for_update: bool = False) -> Qualification:
    """The qualification (every signed-in user may read one); 404 when unknown. `for_update` locks its
    row until the end of the transaction (PostgreSQL; SQLite has one writer anyway)."""
    statement = (
        select(Qualification)
        .where(Qualification.id == qualification_id)
        .execution_options(populate_existing=True)
    )
    if for_update and db.get_bind().dialect.name == "postgresql":
        statement = statement.with_for_update()
    qualification = db.scalars(statement).first()
    if qualification is None:
        raise not_found(NOT_FOUND)
    return qualification


@dataclass
class Links:
    """What a qualification names: (id, name, site name) cartographies by name, (id, name) groups by
    name, (id, name, periodicity, enabled) modules in the form's order."""

    cartographies: list[tuple[int, str, str]] = field(default_factory=list)
    groups: list[tuple[int, str]] = field(default_factory=list)
    modules: list[tuple[int, str, int, bool]] = field(default_factory=list)


_CARTOGRAPHY, _GROUP, _MODULE = "c", "g", "m"


def links(db: Session, qualification_ids: Sequence[int], user: Principal) -> dict[int, Links]:
    """The cartographies (those `user` may see: a hidden one's name is not shown to them), qualifiable
    groups and modules of each qualification, in one statement."""
    if not qualification_ids:
        return {}
    ids = sorted(set(qualification_ids))
    no_text, no_number, no_flag = cast(None, String), cast(None, Integer), cast(None, Boolean)
    qc, qg, qm = QualificationCartography, QualificationGroup, QualificationModule
    statement: Any = union_all(
        select(
            literal(_CARTOGRAPHY), qc.qualification_id, Cartography.id, Cartography.name, literal(0),
            Site.name, no_number, no_flag,
        )
        .join(Cartography, Cartography.id == qc.cartography_id)
        .join(Site, Site.id == Cartography.site_id)
        .where(qc.qualification_id.in_(ids), sees_cartography(user, Cartography.id)),
        select(
            literal(_GROUP), qg.qualification_id, Group.id, Group.name, literal(0), no_text, no_number,
            no_flag,
        )
        .join(Group, Group.id == qg.group_id)
        .where(qg.qualification_id.in_(ids)),
        select(
            literal(_MODULE), qm.qualification_id, TrainingModule.id, TrainingModule.name, qm.position,
            no_text, TrainingModule.periodicity, TrainingModule.enabled,
        )
        .join(TrainingModule, TrainingModule.id == qm.module_id)
        .where(qm.qualification_id.in_(ids)),
    )  # fmt: skip
    found: dict[int, Links] = {i: Links() for i in ids}
    modules: dict[int, list[tuple[int, int, str, int, bool]]] = {}
    for kind, owner, item_id, name, position, site, periodicity, enabled in db.execute(statement):
        if kind == _CARTOGRAPHY:
            found[owner].cartographies.append((item_id, name, site))
        elif kind == _GROUP:
            found[owner].groups.append((item_id, name))
        else:
            modules.setdefault(owner, []).append((position, item_id, name, periodicity, bool(enabled)))
    for owner, entry in found.items():
        entry.cartographies.sort(key=lambda c: (fold(c[1]), c[0]))
        entry.groups.sort(key=lambda g: (fold(g[1]), g[0]))
        entry.modules = [(i, n, p, e) for _, i, n, p, e in sorted(modules.get(owner, []))]
    return found


def _functions(db: Session, user: Principal, qualification_id: int) -> list[tuple[int, str, int]]:
    """(id, name, cartography id) of the functions the qualification names that `user` sees, by
    cartography name, then the function's name."""
    qf = QualificationFunction
    return [
        (i, n, c)
        for i, n, c in db.execute(
            select(Function.id, Function.name, Function.cartography_id)
            .join(qf, qf.function_id == Function.id)
            .join(Cartography, Cartography.id == Function.cartography_id)
            .where(
                qf.qualification_id == qualification_id,
                sees_function(user, Function.id, Function.cartography_id),
            )
            .order_by(Cartography.name, Cartography.id, Function.name, Function.id)
        )
    ]


def _referents(db: Session, qualification_id: int) -> list[tuple[int, str]]:
    """(id, name) of the qualification's default referents, by name."""
    rows = db.execute(
        select(User.id, User.display_name)
        .join(QualificationReferent, QualificationReferent.user_id == User.id)
        .where(QualificationReferent.qualification_id == qualification_id)
    ).all()
    return sorted(((i, n) for i, n in rows), key=lambda r: (fold(r[1]), r[0]))


def view(db: Session, *, user: Principal, qualification: Qualification) -> QualificationOut:
    linked = links(db, [qualification.id], user)[qualification.id]
    creator = (
        db.scalar(select(User.display_name).where(User.id == qualification.creator_id))
        if qualification.creator_id is not None
        else None
    )
    return QualificationOut.model_validate(
        {
            "id": qualification.id,
            "name": qualification.name,
            "cartographies": [{"id": i, "name": n, "siteName": s} for i, n, s in linked.cartographies],
            "qualifiableGroups": [{"id": i, "name": n} for i, n in linked.groups],
            "modules": [
                {"id": i, "name": n, "periodicity": p, "enabled": e} for i, n, p, e in linked.modules
            ],
            "functions": [
                {"id": i, "name": n, "cartographyId": c} for i, n, c in _functions(db, user, qualification.id)
            ],
            "requalificationWindowDays": qualification.requalification_window_days,
            "defaultReferents": [{"id": i, "name": n} for i, n in _referents(db, qualification.id)],
            "discussionId": qualification.discussion_id,
            "creation": {
                "userId": qualification.creator_id,
                "userName": creator or "",
                "date": qualification.created_at,
            },
            "version": qualification.version,
            "can": policy.can(user),
        }
    )


def read(db: Session, *, user: Principal, qualification_id: int) -> QualificationOut:
    """The qualification page: counts as a read in the history."""
    qualification = load(db, qualification_id=qualification_id)
    page = view(db, user=user, qualification=qualification)
    history.record(db, _entry(user, qualification, mode="R"))
    return page


# Writing ----------------------------------------------------------------------------------------------


def _entry(
    user: Principal | None, qualification: Qualification, *, mode: history.Mode, event: Event | None = None
) -> dict[str, Any]:
    return history.entry(
        user=user,
        item_type=ITEM_TYPE,
        item_id=qualification.id,
        item_key=str(qualification.id),
        item_name=qualification.name,
        mode=mode,
        event=event,
    )


def parent_of(qualification: Qualification) -> parents.Parent:
    return parents.Parent(ITEM_TYPE, qualification.id, str(qualification.id), qualification.name)


def _record(db: Session, *, user: Principal, qualification: Qualification, event: Event) -> None:
    """A write in the history; an update also writes its system message on the discussion."""
    history.record(db, _entry(user, qualification, mode="W", event=event))
    if event == Event.updated:
        discussions.system_message(
            db,
            parent=parent_of(qualification),
            user=user,
            type=SystemMessageType.updated,
            args={"name": qualification.name},
        )


def _existing(db: Session, column: Any, ids: Iterable[int], *where: Any) -> set[int]:
    wanted = sorted(set(ids))
    if not wanted:
        return set()
    return set(db.scalars(select(column).where(column.in_(wanted), *where)))


def _validate(db: Session, user: Principal, data: QualificationSave) -> None:
    """The form's rules beyond its shape (spec 2 §5 Qualification): groups and modules required
    (emptyFieldError), every id known (invalidValue; a cartography hidden from the user counts as
    unknown); 422 naming each field."""
    errors: list[FieldError] = []
    visible = (sees_cartography(user, Cartography.id),)
    checks = (
        ("cartographies", data.cartographies, Cartography.id, visible, False),
        ("qualifiableGroups", data.qualifiable_groups, Group.id, (), True),
        ("modules", data.modules, TrainingModule.id, (), True),
    )
    for name, ids, column, where, required in checks:
        if not ids:
            if required:
                errors.append(FieldError(field=name, code=EMPTY))
        elif set(ids) - _existing(db, column, ids, *where):
            errors.append(FieldError(field=name, code=INVALID))
    # A function it opens: one of its cartographies' (those of the form, which the user sees), and one
    # the user sees (map visibility): any other is refused as an unknown one would be.
    of_its_cartographies = (
        Function.cartography_id.in_(sorted(set(data.cartographies))),
        sees_function(user, Function.id, Function.cartography_id),
    )
    if data.functions and set(data.functions) - _existing(
        db, Function.id, data.functions, *of_its_cartographies
    ):
        errors.append(FieldError(field="functions", code=INVALID))
    if data.default_referents and set(data.default_referents) - _existing(
        db, User.id, data.default_referents
    ):
        errors.append(FieldError(field="defaultReferents", code=INVALID))
    if errors:
        raise ApiError(422, FORM_ERRORS, errors)


# The fields of requalification and coverage, changed by qualification administrators only (policy), in
# the order errors name them.
REQUALIFICATION_FIELDS = ("functions", "requalificationWindowDays", "defaultReferents")


def _refuse_requalification_changes(
    db: Session, user: Principal, data: QualificationSave, qualification: Qualification | None
) -> None:
    """409 fieldNotEditable naming each of REQUALIFICATION_FIELDS that a user who may not change them
    (policy.can_edit_requalification) changes: from the defaults on creating, from what is stored on
    saving. The form shows them read-only to that user."""
    if policy.can_edit_requalification(user):
        return
    if qualification is None:
        window, functions, referents = DEFAULT_WINDOW, set(), set()
    else:
        window = qualification.requalification_window_days
        functions = {i for i, _n, _c in _functions(db, user, qualification.id)}
        referents = {i for i, _n in _referents(db, qualification.id)}
    changed = {
        "functions": set(data.functions) != functions,
        "requalificationWindowDays": data.requalification_window_days != window,
        "defaultReferents": set(data.default_referents) != referents,
    }
    refuse_frozen_fields(changed, frozenset(), REQUALIFICATION_FIELDS)


def _unique(ids: Iterable[int]) -> list[int]:
    """The ids in their first order, each once."""
    return list(dict.fromkeys(ids))


def _hidden_cartographies(db: Session, user: Principal, qualification_id: int) -> list[int]:
    """The qualification's cartographies that `user` may not see: the form does not show them, so a
    save by that user keeps them."""
    qc = QualificationCartography
    return list(
        db.scalars(
            select(qc.cartography_id).where(
                qc.qualification_id == qualification_id, ~sees_cartography(user, qc.cartography_id)
            )
        )
    )


def _hidden_functions(db: Session, user: Principal, qualification_id: int) -> list[tuple[int, int]]:
    """(id, cartography id) of the qualification's functions that `user` may not see (on a hidden
    cartography, or hidden in a cartography they see): the form does not show them, so a save by that
    user keeps them, as long as their cartography stays named."""
    qf = QualificationFunction
    return [
        (i, c)
        for i, c in db.execute(
            select(Function.id, Function.cartography_id)
            .join(qf, qf.function_id == Function.id)
            .where(
                qf.qualification_id == qualification_id,
                ~sees_function(user, Function.id, Function.cartography_id),
            )
        )
    ]


def _set_links(
    db: Session,
    qualification_id: int,
    data: QualificationSave,
    kept_cartographies: Sequence[int] = (),
    kept_functions: Sequence[tuple[int, int]] = (),
) -> None:
    models = (
        QualificationCartography,
        QualificationGroup,
        QualificationModule,
        QualificationFunction,
        QualificationReferent,
    )
    for model in models:
        db.execute(delete(model).where(model.qualification_id == qualification_id))
    named = _unique([*data.cartographies, *kept_cartographies])
    cartographies = [{"qualification_id": qualification_id, "cartography_id": i} for i in named]
    functions = [
        {"qualification_id": qualification_id, "function_id": i}
        for i in _unique([*data.functions, *(i for i, c in kept_functions if c in set(named))])
    ]
    referents = [
        {"qualification_id": qualification_id, "user_id": i} for i in _unique(data.default_referents)
    ]
    groups = [{"qualification_id": qualification_id, "group_id": i} for i in _unique(data.qualifiable_groups)]
    modules = [
        {"qualification_id": qualification_id, "module_id": i, "position": position}
        for position, i in enumerate(_unique(data.modules))
    ]
    for model, rows in (
        (QualificationCartography, cartographies),
        (QualificationGroup, groups),
        (QualificationModule, modules),
        (QualificationFunction, functions),
        (QualificationReferent, referents),
    ):
        if rows:
            db.execute(insert(model), rows)


def create(db: Session, *, user: Principal, data: QualificationSave) -> Qualification:
    """perm_TableauBord or perm_QualificationAdmin (403); the form's rules (422)."""
    ensure(policy.can_create(user))
    _refuse_requalification_changes(db, user, data, None)
    _validate(db, user, data)
    now = utcnow()
    qualification = Qualification(
        name=data.name,
        creator_id=user.id,
        created_at=now,
        updated_at=now,
        version=1,
        requalification_window_days=data.requalification_window_days,
    )
    db.add(qualification)
    db.flush()
    discussions.attach(db, item=qualification, parent_type=ITEM_TYPE)
    _set_links(db, qualification.id, data)
    _record(db, user=user, qualification=qualification, event=Event.created)
    return qualification


def update(
    db: Session, *, user: Principal, qualification_id: int, data: QualificationUpdate
) -> Qualification:
    """perm_QualificationAdmin (403); 404 unknown; 409 staleVersion when a version is sent and is not
    the stored one (or moved meanwhile; without one, as the spec's client sends it, the save applies
    over whatever came before); the form's rules (422). Applied in one UPDATE where the version is still
    the one read, the links replaced but for the cartographies hidden from the user, which stay."""
    ensure(policy.can_edit(user))
    qualification = load(db, qualification_id=qualification_id, for_update=True)
    read_version = qualification.version if data.version is None else data.version
    if read_version != qualification.version:
        raise conflict(STALE_VERSION)
    _refuse_requalification_changes(db, user, data, qualification)
    _validate(db, user, data)
    result = db.execute(
        update_statement(Qualification)
        .where(Qualification.id == qualification.id, Qualification.version == read_version)
        .values(
            name=data.name,
            name_folded=fold(data.name),
            requalification_window_days=data.requalification_window_days,
            updated_at=utcnow(),
            version=Qualification.version + 1,
        )
        .execution_options(synchronize_session=False)
    )
    if result.rowcount == 0:  # type: ignore[attr-defined]
        raise conflict(STALE_VERSION)
    db.refresh(qualification)
    _set_links(
        db,
        qualification.id,
        data,
        _hidden_cartographies(db, user, qualification.id),
        _hidden_functions(db, user, qualification.id),
    )
    _record(db, user=user, qualification=qualification, event=Event.updated)
    return qualification


def delete_qualification(db: Session, *, user: Principal, qualification_id: int) -> None:
    """perm_QualificationAdmin (403); 404 unknown. Its gallery (stored files and rows) and its
    discussion go with it."""
    ensure(policy.can_delete(user))
    qualification = load(db, qualification_id=qualification_id, for_update=True)
    _record(db, user=user, qualification=qualification, event=Event.deleted)
    parents.removing(db, parent_type=ITEM_TYPE, parent_id=qualification.id)
    discussion_id = qualification.discussion_id
    db.delete(qualification)
    db.flush()
    discussions.remove(db, discussion_id=discussion_id)


# Discussion and gallery parent ------------------------------------------------------------------------


def _parent(db: Session, _user: Principal, qualification_id: int) -> parents.Parent:
    return parent_of(load(db, qualification_id=qualification_id))


parents.register(ITEM_TYPE, _parent)
# Every signed-in user reads qualifications, so every viewer sees their discussions.
discussions.register_parent(
    ITEM_TYPE, discussions.ParentTable(Qualification, Qualification.name, lambda _viewer: true())
)
