"""The path form (spec 2 §2 'Training path form', §3 payloads, §5 Path): creation (one path per learner),
each validation key, the fields that freeze once accepted, optimistic locking, deletion while never
accepted; and who reads a path (by id, in infos, its grades)."""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.core.time import today
from spot.training.modules.models import TrainingModule
from spot.training.paths.models import TrainingPath, TrainingPathHistory
from support import assert_error, field_codes
from training.catalogue import reference
from training.paths_support import (
    GRADE,
    PATHS,
    ROLES,
    Cast,
    act,
    assigned,
    create,
    days,
    force,
    force_module,
    get,
    make_module,
    make_path,
    move_to,
    path_body,
)

DATES = "trainingPathDatesError"


@pytest.fixture
def cast(make_user, login) -> Cast:
    return Cast.of(make_user, login)


@pytest.fixture
def module(db: Session) -> int:
    return make_module(db)


# Creation -------------------------------------------------------------------------------------


def test_creation_makes_one_path_per_learner_in_their_order(
    client: TestClient,
    db: Session,
    cast: Cast,
    module: int,
    make_user,
    login,
) -> None:
    second = cast.add("second", make_user, login)
    body = path_body(cast, [module], learners=("second", "learner"))
    cards = create(client, cast, body)
    assert [c["learner"]["id"] for c in cards] == [second.id, cast.id("learner")]
    assert all(c["status"] == "notAccepted" and c["creator"]["id"] == cast.id("creator") for c in cards)
    assert all(c["totalAssignedModules"] == 1 and c["completion"] == 0 for c in cards)
    path = get(client, cast, cards[1]["id"])
    assert path["title"] == "Parcours consignation"
    assert path["learner"] == {"id": cast.id("learner"), "name": "Learner Test"}
    assert path["creation"]["userId"] == cast.id("creator")
    assert path["visibleByPersons"] == [{"id": cast.id("reader"), "name": "Reader Test"}]
    [assigned_module] = path["assignedModules"]
    # The module's dates default to the path's.
    assert (assigned_module["startDate"], assigned_module["stopDate"]) == (days(0), days(30))
    assert assigned_module["status"] == "notStarted"
    assert assigned_module["referents"] == [{"id": cast.id("referent"), "name": "Referent Test"}]
    assert assigned_module["module"]["name"] == "Consignation"
    assert [h["event"] for h in path["history"]] == ["created"]
    assert path["totalSubModuleItems"] == 1 and path["doneSubModuleItems"] == 0
    assert path["totalEstimatedDuration"] == 60


def test_creation_needs_training_management(client: TestClient, cast: Cast, module: int) -> None:
    for role in ("learner", "admin", "referent"):
        response = client.post(PATHS, json=path_body(cast, [module]), headers=cast.headers[role])
        assert_error(response, 403)


