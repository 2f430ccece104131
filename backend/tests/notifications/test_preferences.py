"""Preferences per kind of message: every kind of the bell and the mediation invitation, each with the
default a plant expects; a person reads and changes their own; outbox.queue applies them (never: nothing;
digest: held for the daily digest, never sent alone; now: queued); kinds people do not choose for are
always sent; every message links to the preferences page."""

from sqlalchemy import select

from spot.alerts.schemas import AlertKind
from spot.core.time import utcnow
from spot.db import session_factory
from spot.notifications import kinds, outbox
from spot.notifications.models import NotificationPreference, OutboxMessage
from spot.notifications.outbox import Content
from support import API, assert_error

PREFERENCES = f"{API}/notifications/preferences"
OUTBOX = f"{API}/notifications/outbox"


def _modes(body) -> dict[str, str]:
    return {p["kind"]: p["mode"] for p in body["preferences"]}


def _queue(db, user, kind):
    message = outbox.queue(
        db, user=user, kind=kind, content=Content(f"Sujet {kind}", "Texte", "<p>Texte</p>")
    )
    db.commit()
    return message


def test_every_kind_of_the_bell_and_the_invitation_is_chosen_for_with_a_plants_defaults():
    assert set(kinds.KINDS) == {kind.value for kind in AlertKind} | {"mediationInvitation"}
    assert kinds.default("subjectChanged") == "digest"
    for kind in ("mediationInvitation", "mediationToSign", "trainingPathToSign", "trainingModuleToSign"):
        assert kinds.default(kind) == "now"
    assert kinds.default("qualificationExpiring") == kinds.default("teamQualificationExpiring") == "now"
    assert kinds.default("test") is kinds.default("digest") is None


def test_a_person_reads_and_changes_their_own_preferences(client, db, make_user, login):
    alice, bruno = make_user("alice"), make_user("bruno")
    headers, other = login(alice), login(bruno)
    body = client.get(PREFERENCES, headers=headers).json()
    assert body["address"] is None  # Spot cannot write to her: the page says so
    assert [p["kind"] for p in body["preferences"]] == list(kinds.KINDS)
    first = body["preferences"][0]
    assert first == {"kind": "mediationInvitation", "group": "mediations", "mode": "now", "default": "now"}
    assert _modes(body)["subjectChanged"] == "digest"

    changes = [{"kind": "mediationToSign", "mode": "never"}, {"kind": "subjectChanged", "mode": "now"}]
    changed = client.put(PREFERENCES, headers=headers, json={"preferences": changes})
    assert changed.status_code == 200, changed.text
    modes = _modes(changed.json())
    assert (modes["mediationToSign"], modes["subjectChanged"], modes["mediationToStart"]) == (
        "never",
        "now",
        "now",
    )
    assert _modes(client.get(PREFERENCES, headers=headers).json()) == modes
    # Another person's stay as they were.
    assert _modes(client.get(PREFERENCES, headers=other).json())["mediationToSign"] == "now"

    # Back to its default: it follows the default from then on (no row kept).
    back = [{"kind": "subjectChanged", "mode": "digest"}]
    assert _modes(client.put(PREFERENCES, headers=headers, json={"preferences": back}).json())[
        "subjectChanged"
    ] == ("digest")
    kept = db.scalars(
        select(NotificationPreference.kind).where(NotificationPreference.user_id == alice.id)
    ).all()
    assert kept == ["mediationToSign"]


def test_unknown_kinds_and_modes_are_refused_by_name_and_nothing_changes(client, make_user, login):
    headers = login(make_user("claire"))
    changes = [
        {"kind": "mediationToSign", "mode": "never"},
        {"kind": "noSuchKind", "mode": "now"},
        {"kind": "subjectChanged", "mode": "weekly"},
    ]
    body = assert_error(
        client.put(PREFERENCES, headers=headers, json={"preferences": changes}),
        400,
        "unknownNotificationKind",
    )
    assert body["errors"] == [
        {"field": "preferences.1.kind", "code": "unknownNotificationKind"},
        {"field": "preferences.2.mode", "code": "unknownNotificationMode"},
    ]
    assert _modes(client.get(PREFERENCES, headers=headers).json())["mediationToSign"] == "now"
    assert_error(client.put(PREFERENCES, headers=headers, json={"preferences": [{"kind": "test"}]}), 422)
    assert_error(client.put(PREFERENCES, headers=headers, json={}), 422)
    assert_error(client.get(PREFERENCES), 401)
    assert_error(client.put(PREFERENCES, json={"preferences": []}), 401)


def test_the_outbox_honours_the_persons_preference_for_the_kind(client, db, make_user, login, smtp):
    person = make_user("denis", email="denis@usine.example")
    headers = login(person)
    assert client.get(PREFERENCES, headers=headers).json()["address"] == "denis@usine.example"
    changes = [{"kind": "mediationToSign", "mode": "never"}, {"kind": "trainingPathToSign", "mode": "digest"}]
    assert client.put(PREFERENCES, headers=headers, json={"preferences": changes}).status_code == 200

    assert _queue(db, person, "mediationToSign") is None  # never: nothing queued
    held = _queue(db, person, "trainingPathToSign")  # chose the digest
    subject = _queue(db, person, "subjectChanged")  # the digest by default
    now = _queue(db, person, "mediationToStart")  # now by default
    test = _queue(db, person, "test")  # not a kind people choose for: always sent
    assert (held.status, subject.status, now.status, test.status) == ("held", "held", "queued", "queued")
    kinds_queued = db.scalars(select(OutboxMessage.kind).order_by(OutboxMessage.id)).all()
    assert kinds_queued == ["trainingPathToSign", "subjectChanged", "mediationToStart", "test"]

    # Held messages are never sent alone: only the two queued ones reach the mail server.
    assert outbox.send_due(session_factory(), now=utcnow) == 2
    assert sorted(mail["Subject"] for mail in smtp.mailbox.received) == [
        "Sujet mediationToStart",
        "Sujet test",
    ]
    db.expire_all()
    assert db.get(OutboxMessage, held.id).status == "held"


def test_the_outbox_page_counts_and_lists_the_messages_kept_for_the_digest(client, db, make_user, login):
    admin = make_user("gestion", ["perm_UserManagement"], email="gestion@usine.example")
    _queue(db, admin, "subjectChanged")
    page = client.get(OUTBOX, headers=login(admin)).json()
    assert page["counts"]["held"] == 1 and page["counts"]["digested"] == 0
    assert [m["status"] for m in page["messages"]] == ["held"]
    held = client.get(OUTBOX, headers=login(admin), params={"status": "held"}).json()
    assert held["total"] == 1


def test_every_message_links_to_the_preferences_page(client, make_user, login):
    admin = make_user("gestion", ["perm_UserManagement"], email="gestion@usine.example")
    message = client.post(f"{OUTBOX}/test", headers=login(admin)).json()
    assert "Choisir les messages que vous recevez : http" in message["textBody"]
    assert message["textBody"].rstrip().endswith("/spotv2/account/notifications")
    assert '/spotv2/account/notifications">Choisir les messages que vous recevez</a>' in message["htmlBody"]
