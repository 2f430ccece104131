"""The subject's mind map (subjects.mindmap)."""

from typing import Annotated

from fastapi import Query, Response

from spot.core.auth import DB, CurrentUser, require
from spot.core.routing import api_router
from spot.core.schemas import Id, json_response
from spot.permissions.names import Permission
from spot.subjects import mindmap
from spot.subjects.mindmap_schemas import (
    MindMap,
    MindMapChange,
    NodeCreate,
    NodeMove,
    NodeStatusChange,
    NodeUpdate,
)

router = api_router(tags=["mind map"])

# The tree -----------------------------------------------------------------------------------------

EDIT = [require(Permission.EditNotHaute)]


@router.get("/subject/{subjectId}/mindmap", response_model=MindMap)
async def mind_map(db: DB, user: CurrentUser, subjectId: Id) -> Response:
    """The subject's mind map, nodes in tree order; counts as a visit of the subject."""
    return json_response(mindmap.read(db, user=user, subject_id=subjectId))


@router.post("/subject/{subjectId}/mindmap/nodes", status_code=201, dependencies=EDIT)
async def add_node(db: DB, user: CurrentUser, subjectId: Id, data: NodeCreate) -> MindMapChange:
    """Needs perm_EditNotHaute. A new node, inProgress, code max + 1; unknown parent: 400 invalidValue;
    a stale version: 409 staleVersion."""
    return mindmap.add(db, user=user, subject_id=subjectId, data=data)


@router.post("/subject/{subjectId}/mindmap/nodes/{code}", dependencies=EDIT)
async def edit_node(db: DB, user: CurrentUser, subjectId: Id, code: Id, data: NodeUpdate) -> MindMapChange:
    """Needs perm_EditNotHaute. The node's name and text; unknown node: 404 mindMapNodeNotFound."""
    return mindmap.edit(db, user=user, subject_id=subjectId, code=code, data=data)


@router.post("/subject/{subjectId}/mindmap/nodes/{code}/move", dependencies=EDIT)
async def move_node(db: DB, user: CurrentUser, subjectId: Id, code: Id, data: NodeMove) -> MindMapChange:
    """Needs perm_EditNotHaute. The node and its subtree under `parentCode` at `position`; the main
    node, a move under itself or a descendant, or an unknown parent: 400 invalidValue (parentCode)."""
    return mindmap.move(db, user=user, subject_id=subjectId, code=code, data=data)


@router.delete("/subject/{subjectId}/mindmap/nodes/{code}", dependencies=EDIT)
async def delete_node(
    db: DB,
    user: CurrentUser,
    subjectId: Id,
    code: Id,
    version: Annotated[Id, Query(description="The tree's version read; a stale one answers 409")],
) -> MindMapChange:
    """Needs perm_EditNotHaute. The node and its subtree; the main node: 409 mainNodeCannotBeDeleted."""
    return mindmap.remove(db, user=user, subject_id=subjectId, code=code, version=version)


@router.post("/subject/{subjectId}/mindmap/nodes/{code}/status", dependencies=EDIT)
async def node_status(
    db: DB,
    user: CurrentUser,
    subjectId: Id,
    code: Id,
    data: NodeStatusChange,
) -> MindMapChange:
    """Needs perm_EditNotHaute, and perm_ValidNotHaute to set a node to or from validated. Writes a
    statusChanged message in the subject's discussion."""
    return mindmap.set_status(db, user=user, subject_id=subjectId, code=code, data=data)
