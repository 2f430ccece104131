"""User calls: create, read, edit, delete, groups of a user, password, and the look-ups by id, name, login."""

import pytest
from sqlalchemy import func, select

from spot.users.models import Group, User
from support import API, PASSWORD, assert_error, field_codes

USER = f"{API}/user"
MANAGER = ["perm_UserManagement"]
ADMIN = ["perm_UserManagement", "perm_SetPermissions"]


@pytest.fixture
def manager(make_user, login):
    """A user manager, next to a permission administrator so that lastAdministrator stays out of the way."""
    make_user("keeper", ["perm_SetPermissions"])
    return login(make_user("manager", MANAGER))


def _create(client, headers, **fields):
    body = {"login": "nouveau", "password": "long-enough-1", **fields}
    return client.put(f"{USER}/create", json=body, headers=headers)


# --- create -----------------------------------------------------------------------------------------------


def test_create_a_user(client, db, manager):
    group = Group(name="Opérateurs")
    db.add(group)
    db.commit()
    response = _create(
        client, manager, firstName="Nina", lastName="Petit", externalId="E-7", groupIds=[group.id]
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["login"] == "nouveau"
    assert body["displayName"] == "Nina Petit (E-7)"
    assert body["groups"] == [{"id": group.id, "name": "Opérateurs"}]
    assert body["permissions"] == []
    assert "password" not in body and "passwordHash" not in body
    # The new user can sign in with its password.
    login = client.post(f"{API}/account/login", json={"username": "nouveau", "password": "long-enough-1"})
    assert login.status_code == 200


def test_create_with_only_the_required_fields(client, manager):
    body = _create(client, manager).json()
    assert (body["firstName"], body["lastName"], body["externalId"], body["groups"]) == ("", "", None, [])
    assert body["displayName"] == "nouveau"


def test_an_empty_external_id_is_none(client, manager):
    body = _create(client, manager, firstName="Nina", lastName="Petit", externalId="").json()
    assert (body["firstName"], body["lastName"], body["externalId"]) == ("Nina", "Petit", None)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"login": ""}, ("login", "emptyFieldError")),
        ({"login": "   "}, ("login", "emptyFieldError")),
        ({"login": " jeanne"}, ("login", "beginEndWhitespaceError")),
        ({"login": "jeanne\t"}, ("login", "beginEndWhitespaceError")),
        ({"password": "short77"}, ("password", "string_too_short")),
        ({"password": None}, ("password", "string_type")),
        ({"login": "x" * 201}, ("login", "string_too_long")),
        ({"groupIds": ["a"]}, ("groupIds.0", "invalidId")),
        ({"firstName": " Nina"}, ("firstName", "beginEndWhitespaceError")),
        ({"lastName": "   "}, ("lastName", "beginEndWhitespaceError")),
        ({"externalId": "E-7 "}, ("externalId", "beginEndWhitespaceError")),
    ],
)
def test_create_refuses_bad_fields(client, manager, fields, expected):
    response = _create(client, manager, **fields)
    assert_error(response, 422, "atLeastOneErrorLeft")
    assert expected in field_codes(response)


def test_create_requires_login_and_password(client, manager):
    response = client.put(f"{USER}/create", json={}, headers=manager)
    assert_error(response, 422)
    assert field_codes(response) == {("login", "emptyFieldError"), ("password", "emptyFieldError")}


def test_password_of_exactly_eight_characters_is_accepted(client, manager):
    assert _create(client, manager, password="12345678").status_code == 200


def test_duplicate_login_is_a_conflict(client, db, manager):
    response = _create(client, manager, login="manager")
    assert_error(response, 409, "loginAlreadyUsed")
    assert field_codes(response) == {("login", "loginAlreadyUsed")}
    assert db.scalar(select(func.count()).select_from(User).where(User.login == "manager")) == 1


def test_duplicate_external_id_is_a_conflict(client, make_user, manager):
    make_user("other", external_id="E-1")
    response = _create(client, manager, externalId="E-1")
    assert_error(response, 409, "externalIdAlreadyUsed")
    assert field_codes(response) == {("externalId", "externalIdAlreadyUsed")}


def test_unknown_group_is_refused(client, db, manager):
    response = _create(client, manager, groupIds=[987654])
    assert_error(response, 400, "unknownGroup")
    assert field_codes(response) == {("groupIds", "invalidValue")}
    assert db.scalar(select(func.count()).select_from(User).where(User.login == "nouveau")) == 0


# --- read -------------------------------------------------------------------------------------------------


def test_get_a_user_by_id(client, make_user, login):
    target = make_user("cible", ["perm_EditPdv"], first_name="Ana", last_name="Bel")
    reader = login(make_user("reader", ["perm_UserManagement"]))
    body = client.get(f"{USER}/byId/{target.id}", headers=reader).json()
    assert body["login"] == "cible"
    assert body["displayName"] == "Ana Bel"
    assert body["permissions"] == ["perm_EditPdv"]


