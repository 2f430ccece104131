"""The rules of training modules (spec 2 §3 Training module, §4, §5 Module): the form's checks, the
usage by paths that freezes a module, and the module as a reader sees it, its elements resolved in a
fixed number of statements whatever their number (spot items named with their context and whether the
reader may see them, course items named with their course and whether they still exist).

For other areas: `usage(db, module_id=...)`, `CARD_COLUMNS` and `card_fields(db, rows)` (the list),
`resolved_items(db, user, items)` (elements as a reader sees them: training paths show their results)."""

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from pydantic_core import PydanticCustomError
from sqlalchemy import (
    ColumnElement,
    Integer,
    String,
    bindparam,
    cast,
    delete,
    distinct,
    exists,
    func,
    insert,
    literal_column,
    not_,
    null,
    or_,
    select,
    true,
    union_all,
)
from sqlalchemy import update as update_statement
from sqlalchemy.orm import Session

from spot.core.errors import ApiError, FieldError, conflict, ensure, not_found
from spot.core.principal import Principal
from spot.core.schemas import TextRule
from spot.core.time import utcnow
from spot.db import in_ids
from spot.lms import service as lms
from spot.lms.models import ItemKind as LmsKind
from spot.lms.models import LaunchMode, LmsCourse, LmsItem
from spot.mapping import service as mapping
from spot.mapping.models import Activity, Cartography, Function, Site, Subject
from spot.mapping.policy import (
    EVERYONE,
    Viewer,
    by_viewer,
    sees_activity,
    sees_cartography,
    sees_function,
    sees_subject,
)
from spot.mapping.service import MapPaths
from spot.querylang.text import fold
from spot.references import service as references
from spot.references.models import Reference, ReferenceType
from spot.training.modules import policy
from spot.training.modules.models import ItemKind, SpotItemType, TrainingModule, TrainingModuleItem
from spot.training.modules.schemas import (
    LmsItemIn,
    MediationItemIn,
    ModuleFound,
    ModuleName,
    ModuleOut,
    ModuleSave,
    ModuleUpdate,
    ModuleUsage,
    SpotItemIn,
    UrlItemIn,
)
from spot.training.paths.models import PathStatus, TrainingPath, TrainingPathModule
from spot.users.models import User

log = logging.getLogger("spot")

NOT_FOUND = "trainingModuleNotFound"
STALE_VERSION = "staleVersion"
INVALID = "invalidValue"
SEARCH_LIMIT = 30
LMS_KINDS = (LmsKind.resource.value, LmsKind.quiz.value)

_TEXT = TextRule()
_MULTILINE = TextRule(multiline=True)


# Usage by paths -------------------------------------------------------------------------------------


def _usage_of(module_id: Any) -> tuple[Any, ColumnElement[bool]]:
    """How many paths assign the module, and whether one of them left notAccepted (the learner
    accepted it once: the module is then frozen), as SQL of `module_id` (a column or a parameter)."""
    paths = (
        select(func.count(distinct(TrainingPathModule.path_id)))
        .where(TrainingPathModule.module_id == module_id)
        .scalar_subquery()
    )
    accepted = exists().where(
        TrainingPathModule.module_id == module_id,
        TrainingPath.id == TrainingPathModule.path_id,
        TrainingPath.status != PathStatus.notAccepted.value,
    )
    return paths, accepted


_USAGE = select(*_usage_of(bindparam("module_id", type_=Integer)))


def exists_or_404(db: Session, *, module_id: int) -> None:
    if db.scalar(select(TrainingModule.id).where(TrainingModule.id == module_id)) is None:
        raise not_found(NOT_FOUND)


def usage(db: Session, *, module_id: int) -> ModuleUsage:
    paths, accepted = db.execute(_USAGE, {"module_id": module_id}).one()
    return ModuleUsage(training_path=paths, has_accepted_training_path=bool(accepted))


