"""Training path element calls (spec 2 §3 Result per item; docs/training-paths.md 'Elements done'): open,
attach and detach, who may call them in which statuses, and what the path and its cards show after."""

import re
from typing import Any

import pytest
from sqlalchemy import event, select
from sqlalchemy.orm import Session

from mapping.maps import Map
from spot import db as database
from spot.mediations.models import MediationParticipant, MediationVisiblePerson
from spot.training.paths.models import (
    TrainingPathMediation,
    TrainingPathModule,
)
from support import API
from training import paths_support as support
from training.catalogue import Course
from training.elements_support import (
    PATHS,
    attach_directly,
    counted,
    lms_item,
    make_mediation,
    make_module,
    make_path,
    mediation_item,
    people_of,
    sign_mediation,
    spot_item,
    url_item,
    visit,
)


@pytest.fixture
def people(make_user) -> dict[str, Any]:
    return people_of(make_user)


# The element calls -------------------------------------------------------------------------------------


def _element(path_id: int, module_index: int = 0, result_index: int = 0) -> str:
    return f"{PATHS}/{path_id}/{module_index}/{result_index}"


@pytest.fixture
def headers(people, login) -> dict[str, dict[str, str]]:
    return {role: login(user) for role, user in people.items()}


def _events(db: Session, path_id: int) -> list[tuple[str, int | None]]:
    from spot.training.paths.models import TrainingPathHistory

    db.expire_all()
    return [
        (row.event, row.position)
        for row in db.scalars(
            select(TrainingPathHistory)
            .where(TrainingPathHistory.path_id == path_id)
            .order_by(TrainingPathHistory.id)
        )
    ]


def _referent_path(db: Session, people: dict[str, Any], items: list[dict[str, Any]], **fields: Any) -> int:
    module = make_module(db, items)
    other_module = make_module(db, items, name="Autre")
    return make_path(
        db,
        learner_id=people["learner"].id,
        creator_id=people["creator"].id,
        modules=[(module, [people["referent"].id]), (other_module, [people["other"].id])],
        **fields,
    )


def test_the_learner_opens_a_url_element_once(client, db, people, headers) -> None:
    path_id = _referent_path(db, people, [url_item(), url_item("Deux")])
    response = client.post(f"{_element(path_id)}/url", headers=headers["learner"])
    assert response.status_code == 200, response.text
    module = response.json()["assignedModules"][0]
    assert module["results"][0]["doneAt"] is not None
    assert (module["doneItems"], module["totalItems"], module["completion"]) == (1, 2, 50)
    assert response.json()["doneSubModuleItems"] == 1
    first = module["results"][0]["doneAt"]
    version = response.json()["version"]
    again = client.post(f"{_element(path_id)}/url", headers=headers["learner"]).json()
    assert again["assignedModules"][0]["results"][0]["doneAt"] == first
    assert again["version"] == version
    assert _events(db, path_id) == [("elementOpened", 0)]


def test_opening_every_element_finishes_the_module(client, db, test_map: Map, people, headers) -> None:
    path_id = _referent_path(db, people, [url_item(), spot_item("subject", test_map.subject("S1"))])
    client.post(f"{_element(path_id, 0, 0)}/url", headers=headers["learner"])
    response = client.post(f"{_element(path_id, 0, 1)}/url", headers=headers["learner"])
    assert response.status_code == 200, response.text
    module = response.json()["assignedModules"][0]
    assert (module["status"], module["completion"]) == ("finished", 100)
    # A finished module's elements may still be opened.
    assert client.post(f"{_element(path_id, 0, 0)}/url", headers=headers["learner"]).status_code == 200


def test_reading_a_path_writes_nothing_and_reloading_it_stores_its_progress(
    client, db, people, headers
) -> None:
    """GET reads the progress stored where what the learner did changed; it writes nothing, even when
    the elements say more than what is stored (here a visit written behind the actions' back). The
    page's reload (POST …/update) stores it."""
    path_id = _referent_path(db, people, [url_item(), url_item("Deux")])
    visit(db, path_id, 0, 0)
    engine = database.get_engine()
    writes: list[str] = []

    def seen(_conn, _cursor, statement: str, *_args) -> None:
        if re.search(r"\b(INSERT|UPDATE|DELETE)\b", statement.upper()):
            writes.append(statement)

    event.listen(engine, "before_cursor_execute", seen)
    try:
        pages = [client.get(f"{PATHS}/{path_id}", headers=headers[role]) for role in ("learner", "creator")]
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert [page.status_code for page in pages] == [200, 200]
    assert writes == []
    assert pages[0].json()["assignedModules"][0]["results"][0]["doneAt"] is not None
    assert pages[0].json()["doneSubModuleItems"] == 0
    reloaded = client.post(f"{PATHS}/{path_id}/update", headers=headers["learner"])
    assert reloaded.status_code == 200, reloaded.text
    assert reloaded.json()["doneSubModuleItems"] == 1
    assert reloaded.json()["assignedModules"][0]["completion"] == 50


