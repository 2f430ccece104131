"""Cartography visibility per group, administered: the map's tree, a group's allowed items (read and
replaced), the groups that see an item, and that what is saved is the rule the map's reads apply."""

import logging
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.mapping.models import CartographyVisibility, MindMapItem, Site, Subject
from spot.permissions.names import ALL_PERMISSIONS
from spot.users.models import Group, User
from support import API, assert_error, field_codes

PERMISSION = f"{API}/permission"
TREE = f"{PERMISSION}/cartographiesTree"
Headers = dict[str, str]


def items_url(group_id: int) -> str:
    return f"{PERMISSION}/allowedItemsForGroup/{group_id}"


def groups_url(item_type: str, item_id: int) -> str:
    return f"{PERMISSION}/allowedGroupsForItem/{item_type}/{item_id}"


def restricted_to(*items: tuple[str, int]) -> dict[str, object]:
    return {"restricted": True, "items": [{"itemType": t, "itemId": i} for t, i in items]}


UNRESTRICTED = {"restricted": False, "items": []}


@pytest.fixture
def admin(make_user) -> User:
    return make_user("admin", ["perm_SetPermissions"])


@pytest.fixture
def headers(admin: User, login: Callable[[User], Headers]) -> Headers:
    return login(admin)


def stored(db: Session, group_id: int) -> list[tuple[str, int]]:
    db.expire_all()
    rows = db.execute(
        select(CartographyVisibility.item_type, CartographyVisibility.item_id)
        .where(CartographyVisibility.group_id == group_id)
        .order_by(CartographyVisibility.item_type, CartographyVisibility.item_id)
    )
    return [(t, i) for t, i in rows]


# --- the tree -----------------------------------------------------------------------------------------------


def shape(nodes: list[dict]) -> list:
    """The tree as (type, code, children) tuples, children left out when there are none."""
    out: list = []
    for node in nodes:
        assert set(node) == {"id", "type", "code", "name", "children"}
        out.append(
            (node["type"], node["code"], shape(node["children"]))
            if node["children"]
            else (node["type"], node["code"])
        )
    return out


def test_the_tree_holds_every_site_cartography_activity_and_function(client, db, test_map, admin, headers):
    db.add(Site(code="AAA", name="Atelier vide"))
    db.commit()
    # The administrator's own visibility does not hide anything from the screen that sets it.
    db.add(
        CartographyVisibility(
            group_id=admin.groups[0].id, item_type="cartography", item_id=test_map.cartography("C2")
        )
    )
    db.commit()
    response = client.get(TREE, headers=headers)
    assert response.status_code == 200
    tree = response.json()
    assert shape(tree) == [
        ("site", "AAA"),
        (
            "site",
            "TST",
            [
                (
                    "cartography",
                    "C1",
                    [
                        (
                            "activity",
                            "A1",
                            [("activity", "A11"), ("activity", "A12", [("activity", "A121")])],
                        ),
                        ("activity", "A2"),
                        ("function", "F1"),
                        ("function", "F2"),
                    ],
                ),
                ("cartography", "C2", [("activity", "B1"), ("function", "G1")]),
            ],
        ),
    ]
    c1 = tree[1]["children"][0]
    assert (c1["id"], c1["name"]) == (test_map.cartography("C1"), "Atelier de test")
    assert c1["children"][0]["children"][1]["id"] == test_map.activity("A12")
    assert c1["children"][3]["id"] == test_map.function("F2")


def test_the_tree_of_an_empty_organisation_is_empty(client, headers):
    assert client.get(TREE, headers=headers).json() == []


# --- a group's allowed items --------------------------------------------------------------------------------


def test_a_group_without_rows_is_unrestricted(client, make_user, headers):
    group = make_user("member").groups[0]
    assert client.get(items_url(group.id), headers=headers).json() == UNRESTRICTED


def test_restricting_lifting_and_replacing_a_groups_items(client, db, test_map, make_user, headers):
    group = make_user("member").groups[0]
    c1, c2, f1 = test_map.cartography("C1"), test_map.cartography("C2"), test_map.function("F1")

    response = client.post(
        items_url(group.id),
        json=restricted_to(("function", f1), ("cartography", c2), ("cartography", c1), ("cartography", c2)),
        headers=headers,
    )
    assert response.status_code == 200, response.text
    expected = {
        "restricted": True,
        "items": [
            {"itemType": "cartography", "itemId": c1},
            {"itemType": "cartography", "itemId": c2},
            {"itemType": "function", "itemId": f1},
        ],
    }
    assert response.json() == expected
    assert client.get(items_url(group.id), headers=headers).json() == expected
    assert stored(db, group.id) == [("cartography", c1), ("cartography", c2), ("function", f1)]

    # Saving replaces: what is not listed any more goes.
    response = client.post(items_url(group.id), json=restricted_to(("cartography", c2)), headers=headers)
    assert response.json() == {"restricted": True, "items": [{"itemType": "cartography", "itemId": c2}]}
    assert stored(db, group.id) == [("cartography", c2)]

    response = client.post(items_url(group.id), json=UNRESTRICTED, headers=headers)
    assert response.json() == UNRESTRICTED
    assert stored(db, group.id) == []


