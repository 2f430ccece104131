"""The organisation's public information and logos (answered without a session, cached by ETag)."""

import io

import pytest
from PIL import Image

from support import API

ORG = f"{API}/organization"


def test_info_gives_the_customer_name(client):
    response = client.get(f"{ORG}/info")
    assert response.status_code == 200
    assert response.json() == {
        "customerName": "Usine de test",
        "applicationName": "Spot",
        "legacyBaseUrl": None,
        "timeZone": "Europe/Paris",
        "courseMaxBytes": 500_000_000,
    }


def test_info_follows_the_settings(client, settings_env):
    settings_env(SPOT_CUSTOMER_NAME="Aciérie du Nord", SPOT_LEGACY_BASE_URL="https://v1.example.com/spot")
    body = client.get(f"{ORG}/info").json()
    assert body["customerName"] == "Aciérie du Nord"
    assert body["legacyBaseUrl"] == "https://v1.example.com/spot"


def test_info_gives_the_time_zone_of_the_settings(client, settings_env):
    settings_env(SPOT_TIMEZONE="America/Montreal")
    assert client.get(f"{ORG}/info").json()["timeZone"] == "America/Montreal"


@pytest.mark.parametrize("kind", ["logo", "applogo"])
def test_default_logos_are_served_with_an_etag(client, kind):
    response = client.get(f"{ORG}/{kind}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.content.lstrip().startswith(b"<")
    etag = response.headers["etag"]
    assert etag.startswith('"') and etag.endswith('"')


@pytest.mark.parametrize("kind", ["logo", "applogo"])
def test_a_known_etag_answers_not_modified(client, kind):
    etag = client.get(f"{ORG}/{kind}").headers["etag"]
    cached = client.get(f"{ORG}/{kind}", headers={"If-None-Match": etag})
    assert cached.status_code == 304
    assert cached.content == b""
    assert cached.headers["etag"] == etag
    listed = client.get(f"{ORG}/{kind}", headers={"If-None-Match": f'"other", {etag}'})
    assert listed.status_code == 304
    weak = client.get(f"{ORG}/{kind}", headers={"If-None-Match": f"W/{etag}"})
    assert weak.status_code == 304
    stale = client.get(f"{ORG}/{kind}", headers={"If-None-Match": '"stale"'})
    assert stale.status_code == 200 and stale.content


def test_the_logos_differ(client):
    assert client.get(f"{ORG}/logo").headers["etag"] != client.get(f"{ORG}/applogo").headers["etag"]


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), "#0074C8").save(buffer, format="PNG")
    return buffer.getvalue()


def test_the_organisation_logo_from_the_data_folder(client, settings_env, tmp_path):
    folder = tmp_path / "organization"
    folder.mkdir()
    (folder / "logo.png").write_bytes(_png())
    settings_env(SPOT_DATA_DIR=str(tmp_path))
    response = client.get(f"{ORG}/logo")
    assert response.headers["content-type"] == "image/png"
    assert response.content == _png()
    # The application logo was not replaced.
    assert client.get(f"{ORG}/applogo").headers["content-type"].startswith("image/svg+xml")


def test_a_file_that_is_not_an_image_is_ignored(client, settings_env, tmp_path):
    folder = tmp_path / "organization"
    folder.mkdir()
    (folder / "logo.png").write_bytes(b"<script>alert(1)</script>")
    settings_env(SPOT_DATA_DIR=str(tmp_path))
    assert client.get(f"{ORG}/logo").headers["content-type"].startswith("image/svg+xml")
