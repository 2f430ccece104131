"""Launch modes asked by a module element (cmi5 §10.2.2; SCORM 1.2 RTE 3.4.4 lesson_mode, 2004 RTE 4.2.6
cmi.mode): the module form keeps each learning-platform element's mode; a path's result carries it for the
client to launch with; a Browse or Review element is done once opened while its module is open; a cmi5
unit launched so refuses results; a SCORM SCO launched so gets its mode with no credit, and nothing it
commits is stored."""

from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from lms.conftest import au
from lms.scorm_packages import imported, scorm12, scorm2004
from lms.test_cmi5_moveon import COMPLETED, PASSED, course, finish, path_view, started_path
from lms.test_scorm_runtime import Sco
from spot.lms.models import LmsAttempt, LmsCompletion
from spot.lms.scorm.models import ScormAttempt
from spot.training.modules.models import TrainingModuleItem
from support import API, assert_error
from training.catalogue import MANAGE, MODULES

UNITS = (
    au("quiz", "Quiz", attributes='moveOn="Passed" masteryScore="0.8"')
    + au("lire", "Lire", attributes='moveOn="Completed"')
    + au("examen", "Examen", attributes='moveOn="CompletedAndPassed" masteryScore="0.8"')
)


@pytest.fixture
def cast(make_user, login):
    from training.paths_support import Cast

    return Cast.of(make_user, login)


@pytest.fixture
def learner(make_user, login) -> dict[str, str]:
    return login(make_user("modes-learner", []))


def module_of(db: Session, elements: list[tuple[int, str | None]]) -> int:
    """A module of learning-platform elements, each (unit id, launch mode as stored)."""
    from training.paths_support import make_module

    module_id = make_module(db, "Modes", items=0)
    for position, (item_id, mode) in enumerate(elements):
        db.add(
            TrainingModuleItem(
                module_id=module_id, position=position, kind="lms", lms_item_id=item_id, launch_mode=mode
            )
        )
    db.commit()
    return module_id


def launched(client, headers: dict[str, str], item_id: int, mode: str | None):
    from lms.conftest import Runtime

    body = {"mode": mode} if mode is not None else None
    response = client.post(f"{API}/lms/items/{item_id}/launch", headers=headers, json=body)
    assert response.status_code == 200, response.text
    from urllib.parse import parse_qs, urlsplit

    url = response.json()["url"]
    return Runtime(client=client, url=url, params={k: v[0] for k, v in parse_qs(urlsplit(url).query).items()})


# The module form ---------------------------------------------------------------------------------------


def test_the_module_form_keeps_each_element_s_launch_mode(client, make_user, login, manager):
    author = login(make_user("modes-author", [MANAGE]))
    units = course(client, manager, UNITS)
    elements = [
        {"type": "lms", "lmsCourseId": units["Quiz"]["id"], "launchMode": "Browse"},
        {"type": "lms", "lmsCourseId": units["Lire"]["id"], "launchMode": "Review"},
        {"type": "lms", "lmsCourseId": units["Examen"]["id"]},
    ]
    form = {"name": "Modes", "moduleType": "other", "goals": "Voir"}
    response = client.post(MODULES, json={**form, "moduleItems": elements}, headers=author)
    assert response.status_code == 200, response.text
    module_id = response.json()["id"]
    module = client.get(f"{MODULES}/{module_id}", headers=author).json()
    assert [e["launchMode"] for e in module["moduleItems"]] == ["Browse", "Review", "Normal"]
    # Changing only a mode is a change of the module: a new version.
    elements[0]["launchMode"] = "Normal"
    changed = {**form, "moduleItems": elements, "version": module["version"]}
    assert client.post(f"{MODULES}/{module_id}", json=changed, headers=author).status_code == 200
    again = client.get(f"{MODULES}/{module_id}", headers=author).json()
    assert again["version"] == module["version"] + 1
    assert [e["launchMode"] for e in again["moduleItems"]] == ["Normal", "Review", "Normal"]
    # A mode outside cmi5's three is refused, and the module is unchanged.
    elements[0]["launchMode"] = "Later"
    bad = {**form, "moduleItems": elements, "version": again["version"]}
    assert_error(client.post(f"{MODULES}/{module_id}", json=bad, headers=author), 422)
    assert client.get(f"{MODULES}/{module_id}", headers=author).json()["version"] == again["version"]


