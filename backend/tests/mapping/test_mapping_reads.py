import pytest

from mapping.maps import FILES, restrict
from support import API, assert_error


@pytest.fixture
def reader(make_user, login):
    return login(make_user("lecteur"))


def test_sites_list_sites_with_their_cartographies(client, test_map, reader):
    body = client.get(f"{API}/site", headers=reader).json()
    assert body == [
        {
            "id": test_map.site_id,
            "code": "TST",
            "name": "Site de test",
            "cartographies": [
                {"id": test_map.cartography("C1"), "code": "C1", "name": "Atelier de test"},
                {"id": test_map.cartography("C2"), "code": "C2", "name": "Ligne de test"},
            ],
            # Every subject of the site in view: its documents page opens (docs/documents.md).
            "documents": True,
        }
    ]


def test_sites_leave_out_hidden_cartographies(client, db, test_map, make_user, login):
    user = make_user("restreint")
    restrict(db, user, test_map.cartography("C2"))
    body = client.get(f"{API}/site", headers=login(user)).json()
    assert [c["code"] for c in body[0]["cartographies"]] == ["C2"]
    assert body[0]["documents"] is False


def test_cartography_list_with_sites(client, test_map, reader):
    response = client.get(f"{API}/cartography", headers=reader)
    assert response.status_code == 200
    assert response.json() == [
        {
            "id": test_map.cartography("C1"),
            "code": "C1",
            "name": "Atelier de test",
            "imageWidth": 400,
            "imageHeight": 300,
            "site": {"id": test_map.site_id, "code": "TST", "name": "Site de test"},
        },
        {
            "id": test_map.cartography("C2"),
            "code": "C2",
            "name": "Ligne de test",
            "imageWidth": 640,
            "imageHeight": 480,
            "site": {"id": test_map.site_id, "code": "TST", "name": "Site de test"},
        },
    ]


