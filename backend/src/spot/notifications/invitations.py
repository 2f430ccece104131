"""Calendar invitations of scheduled mediations (RFC 5545 and 5546, built with `icalendar`).

The mediator and the participants of a scheduled mediation (status created, with a scheduling date)
each get a `METHOD:REQUEST` with one `UID` per mediation, its title, description and link, the start
and one hour, every invited person an attendee. A change of date, title, description or of who is
invited sends a new `SEQUENCE` to everyone still invited (their attendee list changed too); a person
added gets the current invitation; a person removed, or everyone when the mediation is cancelled, gets
`METHOD:CANCEL`. Once a mediation has started, what happens to it is no longer an invitation's
business. Each message goes through the outbox, in the transaction of the change, in the person's
language; a person without an e-mail address gets none."""

import dataclasses
import hashlib
from datetime import timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event, vCalAddress, vText
from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.config import get_settings
from spot.core import i18n
from spot.core.time import utcnow
from spot.mediations import service as mediations
from spot.mediations.models import Mediation, MediationParticipant, MediationStatus
from spot.notifications import outbox
from spot.notifications.compose import compose, link
from spot.notifications.models import MediationInvitation
from spot.users.models import User

KIND = "mediationInvitation"
DURATION = timedelta(hours=1)
REQUEST, CANCEL, PUBLISH = "REQUEST", "CANCEL", "PUBLISH"


def uid(mediation_id: int) -> str:
    host = urlsplit(get_settings().public_url).hostname or "spot"
    return f"mediation-{mediation_id}@{host}"


def _path(mediation_id: int) -> str:
    return f"/mediation/view/{mediation_id}"


def _fingerprint(mediation: Mediation, people: list[User]) -> str:
    """What an invitation says: the title, description, date and who is invited (its attendees)."""
    said = "\x1f".join(
        [
            mediation.title,
            mediation.description,
            (mediation.scheduling_date or utcnow()).isoformat(),
            ",".join(str(person.id) for person in sorted(people, key=lambda person: person.id)),
        ]
    )
    return hashlib.sha256(said.encode()).hexdigest()


def _address(user: User) -> vCalAddress:
    address = vCalAddress(f"mailto:{user.email}")
    address.params["cn"] = vText(f"{user.first_name} {user.last_name}".strip() or user.login)
    return address


def calendar(mediation: Mediation, *, method: str, sequence: int, people: list[User]) -> str:
    """The mediation as an iCalendar object: one event, its UID stable across changes."""
    start = mediation.scheduling_date or utcnow()
    cal = Calendar()
    cal.add("prodid", "-//Spot//Mediations//EN")
    cal.add("version", "2.0")
    cal.add("method", method)
    event = Event()
    event.add("uid", uid(mediation.id))
    event.add("sequence", sequence)
    event.add("dtstamp", utcnow())
    event.add("dtstart", start)
    event.add("dtend", start + DURATION)
    event.add("summary", mediation.title)
    event.add(
        "description",
        "\n\n".join(part for part in (mediation.description, link(_path(mediation.id))) if part),
    )
    event.add("url", link(_path(mediation.id)))
    event.add("status", "CANCELLED" if method == CANCEL else "CONFIRMED")
    mediator = next((p for p in people if p.id == mediation.mediator_id and p.email), None)
    if mediator is not None:
        event.add("organizer", _address(mediator))
    for person in people:
        if person.email:
            attendee = _address(person)
            attendee.params["role"] = vText(
                "CHAIR" if person.id == mediation.mediator_id else "REQ-PARTICIPANT"
            )
            attendee.params["partstat"] = vText("NEEDS-ACTION")
            event.add("attendee", attendee, encode=False)
    cal.add_component(event)
    return cal.to_ical().decode()


def _invited(db: Session, mediation: Mediation) -> list[User]:
    """The mediator and participants who can be written to: active, with an e-mail address (one given
    an address later is invited at the mediation's next change)."""
    participants = select(MediationParticipant.user_id).where(
        MediationParticipant.mediation_id == mediation.id
    )
    ids = set(db.scalars(participants)) | ({mediation.mediator_id} if mediation.mediator_id else set())
    reachable = select(User).where(User.id.in_(ids), User.active, User.email.is_not(None), User.email != "")
    return list(db.scalars(reachable.order_by(User.id))) if ids else []


