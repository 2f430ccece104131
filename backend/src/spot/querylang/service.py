"""Running queries: parse, compile, count, sort and page, all in the database."""

from typing import Any

from sqlalchemy import Select, func, literal, select
from sqlalchemy.orm import Session

from spot.querylang.compiler import compile_filter, compile_sort
from spot.querylang.fields import EntityType, get_entity
from spot.querylang.parser import parse_filter, parse_sort
from spot.querylang.tree import Node, SortKey

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 200


def run_query(
    db: Session,
    entity_type: str | EntityType,
    base_select: Select[Any],
    filter: str | Node | None = "",  # noqa: A002 (the name of the request field)
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
    # Written into the text, not bound: a statement that PostgreSQL's driver prepares (after five runs)
    # may get a plan made for any limit, a sort of every match where the index of the sort stops at 50.
    page_rows = query.order_by(*compile_sort(keys, entity)).offset(literal(offset, literal_execute=True))
    result = db.execute(page_rows.limit(literal(page_size, literal_execute=True)))
    rows = list(result.scalars() if len(query.column_descriptions) == 1 else result)
    if len(rows) < page_size and (rows or offset == 0):
        return rows, offset + len(rows)
    counted = base_select if tree is None else base_select.where(compile_filter(tree, entity, counting=True))
    total = db.scalar(select(func.count()).select_from(counted.order_by(None).subquery()))
    return rows, int(total or 0)
