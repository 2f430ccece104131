"""Grading, closing and signing a training path (spec 2 §4, §5 Module grading, §8 closing warnings, §9;
docs/training-paths.md 'Closing warnings', 'Signatures'): rounding, success, validity by
periodicity, gradings kept, a changed grade revoking the learner's signature, two referents at once,
re-authentication, the automatic promotions and the history of every action."""

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from spot.core.time import today, utcnow
from spot.training.modules.models import TrainingModuleItem
from spot.training.paths import service
from spot.training.paths.models import TrainingPathGrading, TrainingPathModule, TrainingPathVisit
from support import assert_error, field_codes
from training.paths_support import (
    GRADE,
    PATHS,
    SIGN,
    Cast,
    act,
    force_module,
    get,
    make_module,
    make_path,
    move_to,
    path_body,
)


@pytest.fixture
def cast(make_user, login) -> Cast:
    return Cast.of(make_user, login)


@pytest.fixture
def started(client: TestClient, db: Session, cast: Cast) -> Callable[..., int]:
    """A started path whose modules (threshold 7; `periodicity` months) are started too."""

    def make(count: int = 1, periodicity: int = 0) -> int:
        modules = [make_module(db, f"Module {n}", periodicity=periodicity) for n in range(count)]
        path_id = make_path(client, cast, modules)
        move_to(client, cast, path_id, "started")
        for index in range(count):
            act(client, cast, "referent", path_id, f"{index}/startNow")
        return path_id

    return make


def _grade(
    client: TestClient, cast: Cast, path_id: int, grade: Any, role: str = "referent", **body: Any
) -> Any:
    return client.post(
        f"{PATHS}/{path_id}/0/grade",
        json={"grade": grade, "comment": "Vu"} | body,
        headers=cast.headers[role],
    )


# Grading --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "kept", "success"),
    [
        (7.25, 7.3, True),
        (7.05, 7.1, True),
        (6.94, 6.9, False),
        (6.95, 7.0, True),
        (0, 0.0, False),
        (10, 10.0, True),
    ],
)
def test_grades_are_rounded_half_up_to_one_decimal_and_compared_with_the_threshold(
    client: TestClient, cast: Cast, started: Callable[..., int], given: float, kept: float, success: bool
) -> None:
    path_id = started()
    response = _grade(client, cast, path_id, given)
    assert response.status_code == 200, response.text
    module = response.json()["assignedModules"][0]
    assert module["status"] == "validated"
    grading = module["grading"]
    assert (grading["grade"], grading["isSuccess"]) == (kept, success)
    assert grading["referent"]["id"] == cast.id("referent")
    assert grading["comment"] == "Vu"


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ({"grade": None}, {("grade", "emptyFieldError")}),
        ({"comment": ""}, {("comment", "emptyFieldError")}),
        ({"grade": 10.5}, {("grade", "valueMustBeBetween")}),
        ({"grade": -0.1}, {("grade", "valueMustBeBetween")}),
        ({"grade": None, "comment": ""}, {("grade", "emptyFieldError"), ("comment", "emptyFieldError")}),
    ],
)
def test_a_grading_needs_a_grade_in_range_and_a_comment(
    client: TestClient, cast: Cast, started: Callable[..., int], body: dict, errors: set
) -> None:
    path_id = started()
    response = client.post(
        f"{PATHS}/{path_id}/0/grade",
        json={"grade": 8, "comment": "Vu"} | body,
        headers=cast.headers["referent"],
    )
    assert_error(response, 400, "atLeastOneErrorLeft")
    assert field_codes(response) == errors
    assert get(client, cast, path_id)["assignedModules"][0]["status"] == "started"


def test_valid_until_is_the_grading_date_plus_the_periodicity(
    client: TestClient, cast: Cast, started: Callable[..., int]
) -> None:
    periodic = started(periodicity=12)
    grading = _grade(client, cast, periodic, 8).json()["assignedModules"][0]["grading"]
    assert grading["validUntil"] == service.add_months(today(), 12).isoformat()
    permanent = started()
    assert _grade(client, cast, permanent, 8).json()["assignedModules"][0]["grading"]["validUntil"] is None


