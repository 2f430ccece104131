import hashlib
import json
from collections import defaultdict

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from spot.core.errors import ApiError, FieldError, conflict
from spot.filters.models import SavedFilter
from spot.filters.schemas import SavedFilterIn
from spot.querylang import EntityType, QueryError, find_entity, parse_filter, parse_sort
from spot.querylang.text import fold
from spot.users.models import User


def list_for(db: Session, *, user: User) -> dict[str, list[SavedFilter]]:
    """The user's saved filters by entity type, in the order they were saved."""
    rows = db.scalars(
        select(SavedFilter)
        .where(SavedFilter.user_id == user.id)
        .order_by(SavedFilter.entity_type, SavedFilter.position, SavedFilter.id)
    )
    grouped: dict[str, list[SavedFilter]] = defaultdict(list)
    for row in rows:
        grouped[row.entity_type].append(row)
    return dict(grouped)


def version(db: Session, *, user: User) -> str:
    """A tag of all the user's saved filters (an ETag): it changes with any of them."""
    rows = db.execute(
        select(
            SavedFilter.entity_type,
            SavedFilter.name,
            SavedFilter.filter,
            SavedFilter.sorting,
            SavedFilter.is_default,
        )
        .where(SavedFilter.user_id == user.id)
        .order_by(SavedFilter.entity_type, SavedFilter.position, SavedFilter.id)
    ).all()
    content = json.dumps([list(row) for row in rows], ensure_ascii=False).encode()
    return f'"{hashlib.sha256(content).hexdigest()[:32]}"'


def replace(
    db: Session, *, user: User, entity_type: str, filters: list[SavedFilterIn], expected: str | None = None
) -> None:
    """`expected`: the version the client's list came from (If-Match; "*" for any); when the filters
    changed since (another window saved), 409 staleVersion instead of erasing that change."""
    entity = find_entity(entity_type)
    if entity is None:
        raise ApiError(400, "unknownEntityType", [FieldError(field="entityType", code="invalidValue")])
    errors = _problems(entity, filters)
    if errors:
        raise ApiError(400, errors[0].code, errors)
    # Saves of one user wait for each other here (PostgreSQL; SQLite writes one at a time), so that
    # two of them cannot both pass the version check.
    db.execute(select(User.id).where(User.id == user.id).with_for_update())
    if expected not in (None, "*") and expected != version(db, user=user):
        raise conflict("staleVersion")
    db.execute(
        delete(SavedFilter).where(SavedFilter.user_id == user.id, SavedFilter.entity_type == entity_type)
    )
    db.flush()
    db.add_all(
        SavedFilter(
            user_id=user.id,
            entity_type=entity_type,
            position=index,
            name=item.name,
            filter=item.filter,
            sorting=item.sorting,
            is_default=item.is_default,
        )
        for index, item in enumerate(filters)
    )
    db.flush()


def _problems(entity: EntityType, filters: list[SavedFilterIn]) -> list[FieldError]:
    """Every broken rule, each on the field that breaks it: a criterion at least, texts that parse
    for the entity type, names unique (ignoring case and accents), one default at most."""
    errors: list[FieldError] = []
    names: set[str] = set()
    has_default = False
    for index, item in enumerate(filters):
        where = f"filters.{index}"
        try:
            if parse_filter(item.filter, entity) is None:
                errors.append(FieldError(field=f"{where}.filter", code="atLeastOneCriterion"))
        except QueryError as error:
            errors.append(error.for_field(f"{where}.filter").errors[0])
        try:
            parse_sort(item.sorting, entity)
        except QueryError as error:
            errors.append(error.for_field(f"{where}.sorting").errors[0])
        name = fold(item.name)
        if name in names:
            errors.append(FieldError(field=f"{where}.name", code="filterNameAlreadyUsed"))
        names.add(name)
        if item.is_default and has_default:
            errors.append(FieldError(field=f"{where}.isDefault", code="onlyOneDefaultFilter"))
        has_default = has_default or item.is_default
    return errors
