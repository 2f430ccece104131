"""A person's e-mail address, language and activity: leavers are deactivated, never deleted once anything
refers to them; a deactivated person cannot sign in, their sessions end at once, they leave the pickers,
and reactivation restores them."""

import pytest
from sqlalchemy import select

from spot.core.history_models import HistoryEntry
from spot.core.time import utcnow
from spot.users.models import User
from support import API, PASSWORD, assert_error, field_codes

USER = f"{API}/user"
ACCOUNT = f"{API}/account"


@pytest.fixture
def manager(make_user, login):
    make_user("keeper", ["perm_SetPermissions"])
    return login(make_user("manager", ["perm_UserManagement"]))


def _create(client, headers, **fields):
    body = {"login": "nouveau", "password": "long-enough-1", **fields}
    return client.put(f"{USER}/create", json=body, headers=headers)


def _sign_in(client, login, password=PASSWORD):
    return client.post(f"{ACCOUNT}/login", json={"username": login, "password": password})


# --- e-mail address and language ----------------------------------------------------------------------


def test_an_email_address_is_checked_and_kept_in_lower_case(client, manager):
    response = _create(client, manager, email="Nina.Petit@Usine.Example", language="en")
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["email"], body["language"], body["active"]) == ("nina.petit@usine.example", "en", True)


@pytest.mark.parametrize(
    ("email", "code"),
    [
        ("pas-une-adresse", "invalidEmail"),
        ("a@b", "invalidEmail"),
        ("deux@@usine.example", "invalidEmail"),
        (" x@usine.example", "beginEndWhitespaceError"),
        ("x@usine\x00.example", "invalidCharacter"),
        ("x" * 310 + "@usine.example", "invalidEmail"),
    ],
)
def test_what_is_not_an_email_address_is_refused(client, manager, email, code):
    response = _create(client, manager, email=email)
    assert_error(response, 422)
    assert field_codes(response) == {("email", code)}


@pytest.mark.parametrize("empty", ["", None])
def test_no_email_address_is_none(client, manager, empty):
    assert _create(client, manager, email=empty).json()["email"] is None


def test_an_email_address_belongs_to_one_person(client, make_user, manager):
    assert _create(client, manager, login="a", email="meme@usine.example").status_code == 200
    response = _create(client, manager, login="b", email="MEME@usine.example")
    assert_error(response, 409, "emailAlreadyUsed")
    assert field_codes(response) == {("email", "emailAlreadyUsed")}
    # Two people without one are fine.
    assert _create(client, manager, login="c").status_code == 200
    assert _create(client, manager, login="d").status_code == 200


def test_the_email_address_is_for_the_person_and_those_who_manage_users(client, make_user, login, manager):
    person = _create(client, manager, email="nina@usine.example").json()
    other = login(make_user("collegue"))
    assert client.get(f"{USER}/byId/{person['id']}", headers=other).json()["email"] is None
    assert client.get(f"{USER}/byId/{person['id']}", headers=manager).json()["email"] == "nina@usine.example"


def test_an_unknown_language_is_refused(client, manager):
    assert_error(_create(client, manager, language="de"), 422)


def test_the_language_the_user_switches_to_is_saved(client, db, make_user, login):
    user = make_user("nina")
    headers = login(user)
    response = client.post(f"{ACCOUNT}/language", json={"language": "en"}, headers=headers)
    assert response.status_code == 204, response.text
    assert client.get(f"{ACCOUNT}/whoAmI", headers=headers).json()["language"] == "en"
    assert_error(client.post(f"{ACCOUNT}/language", json={"language": "es"}, headers=headers), 422)
    assert_error(client.post(f"{ACCOUNT}/language", json={"language": "fr"}), 401)


def test_editing_a_person_keeps_the_language_unless_given(client, make_user, manager):
    person = _create(client, manager, language="en").json()
    body = {"login": "nouveau", "email": "n@usine.example"}
    edited = client.post(f"{USER}/byId/{person['id']}", json=body, headers=manager).json()
    assert (edited["language"], edited["email"]) == ("en", "n@usine.example")
    edited = client.post(f"{USER}/byId/{person['id']}", json={**body, "language": "fr"}, headers=manager)
    assert edited.json()["language"] == "fr"


# --- leavers ----------------------------------------------------------------------------------------------


def _deactivate(client, headers, user_id):
    return client.post(f"{USER}/byId/{user_id}/deactivate", headers=headers)


def test_a_deactivated_person_cannot_sign_in_and_their_sessions_end_at_once(
    client, make_user, login, manager
):
    person = make_user("nina")
    session = login(person)
    assert client.get(f"{ACCOUNT}/whoAmI", headers=session).status_code == 200
    response = _deactivate(client, manager, person.id)
    assert response.status_code == 200, response.text
    assert response.json()["active"] is False and response.json()["deactivatedAt"]
    assert_error(client.get(f"{ACCOUNT}/whoAmI", headers=session), 401)
    # The right password says why; a wrong one says no more than for anyone.
    assert_error(_sign_in(client, "nina"), 401, "accountDeactivated")
    assert_error(_sign_in(client, "nina", "wrong-password"), 401, "Invalid login or password")


