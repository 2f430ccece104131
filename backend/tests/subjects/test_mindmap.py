"""The subject's mind map (docs/mind-map.md): reading, adding, editing, moving, deleting nodes and changing
their status; permissions, the main node's protection, positions, versions and their effects
(card status, unread marks, history, discussion, search, duplication)."""

from datetime import datetime

import pytest
from sqlalchemy import select

from mapping.maps import restrict
from spot.core.history_models import HistoryEntry
from spot.mapping.models import MindMapItem, Subject
from spot.subjects.mindmap.schemas import MindMap
from support import API, assert_error, field_codes

EDIT, VALID, PDV = "perm_EditNotHaute", "perm_ValidNotHaute", "perm_EditPdv"
DENIED = "Insufficient rights to access this information"


def url(subject_id, rest=""):
    return f"{API}/subject/{subject_id}/mindmap{rest}"


def tree(client, headers, subject_id):
    response = client.get(url(subject_id), headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def by_code(body):
    return {n["code"]: n for n in body["nodes"]}


def shape(body):
    """{code: (parentCode, position)}"""
    return {n["code"]: (n["parentCode"], n["position"]) for n in body["nodes"]}


def add(client, headers, subject_id, parent=0, name="Nœud", position=None, version=None, text=""):
    if version is None:
        version = tree(client, headers, subject_id)["version"]
    body = {"version": version, "parentCode": parent, "name": name, "text": text}
    if position is not None:
        body["position"] = position
    return client.post(url(subject_id, "/nodes"), json=body, headers=headers)


def added(client, headers, subject_id, parent=0, name="Nœud", position=None):
    response = add(client, headers, subject_id, parent, name, position)
    assert response.status_code == 201, response.text
    return response.json()["code"]


def move(client, headers, subject_id, code, parent, position, version=None):
    if version is None:
        version = tree(client, headers, subject_id)["version"]
    body = {"version": version, "parentCode": parent, "position": position}
    return client.post(url(subject_id, f"/nodes/{code}/move"), json=body, headers=headers)


def delete(client, headers, subject_id, code, version=None):
    if version is None:
        version = tree(client, headers, subject_id)["version"]
    return client.delete(url(subject_id, f"/nodes/{code}"), params={"version": version}, headers=headers)


def set_status(client, headers, subject_id, code, status, version=None):
    if version is None:
        version = tree(client, headers, subject_id)["version"]
    body = {"version": version, "status": status}
    return client.post(url(subject_id, f"/nodes/{code}/status"), json=body, headers=headers)


def edit(client, headers, subject_id, code, name, text="", version=None):
    if version is None:
        version = tree(client, headers, subject_id)["version"]
    body = {"version": version, "name": name, "text": text}
    return client.post(url(subject_id, f"/nodes/{code}"), json=body, headers=headers)


def history_events(db, subject_id):
    db.expire_all()
    return [
        e.event
        for e in db.scalars(
            select(HistoryEntry)
            .where(
                HistoryEntry.item_type == "subject",
                HistoryEntry.item_id == subject_id,
                HistoryEntry.mode == "W",
            )
            .order_by(HistoryEntry.id)
        )
    ]


@pytest.fixture
def editor(make_user, login):
    return login(make_user("redacteur", [EDIT, VALID, PDV]))


# Reading ----------------------------------------------------------------------------------------


def test_the_tree_as_read(client, test_map, editor):
    s1 = test_map.subject("S1")
    body = tree(client, editor, s1)
    assert body["subjectId"] == s1 and body["subjectCode"] == "S1"
    assert body["subjectName"] == "Changer une plaquette"
    assert body["version"] == 1 and body["standardized"] is False and body["diagram"] is None
    assert body["can"] == {"edit": True, "validate": True, "editDiagram": False}
    main, first = body["nodes"]
    assert (main["code"], main["parentCode"], main["position"], main["status"]) == (0, None, 0, "inProgress")
    assert (first["code"], first["parentCode"], first["position"], first["name"]) == (1, 0, 0, "Consigner")
    assert set(first) == {
        "id", "code", "parentCode", "position", "name", "text", "status",
        "createdBy", "createdAt", "updatedBy", "updatedAt", "can",
    }  # fmt: skip


def test_the_json_is_the_models(client, test_map, editor):
    """The tree is written without validation (core.schemas.json_response): its JSON is MindMap's,
    authors and dates included."""
    s1 = test_map.subject("S1")
    add(client, editor, s1, name="Vérifier", text="Deux lignes\nici")
    body = tree(client, editor, s1)
    assert MindMap.model_validate(body).model_dump(mode="json", by_alias=True) == body
    assert by_code(body)[2]["createdBy"]["name"] and by_code(body)[2]["createdAt"]


def test_nodes_come_parents_first_and_siblings_by_position(client, test_map, editor):
    s2 = test_map.subject("S2")
    a = added(client, editor, s2, name="A")
    b = added(client, editor, s2, name="B", position=0)
    a1 = added(client, editor, s2, parent=a, name="A1")
    b1 = added(client, editor, s2, parent=b, name="B1")
    body = tree(client, editor, s2)
    assert [n["code"] for n in body["nodes"]] == [0, b, b1, a, a1]
    node = by_code(body)[a1]
    assert node["createdBy"]["name"] and node["createdBy"] == node["updatedBy"]
    assert node["createdAt"] is not None and node["status"] == "inProgress"


def test_reading_records_a_visit(client, test_map, make_user, login):
    headers = login(make_user(permissions=[]))
    s2 = test_map.subject("S2")
    assert s2 not in {v["subjectId"] for v in client.get(f"{API}/account/visits", headers=headers).json()}
    tree(client, headers, s2)
    assert s2 in {v["subjectId"] for v in client.get(f"{API}/account/visits", headers=headers).json()}


# Who may do what: route × role ------------------------------------------------------------------

ROLES = {"none": [], "edit": [EDIT], "edit+valid": [EDIT, VALID], "valid": [VALID]}


def _act(client, headers, m, action):
    s1 = m.subject("S1")  # node 1 "Consigner" is validated
    if action == "read":
        return client.get(url(s1), headers=headers)
    version = 1
    if action == "add":
        return add(client, headers, s1, version=version)
    if action == "edit":
        return edit(client, headers, s1, 0, "Changer une plaquette", "Avec des gants", version=version)
    if action == "editValidated":
        return edit(client, headers, s1, 1, "Consigner la machine", version=version)
    if action == "move":
        return move(client, headers, s1, 1, 0, 0, version=version)
    if action == "delete":
        return delete(client, headers, s1, 1, version=version)
    if action == "status":
        return set_status(client, headers, s1, 0, "toValidate", version=version)
    if action == "validate":
        return set_status(client, headers, s1, 0, "validated", version=version)
    assert action == "unvalidate"
    return set_status(client, headers, s1, 1, "inProgress", version=version)


NEEDS = {
    "read": [],
    "add": [EDIT],
    "edit": [EDIT],
    "editValidated": [EDIT, VALID],
    "move": [EDIT],
    "delete": [EDIT, VALID],
    "status": [EDIT],
    "validate": [EDIT, VALID],
    "unvalidate": [EDIT, VALID],
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", NEEDS)
def test_permission_table(client, test_map, make_user, login, role, action):
    headers = login(make_user(permissions=ROLES[role]))
    allowed = set(NEEDS[action]) <= set(ROLES[role])
    response = _act(client, headers, test_map, action)
    if allowed:
        assert response.status_code in (200, 201), response.text
    else:
        assert_error(response, 403, DENIED)
        assert tree(client, headers, test_map.subject("S1"))["version"] == 1  # nothing written


@pytest.mark.parametrize("role", ROLES)
def test_can_objects_follow_the_permissions(client, test_map, make_user, login, role):
    permissions = [*ROLES[role], *(["perm_EditNotBasse"] if role == "none" else [])]
    headers = login(make_user(permissions=permissions))
    s1 = test_map.subject("S1")
    expected = {"edit": EDIT in permissions, "validate": VALID in permissions, "editDiagram": role == "none"}
    assert tree(client, headers, s1)["can"] == expected
    can = client.get(f"{API}/subject/{s1}", headers=headers).json()["can"]
    assert (can["editMindMap"], can["validateMindMap"], can["editDiagram"]) == tuple(expected.values())


@pytest.mark.parametrize("action", NEEDS)
def test_a_hidden_subject_answers_403(client, db, test_map, make_user, login, action):
    user = make_user(permissions=[EDIT, VALID])
    restrict(db, user, test_map.cartography("C2"))
    assert_error(_act(client, login(user), test_map, action), 403)


@pytest.mark.parametrize("action", NEEDS)
def test_an_unknown_subject_answers_404(client, test_map, editor, action):
    class Unknown:
        def subject(self, code):
            return 999_999

    assert_error(_act(client, editor, Unknown(), action), 404, "subjectNotFound")


@pytest.mark.parametrize("action", ["edit", "move", "delete", "status"])
def test_an_unknown_node_answers_404(client, test_map, editor, action):
    s1, version = test_map.subject("S1"), 1
    response = {
        "edit": lambda: edit(client, editor, s1, 42, "X", version=version),
        "move": lambda: move(client, editor, s1, 42, 0, 0, version=version),
        "delete": lambda: delete(client, editor, s1, 42, version=version),
        "status": lambda: set_status(client, editor, s1, 42, "toValidate", version=version),
    }[action]()
    assert_error(response, 404, "mindMapNodeNotFound")
    assert tree(client, editor, s1)["version"] == 1


# Input ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"name": ""}, "name", "emptyFieldError"),
        ({"name": " x"}, "name", "beginEndWhitespaceError"),
        ({"name": "a\x00b"}, "name", "invalidCharacter"),
        ({"name": "x" * 301}, "name", "string_too_long"),
        ({"text": "y" * 5001}, "text", "string_too_long"),
        ({"text": "a\x07"}, "text", "invalidCharacter"),
        ({"parentCode": -1}, "parentCode", "greater_than_equal"),
        ({"parentCode": 2**40}, "parentCode", "less_than_equal"),
        ({"position": -1}, "position", "greater_than_equal"),
        ({"version": 2**40}, "version", "less_than_equal"),
        ({"version": None}, "version", "int_type"),
    ],
)
def test_bad_input_is_refused_with_the_spec_keys(client, test_map, editor, body, field, code):
    full = {"version": 1, "parentCode": 0, "name": "Nœud", "text": "", **body}
    response = client.post(url(test_map.subject("S1"), "/nodes"), json=full, headers=editor)
    assert_error(response, 422)
    assert (field, code) in field_codes(response)


