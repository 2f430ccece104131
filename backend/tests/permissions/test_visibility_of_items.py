"""A group limited to some functions or activities of a cartography (spot.mapping.policy): what its
members see of the map, everywhere the map is read — pages, lists, counts, lookups, searches and filters.

The test map (tests/mapping/maps.py), cartography C1:
    activities A1 (A11, A12 (A121)), A2; functions F1, F2; zones on A1 and F2; a pictogram on A1;
    subjects S1 (F1, A11), S2 (F2, A2), S3 (F1, A121).
and cartography C2: activity B1, function G1, subject T1 (G1, B1).
"""

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from mapping.maps import Map
from spot.mapping.models import CartographyVisibility
from spot.users.models import Group, User
from support import API, assert_error

Headers = dict[str, str]
Items = tuple[tuple[str, str], ...]


@pytest.fixture
def m(test_map: Map) -> Map:
    return test_map


def ids(m: Map, items: Items) -> list[tuple[str, int]]:
    find = {"cartography": m.cartography, "function": m.function, "activity": m.activity}
    return [(kind, find[kind](code)) for kind, code in items]


def limit(db: Session, group: Group, rows: list[tuple[str, int]]) -> None:
    db.add_all(CartographyVisibility(group_id=group.id, item_type=t, item_id=i) for t, i in rows)
    db.commit()


def member_limited_to(db: Session, m: Map, make_user: Callable[..., User], *groups: Items) -> User:
    """A user in one group per `groups`, each limited to its items."""
    user = make_user("membre", ["perm_EditPdv"])
    limit(db, user.groups[0], ids(m, groups[0]))
    for items in groups[1:]:
        group = Group(name=f"groupe {items}")
        db.add(group)
        db.flush()
        limit(db, group, ids(m, items))
        user.groups.append(group)
    db.commit()
    return user


# What a user sees, read through the HTTP API ----------------------------------------------------------------


class Reader:
    def __init__(self, client: TestClient, m: Map, headers: Headers) -> None:
        self.client, self.m, self.headers = client, m, headers
        self.codes = {
            **{m.function(c): c for c in ("F1", "F2", "G1")},
            **{m.activity(c): c for c in ("A1", "A11", "A12", "A121", "A2", "B1")},
        }

    def get(self, path: str) -> Any:
        response = self.client.get(f"{API}{path}", headers=self.headers)
        assert response.status_code == 200, (path, response.text)
        return response.json()

    def status(self, path: str) -> int:
        response = self.client.get(f"{API}{path}", headers=self.headers)
        assert response.status_code < 500, response.text
        if response.status_code == 403:
            assert_error(response, 403, "Insufficient rights to view")
        return response.status_code

    def subjects(self, filter: str = "") -> tuple[list[str], int]:
        response = self.client.post(
            f"{API}/subject/query", json={"filter": filter, "sort": "code"}, headers=self.headers
        )
        assert response.status_code == 200, response.text
        body = response.json()
        return [s["code"] for s in body["results"]], body["totalItems"]

    def functions_list(self) -> list[str]:
        response = self.client.post(f"{API}/function/query", json={"sort": "code"}, headers=self.headers)
        assert response.status_code == 200, response.text
        return [f["code"] for f in response.json()["results"]]

    def item_names(self) -> list[str]:
        response = self.client.post(f"{API}/mapping/items/names", json=list(self.codes), headers=self.headers)
        assert response.status_code == 200, response.text
        return [item["code"] for item in response.json()]

    def found(self) -> list[str]:
        """The activities and functions the search finds: every one of the map has an 'a' or an 'o'."""
        return sorted(
            {
                i["code"]
                for n in "ao"
                for i in self.get(f"/mapping/items/search?name={n}&types=activity,function")
            }
        )


def tree(nodes: list[dict]) -> list:
    return [(n["code"], n["subjectsCount"], tree(n["activities"])) for n in nodes]


def function_tables(body: dict) -> dict[str, list[str]]:
    return {a["code"]: [s["code"] for s in a["subjects"]] for a in body["activities"]}