@pytest.mark.parametrize(
    ("method", "path", "json"),
    [
        ("GET", "/byId/{missing}", None),
        ("POST", "/byId/{missing}", {"login": "x"}),
        ("DELETE", "/byId/{missing}", None),
        ("POST", "/byId/{missing}/groups", {"groupIds": []}),
        ("POST", "/changePassword/{missing}", {"password": "long-enough-1"}),
        ("GET", "/byExternalId/nope", None),
        ("GET", "/byLogin?login=nope", None),
        ("GET", "/byName?name=Nobody%20Here", None),
    ],
)
def test_unknown_users_are_not_found(client, manager, method, path, json):
    response = client.request(method, USER + path.format(missing=2_000_000_000), json=json, headers=manager)
    assert_error(response, 404, "userNotFound")


def test_look_ups_by_external_id_login_and_name(client, make_user, login):
    target = make_user("cible", first_name="Ana", last_name="Bel", external_id="EXT 9")
    headers = login(make_user(permissions=["perm_UserManagement"]))
    assert client.get(f"{USER}/byExternalId/EXT 9", headers=headers).json()["id"] == target.id
    assert client.get(f"{USER}/byLogin", params={"login": "cible"}, headers=headers).json()["id"] == target.id
    assert client.get(f"{USER}/byName", params={"name": "ana bel"}, headers=headers).json()["id"] == target.id
    assert_error(client.get(f"{USER}/byName", params={"name": ""}, headers=headers), 422)


def test_search_by_name_login_or_external_id(client, make_user, login):
    ana = make_user("abel", first_name="Ana", last_name="Bel", external_id="X-77")
    bob = make_user("bcorp", first_name="Bob", last_name="Corp")
    headers = login(make_user("searcher", ["perm_UserManagement"], first_name="Zoé", last_name="Zed"))

    def ids(name: str) -> list[int]:
        response = client.get(f"{USER}/search", params={"name": name}, headers=headers)
        assert response.status_code == 200
        return [u["id"] for u in response.json()]

    assert ids("ana") == [ana.id]
    assert ids("BEL ANA") == [ana.id]
    assert ids("ana bel") == [ana.id]
    assert ids("bcor") == [bob.id]
    assert ids("x-77") == [ana.id]
    assert ids("nothing like it") == []
    assert len(ids("")) == 3


def test_search_treats_like_wildcards_literally(client, make_user, login):
    make_user("plain", first_name="Ana", last_name="Bel")
    percent = make_user("pct", first_name="100%", last_name="Sure")
    headers = login(make_user("searcher"))
    found = client.get(f"{USER}/search", params={"name": "%"}, headers=headers).json()
    assert [u["id"] for u in found] == [percent.id]
    assert client.get(f"{USER}/search", params={"name": "_"}, headers=headers).json() == []


def test_search_is_limited_and_sorted_by_last_name(client, db, make_user, login):
    headers = login(make_user("searcher", last_name="AAA"))
    db.add_all([User(login=f"bulk{n:02}", first_name="B", last_name=f"Bulk{n:02}") for n in range(40)])
    db.commit()
    found = client.get(f"{USER}/search", params={"name": "bulk"}, headers=headers).json()
    assert len(found) == 30
    assert [u["lastName"] for u in found] == [f"Bulk{n:02}" for n in range(30)]


def test_names_by_ids(client, make_user, login):
    ana = make_user("abel", first_name="Ana", last_name="Bel", external_id="E1")
    bob = make_user("bcorp", first_name="Bob", last_name="Corp")
    headers = login(make_user("searcher", last_name="Zed"))
    response = client.post(f"{USER}/getUserNames", json=[bob.id, ana.id, 999_999], headers=headers)
    assert response.json() == [{"id": ana.id, "name": "Ana Bel (E1)"}, {"id": bob.id, "name": "Bob Corp"}]
    assert client.post(f"{USER}/getUserNames", json=[], headers=headers).json() == []
    full = client.post(f"{USER}/byIds", json=[ana.id], headers=headers).json()
    assert [u["id"] for u in full] == [ana.id]


def test_id_lists_are_bounded(client, make_user, login):
    headers = login(make_user())
    response = client.post(f"{USER}/byIds", json=list(range(1001)), headers=headers)
    assert_error(response, 422)
    assert_error(client.post(f"{USER}/byIds", json={"ids": [1]}, headers=headers), 422)


