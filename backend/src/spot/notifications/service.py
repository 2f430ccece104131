"""The outbox as administrators read it, and the test message they send to themselves."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from spot.config import get_settings
from spot.core import i18n
from spot.core.errors import ApiError, not_found
from spot.core.principal import Principal
from spot.notifications import outbox
from spot.notifications.compose import compose
from spot.notifications.models import MessageStatus, OutboxMessage
from spot.notifications.schemas import OutboxCard, OutboxMessageOut, OutboxPage
from spot.users.models import User

PAGE_SIZE = 50
TEST = "test"


def page(db: Session, *, status: MessageStatus | None, number: int) -> OutboxPage:
    counts = dict.fromkeys(MessageStatus, 0)
    for state, count in db.execute(select(OutboxMessage.status, func.count()).group_by(OutboxMessage.status)):
        counts[MessageStatus(state)] = count
    query = select(OutboxMessage)
    if status is not None:
        query = query.where(OutboxMessage.status == status)
    found = db.scalars(
        query.order_by(OutboxMessage.id.desc()).offset((number - 1) * PAGE_SIZE).limit(PAGE_SIZE)
    )
    return OutboxPage(
        messages=[OutboxCard.model_validate(message) for message in found],
        total=counts[status] if status is not None else sum(counts.values()),
        counts=counts,
        sending_enabled=bool(get_settings().smtp_url),
    )


def get(db: Session, *, message_id: int) -> OutboxMessageOut:
    message = db.get(OutboxMessage, message_id)
    if message is None:
        raise not_found("messageNotFound")
    return OutboxMessageOut.model_validate(message)


def send_test(db: Session, *, user: Principal) -> OutboxMessageOut:
    """A test message to the person asking, in their language; 400 noEmailAddress when they have none."""
    person = db.get(User, user.id)
    if person is None or not person.email:
        raise ApiError(400, "noEmailAddress")
    language: i18n.Language = "en" if person.language == "en" else "fr"
    words = i18n.group(language, "mail")
    content = compose(
        language,
        name=person.first_name or person.login,
        subject=words["test_subject"],
        paragraphs=[words["test_body"].format(name=user.display_name)],
        path="/administration/outbox",
    )
    message = outbox.queue(db, user=person, kind=TEST, content=content)
    assert message is not None
    return OutboxMessageOut.model_validate(message)
