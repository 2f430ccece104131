from spot.alerts import service
from spot.alerts.schemas import Alerts
from spot.core.auth import DB, CurrentUser
from spot.core.routing import api_router

router = api_router(prefix="/account/alerts", tags=["account"])


@router.get("")
async def alerts(db: DB, user: CurrentUser) -> Alerts:
    """The bell: the actions awaited from the signed-in user (today, the subjects they follow that
    changed since their last visit, or that they never visited), newest first, at most 50, with the
    count of them all. Each alert has a kind, the arguments of its sentence, a date and the page
    where it is acted on (`target`). Only what the user may read."""
    return service.alerts(db, user=user)
