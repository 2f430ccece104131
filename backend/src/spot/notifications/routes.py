"""The outbox page (docs/notifications.md): what was queued, sent or failed, each message as it left,
and a test message."""

from typing import Annotated

from fastapi import Path, Query, Response

from spot.core.auth import DB, CurrentUser, require
from spot.core.errors import not_found
from spot.core.routing import api_router
from spot.core.schemas import Id
from spot.mediations import service as mediations
from spot.notifications import bell as bell  # loaded with the app: it listens to the areas' changes
from spot.notifications import invitations, service
from spot.notifications.models import MessageStatus
from spot.notifications.schemas import OutboxMessageOut, OutboxPage
from spot.permissions.names import Permission

router = api_router(prefix="/notifications", tags=["notifications"])
# A mediation's calendar invitation: the rule is this area's, the address the mediation's.
mediation_router = api_router(prefix="/mediation", tags=["mediations"])
MANAGE = [require(Permission.UserManagement)]
MessageId = Annotated[Id, Path(alias="messageId")]


@router.get("/outbox", dependencies=MANAGE)
async def outbox_page(
    db: DB,
    status: MessageStatus | None = None,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
) -> OutboxPage:
    """The newest messages first, 50 a page, of one status or all, with the count of each status."""
    return service.page(db, status=status, number=page)


@router.get("/outbox/{messageId}", dependencies=MANAGE)
async def outbox_message(db: DB, message_id: MessageId) -> OutboxMessageOut:
    """One message as it leaves: its plain text, its HTML and its invitation. 404 messageNotFound."""
    return service.get(db, message_id=message_id)


@router.post("/outbox/test", dependencies=MANAGE, status_code=201)
async def send_test_message(db: DB, user: CurrentUser) -> OutboxMessageOut:
    """A test message to the person asking, queued (sent within seconds when a mail server is set).
    400 noEmailAddress when they have none."""
    return service.send_test(db, user=user)


@mediation_router.get(
    "/{mediationId}/invitation.ics",
    response_class=Response,
    responses={200: {"content": {"text/calendar": {}}, "description": "The invitation (RFC 5545)"}},
)
async def mediation_invitation(
    db: DB, user: CurrentUser, mediation_id: Annotated[Id, Path(alias="mediationId")]
) -> Response:
    """The mediation as an event for one's calendar, with the UID of the invitations sent by e-mail
    (a scheduled mediation; 404 notScheduled otherwise). Readable by those who may read the mediation."""
    mediation = mediations.load(db, user=user, mediation_id=mediation_id)
    if mediation.scheduling_date is None:
        raise not_found("notScheduled")
    body = invitations.download(db, mediation)
    headers = {"Content-Disposition": f'attachment; filename="mediation-{mediation.id}.ics"'}
    return Response(body, media_type="text/calendar; charset=utf-8", headers=headers)