# Training paths ----------------------------------------------------------------------------------------


def test_browse_and_review_elements_are_done_once_opened_and_record_nothing(client, db, manager, cast):
    units = course(client, manager, UNITS)
    quiz, lire, examen = (units[name]["id"] for name in ("Quiz", "Lire", "Examen"))
    path_id = started_path(client, cast, module_of(db, [(quiz, "Browse"), (lire, "Review"), (examen, None)]))
    from training.paths_support import get

    results = get(client, cast, path_id)["assignedModules"][0]["results"]
    assert [r["launchMode"] for r in results] == ["Browse", "Review", "Normal"]
    assert path_view(client, cast, path_id) == (0, [False, False, False])
    headers = cast.headers["learner"]
    # The quiz opened as its element asks: Browse, where a passed is refused (cmi5 §10.2.2).
    run = launched(client, headers, quiz, results[0]["launchMode"]).begin()
    assert run.launch_data["launchMode"] == "Browse"
    assert run.put(run.statement(*PASSED)).status_code == 403
    assert run.put(run.statement("terminated")).status_code == 204
    assert path_view(client, cast, path_id) == (33, [True, False, False])
    assert db.scalar(select(func.count()).select_from(LmsAttempt)) == 0
    # The reading opened in Review: done, though never completed.
    run = launched(client, headers, lire, results[1]["launchMode"]).begin()
    assert run.launch_data["launchMode"] == "Review"
    assert run.put(run.statement(*COMPLETED)).status_code == 403
    assert path_view(client, cast, path_id) == (67, [True, True, False])
    assert db.scalar(select(func.count()).select_from(LmsCompletion)) == 0
    # A Normal element is not done by opening: the examination waits for its moveOn.
    run = launched(client, headers, examen, None).begin()
    assert run.launch_data["launchMode"] == "Normal"
    assert path_view(client, cast, path_id) == (67, [True, True, False])
    finish(run, COMPLETED, PASSED, ("terminated", None))
    assert path_view(client, cast, path_id) == (100, [True, True, True])


def test_a_browse_element_opened_before_its_module_started_is_not_done(client, db, manager, cast):
    units = course(client, manager, UNITS)
    quiz = units["Quiz"]["id"]
    launched(client, cast.headers["learner"], quiz, "Browse")
    path_id = started_path(client, cast, module_of(db, [(quiz, "Browse")]))
    assert path_view(client, cast, path_id) == (0, [False])
    launched(client, cast.headers["learner"], quiz, "Browse")
    assert path_view(client, cast, path_id) == (100, [True])


# SCORM -------------------------------------------------------------------------------------------------


def sco_launch(client, headers: dict[str, str], item_id: int, mode: str | None = None) -> Sco:
    body = {"mode": mode} if mode is not None else None
    response = client.post(f"{API}/lms/items/{item_id}/launch", headers=headers, json=body)
    assert response.status_code == 200, response.text
    return Sco(client, response.json()["url"])


def unit_named(tree: dict[str, Any], name: str) -> int:
    from lms.conftest import leaves

    return leaves(tree)[name]["id"]


