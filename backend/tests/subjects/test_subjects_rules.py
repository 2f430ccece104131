from datetime import datetime

import pytest
from sqlalchemy import select

from mapping.maps import restrict
from spot.core.history_models import HistoryEntry
from spot.mapping.models import criticity_score
from spot.subjects.service import criticity_level
from support import API, assert_error, field_codes

EDIT, REM, VALID = "perm_EditPdv", "perm_RemPdv", "perm_ValidNotHaute"


def form(m, **overrides):
    body = {
        "name": "Nouveau sujet",
        "type": "risk",
        "cartographyId": m.cartography("C1"),
        "functionId": m.function("F1"),
        "activityId": m.activity("A12"),
    }
    return {**body, **overrides}


def history_events(db, subject_id):
    db.expire_all()
    return [
        (e.mode, e.event)
        for e in db.scalars(
            select(HistoryEntry)
            .where(HistoryEntry.item_type == "subject", HistoryEntry.item_id == subject_id)
            .order_by(HistoryEntry.id)
        )
    ]


# Who may do what: role × action --------------------------------------------------------------

ROLES = {"nobody": [], "editor": [EDIT], "remover": [REM], "validator": [VALID], "all": [EDIT, REM, VALID]}
ACTIONS = {
    # action: (permission needed or None for any signed-in user)
    "create": EDIT,
    "edit": EDIT,
    "duplicate": EDIT,
    "delete": REM,
    "standardize": VALID,
    "follow": None,
    "resolve": None,
    "rate": None,
}


def perform(client, headers, m, action, subject):
    if action == "create":
        return client.post(f"{API}/subject", json=form(m), headers=headers)
    if action == "edit":
        current = client.get(f"{API}/subject/{subject}", headers=headers).json()
        return client.post(
            f"{API}/subject/{subject}",
            json=form(m, name="Renommé", version=current["version"]),
            headers=headers,
        )
    if action == "delete":
        return client.delete(f"{API}/subject/{subject}", headers=headers)
    if action == "rate":
        return client.post(
            f"{API}/subject/{subject}/rate",
            json={"frequency": 2, "gravity": 3, "detectability": 0},
            headers=headers,
        )
    if action == "standardize":
        return client.post(f"{API}/subject/{subject}/standardize", json={"comment": "ok"}, headers=headers)
    return client.post(f"{API}/subject/{subject}/{action}", headers=headers)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", ACTIONS)
def test_permission_table(client, test_map, make_user, login, role, action):
    headers = login(make_user(permissions=ROLES[role]))
    allowed = ACTIONS[action] is None or ACTIONS[action] in ROLES[role]
    response = perform(client, headers, test_map, action, test_map.subject("S2"))
    if allowed:
        assert response.status_code in (200, 204), response.text
    else:
        assert_error(response, 403, "Insufficient rights to access this information")
    if action not in ("create", "delete"):
        can = client.get(f"{API}/subject/{test_map.subject('S2')}", headers=headers).json()["can"]
        key = {
            "edit": "edit",
            "duplicate": "duplicate",
            "standardize": "standardize",
            "follow": "follow",
            "resolve": "resolve",
            "rate": "rate",
        }[action]
        assert can[key] is allowed


def test_can_object_per_role(client, test_map, make_user, login):
    url = f"{API}/subject/{test_map.subject('S1')}"
    expected = {
        "nobody": dict(edit=False, delete=False, duplicate=False, standardize=False),
        "editor": dict(edit=True, delete=False, duplicate=True, standardize=False),
        "remover": dict(edit=False, delete=True, duplicate=False, standardize=False),
        "validator": dict(edit=False, delete=False, duplicate=False, standardize=True),
    }
    for role, flags in expected.items():
        can = client.get(url, headers=login(make_user(permissions=ROLES[role]))).json()["can"]
        marks = {"follow": True, "resolve": True, "rate": True}
        mind_map = {"editMindMap": False, "validateMindMap": role == "validator", "editDiagram": False}
        assert can == {**flags, **marks, **mind_map}, role


# Create and the form's validation -----------------------------------------------------------