def test_users_by_groups_and_groups_of_users(client, db, make_user, login):
    ana = make_user("abel", first_name="Ana", last_name="Bel")
    bob = make_user("bcorp", first_name="Bob", last_name="Corp")
    shared = Group(name="Partagé")
    db.add(shared)
    ana.groups.append(shared)
    bob.groups.append(shared)
    db.commit()
    headers = login(make_user("searcher", last_name="Zed"))
    members = client.post(f"{USER}/byGroups", json=[shared.id], headers=headers).json()
    assert [u["id"] for u in members] == [ana.id, bob.id]
    only_ana = client.post(f"{USER}/byGroups", json=[ana.groups[0].id], headers=headers).json()
    assert [u["id"] for u in only_ana] == [ana.id]
    assert client.post(f"{USER}/byGroups", json=[], headers=headers).json() == []
    groups = client.post(f"{USER}/getUserGroups", json=[ana.id], headers=headers).json()
    assert groups == [
        {
            "id": ana.id,
            "name": "Ana Bel",
            "groups": [{"id": g.id, "name": g.name} for g in sorted(ana.groups, key=lambda g: g.name)],
        }
    ]


# --- edit -------------------------------------------------------------------------------------------------


def test_edit_a_user(client, db, make_user, manager):
    target = make_user("cible", ["perm_EditPdv"])
    other = Group(name="Autre")
    db.add(other)
    db.commit()
    body = {
        "login": "renamed",
        "firstName": "Léa",
        "lastName": "Roy",
        "externalId": "L-1",
        "groupIds": [other.id],
    }
    response = client.post(f"{USER}/byId/{target.id}", json=body, headers=manager)
    assert response.status_code == 200, response.text
    edited = response.json()
    assert (edited["login"], edited["displayName"]) == ("renamed", "Léa Roy (L-1)")
    assert edited["groups"] == [{"id": other.id, "name": "Autre"}]
    assert edited["permissions"] == []


def test_edit_without_group_ids_keeps_the_groups(client, make_user, manager):
    target = make_user("cible", ["perm_EditPdv"])
    response = client.post(
        f"{USER}/byId/{target.id}", json={"login": "cible", "firstName": "X"}, headers=manager
    )
    assert response.json()["permissions"] == ["perm_EditPdv"]


def test_edit_keeping_its_own_login_and_external_id_is_not_a_conflict(client, make_user, manager):
    target = make_user("cible", external_id="E-5")
    response = client.post(
        f"{USER}/byId/{target.id}", json={"login": "cible", "externalId": "E-5"}, headers=manager
    )
    assert response.status_code == 200


def test_edit_to_another_users_login_or_external_id_is_a_conflict(client, make_user, manager):
    make_user("taken", external_id="E-T")
    target = make_user("cible")
    response = client.post(f"{USER}/byId/{target.id}", json={"login": "taken"}, headers=manager)
    assert_error(response, 409, "loginAlreadyUsed")
    assert field_codes(response) == {("login", "loginAlreadyUsed")}
    response = client.post(
        f"{USER}/byId/{target.id}", json={"login": "cible", "externalId": "E-T"}, headers=manager
    )
    assert_error(response, 409, "externalIdAlreadyUsed")


@pytest.mark.parametrize(
    ("new_login", "code"),
    [("", "emptyFieldError"), ("cible ", "beginEndWhitespaceError"), (None, "string_type")],
)
def test_edit_refuses_a_bad_login(client, make_user, manager, new_login, code):
    target = make_user("cible")
    response = client.post(f"{USER}/byId/{target.id}", json={"login": new_login}, headers=manager)
    assert_error(response, 422)
    assert field_codes(response) == {("login", code)}


def test_set_the_groups_of_a_user(client, db, make_user, manager):
    target = make_user("cible")
    a, b = Group(name="A"), Group(name="B")
    db.add_all([a, b])
    db.commit()
    response = client.post(
        f"{USER}/byId/{target.id}/groups", json={"groupIds": [b.id, a.id]}, headers=manager
    )
    assert [g["name"] for g in response.json()["groups"]] == ["A", "B"]
    response = client.post(f"{USER}/byId/{target.id}/groups", json={"groupIds": []}, headers=manager)
    assert response.json()["groups"] == []
    assert_error(
        client.post(f"{USER}/byId/{target.id}/groups", json={"groupIds": [424242]}, headers=manager),
        400,
        "unknownGroup",
    )


# --- password ---------------------------------------------------------------------------------------------


def _can_sign_in(client, login: str, password: str) -> bool:
    return (
        client.post(f"{API}/account/login", json={"username": login, "password": password}).status_code == 200
    )


def test_a_user_changes_its_own_password(client, make_user, login):
    user = make_user("jeanne")
    response = client.post(
        f"{USER}/changePassword/{user.id}", json={"password": "nouveau-secret"}, headers=login(user)
    )
    assert response.status_code == 204
    assert _can_sign_in(client, "jeanne", "nouveau-secret")
    assert not _can_sign_in(client, "jeanne", PASSWORD)


