"""The standardized mind map (docs/mind-map.md): standardizing a subject keeps a read-only copy of its tree
(StandardizedMindMap, one per subject, replaced by the next standardization); reading it gives the
copy and the differences of the live tree against it."""

from collections import defaultdict
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session, aliased

from spot.core.errors import not_found
from spot.core.principal import Principal
from spot.db import UtcDateTime, plain
from spot.mapping.models import MindMapItem, Subject
from spot.subjects.mindmap.schemas import (
    Difference,
    DifferenceKind,
    StandardizedMindMapOut,
    StandardizedNode,
)
from spot.subjects.models import StandardizedMindMap
from spot.subjects.schemas import Contributor
from spot.users.models import User

Node = dict[str, Any]

_PARENT = aliased(MindMapItem)
# The live tree as StandardizedNode data: {code, parentCode, position, name, text, status}.
_TREE = (
    select(
        MindMapItem.code,
        _PARENT.code.label("parent_code"),
        MindMapItem.position,
        MindMapItem.name,
        MindMapItem.text,
        MindMapItem.status,
    )
    .outerjoin(_PARENT, _PARENT.id == MindMapItem.parent_id)
    .where(MindMapItem.subject_id == bindparam("subject_id"))
)


def _in_tree_order(nodes: list[Node]) -> list[Node]:
    """Roots first (the main node, then any node without a parent), each followed by its subtree,
    siblings by position then code; nodes whose parent is missing come last, as roots."""
    codes = {n["code"] for n in nodes}
    children: dict[int | None, list[Node]] = defaultdict(list)
    for node in nodes:
        parent = node["parentCode"] if node["parentCode"] in codes else None
        children[parent].append(node)
    for siblings in children.values():
        siblings.sort(key=lambda n: (n["parentCode"] is not None, n["position"], n["code"]))
    ordered: list[Node] = []
    stack = list(reversed(children[None]))
    while stack:
        node = stack.pop()
        ordered.append(node)
        stack.extend(reversed(children.get(node["code"], [])))
    return ordered


def live_tree(db: Session, subject_id: int) -> list[Node]:
    rows = plain(db).execute(_TREE, {"subject_id": subject_id}).all()
    return _in_tree_order(
        [
            {
                "code": code,
                "parentCode": parent_code,
                "position": position,
                "name": name,
                "text": text,
                "status": status,
            }
            for code, parent_code, position, name, text, status in rows
        ]
    )


def _keeping(upsert: Any) -> Any:
    table = StandardizedMindMap.__table__
    values = {
        "subject_id": bindparam("subject_id"),
        "standardized_at": bindparam("standardized_at", type_=UtcDateTime),
        "standardized_by": bindparam("standardized_by"),
        "nodes": bindparam("nodes", type_=table.c.nodes.type),
    }
    statement = upsert(table).values(**values)
    return statement.on_conflict_do_update(
        index_elements=[table.c.subject_id],
        set_={key: value for key, value in values.items() if key != "subject_id"},
    )


_KEEP = {"postgresql": _keeping(pg_insert), "sqlite": _keeping(sqlite_insert)}


def keep_copy(db: Session, *, user: Principal, subject: Subject) -> None:
    """Store the subject's tree as it is now as its standardized copy, replacing an older one (one
    statement, safe when two users standardize at once)."""
    assert subject.standardized_at is not None
    params = {
        "subject_id": subject.id,
        "standardized_at": subject.standardized_at,
        "standardized_by": user.id,
        "nodes": live_tree(db, subject.id),
    }
    plain(db).execute(_KEEP[db.get_bind().dialect.name], params)


# What differs, in the order the kinds are listed.
_COMPARED: tuple[tuple[DifferenceKind, tuple[str, ...]], ...] = (
    ("renamed", ("name",)),
    ("textChanged", ("text",)),
    ("statusChanged", ("status",)),
    ("moved", ("parentCode", "position")),
)


def differences(live: list[Node], copy: list[Node]) -> list[Difference]:
    """The nodes of the live tree that differ from the copy, by code: added (live only), removed (copy
    only), or what changed of a node in both."""
    now = {n["code"]: n for n in live}
    then = {n["code"]: n for n in copy}
    out = []
    for code in sorted(now.keys() | then.keys()):
        if code not in then:
            kinds: list[DifferenceKind] = ["added"]
        elif code not in now:
            kinds = ["removed"]
        else:
            kinds = [
                kind
                for kind, keys in _COMPARED
                if any(now[code].get(key) != then[code].get(key) for key in keys)
            ]
        if kinds:
            out.append(Difference(code=code, kinds=kinds))
    return out


def read(db: Session, *, subject: Subject) -> StandardizedMindMapOut:
    """The copy and what changed since (the caller read the subject, which checks its visibility);
    404 notStandardized without a copy."""
    kept = db.get(StandardizedMindMap, subject.id)
    if kept is None:
        raise not_found("notStandardized")
    by = None
    if kept.standardized_by is not None:
        name = db.scalar(select(User.display_name).where(User.id == kept.standardized_by))
        by = Contributor(id=kept.standardized_by, name=name or "")
    copy = list(kept.nodes)
    return StandardizedMindMapOut(
        standardized_at=kept.standardized_at,
        standardized_by=by,
        comment=subject.standardized_comment,
        nodes=[StandardizedNode.model_validate(n) for n in copy],
        differences=differences(live_tree(db, subject.id), copy),
    )
