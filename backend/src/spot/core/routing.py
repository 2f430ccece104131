from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.routing import APIRoute

from spot.core.errors import ERROR_RESPONSES
from spot.db import end_request

API_PREFIX = "/backend/api/v2"


class SpotRoute(APIRoute):
    """A route of the API: once its response is ready it commits the request's transaction (or
    rolls it back when it fails) and closes its session, if the route opened one (db.request_db)."""

    ends_request_session = True

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()

        async def handle_in_transaction(request: Request) -> Response:
            try:
                response = await handle(request)
            except BaseException:
                end_request(request.scope, commit=False)
                raise
            end_request(request.scope, commit=True)
            return response

        return handle_in_transaction


def api_router(prefix: str = "", **options: Any) -> APIRouter:
    """An area's router, whose routes are complete as declared: under the API's prefix, with the
    error responses every route may give. The app lists them as they are (spot.main.create_app)
    instead of including the router, which FastAPI (since 0.137) keeps as a subtree that each
    request walks two or three times."""
    return APIRouter(prefix=API_PREFIX + prefix, responses=ERROR_RESPONSES, route_class=SpotRoute, **options)
