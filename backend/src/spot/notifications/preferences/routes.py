"""The signed-in person's own notification preferences (the page of the account menu)."""

from spot.core.auth import DB, CurrentUser
from spot.core.routing import api_router
from spot.notifications.preferences import service
from spot.notifications.preferences.schemas import Preferences, PreferencesIn

router = api_router(prefix="/notifications", tags=["notifications"])


@router.get("/preferences")
async def my_preferences(db: DB, user: CurrentUser) -> Preferences:
    """Every kind of message the person chooses for, its group, how they receive it and its default,
    and the address messages go to."""
    return service.get(db, user=user)


@router.put("/preferences")
async def change_my_preferences(db: DB, user: CurrentUser, body: PreferencesIn) -> Preferences:
    """Changes the kinds given (the others stay); answers them all. 400 unknownNotificationKind or
    unknownNotificationMode, naming the field, and nothing changes."""
    return service.update(db, user=user, changes=body.preferences)
