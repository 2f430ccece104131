from typing import Annotated

from fastapi import Query

from spot.core.auth import DB, CurrentUser, require
from spot.core.routing import api_router
from spot.history import service
from spot.history.schemas import Contributions, ContributionsQuery, HistoryItem
from spot.permissions.names import Permission

router = api_router(tags=["history"])


@router.get("/history/mine")
async def mine(
    db: DB,
    user: CurrentUser,
    from_: Annotated[str | None, Query(alias="from", description="First day, YYYY-MM-DD")] = None,
    to: Annotated[str | None, Query(description="Last day, YYYY-MM-DD (included)")] = None,
) -> list[HistoryItem]:
    """The signed-in user's own reads and writes between two days (of the organisation's time zone),
    newest first, at most 1,000. A missing day answers emptyFieldError, a malformed one invalidDate,
    `to` before `from` dateRangeReversed."""
    return service.mine(db, user=user, from_=from_, to=to)


@router.post("/history/contributions", dependencies=[require(Permission.VisuTrack)])
async def contributions(db: DB, user: CurrentUser, query: ContributionsQuery) -> Contributions:
    """Needs perm_VisuTrack. Views (reads) and contributions (writes) per week or month, counting the
    entries on map items the user may read. An unknown item answers 404, a hidden one 403."""
    return service.contributions(db, user=user, query=query)
