from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from spot.core.time import utcnow
from spot.db import Base, UtcDateTime


class MessageStatus(StrEnum):
    queued = "queued"
    # Taken by a sender until `claimed_until`; a sender that died leaves it to be taken again once.
    sending = "sending"
    sent = "sent"
    failed = "failed"
    # Kept for the person's next daily digest (their preference for its kind, notifications.kinds): never
    # sent alone; the digest gathers it, then marks it digested.
    held = "held"
    digested = "digested"


class OutboxMessage(Base):
    """A message to one person, written in the transaction of what causes it, then sent by a sender
    (notifications.outbox): nothing is lost when the mail server is down or the process is killed."""

    __tablename__ = "outbox_message"
    __table_args__ = (
        Index("ix_outbox_message_due", "status", "next_attempt_at"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow, index=True)
    # What it is about (a kind of the bell, an expiry, an invitation, a test): preferences are per kind.
    kind: Mapped[str] = mapped_column(String(60))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"), index=True)
    to_address: Mapped[str] = mapped_column(String(320))
    language: Mapped[str] = mapped_column(String(2))
    subject: Mapped[str] = mapped_column(String(300))
    text_body: Mapped[str] = mapped_column(Text)
    html_body: Mapped[str] = mapped_column(Text)
    # The page where the action is done, which a digest lists with the subject.
    link: Mapped[str | None] = mapped_column(String(500))
    # An iCalendar invitation (RFC 5546) sent with the message, and its method (REQUEST, CANCEL).
    calendar: Mapped[str | None] = mapped_column(Text)
    calendar_method: Mapped[str | None] = mapped_column(String(10))
    # The same key is never queued twice: a reminder window, an alert already told.
    dedupe_key: Mapped[str | None] = mapped_column(String(300), unique=True)
    status: Mapped[str] = mapped_column(String(10), default=MessageStatus.queued)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    claimed_until: Mapped[datetime | None] = mapped_column(UtcDateTime)
    # A sender took it and never said how it went (it died): it may have gone. Sent again once, never more.
    uncertain: Mapped[bool] = mapped_column(default=False)
    last_error: Mapped[str | None] = mapped_column(Text)
    sent_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class NotificationPreference(Base):
    """How a person chose to receive a kind of message (notifications.kinds): now, in the daily digest or
    never. No row: the kind's default."""

    __tablename__ = "notification_preference"

    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(60), primary_key=True)
    mode: Mapped[str] = mapped_column(String(10))


class MediationInvitation(Base):
    """The calendar invitation a person was last sent for a scheduled mediation: its SEQUENCE (RFC 5545
    §3.8.7.4, raised at each change), a fingerprint of what it said, and whether it was cancelled."""

    __tablename__ = "mediation_invitation"

    mediation_id: Mapped[int] = mapped_column(
        ForeignKey("mediation.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), primary_key=True)
    sequence: Mapped[int] = mapped_column(Integer, default=0)
    fingerprint: Mapped[str] = mapped_column(String(64))
    cancelled: Mapped[bool] = mapped_column(default=False)
