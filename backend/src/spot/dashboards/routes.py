from spot.core.auth import DB, CurrentUser, require
from spot.core.routing import api_router
from spot.core.schemas import Id
from spot.dashboards import service
from spot.dashboards.schemas import GroupTrainingPathDashboard, MyDashboard, TrainingPathDashboard
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
    average of the members' completions over their current paths, and how many are at each level
    (high above 66 %, medium 33 to 66 %, low below 33 %)."""
    return service.training_paths(db)


@router.get("/dashboards/trainingPath/group/{groupId}", dependencies=[require(Permission.TableauBord)])
async def group_training_path_dashboard(db: DB, groupId: Id) -> GroupTrainingPathDashboard:  # noqa: N803
    """Needs perm_TableauBord. Path progress of each member of a group, with their current paths;
    404 groupNotFound."""
    return service.group_training_paths(db, group_id=groupId)
