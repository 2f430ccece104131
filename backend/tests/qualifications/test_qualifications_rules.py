"""Who may do what with qualifications and their dashboards (spec 2 §2, §6; docs/qualifications.md
'Permissions'): one role × action table, the `can` object, and the 404 and 403 answers."""

import pytest

from mapping.maps import restrict
from qualifications.world import ADMIN, BOARD, QUALIFICATIONS, body, group, join, module, qualification
from support import API, assert_error

ROLES = {"nobody": [], "board": [BOARD], "admin": [ADMIN], "both": [BOARD, ADMIN]}
# action: the permissions any one of which allows it (None: every signed-in user).
ACTIONS = {
    "list": None,
    "read": None,
    "gallery": None,
    "ownDashboard": None,
    "create": (BOARD, ADMIN),
    "edit": (ADMIN,),
    "delete": (ADMIN,),
    "qualificationDashboard": (BOARD,),
    "cartographyDashboard": (BOARD,),
    "groupDashboard": (BOARD,),
    "otherUserDashboard": (BOARD,),
}


@pytest.fixture
def world(client, db, test_map, make_user, login, manager):
    other = make_user("autre")
    team = group(db, "Équipe", [other.id])
    module_id = module(db, "Habilitation")
    links = {"groups": [team], "modules": [module_id], "cartographies": [test_map.cartography("C1")]}
    return {
        "qualification": qualification(client, manager, "Conduite", **links),
        "links": links,
        "other": other.id,
        "team": team,
        "cartography": test_map.cartography("C1"),
    }


def perform(client, headers, user_id, action, w):
    q = w["qualification"]
    if action == "list":
        return client.post(f"{QUALIFICATIONS}/query", json={}, headers=headers)
    if action == "read":
        return client.get(f"{QUALIFICATIONS}/{q}", headers=headers)
    if action == "gallery":
        return client.get(f"{API}/resource/qualification/{q}", headers=headers)
    if action == "ownDashboard":
        return client.get(f"{API}/dashboards/qualifications/user/{user_id}", headers=headers)
    if action == "create":
        return client.post(QUALIFICATIONS, json=body("Nouvelle", **w["links"]), headers=headers)
    if action == "edit":
        data = body("Renommée", **w["links"]) | {"version": 1}
        return client.post(f"{QUALIFICATIONS}/{q}", json=data, headers=headers)
    if action == "delete":
        return client.delete(f"{QUALIFICATIONS}/{q}", headers=headers)
    if action == "qualificationDashboard":
        return client.get(f"{QUALIFICATIONS}/{q}/dashboard?by=module", headers=headers)
    if action == "cartographyDashboard":
        return client.get(f"{API}/dashboards/qualifications/cartography/{w['cartography']}", headers=headers)
    if action == "groupDashboard":
        return client.get(f"{API}/dashboards/qualifications/group/{w['team']}", headers=headers)
    assert action == "otherUserDashboard"
    return client.get(f"{API}/dashboards/qualifications/user/{w['other']}", headers=headers)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", ACTIONS)
def test_permission_table(client, make_user, login, world, role, action):
    user = make_user(permissions=ROLES[role])
    headers = login(user)
    needed = ACTIONS[action]
    allowed = needed is None or any(p in ROLES[role] for p in needed)
    response = perform(client, headers, user.id, action, world)
    if allowed:
        assert response.status_code in (200, 204), response.text
    else:
        assert_error(response, 403, "Insufficient rights to access this information")


@pytest.mark.parametrize("role", ROLES)
def test_can_object_per_role(client, make_user, login, world, role):
    headers = login(make_user(permissions=ROLES[role]))
    can = client.get(f"{QUALIFICATIONS}/{world['qualification']}", headers=headers).json()["can"]
    assert can == {
        "edit": ADMIN in ROLES[role],
        "delete": ADMIN in ROLES[role],
        "seeDashboard": BOARD in ROLES[role],
    }