# Reading --------------------------------------------------------------------------------------------

_MODULE_COLUMNS = (
    TrainingModule.id,
    TrainingModule.name,
    TrainingModule.module_type,
    TrainingModule.goals,
    TrainingModule.estimated_duration,
    TrainingModule.periodicity,
    TrainingModule.pass_threshold,
    TrainingModule.enabled,
    TrainingModule.creator_id,
    TrainingModule.created_at,
    TrainingModule.version,
    Reference.code,
    Reference.label,
    Reference.description,
    User.display_name,
)
_PATHS, _ACCEPTED = _usage_of(TrainingModule.id)
# The module, its reference, its creator's name and its usage, in one statement built once.
_MODULE = (
    select(*_MODULE_COLUMNS, _PATHS, _ACCEPTED)
    .outerjoin(Reference, Reference.id == TrainingModule.reference_id)
    .outerjoin(User, User.id == TrainingModule.creator_id)
    .where(TrainingModule.id == bindparam("module_id", type_=Integer))
)
_ITEM_COLUMNS = (
    TrainingModuleItem.kind,
    TrainingModuleItem.spot_item_type,
    TrainingModuleItem.spot_item_id,
    TrainingModuleItem.title,
    TrainingModuleItem.description,
    TrainingModuleItem.url,
    TrainingModuleItem.label,
    TrainingModuleItem.lms_item_id,
    TrainingModuleItem.launch_mode,
)
_ITEMS = (
    select(*_ITEM_COLUMNS)
    .where(TrainingModuleItem.module_id == bindparam("module_id", type_=Integer))
    .order_by(TrainingModuleItem.position)
)


@dataclass(frozen=True)
class _Found:
    """An element's target as the lookup found it: a map item or subject (its cartography, and for a
    subject its activity, lead to its context; `readable`: the reader sees it), or a course item."""

    name: str
    cartography_id: int | None
    activity_id: int | None
    readable: bool
    course_id: int | None
    lms_kind: str | None


def _sees_site(viewer: Viewer) -> ColumnElement[bool]:
    """mapping.policy.sees_site, for a viewer of by_viewer: a site with no cartography yet, or one
    whose cartographies the viewer sees one of."""
    if viewer is EVERYONE:
        return true()
    of_site = select(Cartography.id).where(Cartography.site_id == Site.id)
    return or_(not_(exists(of_site)), exists(of_site.where(sees_cartography(viewer, Cartography.id))))


def _no_integer() -> Any:
    return cast(null(), Integer)


def _lookup_statement(viewer: Viewer) -> Any:
    """Rows (kind, id, name, cartography_id, activity_id, readable, course_id, lms_kind) of the map items
    and subjects of `<type>_ids` with whether the viewer sees each, and of the course items of
    `lms_ids` that still exist (resources and quizzes of courses not removed)."""

    def part(kind: str, model: Any, cartography_id: Any, activity_id: Any, readable: Any) -> Any:
        return select(
            # A literal of our own list of kinds, not a parameter: PostgreSQL types it as text.
            literal_column(f"'{kind}'", String).label("kind"),
            model.id.label("id"),
            model.name.label("name"),
            cartography_id.label("cartography_id"),
            activity_id.label("activity_id"),
            readable.label("readable"),
            _no_integer().label("course_id"),
            cast(null(), String).label("lms_kind"),
        ).where(in_ids(model.id, f"{kind}_ids"))

    course_items = (
        select(
            literal_column("'lms'", String),
            LmsItem.id,
            LmsItem.name,
            _no_integer(),
            _no_integer(),
            true(),
            LmsItem.course_id,
            LmsItem.kind,
        )
        .join(LmsCourse, LmsCourse.id == LmsItem.course_id)
        .where(
            in_ids(LmsItem.id, "lms_ids"),
            LmsItem.kind.in_(LMS_KINDS),
            LmsItem.removed_at.is_(None),
            LmsCourse.removed_at.is_(None),
        )
    )
    return union_all(
        part("site", Site, _no_integer(), _no_integer(), _sees_site(viewer)),
        part(
            "cartography",
            Cartography,
            Cartography.id,
            _no_integer(),
            sees_cartography(viewer, Cartography.id),
        ),
        part(
            "function",
            Function,
            Function.cartography_id,
            _no_integer(),
            sees_function(viewer, Function.id, Function.cartography_id),
        ),
        part(
            "activity",
            Activity,
            Activity.cartography_id,
            _no_integer(),
            sees_activity(viewer, Activity.id, Activity.cartography_id),
        ),
        part(
            "subject",
            Subject,
            Subject.cartography_id,
            Subject.activity_id,
            sees_subject(viewer, Subject.function_id, Subject.activity_id, Subject.cartography_id),
        ),
        course_items,
    )