def test_rows_naming_deleted_items_are_left_out_and_dropped_at_the_next_save(
    client, db, test_map, make_user, headers
):
    group = make_user("member").groups[0]
    c1 = test_map.cartography("C1")
    db.add_all(
        CartographyVisibility(group_id=group.id, item_type=t, item_id=i)
        for t, i in (("cartography", c1), ("cartography", 2_000_000_000), ("subject", 2_000_000_000))
    )
    db.commit()
    assert client.get(items_url(group.id), headers=headers).json() == {
        "restricted": True,
        "items": [{"itemType": "cartography", "itemId": c1}],
    }
    client.post(items_url(group.id), json=restricted_to(("cartography", c1)), headers=headers)
    assert stored(db, group.id) == [("cartography", c1)]


def test_a_group_whose_rows_all_name_deleted_items_stays_restricted(client, db, make_user, headers):
    group = make_user("member").groups[0]
    db.add(CartographyVisibility(group_id=group.id, item_type="cartography", item_id=2_000_000_000))
    db.commit()
    assert client.get(items_url(group.id), headers=headers).json() == {"restricted": True, "items": []}


def test_every_item_type_with_items_in_spot_is_accepted(client, db, test_map, make_user, headers):
    group = make_user("member").groups[0]
    s1, s2 = test_map.subject("S1"), test_map.subject("S2")
    node = db.scalar(select(MindMapItem.id).where(MindMapItem.subject_id == s1, MindMapItem.code == 1))
    assert node is not None
    db.get(Subject, s2).standardized_at = datetime(2026, 1, 5, tzinfo=UTC)
    db.commit()
    items = [
        ("cartography", test_map.cartography("C1")),
        ("function", test_map.function("G1")),
        ("activity", test_map.activity("A12")),
        ("subject", s1),
        ("mindmapNode", node),
        ("diagram", s1),  # S1 has a diagram
        ("standard", s2),  # S2 is standardized
    ]
    response = client.post(items_url(group.id), json=restricted_to(*items), headers=headers)
    assert response.status_code == 200, response.text
    assert stored(db, group.id) == sorted(items)


def test_unknown_items_are_refused_each_by_its_position(client, db, test_map, make_user, headers):
    group = make_user("member").groups[0]
    c1 = test_map.cartography("C1")
    client.post(items_url(group.id), json=restricted_to(("cartography", c1)), headers=headers)
    s2 = test_map.subject("S2")  # neither a diagram nor standardized
    payload = restricted_to(
        ("cartography", c1),
        ("cartography", 2_000_000_000),
        ("function", c1),  # an id of another type
        ("activity", test_map.function("F1")),
        ("diagram", s2),
        ("standard", s2),
        ("mediation", 1),  # a type Spot holds no item of yet
    )
    response = client.post(items_url(group.id), json=payload, headers=headers)
    assert_error(response, 400, "unknownItem")
    assert field_codes(response) == {(f"items.{i}.itemId", "invalidValue") for i in range(1, 7)}
    assert stored(db, group.id) == [("cartography", c1)]


@pytest.mark.parametrize(
    ("payload", "status", "errors"),
    [
        pytest.param(
            {"restricted": True, "items": []}, 400, {("items", "mustNotBeEmpty")}, id="restricted-to-nothing"
        ),
        pytest.param({"restricted": True}, 400, {("items", "mustNotBeEmpty")}, id="restricted-without-items"),
        pytest.param(
            {"restricted": False, "items": [{"itemType": "cartography", "itemId": 1}]},
            400,
            {("items", "invalidValue")},
            id="unrestricted-with-items",
        ),
        pytest.param(
            {"restricted": True, "items": [{"itemType": "site", "itemId": 1}]},
            422,
            {("items.0.itemType", "literal_error")},
            id="not-a-permission-item-type",
        ),
        pytest.param(
            {"restricted": True, "items": [{"itemType": "cartography", "itemId": 2**40}]},
            422,
            {("items.0.itemId", "less_than_equal")},
            id="id-out-of-range",
        ),
        pytest.param({"items": []}, 422, {("restricted", "emptyFieldError")}, id="restricted-missing"),
        pytest.param(
            {"restricted": True, "items": [{"itemType": "cartography", "itemId": 1}] * 5001},
            422,
            {("items", "too_long")},
            id="too-many-items",
        ),
    ],
)
def test_badly_formed_payloads_are_refused(client, db, test_map, make_user, headers, payload, status, errors):
    group = make_user("member").groups[0]
    c1 = test_map.cartography("C1")
    client.post(items_url(group.id), json=restricted_to(("cartography", c1)), headers=headers)
    response = client.post(items_url(group.id), json=payload, headers=headers)
    assert_error(response, status)
    assert field_codes(response) == errors
    assert stored(db, group.id) == [("cartography", c1)]