def test_a_failed_grading_has_no_validity(
    client: TestClient, db: Session, cast: Cast, started: Callable[..., int]
) -> None:
    path_id = started(count=2, periodicity=12)
    module = _grade(client, cast, path_id, 3).json()["assignedModules"][0]
    assert module["grading"]["isSuccess"] is False
    assert module["grading"]["validUntil"] is None
    assert module["gradings"][0]["validUntil"] is None
    stored = db.scalar(select(TrainingPathModule.valid_until).where(TrainingPathModule.path_id == path_id))
    assert stored is None
    cards = client.post(f"{PATHS}/modules/query", json={}, headers=cast.headers["creator"]).json()["results"]
    first = [c["grading"]["validUntil"] for c in cards if (c["pathId"], c["index"]) == (path_id, 0)]
    assert first == [None]
    passed = _grade(client, cast, path_id, 8).json()["assignedModules"][0]["grading"]
    assert passed["validUntil"] == service.add_months(today(), 12).isoformat()


def test_a_failed_grading_stored_with_a_validity_is_shown_without(
    client: TestClient, db: Session, cast: Cast, started: Callable[..., int]
) -> None:
    """Gradings stored before failures were kept without validity: the day stays (the learner's
    signature covers it) but is never given as the validity of a failure."""
    path_id = started(periodicity=12)
    _grade(client, cast, path_id, 3)
    force_module(db, path_id, 0, valid_until=date(2030, 1, 1))
    db.execute(update(TrainingPathGrading).values(valid_until=date(2030, 1, 1)))
    db.commit()
    module = get(client, cast, path_id)["assignedModules"][0]
    assert module["grading"]["validUntil"] is None
    cards = client.post(f"{PATHS}/modules/query", json={}, headers=cast.headers["creator"]).json()["results"]
    assert [card["grading"]["validUntil"] for card in cards if card["pathId"] == path_id] == [None]


def test_valid_until_clamps_to_the_end_of_the_month(
    client: TestClient, cast: Cast, started: Callable[..., int], monkeypatch: pytest.MonkeyPatch
) -> None:
    path_id = started(periodicity=1)
    monkeypatch.setattr(service, "today", lambda: date(2027, 1, 31))
    grading = _grade(client, cast, path_id, 8).json()["assignedModules"][0]["grading"]
    assert grading["validUntil"] == "2027-02-28"


def test_add_months() -> None:
    assert service.add_months(date(2027, 1, 31), 1) == date(2027, 2, 28)
    assert service.add_months(date(2028, 1, 31), 1) == date(2028, 2, 29)
    assert service.add_months(date(2027, 3, 31), 1) == date(2027, 4, 30)
    assert service.add_months(date(2027, 11, 15), 2) == date(2028, 1, 15)
    assert service.add_months(date(2027, 5, 10), 24) == date(2029, 5, 10)


def test_a_changed_grade_keeps_the_earlier_one(
    client: TestClient, cast: Cast, started: Callable[..., int]
) -> None:
    path_id = started(count=2)
    _grade(client, cast, path_id, 5, comment="Insuffisant")
    path = _grade(client, cast, path_id, 8.5, comment="Repris").json()
    module = path["assignedModules"][0]
    assert [(g["grade"], g["comment"], g["isSuccess"]) for g in module["gradings"]] == [
        (5.0, "Insuffisant", False),
        (8.5, "Repris", True),
    ]
    assert module["grading"]["grade"] == 8.5
    graded = [(h["event"], h["moduleIndex"], h["grade"], h["comment"]) for h in path["history"][-2:]]
    assert graded == [("moduleGraded", 0, 5.0, "Insuffisant"), ("moduleGradeChanged", 0, 8.5, "Repris")]