def test_a_manager_changes_another_users_password(client, make_user, manager):
    target = make_user("cible")
    assert (
        client.post(
            f"{USER}/changePassword/{target.id}", json={"password": "reset-by-admin"}, headers=manager
        ).status_code
        == 204
    )
    assert _can_sign_in(client, "cible", "reset-by-admin")


def test_password_change_needs_eight_characters(client, make_user, login):
    user = make_user("jeanne")
    response = client.post(
        f"{USER}/changePassword/{user.id}", json={"password": "1234567"}, headers=login(user)
    )
    assert_error(response, 422)
    assert field_codes(response) == {("password", "string_too_short")}


# --- delete -----------------------------------------------------------------------------------------------


def test_delete_a_user(client, db, make_user, manager):
    target = make_user("cible")
    target_id = target.id
    assert client.delete(f"{USER}/byId/{target_id}", headers=manager).status_code == 204
    db.expire_all()
    assert db.get(User, target_id) is None
    assert_error(client.get(f"{USER}/byId/{target_id}", headers=manager), 404)


def test_nobody_deletes_itself(client, make_user, login):
    make_user("keeper", ["perm_SetPermissions"])
    me = make_user("me", ADMIN)
    assert_error(client.delete(f"{USER}/byId/{me.id}", headers=login(me)), 409, "cannotDeleteYourself")


def test_a_login_taken_between_the_check_and_the_write_is_still_a_conflict(client, manager, monkeypatch):
    """Two simultaneous creations: the unique constraint catches what the check could not see."""
    from spot.users import service

    check = service._check_unique
    calls = iter([lambda **_: None])
    monkeypatch.setattr(service, "_check_unique", lambda db, **kw: next(calls, check)(db=db, **kw))
    response = _create(client, manager, login="manager")
    assert_error(response, 409, "loginAlreadyUsed")
    assert field_codes(response) == {("login", "loginAlreadyUsed")}


def test_an_empty_external_id_is_none_and_a_blank_one_is_refused(client, make_user, manager):
    assert _create(client, manager, login="one", externalId="").json()["externalId"] is None
    blank = _create(client, manager, login="two", externalId="   ")
    assert field_codes(blank) == {("externalId", "beginEndWhitespaceError")}


def test_a_password_change_ends_the_users_other_sessions(client, make_user, login):
    user = make_user("jeanne")
    current, other = login(user), login(user)
    response = client.post(
        f"{USER}/changePassword/{user.id}", json={"password": "nouveau-secret"}, headers=current
    )
    assert response.status_code == 204
    assert client.get(f"{API}/account/whoAmI", headers=current).status_code == 200
    assert client.get(f"{API}/account/whoAmI", headers=other).status_code == 401


def test_a_reset_by_a_manager_ends_every_session_of_the_user(client, make_user, manager, login):
    target = make_user("cible")
    session = login(target)
    client.post(f"{USER}/changePassword/{target.id}", json={"password": "reset-by-admin"}, headers=manager)
    assert client.get(f"{API}/account/whoAmI", headers=session).status_code == 401
    assert client.get(f"{API}/account/whoAmI", headers=manager).status_code == 200


# --- display names ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "last", "external_id", "expected"),
    [
        ("Émilie", "Laurent", None, "Émilie Laurent"),
        ("Émilie", "", None, "Émilie"),
        ("", "Laurent", None, "Laurent"),
        ("", "", None, "{login}"),
        ("", "", "M000123", "{login} (M000123)"),
        ("Jean", "Dupont", "M42", "Jean Dupont (M42)"),
    ],
)
def test_the_database_computes_the_same_display_name_as_python(
    db, make_user, first, last, external_id, expected
):
    extra = {"external_id": external_id} if external_id else {}
    user = make_user(first_name=first, last_name=last, **extra)
    in_sql = db.scalar(select(User.display_name).where(User.id == user.id))
    assert in_sql == user.display_name == expected.format(login=user.login)


def test_a_user_removed_while_its_password_changes_is_a_conflict(client, make_user, manager, monkeypatch):
    """The hash takes a while, off the event loop: another request may remove the user meanwhile."""
    from spot import db as database
    from spot.core.passwords import hash_password
    from spot.users import service

    target = make_user("partante")

    def hash_while_removed(password: str) -> str:
        with database.session_factory()() as other:
            other.delete(other.get(User, target.id))
            other.commit()
        return hash_password(password)

    monkeypatch.setattr(service, "hash_password", hash_while_removed)
    url = f"{USER}/changePassword/{target.id}"
    response = client.post(url, json={"password": "trop-tard!"}, headers=manager)
    assert_error(response, 409, "conflictingData")
