"""Trees to SQLAlchemy: a WHERE clause and an ORDER BY, the same SQL on SQLite and PostgreSQL.

Strings compare through unaccent_lower (see text.py) with NULL read as "". Time stamps compare
with the UTC bounds of the organisation's calendar day, so an index on the column serves them;
calendar-date columns compare directly. Sorting puts NULL dates last in both directions, sorts
text by code point of its folded form (COLLATE "C" on PostgreSQL, SQLite's default), and always
ends with the primary key so that pages never overlap.
"""

from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import (
    Boolean,
    ColumnElement,
    Date,
    DateTime,
    Select,
    String,
    TypeDecorator,
    and_,
    bindparam,
    cast,
    column,
    false,
    func,
    literal_column,
    not_,
    or_,
    select,
    table,
)
from sqlalchemy import Enum as SqlEnum
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import FunctionElement
from sqlalchemy.sql.visitors import InternalTraversal

from spot.config import get_settings
from spot.querylang.fields import LIST_TYPES, EntityType, Field, FieldType
from spot.querylang.text import SQL_FUNCTION, fold
from spot.querylang.tree import And, Criterion, Node, SortKey

ColumnLike = Any


class codepoint_order(FunctionElement[str]):  # named in lower case, as SQL functions are
    """Its argument, compared by code point: PostgreSQL's default collation would order text by
    the server's locale, SQLite's is already binary."""

    name = "codepoint_order"
    type = String()
    inherit_cache = True


@compiles(codepoint_order)
def _codepoint_order(element: codepoint_order, compiler: SQLCompiler, **kw: Any) -> str:
    return compiler.process(element.clauses, **kw)


@compiles(codepoint_order, "postgresql")
def _codepoint_order_postgresql(element: codepoint_order, compiler: SQLCompiler, **kw: Any) -> str:
    return f'({compiler.process(element.clauses, **kw)}) COLLATE "C"'


class in_query(ColumnElement[bool]):  # named in lower case, as SQL constructs are
    """`column IN (query)`, for `matches` of fields whose values lead to a set of ids through other
    tables (a hierarchy, a link table). PostgreSQL gets `column = ANY(ARRAY(query))`: the query then
    runs once, first, and its result is an index condition that can join others in an OR, where an
    IN (subquery) inside an OR makes it filter every row of the table."""

    inherit_cache = True
    type = Boolean()
    _is_implicitly_boolean = True  # a condition as it is, not compared with true on SQLite
    _traverse_internals = [
        ("column", InternalTraversal.dp_clauseelement),
        ("query", InternalTraversal.dp_clauseelement),
    ]

    def __init__(self, column: ColumnLike, query: Select[Any]) -> None:
        self.column = column
        self.query = query


@compiles(in_query)
def _in_query(element: in_query, compiler: SQLCompiler, **kw: Any) -> str:
    return f"{compiler.process(element.column, **kw)} IN ({compiler.process(element.query, **kw)})"


@compiles(in_query, "postgresql")
def _in_query_postgresql(element: in_query, compiler: SQLCompiler, **kw: Any) -> str:
    return f"{compiler.process(element.column, **kw)} = ANY(ARRAY({compiler.process(element.query, **kw)}))"


class trigram_match(ColumnElement[bool]):  # named in lower case, as SQL constructs are
    """The rows whose folded text contains `value`, answered from the field's trigram table.

    SQLite: its FTS5 table, `key IN (SELECT rowid FROM trigrams WHERE trigrams.column MATCH '"value"')`,
    a phrase of three characters or more matching exactly the texts that hold it (as LIKE '%value%'
    does). PostgreSQL: only count_matches, on the table of the same name (migration 9e4b7c2d1f60);
    other counts keep the LIKE, which its pg_trgm index on the entity's own table serves."""

    inherit_cache = True
    type = Boolean()
    _is_implicitly_boolean = True
    _traverse_internals = [
        ("row_key", InternalTraversal.dp_clauseelement),
        ("phrase", InternalTraversal.dp_clauseelement),
        ("trigrams", InternalTraversal.dp_string),
        ("trigrams_column", InternalTraversal.dp_string),
    ]

    def __init__(self, row_key: ColumnLike, trigrams: str, column: str, value: str) -> None:
        self.row_key = row_key
        self.trigrams = trigrams
        self.trigrams_column = column
        self.value = value
        self.phrase = bindparam(None, '"' + value.replace('"', '""') + '"', type_=String())

    def count_matches(self, dialect_name: str) -> Select[Any]:
        """How many rows of the trigram table match, all rows of the entity's table alike."""
        trigrams = table(self.trigrams, column(self.trigrams_column))
        text = trigrams.c[self.trigrams_column]
        matches: ColumnElement[bool] = text.op("MATCH")(self.phrase)
        if dialect_name != "sqlite":
            matches = _string(text, "contains", self.value)
        return select(func.count()).select_from(trigrams).where(matches)


