"""The built client is served under /spotv2/; any unknown sub-path is a client route and gets index.html."""

import pytest
from fastapi.testclient import TestClient

from spot.main import create_app
from support import assert_error

INDEX = b"<!doctype html><title>Spot</title><div id=root></div>"


@pytest.fixture
def spa(settings_env, tmp_path) -> TestClient:
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_bytes(INDEX)
    (dist / "assets" / "app-1234.js").write_text("console.log('spot')")
    (dist / "favicon.svg").write_text("<svg/>")
    (tmp_path / "secret.txt").write_text("not for you")
    settings_env(SPOT_FRONTEND_DIST=str(dist))
    return TestClient(create_app())


def test_the_root_redirects_to_the_client(spa):
    response = spa.get("/", follow_redirects=False)
    assert response.status_code in (302, 307)
    assert response.headers["location"] == "/spotv2/"


@pytest.mark.parametrize(
    "path",
    [
        "/spotv2",
        "/spotv2/",
        "/spotv2/subjects",
        "/spotv2/subject/12",
        "/spotv2/mediation/view/3?x=1",
        "/spotv2/administration/permissions",
        "/spotv2/assets/missing.js",
    ],
)
def test_client_routes_get_the_index(spa, path):
    response = spa.get(path)
    assert response.status_code == 200
    assert response.content == INDEX
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-cache"


def test_built_files_are_served_as_they_are(spa):
    script = spa.get("/spotv2/assets/app-1234.js")
    assert script.text == "console.log('spot')"
    assert "javascript" in script.headers["content-type"]
    assert "immutable" in script.headers["cache-control"]
    icon = spa.get("/spotv2/favicon.svg")
    assert icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.headers["cache-control"] == "no-cache"


@pytest.mark.parametrize(
    "path",
    [
        "/spotv2/../secret.txt",
        "/spotv2/%2e%2e/secret.txt",
        "/spotv2/assets/..%2f..%2fsecret.txt",
        "/spotv2/%00",
        "/spotv2/a%00b/c",
    ],
)
def test_nothing_outside_the_build_is_served(spa, path):
    response = spa.get(path)
    assert b"not for you" not in response.content
    assert response.status_code in (200, 404)


def test_without_a_build_the_client_routes_say_so(settings_env, tmp_path):
    settings_env(SPOT_FRONTEND_DIST=str(tmp_path / "nothing"))
    client = TestClient(create_app())
    assert_error(client.get("/spotv2/subjects"), 404)
    assert client.get("/", follow_redirects=False).headers["location"] == "/spotv2/"
