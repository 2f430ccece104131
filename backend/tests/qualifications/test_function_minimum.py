"""A function's minimum of qualified people (docs/qualifications.md, "The functions a qualification
opens"): 3 by default, changed by qualification administrators only, 0 to 1000, and the coverage
measured against it on the cartography dashboard, the Dashboard manager and the matrix."""

import pytest

from qualifications.world import graded, group, module, qualification
from spot.mapping.models import CartographyVisibility, Function
from support import API


def minimum_url(function_id: int) -> str:
    return f"{API}/qualifications/functions/{function_id}/minimum"


@pytest.fixture
def plant(client, db, test_map, make_user, manager, today):
    """'Contrôle' names C1 (its module 'Mesurer' is on F2): alice and bruno hold it."""
    alice, bruno = make_user("alice").id, make_user("bruno").id
    team = group(db, "Équipe", [alice, bruno])
    mesurer = module(db, "Mesurer", functions=[test_map.function("F2")])
    qualification(
        client,
        manager,
        "Contrôle",
        groups=[team],
        modules=[mesurer],
        cartographies=[test_map.cartography("C1")],
    )
    graded(db, alice, mesurer, days=100)
    graded(db, bruno, mesurer, days=20)
    return test_map


def coverage(client, headers, cartography_id: int) -> dict[str, tuple[int, int, bool]]:
    response = client.get(f"{API}/dashboards/qualifications/cartography/{cartography_id}", headers=headers)
    assert response.status_code == 200, response.text
    return {
        f["function"]["name"]: (len(f["qualified"]), f["minimum"], f["underMinimum"])
        for f in response.json()["coverage"]
    }


def test_three_by_default_then_what_the_administrator_says(client, db, manager, plant):
    assert coverage(client, manager, plant.cartography("C1"))["Contrôleur"] == (2, 3, True)
    response = client.put(minimum_url(plant.function("F2")), json={"minimum": 2}, headers=manager)
    assert response.status_code == 200, response.text
    assert response.json() == {"functionId": plant.function("F2"), "minimum": 2}
    assert db.get(Function, plant.function("F2")).minimum_qualified == 2
    found = coverage(client, manager, plant.cartography("C1"))
    assert found["Contrôleur"] == (2, 2, False)
    # Nobody qualified for F1 and F3: under 3, but not under 0.
    assert found["Opérateur régleur"] == (0, 3, True)
    client.put(minimum_url(plant.function("F1")), json={"minimum": 0}, headers=manager)
    assert coverage(client, manager, plant.cartography("C1"))["Opérateur régleur"] == (0, 0, False)
    matrix = client.get(
        f"{API}/dashboards/cartography/{plant.cartography('C1')}/matrix", headers=manager
    ).json()
    assert [(c["name"], c["minimum"], c["underMinimum"]) for c in matrix["columns"]] == [
        ("Opérateur régleur", 0, False),
        ("Contrôleur", 2, False),
        ("Magasinier", 3, True),
    ]


@pytest.mark.parametrize("value", [-1, 1001, 10**12])
def test_outside_0_to_1000_is_refused(client, db, manager, plant, value):
    response = client.put(minimum_url(plant.function("F2")), json={"minimum": value}, headers=manager)
    assert response.status_code == 400, response.text
    assert response.json()["message"] == "valueMustBeBetween"
    assert response.json()["errors"] == [{"field": "minimum", "code": "valueMustBeBetween"}]
    db.expire_all()
    assert db.get(Function, plant.function("F2")).minimum_qualified == 3


@pytest.mark.parametrize("value", [0, 1000])
def test_the_bounds_are_allowed(client, manager, plant, value):
    response = client.put(minimum_url(plant.function("F2")), json={"minimum": value}, headers=manager)
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("body", [{}, {"minimum": "2"}, {"minimum": 2.5}, {"minimum": None}])
def test_a_minimum_that_is_not_a_whole_number(client, manager, plant, body):
    response = client.put(minimum_url(plant.function("F2")), json=body, headers=manager)
    assert response.status_code == 422, response.text


def test_only_qualification_administrators(client, db, make_user, login, plant):
    for permissions in ([], ["perm_TableauBord"]):
        headers = login(make_user(permissions=permissions))
        response = client.put(minimum_url(plant.function("F2")), json={"minimum": 1}, headers=headers)
        assert response.status_code == 403
    db.expire_all()
    assert db.get(Function, plant.function("F2")).minimum_qualified == 3


def test_a_hidden_function_and_an_unknown_one(client, db, make_user, login, plant):
    user = make_user(permissions=["perm_QualificationAdmin"])
    db.add(
        CartographyVisibility(group_id=user.groups[0].id, item_type="function", item_id=plant.function("F2"))
    )
    db.commit()
    headers = login(user)
    assert (
        client.put(minimum_url(plant.function("F1")), json={"minimum": 1}, headers=headers).status_code == 403
    )
    assert (
        client.put(minimum_url(plant.function("G1")), json={"minimum": 1}, headers=headers).status_code == 403
    )
    assert (
        client.put(minimum_url(plant.function("F2")), json={"minimum": 1}, headers=headers).status_code == 200
    )
    response = client.put(minimum_url(999_999), json={"minimum": 1}, headers=headers)
    assert (response.status_code, response.json()["message"]) == (404, "functionNotFound")
