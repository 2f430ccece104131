"""Field registry: which fields each entity type offers to filters and sorts, and their SQL."""

import builtins
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sqlalchemy import ColumnElement

from spot.querylang.tree import SortKey, Value


class FieldType(StrEnum):
    STRING = "string"
    BOOLEAN = "boolean"
    DATE = "date"
    ENUM = "enum"
    ID = "id"
    LOCATION = "location"


OPERATORS: dict[FieldType, tuple[str, ...]] = {
    FieldType.STRING: ("contains", "startsWith", "endsWith", "equals", "different"),
    FieldType.BOOLEAN: ("equals",),
    FieldType.DATE: ("sameDay", "before", "beforeOrSameDay", "after", "afterOrSameDay"),
    FieldType.ENUM: ("oneOf", "noneOf"),
    FieldType.ID: ("oneOf", "noneOf"),
    FieldType.LOCATION: ("oneOf", "noneOf"),
}
LIST_TYPES = frozenset({FieldType.ENUM, FieldType.ID, FieldType.LOCATION})
UNSORTABLE_TYPES = frozenset({FieldType.ID, FieldType.LOCATION})

Matcher = Callable[[tuple[Any, ...]], ColumnElement[bool]]
ClauseBuilder = Callable[[str, Value], ColumnElement[bool]]


@dataclass(frozen=True)
class Field:
    """One field of an entity type.

    SQL comes from exactly one of:
    - `column`: a scalar SQL expression of the listed entity (a mapped attribute, a correlated
      scalar subquery, a boolean expression such as `Subject.followed_at.is_not(None)`);
      the compiler applies every operator of the type to it;
    - `matches` (enum, id, location): a function of the value tuple returning the clause
      "the entity has one of these values", e.g. an EXISTS over a link table; it must never be
      NULL, since noneOf is its negation;
    - `clause`: a function of (operator, value) returning the whole clause, for anything else.
    `sort_column` sorts on another expression than `column`.

    `folded` (string fields): a column the entity keeps equal to `text.fold(column)`. Filters and
    sorts then read it instead of computing unaccent_lower for every row (a Python function call
    per row on SQLite), and a plain index on it serves sorting, equals and startsWith; on
    PostgreSQL give the column the "C" collation, the order the compiler sorts text in.

    `trigrams` (with `folded`): the name of an SQLite FTS5 table with the trigram tokenizer over
    the entity's table (rowid = the primary key) that indexes the folded column under its own name
    (see migration 5b8e0c3f9a17), and on PostgreSQL of a table of the primary key and the folded
    columns with pg_trgm indexes, kept by a trigger (9e4b7c2d1f60). Counts of `contains` read it
    instead of matching every row (on PostgreSQL, the count of a lone `contains`).
    """

    name: str
    type: FieldType | str
    column: Any = None
    matches: Matcher | None = None
    clause: ClauseBuilder | None = None
    sort_column: Any = None
    folded: Any = None
    trigrams: str | None = None
    filterable: bool = True
    sortable: bool = False
    values: Sequence[str] = ()
    id_type: builtins.type = int

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", FieldType(self.type))
        object.__setattr__(self, "values", tuple(self.values))
        problem = self._problem()
        if problem:
            raise ValueError(f"query field {self.name!r}: {problem}")

    def _problem(self) -> str | None:
        if not self.name.isidentifier() or not self.name.isascii():
            return "the name must be an ASCII identifier"
        if not (self.filterable or self.sortable):
            return "a field must be filterable or sortable"
        sources = [s for s in (self.column, self.matches, self.clause) if s is not None]
        if self.filterable and len(sources) != 1:
            return "a filterable field needs exactly one of column, matches or clause"
        if self.matches is not None and self.type not in LIST_TYPES:
            return "matches is for enum, id and location fields"
        if self.type == FieldType.ENUM and not self.values:
            return "an enum field lists its values"
        if self.type != FieldType.ENUM and self.values:
            return "only enum fields list values"
        if self.folded is not None and self.type != FieldType.STRING:
            return "only string fields have a folded column"
        if self.trigrams is not None and self.folded is None:
            return "a trigram table indexes the folded column"
        if self.id_type not in (int, str):
            return "id_type is int or str"
        if self.sortable and self.type in UNSORTABLE_TYPES:
            return f"{self.type} fields cannot be sorted"
        if self.sortable and self.column is None and self.sort_column is None:
            return "a sortable field needs column or sort_column"
        return None

    @property
    def operators(self) -> tuple[str, ...]:
        return OPERATORS[FieldType(self.type)]

    @property
    def order_expression(self) -> Any:
        return self.sort_column if self.sort_column is not None else self.column


@dataclass(frozen=True)
class EntityType:
    """A listable entity: its name in URLs and saved filters, its primary key (the last sort key,
    so that pages are stable), its fields, and the sort used when a query names none."""

    name: str
    primary_key: Any
    fields: Sequence[Field]
    default_sort: Sequence[SortKey] = ()
    _by_name: dict[str, Field] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", tuple(self.fields))
        object.__setattr__(self, "default_sort", tuple(self.default_sort))
        by_name = {f.name: f for f in self.fields}
        if len(by_name) != len(self.fields):
            raise ValueError(f"entity type {self.name!r}: two fields share a name")
        object.__setattr__(self, "_by_name", by_name)
        for key in self.default_sort:
            if not (self.field(key.field) and by_name[key.field].sortable):
                raise ValueError(
                    f"entity type {self.name!r}: default sort on {key.field!r}, not a sortable field"
                )

    def field(self, name: str) -> Field | None:
        return self._by_name.get(name)


_registry: dict[str, EntityType] = {}


def register(entity: EntityType) -> EntityType:
    """Offer an entity type to queries, the /querylang routes and saved filters; once per name."""
    if entity.name in _registry:
        raise ValueError(f"entity type {entity.name!r} is already registered")
    _registry[entity.name] = entity
    return entity


def find_entity(name: str) -> EntityType | None:
    return _registry.get(name)


def get_entity(name: str) -> EntityType:
    entity = _registry.get(name)
    if entity is None:
        raise KeyError(f"no query entity type {name!r}; register() it first")
    return entity


def entity_names() -> list[str]:
    return sorted(_registry)
