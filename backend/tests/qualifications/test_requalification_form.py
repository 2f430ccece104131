"""The qualification form's fields of requalification and coverage: the functions it opens (among its
cartographies' functions, those the writer sees), the requalification window (0 to 3650 days, default
60) and the default referents; only qualification administrators change them; a reader sees only the
functions they may see, and a save keeps those hidden from the writer."""

import pytest

from qualifications.world import ADMIN, BOARD, QUALIFICATIONS, body, group, module
from spot.mapping.models import CartographyVisibility
from spot.qualifications.models import QualificationFunction, QualificationReferent
from support import assert_error, field_codes


@pytest.fixture
def links(db, test_map):
    return {
        "groups": [group(db, "Équipe A")],
        "modules": [module(db, "Habilitation électrique")],
        "cartographies": [test_map.cartography("C1"), test_map.cartography("C2")],
    }


@pytest.fixture
def people(make_user):
    return {
        "zoe": make_user("zoe", first_name="Zoé", last_name="Zed"),
        "alain": make_user("alain", first_name="Alain", last_name="Abel"),
    }


def save(client, headers, links, qualification_id=None, **fields):
    data = body("Conduite", **links) | fields
    url = QUALIFICATIONS if qualification_id is None else f"{QUALIFICATIONS}/{qualification_id}"
    return client.post(url, json=data, headers=headers)


def read(client, headers, qualification_id):
    page = client.get(f"{QUALIFICATIONS}/{qualification_id}", headers=headers)
    assert page.status_code == 200, page.text
    return page.json()


def test_a_new_qualification_opens_requalification_60_days_ahead_with_no_function_nor_referent(
    client, manager, links
):
    created = save(client, manager, links)
    assert created.status_code == 200, created.text
    page = read(client, manager, created.json()["id"])
    assert page["requalificationWindowDays"] == 60
    assert page["functions"] == [] and page["defaultReferents"] == []


def test_the_administrator_sets_the_functions_the_window_and_the_default_referents(
    client, db, test_map, manager, links, people
):
    f1, f2, g1 = test_map.function("F1"), test_map.function("F2"), test_map.function("G1")
    chosen = {"functions": [g1, f2, f1], "requalificationWindowDays": 90}
    referents = [people["zoe"].id, people["alain"].id]
    created = save(client, manager, links, **chosen, defaultReferents=referents)
    assert created.status_code == 200, created.text
    qualification_id = created.json()["id"]
    page = read(client, manager, qualification_id)
    c1, c2 = test_map.cartography("C1"), test_map.cartography("C2")
    # By cartography (Atelier de test, Ligne de test), then name.
    assert page["functions"] == [
        {"id": f2, "name": "Contrôleur", "cartographyId": c1},
        {"id": f1, "name": "Opérateur régleur", "cartographyId": c1},
        {"id": g1, "name": "Monteur", "cartographyId": c2},
    ]
    assert page["requalificationWindowDays"] == 90
    assert page["defaultReferents"] == [
        {"id": people["alain"].id, "name": "Alain Abel"},
        {"id": people["zoe"].id, "name": "Zoé Zed"},
    ]
    # Saved again without C2: its function goes with it; 0 turns requalification off.
    data = {"cartographies": [c1], "functions": [f1], "requalificationWindowDays": 0, "defaultReferents": []}
    updated = save(client, manager, links | {"cartographies": [c1]}, qualification_id, **data)
    assert updated.status_code == 200, updated.text
    found = updated.json()
    assert [f["id"] for f in found["functions"]] == [f1]
    assert (found["requalificationWindowDays"], found["defaultReferents"]) == (0, [])


@pytest.mark.parametrize("window", [-1, 3651, 100000])
def test_a_window_outside_0_to_3650_days_is_refused(client, manager, links, window):
    response = save(client, manager, links, requalificationWindowDays=window)
    assert_error(response, 422, "atLeastOneErrorLeft")
    assert field_codes(response) == {("requalificationWindowDays", "valueMustBeBetween")}