def test_create_returns_the_id_and_records_everything(client, db, test_map, make_user, login):
    user = make_user("auteur", [EDIT], first_name="Anne", last_name="Auteur")
    headers = login(user)
    response = client.post(f"{API}/subject", json=form(test_map), headers=headers)
    assert response.status_code == 200, response.text
    subject_id = response.json()["id"]
    assert set(response.json()) == {"id"}
    body = client.get(f"{API}/subject/{subject_id}", headers=headers).json()
    assert body["name"] == "Nouveau sujet"
    assert body["code"] == f"S{subject_id}"
    assert body["lifetimeEvents"]["creation"]["userName"] == "Anne Auteur"
    assert body["lifetimeEvents"]["creation"]["userId"] == user.id
    assert body["lifetimeEvents"]["lastUpdate"]["userId"] == user.id
    assert body["lifetimeEvents"]["followed"] is None
    assert body["mindMapItems"] == [{"code": 0, "name": "Nouveau sujet", "status": "empty"}]
    assert body["mainNodeStatus"] == "empty"
    assert body["contributors"] == [{"id": user.id, "name": "Anne Auteur"}]
    assert history_events(db, subject_id) == [("W", "created"), ("R", None)]
    visits = client.get(f"{API}/account/visits", headers=headers).json()
    assert [v["subjectId"] for v in visits] == [subject_id]


@pytest.mark.parametrize(
    "overrides, errors",
    [
        ({"cartographyId": None}, {("cartographyId", "mustNotBeEmpty")}),
        (
            {"functionId": None, "activityId": None},
            {("functionId", "mustNotBeEmpty"), ("activityId", "mustNotBeEmpty")},
        ),
        ({"cartographyId": 987654}, {("cartographyId", "invalidValue")}),
        ({"functionId": 987654}, {("functionId", "invalidValue")}),
        ("other-function", {("functionId", "invalidValue")}),
        ("other-activity", {("activityId", "invalidValue")}),
    ],
)
def test_links_are_required_and_belong_together(client, test_map, make_user, login, overrides, errors):
    if overrides == "other-function":
        overrides = {"functionId": test_map.function("G1")}
    elif overrides == "other-activity":
        overrides = {"activityId": test_map.activity("B1")}
    response = client.post(
        f"{API}/subject", json=form(test_map, **overrides), headers=login(make_user(permissions=[EDIT]))
    )
    assert_error(response, 400, "atLeastOneErrorLeft")
    assert field_codes(response) == errors


@pytest.mark.parametrize(
    "name, code",
    [
        ("", "emptyFieldError"),
        ("   ", "emptyFieldError"),
        (" Sujet", "beginEndWhitespaceError"),
        ("Sujet\n", "beginEndWhitespaceError"),
    ],
)
def test_name_follows_the_general_text_rule(client, test_map, make_user, login, name, code):
    response = client.post(
        f"{API}/subject", json=form(test_map, name=name), headers=login(make_user(permissions=[EDIT]))
    )
    assert_error(response, 422, "atLeastOneErrorLeft")
    assert field_codes(response) == {("name", code)}


def test_missing_name_and_bad_type(client, test_map, make_user, login):
    headers = login(make_user(permissions=[EDIT]))
    body = form(test_map)
    del body["name"]
    assert field_codes(client.post(f"{API}/subject", json=body, headers=headers)) == {
        ("name", "emptyFieldError")
    }
    response = client.post(f"{API}/subject", json=form(test_map, type="danger"), headers=headers)
    assert_error(response, 422)
    assert {f for f, _ in field_codes(response)} == {"type"}


def test_creating_in_a_hidden_cartography_is_refused(client, db, test_map, make_user, login):
    user = make_user(permissions=[EDIT])
    restrict(db, user, test_map.cartography("C1"))
    response = client.post(
        f"{API}/subject",
        json=form(
            test_map,
            cartographyId=test_map.cartography("C2"),
            functionId=test_map.function("G1"),
            activityId=test_map.activity("B1"),
        ),
        headers=login(user),
    )
    assert field_codes(response) == {("cartographyId", "invalidValue")}


# Update ---------------------------------------------------------------------------------------


def test_update_with_version_and_stale_version(client, db, test_map, make_user, login):
    headers = login(make_user(permissions=[EDIT]))
    url = f"{API}/subject/{test_map.subject('S2')}"
    current = client.get(url, headers=headers).json()
    updated = client.post(
        url,
        json=form(
            test_map,
            name="Mesurer au micromètre",
            version=current["version"],
            functionId=test_map.function("F2"),
            activityId=test_map.activity("A121"),
        ),
        headers=headers,
    )
    assert updated.status_code == 200, updated.text
    body = updated.json()
    assert body["name"] == "Mesurer au micromètre"
    assert body["activityId"] == test_map.activity("A121")
    assert body["version"] == current["version"] + 1
    assert body["lifetimeEvents"]["lastUpdate"]["date"] >= current["lifetimeEvents"]["lastUpdate"]["date"]
    stale = client.post(
        url, json=form(test_map, name="Autre nom", version=current["version"]), headers=headers
    )
    assert_error(stale, 409, "staleVersion")
    assert client.get(url, headers=headers).json()["name"] == "Mesurer au micromètre"
    assert history_events(db, test_map.subject("S2"))[-3:] == [("R", None), ("W", "updated"), ("R", None)]


