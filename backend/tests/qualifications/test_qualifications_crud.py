"""The qualification form and page: create, read, update, delete, their validation (spec 2 §5
Qualification), history, gallery and discussion."""

import pytest
from sqlalchemy import func, select

from qualifications.world import BOARD, QUALIFICATIONS, body, group, module, qualification
from resources.gallery import EDIT as EDIT_RESOURCES
from resources.gallery import PDF, add, stored_files
from spot.core.history_models import HistoryEntry
from spot.discussions.models import Discussion
from spot.resources.models import Resource
from support import API, assert_error, field_codes


@pytest.fixture
def links(db, test_map):
    """Two groups, two modules (in an order that is not their ids') and both cartographies."""
    return {
        "groups": [group(db, "Équipe B"), group(db, "Équipe A")],
        "modules": [module(db, "Habilitation électrique"), module(db, "CACES", periodicity=0)],
        "cartographies": [test_map.cartography("C2"), test_map.cartography("C1")],
    }


def history(db, qualification_id):
    db.expire_all()
    return [
        (e.mode, e.event)
        for e in db.scalars(
            select(HistoryEntry)
            .where(HistoryEntry.item_type == "qualification", HistoryEntry.item_id == qualification_id)
            .order_by(HistoryEntry.id)
        )
    ]


def test_create_then_read(client, db, test_map, make_user, login, links):
    creator = make_user("createur", [BOARD], first_name="Claire", last_name="Créatrice")
    headers = login(creator)
    response = client.post(QUALIFICATIONS, json=body("Conduite de ligne", **links), headers=headers)
    assert response.status_code == 200, response.text
    assert set(response.json()) == {"id"}
    qualification_id = response.json()["id"]

    page = client.get(f"{QUALIFICATIONS}/{qualification_id}", headers=headers)
    assert page.status_code == 200, page.text
    found = page.json()
    assert found["id"] == qualification_id and found["name"] == "Conduite de ligne"
    # Cartographies and groups by name; modules in the form's order.
    assert found["cartographies"] == [
        {"id": test_map.cartography("C1"), "name": "Atelier de test", "siteName": "Site de test"},
        {"id": test_map.cartography("C2"), "name": "Ligne de test", "siteName": "Site de test"},
    ]
    assert [g["name"] for g in found["qualifiableGroups"]] == ["Équipe A", "Équipe B"]
    assert found["modules"] == [
        {"id": links["modules"][0], "name": "Habilitation électrique", "periodicity": 12, "enabled": True},
        {"id": links["modules"][1], "name": "CACES", "periodicity": 0, "enabled": True},
    ]
    assert found["creation"]["userId"] == creator.id and found["creation"]["userName"] == "Claire Créatrice"
    assert found["version"] == 1
    assert found["can"] == {"edit": False, "delete": False, "seeDashboard": True}
    assert isinstance(found["discussionId"], int)
    assert history(db, qualification_id) == [("W", "created"), ("R", None)]


def test_cartographies_may_stay_empty_and_ids_count_once(client, manager, links):
    data = body("Sans carte", groups=links["groups"] * 2, modules=links["modules"][::-1] + links["modules"])
    response = client.post(QUALIFICATIONS, json=data, headers=manager)
    assert response.status_code == 200, response.text
    found = client.get(f"{QUALIFICATIONS}/{response.json()['id']}", headers=manager).json()
    assert found["cartographies"] == []
    assert len(found["qualifiableGroups"]) == 2
    assert [m["id"] for m in found["modules"]] == links["modules"][::-1]


@pytest.mark.parametrize(
    "change, errors",
    [
        ({"name": ""}, {("name", "emptyFieldError")}),
        ({"name": "   "}, {("name", "emptyFieldError")}),
        ({"name": " Conduite"}, {("name", "beginEndWhitespaceError")}),
        ({"name": "Conduite "}, {("name", "beginEndWhitespaceError")}),
        ({"name": None}, {("name", "string_type")}),
        ("no-name", {("name", "emptyFieldError")}),
        ({"qualifiableGroups": []}, {("qualifiableGroups", "emptyFieldError")}),
        ({"modules": []}, {("modules", "emptyFieldError")}),
        (
            {"qualifiableGroups": [], "modules": []},
            {("qualifiableGroups", "emptyFieldError"), ("modules", "emptyFieldError")},
        ),
        ({"qualifiableGroups": [987654]}, {("qualifiableGroups", "invalidValue")}),
        ({"modules": [987654]}, {("modules", "invalidValue")}),
        ({"cartographies": [987654]}, {("cartographies", "invalidValue")}),
        ({"modules": ["x"]}, {("modules.0", "invalidId")}),
    ],
)
def test_validation(client, manager, links, change, errors):
    data = body("Conduite", **links)
    if change == "no-name":
        del data["name"]
    else:
        data |= change
    response = client.post(QUALIFICATIONS, json=data, headers=manager)
    assert_error(response, 422)
    assert field_codes(response) == errors
    # Nothing was made.
    assert client.post(f"{QUALIFICATIONS}/query", json={}, headers=manager).json()["totalItems"] == 0


