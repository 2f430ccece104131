"""The demo's standardized mind map and diagram (demo.mindmap_extras): USI-002's tree changed after it
was standardized, so the comparison shows a node added, one renamed and one whose status changed;
USI-001 has a PNG diagram; seeding again changes nothing (tests/mapping/test_mapping_demo.py counts)."""

from sqlalchemy import select

from mapping.test_mapping_demo import demo_login
from spot import demo
from spot.demo import mindmap_extras
from spot.mapping.models import Subject
from support import API


def test_the_comparison_shows_changes_and_a_subject_has_a_diagram_seeded_once(demo_org, client, db):
    demo.seed(db)
    db.commit()
    headers = demo_login(client, db, "createur")
    standardized = db.scalar(select(Subject).where(Subject.code == mindmap_extras.STANDARDIZED))
    assert standardized is not None
    body = client.get(f"{API}/subject/{standardized.id}/mindmap/standardized", headers=headers).json()
    kinds = {d["code"]: d["kinds"] for d in body["differences"]}
    assert kinds[0] == ["statusChanged"]
    assert sorted(kinds.values()) == [["added"], ["renamed"], ["statusChanged"]]
    names = {n["code"]: n["name"] for n in body["nodes"]}
    renamed = next(code for code, k in kinds.items() if k == ["renamed"])
    assert names[renamed] in mindmap_extras.EARLIER_NAMES.values()
    with_diagram = db.scalar(select(Subject).where(Subject.code == mindmap_extras.DIAGRAM_SUBJECT))
    assert with_diagram is not None and with_diagram.has_diagram
    served = client.get(f"{API}/subject/{with_diagram.id}/diagram/file", headers=headers)
    assert served.status_code == 200
    assert served.headers["content-type"] == "image/png"