def test_multiline_text_keeps_its_line_breaks(client, test_map, editor):
    s1 = test_map.subject("S1")
    response = add(client, editor, s1, name="Cause", text="Ligne 1\nLigne 2\tfin")
    assert response.status_code == 201, response.text
    assert by_code(tree(client, editor, s1))[response.json()["code"]]["text"] == "Ligne 1\nLigne 2\tfin"


def test_bad_path_and_query_values(client, test_map, editor):
    s1 = test_map.subject("S1")
    assert_error(client.delete(url(s1, "/nodes/1"), headers=editor), 422)  # no version
    assert_error(client.delete(url(s1, "/nodes/1"), params={"version": "x"}, headers=editor), 422)
    assert_error(client.post(url(s1, "/nodes/abc"), json={"version": 1, "name": "x"}, headers=editor), 422)
    response = set_status(client, editor, s1, 1, "done", version=1)
    assert_error(response, 422)
    assert field_codes(response) == {("status", "enum")}


# Adding, editing, moving, deleting ---------------------------------------------------------------


def test_add_gives_max_plus_one_and_the_new_version(client, db, test_map, editor):
    s1 = test_map.subject("S1")
    response = add(client, editor, s1, parent=1, name="Couper l'énergie", version=1, text="Sectionneur")
    assert response.status_code == 201, response.text
    assert response.json() == {"version": 2, "code": 2}
    node = by_code(tree(client, editor, s1))[2]
    assert (node["parentCode"], node["position"], node["name"], node["text"]) == (
        1, 0, "Couper l'énergie", "Sectionneur",
    )  # fmt: skip
    assert node["status"] == "inProgress"
    assert add(client, editor, s1, parent=0).json()["code"] == 3


