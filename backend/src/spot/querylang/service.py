"""Running queries: parse, compile, count, sort and page, all in the database."""

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Engine, Select, func, select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from spot.querylang.compiler import compile_filter, compile_sort
from spot.querylang.fields import EntityType, get_entity
from spot.querylang.parser import parse_filter, parse_sort
from spot.querylang.tree import Node, SortKey

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 200


T = TypeVar("T")


def _rows(rows: list[Any]) -> Any:
    return rows


async def run_query(
    db: Session,
    entity_type: str | EntityType,
    base_select: Select[Any],
    filter: str | Node | None = "",  # noqa: A002 (the name of the request field)
    sort: str | tuple[SortKey, ...] = "",
    page: int = 1,
    page_size: int = DEFAULT_PAGE_SIZE,
    shape: Callable[[list[Any]], T] = _rows,
) -> tuple[T, int]:
    """One page of `base_select` (which selects the listed entity, already restricted to what the
    user may see) narrowed by the filter, in the sort's order, and the number of matching rows.
    The page holds what the select selects, as Session.scalars would: objects when it selects one
    entity or column, rows when it selects several columns.

    Texts are parsed here and a bad one raises QueryError (400). Pages start at 1.

    `shape` turns the page into what the caller answers (cards, say); it runs while the count does.
    The count is often the dearer statement (it reads every match where the page stops at 50).
    When the session is bound to the engine, it runs on a connection of its own in the thread
    pool, in parallel with the page and with `shape` (both databases work without holding Python's
    lock): it counts what is committed, so list before writing anything in the request. A session
    bound to one connection (a test's transaction) counts in it.
    """
    if not 1 <= page_size <= MAX_PAGE_SIZE or page < 1:
        raise ValueError(f"page {page} of size {page_size} is out of range")
    entity = entity_type if isinstance(entity_type, EntityType) else get_entity(entity_type)
    tree = parse_filter(filter, entity) if isinstance(filter, str) else filter
    keys = parse_sort(sort, entity) if isinstance(sort, str) else sort
    query = base_select if tree is None else base_select.where(compile_filter(tree, entity))
    counting = select(func.count()).select_from(query.order_by(None).subquery())
    bind = db.get_bind()
    parallel = None
    if isinstance(bind, Engine):
        parallel = asyncio.ensure_future(run_in_threadpool(_count, bind, counting))
    try:
        offset = (page - 1) * page_size
        result = db.execute(query.order_by(*compile_sort(keys, entity)).offset(offset).limit(page_size))
        rows = list(result.scalars() if len(query.column_descriptions) == 1 else result)
        shaped = shape(rows)
    finally:
        total = await parallel if parallel is not None else None
    if len(rows) < page_size and (rows or offset == 0):
        return shaped, offset + len(rows)  # the list ends on this page: what it shows is the count
    return shaped, int(total if total is not None else db.scalar(counting) or 0)


def _count(engine: Engine, counting: Select[Any]) -> int:
    with engine.connect() as connection:
        return int(connection.scalar(counting) or 0)
