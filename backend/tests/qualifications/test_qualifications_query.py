"""The qualification list (POST /qualifications/query) and the status records (POST
/qualifications/queryUserQualifications), with the query texts of spec 2 §7."""

import pytest

from qualifications.world import QUALIFICATIONS, group, module, qualification
from support import assert_error


@pytest.fixture
def catalogue(client, db, test_map, make_user, manager):
    """Three qualifications over two groups, three modules and both cartographies."""
    ann, bob, cid = (make_user(n, first_name=n.title(), last_name="Test") for n in ("ann", "bob", "cid"))
    a = group(db, "Équipe A", [ann.id, bob.id])
    b = group(db, "Équipe B", [bob.id, cid.id])
    m1, m2, m3 = module(db, "Habilitation"), module(db, "CACES"), module(db, "Secourisme")
    c1, c2 = test_map.cartography("C1"), test_map.cartography("C2")
    return {
        "people": {"ann": ann.id, "bob": bob.id, "cid": cid.id},
        "groups": {"a": a, "b": b},
        "modules": {"m1": m1, "m2": m2, "m3": m3},
        "cartographies": {"c1": c1, "c2": c2},
        "q": {
            "électricité": qualification(
                client, manager, "Électricité", groups=[a], modules=[m1], cartographies=[c1]
            ),
            "conduite": qualification(
                client, manager, "conduite", groups=[a, b], modules=[m2, m1], cartographies=[c1, c2]
            ),
            "secours": qualification(client, manager, "Secours", groups=[b], modules=[m3]),
        },
    }


def names(client, headers, **query):
    response = client.post(f"{QUALIFICATIONS}/query", json=query, headers=headers)
    assert response.status_code == 200, response.text
    return [r["name"] for r in response.json()["results"]], response.json()["totalItems"]


def test_cards(client, make_user, login, catalogue):
    anyone = login(make_user())
    response = client.post(f"{QUALIFICATIONS}/query", json={"filter": "name equals conduite"}, headers=anyone)
    assert response.status_code == 200, response.text
    c = catalogue
    assert response.json() == {
        "results": [
            {
                "id": c["q"]["conduite"],
                "name": "conduite",
                "cartographies": [
                    {"id": c["cartographies"]["c1"], "name": "Atelier de test"},
                    {"id": c["cartographies"]["c2"], "name": "Ligne de test"},
                ],
                "qualifiableGroups": [
                    {"id": c["groups"]["a"], "name": "Équipe A"},
                    {"id": c["groups"]["b"], "name": "Équipe B"},
                ],
                "modules": [
                    {"id": c["modules"]["m2"], "name": "CACES"},
                    {"id": c["modules"]["m1"], "name": "Habilitation"},
                ],
            }
        ],
        "totalItems": 1,
    }


def test_filters_sorts_and_counts(client, manager, catalogue):
    c = catalogue
    # Sorted by name by default, ignoring case and accents.
    assert names(client, manager) == (["conduite", "Électricité", "Secours"], 3)
    assert names(client, manager, sort="-name") == (["Secours", "Électricité", "conduite"], 3)
    # The spec's own query text.
    assert names(client, manager, filter=f"qualifiableGroups oneOf {c['groups']['a']}") == (
        ["conduite", "Électricité"],
        2,
    )
    assert names(client, manager, filter=f"qualifiableGroups noneOf {c['groups']['a']}") == (["Secours"], 1)
    assert names(client, manager, filter=f"cartographies oneOf {c['cartographies']['c2']}") == (
        ["conduite"],
        1,
    )
    assert names(client, manager, filter=f"modules oneOf {c['modules']['m1']},{c['modules']['m3']}")[1] == 3
    assert names(client, manager, filter=f"modules oneOf {c['modules']['m1']} & name contains elec") == (
        ["Électricité"],
        1,
    )
    assert names(client, manager, filter="name startsWith se", page=1, pageSize=1) == (["Secours"], 1)
    assert names(client, manager, page=2, pageSize=2) == (["Secours"], 3)


@pytest.mark.parametrize(
    "query", [{"filter": "color oneOf 1"}, {"sort": "cartographies"}, {"filter": "name"}]
)
def test_bad_queries_answer_400(client, manager, catalogue, query):
    assert_error(client.post(f"{QUALIFICATIONS}/query", json=query, headers=manager), 400)


def records(client, headers, text, **more):
    response = client.post(
        f"{QUALIFICATIONS}/queryUserQualifications", json={"filter": text, **more}, headers=headers
    )
    assert response.status_code == 200, response.text
    body = response.json()
    return [(r["qualificationName"], r["userName"]) for r in body["results"]], body["totalItems"]


def test_status_records_with_the_spec_queries(client, manager, catalogue):
    p, q = catalogue["people"], catalogue["q"]
    # 'user oneOf {ids} & qualification oneOf {ids}'
    text = f"user oneOf {p['ann']},{p['bob']} & qualification oneOf {q['conduite']},{q['secours']}"
    assert records(client, manager, text) == (
        [("conduite", "Ann Test"), ("conduite", "Bob Test"), ("Secours", "Bob Test")],
        3,
    )
    # 'user oneOf {id}': bob is in both groups of 'conduite', and counts once there.
    assert records(client, manager, f"user oneOf {p['bob']}") == (
        [("conduite", "Bob Test"), ("Électricité", "Bob Test"), ("Secours", "Bob Test")],
        3,
    )
    # 'qualification oneOf {id}'
    assert records(client, manager, f"qualification oneOf {q['conduite']}") == (
        [("conduite", "Ann Test"), ("conduite", "Bob Test"), ("conduite", "Cid Test")],
        3,
    )
    assert records(client, manager, "")[1] == 7
    assert records(client, manager, "", sort="-user_name,qualification_name", pageSize=2) == (
        [("conduite", "Cid Test"), ("Secours", "Cid Test")],
        7,
    )
    assert records(client, manager, "", page=4, pageSize=2) == ([("Secours", "Cid Test")], 7)


def test_a_status_record(client, db, manager, catalogue):
    p, q, m = catalogue["people"], catalogue["q"], catalogue["modules"]
    response = client.post(
        f"{QUALIFICATIONS}/queryUserQualifications",
        json={"filter": f"user oneOf {p['ann']} & qualification oneOf {q['conduite']}"},
        headers=manager,
    )
    assert response.json()["results"] == [
        {
            "qualification": q["conduite"],
            "qualificationName": "conduite",
            "user": p["ann"],
            "userName": "Ann Test",
            "remainingDays": -10000,
            "state": "none",
            "validUntil": None,
            "modules": [
                {
                    "module": module_id,
                    "moduleName": name,
                    "validationTrainingPath": None,
                    "requalificationTrainingPath": None,
                    "state": "none",
                    "remainingDays": -10000,
                    "validUntil": None,
                }
                for module_id, name in ((m["m2"], "CACES"), (m["m1"], "Habilitation"))
            ],
        }
    ]


@pytest.mark.parametrize("text", ["learner oneOf 1", "user equals 3", "user oneOf x", "user oneOf 1 | "])
def test_bad_status_queries_answer_400(client, manager, catalogue, text):
    response = client.post(
        f"{QUALIFICATIONS}/queryUserQualifications", json={"filter": text}, headers=manager
    )
    assert_error(response, 400)
