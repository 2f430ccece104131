"""What each node of the mind map says the user may do with it (`can`: edit, rename, delete), against
what the server then accepts: a validated node's content changes only with perm_ValidNotHaute, the
main node's name only with perm_EditPdv, the main node is never deleted (docs/mind-map.md)."""

import pytest

from subjects.test_mindmap import EDIT, PDV, VALID, added, by_code, delete, edit, set_status, tree

ROLES = {
    "none": [],
    "valid": [VALID],
    "edit": [EDIT],
    "edit+pdv": [EDIT, PDV],
    "edit+valid": [EDIT, VALID],
    "edit+valid+pdv": [EDIT, VALID, PDV],
}
ACTIONS = ("edit", "rename", "delete")
NAMES = ("main", "A", "A1", "B", "C")


@pytest.fixture
def nodes(client, test_map, make_user, login):
    """S2's tree: main ─ A (inProgress) ─ A1 (validated); main ─ B (validated); main ─ C (inProgress).
    Returns the subject and the codes by name."""
    validator = login(make_user("validateur", [EDIT, VALID, PDV]))
    s2 = test_map.subject("S2")
    a = added(client, validator, s2, name="A")
    codes = {
        "main": 0,
        "A": a,
        "A1": added(client, validator, s2, parent=a, name="A1"),
        "B": added(client, validator, s2, name="B"),
        "C": added(client, validator, s2, name="C"),
    }
    for name in ("A1", "B"):
        assert set_status(client, validator, s2, codes[name], "validated").status_code == 200
    return s2, codes, validator


def allowed(client, headers, subject_id, codes, action):
    body = by_code(tree(client, headers, subject_id))
    return {name for name in NAMES if body[codes[name]]["can"][action]}


# A validated node (A1, B) or a subtree holding one (A): only with perm_ValidNotHaute.
EXPECTED = {
    "none": {"edit": set(), "rename": set(), "delete": set()},
    "valid": {"edit": set(), "rename": set(), "delete": set()},
    "edit": {"edit": {"main", "A", "C"}, "rename": {"A", "C"}, "delete": {"C"}},
    "edit+pdv": {"edit": {"main", "A", "C"}, "rename": {"main", "A", "C"}, "delete": {"C"}},
    "edit+valid": {"edit": set(NAMES), "rename": {"A", "A1", "B", "C"}, "delete": {"A", "A1", "B", "C"}},
    "edit+valid+pdv": {"edit": set(NAMES), "rename": set(NAMES), "delete": {"A", "A1", "B", "C"}},
}


@pytest.mark.parametrize("role", ROLES)
def test_each_node_says_what_the_user_may_do_with_it(client, make_user, login, nodes, role):
    s2, codes, _ = nodes
    headers = login(make_user(permissions=ROLES[role]))
    assert {action: allowed(client, headers, s2, codes, action) for action in ACTIONS} == EXPECTED[role]


def attempt(client, headers, subject_id, code, action):
    node = by_code(tree(client, headers, subject_id))[code]
    if action == "edit":
        return edit(client, headers, subject_id, code, node["name"], (node["text"] + " revu").strip())
    if action == "rename":
        return edit(client, headers, subject_id, code, node["name"] + " bis", node["text"])
    return delete(client, headers, subject_id, code)


@pytest.mark.parametrize("main_status", ["inProgress", "validated"])
@pytest.mark.parametrize("role", ROLES)
def test_can_is_what_the_server_accepts(client, make_user, login, nodes, role, main_status):
    """Action after action (deletions last), node after node, the flag read just before is the
    answer: accepted when true, refused when false. A delete changes the subtrees of what remains:
    the flags are read again each time."""
    s2, codes, validator = nodes
    assert set_status(client, validator, s2, 0, main_status).status_code == 200
    headers = login(make_user(permissions=ROLES[role]))
    for action in ACTIONS:
        for name in ("A", "B", "main", "A1", "C"):
            current = by_code(tree(client, headers, s2))
            if codes[name] not in current:
                continue
            can = current[codes[name]]["can"][action]
            response = attempt(client, headers, s2, codes[name], action)
            assert response.status_code < 500, response.text
            assert (response.status_code == 200) == can, (action, name, response.text)