def _words(mediation: Mediation, person: User, key: str) -> tuple[i18n.Language, str]:
    language: i18n.Language = "en" if person.language == "en" else "fr"
    start = (mediation.scheduling_date or utcnow()).astimezone(ZoneInfo(get_settings().timezone))
    date = start.strftime("%d/%m/%Y") if language == "fr" else start.strftime("%Y-%m-%d")
    return language, i18n.text(
        language, f"mail.{key}", title=mediation.title, date=date, time=start.strftime("%H:%M")
    )


def _send(
    db: Session,
    mediation: Mediation,
    person: User,
    *,
    method: str,
    sequence: int,
    people: list[User],
    changed: bool,
) -> None:
    body_key, subject_key = (
        ("cancel_body", "cancel_subject") if method == CANCEL else ("invitation_body", "invitation_subject")
    )
    if method == REQUEST and changed:
        subject_key = "invitation_changed_subject"
    language, sentence = _words(mediation, person, body_key)
    paragraphs = [sentence]
    if method == REQUEST and mediation.description:
        paragraphs.append(mediation.description)
    content = compose(
        language,
        name=person.first_name or person.login,
        subject=i18n.text(language, f"mail.{subject_key}", title=mediation.title),
        paragraphs=paragraphs,
        path=_path(mediation.id),
    )
    content = dataclasses.replace(
        content,
        calendar=calendar(mediation, method=method, sequence=sequence, people=people),
        calendar_method=method,
    )
    outbox.queue(
        db,
        user=person,
        kind=KIND,
        content=content,
        dedupe_key=f"{KIND}:{mediation.id}:{person.id}:{sequence}:{method}",
    )


def sync(db: Session, mediation_id: int) -> None:
    """What each person was last sent, brought in line with the mediation as it is now."""
    mediation = db.get(Mediation, mediation_id)
    if mediation is None or mediation.status not in (MediationStatus.created, MediationStatus.canceled):
        return
    scheduled = mediation.status == MediationStatus.created and mediation.scheduling_date is not None
    people = _invited(db, mediation) if scheduled else []
    sent = {
        row.user_id: row
        for row in db.scalars(
            select(MediationInvitation).where(MediationInvitation.mediation_id == mediation.id)
        )
    }
    fingerprint = _fingerprint(mediation, people)
    for person in people:
        row = sent.get(person.id)
        if row is not None and not row.cancelled and row.fingerprint == fingerprint:
            continue
        if row is None:
            row = MediationInvitation(
                mediation_id=mediation.id, user_id=person.id, sequence=0, fingerprint=fingerprint
            )
            db.add(row)
            changed = False
        else:
            changed = not row.cancelled
            row.sequence, row.fingerprint, row.cancelled = row.sequence + 1, fingerprint, False
        _send(db, mediation, person, method=REQUEST, sequence=row.sequence, people=people, changed=changed)
    still = {person.id for person in people}
    gone = [row for user_id, row in sent.items() if user_id not in still and not row.cancelled]
    for row in gone:
        removed = db.get(User, row.user_id)
        row.sequence, row.cancelled = row.sequence + 1, True
        if removed is not None:
            sequence = row.sequence
            _send(db, mediation, removed, method=CANCEL, sequence=sequence, people=[removed], changed=False)
    db.flush()


def download(db: Session, mediation: Mediation) -> str:
    """The mediation's .ics for one's own calendar (METHOD:PUBLISH), at the sequence last sent."""
    sequence = max(
        db.scalars(
            select(MediationInvitation.sequence).where(MediationInvitation.mediation_id == mediation.id)
        ),
        default=0,
    )
    people = _invited(db, mediation)
    return calendar(
        mediation,
        method=PUBLISH if mediation.status != MediationStatus.canceled else CANCEL,
        sequence=sequence,
        people=people,
    )


mediations.on_change(sync)
