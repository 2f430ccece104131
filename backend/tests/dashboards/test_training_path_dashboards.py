"""Path progress (GET /dashboards/trainingPath) and group progress (GET /dashboards/trainingPath/group/
{groupId}): the figures against a plain-Python computation on generated groups, members and paths, and
the rules at their boundaries: current paths (start today, stop today, canceled), completion levels
(33, 66), rounding half up."""

from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import insert

from dashboards.data import BOARD, GROUPS, TODAY, fix_today, path
from spot import db as database
from spot.training.paths.models import PathStatus
from spot.users.models import Group, user_group

STATUSES = [s.value for s in PathStatus]


@pytest.fixture
def board(make_user, login, monkeypatch):
    fix_today(monkeypatch)
    user = make_user("tableau", [BOARD], first_name="Tania", last_name="Tableau")
    return user, login(user)


def colour_of(completion: int) -> str | None:
    """The spec's colour of a completion (2 §9), as the test computes it."""
    if completion < 0:
        return None
    return "error" if completion < 33 else "accent" if completion < 66 else "success"


def percent(done: int, total: int) -> int:
    """round(done / total × 100) half up, -1 for nothing to count: written with floats on purpose."""
    if total == 0:
        return -1
    value = done / total * 100
    return int(value + 0.5 + 1e-9)


def level(value: int) -> str:
    return "none" if value < 0 else "high" if value > 66 else "medium" if value >= 33 else "low"


# Generated data ----------------------------------------------------------------------------------------

PEOPLE = 5
GROUP_COUNT = 3

paths_strategy = st.lists(
    st.tuples(
        st.integers(0, PEOPLE - 1),  # learner
        st.integers(-3, 3),  # start, days from today
        st.integers(-3, 3),  # stop, days from today
        st.sampled_from(STATUSES),
        st.integers(0, 7),  # done
        st.integers(0, 7),  # total
    ),
    max_size=12,
)
memberships_strategy = st.sets(st.tuples(st.integers(0, PEOPLE - 1), st.integers(0, GROUP_COUNT - 1)))


def wipe() -> None:
    """Every table emptied, as after a test: each generated example starts from nothing."""
    with database.get_engine().begin() as conn:
        for table in reversed(database.Base.metadata.sorted_tables):
            conn.execute(table.delete())


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(paths=paths_strategy, memberships=memberships_strategy)
def test_figures_match_a_plain_computation(client, db, make_user, login, monkeypatch, paths, memberships):
    fix_today(monkeypatch)
    wipe()
    db.expunge_all()
    manager = make_user("tableau", [BOARD])
    headers = login(manager)
    people = [make_user(f"p{i}", first_name=f"P{i}", last_name="Membre") for i in range(PEOPLE)]
    groups = [Group(name=f"Équipe {i}") for i in range(GROUP_COUNT)]
    db.add_all(groups)
    db.flush()
    group_ids = [g.id for g in groups]
    for person, group in memberships:
        db.execute(insert(user_group).values(user_id=people[person].id, group_id=group_ids[group]))
    for learner, start, stop, status, done, total in paths:
        path(
            db,
            people[learner].id,
            start=TODAY + timedelta(days=start),
            stop=TODAY + timedelta(days=stop),
            status=status,
            done=min(done, total),
            total=total,
        )
    db.commit()

    # The plain computation.
    sums: dict[int, list[int]] = {}
    for learner, start, stop, status, done, total in paths:
        if start <= 0 <= stop and status != "canceled":
            entry = sums.setdefault(people[learner].id, [0, 0])
            entry[0] += min(done, total)
            entry[1] += total
    completion = {user_id: percent(done, total) for user_id, (done, total) in sums.items()}
    members: dict[int, list[int]] = {g: [] for g in group_ids}
    for person, group in memberships:
        members[group_ids[group]].append(people[person].id)
    # Every user's own group (make_user) holds that user only.
    expected = {}
    for user in [manager, *people]:
        members[user.groups[0].id] = [user.id]
    for group_id, ids in members.items():
        told = [completion[i] for i in ids if completion.get(i, -1) >= 0]
        expected[group_id] = {
            "users": len(ids),
            "withPaths": sum(1 for i in ids if i in completion),
            "completion": percent(sum(told), 100 * len(told)) if told else -1,
            "completionColour": colour_of(percent(sum(told), 100 * len(told)) if told else -1),
            "high": sum(1 for c in told if c > 66),
            "medium": sum(1 for c in told if 33 <= c <= 66),
            "low": sum(1 for c in told if c < 33),
        }

    response = client.get(GROUPS, headers=headers)
    assert response.status_code == 200, response.text
    answered = {
        g["id"]: {k: v for k, v in g.items() if k not in ("id", "name")} for g in response.json()["groups"]
    }
    assert answered == expected
    names = [g["name"] for g in response.json()["groups"]]
    assert names == sorted(names)

    for group_id in group_ids:
        response = client.get(f"{GROUPS}/group/{group_id}", headers=headers)
        assert response.status_code == 200, response.text
        users = response.json()["users"]
        assert sorted(u["id"] for u in users) == sorted(members[group_id])
        for user in users:
            value = completion.get(user["id"], -1)
            assert (user["completion"], user["level"], user["completionColour"]) == (
                value,
                level(value),
                colour_of(value),
            )
            assert [(p["completion"], p["completionColour"]) for p in user["paths"]] == [
                (percent(p["done"], p["total"]), colour_of(percent(p["done"], p["total"])))
                for p in _expected_paths(paths, people, user["id"])
            ]