def test_update_cannot_move_the_subject_to_another_cartography(client, test_map, make_user, login):
    headers = login(make_user(permissions=[EDIT]))
    url = f"{API}/subject/{test_map.subject('S2')}"
    version = client.get(url, headers=headers).json()["version"]
    moved = client.post(
        url,
        json=form(
            test_map,
            version=version,
            cartographyId=test_map.cartography("C2"),
            functionId=test_map.function("G1"),
            activityId=test_map.activity("B1"),
        ),
        headers=headers,
    )
    assert field_codes(moved) == {("cartographyId", "invalidValue")}


def test_update_needs_a_version(client, test_map, make_user, login):
    response = client.post(
        f"{API}/subject/{test_map.subject('S2')}",
        json=form(test_map),
        headers=login(make_user(permissions=[EDIT])),
    )
    assert field_codes(response) == {("version", "emptyFieldError")}


# Delete and duplicate -------------------------------------------------------------------------


def test_delete(client, db, test_map, make_user, login):
    headers = login(make_user(permissions=[REM]))
    url = f"{API}/subject/{test_map.subject('S2')}"
    response = client.delete(url, headers=headers)
    assert response.status_code == 204
    assert response.content == b""
    assert_error(client.get(url, headers=headers), 404, "subjectNotFound")
    assert_error(client.delete(url, headers=headers), 404)


def test_duplicate_copies_name_links_ratings_and_mind_map(client, db, test_map, make_user, login):
    headers = login(make_user(permissions=[EDIT]))
    source = test_map.subject("S1")
    response = client.post(f"{API}/subject/{source}/duplicate", headers=headers)
    assert response.status_code == 200, response.text
    copy_id = response.json()["id"]
    assert copy_id != source
    original = client.get(f"{API}/subject/{source}", headers=headers).json()
    copy = client.get(f"{API}/subject/{copy_id}", headers=headers).json()
    for key in (
        "name",
        "type",
        "cartographyId",
        "functionId",
        "activityId",
        "ratings",
        "criticity",
        "criticityLevel",
        "mindMapItems",
        "contexts",
    ):
        assert copy[key] == original[key], key
    assert copy["code"] != original["code"]
    assert copy["lifetimeEvents"]["followed"] is None
    assert history_events(db, copy_id)[0] == ("W", "duplicatedFrom")


def test_duplicate_with_the_form(client, test_map, make_user, login):
    headers = login(make_user(permissions=[EDIT]))
    response = client.post(
        f"{API}/subject/{test_map.subject('S1')}/duplicate",
        json=form(test_map, name="Copie", activityId=test_map.activity("A2")),
        headers=headers,
    )
    copy = client.get(f"{API}/subject/{response.json()['id']}", headers=headers).json()
    assert (copy["name"], copy["activityId"]) == ("Copie", test_map.activity("A2"))
    assert copy["mindMapItems"][1] == {"code": 1, "name": "Consigner", "status": "validated"}
    bad = client.post(
        f"{API}/subject/{test_map.subject('S1')}/duplicate", json=form(test_map, name=" "), headers=headers
    )
    assert_error(bad, 422)


# Marks ----------------------------------------------------------------------------------------


def test_follow_records_user_date_last_update_visit_and_history(client, db, test_map, make_user, login):
    user = make_user("suiveur", first_name="Sam", last_name="Suiveur")
    headers = login(user)
    url = f"{API}/subject/{test_map.subject('S2')}"
    body = client.post(f"{url}/follow", headers=headers).json()
    followed = body["lifetimeEvents"]["followed"]
    assert (followed["userId"], followed["userName"]) == (user.id, "Sam Suiveur")
    assert body["lifetimeEvents"]["lastUpdate"] == followed
    assert datetime.fromisoformat(followed["date"].replace("Z", "+00:00")).tzinfo is not None
    assert history_events(db, test_map.subject("S2"))[-1] == ("W", "followed")
    assert [v["subjectId"] for v in client.get(f"{API}/account/visits", headers=headers).json()] == [
        test_map.subject("S2")
    ]
    assert {"id": user.id, "name": "Sam Suiveur"} in body["contributors"]


