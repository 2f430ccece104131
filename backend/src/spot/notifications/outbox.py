"""The outbox: messages are queued in the database in the transaction of what causes them, then a
sender takes the due ones and hands them to the mail server.

- Taking a message is a compare-and-set on its status: of several senders (processes, hosts), one
  takes each message.
- A message the server cannot take now (down, a 4xx answer) waits and is tried again after a growing
  delay (RETRY_DELAYS); one it refuses for good (a 5xx answer: no such address) is marked failed with
  the reason, and the others go on.
- A sender that dies between the server's acceptance and the record of it leaves the message taken:
  once the claim runs out it is sent again, marked `uncertain`; an uncertain message found taken again
  is not sent a third time (failed, "may have been sent"). A message goes twice at most, never more.
- With no mail server set (SPOT_SMTP_URL), messages stay queued: administrators read them on the
  outbox page.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import insert, or_, select, update
from sqlalchemy.orm import Session

from spot.config import get_settings
from spot.core.time import utcnow
from spot.notifications import mail
from spot.notifications.kinds import Mode
from spot.notifications.models import MessageStatus as S
from spot.notifications.models import OutboxMessage
from spot.notifications.preferences import service as preferences
from spot.users.models import User

log = logging.getLogger("spot.notifications")

# After the first failure, the next try waits this long, then each next delay; past the last, failed.
RETRY_DELAYS = [timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=30), timedelta(hours=2)]
RETRY_DELAYS += [timedelta(hours=6), timedelta(hours=12), timedelta(hours=24)]
# How long a sender holds a message it took, at most (a mail server's answers take 30 s at most each).
CLAIM = timedelta(minutes=5)
# At most so many messages per round of a sender.
BATCH = 100
MAY_HAVE_BEEN_SENT = "The sender stopped twice while sending it: it may have been sent"


@dataclass(frozen=True)
class Content:
    """What a message says, in the person's language: subject, plain text and HTML (every user text in
    it escaped), and an invitation."""

    subject: str
    text: str
    html: str
    calendar: str | None = None
    calendar_method: str | None = None
    # The page where the action is done (a digest lists it with the subject).
    link: str | None = None


def queue(
    db: Session, *, user: User, kind: str, content: Content, dedupe_key: str | None = None
) -> OutboxMessage | None:
    """A message to `user`, in the caller's transaction, as the person chose for its kind
    (notifications.preferences): sent now, or held for their next daily digest (status held); None when
    they chose never, for a person without an e-mail address (the bell only) or who left
    (deactivated), or when `dedupe_key` was already queued (never told twice). A kind people do not
    choose for (notifications.kinds: the test message, the digest) is always sent."""
    if not user.email or not user.active:
        return None
    mode = preferences.mode(db, user_id=user.id, kind=kind)
    if mode == Mode.never:
        return None
    if dedupe_key is not None and db.scalar(
        select(OutboxMessage.id).where(OutboxMessage.dedupe_key == dedupe_key)
    ):
        return None
    message = OutboxMessage(
        kind=kind,
        user_id=user.id,
        to_address=user.email,
        language=user.language,
        subject=mail.one_line(content.subject)[:300],
        text_body=content.text,
        html_body=content.html,
        calendar=content.calendar,
        calendar_method=content.calendar_method,
        link=content.link,
        dedupe_key=dedupe_key,
        status=S.held if mode == Mode.digest else S.queued,
        next_attempt_at=utcnow(),
    )
    db.add(message)
    db.flush()
    return message


@dataclass(frozen=True)
class Queued:
    """One message for queue_many: as queue()'s arguments."""

    user: User
    kind: str
    content: Content
    dedupe_key: str | None = None


def queue_many(db: Session, messages: list[Queued]) -> int:
    """queue() for many messages at once (the daily scan's thousands of reminders), with its rules, in
    a few statements whatever their number: the dedupe keys already queued read at once, the
    preferences of all the people at once, the messages written in one INSERT. How many were written
    (queued or held for a digest)."""
    from spot.db import plain
    from spot.notifications.kinds import default
    from spot.notifications.models import NotificationPreference as P

    candidates = [m for m in messages if m.user.email and m.user.active]
    keys = sorted({m.dedupe_key for m in candidates if m.dedupe_key is not None})
    user_ids = sorted({m.user.id for m in candidates})
    kinds = sorted({m.kind for m in candidates})
    taken: set[str | None] = set()
    chosen: dict[tuple[int, str], str] = {}
    for start in range(0, max(len(keys), len(user_ids)), _CHUNK):
        if part := keys[start : start + _CHUNK]:
            found = select(OutboxMessage.dedupe_key).where(OutboxMessage.dedupe_key.in_(part))
            taken.update(plain(db).execute(found).scalars())
        if people := user_ids[start : start + _CHUNK]:
            rows = select(P.user_id, P.kind, P.mode).where(P.user_id.in_(people), P.kind.in_(kinds))
            chosen.update({(user_id, kind): mode for user_id, kind, mode in plain(db).execute(rows)})
    rows_out = []
    now = utcnow()
    for m in candidates:
        if m.dedupe_key is not None and m.dedupe_key in taken:
            continue
        kind_default = default(m.kind)
        mode = None if kind_default is None else Mode(chosen.get((m.user.id, m.kind), kind_default))
        if mode == Mode.never:
            continue
        if m.dedupe_key is not None:
            taken.add(m.dedupe_key)
        rows_out.append(
            {
                "created_at": now,
                "kind": m.kind,
                "user_id": m.user.id,
                "to_address": m.user.email,
                "language": m.user.language,
                "subject": mail.one_line(m.content.subject)[:300],
                "text_body": m.content.text,
                "html_body": m.content.html,
                "calendar": m.content.calendar,
                "calendar_method": m.content.calendar_method,
                "link": m.content.link,
                "dedupe_key": m.dedupe_key,
                "status": S.held if mode == Mode.digest else S.queued,
                "attempts": 0,
                "uncertain": False,
                "next_attempt_at": now,
            }
        )
    for start in range(0, len(rows_out), 1000):
        plain(db).execute(insert(OutboxMessage), rows_out[start : start + 1000])
    return len(rows_out)


