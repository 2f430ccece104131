import hashlib
import json
from typing import Annotated, Any

from fastapi import Body, Depends, Query, Request, Response

from spot.core import files
from spot.core.auth import DB, CurrentUser, require
from spot.core.errors import ApiError, ErrorBody, FieldError
from spot.core.routing import api_router, hot_read, work
from spot.core.schemas import Id, Str
from spot.jobs import runner
from spot.jobs import service as jobs_service
from spot.jobs.schemas import JobOut
from spot.mapping import bundle, bundle_export, cartography_page, items, jobs, query, service
from spot.mapping.schemas import (
    ActivityOut,
    CartographyListItem,
    CartographyOut,
    CartographySiteName,
    FunctionOut,
    ItemOut,
    ItemType,
    MapItemName,
    MapItemType,
    PictogramOut,
    SiteOut,
    ZoneOut,
)
from spot.permissions.names import Permission
from spot.querylang.lists import list_route

router = api_router(tags=["mapping"])

IMAGE_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {"image/png": {}, "image/jpeg": {}}},
    304: {"description": "Not modified"},
}
NOT_MODIFIED: dict[int | str, dict[str, Any]] = {304: {"description": "Not modified"}}


def _matches(request: Request, etag: str) -> bool:
    header = request.headers.get("if-none-match", "")
    return any(tag.strip().removeprefix("W/") == etag for tag in header.split(",")) or header.strip() == "*"


def image_response(request: Request, image: service.StoredImage) -> Response:
    headers = {
        "ETag": image.etag,
        "Cache-Control": "private, no-cache",
        "X-Content-Type-Options": "nosniff",
        "Content-Disposition": f'inline; filename="{image.filename}"',
    }
    if _matches(request, image.etag):
        return Response(status_code=304, headers=headers)
    return Response(image.content, media_type=image.media_type, headers=headers)


@router.get("/site")
async def sites(db: DB, user: CurrentUser) -> list[SiteOut]:
    """The sites with the cartographies the user may see."""
    return service.list_sites(db, user=user)


