"""The subject's mind map: a tree of nodes whose root, the main node (code 0), gives subject cards
their status. Reading follows the subject's visibility (subjects.service.get). Every change of the
tree checks and bumps the tree's own version (Subject.mind_map_version) in one statement, sets
lastMindmapUpdate (other users see the subject unread again), records a `mindMapUpdated` history
entry and the writer's visit; a status change also writes `statusChanged` to the history and to
the subject's discussion."""

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from operator import itemgetter
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, exists, select, update
from sqlalchemy.orm import Session, aliased

from spot.core import history, parents
from spot.core.errors import ApiError, FieldError, conflict, ensure, not_found
from spot.core.history import Event
from spot.core.principal import Principal
from spot.core.time import utcnow
from spot.db import plain
from spot.discussions import service as discussions
from spot.discussions.service import SystemMessageType
from spot.mapping.models import MindMapItem, NodeStatus, Subject
from spot.subjects import policy
from spot.subjects import service as subjects
from spot.subjects.mindmap import diagram
from spot.subjects.mindmap.schemas import (
    MindMapChange,
    NodeCreate,
    NodeMove,
    NodeStatusChange,
    NodeUpdate,
)
from spot.subjects.models import StandardizedMindMap
from spot.users.models import User

MAIN = 0

# The tree -----------------------------------------------------------------------------------------


class Tree:
    """The nodes of one subject, read in the request's transaction, with their children by position."""

    def __init__(self, nodes: list[MindMapItem]) -> None:
        self.nodes = nodes
        self.by_code = {n.code: n for n in nodes}
        self.by_id = {n.id: n for n in nodes}
        self.children: dict[int | None, list[MindMapItem]] = defaultdict(list)
        for node in sorted(nodes, key=lambda n: (n.position, n.code)):
            self.children[node.parent_id].append(node)

    def node(self, code: int) -> MindMapItem:
        found = self.by_code.get(code)
        if found is None:
            raise not_found("mindMapNodeNotFound")
        return found

    def parent_code(self, node: MindMapItem) -> int | None:
        parent = self.by_id.get(node.parent_id) if node.parent_id is not None else None
        return parent.code if parent is not None else None

    def subtree(self, node: MindMapItem) -> list[MindMapItem]:
        """The node and its descendants, parents first."""
        out, stack, seen = [], [node], set()
        while stack:
            current = stack.pop()
            if current.id in seen:
                continue
            seen.add(current.id)
            out.append(current)
            stack.extend(reversed(self.children.get(current.id, [])))
        return out


def _tree(db: Session, subject_id: int) -> Tree:
    """The subject's nodes as they are now: read after the version's UPDATE, they include what a
    writer who committed just before wrote (populate_existing refreshes rows the session holds)."""
    nodes = db.scalars(
        select(MindMapItem)
        .where(MindMapItem.subject_id == subject_id)
        .execution_options(populate_existing=True)
    ).all()
    return Tree(list(nodes))


def _renumber(siblings: list[MindMapItem]) -> None:
    """Positions 0, 1, 2… in the list's order."""
    for index, node in enumerate(siblings):
        if node.position != index:
            node.position = index


def _insert(siblings: list[MindMapItem], node: MindMapItem, position: int | None) -> None:
    at = len(siblings) if position is None else min(position, len(siblings))
    siblings.insert(at, node)
    _renumber(siblings)


def _invalid(field: str) -> ApiError:
    return ApiError(400, "atLeastOneErrorLeft", [FieldError(field=field, code="invalidValue")])


# Reading ------------------------------------------------------------------------------------------

_CREATOR, _UPDATER = aliased(User), aliased(User)
# The nodes with their authors' names, in one statement of columns (no ORM objects: a tree may have
# hundreds of nodes, read on each opening of the page).
_NODES = (
    select(
        MindMapItem.id,
        MindMapItem.code,
        MindMapItem.parent_id,
        MindMapItem.position,
        MindMapItem.name,
        MindMapItem.text,
        MindMapItem.status,
        MindMapItem.created_by,
        _CREATOR.display_name.label("created_by_name"),
        MindMapItem.created_at,
        MindMapItem.updated_by,
        _UPDATER.display_name.label("updated_by_name"),
        MindMapItem.updated_at,
    )
    .outerjoin(_CREATOR, _CREATOR.id == MindMapItem.created_by)
    .outerjoin(_UPDATER, _UPDATER.id == MindMapItem.updated_by)
    .where(MindMapItem.subject_id == bindparam("subject_id"))
)


