"""The learning platform under test: cmi5 packages built in memory, the demo course imported through the
API, and a launched unit's runtime client (fetch, then xAPI calls with the auth token)."""

import io
import json
import uuid
import zipfile
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient

from spot.demo import lms as demo
from spot.jobs import runner
from support import API

MANAGER = "perm_TrainingManagement"
PATH_ADMIN = "perm_TrainingPathAdmin"
NS = "https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd"
COURSE_ID = "https://example.com/courses/test"
SESSION_ID = "https://w3id.org/xapi/cmi5/context/extensions/sessionid"
CMI5 = "https://w3id.org/xapi/cmi5/context/categories/cmi5"
MOVE_ON = "https://w3id.org/xapi/cmi5/context/categories/moveon"
MASTERY_SCORE = "https://w3id.org/xapi/cmi5/context/extensions/masteryscore"
VERB = "http://adlnet.gov/expapi/verbs/"
XAPI = {"X-Experience-API-Version": "1.0.3"}


def langstring(tag: str, text: str) -> str:
    return f'<{tag}><langstring lang="fr-FR">{text}</langstring></{tag}>'


def au(ident: str, title: str, url: str = "index.html", attributes: str = "") -> str:
    texts = langstring("title", title) + langstring("description", "")
    return f'<au id="{COURSE_ID}/{ident}" {attributes}>{texts}<url>{url}</url></au>'


def structure(members: str, title: str = "Cours de test", course_id: str = COURSE_ID) -> str:
    return (
        f'<?xml version="1.0" encoding="utf-8"?><courseStructure xmlns="{NS}">'
        f'<course id="{course_id}">{langstring("title", title)}'
        f"{langstring('description', 'Un cours')}</course>"
        f"{members}</courseStructure>"
    )


def zip_of(entries: dict[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def course_package(members: str | None = None, **extra: bytes | str) -> bytes:
    members = members or (
        '<block id="'
        + COURSE_ID
        + '/b1">'
        + langstring("title", "Bloc 1")
        + langstring("description", "")
        + au("lecture", "Lecture")
        + au("quiz", "Quiz", attributes='masteryScore="0.8"')
        + "</block>"
        + au("examen", "Examen", attributes='moveOn="Passed"')
    )
    return zip_of({"cmi5.xml": structure(members), "index.html": "<html lang='fr'></html>", **extra})


def import_course(
    client: TestClient, headers: dict[str, str], data: bytes, content_type: str = "application/zip"
) -> httpx.Response:
    """A course package imported through the API: its job asked for (202; a refused package is answered
    as it is), run here, then its summary answered as the import's result (200: {id, title, created,
    items}); a job that failed is answered as its error body (409)."""
    asked = client.post(f"{API}/lms/courses", content=data, headers={**headers, "Content-Type": content_type})
    if asked.status_code != 202:
        return asked
    assert asked.json()["kind"] == "courseImport"
    runner.run_pending()
    job = client.get(f"{API}/jobs/{asked.json()['id']}", headers=headers).json()
    if job["status"] == "succeeded":
        return httpx.Response(200, json=job["summary"])
    body = {"status": 409, "reason": "Conflict", "message": job["error"], "errors": job["errors"]}
    return httpx.Response(409, json=body)


def upload(client: TestClient, headers: dict[str, str], data: bytes) -> httpx.Response:
    return import_course(client, headers, data)


def leaves(node: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The tree's resources and quizzes by name."""
    found: dict[str, dict[str, Any]] = {}
    for child in node.get("children", []):
        if child["type"] == "group":
            found.update(leaves(child))
        else:
            found[child["name"]] = child
    return found


@dataclass
class Runtime:
    """A launched unit, as its pages would talk to Spot."""

    client: TestClient
    url: str
    params: dict[str, str] = field(default_factory=dict)
    token: str | None = None
    launch_data: dict[str, Any] = field(default_factory=dict)

    @property
    def endpoint(self) -> str:
        return urlsplit(self.params["endpoint"]).path

    def fetch(self) -> dict[str, Any]:
        response = self.client.post(urlsplit(self.params["fetch"]).path)
        assert response.status_code == 200, response.text
        return response.json()

    def auth(self) -> dict[str, str]:
        return {**XAPI, "Authorization": f"Basic {self.token}"}

    def state_params(self, state_id: str | None = "LMS.LaunchData", **changes: str) -> dict[str, str]:
        params = {
            "activityId": self.params["activityId"],
            "agent": self.params["actor"],
            "registration": self.params["registration"],
        }
        if state_id is not None:
            params["stateId"] = state_id
        return {**params, **changes}

    def start(self) -> "Runtime":
        self.token = self.fetch()["auth-token"]
        response = self.client.get(
            f"{self.endpoint}activities/state", params=self.state_params(), headers=self.auth()
        )
        assert response.status_code == 200, response.text
        self.launch_data = response.json()
        return self

    def begin(self) -> "Runtime":
        """Started, and its session initialized (cmi5 §9.3.2: the session's first statement)."""
        self.start()
        response = self.put(self.statement("initialized"))
        assert response.status_code == 204, response.text
        return self

    def statement(self, verb: str, result: dict[str, Any] | None = None, **changes: Any) -> dict[str, Any]:
        """A cmi5 defined statement of the session, as cmi5 §9 wants it: the moveon category with success
        or completion, a duration where required, the mastery score with passed and failed."""
        context = json.loads(json.dumps(self.launch_data["contextTemplate"]))
        context["registration"] = self.params["registration"]
        context["contextActivities"]["category"] = [{"id": CMI5}]
        if result is not None and ("success" in result or "completion" in result):
            context["contextActivities"]["category"].append({"id": MOVE_ON})
        if verb in ("completed", "passed", "failed", "terminated"):
            result = {"duration": "PT1M", **(result or {})}
        if verb in ("passed", "failed") and "masteryScore" in self.launch_data:
            context["extensions"][MASTERY_SCORE] = self.launch_data["masteryScore"]
        body: dict[str, Any] = {
            "id": str(uuid.uuid4()),
            "actor": json.loads(self.params["actor"]),
            "verb": {"id": VERB + verb},
            "object": {"objectType": "Activity", "id": self.params["activityId"]},
            "context": context,
            "timestamp": "2026-12-02T10:00:00Z",
        }
        if result is not None:
            body["result"] = result
        return {**body, **changes}

    def put(self, statement: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
        return self.client.put(
            f"{self.endpoint}statements",
            params={"statementId": statement["id"]},
            json=statement,
            headers=self.auth() if headers is None else headers,
        )

    def post(self, statements: Any) -> Any:
        return self.client.post(f"{self.endpoint}statements", json=statements, headers=self.auth())


@pytest.fixture
def manager(make_user, login) -> dict[str, str]:
    return login(make_user("manager", [MANAGER]))


@pytest.fixture
def demo_course(client: TestClient, manager: dict[str, str]) -> dict[str, Any]:
    """The demo course imported through the API: its id and its tree."""
    response = upload(client, manager, demo.package())
    assert response.status_code == 200, response.text
    course_id = response.json()["id"]
    return client.get(f"{API}/lms/courses/{course_id}", headers=manager).json()


@pytest.fixture
def launch(client: TestClient):
    def do(headers: dict[str, str], item_id: int, mode: str | None = None) -> Runtime:
        body = {"mode": mode} if mode is not None else None
        response = client.post(f"{API}/lms/items/{item_id}/launch", headers=headers, json=body)
        assert response.status_code == 200, response.text
        url = response.json()["url"]
        params = {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}
        return Runtime(client=client, url=url, params=params)

    return do
