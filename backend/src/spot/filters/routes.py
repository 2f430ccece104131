from typing import Annotated, Any

from fastapi import Header, Response

from spot.core.auth import DB, CurrentUser
from spot.core.routing import api_router
from spot.filters import service
from spot.filters.schemas import SavedFilterOut, SavedFiltersSave

router = api_router(prefix="/account/filters", tags=["account"])


@router.get("")
async def saved_filters(db: DB, user: CurrentUser, response: Response) -> dict[str, list[SavedFilterOut]]:
    """The signed-in user's saved filters, keyed by entity type; the ETag header is their version."""
    response.headers["ETag"] = service.version(db, user=user)
    return {
        entity_type: [SavedFilterOut.model_validate(f) for f in filters]
        for entity_type, filters in service.list_for(db, user=user).items()
    }


STALE: dict[int | str, dict[str, Any]] = {
    409: {"description": "staleVersion: If-Match is not the current ETag"}
}


@router.post("", status_code=204, responses=STALE)
async def save_filters(
    db: DB, user: CurrentUser, data: SavedFiltersSave, if_match: Annotated[str | None, Header()] = None
) -> Response:
    """Replaces the filters of one entity type. With If-Match (the ETag of the list they were edited
    from), refused with 409 when another window saved meanwhile; the answer's ETag is the new version."""
    service.replace(db, user=user, entity_type=data.entity_type, filters=data.filters, expected=if_match)
    return Response(status_code=204, headers={"ETag": service.version(db, user=user)})
