"""GET /mapping/items/search and POST /mapping/items/names: the map items of filter editors and
autocompletes, found by name or named by id, with their context paths, visible ones only."""

import pytest

from mapping.maps import restrict, site_id
from spot.mapping.models import Function, Site
from support import API, assert_error, field_codes

SEARCH = f"{API}/mapping/items/search"
NAMES = f"{API}/mapping/items/names"


@pytest.fixture
def reader(make_user, login):
    return login(make_user("chercheur"))


def search(client, headers, name, types=None):
    params = {"name": name} if types is None else {"name": name, "types": types}
    response = client.get(SEARCH, params=params, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def found(client, headers, name, types=None):
    return [(item["type"], item["name"]) for item in search(client, headers, name, types)]


def entry(item_id, code, name, kind):
    return {"id": item_id, "code": code, "name": name, "type": kind}


def test_search_finds_items_of_every_type_ignoring_case_and_accents(client, two_sites, reader):
    assert found(client, reader, "ÉBAVUR") == [("activity", "Ébavurage")]
    assert found(client, reader, "ebavur") == [("activity", "Ébavurage")]
    assert found(client, reader, "TEST") == [
        ("cartography", "Atelier de test"),
        ("cartography", "Ligne de test"),
        ("site", "Site de test"),
    ]
    assert found(client, reader, "électr") == [("function", "Électricien")]


def test_search_puts_names_starting_with_the_text_first(client, two_sites, reader):
    assert found(client, reader, "age") == [
        ("activity", "Agencement"),
        ("activity", "Ébavurage"),
        ("cartography", "Éclairage public"),
        ("activity", "Fraisage"),
        ("activity", "Montage"),
        ("activity", "Tournage"),
        ("activity", "Usinage"),
    ]


def test_search_keeps_the_types_asked(client, two_sites, reader):
    assert found(client, reader, "age", "cartography") == [("cartography", "Éclairage public")]
    assert found(client, reader, "test", "site,cartography") == [
        ("cartography", "Atelier de test"),
        ("cartography", "Ligne de test"),
        ("site", "Site de test"),
    ]
    assert found(client, reader, "opérateur", "function") == [
        ("function", "Opérateur de nacelle"),
        ("function", "Opérateur régleur"),
    ]
    assert found(client, reader, "o", " site , activity ") == [
        ("activity", "Contrôle"),
        ("activity", "Montage"),
        ("site", "Second site"),
        ("activity", "Tournage"),
    ]


def test_each_item_comes_with_the_path_from_its_site(client, two_sites, reader):
    m = two_sites
    site = entry(m.site_id, "TST", "Site de test", "site")
    c1 = entry(m.cartography("C1"), "C1", "Atelier de test", "cartography")
    [ebavurage] = search(client, reader, "ébavurage")
    assert ebavurage == {
        "id": m.activity("A121"),
        "type": "activity",
        "code": "A121",
        "name": "Ébavurage",
        "context": [
            site,
            c1,
            entry(m.activity("A1"), "A1", "Usinage", "activity"),
            entry(m.activity("A12"), "A12", "Fraisage", "activity"),
        ],
    }
    [usinage] = search(client, reader, "usinage")
    assert usinage["context"] == [site, c1]
    [regleur] = search(client, reader, "régleur")
    assert (regleur["type"], regleur["context"]) == ("function", [site, c1])
    [atelier] = search(client, reader, "atelier")
    assert (atelier["id"], atelier["context"]) == (m.cartography("C1"), [site])
    [site_found] = search(client, reader, "site de")
    assert (site_found["id"], site_found["type"], site_found["context"]) == (m.site_id, "site", [])


def test_search_answers_at_most_30_items(client, db, test_map, reader):
    db.add_all(
        Function(cartography_id=test_map.cartography("C2"), code=f"P{n:02}", name=f"Poste {n:02}")
        for n in range(1, 36)
    )
    db.commit()
    items = search(client, reader, "poste")
    assert len(items) == 30
    assert [i["name"] for i in items] == [f"Poste {n:02}" for n in range(1, 31)]


def test_search_takes_wildcards_literally(client, two_sites, reader):
    assert search(client, reader, "%") == []
    assert search(client, reader, "_") == []
    assert found(client, reader, "de_t") == []


def test_search_leaves_hidden_items_out(client, db, two_sites, make_user, login):
    m = two_sites
    user = make_user("limitee")
    restrict(db, user, m.cartography("C2"))
    headers = login(user)
    # The first site stays visible through C2; the second, whose only cartography is hidden, does not.
    assert found(client, headers, "test") == [("cartography", "Ligne de test"), ("site", "Site de test")]
    assert found(client, headers, "age") == [("activity", "Montage")]
    assert found(client, headers, "second") == []
    assert found(client, headers, "opérateur") == []
    assert found(client, headers, "ébavur") == []


def test_a_site_without_cartography_is_found_by_everyone(client, db, two_sites, make_user, login):
    db.add(Site(code="VIDE", name="Site vide"))
    db.commit()
    user = make_user("autre")
    restrict(db, user, two_sites.cartography("C2"))
    assert found(client, login(user), "vide") == [("site", "Site vide")]


def test_search_refuses_a_missing_name_or_an_unknown_type(client, reader):
    for params in ({}, {"name": ""}, {"name": "   "}):
        response = client.get(SEARCH, params=params, headers=reader)
        assert_error(response, 400)
        assert field_codes(response) == {("name", "emptyFieldError")}
    for types in ("subject", "site,zone", ","):
        response = client.get(SEARCH, params={"name": "a", "types": types}, headers=reader)
        assert_error(response, 400)
        assert field_codes(response) == {("types", "invalidValue")}
    assert client.get(SEARCH, params={"name": "a" * 201}, headers=reader).status_code == 422


def test_names_of_ids_in_the_order_given_leaving_unknown_ones_out(client, two_sites, reader):
    m = two_sites
    ids = [
        m.activity("A121"),
        2_000_000_000,
        m.function("H1"),
        m.site_id,
        m.cartography("C2"),
        m.function("H1"),
    ]
    body = client.post(NAMES, json=ids, headers=reader).json()
    assert [(i["id"], i["type"], i["name"]) for i in body] == [
        (m.activity("A121"), "activity", "Ébavurage"),
        (m.function("H1"), "function", "Électricien"),
        (m.site_id, "site", "Site de test"),
        (m.cartography("C2"), "cartography", "Ligne de test"),
    ]
    assert [e["code"] for e in body[0]["context"]] == ["TST", "C1", "A1", "A12"]
    assert [e["code"] for e in body[1]["context"]] == ["SEC", "C3"]
    assert body[2]["context"] == []
    assert body[3]["context"] == [entry(m.site_id, "TST", "Site de test", "site")]
    assert client.post(NAMES, json=[], headers=reader).json() == []


def test_names_leave_hidden_items_out(client, db, two_sites, make_user, login):
    m = two_sites
    user = make_user("masquee")
    restrict(db, user, m.cartography("C2"))
    ids = [
        m.cartography("C1"),
        m.activity("A1"),
        m.function("F1"),
        site_id(m, "SEC"),
        m.site_id,
        m.cartography("C2"),
        m.activity("B1"),
    ]
    body = client.post(NAMES, json=ids, headers=login(user)).json()
    assert [i["code"] for i in body] == ["TST", "C2", "B1"]


def test_names_refuse_bad_bodies(client, reader):
    assert client.post(NAMES, json={"ids": [1]}, headers=reader).status_code == 422
    assert client.post(NAMES, json=["abc"], headers=reader).status_code == 422
    assert client.post(NAMES, json=[2**31], headers=reader).status_code == 422
    assert client.post(NAMES, json=list(range(1001)), headers=reader).status_code == 422


def test_items_need_a_session(client, test_map):
    assert_error(client.get(SEARCH, params={"name": "test"}), 401)
    assert_error(client.post(NAMES, json=[test_map.site_id]), 401)
