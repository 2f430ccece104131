from sqlalchemy import func, select

from spot import demo
from spot.db import Base
from spot.mapping.models import Cartography, Subject
from spot.users.models import Group, User
from support import API, PASSWORD, assert_error


def counts(db):
    db.expire_all()
    return {t.name: db.scalar(select(func.count()).select_from(t)) for t in Base.metadata.sorted_tables}


def demo_login(client, db, login_name):
    from spot.core.passwords import hash_password
    from spot.users.models import User

    user = db.scalar(select(User).where(User.login == login_name))
    user.password_hash = hash_password(PASSWORD)
    db.commit()
    token = client.post(f"{API}/account/login", json={"username": login_name, "password": PASSWORD}).json()[
        "token"
    ]
    return {"x-access-token": token}


def test_demo_map_is_seeded_once_and_shows_visibility(demo_org, client, db):
    first = counts(db)
    demo.seed(db)
    db.commit()
    assert counts(db) == first
    assert first["site"] == 1 and first["cartography"] == 2
    assert 35 <= first["subject"] <= 50
    marked = db.scalar(select(func.count()).select_from(Subject).where(Subject.standardized_at.is_not(None)))
    assert marked >= 5
    cartographies = {c.code: c.id for c in db.scalars(select(Cartography))}

    admin = demo_login(client, db, "admin")
    assert len(client.get(f"{API}/cartography", headers=admin).json()) == 2
    learner = demo_login(client, db, "apprenant")
    assert [c["code"] for c in client.get(f"{API}/cartography", headers=learner).json()] == ["USI"]
    assert_error(client.get(f"{API}/cartography/{cartographies['ASM']}", headers=learner), 403)
    page = client.get(f"{API}/cartography/{cartographies['USI']}", headers=learner).json()
    assert page["name"] == "Atelier d'usinage"
    assert sum(a["subjectsCount"] for a in page["activities"]) == 24
    image = client.get(f"{API}/cartography/{cartographies['USI']}/image", headers=learner)
    assert image.headers["content-type"] == "image/png"
    assert len(client.get(f"{API}/cartography/{cartographies['USI']}/zones", headers=learner).json()) > 10


def test_demo_subjects_name_their_creator(demo_org, client, db):
    """The subject page shows "Created on … by …": the demo map is imported by its administrator."""
    admin = db.scalar(select(User).where(User.login == "admin"))
    assert db.scalar(select(func.count()).select_from(Subject).where(Subject.created_by.is_(None))) == 0
    assert {s.created_by for s in db.scalars(select(Subject))} == {admin.id}
    subject = db.scalar(select(Subject).order_by(Subject.code).limit(1))
    headers = demo_login(client, db, "referent")
    page = client.get(f"{API}/subject/{subject.id}", headers=headers).json()
    assert page["lifetimeEvents"]["creation"]["userId"] == admin.id
    assert page["lifetimeEvents"]["creation"]["userName"] == "Alice Martin"


def test_reseeding_names_the_creator_of_demo_subjects_seeded_without_one(demo_org, client, db):
    for subject in db.scalars(select(Subject)):
        subject.created_by = None
    db.commit()
    demo.seed(db)
    db.commit()
    db.expire_all()
    assert db.scalar(select(func.count()).select_from(Subject).where(Subject.created_by.is_(None))) == 0


def test_the_maintenance_group_sees_the_machining_shop_limited_to_maintenance(
    demo_org, client, db, make_user, login
):
    """A demo group limited to one activity (spot.mapping.policy): its branch and its subjects only."""
    cartographies = {c.code: c.id for c in db.scalars(select(Cartography))}
    admin = demo_login(client, db, "admin")
    member = make_user("technicien")
    member.groups = [db.scalar(select(Group).where(Group.name == "Maintenance"))]
    db.commit()
    technician = login(member)
    assert [c["code"] for c in client.get(f"{API}/cartography", headers=technician).json()] == ["USI"]
    assert_error(client.get(f"{API}/cartography/{cartographies['ASM']}", headers=technician), 403)

    page = client.get(f"{API}/cartography/{cartographies['USI']}", headers=technician).json()
    assert [(a["code"], [s["code"] for s in a["activities"]]) for a in page["activities"]] == [
        ("USI-MNT", ["USI-PREV", "USI-DEP"])
    ]
    maintenance = page["activities"][0]["id"]
    query = {"filter": f"activity oneOf {maintenance}", "sort": "code"}
    expected = client.post(f"{API}/subject/query", json=query, headers=admin).json()
    seen = client.post(f"{API}/subject/query", json={"sort": "code"}, headers=technician).json()
    assert 0 < seen["totalItems"] == expected["totalItems"] == page["activities"][0]["subjectsCount"]
    assert [s["code"] for s in seen["results"]] == [s["code"] for s in expected["results"]]
    zones = client.get(f"{API}/cartography/{cartographies['USI']}/zones", headers=technician).json()
    assert {z["itemCode"] for z in zones if z["type"] == "activity"} == {"USI-MNT", "USI-PREV", "USI-DEP"}