@pytest.mark.parametrize("role", ROLES)
def test_the_session_says_what_the_table_allows(client, make_user, login, world, role):
    """whoAmI's `can`, which the client's pages, links and form follow, answers as the routes do."""
    headers = login(make_user(permissions=ROLES[role]))
    can = client.get(f"{API}/account/whoAmI", headers=headers).json()["can"]
    allowed = {action: any(p in ROLES[role] for p in ACTIONS[action] or ()) for action in ACTIONS}
    assert can["createQualifications"] == allowed["create"]
    assert can["seeQualificationDashboards"] == allowed["otherUserDashboard"] == allowed["groupDashboard"]
    # The requalification fields are the editors' (a perm_TableauBord creator leaves them as they come).
    assert can["editRequalification"] == allowed["edit"]


def test_status_records_of_others_only_with_dashboards(client, db, make_user, login, world):
    """Without perm_TableauBord one's own records only: others' are outside the list, not refused."""
    me = make_user("moi", [ADMIN])
    join(db, world["team"], me.id)
    query = {"filter": f"qualification oneOf {world['qualification']}"}
    mine = client.post(f"{QUALIFICATIONS}/queryUserQualifications", json=query, headers=login(me)).json()
    assert [r["user"] for r in mine["results"]] == [me.id] and mine["totalItems"] == 1
    boss = login(make_user("chef", [BOARD]))
    everyone = client.post(f"{QUALIFICATIONS}/queryUserQualifications", json=query, headers=boss).json()
    assert sorted(r["user"] for r in everyone["results"]) == sorted([me.id, world["other"]])


@pytest.mark.parametrize(
    "method, path, message",
    [
        ("get", "/qualifications/987654", "qualificationNotFound"),
        ("post", "/qualifications/987654", "qualificationNotFound"),
        ("delete", "/qualifications/987654", "qualificationNotFound"),
        ("get", "/qualifications/987654/dashboard", "qualificationNotFound"),
        ("get", "/dashboards/qualifications/cartography/987654", None),
        ("get", "/dashboards/qualifications/group/987654", "groupNotFound"),
        ("get", "/dashboards/qualifications/user/987654", "userNotFound"),
        ("get", "/resource/qualification/987654", None),
    ],
)
def test_unknown_ids_answer_404(client, manager, world, method, path, message):
    kwargs = {"json": body("Conduite", **world["links"]) | {"version": 1}} if method == "post" else {}
    response = getattr(client, method)(f"{API}{path}", headers=manager, **kwargs)
    assert_error(response, 404, message)


@pytest.mark.parametrize(
    "path", ["/qualifications/abc", "/qualifications/-1", "/dashboards/qualifications/user/1.5"]
)
def test_ids_that_are_not_ids_answer_422(client, manager, path):
    assert_error(client.get(f"{API}{path}", headers=manager), 422)


def test_the_dashboard_of_a_hidden_cartography_is_refused(client, db, test_map, make_user, login, world):
    user = make_user(permissions=[BOARD])
    restrict(db, user, test_map.cartography("C2"))
    headers = login(user)
    response = client.get(
        f"{API}/dashboards/qualifications/cartography/{world['cartography']}", headers=headers
    )
    assert_error(response, 403, "Insufficient rights to view")
    seen = client.get(
        f"{API}/dashboards/qualifications/cartography/{test_map.cartography('C2')}", headers=headers
    )
    assert seen.status_code == 200, seen.text


def test_qualification_dashboard_by_must_be_user_or_module(client, manager, world):
    response = client.get(f"{QUALIFICATIONS}/{world['qualification']}/dashboard?by=group", headers=manager)
    assert_error(response, 422)


def test_signed_out_requests_answer_401(client, world):
    assert_error(client.post(f"{QUALIFICATIONS}/query", json={}), 401)
    assert_error(client.get(f"{QUALIFICATIONS}/{world['qualification']}"), 401)
    assert_error(client.post(f"{QUALIFICATIONS}/queryUserQualifications", json={}), 401)