def _form_cases(cast: Cast, db: Session, module: int) -> list[tuple[dict[str, Any], tuple[str, str]]]:
    disabled = make_module(db, "Ancien", enabled=False)
    with_module = lambda **a: [{"moduleId": module, "referents": [cast.id("referent")]} | a]  # noqa: E731
    return [
        ({"learnerIds": []}, ("learnerIds", "defineAtLeastOneLearnerOrGroup")),
        ({"learnerIds": [cast.id("creator")]}, ("learnerIds", "creatorCantBeLearner")),
        ({"learnerIds": [999999]}, ("learnerIds", "userNotFound")),
        ({"assignedModules": []}, ("assignedModules", "emptyFieldError")),
        ({"assignedModules": with_module(moduleId=None)}, ("assignedModules[0].moduleId", "emptyFieldError")),
        ({"assignedModules": with_module(moduleId=999999)}, ("assignedModules[0].moduleId", "unknownItem")),
        (
            {"assignedModules": with_module(moduleId=disabled)},
            ("assignedModules[0].moduleId", "trainingModuleDisabled"),
        ),
        ({"assignedModules": with_module(referents=[])}, ("assignedModules[0].referents", "emptyFieldError")),
        (
            {"assignedModules": with_module(referents=[cast.id("learner")])},
            ("assignedModules[0].referents", "learnerCantBeReferent"),
        ),
        (
            {"assignedModules": with_module(referents=[999999])},
            ("assignedModules[0].referents", "userNotFound"),
        ),
        ({"startDate": days(5), "stopDate": days(4)}, ("stopDate", DATES)),
        ({"startDate": days(-5), "stopDate": days(-1)}, ("stopDate", DATES)),
        ({"assignedModules": with_module(startDate=days(-1))}, ("assignedModules[0].startDate", DATES)),
        ({"assignedModules": with_module(stopDate=days(31))}, ("assignedModules[0].stopDate", DATES)),
        (
            {"assignedModules": with_module(startDate=days(5), stopDate=days(4))},
            ("assignedModules[0].stopDate", DATES),
        ),
        (
            {"startDate": days(-10), "assignedModules": with_module(startDate=days(-10), stopDate=days(-1))},
            ("assignedModules[0].stopDate", DATES),
        ),
        ({"reference": "INCONNU"}, ("reference", "invalidValue")),
        ({"visibleByPersons": [999999]}, ("visibleByPersons", "userNotFound")),
        ({"visibleByGroups": [999999]}, ("visibleByGroups", "groupNotFound")),
    ]


def test_each_validation_key(client: TestClient, db: Session, cast: Cast, module: int) -> None:
    for changes, expected in _form_cases(cast, db, module):
        response = client.post(
            PATHS, json=path_body(cast, [module]) | changes, headers=cast.headers["creator"]
        )
        assert_error(response, 400, "atLeastOneErrorLeft")
        assert field_codes(response) == {expected}, changes
    assert db.scalar(select(TrainingPath.id)) is None


def test_groups_become_learners_without_their_creator(client: TestClient, cast: Cast, module: int) -> None:
    """learnerGroupIds: each member of the groups gets a path, after the learners chosen one by one; the
    creator, a member too, is left out; a group with no member but the creator says so."""
    body = path_body(cast, [module], learnerIds=[], learnerGroupIds=[cast.group("creator")])
    response = client.post(PATHS, json=body, headers=cast.headers["creator"])
    assert_error(response, 400, "atLeastOneErrorLeft")
    assert field_codes(response) == {("learnerGroupIds", "creatorOnlyMemberOfGroups")}
    unknown = path_body(cast, [module], learnerIds=[], learnerGroupIds=[999999])
    response = client.post(PATHS, json=unknown, headers=cast.headers["creator"])
    assert field_codes(response) == {("learnerGroupIds", "groupNotFound")}
    groups = [cast.group("creator"), cast.group("stranger"), cast.group("learner")]
    body = path_body(cast, [module], learnerIds=[cast.id("learner")], learnerGroupIds=groups)
    created = client.post(PATHS, json=body, headers=cast.headers["creator"])
    assert created.status_code == 200, created.text
    assert [path["learner"]["id"] for path in created.json()] == [cast.id("learner"), cast.id("stranger")]


def test_every_faulty_field_is_named_at_once(client: TestClient, cast: Cast, module: int) -> None:
    body = path_body(cast, [module], learnerIds=[], visibleByPersons=[999999])
    body["assignedModules"].append(assigned(None, []))
    response = client.post(PATHS, json=body, headers=cast.headers["creator"])
    assert field_codes(response) == {
        ("learnerIds", "defineAtLeastOneLearnerOrGroup"),
        ("assignedModules[1].moduleId", "emptyFieldError"),
        ("assignedModules[1].referents", "emptyFieldError"),
        ("visibleByPersons", "userNotFound"),
    }


def test_the_title_follows_the_general_text_rule(client: TestClient, cast: Cast, module: int) -> None:
    response = client.post(
        PATHS, json=path_body(cast, [module], title=" Parcours"), headers=cast.headers["creator"]
    )
    error = assert_error(response, 422)
    assert {"field": "title", "code": "beginEndWhitespaceError"} in error["errors"]