def _in_tree_order(rows: Sequence[Any]) -> list[Any]:
    """The main node first, then depth first: parents before children, siblings by position (then
    code). Nodes no path from the main node reaches (damaged legacy data) come last, by code. Rows are
    _NODES' tuples: (id, code, parent id, position, …)."""
    children: dict[int | None, list[Any]] = defaultdict(list)
    for row in sorted(rows, key=itemgetter(3, 1)):
        children[row[2]].append(row)
    out: list[Any] = []
    stack = [r for r in rows if r[1] == MAIN][:1]
    seen: set[int] = set()
    while stack:
        row = stack.pop()
        if row[0] in seen:
            continue
        seen.add(row[0])
        out.append(row)
        stack.extend(reversed(children.get(row[0], ())))
    return out + sorted((r for r in rows if r[0] not in seen), key=itemgetter(1))


def _statuses_under(rows: Sequence[Any]) -> dict[int, set[str]]:
    """The statuses of each node's subtree (the node included), which decide whether it may be
    deleted. Rows are _NODES' tuples in tree order; a node is counted once, so that damaged data
    looping on itself ends."""
    children: dict[int | None, list[int]] = defaultdict(list)
    for row in rows:
        children[row[2]].append(row[0])
    status_of = {row[0]: row[6] for row in rows}
    under: dict[int, set[str]] = {}
    entered: set[int] = set()
    for row in rows:
        stack = [(row[0], False)]
        while stack:
            node_id, children_done = stack.pop()
            if children_done:
                under[node_id] = {status_of[node_id]}.union(*(under.get(c, ()) for c in children[node_id]))
            elif node_id not in entered:
                entered.add(node_id)
                stack.append((node_id, True))
                stack.extend((c, False) for c in children[node_id])
    return under


def read(db: Session, *, user: Principal, subject_id: int) -> dict[str, Any]:
    """The tree and what the user may do with it, as MindMap's JSON; counts as a visit of the subject."""
    subject = subjects.get(db, user=user, subject_id=subject_id, nodes=False)
    rows = _in_tree_order(plain(db).execute(_NODES, {"subject_id": subject.id}).tuples().all())
    codes = {r[0]: r[1] for r in rows}
    under = _statuses_under(rows)
    nodes = [
        {
            "id": id_,
            "code": code,
            "parentCode": None if parent_id is None else codes.get(parent_id),
            "position": position,
            "name": name,
            "text": text,
            "status": status,
            "createdBy": None if created_by is None else {"id": created_by, "name": created_by_name or ""},
            "createdAt": created_at,
            "updatedBy": None if updated_by is None else {"id": updated_by, "name": updated_by_name or ""},
            "updatedAt": updated_at,
            "can": {
                "edit": policy.can_change_node(user, subject, status),
                "rename": policy.can_rename_node(user, subject, status, main=code == MAIN),
                "delete": code != MAIN and policy.can_delete_node(user, subject, under[id_]),
            },
        }
        for (
            id_,
            code,
            parent_id,
            position,
            name,
            text,
            status,
            created_by,
            created_by_name,
            created_at,
            updated_by,
            updated_by_name,
            updated_at,
        ) in rows
    ]
    standardized = bool(db.scalar(select(exists().where(StandardizedMindMap.subject_id == subject.id))))
    shown = diagram.view(subject)
    result = {
        "subjectId": subject.id,
        "subjectName": subject.name,
        "subjectCode": subject.code,
        "version": subject.mind_map_version,
        "lastMindmapUpdate": subject.last_mindmap_update,
        "standardized": standardized,
        "diagram": shown.model_dump(by_alias=True) if shown is not None else None,
        "nodes": nodes,
        "can": {
            "edit": policy.can_edit_mind_map(user, subject),
            "validate": policy.can_validate_mind_map(user, subject),
            "editDiagram": policy.can_edit_diagram(user, subject),
        },
    }
    subjects.record_visit(db, user=user, subject_id=subject.id)
    return result


