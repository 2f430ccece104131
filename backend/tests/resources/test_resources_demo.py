from sqlalchemy import select

from mapping.test_mapping_demo import demo_login
from spot import demo
from spot.mapping.models import Function, Subject
from spot.resources.models import Resource
from support import API


def test_the_demo_shows_each_kind_of_resource_on_a_subject_and_a_function(demo_org, client, db):
    demo.seed(db)
    db.commit()
    headers = demo_login(client, db, "operatrice")
    subject = db.scalar(select(Subject.id).where(Subject.code == "USI-001"))
    function = db.scalar(select(Resource.parent_id).where(Resource.parent_type == "function"))
    assert db.get(Function, function) is not None
    for parent_type, parent_id in (("subject", subject), ("function", function)):
        gallery = client.get(f"{API}/resource/{parent_type}/{parent_id}", headers=headers).json()
        resources = gallery["resources"]
        assert [r["resourceType"] for r in resources] == ["image", "pdf", "link", "youtube"]
        image, pdf = resources[0], resources[1]
        assert client.get(image["thumbnailUrl"], headers=headers).headers["content-type"] == "image/jpeg"
        assert client.get(pdf["fileUrl"], headers=headers).content.startswith(b"%PDF")
        assert gallery["can"] == {"edit": False}
