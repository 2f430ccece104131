"""Sessions: whoAmI, renewal after an hour, logout and expiry."""

from datetime import timedelta

import pytest
from sqlalchemy import select

from spot.account.models import SessionToken
from spot.core.time import utcnow
from support import API, assert_error

WHO = f"{API}/account/whoAmI"
RENEW = f"{API}/account/renewToken"
LOGOUT = f"{API}/account/logout"


def _age_sessions(db, **delta: float) -> None:
    for session in db.scalars(select(SessionToken)):
        session.issued_at = session.issued_at - timedelta(**delta)
    db.commit()


def test_who_am_i_describes_the_user(client, make_user, login):
    user = make_user(
        "jeanne",
        ["perm_SetPermissions", "perm_EditPdv"],
        first_name="Jeanne",
        last_name="Dupont",
        external_id="E42",
    )
    body = client.get(WHO, headers=login(user)).json()
    assert body == {
        "id": user.id,
        "login": "jeanne",
        "firstName": "Jeanne",
        "lastName": "Dupont",
        "externalId": "E42",
        "email": None,
        "displayName": "Jeanne Dupont (E42)",
        "groups": [{"id": user.groups[0].id, "name": "group-of-jeanne"}],
        "active": True,
        "deactivatedAt": None,
        "language": "fr",
        "permissions": ["perm_EditPdv", "perm_SetPermissions"],
        "can": {
            "reportOnPaths": False,
            "importCourses": False,
            "downloadAuditPacks": False,
            "createQualifications": False,
            "editRequalification": False,
            "seeQualificationDashboards": False,
        },
    }


def test_permissions_are_the_union_of_the_groups(client, db, make_user, login):
    from spot.permissions.models import GroupPermission
    from spot.users.models import Group

    user = make_user("jeanne", ["perm_EditPdv"])
    user.groups.append(
        Group(
            name="extra",
            permissions=[GroupPermission(name="perm_EditPdv"), GroupPermission(name="perm_RemPdv")],
        )
    )
    db.commit()
    assert client.get(WHO, headers=login(user)).json()["permissions"] == ["perm_EditPdv", "perm_RemPdv"]


def test_renewal_within_the_hour_keeps_the_token(client, make_user, login):
    headers = login(make_user())
    response = client.post(RENEW, headers=headers)
    assert response.status_code == 200
    assert response.json() == {"token": headers["x-access-token"]}
    assert client.get(WHO, headers=headers).status_code == 200


def test_renewal_after_an_hour_issues_a_new_token_and_revokes_the_old(client, db, make_user, login):
    user = make_user()
    headers = login(user)
    _age_sessions(db, hours=1, minutes=1)
    response = client.post(RENEW, headers=headers)
    assert response.status_code == 200
    new_token = response.json()["token"]
    assert new_token != headers["x-access-token"]
    assert client.get(WHO, headers={"x-access-token": new_token}).json()["id"] == user.id
    assert_error(client.get(WHO, headers=headers), 401)
    assert_error(client.post(RENEW, headers=headers), 401)


def test_renewed_session_lasts_from_its_renewal(client, db, make_user, login):
    headers = login(make_user())
    _age_sessions(db, hours=2)
    new_token = client.post(RENEW, headers=headers).json()["token"]
    db.expire_all()
    fresh = db.scalars(select(SessionToken).where(SessionToken.revoked_at.is_(None))).one()
    assert fresh.expires_at > utcnow() + timedelta(hours=11)
    assert client.post(RENEW, headers={"x-access-token": new_token}).json()["token"] == new_token


def test_logout_revokes_the_token(client, make_user, login):
    headers = login(make_user())
    response = client.post(LOGOUT, headers=headers)
    assert response.status_code == 200
    assert response.json() == {"endSessionUrl": None}
    assert_error(client.get(WHO, headers=headers), 401, "sessionExpired")
    assert_error(client.post(LOGOUT, headers=headers), 401)


def test_logout_ends_only_that_session(client, make_user, login):
    user = make_user()
    first, second = login(user), login(user)
    client.post(LOGOUT, headers=first)
    assert client.get(WHO, headers=second).status_code == 200


def test_an_expired_token_is_refused(client, db, make_user, login):
    headers = login(make_user())
    for session in db.scalars(select(SessionToken)):
        session.expires_at = utcnow() - timedelta(seconds=1)
    db.commit()
    assert_error(client.get(WHO, headers=headers), 401, "sessionExpired")
    assert_error(client.post(RENEW, headers=headers), 401, "sessionExpired")


def test_an_unknown_token_is_refused(client):
    assert_error(client.get(WHO, headers={"x-access-token": "not-a-token"}), 401, "sessionExpired")


def test_no_token_is_refused(client):
    assert_error(client.get(WHO), 401, "notAuthenticated")
    assert_error(client.get(WHO, headers={"x-access-token": ""}), 401, "notAuthenticated")


def test_the_session_cookie_alone_is_not_a_session(client, make_user, login):
    """The server reads only the header: a cookie cannot be ridden by another site."""
    token = login(make_user())["x-access-token"]
    client.cookies.set("userToken", token)
    assert_error(client.get(WHO), 401, "notAuthenticated")


def test_deleting_a_user_ends_its_sessions(client, make_user, login):
    admin = make_user("admin", ["perm_UserManagement", "perm_SetPermissions"])
    victim = make_user("victim")
    victim_headers = login(victim)
    assert client.delete(f"{API}/user/byId/{victim.id}", headers=login(admin)).status_code == 204
    assert_error(client.get(WHO, headers=victim_headers), 401)


def test_the_principal_is_what_the_session_lookup_reads(client, db, make_user, login):
    """account.service.principal_for: who holds the session, with the names of its permissions, its
    groups and whether it sees every cartography; a frozen value, not a row."""
    import dataclasses

    from spot.account.service import principal_for

    user = make_user("lucie", ["perm_EditPdv", "perm_RemPdv"], first_name="Lucie", external_id="L7")
    token = login(user)["x-access-token"]
    found = principal_for(db, token=token)
    assert found is not None
    assert (found.id, found.display_name) == (user.id, "Lucie Nom1 (L7)")
    assert found.permission_names == {"perm_EditPdv", "perm_RemPdv"}
    assert found.group_ids == {user.groups[0].id}
    assert found.sees_every_cartography is True
    with pytest.raises(dataclasses.FrozenInstanceError):
        found.id = 0  # type: ignore[misc]
    assert principal_for(db, token="unknown") is None
    client.post(LOGOUT, headers={"x-access-token": token})
    db.expire_all()
    assert principal_for(db, token=token) is None