def _expected_paths(paths, people, user_id):
    current = [
        {"done": min(done, total), "total": total, "stop": stop, "start": start}
        for learner, start, stop, status, done, total in paths
        if people[learner].id == user_id and start <= 0 <= stop and status != "canceled"
    ]
    # Ties on dates are ordered by id, that is by creation: a stable sort keeps the generated order.
    return sorted(current, key=lambda p: (p["stop"], p["start"]))


# Boundaries ------------------------------------------------------------------------------------------


@pytest.fixture
def team(db, make_user, board):
    manager, headers = board
    group = Group(name="Atelier")
    db.add(group)
    db.commit()
    return group, headers


def join(db, group, *users):
    for user in users:
        db.execute(insert(user_group).values(user_id=user.id, group_id=group.id))
    db.commit()


def test_current_paths_at_their_boundaries(client, db, make_user, team):
    group, headers = team
    anne = make_user("anne", first_name="Anne", last_name="Aubry")
    join(db, group, anne)
    day = timedelta(days=1)
    current = {
        "start today": path(db, anne.id, start=TODAY, stop=TODAY + day, done=1, total=4, title="start today"),
        "stop today": path(db, anne.id, start=TODAY - day, stop=TODAY, done=3, total=4, title="stop today"),
        "one day": path(db, anne.id, start=TODAY, stop=TODAY, status="notAccepted", title="one day"),
    }
    for status in ("validated", "archived", "finished", "accepted"):
        current[status] = path(
            db, anne.id, start=TODAY - day, stop=TODAY + day, status=status, title=status, total=0
        )
    # Not current: starts tomorrow, stopped yesterday, canceled.
    path(db, anne.id, start=TODAY + day, stop=TODAY + 3 * day, done=0, total=10, title="tomorrow")
    path(db, anne.id, start=TODAY - 3 * day, stop=TODAY - day, done=0, total=10, title="yesterday")
    path(
        db,
        anne.id,
        start=TODAY - day,
        stop=TODAY + day,
        status="canceled",
        done=0,
        total=10,
        title="canceled",
    )
    db.commit()
    body = client.get(f"{GROUPS}/group/{group.id}", headers=headers).json()
    assert body["group"] == {"id": group.id, "name": "Atelier"}
    (user,) = body["users"]
    assert user["name"] == "Anne Aubry"
    assert sorted(p["id"] for p in user["paths"]) == sorted(current.values())
    # (1 + 3) / (4 + 4): 50 %.
    assert (user["completion"], user["level"]) == (50, "medium")
    start_today = next(p for p in user["paths"] if p["id"] == current["start today"])
    assert start_today == {
        "id": current["start today"],
        "title": "start today",
        "status": "started",
        "startDate": TODAY.isoformat(),
        "stopDate": (TODAY + day).isoformat(),
        "completion": 25,
        "completionColour": "error",
    }
    assert next(p for p in user["paths"] if p["id"] == current["one day"])["completion"] == -1
    group_row = next(g for g in client.get(GROUPS, headers=headers).json()["groups"] if g["id"] == group.id)
    assert group_row == {
        "id": group.id,
        "name": "Atelier",
        "users": 1,
        "withPaths": 1,
        "completion": 50,
        "completionColour": "accent",
        "high": 0,
        "medium": 1,
        "low": 0,
    }


