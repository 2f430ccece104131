"""The statement log's journey: a learner reads the demo course's reading (its cmi5 runtime driven here
through the API, as the course's page would: fetch, LMS.LaunchData, initialized, completed, terminated,
the doubled slash of the cmi5 library included), then a training manager opens the reading's recorded
statements from the catalogue, picks the learner, and reads what the unit recorded. axe checks the page
and the dialog (conftest); the pages are seen again in English."""

import json
import uuid
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from playwright.sync_api import Page, expect

from conftest import API, DEMO_PASSWORD, expect_no_sideways_scroll, in_language, sign_in

TEXTS = {
    "fr": {
        "drawer": "Navigation principale",
        "entry": "Plateforme de formation",
        "content": "Contenu de {}",
        "open": "Énoncés enregistrés de {}",
        "title": "Énoncés de {}",
        "learner": "Apprenant",
        "count": "{} énoncés",
        "completed": "Terminé",
        "terminated": "Quitté",
        "asSent": "L’énoncé tel qu’envoyé",
        "close": "Fermer",
    },
    "en": {
        "drawer": "Main navigation",
        "entry": "Learning platform",
        "content": "Content of {}",
        "open": "Recorded statements of {}",
        "title": "Statements of {}",
        "learner": "Learner",
        "count": "{} statements",
        "completed": "Completed",
        "terminated": "Terminated",
        "asSent": "The statement as sent",
        "close": "Close",
    },
}
LEARNER, LEARNER_NAME = "mediateur", "David Moreau"
TRAINING_MANAGER = "formation"
DEMO_COURSE = "Consignation des énergies"
READING = "Les bases de la consignation"
CMI5 = "https://w3id.org/xapi/cmi5/context/categories/cmi5"
MOVE_ON = "https://w3id.org/xapi/cmi5/context/categories/moveon"
VERB = "http://adlnet.gov/expapi/verbs/"


def _login(base_url: str, login: str) -> httpx.Client:
    token = httpx.post(
        f"{base_url}{API}/account/login", json={"username": login, "password": DEMO_PASSWORD, "returnUrl": ""}
    ).json()["token"]
    return httpx.Client(
        base_url=base_url, headers={"x-access-token": token}, limits=httpx.Limits(max_keepalive_connections=0)
    )


def _reading_id(client: httpx.Client) -> int:
    course = next(c for c in client.get(f"{API}/lms/courses").json() if c["title"] == DEMO_COURSE)

    def find(node: dict[str, Any]) -> int | None:
        if node.get("type") != "group":
            return node["id"] if node["name"] == READING else None
        return next((found for child in node["children"] if (found := find(child)) is not None), None)

    found = find(client.get(f"{API}/lms/courses/{course['id']}").json())
    assert found is not None
    return found


def read_the_reading(base_url: str) -> None:
    """The learner's session of the reading, as its page sends it with the cmi5 library 3.0 (the doubled
    slash): launched (by Spot), initialized, completed, terminated."""
    with (
        _login(base_url, LEARNER) as learner,
        httpx.Client(limits=httpx.Limits(max_keepalive_connections=0)) as unit,
    ):
        url = learner.post(f"{API}/lms/items/{_reading_id(learner)}/launch").json()["url"]
        params = {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}
        token = unit.post(params["fetch"]).json()["auth-token"]
        headers = {"Authorization": f"Basic {token}", "X-Experience-API-Version": "1.0.3"}
        endpoint = params["endpoint"]  # ends with "/": the library adds another
        state = {
            "activityId": params["activityId"],
            "agent": params["actor"],
            "registration": params["registration"],
        }
        data = unit.get(
            f"{endpoint}/activities/state", params={**state, "stateId": "LMS.LaunchData"}, headers=headers
        )
        assert data.status_code == 200, data.text
        template = data.json()["contextTemplate"]
        for verb, result in (
            ("initialized", None),
            ("completed", {"completion": True, "duration": "PT3M"}),
            ("terminated", {"duration": "PT4M"}),
        ):
            context = json.loads(json.dumps(template))
            context["registration"] = params["registration"]
            context["contextActivities"]["category"] = [{"id": CMI5}] + (
                [{"id": MOVE_ON}] if verb == "completed" else []
            )
            statement = {
                "id": str(uuid.uuid4()),
                "actor": json.loads(params["actor"]),
                "verb": {"id": VERB + verb},
                "object": {"id": params["activityId"]},
                "context": context,
                "timestamp": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
                **({"result": result} if result else {}),
            }
            sent = unit.put(
                f"{endpoint}/statements",
                params={"statementId": statement["id"]},
                json=statement,
                headers=headers,
            )
            assert sent.status_code == 204, sent.text


@in_language("fr")
def test_a_training_manager_reads_the_statements_a_learner_sent(
    page: Page, base_url: str, language: str
) -> None:
    texts = TEXTS[language]
    read_the_reading(base_url)
    with _login(base_url, TRAINING_MANAGER) as manager:
        reading = _reading_id(manager)
        learner = next(
            p for p in manager.get(f"{API}/lms/items/{reading}/learners").json() if p["name"] == LEARNER_NAME
        )
        # Other journeys of the worker may have read it too: the count comes from the server.
        total = manager.get(
            f"{API}/lms/statements", params={"itemId": reading, "learnerId": learner["id"]}
        ).json()["total"]

    sign_in(page, base_url, TRAINING_MANAGER, language)
    page.get_by_role("navigation", name=texts["drawer"]).get_by_role("link", name=texts["entry"]).click()
    content = page.get_by_role("region", name=texts["content"].format(DEMO_COURSE), exact=True)
    content.get_by_role("tree").get_by_text(READING, exact=True).click()
    content.get_by_role("button", name=texts["open"].format(READING), exact=True).click()
    dialog = page.get_by_role("dialog", name=texts["title"].format(READING), exact=True)
    expect(dialog).to_be_visible()
    dialog.get_by_role("combobox", name=texts["learner"]).click()
    page.get_by_role("option", name=LEARNER_NAME, exact=True).click()
    expect(dialog.get_by_text(texts["count"].format(total), exact=True)).to_be_visible()
    items = dialog.get_by_role("listitem")
    expect(items).to_have_count(total)
    # Newest first: the session's end, then its completion with its duration.
    expect(items.nth(0)).to_contain_text(texts["terminated"])
    expect(items.nth(1)).to_contain_text(texts["completed"])
    expect(items.nth(1)).to_contain_text("PT3M")
    items.nth(1).get_by_text(texts["asSent"], exact=True).click()
    expect(items.nth(1).locator("pre")).to_contain_text(VERB + "completed")

    # On a phone, the dialog takes the screen and nothing scrolls sideways.
    page.set_viewport_size({"width": 390, "height": 844})
    expect(items.nth(0)).to_be_visible()
    expect_no_sideways_scroll(page)
    page.set_viewport_size({"width": 1280, "height": 800})
    dialog.get_by_role("button", name=texts["close"], exact=True).click()
    expect(dialog).to_be_hidden()
