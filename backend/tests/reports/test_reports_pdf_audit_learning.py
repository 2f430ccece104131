"""The audit pack's learning-platform record (docs/reports.md 'The audit pack'): the courses the learner
took part in, each unit's launches, completion, satisfaction (a waiver with its reason) and every quiz
attempt, oldest first, as the runtime recorded them."""

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from lms.conftest import MANAGER, Runtime, leaves, upload
from reports.pdf_support import AUDIT, World, build_world, pdfs, text_of
from spot.demo import lms as demo
from support import API


@pytest.fixture
def world(db: Session, client: TestClient, make_user, login) -> World:
    world = build_world(db, client, make_user, login)
    world.cast.add("trainer", make_user, login, [MANAGER])
    return world


def _launch(client: TestClient, headers: dict[str, str], item_id: int) -> Runtime:
    response = client.post(f"{API}/lms/items/{item_id}/launch", headers=headers)
    assert response.status_code == 200, response.text
    url = response.json()["url"]
    params = {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}
    return Runtime(client=client, url=url, params=params).begin()


def _send(runtime: Runtime, verb: str, result: dict[str, Any] | None = None) -> None:
    response = runtime.put(runtime.statement(verb, result))
    assert response.status_code == 204, response.text


def _learning_pdf(client: TestClient, world: World, language: str) -> str:
    response = client.get(
        f"{AUDIT}/{world.cast.id('learner')}",
        headers=world.headers("reporter") | {"Accept-Language": language},
    )
    assert response.status_code == 200, response.text
    files = pdfs(response.content)
    name = "Plateforme de formation.pdf" if language == "fr" else "Learning platform.pdf"
    assert list(files)[-1] == name
    return text_of(files[name])


def test_the_pack_holds_the_learners_attempts_completions_and_waivers(client: TestClient, world: World):
    imported = upload(client, world.headers("trainer"), demo.package())
    assert imported.status_code == 200, imported.text
    tree = client.get(f"{API}/lms/courses/{imported.json()['id']}", headers=world.headers("trainer")).json()
    units = leaves(tree)
    reading, quiz = units["Les bases de la consignation"], units["Quiz consignation"]
    learner = world.headers("learner")

    runtime = _launch(client, learner, reading["id"])
    _send(runtime, "completed", {"completion": True})
    _send(runtime, "terminated")
    runtime = _launch(client, learner, quiz["id"])
    _send(runtime, "failed", {"success": False, "score": {"scaled": 0.6}})
    _send(runtime, "terminated")
    runtime = _launch(client, learner, quiz["id"])
    _send(runtime, "passed", {"success": True, "score": {"scaled": 0.8}})
    _send(runtime, "completed", {"completion": True})
    _send(runtime, "terminated")

    french = _learning_pdf(client, world, "fr")
    for expected in (
        "Parcours sur la plateforme de formation",
        "Apprenant : Learner Test",
        "Consignation des énergies",
        "cours validé le",
        "Les bases de la consignation Lecture 1",
        "ses critères d'achèvement atteints",
        "Quiz consignation Quiz 2",
        "6,0 / 10 — non réussi",
        "8,0 / 10 — réussi",
    ):
        assert expected in french, expected
    assert french.index("6,0 / 10") < french.index("8,0 / 10")  # oldest first

    english = _learning_pdf(client, world, "en")
    for expected in ("Learning platform record", "Reading", "6.0 / 10 — not passed", "8.0 / 10 — passed"):
        assert expected in english, expected


def test_a_waived_unit_says_so_with_its_reason(client: TestClient, world: World):
    imported = upload(client, world.headers("trainer"), demo.package())
    tree = client.get(f"{API}/lms/courses/{imported.json()['id']}", headers=world.headers("trainer")).json()
    quiz = leaves(tree)["Quiz consignation"]
    waived = client.post(
        f"{API}/lms/items/{quiz['id']}/waive",
        json={"learnerId": world.cast.id("learner"), "reason": "Tested Out"},
        headers=world.headers("trainer"),
    )
    assert waived.status_code == 200, waived.text
    french = _learning_pdf(client, world, "fr")
    assert "Quiz consignation Quiz 0" in french
    assert "dispensée (acquis vérifiés)" in french