def test_a_deleted_nodes_code_is_never_given_again(client, test_map, editor):
    """A link or a bookmark to a deleted node (…/pdvhaut/…, ?target=) never opens another node."""
    s1 = test_map.subject("S1")
    newest = added(client, editor, s1, name="Le plus récent")
    assert delete(client, editor, s1, newest).status_code == 200
    again = added(client, editor, s1, name="Un autre")
    assert again == newest + 1
    assert newest not in by_code(tree(client, editor, s1))
    # Neither after the newest two went: the count follows what the tree gave, not what it holds.
    assert delete(client, editor, s1, again).status_code == 200
    assert added(client, editor, s1) == again + 1


def test_add_at_a_position_shifts_the_siblings(client, test_map, editor):
    s2 = test_map.subject("S2")
    a, b = added(client, editor, s2, name="A"), added(client, editor, s2, name="B")
    c = added(client, editor, s2, name="C", position=1)
    d = added(client, editor, s2, name="D", position=99)  # beyond the end: last
    assert shape(tree(client, editor, s2)) == {0: (None, 0), a: (0, 0), c: (0, 1), b: (0, 2), d: (0, 3)}


def test_add_under_an_unknown_parent(client, test_map, editor):
    response = add(client, editor, test_map.subject("S1"), parent=77, version=1)
    assert_error(response, 400)
    assert field_codes(response) == {("parentCode", "invalidValue")}