# Built once, in a version for those who see the whole map and one for the others.
_LOOKUP = by_viewer(_lookup_statement)


def _lookup(
    db: Session, user: Principal, spot: Iterable[tuple[str, int]], lms_ids: Iterable[int]
) -> dict[tuple[str, int], _Found]:
    """The targets of these elements, by (kind, id), in one statement; unknown ones left out."""
    params: dict[str, Any] = {f"{kind.value}_ids": [] for kind in SpotItemType}
    for kind, item_id in spot:
        params[f"{kind}_ids"].append(item_id)
    params["lms_ids"] = list(lms_ids)
    if not any(params.values()):
        return {}
    params["viewer_id"] = user.id
    rows = db.execute(_LOOKUP.of(user), params).all()
    return {
        (kind, item_id): _Found(name, cartography_id, activity_id, bool(readable), course_id, lms_kind)
        for kind, item_id, name, cartography_id, activity_id, readable, course_id, lms_kind in rows
    }


def _context(paths: MapPaths, kind: str, item_id: int, found: _Found) -> list[Any]:
    """From the site down to the item's parent; a subject's through its activity."""
    if kind == SpotItemType.site:
        return []
    if kind == SpotItemType.cartography:
        return paths.cartography(item_id)[:1]
    if kind == SpotItemType.function:
        return paths.cartography(found.cartography_id)
    if kind == SpotItemType.activity:
        return (paths.activity(item_id) or [])[:-1]
    assert found.activity_id is not None
    return paths.activity(found.activity_id) or paths.cartography(found.cartography_id)


def resolved_items(db: Session, user: Principal, items: Sequence[Any]) -> list[dict[str, Any]]:
    """The elements as ModuleOut shows them to `user`: two statements for any number of them (the
    lookup, and the map's paths, which the process keeps while the map does not change)."""
    spot = [(item.spot_item_type, item.spot_item_id) for item in items if item.kind == ItemKind.spot]
    lms_ids = [item.lms_item_id for item in items if item.kind == ItemKind.lms and item.lms_item_id]
    found = _lookup(db, user, spot, lms_ids)
    readable = {key: target for key, target in found.items() if key[0] != "lms" and target.readable}
    paths = None
    if readable:
        paths = mapping.map_paths(
            db,
            cartography_ids=(t.cartography_id for t in readable.values() if t.cartography_id is not None),
            activity_ids=[
                *(item_id for (kind, item_id) in readable if kind == SpotItemType.activity),
                *(t.activity_id for t in readable.values() if t.activity_id is not None),
            ],
        )
    out: list[dict[str, Any]] = []
    for item in items:
        if item.kind == ItemKind.spot:
            key = (item.spot_item_type, item.spot_item_id)
            target = readable.get(key)
            out.append(
                {
                    "type": "spot",
                    "spot_item_type": item.spot_item_type,
                    "spot_item_id": item.spot_item_id,
                    "name": target.name if target else None,
                    "context": _context(paths, *key, target) if paths and target else [],
                    "readable": target is not None,
                }
            )
        elif item.kind == ItemKind.lms:
            course_item = found.get(("lms", item.lms_item_id)) if item.lms_item_id else None
            out.append(
                {
                    "type": "lms",
                    "lms_course_id": item.lms_item_id,
                    "lms_type": course_item.lms_kind if course_item else None,
                    "name": course_item.name if course_item else None,
                    "course_id": course_item.course_id if course_item else None,
                    "found": course_item is not None,
                    "launch_mode": item.launch_mode or LaunchMode.normal,
                }
            )
        elif item.kind == ItemKind.mediation:
            out.append({"type": "mediation", "title": item.title, "description": item.description})
        else:
            out.append({"type": "url", "url": item.url, "label": item.label})
    return out