def test_reactivation_restores_sign_in_but_not_the_old_sessions(client, make_user, login, manager):
    person = make_user("nina")
    session = login(person)
    _deactivate(client, manager, person.id)
    response = client.post(f"{USER}/byId/{person.id}/reactivate", headers=manager)
    assert response.status_code == 200, response.text
    assert (response.json()["active"], response.json()["deactivatedAt"]) == (True, None)
    assert_error(client.get(f"{ACCOUNT}/whoAmI", headers=session), 401)
    assert _sign_in(client, "nina").status_code == 200


def test_deactivated_people_leave_the_pickers(client, db, make_user, login, manager):
    staying, leaving = (
        make_user("reste", first_name="Anne", last_name="Reste"),
        make_user("part", first_name="Anne", last_name="Partie"),
    )
    group = staying.groups[0]
    leaving.groups.append(group)
    db.commit()
    _deactivate(client, manager, leaving.id)
    found = client.get(f"{USER}/search", params={"name": "anne"}, headers=manager).json()
    assert [u["id"] for u in found] == [staying.id]
    # A filter on what people did still finds those who left.
    params = {"name": "anne", "includeInactive": "true"}
    found = client.get(f"{USER}/search", params=params, headers=manager).json()
    assert [(u["id"], u["active"]) for u in found] == [(leaving.id, False), (staying.id, True)]
    members = client.post(f"{USER}/byGroups", json=[group.id], headers=manager).json()
    assert [u["id"] for u in members] == [staying.id]
    # Named wherever they appear: their name is still told by id.
    names = client.post(f"{USER}/getUserNames", json=[leaving.id], headers=manager).json()
    assert names == [{"id": leaving.id, "name": "Anne Partie"}]
    # The users list of those who manage them shows them, and filters on it.
    page = client.post(f"{USER}/query", json={"filter": "active equals false"}, headers=manager).json()
    assert [u["id"] for u in page["results"]] == [leaving.id]


def test_only_those_who_manage_users_deactivate_and_never_themselves(client, make_user, login, manager):
    person = make_user("nina")
    assert_error(_deactivate(client, login(make_user("collegue")), person.id), 403)
    me = client.get(f"{ACCOUNT}/whoAmI", headers=manager).json()
    assert_error(_deactivate(client, manager, me["id"]), 409, "cannotDeactivateYourself")
    assert_error(_deactivate(client, manager, 999999), 404, "userNotFound")


def test_the_last_active_administrator_cannot_be_deactivated(client, db, make_user, login):
    admin = make_user("admin", ["perm_SetPermissions", "perm_UserManagement"])
    other = make_user("autre", ["perm_SetPermissions"])
    headers = login(admin)
    assert _deactivate(client, headers, other.id).status_code == 200
    # The deactivated one no longer counts: the admin is the last, and giving the last group away fails.
    response = client.post(f"{USER}/byId/{admin.id}/groups", json={"groupIds": []}, headers=headers)
    assert_error(response, 409, "lastAdministrator")


def test_a_person_nothing_refers_to_is_deleted_one_with_history_is_not(client, db, make_user, login, manager):
    fresh, known = make_user("fresh"), make_user("known")
    login(fresh)  # a session is the person's own, not history
    db.add(HistoryEntry(at=utcnow(), user_id=known.id, item_type="site", item_id=1, mode="R"))
    db.commit()
    assert client.delete(f"{USER}/byId/{fresh.id}", headers=manager).status_code == 204
    assert_error(client.delete(f"{USER}/byId/{known.id}", headers=manager), 409, "userHasHistory")
    db.expire_all()
    assert db.scalar(select(User.id).where(User.id == known.id)) == known.id


def test_every_demo_person_has_an_email_address(client, demo_org, db):
    emails = dict(db.execute(select(User.login, User.email)).all())
    assert emails["admin"] == "alice.martin@usine-demo.example"
    assert emails["referent"] == "emilie.laurent@usine-demo.example"
    assert all(emails.values()) and len(set(emails.values())) == len(emails)


# --- a person who left stays named, marked as inactive ------------------------------------------------


def test_a_learner_who_left_is_marked_inactive_on_the_path_they_signed(client, db, make_user, login):
    from training.paths_support import Cast, get, make_module, make_path, move_to

    make_user("keeper", ["perm_SetPermissions"])
    cast = Cast.of(make_user, login)
    path_id = make_path(client, cast, [make_module(db)])
    move_to(client, cast, path_id, "archived")
    before = get(client, cast, path_id)
    assert before["inactivePeople"] == []
    assert {s["userActive"] for s in before["signatures"]} == {True}

    learner = db.get(User, cast.id("learner"))
    learner.active = False
    db.commit()
    after = get(client, cast, path_id)
    assert after["inactivePeople"] == [cast.id("learner")]
    assert after["learner"] == before["learner"]  # still named
    learner_signatures = [s for s in after["signatures"] if s["userId"] == cast.id("learner")]
    assert learner_signatures and all(s["userActive"] is False for s in learner_signatures)
    module_signatures = after["assignedModules"][0]["signatures"]
    assert [s["userActive"] for s in module_signatures if s["userId"] == cast.id("learner")] == [False]