def test_edit_name_and_text(client, test_map, editor):
    s1 = test_map.subject("S1")
    response = edit(client, editor, s1, 1, "Consigner l'énergie", "Cadenas personnel", version=1)
    assert response.json() == {"version": 2, "code": 1}
    node = by_code(tree(client, editor, s1))[1]
    assert (node["name"], node["text"], node["status"]) == (
        "Consigner l'énergie",
        "Cadenas personnel",
        "validated",
    )


def test_the_main_node_cannot_be_deleted_nor_moved(client, test_map, editor):
    s1 = test_map.subject("S1")
    assert_error(delete(client, editor, s1, 0, version=1), 409, "mainNodeCannotBeDeleted")
    response = move(client, editor, s1, 0, 1, 0, version=1)
    assert_error(response, 400)
    assert field_codes(response) == {("parentCode", "invalidValue")}
    body = tree(client, editor, s1)
    assert body["version"] == 1 and shape(body)[0] == (None, 0)
    # It can still be renamed and change status.
    assert edit(client, editor, s1, 0, "Plaquette", version=1).status_code == 200
    assert set_status(client, editor, s1, 0, "toValidate").status_code == 200


def test_validated_content_changes_only_with_the_right_to_validate(
    client, test_map, make_user, login, editor
):
    """docs/mind-map.md: renaming, rewriting or deleting a validated node (or a subtree holding one)
    needs perm_ValidNotHaute; moving it and adding under it do not."""
    s2 = test_map.subject("S2")
    a = added(client, editor, s2, name="A")
    a1 = added(client, editor, s2, parent=a, name="A1")
    assert set_status(client, editor, s2, a1, "validated").status_code == 200
    writer = login(make_user(permissions=[EDIT]))
    assert_error(edit(client, writer, s2, a1, "Autre"), 403, DENIED)
    assert_error(edit(client, writer, s2, a1, "A1", "Un autre texte"), 403, DENIED)
    assert_error(delete(client, writer, s2, a1), 403, DENIED)
    assert_error(delete(client, writer, s2, a), 403, DENIED)
    assert by_code(tree(client, writer, s2))[a1]["name"] == "A1"
    assert edit(client, writer, s2, a, "A bis").status_code == 200
    assert added(client, writer, s2, parent=a1, name="A11")
    assert move(client, writer, s2, a1, 0, 0).status_code == 200
    assert edit(client, editor, s2, a1, "A1 bis").status_code == 200
    assert delete(client, editor, s2, a).status_code == 200


def test_the_main_node_is_named_as_its_subject(client, db, test_map, make_user, login, editor):
    """Renaming the subject renames its main node; renaming the main node renames the subject, for
    whoever may edit subjects."""
    s1 = test_map.subject("S1")
    subject_url = f"{API}/subject/{s1}"
    page = client.get(subject_url, headers=editor).json()
    form = {key: page[key] for key in ("type", "cartographyId", "functionId", "activityId", "version")}
    renamed = client.post(subject_url, json=form | {"name": "Remplacer une plaquette"}, headers=editor)
    assert renamed.status_code == 200, renamed.text
    assert by_code(tree(client, editor, s1))[0]["name"] == "Remplacer une plaquette"
    assert edit(client, editor, s1, 0, "Plaquette neuve").status_code == 200
    assert client.get(subject_url, headers=editor).json()["name"] == "Plaquette neuve"
    # A mind-map writer who may not edit subjects keeps the main node's name.
    writer = login(make_user(permissions=[EDIT]))
    assert_error(edit(client, writer, s1, 0, "Autre nom"), 403, DENIED)
    assert edit(client, writer, s1, 0, "Plaquette neuve", "Un texte").status_code == 200