def _reference(code: str | None, label: str | None, description: str | None) -> dict[str, str] | None:
    if code is None:
        return None
    return {"code": code, "label": label or "", "description": description or ""}


def read(db: Session, *, user: Principal, module_id: int) -> ModuleOut:
    """The module page: 404 trainingModuleNotFound for an unknown id. Four statements whatever the
    number of elements: the module (with its reference, creator and usage), its elements, their
    targets, the map's paths (or none of the last two when no element needs them)."""
    row = db.execute(_MODULE, {"module_id": module_id}).first()
    if row is None:
        raise not_found(NOT_FOUND)
    items = db.execute(_ITEMS, {"module_id": module_id}).all()
    (
        _id,
        name,
        module_type,
        goals,
        duration,
        periodicity,
        threshold,
        enabled,
        creator_id,
        created_at,
        version,
        code,
        label,
        description,
        creator_name,
        paths,
        accepted,
    ) = row
    used = ModuleUsage(training_path=paths, has_accepted_training_path=bool(accepted))
    return ModuleOut.model_validate(
        {
            "id": module_id,
            "name": name,
            "module_type": module_type,
            "reference": _reference(code, label, description),
            "goals": goals,
            "estimated_duration": duration,
            "periodicity": periodicity,
            "pass_threshold": threshold,
            "enabled": bool(enabled),
            "creation": {"user_id": creator_id, "user_name": creator_name or "", "date": created_at},
            "version": version,
            "usage": used,
            "can": policy.can(user, used),
            "module_items": resolved_items(db, user, items),
        }
    )


# The form ---------------------------------------------------------------------------------------------

# An element as stored: the values of these columns of training_module_item.
_STORED = (
    "kind",
    "spot_item_type",
    "spot_item_id",
    "title",
    "description",
    "url",
    "label",
    "lms_item_id",
    "launch_mode",
)
Stored = tuple[Any, ...]


def _text_error(value: str, rule: TextRule) -> str | None:
    """The message key of the general text rule that `value` breaks, if any."""
    try:
        rule(value)
    except PydanticCustomError as error:
        return error.type
    return None


def _is_web_address(value: str) -> bool:
    """An absolute http or https address with a host, and nothing a browser would not take as typed."""
    if any(character.isspace() for character in value):
        return False
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 (raises on a bad port)
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)


def _stored(kind: ItemKind, **values: Any) -> Stored:
    return tuple(kind.value if name == "kind" else values.get(name) for name in _STORED)


