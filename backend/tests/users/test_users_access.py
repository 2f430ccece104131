"""Who may call what in the users area, as a table: role × action → allowed or refused (403).

perm_UserManagement guards the management of users and groups, the list of users and the look-up by
login; any signed-in user may search users and groups, read them (without logins: test_logins_shown)
and resolve their names, and change its own password."""

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient

from spot.users.models import Group
from support import API, assert_error

USER = f"{API}/user"

ROLES: dict[str, list[str]] = {
    "plain": [],
    "editor": ["perm_EditPdv", "perm_RemPdv", "perm_TrainingManagement"],
    "permissionAdmin": ["perm_SetPermissions"],
    "userManager": ["perm_UserManagement"],
    "admin": ["perm_UserManagement", "perm_SetPermissions", "perm_EditPdv"],
}
MANAGERS = {"userManager", "admin"}


@dataclass
class World:
    client: TestClient
    target_id: int
    group_id: int
    me_id: int


Action = Callable[[World, dict[str, str]], object]

ACTIONS: dict[str, tuple[Action, bool]] = {
    # name: (call, needs perm_UserManagement)
    "searchUsers": (lambda w, h: w.client.get(f"{USER}/search", params={"name": "a"}, headers=h), False),
    "userNames": (lambda w, h: w.client.post(f"{USER}/getUserNames", json=[w.target_id], headers=h), False),
    "usersByIds": (lambda w, h: w.client.post(f"{USER}/byIds", json=[w.target_id], headers=h), False),
    "usersByGroups": (lambda w, h: w.client.post(f"{USER}/byGroups", json=[w.group_id], headers=h), False),
    "getUser": (lambda w, h: w.client.get(f"{USER}/byId/{w.target_id}", headers=h), False),
    "byExternalId": (lambda w, h: w.client.get(f"{USER}/byExternalId/T-1", headers=h), False),
    "byName": (lambda w, h: w.client.get(f"{USER}/byName", params={"name": "Tina Target"}, headers=h), False),
    "byLogin": (lambda w, h: w.client.get(f"{USER}/byLogin", params={"login": "target"}, headers=h), True),
    "queryUsers": (lambda w, h: w.client.post(f"{USER}/query", json={}, headers=h), True),
    "searchGroups": (
        lambda w, h: w.client.get(f"{USER}/searchGroup", params={"name": "x"}, headers=h),
        False,
    ),
    "groupNames": (lambda w, h: w.client.post(f"{USER}/getGroupNames", json=[w.group_id], headers=h), False),
    "userGroups": (lambda w, h: w.client.post(f"{USER}/getUserGroups", json=[w.target_id], headers=h), False),
    "ownPassword": (
        lambda w, h: w.client.post(
            f"{USER}/changePassword/{w.me_id}", json={"password": "long-enough"}, headers=h
        ),
        False,
    ),
    "createUser": (
        lambda w, h: w.client.put(
            f"{USER}/create", json={"login": "fresh", "password": "long-enough"}, headers=h
        ),
        True,
    ),
    "editUser": (
        lambda w, h: w.client.post(f"{USER}/byId/{w.target_id}", json={"login": "target2"}, headers=h),
        True,
    ),
    "setUserGroups": (
        lambda w, h: w.client.post(
            f"{USER}/byId/{w.target_id}/groups", json={"groupIds": [w.group_id]}, headers=h
        ),
        True,
    ),
    "deleteUser": (lambda w, h: w.client.delete(f"{USER}/byId/{w.target_id}", headers=h), True),
    "otherPassword": (
        lambda w, h: w.client.post(
            f"{USER}/changePassword/{w.target_id}", json={"password": "long-enough"}, headers=h
        ),
        True,
    ),
    "listGroups": (lambda w, h: w.client.get(f"{USER}/groups", headers=h), True),
    "createGroup": (lambda w, h: w.client.put(f"{USER}/group", json={"name": "Nouveau"}, headers=h), True),
    "renameGroup": (
        lambda w, h: w.client.post(f"{USER}/group/{w.group_id}", json={"name": "Renommé"}, headers=h),
        True,
    ),
    "deleteGroup": (lambda w, h: w.client.delete(f"{USER}/group/{w.group_id}", headers=h), True),
}

TABLE = [
    pytest.param(role, action, (not needs_manager) or role in MANAGERS, id=f"{role}-{action}")
    for role in ROLES
    for action, (_, needs_manager) in ACTIONS.items()
]


@pytest.mark.parametrize(("role", "action", "allowed"), TABLE)
def test_users_area_permissions(client, db, make_user, login, role, action, allowed):
    make_user("keeper", ["perm_SetPermissions"])
    target = make_user("target", first_name="Tina", last_name="Target", external_id="T-1")
    group = Group(name="Cible")
    db.add(group)
    db.commit()
    me = make_user("me", ROLES[role])
    world = World(client=client, target_id=target.id, group_id=group.id, me_id=me.id)
    call, _ = ACTIONS[action]
    response = call(world, login(me))
    if allowed:
        assert response.status_code in (200, 204), response.text
    else:
        assert_error(response, 403, "Insufficient rights to access this information")