_CHUNK = 900


def _take(db: Session, now: datetime) -> list[int]:
    """The ids of the due messages this sender took, each by a compare-and-set: of two senders reading
    the same message, one takes it."""
    due = select(OutboxMessage.id, OutboxMessage.status, OutboxMessage.uncertain).where(
        or_(
            (OutboxMessage.status == S.queued) & (OutboxMessage.next_attempt_at <= now),
            (OutboxMessage.status == S.sending) & (OutboxMessage.claimed_until <= now),
        )
    )
    taken = []
    for message_id, status, uncertain in db.execute(due.order_by(OutboxMessage.id).limit(BATCH)).all():
        guard = (OutboxMessage.id == message_id) & (OutboxMessage.status == status)
        values: dict[str, object] = {}
        if status == S.sending:
            # Its sender stopped while sending it: it may have gone. Once more at most.
            guard &= OutboxMessage.claimed_until <= now
            if uncertain:
                done = {"status": S.failed, "last_error": MAY_HAVE_BEEN_SENT, "claimed_until": None}
                db.execute(update(OutboxMessage).where(guard).values(**done))
                continue
            values["uncertain"] = True
        took = db.execute(
            update(OutboxMessage)
            .where(guard)
            .values(
                status=S.sending, claimed_until=now + CLAIM, attempts=OutboxMessage.attempts + 1, **values
            )
        )
        if took.rowcount:  # type: ignore[attr-defined]
            taken.append(message_id)
    db.commit()
    return taken


def send_due(session: Callable[[], Session], *, now: Callable[[], datetime] = utcnow) -> int:
    """One round of a sender: takes the due messages and sends them, each recorded as soon as the mail
    server answered. How many were sent. Messages wait when no mail server is set."""
    settings = get_settings()
    if not settings.smtp_url:
        return 0
    server = mail.SmtpServer.parse(settings.smtp_url)
    sent = 0
    with session() as db, mail.Connection(server) as connection:
        for message_id in _take(db, now()):
            message = db.get(OutboxMessage, message_id)
            if message is None:
                continue
            outgoing = mail.Outgoing(
                sender=settings.mail_from,
                to=message.to_address,
                to_name=_name(db, message.user_id),
                subject=message.subject,
                text=message.text_body,
                html=message.html_body,
                calendar=message.calendar,
                calendar_method=message.calendar_method,
            )
            try:
                connection.send(outgoing)
            except mail.Refused as exc:
                _record(db, message, S.failed, error=str(exc))
                log.warning("message %s refused for good: %s", message.id, exc)
            except Exception as exc:  # the server is down, cut the line or said "later": wait
                _retry(db, message, error=f"{type(exc).__name__}: {exc}", now=now())
            else:
                _record(db, message, S.sent)
                sent += 1
    return sent


def _name(db: Session, user_id: int | None) -> str:
    user = db.get(User, user_id) if user_id is not None else None
    return f"{user.first_name} {user.last_name}".strip() if user is not None else ""


def _record(db: Session, message: OutboxMessage, status: S, *, error: str | None = None) -> None:
    message.status = status
    message.claimed_until = None
    message.last_error = error
    if status == S.sent:
        message.sent_at = utcnow()
    db.commit()


def _retry(db: Session, message: OutboxMessage, *, error: str, now: datetime) -> None:
    if message.attempts > len(RETRY_DELAYS):
        _record(db, message, S.failed, error=error)
        log.warning("message %s given up after %s attempts: %s", message.id, message.attempts, error)
        return
    message.status = S.queued
    message.claimed_until = None
    message.last_error = error
    message.next_attempt_at = now + RETRY_DELAYS[message.attempts - 1]
    db.commit()
    log.info("message %s waits: %s", message.id, error)
