"""The outbox: every message is written first, then sent by a sender to a real SMTP server; nothing is
lost when the server is down, a message the server refuses fails alone, a message goes twice at most,
two senders send each message once, and no name or title can add a header."""

import os
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError
from sqlalchemy import func, select

from mail_server import free_port
from spot.config import Settings
from spot.core.time import utcnow
from spot.db import session_factory
from spot.notifications import outbox, sender
from spot.notifications.models import OutboxMessage
from spot.notifications.outbox import Content
from support import API, assert_error

OUTBOX = f"{API}/notifications/outbox"
SPOT = str(Path(sys.executable).parent / "spot")


def _queue(db, user, subject="Sujet", text="Texte", html="<p>Texte</p>", **options):
    message = outbox.queue(db, user=user, kind="test", content=Content(subject, text, html), **options)
    db.commit()
    return message


def _send(now=None) -> int:
    return outbox.send_due(session_factory(), now=(lambda: now) if now else utcnow)


def _reload(db, message_id: int) -> OutboxMessage:
    db.expire_all()
    return db.get(OutboxMessage, message_id)


@pytest.fixture
def admin(make_user, login):
    user = make_user("gestion", ["perm_UserManagement"], email="gestion@usine.example", first_name="Gaëlle")
    return user, login(user)


def test_the_test_message_is_queued_for_the_person_asking_and_the_outbox_shows_it(
    client, db, admin, make_user, login
):
    user, headers = admin
    page = client.get(OUTBOX, headers=headers).json()
    assert (page["messages"], page["total"], page["sendingEnabled"]) == ([], 0, False)
    queued = client.post(f"{OUTBOX}/test", headers=headers)
    assert queued.status_code == 201, queued.text
    body = queued.json()
    assert (body["toAddress"], body["status"], body["kind"], body["language"]) == (
        "gestion@usine.example",
        "queued",
        "test",
        "fr",
    )
    assert body["subject"] == "Spot : message d'essai" and "Bonjour Gaëlle," in body["textBody"]
    assert "/spotv2/administration/outbox" in body["textBody"]
    page = client.get(OUTBOX, headers=headers).json()
    assert [m["id"] for m in page["messages"]] == [body["id"]] and page["counts"]["queued"] == 1
    assert (
        client.get(f"{OUTBOX}/{body['id']}", headers=headers).json()["htmlBody"].startswith("<!DOCTYPE html>")
    )
    assert_error(client.get(f"{OUTBOX}/999999", headers=headers), 404, "messageNotFound")
    assert _send() == 0  # no mail server: it waits
    assert _reload(db, body["id"]).status == "queued"

    nobody = login(make_user("sansmail", ["perm_UserManagement"]))
    assert_error(client.post(f"{OUTBOX}/test", headers=nobody), 400, "noEmailAddress")
    other = login(make_user("autre", ["perm_TableauBord"]))
    assert_error(client.get(OUTBOX, headers=other), 403)
    assert_error(client.post(f"{OUTBOX}/test", headers=other), 403)


def test_a_queued_message_reaches_the_mail_server_in_plain_text_and_html(client, db, admin, smtp):
    user, headers = admin
    user.language = "en"
    db.commit()
    message_id = client.post(f"{OUTBOX}/test", headers=headers).json()["id"]
    assert _send() == 1
    [mail] = smtp.mailbox.received
    assert mail["Subject"] == "Spot: a test message"
    assert mail["From"] == "Spot <spot@usine-demo.example>"
    assert mail["To"].addresses[0].addr_spec == "gestion@usine.example"
    assert "Hello Gaëlle," in mail.get_body(("plain",)).get_content()
    assert "<p>Hello Gaëlle,</p>" in mail.get_body(("html",)).get_content()
    sent = _reload(db, message_id)
    assert (sent.status, sent.attempts, sent.sent_at is not None) == ("sent", 1, True)
    assert _send() == 0 and len(smtp.mailbox.received) == 1


def test_a_person_without_an_address_or_who_left_gets_no_message_and_a_key_is_queued_once(db, make_user):
    assert _queue(db, make_user("sans")) is None
    left = make_user("parti", email="parti@usine.example")
    left.active = False
    db.commit()
    assert _queue(db, left) is None
    user = make_user("avec", email="avec@usine.example")
    assert _queue(db, user, dedupe_key="expiry:1:90") is not None
    assert _queue(db, user, dedupe_key="expiry:1:90") is None
    assert len(db.scalars(select(OutboxMessage)).all()) == 1


def test_a_stopped_server_loses_nothing_and_duplicates_nothing_once_back(db, make_user, smtp):
    user = make_user("attente", email="attente@usine.example")
    first, second = _queue(db, user, "Un"), _queue(db, user, "Deux")
    smtp.stop()
    assert _send() == 0
    waiting = _reload(db, first.id)
    assert (waiting.status, waiting.attempts) == ("queued", 1)
    assert "Connection" in (waiting.last_error or "") and waiting.next_attempt_at > utcnow()
    assert _send() == 0  # not due yet: the delay grows
    smtp.start()
    assert _send(now=utcnow() + timedelta(minutes=2)) == 2
    assert _send(now=utcnow() + timedelta(days=2)) == 0
    assert sorted(m["Subject"] for m in smtp.mailbox.received) == ["Deux", "Un"]
    assert {_reload(db, first.id).status, _reload(db, second.id).status} == {"sent"}