def test_cartography_list_etag_and_304(client, db, test_map, make_user, login):
    user = make_user("etag")
    headers = login(user)
    first = client.get(f"{API}/cartography", headers=headers)
    etag = first.headers["etag"]
    again = client.get(f"{API}/cartography", headers={**headers, "If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert (
        client.get(f"{API}/cartography", headers={**headers, "If-None-Match": '"other"'}).status_code == 200
    )
    # A change of visibility is a change of what this user sees: a new ETag.
    restrict(db, user, test_map.cartography("C1"))
    changed = client.get(f"{API}/cartography", headers={**headers, "If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["etag"] != etag
    assert [c["code"] for c in changed.json()] == ["C1"]


def test_search_cartography_site(client, test_map, reader):
    body = client.get(
        f"{API}/cartography/searchCartographySite", params={"name": "LIGNE"}, headers=reader
    ).json()
    assert body == [
        {
            "id": test_map.cartography("C2"),
            "code": "C2",
            "name": "Ligne de test",
            "siteId": test_map.site_id,
            "siteName": "Site de test",
        }
    ]
    by_site = client.get(
        f"{API}/cartography/searchCartographySite", params={"name": "site de"}, headers=reader
    )
    assert len(by_site.json()) == 2


@pytest.mark.parametrize("params", [{}, {"name": ""}, {"name": "  "}])
def test_search_needs_a_name(client, test_map, reader, params):
    response = client.get(f"{API}/cartography/searchCartographySite", params=params, headers=reader)
    body = assert_error(response, 400, "The parameter 'name' must be defined")
    assert body["errors"] == [{"field": "name", "code": "emptyFieldError"}]


def test_search_visible_only_and_administrators(client, db, test_map, make_user, login):
    plain = make_user("plain")
    admin = make_user("admin-carto", ["perm_SetPermissions"])
    restrict(db, plain, test_map.cartography("C1"))
    restrict(db, admin, test_map.cartography("C1"))
    url = f"{API}/cartography/searchCartographySite"
    for user, visible_only, expected in [
        (plain, "true", ["C1"]),
        (plain, "false", ["C1"]),
        (admin, "true", ["C1"]),
        (admin, "false", ["C1", "C2"]),
    ]:
        body = client.get(
            url, params={"name": "test", "visibleOnly": visible_only}, headers=login(user)
        ).json()
        assert [c["code"] for c in body] == expected, (user.login, visible_only)


def test_cartography_site_names(client, db, test_map, make_user, login):
    user = make_user("noms")
    restrict(db, user, test_map.cartography("C1"))
    c1, c2 = test_map.cartography("C1"), test_map.cartography("C2")
    response = client.post(
        f"{API}/cartography/getCartographySiteNames", json=[c2, c1, 999_999], headers=login(user)
    )
    assert response.json() == [
        {
            "id": c1,
            "code": "C1",
            "name": "Atelier de test",
            "siteId": test_map.site_id,
            "siteName": "Site de test",
        }
    ]
    bad = client.post(f"{API}/cartography/getCartographySiteNames", json={"ids": [1]}, headers=login(user))
    assert_error(bad, 422)


def test_cartography_image_with_etag_and_nosniff(client, test_map, reader):
    url = f"{API}/cartography/{test_map.cartography('C1')}/image"
    response = client.get(url, headers=reader)
    assert response.status_code == 200
    assert response.content == FILES["plan-1.png"]
    assert response.headers["content-type"] == "image/png"
    assert response.headers["x-content-type-options"] == "nosniff"
    etag = response.headers["etag"]
    assert client.get(url, headers={**reader, "If-None-Match": etag}).status_code == 304
    jpeg = client.get(f"{API}/cartography/{test_map.cartography('C2')}/image", headers=reader)
    assert jpeg.headers["content-type"] == "image/jpeg"


def test_zones(client, test_map, reader):
    body = client.get(f"{API}/cartography/{test_map.cartography('C1')}/zones", headers=reader).json()
    assert [{k: v for k, v in z.items() if k != "id"} for z in body] == [
        {
            "type": "activity",
            "itemId": test_map.activity("A1"),
            "itemCode": "A1",
            "itemName": "Usinage",
            "rectangle": {"x": 10, "y": 10, "width": 100, "height": 50},
        },
        {
            "type": "function",
            "itemId": test_map.function("F2"),
            "itemCode": "F2",
            "itemName": "Contrôleur",
            "rectangle": {"x": 200, "y": 20, "width": 40.5, "height": 30},
        },
    ]


def test_pictograms_and_their_images(client, test_map, reader):
    cartography = test_map.cartography("C1")
    body = client.get(f"{API}/pictos/{cartography}", headers=reader).json()
    assert len(body) == 1
    assert body[0]["activityId"] == test_map.activity("A1")
    assert body[0]["activityCode"] == "A1"
    image = client.get(body[0]["imageUrl"], headers=reader)
    assert image.content == FILES["picto.png"]
    assert image.headers["x-content-type-options"] == "nosniff"
    other = client.get(f"{API}/pictos/{test_map.cartography('C2')}/{body[0]['id']}/image", headers=reader)
    assert_error(other, 404)
    assert client.get(f"{API}/pictos/{test_map.cartography('C2')}", headers=reader).json() == []


def test_cartography_page(client, test_map, reader):
    cartography = test_map.cartography("C1")
    body = client.get(f"{API}/cartography/{cartography}", headers=reader).json()
    assert body["code"] == "C1"
    assert body["imageUrl"] == f"{API}/cartography/{cartography}/image"
    assert body["context"] == [
        {"id": test_map.site_id, "code": "TST", "name": "Site de test", "type": "site"},
        {"id": cartography, "code": "C1", "name": "Atelier de test", "type": "cartography"},
    ]
    assert [f["code"] for f in body["functions"]] == ["F1", "F2"]

    def shape(nodes):
        return [(n["code"], n["subjectsCount"], shape(n["activities"])) for n in nodes]

    assert shape(body["activities"]) == [
        ("A1", 2, [("A11", 1, []), ("A12", 1, [("A121", 1, [])])]),
        ("A2", 1, []),
    ]
    assert body["stats"]["reads"] == 1
    assert body["stats"]["writes"] == 3  # the three subjects created by the import
    again = client.get(f"{API}/cartography/{cartography}", headers=reader).json()
    assert again["stats"]["reads"] == 2


def test_functions_activities_and_sub_activities(client, test_map, reader):
    cartography = test_map.cartography("C1")
    functions = client.get(f"{API}/cartography/{cartography}/functions", headers=reader).json()
    assert [(f["code"], f["name"]) for f in functions] == [("F1", "Opérateur régleur"), ("F2", "Contrôleur")]
    top = client.get(f"{API}/cartography/{cartography}/activities", headers=reader).json()
    assert [(a["code"], a["hasSubActivities"], a["subjectsCount"], a["parentId"]) for a in top] == [
        ("A1", True, 2, None),
        ("A2", False, 1, None),
    ]
    subs = client.get(f"{API}/activity/{test_map.activity('A1')}/subActivities", headers=reader).json()
    assert [(a["code"], a["parentId"]) for a in subs] == [
        ("A11", test_map.activity("A1")),
        ("A12", test_map.activity("A1")),
    ]
    assert client.get(f"{API}/activity/{test_map.activity('A11')}/subActivities", headers=reader).json() == []


def test_item_with_contexts(client, test_map, reader):
    site = {"id": test_map.site_id, "code": "TST", "name": "Site de test", "type": "site"}
    c1 = {"id": test_map.cartography("C1"), "code": "C1", "name": "Atelier de test", "type": "cartography"}
    a1 = {"id": test_map.activity("A1"), "code": "A1", "name": "Usinage", "type": "activity"}
    a12 = {"id": test_map.activity("A12"), "code": "A12", "name": "Fraisage", "type": "activity"}
    a121 = {"id": test_map.activity("A121"), "code": "A121", "name": "Ébavurage", "type": "activity"}
    f1 = {"id": test_map.function("F1"), "code": "F1", "name": "Opérateur régleur", "type": "function"}

    def get(kind, item_id):
        response = client.get(f"{API}/item/{kind}/{item_id}", headers=reader)
        assert response.status_code == 200, response.text
        return response.json()

    assert get("site", test_map.site_id)["contexts"] == [[]]
    assert get("cartography", c1["id"])["contexts"] == [[site]]
    assert get("function", f1["id"])["contexts"] == [[site, c1]]
    assert get("activity", a121["id"])["contexts"] == [[site, c1, a1, a12]]
    subject = get("subject", test_map.subject("S3"))
    assert subject["type"] == "subject"
    assert subject["contexts"] == [[site, c1, f1], [site, c1, a1, a12, a121]]
    assert_error(client.get(f"{API}/item/planet/1", headers=reader), 422)
    assert_error(client.get(f"{API}/item/function/999999", headers=reader), 404)


def test_item_mind_map_node(client, db, test_map, reader):
    from sqlalchemy import select

    from spot.mapping.models import MindMapItem

    node_id = db.scalar(
        select(MindMapItem.id).where(MindMapItem.subject_id == test_map.subject("S1"), MindMapItem.code == 1)
    )
    body = client.get(f"{API}/item/mindmapNode/{node_id}", headers=reader).json()
    assert (body["code"], body["name"], body["type"]) == ("1", "Consigner", "mindmapNode")
    assert all(chain[-1]["type"] == "subject" for chain in body["contexts"])


HIDDEN_READS = [
    "/cartography/{c2}",
    "/cartography/{c2}/image",
    "/cartography/{c2}/zones",
    "/cartography/{c2}/functions",
    "/cartography/{c2}/activities",
    "/activity/{b1}/subActivities",
    "/pictos/{c2}",
    "/function/{g1}",
    "/subject/{t1}",
    "/item/cartography/{c2}",
    "/item/activity/{b1}",
    "/item/function/{g1}",
    "/item/subject/{t1}",
]


@pytest.mark.parametrize("path", HIDDEN_READS)
def test_hidden_items_answer_403_and_unknown_ones_404(client, db, test_map, make_user, login, path):
    user = make_user("cache")
    restrict(db, user, test_map.cartography("C1"))
    headers = login(user)
    ids = {
        "c2": test_map.cartography("C2"),
        "b1": test_map.activity("B1"),
        "g1": test_map.function("G1"),
        "t1": test_map.subject("T1"),
    }
    assert_error(client.get(API + path.format(**ids), headers=headers), 403, "Insufficient rights to view")
    unknown = {k: 987_654 for k in ids}
    assert_error(client.get(API + path.format(**unknown), headers=headers), 404)
    # The same user still reads the cartography it may see.
    visible = {
        "c2": test_map.cartography("C1"),
        "b1": test_map.activity("A1"),
        "g1": test_map.function("F1"),
        "t1": test_map.subject("S1"),
    }
    assert client.get(API + path.format(**visible), headers=headers).status_code == 200


def test_any_group_seeing_a_cartography_is_enough(client, db, test_map, make_user, login):
    from spot.users.models import Group

    user = make_user("deux-groupes")
    restrict(db, user, test_map.cartography("C1"))
    headers = login(user)
    c2 = f"{API}/cartography/{test_map.cartography('C2')}"
    assert client.get(c2, headers=headers).status_code == 403
    user.groups.append(Group(name="sans restriction"))
    db.commit()
    assert client.get(c2, headers=headers).status_code == 200


def test_a_user_in_no_group_sees_no_cartography(client, db, test_map, make_user, login):
    user = make_user("seul")
    user.groups = []
    db.commit()
    headers = login(user)
    assert client.get(f"{API}/cartography", headers=headers).json() == []
    assert client.get(f"{API}/cartography/{test_map.cartography('C1')}", headers=headers).status_code == 403


@pytest.mark.parametrize(
    "method, path",
    [
        ("GET", "/site"),
        ("GET", "/cartography"),
        ("GET", "/cartography/searchCartographySite?name=a"),
        ("POST", "/cartography/getCartographySiteNames"),
        ("GET", "/cartography/1"),
        ("GET", "/cartography/1/image"),
        ("GET", "/cartography/1/zones"),
        ("GET", "/pictos/1"),
        ("GET", "/item/site/1"),
        ("GET", "/function/1"),
        ("GET", "/subject/1"),
        ("POST", "/subject"),
        ("GET", "/account/visits"),
        ("POST", "/mapping/import"),
        ("GET", "/mapping/export/1"),
    ],
)
def test_every_call_needs_a_session(client, method, path):
    assert_error(client.request(method, API + path, json=[]), 401)


@pytest.mark.parametrize(
    "path",
    [
        "/cartography/{n}",
        "/cartography/{n}/image",
        "/subject/{n}",
        "/function/{n}",
        "/item/activity/{n}",
        "/activity/{n}/subActivities",
        "/pictos/{n}",
    ],
)
@pytest.mark.parametrize("n", ["99999999999999999999999", "-1", "0", "abc"])
def test_odd_ids_never_answer_5xx(client, test_map, reader, path, n):
    response = client.get(API + path.format(n=n), headers=reader)
    assert 400 <= response.status_code < 500, response.text