def test_a_node_cannot_go_under_itself_or_a_descendant(client, test_map, editor):
    s2 = test_map.subject("S2")
    a = added(client, editor, s2, name="A")
    a1 = added(client, editor, s2, parent=a, name="A1")
    a11 = added(client, editor, s2, parent=a1, name="A11")
    for target in (a, a1, a11):
        response = move(client, editor, s2, a, target, 0)
        assert_error(response, 400)
        assert field_codes(response) == {("parentCode", "invalidValue")}
    response = move(client, editor, s2, a, 99, 0)
    assert_error(response, 400)
    assert field_codes(response) == {("parentCode", "invalidValue")}
    assert shape(tree(client, editor, s2)) == {0: (None, 0), a: (0, 0), a1: (a, 0), a11: (a1, 0)}


def test_move_keeps_positions_contiguous(client, test_map, editor):
    s2 = test_map.subject("S2")
    a, b, c = (added(client, editor, s2, name=n) for n in "ABC")
    b1, b2 = added(client, editor, s2, parent=b, name="B1"), added(client, editor, s2, parent=b, name="B2")
    # Under another parent, with its subtree: old and new siblings renumbered.
    response = move(client, editor, s2, b, a, 0)
    assert response.status_code == 200, response.text
    assert shape(tree(client, editor, s2)) == {
        0: (None, 0), a: (0, 0), c: (0, 1), b: (a, 0), b1: (b, 0), b2: (b, 1),
    }  # fmt: skip
    # Among its own siblings.
    assert move(client, editor, s2, b2, b, 0).status_code == 200
    assert shape(tree(client, editor, s2))[b1] == (b, 1) and shape(tree(client, editor, s2))[b2] == (b, 0)
    # Back to the main node, between a and c; beyond the end means last.
    assert move(client, editor, s2, b, 0, 1).status_code == 200
    assert move(client, editor, s2, a, 0, 50).status_code == 200
    assert shape(tree(client, editor, s2)) == {
        0: (None, 0), b: (0, 0), c: (0, 1), a: (0, 2), b1: (b, 1), b2: (b, 0),
    }  # fmt: skip


def test_delete_removes_the_subtree_and_renumbers(client, db, test_map, editor):
    s2 = test_map.subject("S2")
    a, b, c = (added(client, editor, s2, name=n) for n in "ABC")
    b1 = added(client, editor, s2, parent=b, name="B1")
    added(client, editor, s2, parent=b1, name="B11")
    response = delete(client, editor, s2, b)
    assert response.status_code == 200, response.text
    assert response.json()["code"] == b
    assert shape(tree(client, editor, s2)) == {0: (None, 0), a: (0, 0), c: (0, 1)}
    db.expire_all()
    assert sorted(db.scalars(select(MindMapItem.code).where(MindMapItem.subject_id == s2))) == [0, a, c]


# Versions ---------------------------------------------------------------------------------------


def test_the_second_writer_with_the_same_version_gets_409(client, test_map, make_user, login):
    s1 = test_map.subject("S1")
    first, second = login(make_user(permissions=[EDIT])), login(make_user(permissions=[EDIT]))
    version = tree(client, first, s1)["version"]
    assert add(client, first, s1, name="Premier", version=version).status_code == 201
    for response in (
        add(client, second, s1, name="Second", version=version),
        edit(client, second, s1, 1, "Autre", version=version),
        move(client, second, s1, 1, 0, 0, version=version),
        delete(client, second, s1, 1, version=version),
        set_status(client, second, s1, 0, "toValidate", version=version),
    ):
        assert_error(response, 409, "staleVersion")
    body = tree(client, second, s1)
    assert body["version"] == version + 1 and [n["name"] for n in body["nodes"]][-1] == "Premier"