@router.get("/cartography", response_model=list[CartographyListItem], responses=NOT_MODIFIED)
async def cartographies(db: DB, user: CurrentUser, request: Request) -> Response:
    """Every cartography the user may see, with its site. The ETag covers the data as this user
    sees it, so a change of content or of visibility gives a new one."""
    items = service.list_cartographies(db, user=user)
    body = json.dumps([i.model_dump(by_alias=True) for i in items], ensure_ascii=False, separators=(",", ":"))
    etag = '"' + hashlib.sha256(body.encode()).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": "private, no-cache"}
    if _matches(request, etag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


@router.get("/cartography/searchCartographySite")
async def search_cartography_site(
    db: DB,
    user: CurrentUser,
    name: Annotated[str | None, Query(max_length=200)] = None,
    visible_only: Annotated[bool, Query(alias="visibleOnly")] = True,
) -> list[CartographySiteName]:
    """Cartographies whose name or site name contains `name`; `visibleOnly=false` lists hidden
    ones too, for map administrators only (others always get what they may see)."""
    if name is None or not name.strip():
        raise ApiError(
            400, "The parameter 'name' must be defined", [FieldError(field="name", code="emptyFieldError")]
        )
    return service.search_cartographies(db, user=user, name=name, visible_only=visible_only)


@router.post("/cartography/getCartographySiteNames")
async def cartography_site_names(
    db: DB, user: CurrentUser, ids: Annotated[list[Id], Body(max_length=1000)]
) -> list[CartographySiteName]:
    """Names (and site names) of the given cartography ids; hidden or unknown ids are left out."""
    return service.cartography_site_names(db, user=user, ids=ids)


list_route(
    router,
    "/cartography/query",
    query.CARTOGRAPHIES,
    name="query_cartographies",
    description="A page of the cartographies the user may see, filtered and sorted with the query language "
    "(fields: GET /querylang/cartography/fields), each with its site.",
)
list_route(
    router,
    "/function/query",
    query.FUNCTIONS,
    name="query_functions",
    description="A page of the functions of the cartographies the user may see, filtered and sorted with the "
    "query language (fields: GET /querylang/function/fields), each with its site and cartography.",
)


TYPES_DESCRIPTION = "Comma list of site, cartography, activity, function; all of them when absent"


@router.get("/mapping/items/search")
async def search_map_items(
    db: DB,
    user: CurrentUser,
    name: Annotated[Str | None, Query(max_length=200)] = None,
    types: Annotated[Str | None, Query(max_length=200, description=TYPES_DESCRIPTION)] = None,
) -> list[MapItemName]:
    """At most 30 items of the map the user may see whose name contains `name` (ignoring case and
    accents), names starting with it first, each with the path from its site to its parent."""
    if name is None or not name.strip():
        raise ApiError(
            400, "The parameter 'name' must be defined", [FieldError(field="name", code="emptyFieldError")]
        )
    return items.search(db, user=user, name=name, types=_item_types(types))


@router.post("/mapping/items/names")
async def map_item_names(
    db: DB, user: CurrentUser, ids: Annotated[list[Id], Body(max_length=1000)]
) -> list[MapItemName]:
    """The items of the map of these ids (any of site, cartography, activity, function), in the
    order given, each with its context; unknown ids and items the user may not see are left out."""
    return items.names(db, user=user, ids=ids)


def _item_types(text: str | None) -> list[MapItemType]:
    if text is None or not text.strip():
        return list(items.ITEM_TYPES)
    chosen = [part.strip() for part in text.split(",") if part.strip()]
    if not chosen or any(part not in items.ITEM_TYPES for part in chosen):
        raise ApiError(400, "invalidValue", [FieldError(field="types", code="invalidValue")])
    return [kind for kind in items.ITEM_TYPES if kind in chosen]


@router.get("/cartography/{cartographyId}")
@hot_read
async def cartography(db: DB, user: CurrentUser, cartographyId: Id) -> CartographyOut:
    """The cartography page: nested activities with subject counts, functions, read/write counters."""
    return cartography_page.cartography_view(db, user=user, cartography_id=cartographyId)


@router.get("/cartography/{cartographyId}/image", response_class=Response, responses=IMAGE_RESPONSES)
async def cartography_image(db: DB, user: CurrentUser, request: Request, cartographyId: Id) -> Response:
    return image_response(request, service.cartography_image(db, user=user, cartography_id=cartographyId))


@router.get("/cartography/{cartographyId}/zones")
@hot_read
async def zones(db: DB, user: CurrentUser, cartographyId: Id) -> list[ZoneOut]:
    return cartography_page.zones(db, user=user, cartography_id=cartographyId)


@router.get("/cartography/{cartographyId}/functions")
async def functions(db: DB, user: CurrentUser, cartographyId: Id) -> list[FunctionOut]:
    return cartography_page.functions_of(db, user=user, cartography_id=cartographyId)


@router.get("/cartography/{cartographyId}/activities")
async def activities(db: DB, user: CurrentUser, cartographyId: Id) -> list[ActivityOut]:
    """The top-level activities of the cartography; their sub-activities via /activity/{id}/subActivities."""
    return cartography_page.top_activities(db, user=user, cartography_id=cartographyId)


@router.get("/activity/{activityId}/subActivities")
async def sub_activities(db: DB, user: CurrentUser, activityId: Id) -> list[ActivityOut]:
    return cartography_page.sub_activities(db, user=user, activity_id=activityId)


@router.get("/pictos/{cartographyId}")
@hot_read
async def pictograms(db: DB, user: CurrentUser, cartographyId: Id) -> list[PictogramOut]:
    return cartography_page.pictograms(db, user=user, cartography_id=cartographyId)


@router.get("/pictos/{cartographyId}/{pictogramId}/image", response_class=Response, responses=IMAGE_RESPONSES)
async def pictogram_image(
    db: DB,
    user: CurrentUser,
    request: Request,
    cartographyId: Id,
    pictogramId: Id,
) -> Response:
    image = service.pictogram_image(db, user=user, cartography_id=cartographyId, pictogram_id=pictogramId)
    return image_response(request, image)


@router.get("/item/{itemType}/{itemId}")
async def item(db: DB, user: CurrentUser, itemType: ItemType, itemId: Id) -> ItemOut:
    """Any item of the hierarchy (site, cartography, activity, function, subject, mindmapNode)
    with its contexts."""
    return service.item(db, user=user, item_type=itemType, item_id=itemId)


async def bundle_body(request: Request) -> bytes:
    return await files.bounded_body(request, bundle.MAX_BUNDLE_BYTES)


ZIP_BODY = {
    "requestBody": {
        "required": True,
        "content": {"application/zip": {"schema": {"type": "string", "format": "binary"}}},
    }
}


@router.post(
    "/mapping/import",
    dependencies=[require(Permission.SetPermissions)],
    openapi_extra=ZIP_BODY,
    status_code=202,
    responses={413: {"model": ErrorBody, "description": "Content Too Large"}},
)
@work
def import_map(db: DB, user: CurrentUser, data: Annotated[bytes, Depends(bundle_body)]) -> JobOut:
    """Import a map bundle (docs/map-bundle.md) keyed by codes: re-importing updates, never
    duplicates. The whole bundle is checked first: a bad one is refused at once, naming the faulty
    entry. Then a job imports it, and the request answers at once with the job (202): GET /jobs/{id}
    tells when it ended, its summary what it created and updated ({siteId, created, updated})."""
    bundle.read(data)
    job = runner.enqueue(
        db,
        owner_id=user.id,
        kind=jobs.IMPORT,
        parameters={},
        language="fr",
        input=data,
        input_extension="zip",
    )
    return jobs_service.out(user, job)


@router.get(
    "/mapping/export/{siteId}",
    dependencies=[require(Permission.SetPermissions)],
    response_class=Response,
    responses={200: {"content": {"application/zip": {}}}},
)
@work
def export_map(db: DB, siteId: Id) -> Response:
    """The site as a map bundle, every cartography included (an administrator's tool)."""
    site, content = bundle_export.export(db, site_id=siteId)
    filename = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "_" for c in site.code) or "map"
    return Response(
        content,
        media_type="application/zip",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}.zip"',
            "X-Content-Type-Options": "nosniff",
        },
    )
