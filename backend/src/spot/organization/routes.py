from typing import Any

from fastapi import Request, Response
from pydantic import Field

from spot.config import get_settings
from spot.core.routing import api_router
from spot.core.schemas import CamelModel
from spot.organization import service

router = api_router(prefix="/organization", tags=["organization"])


class OrganizationInfo(CamelModel):
    customer_name: str
    application_name: str
    legacy_base_url: str | None
    time_zone: str = Field(
        description="The organisation's time zone (IANA name): the client shows every time in it, "
        "as the server's files do"
    )
    course_max_bytes: int = Field(
        description="The largest e-learning course package the server accepts (SPOT_COURSE_MAX_BYTES)"
    )


@router.get("/info")
async def info() -> OrganizationInfo:
    settings = get_settings()
    return OrganizationInfo(
        customer_name=settings.customer_name,
        application_name="Spot",
        legacy_base_url=settings.legacy_base_url or None,
        time_zone=settings.timezone,
        course_max_bytes=settings.course_max_bytes,
    )


def _matches(if_none_match: str | None, etag: str) -> bool:
    """If-None-Match may list several tags, weak ones included, or be *."""
    if not if_none_match:
        return False
    tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    return "*" in tags or etag in tags


def _image_response(kind: str, request: Request) -> Response:
    image = service.image(kind)
    headers = {"ETag": image.etag, "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}
    if _matches(request.headers.get("if-none-match"), image.etag):
        return Response(status_code=304, headers=headers)
    return Response(image.content, media_type=image.media_type, headers=headers)


IMAGE_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {"image/png": {}, "image/jpeg": {}, "image/svg+xml": {}}},
    304: {"description": "Not modified"},
}


@router.get("/logo", response_class=Response, responses=IMAGE_RESPONSES)
async def logo(request: Request) -> Response:
    return _image_response("logo", request)


@router.get("/applogo", response_class=Response, responses=IMAGE_RESPONSES)
async def applogo(request: Request) -> Response:
    return _image_response("applogo", request)