def test_tree_writes_leave_the_subject_forms_version_alone(client, test_map, editor):
    s1 = test_map.subject("S1")
    form_version = client.get(f"{API}/subject/{s1}", headers=editor).json()["version"]
    code = added(client, editor, s1)
    assert edit(client, editor, s1, code, "Renommé").status_code == 200
    assert set_status(client, editor, s1, code, "toValidate").status_code == 200
    assert move(client, editor, s1, code, 1, 0).status_code == 200
    assert delete(client, editor, s1, code).status_code == 200
    assert tree(client, editor, s1)["version"] == 6
    assert client.get(f"{API}/subject/{s1}", headers=editor).json()["version"] == form_version


# Effects ----------------------------------------------------------------------------------------


def test_the_main_nodes_status_is_the_cards(client, test_map, editor):
    s2 = test_map.subject("S2")
    for status in ("inProgress", "toValidate", "validated", "inProgress"):
        assert set_status(client, editor, s2, 0, status).status_code == 200
        assert client.get(f"{API}/subject/{s2}", headers=editor).json()["mainNodeStatus"] == status
        cards = client.post(f"{API}/subject/query", json={"sort": "code"}, headers=editor).json()["results"]
        assert next(c for c in cards if c["id"] == s2)["mainNodeStatus"] == status
    # Another node's status does not change the card's.
    code = added(client, editor, s2)
    assert set_status(client, editor, s2, code, "validated").status_code == 200
    assert client.get(f"{API}/subject/{s2}", headers=editor).json()["mainNodeStatus"] == "inProgress"


def _date(value):
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def _unread(client, headers, subject_id):
    """As features/subjects/unread.ts decides: never visited, or the mind map changed since."""
    visits = {v["subjectId"]: v["date"] for v in client.get(f"{API}/account/visits", headers=headers).json()}
    subject = client.get(f"{API}/subject/{subject_id}", headers=headers).json()  # a visit itself
    last = subject["lastMindmapUpdate"]
    visited = visits.get(subject_id)
    return visited is None or (last is not None and _date(last) > _date(visited))


@pytest.mark.parametrize("write", ["add", "edit", "move", "delete", "status"])
def test_a_write_makes_the_subject_unread_for_others_not_for_the_writer(
    client, test_map, make_user, login, editor, write
):
    s1 = test_map.subject("S1")
    reader = login(make_user(permissions=[]))
    tree(client, reader, s1)  # the reader visits it
    before = tree(client, editor, s1)["lastMindmapUpdate"]
    assert _unread(client, reader, s1) is False
    code = added(client, editor, s1) if write in ("move", "delete") else 1
    response = {
        "add": lambda: add(client, editor, s1),
        "edit": lambda: edit(client, editor, s1, 1, "Consigner tout"),
        "move": lambda: move(client, editor, s1, code, 1, 0),
        "delete": lambda: delete(client, editor, s1, code),
        "status": lambda: set_status(client, editor, s1, 1, "toValidate"),
    }[write]()
    assert response.status_code in (200, 201), response.text
    # Read first by the writer's visits, which GET /subject would refresh.
    writer_visits = {
        v["subjectId"]: v["date"] for v in client.get(f"{API}/account/visits", headers=editor).json()
    }
    last = tree(client, editor, s1)["lastMindmapUpdate"]
    assert last is not None and last != before
    assert _date(writer_visits[s1]) >= _date(last)
    assert _unread(client, reader, s1) is True
    assert _unread(client, reader, s1) is False  # the previous check visited it


def test_history_entries_and_the_writers_last_update(client, db, test_map, make_user, login):
    user = make_user("ecrivain", [EDIT, VALID])
    headers = login(user)
    s1 = test_map.subject("S1")
    before = history_events(db, s1)
    code = added(client, headers, s1)
    edit(client, headers, s1, code, "Renommé")
    move(client, headers, s1, code, 1, 0)
    set_status(client, headers, s1, code, "validated")
    delete(client, headers, s1, code)
    assert history_events(db, s1)[len(before) :] == [
        *["mindMapUpdated"] * 4, "statusChanged", "mindMapUpdated",
    ]  # fmt: skip
    db.expire_all()
    subject = db.get(Subject, s1)
    assert subject.updated_by == user.id and subject.last_mindmap_update is not None
    lifetime = client.get(f"{API}/subject/{s1}", headers=headers).json()["lifetimeEvents"]
    assert lifetime["lastUpdate"]["userId"] == user.id


