import pytest
from sqlalchemy import select

from resources.gallery import EDIT, PDF, add, gallery_url
from spot.discussions.models import Discussion, DiscussionMessage


def system_messages(db, parent_type, parent_id):
    db.expire_all()
    return [
        (m.author_id, m.system_type, m.system_args)
        for m in db.scalars(
            select(DiscussionMessage)
            .join(Discussion, Discussion.id == DiscussionMessage.discussion_id)
            .where(Discussion.parent_type == parent_type, Discussion.parent_id == parent_id)
            .order_by(DiscussionMessage.id)
        )
    ]


@pytest.mark.parametrize("parent_type, code", [("subject", "S1"), ("function", "F1"), ("cartography", "C1")])
def test_each_change_writes_a_system_message_on_the_parents_discussion(
    client, db, test_map, make_user, login, parent_type, code
):
    user = make_user(permissions=[EDIT])
    headers = login(user)
    parent = (parent_type, getattr(test_map, parent_type)(code))
    resource = add(client, headers, parent, "pdf", "Notice été", "notice.pdf", PDF).json()
    url = gallery_url(*parent) + f"/{resource['id']}"
    body = {"name": "Notice 2", "link": "notice.pdf", "comment": "", "version": resource["version"]}
    assert client.post(f"{url}/update", json=body, headers=headers).status_code == 200
    assert client.delete(url, headers=headers).status_code == 204
    assert system_messages(db, *parent) == [
        (user.id, "resourceCreated", {"name": "Notice été", "resourceType": "pdf"}),
        (user.id, "resourceUpdated", {"name": "Notice 2", "resourceType": "pdf"}),
        (user.id, "resourceDeleted", {"name": "Notice 2", "resourceType": "pdf"}),
    ]


def test_a_refused_change_writes_no_message(client, db, test_map, make_user, login):
    headers = login(make_user(permissions=[EDIT]))
    parent = ("subject", test_map.subject("S1"))
    add(client, headers, parent, "link", "Lien", "ftp://example.org")
    add(client, headers, parent, "pdf", "Notice", "notice.pdf", b"not a pdf")
    assert system_messages(db, *parent) == []
