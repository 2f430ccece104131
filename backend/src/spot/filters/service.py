from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from spot.core.errors import ApiError, FieldError, conflict
from spot.core.principal import Principal
from spot.filters.models import SavedFilter, SavedFilterSet
from spot.filters.schemas import SavedFilterIn
from spot.querylang import EntityType, QueryError, find_entity, parse_filter, parse_sort
from spot.querylang.text import fold


def list_for(db: Session, *, user: Principal) -> dict[str, tuple[int, list[SavedFilter]]]:
    """The user's saved filters by entity type, in the order they were saved, with their version. An
    entity type whose filters were saved then all removed is there, with no filter."""
    versions = db.execute(
        select(SavedFilterSet.entity_type, SavedFilterSet.version).where(SavedFilterSet.user_id == user.id)
    ).tuples()
    grouped: dict[str, tuple[int, list[SavedFilter]]] = {
        entity_type: (version, []) for entity_type, version in versions
    }
    rows = db.scalars(
        select(SavedFilter)
        .where(SavedFilter.user_id == user.id)
        .order_by(SavedFilter.entity_type, SavedFilter.position, SavedFilter.id)
    )
    for row in rows:
        grouped.setdefault(row.entity_type, (0, []))[1].append(row)
    return dict(sorted(grouped.items()))


def replace(
    db: Session, *, user: Principal, entity_type: str, filters: list[SavedFilterIn], version: int | None
) -> None:
    """Replaces the user's filters of one entity type. `version`: the one the client's list came from
    (0 when it had none); when another save came first, 409 staleVersion instead of erasing it. None:
    the save applies whatever came before (a client that sends no version, as the spec's does)."""
    entity = find_entity(entity_type)
    if entity is None:
        raise ApiError(400, "unknownEntityType", [FieldError(field="entityType", code="invalidValue")])
    errors = _problems(entity, filters)
    if errors:
        raise ApiError(400, errors[0].code, errors)
    _bump(db, user_id=user.id, entity_type=entity_type, version=version)
    db.execute(
        delete(SavedFilter).where(SavedFilter.user_id == user.id, SavedFilter.entity_type == entity_type)
    )
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


def _bump(db: Session, *, user_id: int, entity_type: str, version: int | None) -> None:
    """Move the version from `version` to the next, in one statement that checks it: of two saves
    from the same version, the second finds it moved (or the first version inserted) and changes
    nothing, on either database, whatever the interleaving. None moves it from whatever it is."""
    insert = pg_insert if db.get_bind().dialect.name == "postgresql" else sqlite_insert
    key = [SavedFilterSet.user_id, SavedFilterSet.entity_type]
    statement: Any
    if version is None:
        new = insert(SavedFilterSet).values(user_id=user_id, entity_type=entity_type, version=1)
        statement = new.on_conflict_do_update(
            index_elements=key, set_={"version": SavedFilterSet.version + 1}
        )
    elif version == 0:
        statement = (
            insert(SavedFilterSet)
            .values(user_id=user_id, entity_type=entity_type, version=1)
            .on_conflict_do_nothing(index_elements=key)
        )
    else:
        statement = (
            update(SavedFilterSet)
            .where(
                SavedFilterSet.user_id == user_id,
                SavedFilterSet.entity_type == entity_type,
                SavedFilterSet.version == version,
            )
            .values(version=version + 1)
        )
    if db.execute(statement.returning(SavedFilterSet.version)).first() is None:
        raise conflict("staleVersion")


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
