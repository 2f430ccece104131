"""The bell (GET /account/alerts): what is awaited from the signed-in user. Today: the subjects they
follow that changed since their last visit (or that they never visited), newest first, only those
they may read, at most 50 with the exact count."""

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from mapping.maps import Map, restrict
from spot.alerts.service import LIMIT
from spot.mapping.models import Subject
from spot.subjects.models import SubjectVisit
from spot.users.models import User
from support import API, assert_error

URL = f"{API}/account/alerts"
T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def followed(
    db,
    user: User,
    subject_id: int,
    *,
    updated: datetime,
    visited: datetime | None = None,
    mind_map: datetime | None = None,
) -> None:
    """The user follows the subject, last updated at `updated`, and last visited it at `visited`
    (never when None)."""
    db.execute(
        update(Subject)
        .where(Subject.id == subject_id)
        .values(followed_by=user.id, followed_at=at(-60), updated_at=updated, last_mindmap_update=mind_map)
        .execution_options(synchronize_session=False)
    )
    if visited is not None:
        db.add(SubjectVisit(user_id=user.id, subject_id=subject_id, visited_at=visited))
    db.commit()


def bell(client, headers) -> dict:
    response = client.get(URL, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def targets(body: dict) -> list[int]:
    assert all(alert["target"]["type"] == "subject" for alert in body["alerts"])
    return [alert["target"]["id"] for alert in body["alerts"]]


def test_a_followed_subject_changed_after_the_visit_is_an_alert(client, db, test_map: Map, make_user, login):
    user = make_user()
    s1 = test_map.subject("S1")
    followed(db, user, s1, visited=at(0), updated=at(5))
    body = bell(client, login(user))
    assert body == {
        "alerts": [
            {
                "kind": "subjectChanged",
                "args": {"name": "Changer une plaquette"},
                "date": iso(at(5)),
                "target": {"type": "subject", "id": s1},
            }
        ],
        "count": 1,
    }


def test_a_mind_map_changed_after_the_visit_is_an_alert_dated_by_it(client, db, test_map, make_user, login):
    user = make_user()
    followed(db, user, test_map.subject("S1"), visited=at(10), updated=at(0), mind_map=at(20))
    body = bell(client, login(user))
    assert targets(body) == [test_map.subject("S1")]
    assert body["alerts"][0]["date"] == iso(at(20))


def test_no_alert_for_a_followed_subject_visited_since_it_changed(client, db, test_map, make_user, login):
    user = make_user()
    followed(db, user, test_map.subject("S1"), visited=at(10), updated=at(5), mind_map=at(9))
    followed(db, user, test_map.subject("S2"), visited=at(5), updated=at(5))
    assert bell(client, login(user)) == {"alerts": [], "count": 0}


def test_a_followed_subject_never_visited_is_an_alert(client, db, test_map, make_user, login):
    user = make_user()
    followed(db, user, test_map.subject("S2"), updated=at(3))
    body = bell(client, login(user))
    assert targets(body) == [test_map.subject("S2")]
    assert body["alerts"][0]["date"] == iso(at(3))


def test_no_alert_for_a_subject_followed_by_someone_else(client, db, test_map, make_user, login):
    follower, other = make_user(), make_user()
    followed(db, follower, test_map.subject("S1"), visited=at(0), updated=at(5))
    db.add(SubjectVisit(user_id=other.id, subject_id=test_map.subject("S1"), visited_at=at(0)))
    db.commit()
    assert bell(client, login(other)) == {"alerts": [], "count": 0}
    assert bell(client, login(follower))["count"] == 1


def test_subjects_of_a_hidden_cartography_are_neither_listed_nor_counted(
    client, db, test_map, make_user, login
):
    user = make_user()
    restrict(db, user, test_map.cartography("C2"))
    followed(db, user, test_map.subject("S1"), visited=at(0), updated=at(5))
    followed(db, user, test_map.subject("T1"), visited=at(0), updated=at(4))
    body = bell(client, login(user))
    assert targets(body) == [test_map.subject("T1")]
    assert body["count"] == 1


def test_newest_change_first(client, db, test_map, make_user, login):
    user = make_user()
    followed(db, user, test_map.subject("S1"), visited=at(0), updated=at(5))
    followed(db, user, test_map.subject("S2"), updated=at(30))
    followed(db, user, test_map.subject("S3"), visited=at(0), updated=at(1), mind_map=at(20))
    body = bell(client, login(user))
    assert targets(body) == [test_map.subject(code) for code in ("S2", "S3", "S1")]
    assert body["count"] == 3


def test_at_most_the_limit_with_the_exact_count(client, db, test_map, make_user, login):
    user = make_user()
    template = db.get(Subject, test_map.subject("S1"))
    assert template is not None
    extra = LIMIT
    for n in range(extra):
        db.add(
            Subject(
                code=f"X{n}",
                name=f"Sujet {n}",
                cartography_id=template.cartography_id,
                function_id=template.function_id,
                activity_id=template.activity_id,
                followed_by=user.id,
                followed_at=at(0),
                updated_at=at(100 + n),
            )
        )
    db.commit()
    for code in ("S1", "S2", "S3"):
        followed(db, user, test_map.subject(code), visited=at(0), updated=at(1))
    body = bell(client, login(user))
    assert body["count"] == LIMIT + 3
    assert len(body["alerts"]) == LIMIT
    newest = [f"Sujet {n}" for n in reversed(range(extra))]
    assert [alert["args"]["name"] for alert in body["alerts"]] == newest


def test_follow_then_a_change_by_someone_else_then_a_visit(client, db, test_map, make_user, login):
    """The journey through the API: following is no change; another user's rating is; visiting the
    subject clears it."""
    follower, rater = login(make_user()), login(make_user())
    subject_url = f"{API}/subject/{test_map.subject('S2')}"
    assert client.post(f"{subject_url}/follow", headers=follower).status_code == 200
    assert bell(client, follower)["count"] == 0
    ratings = {"frequency": 2, "gravity": 3, "detectability": 0}
    assert client.post(f"{subject_url}/rate", json=ratings, headers=rater).status_code == 200
    body = bell(client, follower)
    assert targets(body) == [test_map.subject("S2")]
    changed = db.scalar(select(Subject.updated_at).where(Subject.id == test_map.subject("S2")))
    assert body["alerts"][0]["date"] == iso(changed)
    assert client.get(subject_url, headers=follower).status_code == 200
    assert bell(client, follower) == {"alerts": [], "count": 0}


# Who may ask: any signed-in user, for their own alerts ---------------------------------------------

ROLES = {"nobody": [], "editor": ["perm_EditPdv"], "administrator": ["perm_SetPermissions", "perm_EditPdv"]}


@pytest.mark.parametrize("role", ROLES)
def test_any_signed_in_user_sees_their_own_alerts(client, db, test_map, make_user, login, role):
    user = make_user(permissions=ROLES[role])
    followed(db, user, test_map.subject("S1"), visited=at(0), updated=at(5))
    assert targets(bell(client, login(user))) == [test_map.subject("S1")]


def test_anonymous_is_refused(client):
    assert_error(client.get(URL), 401)
    assert_error(client.get(URL, headers={"x-access-token": "no-such-session"}), 401)