def _check_items(
    db: Session, user: Principal, data: ModuleSave, kept: set[tuple[str, int]]
) -> tuple[list[Stored], list[FieldError]]:
    """The elements as stored, and the errors of the form's element list, each named
    `moduleItems[i]` (an unknown target) or `moduleItems[i].<field>` (a text). A spot element names an
    existing map item or subject that the author sees, or one the module already holds (`kept`: an
    author may edit a module whose other elements they cannot see); an lms element an existing
    resource or quiz of the learning platform (lms.service.existing_items)."""
    errors: list[FieldError] = []
    stored: list[Stored] = []

    def text(index: int, field: str, value: str, rule: TextRule = _TEXT) -> None:
        code = _text_error(value, rule)
        if code:
            errors.append(FieldError(field=f"moduleItems[{index}].{field}", code=code))

    for index, item in enumerate(data.module_items):
        if isinstance(item, SpotItemIn):
            kind = item.spot_item_type.value
            stored.append(_stored(ItemKind.spot, spot_item_type=kind, spot_item_id=item.spot_item_id))
        elif isinstance(item, MediationItemIn):
            text(index, "title", item.title)
            text(index, "description", item.description, _MULTILINE)
            stored.append(_stored(ItemKind.mediation, title=item.title, description=item.description))
        elif isinstance(item, UrlItemIn):
            text(index, "url", item.url)
            if not _text_error(item.url, _TEXT) and not _is_web_address(item.url):
                errors.append(FieldError(field=f"moduleItems[{index}].url", code="notAValidUrl"))
            text(index, "label", item.label)
            stored.append(_stored(ItemKind.url, url=item.url, label=item.label))
        else:
            assert isinstance(item, LmsItemIn)
            stored.append(
                _stored(ItemKind.lms, lms_item_id=item.lms_course_id, launch_mode=item.launch_mode.value)
            )
    spot = [(s[1], s[2]) for s in stored if s[0] == ItemKind.spot]
    lms_ids = [s[7] for s in stored if s[0] == ItemKind.lms]
    found = _lookup(db, user, spot, ())
    course_items = lms.existing_items(db, lms_ids) if lms_ids else {}
    for index, s in enumerate(stored):
        if s[0] == ItemKind.spot:
            target = found.get((s[1], s[2]))
            if target is None or not (target.readable or (s[1], s[2]) in kept):
                errors.append(FieldError(field=f"moduleItems[{index}]", code=INVALID))
        elif s[0] == ItemKind.lms and s[7] not in course_items:
            errors.append(FieldError(field=f"moduleItems[{index}]", code=INVALID))
    return stored, errors


def _validate(
    db: Session,
    user: Principal,
    data: ModuleSave,
    *,
    current_reference_id: int | None = None,
    kept: set[tuple[str, int]] | None = None,
) -> tuple[int | None, list[Stored]]:
    """The reference's id and the elements as stored, or 400 atLeastOneErrorLeft naming every
    faulty field (the schema checked the others)."""
    errors: list[FieldError] = []
    reference_id = None
    try:
        reference_id = references.resolve(
            db, type=ReferenceType.module, code=data.reference, current_id=current_reference_id
        )
    except ApiError as error:
        errors += error.errors
    stored, item_errors = _check_items(db, user, data, kept or set())
    errors += item_errors
    if errors:
        raise ApiError(400, "atLeastOneErrorLeft", errors)
    return reference_id, stored


def _insert_items(db: Session, module_id: int, stored: Sequence[Stored]) -> None:
    rows = [
        {"module_id": module_id, "position": position, **dict(zip(_STORED, values, strict=True))}
        for position, values in enumerate(stored)
    ]
    db.execute(insert(TrainingModuleItem), rows)


def create(db: Session, *, user: Principal, data: ModuleSave) -> int:
    """A new module, enabled, the user its creator; returns its id."""
    ensure(policy.can_manage(user))
    reference_id, stored = _validate(db, user, data)
    module = TrainingModule(
        name=data.name,
        module_type=data.module_type.value,
        reference_id=reference_id,
        goals=data.goals,
        estimated_duration=data.estimated_duration,
        periodicity=data.periodicity,
        pass_threshold=data.pass_threshold,
        enabled=True,
        creator_id=user.id,
        created_at=utcnow(),
        version=1,
    )
    db.add(module)
    db.flush()
    _insert_items(db, module.id, stored)
    log.info("training module created module_id=%s by user_id=%s", module.id, user.id)
    return module.id


