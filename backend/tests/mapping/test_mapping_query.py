"""POST /cartography/query and POST /function/query: the FilteredCartographies and FilteredFunctions lists."""

import pytest

from mapping.maps import restrict, site_id
from support import API, assert_error


@pytest.fixture
def reader(make_user, login):
    return login(make_user("lectrice"))


def query(client, headers, entity, filter="", sort="", **extra):
    response = client.post(
        f"{API}/{entity}/query", json={"filter": filter, "sort": sort, **extra}, headers=headers
    )
    assert response.status_code == 200, response.text
    return response.json()


def codes(client, headers, entity, filter="", sort="", **extra):
    return [item["code"] for item in query(client, headers, entity, filter, sort, **extra)["results"]]


# Cartographies --------------------------------------------------------------------------------


def test_cartographies_are_listed_by_name_with_their_site(client, two_sites, reader):
    m = two_sites
    body = query(client, reader, "cartography")
    assert body["totalItems"] == 3
    # Sorted by name ignoring accents: Atelier, Éclairage, Ligne.
    assert [c["code"] for c in body["results"]] == ["C1", "C3", "C2"]
    assert body["results"][1] == {
        "id": m.cartography("C3"),
        "code": "C3",
        "name": "Éclairage public",
        "context": [{"id": site_id(m, "SEC"), "code": "SEC", "name": "Second site", "type": "site"}],
    }


def test_cartography_filters(client, two_sites, reader):
    m = two_sites
    tst, sec = site_id(m, "TST"), site_id(m, "SEC")
    assert codes(client, reader, "cartography", "name contains ECLAIR") == ["C3"]
    assert codes(client, reader, "cartography", "name startsWith atelier") == ["C1"]
    assert codes(client, reader, "cartography", "code equals c2") == ["C2"]
    assert codes(client, reader, "cartography", f"site oneOf {tst}") == ["C1", "C2"]
    assert codes(client, reader, "cartography", f"site noneOf {tst}") == ["C3"]
    assert codes(client, reader, "cartography", f"location oneOf {sec}") == ["C3"]
    assert codes(client, reader, "cartography", f"location oneOf {m.cartography('C2')}") == ["C2"]
    assert codes(client, reader, "cartography", f"location noneOf {tst},{m.cartography('C3')}") == []
    assert codes(client, reader, "cartography", "name contains test | code equals C3", "code") == [
        "C1",
        "C2",
        "C3",
    ]


def test_cartography_sorts(client, two_sites, reader):
    assert codes(client, reader, "cartography", sort="-name") == ["C2", "C3", "C1"]
    assert codes(client, reader, "cartography", sort="-code") == ["C3", "C2", "C1"]
    assert codes(client, reader, "cartography", sort="code") == ["C1", "C2", "C3"]


def test_cartography_pages(client, two_sites, reader):
    first = query(client, reader, "cartography", sort="code", page=1, pageSize=2)
    second = query(client, reader, "cartography", sort="code", page=2, pageSize=2)
    beyond = query(client, reader, "cartography", sort="code", page=3, pageSize=2)
    assert [c["code"] for c in first["results"]] == ["C1", "C2"]
    assert [c["code"] for c in second["results"]] == ["C3"]
    assert beyond["results"] == []
    assert first["totalItems"] == second["totalItems"] == beyond["totalItems"] == 3


def test_hidden_cartographies_are_never_listed(client, db, two_sites, make_user, login):
    m = two_sites
    user = make_user("restreinte")
    restrict(db, user, m.cartography("C2"))
    headers = login(user)
    body = query(client, headers, "cartography")
    assert ([c["code"] for c in body["results"]], body["totalItems"]) == (["C2"], 1)
    assert codes(client, headers, "cartography", f"location oneOf {m.cartography('C1')}") == []
    assert codes(client, headers, "cartography", "name contains test | name contains eclairage") == ["C2"]


def test_a_user_in_no_group_sees_no_cartography(client, db, two_sites, make_user, login):
    user = make_user("sans-groupe")
    user.groups = []
    db.commit()
    assert query(client, login(user), "cartography") == {"results": [], "totalItems": 0}


# Functions ------------------------------------------------------------------------------------


def test_functions_are_listed_by_name_with_their_site_and_cartography(client, two_sites, reader):
    m = two_sites
    body = query(client, reader, "function")
    assert body["totalItems"] == 5
    assert [f["name"] for f in body["results"]] == [
        "Contrôleur",
        "Électricien",
        "Monteur",
        "Opérateur de nacelle",
        "Opérateur régleur",
    ]
    f1 = body["results"][4]
    assert (f1["id"], f1["code"], f1["cartographyId"]) == (m.function("F1"), "F1", m.cartography("C1"))
    assert f1["context"] == [
        {"id": m.site_id, "code": "TST", "name": "Site de test", "type": "site"},
        {"id": m.cartography("C1"), "code": "C1", "name": "Atelier de test", "type": "cartography"},
    ]


