"""Permission names, the group × permission matrix, and the rule that somebody can always set permissions."""

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from spot.permissions.models import GroupPermission
from spot.permissions.names import ALL_PERMISSIONS
from spot.users.models import Group, User
from support import API, assert_error, field_codes

PERMISSION = f"{API}/permission"
SPEC_NAMES = [
    "perm_TableauBord",
    "perm_VisuTrack",
    "perm_EditPdv",
    "perm_RemPdv",
    "perm_EditNotHaute",
    "perm_ValidNotHaute",
    "perm_EditNotBasse",
    "perm_SetPermissions",
    "perm_EditResourcesVideos",
    "perm_TrainingManagement",
    "perm_UserManagement",
    "perm_TrainingPathView",
    "perm_TrainingPathAdmin",
    "perm_TrainingReferenceAdmin",
    "perm_QualificationAdmin",
]


def test_every_signed_in_user_reads_the_permission_names(client, make_user, login):
    response = client.get(PERMISSION, headers=login(make_user()))
    assert response.status_code == 200
    assert response.json() == SPEC_NAMES == ALL_PERMISSIONS


def test_the_matrix_lists_every_group_with_its_permissions(client, db, make_user, login):
    admin = make_user("admin", ["perm_SetPermissions"])
    db.add(
        Group(
            name="Créateurs",
            permissions=[GroupPermission(name="perm_RemPdv"), GroupPermission(name="perm_EditPdv")],
        )
    )
    db.add(Group(name="Vide"))
    db.commit()
    matrix = client.get(f"{PERMISSION}/list", headers=login(admin)).json()
    assert [(g["name"], g["permissions"]) for g in matrix] == [
        ("Créateurs", ["perm_EditPdv", "perm_RemPdv"]),
        ("Vide", []),
        ("group-of-admin", ["perm_SetPermissions"]),
    ]
    assert all(set(g) == {"id", "name", "permissions"} for g in matrix)


def test_set_the_permissions_of_a_group(client, db, make_user, login):
    admin = make_user("admin", ["perm_SetPermissions"])
    member = make_user("member")
    group = member.groups[0]
    headers = login(admin)
    response = client.put(
        f"{PERMISSION}/group/{group.id}",
        json=["perm_RemPdv", "perm_EditPdv", "perm_EditPdv"],
        headers=headers,
    )
    assert response.status_code == 200
    assert response.json() == {
        "id": group.id,
        "name": group.name,
        "permissions": ["perm_EditPdv", "perm_RemPdv"],
    }
    assert client.get(f"{API}/account/whoAmI", headers=login(member)).json()["permissions"] == [
        "perm_EditPdv",
        "perm_RemPdv",
    ]
    # Setting replaces: what is not listed is taken away; setting again the same set changes nothing.
    for names in (["perm_RemPdv"], ["perm_RemPdv"], []):
        response = client.put(f"{PERMISSION}/group/{group.id}", json=names, headers=headers)
        assert response.json()["permissions"] == names
    db.expire_all()
    assert db.scalars(select(GroupPermission).where(GroupPermission.group_id == group.id)).all() == []


def test_unknown_permission_names_are_refused(client, db, make_user, login):
    admin = make_user("admin", ["perm_SetPermissions"])
    group = make_user("member", ["perm_EditPdv"]).groups[0]
    response = client.put(
        f"{PERMISSION}/group/{group.id}", json=["perm_EditPdv", "perm_Root"], headers=login(admin)
    )
    assert_error(response, 400, "unknownPermission")
    assert field_codes(response) == {("perm_Root", "unknownPermission")}
    db.expire_all()
    assert db.get(Group, group.id).permission_names == ["perm_EditPdv"]


def test_permission_body_is_validated(client, make_user, login):
    admin = make_user("admin", ["perm_SetPermissions"])
    headers = login(admin)
    group_id = admin.groups[0].id
    assert_error(client.put(f"{PERMISSION}/group/{group_id}", json={"names": []}, headers=headers), 422)
    assert_error(client.put(f"{PERMISSION}/group/{group_id}", json=[1], headers=headers), 422)
    assert_error(
        client.put(f"{PERMISSION}/group/{group_id}", json=["perm_EditPdv"] * 16, headers=headers), 422
    )


def test_unknown_group_is_not_found(client, make_user, login):
    response = client.put(
        f"{PERMISSION}/group/2000000000", json=[], headers=login(make_user("a", ["perm_SetPermissions"]))
    )
    assert_error(response, 404, "groupNotFound")


# --- who may do what ---------------------------------------------------------------------------------------

