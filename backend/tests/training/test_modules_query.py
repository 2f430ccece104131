"""The module list (POST /training/module/query: spec 2 §3 module filter fields), names and search."""

from datetime import UTC, datetime

import pytest
from sqlalchemy import update

from spot.training.modules.models import TrainingModule
from support import API, assert_error
from training.catalogue import MANAGE, MODULES, form, lms, mediation, reference, spot, url


def names(client, headers, filter="", sort="name", **extra):
    response = client.post(
        f"{MODULES}/query", json={"filter": filter, "sort": sort, **extra}, headers=headers
    )
    assert response.status_code == 200, response.text
    return [card["name"] for card in response.json()["results"]]


def create(client, headers, body) -> int:
    response = client.post(MODULES, json=body, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()["id"]


@pytest.fixture
def catalogue(client, db, test_map, course, make_user, login, manager):
    """Four modules by two authors, created on three days."""
    m = test_map
    reference(db, "CONS", label="Consignation")
    reference(db, "ELEC", label="Électricité")
    other = make_user("autrice", [MANAGE], first_name="Odile", last_name="Autre")
    ids = {
        "Alpha": create(
            client,
            manager,
            form(
                m,
                name="Alpha consignation",
                moduleType="training",
                goals="Consigner une machine",
                reference="CONS",
                moduleItems=[spot("activity", m.activity("A11")), mediation()],
            ),
        ),
        "Beta": create(
            client,
            manager,
            form(
                m,
                name="Bêta électrique",
                moduleType="qualification",
                goals="Habilitation électrique",
                reference="ELEC",
                moduleItems=[lms(course.quiz)],
            ),
        ),
        "Gamma": create(
            client,
            login(other),
            form(m, name="Gamma levage", moduleType="other", goals="Élinguer", moduleItems=[url()]),
        ),
        "Delta": create(
            client,
            login(other),
            form(
                m,
                name="delta chariot",
                moduleType="training",
                goals="Conduire un chariot",
                reference="CONS",
                moduleItems=[url(), lms(course.resource), spot("function", m.function("F1"))],
            ),
        ),
    }
    days = {"Alpha": 1, "Beta": 2, "Gamma": 2, "Delta": 3}
    for key, day in days.items():
        db.execute(
            update(TrainingModule)
            .where(TrainingModule.id == ids[key])
            .values(created_at=datetime(2026, 3, day, 10, tzinfo=UTC))
        )
    db.execute(update(TrainingModule).where(TrainingModule.id == ids["Gamma"]).values(enabled=False))
    db.commit()
    return {"ids": ids, "other": other}


def test_cards(client, catalogue, manager):
    body = client.post(f"{MODULES}/query", json={"sort": "name"}, headers=manager).json()
    assert body["totalItems"] == 4
    alpha = body["results"][0]
    assert alpha == {
        "id": catalogue["ids"]["Alpha"],
        "name": "Alpha consignation",
        "moduleType": "training",
        "reference": {"code": "CONS", "label": "Consignation", "description": "Description de CONS"},
        "goals": "Consigner une machine",
        "estimatedDuration": 90,
        "periodicity": 12,
        "passThreshold": 7,
        "enabled": True,
        "creation": {
            "userId": alpha["creation"]["userId"],
            "userName": "Gaëlle Gestion",
            "date": "2026-03-01T10:00:00Z",
        },
        "itemCount": 2,
    }
    by_name = {card["name"]: card for card in body["results"]}
    assert by_name["Gamma levage"]["reference"] is None
    assert [by_name[n]["itemCount"] for n in ("Bêta électrique", "Gamma levage", "delta chariot")] == [
        1,
        1,
        3,
    ]


def test_each_filter_field(client, catalogue, manager):
    h, other = manager, catalogue["other"]
    assert names(client, h) == ["Alpha consignation", "Bêta électrique", "delta chariot", "Gamma levage"]
    assert names(client, h, "enabled equals false") == ["Gamma levage"]
    assert names(client, h, "enabled equals true") == [
        "Alpha consignation",
        "Bêta électrique",
        "delta chariot",
    ]
    assert names(client, h, "name contains ELECTR") == ["Bêta électrique"]
    assert names(client, h, "name startsWith delta") == ["delta chariot"]
    assert names(client, h, "module_type oneOf training") == ["Alpha consignation", "delta chariot"]
    assert names(client, h, "module_type noneOf training,other") == ["Bêta électrique"]
    assert names(client, h, "goals contains elinguer") == ["Gamma levage"]
    assert names(client, h, "reference oneOf CONS") == ["Alpha consignation", "delta chariot"]
    assert names(client, h, "reference oneOf ELEC,CONS") == [
        "Alpha consignation",
        "Bêta électrique",
        "delta chariot",
    ]
    assert names(client, h, "reference noneOf CONS") == ["Bêta électrique", "Gamma levage"]
    assert names(client, h, f"creator oneOf {other.id}") == ["delta chariot", "Gamma levage"]
    assert names(client, h, "creation_date sameDay 2026-03-02") == ["Bêta électrique", "Gamma levage"]
    assert names(client, h, "creation_date before 2026-03-02") == ["Alpha consignation"]
    assert names(client, h, "creation_date afterOrSameDay 2026-03-02") == [
        "Bêta électrique",
        "delta chariot",
        "Gamma levage",
    ]
    assert names(client, h, "item_type oneOf lms") == ["Bêta électrique", "delta chariot"]
    assert names(client, h, "item_type oneOf spot,mediation") == ["Alpha consignation", "delta chariot"]
    assert names(client, h, "item_type noneOf url") == ["Alpha consignation", "Bêta électrique"]
    assert names(client, h, "enabled equals true & item_type oneOf url") == ["delta chariot"]


def test_sorts_and_paging(client, catalogue, manager):
    h = manager
    assert names(client, h, sort="-name") == [
        "Gamma levage",
        "delta chariot",
        "Bêta électrique",
        "Alpha consignation",
    ]
    assert names(client, h, sort="creation_date,name") == [
        "Alpha consignation",
        "Bêta électrique",
        "Gamma levage",
        "delta chariot",
    ]
    assert names(client, h, sort="-creation_date,name")[0] == "delta chariot"
    assert names(client, h, sort="module_type,name") == [
        "Gamma levage",
        "Bêta électrique",
        "Alpha consignation",
        "delta chariot",
    ]
    assert names(client, h, sort="enabled,name")[0] == "Gamma levage"
    assert names(client, h, sort="") == names(client, h, sort="name")
    first = client.post(f"{MODULES}/query", json={"sort": "name", "page": 2, "pageSize": 3}, headers=h).json()
    assert [c["name"] for c in first["results"]] == ["Gamma levage"] and first["totalItems"] == 4


@pytest.mark.parametrize(
    "body",
    [
        {"filter": "colour oneOf red"},
        {"filter": "module_type oneOf course"},
        {"filter": "item_type oneOf video"},
        {"sort": "reference"},
        {"sort": "creator"},
    ],
)
def test_bad_queries_answer_400(client, manager, body):
    assert_error(client.post(f"{MODULES}/query", json=body, headers=manager), 400)


def test_query_fields_are_offered(client, manager):
    fields = client.get(f"{API}/querylang/trainingModule/fields", headers=manager).json()["fields"]
    assert {f["name"] for f in fields} == {
        "enabled",
        "name",
        "module_type",
        "goals",
        "reference",
        "creator",
        "creation_date",
        "item_type",
    }


def test_names_in_the_order_asked(client, catalogue, manager):
    ids = catalogue["ids"]
    response = client.post(
        f"{MODULES}/getTrainingModuleNames",
        json=[ids["Gamma"], 987654, ids["Alpha"], ids["Gamma"]],
        headers=manager,
    )
    assert response.json() == [
        {"id": ids["Gamma"], "name": "Gamma levage"},
        {"id": ids["Alpha"], "name": "Alpha consignation"},
    ]
    assert client.post(f"{MODULES}/getTrainingModuleNames", json=[], headers=manager).json() == []
    assert_error(client.post(f"{MODULES}/getTrainingModuleNames", json=["x"], headers=manager), 422)


def test_search(client, catalogue, manager):
    def search(**params):
        response = client.get(f"{MODULES}/search", params=params, headers=manager)
        assert response.status_code == 200, response.text
        return [found["name"] for found in response.json()]

    assert search(name="ELEC") == ["Bêta électrique"]
    assert search(name="") == ["Alpha consignation", "Bêta électrique", "delta chariot", "Gamma levage"]
    assert search() == search(name="")
    assert search(name="a", enabled="true") == ["Alpha consignation", "Bêta électrique", "delta chariot"]
    assert search(name="a", enabled="false") == ["Gamma levage"]
    assert search(name="100%") == []
    [beta] = client.get(f"{MODULES}/search", params={"name": "bêta"}, headers=manager).json()
    assert beta == {
        "id": catalogue["ids"]["Beta"],
        "name": "Bêta électrique",
        "moduleType": "qualification",
        "enabled": True,
        "reference": {"code": "ELEC", "label": "Électricité", "description": "Description de ELEC"},
    }


def test_search_gives_30_at_most(client, test_map, manager):
    for n in range(32):
        create(client, manager, form(test_map, name=f"Module {n:02d}", moduleItems=[mediation()]))
    found = client.get(f"{MODULES}/search", params={"name": "module"}, headers=manager).json()
    assert len(found) == 30 and found[0]["name"] == "Module 00"


def test_search_with_enabled_left_empty(client, catalogue, manager):
    response = client.get(f"{MODULES}/search?name=gamma&enabled=", headers=manager)
    assert [found["name"] for found in response.json()] == ["Gamma levage"]
    assert_error(client.get(f"{MODULES}/search?enabled=maybe", headers=manager), 422)