@pytest.mark.parametrize(
    ("role", "status"),
    [("learner", 200), ("referent", 403), ("creator", 403), ("admin", 403), ("other", 403)],
)
def test_only_the_learner_opens_elements(client, db, people, headers, role, status) -> None:
    path_id = _referent_path(db, people, [url_item()])
    assert client.post(f"{_element(path_id)}/url", headers=headers[role]).status_code == status


@pytest.mark.parametrize(
    ("path_status", "module_status", "expected"),
    [
        ("accepted", "notStarted", (409, "accepted")),
        ("started", "notStarted", (409, "notStarted")),
        ("started", "started", (200, None)),
        ("started", "finished", (200, None)),
        ("started", "validated", (409, "validated")),
        ("started", "archived", (409, "archived")),
        ("started", "disabled", (409, "disabled")),
        ("finished", "validated", (409, "finished")),
        ("canceled", "started", (409, "canceled")),
    ],
)
def test_elements_open_while_the_path_and_the_module_are_under_way(
    client, db, people, headers, path_status, module_status, expected
) -> None:
    path_id = _referent_path(db, people, [url_item()], status=path_status, module_status=module_status)
    response = client.post(f"{_element(path_id)}/url", headers=headers["learner"])
    assert response.status_code == expected[0], response.text
    if expected[1]:
        assert response.json()["message"] == "illegalTransition"
        assert response.json()["errors"] == [{"field": "status", "code": expected[1]}]


def test_only_url_and_spot_elements_are_opened(client, db, people, headers) -> None:
    course = Course(db)
    path_id = _referent_path(db, people, [mediation_item(), lms_item(course.resource)])
    for index, kind in enumerate(("mediation", "lms")):
        response = client.post(f"{_element(path_id, 0, index)}/url", headers=headers["learner"])
        assert response.status_code == 409
        assert response.json()["errors"] == [{"field": "type", "code": kind}]


def test_element_calls_out_of_range_or_unknown(client, db, people, headers) -> None:
    path_id = _referent_path(db, people, [url_item()])
    assert (
        client.post(f"{_element(path_id, 0, 1)}/url", headers=headers["learner"]).json()["message"]
        == "notFound"
    )
    assert client.post(f"{_element(path_id, 2, 0)}/url", headers=headers["learner"]).status_code == 404
    unknown = client.post(f"{_element(path_id + 100)}/url", headers=headers["learner"])
    assert (unknown.status_code, unknown.json()["message"]) == (404, "trainingPathNotFound")


def _readable_mediation(db: Session, people: dict[str, Any], **fields: Any) -> int:
    """A mediation the referent and the admin may read (visible to them), validated."""
    mediation = make_mediation(db, creator_id=people["referent"].id, **fields)
    db.add(MediationVisiblePerson(mediation_id=mediation, user_id=people["admin"].id))
    db.commit()
    return mediation


@pytest.mark.parametrize(
    ("role", "status"),
    [("referent", 200), ("admin", 200), ("learner", 403), ("creator", 403), ("other", 403)],
)
def test_who_attaches_and_detaches_mediations(client, db, people, headers, role, status) -> None:
    """`other` refers the path's second module only: a referent of another module may not."""
    path_id = _referent_path(db, people, [mediation_item()])
    mediation = _readable_mediation(db, people)
    if role not in ("referent", "admin"):
        db.add(MediationVisiblePerson(mediation_id=mediation, user_id=people[role].id))
        db.commit()
    attached = client.post(f"{_element(path_id)}/mediation/attach/{mediation}", headers=headers[role])
    assert attached.status_code == status, attached.text
    if status != 200:
        attach_directly(db, path_id, 0, 0, mediation)
    detached = client.post(f"{_element(path_id)}/mediation/detach/{mediation}", headers=headers[role])
    assert detached.status_code == status, detached.text


