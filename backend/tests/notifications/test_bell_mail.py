"""The bell by e-mail (notifications.bell): each kind of the bell, as it comes for a person through the
changes of the API (and, for a mediation's day, the daily scan's `scan_due`), queued once per
occurrence in the person's language with a link to the page where the action is done, and sent to a
real SMTP server; nothing for a person without an e-mail address; titles escaped in HTML and on one
line in the subject."""

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import delete, select, update

from mediations.people import tomorrow
from spot.alerts.schemas import Alert, AlertKind, AlertTarget
from spot.core.time import midnight, today, utcnow
from spot.db import session_factory
from spot.mediations.models import Mediation
from spot.notifications import bell, outbox
from spot.notifications.models import OutboxMessage
from spot.training.paths.models import TrainingPath
from spot.users.models import User
from support import API
from training.paths_support import GRADE, PATHS, SIGN, Cast, act, make_module, make_path

BELL_KINDS = {kind.value for kind in bell.KINDS}


def told(db) -> list[tuple[str, str, str]]:
    """What the bell queued so far: (kind, address, subject), in order."""
    db.expire_all()
    rows = db.scalars(
        select(OutboxMessage).where(OutboxMessage.kind.in_(BELL_KINDS)).order_by(OutboxMessage.id)
    )
    return [(m.kind, m.to_address, m.subject) for m in rows]


def messages(db, kind: str) -> list[OutboxMessage]:
    db.expire_all()
    return list(
        db.scalars(select(OutboxMessage).where(OutboxMessage.kind == kind).order_by(OutboxMessage.id))
    )


def reach(db, user: User, email: str | None, language: str = "fr") -> None:
    user.email, user.language = email, language
    db.commit()


# Mediations --------------------------------------------------------------------------------------------


@pytest.fixture
def people(db, make_user, login) -> dict[str, Any]:
    """A creator, a mediator (French), a participant (English) and a participant without an address."""
    users = {
        role: make_user(login=role, first_name=role.title())
        for role in ("creator", "mediator", "first", "second")
    }
    reach(db, users["mediator"], "mediator@usine.example", "fr")
    reach(db, users["first"], "first@usine.example", "en")
    return {"users": users, "headers": {role: login(user) for role, user in users.items()}}