@compiles(trigram_match, "sqlite")
def _trigram_match_sqlite(element: trigram_match, compiler: SQLCompiler, **kw: Any) -> str:
    table, column = element.trigrams, element.trigrams_column
    return (
        f"{compiler.process(element.row_key, **kw)} IN (SELECT rowid FROM {table} "
        f"WHERE {table}.{column} MATCH {compiler.process(element.phrase, **kw)})"
    )


def compile_filter(node: Node, entity: EntityType, *, counting: bool = False) -> ColumnElement[bool]:
    """The WHERE clause of a tree. `counting`: for the count of a list, where `contains` reads a
    field's trigram table (trigram_match); a page's own query keeps the LIKE, since SQLite would then
    start from the table's matches and sort them all, where walking the index of the sort stops at
    the page's end."""
    if isinstance(node, Criterion):
        field = entity.field(node.field)
        if field is None:
            raise ValueError(f"{entity.name} has no field {node.field!r}")
        clause = _criterion(field, node)
        if counting and field.trigrams and node.operator == "contains":
            value = fold(str(node.value))
            if len(value) >= 3:  # shorter phrases match nothing in a trigram table
                return trigram_match(entity.primary_key, field.trigrams, field.folded.key, value)
        return clause
    parts = [compile_filter(child, entity, counting=counting) for child in node.children]
    return and_(*parts) if isinstance(node, And) else or_(*parts)


def compile_sort(keys: tuple[SortKey, ...], entity: EntityType) -> list[ColumnElement[Any]]:
    """ORDER BY clauses for the keys (the entity's default sort when there are none), then the key."""
    clauses: list[ColumnElement[Any]] = []
    for key in keys or entity.default_sort:
        field = entity.field(key.field)
        if field is None:
            raise ValueError(f"{entity.name} has no field {key.field!r}")
        expression = _sort_expression(field)
        ordered = expression.desc() if key.descending else expression.asc()
        clauses.append(ordered.nulls_last() if field.type == FieldType.DATE else ordered)
    clauses.append(entity.primary_key.asc())
    return clauses


def folded(expression: ColumnLike) -> ColumnElement[str]:
    """The comparable form of a text column, for filters and sorts alike, so that one PostgreSQL
    expression index on it serves equality, prefixes and order: `(unaccent_lower(col) COLLATE "C")`,
    with `coalesce(col, '')` inside for a nullable column."""
    return codepoint_order(getattr(func, SQL_FUNCTION)(_blank_if_null(expression), type_=String()))


def _criterion(field: Field, criterion: Criterion) -> ColumnElement[bool]:
    operator, value = criterion.operator, criterion.value
    if field.clause is not None:
        return field.clause(operator, value)
    if field.type in LIST_TYPES:
        assert isinstance(value, tuple)
        return _membership(field, operator, value)
    if field.type == FieldType.STRING:
        assert isinstance(value, str)
        return _string(_folded_text(field), operator, fold(value))
    if field.type == FieldType.BOOLEAN:
        return field.column.is_(True) if value else field.column.is_not(True)
    assert isinstance(value, date)
    return _date(field.column, operator, value)


def _folded_text(field: Field, expression: ColumnLike = None) -> ColumnElement[str]:
    """The folded form of a string field (of `expression`, a sort column, when given): the
    field's maintained folded column when it has one, else computed by unaccent_lower."""
    if field.folded is not None and (expression is None or expression is field.column):
        return codepoint_order(field.folded)
    return folded(field.column if expression is None else expression)