def test_function_filters(client, two_sites, reader):
    m = two_sites
    tst, sec = site_id(m, "TST"), site_id(m, "SEC")
    assert codes(client, reader, "function", "name contains OPERATEUR") == ["H2", "F1"]
    assert codes(client, reader, "function", "name equals electricien") == ["H1"]
    assert codes(client, reader, "function", "code startsWith h") == ["H1", "H2"]
    assert codes(client, reader, "function", f"cartography oneOf {m.cartography('C1')}") == ["F2", "F1"]
    assert codes(client, reader, "function", f"cartography noneOf {m.cartography('C1')}", "code") == [
        "G1",
        "H1",
        "H2",
    ]
    assert codes(client, reader, "function", f"site oneOf {sec}") == ["H1", "H2"]
    assert codes(client, reader, "function", f"location oneOf {tst}", "code") == ["F1", "F2", "G1"]
    assert codes(client, reader, "function", f"location oneOf {m.cartography('C2')}") == ["G1"]
    assert codes(client, reader, "function", f"location oneOf {m.function('F1')}") == ["F1"]
    assert codes(client, reader, "function", f"location oneOf {tst} & name contains o", "code") == [
        "F1",
        "F2",
        "G1",
    ]
    assert codes(client, reader, "function", f"location noneOf {tst} & name contains o") == ["H2"]


def test_function_sorts_and_pages(client, two_sites, reader):
    assert codes(client, reader, "function", sort="-name") == ["F1", "H2", "G1", "H1", "F2"]
    assert codes(client, reader, "function", sort="code") == ["F1", "F2", "G1", "H1", "H2"]
    pages = [query(client, reader, "function", sort="-code", page=p, pageSize=2) for p in (1, 2, 3)]
    assert [[f["code"] for f in page["results"]] for page in pages] == [["H2", "H1"], ["G1", "F2"], ["F1"]]
    assert {page["totalItems"] for page in pages} == {5}


def test_functions_of_hidden_cartographies_are_never_listed(client, db, two_sites, make_user, login):
    m = two_sites
    user = make_user("cachee")
    restrict(db, user, m.cartography("C2"), m.cartography("C3"))
    headers = login(user)
    assert codes(client, headers, "function", sort="code") == ["G1", "H1", "H2"]
    assert codes(client, headers, "function", f"location oneOf {m.site_id}") == ["G1"]
    assert query(client, headers, "function", f"cartography oneOf {m.cartography('C1')}")["totalItems"] == 0


# Refusals -------------------------------------------------------------------------------------


@pytest.mark.parametrize("entity", ["cartography", "function"])
def test_query_needs_a_session(client, entity):
    assert_error(client.post(f"{API}/{entity}/query", json={}), 401)


@pytest.mark.parametrize("entity", ["cartography", "function"])
@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"filter": "unknown equals x"}, "Field is not valid for this query"),
        ({"filter": "name contains a & code equals b | code equals c"}, None),
        ({"filter": "name oneOf a"}, "This operator is not valid for this field type"),
        ({"filter": "site oneOf abc"}, None),
        ({"sort": "site"}, None),
        ({"sort": "location"}, None),
    ],
)
def test_bad_queries_answer_400(client, two_sites, reader, entity, body, message):
    body_out = assert_error(client.post(f"{API}/{entity}/query", json=body, headers=reader), 400, message)
    assert body_out["errors"], body_out


@pytest.mark.parametrize("entity", ["cartography", "function"])
def test_out_of_range_pages_are_bad_input(client, reader, entity):
    assert client.post(f"{API}/{entity}/query", json={"pageSize": 0}, headers=reader).status_code == 422
    assert client.post(f"{API}/{entity}/query", json={"page": 0}, headers=reader).status_code == 422


def test_the_fields_are_offered_to_filter_editors_and_saved_filters(client, reader):
    cartography = client.get(f"{API}/querylang/cartography/fields", headers=reader).json()
    assert {f["name"]: (f["type"], f["sortable"]) for f in cartography["fields"]} == {
        "name": ("string", True),
        "code": ("string", True),
        "site": ("id", False),
        "location": ("location", False),
    }
    function = client.get(f"{API}/querylang/function/fields", headers=reader).json()
    assert {f["name"]: f["type"] for f in function["fields"]} == {
        "name": "string",
        "code": "string",
        "cartography": "id",
        "site": "id",
        "location": "location",
    }
    saved = {
        "name": "Mes fonctions",
        "filter": "name contains opérateur",
        "sorting": "-code",
        "isDefault": True,
    }
    body = {"entityType": "function", "filters": [saved], "version": 0}
    response = client.post(f"{API}/account/filters", json=body, headers=reader)
    assert response.status_code == 204, response.text
    assert client.get(f"{API}/account/filters", headers=reader).json()["function"]["filters"] == [saved]
