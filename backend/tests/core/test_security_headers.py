"""Every response carries a content security policy, refuses framing and content-type sniffing: API
answers, errors, images and the client's files alike."""

import re

import pytest
from fastapi.testclient import TestClient

from spot.main import create_app
from support import API

INDEX = (
    b'<!doctype html><html lang="fr"><head><meta charset="UTF-8" />'
    b'<link rel="icon" href="/backend/api/v2/organization/applogo" />'
    b'<script type="module" crossorigin src="/spotv2/assets/index-1234.js"></script>'
    b'<link rel="modulepreload" crossorigin href="/spotv2/assets/Button-5678.js">'
    b'</head><body><div id="root"></div></body></html>'
)


def policy(response) -> dict[str, list[str]]:
    directives = [d.split() for d in response.headers["content-security-policy"].split(";") if d.strip()]
    return {d[0]: d[1:] for d in directives}


def assert_secured(response) -> dict[str, list[str]]:
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert len(response.headers.get_list("x-content-type-options")) == 1
    csp = policy(response)
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["object-src"] == ["'none'"]
    return csp


@pytest.fixture
def spa(settings_env, tmp_path) -> TestClient:
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_bytes(INDEX)
    (dist / "assets" / "index-1234.js").write_text("console.log('spot')")
    settings_env(SPOT_FRONTEND_DIST=str(dist))
    return TestClient(create_app())


def test_the_clients_index_is_secured_and_its_policy_lets_it_run(spa):
    response = spa.get("/spotv2/subjects")
    assert response.content == INDEX
    csp = assert_secured(response)
    # Everything index.html loads is from its own origin, and no script is inline.
    for url in re.findall(rb'(?:src|href)="([^"]+)"', INDEX):
        assert url.startswith(b"/")
    assert b"<script>" not in INDEX
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'"]
    # MUI (emotion) inserts <style> elements at run time; plans and pictures come from the API, previews
    # from data: and blob: URLs.
    assert csp["style-src"] == ["'self'", "'unsafe-inline'"]
    assert set(csp["img-src"]) == {"'self'", "data:", "blob:"}
    assert csp["connect-src"] == ["'self'"]
    assert_secured(spa.get("/spotv2/assets/index-1234.js"))
    assert_secured(spa.get("/", follow_redirects=False))


def test_api_answers_and_errors_are_secured(client, make_user, login):
    headers = login(make_user())
    assert_secured(client.get(f"{API}/account/whoAmI", headers=headers))
    assert_secured(client.get(f"{API}/account/whoAmI"))
    assert_secured(client.get(f"{API}/user/byId/+1", headers=headers))
    assert_secured(client.get(f"{API}/organization/applogo"))
    assert_secured(client.get(f"{API}/openapi.json"))


def test_the_api_explorer_may_load_its_cdn_files_but_not_be_framed(client):
    response = client.get(f"{API}/docs")
    assert response.status_code == 200
    csp = assert_secured(response)
    assert "https://cdn.jsdelivr.net" in csp["script-src"]


def test_a_server_error_is_secured_too(settings_env):
    app = create_app()

    @app.get(f"{API}/boom")
    async def boom() -> None:
        raise RuntimeError("a bug")

    response = TestClient(app, raise_server_exceptions=False).get(f"{API}/boom")
    assert response.status_code == 500
    assert_secured(response)
