from typing import Any

from fastapi import APIRouter

from spot.core.errors import ERROR_RESPONSES

API_PREFIX = "/backend/api/v2"


def api_router(prefix: str = "", **options: Any) -> APIRouter:
    """An area's router, whose routes are complete as declared: under the API's prefix, with the
    error responses every route may give. The app lists them as they are (spot.main.create_app)
    instead of including the router, which FastAPI (since 0.137) keeps as a subtree that each
    request walks two or three times."""
    return APIRouter(prefix=API_PREFIX + prefix, responses=ERROR_RESPONSES, **options)
