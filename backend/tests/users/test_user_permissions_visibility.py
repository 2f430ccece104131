"""Who sees a user's permissions, as a table: role × whose record → permissions shown or left out.

People pickers need names, not permissions: GET /user/byId/{id} shows the permissions to holders of
perm_UserManagement and to the user themself only; every other reader gets the same record without them."""

import pytest

from support import API

ROLES: dict[str, list[str]] = {
    "plain": [],
    "editor": ["perm_EditPdv", "perm_RemPdv", "perm_ValidNotHaute"],
    "permissionAdmin": ["perm_SetPermissions"],
    "userManager": ["perm_UserManagement"],
    "admin": ["perm_UserManagement", "perm_SetPermissions", "perm_EditPdv"],
}
SEES_PERMISSIONS = {
    # role: (of another user, of itself)
    "plain": (False, True),
    "editor": (False, True),
    "permissionAdmin": (False, True),
    "userManager": (True, True),
    "admin": (True, True),
}


@pytest.mark.parametrize("whose", ["other", "self"])
@pytest.mark.parametrize("role", list(ROLES))
def test_permissions_are_shown_to_managers_and_to_the_user_only(client, make_user, login, role, whose):
    target = make_user("cible", ["perm_VisuTrack", "perm_EditPdv"], first_name="Ana", last_name="Bel")
    reader = make_user("lecteur", ROLES[role])
    subject = target if whose == "other" else reader
    response = client.get(f"{API}/user/byId/{subject.id}", headers=login(reader))
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["id"] == subject.id and body["displayName"]
    assert [g["id"] for g in body["groups"]] == [g.id for g in subject.groups]
    assert all(set(g) == {"id", "name"} for g in body["groups"])
    shown = SEES_PERMISSIONS[role][whose == "self"]
    assert ("permissions" in body) is shown, body
    if shown:
        assert body["permissions"] == sorted(p.name for g in subject.groups for p in g.permissions)
