"""Who may do what with a training path (spec 2 §4 'Rules seen for path actions', §6;
docs/training-paths.md 'The two state machines'): each action, in a status that allows it, for each role
as one table; the statuses that do not allow it (409 illegalTransition carrying the current status); `can`
agreeing with both."""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from spot.core.time import today
from support import assert_error
from training.paths_support import (
    GRADE,
    PATHS,
    ROLES,
    SIGN,
    Cast,
    act,
    force,
    get,
    make_module,
    make_path,
    move_to,
    path_body,
)

OK, FORBIDDEN = 200, 403


@pytest.fixture
def cast(make_user, login) -> Cast:
    return Cast.of(make_user, login)


@pytest.fixture
def new_path(client: TestClient, db: Session, cast: Cast) -> Callable[..., int]:
    """A path of two modules (one url element each) in `status`, both followed by the referent."""

    def make(status: str = "notAccepted", **options: Any) -> int:
        path_id = make_path(client, cast, [make_module(db, "Un"), make_module(db, "Deux")])
        move_to(client, cast, path_id, status, **options)
        return path_id

    return make


def _started_module(client: TestClient, cast: Cast, path_id: int) -> None:
    act(client, cast, "referent", path_id, "0/startNow")


def _graded_module(client: TestClient, cast: Cast, path_id: int) -> None:
    _started_module(client, cast, path_id)
    act(client, cast, "referent", path_id, "0/grade", GRADE)


def _archived_module(client: TestClient, cast: Cast, path_id: int) -> None:
    _graded_module(client, cast, path_id)
    act(client, cast, "learner", path_id, "0/sign", SIGN)


