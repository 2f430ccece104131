"""The discussion of an item: reading, posting, visibility, and the system messages of subject actions."""

import pytest

from mapping.maps import restrict
from support import API, assert_error, field_codes

EDIT = "perm_EditPdv"


def subject_page(client, headers, subject_id):
    response = client.get(f"{API}/subject/{subject_id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def discussion_of(client, headers, subject_id):
    return subject_page(client, headers, subject_id)["discussionId"]


def thread(client, headers, discussion_id):
    response = client.get(f"{API}/discussion/{discussion_id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def post(client, headers, discussion_id, content):
    return client.post(f"{API}/discussion/{discussion_id}", json={"content": content}, headers=headers)


# Reading and posting ------------------------------------------------------------------------


def test_each_item_of_the_map_has_its_own_discussion(client, test_map, make_user, login):
    headers = login(make_user())
    subject = discussion_of(client, headers, test_map.subject("S1"))
    function = client.get(f"{API}/function/{test_map.function('F1')}", headers=headers).json()["discussionId"]
    cartography = client.get(f"{API}/cartography/{test_map.cartography('C1')}", headers=headers).json()[
        "discussionId"
    ]
    assert len({subject, function, cartography}) == 3
    for discussion_id, parent_type, parent_id in [
        (subject, "subject", test_map.subject("S1")),
        (function, "function", test_map.function("F1")),
        (cartography, "cartography", test_map.cartography("C1")),
    ]:
        body = thread(client, headers, discussion_id)
        assert (body["id"], body["parentType"], body["parentId"]) == (discussion_id, parent_type, parent_id)
        assert body["messages"] == []
        assert body["can"] == {"post": True}
        # The paths to the item end with the item.
        assert all(
            path[-1]["id"] == parent_id and path[-1]["type"] == parent_type for path in body["contexts"]
        )
        assert body["contexts"][0][0]["type"] == "site"


def test_a_posted_message_is_trimmed_and_read_back_oldest_first(client, test_map, make_user, login):
    anne = make_user(first_name="Anne", last_name="Auteur")
    bruno = make_user(first_name="Bruno", last_name="Bavard")
    a, b = login(anne), login(bruno)
    discussion_id = discussion_of(client, a, test_map.subject("S1"))
    first = post(client, a, discussion_id, "  Bonjour,\nune question  \n")
    assert first.status_code == 200, first.text
    assert first.json()["content"] == "Bonjour,\nune question"
    assert first.json()["author"] == {"id": anne.id, "name": "Anne Auteur"}
    assert first.json()["system"] is None
    assert post(client, b, discussion_id, "Réponse").status_code == 200
    messages = thread(client, a, discussion_id)["messages"]
    assert [(m["author"]["name"], m["content"]) for m in messages] == [
        ("Anne Auteur", "Bonjour,\nune question"),
        ("Bruno Bavard", "Réponse"),
    ]
    assert messages[0]["date"] <= messages[1]["date"]
    assert messages[0]["date"].endswith("Z")


@pytest.mark.parametrize("content", ["", "   ", "\n\t \n"])
def test_a_blank_message_is_refused(client, test_map, make_user, login, content):
    headers = login(make_user())
    discussion_id = discussion_of(client, headers, test_map.subject("S1"))
    response = post(client, headers, discussion_id, content)
    assert_error(response, 422)
    assert field_codes(response) == {("content", "emptyFieldError")}
    assert thread(client, headers, discussion_id)["messages"] == []


def test_a_too_long_message_and_control_characters_are_refused(client, test_map, make_user, login):
    headers = login(make_user())
    discussion_id = discussion_of(client, headers, test_map.subject("S1"))
    response = post(client, headers, discussion_id, "x" * 5001)
    assert field_codes(response) == {("content", "string_too_long")}
    assert post(client, headers, discussion_id, "x" * 5000).status_code == 200
    assert field_codes(post(client, headers, discussion_id, "a\x00b")) == {("content", "invalidCharacter")}


def test_unknown_discussion_answers_404(client, test_map, make_user, login):
    headers = login(make_user())
    assert_error(client.get(f"{API}/discussion/999999", headers=headers), 404)
    assert_error(post(client, headers, 999999, "Bonjour"), 404)


@pytest.mark.parametrize("item", ["subject", "function", "cartography"])
def test_a_hidden_items_discussion_answers_403(client, db, test_map, make_user, login, item):
    admin = login(make_user())
    ids = {
        "subject": discussion_of(client, admin, test_map.subject("S1")),
        "function": client.get(f"{API}/function/{test_map.function('F1')}", headers=admin).json()[
            "discussionId"
        ],
        "cartography": client.get(f"{API}/cartography/{test_map.cartography('C1')}", headers=admin).json()[
            "discussionId"
        ],
    }
    user = make_user()
    restrict(db, user, test_map.cartography("C2"))
    headers = login(user)
    assert_error(client.get(f"{API}/discussion/{ids[item]}", headers=headers), 403)
    assert_error(post(client, headers, ids[item], "Bonjour"), 403)
    assert thread(client, admin, ids[item])["messages"] == []


def test_a_deleted_subject_takes_its_discussion_along(client, test_map, make_user, login):
    headers = login(make_user(permissions=["perm_RemPdv"]))
    discussion_id = discussion_of(client, headers, test_map.subject("S2"))
    assert post(client, headers, discussion_id, "Bonjour").status_code == 200
    assert client.delete(f"{API}/subject/{test_map.subject('S2')}", headers=headers).status_code == 204
    assert_error(client.get(f"{API}/discussion/{discussion_id}", headers=headers), 404)


# System messages of subject actions ---------------------------------------------------------


def system_messages(client, headers, discussion_id):
    return [
        (
            m["author"]["id"] if m["author"] else None,
            m["system"]["type"],
            m["system"]["args"],
            m["system"]["reachable"],
        )
        for m in thread(client, headers, discussion_id)["messages"]
        if m["system"]
    ]


def test_rating_writes_a_criticity_message(client, test_map, make_user, login):
    user = make_user()
    headers = login(user)
    subject_id = test_map.subject("S2")
    response = client.post(
        f"{API}/subject/{subject_id}/rate",
        json={"frequency": 2, "gravity": 5, "detectability": 0},
        headers=headers,
    )
    assert response.status_code == 200, response.text
    assert system_messages(client, headers, response.json()["discussionId"]) == [
        (user.id, "criticity", {"frequency": 2, "gravity": 5}, True)
    ]


def test_updating_writes_an_updated_message(client, test_map, make_user, login):
    user = make_user(permissions=[EDIT])
    headers = login(user)
    subject_id = test_map.subject("S2")
    page = subject_page(client, headers, subject_id)
    body = {
        "name": "Mesurer une cote au pied à coulisse",
        "type": "quality",
        "cartographyId": page["cartographyId"],
        "functionId": page["functionId"],
        "activityId": page["activityId"],
        "version": page["version"],
    }
    assert client.post(f"{API}/subject/{subject_id}", json=body, headers=headers).status_code == 200
    assert system_messages(client, headers, page["discussionId"]) == [
        (user.id, "updated", {"name": "Mesurer une cote au pied à coulisse"}, True)
    ]


def test_duplicating_writes_duplicated_from_on_the_copy_only(client, test_map, make_user, login):
    user = make_user(permissions=[EDIT, "perm_RemPdv"])
    headers = login(user)
    source = test_map.subject("S1")
    copy = client.post(f"{API}/subject/{source}/duplicate", headers=headers).json()["id"]
    copy_discussion = discussion_of(client, headers, copy)
    assert copy_discussion != discussion_of(client, headers, source)
    assert system_messages(client, headers, copy_discussion) == [
        (user.id, "duplicatedFrom", {"id": source, "name": "Changer une plaquette"}, True)
    ]
    assert system_messages(client, headers, discussion_of(client, headers, source)) == []
    # Once the source is gone, the message says its element cannot be reached.
    assert client.delete(f"{API}/subject/{source}", headers=headers).status_code == 204
    assert system_messages(client, headers, copy_discussion) == [
        (user.id, "duplicatedFrom", {"id": source, "name": "Changer une plaquette"}, False)
    ]


def test_a_new_subject_has_an_empty_discussion(client, test_map, make_user, login):
    headers = login(make_user(permissions=[EDIT]))
    body = {
        "name": "Nouveau",
        "cartographyId": test_map.cartography("C1"),
        "functionId": test_map.function("F1"),
        "activityId": test_map.activity("A12"),
    }
    subject_id = client.post(f"{API}/subject", json=body, headers=headers).json()["id"]
    discussion_id = discussion_of(client, headers, subject_id)
    assert isinstance(discussion_id, int)
    assert thread(client, headers, discussion_id)["parentId"] == subject_id
