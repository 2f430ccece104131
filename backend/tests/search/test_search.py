"""GET /search (spec 1 §2 global search bar, §9 limits): case- and accent-insensitive, four categories
with their contexts, spans and counts, only what the user may read, indexes kept up to date."""

import pytest
from sqlalchemy import select

from mapping.maps import SECOND_SITE, load, restrict
from spot.mapping.models import Cartography, CartographyVisibility, Function, MindMapItem
from spot.search.service import spans
from support import API, assert_error, field_codes

EDIT, REM = "perm_EditPdv", "perm_RemPdv"


@pytest.fixture
def headers(make_user, login):
    return login(make_user(permissions=[EDIT, REM]))


def search(client, headers, text, **params):
    response = client.get(f"{API}/search", params={"text": text, **params}, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def names(body, category):
    return [r["name"] for r in body[category]["results"]]


def create_subject(client, headers, m, name, function="F1", activity="A12"):
    body = {
        "name": name,
        "type": "risk",
        "cartographyId": m.cartography("C1"),
        "functionId": m.function(function),
        "activityId": m.activity(activity),
    }
    response = client.post(f"{API}/subject", json=body, headers=headers)
    assert response.status_code in (200, 201), response.text
    return response.json()["id"]


def entries(result):
    return [(e["type"], e["code"]) for e in result["context"]]


def test_case_and_accents_are_ignored_on_both_sides(client, test_map, headers):
    for text in ("controleur", "CONTRÔLEUR", "Contrôleur", "côntroleur"):
        assert names(search(client, headers, text), "functions") == ["Contrôleur"], text
    assert names(search(client, headers, "regleur"), "functions") == ["Opérateur régleur"]
    assert names(search(client, headers, "ÉBAVURER"), "subjects") == ["Ébavurer"]
    create_subject(client, headers, test_map, "Médiation d'équipe")
    assert names(search(client, headers, "mediation"), "subjects") == ["Médiation d'équipe"]


def test_each_category_with_its_context(client, test_map, headers):
    m = test_map
    body = search(client, headers, "de test")
    assert set(body) == {"cartographies", "functions", "subjects", "nodes"}
    assert sorted(names(body, "cartographies")) == ["Atelier de test", "Ligne de test"]
    assert body["cartographies"]["totalItems"] == 2
    atelier = next(r for r in body["cartographies"]["results"] if r["name"] == "Atelier de test")
    assert (atelier["id"], atelier["type"], atelier["code"]) == (m.cartography("C1"), "cartography", "C1")
    assert entries(atelier) == [("site", "TST")]
    assert atelier["matches"] == [{"start": 8, "length": 7}]

    function = search(client, headers, "regleur")["functions"]["results"][0]
    assert function["id"] == m.function("F1") and function["type"] == "function"
    assert entries(function) == [("site", "TST"), ("cartography", "C1")]
    cartography = {"id": m.cartography("C1"), "code": "C1", "name": "Atelier de test", "type": "cartography"}
    assert function["context"][1] == cartography

    subject = search(client, headers, "ebavurer")["subjects"]["results"][0]
    assert subject["id"] == m.subject("S3") and subject["type"] == "subject" and subject["code"] == "S3"
    assert entries(subject) == [
        ("site", "TST"),
        ("cartography", "C1"),
        ("activity", "A1"),
        ("activity", "A12"),
        ("activity", "A121"),
        ("function", "F1"),
    ]

    body = search(client, headers, "consigner")
    assert body["subjects"] == {"results": [], "totalItems": 0, "more": False}
    [node] = body["nodes"]["results"]
    assert node["type"] == "mindmapNode" and node["code"] == "1" and node["status"] == "validated"
    assert node["name"] == "Consigner" and node["matches"] == [{"start": 0, "length": 9}]
    assert entries(node) == [
        ("site", "TST"),
        ("cartography", "C1"),
        ("activity", "A1"),
        ("activity", "A11"),
        ("function", "F1"),
        ("subject", "S1"),
    ]
    assert node["context"][-1]["id"] == m.subject("S1")


def test_the_main_node_is_found_beside_its_subject(client, test_map, headers):
    body = search(client, headers, "plaquette")
    assert names(body, "subjects") == ["Changer une plaquette"]
    [node] = body["nodes"]["results"]
    assert node["code"] == "0" and node["context"][-1]["code"] == "S1"
    assert node["matches"] == [{"start": 12, "length": 9}]


def span_list(name, text, prefix=False):
    return [(s.start, s.length) for s in spans(name, text, prefix=prefix)]


def test_spans_are_in_the_displayed_characters():
    assert span_list("Atelier de test", "test") == [(11, 4)]
    assert span_list("Écrou, écrou", "ecrou") == [(0, 5), (7, 5)]
    assert span_list("Cœur", "coeur") == [(0, 4)]  # œ is two letters folded
    assert span_list("Cœur", "oe") == [(1, 1)]
    assert span_list("Sœur", "e") == [(1, 1)]
    assert span_list("aaaa", "aa") == [(0, 2), (2, 2)]
    assert span_list("Visser la vis", "vi", prefix=True) == [(0, 2)]
    assert span_list("Rien", "xyz") == []


def test_spans_of_a_ligature_through_the_api(client, test_map, headers):
    create_subject(client, headers, test_map, "Cœur de la pompe, cœur")
    [result] = search(client, headers, "COEUR")["subjects"]["results"]
    assert result["matches"] == [{"start": 0, "length": 4}, {"start": 18, "length": 4}]


def test_five_collapsed_thirty_expanded_and_the_counts(client, test_map, headers):
    ids = [create_subject(client, headers, test_map, f"Réglage {n}") for n in range(35)]
    collapsed = search(client, headers, "reglage")
    assert collapsed["subjects"]["totalItems"] == 35 and collapsed["nodes"]["totalItems"] == 35
    assert [r["id"] for r in collapsed["subjects"]["results"]] == ids[::-1][:5]  # newest first
    assert len(collapsed["nodes"]["results"]) == 5
    expanded = search(client, headers, "reglage", limit=30)
    assert [r["id"] for r in expanded["subjects"]["results"]] == ids[::-1][:30]
    assert expanded["subjects"]["totalItems"] == 35 and len(expanded["nodes"]["results"]) == 30
    assert search(client, headers, "reglage", limit=1)["subjects"]["totalItems"] == 35


def test_the_category_parameter_asks_for_one(client, test_map, headers):
    create_subject(client, headers, test_map, "Test de charge")
    body = search(client, headers, "test", category="subjects", limit=30)
    assert body["cartographies"] is None and body["functions"] is None and body["nodes"] is None
    assert names(body, "subjects") == ["Test de charge"] and body["subjects"]["totalItems"] == 1
    body = search(client, headers, "test", category="cartographies")
    assert body["subjects"] is None and body["cartographies"]["totalItems"] == 2


def test_one_or_two_characters_find_the_names_that_begin_with_them(client, test_map, headers):
    body = search(client, headers, "v")
    assert names(body, "subjects") == ["Visser"] and body["subjects"]["totalItems"] == 1
    assert body["subjects"]["results"][0]["matches"] == [{"start": 0, "length": 1}]
    assert names(search(client, headers, "É"), "subjects") == ["Ébavurer"]  # "Mesurer une cote" holds an e
    assert names(search(client, headers, "e"), "subjects") == ["Ébavurer"]
    body = search(client, headers, "mo")
    assert names(body, "functions") == ["Monteur"] and body["functions"]["results"][0]["matches"] == [
        {"start": 0, "length": 2}
    ]
    assert search(client, headers, "eu")["functions"]["totalItems"] == 0  # inside "Monteur", not its start
    assert names(search(client, headers, "CO"), "nodes") == ["Consigner"]
    assert sorted(names(search(client, headers, "at"), "cartographies")) == ["Atelier de test"]
    assert search(client, headers, " v ")["subjects"]["totalItems"] == 1  # surrounding spaces ignored


def test_prefixes_come_in_alphabetical_order_and_longer_texts_newest_first(client, test_map, headers):
    for name in ("Vérifier la vis", "Valider la vis", "Vb"):
        create_subject(client, headers, test_map, name)
    assert names(search(client, headers, "V"), "subjects") == [
        "Valider la vis",
        "Vb",
        "Vérifier la vis",
        "Visser",
    ]
    assert names(search(client, headers, "vis"), "subjects") == [
        "Valider la vis",
        "Vérifier la vis",
        "Visser",
    ]


def test_counts_stop_at_a_hundred(client, db, test_map, headers):
    subject = test_map.subject("S2")
    db.add_all(
        MindMapItem(subject_id=subject, code=n, name=f"Étape {n}", status="empty") for n in range(1, 102)
    )
    db.commit()
    for text in ("etape", "ét"):
        nodes = search(client, headers, text)["nodes"]
        assert nodes["totalItems"] == 100 and nodes["more"] is True and len(nodes["results"]) == 5
    db.delete(db.scalar(select(MindMapItem).where(MindMapItem.subject_id == subject, MindMapItem.code == 1)))
    db.commit()
    nodes = search(client, headers, "etape")["nodes"]
    assert nodes["totalItems"] == 100 and nodes["more"] is False
    assert search(client, headers, "visser")["nodes"] == {
        "results": search(client, headers, "visser")["nodes"]["results"],
        "totalItems": 1,
        "more": False,
    }


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("100%", ['100% "sûr" l\'atelier_*']),
        ('"sûr"', ['100% "sûr" l\'atelier_*']),
        ("l'atelier_", ['100% "sûr" l\'atelier_*']),
        ("r_*", ['100% "sûr" l\'atelier_*']),
        ("10", ['100% "sûr" l\'atelier_*']),
        ("%%%", []),
        ("___", []),
        ("_%_", []),
        ("***", []),
        ("'''", []),
        ('"""', []),
        ("a OR b", []),
        ("NEAR(a b)", []),
        ("é*", []),
        ("%", []),
        ("_", []),
        ('"', []),
        ("*", []),
        ("'", []),
        ("\\", []),
        ("1\\", []),
    ],
)
def test_special_characters_are_plain_text(client, test_map, headers, text, found):
    create_subject(client, headers, test_map, '100% "sûr" l\'atelier_*')
    create_subject(client, headers, test_map, "Sans rien de spécial")
    body = search(client, headers, text)
    assert names(body, "subjects") == found
    assert body["subjects"]["totalItems"] == len(found)