def everything(r: Reader) -> dict[str, Any]:
    """All that the user sees of the test map, place by place."""
    m = r.m
    c1, c2 = m.cartography("C1"), m.cartography("C2")
    page = r.get(f"/cartography/{c1}")
    seen: dict[str, Any] = {
        "cartographies": [c["code"] for c in r.get("/cartography")],
        "sites": [[c["code"] for c in s["cartographies"]] for s in r.get("/site")],
        "c2": r.status(f"/cartography/{c2}"),
        "page.functions": [f["code"] for f in page["functions"]],
        "page.activities": tree(page["activities"]),
        "functions": [f["code"] for f in r.get(f"/cartography/{c1}/functions")],
        "activities": [(a["code"], a["subjectsCount"]) for a in r.get(f"/cartography/{c1}/activities")],
        "zones": [z["itemCode"] for z in r.get(f"/cartography/{c1}/zones")],
        "pictograms": [p["activityCode"] for p in r.get(f"/pictos/{c1}")],
        "subActivities.A1": (
            [a["code"] for a in r.get(f"/activity/{m.activity('A1')}/subActivities")]
            if r.status(f"/activity/{m.activity('A1')}/subActivities") == 200
            else 403
        ),
        "subject pages": {code: r.status(f"/subject/{m.subject(code)}") for code in ("S1", "S2", "S3", "T1")},
        "subject items": {code: r.status(f"/item/subject/{m.subject(code)}") for code in ("S1", "S2", "S3")},
        "function views": {},
        "items": {
            code: r.status(f"/item/{kind}/{item_id}")
            for item_id, code in r.codes.items()
            for kind in ["function" if code[0] in "FG" else "activity"]
        },
        "names": r.item_names(),
        "search": r.found(),
        "subject list": r.subjects(),
        "functions list": r.functions_list(),
    }
    for code in ("F1", "F2"):
        function_id = m.function(code)
        seen["function views"][code] = (
            function_tables(r.get(f"/function/{function_id}"))
            if r.status(f"/function/{function_id}") == 200
            else 403
        )
    return seen


EVERYTHING: dict[str, Any] = {
    "cartographies": ["C1", "C2"],
    "sites": [["C1", "C2"]],
    "c2": 200,
    "page.functions": ["F1", "F2"],
    "page.activities": [("A1", 2, [("A11", 1, []), ("A12", 1, [("A121", 1, [])])]), ("A2", 1, [])],
    "functions": ["F1", "F2"],
    "activities": [("A1", 2), ("A2", 1)],
    "zones": ["A1", "F2"],
    "pictograms": ["A1"],
    "subActivities.A1": ["A11", "A12"],
    "subject pages": {"S1": 200, "S2": 200, "S3": 200, "T1": 200},
    "subject items": {"S1": 200, "S2": 200, "S3": 200},
    "function views": {"F1": {"A1": ["S1", "S3"], "A2": []}, "F2": {"A1": [], "A2": ["S2"]}},
    "items": {
        "F1": 200,
        "F2": 200,
        "G1": 200,
        "A1": 200,
        "A11": 200,
        "A12": 200,
        "A121": 200,
        "A2": 200,
        "B1": 200,
    },
    "names": ["F1", "F2", "G1", "A1", "A11", "A12", "A121", "A2", "B1"],
    "search": ["A1", "A11", "A12", "A121", "A2", "B1", "F1", "F2", "G1"],
    "subject list": (["S1", "S2", "S3", "T1"], 4),
    "functions list": ["F1", "F2", "G1"],
}


ALL_C1_HIDDEN_C2 = {
    "cartographies": ["C1"],
    "sites": [["C1"]],
    "c2": 403,
}
NO_C2_ITEMS = {"G1": 403, "B1": 403}


def test_an_unrestricted_member_sees_everything(client, m, make_user, login):
    assert everything(Reader(client, m, login(make_user("libre")))) == EVERYTHING


def test_a_group_limited_to_a_function_sees_that_function_and_its_subjects_only(
    client, db, m, make_user, login
):
    user = member_limited_to(db, m, make_user, (("function", "F1"),))
    seen = everything(Reader(client, m, login(user)))
    assert seen == {
        **EVERYTHING,
        **ALL_C1_HIDDEN_C2,
        # Every activity (the function limits the functions), but counts of F1's subjects only.
        "page.functions": ["F1"],
        "page.activities": [("A1", 2, [("A11", 1, []), ("A12", 1, [("A121", 1, [])])]), ("A2", 0, [])],
        "functions": ["F1"],
        "activities": [("A1", 2), ("A2", 0)],
        "zones": ["A1"],  # F2's zone goes
        "subject pages": {"S1": 200, "S2": 403, "S3": 200, "T1": 403},
        "subject items": {"S1": 200, "S2": 403, "S3": 200},
        "function views": {"F1": {"A1": ["S1", "S3"], "A2": []}, "F2": 403},
        "items": {**EVERYTHING["items"], "F2": 403, **NO_C2_ITEMS},
        "names": ["F1", "A1", "A11", "A12", "A121", "A2"],
        "search": ["A1", "A11", "A12", "A121", "A2", "F1"],
        "subject list": (["S1", "S3"], 2),
        "functions list": ["F1"],
    }


