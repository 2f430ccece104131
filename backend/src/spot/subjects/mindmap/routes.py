"""The mind map's routes: the tree (under the OpenAPI tag "mind map"), the standardized copy, the diagram
and the legacy targets (under "subjects"); docs/mind-map.md."""

from enum import Enum
from typing import Annotated, Any
from urllib.parse import unquote

from fastapi import Depends, Header, Query, Request, Response

from spot.core import files
from spot.core.auth import DB, CurrentUser, require
from spot.core.errors import ErrorBody
from spot.core.routing import api_router, work
from spot.core.schemas import Id, json_response
from spot.permissions.names import Permission
from spot.resources.upload import body_file
from spot.subjects import service as subjects
from spot.subjects.mindmap import diagram, legacy, service, standardized
from spot.subjects.mindmap.schemas import (
    Diagram,
    LegacyTarget,
    MindMap,
    MindMapChange,
    NodeCreate,
    NodeMove,
    NodeStatusChange,
    NodeUpdate,
    StandardizedMindMapOut,
)

router = api_router()
TREE: list[str | Enum] = ["mind map"]
SUBJECTS: list[str | Enum] = ["subjects"]

# The tree -----------------------------------------------------------------------------------------

EDIT = [require(Permission.EditNotHaute)]


@router.get("/subject/{subjectId}/mindmap", response_model=MindMap, tags=TREE)
async def mind_map(db: DB, user: CurrentUser, subjectId: Id) -> Response:
    """The subject's mind map, nodes in tree order; counts as a visit of the subject."""
    return json_response(service.read(db, user=user, subject_id=subjectId))


@router.post("/subject/{subjectId}/mindmap/nodes", status_code=201, dependencies=EDIT, tags=TREE)
async def add_node(db: DB, user: CurrentUser, subjectId: Id, data: NodeCreate) -> MindMapChange:
    """Needs perm_EditNotHaute. A new node, inProgress, with a code never given before in this
    mind map; unknown parent: 400 invalidValue;
    a stale version: 409 staleVersion."""
    return service.add(db, user=user, subject_id=subjectId, data=data)


@router.post("/subject/{subjectId}/mindmap/nodes/{code}", dependencies=EDIT, tags=TREE)
async def edit_node(db: DB, user: CurrentUser, subjectId: Id, code: Id, data: NodeUpdate) -> MindMapChange:
    """Needs perm_EditNotHaute. The node's name and text; unknown node: 404 mindMapNodeNotFound."""
    return service.edit(db, user=user, subject_id=subjectId, code=code, data=data)


@router.post("/subject/{subjectId}/mindmap/nodes/{code}/move", dependencies=EDIT, tags=TREE)
async def move_node(db: DB, user: CurrentUser, subjectId: Id, code: Id, data: NodeMove) -> MindMapChange:
    """Needs perm_EditNotHaute. The node and its subtree under `parentCode` at `position`; the main
    node, a move under itself or a descendant, or an unknown parent: 400 invalidValue (parentCode)."""
    return service.move(db, user=user, subject_id=subjectId, code=code, data=data)


@router.delete("/subject/{subjectId}/mindmap/nodes/{code}", dependencies=EDIT, tags=TREE)
async def delete_node(
    db: DB,
    user: CurrentUser,
    subjectId: Id,
    code: Id,
    version: Annotated[Id, Query(description="The tree's version read; a stale one answers 409")],
) -> MindMapChange:
    """Needs perm_EditNotHaute. The node and its subtree; the main node: 409 mainNodeCannotBeDeleted."""
    return service.remove(db, user=user, subject_id=subjectId, code=code, version=version)


@router.post("/subject/{subjectId}/mindmap/nodes/{code}/status", dependencies=EDIT, tags=TREE)
async def node_status(
    db: DB,
    user: CurrentUser,
    subjectId: Id,
    code: Id,
    data: NodeStatusChange,
) -> MindMapChange:
    """Needs perm_EditNotHaute, and perm_ValidNotHaute to set a node to or from validated. Writes a
    statusChanged message in the subject's discussion."""
    return service.set_status(db, user=user, subject_id=subjectId, code=code, data=data)


