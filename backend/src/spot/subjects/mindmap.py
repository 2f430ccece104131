"""The subject's mind map: a tree of nodes whose root, the main node (code 0), gives subject cards
their status. Reading follows the subject's visibility (subjects.service.get). Every change of the
tree checks and bumps the tree's own version (Subject.mind_map_version) in one statement, sets
lastMindmapUpdate (other users see the subject unread again), records a `mindMapUpdated` history
entry and the writer's visit; a status change also writes `statusChanged` to the history and to
the subject's discussion."""

from collections import defaultdict
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, delete, exists, select, update
from sqlalchemy.orm import Session

from spot.core import history, parents
from spot.core.errors import ApiError, FieldError, conflict, not_found
from spot.core.history import Event
from spot.core.principal import Principal
from spot.core.routing import API_PREFIX
from spot.core.time import utcnow
from spot.db import plain
from spot.discussions import service as discussions
from spot.discussions.service import SystemMessageType
from spot.subjects import policy, service
from spot.subjects.mindmap_schemas import (
    Diagram,
    MindMap,
    MindMapCan,
    MindMapChange,
    MindMapNode,
    NodeCreate,
    NodeMove,
    NodeStatusChange,
    NodeUpdate,
)
from spot.subjects.models import MindMapItem, NodeStatus, StandardizedMindMap, Subject
from spot.subjects.schemas import Contributor
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

    def ordered(self) -> list[MindMapItem]:
        """The main node first, then depth first: parents before children, siblings by position.
        Nodes no path from the main node reaches (damaged legacy data) come last, by code."""
        main = self.by_code.get(MAIN)
        out = self.subtree(main) if main is not None else []
        reached = {n.id for n in out}
        return out + sorted((n for n in self.nodes if n.id not in reached), key=lambda n: n.code)


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


def _names(db: Session, nodes: list[MindMapItem]) -> dict[int, str]:
    ids = {i for n in nodes for i in (n.created_by, n.updated_by) if i is not None}
    if not ids:
        return {}
    return dict(plain(db).execute(select(User.id, User.display_name).where(User.id.in_(ids))).all())


def diagram(subject: Subject) -> Diagram | None:
    """The diagram stored in Spot, if any (a legacy one, has_diagram alone, is not shown here)."""
    if not subject.diagram_ref or not subject.diagram_sha256 or not subject.diagram_media_type:
        return None
    return Diagram(
        name=subject.diagram_name or f"diagram-{subject.id}",
        media_type=subject.diagram_media_type,  # type: ignore[arg-type]  # stored by the upload's checks
        url=f"{API_PREFIX}/subject/{subject.id}/diagram/file?v={subject.diagram_sha256[:16]}",
    )


def read(db: Session, *, user: Principal, subject_id: int) -> MindMap:
    """The tree and what the user may do with it; counts as a visit of the subject."""
    subject = service.get(db, user=user, subject_id=subject_id)
    tree = _tree(db, subject.id)
    names = _names(db, tree.nodes)

    def person(user_id: int | None) -> Contributor | None:
        return Contributor(id=user_id, name=names.get(user_id, "")) if user_id is not None else None

    nodes = [
        MindMapNode(
            id=n.id,
            code=n.code,
            parent_code=tree.parent_code(n),
            position=n.position,
            name=n.name,
            text=n.text,
            status=NodeStatus(n.status),
            created_by=person(n.created_by),
            created_at=n.created_at,
            updated_by=person(n.updated_by),
            updated_at=n.updated_at,
        )
        for n in tree.ordered()
    ]
    standardized = bool(db.scalar(select(exists().where(StandardizedMindMap.subject_id == subject.id))))
    result = MindMap(
        subject_id=subject.id,
        subject_name=subject.name,
        subject_code=subject.code,
        version=subject.mind_map_version,
        last_mindmap_update=subject.last_mindmap_update,
        standardized=standardized,
        diagram=diagram(subject),
        nodes=nodes,
        can=MindMapCan(
            edit=policy.can_edit_mind_map(user, subject),
            validate_=policy.can_validate_mind_map(user, subject),
            edit_diagram=policy.can_edit_diagram(user, subject),
        ),
    )
    service.record_visit(db, user=user, subject_id=subject.id)
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


def _begin(
    db: Session, user: Principal, subject_id: int, version: int
) -> tuple[Subject, Tree, int, datetime]:
    """The subject (404 / 403 as its page), the version checked and bumped, the tree as it is now."""
    subject = service.get(db, user=user, subject_id=subject_id)
    policy.ensure(policy.can_edit_mind_map(user, subject))
    now = utcnow()
    new_version = _bump(db, user, subject, version, now)
    return subject, _tree(db, subject.id), new_version, now


def _written(db: Session, user: Principal, subject: Subject, *events: Event) -> None:
    """The writer's visit (they saw their change; for others the subject is unread again), then the
    history entries (the order of subjects.service._tracked)."""
    db.flush()
    service.record_visit(db, user=user, subject_id=subject.id)
    for event in events:
        history.record(
            db,
            history.entry(
                user=user,
                item_type=service.ITEM_TYPE,
                item_id=subject.id,
                item_key=subject.code,
                item_name=subject.name,
                mode="W",
                event=event,
                cartography_id=subject.cartography_id,
            ),
        )


def _parent(subject: Subject) -> parents.Parent:
    return parents.Parent(service.ITEM_TYPE, subject.id, subject.code, subject.name, subject.cartography_id)


def _parent_for(tree: Tree, parent_code: int) -> MindMapItem:
    parent = tree.by_code.get(parent_code)
    if parent is None:
        raise _invalid("parentCode")
    return parent


def add(db: Session, *, user: Principal, subject_id: int, data: NodeCreate) -> MindMapChange:
    """A new node, `inProgress`, under `parentCode` at `position` (default: last); code max + 1."""
    subject, tree, version, now = _begin(db, user, subject_id, data.version)
    parent = _parent_for(tree, data.parent_code)
    code = max(tree.by_code, default=MAIN) + 1
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
    """A node's name and text."""
    subject, tree, version, now = _begin(db, user, subject_id, data.version)
    node = tree.node(code)
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
    """A node and its subtree; the main node cannot be deleted (409 mainNodeCannotBeDeleted)."""
    subject, tree, new_version, _now = _begin(db, user, subject_id, version)
    node = tree.node(code)
    if node.code == MAIN:
        raise conflict("mainNodeCannotBeDeleted")
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
    subject, tree, version, now = _begin(db, user, subject_id, data.version)
    node = tree.node(code)
    policy.ensure(policy.can_set_node_status(user, subject, node.status, data.status.value))
    node.status = data.status.value
    node.updated_by, node.updated_at = user.id, now
    _written(db, user, subject, Event.mindMapUpdated, Event.statusChanged)
    args: dict[str, Any] = {"status": data.status.value, "name": node.name, "code": node.code}
    discussions.system_message(
        db, parent=_parent(subject), user=user, type=SystemMessageType.statusChanged, args=args
    )
    return MindMapChange(version=version, code=code)