def test_an_attached_mediation_validated_and_signed_by_the_learner_finishes_the_element(
    client, db, people, headers
) -> None:
    path_id = _referent_path(db, people, [mediation_item()])
    mediation = _readable_mediation(db, people)
    response = client.post(f"{_element(path_id)}/mediation/attach/{mediation}", headers=headers["referent"])
    assert response.status_code == 200, response.text
    result = response.json()["assignedModules"][0]["results"][0]
    assert (result["mediationIds"], result["doneAt"]) == ([mediation], None)
    # Attaching again changes nothing.
    again = client.post(f"{_element(path_id)}/mediation/attach/{mediation}", headers=headers["referent"])
    assert again.json()["version"] == response.json()["version"]
    sign_mediation(db, mediation, people["learner"].id)
    refreshed = client.post(f"{PATHS}/{path_id}/update", headers=headers["learner"]).json()
    module = refreshed["assignedModules"][0]
    assert module["results"][0]["doneAt"] is not None
    assert (module["status"], module["completion"]) == ("finished", 100)
    assert module["results"][0]["mediations"][0]["signedByLearner"] is True
    detached = client.post(f"{_element(path_id)}/mediation/detach/{mediation}", headers=headers["referent"])
    assert detached.json()["assignedModules"][0]["results"][0]["mediationIds"] == []
    assert _events(db, path_id)[:2] == [("mediationAttached", 0), ("moduleFinished", 0)]
    assert _events(db, path_id)[-1] == ("mediationDetached", 0)


def test_mediation_unknown_hidden_not_attached_or_element_of_another_kind(
    client, db, people, headers
) -> None:
    path_id = _referent_path(db, people, [mediation_item(), url_item()])
    hidden = make_mediation(db, creator_id=people["other"].id)
    shown = _readable_mediation(db, people)
    referent = headers["referent"]
    unknown = client.post(f"{_element(path_id)}/mediation/attach/{hidden + shown + 1}", headers=referent)
    assert (unknown.status_code, unknown.json()["message"]) == (404, "mediationNotFound")
    assert client.post(f"{_element(path_id)}/mediation/attach/{hidden}", headers=referent).status_code == 403
    not_attached = client.post(f"{_element(path_id)}/mediation/detach/{shown}", headers=referent)
    assert (not_attached.status_code, not_attached.json()["message"]) == (404, "notFound")
    on_url = client.post(f"{_element(path_id, 0, 1)}/mediation/attach/{shown}", headers=referent)
    assert (on_url.status_code, on_url.json()["errors"]) == (409, [{"field": "type", "code": "url"}])
    assert (
        client.post(f"{_element(path_id, 0, 2)}/mediation/attach/{shown}", headers=referent).status_code
        == 404
    )


def test_a_canceled_mediation_is_not_attached(client, db, people, headers) -> None:
    """A canceled mediation is never validated: the element it would hold could never be done. One
    attached before its cancellation may still be detached."""
    path_id = _referent_path(db, people, [mediation_item()])
    canceled = _readable_mediation(db, people, status="canceled")
    response = client.post(f"{_element(path_id)}/mediation/attach/{canceled}", headers=headers["referent"])
    assert (response.status_code, response.json()["message"]) == (409, "mediationCanceled")
    assert db.scalar(select(TrainingPathMediation.mediation_id)) is None
    attach_directly(db, path_id, 0, 0, canceled)
    detached = client.post(f"{_element(path_id)}/mediation/detach/{canceled}", headers=headers["referent"])
    assert detached.status_code == 200, detached.text


@pytest.mark.parametrize(
    ("path_status", "module_status", "expected"),
    [
        ("accepted", "notStarted", (409, "accepted")),
        ("started", "notStarted", (409, "notStarted")),
        ("started", "started", (200, None)),
        ("started", "finished", (200, None)),
        ("started", "validated", (409, "validated")),
        ("finished", "validated", (409, "finished")),
        ("validated", "archived", (409, "validated")),
    ],
)
def test_mediations_are_managed_while_the_path_and_the_module_are_under_way(
    client, db, people, headers, path_status, module_status, expected
) -> None:
    path_id = _referent_path(db, people, [mediation_item()], status=path_status, module_status=module_status)
    mediation = _readable_mediation(db, people)
    for action in ("attach", "detach"):
        response = client.post(
            f"{_element(path_id)}/mediation/{action}/{mediation}", headers=headers["admin"]
        )
        assert response.status_code == expected[0], response.text
        if expected[1]:
            assert response.json()["errors"] == [{"field": "status", "code": expected[1]}]


