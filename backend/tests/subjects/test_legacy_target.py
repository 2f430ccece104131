"""Legacy targets (docs/mind-map.md 'Legacy addresses'): GET /legacy/target?to=… names the Spot view of a
legacy address, in the forms features/subjects/legacy.ts builds (segments URI-encoded)."""

from urllib.parse import quote

import pytest

from mapping.maps import restrict
from spot.mapping.models import Function, Subject
from spot.subjects.mindmap.legacy import parse
from support import API, assert_error, field_codes

URL = f"{API}/legacy/target"


def segment(code):
    """encodeURIComponent."""
    return quote(code, safe="-_.!~*'()")


def target(client, headers, to):
    return client.get(URL, params={"to": to}, headers=headers)


@pytest.fixture
def reader(make_user, login):
    return login(make_user("lecteur"))


@pytest.mark.parametrize(
    "tail, view",
    [
        ("pdvhaut/S1//", "mindMap"),
        ("pdvhaut/S1/", "mindMap"),
        ("pdvhaut/S1/standard", "standardized"),
        ("pdvbas/S1", "diagram"),
    ],
)
def test_each_view(client, test_map, reader, tail, view):
    response = target(client, reader, f"spot/TST/fonction/F1/{tail}")
    assert response.status_code == 200, response.text
    assert response.json() == {"view": view, "subjectId": test_map.subject("S1")}


def test_encoded_codes(client, db, test_map, reader):
    subject = db.get(Subject, test_map.subject("S3"))
    subject.code = "USI 002/é?#"
    function = db.get(Function, test_map.function("F1"))
    function.code = "F 1/%"
    db.commit()
    to = f"spot/TST/fonction/{segment('F 1/%')}/pdvbas/{segment('USI 002/é?#')}"
    assert target(client, reader, to).json() == {"view": "diagram", "subjectId": subject.id}
    to = f"spot/TST/fonction/{segment('F 1/%')}/pdvhaut/{segment('USI 002/é?#')}//"
    assert target(client, reader, to).json() == {"view": "mindMap", "subjectId": subject.id}


@pytest.mark.parametrize(
    "to",
    [
        "spot/NOSUCHSITE/fonction/F1/pdvhaut/S1//",  # unknown site
        "spot/TST/fonction/F9/pdvhaut/S1//",  # unknown function
        "spot/TST/fonction/F1/pdvhaut/S9//",  # unknown subject
        "spot/TST/fonction/F2/pdvhaut/S1//",  # the subject of another function
        "spot/TST/fonction/G1/pdvbas/S1",  # a function of another cartography
    ],
)
def test_nothing_matches_404(client, test_map, reader, to):
    assert_error(target(client, reader, to), 404, "notFound")


def test_a_hidden_subject_403(client, db, test_map, make_user, login):
    outsider = make_user("exterieur")
    restrict(db, outsider, test_map.cartography("C2"))
    headers = login(outsider)
    assert_error(target(client, headers, "spot/TST/fonction/F1/pdvbas/S1"), 403)
    assert target(client, headers, "spot/TST/fonction/G1/pdvbas/T1").json()["view"] == "diagram"


@pytest.mark.parametrize(
    "to",
    [
        "",
        "spot/TST/fonction",
        "spot/TST/fonction/",
        "spot/TST/fonction/%20",
        "spot/TST/fonction/F1/pdvhaut/S1",  # no trailing slash
        "spot/TST/fonction/F1/pdvhaut/S1/autre",  # another flag
        "spot/TST/fonction/F1/pdvhaut/S1///",
        "spot/TST/fonction/F1/pdvbas/S1/",
        "spot/TST/fonction/F1/pdvbas/S1/standard",
        "spot/TST/function/F1/pdvbas/S1",
        "v1/TST/fonction/F1/pdvbas/S1",
        "/spot/TST/fonction/F1/pdvbas/S1",
        "spot//fonction/F1/pdvbas/S1",
        "spot/TST/fonction/F1/pdvmilieu/S1",
        "spot/TST/fonction/F1/pdvbas/%20",
        "spot/TST/fonction/F1/pdvbas/%FF",  # not UTF-8
        "https://legacy.example/spot/TST/fonction/F1/pdvbas/S1",
    ],
)
def test_another_form_400(client, test_map, reader, to):
    response = target(client, reader, to)
    assert_error(response, 400, "invalidValue")
    assert field_codes(response) == {("to", "invalidValue")}


def test_a_function(client, test_map, reader):
    response = target(client, reader, "spot/TST/fonction/F1")
    assert response.status_code == 200, response.text
    assert response.json() == {"view": "function", "functionId": test_map.function("F1")}


def test_an_encoded_function(client, db, test_map, reader):
    function = db.get(Function, test_map.function("F2"))
    function.code = "F 2/%"
    db.commit()
    to = f"spot/TST/fonction/{segment('F 2/%')}"
    assert target(client, reader, to).json() == {"view": "function", "functionId": function.id}


@pytest.mark.parametrize("to", ["spot/NOSUCHSITE/fonction/F1", "spot/TST/fonction/F9"])
def test_no_function_matches_404(client, test_map, reader, to):
    assert_error(target(client, reader, to), 404, "notFound")


def test_a_hidden_function_403(client, db, test_map, make_user, login):
    outsider = make_user("exterieur")
    restrict(db, outsider, test_map.cartography("C2"))
    headers = login(outsider)
    assert_error(target(client, headers, "spot/TST/fonction/F1"), 403)
    assert target(client, headers, "spot/TST/fonction/G1").json()["view"] == "function"


def test_parse():
    assert parse("spot/A%2FB/fonction/F/pdvhaut/C%20D/standard") == ("A/B", "F", "C D", "standardized")
    assert parse("spot/A%2FB/fonction/F%20G") == ("A/B", "F G", None, None)


def test_signed_in_only(client):
    assert target(client, {}, "spot/TST/fonction/F1/pdvbas/S1").status_code == 401
