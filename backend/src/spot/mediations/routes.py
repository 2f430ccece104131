from spot.account.auth import CurrentSession
from spot.core.auth import DB, CurrentUser
from spot.core.routing import api_router
from spot.core.schemas import Id, Instant
from spot.mediations import actionable, query, reporting, service
from spot.mediations.schemas import (
    ActionableMediation,
    MediationOut,
    MediationSave,
    MediationUpdate,
    ReportSave,
    StatusChange,
    TrackedAction,
    TrackingCheck,
    TrackingCheckResult,
    TrackingSave,
    UnplannedMediation,
)
from spot.querylang.lists import list_route

router = api_router(tags=["mediations"])

list_route(
    router,
    "/mediation/query",
    query.MEDIATIONS,
    name="query_mediations",
    description="A page of the mediations the user may read (creator, mediator, participant, or visible to "
    "them or their groups), filtered and sorted with the query language (fields: GET "
    "/querylang/mediation/fields).",
)


@router.get("/mediation/actionable")
async def actionable_mediations(db: DB, user: CurrentUser) -> list[ActionableMediation]:
    """The mediations awaiting something from the user (start, report, validate, sign), newest first,
    at most 50."""
    return actionable.actionable(db, user=user)


@router.post("/mediation")
async def create_mediation(db: DB, user: CurrentUser, data: MediationSave) -> MediationOut:
    """Any signed-in user; the mediation is created (status created) with the user as creator."""
    mediation = service.create(db, user=user, data=data)
    return service.view(db, user=user, mediation=mediation)


@router.post("/mediation/unplanned")
async def create_unplanned_mediation(db: DB, user: CurrentUser, data: UnplannedMediation) -> MediationOut:
    """'Create and start': the user creator and mediator, no participant, started at once."""
    mediation = service.create_unplanned(db, user=user, title=data.title)
    return service.view(db, user=user, mediation=mediation)


@router.get("/mediation/{mediationId}")
async def mediation(db: DB, user: CurrentUser, mediationId: Id) -> MediationOut:
    """403 when the user may not read it, 404 when unknown; counts as a read in the history."""
    return service.read(db, user=user, mediation_id=mediationId)


@router.post("/mediation/{mediationId}")
async def update_mediation(db: DB, user: CurrentUser, mediationId: Id, data: MediationUpdate) -> MediationOut:
    """A stale version answers 409 staleVersion; a field changed that the user may not change in this
    status, 409 fieldNotEditable naming each."""
    mediation = service.update(db, user=user, mediation_id=mediationId, data=data)
    return service.view(db, user=user, mediation=mediation)


@router.post("/mediation/{mediationId}/status")
async def change_status(db: DB, user: CurrentUser, mediationId: Id, data: StatusChange) -> MediationOut:
    """Start, pause, resume, stop, validate, invalidate or cancel, told by the current status and the
    target one: 403 when the user's role does not allow it, 409 illegalTransition (errors: the current
    status) when the mediation cannot go there."""
    mediation = service.change_status(db, user=user, mediation_id=mediationId, status=data.status)
    return service.view(db, user=user, mediation=mediation)


@router.post("/mediation/{mediationId}/tracking")
async def save_tracking(db: DB, user: CurrentUser, mediationId: Id, data: TrackingSave) -> MediationOut:
    """The periods of a stopped mediation (its mediator, while the report may be edited)."""
    reporting.save_tracking(
        db, user=user, mediation_id=mediationId, periods=data.periods, version=data.version
    )
    return service.get(db, user=user, mediation_id=mediationId)


@router.post("/mediation/{mediationId}/tracking/check")
async def check_tracking(
    db: DB, user: CurrentUser, mediationId: Id, data: TrackingCheck
) -> TrackingCheckResult:
    """As POST /mediation/{mediationId}/tracking, for periods being edited, without saving them: 200
    with the errors (field and message key) its 400 would carry, an empty list when it would save them.
    For the mediator while the report may be edited (403 otherwise)."""
    errors = reporting.check_tracking(db, user=user, mediation_id=mediationId, periods=data.periods)
    return TrackingCheckResult(errors=errors)


@router.get("/mediation/{mediationId}/trackedActions")
async def tracked_actions(
    db: DB,
    user: CurrentUser,
    mediationId: Id,
    start: Instant,
    stop: Instant,
) -> list[TrackedAction]:
    """What the mediator and the participants did between start and stop (whole minutes), from the
    history, on items the user may read; oldest first, at most 1000."""
    return reporting.tracked_actions(db, user=user, mediation_id=mediationId, start=start, stop=stop)


@router.post("/mediation/{mediationId}/report")
async def save_report(db: DB, user: CurrentUser, mediationId: Id, data: ReportSave) -> MediationOut:
    """The report's comment and chosen tracked actions (its mediator, stopped, not yet validated)."""
    reporting.save_report(
        db, user=user, mediation_id=mediationId, comment=data.comment, items=data.items, version=data.version
    )
    return service.get(db, user=user, mediation_id=mediationId)


@router.post("/mediation/{mediationId}/sign")
async def sign(db: DB, user: CurrentUser, session: CurrentSession, mediationId: Id) -> MediationOut:
    """A participant signs the validated mediation; 401 reauthenticationRequired when the password was
    last given more than 5 minutes ago."""
    mediation = service.sign(db, user=user, session=session, mediation_id=mediationId)
    return service.view(db, user=user, mediation=mediation)