def test_a_group_limited_to_an_activity_sees_its_subtree_and_their_subjects_only(
    client, db, m, make_user, login
):
    user = member_limited_to(db, m, make_user, (("activity", "A12"),))
    seen = everything(Reader(client, m, login(user)))
    assert seen == {
        **EVERYTHING,
        **ALL_C1_HIDDEN_C2,
        # Every function (the activity limits the activities); A1 as the way down to A12, counting
        # only what is below A12.
        "page.activities": [("A1", 1, [("A12", 1, [("A121", 1, [])])])],
        "activities": [("A1", 1)],
        "subActivities.A1": ["A12"],
        "subject pages": {"S1": 403, "S2": 403, "S3": 200, "T1": 403},
        "subject items": {"S1": 403, "S2": 403, "S3": 200},
        "function views": {"F1": {"A1": ["S3"]}, "F2": {"A1": []}},
        "items": {**EVERYTHING["items"], "A11": 403, "A2": 403, **NO_C2_ITEMS},
        "names": ["F1", "F2", "A1", "A12", "A121"],
        "search": ["A1", "A12", "A121", "F1", "F2"],
        "subject list": (["S3"], 1),
        "functions list": ["F1", "F2"],
    }


def test_a_group_limited_to_a_function_and_an_activity_sees_the_subjects_at_their_crossing(
    client, db, m, make_user, login
):
    user = member_limited_to(db, m, make_user, (("function", "F1"), ("activity", "A11"), ("activity", "A2")))
    r = Reader(client, m, login(user))
    seen = everything(r)
    assert seen["page.functions"] == ["F1"]
    assert seen["page.activities"] == [("A1", 1, [("A11", 1, [])]), ("A2", 0, [])]
    assert seen["subject list"] == (["S1"], 1)
    assert seen["subject pages"] == {"S1": 200, "S2": 403, "S3": 403, "T1": 403}
    assert seen["function views"] == {"F1": {"A1": ["S1"], "A2": []}, "F2": 403}
    assert seen["zones"] == ["A1"]


def test_a_cartography_row_grants_the_whole_cartography_whatever_item_rows_it_has(
    client, db, m, make_user, login
):
    user = member_limited_to(
        db, m, make_user, (("cartography", "C1"), ("function", "F1"), ("activity", "A12"))
    )
    seen = everything(Reader(client, m, login(user)))
    assert seen["page.activities"] == EVERYTHING["page.activities"]
    assert seen["subject list"] == (["S1", "S2", "S3"], 3)


def test_a_user_sees_what_any_of_their_groups_sees(client, db, m, make_user, login):
    # One group limited to F1, another to F2: both functions, all of C1's subjects.
    both = member_limited_to(db, m, make_user, (("function", "F1"),), (("function", "F2"),))
    r = Reader(client, m, login(both))
    assert r.subjects() == (["S1", "S2", "S3"], 3)
    assert [f["code"] for f in r.get(f"/cartography/{m.cartography('C1')}/functions")] == ["F1", "F2"]

    # A group limited to A12 and another to C2 whole; an unrestricted group undoes every limit.
    other = make_user("autre")
    limit(db, other.groups[0], ids(m, (("activity", "A12"),)))
    c2 = Group(name="C2 entière")
    db.add(c2)
    db.flush()
    limit(db, c2, ids(m, (("cartography", "C2"),)))
    other.groups.append(c2)
    db.commit()
    r = Reader(client, m, login(other))
    assert r.subjects() == (["S3", "T1"], 2)
    free = Group(name="Libre")
    db.add(free)
    other.groups.append(free)
    db.commit()
    assert r.subjects() == (["S1", "S2", "S3", "T1"], 4)


