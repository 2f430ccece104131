from typing import Any

from fastapi import Response

from spot.core.auth import DB, CurrentUser
from spot.core.routing import api_router
from spot.filters import service
from spot.filters.schemas import SavedFilterOut, SavedFiltersOfType, SavedFiltersSave

router = api_router(prefix="/account/filters", tags=["account"])


@router.get("")
async def saved_filters(db: DB, user: CurrentUser) -> dict[str, SavedFiltersOfType]:
    """The signed-in user's saved filters, keyed by entity type, each list with its version."""
    return {
        entity_type: SavedFiltersOfType(
            version=version, filters=[SavedFilterOut.model_validate(f) for f in filters]
        )
        for entity_type, (version, filters) in service.list_for(db, user=user).items()
    }


STALE: dict[int | str, dict[str, Any]] = {
    409: {"description": "staleVersion: the filters were saved meanwhile (version is not the current one)"}
}


@router.post("", status_code=204, responses=STALE)
async def save_filters(db: DB, user: CurrentUser, data: SavedFiltersSave) -> Response:
    """Replaces the filters of one entity type, edited from `version`; their version is then the next
    one. Refused with 409 staleVersion when another window saved meanwhile."""
    service.replace(db, user=user, entity_type=data.entity_type, filters=data.filters, version=data.version)
    return Response(status_code=204)
