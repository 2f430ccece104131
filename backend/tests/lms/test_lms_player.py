"""Where a launched SCO meets its SCORM runtime (lms/scorm/player.py): on the content origin, the frame
page at the launch's root holds the runtime and frames the SCO; without a content origin, the runtime is
written at the start of the SCO's own head."""

import re
from urllib.parse import urlsplit

import pytest

from lms.conftest import leaves
from lms.scorm_packages import imported, scorm12, scorm2004
from spot.core.time import utcnow
from spot.lms.models import LmsLaunch
from spot.lms.scorm import player
from support import API

MANAGER = "perm_TrainingManagement"
CONTENT = {"host": "localhost:8000"}


@pytest.fixture
def manager(make_user, login) -> dict[str, str]:
    return login(make_user("player-admin", [MANAGER]))


@pytest.fixture
def learner(make_user, login) -> dict[str, str]:
    return login(make_user("player-learner", []))


@pytest.fixture
def content_origin(settings_env):
    settings_env(SPOT_PUBLIC_URL="http://127.0.0.1:8000", SPOT_CONTENT_URL="")


def key_of(client, headers: dict[str, str], item_id: int) -> str:
    answer = client.post(f"{API}/lms/items/{item_id}/launch", headers=headers)
    assert answer.status_code == 200, answer.text
    found = re.search(r"/lms/play/([^/]+)/", urlsplit(answer.json()["url"]).path)
    assert found
    return found.group(1)


def test_the_launch_address_is_the_frame_page_on_the_content_origin(content_origin):
    assert player.launch_url(key="k3y", item_url="lecture/index.html?page=1") == (
        f"http://localhost:8000{API}/lms/play/k3y/"
    )
    # An asset elsewhere opens where it is.
    assert (
        player.launch_url(key="k3y", item_url="https://example.com/doc.pdf") == "https://example.com/doc.pdf"
    )


def test_without_a_content_origin_the_launch_address_is_the_sco_on_spots_address(settings_env):
    settings_env(SPOT_PUBLIC_URL="https://spot.example.com", SPOT_CONTENT_URL="")
    assert player.launch_url(key="k3y", item_url="dossier à lire/index.html?page=1") == (
        f"https://spot.example.com{API}/lms/play/k3y/dossier%20%C3%A0%20lire/index.html?page=1"
    )


def test_the_frame_page_holds_the_runtime_of_the_edition_and_frames_the_sco(
    client, content_origin, manager, learner
):
    units12 = leaves(imported(client, manager, scorm12()))
    key = key_of(client, learner, units12["Lecture : le risque électrique"]["id"])
    page = client.get(f"{API}/lms/play/{key}/", headers=CONTENT)
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert "allow-same-origin" in page.headers["content-security-policy"]
    html = page.text
    # The runtime first, in the head, before the SCO's frame: the API is there when the SCO looks for it.
    script = (
        f'<script src="/spotv2/lms-runtime/scorm12.js" data-api="{API}/lms/scorm/{key}" '
        'data-player="http://127.0.0.1:8000"></script>'
    )
    assert script in html and html.index(script) < html.index("</head>") < html.index("<iframe")
    assert '<iframe data-sco src="lecture/index.html?page=1" title="Lecture : le risque électrique">' in html
    assert "<title>Lecture : le risque électrique</title>" in html
    assert html.startswith('<!doctype html><html lang="')
    # The SCO itself is served as it is: the API lives in the frame above it.
    sco = client.get(f"{API}/lms/play/{key}/lecture/index.html", headers=CONTENT)
    assert sco.status_code == 200 and "lms-runtime" not in sco.text

    units2004 = leaves(imported(client, manager, scorm2004()))
    first = next(iter(units2004.values()))
    key2004 = key_of(client, learner, first["id"])
    page2004 = client.get(f"{API}/lms/play/{key2004}/", headers=CONTENT).text
    assert '<script src="/spotv2/lms-runtime/scorm2004.js"' in page2004


def test_the_frame_page_is_only_for_a_live_scorm_launch(
    client, db, content_origin, manager, learner, demo_course
):
    assert client.get(f"{API}/lms/play/no-such-key/", headers=CONTENT).status_code == 404
    # A cmi5 unit has no SCORM runtime.
    cmi5_key = key_of(client, learner, leaves(demo_course)["Quiz consignation"]["id"])
    assert client.get(f"{API}/lms/play/{cmi5_key}/", headers=CONTENT).status_code == 404
    units = leaves(imported(client, manager, scorm12()))
    key = key_of(client, learner, units["Quiz habilitation"]["id"])
    assert client.get(f"{API}/lms/play/{key}/", headers=CONTENT).status_code == 200
    launch = db.query(LmsLaunch).filter_by(key=key).one()
    launch.expires_at = utcnow()
    db.commit()
    assert client.get(f"{API}/lms/play/{key}/", headers=CONTENT).status_code == 404


def test_without_a_content_origin_the_runtime_opens_the_scos_own_head(client, settings_env, manager, learner):
    settings_env(SPOT_PUBLIC_URL="https://spot.example.com", SPOT_CONTENT_URL="")
    sco_page = (
        "<!doctype html><html><HEAD lang='fr'><title>Quiz</title>"
        "<script>var API = null;</script></HEAD><body></body></html>"
    )
    units = leaves(imported(client, manager, scorm12(**{"quiz.html": sco_page})))
    key = key_of(client, learner, units["Quiz habilitation"]["id"])
    served = client.get(f"{API}/lms/play/{key}/quiz.html").text
    assert served.startswith(
        "<!doctype html><html><HEAD lang='fr'>"
        f'<script src="/spotv2/lms-runtime/scorm12.js" data-api="{API}/lms/scorm/{key}" '
        'data-player="https://spot.example.com"></script><title>Quiz</title>'
    )
    # Another page of the package, or the frame page, gets nothing.
    assert "lms-runtime" not in client.get(f"{API}/lms/play/{key}/lecture/index.html").text