@pytest.mark.parametrize(
    ("rows", "filters"),
    [
        pytest.param(
            (("function", "F1"),),
            {"function oneOf {F2}": [], "location oneOf {F2}": [], "location oneOf {C1}": ["S1", "S3"]},
            id="by-function",
        ),
        pytest.param(
            (("activity", "A12"),),
            {
                "activity oneOf {A1}": ["S3"],
                "activity oneOf {A11}": [],
                "location oneOf {A2}": [],
                "location oneOf {A1}": ["S3"],
                "function oneOf {F1}": ["S3"],
                "location oneOf {SITE}": ["S3"],
            },
            id="by-activity",
        ),
    ],
)
def test_filters_only_narrow_what_is_visible(client, db, m, make_user, login, rows, filters):
    r = Reader(client, m, login(member_limited_to(db, m, make_user, rows)))
    names = {
        "F1": m.function("F1"),
        "F2": m.function("F2"),
        "A1": m.activity("A1"),
        "A11": m.activity("A11"),
        "A2": m.activity("A2"),
        "C1": m.cartography("C1"),
        "SITE": m.site_id,
    }
    for text, codes in filters.items():
        assert r.subjects(text.format(**names)) == (codes, len(codes)), text


@pytest.mark.parametrize(
    ("rows", "function", "activity", "status"),
    [
        pytest.param((("function", "F1"),), "F2", "A2", 400, id="hidden-function"),
        pytest.param((("function", "F1"),), "F1", "A2", 200, id="seen-function"),
        pytest.param((("activity", "A12"),), "F1", "A11", 400, id="hidden-activity"),
        pytest.param((("activity", "A12"),), "F2", "A121", 200, id="seen-activity"),
        pytest.param((("activity", "A12"),), "F2", "A1", 400, id="activity-above-a-seen-one"),
    ],
)
def test_a_subject_is_created_only_where_its_author_would_see_it(
    client, db, m, make_user, login, rows, function, activity, status
):
    headers = login(member_limited_to(db, m, make_user, rows))
    body = {
        "name": "Nouveau",
        "type": "risk",
        "cartographyId": m.cartography("C1"),
        "functionId": m.function(function),
        "activityId": m.activity(activity),
    }
    response = client.post(f"{API}/subject", json=body, headers=headers)
    assert response.status_code == status, response.text
    if status == 200:
        assert client.get(f"{API}/subject/{response.json()['id']}", headers=headers).status_code == 200


def test_visits_leave_out_the_subjects_of_hidden_items(client, db, m, make_user, login):
    user = make_user("visiteuse")
    headers = login(user)
    for code in ("S1", "S2", "S3"):
        assert client.get(f"{API}/subject/{m.subject(code)}", headers=headers).status_code == 200
    limit(db, user.groups[0], ids(m, (("activity", "A12"),)))
    visits = client.get(f"{API}/account/visits", headers=headers).json()
    assert [v["subjectId"] for v in visits] == [m.subject("S3")]


def test_the_groups_listed_for_an_item_are_those_whose_members_open_it(client, db, m, make_user, login):
    """allowedGroupsForItem and the reads apply the same rule to functions, activities and subjects."""
    admin = login(make_user("admin", ["perm_SetPermissions"]))
    limits: dict[str, Items] = {
        "free": (),
        "f1": (("function", "F1"),),
        "a12": (("activity", "A12"),),
        "f2-a1": (("function", "F2"), ("activity", "A1")),
        "c2": (("cartography", "C2"),),
    }
    members = {}
    for name, items in limits.items():
        members[name] = make_user(name)
        if items:
            limit(db, members[name].groups[0], ids(m, items))
    items = [
        *(("function", f"/function/{m.function(c)}", m.function(c)) for c in ("F1", "F2", "G1")),
        *(
            ("activity", f"/item/activity/{m.activity(c)}", m.activity(c))
            for c in ("A1", "A11", "A121", "A2")
        ),
        *(("subject", f"/subject/{m.subject(c)}", m.subject(c)) for c in ("S1", "S2", "S3", "T1")),
    ]
    for kind, path, item_id in items:
        response = client.get(f"{API}/permission/allowedGroupsForItem/{kind}/{item_id}", headers=admin)
        assert response.status_code == 200, response.text
        listed = {g["id"] for g in response.json()}
        for name, member in members.items():
            opens = client.get(f"{API}{path}", headers=login(member)).status_code
            assert opens == (200 if member.groups[0].id in listed else 403), (name, path)
