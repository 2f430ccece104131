from spot.core.auth import DB, CurrentUser, require
from spot.core.routing import api_router, work
from spot.core.schemas import Id
from spot.dashboards import service
from spot.dashboards.schemas import (
    CartographySummary,
    GroupTrainingPathDashboard,
    MyDashboard,
    TrainingPathDashboard,
)
from spot.permissions.names import Permission

router = api_router(tags=["dashboards"])


@router.get("/dashboards/mine")
async def my_dashboard(db: DB, user: CurrentUser) -> MyDashboard:
    """My dashboard, for every signed-in user: their current paths as learner with their completion,
    the bell's awaited actions grouped by kind, their own views and contributions per month over the
    12 months ending with this one (on the map items they may read), and the validity of their
    periodic modules (expired up to 2 months ago included)."""
    return service.mine(db, user=user)


@router.get("/dashboards/trainingPath", dependencies=[require(Permission.TableauBord)])
async def training_path_dashboard(db: DB) -> TrainingPathDashboard:
    """Needs perm_TableauBord. Path progress per group: members, members with a current path, the
    average of the members' completions over their current paths, and how many are at each level."""
    return service.training_paths(db)


@router.get("/dashboards/trainingPath/group/{groupId}", dependencies=[require(Permission.TableauBord)])
async def group_training_path_dashboard(db: DB, groupId: Id) -> GroupTrainingPathDashboard:
    """Needs perm_TableauBord. Path progress of each member of a group, with their current paths;
    404 groupNotFound."""
    return service.group_training_paths(db, group_id=groupId)


# A work route: the coverage of every cartography weighs the holds of everyone its qualifications
# concern, in Python, as the qualification dashboards do (off the event loop, DESIGN §1).
@router.get("/dashboards/manager/cartographies", dependencies=[require(Permission.TableauBord)])
@work
def manager_cartographies(db: DB, user: CurrentUser) -> list[CartographySummary]:
    """Needs perm_TableauBord. The Dashboard manager's cartographies: every cartography the user sees,
    by site, with the figures of its qualification dashboard: how many qualifications name it, and its
    functions the user sees by coverage level (none, single, covered)."""
    return service.manager_cartographies(db, user=user)