def test_regrading_an_archived_module_revokes_the_learners_signature(
    client: TestClient, cast: Cast, started: Callable[..., int]
) -> None:
    path_id = started(count=2)
    _grade(client, cast, path_id, 8)
    act(client, cast, "learner", path_id, "0/sign", SIGN)
    assert_error(_grade(client, cast, path_id, 6), 403)
    module = _grade(client, cast, path_id, 6, role="admin").json()["assignedModules"][0]
    assert module["status"] == "validated"
    assert module["signature"] is None
    [signature] = module["signatures"]
    assert signature["revoked"]["reason"] == "gradeChanged"
    assert signature["revoked"]["by"]["id"] == cast.id("admin")
    # The learner signs again.
    module = act(client, cast, "learner", path_id, "0/sign", SIGN)["assignedModules"][0]
    assert module["status"] == "archived"
    assert [s["revoked"] is None for s in module["signatures"]] == [False, True]


def test_an_administrator_regrades_an_archived_module_of_a_finished_path(
    client: TestClient, db: Session, cast: Cast
) -> None:
    path_id = make_path(client, cast, [make_module(db)])
    path = move_to(client, cast, path_id, "finished")
    assert path["assignedModules"][0]["can"]["grade"] is False
    assert get(client, cast, path_id, "admin")["assignedModules"][0]["can"]["grade"] is True
    path = _grade(client, cast, path_id, 9, role="admin").json()
    assert (path["status"], path["assignedModules"][0]["status"]) == ("finished", "validated")


def test_two_referents_grading_at_once_one_wins(
    client: TestClient,
    db: Session,
    cast: Cast,
    make_user,
    login,
) -> None:
    second = cast.add("second", make_user, login)
    body = path_body(cast, [make_module(db)])
    body["assignedModules"][0]["referents"] = [cast.id("referent"), second.id]
    path_id = client.post(PATHS, json=body, headers=cast.headers["creator"]).json()[0]["id"]
    move_to(client, cast, path_id, "started")
    version = act(client, cast, "referent", path_id, "0/startNow")["version"]
    first = _grade(client, cast, path_id, 8, version=version)
    late = _grade(client, cast, path_id, 4, role="second", version=version)
    assert first.status_code == 200, first.text
    assert_error(late, 409, "staleVersion")
    module = get(client, cast, path_id)["assignedModules"][0]
    assert [g["grade"] for g in module["gradings"]] == [8.0]


# Signatures -----------------------------------------------------------------------------------


def test_signing_a_module_asks_for_the_password_again_after_five_minutes(
    client: TestClient,
    cast: Cast,
    started: Callable[..., int],
    authentication,
) -> None:
    path_id = started()
    _grade(client, cast, path_id, 8)
    authentication.stale(cast.headers["learner"])
    response = client.post(f"{PATHS}/{path_id}/0/sign", json=SIGN, headers=cast.headers["learner"])
    assert_error(response, 401, "reauthenticationRequired")
    assert get(client, cast, path_id)["assignedModules"][0]["status"] == "validated"
    authentication.fresh(cast.headers["learner"])
    module = act(client, cast, "learner", path_id, "0/sign", SIGN)["assignedModules"][0]
    assert module["status"] == "archived"
    assert module["signature"]["comment"] == "Merci" and module["signature"]["satisfaction"] == 4
    [signature] = module["signatures"]
    assert (signature["userId"], signature["meaning"], signature["modifiedAfterSignature"]) == (
        cast.id("learner"),
        "acknowledgement",
        False,
    )


