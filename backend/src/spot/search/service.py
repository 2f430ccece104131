"""The global search (spec 1 §2): cartographies, functions, subjects and mind-map nodes whose name
holds the text, whatever the case and accents ("mediation" finds "Médiation").

Both sides are folded (querylang.text.fold); the database finds the matches from indexes, never a
scan in Python:
- a text of 3 folded characters or more is looked for anywhere in the name, from the trigram table of
  each table, `<table>_trigrams` (subjects: migrations 5b8e0c3f9a17 and 9e4b7c2d1f60; the others:
  98d571949f0e): an FTS5 phrase on SQLite (quoted, so that no character of the text is FTS syntax), a
  LIKE with its wildcards escaped on PostgreSQL (pg_trgm);
- a text of 1 or 2 characters, which no trigram can serve, finds the names that BEGIN with it: a range
  on a b-tree of the folded name (subject.name_folded; an index on unaccent_lower(name) on SQLite, the
  trigram table's name_folded on PostgreSQL for the others).

Only what the user may read is found and counted (mapping.policy); the statements are built once per
category, mode and database, in the two versions of policy.by_viewer. Each category answers its newest
matches first for a text of 3 characters or more (by id, descending: the order the trigram indexes
give without ranking every match), alphabetically for a prefix (the b-tree's order), and its count, exact
up to COUNTED: one statement per category reads its first COUNTED + 1 matches.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import Integer, String, bindparam, func, select, table
from sqlalchemy import column as sql_column
from sqlalchemy.orm import Session

from spot.core.principal import Principal
from spot.db import CUSTOM_PLAN
from spot.mapping import service as mapping
from spot.mapping.models import Cartography, Function, MindMapItem, NodeStatus, Subject
from spot.mapping.policy import (
    EVERYONE,
    ByViewer,
    Viewer,
    by_viewer,
    sees_cartography,
    sees_function,
    sees_subject,
)
from spot.mapping.schemas import ContextEntry
from spot.querylang.text import fold
from spot.search.schemas import Category, CategoryResults, SearchOut, SearchResult, Span

CATEGORIES: tuple[Category, ...] = ("cartographies", "functions", "subjects", "nodes")
COLLAPSED, EXPANDED = 5, 30  # results per category (spec 1 §9)
MAX_TEXT = 200
# Matches counted per category at most; beyond, the count says "more than 100". A popup shows 30 at
# most, and counting a common word's 50,000 nodes cost more than the whole search may (DESIGN §8).
COUNTED = 100
TRIGRAM = 3  # the shortest folded text the trigram tables can find anywhere in a name
PREFIX_END = "\U0010ffff"  # after every character: [text, text + PREFIX_END) holds what begins with text

PHRASE = bindparam("phrase", type_=String)
PATTERN = bindparam("pattern", type_=String)
LOW = bindparam("low", type_=String)
HIGH = bindparam("high", type_=String)


@dataclass(frozen=True)
class _Kind:
    model: Any
    trigrams: str  # the trigram table of the model's folded name
    columns: tuple[Any, ...]
    visible: Callable[[Viewer], Any]
    subject_of_node: bool = False


_KINDS: dict[Category, _Kind] = {
    "cartographies": _Kind(
        Cartography,
        "cartography_trigrams",
        (Cartography.id, Cartography.code, Cartography.name),
        lambda viewer: sees_cartography(viewer, Cartography.id),
    ),
    "functions": _Kind(
        Function,
        "function_trigrams",
        (Function.id, Function.code, Function.name, Function.cartography_id),
        lambda viewer: sees_function(viewer, Function.id, Function.cartography_id),
    ),
    "subjects": _Kind(
        Subject,
        "subject_trigrams",
        (Subject.id, Subject.code, Subject.name, Subject.function_id, Subject.activity_id),
        lambda viewer: sees_subject(viewer, Subject.function_id, Subject.activity_id, Subject.cartography_id),
    ),
    "nodes": _Kind(
        MindMapItem,
        "mind_map_item_trigrams",
        (
            MindMapItem.id,
            MindMapItem.code,
            MindMapItem.name,
            MindMapItem.status,
            Subject.id.label("subject_id"),
            Subject.code.label("subject_code"),
            Subject.name.label("subject_name"),
            Subject.function_id,
            Subject.activity_id,
        ),
        lambda viewer: sees_subject(viewer, Subject.function_id, Subject.activity_id, Subject.cartography_id),
        subject_of_node=True,
    ),
}


def _trigrams(kind: _Kind) -> Any:
    return table(
        kind.trigrams, sql_column("rowid", Integer), sql_column("id", Integer), sql_column("name_folded")
    )


@dataclass(frozen=True)
class _Match:
    """How a category's matches are read: from `source` (the trigram table, or the model itself for
    a prefix on its own index), whose `key` is the model's id, where `found`, in the index's order."""

    source: Any
    key: Any
    found: Any
    order: tuple[Any, ...]


def _match(kind: _Kind, dialect: str, prefix: bool) -> _Match:
    trigrams = _trigrams(kind)
    if prefix:  # alphabetical, as the b-tree holds them
        if kind.model is Subject:
            folded: Any = Subject.name_folded
            source, key = Subject, Subject.id
        elif dialect == "sqlite":
            folded = func.unaccent_lower(kind.model.name)  # the model's expression index
            source, key = kind.model, kind.model.id
        else:
            folded, source, key = trigrams.c.name_folded, trigrams, trigrams.c.id
        return _Match(source, key, (folded >= LOW) & (folded < HIGH), (folded, key))
    # newest first: FTS5 walks its rowids backwards and stops at the limit; PostgreSQL plans with the
    # pattern (CUSTOM_PLAN): the primary key backwards for a common text, the pg_trgm index for a rare one
    if dialect == "sqlite":
        key, found = trigrams.c.rowid, trigrams.c.name_folded.op("MATCH")(PHRASE)
    else:
        key, found = trigrams.c.id, trigrams.c.name_folded.like(PATTERN, escape="\\")
    return _Match(trigrams, key, found, (key.desc(),))


@cache
def _statement(category: Category, dialect: str, prefix: bool) -> ByViewer:
    """The category's first COUNTED + 1 matches, in the index's order: the results are the first
    `limit` of them, and their number is the count (up to COUNTED, "more" beyond). One statement
    reads both, so that the index is searched once. Built once: composing it costs more than running it."""
    kind = _KINDS[category]
    match = _match(kind, dialect, prefix)

    def build(viewer: Viewer) -> Any:
        statement = select(*kind.columns).select_from(match.source)
        if match.source is not kind.model:
            statement = statement.join(kind.model, kind.model.id == match.key)
        if kind.subject_of_node:
            statement = statement.join(Subject, Subject.id == MindMapItem.subject_id)
        statement = statement.where(match.found)
        if viewer is not EVERYONE:
            statement = statement.where(kind.visible(viewer))
        statement = statement.order_by(*match.order).limit(COUNTED + 1)
        return statement.execution_options(**{CUSTOM_PLAN: True})

    return by_viewer(build)


def _escape_like(value: str) -> str:
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _parameters(folded: str, user: Principal) -> dict[str, Any]:
    return {
        "phrase": '"' + folded.replace('"', '""') + '"',  # an FTS5 string: every character literal
        "pattern": "%" + _escape_like(folded) + "%",
        "low": folded,
        "high": folded + PREFIX_END,
        "viewer_id": user.id,
    }


def spans(name: str, folded_text: str, *, prefix: bool = False) -> list[Span]:
    """Where `folded_text` occurs in `name` (folded alike), in the characters of `name` as shown: a
    ligature folds to two letters, and a match that takes one of them covers the ligature."""
    if not folded_text:
        return []
    folded_name, owner = "", []  # owner[i]: the character of `name` that folded character i comes from
    for index, character in enumerate(name):
        piece = fold(character)
        folded_name += piece
        owner += [index] * len(piece)
    found: list[Span] = []
    start = folded_name.find(folded_text)
    while start >= 0:
        first, last = owner[start], owner[start + len(folded_text) - 1]
        if found and first <= found[-1].start + found[-1].length - 1:
            first = found[-1].start + found[-1].length  # never two spans over one character
        if first <= last:
            found.append(Span(start=first, length=last - first + 1))
        if prefix:
            break
        start = folded_name.find(folded_text, start + len(folded_text))
    return found


def search(
    db: Session, *, user: Principal, text: str, limit: int, category: Category | None = None
) -> SearchOut:
    """The first `limit` results of each category (or of `category` alone) and their counts."""
    folded = fold(text.strip())
    prefix = len(folded) < TRIGRAM
    dialect = db.get_bind().dialect.name
    parameters = _parameters(folded, user)
    found: dict[Category, tuple[list[Any], int]] = {}
    for name in (category,) if category else CATEGORIES:
        rows = db.execute(_statement(name, dialect, prefix).of(user), parameters).all()
        found[name] = (list(rows[:limit]), len(rows))

    paths = mapping.map_paths(
        db,
        cartography_ids=[row.id for row in found.get("cartographies", ([], 0))[0]],
        function_ids=[
            *(row.id for row in found.get("functions", ([], 0))[0]),
            *(row.function_id for name in ("subjects", "nodes") for row in found.get(name, ([], 0))[0]),
        ],
        activity_ids=[
            row.activity_id for name in ("subjects", "nodes") for row in found.get(name, ([], 0))[0]
        ],
    )

    def subject_context(function_id: int, activity_id: int) -> list[ContextEntry]:
        """Site, cartography, activities (top-level first), function."""
        through_activity = paths.activity(activity_id) or []
        through_function = paths.function(function_id) or []
        return [*through_activity, *through_function[2:]] if through_activity else through_function

    def result(name: Category, row: Any) -> SearchResult:
        if name == "cartographies":
            context, kind, code = paths.cartography(row.id)[:1], "cartography", row.code
        elif name == "functions":
            context, kind, code = paths.cartography(row.cartography_id), "function", row.code
        elif name == "subjects":
            context, kind, code = subject_context(row.function_id, row.activity_id), "subject", row.code
        else:
            subject = ContextEntry(
                id=row.subject_id, code=row.subject_code, name=row.subject_name, type="subject"
            )
            context = [*subject_context(row.function_id, row.activity_id), subject]
            kind, code = "mindmapNode", str(row.code)
        return SearchResult(
            id=row.id,
            type=kind,  # type: ignore[arg-type]
            code=code,
            name=row.name,
            context=context,
            matches=spans(row.name, folded, prefix=prefix),
            status=NodeStatus(row.status) if name == "nodes" else None,
        )

    return SearchOut(
        **{
            name: CategoryResults(
                results=[result(name, row) for row in rows],
                total_items=min(total, COUNTED),
                more=total > COUNTED,
            )
            for name, (rows, total) in found.items()
        }
    )
