"""A test-only entity type with a field of every kind, its tables, and a plain-Python evaluator
of filter trees and sorts that the SQL compiler is checked against."""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from functools import cmp_to_key
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import (
    Boolean,
    Column,
    Date,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    exists,
    insert,
    select,
)
from sqlalchemy.orm import Session

from spot import db as database
from spot.config import get_settings
from spot.db import UtcDateTime
from spot.querylang import And, Criterion, EntityType, Field, FieldType, Node, SortKey
from spot.querylang.text import fold

metadata = MetaData()
widget = Table(
    "ql_widget",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("name", String(100), nullable=False),
    # fold(name), kept by Widget.row(): `name` is filtered and sorted through a maintained folded column
    # (Field.folded), `note` through unaccent_lower computed in the query.
    Column("name_folded", String(100).with_variant(String(100, collation="C"), "postgresql"), nullable=False),
    Column("note", String(100)),
    Column("active", Boolean),
    Column("created_at", UtcDateTime),
    Column("due", Date),
    Column("status", String(20)),
    Column("owner_id", Integer),
    Column("code", String(20)),
)
widget_tag = Table(
    "ql_widget_tag",
    metadata,
    Column("widget_id", ForeignKey("ql_widget.id", ondelete="CASCADE"), primary_key=True),
    Column("tag_id", Integer, primary_key=True),
)
widget_place = Table(
    "ql_widget_place",
    metadata,
    Column("widget_id", ForeignKey("ql_widget.id", ondelete="CASCADE"), primary_key=True),
    Column("item_id", Integer, primary_key=True),
)

STATUSES = ("draft", "open", "on_hold", "closed")

WIDGET = EntityType(
    name="ql_widget",
    primary_key=widget.c.id,
    fields=[
        Field("name", FieldType.STRING, column=widget.c.name, folded=widget.c.name_folded, sortable=True),
        Field("note", FieldType.STRING, column=widget.c.note, sortable=True),
        Field("active", FieldType.BOOLEAN, column=widget.c.active, sortable=True),
        Field("created", FieldType.DATE, column=widget.c.created_at, sortable=True),
        Field("due", FieldType.DATE, column=widget.c.due, sortable=True),
        Field("status", FieldType.ENUM, column=widget.c.status, values=STATUSES, sortable=True),
        Field("owner", FieldType.ID, column=widget.c.owner_id),
        Field("code", FieldType.ID, column=widget.c.code, id_type=str),
        Field(
            "tag",
            FieldType.ID,
            matches=lambda ids: exists().where(
                widget_tag.c.widget_id == widget.c.id, widget_tag.c.tag_id.in_(ids)
            ),
        ),
        Field(
            "location",
            FieldType.LOCATION,
            matches=lambda ids: exists().where(
                widget_place.c.widget_id == widget.c.id, widget_place.c.item_id.in_(ids)
            ),
        ),
        Field("has_note", FieldType.BOOLEAN, column=widget.c.note.is_not(None)),
        Field("rank", FieldType.STRING, column=widget.c.code, filterable=False, sortable=True),
    ],
    default_sort=[SortKey("name")],
)


@dataclass
class Widget:
    id: int
    name: str
    note: str | None = None
    active: bool | None = None
    created_at: datetime | None = None
    due: date | None = None
    status: str | None = None
    owner_id: int | None = None
    code: str | None = None
    tags: set[int] = field(default_factory=set)
    places: set[int] = field(default_factory=set)

    def row(self) -> dict[str, Any]:
        columns = ("id", "name", "note", "active", "created_at", "due", "status", "owner_id", "code")
        return {**{k: getattr(self, k) for k in columns}, "name_folded": fold(self.name)}


@contextmanager
def widget_tables() -> Iterator[None]:
    engine = database.get_engine()
    metadata.drop_all(engine)
    metadata.create_all(engine)
    try:
        yield
    finally:
        metadata.drop_all(engine)


@contextmanager
def rolled_back_session(widgets: list[Widget]) -> Iterator[Session]:
    """A session seeing exactly these widgets, all undone on exit."""
    with database.get_engine().connect() as connection:
        transaction = connection.begin()
        if widgets:
            connection.execute(insert(widget), [w.row() for w in widgets])
        tags = [{"widget_id": w.id, "tag_id": t} for w in widgets for t in w.tags]
        places = [{"widget_id": w.id, "item_id": p} for w in widgets for p in w.places]
        if tags:
            connection.execute(insert(widget_tag), tags)
        if places:
            connection.execute(insert(widget_place), places)
        session = Session(bind=connection)
        try:
            yield session
        finally:
            session.close()
            transaction.rollback()


def ids_of(
    session: Session,
    filter: str | Node | None = "",
    sort: str | tuple[SortKey, ...] = "",
    page: int = 1,
    page_size: int = 200,
) -> tuple[list[int], int]:
    from spot.querylang import run_query

    rows, total = run_query(session, WIDGET, select(widget.c.id), filter, sort, page, page_size)
    return list(rows), total


# ----- the plain-Python meaning of a tree ---------------------------------------------------------


def _local_day(moment: datetime) -> date:
    return moment.astimezone(ZoneInfo(get_settings().timezone)).date()


def _string_value(w: Widget, name: str) -> str | None:
    return {"name": w.name, "note": w.note, "rank": w.code}[name]


def holds(node: Node, w: Widget) -> bool:
    if isinstance(node, And):
        return all(holds(c, w) for c in node.children)
    if not isinstance(node, Criterion):
        return any(holds(c, w) for c in node.children)
    op, value = node.operator, node.value
    if node.field in ("name", "note"):
        text, wanted = fold(_string_value(w, node.field) or ""), fold(str(value))
        return {
            "contains": wanted in text,
            "startsWith": text.startswith(wanted),
            "endsWith": text.endswith(wanted),
            "equals": text == wanted,
            "different": text != wanted,
        }[op]
    if node.field in ("active", "has_note"):
        actual = bool(w.active) if node.field == "active" else w.note is not None
        return actual == value
    if node.field in ("created", "due"):
        moment = w.created_at if node.field == "created" else w.due
        if moment is None:
            return False
        day = _local_day(moment) if isinstance(moment, datetime) else moment
        assert isinstance(value, date)
        return {
            "sameDay": day == value,
            "before": day < value,
            "beforeOrSameDay": day <= value,
            "after": day > value,
            "afterOrSameDay": day >= value,
        }[op]
    assert isinstance(value, tuple)
    held: set[Any] = {
        "status": {w.status},
        "owner": {w.owner_id},
        "code": {w.code},
        "tag": w.tags,
        "location": w.places,
    }[node.field]
    found = bool(held & set(value))
    return found if op == "oneOf" else not found


def _sort_value(w: Widget, name: str) -> Any:
    if name in ("name", "note", "rank"):
        return fold(_string_value(w, name) or "")
    if name == "active":
        return bool(w.active)
    if name == "status":
        return w.status or ""
    return w.created_at if name == "created" else w.due


def ordered(widgets: list[Widget], keys: tuple[SortKey, ...]) -> list[Widget]:
    """Sorted as the compiler promises: NULL dates last either way, then by id."""

    def compare(a: Widget, b: Widget) -> int:
        for key in keys or WIDGET.default_sort:
            x, y = _sort_value(a, key.field), _sort_value(b, key.field)
            if x == y:
                continue
            if x is None or y is None:
                return 1 if x is None else -1
            result = -1 if x < y else 1
            return -result if key.descending else result
        return -1 if a.id < b.id else (1 if a.id > b.id else 0)

    return sorted(widgets, key=cmp_to_key(compare))


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)
