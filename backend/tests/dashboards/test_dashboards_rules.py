"""Who may open which dashboard (spec 2 §6, docs/qualifications.md 'Permissions'): My dashboard is every
signed-in user's; path progress, group progress and the Dashboard manager's cartographies need
perm_TableauBord; an unknown group answers 404 to those who may ask, 403 first to those who may not."""

import pytest

from dashboards.data import BOARD, GROUPS, MANAGER_CARTOGRAPHIES, MINE
from support import assert_error

# role -> permissions
ROLES = {
    "board": [BOARD],
    "board+track": [BOARD, "perm_VisuTrack"],
    "plain": [],
    "trainer": ["perm_TrainingManagement"],
}

# (role, call, expected status); call "group" is the board's own group, "unknownGroup" an id no group has.
TABLE = [
    ("board", "mine", 200),
    ("plain", "mine", 200),
    ("trainer", "mine", 200),
    ("anonymous", "mine", 401),
    ("board", "groups", 200),
    ("board+track", "groups", 200),
    ("plain", "groups", 403),
    ("trainer", "groups", 403),
    ("anonymous", "groups", 401),
    ("board", "group", 200),
    ("plain", "group", 403),
    ("trainer", "group", 403),
    ("anonymous", "group", 401),
    ("board", "unknownGroup", 404),
    ("plain", "unknownGroup", 403),
    ("anonymous", "unknownGroup", 401),
    ("board", "managerCartographies", 200),
    ("board+track", "managerCartographies", 200),
    ("plain", "managerCartographies", 403),
    ("trainer", "managerCartographies", 403),
    ("anonymous", "managerCartographies", 401),
]


@pytest.mark.parametrize(("role", "call", "status"), TABLE)
def test_permissions(client, make_user, login, role, call, status):
    board = make_user("tableau", [BOARD])
    if role == "anonymous":
        headers: dict[str, str] = {}
    else:
        headers = login(board if role == "board" else make_user(role.replace("+", "-"), ROLES[role]))
    url = {
        "mine": MINE,
        "groups": GROUPS,
        "group": f"{GROUPS}/group/{board.groups[0].id}",
        "unknownGroup": f"{GROUPS}/group/999999",
        "managerCartographies": MANAGER_CARTOGRAPHIES,
    }[call]
    response = client.get(url, headers=headers)
    if status == 200:
        assert response.status_code == 200, response.text
    else:
        body = assert_error(response, status)
        if status == 404:
            assert body["message"] == "groupNotFound"


@pytest.mark.parametrize("group_id", ["abc", "-1", "1.5", "99999999999"])
def test_a_malformed_group_id_is_bad_input(client, make_user, login, group_id):
    headers = login(make_user("tableau", [BOARD]))
    assert_error(client.get(f"{GROUPS}/group/{group_id}", headers=headers), 422)
