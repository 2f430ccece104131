"""The qualification dashboards (spec 2 §2 Dashboards, §3 Dashboard element): by
cartography with the coverage of its functions, by group, by user, and the qualification view's by user
and by module, around a fixed today."""

import pytest

from qualifications.world import graded, group, in_progress, module, on, qualification
from spot.users.models import User
from support import API


def get(client, headers, path):
    response = client.get(f"{API}{path}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def summary(element):
    """(item name, total, obtained, remaining days), [(child name, remaining days)]."""
    item = element["item"]
    return (item["name"], item["total"], item["obtained"], item["remainingDays"]), [
        (c["name"], c["remainingDays"]) for c in element["children"]
    ]


@pytest.fixture
def plant(client, db, test_map, make_user, manager, today):
    """C1 (functions F1, F2, F3) and C2; people in two teams; three qualifications:

    - 'Réglage' names C1, team A, module 'Régler' (a spot element on subject S1 of F1);
    - 'Contrôle' names C1, teams A and B, modules 'Mesurer' (on function F2) and 'Régler';
    - 'Montage' names C2 only, team B, module 'Monter' (on function G1 of C2).
    """
    p = {
        n: make_user(n, first_name=n.title(), last_name="Test")
        for n in ("alice", "bruno", "chloe", "david", "emma")
    }
    team_a = group(db, "Équipe A", [p["alice"].id, p["bruno"].id, p["chloe"].id])
    team_b = group(db, "Équipe B", [p["david"].id, p["emma"].id, p["alice"].id])
    regler = module(db, "Régler", subjects=[test_map.subject("S1")])
    mesurer = module(db, "Mesurer", functions=[test_map.function("F2")])
    monter = module(db, "Monter", functions=[test_map.function("G1")])
    c1, c2 = test_map.cartography("C1"), test_map.cartography("C2")
    q = {
        "réglage": qualification(
            client, manager, "Réglage", groups=[team_a], modules=[regler], cartographies=[c1]
        ),
        "contrôle": qualification(
            client,
            manager,
            "Contrôle",
            groups=[team_a, team_b],
            modules=[mesurer, regler],
            cartographies=[c1],
        ),
        "montage": qualification(
            client, manager, "Montage", groups=[team_b], modules=[monter], cartographies=[c2]
        ),
    }
    ids = {name: user.id for name, user in p.items()}
    # Régler: alice 200 days, bruno 10, chloe expired, david permanent, emma never.
    graded(db, ids["alice"], regler, days=200)
    graded(db, ids["bruno"], regler, days=10)
    graded(db, ids["chloe"], regler, days=-5)
    graded(db, ids["david"], regler, days=None)
    # Mesurer: alice 50, david 0 (its last day), emma 90.
    graded(db, ids["alice"], mesurer, days=50)
    graded(db, ids["david"], mesurer, days=0)
    graded(db, ids["emma"], mesurer, days=90)
    in_progress(db, ids["emma"], regler)
    return {
        "people": ids,
        "teams": {"a": team_a, "b": team_b},
        "q": q,
        "c1": c1,
        "c2": c2,
        "map": test_map,
        "modules": {"régler": regler, "mesurer": mesurer, "monter": monter},
    }


def test_cartography_dashboard(client, manager, plant):
    board = get(client, manager, f"/dashboards/qualifications/cartography/{plant['c1']}")
    assert board["cartography"] == {"id": plant["c1"], "name": "Atelier de test", "siteName": "Site de test"}
    # Its qualifications by name, each person concerned once (alice is in both teams of 'Contrôle'),
    # by remaining days, most first.
    assert [summary(e) for e in board["elements"]] == [
        (
            ("Contrôle", 5, 2, -10000),
            [
                ("Alice Test", 50),  # Mesurer 50, Régler 200
                ("David Test", 0),  # Mesurer on its last day, Régler permanent
                ("Bruno Test", -10000),  # Mesurer never validated
                ("Chloe Test", -10000),
                ("Emma Test", -10000),  # Régler never validated (a requalification runs)
            ],
        ),
        (("Réglage", 3, 2, -5), [("Alice Test", 200), ("Bruno Test", 10), ("Chloe Test", -5)]),
    ]
    contrôle = board["elements"][0]
    assert contrôle["item"]["link"] == {"type": "qualification", "id": plant["q"]["contrôle"]}
    assert contrôle["item"]["state"] == "none" and contrôle["item"]["validUntil"] is None
    assert {c["link"]["type"] for c in contrôle["children"]} == {"user"}
    emma = next(c for c in contrôle["children"] if c["name"] == "Emma Test")
    assert emma["requalificationTrainingPath"] is not None and emma["validationTrainingPath"] is None
    réglage = board["elements"][1]["item"]
    assert (réglage["state"], réglage["validUntil"]) == ("none", on(-5))


def test_coverage_of_the_functions(client, manager, plant):
    m, p, q = plant["map"], plant["people"], plant["q"]
    coverage = get(client, manager, f"/dashboards/qualifications/cartography/{plant['c1']}")["coverage"]
    # F3: no module names it; F2 (function element of 'Mesurer', in 'Contrôle'): only alice and david
    # hold 'Contrôle' (david on its last day); F1 (subject S1 of 'Régler', in both): alice and bruno by
    # 'Réglage', alice and david by 'Contrôle': alice counts once, by her best one.
    assert [(f["function"]["name"], f["level"]) for f in coverage] == [
        ("Magasinier", "none"),
        ("Contrôleur", "covered"),
        ("Opérateur régleur", "covered"),
    ]
    none, f2, f1 = coverage
    assert none == {
        "function": {"id": m.function("F3"), "name": "Magasinier"},
        "qualified": [],
        "level": "none",
        "minimum": 3,
        "underMinimum": True,
    }
    assert f2["qualified"] == [
        {
            "user": {"id": p["alice"], "name": "Alice Test"},
            "remainingDays": 50,
            "validUntil": on(50),
            "qualificationId": q["contrôle"],
        },
        {
            "user": {"id": p["david"], "name": "David Test"},
            "remainingDays": 0,
            "validUntil": on(0),
            "qualificationId": q["contrôle"],
        },
    ]
    assert [(x["user"]["name"], x["remainingDays"], x["qualificationId"]) for x in f1["qualified"]] == [
        ("Alice Test", 200, q["réglage"]),
        ("Bruno Test", 10, q["réglage"]),
        ("David Test", 0, q["contrôle"]),
    ]


def test_coverage_by_a_single_person(client, db, manager, plant, today):
    """Once alice's 'Mesurer' has expired, only david holds 'Contrôle': F2 rests on one person."""
    graded(db, plant["people"]["alice"], plant["modules"]["mesurer"], days=-1, graded_days_ago=1)
    coverage = get(client, manager, f"/dashboards/qualifications/cartography/{plant['c1']}")["coverage"]
    assert [(f["function"]["name"], f["level"]) for f in coverage] == [
        ("Magasinier", "none"),
        ("Contrôleur", "single"),
        ("Opérateur régleur", "covered"),
    ]
    assert [x["user"]["name"] for x in coverage[1]["qualified"]] == ["David Test"]


def test_coverage_lists_only_the_functions_the_user_sees(client, db, make_user, login, plant):
    from spot.mapping.models import CartographyVisibility

    user = make_user(permissions=["perm_TableauBord"])
    db.add(
        CartographyVisibility(
            group_id=user.groups[0].id, item_type="function", item_id=plant["map"].function("F2")
        )
    )
    db.commit()
    coverage = get(client, login(user), f"/dashboards/qualifications/cartography/{plant['c1']}")["coverage"]
    assert [f["function"]["name"] for f in coverage] == ["Contrôleur"]


def test_a_cartography_without_qualification(client, test_map, manager, plant):
    board = get(client, manager, f"/dashboards/qualifications/cartography/{plant['c2']}")
    assert [summary(e)[0] for e in board["elements"]] == [("Montage", 3, 0, -10000)]
    assert [(f["function"]["name"], f["level"]) for f in board["coverage"]] == [("Monteur", "none")]


def test_group_dashboard_shows_that_groups_members(client, manager, plant):
    board = get(client, manager, f"/dashboards/qualifications/group/{plant['teams']['b']}")
    assert board["group"] == {"id": plant["teams"]["b"], "name": "Équipe B"}
    assert [summary(e) for e in board["elements"]] == [
        (("Contrôle", 3, 2, -10000), [("Alice Test", 50), ("David Test", 0), ("Emma Test", -10000)]),
        (("Montage", 3, 0, -10000), [("Alice Test", -10000), ("David Test", -10000), ("Emma Test", -10000)]),
    ]


def test_a_deactivated_member_leaves_the_group_dashboard(client, db, manager, plant):
    db.get(User, plant["people"]["david"]).active = False
    db.commit()
    board = get(client, manager, f"/dashboards/qualifications/group/{plant['teams']['b']}")
    assert [[p for p, _ in summary(e)[1]] for e in board["elements"]] == [["Alice Test", "Emma Test"]] * 2


def test_user_dashboard_shows_the_users_qualifications_and_modules(client, login, make_user, plant):
    p = plant["people"]
    body = get(
        client,
        login(make_user(permissions=["perm_TableauBord"])),
        f"/dashboards/qualifications/user/{p['alice']}",
    )
    assert body["user"] == {"id": p["alice"], "name": "Alice Test"}
    assert [summary(e) for e in body["elements"]] == [
        (("Contrôle", 2, 2, 50), [("Régler", 200), ("Mesurer", 50)]),
        (("Montage", 1, 0, -10000), [("Monter", -10000)]),
        (("Réglage", 1, 1, 200), [("Régler", 200)]),
    ]
    contrôle = body["elements"][0]
    assert (contrôle["item"]["state"], contrôle["item"]["validUntil"]) == ("good", on(50))
    assert [c["link"] for c in contrôle["children"]] == [
        {"type": "module", "id": plant["modules"]["régler"]},
        {"type": "module", "id": plant["modules"]["mesurer"]},
    ]


def test_children_with_equal_days_are_sorted_by_name(client, db, make_user, manager, today):
    """By name ignoring case and accents: Élise before Yann."""
    zoe, yann, elise, xavier = (
        make_user(login, first_name=name, last_name="Test")
        for login, name in (("zoe", "Zoe"), ("yann", "yann"), ("elise", "Élise"), ("xavier", "Xavier"))
    )
    team = group(db, "Équipe", [zoe.id, yann.id, elise.id, xavier.id])
    module_id = module(db, "Habilitation")
    q = qualification(client, manager, "Conduite", groups=[team], modules=[module_id])
    for person in (zoe, yann, elise):
        graded(db, person.id, module_id, days=12)
    (element,) = get(client, manager, f"/qualifications/{q}/dashboard?by=module")
    assert summary(element) == (
        ("Habilitation", 4, 3, -10000),
        [("Élise Test", 12), ("yann Test", 12), ("Zoe Test", 12), ("Xavier Test", -10000)],
    )
    by_user = get(client, manager, f"/qualifications/{q}/dashboard?by=user")
    assert [e["item"]["name"] for e in by_user] == ["Élise Test", "Xavier Test", "yann Test", "Zoe Test"]


def test_qualification_view_by_user_and_by_module(client, manager, plant):
    q = plant["q"]["contrôle"]
    by_user = get(client, manager, f"/qualifications/{q}/dashboard?by=user")
    # Items the people concerned (by name), children the qualification's modules.
    assert [summary(e) for e in by_user] == [
        (("Alice Test", 2, 2, 50), [("Régler", 200), ("Mesurer", 50)]),
        (("Bruno Test", 2, 1, -10000), [("Régler", 10), ("Mesurer", -10000)]),
        (("Chloe Test", 2, 0, -10000), [("Régler", -5), ("Mesurer", -10000)]),
        (("David Test", 2, 2, 0), [("Régler", 10000), ("Mesurer", 0)]),
        (("Emma Test", 2, 1, -10000), [("Mesurer", 90), ("Régler", -10000)]),
    ]
    assert by_user[0]["item"]["link"] == {"type": "user", "id": plant["people"]["alice"]}
    assert by_user[3]["item"]["validUntil"] == on(0) and by_user[3]["item"]["state"] == "warn"
    by_module = get(client, manager, f"/qualifications/{q}/dashboard")
    assert by_module == by_user  # by user is the default
    by_module = get(client, manager, f"/qualifications/{q}/dashboard?by=module")
    # Items its modules in the form's order, children the people.
    assert [summary(e) for e in by_module] == [
        (
            ("Mesurer", 5, 3, -10000),
            [
                ("Emma Test", 90),
                ("Alice Test", 50),
                ("David Test", 0),
                ("Bruno Test", -10000),
                ("Chloe Test", -10000),
            ],
        ),
        (
            ("Régler", 5, 3, -10000),
            [
                ("David Test", 10000),
                ("Alice Test", 200),
                ("Bruno Test", 10),
                ("Chloe Test", -5),
                ("Emma Test", -10000),
            ],
        ),
    ]
    assert by_module[0]["item"]["link"] == {"type": "module", "id": plant["modules"]["mesurer"]}
    assert by_module[0]["children"][0]["link"] == {"type": "user", "id": plant["people"]["emma"]}


def test_qualification_view_of_a_qualification_concerning_nobody(client, db, manager, today):
    empty_team = group(db, "Équipe vide")
    q = qualification(client, manager, "Conduite", groups=[empty_team], modules=[module(db, "Habilitation")])
    assert get(client, manager, f"/qualifications/{q}/dashboard?by=user") == []
    (element,) = get(client, manager, f"/qualifications/{q}/dashboard?by=module")
    assert summary(element) == (("Habilitation", 0, 0, -10000), [])
    assert element["item"]["state"] == "none"


def test_dashboards_written_without_validation_match_their_models(client, manager, plant):
    """The big dashboards write their JSON without validating it (core.schemas.json_response): it must be
    exactly what their declared models would answer."""
    from pydantic import TypeAdapter

    from spot.qualifications.schemas import CartographyDashboard, DashboardElement, GroupDashboard

    answers = [
        (CartographyDashboard, f"/dashboards/qualifications/cartography/{plant['c1']}"),
        (GroupDashboard, f"/dashboards/qualifications/group/{plant['teams']['a']}"),
        (list[DashboardElement], f"/qualifications/{plant['q']['contrôle']}/dashboard?by=user"),
        (list[DashboardElement], f"/qualifications/{plant['q']['contrôle']}/dashboard?by=module"),
    ]
    for model, path in answers:
        answer = get(client, manager, path)
        adapter = TypeAdapter(model)
        assert adapter.dump_python(adapter.validate_python(answer), mode="json", by_alias=True) == answer
        assert answer


def test_the_legend_the_limit_and_the_expanded_items_choose_the_children(client, manager, plant):
    """Contrôle concerns five people: alice 50 days, david 0, bruno and chloe never (Mesurer), emma
    never (Régler). The answer carries the children of the states asked, the first `limit` of each item
    but the expanded ones'; the item's figures and counts cover them all."""
    path = f"/dashboards/qualifications/cartography/{plant['c1']}"
    q = plant["q"]["contrôle"]

    def contrôle(query: str) -> dict:
        elements = get(client, manager, f"{path}?{query}")["elements"]
        return next(e for e in elements if e["item"]["id"] == q)

    everything = contrôle("")
    assert everything["item"]["counts"] == {"good": 1, "warn": 1, "none": 3}
    assert [c["name"] for c in everything["children"]] == [
        "Alice Test",
        "David Test",
        "Bruno Test",
        "Chloe Test",
        "Emma Test",
    ]
    first_two = contrôle("limit=2")
    assert [c["name"] for c in first_two["children"]] == ["Alice Test", "David Test"]
    assert first_two["item"] == everything["item"]
    # The legend: only those not validated, two of them, unless the item is expanded.
    assert [c["name"] for c in contrôle("states=none&limit=2")["children"]] == ["Bruno Test", "Chloe Test"]
    assert [c["name"] for c in contrôle(f"states=none&limit=2&expanded={q}")["children"]] == [
        "Bruno Test",
        "Chloe Test",
        "Emma Test",
    ]
    assert [c["state"] for c in contrôle("states=good&states=warn")["children"]] == ["good", "warn"]
    # Another item is not expanded by Contrôle's id.
    other = next(
        e for e in get(client, manager, f"{path}?limit=1&expanded={q}")["elements"] if e["item"]["id"] != q
    )
    assert len(other["children"]) == 1 < other["item"]["total"]


@pytest.mark.parametrize("query", ["states=bad", "limit=0", "limit=1001", "expanded=x"])
def test_a_bad_legend_or_limit_is_refused(client, manager, plant, query):
    response = client.get(
        f"{API}/dashboards/qualifications/cartography/{plant['c1']}?{query}", headers=manager
    )
    assert response.status_code in (400, 422), response.text
    assert response.json()["errors"]
