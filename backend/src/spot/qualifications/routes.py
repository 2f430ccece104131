from typing import Annotated, Literal

from fastapi import Depends, Query, Response

from spot.core import time as clock
from spot.core.auth import DB, CurrentUser, require
from spot.core.errors import ensure
from spot.core.routing import api_router, work
from spot.core.schemas import Id, json_response
from spot.permissions.names import Permission
from spot.qualifications import dashboards, history, policy, query, service
from spot.qualifications.schemas import (
    CartographyDashboard,
    DashboardElement,
    GroupDashboard,
    QualificationOut,
    QualificationSave,
    QualificationUpdate,
    UserDashboard,
)
from spot.qualifications.validity import State
from spot.querylang.lists import list_route
from spot.subjects.schemas import CreatedId

router = api_router(tags=["qualifications"])

# Before /qualifications/{qualificationId}, which would match these paths too.
list_route(
    router,
    "/qualifications/query",
    query.QUALIFICATIONS,
    name="query_qualifications",
    description="A page of the qualifications (every signed-in user reads them), filtered and sorted with "
    "the query language (fields: GET /querylang/qualification/fields): name, cartographies, "
    "qualifiableGroups, modules.",
)
list_route(
    router,
    "/qualifications/queryUserQualifications",
    query.USER_QUALIFICATIONS,
    name="query_user_qualifications",
    description="The status records of the pairs (person concerned, qualification): a person is concerned "
    "by a qualification as a member of one of its qualifiable groups; the hold on it is the earliest "
    "expiry of its modules. Filter fields: user, qualification (e.g. `user oneOf 3 & qualification oneOf "
    "9`); sorts: qualification_name, user_name. Without perm_TableauBord only one's own records.",
)


@router.post("/qualifications")
async def create_qualification(db: DB, user: CurrentUser, data: QualificationSave) -> CreatedId:
    """Needs perm_TableauBord or perm_QualificationAdmin. 422 atLeastOneErrorLeft naming each field:
    qualifiableGroups and modules empty (emptyFieldError), unknown ids (invalidValue)."""
    return CreatedId(id=service.create(db, user=user, data=data).id)


@router.get("/qualifications/{qualificationId}")
async def qualification(db: DB, user: CurrentUser, qualificationId: Id) -> QualificationOut:
    """Any signed-in user; 404 when unknown; counts as a read in the history."""
    return service.read(db, user=user, qualification_id=qualificationId)


@router.post("/qualifications/{qualificationId}", dependencies=[require(Permission.QualificationAdmin)])
async def update_qualification(
    db: DB,
    user: CurrentUser,
    qualificationId: Id,
    data: QualificationUpdate,
) -> QualificationOut:
    """Needs perm_QualificationAdmin; a stale version answers 409 staleVersion; the form's rules as for
    creating."""
    saved = service.update(db, user=user, qualification_id=qualificationId, data=data)
    return service.view(db, user=user, qualification=saved)


@router.delete(
    "/qualifications/{qualificationId}",
    status_code=204,
    dependencies=[require(Permission.QualificationAdmin)],
)
async def delete_qualification(db: DB, user: CurrentUser, qualificationId: Id) -> Response:
    """Needs perm_QualificationAdmin; its gallery and discussion go with it."""
    service.delete_qualification(db, user=user, qualification_id=qualificationId)
    return Response(status_code=204)


async def _shown(
    states: Annotated[
        list[State] | None,
        Query(description="The legend: the children's states shown (default all)"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000, description="Children per item")] = dashboards.ALL.limit,
    expanded: Annotated[list[Id] | None, Query(description="Items whose children all come")] = None,
) -> dashboards.Shown:
    return dashboards.Shown(
        states=frozenset(s.value for s in states) if states else dashboards.ALL.states,
        limit=limit,
        expanded=frozenset(expanded or ()),
    )


Shown = Annotated[dashboards.Shown, Depends(_shown)]


# The dashboards answer thousands of children (12 qualifications × 500 people): their JSON is written
# from the dashboards' own data without validating it again (core.schemas.json_response), and they are
# work routes (building that much JSON would hold the event loop: off it, DESIGN §1).
@router.get(
    "/qualifications/{qualificationId}/dashboard",
    dependencies=[require(Permission.TableauBord)],
    response_model=list[DashboardElement],
)
@work
def qualification_dashboard(
    db: DB,
    qualificationId: Id,
    shown: Shown,
    by: Literal["user", "module"] = "user",
) -> Response:
    """Needs perm_TableauBord. by=user: an item per person concerned, its modules as children; by=module:
    an item per module, the people concerned as children. 404 when unknown."""
    today = clock.today()
    return json_response(
        dashboards.qualification(db, qualification_id=qualificationId, by=by, today=today, shown=shown)
    )


@router.get(
    "/dashboards/qualifications/cartography/{cartographyId}",
    dependencies=[require(Permission.TableauBord)],
    response_model=CartographyDashboard,
)
@work
def cartography_qualifications(db: DB, user: CurrentUser, cartographyId: Id, shown: Shown) -> Response:
    """Needs perm_TableauBord; 404 unknown cartography, 403 hidden from the user. An item per
    qualification naming the cartography, the people concerned as children; and the coverage of each
    function the user sees (none, single, covered)."""
    return json_response(
        dashboards.cartography(db, user=user, cartography_id=cartographyId, today=clock.today(), shown=shown)
    )


@router.get(
    "/dashboards/qualifications/group/{groupId}",
    dependencies=[require(Permission.TableauBord)],
    response_model=GroupDashboard,
)
@work
def group_qualifications(db: DB, groupId: Id, shown: Shown) -> Response:
    """Needs perm_TableauBord; 404 groupNotFound. An item per qualification whose qualifiable groups
    include the group, the group's members as children."""
    return json_response(dashboards.group(db, group_id=groupId, today=clock.today(), shown=shown))


@router.get("/dashboards/qualifications/user/{userId}")
async def user_qualifications(db: DB, user: CurrentUser, userId: Id, shown: Shown) -> UserDashboard:
    """One's own: any signed-in user; another's: perm_TableauBord (else 403); 404 userNotFound. An
    item per qualification concerning the user, its modules as children; and the history of each of
    those modules: every grading of it, successful or failed, and what it counts for today."""
    ensure(policy.can_see_user(user, userId))
    today = clock.today()
    answer = dashboards.person(db, user_id=userId, today=today, shown=shown)
    answer["history"] = history.answer(
        history.of_person(db, user_id=userId, today=today, modules=history.concerning_modules(userId))
    )
    return UserDashboard.model_validate(answer)
