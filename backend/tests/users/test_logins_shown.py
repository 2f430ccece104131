"""Logins are shown to those who manage users (perm_UserManagement) and to each user their own; the
calls that serve people pickers give everyone else names, never logins."""

import pytest

from support import API, assert_error

USER = f"{API}/user"


@pytest.fixture
def people(make_user, login, db):
    target = make_user("t.target", first_name="Tina", last_name="Target", external_id="T-1")
    plain = make_user("p.plain", first_name="Paul", last_name="Plain")
    manager = make_user("m.manager", ["perm_UserManagement"], first_name="Mia", last_name="Manager")
    return {
        "target": target.id,
        "group": target.groups[0].id,
        "plain": plain.id,
        "plainHeaders": login(plain),
        "managerHeaders": login(manager),
    }


def _reads(client, people) -> dict:
    """Every call open to any signed-in user that answers users, as (name → users answered)."""
    target = people["target"]

    def call(headers: dict) -> dict:
        answers = {
            "search": client.get(f"{USER}/search", params={"name": "tina"}, headers=headers),
            "byIds": client.post(f"{USER}/byIds", json=[target], headers=headers),
            "byGroups": client.post(f"{USER}/byGroups", json=[people["group"]], headers=headers),
            "byId": client.get(f"{USER}/byId/{target}", headers=headers),
            "byExternalId": client.get(f"{USER}/byExternalId/T-1", headers=headers),
            "byName": client.get(f"{USER}/byName", params={"name": "Tina Target"}, headers=headers),
        }
        for response in answers.values():
            assert response.status_code == 200, response.text
        return {name: r.json() if isinstance(r.json(), list) else [r.json()] for name, r in answers.items()}

    return call


def test_people_pickers_give_names_but_no_login_to_other_users(client, people):
    answered = _reads(client, people)(people["plainHeaders"])
    for name, users in answered.items():
        assert [(u["id"], u["displayName"], u["login"]) for u in users] == [
            (people["target"], "Tina Target (T-1)", None)
        ], name


def test_those_who_manage_users_see_logins(client, people):
    answered = _reads(client, people)(people["managerHeaders"])
    for name, users in answered.items():
        assert [u["login"] for u in users] == ["t.target"], name


def test_each_user_sees_their_own_login(client, people):
    headers = people["plainHeaders"]
    assert client.get(f"{USER}/byId/{people['plain']}", headers=headers).json()["login"] == "p.plain"
    assert client.get(f"{API}/account/whoAmI", headers=headers).json()["login"] == "p.plain"


def test_a_login_is_searched_only_by_those_who_see_logins(client, people):
    def found(headers: dict) -> list[int]:
        answer = client.get(f"{USER}/search", params={"name": "t.targ"}, headers=headers)
        return [u["id"] for u in answer.json()]

    assert found(people["plainHeaders"]) == []
    assert found(people["managerHeaders"]) == [people["target"]]


def test_the_list_of_users_and_the_look_up_by_login_need_user_management(client, people):
    plain, manager = people["plainHeaders"], people["managerHeaders"]
    page = {"filter": "login startsWith t", "sort": "", "page": 1, "pageSize": 20}
    assert_error(client.post(f"{USER}/query", json=page, headers=plain), 403)
    assert_error(client.get(f"{USER}/byLogin", params={"login": "t.target"}, headers=plain), 403)
    listed = client.post(f"{USER}/query", json=page, headers=manager).json()["results"]
    assert [u["login"] for u in listed] == ["t.target"]
    by_login = client.get(f"{USER}/byLogin", params={"login": "t.target"}, headers=manager)
    assert by_login.json()["id"] == people["target"]
