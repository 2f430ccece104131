"""The daily digest: one message per person gathering what they chose to receive once a day, each
item's subject and link in their language, HTML escaped, through the outbox; what it gathered is never
gathered again; what was held after the scan's time waits for the next one."""

from datetime import timedelta

from sqlalchemy import select

from spot.core.time import utcnow
from spot.db import session_factory
from spot.notifications import outbox
from spot.notifications.compose import compose
from spot.notifications.digest import send_digests
from spot.notifications.models import OutboxMessage


def _hold(db, user, kind, subject, path):
    content = compose(user.language, name=user.first_name, subject=subject, paragraphs=["…"], path=path)
    message = outbox.queue(db, user=user, kind=kind, content=content)
    db.commit()
    assert message is not None and message.status == "held"
    return message


def _digests(db) -> list[OutboxMessage]:
    db.expire_all()
    return db.scalars(
        select(OutboxMessage).where(OutboxMessage.kind == "digest").order_by(OutboxMessage.id)
    ).all()


def test_one_digest_per_person_gathers_what_was_held_in_their_language_and_never_twice(db, make_user, smtp):
    emma = make_user("emma", email="emma@usine.example", first_name="Emma")
    fred = make_user("fred", email="fred@usine.example", first_name="Fred")
    fred.language = "en"
    db.commit()
    first = _hold(db, emma, "subjectChanged", "Sujet modifié : <Presse & Co>", "/subject/view/7")
    second = _hold(db, emma, "subjectChanged", "Sujet modifié : Cariste", "/subject/view/8")
    third = _hold(db, fred, "subjectChanged", "Subject changed: Forklift", "/subject/view/9")
    outbox.queue(
        db,
        user=emma,
        kind="mediationToStart",
        content=compose("fr", name="Emma", subject="Maintenant", paragraphs=[], path=None),
    )
    db.commit()

    assert send_digests(db, now=utcnow()) == 2
    db.commit()
    emma_digest, fred_digest = _digests(db)
    assert (emma_digest.user_id, emma_digest.status, fred_digest.user_id) == (emma.id, "queued", fred.id)
    assert emma_digest.subject == "Spot : votre récapitulatif du jour (2)"
    assert fred_digest.subject == "Spot: your daily digest (1)"
    text, html = emma_digest.text_body, emma_digest.html_body
    assert "- Sujet modifié : <Presse & Co>\n  http://" in text and "/spotv2/subject/view/7" in text
    assert "/spotv2/subject/view/8" in text and "Forklift" not in text
    assert "Sujet modifié : &lt;Presse &amp; Co&gt;</a></li>" in html and "<Presse" not in html
    assert '/spotv2/subject/view/7">' in html and "/spotv2/account/notifications" in html
    assert "Here are the messages kept for your daily digest:" in fred_digest.text_body
    for held in (first, second, third):
        assert db.get(OutboxMessage, held.id).status == "digested"

    # Gathered once: a second scan the same day has nothing to gather.
    assert send_digests(db, now=utcnow()) == 0
    db.commit()
    assert len(_digests(db)) == 2

    # The digests (and the message sent now) reach the mail server; nothing held is sent alone.
    assert outbox.send_due(session_factory(), now=utcnow) == 3
    subjects = sorted(mail["Subject"] for mail in smtp.mailbox.received)
    assert subjects == ["Maintenant", "Spot : votre récapitulatif du jour (2)", "Spot: your daily digest (1)"]


def test_what_is_held_after_the_scans_time_waits_for_the_next_digest(db, make_user):
    gina = make_user("gina", email="gina@usine.example")
    scan_time = utcnow()
    later = _hold(db, gina, "subjectChanged", "Plus tard", "/subject/view/1")
    assert send_digests(db, now=scan_time - timedelta(seconds=1)) == 0
    db.commit()
    db.expire_all()
    assert db.get(OutboxMessage, later.id).status == "held"
    assert send_digests(db, now=utcnow() + timedelta(seconds=1)) == 1
    db.commit()
    db.expire_all()
    assert db.get(OutboxMessage, later.id).status == "digested"


def test_a_person_who_left_gets_no_digest_and_their_held_messages_are_not_gathered_again(db, make_user):
    henri = make_user("henri", email="henri@usine.example")
    held = _hold(db, henri, "subjectChanged", "Sujet", "/subject/view/1")
    henri.active = False
    db.commit()
    assert send_digests(db, now=utcnow()) == 0
    db.commit()
    assert _digests(db) == [] and db.get(OutboxMessage, held.id).status == "digested"