def test_a_path_reference_is_kept(client: TestClient, db: Session, cast: Cast, module: int) -> None:
    reference(db, "P-01", type="path")
    path_id = make_path(client, cast, [module], reference="P-01")
    assert get(client, cast, path_id)["reference"]["code"] == "P-01"
    [card] = client.post(f"{PATHS}/infos", json=[path_id], headers=cast.headers["creator"]).json()
    assert card["reference"]["code"] == "P-01"


# Edition --------------------------------------------------------------------------------------


def update_body(path: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """The form as the edit page sends it back for `path` (a PathOut), with `changes`."""
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


def _save(client: TestClient, cast: Cast, path_id: int, body: dict[str, Any], role: str = "creator") -> Any:
    return client.post(f"{PATHS}/{path_id}", json=body, headers=cast.headers[role])


def test_everything_changes_while_not_accepted(
    client: TestClient, db: Session, cast: Cast, module: int
) -> None:
    path_id = make_path(client, cast, [module])
    path = get(client, cast, path_id)
    other = make_module(db, "Deux")
    reference(db, "P-02", type="path")
    modules = [assigned(other, [cast.id("referent")], startDate=days(1), stopDate=days(5))]
    modules.append(assigned(module, [cast.id("referent")]))
    body = update_body(
        path,
        title="Nouveau titre",
        reference="P-02",
        startDate=days(1),
        stopDate=days(20),
        passThreshold=5,
        assignedModules=modules,
    )
    response = _save(client, cast, path_id, body)
    assert response.status_code == 200, response.text
    saved = response.json()
    assert (saved["title"], saved["reference"]["code"], saved["passThreshold"]) == (
        "Nouveau titre",
        "P-02",
        5,
    )
    assert [m["module"]["name"] for m in saved["assignedModules"]] == ["Deux", "Consignation"]
    assert saved["assignedModules"][0]["stopDate"] == days(5)
    assert saved["version"] > path["version"]
    assert [h["event"] for h in saved["history"]] == ["created", "updated"]


def test_a_save_that_changes_nothing_writes_nothing(client: TestClient, cast: Cast, module: int) -> None:
    path_id = make_path(client, cast, [module])
    path = get(client, cast, path_id)
    saved = _save(client, cast, path_id, update_body(path)).json()
    assert saved["version"] == path["version"]
    assert [h["event"] for h in saved["history"]] == ["created"]


def test_a_stale_version_is_refused(client: TestClient, cast: Cast, module: int) -> None:
    path_id = make_path(client, cast, [module])
    path = get(client, cast, path_id)
    assert _save(client, cast, path_id, update_body(path, title="Un")).status_code == 200
    assert_error(_save(client, cast, path_id, update_body(path, title="Deux")), 409, "staleVersion")


def test_a_save_without_version_applies(client: TestClient, cast: Cast, module: int) -> None:
    """The spec's client sends the form without `version`: the save applies over the path as it is."""
    path_id = make_path(client, cast, [module])
    path = get(client, cast, path_id)
    assert _save(client, cast, path_id, update_body(path, title="Un")).status_code == 200
    body = update_body(path, title="Deux")
    del body["version"]
    response = _save(client, cast, path_id, body)
    assert response.status_code == 200, response.text
    assert response.json()["title"] == "Deux"
    assert response.json()["version"] > path["version"] + 1


RESTRICTED_CHANGES: list[tuple[str, Callable[[dict[str, Any], int], dict[str, Any]]]] = [
    ("title", lambda p, _m: {"title": "Autre"}),
    ("reference", lambda p, _m: {"reference": "P-03"}),
    ("startDate", lambda p, _m: {"startDate": days(-1)}),
    ("stopDate", lambda p, _m: {"stopDate": days(29)}),
    ("passThreshold", lambda p, _m: {"passThreshold": 3}),
    (
        "assignedModules",
        lambda p, m: {"assignedModules": update_body(p)["assignedModules"] + [assigned(m, [p["referent"]])]},
    ),
    ("assignedModules", lambda p, _m: {"assignedModules": list(reversed(update_body(p)["assignedModules"]))}),
    (
        "assignedModules",
        lambda p, _m: {"assignedModules": [update_body(p)["assignedModules"][0] | {"stopDate": days(10)}]},
    ),
]


@pytest.mark.parametrize(("field", "change"), RESTRICTED_CHANGES)
def test_restricted_fields_freeze_once_accepted(
    client: TestClient,
    db: Session,
    cast: Cast,
    field: str,
    change: Callable[[dict[str, Any], int], dict[str, Any]],
) -> None:
    reference(db, "P-03", type="path")
    path_id = make_path(client, cast, [make_module(db), make_module(db, "Deux")])
    path = move_to(client, cast, path_id, "accepted")
    extra = make_module(db, "Trois")
    changes = change(path | {"referent": cast.id("referent")}, extra)
    response = _save(client, cast, path_id, update_body(path, **changes))
    error = assert_error(response, 409, "fieldNotEditable")
    assert error["errors"] == [{"field": field, "code": "fieldNotEditable"}]


ALL_FIELDS = {
    "title",
    "reference",
    "startDate",
    "stopDate",
    "passThreshold",
    "assignedModules",
    "referents",
    "visibleByPersons",
    "visibleByGroups",
}
FROZEN_ONCE_ACCEPTED = {field for field, _change in RESTRICTED_CHANGES}


def editable(path: dict[str, Any]) -> set[str]:
    """The fields the page's can.fields says may still change."""
    fields = path["can"]["fields"]
    assert set(fields) == ALL_FIELDS
    return {field for field, allowed in fields.items() if allowed}


def test_can_fields_say_which_fields_still_change(client: TestClient, db: Session, cast: Cast) -> None:
    """The form reads can.fields: every field while notAccepted, then only referents and visibility, and
    none for those who may not edit (learner, referent) nor once archived or canceled."""
    path_id = make_path(client, cast, [make_module(db)])
    path = get(client, cast, path_id)
    assert editable(path) == ALL_FIELDS
    assert editable(get(client, cast, path_id, "admin")) == ALL_FIELDS
    for role in ("learner", "referent", "reader"):
        assert editable(get(client, cast, path_id, role)) == set()
    for status in ("accepted", "started", "finished", "validated"):
        path_id = make_path(client, cast, [make_module(db, status)])
        move_to(client, cast, path_id, status)
        assert editable(get(client, cast, path_id)) == ALL_FIELDS - FROZEN_ONCE_ACCEPTED, status
        assert editable(get(client, cast, path_id, "admin")) == ALL_FIELDS - FROZEN_ONCE_ACCEPTED
        assert editable(get(client, cast, path_id, "learner")) == set()
    for status in ("archived", "canceled"):
        path_id = make_path(client, cast, [make_module(db, status)])
        move_to(client, cast, path_id, status)
        assert editable(get(client, cast, path_id)) == set(), status


@pytest.mark.parametrize(("field", "change"), RESTRICTED_CHANGES)
def test_what_can_fields_allows_saves_and_what_it_refuses_does_not(
    client: TestClient,
    db: Session,
    cast: Cast,
    field: str,
    change: Callable[[dict[str, Any], int], dict[str, Any]],
) -> None:
    """A change of a field can.fields allows while notAccepted is not refused as frozen (it saves, or
    the form's date rules answer 400); the same change once can.fields says no is refused (409
    fieldNotEditable), and the path stays as it was."""
    reference(db, "P-03", type="path")
    extra = make_module(db, "Trois")
    before = make_path(client, cast, [make_module(db), make_module(db, "Deux")])
    path = get(client, cast, before)
    assert path["can"]["fields"][field] is True
    changes = change(path | {"referent": cast.id("referent")}, extra)
    response = _save(client, cast, before, update_body(path, **changes))
    assert response.status_code in (200, 400), response.text
    assert response.json().get("message") != "fieldNotEditable"
    after = make_path(client, cast, [make_module(db, "Quatre"), make_module(db, "Cinq")])
    move_to(client, cast, after, "accepted")
    path = get(client, cast, after)
    assert path["can"]["fields"][field] is False
    changes = change(path | {"referent": cast.id("referent")}, extra)
    assert_error(_save(client, cast, after, update_body(path, **changes)), 409, "fieldNotEditable")
    assert get(client, cast, after)["version"] == path["version"]


def test_referents_and_visibility_change_after_acceptance(
    client: TestClient,
    db: Session,
    cast: Cast,
    module: int,
    make_user,
    login,
) -> None:
    second = cast.add("second", make_user, login)
    path_id = make_path(client, cast, [module])
    path = move_to(client, cast, path_id, "started")
    body = update_body(path, visibleByPersons=[second.id], visibleByGroups=[cast.group("stranger")])
    body["assignedModules"][0]["referents"] = [cast.id("referent"), second.id]
    response = _save(client, cast, path_id, body)
    assert response.status_code == 200, response.text
    saved = response.json()
    assert [p["id"] for p in saved["visibleByPersons"]] == [second.id]
    assert [g["id"] for g in saved["visibleByGroups"]] == [cast.group("stranger")]
    assert {r["id"] for r in saved["assignedModules"][0]["referents"]} == {cast.id("referent"), second.id}
    # The reader is no longer among those it is visible to; the stranger's group now is.
    assert_error(client.get(f"{PATHS}/{path_id}", headers=cast.headers["reader"]), 403)
    assert get(client, cast, path_id, "stranger")["can"]["seeGrading"] is False


def test_a_module_disabled_meanwhile_stays_but_cannot_be_added(
    client: TestClient, db: Session, cast: Cast, module: int
) -> None:
    path_id = make_path(client, cast, [module])
    db.get(TrainingModule, module).enabled = False  # type: ignore[union-attr]
    db.commit()
    path = get(client, cast, path_id)
    assert _save(client, cast, path_id, update_body(path, title="Gardé")).status_code == 200
    path = get(client, cast, path_id)
    other = make_module(db, "Autre", enabled=False)
    body = update_body(path)
    body["assignedModules"].append(assigned(other, [cast.id("referent")]))
    response = _save(client, cast, path_id, body)
    assert field_codes(response) == {("assignedModules[1].moduleId", "trainingModuleDisabled")}


def test_no_edit_once_archived_or_canceled(client: TestClient, db: Session, cast: Cast, module: int) -> None:
    for status in ("archived", "canceled"):
        path_id = make_path(client, cast, [make_module(db, status)])
        path = move_to(client, cast, path_id, status)
        assert path["can"]["edit"] is False
        assert_error(_save(client, cast, path_id, update_body(path)), 403)


def test_the_stop_date_may_be_past_once_accepted(
    client: TestClient, db: Session, cast: Cast, module: int
) -> None:
    path_id = make_path(client, cast, [module])
    move_to(client, cast, path_id, "accepted")
    past = {"start_date": today() - timedelta(days=20), "stop_date": today() - timedelta(days=2)}
    force(db, path_id, **past)
    force_module(db, path_id, 0, **past)
    path = get(client, cast, path_id)
    body = update_body(path, visibleByPersons=[])
    response = _save(client, cast, path_id, body)
    assert response.status_code == 200, response.text


# Deletion -------------------------------------------------------------------------------------


def test_delete_only_a_path_never_accepted(client: TestClient, db: Session, cast: Cast, module: int) -> None:
    path_id = make_path(client, cast, [module])
    assert client.delete(f"{PATHS}/{path_id}", headers=cast.headers["creator"]).status_code == 204
    assert_error(
        client.get(f"{PATHS}/{path_id}", headers=cast.headers["creator"]), 404, "trainingPathNotFound"
    )
    assert db.scalar(select(TrainingPathHistory.id)) is None
    for status in ("accepted", "canceled"):
        path_id = make_path(client, cast, [make_module(db, status)])
        path = move_to(client, cast, path_id, status)
        assert path["can"]["delete"] is False
        response = client.delete(f"{PATHS}/{path_id}", headers=cast.headers["admin"])
        assert assert_error(response, 409, "illegalTransition")["errors"] == [
            {"field": "status", "code": status}
        ]


# Reading: visibility, infos, grades -------------------------------------------------------------


def test_visibility_by_id(client: TestClient, db: Session, cast: Cast, module: int, make_user, login) -> None:
    member = cast.add("member", make_user, login)
    path_id = make_path(client, cast, [module], visibleByGroups=[cast.group("member")])
    for role in (*ROLES, "member"):
        response = client.get(f"{PATHS}/{path_id}", headers=cast.headers[role])
        if role == "stranger":
            assert_error(response, 403)
        else:
            assert response.status_code == 200, (role, response.text)
    assert member.id not in [p["id"] for p in get(client, cast, path_id)["visibleByPersons"]]


def test_infos_answer_the_readable_paths_in_the_order_given(
    client: TestClient, db: Session, cast: Cast, module: int
) -> None:
    first = make_path(client, cast, [module], title="Premier")
    second = make_path(client, cast, [module], title="Second", visibleByPersons=[])
    ids = [second, 999999, first]
    by_role = {
        role: [c["title"] for c in client.post(f"{PATHS}/infos", json=ids, headers=cast.headers[role]).json()]
        for role in ROLES
    }
    assert by_role == {
        "learner": ["Second", "Premier"],
        "creator": ["Second", "Premier"],
        "admin": ["Second", "Premier"],
        "referent": ["Second", "Premier"],
        "reader": ["Premier"],
        "stranger": [],
    }


def test_grades_are_for_those_who_may_see_grading(client: TestClient, cast: Cast, module: int) -> None:
    path_id = make_path(client, cast, [module])
    move_to(client, cast, path_id, "started")
    act(client, cast, "referent", path_id, "0/startNow")
    act(client, cast, "referent", path_id, "0/grade", GRADE)
    for role in ("learner", "creator", "admin", "referent"):
        path = get(client, cast, path_id, role)
        assert path["averageGrade"] == 8.0
        assert path["assignedModules"][0]["grading"]["grade"] == 8.0
        assert len(path["assignedModules"][0]["gradings"]) == 1
    path = get(client, cast, path_id, "reader")
    assert path["can"]["seeGrading"] is False
    assert path["averageGrade"] is None
    assert (path["assignedModules"][0]["grading"], path["assignedModules"][0]["gradings"]) == (None, [])
    assert all(h["grade"] is None for h in path["history"])


def test_the_dashboards_holder_sees_grades_as_the_reports_show_them(
    client: TestClient,
    cast: Cast,
    module: int,
    make_user,
    login,
) -> None:
    """perm_TableauBord follows every path's results in the dashboards, the reports and the audit packs:
    the path page and the module cards show them the grades too."""
    cast.add("manager", make_user, login, ["perm_TableauBord"])
    path_id = make_path(client, cast, [module], visibleByPersons=[cast.id("manager")])
    move_to(client, cast, path_id, "started")
    act(client, cast, "referent", path_id, "0/startNow")
    act(client, cast, "referent", path_id, "0/grade", GRADE)
    path = get(client, cast, path_id, "manager")
    assert path["can"]["seeGrading"] is True
    assert path["averageGrade"] == 8.0
    assert path["assignedModules"][0]["grading"]["grade"] == 8.0
    cards = client.post(f"{PATHS}/modules/query", json={}, headers=cast.headers["manager"]).json()["results"]
    assert [card["grading"]["grade"] for card in cards if card["pathId"] == path_id] == [8.0]