def test_update_validates_like_create(client, manager, links):
    qualification_id = qualification(client, manager, "Conduite", **links)
    data = body(" Conduite", groups=[], modules=[987654]) | {"version": 1}
    response = client.post(f"{QUALIFICATIONS}/{qualification_id}", json=data, headers=manager)
    assert_error(response, 422)
    assert field_codes(response) == {("name", "beginEndWhitespaceError")}
    data = body("Conduite", groups=[], modules=[987654]) | {"version": 1}
    response = client.post(f"{QUALIFICATIONS}/{qualification_id}", json=data, headers=manager)
    assert field_codes(response) == {("qualifiableGroups", "emptyFieldError"), ("modules", "invalidValue")}


def test_update_replaces_everything_and_bumps_the_version(client, db, test_map, manager, links):
    qualification_id = qualification(client, manager, "Conduite", **links)
    data = body(
        "Conduite de presse",
        groups=links["groups"][:1],
        modules=links["modules"][1:],
        cartographies=[test_map.cartography("C1")],
    )
    response = client.post(
        f"{QUALIFICATIONS}/{qualification_id}", json=data | {"version": 1}, headers=manager
    )
    assert response.status_code == 200, response.text
    found = response.json()
    assert found["name"] == "Conduite de presse" and found["version"] == 2
    assert [g["id"] for g in found["qualifiableGroups"]] == links["groups"][:1]
    assert [m["id"] for m in found["modules"]] == links["modules"][1:]
    assert [c["id"] for c in found["cartographies"]] == [test_map.cartography("C1")]
    assert client.get(f"{QUALIFICATIONS}/{qualification_id}", headers=manager).json() == found
    assert history(db, qualification_id)[:2] == [("W", "created"), ("W", "updated")]
    # The discussion says so.
    thread = client.get(f"{API}/discussion/{found['discussionId']}", headers=manager).json()
    assert [m["system"]["type"] for m in thread["messages"] if m.get("system")] == ["updated"]


def test_a_stale_version_is_refused(client, manager, links):
    qualification_id = qualification(client, manager, "Conduite", **links)
    url = f"{QUALIFICATIONS}/{qualification_id}"
    assert client.post(url, json=body("Un", **links) | {"version": 1}, headers=manager).status_code == 200
    response = client.post(url, json=body("Deux", **links) | {"version": 1}, headers=manager)
    assert_error(response, 409, "staleVersion")
    assert client.get(url, headers=manager).json()["name"] == "Un"


def test_delete_takes_the_discussion_and_gallery(client, db, make_user, login, manager, links):
    qualification_id = qualification(client, manager, "Conduite", **links)
    editor = login(make_user(permissions=[EDIT_RESOURCES]))
    pdf = add(client, editor, ("qualification", qualification_id), "pdf", "Notice", "notice.pdf", PDF)
    assert pdf.status_code == 200, pdf.text
    before = stored_files()
    assert before
    discussion_id = client.get(f"{QUALIFICATIONS}/{qualification_id}", headers=manager).json()["discussionId"]
    response = client.delete(f"{QUALIFICATIONS}/{qualification_id}", headers=manager)
    assert response.status_code == 204, response.text
    assert_error(
        client.get(f"{QUALIFICATIONS}/{qualification_id}", headers=manager), 404, "qualificationNotFound"
    )
    assert db.scalar(select(func.count()).select_from(Discussion).where(Discussion.id == discussion_id)) == 0
    assert history(db, qualification_id)[-1] == ("W", "deleted")
    assert_error(client.get(f"{API}/resource/qualification/{qualification_id}", headers=manager), 404)
    assert db.scalar(select(func.count()).select_from(Resource)) == 0
    assert stored_files() < before


def test_gallery_and_discussion_are_open_to_every_signed_in_user(client, make_user, login, manager, links):
    qualification_id = qualification(client, manager, "Conduite", **links)
    discussion_id = client.get(f"{QUALIFICATIONS}/{qualification_id}", headers=manager).json()["discussionId"]
    anyone = login(make_user())
    editor = login(make_user(permissions=[EDIT_RESOURCES]))
    added = add(
        client, editor, ("qualification", qualification_id), "link", "Procédure", "https://example.org"
    )
    assert added.status_code == 200, added.text
    gallery = client.get(f"{API}/resource/qualification/{qualification_id}", headers=anyone)
    assert gallery.status_code == 200, gallery.text
    assert [r["name"] for r in gallery.json()["resources"]] == ["Procédure"]
    refused = add(client, anyone, ("qualification", qualification_id), "link", "Autre", "https://example.org")
    assert_error(refused, 403)
    posted = client.post(
        f"{API}/discussion/{discussion_id}", json={"content": "Qui la passe ?"}, headers=anyone
    )
    assert posted.status_code == 200, posted.text
    thread = client.get(f"{API}/discussion/{discussion_id}", headers=anyone).json()
    assert [m["content"] for m in thread["messages"] if not m.get("system")] == ["Qui la passe ?"]
    assert_error(client.get(f"{API}/resource/qualification/987654", headers=anyone), 404)


def test_the_specs_payload_without_a_version_saves(client, manager, links):
    """Spec 2 §7's update payload has no version: the save applies over whatever came before."""
    qualification_id = qualification(client, manager, "Conduite", **links)
    url = f"{QUALIFICATIONS}/{qualification_id}"
    assert client.post(url, json=body("Un", **links) | {"version": 1}, headers=manager).status_code == 200
    response = client.post(url, json=body("Deux", **links), headers=manager)
    assert response.status_code == 200, response.text
    assert response.json()["name"] == "Deux" and response.json()["version"] == 3
    assert client.get(url, headers=manager).json()["name"] == "Deux"
