from typing import Annotated

from fastapi import Header, Query
from fastapi.responses import Response, StreamingResponse

from spot.core.auth import DB, CurrentUser, require
from spot.core.routing import api_router, work
from spot.history import export, service
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


@router.post(
    "/history/contributions/export",
    dependencies=[require(Permission.VisuTrack)],
    response_class=Response,
    responses={200: {"content": {export.MEDIA_TYPE: {}}, "description": "The xlsx file"}},
)
@work
def export_contributions(
    db: DB,
    user: CurrentUser,
    query: ContributionsQuery,
    accept_language: Annotated[str | None, Header(description="fr (the default) or en")] = None,
) -> Response:
    """Needs perm_VisuTrack. The contributions of POST /history/contributions (same body) per user, as
    an xlsx file (contributions.xlsx): a sheet of writes then one of views, a row per user (those of
    userIds and the members of groupIds, or everyone with entries when none is named) with a total
    column, and an average row. Sheet names and headers in the language of Accept-Language (French by
    default). At most 78 weeks or 18 months: 422 valueMustBeBetween on count beyond."""
    return StreamingResponse(
        export.export(db, user=user, query=query, accept_language=accept_language),
        media_type=export.MEDIA_TYPE,
        headers={
            "Content-Disposition": f'attachment; filename="{export.FILENAME}"',
            "X-Content-Type-Options": "nosniff",
        },
    )
