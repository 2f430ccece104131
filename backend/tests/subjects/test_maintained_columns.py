"""Columns that other data determine, kept for the lists' filters and sorts: they must follow every
way a subject or its mind map is written (the API, map bundles, plain SQL)."""

from sqlalchemy import delete, select, text, update

from mapping.maps import document, load
from spot.mapping.models import Cartography, MindMapItem, Subject
from spot.querylang.text import fold
from support import API

EDIT = "perm_EditPdv"


def assert_folded_texts_follow(db) -> None:
    db.expire_all()
    rows = db.execute(select(Subject.code, Subject.code_folded, Subject.name, Subject.name_folded)).all()
    assert rows
    assert [(fold(code), fold(name)) for code, _, name, _ in rows] == [(c, n) for _, c, _, n in rows]


def assert_main_node_status_follows(db) -> None:
    db.expire_all()
    main = select(MindMapItem.status).where(MindMapItem.subject_id == Subject.id, MindMapItem.code == 0)
    rows = db.execute(select(Subject.code, Subject.main_node_status, main.scalar_subquery())).all()
    assert rows
    assert [(code, kept) for code, kept, _ in rows] == [(code, actual) for code, _, actual in rows]


def test_folded_code_and_name_follow_every_write(client, db, test_map, make_user, login):
    assert_folded_texts_follow(db)  # the import
    headers = login(make_user(permissions=[EDIT]))
    body = {
        "name": "Écraser l'ŒUVRE",
        "type": "risk",
        "cartographyId": test_map.cartography("C1"),
        "functionId": test_map.function("F1"),
        "activityId": test_map.activity("A12"),
    }
    created = client.post(f"{API}/subject", json=body, headers=headers).json()["id"]
    version = client.get(f"{API}/subject/{created}", headers=headers).json()["version"]
    renamed = {**body, "name": "Déjà VU", "version": version}
    assert client.post(f"{API}/subject/{created}", json=renamed, headers=headers).status_code == 200
    client.post(f"{API}/subject/{created}/duplicate", headers=headers)
    client.post(f"{API}/subject/{created}/duplicate", json={**body, "name": "Noël"}, headers=headers)
    assert_folded_texts_follow(db)
    assert db.scalar(select(Subject.name_folded).where(Subject.id == created)) == "deja vu"

    changed = document()
    changed["cartographies"][0]["subjects"][1]["name"] = "Mesurer À NOUVEAU"
    load(db, changed)  # a re-import renames S2
    assert_folded_texts_follow(db)
    assert db.scalar(select(Subject.name_folded).where(Subject.code == "S2")) == "mesurer a nouveau"


def test_main_node_status_follows_the_mind_map_whoever_writes_it(client, db, test_map, make_user, login):
    assert_main_node_status_follows(db)
    assert db.scalar(select(Subject.main_node_status).where(Subject.code == "S1")) == "inProgress"
    headers = login(make_user(permissions=[EDIT]))
    body = {
        "name": "Nouveau",
        "cartographyId": test_map.cartography("C1"),
        "functionId": test_map.function("F1"),
        "activityId": test_map.activity("A12"),
    }
    created = client.post(f"{API}/subject", json=body, headers=headers).json()["id"]
    copy = client.post(f"{API}/subject/{test_map.subject('S1')}/duplicate", headers=headers).json()["id"]
    assert_main_node_status_follows(db)
    assert db.scalar(select(Subject.main_node_status).where(Subject.id == created)) == "empty"
    assert db.scalar(select(Subject.main_node_status).where(Subject.id == copy)) == "inProgress"

    changed = document()
    changed["cartographies"][0]["subjects"][0]["mindMap"][0]["status"] = "validated"
    load(db, changed)
    assert_main_node_status_follows(db)
    assert db.scalar(select(Subject.main_node_status).where(Subject.code == "S1")) == "validated"

    # Plain SQL too: the node's status, the node's code, the node itself.
    s1 = test_map.subject("S1")
    db.execute(
        update(MindMapItem)
        .where(MindMapItem.subject_id == s1, MindMapItem.code == 0)
        .values(status="toValidate")
    )
    db.commit()
    assert_main_node_status_follows(db)
    db.execute(update(MindMapItem).where(MindMapItem.subject_id == s1, MindMapItem.code == 0).values(code=5))
    db.commit()
    assert_main_node_status_follows(db)
    assert db.scalar(select(Subject.main_node_status).where(Subject.id == s1)) is None
    db.execute(update(MindMapItem).where(MindMapItem.subject_id == s1, MindMapItem.code == 1).values(code=0))
    db.commit()
    assert db.scalar(select(Subject.main_node_status).where(Subject.id == s1)) == "validated"
    db.execute(delete(MindMapItem).where(MindMapItem.subject_id == s1, MindMapItem.code == 0))
    db.commit()
    assert_main_node_status_follows(db)


def test_lists_filter_on_the_kept_main_node_status(client, db, test_map, make_user, login):
    headers = login(make_user())
    query = {"filter": "node_status oneOf inProgress", "sort": "code"}
    found = client.post(f"{API}/subject/query", json=query, headers=headers).json()
    assert [(s["code"], s["mainNodeStatus"]) for s in found["results"]] == [("S1", "inProgress")]
    db.execute(
        text("DELETE FROM mind_map_item WHERE code = 0 AND subject_id = :id"), {"id": test_map.subject("S1")}
    )
    db.commit()
    none = client.post(
        f"{API}/subject/query", json={**query, "filter": "node_status noneOf empty"}, headers=headers
    )
    assert [(s["code"], s["mainNodeStatus"]) for s in none.json()["results"]] == [("S1", None)]


def test_deleting_a_cartography_deletes_its_subjects_and_their_nodes(db, test_map):
    db.execute(delete(Cartography).where(Cartography.id == test_map.cartography("C1")))
    db.commit()
    assert db.scalars(select(Subject.code).order_by(Subject.code)).all() == ["T1"]
    assert_main_node_status_follows(db)