def test_a_disabled_module_is_out_of_the_paths_totals(client, db, people, headers) -> None:
    first = make_module(db, [url_item(), url_item("Deux")])
    second = make_module(db, [url_item(), url_item(), url_item()], name="Désactivé")
    path_id = make_path(
        db,
        learner_id=people["learner"].id,
        creator_id=people["creator"].id,
        modules=[(first, []), (second, [])],
    )
    db.execute(
        TrainingPathModule.__table__.update()
        .where(TrainingPathModule.path_id == path_id, TrainingPathModule.position == 1)
        .values(status="disabled")
    )
    db.commit()
    response = client.post(f"{_element(path_id)}/url", headers=headers["learner"])
    assert response.status_code == 200, response.text
    path = response.json()
    assert (path["doneSubModuleItems"], path["totalSubModuleItems"], path["completion"]) == (1, 2, 50)
    disabled = path["assignedModules"][1]
    assert (disabled["status"], disabled["totalItems"], disabled["completion"]) == ("disabled", 3, 0)


def test_the_statements_of_a_path_page_do_not_grow_with_a_modules_elements(
    client, db, test_map, people, headers
) -> None:
    m = test_map
    course = Course(db)
    one_of_each = [
        spot_item("site", m.site_id),
        spot_item("subject", m.subject("S1")),
        lms_item(course.quiz),
        lms_item(course.resource),
        mediation_item(),
        url_item(),
    ]
    small_module = make_module(db, one_of_each)
    large_module = make_module(db, one_of_each * 4)
    referent = [people["referent"].id]
    small = make_path(db, learner_id=people["learner"].id, modules=[(small_module, referent)])
    large = make_path(db, learner_id=people["learner"].id, modules=[(large_module, referent)])

    def statements(path_id: int) -> int:
        address = f"{PATHS}/{path_id}"
        client.get(address, headers=headers["referent"])  # caches filled, progress stored
        return counted(lambda: client.get(address, headers=headers["referent"]))

    assert statements(small) == statements(large)


def test_a_module_edited_shows_its_new_elements_in_the_path_cards_at_once(
    client, db, make_user, login
) -> None:
    """The cards read the path's stored totals: editing the module (before any path assigning it is
    accepted) stores them again, without anyone opening the path."""
    cast = support.Cast.of(make_user, login)
    module_id = support.make_module(db, items=0)
    path_id = support.make_path(client, cast, [module_id])

    def completion() -> int:
        response = client.post(f"{PATHS}/query", json={"pageSize": 200}, headers=cast.headers["creator"])
        return next(c["completion"] for c in response.json()["results"] if c["id"] == path_id)

    assert completion() == -1
    body = {
        "name": "Consignation",
        "moduleType": "training",
        "goals": "Savoir consigner",
        "estimatedDuration": 60,
        "reference": None,
        "periodicity": 0,
        "passThreshold": 7,
        "moduleItems": [{"type": "url", "url": "https://www.inrs.fr", "label": "INRS"}],
    }
    response = client.post(f"{API}/training/module/{module_id}", json=body, headers=cast.headers["creator"])
    assert response.status_code in (200, 204), response.text
    assert completion() == 0


def test_a_mediation_signed_by_the_learner_shows_in_the_path_cards_at_once(
    client, db, people, headers
) -> None:
    """Signing the attached mediation (the mediations' own call) stores the path's progress: the list
    shows it without anyone opening the path."""
    path_id = _referent_path(db, people, [mediation_item(), url_item()])
    mediation = _readable_mediation(db, people)
    db.add(MediationParticipant(mediation_id=mediation, user_id=people["learner"].id))
    db.commit()
    attached = client.post(f"{_element(path_id)}/mediation/attach/{mediation}", headers=headers["referent"])
    assert attached.status_code == 200, attached.text

    def completion() -> int:
        response = client.post(f"{PATHS}/query", json={"pageSize": 200}, headers=headers["learner"])
        return next(c["completion"] for c in response.json()["results"] if c["id"] == path_id)

    assert completion() == 0
    signed = client.post(f"{API}/mediation/{mediation}/sign", headers=headers["learner"])
    assert signed.status_code == 200, signed.text
    assert completion() == 25