# action → (path status, preparation of the modules, request, the roles allowed).
ACTIONS: dict[str, tuple[str, Callable[..., None] | None, tuple[str, str, dict | None], set[str]]] = {
    "read": ("notAccepted", None, ("GET", "", None), {"learner", "creator", "admin", "referent", "reader"}),
    "reload": (
        "started",
        None,
        ("POST", "update", None),
        {"learner", "creator", "admin", "referent", "reader"},
    ),
    "accept": ("notAccepted", None, ("POST", "accept", None), {"learner"}),
    "start": ("accepted", None, ("POST", "start", None), {"creator", "admin", "referent"}),
    "cancel": ("started", None, ("POST", "cancel", None), {"creator", "admin"}),
    "validate": ("finished", None, ("POST", "validate", {"comment": "Clos"}), {"creator", "admin"}),
    "sign": ("validated", None, ("POST", "sign", SIGN), {"learner"}),
    "delete": ("notAccepted", None, ("DELETE", "", None), {"creator", "admin"}),
    "startNow": ("started", None, ("POST", "0/startNow", None), {"referent", "admin"}),
    "disable": ("started", _started_module, ("POST", "0/disable", None), {"referent", "admin"}),
    "grade": ("started", _started_module, ("POST", "0/grade", GRADE), {"referent", "admin"}),
    "changeGrade": ("started", _graded_module, ("POST", "0/grade", GRADE), {"referent", "admin"}),
    "changeArchivedGrade": ("started", _archived_module, ("POST", "0/grade", GRADE), {"admin"}),
    "signModule": ("started", _graded_module, ("POST", "0/sign", SIGN), {"learner"}),
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", ACTIONS)
def test_who_may_do_what(
    client: TestClient, cast: Cast, new_path: Callable[..., int], action: str, role: str
) -> None:
    status, prepare, (method, suffix, body), allowed = ACTIONS[action]
    path_id = new_path(status)
    if prepare is not None:
        prepare(client, cast, path_id)
    url = f"{PATHS}/{path_id}/{suffix}".rstrip("/")
    response = client.request(method, url, json=body, headers=cast.headers[role])
    if role in allowed:
        assert response.status_code in (200, 204), response.text
    else:
        assert_error(response, FORBIDDEN)


def test_edit_is_for_the_creator_and_administrators(
    client: TestClient, cast: Cast, new_path: Callable[..., int]
) -> None:
    path_id = new_path()
    path = get(client, cast, path_id)
    for role in ROLES:
        body = _update_body(cast, path, title=f"Titre {role}")
        response = client.post(f"{PATHS}/{path_id}", json=body, headers=cast.headers[role])
        if role in ("creator", "admin"):
            assert response.status_code == 200, response.text
            path = response.json()
            assert path["title"] == f"Titre {role}"
        else:
            assert_error(response, FORBIDDEN)


def _update_body(cast: Cast, path: dict[str, Any], **changes: Any) -> dict[str, Any]:
    body = {
        "title": path["title"],
        "reference": path["reference"]["code"] if path["reference"] else None,
        "startDate": path["startDate"],
        "stopDate": path["stopDate"],
        "passThreshold": path["passThreshold"],
        "visibleByPersons": [p["id"] for p in path["visibleByPersons"]],
        "visibleByGroups": [g["id"] for g in path["visibleByGroups"]],
        "assignedModules": [
            {
                "moduleId": m["module"]["id"],
                "referents": [r["id"] for r in m["referents"]],
                "startDate": m["startDate"],
                "stopDate": m["stopDate"],
            }
            for m in path["assignedModules"]
        ],
        "version": path["version"],
    }
    return body | changes


# (action, the path's status, preparation, request, the status the answer names).
ILLEGAL: list[tuple[str, str, Callable[..., None] | None, str, str, dict | None, str]] = [
    ("accept twice", "accepted", None, "learner", "accept", None, "accepted"),
    ("start before acceptance", "notAccepted", None, "creator", "start", None, "notAccepted"),
    ("start twice", "started", None, "creator", "start", None, "started"),
    ("cancel before acceptance", "notAccepted", None, "creator", "cancel", None, "notAccepted"),
    ("cancel once archived", "archived", None, "creator", "cancel", None, "archived"),
    ("cancel twice", "canceled", None, "creator", "cancel", None, "canceled"),
    ("validate while started", "started", None, "creator", "validate", {"comment": "x"}, "started"),
    ("sign before closing", "finished", None, "learner", "sign", SIGN, "finished"),
    ("startNow before start", "accepted", None, "referent", "0/startNow", None, "accepted"),
    ("startNow twice", "started", _started_module, "referent", "0/startNow", None, "started"),
    ("grade a module not started", "started", None, "referent", "0/grade", GRADE, "notStarted"),
    ("grade once the path is closed", "validated", None, "admin", "0/grade", GRADE, "validated"),
    ("sign a module not graded", "started", _started_module, "learner", "0/sign", SIGN, "started"),
    ("sign a module twice", "started", _archived_module, "learner", "0/sign", SIGN, "archived"),
    ("disable before acceptance", "notAccepted", None, "admin", "0/disable", None, "notAccepted"),
    ("disable once closed", "validated", None, "admin", "0/disable", None, "validated"),
    (
        "referent disables an archived module",
        "started",
        _archived_module,
        "referent",
        "0/disable",
        None,
        "archived",
    ),
    (
        "referent disables a module of a finished path",
        "finished",
        None,
        "referent",
        "0/disable",
        None,
        "archived",
    ),
]


@pytest.mark.parametrize(
    ("status", "prepare", "role", "action", "body", "current"),
    [case[1:] for case in ILLEGAL],
    ids=[case[0] for case in ILLEGAL],
)
def test_illegal_transitions_answer_409_with_the_current_status(
    client: TestClient,
    cast: Cast,
    new_path: Callable[..., int],
    status: str,
    prepare: Callable[..., None] | None,
    role: str,
    action: str,
    body: dict | None,
    current: str,
) -> None:
    path_id = new_path(status)
    if prepare is not None:
        prepare(client, cast, path_id)
    response = client.post(f"{PATHS}/{path_id}/{action}", json=body, headers=cast.headers[role])
    error = assert_error(response, 409, "illegalTransition")
    assert error["errors"] == [{"field": "status", "code": current}]


def test_a_referent_disables_a_module_not_started_of_an_accepted_path(
    client: TestClient, cast: Cast, new_path: Callable[..., int]
) -> None:
    path_id = new_path("accepted")
    path = act(client, cast, "referent", path_id, "1/disable")
    assert [m["status"] for m in path["assignedModules"]] == ["notStarted", "disabled"]
    assert path["assignedModules"][1]["disabled"] is True


def test_an_administrator_disables_an_archived_module(
    client: TestClient, cast: Cast, new_path: Callable[..., int]
) -> None:
    path_id = new_path("started")
    _archived_module(client, cast, path_id)
    path = act(client, cast, "admin", path_id, "0/disable")
    assert path["assignedModules"][0]["status"] == "disabled"


def test_the_learner_accepts_only_until_the_stop_date(
    client: TestClient, db: Session, cast: Cast, new_path: Callable[..., int]
) -> None:
    path_id = new_path()
    force(db, path_id, stop_date=today() - timedelta(days=1))
    assert get(client, cast, path_id, "learner")["can"]["accept"] is False
    response = client.post(f"{PATHS}/{path_id}/accept", headers=cast.headers["learner"])
    assert_error(response, 409, "illegalTransition")
    force(db, path_id, stop_date=today())
    path = act(client, cast, "learner", path_id, "accept")
    assert path["status"] == "accepted"
    assert path["acceptanceDate"] is not None


def test_the_learner_signs_the_path_only_once_every_module_is_signed(
    client: TestClient, cast: Cast, new_path: Callable[..., int]
) -> None:
    path_id = new_path("validated", sign_modules=False)
    assert get(client, cast, path_id, "learner")["can"]["sign"] is False
    response = client.post(f"{PATHS}/{path_id}/sign", json=SIGN, headers=cast.headers["learner"])
    assert_error(response, 409, "illegalTransition")
    act(client, cast, "learner", path_id, "0/sign", SIGN)
    act(client, cast, "learner", path_id, "1/sign", SIGN)
    path = act(client, cast, "learner", path_id, "sign", SIGN)
    assert path["status"] == "archived"
    assert path["signature"]["satisfaction"] == 4


def test_a_referent_of_another_module_may_not_act_on_this_one(
    client: TestClient,
    db: Session,
    cast: Cast,
    make_user,
    login,
) -> None:
    other = cast.add("otherReferent", make_user, login)
    body = path_body(cast, [make_module(db), make_module(db, "Deux")])
    body["assignedModules"][1]["referents"] = [other.id]
    path_id = client.post(PATHS, json=body, headers=cast.headers["creator"]).json()[0]["id"]
    move_to(client, cast, path_id, "started")
    path = get(client, cast, path_id, "otherReferent")
    assert [m["can"]["start"] for m in path["assignedModules"]] == [False, True]
    response = client.post(f"{PATHS}/{path_id}/0/startNow", headers=cast.headers["otherReferent"])
    assert_error(response, FORBIDDEN)
    act(client, cast, "otherReferent", path_id, "1/startNow")


def test_module_index_out_of_range_is_not_found(
    client: TestClient, cast: Cast, new_path: Callable[..., int]
) -> None:
    path_id = new_path("started")
    response = client.post(f"{PATHS}/{path_id}/2/startNow", headers=cast.headers["referent"])
    assert_error(response, 404, "notFound")


def test_an_unknown_path_is_not_found(client: TestClient, cast: Cast) -> None:
    for method, suffix in (("GET", ""), ("POST", "/accept"), ("POST", "/0/startNow"), ("DELETE", "")):
        response = client.request(method, f"{PATHS}/999999{suffix}", headers=cast.headers["admin"])
        assert_error(response, 404, "trainingPathNotFound")


CAN_BY_ROLE = {
    # notAccepted: (edit, createFrom, delete, accept, start, validate, sign, cancel, seeGrading)
    "learner": (False, False, False, True, False, False, False, False, True),
    "creator": (True, True, True, False, False, False, False, False, True),
    "admin": (True, False, True, False, False, False, False, False, True),
    "referent": (False, False, False, False, False, False, False, False, True),
    "reader": (False, False, False, False, False, False, False, False, False),
}


@pytest.mark.parametrize("role", CAN_BY_ROLE)
def test_can_of_a_new_path(client: TestClient, cast: Cast, new_path: Callable[..., int], role: str) -> None:
    can = get(client, cast, new_path(), role)["can"]
    keys = ("edit", "createFrom", "delete", "accept", "start", "validate", "sign", "cancel", "seeGrading")
    assert tuple(can[k] for k in keys) == CAN_BY_ROLE[role]


def test_can_of_modules_follows_the_tables(
    client: TestClient, cast: Cast, new_path: Callable[..., int]
) -> None:
    path_id = new_path("started")
    referent = get(client, cast, path_id, "referent")["assignedModules"][0]["can"]
    assert referent == {
        "start": True,
        "disable": True,
        "grade": False,
        "sign": False,
        "manageMediations": False,
        "openElements": False,
    }
    _started_module(client, cast, path_id)
    referent = get(client, cast, path_id, "referent")["assignedModules"][0]["can"]
    assert (referent["start"], referent["grade"], referent["manageMediations"]) == (False, True, True)
    learner = get(client, cast, path_id, "learner")["assignedModules"][0]["can"]
    assert (learner["openElements"], learner["grade"], learner["sign"]) == (True, False, False)
    act(client, cast, "referent", path_id, "0/grade", GRADE)
    learner = get(client, cast, path_id, "learner")["assignedModules"][0]["can"]
    assert (learner["openElements"], learner["sign"]) == (False, True)
    admin = get(client, cast, path_id, "admin")["assignedModules"][0]["can"]
    assert (admin["grade"], admin["disable"]) == (True, True)
