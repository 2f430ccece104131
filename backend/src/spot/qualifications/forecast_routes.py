"""Tomorrow's coverage of a cartography's functions, for its plan (qualifications.forecast)."""

from spot.core import time as clock
from spot.core.auth import DB, CurrentUser, require
from spot.core.routing import api_router, work
from spot.core.schemas import Id
from spot.mapping import service as mapping
from spot.permissions.names import Permission
from spot.qualifications import dashboards, forecast
from spot.qualifications.forecast_schemas import CartographyCoverage, CoverageCartography, FunctionForecast

router = api_router(tags=["qualifications"])


# A work route: the forecast weighs the holds of everyone the cartography's qualifications concern, in
# Python, as its qualification dashboard does (off the event loop, DESIGN §1).
@router.get(
    "/dashboards/cartography/{cartographyId}/coverage", dependencies=[require(Permission.TableauBord)]
)
@work
def cartography_coverage(db: DB, user: CurrentUser, cartographyId: Id) -> CartographyCoverage:
    """Needs perm_TableauBord; 404 unknown cartography, 403 hidden from the user. Each function of the
    cartography the user sees: its people qualified today and at +30, +60 and +90 days against its
    minimum, and its outlook (nobody, under, falling, enough), which the plan colours its zone by."""
    found = mapping.get_cartography(db, user=user, cartography_id=cartographyId)
    forecasts = dashboards.forecasts(db, user=user, cartography_ids=[found.id], today=clock.today())
    return CartographyCoverage(
        cartography=CoverageCartography(id=found.id, name=found.name),
        warn_days=forecast.WARN_DAYS,
        functions=[FunctionForecast.model_validate(forecast.as_json(f)) for f in forecasts],
    )