ROLES = {
    "plain": [],
    "userManager": ["perm_UserManagement"],
    "everythingElse": [p for p in ALL_PERMISSIONS if p != "perm_SetPermissions"],
    "permissionAdmin": ["perm_SetPermissions"],
}
ACTIONS: dict[str, tuple[Callable[[TestClient, int, dict[str, str]], object], bool]] = {
    "names": (lambda c, g, h: c.get(PERMISSION, headers=h), False),
    "matrix": (lambda c, g, h: c.get(f"{PERMISSION}/list", headers=h), True),
    "setGroup": (lambda c, g, h: c.put(f"{PERMISSION}/group/{g}", json=["perm_EditPdv"], headers=h), True),
}


@pytest.mark.parametrize(
    ("role", "action", "allowed"),
    [
        pytest.param(r, a, not needs or r == "permissionAdmin", id=f"{r}-{a}")
        for r in ROLES
        for a, (_, needs) in ACTIONS.items()
    ],
)
def test_permission_area_permissions(client, db, make_user, login, role, action, allowed):
    make_user("keeper", ["perm_SetPermissions"])
    group = Group(name="Cible")
    db.add(group)
    db.commit()
    me = make_user("me", ROLES[role])
    call, _ = ACTIONS[action]
    response = call(client, group.id, login(me))
    if allowed:
        assert response.status_code == 200, response.text
    else:
        assert_error(response, 403, "Insufficient rights to access this information")
        db.expire_all()
        assert db.get(Group, group.id).permission_names == []


# --- lastAdministrator -------------------------------------------------------------------------------------


@pytest.fixture
def sole_admin(make_user):
    """The only user whose groups hold perm_SetPermissions (and who may manage users)."""
    return make_user("admin", ["perm_SetPermissions", "perm_UserManagement"])


def _admin_holders(db) -> list[str]:
    """Logins of the users who may set permissions, read back from the database."""
    db.expire_all()
    return sorted(u.login for u in db.scalars(select(User)) if "perm_SetPermissions" in u.permission_names)


def test_taking_the_permission_from_the_last_group_is_refused(client, db, sole_admin, login):
    group = sole_admin.groups[0]
    response = client.put(
        f"{PERMISSION}/group/{group.id}", json=["perm_UserManagement"], headers=login(sole_admin)
    )
    assert_error(response, 409, "lastAdministrator")
    assert _admin_holders(db) == ["admin"]


def test_deleting_the_last_administrators_group_is_refused(client, db, sole_admin, login):
    response = client.delete(f"{API}/user/group/{sole_admin.groups[0].id}", headers=login(sole_admin))
    assert_error(response, 409, "lastAdministrator")
    assert _admin_holders(db) == ["admin"]


def test_removing_the_last_administrator_from_its_groups_is_refused(client, db, sole_admin, login):
    headers = login(sole_admin)
    response = client.post(f"{API}/user/byId/{sole_admin.id}/groups", json={"groupIds": []}, headers=headers)
    assert_error(response, 409, "lastAdministrator")
    response = client.post(
        f"{API}/user/byId/{sole_admin.id}", json={"login": "admin", "groupIds": []}, headers=headers
    )
    assert_error(response, 409, "lastAdministrator")
    assert _admin_holders(db) == ["admin"]


def test_deleting_the_last_administrator_is_refused(client, db, make_user, sole_admin, login):
    manager = make_user("manager", ["perm_UserManagement"])
    response = client.delete(f"{API}/user/byId/{sole_admin.id}", headers=login(manager))
    assert_error(response, 409, "lastAdministrator")
    assert _admin_holders(db) == ["admin"]


def test_a_group_holding_the_permission_without_members_does_not_count(client, db, sole_admin, login):
    db.add(Group(name="Empty admins", permissions=[GroupPermission(name="perm_SetPermissions")]))
    db.commit()
    response = client.put(f"{PERMISSION}/group/{sole_admin.groups[0].id}", json=[], headers=login(sole_admin))
    assert_error(response, 409, "lastAdministrator")


def test_with_a_second_administrator_every_change_is_allowed(client, db, make_user, sole_admin, login):
    second = make_user("second", ["perm_SetPermissions"])
    headers = login(sole_admin)
    assert (
        client.put(
            f"{PERMISSION}/group/{second.groups[0].id}",
            json=["perm_SetPermissions", "perm_EditPdv"],
            headers=headers,
        ).status_code
        == 200
    )
    assert (
        client.post(
            f"{API}/user/byId/{second.id}/groups", json={"groupIds": [second.groups[0].id]}, headers=headers
        ).status_code
        == 200
    )
    # The first administrator may now give up the permission: the second still holds it.
    assert (
        client.put(
            f"{PERMISSION}/group/{sole_admin.groups[0].id}", json=["perm_UserManagement"], headers=headers
        ).status_code
        == 200
    )
    assert _admin_holders(db) == ["second"]
    # ...and the remaining one may be deleted only once another holder exists again.
    assert_error(client.delete(f"{API}/user/byId/{second.id}", headers=headers), 409, "lastAdministrator")
    assert_error(
        client.delete(f"{API}/user/group/{second.groups[0].id}", headers=headers), 409, "lastAdministrator"
    )