@pytest.mark.parametrize("window", [0, 3650])
def test_the_bounds_of_the_window_are_accepted(client, manager, links, window):
    response = save(client, manager, links, requalificationWindowDays=window)
    assert response.status_code == 200, response.text
    assert read(client, manager, response.json()["id"])["requalificationWindowDays"] == window


def test_a_function_outside_its_cartographies_or_unknown_and_an_unknown_referent_are_refused(
    client, test_map, manager, links
):
    only_c1 = links | {"cartographies": [test_map.cartography("C1")]}
    response = save(client, manager, only_c1, functions=[test_map.function("G1")])
    assert_error(response, 422, "atLeastOneErrorLeft")
    assert field_codes(response) == {("functions", "invalidValue")}
    response = save(client, manager, only_c1, functions=[999999], defaultReferents=[999999])
    assert_error(response, 422)
    assert field_codes(response) == {("functions", "invalidValue"), ("defaultReferents", "invalidValue")}
    # Without any cartography, no function at all.
    response = save(client, manager, links | {"cartographies": []}, functions=[test_map.function("F1")])
    assert field_codes(response) == {("functions", "invalidValue")}


def test_only_qualification_administrators_change_them(
    client, db, test_map, make_user, login, manager, links, people
):
    board = login(make_user("tableau", [BOARD]))
    # A perm_TableauBord creator may create with them as they come, not set them.
    plain = save(client, board, links, requalificationWindowDays=60, functions=[], defaultReferents=[])
    assert plain.status_code == 200, plain.text
    refused = save(
        client,
        board,
        links,
        requalificationWindowDays=30,
        functions=[test_map.function("F1")],
        defaultReferents=[people["zoe"].id],
    )
    assert_error(refused, 409, "fieldNotEditable")
    assert field_codes(refused) == {
        ("functions", "fieldNotEditable"),
        ("requalificationWindowDays", "fieldNotEditable"),
        ("defaultReferents", "fieldNotEditable"),
    }
    # Editing is perm_QualificationAdmin's (the route's permission).
    qualification_id = plain.json()["id"]
    assert_error(save(client, board, links, qualification_id, requalificationWindowDays=30), 403)
    assert db.query(QualificationFunction).count() == 0 and db.query(QualificationReferent).count() == 0


@pytest.fixture
def limited(db, test_map, make_user, login):
    """A qualification administrator who sees C1 only, limited to its function F1 (a 'function' row
    alone: mapping.policy)."""
    user = make_user("limite", [BOARD, ADMIN])
    db.add(
        CartographyVisibility(
            group_id=user.groups[0].id, item_type="function", item_id=test_map.function("F1")
        )
    )
    db.commit()
    return login(user)


def test_hidden_functions_are_not_shown_kept_on_save_and_cannot_be_added(
    client, test_map, manager, limited, links
):
    f1, f2, g1 = test_map.function("F1"), test_map.function("F2"), test_map.function("G1")
    created = save(client, manager, links, functions=[f1, f2, g1])
    assert created.status_code == 200, created.text
    qualification_id = created.json()["id"]
    page = read(client, limited, qualification_id)
    assert [f["id"] for f in page["functions"]] == [f1]
    assert "Contrôleur" not in str(page["functions"]) and "Monteur" not in str(page)
    # Their save, which shows F1 alone and C1 alone, keeps F2 (hidden in C1) and G1 (in C2, hidden).
    c1 = test_map.cartography("C1")
    kept = save(
        client,
        limited,
        links | {"cartographies": [c1]},
        qualification_id,
        functions=[],
        version=page["version"],
    )
    assert kept.status_code == 200, kept.text
    assert kept.json()["functions"] == []
    assert {f["id"] for f in read(client, manager, qualification_id)["functions"]} == {f2, g1}
    # They cannot add a function hidden from them.
    added = save(client, limited, links | {"cartographies": [c1]}, qualification_id, functions=[f2])
    assert_error(added, 422)
    assert field_codes(added) == {("functions", "invalidValue")}