def test_a_scorm_12_sco_in_browse_starts_blank_with_no_credit_and_stores_nothing(
    client, db, manager, learner
):
    tree = imported(client, manager, scorm12())
    unit = unit_named(tree, "Lecture : le risque électrique")
    sco = sco_launch(client, learner, unit, "Browse")
    cmi = sco.load()["cmi"]
    assert (cmi["core"]["lesson_mode"], cmi["core"]["credit"], cmi["core"]["entry"]) == (
        "browse",
        "no-credit",
        "",
    )
    cmi["core"] |= {"lesson_status": "passed", "score": {"raw": "95", "min": "0", "max": "100"}}
    sco.commit(cmi, terminate=True)
    assert db.scalar(select(func.count()).select_from(ScormAttempt)) == 0
    assert db.scalar(select(func.count()).select_from(LmsAttempt)) == 0
    # A malformed commit is still refused.
    assert_error(client.post(f"{sco.base}/commit", json={"cmi": {"core": {"lesson_status": "done"}}}), 400)
    progress = client.get(f"{API}/lms/courses/{tree['id']}/progress", headers=learner).json()
    assert next(u for u in progress["units"] if u["itemId"] == unit)["status"] == "notAttempted"


def test_a_scorm_12_sco_in_review_shows_the_last_attempt_and_changes_nothing(client, db, manager, learner):
    tree = imported(client, manager, scorm12())
    unit = unit_named(tree, "Lecture : le risque électrique")
    sco = sco_launch(client, learner, unit)
    cmi = sco.load()["cmi"]
    assert (cmi["core"]["lesson_mode"], cmi["core"]["credit"]) == ("normal", "credit")
    cmi["core"] |= {"lesson_location": "page5", "lesson_status": "completed", "session_time": "00:02:00"}
    sco.commit(cmi, terminate=True)
    review = sco_launch(client, learner, unit, "Review")
    shown = review.load()["cmi"]
    assert (shown["core"]["lesson_mode"], shown["core"]["credit"]) == ("review", "no-credit")
    assert (shown["core"]["lesson_location"], shown["core"]["total_time"]) == ("page5", "0000:02:00.00")
    shown["core"] |= {"lesson_location": "page1", "lesson_status": "incomplete", "session_time": "00:05:00"}
    review.commit(shown, terminate=True)
    db.expire_all()
    attempt = db.scalars(select(ScormAttempt)).one()
    assert (attempt.location, attempt.completion_status, attempt.total_seconds) == ("page5", "completed", 120)
    # A Normal launch afterwards starts the second attempt, as it would have without the review.
    assert sco_launch(client, learner, unit).load()["cmi"]["core"]["entry"] == "ab-initio"


def test_a_scorm_2004_sco_gets_its_mode_and_an_asset_in_browse_is_not_completed(client, manager, learner):
    tree = imported(client, manager, scorm2004())
    units = [u for u in tree_units(tree)]
    sco = sco_launch(client, learner, units[0]["id"], "Browse")
    cmi = sco.load()["cmi"]
    assert (cmi["mode"], cmi["credit"]) == ("browse", "no-credit")
    assert sco_launch(client, learner, units[0]["id"]).load()["cmi"]["mode"] == "normal"
    twelve = imported(client, manager, scorm12())
    fiche = unit_named(twelve, "Fiche mémo")
    sco_launch(client, learner, fiche, "Browse")
    progress = client.get(f"{API}/lms/courses/{twelve['id']}/progress", headers=learner).json()
    assert next(u for u in progress["units"] if u["itemId"] == fiche)["status"] == "notAttempted"
    sco_launch(client, learner, fiche)
    progress = client.get(f"{API}/lms/courses/{twelve['id']}/progress", headers=learner).json()
    assert next(u for u in progress["units"] if u["itemId"] == fiche)["status"] == "completed"


def tree_units(tree: dict[str, Any]) -> list[dict[str, Any]]:
    from lms.conftest import leaves

    return list(leaves(tree).values())


def test_a_scorm_sco_in_a_browse_element_is_done_once_opened(client, db, manager, cast):
    tree = imported(client, manager, scorm12())
    unit = unit_named(tree, "Lecture : le risque électrique")
    path_id = started_path(client, cast, module_of(db, [(unit, "Browse"), (unit, None)]))
    sco_launch(client, cast.headers["learner"], unit, "Browse").load()
    # The Browse element counts the opening; the Normal one waits for the SCO's completion.
    assert path_view(client, cast, path_id) == (50, [True, False])