def test_an_unknown_group_is_not_found(client, headers):
    assert_error(client.get(items_url(2_000_000_000), headers=headers), 404, "groupNotFound")
    assert_error(
        client.post(items_url(2_000_000_000), json=UNRESTRICTED, headers=headers), 404, "groupNotFound"
    )


def test_a_change_is_logged_as_a_security_event(client, test_map, make_user, admin, headers, caplog):
    caplog.set_level(logging.INFO, logger="spot.security")
    group = make_user("member").groups[0]
    c1, c2 = test_map.cartography("C1"), test_map.cartography("C2")
    client.post(items_url(group.id), json=restricted_to(("cartography", c1)), headers=headers)
    client.post(items_url(group.id), json=restricted_to(("cartography", c1)), headers=headers)  # no change
    client.post(items_url(group.id), json=restricted_to(("cartography", c2)), headers=headers)
    client.post(items_url(group.id), json=UNRESTRICTED, headers=headers)
    lines = [
        r.getMessage() for r in caplog.records if r.name == "spot.security" and "visibility" in r.getMessage()
    ]
    prefix = f"cartography visibility changed group_id={group.id}"
    assert lines == [
        f"{prefix} restricted=true added=cartography:{c1} removed=- by_user_id={admin.id}",
        f"{prefix} restricted=true added=cartography:{c2} removed=cartography:{c1} by_user_id={admin.id}",
        f"{prefix} restricted=false added=- removed=cartography:{c2} by_user_id={admin.id}",
    ]


# --- the groups that see an item ----------------------------------------------------------------------------


def test_the_groups_that_see_an_item(client, db, test_map, headers):
    c1, c2 = test_map.cartography("C1"), test_map.cartography("C2")
    free, only_c1, only_c2 = Group(name="Libre"), Group(name="Seulement C1"), Group(name="Seulement C2")
    functions_only = Group(name="Fonctions seules")
    db.add_all([free, only_c1, only_c2, functions_only])
    db.commit()
    for group, items in (
        (only_c1, restricted_to(("cartography", c1))),
        (only_c2, restricted_to(("cartography", c2))),
        # A function row shows its cartography limited to it (tests/permissions/test_visibility_of_items.py).
        (functions_only, restricted_to(("function", test_map.function("F1")))),
    ):
        assert client.post(items_url(group.id), json=items, headers=headers).status_code == 200

    def seen_by(item_type: str, item_id: int) -> list[tuple[str, bool]]:
        response = client.get(groups_url(item_type, item_id), headers=headers)
        assert response.status_code == 200, response.text
        assert all(set(g) == {"id", "name", "unrestricted"} for g in response.json())
        return [(g["name"], g["unrestricted"]) for g in response.json()]

    # The administrator's own group is unrestricted too.
    c1_groups = [
        ("Fonctions seules", False),
        ("Libre", True),
        ("Seulement C1", False),
        ("group-of-admin", True),
    ]
    c2_groups = [("Libre", True), ("Seulement C2", False), ("group-of-admin", True)]
    s1 = test_map.subject("S1")
    node = db.scalar(select(MindMapItem.id).where(MindMapItem.subject_id == s1, MindMapItem.code == 0))
    assert node is not None
    assert seen_by("cartography", c1) == c1_groups
    assert seen_by("function", test_map.function("F1")) == c1_groups
    assert seen_by("subject", s1) == c1_groups
    assert seen_by("mindmapNode", node) == c1_groups
    assert seen_by("diagram", s1) == c1_groups
    # F2 and its subject S2 are out of the function-limited group's view; every activity is in it.
    assert seen_by("function", test_map.function("F2")) == c1_groups[1:]
    assert seen_by("subject", test_map.subject("S2")) == c1_groups[1:]
    assert seen_by("activity", test_map.activity("A2")) == c1_groups
    assert seen_by("cartography", c2) == c2_groups
    assert seen_by("subject", test_map.subject("T1")) == c2_groups

    assert_error(client.get(groups_url("cartography", 2_000_000_000), headers=headers), 404, "itemNotFound")
    assert_error(client.get(groups_url("standard", s1), headers=headers), 404, "itemNotFound")
    assert_error(client.get(groups_url("qualification", 1), headers=headers), 404, "itemNotFound")
    assert_error(client.get(groups_url("site", test_map.site_id), headers=headers), 422)