def test_resolve_also_marks_followed_when_unset(client, test_map, make_user, login):
    first, second = make_user("premier"), make_user("second")
    s2, s3 = test_map.subject("S2"), test_map.subject("S3")
    resolved = client.post(f"{API}/subject/{s2}/resolve", headers=login(first)).json()["lifetimeEvents"]
    assert resolved["resolved"]["userId"] == first.id
    assert resolved["followed"] == resolved["resolved"]
    client.post(f"{API}/subject/{s3}/follow", headers=login(first))
    again = client.post(f"{API}/subject/{s3}/resolve", headers=login(second)).json()["lifetimeEvents"]
    assert again["resolved"]["userId"] == second.id
    assert again["followed"]["userId"] == first.id


def test_rate_sets_criticity(client, db, test_map, make_user, login):
    headers = login(make_user())
    url = f"{API}/subject/{test_map.subject('S2')}/rate"
    body = client.post(url, json={"frequency": 5, "gravity": 4, "detectability": 0}, headers=headers).json()
    assert body["ratings"] == {"frequency": 5, "gravity": 4, "detectability": 0}
    assert (body["criticity"], body["criticityLevel"]) == (80, "high")
    assert body["lifetimeEvents"]["criticity"] is not None
    assert history_events(db, test_map.subject("S2"))[-1] == ("W", "criticity")
    zero = client.post(url, json={"frequency": 0, "gravity": 4, "detectability": 0}, headers=headers).json()
    assert (zero["criticity"], zero["criticityLevel"]) == (None, None)


@pytest.mark.parametrize(
    "ratings, field",
    [
        ({"frequency": 6, "gravity": 1, "detectability": 0}, "frequency"),
        ({"frequency": 1, "gravity": -1, "detectability": 0}, "gravity"),
        ({"frequency": 1, "gravity": 1, "detectability": 9}, "detectability"),
        ({"frequency": "beaucoup", "gravity": 1, "detectability": 0}, "frequency"),
        ({"gravity": 1, "detectability": 0}, "frequency"),
    ],
)
def test_rate_validation(client, test_map, make_user, login, ratings, field):
    response = client.post(
        f"{API}/subject/{test_map.subject('S2')}/rate", json=ratings, headers=login(make_user())
    )
    assert_error(response, 422, "atLeastOneErrorLeft")
    assert {f for f, _ in field_codes(response)} == {field}


@pytest.mark.parametrize(
    "frequency, gravity, score, level",
    [
        (0, 5, None, None),
        (1, 1, 4, "low"),
        (2, 4, 32, "low"),
        (3, 3, 36, "medium"),
        (4, 4, 64, "medium"),
        (3, 5, 60, "medium"),
        (5, 4, 80, "high"),
        (5, 5, 100, "high"),
    ],
)
def test_criticity_bands(frequency, gravity, score, level):
    assert criticity_score(frequency, gravity) == score
    assert criticity_level(score) == level


@pytest.mark.parametrize("score, level", [(32, "low"), (33, "medium"), (66, "medium"), (67, "high")])
def test_criticity_band_edges(score, level):
    assert criticity_level(score) == level


def test_the_criticity_table_gives_every_rating_its_level(client, make_user, login):
    """What the rating dialog shows before saving comes from the server, the same bands as the saved level."""
    assert_error(client.get(f"{API}/subject/criticity"), 401)
    body = client.get(f"{API}/subject/criticity", headers=login(make_user())).json()
    levels = body["levels"]
    assert [len(row) for row in levels] == [6] * 6
    assert levels[0] == [None] * 6 and {row[0] for row in levels} == {None}
    for frequency in range(6):
        for gravity in range(6):
            assert levels[frequency][gravity] == criticity_level(criticity_score(frequency, gravity))
    assert (levels[2][4], levels[3][3], levels[3][5], levels[4][5]) == ("low", "medium", "medium", "high")


def test_standardize_keeps_the_comment(client, db, test_map, make_user, login):
    user = make_user(permissions=[VALID])
    url = f"{API}/subject/{test_map.subject('S2')}/standardize"
    padded = client.post(url, json={"comment": "  Validé en revue  "}, headers=login(user))
    assert field_codes(padded) == {("comment", "beginEndWhitespaceError")}
    body = client.post(url, json={"comment": "Validé en revue"}, headers=login(user)).json()
    assert body["standardizedComment"] == "Validé en revue"
    assert body["lifetimeEvents"]["standardized"]["userId"] == user.id
    assert history_events(db, test_map.subject("S2"))[-1] == ("W", "standardized")
    without = client.post(url, headers=login(user))
    assert without.status_code == 200


