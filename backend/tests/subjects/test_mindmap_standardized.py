"""The standardized mind map (docs/mind-map.md): standardizing keeps a copy of the tree, replaced by the next
standardization; GET …/mindmap/standardized gives it with the differences of the live tree."""

import pytest
from sqlalchemy import select

from mapping.maps import restrict
from spot.mapping.models import MindMapItem
from spot.subjects.mindmap.standardized import differences
from spot.subjects.models import StandardizedMindMap
from support import API, assert_error

VALID = "perm_ValidNotHaute"


def url(subject_id):
    return f"{API}/subject/{subject_id}/mindmap/standardized"


def standardize(client, headers, subject_id, comment="Relu"):
    response = client.post(
        f"{API}/subject/{subject_id}/standardize", json={"comment": comment}, headers=headers
    )
    assert response.status_code == 200, response.text


def node(db, subject_id, code):
    return db.scalars(
        select(MindMapItem).where(MindMapItem.subject_id == subject_id, MindMapItem.code == code)
    ).one()


@pytest.fixture
def tree(db, test_map):
    """S1's tree: 0 > (1 > 3), 2, 5 — siblings in that order."""
    subject_id = test_map.subject("S1")
    main = node(db, subject_id, 0)
    main.parent_id, main.position = None, 0
    first = node(db, subject_id, 1)
    first.parent_id, first.position, first.text = main.id, 0, "Couper l'énergie"
    db.flush()
    second = MindMapItem(
        subject_id=subject_id, code=2, name="Démonter", status="toValidate", parent_id=main.id, position=1
    )
    fifth = MindMapItem(
        subject_id=subject_id, code=5, name="Ranger", status="empty", parent_id=main.id, position=2
    )
    db.add_all([second, fifth])
    db.flush()
    db.add(
        MindMapItem(
            subject_id=subject_id, code=3, name="Cadenas", status="inProgress", parent_id=first.id, position=0
        )
    )
    db.commit()
    return subject_id


@pytest.fixture
def validator(make_user, login):
    user = make_user("valideur", [VALID], first_name="Vera", last_name="Valide")
    return login(user)


EXPECTED_NODES = [
    {
        "code": 0,
        "parentCode": None,
        "position": 0,
        "name": "Changer une plaquette",
        "text": "",
        "status": "inProgress",
    },
    {
        "code": 1,
        "parentCode": 0,
        "position": 0,
        "name": "Consigner",
        "text": "Couper l'énergie",
        "status": "validated",
    },
    {"code": 3, "parentCode": 1, "position": 0, "name": "Cadenas", "text": "", "status": "inProgress"},
    {"code": 2, "parentCode": 0, "position": 1, "name": "Démonter", "text": "", "status": "toValidate"},
    {"code": 5, "parentCode": 0, "position": 2, "name": "Ranger", "text": "", "status": "empty"},
]


def test_standardizing_keeps_a_copy_of_the_tree(client, db, tree, validator):
    standardize(client, validator, tree, comment="Relu par la sécurité")
    kept = db.get(StandardizedMindMap, tree)
    assert kept is not None
    assert kept.nodes == EXPECTED_NODES
    body = client.get(url(tree), headers=validator).json()
    assert body["nodes"] == EXPECTED_NODES
    assert body["differences"] == []
    assert body["comment"] == "Relu par la sécurité"
    assert body["standardizedBy"]["name"] == "Vera Valide"
    assert body["standardizedAt"] is not None


def test_a_new_standardization_replaces_the_copy(client, db, tree, validator):
    standardize(client, validator, tree)
    node(db, tree, 5).name = "Nettoyer"
    db.commit()
    assert client.get(url(tree), headers=validator).json()["differences"] == [
        {"code": 5, "kinds": ["renamed"]}
    ]
    standardize(client, validator, tree, comment="Seconde")
    db.expire_all()
    assert len(db.scalars(select(StandardizedMindMap)).all()) == 1
    body = client.get(url(tree), headers=validator).json()
    assert body["differences"] == []
    assert body["comment"] == "Seconde"
    assert [n["name"] for n in body["nodes"] if n["code"] == 5] == ["Nettoyer"]


def test_the_differences_of_each_kind_only_for_nodes_that_differ(client, db, tree, validator):
    standardize(client, validator, tree)
    node(db, tree, 0).status = "validated"  # statusChanged
    node(db, tree, 1).name = "Consigner la machine"  # renamed
    second = node(db, tree, 2)
    second.text = "Dans l'ordre"  # textChanged
    second.parent_id = node(db, tree, 1).id  # moved (another parent)
    second.position = 1
    db.delete(node(db, tree, 3))  # removed
    db.flush()
    db.add(
        MindMapItem(
            subject_id=tree, code=6, name="Vérifier", status="inProgress", parent_id=second.id, position=0
        )
    )
    db.commit()
    body = client.get(url(tree), headers=validator).json()
    assert body["differences"] == [
        {"code": 0, "kinds": ["statusChanged"]},
        {"code": 1, "kinds": ["renamed"]},
        {"code": 2, "kinds": ["textChanged", "moved"]},
        {"code": 3, "kinds": ["removed"]},
        {"code": 6, "kinds": ["added"]},
    ]
    # The copy is the tree as it was.
    assert body["nodes"] == EXPECTED_NODES


def test_another_position_among_the_same_siblings_is_a_move(client, db, tree, validator):
    standardize(client, validator, tree)
    node(db, tree, 2).position, node(db, tree, 5).position = 2, 1
    db.commit()
    body = client.get(url(tree), headers=validator).json()
    assert body["differences"] == [{"code": 2, "kinds": ["moved"]}, {"code": 5, "kinds": ["moved"]}]


def test_differences_compare_every_field():
    base = {"code": 1, "parentCode": 0, "position": 0, "name": "a", "text": "t", "status": "empty"}
    changed = {**base, "name": "b", "text": "u", "status": "validated", "parentCode": 2}
    assert [d.model_dump() for d in differences([changed], [base])] == [
        {"code": 1, "kinds": ["renamed", "textChanged", "statusChanged", "moved"]}
    ]
    assert differences([base], [dict(base)]) == []


def test_not_standardized_answers_404(client, test_map, validator):
    assert_error(client.get(url(test_map.subject("S2")), headers=validator), 404, "notStandardized")


def test_reading_follows_the_subject_visibility(client, db, test_map, tree, validator, make_user, login):
    standardize(client, validator, tree)
    anyone = make_user("lecteur")
    assert client.get(url(tree), headers=login(anyone)).status_code == 200
    outsider = make_user("exterieur")
    restrict(db, outsider, test_map.cartography("C2"))
    assert_error(client.get(url(tree), headers=login(outsider)), 403)
    assert_error(client.get(url(987654), headers=validator), 404, "subjectNotFound")