# Writing ------------------------------------------------------------------------------------------


def _bump(db: Session, user: Principal, subject: Subject, version: int, now: datetime) -> int:
    """Check and bump the tree's version in one statement (a Core UPDATE: the subject form's
    `version` does not move); 409 staleVersion when another change came first. On PostgreSQL a
    concurrent writer waits here for the first one's commit, then finds the version moved."""
    table = cast(Table, Subject.__table__)
    result = plain(db).execute(
        update(table)
        .where(table.c.id == subject.id, table.c.mind_map_version == version)
        .values(mind_map_version=version + 1, last_mindmap_update=now, updated_by=user.id, updated_at=now)
    )
    if result.rowcount == 0:  # type: ignore[attr-defined]
        raise conflict("staleVersion")
    return version + 1


def _checked(db: Session, user: Principal, subject_id: int, version: int) -> tuple[Subject, int, datetime]:
    """The subject (404 / 403 as its page), the right to edit its tree, the version checked and bumped."""
    subject = subjects.get(db, user=user, subject_id=subject_id, nodes=False)
    ensure(policy.can_edit_mind_map(user, subject))
    now = utcnow()
    return subject, _bump(db, user, subject, version, now), now


def _begin(
    db: Session, user: Principal, subject_id: int, version: int
) -> tuple[Subject, Tree, int, datetime]:
    """As _checked, then the tree as it is now (for the changes of its shape)."""
    subject, new_version, now = _checked(db, user, subject_id, version)
    return subject, _tree(db, subject.id), new_version, now


def _node(db: Session, subject_id: int, code: int) -> MindMapItem:
    """One node as it is now (after the version's UPDATE), for the changes of one node; 404
    mindMapNodeNotFound."""
    node = db.scalar(
        select(MindMapItem)
        .where(MindMapItem.subject_id == subject_id, MindMapItem.code == code)
        .execution_options(populate_existing=True)
    )
    if node is None:
        raise not_found("mindMapNodeNotFound")
    return node


def _written(db: Session, user: Principal, subject: Subject, *events: Event) -> None:
    """The writer's visit (they saw their change; for others the subject is unread again), then the
    history entries (the order of subjects.service._tracked)."""
    db.flush()
    subjects.record_visit(db, user=user, subject_id=subject.id)
    for event in events:
        history.record(
            db,
            history.entry(
                user=user,
                item_type=subjects.ITEM_TYPE,
                item_id=subject.id,
                item_key=subject.code,
                item_name=subject.name,
                mode="W",
                event=event,
                cartography_id=subject.cartography_id,
            ),
        )
    subjects.changed(db, subject.id)


def _parent(subject: Subject) -> parents.Parent:
    return parents.Parent(subjects.ITEM_TYPE, subject.id, subject.code, subject.name, subject.cartography_id)


def _parent_for(tree: Tree, parent_code: int) -> MindMapItem:
    parent = tree.by_code.get(parent_code)
    if parent is None:
        raise _invalid("parentCode")
    return parent


def add(db: Session, *, user: Principal, subject_id: int, data: NodeCreate) -> MindMapChange:
    """A new node, `inProgress`, under `parentCode` at `position` (default: last). Its code follows
    the highest the tree ever had, so a deleted node's code is never given again."""
    subject, tree, version, now = _begin(db, user, subject_id, data.version)
    parent = _parent_for(tree, data.parent_code)
    code = max(max(tree.by_code, default=MAIN), subject.mind_map_last_code) + 1
    # An UPDATE statement, not the unit of work: the subject form's version does not move.
    db.execute(update(Subject).where(Subject.id == subject.id).values(mind_map_last_code=code))
    node = MindMapItem(
        subject_id=subject.id,
        code=code,
        name=data.name,
        text=data.text,
        status=NodeStatus.inProgress.value,
        parent_id=parent.id,
        position=0,
        created_by=user.id,
        created_at=now,
        updated_by=user.id,
        updated_at=now,
    )
    db.add(node)
    _insert(tree.children[parent.id], node, data.position)
    _written(db, user, subject, Event.mindMapUpdated)
    return MindMapChange(version=version, code=code)


