from datetime import datetime

from pydantic import Field

from spot.core.schemas import CamelModel
from spot.notifications.models import MessageStatus


class OutboxCard(CamelModel):
    id: int
    created_at: datetime
    kind: str = Field(description="What it is about: a kind of the bell, an expiry, an invitation, test")
    to_address: str
    language: str
    subject: str
    status: MessageStatus
    attempts: int
    next_attempt_at: datetime
    last_error: str | None
    sent_at: datetime | None


class OutboxMessageOut(OutboxCard):
    text_body: str
    html_body: str
    calendar: str | None


class OutboxPage(CamelModel):
    messages: list[OutboxCard]
    total: int = Field(description="How many messages of this status (all when none is asked for)")
    counts: dict[MessageStatus, int] = Field(description="How many messages in each status")
    sending_enabled: bool = Field(description="False when no mail server is set: messages wait here")