def test_a_status_change_writes_in_the_subjects_discussion(client, test_map, editor):
    s1 = test_map.subject("S1")
    assert set_status(client, editor, s1, 1, "toValidate").status_code == 200
    discussion_id = client.get(f"{API}/subject/{s1}", headers=editor).json()["discussionId"]
    messages = client.get(f"{API}/discussion/{discussion_id}", headers=editor).json()["messages"]
    system = [m["system"] for m in messages if m["system"]]
    assert system[-1]["type"] == "statusChanged"
    assert system[-1]["args"] == {"status": "toValidate", "name": "Consigner", "code": 1}
    # Other writes write no message.
    edit(client, editor, s1, 1, "Consigner l'énergie")
    again = client.get(f"{API}/discussion/{discussion_id}", headers=editor).json()["messages"]
    assert len(again) == len(messages)


def _nodes_found(client, headers, text):
    response = client.get(f"{API}/search", params={"text": text, "category": "nodes"}, headers=headers)
    assert response.status_code == 200, response.text
    return [(r["name"], r["code"]) for r in response.json()["nodes"]["results"]]


def test_search_finds_a_new_node_and_forgets_a_deleted_one(client, test_map, editor):
    s1 = test_map.subject("S1")
    assert _nodes_found(client, editor, "zygomatique") == []
    code = added(client, editor, s1, parent=1, name="Risque zygomatique")
    assert _nodes_found(client, editor, "zygomatique") == [("Risque zygomatique", str(code))]
    assert edit(client, editor, s1, code, "Risque hélicoïdal").status_code == 200
    assert _nodes_found(client, editor, "zygomatique") == []
    assert _nodes_found(client, editor, "helicoidal") == [("Risque hélicoïdal", str(code))]
    assert delete(client, editor, s1, 1).status_code == 200  # its parent: the subtree goes
    assert _nodes_found(client, editor, "helicoidal") == []
    assert _nodes_found(client, editor, "consigner") == []


def test_duplicate_copies_the_tree(client, test_map, editor):
    s2 = test_map.subject("S2")
    a = added(client, editor, s2, name="Dangers")
    b = added(client, editor, s2, name="Bonnes pratiques")
    a1 = added(client, editor, s2, parent=a, name="Coupure")
    added(client, editor, s2, parent=a, name="Projection", position=0)
    edit(client, editor, s2, a1, "Coupure", "Gants anti-coupure")
    set_status(client, editor, s2, b, "validated")
    move(client, editor, s2, b, 0, 0)
    response = client.post(f"{API}/subject/{s2}/duplicate", headers=editor)
    assert response.status_code == 200, response.text
    copy_id = response.json()["id"]

    def essentials(body):
        return [
            (n["code"], n["parentCode"], n["position"], n["name"], n["text"], n["status"])
            for n in body["nodes"]
        ]

    original, copy = tree(client, editor, s2), tree(client, editor, copy_id)
    assert essentials(copy) == essentials(original) and len(copy["nodes"]) == 5
    assert {n["id"] for n in copy["nodes"]}.isdisjoint(n["id"] for n in original["nodes"])
    assert copy["version"] == 1
    # The copy's tree lives apart from the original's.
    assert delete(client, editor, copy_id, a).status_code == 200
    assert len(tree(client, editor, s2)["nodes"]) == 5


def test_a_new_subject_has_its_main_node(client, test_map, make_user, login):
    user = make_user("createur", [PDV])
    headers = login(user)
    body = {
        "name": "Nouveau sujet",
        "type": "risk",
        "cartographyId": test_map.cartography("C1"),
        "functionId": test_map.function("F1"),
        "activityId": test_map.activity("A12"),
    }
    subject_id = client.post(f"{API}/subject", json=body, headers=headers).json()["id"]
    [main] = tree(client, headers, subject_id)["nodes"]
    assert (main["code"], main["parentCode"], main["position"], main["name"]) == (0, None, 0, "Nouveau sujet")
    assert main["status"] == "empty" and main["createdBy"]["id"] == user.id and main["createdAt"]