def edit(db: Session, *, user: Principal, subject_id: int, code: int, data: NodeUpdate) -> MindMapChange:
    """A node's name and text. A validated node needs the right to validate too. The main node's name
    is the subject's: renaming it renames the subject, which needs the right to edit subjects too (and
    renaming the subject renames it, a database trigger)."""
    subject, version, now = _checked(db, user, subject_id, data.version)
    node = _node(db, subject.id, code)
    renamed = data.name != node.name
    main = node.code == MAIN
    ensure(
        policy.can_rename_node(user, subject, node.status, main=main)
        if renamed
        else policy.can_change_node(user, subject, node.status)
    )
    if main and renamed:
        subject.name = data.name
    node.name, node.text = data.name, data.text
    node.updated_by, node.updated_at = user.id, now
    _written(db, user, subject, Event.mindMapUpdated)
    return MindMapChange(version=version, code=code)


def move(db: Session, *, user: Principal, subject_id: int, code: int, data: NodeMove) -> MindMapChange:
    """A node and its subtree under another parent, or elsewhere among its siblings. The main node
    stays the root; a node cannot go under itself or a descendant."""
    subject, tree, version, now = _begin(db, user, subject_id, data.version)
    node = tree.node(code)
    parent = _parent_for(tree, data.parent_code)
    if node.code == MAIN or parent.id in {n.id for n in tree.subtree(node)}:
        raise _invalid("parentCode")
    old_siblings = tree.children[node.parent_id]
    old_siblings.remove(node)
    _renumber(old_siblings)
    node.parent_id = parent.id
    _insert(tree.children[parent.id], node, data.position)
    node.updated_by, node.updated_at = user.id, now
    _written(db, user, subject, Event.mindMapUpdated)
    return MindMapChange(version=version, code=code)


def remove(db: Session, *, user: Principal, subject_id: int, code: int, version: int) -> MindMapChange:
    """A node and its subtree; the main node cannot be deleted (409 mainNodeCannotBeDeleted). A subtree
    holding a validated node needs the right to validate too."""
    subject, tree, new_version, _now = _begin(db, user, subject_id, version)
    node = tree.node(code)
    if node.code == MAIN:
        raise conflict("mainNodeCannotBeDeleted")
    ensure(policy.can_delete_node(user, subject, {n.status for n in tree.subtree(node)}))
    siblings = tree.children[node.parent_id]
    siblings.remove(node)
    _renumber(siblings)
    doomed = [n.id for n in tree.subtree(node)]
    db.flush()
    # In one statement, whether or not the database cascades the parent's foreign key.
    db.execute(
        delete(MindMapItem).where(MindMapItem.id.in_(doomed)).execution_options(synchronize_session="fetch")
    )
    _written(db, user, subject, Event.mindMapUpdated)
    return MindMapChange(version=new_version, code=code)


def set_status(
    db: Session, *, user: Principal, subject_id: int, code: int, data: NodeStatusChange
) -> MindMapChange:
    """A node's status; to or from validated needs perm_ValidNotHaute too. The main node's status
    is the subject cards' (a database trigger copies it to subject.main_node_status)."""
    subject, version, now = _checked(db, user, subject_id, data.version)
    node = _node(db, subject.id, code)
    ensure(policy.can_set_node_status(user, subject, node.status, data.status.value))
    node.status = data.status.value
    node.updated_by, node.updated_at = user.id, now
    _written(db, user, subject, Event.mindMapUpdated, Event.statusChanged)
    args: dict[str, Any] = {"status": data.status.value, "name": node.name, "code": node.code}
    discussions.system_message(
        db, parent=_parent(subject), user=user, type=SystemMessageType.statusChanged, args=args
    )
    return MindMapChange(version=version, code=code)
