from mapping.maps import FILES
from support import API, assert_error


def test_subject_payload(client, test_map, make_user, login):
    headers = login(make_user())
    body = client.get(f"{API}/subject/{test_map.subject('S3')}", headers=headers).json()
    site = {"id": test_map.site_id, "code": "TST", "name": "Site de test", "type": "site"}
    c1 = {"id": test_map.cartography("C1"), "code": "C1", "name": "Atelier de test", "type": "cartography"}
    f1 = {"id": test_map.function("F1"), "code": "F1", "name": "Opérateur régleur", "type": "function"}
    chain = [
        {"id": test_map.activity(c), "code": c, "name": n, "type": "activity"}
        for c, n in (("A1", "Usinage"), ("A12", "Fraisage"), ("A121", "Ébavurage"))
    ]
    assert body["contexts"] == [[site, c1, f1], [site, c1, *chain]]
    assert body["ancestors"] == [site, c1, f1, *chain]
    assert (body["code"], body["name"], body["type"]) == ("S3", "Ébavurer", "quality")
    assert body["ratings"] == {"frequency": 0, "gravity": 0, "detectability": 0}
    assert body["pictureUrl"] is None
    assert body["hasDiagram"] is False
    assert set(body["lifetimeEvents"]) == {
        "creation",
        "lastUpdate",
        "followed",
        "resolved",
        "criticity",
        "standardized",
    }
    assert body["lifetimeEvents"]["creation"]["userId"] is None  # imported by the command line
    assert isinstance(body["discussionId"], int)  # its thread (tests/discussions)


def test_subject_picture(client, test_map, make_user, login):
    headers = login(make_user())
    body = client.get(f"{API}/subject/{test_map.subject('S1')}", headers=headers).json()
    assert body["pictureUrl"] == f"{API}/subject/{test_map.subject('S1')}/picture"
    assert (body["criticity"], body["criticityLevel"], body["hasDiagram"]) == (48, "medium", True)
    picture = client.get(body["pictureUrl"], headers=headers)
    assert picture.content == FILES["photo.jpg"]
    assert picture.headers["content-type"] == "image/jpeg"
    assert picture.headers["x-content-type-options"] == "nosniff"
    assert_error(client.get(f"{API}/subject/{test_map.subject('S2')}/picture", headers=headers), 404)


def test_function_view(client, test_map, make_user, login):
    headers = login(make_user())
    body = client.get(f"{API}/function/{test_map.function('F1')}", headers=headers).json()
    assert (body["code"], body["name"], body["cartographyId"]) == (
        "F1",
        "Opérateur régleur",
        test_map.cartography("C1"),
    )
    assert [e["type"] for e in body["context"]] == ["site", "cartography"]
    tables = {a["code"]: [s["code"] for s in a["subjects"]] for a in body["activities"]}
    # S1 is in A11 and S3 in A121: both under A1. A2 has no subject of F1 but still has its table.
    assert tables == {"A1": ["S1", "S3"], "A2": []}
    s1 = body["activities"][0]["subjects"][0]
    assert (s1["mainNodeStatus"], s1["criticityLevel"]) == ("inProgress", "medium")
    assert_error(client.get(f"{API}/function/{test_map.activity('A1') + 1000}", headers=headers), 404)


def test_reads_count_in_the_cartography_stats(client, test_map, make_user, login):
    headers = login(make_user())
    cartography = f"{API}/cartography/{test_map.cartography('C1')}"
    before = client.get(cartography, headers=headers).json()["stats"]
    client.get(f"{API}/subject/{test_map.subject('S1')}", headers=headers)
    client.get(f"{API}/function/{test_map.function('F1')}", headers=headers)
    client.post(f"{API}/subject/{test_map.subject('S1')}/follow", headers=headers)
    client.get(f"{API}/subject/{test_map.subject('T1')}", headers=headers)  # another cartography
    after = client.get(cartography, headers=headers).json()["stats"]
    assert after == {"reads": before["reads"] + 3, "writes": before["writes"] + 1}
