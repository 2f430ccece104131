"""The teamwork menu: GET /discussion/unread lists the discussions of items the user follows or
contributed to that have messages from others since the user last read them."""

from mapping.maps import restrict
from support import API

UNREAD = f"{API}/discussion/unread"


def discussion_id(client, headers, kind, item_id):
    response = client.get(f"{API}/{kind}/{item_id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()["discussionId"]


def post(client, headers, discussion, content="Bonjour"):
    response = client.post(f"{API}/discussion/{discussion}", json={"content": content}, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def unread(client, headers):
    response = client.get(UNREAD, headers=headers)
    assert response.status_code == 200, response.text
    return [(d["parentType"], d["parentId"], d["parentName"], d["unreadCount"]) for d in response.json()]


def test_messages_of_others_on_a_followed_subject_until_read(client, test_map, make_user, login):
    anne, bruno = login(make_user()), login(make_user())
    s1 = test_map.subject("S1")
    assert client.post(f"{API}/subject/{s1}/follow", headers=anne).status_code == 200
    discussion = discussion_id(client, anne, "subject", s1)
    assert unread(client, anne) == []
    post(client, bruno, discussion, "Premier")
    last = post(client, bruno, discussion, "Second")
    assert unread(client, anne) == [("subject", s1, "Changer une plaquette", 2)]
    body = client.get(UNREAD, headers=anne).json()[0]
    assert body["discussionId"] == discussion
    assert body["lastDate"] == last["date"]
    # Reading the discussion marks it read.
    client.get(f"{API}/discussion/{discussion}", headers=anne)
    assert unread(client, anne) == []
    post(client, bruno, discussion, "Troisième")
    assert unread(client, anne) == [("subject", s1, "Changer une plaquette", 1)]


def test_own_messages_are_not_unread(client, test_map, make_user, login):
    anne = login(make_user())
    s1 = test_map.subject("S1")
    client.post(f"{API}/subject/{s1}/follow", headers=anne)
    post(client, anne, discussion_id(client, anne, "subject", s1))
    client.post(
        f"{API}/subject/{s1}/rate", json={"frequency": 1, "gravity": 1, "detectability": 0}, headers=anne
    )
    assert unread(client, anne) == []


def test_contributions_count_and_system_messages_of_others_too(client, test_map, make_user, login):
    anne, bruno = login(make_user()), login(make_user())
    s2, c1 = test_map.subject("S2"), test_map.cartography("C1")
    # Anne wrote to S2 (a rating: a write in the history) and posted on the cartography.
    client.post(
        f"{API}/subject/{s2}/rate", json={"frequency": 2, "gravity": 2, "detectability": 0}, headers=anne
    )
    post(client, anne, discussion_id(client, anne, "cartography", c1), "Question")
    assert unread(client, anne) == []
    post(client, bruno, discussion_id(client, bruno, "cartography", c1), "Réponse")
    # Bruno's rating writes a criticity message on S2's discussion: from someone else.
    client.post(
        f"{API}/subject/{s2}/rate", json={"frequency": 4, "gravity": 4, "detectability": 0}, headers=bruno
    )
    # Newest first.
    assert unread(client, anne) == [
        ("subject", s2, "Mesurer une cote", 1),
        ("cartography", c1, "Atelier de test", 1),
    ]
    # Bruno posted on the cartography without opening its discussion: Anne's question is unread for him.
    assert ("cartography", c1, "Atelier de test", 1) in unread(client, bruno)


def test_items_the_user_has_nothing_to_do_with_are_absent(client, test_map, make_user, login):
    anne, bruno = login(make_user()), login(make_user())
    client.get(f"{API}/subject/{test_map.subject('S1')}", headers=anne)  # a read is no contribution
    post(client, bruno, discussion_id(client, bruno, "subject", test_map.subject("S1")))
    post(client, bruno, discussion_id(client, bruno, "function", test_map.function("F1")))
    assert unread(client, anne) == []


def test_items_the_user_no_longer_sees_are_absent(client, db, test_map, make_user, login):
    user = make_user()
    anne, bruno = login(user), login(make_user())
    s1, t1 = test_map.subject("S1"), test_map.subject("T1")
    for subject in (s1, t1):
        client.post(f"{API}/subject/{subject}/follow", headers=anne)
        post(client, bruno, discussion_id(client, bruno, "subject", subject))
    assert {row[1] for row in unread(client, anne)} == {s1, t1}
    restrict(db, user, test_map.cartography("C2"))
    assert unread(client, anne) == [("subject", t1, "Visser", 1)]


def test_a_function_contributed_to_by_a_post(client, test_map, make_user, login):
    anne, bruno = login(make_user()), login(make_user())
    f1 = test_map.function("F1")
    discussion = discussion_id(client, anne, "function", f1)
    post(client, anne, discussion)
    post(client, bruno, discussion)
    post(client, bruno, discussion)
    assert unread(client, anne) == [("function", f1, "Opérateur régleur", 2)]
