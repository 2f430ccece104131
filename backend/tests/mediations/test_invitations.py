"""Calendar invitations of scheduled mediations (RFC 5545/5546): the mediator and the participants get
a REQUEST with one UID per mediation; a change sends a new SEQUENCE, a person removed or a cancelled
mediation a CANCEL; each in the person's language, through the outbox to a real SMTP server; the
mediation page's .ics has the same UID."""

from datetime import timedelta

import pytest
from icalendar import Calendar
from sqlalchemy import select

from spot.core.time import utcnow
from spot.db import session_factory
from spot.notifications import outbox
from spot.notifications.models import OutboxMessage
from spot.users.models import User
from support import API, assert_error


@pytest.fixture
def addresses(db, cast):
    """The mediator and the participant have addresses (the participant reads English); the others none."""
    for role, language in (("mediator", "fr"), ("participant", "en")):
        user = db.get(User, cast.id(role))
        user.email, user.language = f"{role}@usine.example", language
    db.commit()


def _messages(db, mediation_id: int) -> list[OutboxMessage]:
    db.expire_all()
    return list(
        db.scalars(
            select(OutboxMessage)
            .where(OutboxMessage.kind == "mediationInvitation")
            .order_by(OutboxMessage.id)
        )
    )


def _event(message: OutboxMessage):
    calendar = Calendar.from_ical(message.calendar)
    [event] = calendar.walk("VEVENT")
    return calendar, event


def _by_address(messages):
    return {m.to_address: m for m in messages}


def test_a_scheduled_mediation_invites_its_mediator_and_participants(
    client, db, cast, new_mediation, addresses
):
    mediation = new_mediation()
    sent = _by_address(_messages(db, mediation["id"]))
    assert set(sent) == {"mediator@usine.example", "participant@usine.example"}
    calendar, event = _event(sent["participant@usine.example"])
    assert (str(calendar["method"]), sent["participant@usine.example"].calendar_method) == (
        "REQUEST",
        "REQUEST",
    )
    assert str(event["uid"]) == f"mediation-{mediation['id']}@127.0.0.1"
    assert int(event["sequence"]) == 0 and str(event["summary"]) == "Réunion"
    start = event.decoded("dtstart")
    assert start.isoformat().replace("+00:00", "Z") == mediation["schedulingDate"]
    assert event.decoded("dtend") - start == timedelta(hours=1)
    attendees = {str(a) for a in event.get("attendee")}
    assert attendees == {"mailto:mediator@usine.example", "mailto:participant@usine.example"}
    assert str(event["organizer"]) == "mailto:mediator@usine.example"
    assert sent["participant@usine.example"].subject == "Mediation: Réunion"
    assert sent["mediator@usine.example"].subject == "Médiation : Réunion"
    assert f"/spotv2/mediation/view/{mediation['id']}" in sent["mediator@usine.example"].text_body


def test_a_change_sends_a_new_sequence_with_the_same_uid_and_a_removal_a_cancel(
    client, db, cast, new_mediation, save_body, addresses
):
    mediation = new_mediation()
    first = _by_address(_messages(db, mediation["id"]))
    later = (utcnow() + timedelta(days=3)).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    url = f"{API}/mediation/{mediation['id']}"
    saved = client.post(
        url,
        json=save_body(schedulingDate=later, version=mediation["version"]),
        headers=cast.headers["creator"],
    )
    assert saved.status_code == 200, saved.text
    changed = _by_address(_messages(db, mediation["id"])[2:])
    assert set(changed) == {"mediator@usine.example", "participant@usine.example"}
    _, event = _event(changed["participant@usine.example"])
    assert int(event["sequence"]) == 1 and str(event["uid"]) == str(
        _event(first["participant@usine.example"])[1]["uid"]
    )
    assert changed["participant@usine.example"].subject == "Mediation changed: Réunion"

    unchanged = client.post(
        url,
        json=save_body(schedulingDate=later, version=saved.json()["version"]),
        headers=cast.headers["creator"],
    )
    assert (
        unchanged.status_code == 200 and len(_messages(db, mediation["id"])) == 4
    )  # nothing changed, nothing sent

    removed = client.post(
        url,
        json=save_body(
            schedulingDate=later, participants=[cast.id("other")], version=saved.json()["version"]
        ),
        headers=cast.headers["creator"],
    )
    assert removed.status_code == 200, removed.text
    # "other", who has no address, gets nothing; the mediator, still invited, a new sequence whose
    # attendees no longer name the participant removed.
    after = _by_address(_messages(db, mediation["id"])[4:])
    assert set(after) == {"participant@usine.example", "mediator@usine.example"}
    cancel = after["participant@usine.example"]
    calendar, event = _event(cancel)
    assert (str(calendar["method"]), int(event["sequence"])) == ("CANCEL", 2)
    assert cancel.subject == "Mediation cancelled: Réunion"
    calendar, event = _event(after["mediator@usine.example"])
    assert (str(calendar["method"]), int(event["sequence"])) == ("REQUEST", 2)
    assert str(event["attendee"]) == "mailto:mediator@usine.example"  # one attendee: not a list
    assert str(event["uid"]) == f"mediation-{mediation['id']}@127.0.0.1"