def test_what_the_user_may_not_read_is_neither_found_nor_counted(client, db, test_map, make_user, login):
    m = test_map
    user = make_user(permissions=[EDIT])
    restrict(db, user, m.cartography("C2"))
    headers = login(user)
    body = search(client, headers, "de test")
    assert names(body, "cartographies") == ["Ligne de test"] and body["cartographies"]["totalItems"] == 1
    for text in ("plaquette", "consigner", "regleur", "ebavurer", "controleur"):
        body = search(client, headers, text)
        assert all(body[c] == {"results": [], "totalItems": 0, "more": False} for c in body), text
    for text in ("c", "co", "eb"):  # and with a prefix alike
        body = search(client, headers, text)
        assert all(body[c]["totalItems"] == len(body[c]["results"]) == 0 for c in body), text
    body = search(client, headers, "visser")
    assert names(body, "subjects") == ["Visser"] and names(body, "nodes") == ["Visser"]
    assert names(search(client, headers, "monteur"), "functions") == ["Monteur"]


def test_a_cartography_limited_to_a_function_hides_other_subjects(client, db, test_map, make_user, login):
    m = test_map
    user = make_user()
    db.add(CartographyVisibility(group_id=user.groups[0].id, item_type="function", item_id=m.function("F2")))
    db.commit()
    headers = login(user)
    assert names(search(client, headers, "controleur"), "functions") == ["Contrôleur"]
    assert search(client, headers, "regleur")["functions"]["totalItems"] == 0
    assert names(search(client, headers, "mesurer"), "subjects") == ["Mesurer une cote"]
    body = search(client, headers, "plaquette")
    assert body["subjects"]["totalItems"] == 0 and body["nodes"]["totalItems"] == 0
    assert names(search(client, headers, "de test"), "cartographies") == ["Atelier de test"]