def test_closing_and_the_learners_signature_ask_for_the_password_again(
    client: TestClient,
    db: Session,
    cast: Cast,
    authentication,
) -> None:
    path_id = make_path(client, cast, [make_module(db)])
    move_to(client, cast, path_id, "finished")
    authentication.stale(cast.headers["creator"])
    response = client.post(
        f"{PATHS}/{path_id}/validate", json={"comment": "Clos"}, headers=cast.headers["creator"]
    )
    assert_error(response, 401, "reauthenticationRequired")
    assert get(client, cast, path_id)["status"] == "finished"
    authentication.fresh(cast.headers["creator"])
    path = act(client, cast, "creator", path_id, "validate", {"comment": "Clos"})
    assert path["status"] == "validated"
    assert path["validation"]["comment"] == "Clos"
    assert path["validation"]["validator"]["id"] == cast.id("creator")
    authentication.stale(cast.headers["learner"])
    response = client.post(f"{PATHS}/{path_id}/sign", json=SIGN, headers=cast.headers["learner"])
    assert_error(response, 401, "reauthenticationRequired")
    authentication.fresh(cast.headers["learner"])
    path = act(client, cast, "learner", path_id, "sign", SIGN)
    assert path["status"] == "archived"
    assert [(s["userId"], s["meaning"], s["modifiedAfterSignature"]) for s in path["signatures"]] == [
        (cast.id("creator"), "approval", False),
        (cast.id("learner"), "acknowledgement", False),
    ]


def test_a_canceled_path_takes_no_module_signature(
    client: TestClient, cast: Cast, started: Callable[..., int]
) -> None:
    path_id = started()
    _grade(client, cast, path_id, 8)
    act(client, cast, "creator", path_id, "cancel")
    response = client.post(f"{PATHS}/{path_id}/0/sign", json=SIGN, headers=cast.headers["learner"])
    assert assert_error(response, 409, "illegalTransition")["errors"] == [
        {"field": "status", "code": "canceled"}
    ]


# Closing warnings -----------------------------------------------------------------------------


def test_closing_warnings_while_finished(client: TestClient, cast: Cast, started: Callable[..., int]) -> None:
    path_id = started(count=3)
    assert get(client, cast, path_id)["closingWarnings"] == []
    _grade(client, cast, path_id, 9)
    act(client, cast, "learner", path_id, "0/sign", SIGN)
    client.post(
        f"{PATHS}/{path_id}/1/grade", json={"grade": 5, "comment": "Juste"}, headers=cast.headers["referent"]
    )
    path = act(client, cast, "admin", path_id, "2/disable")
    assert path["status"] == "finished"
    assert path["closingWarnings"] == [
        "atLeastOneModuleNotPassed",
        "atLeastOneModuleNotSignedByLearner",
        "atLeastOneModuleNotSigned",
    ]
    assert path["can"]["validate"] is True
    act(client, cast, "learner", path_id, "1/sign", SIGN)
    # Module 1 failed; module 2, disabled, was never signed.
    assert get(client, cast, path_id)["closingWarnings"] == [
        "atLeastOneModuleNotPassed",
        "atLeastOneModuleNotSigned",
    ]
    # Warnings do not refuse the closing.
    path = act(client, cast, "creator", path_id, "validate", {"comment": "Clos malgré tout"})
    assert (path["status"], path["closingWarnings"]) == ("validated", [])


def test_a_module_signed_after_the_closing_leaves_the_approval_unmodified(
    client: TestClient, cast: Cast, started: Callable[..., int]
) -> None:
    path_id = started()
    _grade(client, cast, path_id, 9)
    path = act(client, cast, "creator", path_id, "validate", {"comment": "Clos avant la signature"})
    assert path["closingWarnings"] == [] and path["status"] == "validated"
    act(client, cast, "learner", path_id, "0/sign", SIGN)
    path = act(client, cast, "learner", path_id, "sign", SIGN)
    assert path["status"] == "archived"
    assert [(s["meaning"], s["modifiedAfterSignature"]) for s in path["signatures"]] == [
        ("approval", False),
        ("acknowledgement", False),
    ]


def test_no_warning_when_every_module_is_passed_and_signed(
    client: TestClient, db: Session, cast: Cast
) -> None:
    path_id = make_path(client, cast, [make_module(db), make_module(db, "Deux")])
    assert move_to(client, cast, path_id, "finished")["closingWarnings"] == []


# Automatic promotions, history ----------------------------------------------------------------