def test_an_address_the_server_refuses_fails_with_its_reason_and_the_others_go(db, make_user, smtp):
    smtp.mailbox.refused.add("parti@usine.example")
    refused = _queue(db, make_user("parti", email="parti@usine.example"))
    kept = _queue(db, make_user("reste", email="reste@usine.example"))
    assert _send() == 1
    failed = _reload(db, refused.id)
    assert failed.status == "failed" and "550" in failed.last_error
    assert _reload(db, kept.id).status == "sent"
    assert _send(now=utcnow() + timedelta(days=3)) == 0  # a failed message is not tried again


def test_a_sender_that_stops_mid_send_makes_a_message_go_twice_at_most(db, make_user, smtp):
    message = _queue(db, make_user("coupe", email="coupe@usine.example"))
    with session_factory()() as other:
        assert outbox._take(other, utcnow()) == [message.id]  # taken, then the sender died
    assert _send() == 0  # still claimed
    assert _send(now=utcnow() + outbox.CLAIM + timedelta(seconds=1)) == 1  # sent again, once
    assert _reload(db, message.id).uncertain is True
    again = _queue(db, make_user("coupe2", email="coupe2@usine.example"))
    later = utcnow() + outbox.CLAIM + timedelta(seconds=1)
    with session_factory()() as other:
        assert outbox._take(other, utcnow()) == [again.id]
    with session_factory()() as other:
        assert outbox._take(other, later) == [again.id]  # died twice
    assert _send(now=later + outbox.CLAIM + timedelta(seconds=1)) == 0
    gone = _reload(db, again.id)
    assert gone.status == "failed" and gone.last_error == outbox.MAY_HAVE_BEEN_SENT


def test_two_senders_send_each_message_once(db, make_user, smtp):
    people = [make_user(f"p{n}", email=f"p{n}@usine.example") for n in range(12)]
    for person in people:
        _queue(db, person, f"Pour {person.login}")
    start = threading.Barrier(2)
    counts: list[int] = []

    def sender() -> None:
        start.wait()
        counts.append(_send())

    threads = [threading.Thread(target=sender) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(counts) == 12
    assert sorted(m["Subject"] for m in smtp.mailbox.received) == sorted(f"Pour {p.login}" for p in people)


def test_a_burst_larger_than_a_round_leaves_in_one_go(db, make_user, smtp, monkeypatch):
    """The sender of `spot serve` and `spot notify --send` go on while rounds send something: a burst
    leaves at the mail server's pace, not one batch every few seconds."""
    monkeypatch.setattr(outbox, "BATCH", 4)
    person = make_user("rafale", email="rafale@usine.example")
    for n in range(10):
        _queue(db, person, f"Message {n}")
    assert sender.drain() == 10
    assert len(smtp.mailbox.received) == 10
    assert smtp.mailbox.connections == 3  # one connection per round of 4, not one per message
    stopped = threading.Event()
    stopped.set()
    _queue(db, person, "Après l'arrêt")
    assert sender.drain(stopped) == 0  # a stopping server sends no further round


def test_two_spot_serve_processes_send_each_message_once(db, make_user, smtp):
    """Two servers on one database, each with its sender: every message reaches the mail server once."""
    people = [make_user(f"s{n}", email=f"s{n}@usine.example") for n in range(20)]
    for person in people:
        _queue(db, person, f"Pour {person.login}")
    servers = [
        subprocess.Popen(
            [SPOT, "serve", "--port", str(free_port())],
            env=os.environ.copy(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(2)
    ]
    try:
        sent = select(func.count()).select_from(OutboxMessage).where(OutboxMessage.status == "sent")
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            db.expire_all()
            if db.scalar(sent) == 20 or any(server.poll() is not None for server in servers):
                break
            time.sleep(0.2)
        time.sleep(1)  # a second send of a message would have reached the server by now
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=60)
    assert sorted(m["Subject"] for m in smtp.mailbox.received) == sorted(f"Pour {p.login}" for p in people)


def test_no_name_or_title_adds_a_header(db, make_user, smtp):
    user = make_user("entete", email="entete@usine.example", first_name="Eve\r\nBcc: espion@ailleurs.example")
    _queue(db, user, subject="Titre\r\nBcc: espion@ailleurs.example")
    assert _send() == 1
    [mail] = smtp.mailbox.received
    assert mail["Bcc"] is None
    assert smtp.mailbox.envelopes[0][1] == ["entete@usine.example"]
    assert mail["Subject"] == "Titre Bcc: espion@ailleurs.example"


@pytest.mark.parametrize("url", ["http://relay:25", "smtp://", "smtp://relay:notaport", "smtps//relay"])
def test_a_mail_server_address_that_cannot_be_read_stops_spot_at_start(url, monkeypatch):
    monkeypatch.setenv("SPOT_SMTP_URL", url)
    with pytest.raises(ValidationError, match="SPOT_SMTP_URL"):
        Settings()


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("smtp://relay.usine:2525", ("relay.usine", 2525, False, False, "", "")),
        (
            "smtp+starttls://spot%40usine:p%3Ass@smtp.office365.com",
            ("smtp.office365.com", 587, False, True, "spot@usine", "p:ss"),
        ),
        ("smtps://u:p@mail.usine", ("mail.usine", 465, True, False, "u", "p")),
    ],
)
def test_the_mail_server_address_forms(url, expected):
    from spot.notifications.mail import SmtpServer

    server = SmtpServer.parse(url)
    assert (
        server.host,
        server.port,
        server.implicit_tls,
        server.starttls,
        server.user,
        server.password,
    ) == expected
