"""A module as its reader sees it: each element kind resolved (spec 2 §2 view; §8 insufficientRightsToView,
lmsElementNotFound), in a number of statements that does not grow with the elements."""

from sqlalchemy import delete, event

from mapping.maps import SECOND_SITE, load, restrict, site_id
from spot import db as database
from spot.lms.models import LmsItem
from spot.mapping.models import Subject
from training.catalogue import MANAGE, MODULES, Course, lms, mediation, spot, url


def create(client, headers, items) -> int:
    response = client.post(MODULES, json={**form_defaults(), "moduleItems": items}, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()["id"]


def form_defaults():
    return {"name": "Module", "moduleType": "other", "goals": "Apprendre"}


def items(client, headers, module_id):
    response = client.get(f"{MODULES}/{module_id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()["moduleItems"]


def path_of(context):
    return [(entry["type"], entry["name"]) for entry in context]


def test_spot_elements_with_their_names_and_contexts(client, test_map, manager):
    m = test_map
    module_id = create(
        client,
        manager,
        [
            spot("site", m.site_id),
            spot("cartography", m.cartography("C1")),
            spot("function", m.function("F2")),
            spot("activity", m.activity("A121")),
            spot("subject", m.subject("S3")),
        ],
    )
    found = items(client, manager, module_id)
    site, cartography = ("site", "Site de test"), ("cartography", "Atelier de test")
    assert [(i["spotItemType"], i["name"], path_of(i["context"]), i["readable"]) for i in found] == [
        ("site", "Site de test", [], True),
        ("cartography", "Atelier de test", [site], True),
        ("function", "Contrôleur", [site, cartography], True),
        (
            "activity",
            "Ébavurage",
            [site, cartography, ("activity", "Usinage"), ("activity", "Fraisage")],
            True,
        ),
        (
            "subject",
            "Ébavurer",
            [site, cartography, ("activity", "Usinage"), ("activity", "Fraisage"), ("activity", "Ébavurage")],
            True,
        ),
    ]
    assert found[0] == {
        "type": "spot",
        "spotItemType": "site",
        "spotItemId": m.site_id,
        "name": "Site de test",
        "context": [],
        "readable": True,
    }
    assert set(found[2]["context"][0]) == {"id", "code", "name", "type"}


def test_an_element_the_reader_cannot_see_is_not_readable(client, db, test_map, make_user, login, manager):
    m = test_map
    load(db, SECOND_SITE)
    hidden = [
        spot("site", site_id(m, "SEC")),
        spot("cartography", m.cartography("C2")),
        spot("function", m.function("G1")),
        spot("activity", m.activity("B1")),
        spot("subject", m.subject("T1")),
    ]
    seen = spot("activity", m.activity("A11"))
    module_id = create(client, manager, [seen, *hidden])
    assert all(i["readable"] for i in items(client, manager, module_id))
    reader = make_user("limité", [MANAGE])
    restrict(db, reader, m.cartography("C1"))
    found = items(client, login(reader), module_id)
    assert found[0]["readable"] is True and found[0]["name"] == "Tournage"
    for item, sent in zip(found[1:], hidden, strict=True):
        assert item == {**sent, "name": None, "context": [], "readable": False}


def test_an_element_whose_item_was_removed_is_not_readable(client, db, test_map, manager):
    module_id = create(client, manager, [spot("subject", test_map.subject("S2"))])
    db.execute(delete(Subject).where(Subject.id == test_map.subject("S2")))
    db.commit()
    [item] = items(client, manager, module_id)
    assert (item["name"], item["context"], item["readable"]) == (None, [], False)


def test_lms_elements_with_their_names_or_not_found(client, db, test_map, course, manager):
    other = Course(db, "Habilitation électrique")
    gone = Course(db, "Ancien cours")
    module_id = create(
        client,
        manager,
        [lms(course.resource), lms(course.quiz), lms(other.resource), lms(other.quiz), lms(gone.quiz)],
    )
    other.remove_item(other.resource)
    gone.remove()
    db.execute(delete(LmsItem).where(LmsItem.id == other.quiz))
    db.commit()
    found = items(client, manager, module_id)
    assert found[0] == {
        "type": "lms",
        "lmsCourseId": course.resource,
        "lmsType": "resource",
        "name": "Lire la procédure",
        "courseId": course.id,
        "found": True,
        "launchMode": "Normal",
    }
    assert (found[1]["lmsType"], found[1]["name"], found[1]["found"]) == (
        "quiz",
        "Quiz de consignation",
        True,
    )
    missing = {
        "type": "lms",
        "lmsType": None,
        "name": None,
        "courseId": None,
        "found": False,
        "launchMode": "Normal",
    }
    assert found[2] == {**missing, "lmsCourseId": other.resource}
    assert found[3] == {**missing, "lmsCourseId": None}  # deleted by the platform: the element stays
    assert found[4] == {**missing, "lmsCourseId": gone.quiz}


def test_mediation_and_url_elements_as_saved(client, test_map, manager):
    module_id = create(
        client, manager, [mediation("Tour d'atelier", "Ligne 1\nLigne 2"), url("https://www.inrs.fr", "INRS")]
    )
    assert items(client, manager, module_id) == [
        {"type": "mediation", "title": "Tour d'atelier", "description": "Ligne 1\nLigne 2"},
        {"type": "url", "url": "https://www.inrs.fr", "label": "INRS"},
    ]


def _statements(client, url_, headers) -> int:
    engine = database.get_engine()
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:
        seen.append(statement)

    client.get(url_, headers=headers)  # caches filled
    event.listen(engine, "before_cursor_execute", count)
    try:
        assert client.get(url_, headers=headers).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return len(seen)


def test_the_statements_of_a_module_do_not_grow_with_its_elements(client, test_map, course, manager):
    m = test_map
    one_of_each = [
        spot("site", m.site_id),
        spot("cartography", m.cartography("C2")),
        spot("function", m.function("F1")),
        spot("activity", m.activity("A12")),
        spot("subject", m.subject("S1")),
        lms(course.quiz),
        mediation(),
        url(),
    ]
    small = create(client, manager, one_of_each)
    large = create(client, manager, one_of_each * 5)
    assert _statements(client, f"{MODULES}/{small}", manager) == _statements(
        client, f"{MODULES}/{large}", manager
    )
