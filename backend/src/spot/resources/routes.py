from typing import Annotated, Any

from fastapi import Body, Depends, Path, Query, Request, Response
from sqlalchemy.orm import Session

from spot.core import files, parents
from spot.core.auth import DB, CurrentUser, require
from spot.core.errors import ErrorBody
from spot.core.principal import Principal
from spot.core.routing import api_router, work
from spot.core.schemas import Id
from spot.permissions.names import Permission
from spot.resources import service
from spot.resources.schemas import ResourceGallery, ResourceOut, ResourceUpdate
from spot.resources.upload import Upload, received

router = api_router(tags=["resources"])

ParentType = Annotated[
    str, Path(max_length=30, description="cartography, function or subject (more to come)")
]
EDIT = [require(Permission.EditResourcesVideos)]
PARENT = "/resource/{parentType}/{parentId}"
UPLOAD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": False,
        "description": "The raw file (image, pdf, file); empty for a link or a YouTube video",
        "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
    }
}
TOO_BIG: dict[int | str, dict[str, Any]] = {413: {"model": ErrorBody, "description": "Content Too Large"}}
FILE_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "content": {"application/octet-stream": {}, "image/png": {}, "image/jpeg": {}, "application/pdf": {}}
    }
}


def _parent(db: Session, user: Principal, parent_type: str, parent_id: int) -> parents.Parent:
    return parents.get(db, user=user, parent_type=parent_type, parent_id=parent_id)


@router.get(PARENT)
async def resources(db: DB, user: CurrentUser, parentType: ParentType, parentId: Id) -> ResourceGallery:
    """The gallery of a cartography, function or subject (later a qualification or mediation), in its
    order, with what the user may do with it. Follows the parent's visibility: 403 when hidden,
    404 when unknown."""
    return service.gallery(db, user=user, parent=_parent(db, user, parentType, parentId))


@router.post(PARENT, dependencies=EDIT, openapi_extra=UPLOAD_BODY, responses=TOO_BIG)
@work
def create_resource(
    db: DB,
    user: CurrentUser,
    parentType: ParentType,
    parentId: Id,
    upload: Annotated[Upload, Depends(received)],
) -> ResourceOut:
    """Needs perm_EditResourcesVideos. The raw file is the body (at most 30,000,000 bytes: 413
    fileTooBig); the metadata is in the headers resourceType, name, link and comment. An image must be
    a JPEG or a PNG and a pdf a PDF, judged from the bytes (badFileFormat)."""
    parent = _parent(db, user, parentType, parentId)
    resource = service.create(db, user=user, parent=parent, data=upload.data, upload=upload.path)
    return service.view(resource)


@router.post(PARENT + "/reorder", dependencies=EDIT)
async def reorder_resources(
    db: DB,
    user: CurrentUser,
    parentType: ParentType,
    parentId: Id,
    ids: Annotated[
        list[Id], Body(max_length=1000, description="Every resource of the gallery, in the new order")
    ],
) -> ResourceGallery:
    """Needs perm_EditResourcesVideos."""
    parent = _parent(db, user, parentType, parentId)
    return service.reorder(db, user=user, parent=parent, ids=ids)


@router.post(PARENT + "/{resourceId}/update", dependencies=EDIT)
async def update_resource(
    db: DB,
    user: CurrentUser,
    parentType: ParentType,
    parentId: Id,
    resourceId: Id,
    data: ResourceUpdate,
) -> ResourceOut:
    """Needs perm_EditResourcesVideos. Name, link and comment; the type cannot change; a stale
    version answers 409."""
    parent = _parent(db, user, parentType, parentId)
    resource = service.get(db, parent=parent, resource_id=resourceId)
    return service.view(service.update(db, user=user, parent=parent, resource=resource, data=data))


@router.delete(PARENT + "/{resourceId}", status_code=204, dependencies=EDIT)
async def delete_resource(
    db: DB, user: CurrentUser, parentType: ParentType, parentId: Id, resourceId: Id
) -> Response:
    """Needs perm_EditResourcesVideos."""
    parent = _parent(db, user, parentType, parentId)
    service.delete(
        db, user=user, parent=parent, resource=service.get(db, parent=parent, resource_id=resourceId)
    )
    return Response(status_code=204)


VERSION = Query(
    max_length=100,
    description="The stored file's name, as in fileUrl: the answer may then be cached for good",
)


@router.get(PARENT + "/{resourceId}/file", response_class=Response, responses=FILE_RESPONSES)
async def resource_file(
    db: DB,
    user: CurrentUser,
    request: Request,
    parentType: ParentType,
    parentId: Id,
    resourceId: Id,
    v: Annotated[str | None, VERSION] = None,
) -> Response:
    """The stored file: inline for an image or a pdf, as an attachment for any other file."""
    resource = service.get(db, parent=_parent(db, user, parentType, parentId), resource_id=resourceId)
    return files.serve(request, service.served(resource, thumbnail=False, version=v))


@router.get(PARENT + "/{resourceId}/thumbnail", response_class=Response, responses=FILE_RESPONSES)
async def resource_thumbnail(
    db: DB,
    user: CurrentUser,
    request: Request,
    parentType: ParentType,
    parentId: Id,
    resourceId: Id,
    v: Annotated[str | None, VERSION] = None,
) -> Response:
    """An image's thumbnail, 160 × 100 at most; 404 for other resources."""
    resource = service.get(db, parent=_parent(db, user, parentType, parentId), resource_id=resourceId)
    return files.serve(request, service.served(resource, thumbnail=True, version=v))