_LAST_CODE_POINT = chr(0x10FFFF)


def _next_code_point(char: str) -> str:
    following = ord(char) + 1
    return chr(0xE000 if 0xD800 <= following <= 0xDFFF else following)  # no text holds a surrogate


def _string(text: ColumnElement[str], operator: str, value: str) -> ColumnElement[bool]:
    if operator == "equals":
        return text == value
    if operator == "different":
        return text != value
    if operator == "startsWith" and value and value[-1] < _LAST_CODE_POINT:
        # As a range, [value, value with its last character incremented): both databases compare text by
        # code point here, and an index serves a range where SQLite's LIKE, ignoring case, cannot use one.
        return and_(text >= value, text < value[:-1] + _next_code_point(value[-1]))
    # A whole pattern as one parameter (not concatenated in SQL) lets PostgreSQL use an index for prefixes.
    literal = value.replace("/", "//").replace("%", "/%").replace("_", "/_")
    pattern = {"contains": f"%{literal}%", "startsWith": f"{literal}%", "endsWith": f"%{literal}"}[operator]
    return text.like(pattern, escape="/")


def _membership(field: Field, operator: str, values: tuple[Any, ...]) -> ColumnElement[bool]:
    if field.matches is not None:
        clause = field.matches(values)
        return clause if operator == "oneOf" else not_(clause)
    column = field.column
    if operator == "oneOf":
        return column.in_(values)
    outside = column.not_in(values)
    return or_(column.is_(None), outside) if _nullable(column) else outside


def _date(column: ColumnLike, operator: str, day: date) -> ColumnElement[bool]:
    if _is_calendar_date(column):
        return {
            "sameDay": lambda: column == day,
            "before": lambda: column < day,
            "beforeOrSameDay": lambda: column <= day,
            "after": lambda: column > day,
            "afterOrSameDay": lambda: column >= day,
        }[operator]()
    start, end = _day_bounds(day)
    present = column.is_not(None)
    at_or_after_start = present if start is None else column >= start
    before_end = present if end is None else column < end
    if operator == "sameDay":
        return and_(at_or_after_start, before_end)
    if operator == "before":
        return false() if start is None else column < start
    if operator == "beforeOrSameDay":
        return before_end
    if operator == "after":
        return false() if end is None else column >= end
    return at_or_after_start


def _day_bounds(day: date) -> tuple[datetime | None, datetime | None]:
    """[start, end) of the calendar day in the organisation's zone, in UTC; None past the ends of time."""
    zone = ZoneInfo(get_settings().timezone)

    def midnight(of: date) -> datetime | None:
        try:
            return datetime.combine(of, time(), zone).astimezone(UTC)
        except OverflowError:
            return None

    try:
        following = day + timedelta(days=1)
    except OverflowError:
        return midnight(day), None
    return midnight(day), midnight(following)


def _sort_expression(field: Field) -> ColumnElement[Any]:
    expression = field.order_expression
    if field.type == FieldType.STRING:
        return _folded_text(field, expression)
    if field.type == FieldType.ENUM:
        if isinstance(getattr(expression, "type", None), SqlEnum):
            expression = cast(expression, String)  # a PostgreSQL enum type has no collation
        return codepoint_order(_blank_if_null(expression))
    if field.type == FieldType.BOOLEAN:
        return expression.is_(True)
    return expression


def _blank_if_null(expression: ColumnLike) -> ColumnLike:
    # A literal, not a parameter, so that the expression can match an index's.
    return func.coalesce(expression, literal_column("''")) if _nullable(expression) else expression


def _nullable(expression: ColumnLike) -> bool:
    column = getattr(expression, "expression", expression)
    return bool(getattr(column, "nullable", True))


def _is_calendar_date(expression: ColumnLike) -> bool:
    kind = getattr(expression, "type", None)
    if isinstance(kind, TypeDecorator):
        kind = kind.impl_instance
    return isinstance(kind, Date) and not isinstance(kind, DateTime)
