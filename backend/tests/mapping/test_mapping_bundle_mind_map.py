"""The map bundle carries each subject's mind map as a tree (parentCode, position, text); bundles
written before put every node under the main node, in code order."""

import io
import json
import zipfile

import pytest
from sqlalchemy import delete

from mapping.maps import Map, document, import_map, make_zip
from spot.mapping.models import Site
from support import API, assert_error

TREE = [
    {"code": 0, "name": "Changer une plaquette", "status": "inProgress"},
    {
        "code": 1,
        "name": "Consigner",
        "status": "validated",
        "parentCode": 0,
        "position": 1,
        "text": "Cadenas",
    },
    {"code": 2, "name": "Dangers", "status": "toValidate", "parentCode": 0, "position": 0},
    {"code": 5, "name": "Coupure", "status": "inProgress", "parentCode": 2, "position": 1, "text": "L1\nL2"},
    {"code": 3, "name": "Projection", "status": "inProgress", "parentCode": 2, "position": 0},
    {"code": 4, "name": "Gants", "status": "validated", "parentCode": 5, "position": 0},
]


@pytest.fixture
def admin(make_user, login):
    return login(make_user("admin-carte", ["perm_SetPermissions", "perm_EditNotHaute"]))


def _with_mind_map(nodes):
    doc = document()
    doc["cartographies"][0]["subjects"][0]["mindMap"] = nodes
    return doc


def _import(client, headers, doc):
    return import_map(client, content=make_zip(doc), headers=headers)


def _shape(client, headers, subject_id):
    body = client.get(f"{API}/subject/{subject_id}/mindmap", headers=headers).json()
    return [
        (n["code"], n["parentCode"], n["position"], n["name"], n["text"], n["status"]) for n in body["nodes"]
    ]


def _exported_mind_map(client, headers, site_id):
    exported = client.get(f"{API}/mapping/export/{site_id}", headers=headers)
    assert exported.status_code == 200
    with zipfile.ZipFile(io.BytesIO(exported.content)) as archive:
        doc = json.loads(archive.read("map.json"))
    return exported.content, doc["cartographies"][0]["subjects"][0]["mindMap"]


def test_the_tree_round_trips(client, db, admin):
    assert _import(client, admin, _with_mind_map(TREE)).status_code == 200
    m = Map(db)
    expected = [
        (0, None, 0, "Changer une plaquette", "", "inProgress"),
        (2, 0, 0, "Dangers", "", "toValidate"),
        (3, 2, 0, "Projection", "", "inProgress"),
        (5, 2, 1, "Coupure", "L1\nL2", "inProgress"),
        (4, 5, 0, "Gants", "", "validated"),
        (1, 0, 1, "Consigner", "Cadenas", "validated"),
    ]
    assert _shape(client, admin, m.subject("S1")) == expected
    content, nodes = _exported_mind_map(client, admin, m.site_id)
    assert {n["code"]: (n["parentCode"], n["position"], n["text"]) for n in nodes} == {
        0: (None, 0, ""), 1: (0, 1, "Cadenas"), 2: (0, 0, ""),
        3: (2, 0, ""), 4: (5, 0, ""), 5: (2, 1, "L1\nL2"),
    }  # fmt: skip
    db.execute(delete(Site))
    db.commit()
    reimported = import_map(client, content=content, headers=admin)
    assert reimported.status_code == 200, reimported.text
    assert _shape(client, admin, Map(db).subject("S1")) == expected


def test_reimport_moves_and_removes_nodes_by_code(client, db, admin):
    assert _import(client, admin, _with_mind_map(TREE)).status_code == 200
    m = Map(db)
    # 5 leaves (and with it nothing else: its child 4 is kept, now under 1), 3 moves under 1.
    changed = [
        TREE[0],
        {**TREE[1], "position": 0},
        TREE[2],
        {**TREE[4], "parentCode": 1, "position": 1},
        {**TREE[5], "parentCode": 1, "position": 0},
    ]
    assert _import(client, admin, _with_mind_map(changed)).status_code == 200
    assert [(c, p, pos) for c, p, pos, *_ in _shape(client, admin, m.subject("S1"))] == [
        (0, None, 0), (1, 0, 0), (4, 1, 0), (3, 1, 1), (2, 0, 1),
    ]  # fmt: skip


def test_old_bundles_put_nodes_under_the_main_node_in_code_order(client, db, admin):
    old = [
        {"code": 3, "name": "Trois", "status": "inProgress"},
        {"code": 0, "name": "Principal", "status": "empty"},
        {"code": 1, "name": "Un", "status": "validated"},
    ]
    assert _import(client, admin, _with_mind_map(old)).status_code == 200
    assert [(c, p, pos) for c, p, pos, *_ in _shape(client, admin, Map(db).subject("S1"))] == [
        (0, None, 0), (1, 0, 0), (3, 0, 1),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "nodes",
    [
        [{"code": 0, "name": "P", "parentCode": 1}, {"code": 1, "name": "Un"}],
        [{"code": 0, "name": "P"}, {"code": 1, "name": "Un", "parentCode": 9}],
        [
            {"code": 0, "name": "P"},
            {"code": 1, "name": "Un", "parentCode": 2},
            {"code": 2, "name": "D", "parentCode": 1},
        ],
        [{"code": 0, "name": "P"}, {"code": 1, "name": "Un", "parentCode": 1}],
        [{"code": 0, "name": "P"}, {"code": 1, "name": "Un", "position": -1}],
        [{"code": 0, "name": "P"}, {"code": 1, "name": "Un", "text": "x" * 5001}],
    ],
)
def test_a_bad_tree_is_refused(client, admin, nodes):
    assert_error(_import(client, admin, _with_mind_map(nodes)), 400)
