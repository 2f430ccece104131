"""Group calls: list with member counts, create, rename, delete, search and names."""

import pytest
from sqlalchemy import select

from spot.permissions.models import GroupPermission
from spot.users.models import Group, User
from support import API, assert_error, field_codes

USER = f"{API}/user"


@pytest.fixture
def manager(make_user, login):
    make_user("keeper", ["perm_SetPermissions"])
    return login(make_user("manager", ["perm_UserManagement"]))


def test_list_groups_with_their_permissions_and_member_counts(client, db, make_user, manager):
    empty = Group(name="Vide", permissions=[GroupPermission(name="perm_EditPdv")])
    db.add(empty)
    db.commit()
    listed = {g["name"]: g for g in client.get(f"{USER}/groups", headers=manager).json()}
    assert listed["Vide"] == {
        "id": empty.id,
        "name": "Vide",
        "permissions": ["perm_EditPdv"],
        "membersCount": 0,
    }
    assert listed["group-of-manager"]["membersCount"] == 1
    assert listed["group-of-manager"]["permissions"] == ["perm_UserManagement"]
    assert list(listed) == sorted(listed)


def test_create_a_group(client, manager):
    response = client.put(f"{USER}/group", json={"name": "Soudeurs"}, headers=manager)
    assert response.status_code == 200
    body = response.json()
    assert body["name"] == "Soudeurs" and body["permissions"] == [] and isinstance(body["id"], int)


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", "emptyFieldError"),
        ("  ", "emptyFieldError"),
        (" Soudeurs", "beginEndWhitespaceError"),
        ("Soudeurs\n", "beginEndWhitespaceError"),
        ("x" * 201, "string_too_long"),
        (None, "string_type"),
    ],
)
def test_group_names_follow_the_text_rule(client, db, make_user, manager, name, code):
    created = client.put(f"{USER}/group", json={"name": name}, headers=manager)
    assert_error(created, 422, "atLeastOneErrorLeft")
    assert field_codes(created) == {("name", code)}
    group = Group(name="Existant")
    db.add(group)
    db.commit()
    renamed = client.post(f"{USER}/group/{group.id}", json={"name": name}, headers=manager)
    assert_error(renamed, 422)
    assert field_codes(renamed) == {("name", code)}


def test_a_group_name_is_required(client, manager):
    response = client.put(f"{USER}/group", json={}, headers=manager)
    assert field_codes(response) == {("name", "emptyFieldError")}


def test_duplicate_group_names_are_a_conflict(client, db, manager):
    db.add_all([Group(name="Soudeurs"), Group(name="Peintres")])
    db.commit()
    response = client.put(f"{USER}/group", json={"name": "Soudeurs"}, headers=manager)
    assert_error(response, 409, "groupNameAlreadyUsed")
    assert field_codes(response) == {("name", "groupNameAlreadyUsed")}
    painters = db.scalar(select(Group).where(Group.name == "Peintres"))
    response = client.post(f"{USER}/group/{painters.id}", json={"name": "Soudeurs"}, headers=manager)
    assert_error(response, 409, "groupNameAlreadyUsed")


def test_rename_a_group(client, db, manager):
    group = Group(name="Soudeurs", permissions=[GroupPermission(name="perm_EditPdv")])
    db.add(group)
    db.commit()
    response = client.post(f"{USER}/group/{group.id}", json={"name": "Soudeuses"}, headers=manager)
    assert response.json() == {"id": group.id, "name": "Soudeuses", "permissions": ["perm_EditPdv"]}
    # Renaming to its own name is not a conflict.
    assert (
        client.post(f"{USER}/group/{group.id}", json={"name": "Soudeuses"}, headers=manager).status_code
        == 200
    )


def test_delete_a_group_takes_its_permissions_from_its_members(client, db, make_user, login, manager):
    member = make_user("membre")
    group = Group(name="Éditeurs", permissions=[GroupPermission(name="perm_EditPdv")])
    member.groups.append(group)
    db.commit()
    member_headers = login(member)
    assert client.get(f"{API}/account/whoAmI", headers=member_headers).json()["permissions"] == [
        "perm_EditPdv"
    ]
    assert client.delete(f"{USER}/group/{group.id}", headers=manager).status_code == 204
    who = client.get(f"{API}/account/whoAmI", headers=member_headers).json()
    assert who["permissions"] == []
    assert [g["name"] for g in who["groups"]] == ["group-of-membre"]
    db.expire_all()
    assert db.get(User, member.id) is not None


@pytest.mark.parametrize(("method", "json"), [("POST", {"name": "Nouveau"}), ("DELETE", None)])
def test_unknown_groups_are_not_found(client, manager, method, json):
    response = client.request(method, f"{USER}/group/2000000000", json=json, headers=manager)
    assert_error(response, 404, "groupNotFound")


def test_search_groups_and_their_names(client, db, make_user, login):
    db.add_all([Group(name="Soudeurs"), Group(name="Peintres"), Group(name="100% soudure")])
    db.commit()
    headers = login(make_user("someone"))

    def names(query: str) -> list[str]:
        return [
            g["name"]
            for g in client.get(f"{USER}/searchGroup", params={"name": query}, headers=headers).json()
        ]

    assert names("soud") == ["100% soudure", "Soudeurs"]
    assert names("PEINT") == ["Peintres"]
    assert names("%") == ["100% soudure"]
    assert names("") == ["100% soudure", "Peintres", "Soudeurs", "group-of-someone"]
    ids = [g.id for g in db.scalars(select(Group).where(Group.name.in_(["Peintres", "Soudeurs"])))]
    named = client.post(f"{USER}/getGroupNames", json=[*ids, 999_999], headers=headers).json()
    assert [g["name"] for g in named] == ["Peintres", "Soudeurs"]
    assert set(named[0]) == {"id", "name"}
