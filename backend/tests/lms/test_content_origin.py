"""The content origin (docs/learning-platform.md, "Security choices"): e-learning content served from an
origin that is not Spot's, where a unit's frames share one origin (allow-same-origin) and still reach
neither Spot's session nor its storage; Spot's own origin keeps the opaque sandbox."""

from urllib.parse import urlsplit

import pytest

from lms.conftest import leaves
from spot.core.security_headers import _content_origin, content_origin
from support import API


@pytest.mark.parametrize(
    ("public", "content", "expected"),
    [
        # make run and the journeys: the machine's other name, no setting needed.
        ("http://127.0.0.1:8000", "", "http://localhost:8000"),
        ("http://localhost:8001/", "", "http://127.0.0.1:8001"),
        # Elsewhere a name of its own must be given; without one, no content origin.
        ("https://spot.example.com", "", None),
        ("https://spot.example.com", "https://content.spot.example.com/", "https://content.spot.example.com"),
        ("https://spot.example.com", "https://Content.example.net:443", "https://content.example.net"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:9000", "http://127.0.0.1:9000"),
        # Spot's own origin is never the content's: it turns the content origin off.
        ("https://spot.example.com", "https://spot.example.com:443/", None),
    ],
)
def test_the_content_origin_is_set_or_derived_and_never_spots_own(public, content, expected):
    assert _content_origin(public, content) == expected


@pytest.fixture
def served_at(settings_env):
    """Spot public at 127.0.0.1:8000, its content at localhost:8000 (derived)."""
    settings_env(SPOT_PUBLIC_URL="http://127.0.0.1:8000", SPOT_CONTENT_URL="")
    assert content_origin() == "http://localhost:8000"
    return {"spot": {"host": "127.0.0.1:8000"}, "content": {"host": "localhost:8000"}}


def policy(response) -> dict[str, list[str]]:
    directives = [d.split() for d in response.headers["content-security-policy"].split(";") if d.strip()]
    return {d[0]: d[1:] for d in directives}


def test_content_on_the_content_origin_keeps_its_origin_and_only_spot_frames_it(
    client, served_at, demo_course, make_user, login
):
    learner = login(make_user("learner"))
    quiz = leaves(demo_course)["Quiz consignation"]
    url = client.post(f"{API}/lms/items/{quiz['id']}/launch", headers=learner).json()["url"]
    path = urlsplit(url).path
    page = client.get(path, headers=served_at["content"])
    assert page.status_code == 200 and "Quiz consignation" in page.text
    csp = policy(page)
    assert csp["sandbox"] == [
        "allow-scripts",
        "allow-forms",
        "allow-same-origin",
        "allow-popups",
        "allow-modals",
    ]
    assert csp["frame-ancestors"] == ["'self'", "http://127.0.0.1:8000"]
    assert csp["connect-src"] == ["'self'"] and csp["object-src"] == ["'none'"]
    assert page.headers["x-content-type-options"] == "nosniff"
    # Its own requests are same-origin there: nothing is opened to other origins.
    assert "access-control-allow-origin" not in page.headers
    # On Spot's origin the same file stays in the opaque sandbox (no origin of its own).
    on_spot = client.get(path, headers=served_at["spot"])
    assert on_spot.status_code == 200
    assert "allow-same-origin" not in policy(on_spot)["sandbox"]


def test_spots_pages_may_frame_the_content_origin_only_where_there_is_one(client, served_at, settings_env):
    assert "http://localhost:8000" in policy(client.get(f"{API}/organization/info"))["frame-src"]
    settings_env(SPOT_PUBLIC_URL="https://spot.example.com", SPOT_CONTENT_URL="")
    frame_src = policy(client.get(f"{API}/organization/info"))["frame-src"]
    assert frame_src == ["'self'", "blob:", "https://www.youtube-nocookie.com"]


def test_the_content_origin_serves_neither_spots_pages_nor_its_api(client, served_at, make_user, login):
    """A session opened on the content origin would live beside the content: Spot is not served there."""
    session = login(make_user("learner"))
    assert client.get(f"{API}/account/whoAmI", headers=session).status_code == 200
    for path in ("/spotv2/", "/spotv2/lms", f"{API}/account/whoAmI", f"{API}/lms/courses", "/"):
        answer = client.get(path, headers={**session, **served_at["content"]}, follow_redirects=False)
        assert answer.status_code == 404, path
        assert answer.headers["x-frame-options"] == "DENY"
    login_there = client.post(
        f"{API}/account/login",
        json={"username": "learner", "password": "x", "returnUrl": ""},
        headers=served_at["content"],
    )
    assert login_there.status_code == 404
    # The runtimes' addresses are (keyed, never by session).
    assert client.get(f"{API}/lms/xapi/about", headers=served_at["content"]).status_code == 200


def test_without_a_content_origin_every_host_gets_the_opaque_sandbox(
    client, settings_env, demo_course, make_user, login
):
    settings_env(SPOT_PUBLIC_URL="https://spot.example.com", SPOT_CONTENT_URL="")
    assert content_origin() is None
    learner = login(make_user("learner"))
    quiz = leaves(demo_course)["Quiz consignation"]
    path = urlsplit(client.post(f"{API}/lms/items/{quiz['id']}/launch", headers=learner).json()["url"]).path
    for host in ("spot.example.com", "localhost:8000", "content.spot.example.com"):
        page = client.get(path, headers={"host": host})
        assert page.status_code == 200
        assert policy(page)["sandbox"] == ["allow-scripts", "allow-forms"]
    assert (
        client.get(f"{API}/account/whoAmI", headers={**learner, "host": "localhost:8000"}).status_code == 200
    )


def test_the_scorm_runtime_answers_any_origin_without_credentials(client):
    """The runtime of a SCO in the opaque sandbox calls the SCORM runtime cross-origin (Origin: null)."""
    preflight = client.options(
        f"{API}/lms/scorm/some-key/commit",
        headers={
            "Origin": "null",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-origin"] == "*"
    assert "content-type" in preflight.headers["access-control-allow-headers"].lower()
    assert "access-control-allow-credentials" not in preflight.headers
