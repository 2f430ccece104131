"""The demo's subjects have real mind maps: trees two or three levels deep, with every status."""

from sqlalchemy import func, select

from spot import demo
from spot.demo.mapping import SUBJECTS, TREES, mind_map_nodes
from spot.mapping.models import MindMapItem, Subject


def _depth(nodes):
    parents = {n["code"]: n.get("parentCode") for n in nodes}

    def depth(code):
        return 0 if parents[code] is None else 1 + depth(parents[code])

    return max(depth(code) for code in parents)


def test_the_demo_trees_are_deep_and_contiguous():
    rows = {row[0]: row for rows in SUBJECTS.values() for row in rows}
    for code in TREES:
        _code, name, *_rest, flat = rows[code]
        nodes = mind_map_nodes(code, name, flat)
        assert _depth(nodes) >= 2, code
        assert sorted(n["code"] for n in nodes) == list(range(len(nodes)))
        siblings = {}
        for n in nodes:
            siblings.setdefault(n.get("parentCode"), []).append(n["position"])
        assert all(sorted(p) == list(range(len(p))) for p in siblings.values()), code


def test_the_seeded_demo_has_trees_and_stays_idempotent(demo_org, db):

    def nodes():
        db.expire_all()
        return db.execute(
            select(
                Subject.code,
                MindMapItem.code,
                MindMapItem.parent_id,
                MindMapItem.position,
                MindMapItem.status,
            )
            .join(Subject, Subject.id == MindMapItem.subject_id)
            .order_by(Subject.code, MindMapItem.code)
        ).all()

    first = nodes()
    demo.seed(db)
    db.commit()
    assert nodes() == first
    statuses = {status for *_rest, status in first}
    assert {"inProgress", "toValidate", "validated"} <= statuses
    deep = db.scalar(
        select(func.count())
        .select_from(MindMapItem)
        .where(MindMapItem.parent_id.in_(select(MindMapItem.id).where(MindMapItem.code != 0)))
    )
    assert deep >= 30
    orphans = [row for row in first if row[1] != 0 and row[2] is None]
    assert orphans == []
