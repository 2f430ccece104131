"""A function's minimum of qualified people (qualifications.coverage)."""

from spot.core.auth import DB, CurrentUser, require
from spot.core.routing import api_router
from spot.core.schemas import Id
from spot.permissions.names import Permission
from spot.qualifications import coverage
from spot.qualifications.coverage_schemas import FunctionMinimum, MinimumSave

router = api_router(tags=["qualifications"])


@router.put(
    "/qualifications/functions/{functionId}/minimum", dependencies=[require(Permission.QualificationAdmin)]
)
async def set_minimum(db: DB, user: CurrentUser, functionId: Id, body: MinimumSave) -> FunctionMinimum:
    """Needs perm_QualificationAdmin. Sets how many qualified people the function needs (its coverage is
    under its minimum below it; 3 by default): 0 to 1000, else 400 valueMustBeBetween. 404
    functionNotFound, 403 when the function is hidden from the user."""
    function = coverage.set_minimum(db, user=user, function_id=functionId, minimum=body.minimum)
    return FunctionMinimum(function_id=function.id, minimum=function.minimum_qualified)