def test_the_index_follows_subject_create_rename_and_delete(client, test_map, headers):
    subject_id = create_subject(client, headers, test_map, "Graissage du tour")
    body = search(client, headers, "graissage")
    assert names(body, "subjects") == ["Graissage du tour"] and names(body, "nodes") == ["Graissage du tour"]
    current = client.get(f"{API}/subject/{subject_id}", headers=headers).json()
    update = {
        "name": "Lubrification du tour",
        "type": "risk",
        "cartographyId": test_map.cartography("C1"),
        "functionId": test_map.function("F1"),
        "activityId": test_map.activity("A12"),
        "version": current["version"],
    }
    assert client.post(f"{API}/subject/{subject_id}", json=update, headers=headers).status_code == 200
    assert search(client, headers, "graissage")["subjects"]["totalItems"] == 0
    assert names(search(client, headers, "lubrification"), "subjects") == ["Lubrification du tour"]
    assert names(search(client, headers, "lu"), "subjects") == ["Lubrification du tour"]
    assert client.delete(f"{API}/subject/{subject_id}", headers=headers).status_code == 204
    body = search(client, headers, "tour")
    assert body["subjects"]["totalItems"] == 0 and body["nodes"]["totalItems"] == 0
    assert search(client, headers, "lu")["subjects"]["totalItems"] == 0


