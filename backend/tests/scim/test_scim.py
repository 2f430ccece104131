"""SCIM 2.0 provisioning (RFC 7643, 7644) as Microsoft Entra ID and Okta use it: people and groups
created, found by filters, paged, changed by PUT and by PATCH in the forms each provider sends,
deactivated (never deleted) by DELETE; every refusal a SCIM error body. API tokens open SCIM only."""

import json
import logging

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from spot import cli
from spot.apitokens import service as tokens
from spot.apitokens.models import ApiToken
from spot.users.models import Group, User
from support import API, assert_error

SCIM = f"{API}/scim/v2"
USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User"
GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group"
PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error"


@pytest.fixture
def scim(db, make_user):
    """Headers carrying a live token of the scim scope; an administrator exists (the keeper)."""
    make_user("keeper", ["perm_SetPermissions"])
    _, value = tokens.create(db, name="entra", scope="scim", by=None)
    db.commit()
    return {"Authorization": f"Bearer {value}", "Content-Type": "application/scim+json"}


def _error(response, status: int, scim_type: str | None = None) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/scim+json"
    body = response.json()
    assert body["schemas"] == [ERROR_SCHEMA] and body["status"] == str(status), body
    assert body.get("scimType") == scim_type, body
    return body


def _entra_user(user_name="nina.petit@usine.example", **more) -> dict:
    """What Entra ID's provisioning service posts (its default attribute mappings)."""
    return {
        "schemas": [USER_SCHEMA, "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
        "externalId": "nina",
        "userName": user_name,
        "active": True,
        "displayName": "Nina Petit",
        "title": "Opératrice",
        "preferredLanguage": "fr-FR",
        "emails": [{"primary": True, "type": "work", "value": "Nina.Petit@Usine.Example"}],
        "name": {"formatted": "Nina Petit", "familyName": "Petit", "givenName": "Nina"},
        "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {"department": "Emboutissage"},
        **more,
    }


def _post_user(client, scim, **more):
    response = client.post(f"{SCIM}/Users", content=json.dumps(_entra_user(**more)), headers=scim)
    assert response.status_code == 201, response.text
    return response.json()


def _patch(client, scim, path, *operations):
    body = {"schemas": [PATCH_SCHEMA], "Operations": list(operations)}
    return client.patch(f"{SCIM}{path}", content=json.dumps(body), headers=scim)


# --- API tokens --------------------------------------------------------------------------------------


def test_the_command_line_prints_a_token_last_that_opens_scim_and_only_its_hash_is_kept(
    client, db, make_user
):
    make_user("keeper", ["perm_SetPermissions"])
    result = CliRunner().invoke(cli.app, ["create-api-token", "Entra ID", "--scope", "scim"])
    assert result.exit_code == 0, result.output
    value = result.stdout.splitlines()[-1]
    assert value.startswith("spot_") and len(value) > 40
    stored = db.scalar(select(ApiToken))
    assert (stored.name, stored.scope, stored.last_used_at) == ("Entra ID", "scim", None)
    assert value not in stored.token_hash
    assert client.get(f"{SCIM}/Users", headers={"Authorization": f"Bearer {value}"}).status_code == 200
    db.expire_all()
    assert db.scalar(select(ApiToken)).last_used_at is not None


def test_the_command_line_refuses_an_unknown_scope(app):
    result = CliRunner().invoke(cli.app, ["create-api-token", "x", "--scope", "everything"])
    assert result.exit_code == 2


def test_a_token_opens_its_scope_only_and_a_session_does_not_open_scim(client, scim, make_user, login):
    value = scim["Authorization"].removeprefix("Bearer ")
    assert_error(client.get(f"{API}/account/whoAmI", headers={"x-access-token": value}), 401)
    assert_error(client.get(f"{API}/user/search", headers={"Authorization": f"Bearer {value}"}), 401)
    session = login(make_user("manager", ["perm_UserManagement"]))["x-access-token"]
    _error(client.get(f"{SCIM}/Users", headers={"Authorization": f"Bearer {session}"}), 401)
    _error(client.get(f"{SCIM}/Users"), 401)
    _error(client.get(f"{SCIM}/Users", headers={"Authorization": f"Basic {value}"}), 401)


def test_tokens_are_listed_created_once_and_revoked_by_those_who_manage_users(client, make_user, login):
    make_user("keeper", ["perm_SetPermissions"])
    manager = login(make_user("manager", ["perm_UserManagement"], first_name="Marc", last_name="Roy"))
    other = login(make_user("other", ["perm_SetPermissions"]))
    assert_error(client.get(f"{API}/apiToken/list", headers=other), 403)
    assert_error(
        client.post(f"{API}/apiToken/create", json={"name": "x", "scope": "scim"}, headers=other), 403
    )
    assert_error(
        client.post(f"{API}/apiToken/create", json={"name": " ", "scope": "scim"}, headers=manager), 422
    )
    assert_error(
        client.post(f"{API}/apiToken/create", json={"name": "x", "scope": "all"}, headers=manager), 422
    )

    created = client.post(f"{API}/apiToken/create", json={"name": "Okta", "scope": "scim"}, headers=manager)
    assert created.status_code == 201, created.text
    value, record = created.json()["token"], created.json()["record"]
    assert (record["name"], record["scope"], record["createdBy"], record["revokedAt"]) == (
        "Okta",
        "scim",
        "Marc Roy",
        None,
    )
    listed = client.get(f"{API}/apiToken/list", headers=manager).json()
    assert [t["name"] for t in listed] == ["Okta"] and value not in json.dumps(listed)
    bearer = {"Authorization": f"Bearer {value}"}
    assert client.get(f"{SCIM}/Users", headers=bearer).status_code == 200
    assert client.get(f"{API}/apiToken/list", headers=manager).json()[0]["lastUsedAt"] is not None

    revoked = client.post(f"{API}/apiToken/byId/{record['id']}/revoke", headers=manager)
    assert revoked.status_code == 200 and revoked.json()["revokedAt"] is not None
    _error(client.get(f"{SCIM}/Users", headers=bearer), 401)
    assert_error(
        client.post(f"{API}/apiToken/byId/{record['id']}/revoke", headers=manager), 409, "apiTokenRevoked"
    )
    assert_error(client.post(f"{API}/apiToken/byId/999999/revoke", headers=manager), 404, "apiTokenNotFound")


def test_token_values_never_reach_the_logs(client, scim, caplog):
    value = scim["Authorization"].removeprefix("Bearer ")
    with caplog.at_level(logging.DEBUG):
        _post_user(client, scim)
        client.get(f"{SCIM}/Users", headers={"Authorization": "Bearer spot_wrong"})
    assert value not in caplog.text and "spot_wrong" not in caplog.text


# --- people -----------------------------------------------------------------------------------------------


def test_entra_creates_a_person_spot_keeps_what_it_knows_and_ignores_the_rest(client, db, scim):
    created = _post_user(client, scim)
    assert created["userName"] == "nina.petit@usine.example"
    assert created["name"] == {"givenName": "Nina", "familyName": "Petit"}
    assert created["emails"] == [{"value": "nina.petit@usine.example"}]
    assert (created["externalId"], created["active"]) == ("nina", True)
    assert "displayName" not in created and "title" not in created
    user = db.get(User, int(created["id"]))
    assert (user.login, user.first_name, user.email, user.password_hash) == (
        "nina.petit@usine.example",
        "Nina",
        "nina.petit@usine.example",
        "",
    )
    got = client.get(f"{SCIM}/Users/{created['id']}", headers=scim)
    assert got.status_code == 200 and got.json() == created
    assert created["meta"]["location"].endswith(f"/scim/v2/Users/{created['id']}")


def test_a_taken_login_external_id_or_email_is_a_uniqueness_error_and_bad_values_are_refused(client, scim):
    _post_user(client, scim)
    taken = client.post(f"{SCIM}/Users", content=json.dumps(_entra_user(externalId="other")), headers=scim)
    assert "loginAlreadyUsed" in _error(taken, 409, "uniqueness")["detail"]
    bad_email = _entra_user("x", externalId="x", emails=[{"value": "not an address"}])
    _error(client.post(f"{SCIM}/Users", content=json.dumps(bad_email), headers=scim), 400, "invalidValue")
    no_name = {"schemas": [USER_SCHEMA], "name": {"givenName": "A"}}
    _error(client.post(f"{SCIM}/Users", content=json.dumps(no_name), headers=scim), 400, "invalidValue")
    _error(client.post(f"{SCIM}/Users", content=b"{not json", headers=scim), 400, "invalidValue")
    _error(client.post(f"{SCIM}/Users", content=b"x" * 5_000_001, headers=scim), 413)


def test_filters_eq_co_sw_find_people_and_pages_count_from_one(client, scim):
    for n in range(1, 6):
        _post_user(
            client,
            scim,
            user_name=f"op{n}@usine.example",
            externalId=f"E{n}",
            emails=[{"value": f"op{n}@usine.example"}],
        )

    def found(query: str) -> list[str]:
        response = client.get(f"{SCIM}/Users", params={"filter": query}, headers=scim)
        assert response.status_code == 200, response.text
        return [r["userName"] for r in response.json()["Resources"]]

    assert found('userName eq "OP2@usine.example"') == ["op2@usine.example"]
    assert found('externalId eq "E3"') == ["op3@usine.example"]
    assert found('externalId eq "e3"') == []  # externalId is case-exact
    assert found('emails co "p4@"') == ["op4@usine.example"]
    assert found('emails[value sw "op5"]') == ["op5@usine.example"]
    assert found('userName sw "op" and not (externalId eq "E1")') == [
        f"op{n}@usine.example" for n in range(2, 6)
    ]
    _error(client.get(f"{SCIM}/Users", params={"filter": 'title eq "x"'}, headers=scim), 400, "invalidFilter")
    _error(
        client.get(f"{SCIM}/Users", params={"filter": 'userName gt "a"'}, headers=scim), 400, "invalidFilter"
    )
    _error(client.get(f"{SCIM}/Users", params={"filter": "userName eq"}, headers=scim), 400, "invalidFilter")

    page = client.get(
        f"{SCIM}/Users", params={"filter": 'userName sw "op"', "startIndex": 2, "count": 2}, headers=scim
    )
    body = page.json()
    assert (body["totalResults"], body["startIndex"], body["itemsPerPage"]) == (5, 2, 2)
    assert [r["userName"] for r in body["Resources"]] == ["op2@usine.example", "op3@usine.example"]
    none = client.get(f"{SCIM}/Users", params={"startIndex": 0, "count": -3}, headers=scim).json()
    assert (none["startIndex"], none["itemsPerPage"], none["totalResults"]) == (1, 0, 6)
    _error(client.get(f"{SCIM}/Users", params={"count": "many"}, headers=scim), 400, "invalidValue")


def test_entra_patches_in_its_own_form(client, scim):
    """Capitalised ops, booleans as strings, emails[type eq "work"].value."""
    user = _post_user(client, scim)
    response = _patch(
        client,
        scim,
        f"/Users/{user['id']}",
        {"op": "Replace", "path": 'emails[type eq "work"].value', "value": "nina@usine.example"},
        {"op": "Replace", "path": "name.familyName", "value": "Petit-Martin"},
        {"op": "Add", "path": "externalId", "value": "nina-2"},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["emails"], body["name"]["familyName"], body["externalId"]) == (
        [{"value": "nina@usine.example"}],
        "Petit-Martin",
        "nina-2",
    )
    off = _patch(client, scim, f"/Users/{user['id']}", {"op": "Replace", "path": "active", "value": "False"})
    assert off.status_code == 200 and off.json()["active"] is False


def test_okta_deactivates_with_a_replace_without_path_and_the_person_s_session_ends_at_once(
    client, db, scim, login
):
    user = _post_user(client, scim)
    session = login(db.get(User, int(user["id"])))
    assert client.get(f"{API}/account/whoAmI", headers=session).status_code == 200
    response = _patch(client, scim, f"/Users/{user['id']}", {"op": "replace", "value": {"active": False}})
    assert response.status_code == 200 and response.json()["active"] is False, response.text
    assert_error(client.get(f"{API}/account/whoAmI", headers=session), 401)
    back = _patch(client, scim, f"/Users/{user['id']}", {"op": "replace", "value": {"active": True}})
    assert back.json()["active"] is True


def test_a_patch_on_groups_of_a_person_is_refused_and_changes_nothing(client, scim):
    user = _post_user(client, scim)
    response = _patch(
        client,
        scim,
        f"/Users/{user['id']}",
        {"op": "replace", "path": "name.givenName", "value": "Changed"},
        {"op": "add", "path": "groups", "value": [{"value": "1"}]},
    )
    assert "read-only" in _error(response, 400, "invalidValue")["detail"]
    assert client.get(f"{SCIM}/Users/{user['id']}", headers=scim).json()["name"]["givenName"] == "Nina"


def test_put_replaces_what_spot_keeps(client, scim):
    user = _post_user(client, scim)
    replaced = client.put(
        f"{SCIM}/Users/{user['id']}",
        content=json.dumps({"schemas": [USER_SCHEMA], "userName": "nina.p", "name": {"givenName": "Nina"}}),
        headers=scim,
    )
    assert replaced.status_code == 200, replaced.text
    body = replaced.json()
    assert (body["userName"], body["name"], body["active"]) == ("nina.p", {"givenName": "Nina"}, True)
    assert "emails" not in body and "externalId" not in body


def test_delete_deactivates_the_person_who_stays_named_and_a_later_post_brings_them_back(client, db, scim):
    user = _post_user(client, scim)
    deleted = client.delete(f"{SCIM}/Users/{user['id']}", headers=scim)
    assert deleted.status_code == 204
    person = db.get(User, int(user["id"]))
    db.refresh(person)
    assert (person.active, person.deactivated_at is not None, person.login) == (False, True, user["userName"])
    _error(client.get(f"{SCIM}/Users/{user['id']}", headers=scim), 404)
    _error(client.delete(f"{SCIM}/Users/{user['id']}", headers=scim), 404)
    assert (
        client.get(
            f"{SCIM}/Users", params={"filter": f'userName eq "{user["userName"]}"'}, headers=scim
        ).json()["totalResults"]
        == 0
    )

    again = _post_user(client, scim)
    assert (again["id"], again["active"]) == (user["id"], True)


def test_unknown_addresses_and_methods_answer_scim_errors(client, scim):
    _error(client.get(f"{SCIM}/Users/999999", headers=scim), 404)
    _error(client.get(f"{SCIM}/Users/abc", headers=scim), 404)
    _error(client.get(f"{SCIM}/Nothing", headers=scim), 404)
    _error(client.delete(f"{SCIM}/ServiceProviderConfig", headers=scim), 405)
    _error(client.post(f"{SCIM}/.search", content=b"{}", headers=scim), 501)


def test_discovery_publishes_only_what_spot_keeps(client, scim):
    config = client.get(f"{SCIM}/ServiceProviderConfig", headers=scim).json()
    assert (config["patch"]["supported"], config["bulk"]["supported"], config["filter"]["maxResults"]) == (
        True,
        False,
        1000,
    )
    schemas = {s["name"]: s for s in client.get(f"{SCIM}/Schemas", headers=scim).json()["Resources"]}
    assert [a["name"] for a in schemas["User"]["attributes"]] == [
        "userName",
        "name",
        "active",
        "emails",
        "groups",
    ]
    assert [a["name"] for a in schemas["Group"]["attributes"]] == ["displayName", "members"]
    types = client.get(f"{SCIM}/ResourceTypes", headers=scim).json()["Resources"]
    assert {(t["name"], t["endpoint"]) for t in types} == {("User", "/Users"), ("Group", "/Groups")}
    one = client.get(f"{SCIM}/Schemas/{GROUP_SCHEMA}", headers=scim)
    assert one.status_code == 200 and one.json()["name"] == "Group"


# --- groups -------------------------------------------------------------------------------------------------


def _post_group(client, scim, name, member_ids=(), **more):
    body = {
        "schemas": [GROUP_SCHEMA],
        "displayName": name,
        "members": [{"value": m} for m in member_ids],
        **more,
    }
    response = client.post(f"{SCIM}/Groups", content=json.dumps(body), headers=scim)
    assert response.status_code == 201, response.text
    return response.json()


def _members(client, scim, group_id) -> list[str]:
    return [
        m["value"] for m in client.get(f"{SCIM}/Groups/{group_id}", headers=scim).json().get("members", [])
    ]


def test_okta_removes_a_member_by_a_filtered_path_and_they_leave_the_group(client, db, scim):
    a = _post_user(client, scim)["id"]
    b = _post_user(client, scim, user_name="b", externalId="b", emails=[])["id"]
    group = _post_group(client, scim, "Régleurs", [a, b], externalId="okta-7")
    assert (group["displayName"], group["externalId"]) == ("Régleurs", "okta-7")
    assert _members(client, scim, group["id"]) == [a, b]
    response = _patch(
        client, scim, f"/Groups/{group['id']}", {"op": "remove", "path": f'members[value eq "{a}"]'}
    )
    assert response.status_code == 200, response.text
    assert _members(client, scim, group["id"]) == [b]
    db.expire_all()
    assert [g.name for g in db.get(User, int(a)).groups] == []


def test_entra_adds_and_removes_members_with_values_and_renames(client, db, scim):
    a = _post_user(client, scim)["id"]
    group = _post_group(client, scim, "Caristes")
    added = _patch(
        client, scim, f"/Groups/{group['id']}", {"op": "Add", "path": "members", "value": [{"value": a}]}
    )
    assert added.status_code == 200 and _members(client, scim, group["id"]) == [a], added.text
    removed = _patch(
        client, scim, f"/Groups/{group['id']}", {"op": "Remove", "path": "members", "value": [{"value": a}]}
    )
    assert removed.status_code == 200 and _members(client, scim, group["id"]) == [], removed.text
    renamed = _patch(
        client,
        scim,
        f"/Groups/{group['id']}",
        {"op": "Replace", "path": "displayName", "value": "Caristes 2"},
    )
    assert renamed.json()["displayName"] == "Caristes 2"
    found = client.get(
        f"{SCIM}/Groups",
        params={"filter": 'displayName eq "caristes 2"', "excludedAttributes": "members"},
        headers=scim,
    )
    assert [g["id"] for g in found.json()["Resources"]] == [group["id"]]


def test_a_group_refuses_unknown_members_and_taken_names(client, scim):
    group = _post_group(client, scim, "Soudeurs")
    _error(
        _patch(
            client,
            scim,
            f"/Groups/{group['id']}",
            {"op": "add", "path": "members", "value": [{"value": "999999"}]},
        ),
        400,
        "invalidValue",
    )
    body = {"schemas": [GROUP_SCHEMA], "displayName": "Soudeurs"}
    assert (
        "groupNameAlreadyUsed"
        in _error(client.post(f"{SCIM}/Groups", content=json.dumps(body), headers=scim), 409, "uniqueness")[
            "detail"
        ]
    )


def test_the_last_administrator_cannot_be_taken_out_by_provisioning(client, db, scim):
    keeper = db.scalar(select(User).where(User.login == "keeper"))
    group = db.scalar(select(Group).where(Group.name == "group-of-keeper"))
    response = _patch(
        client, scim, f"/Groups/{group.id}", {"op": "remove", "path": f'members[value eq "{keeper.id}"]'}
    )
    assert "lastAdministrator" in _error(response, 409)["detail"]
    assert _members(client, scim, group.id) == [str(keeper.id)]
    _error(client.delete(f"{SCIM}/Users/{keeper.id}", headers=scim), 409)


def test_deleting_a_group_deletes_it(client, scim):
    group = _post_group(client, scim, "Temporaires")
    assert client.delete(f"{SCIM}/Groups/{group['id']}", headers=scim).status_code == 204
    _error(client.get(f"{SCIM}/Groups/{group['id']}", headers=scim), 404)
