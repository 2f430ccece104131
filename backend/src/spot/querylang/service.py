"""Running queries: parse, compile, count, sort and page, all in the database."""

from typing import Any

from sqlalchemy import ClauseElement, ColumnClause, Executable, Select, column, func, literal, select
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import Session
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.visitors import InternalTraversal

from spot.db import CUSTOM_PLAN, plain
from spot.querylang.compiler import compile_filter, compile_sort, trigram_match
from spot.querylang.fields import EntityType, get_entity
from spot.querylang.parser import parse_filter, parse_sort
from spot.querylang.tree import Criterion, Node, SortKey

DEFAULT_PAGE_SIZE = 50
# A list's plan depends on its filter's values: planned with them on every run (spot.db.CUSTOM_PLAN).
_PLANNED = {CUSTOM_PLAN: True}
MAX_PAGE_SIZE = 200


def run_query(
    db: Session,
    entity_type: str | EntityType,
    base_select: Select[Any],
    filter: str | Node | None = "",  # named as the request's field
    sort: str | tuple[SortKey, ...] = "",
    page: int = 1,
    page_size: int = DEFAULT_PAGE_SIZE,
) -> tuple[list[Any], int]:
    """One page of `base_select` (which selects the listed entity, already restricted to what the
    user may see) narrowed by the filter, in the sort's order, and the number of matching rows.
    The page holds what the select selects, as Session.scalars would: objects when it selects one
    entity or column, rows when it selects several columns.

    Texts are parsed here and a bad one raises QueryError (400). Pages start at 1.
    """
    if not 1 <= page_size <= MAX_PAGE_SIZE or page < 1:
        raise ValueError(f"page {page} of size {page_size} is out of range")
    entity = entity_type if isinstance(entity_type, EntityType) else get_entity(entity_type)
    tree = parse_filter(filter, entity) if isinstance(filter, str) else filter
    keys = parse_sort(sort, entity) if isinstance(sort, str) else sort
    query = base_select if tree is None else base_select.where(compile_filter(tree, entity))
    offset = (page - 1) * page_size
    order = compile_sort(keys, entity)
    # Written into the text, not bound: a statement that PostgreSQL's driver prepares (after five runs)
    # may get a plan made for any limit, a sort of every match where the index of the sort stops at 50.
    page_rows = query.order_by(*order).offset(literal(offset, literal_execute=True))
    page_rows = page_rows.limit(literal(page_size, literal_execute=True)).execution_options(**_PLANNED)
    if tree is not None and db.get_bind().dialect.name == "sqlite" and _sorts_every_match(db, page_rows):
        # The page reads and sorts every match anyway: count them in the same pass (a window over
        # the matches, before the limit) instead of a second pass for the count, and read the
        # page's keys only, then its rows: the sort then carries keys, not whole rows.
        keyed = query.with_only_columns(entity.primary_key, func.count().over()).order_by(*order)
        keyed = keyed.offset(literal(offset, literal_execute=True))
        keyed = keyed.limit(literal(page_size, literal_execute=True))
        found = plain(db).execute(keyed).all()  # keys need no ORM processing of their rows
        if not found:
            return [], _count(db, entity, base_select, query, tree) if offset else 0
        page_rows = base_select.where(entity.primary_key.in_([key for key, _ in found])).order_by(*order)
        return _rows(db, page_rows, query), found[0][1]
    rows = _rows(db, page_rows, query)
    if len(rows) < page_size and (rows or offset == 0):
        return rows, offset + len(rows)
    return rows, _count(db, entity, base_select, query, tree)


def _count(
    db: Session, entity: EntityType, base_select: Select[Any], query: Select[Any], tree: Node | None
) -> int:
    """How many rows `query` (the base select narrowed by the tree) lists."""
    counted = query
    on_sqlite = db.get_bind().dialect.name == "sqlite"
    # A `contains` is counted from the field's trigram table: on SQLite anywhere in the filter; on
    # PostgreSQL for a lone one (its pg_trgm index on the entity's own table serves the others).
    if tree is not None and (on_sqlite or (isinstance(tree, Criterion) and tree.operator == "contains")):
        where = compile_filter(tree, entity, counting=True)
        if isinstance(where, trigram_match) and _every_row(base_select, entity):
            # A lone `contains` over every row (a user who sees every cartography): the trigram
            # table holds exactly the table's rows, so its matches are counted without the rows.
            return int(plain(db).scalar(where.count_matches(db.get_bind().dialect.name)) or 0)
        if on_sqlite:
            counted = base_select.where(where)
    counting = select(func.count()).select_from(counted.order_by(None).subquery())
    return int(plain(db).scalar(counting.execution_options(**_PLANNED)) or 0)


def _every_row(base_select: Select[Any], entity: EntityType) -> bool:
    """Whether the base select lists every row of the entity's table: no condition, no join.
    Read from the select's parts: get_final_froms() would build an ORM compile state of the whole
    select, at every count (docs/performance.md gives both costs)."""
    table = entity.primary_key.table
    return (
        base_select.whereclause is None
        and not base_select._setup_joins  # joins (Select.join)
        and not base_select._from_obj  # explicit FROM (Select.select_from)
        and all(from_.compare(table) for from_ in base_select.columns_clause_froms)
    )


def _rows(db: Session, statement: Select[Any], query: Select[Any]) -> list[Any]:
    descriptions = query.column_descriptions
    if any(isinstance(d["expr"], type) for d in descriptions):  # ORM entities: the session loads them
        result = db.execute(statement)
    else:
        result = plain(db).execute(statement)
    return list(result.scalars() if len(descriptions) == 1 else result)


class query_plan(Executable, ClauseElement):  # named in lower case, as SQL constructs are
    """SQLite's EXPLAIN QUERY PLAN of a statement: rows of (id, parent, notused, detail)."""

    inherit_cache = True
    _traverse_internals = [("statement", InternalTraversal.dp_clauseelement)]

    def __init__(self, statement: Select[Any]) -> None:
        self.statement = statement

    @property
    def _all_selected_columns(self) -> list[ColumnClause[Any]]:
        return _PLAN_COLUMNS


_PLAN_COLUMNS: list[ColumnClause[Any]] = [column(name) for name in ("id", "parent", "notused", "detail")]


@compiles(query_plan, "sqlite")
def _query_plan(element: query_plan, compiler: SQLCompiler, **kw: Any) -> str:
    return f"EXPLAIN QUERY PLAN {compiler.process(element.statement, **kw)}"


def _sorts_every_match(db: Session, page_rows: Select[Any]) -> bool:
    """Whether SQLite's plan for the page sorts all the matches in a temporary tree (as opposed to
    walking an index in the sort's order, which stops at the end of the page)."""
    return any(row[3] == "USE TEMP B-TREE FOR ORDER BY" for row in db.execute(query_plan(page_rows)))