# The level (spec 2 §4: high above 66) and the colour (§9: success from 66) are two rules of the spec.
@pytest.mark.parametrize(
    ("done", "total", "completion", "level", "colour"),
    [
        (0, 0, -1, "none", None),
        (0, 5, 0, "low", "error"),
        (32, 100, 32, "low", "error"),
        (329, 1000, 33, "medium", "accent"),  # 32.9 rounds to 33
        (1, 3, 33, "medium", "accent"),
        (33, 100, 33, "medium", "accent"),
        (65, 100, 65, "medium", "accent"),
        (66, 100, 66, "medium", "success"),
        (2, 3, 67, "high", "success"),  # 66.67
        (661, 1000, 66, "medium", "success"),
        (665, 1000, 67, "high", "success"),  # half up
        (67, 100, 67, "high", "success"),
        (1, 8, 13, "low", "error"),  # 12.5 rounds up
        (5, 5, 100, "high", "success"),
    ],
)
def test_completion_levels_and_colours_at_their_boundaries(
    client, db, make_user, team, done, total, completion, level, colour
):
    group, headers = team
    user = make_user("bruno")
    join(db, group, user)
    path(db, user.id, start=TODAY, stop=TODAY, done=done, total=total)
    db.commit()
    (answered,) = client.get(f"{GROUPS}/group/{group.id}", headers=headers).json()["users"]
    told = (answered["completion"], answered["level"], answered["completionColour"])
    assert told == (completion, level, colour)
    row = next(g for g in client.get(GROUPS, headers=headers).json()["groups"] if g["id"] == group.id)
    counts = {"high": 0, "medium": 0, "low": 0} | ({level: 1} if level != "none" else {})
    assert row == {
        "id": group.id,
        "name": "Atelier",
        "users": 1,
        "withPaths": 1,
        "completion": completion,
        "completionColour": colour,
        **counts,
    }


def test_group_average_over_the_members_that_can_be_told(client, db, make_user, team):
    group, headers = team
    a, b, c, d = (make_user(login) for login in ("a", "b", "c", "d"))
    join(db, group, a, b, c, d)
    path(db, a.id, start=TODAY, stop=TODAY, done=1, total=2)  # 50
    path(db, b.id, start=TODAY, stop=TODAY, done=1, total=1)  # 100
    path(db, c.id, start=TODAY, stop=TODAY, done=0, total=0)  # -1: a current path, nothing to count
    db.commit()  # d: no path
    row = next(g for g in client.get(GROUPS, headers=headers).json()["groups"] if g["id"] == group.id)
    assert row == {
        "id": group.id,
        "name": "Atelier",
        "users": 4,
        "withPaths": 3,
        "completion": 75,
        "completionColour": "success",
        "high": 1,
        "medium": 1,
        "low": 0,
    }
    users = client.get(f"{GROUPS}/group/{group.id}", headers=headers).json()["users"]
    assert {u["id"]: (u["completion"], u["level"], len(u["paths"])) for u in users} == {
        a.id: (50, "medium", 1),
        b.id: (100, "high", 1),
        c.id: (-1, "none", 1),
        d.id: (-1, "none", 0),
    }


def test_a_deactivated_member_leaves_the_group_figures(client, db, make_user, team):
    group, headers = team
    staying, leaving = make_user("reste"), make_user("parti")
    join(db, group, staying, leaving)
    path(db, staying.id, start=TODAY, stop=TODAY, done=1, total=2)
    path(db, leaving.id, start=TODAY, stop=TODAY, done=2, total=2)
    leaving.active = False
    db.commit()
    row = next(g for g in client.get(GROUPS, headers=headers).json()["groups"] if g["id"] == group.id)
    assert (row["users"], row["withPaths"], row["completion"]) == (1, 1, 50)
    users = client.get(f"{GROUPS}/group/{group.id}", headers=headers).json()["users"]
    assert [u["id"] for u in users] == [staying.id]


def test_an_empty_group(client, db, team):
    group, headers = team
    row = next(g for g in client.get(GROUPS, headers=headers).json()["groups"] if g["id"] == group.id)
    assert row == {
        "id": group.id,
        "name": "Atelier",
        "users": 0,
        "withPaths": 0,
        "completion": -1,
        "completionColour": None,
        "high": 0,
        "medium": 0,
        "low": 0,
    }
    assert client.get(f"{GROUPS}/group/{group.id}", headers=headers).json() == {
        "group": {"id": group.id, "name": "Atelier"},
        "users": [],
    }


def test_members_by_name(client, db, make_user, team):
    group, headers = team
    users = [
        make_user("z", first_name="Zoé", last_name="Adam"),
        make_user("y", first_name="Yves", last_name="Martin"),
        make_user("x", first_name="Alice", last_name="Martin"),
    ]
    join(db, group, *users)
    names = [u["name"] for u in client.get(f"{GROUPS}/group/{group.id}", headers=headers).json()["users"]]
    assert names == ["Zoé Adam", "Alice Martin", "Yves Martin"]


def test_today_moves_with_the_clock(client, db, make_user, team, monkeypatch):
    group, headers = team
    user = make_user("eve")
    join(db, group, user)
    path(db, user.id, start=TODAY, stop=TODAY, done=1, total=1)
    db.commit()
    fix_today(monkeypatch, date(2026, 4, 16))
    (answered,) = client.get(f"{GROUPS}/group/{group.id}", headers=headers).json()["users"]
    assert (answered["completion"], answered["paths"]) == (-1, [])