def test_a_duplicated_subject_and_its_mind_map_are_found(client, test_map, headers):
    response = client.post(f"{API}/subject/{test_map.subject('S1')}/duplicate", headers=headers)
    assert response.status_code in (200, 201), response.text
    copy = response.json()["id"]
    body = search(client, headers, "consigner")
    assert body["nodes"]["totalItems"] == 2
    assert copy in {node["context"][-1]["id"] for node in body["nodes"]["results"]}
    assert search(client, headers, "plaquette")["subjects"]["totalItems"] == 2


def test_an_imported_map_is_found(client, db, test_map, headers):
    load(db, SECOND_SITE)
    assert names(search(client, headers, "eclairage"), "cartographies") == ["Éclairage public"]
    assert names(search(client, headers, "ELECTRICIEN"), "functions") == ["Électricien"]
    assert names(search(client, headers, "él"), "functions") == ["Électricien"]
    [function] = search(client, headers, "nacelle")["functions"]["results"]
    assert entries(function) == [("site", "SEC"), ("cartography", "C3")]


def test_the_index_follows_the_map_and_the_nodes(client, db, test_map, headers):
    m = test_map
    function = db.get(Function, m.function("G1"))
    function.name = "Soudeur à l'arc"
    cartography = db.get(Cartography, m.cartography("C2"))
    cartography.name = "Chaîne d'assemblage"
    node = MindMapItem(subject_id=m.subject("T1"), code=5, name="Étiqueter les pièces", status="empty")
    db.add(node)
    db.commit()
    assert names(search(client, headers, "soudeur a l"), "functions") == ["Soudeur à l'arc"]
    assert search(client, headers, "monteur")["functions"]["totalItems"] == 0
    assert search(client, headers, "mo")["functions"]["totalItems"] == 0
    assert names(search(client, headers, "so"), "functions") == ["Soudeur à l'arc"]
    assert names(search(client, headers, "chaine"), "cartographies") == ["Chaîne d'assemblage"]
    assert names(search(client, headers, "ch"), "cartographies") == ["Chaîne d'assemblage"]
    assert search(client, headers, "ligne")["cartographies"]["totalItems"] == 0
    assert names(search(client, headers, "etiqueter"), "nodes") == ["Étiqueter les pièces"]
    node.name = "Ranger les pièces"
    db.commit()
    assert search(client, headers, "etiqueter")["nodes"]["totalItems"] == 0
    assert names(search(client, headers, "pieces"), "nodes") == ["Ranger les pièces"]
    db.delete(node)
    db.commit()
    assert search(client, headers, "pieces")["nodes"]["totalItems"] == 0
    assert search(client, headers, "ra")["nodes"]["totalItems"] == 0
    assert db.scalar(select(MindMapItem.id).where(MindMapItem.code == 5)) is None


@pytest.mark.parametrize(
    ("params", "status", "codes"),
    [
        ({}, 422, {("text", "emptyFieldError")}),
        ({"text": ""}, 400, {("text", "emptyFieldError")}),
        ({"text": "   "}, 400, {("text", "emptyFieldError")}),
        ({"text": "x" * 201}, 422, {("text", "too_long")}),
        ({"text": "a\x00b"}, 422, None),
        ({"text": "abc", "limit": "0"}, 422, {("limit", "greater_than_equal")}),
        ({"text": "abc", "limit": "31"}, 422, {("limit", "less_than_equal")}),
        ({"text": "abc", "limit": "cinq"}, 422, {("limit", "int_parsing")}),
        ({"text": "abc", "category": "sites"}, 422, {("category", "literal_error")}),
    ],
)
def test_bad_parameters_answer_their_keys(client, headers, params, status, codes):
    response = client.get(f"{API}/search", params=params, headers=headers)
    assert_error(response, status)
    if codes is not None:
        assert field_codes(response) == codes
    else:
        assert {field for field, _ in field_codes(response)} == {"text"}


def test_any_signed_in_user_may_search_and_no_one_else(client, test_map, make_user, login):
    assert_error(client.get(f"{API}/search", params={"text": "test"}), 401)
    body = search(client, login(make_user()), "test")
    assert body["cartographies"]["totalItems"] == 2