def test_the_groups_listed_for_a_cartography_are_those_whose_members_open_it(
    client, db, test_map, make_user, login, headers
):
    """allowedGroupsForItem and the map's reads apply the same rule, group by group."""
    c1, c2 = test_map.cartography("C1"), test_map.cartography("C2")
    members = {name: make_user(name) for name in ("free", "c1", "c2", "both", "functions")}
    for name, items in {
        "c1": restricted_to(("cartography", c1)),
        "c2": restricted_to(("cartography", c2)),
        "both": restricted_to(("cartography", c1), ("cartography", c2)),
        "functions": restricted_to(("function", test_map.function("G1"))),
    }.items():
        client.post(items_url(members[name].groups[0].id), json=items, headers=headers)
    for cartography in (c1, c2):
        listed = {g["id"] for g in client.get(groups_url("cartography", cartography), headers=headers).json()}
        for member in members.values():
            opens = client.get(f"{API}/cartography/{cartography}", headers=login(member)).status_code
            assert opens == (200 if member.groups[0].id in listed else 403), (member.login, cartography)


# --- the rule is really applied -----------------------------------------------------------------------------


def test_restricting_a_group_hides_a_cartography_from_its_members_and_lifting_it_restores_it(
    client, test_map, make_user, login, headers
):
    member = make_user("member")
    group_id = member.groups[0].id
    mine = login(member)
    c1, c2 = test_map.cartography("C1"), test_map.cartography("C2")

    def listed() -> list[int]:
        return [c["id"] for c in client.get(f"{API}/cartography", headers=mine).json()]

    assert listed() == [c1, c2]
    assert client.get(f"{API}/cartography/{c2}", headers=mine).status_code == 200

    assert (
        client.post(items_url(group_id), json=restricted_to(("cartography", c1)), headers=headers).status_code
        == 200
    )
    assert listed() == [c1]
    assert_error(client.get(f"{API}/cartography/{c2}", headers=mine), 403, "Insufficient rights to view")
    assert client.get(f"{API}/cartography/{c1}", headers=mine).status_code == 200

    # Adding the second cartography shows it again...
    client.post(
        items_url(group_id), json=restricted_to(("cartography", c1), ("cartography", c2)), headers=headers
    )
    assert listed() == [c1, c2]
    client.post(items_url(group_id), json=restricted_to(("cartography", c1)), headers=headers)
    assert listed() == [c1]
    # ...and so does lifting the restriction.
    assert client.post(items_url(group_id), json=UNRESTRICTED, headers=headers).status_code == 200
    assert listed() == [c1, c2]
    assert client.get(f"{API}/cartography/{c2}", headers=mine).status_code == 200


# --- who may do what ---------------------------------------------------------------------------------------

ROLES = {
    "plain": [],
    "everythingElse": [p for p in ALL_PERMISSIONS if p != "perm_SetPermissions"],
    "permissionAdmin": ["perm_SetPermissions"],
}
ACTIONS: dict[str, Callable[[TestClient, int, int, Headers], object]] = {
    "tree": lambda c, g, cartography, h: c.get(TREE, headers=h),
    "readItems": lambda c, g, cartography, h: c.get(items_url(g), headers=h),
    "setItems": lambda c, g, cartography, h: c.post(
        items_url(g), json=restricted_to(("cartography", cartography)), headers=h
    ),
    "liftRestriction": lambda c, g, cartography, h: c.post(items_url(g), json=UNRESTRICTED, headers=h),
    "groupsForItem": lambda c, g, cartography, h: c.get(groups_url("cartography", cartography), headers=h),
}


@pytest.mark.parametrize(
    ("role", "action", "allowed"),
    [pytest.param(r, a, r == "permissionAdmin", id=f"{r}-{a}") for r in ROLES for a in ACTIONS],
)
def test_visibility_permissions(client, db, test_map, make_user, login, role, action, allowed):
    target = Group(name="Cible")
    db.add(target)
    db.commit()
    c1, c2 = test_map.cartography("C1"), test_map.cartography("C2")
    db.add(CartographyVisibility(group_id=target.id, item_type="cartography", item_id=c1))
    db.commit()
    me = make_user("me", ROLES[role])
    response = ACTIONS[action](client, target.id, c2, login(me))
    if allowed:
        assert response.status_code == 200, response.text
    else:
        assert_error(response, 403, "Insufficient rights to access this information")
        assert stored(db, target.id) == [("cartography", c1)]