def test_a_person_given_an_address_later_is_invited_at_the_next_change(
    client, db, cast, new_mediation, save_body, addresses
):
    mediation = new_mediation(participants=[cast.id("participant"), cast.id("other")])
    assert "other@usine.example" not in _by_address(_messages(db, mediation["id"]))
    other = db.get(User, cast.id("other"))
    other.email = "other@usine.example"
    db.commit()
    saved = client.post(
        f"{API}/mediation/{mediation['id']}",
        json=save_body(
            title="Réunion décalée",
            participants=[cast.id("participant"), cast.id("other")],
            version=mediation["version"],
        ),
        headers=cast.headers["creator"],
    )
    assert saved.status_code == 200, saved.text
    invited = [m for m in _messages(db, mediation["id"]) if m.to_address == "other@usine.example"]
    [invitation] = invited
    _, event = _event(invitation)
    assert (invitation.calendar_method, int(event["sequence"])) == ("REQUEST", 0)
    assert invitation.subject == "Médiation : Réunion décalée"


def test_cancelling_the_mediation_cancels_everyones_invitation(client, db, cast, new_mediation, addresses):
    mediation = new_mediation()
    answer = client.post(
        f"{API}/mediation/{mediation['id']}/status",
        json={"status": "canceled"},
        headers=cast.headers["mediator"],
    )
    assert answer.status_code == 200, answer.text
    cancels = _messages(db, mediation["id"])[2:]
    assert {m.to_address for m in cancels} == {"mediator@usine.example", "participant@usine.example"}
    assert {m.calendar_method for m in cancels} == {"CANCEL"}
    assert {str(_event(m)[1]["status"]) for m in cancels} == {"CANCELLED"}


def test_a_started_mediation_sends_no_more_invitation(client, db, cast, new_mediation, addresses):
    mediation = new_mediation()
    answer = client.post(
        f"{API}/mediation/{mediation['id']}/status",
        json={"status": "started"},
        headers=cast.headers["mediator"],
    )
    assert answer.status_code == 200 and len(_messages(db, mediation["id"])) == 2


def test_the_invitation_reaches_the_mail_server_as_a_calendar_part(
    client, db, cast, new_mediation, addresses, smtp
):
    mediation = new_mediation()
    assert outbox.send_due(session_factory()) == 2
    [mail] = smtp.mailbox.to("participant@usine.example")
    [part] = [p for p in mail.walk() if p.get_content_type() == "text/calendar"]
    assert part.get_param("method") == "REQUEST"
    [event] = Calendar.from_ical(part.get_content()).walk("VEVENT")
    assert str(event["uid"]) == f"mediation-{mediation['id']}@127.0.0.1"


def test_the_mediation_page_offers_its_ics_to_those_who_read_it(client, db, cast, new_mediation):
    mediation = new_mediation()
    answer = client.get(
        f"{API}/mediation/{mediation['id']}/invitation.ics", headers=cast.headers["participant"]
    )
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/calendar")
    calendar = Calendar.from_ical(answer.content)
    [event] = calendar.walk("VEVENT")
    assert (str(calendar["method"]), str(event["uid"])) == (
        "PUBLISH",
        f"mediation-{mediation['id']}@127.0.0.1",
    )
    assert_error(
        client.get(f"{API}/mediation/{mediation['id']}/invitation.ics", headers=cast.headers["other"]), 403
    )
    assert_error(client.get(f"{API}/mediation/999999/invitation.ics", headers=cast.headers["other"]), 404)
    unplanned = client.post(
        f"{API}/mediation/unplanned", json={"title": "Tout de suite"}, headers=cast.headers["creator"]
    ).json()
    assert_error(
        client.get(f"{API}/mediation/{unplanned['id']}/invitation.ics", headers=cast.headers["creator"]),
        404,
        "notScheduled",
    )