def post(client, people, role: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    response = client.post(f"{API}/mediation{path}", json=body, headers=people["headers"][role])
    assert response.status_code == 200, response.text
    return response.json()


def new_mediation(client, people, title: str = "Point sécurité") -> dict[str, Any]:
    users = people["users"]
    body = {
        "title": title,
        "description": "",
        "schedulingDate": tomorrow(),
        "mediator": users["mediator"].id,
        "participants": [users["first"].id, users["second"].id],
        "visibleByGroups": [],
        "visibleByPersons": [],
    }
    return post(client, people, "creator", "", body)


def test_each_mediation_kind_is_told_once_to_whom_it_awaits_in_their_language(client, db, people, smtp):
    mediation = new_mediation(client, people)
    mid = mediation["id"]
    assert told(db) == []  # scheduled tomorrow: nothing to start yet

    # Its day comes: the daily scan tells the mediator, once however often it runs.
    db.execute(
        update(Mediation).where(Mediation.id == mid).values(scheduling_date=utcnow() - timedelta(hours=1))
    )
    db.commit()
    assert bell.scan_due(db, now=utcnow()) == 1
    db.commit()
    assert bell.scan_due(db, now=utcnow()) == 0
    db.commit()
    start = ("mediationToStart", "mediator@usine.example", "Démarrer la médiation « Point sécurité »")
    assert told(db) == [start]

    post(client, people, "mediator", f"/{mid}/status", {"status": "started"})
    stopped = post(client, people, "mediator", f"/{mid}/status", {"status": "stopped"})
    report = (
        "mediationToReport",
        "mediator@usine.example",
        "Rédiger le compte rendu de la médiation « Point sécurité »",
    )
    assert told(db) == [start, report]

    reported = post(
        client,
        people,
        "mediator",
        f"/{mid}/report",
        {"comment": "Fait", "items": [], "version": stopped["version"]},
    )
    validate = ("mediationToValidate", "mediator@usine.example", "Valider la médiation « Point sécurité »")
    assert told(db) == [start, report, validate]
    # The report written again: the same occurrence, not told twice.
    post(
        client,
        people,
        "mediator",
        f"/{mid}/report",
        {"comment": "Fait, relu", "items": [], "version": reported["version"]},
    )
    assert told(db) == [start, report, validate]

    post(client, people, "mediator", f"/{mid}/status", {"status": "validated"})
    sign = ("mediationToSign", "first@usine.example", "Sign the mediation “Point sécurité”")
    assert told(db) == [start, report, validate, sign]  # the second participant has no address: the bell only

    # The first signs: nothing more; the mediation invalidated then validated again asks again.
    post(client, people, "first", f"/{mid}/sign")
    assert told(db) == [start, report, validate, sign]
    post(client, people, "mediator", f"/{mid}/status", {"status": "stopped"})
    assert told(db)[-1] == validate
    post(client, people, "mediator", f"/{mid}/status", {"status": "validated"})
    assert told(db)[-1] == sign and len(told(db)) == 6

    # Sent to the real server, each with its link.
    db.commit()
    while outbox.send_due(session_factory()):
        pass
    to_sign = [m for m in smtp.mailbox.to("first@usine.example") if m["Subject"] == sign[2]]
    assert len(to_sign) == 2  # validated twice
    body = to_sign[0].get_body(("plain",)).get_content()
    assert "Hello First," in body and f"/spotv2/mediation/view/{mid}" in body
    html = to_sign[0].get_body(("html",)).get_content()
    assert f'/spotv2/mediation/view/{mid}"' in html
    to_start = next(m for m in smtp.mailbox.to("mediator@usine.example") if m["Subject"] == start[2])
    assert "Bonjour Mediator," in to_start.get_body(("plain",)).get_content()
    assert not smtp.mailbox.to("second")


def test_a_mediation_to_start_today_is_told_as_it_is_created_and_again_on_a_new_day(client, db, people):
    users = people["users"]
    body = {
        "title": "Tout de suite",
        "description": "",
        "mediator": users["mediator"].id,
        "participants": [users["first"].id],
        "visibleByGroups": [],
        "visibleByPersons": [],
    }
    unplanned = post(client, people, "creator", "", body | {"schedulingDate": None})
    assert [(k, a) for k, a, _s in told(db)] == [("mediationToStart", "mediator@usine.example")]
    # Scheduled for another day, then that day comes: a new occurrence.
    post(
        client,
        people,
        "creator",
        f"/{unplanned['id']}",
        body | {"schedulingDate": tomorrow(), "version": unplanned["version"]},
    )
    db.execute(
        update(Mediation)
        .where(Mediation.id == unplanned["id"])
        .values(scheduling_date=utcnow() - timedelta(minutes=5))
    )
    db.commit()
    assert bell.scan_due(db, now=utcnow()) == 1
    db.commit()
    assert len(told(db)) == 2


def test_scan_due_tells_only_mediations_of_the_days_that_came(client, db, people):
    mediation = new_mediation(client, people)
    # Still tomorrow: nothing. Long past (beyond the days it looks back): nothing either.
    assert bell.scan_due(db, now=utcnow()) == 0
    db.execute(
        update(Mediation)
        .where(Mediation.id == mediation["id"])
        .values(scheduling_date=utcnow() - timedelta(days=bell.DUE_DAYS + 2))
    )
    db.commit()
    assert bell.scan_due(db, now=utcnow()) == 0
    assert told(db) == []


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Pacific/Pago_Pago"])
def test_the_day_of_a_mediation_is_the_organisations(client, db, people, settings_env, zone):
    """Scheduled before the end of today in the organisation's time zone (UTC+14 or UTC-11): to start
    today, told by the scan; scheduled just after: not yet."""
    settings_env(SPOT_TIMEZONE=zone)
    tonight, tomorrow_morning = (
        new_mediation(client, people, "Ce soir"),
        new_mediation(client, people, "Demain"),
    )
    end_of_today = midnight(today() + timedelta(days=1))
    for mediation, at in ((tonight, end_of_today - timedelta(minutes=1)), (tomorrow_morning, end_of_today)):
        db.execute(update(Mediation).where(Mediation.id == mediation["id"]).values(scheduling_date=at))
    db.commit()
    assert bell.scan_due(db, now=utcnow()) == 1
    assert [subject for _k, _a, subject in told(db)] == ["Démarrer la médiation « Ce soir »"]


def test_a_person_who_left_is_not_told(client, db, people):
    mediation = new_mediation(client, people)
    people["users"]["mediator"].active = False
    db.commit()
    db.execute(update(Mediation).where(Mediation.id == mediation["id"]).values(scheduling_date=utcnow()))
    db.commit()
    assert bell.scan_due(db, now=utcnow()) == 0
    assert told(db) == []


# Training paths ----------------------------------------------------------------------------------------


@pytest.fixture
def cast(db, make_user, login) -> Cast:
    cast = Cast.of(make_user, login)
    reach(db, cast.users["learner"], "learner@usine.example", "en")
    reach(db, cast.users["referent"], "referent@usine.example", "fr")
    reach(db, cast.users["creator"], "creator@usine.example", "fr")
    return cast


def test_each_path_kind_is_told_once_to_the_learner_and_the_referents(client, db, cast, smtp):
    module_id = make_module(db, "Consignation <électrique>", items=1)
    path_id = make_path(client, cast, [module_id], title="Parcours & habilitation")
    title, module = "Parcours & habilitation", "Consignation <électrique>"
    accept = ("trainingPathToAccept", "learner@usine.example", f"Accept the training path “{title}”")
    assert told(db) == [accept]

    act(client, cast, "learner", path_id, "accept")
    act(client, cast, "creator", path_id, "start")
    to_start = (
        "trainingModuleToStart",
        "referent@usine.example",
        f"Démarrer le module « {module} » du parcours « {title} »",
    )
    assert told(db) == [accept, to_start]

    act(client, cast, "referent", path_id, "0/startNow")
    assert told(db) == [accept, to_start]
    # The learner opens the module's only element: the module is finished, to grade.
    response = client.post(f"{PATHS}/{path_id}/0/0/url", headers=cast.headers["learner"])
    assert response.status_code == 200, response.text
    to_grade = (
        "trainingModuleToGrade",
        "referent@usine.example",
        f"Évaluer le module « {module} » du parcours « {title} »",
    )
    assert told(db) == [accept, to_start, to_grade]

    act(client, cast, "referent", path_id, "0/grade", GRADE)
    module_to_sign = (
        "trainingModuleToSign",
        "learner@usine.example",
        f"Sign the module “{module}” of the path “{title}”",
    )
    # Its only module graded, the path is finished: its creator is asked to close it.
    to_close = (
        "trainingPathToClose",
        "creator@usine.example",
        f"Clôturer le parcours de formation terminé « {title} »",
    )
    assert told(db) == [accept, to_start, to_grade, module_to_sign, to_close]
    act(client, cast, "learner", path_id, "0/sign", SIGN)
    assert told(db) == [accept, to_start, to_grade, module_to_sign, to_close]
    act(client, cast, "creator", path_id, "validate", {"comment": "Clos"})
    path_to_sign = ("trainingPathToSign", "learner@usine.example", f"Sign the training path “{title}”")
    assert told(db) == [accept, to_start, to_grade, module_to_sign, to_close, path_to_sign]
    act(client, cast, "learner", path_id, "sign", SIGN)
    assert len(told(db)) == 6

    db.commit()
    while outbox.send_due(session_factory()):
        pass
    received = {m["Subject"]: m for m in smtp.mailbox.to("referent@usine.example")}
    graded = received[to_grade[2]]
    html = graded.get_body(("html",)).get_content()
    assert "Consignation &lt;électrique&gt;" in html and "Parcours &amp; habilitation" in html
    assert "<électrique>" not in html
    assert f"/spotv2/training/path/view/{path_id}" in graded.get_body(("plain",)).get_content()
    assert len(smtp.mailbox.to("learner@usine.example")) == 3


def test_a_regraded_module_asks_the_learner_to_sign_again(client, db, cast):
    module_id = make_module(db, items=1)
    path_id = make_path(client, cast, [module_id, make_module(db, "Second", items=1)])
    act(client, cast, "learner", path_id, "accept")
    act(client, cast, "creator", path_id, "start")
    act(client, cast, "referent", path_id, "0/startNow")
    act(client, cast, "referent", path_id, "0/grade", GRADE)
    act(client, cast, "learner", path_id, "0/sign", SIGN)
    assert len(messages(db, "trainingModuleToSign")) == 1
    # Regrading the archived module (an administrator) revokes the learner's signature: a new occurrence.
    path = act(client, cast, "admin", path_id, "0/grade", GRADE | {"grade": 9})
    assert path["assignedModules"][0]["status"] == "validated"
    assert len(messages(db, "trainingModuleToSign")) == 2


def test_a_finished_path_spot_opened_is_told_to_the_path_administrators(client, db, cast):
    """A path Spot opened has no creator: the people who may close any path are asked to."""
    reach(db, cast.users["admin"], "admin@usine.example", "fr")
    module_id = make_module(db, items=1)
    path_id = make_path(client, cast, [module_id], title="Requalification")
    db.execute(
        update(TrainingPath)
        .where(TrainingPath.id == path_id)
        .values(creator_id=None, opened_by_spot=True)
        .execution_options(synchronize_session=False)
    )
    db.commit()
    act(client, cast, "learner", path_id, "accept")
    act(client, cast, "admin", path_id, "start")
    act(client, cast, "referent", path_id, "0/startNow")
    act(client, cast, "referent", path_id, "0/grade", GRADE)
    assert [(m.to_address, m.subject) for m in messages(db, "trainingPathToClose")] == [
        ("admin@usine.example", "Clôturer le parcours de formation terminé « Requalification »")
    ]


# Followed subjects -------------------------------------------------------------------------------------


def test_a_followed_subject_changed_is_told_once_until_the_follower_comes_back(
    client, db, test_map, make_user, login
):
    follower, other = make_user(login="follower", first_name="Lise"), make_user(login="other")
    reach(db, follower, "follower@usine.example", "en")
    headers, others = login(follower), login(other)
    subject_id = test_map.subject("S1")
    assert client.post(f"{API}/subject/{subject_id}/follow", headers=headers).status_code == 200
    rate = {"frequency": 2, "gravity": 3, "detectability": 0}
    assert client.post(f"{API}/subject/{subject_id}/rate", json=rate, headers=others).status_code == 200
    [changed] = messages(db, "subjectChanged")
    assert changed.to_address == "follower@usine.example"
    assert changed.subject.endswith("changed since your last visit")
    assert f"/spotv2/subject/{subject_id}" in changed.text_body
    # Changed again before the follower came back: the same occurrence.
    assert (
        client.post(
            f"{API}/subject/{subject_id}/rate", json=rate | {"gravity": 4}, headers=others
        ).status_code
        == 200
    )
    assert len(messages(db, "subjectChanged")) == 1
    # The follower reads it, then it changes again: told again.
    assert client.get(f"{API}/subject/{subject_id}", headers=headers).status_code == 200
    assert (
        client.post(
            f"{API}/subject/{subject_id}/rate", json=rate | {"gravity": 5}, headers=others
        ).status_code
        == 200
    )
    assert len(messages(db, "subjectChanged")) == 2
    # The follower's own change tells them nothing.
    assert client.post(f"{API}/subject/{subject_id}/rate", json=rate, headers=headers).status_code == 200
    assert len(messages(db, "subjectChanged")) == 2


def test_a_mind_map_changed_tells_the_follower(client, db, test_map, make_user, login):
    follower = make_user(login="follower")
    editor = make_user(
        login="editor", permissions=["perm_EditNotHaute", "perm_ValidNotHaute", "perm_EditPdv"]
    )
    reach(db, follower, "follower@usine.example", "fr")
    subject_id = test_map.subject("S1")
    assert client.post(f"{API}/subject/{subject_id}/follow", headers=login(follower)).status_code == 200
    headers = login(editor)
    version = client.get(f"{API}/subject/{subject_id}/mindmap", headers=headers).json()["version"]
    node = {"version": version, "parentCode": 0, "name": "Vérifier", "text": ""}
    response = client.post(f"{API}/subject/{subject_id}/mindmap/nodes", json=node, headers=headers)
    assert response.status_code == 201, response.text
    [changed] = messages(db, "subjectChanged")
    assert changed.to_address == "follower@usine.example" and changed.subject.endswith(
        "a changé depuis votre dernière visite"
    )


def test_a_change_tells_only_what_it_is_about(client, db, cast):
    """A person's other alerts are not told by a change of something else: the work stays bounded to
    the change, and what was in the bell before this feature is not sent all at once."""
    first = make_path(client, cast, [make_module(db, items=1)], title="Premier")
    db.execute(delete(OutboxMessage))
    db.commit()
    make_path(client, cast, [make_module(db, "Autre", items=1)], title="Second")
    assert [subject for _k, _a, subject in told(db)] == ["Accept the training path “Second”"]
    assert bell.tell(db, [cast.id("learner")]) == 1  # asked for everything: the first one too
    assert messages(db, "trainingPathToAccept")[-1].text_body.count(f"/training/path/view/{first}") == 1


# The message itself ------------------------------------------------------------------------------------


def test_titles_are_escaped_in_html_and_on_one_line_in_the_subject(db, make_user, smtp):
    user = make_user(login="reader", first_name="Jo")
    reach(db, user, "reader@usine.example", "en")
    alert = Alert(
        kind=AlertKind.mediationToSign,
        args={"title": 'Fuite <b>"huile"</b>\r\nBcc: evil@example.com'},
        date=utcnow(),
        target=AlertTarget(type="mediation", id=42),
    )
    message = outbox.queue(db, user=user, kind=alert.kind.value, content=bell.content(user, alert))
    assert message is not None
    assert "\r" not in message.subject and "\n" not in message.subject
    assert "&lt;b&gt;&quot;huile&quot;&lt;/b&gt;" in message.html_body and "<b>" not in message.html_body
    db.commit()
    assert outbox.send_due(session_factory()) == 1
    [mail] = smtp.mailbox.to("reader@usine.example")
    assert mail["Subject"] == 'Sign the mediation “Fuite <b>"huile"</b> Bcc: evil@example.com”'
    assert mail["Bcc"] is None and smtp.mailbox.envelopes[-1][1] == ["reader@usine.example"]


def test_nothing_is_read_for_people_without_an_address(db, make_user):
    nobody = make_user(login="nobody")
    assert bell.tell(db, [nobody.id, None]) == 0
