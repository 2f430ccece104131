"""The daily digest: the messages people chose to receive once a day (notifications.kinds, mode digest)
wait in the outbox, held; the daily scan (notifications.scan, one process at a time by its lease)
gathers each person's into one message, queued through the outbox like any other, and marks them
digested so that none is gathered twice. Bounded work: a few statements whatever the number of people
(the held messages read at once, their people in chunks, the digests written by outbox.queue_many)."""

from datetime import datetime
from itertools import groupby

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from spot.core import i18n
from spot.notifications import outbox
from spot.notifications.compose import compose, mail_words
from spot.notifications.kinds import DIGEST
from spot.notifications.models import MessageStatus, OutboxMessage
from spot.users.models import User

# The page the digest opens: the person's own dashboard, where the bell's actions are.
DASHBOARD_PATH = "/dashboards/mine"
# Ids per IN (…) list: within SQLite's and PostgreSQL's limits on bound parameters.
_CHUNK = 900


def _chunks(ids: list[int]) -> list[list[int]]:
    return [ids[start : start + _CHUNK] for start in range(0, len(ids), _CHUNK)]


def send_digests(db: Session, *, now: datetime) -> int:
    """One digest per person gathering their messages held until `now` (each item's subject and link,
    oldest first), in the person's language, in the caller's transaction; how many digests were queued.
    A person who left or has no address any more gets none; their held messages are marked digested
    all the same (they would never be sent)."""
    held = db.execute(
        select(OutboxMessage.id, OutboxMessage.user_id, OutboxMessage.subject, OutboxMessage.link)
        .where(OutboxMessage.status == MessageStatus.held, OutboxMessage.created_at <= now)
        .order_by(OutboxMessage.user_id, OutboxMessage.id)
    ).all()
    if not held:
        return 0
    user_ids = sorted({row.user_id for row in held if row.user_id is not None})
    people = {
        user.id: user
        for ids in _chunks(user_ids)
        for user in db.scalars(select(User).where(User.id.in_(ids)))
    }
    digests = []
    for user_id, rows in groupby(held, key=lambda row: row.user_id):
        person = people.get(user_id) if user_id is not None else None
        if person is None:
            continue
        messages = list(rows)
        language: i18n.Language = "en" if person.language == "en" else "fr"
        words = mail_words(language)
        content = compose(
            language,
            name=person.first_name or person.login,
            subject=words["digest_subject"].format(count=len(messages)),
            paragraphs=[words["digest_body"]],
            path=DASHBOARD_PATH,
            items=[(message.subject, message.link) for message in messages],
        )
        # The messages it gathers name it: the same digest is never queued twice.
        key = f"{DIGEST}:{person.id}:{messages[0].id}-{messages[-1].id}"
        digests.append(outbox.Queued(user=person, kind=DIGEST, content=content, dedupe_key=key))
    for ids in _chunks([row.id for row in held]):
        db.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id.in_(ids), OutboxMessage.status == MessageStatus.held)
            .values(status=MessageStatus.digested)
            # The session holds none of them (read as plain rows): nothing of it to bring in line.
            .execution_options(synchronize_session=False)
        )
    return outbox.queue_many(db, digests)