def _visit_every_element(db: Session, path_id: int, index: int) -> None:
    module = db.scalars(
        select(TrainingPathModule).where(
            TrainingPathModule.path_id == path_id, TrainingPathModule.position == index
        )
    ).one()
    for item_id in db.scalars(
        select(TrainingModuleItem.id).where(TrainingModuleItem.module_id == module.module_id)
    ):
        db.add(TrainingPathVisit(path_module_id=module.id, module_item_id=item_id, done_at=utcnow()))
    db.commit()


def test_a_module_whose_elements_are_all_done_becomes_finished(
    client: TestClient, db: Session, cast: Cast
) -> None:
    path_id = make_path(client, cast, [make_module(db, items=2), make_module(db, "Deux")])
    move_to(client, cast, path_id, "started")
    act(client, cast, "referent", path_id, "0/startNow")
    path = act(client, cast, "learner", path_id, "update")
    assert (path["totalSubModuleItems"], path["doneSubModuleItems"], path["completion"]) == (3, 0, 0)
    _visit_every_element(db, path_id, 0)
    path = act(client, cast, "learner", path_id, "update")
    module = path["assignedModules"][0]
    assert (module["status"], module["doneItems"], module["totalItems"], module["completion"]) == (
        "finished",
        2,
        2,
        100,
    )
    assert (path["doneSubModuleItems"], path["completion"]) == (2, 67)
    assert path["history"][-1]["event"] == "moduleFinished"
    assert path["history"][-1]["user"] is None
    # A module not started yet is not promoted by its elements.
    _visit_every_element(db, path_id, 1)
    assert get(client, cast, path_id)["assignedModules"][1]["status"] == "notStarted"


def test_the_path_finishes_once_every_module_not_disabled_is_closed(
    client: TestClient, cast: Cast, started: Callable[..., int]
) -> None:
    path_id = started(count=2)
    _grade(client, cast, path_id, 8)
    assert get(client, cast, path_id)["status"] == "started"
    path = act(client, cast, "referent", path_id, "1/disable")
    assert path["status"] == "finished"
    assert (path["totalSubModuleItems"], path["totalAssignedModules"]) == (1, 2)
    assert path["history"][-1]["event"] == "finished"


def test_a_path_whose_modules_are_all_disabled_does_not_finish(
    client: TestClient, cast: Cast, started: Callable[..., int]
) -> None:
    path_id = started()
    path = act(client, cast, "admin", path_id, "0/disable")
    assert (path["status"], path["completion"]) == ("started", -1)


def test_every_action_is_in_the_history_and_moves_the_version(
    client: TestClient, db: Session, cast: Cast
) -> None:
    path_id = make_path(client, cast, [make_module(db)])
    versions = [get(client, cast, path_id)["version"]]
    path = move_to(client, cast, path_id, "accepted")
    versions.append(path["version"])
    path = move_to(client, cast, path_id, "archived")
    versions.append(path["version"])
    assert versions == sorted(set(versions))
    assert [(h["event"], h["moduleIndex"]) for h in path["history"]] == [
        ("created", None),
        ("accepted", None),
        ("started", None),
        ("moduleStarted", 0),
        ("moduleGraded", 0),
        ("finished", None),
        ("moduleSigned", 0),
        ("validated", None),
        ("signed", None),
    ]
    by = {h["event"]: h["user"]["id"] if h["user"] else None for h in path["history"]}
    assert by == {
        "created": cast.id("creator"),
        "accepted": cast.id("learner"),
        "started": cast.id("creator"),
        "moduleStarted": cast.id("referent"),
        "moduleGraded": cast.id("referent"),
        "finished": None,
        "moduleSigned": cast.id("learner"),
        "validated": cast.id("creator"),
        "signed": cast.id("learner"),
    }
    assert path["acceptanceDate"] is not None and path["signature"]["satisfaction"] == 4


def test_a_grade_body_without_version_simply_applies(
    client: TestClient, cast: Cast, started: Callable[..., int]
) -> None:
    path_id = started()
    assert (
        act(client, cast, "referent", path_id, "0/grade", GRADE)["assignedModules"][0]["status"]
        == "validated"
    )