def test_marks_bump_the_version(client, test_map, make_user, login):
    headers = login(make_user(permissions=[EDIT]))
    url = f"{API}/subject/{test_map.subject('S2')}"
    version = client.get(url, headers=headers).json()["version"]
    client.post(f"{url}/follow", headers=headers)
    assert_error(client.post(url, json=form(test_map, version=version), headers=headers), 409)


# Visibility of subjects -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "method, suffix, body",
    [
        ("GET", "", None),
        ("POST", "", "form"),
        ("DELETE", "", None),
        ("POST", "/duplicate", None),
        ("POST", "/follow", None),
        ("POST", "/resolve", None),
        ("POST", "/rate", {"frequency": 1, "gravity": 1, "detectability": 0}),
        ("POST", "/standardize", {}),
    ],
)
def test_actions_on_a_hidden_subject_answer_403(client, db, test_map, make_user, login, method, suffix, body):
    user = make_user(permissions=[EDIT, REM, VALID])
    restrict(db, user, test_map.cartography("C1"))
    headers = login(user)
    payload = {**form(test_map), "version": 1} if body == "form" else body
    hidden = client.request(
        method, f"{API}/subject/{test_map.subject('T1')}{suffix}", json=payload, headers=headers
    )
    assert_error(hidden, 403, "Insufficient rights to view")
    unknown = client.request(method, f"{API}/subject/987654{suffix}", json=payload, headers=headers)
    assert_error(unknown, 404)


def test_visits_leave_out_hidden_subjects(client, db, test_map, make_user, login):
    user = make_user()
    headers = login(user)
    for code in ("S1", "T1"):
        client.get(f"{API}/subject/{test_map.subject(code)}", headers=headers)
    assert len(client.get(f"{API}/account/visits", headers=headers).json()) == 2
    restrict(db, user, test_map.cartography("C1"))
    visits = client.get(f"{API}/account/visits", headers=headers).json()
    assert [v["subjectId"] for v in visits] == [test_map.subject("S1")]
    first = visits[0]["date"]
    client.get(f"{API}/subject/{test_map.subject('S1')}", headers=headers)
    assert client.get(f"{API}/account/visits", headers=headers).json()[0]["date"] >= first


def test_contributors_come_first_contribution_first_and_readers_are_not_among_them(
    client, test_map, make_user, login
):
    first = make_user("premier", ["perm_EditPdv"], first_name="Paule", last_name="Première")
    second = make_user("second", [], first_name="Serge", last_name="Second")
    reader = make_user("lecteur", [], first_name="Léa", last_name="Lectrice")
    subject = client.post(f"{API}/subject", json=form(test_map), headers=login(first)).json()["id"]
    assert client.post(f"{API}/subject/{subject}/follow", headers=login(second)).status_code == 200
    body = client.get(f"{API}/subject/{subject}", headers=login(reader)).json()
    assert body["contributors"] == [
        {"id": first.id, "name": "Paule Première"},
        {"id": second.id, "name": "Serge Second"},
    ]
    assert body["lifetimeEvents"]["followed"]["userName"] == "Serge Second"
    assert body["lifetimeEvents"]["creation"]["userName"] == "Paule Première"


def test_the_function_view_names_the_users_of_its_subjects_events(client, test_map, make_user, login):
    author = make_user("auteur-f", ["perm_EditPdv"], first_name="Alix", last_name="Auteur")
    follower = make_user("suiveur-f", [], first_name="Félix", last_name="Suiveur")
    subject = client.post(f"{API}/subject", json=form(test_map), headers=login(author)).json()["id"]
    assert client.post(f"{API}/subject/{subject}/follow", headers=login(follower)).status_code == 200
    view = client.get(f"{API}/function/{test_map.function('F1')}", headers=login(follower)).json()
    listed = [s for a in view["activities"] for s in a["subjects"] if s["id"] == subject]
    assert len(listed) == 1
    events = listed[0]["lifetimeEvents"]
    assert events["creation"]["userName"] == "Alix Auteur"
    assert events["followed"]["userName"] == "Félix Suiveur"
    assert events["resolved"] is None