# The standardized copy, the diagram and legacy targets -----------------------------------------------

EDIT_DIAGRAM = [require(Permission.EditNotBasse)]
DIAGRAM_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "The raw file: a JPEG or PNG image or a PDF, at most 30,000,000 bytes",
        "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
    }
}
DIAGRAM_RESPONSES: dict[int | str, dict[str, Any]] = {
    413: {"model": ErrorBody, "description": "Content Too Large"}
}
FILE_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {"image/png": {}, "image/jpeg": {}, "application/pdf": {}}},
    304: {"description": "Not modified"},
}


@router.get("/subject/{subjectId}/mindmap/standardized", tags=SUBJECTS)
async def standardized_mind_map(db: DB, user: CurrentUser, subjectId: Id) -> StandardizedMindMapOut:
    """The read-only copy of the tree kept when the subject was last standardized, and the differences
    of the live tree against it (only the nodes that differ, by code). 404 notStandardized."""
    return standardized.read(db, subject=subjects.get(db, user=user, subject_id=subjectId))


async def _received_diagram(request: Request) -> Any:
    async with body_file(request, diagram.MAX_BYTES) as path:
        yield path


@router.post(
    "/subject/{subjectId}/diagram",
    dependencies=EDIT_DIAGRAM,
    openapi_extra=DIAGRAM_BODY,
    responses=DIAGRAM_RESPONSES,
    tags=SUBJECTS,
)
@work
def upload_diagram(
    db: DB,
    user: CurrentUser,
    subjectId: Id,
    path: Annotated[Any, Depends(_received_diagram)],
    name: Annotated[
        str,
        Header(
            alias="name", max_length=4000, description="The file's name (URI-encoded: encodeURIComponent)"
        ),
    ] = "",
) -> Diagram:
    """Needs perm_EditNotBasse. Sets the subject's diagram, replacing the former one: the raw file is the
    body, a JPEG or PNG image or a PDF judged from its bytes (400 badFileFormat; fileUploadError for an
    image that does not open; emptyFieldError without a body), at most 30,000,000 bytes (413
    fileTooBig); its name in the header `name`."""
    subject = subjects.get(db, user=user, subject_id=subjectId)
    subject = diagram.store(db, user=user, subject=subject, path=path, name=_decoded(name))
    stored = diagram.view(subject)
    assert stored is not None
    return stored


def _decoded(name: str) -> str:
    return unquote(name, errors="replace")


@router.delete("/subject/{subjectId}/diagram", status_code=204, dependencies=EDIT_DIAGRAM, tags=SUBJECTS)
async def delete_diagram(db: DB, user: CurrentUser, subjectId: Id) -> Response:
    """Needs perm_EditNotBasse. Removes the subject's diagram (hasDiagram false)."""
    diagram.remove(db, user=user, subject=subjects.get(db, user=user, subject_id=subjectId))
    return Response(status_code=204)


@router.get(
    "/subject/{subjectId}/diagram/file", response_class=Response, responses=FILE_RESPONSES, tags=SUBJECTS
)
async def diagram_file(
    db: DB,
    user: CurrentUser,
    request: Request,
    subjectId: Id,
    v: Annotated[
        str | None,
        Query(max_length=100, description="As in Diagram.url: the answer may then be cached for good"),
    ] = None,
) -> Response:
    """The stored diagram, inline, with its ETag (304 on If-None-Match). 404 diagramNotFound."""
    return files.serve(request, diagram.served(subjects.get(db, user=user, subject_id=subjectId), version=v))


@router.get("/legacy/target", tags=SUBJECTS)
async def legacy_target(
    db: DB,
    user: CurrentUser,
    to: Annotated[str, Query(max_length=2000, description="A legacy target, as V1Redirection receives it")],
) -> LegacyTarget:
    """The Spot view of a legacy target: spot/{siteCode}/fonction/{functionCode}/pdvhaut/{code}// (the
    mind map), …/pdvhaut/{code}/standard (the standardized mind map) or …/pdvbas/{code} (the diagram),
    each segment URI-encoded, {code} the subject's code. 400 invalidValue for another form, 404
    notFound when no subject matches, 403 when it is hidden."""
    return legacy.target(db, user=user, to=to)
