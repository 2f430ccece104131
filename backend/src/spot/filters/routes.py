from fastapi import APIRouter, Response

from spot.core.auth import DB, CurrentUser
from spot.filters import service
from spot.filters.schemas import SavedFilterOut, SavedFiltersSave

router = APIRouter(prefix="/account/filters", tags=["account"])


@router.get("")
async def saved_filters(db: DB, user: CurrentUser) -> dict[str, list[SavedFilterOut]]:
    """The signed-in user's saved filters, keyed by entity type."""
    return {
        entity_type: [SavedFilterOut.model_validate(f) for f in filters]
        for entity_type, filters in service.list_for(db, user=user).items()
    }


@router.post("", status_code=204)
async def save_filters(db: DB, user: CurrentUser, data: SavedFiltersSave) -> Response:
    service.replace(db, user=user, entity_type=data.entity_type, filters=data.filters)
    return Response(status_code=204)