def _load(db: Session, module_id: int) -> TrainingModule:
    """The module, its row locked until the end of the transaction (PostgreSQL; SQLite has one
    writer anyway); 404 when unknown."""
    statement = (
        select(TrainingModule).where(TrainingModule.id == module_id).execution_options(populate_existing=True)
    )
    if db.get_bind().dialect.name == "postgresql":
        statement = statement.with_for_update()
    module = db.scalar(statement)
    if module is None:
        raise not_found(NOT_FOUND)
    return module


def _write(db: Session, module: TrainingModule, values: dict[str, Any], *, expected_version: int) -> None:
    """UPDATE the row with `values` and version + 1 where the version is still the one read; 409
    staleVersion when a concurrent write moved it."""
    result = db.execute(
        update_statement(TrainingModule)
        .where(TrainingModule.id == module.id, TrainingModule.version == expected_version)
        .values(**values, version=TrainingModule.version + 1)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount == 0:  # type: ignore[attr-defined]
        raise conflict(STALE_VERSION)


def update(db: Session, *, user: Principal, module_id: int, data: ModuleUpdate) -> None:
    """The form: 409 trainingModuleUsedByAcceptedPath once a path using the module was accepted, 409
    staleVersion for a stale version, then the form's rules (400). A save that changes nothing writes
    nothing (no new version). Without a version the save applies over the module as it is now."""
    module = _load(db, module_id)
    policy.ensure_editable(user, usage(db, module_id=module.id))
    expected_version = module.version if data.version is None else data.version
    if expected_version != module.version:
        raise conflict(STALE_VERSION)
    current: list[Stored] = [tuple(row) for row in db.execute(_ITEMS, {"module_id": module.id})]
    kept = {(row[1], row[2]) for row in current if row[0] == ItemKind.spot}
    reference_id, stored = _validate(db, user, data, current_reference_id=module.reference_id, kept=kept)
    wanted: dict[str, Any] = {
        "name": data.name,
        "module_type": data.module_type.value,
        "reference_id": reference_id,
        "goals": data.goals,
        "estimated_duration": data.estimated_duration,
        "periodicity": data.periodicity,
        "pass_threshold": data.pass_threshold,
    }
    values = {column: value for column, value in wanted.items() if getattr(module, column) != value}
    for text in ("name", "goals"):
        if text in values:
            values[f"{text}_folded"] = fold(values[text])
    items_changed = current != stored
    if not values and not items_changed:
        return
    _write(db, module, values, expected_version=expected_version)
    if items_changed:
        db.execute(delete(TrainingModuleItem).where(TrainingModuleItem.module_id == module.id))
        _insert_items(db, module.id, stored)
        for listener in _ITEMS_LISTENERS:
            listener(db, module.id)
    log.info("training module updated module_id=%s by user_id=%s", module.id, user.id)


# What others count of a module's elements (the paths assigning it show their number), told when they change.
ItemsListener = Callable[[Session, int], None]
_ITEMS_LISTENERS: list[ItemsListener] = []


def on_items_changed(listener: ItemsListener) -> None:
    """`listener(db, module_id)` runs in the transaction that changed the module's elements
    (training.paths.elements registers how the paths assigning it count them)."""
    _ITEMS_LISTENERS.append(listener)


def set_enabled(db: Session, *, user: Principal, module_id: int, enabled: bool) -> None:
    """Enable or disable, whatever uses the module (a disabled one cannot be added to a new path);
    the same state again writes nothing."""
    module = _load(db, module_id)
    ensure(policy.can_set_enabled(user))
    if module.enabled != enabled:
        _write(db, module, {"enabled": enabled}, expected_version=module.version)


def delete_module(db: Session, *, user: Principal, module_id: int) -> None:
    """409 trainingModuleInUse while a path uses the module (the database refuses it too)."""
    module = _load(db, module_id)
    policy.ensure_deletable(user, usage(db, module_id=module.id))
    db.execute(delete(TrainingModule).where(TrainingModule.id == module.id))
    log.info("training module deleted module_id=%s by user_id=%s", module.id, user.id)


# Names and search -------------------------------------------------------------------------------------


def names(db: Session, *, ids: Sequence[int]) -> list[ModuleName]:
    """The modules of these ids, in the order given; unknown ids left out."""
    wanted = list(dict.fromkeys(ids))
    if not wanted:
        return []
    rows = db.execute(
        select(TrainingModule.id, TrainingModule.name).where(in_ids(TrainingModule.id, "ids")),
        {"ids": wanted},
    )
    found = dict(rows.all())
    return [ModuleName(id=i, name=found[i]) for i in wanted if i in found]


def search(db: Session, *, name: str, enabled: bool | None) -> list[ModuleFound]:
    """At most SEARCH_LIMIT modules whose name contains `name` (case and accents ignored), enabled or
    disabled ones only when `enabled` says so, by name."""
    statement = (
        select(
            TrainingModule.id,
            TrainingModule.name,
            TrainingModule.module_type,
            TrainingModule.enabled,
            Reference.code,
            Reference.label,
            Reference.description,
        )
        .outerjoin(Reference, Reference.id == TrainingModule.reference_id)
        .where(TrainingModule.name_folded.contains(fold(name.strip()), autoescape=True))
        .order_by(TrainingModule.name_folded, TrainingModule.id)
        .limit(SEARCH_LIMIT)
    )
    if enabled is not None:
        statement = statement.where(TrainingModule.enabled.is_(enabled))
    return [
        ModuleFound.model_validate(
            {
                "id": module_id,
                "name": module_name,
                "module_type": module_type,
                "enabled": bool(is_enabled),
                "reference": _reference(code, label, description),
            }
        )
        for module_id, module_name, module_type, is_enabled, code, label, description in db.execute(statement)
    ]


# The list's cards ---------------------------------------------------------------------------------------

CARD_COLUMNS: tuple[Any, ...] = (
    TrainingModule.id,
    TrainingModule.name,
    TrainingModule.module_type,
    TrainingModule.goals,
    TrainingModule.estimated_duration,
    TrainingModule.periodicity,
    TrainingModule.pass_threshold,
    TrainingModule.enabled,
    TrainingModule.creator_id,
    TrainingModule.created_at,
)
# What a page's cards add to its rows, in one statement for the page: reference, creator's name and
# number of elements of each module.
_CARD_EXTRAS = (
    select(
        TrainingModule.id,
        Reference.code,
        Reference.label,
        Reference.description,
        User.display_name,
        select(func.count())
        .where(TrainingModuleItem.module_id == TrainingModule.id)
        .correlate(TrainingModule)
        .scalar_subquery(),
    )
    .outerjoin(Reference, Reference.id == TrainingModule.reference_id)
    .outerjoin(User, User.id == TrainingModule.creator_id)
    .where(in_ids(TrainingModule.id, "ids"))
)


def card_fields(db: Session, rows: Sequence[Any]) -> list[dict[str, Any]]:
    """ModuleCard of each row of CARD_COLUMNS as JSON-ready data (camelCase keys)."""
    if not rows:
        return []
    extras = {row[0]: row[1:] for row in db.execute(_CARD_EXTRAS, {"ids": [row[0] for row in rows]})}
    cards = []
    for row in rows:
        (module_id, name, module_type, goals, duration, periodicity, threshold, enabled, creator, at) = row
        code, label, description, creator_name, item_count = extras.get(module_id, (None,) * 4 + (0,))
        cards.append(
            {
                "id": module_id,
                "name": name,
                "moduleType": module_type,
                "reference": _reference(code, label, description),
                "goals": goals,
                "estimatedDuration": duration,
                "periodicity": periodicity,
                "passThreshold": threshold,
                "enabled": bool(enabled),
                "creation": {"userId": creator, "userName": creator_name or "", "date": at},
                "itemCount": item_count,
            }
        )
    return cards
