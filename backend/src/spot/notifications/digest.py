"""The daily digest: the messages people chose to receive once a day (notifications.kinds, mode digest)
wait in the outbox, held; the daily scan (notifications.scan) gathers each person's into one message,
queued through the outbox like any other, and marks them digested so that none is gathered twice."""

from datetime import datetime
from itertools import groupby

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from spot.core import i18n
from spot.notifications import outbox
from spot.notifications.compose import compose
from spot.notifications.kinds import DIGEST
from spot.notifications.models import MessageStatus, OutboxMessage
from spot.users.models import User

# The page the digest opens: the person's own dashboard, where the bell's actions are.
DASHBOARD_PATH = "/dashboards/mine"


def send_digests(db: Session, *, now: datetime) -> int:
    """One digest per person gathering their messages held until `now`, each item's subject and link,
    in the person's language, in the caller's transaction. How many digests were queued. A person who
    left or has no address any more gets none; their held messages are marked digested all the same."""
    held = db.execute(
        select(OutboxMessage.id, OutboxMessage.user_id, OutboxMessage.subject, OutboxMessage.link)
        .where(OutboxMessage.status == MessageStatus.held, OutboxMessage.created_at <= now)
        .order_by(OutboxMessage.user_id, OutboxMessage.id)
    ).all()
    queued = 0
    for user_id, rows in groupby(held, key=lambda row: row.user_id):
        messages = list(rows)
        ids = [message.id for message in messages]
        # Of two scans gathering the same messages at once, one marks them, and only it sends them.
        took = db.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id.in_(ids), OutboxMessage.status == MessageStatus.held)
            .values(status=MessageStatus.digested)
        )
        if took.rowcount != len(ids):  # type: ignore[attr-defined]
            continue
        person = db.get(User, user_id) if user_id is not None else None
        if person is None:
            continue
        language: i18n.Language = "en" if person.language == "en" else "fr"
        words = i18n.group(language, "mail")
        content = compose(
            language,
            name=person.first_name or person.login,
            subject=words["digest_subject"].format(count=len(messages)),
            paragraphs=[words["digest_body"]],
            path=DASHBOARD_PATH,
            items=[(message.subject, message.link) for message in messages],
        )
        key = f"{DIGEST}:{person.id}:{ids[0]}-{ids[-1]}"
        if outbox.queue(db, user=person, kind=DIGEST, content=content, dedupe_key=key) is not None:
            queued += 1
    return queued
