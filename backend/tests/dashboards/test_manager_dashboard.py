"""The Dashboard manager's cartographies (docs/qualifications.md): every cartography the manager sees,
by site, with the figures of its qualification dashboard, counted as that dashboard counts them."""

from dataclasses import dataclass

import pytest
from sqlalchemy.orm import Session

from dashboards.data import BOARD, fix_today
from dashboards.data import MANAGER_CARTOGRAPHIES as CARTOGRAPHIES
from mapping.maps import SECOND_SITE, Map, document, load
from qualifications.world import TODAY, graded, group, module, qualification
from spot.core import time as clock
from spot.mapping.models import CartographyVisibility
from support import API


@dataclass
class Plant:
    map: Map
    people: dict[str, int]
    modules: dict[str, int]


@pytest.fixture
def manager(make_user, login, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setattr(clock, "today", lambda: TODAY)
    fix_today(monkeypatch, TODAY)
    return login(make_user("responsable", [BOARD], first_name="Rémi", last_name="Responsable"))


@pytest.fixture
def plant(client, db: Session, make_user, manager) -> Plant:
    """C1 (functions F1, F2, F3) and C2 (G1) on the test site, C3 (H1, H2) on a second one:

    - 'Réglage' names C1, team A, module 'Régler' (on subject S1 of F1): alice and bruno hold it;
    - 'Contrôle' names C1, teams A and B, 'Mesurer' (on F2) and 'Régler': alice and david hold it;
    - 'Montage' names C2, team B, 'Monter' (on G1 of C2): david holds it;
    - 'Polyvalence' names C1 only, team C, 'Monter': frank holds it, but it does not name C2, so it
      covers no function of C2;
    - frank holds 'Monter' too without being in team B: 'Montage' does not concern him.
    """
    doc = document()
    doc["cartographies"][0]["functions"].append({"code": "F3", "name": "Magasinier"})
    m = load(db, doc)
    load(db, SECOND_SITE)
    p = {
        n: make_user(n, first_name=n.title(), last_name="Test").id
        for n in ("alice", "bruno", "chloe", "david", "frank")
    }
    team_a = group(db, "Équipe A", [p["alice"], p["bruno"], p["chloe"]])
    team_b = group(db, "Équipe B", [p["david"], p["alice"]])
    team_c = group(db, "Équipe C", [p["frank"]])
    regler = module(db, "Régler", subjects=[m.subject("S1")])
    mesurer = module(db, "Mesurer", functions=[m.function("F2")])
    monter = module(db, "Monter", functions=[m.function("G1")])
    c1, c2 = m.cartography("C1"), m.cartography("C2")
    qualification(client, manager, "Réglage", groups=[team_a], modules=[regler], cartographies=[c1])
    qualification(
        client, manager, "Contrôle", groups=[team_a, team_b], modules=[mesurer, regler], cartographies=[c1]
    )
    qualification(client, manager, "Montage", groups=[team_b], modules=[monter], cartographies=[c2])
    qualification(client, manager, "Polyvalence", groups=[team_c], modules=[monter], cartographies=[c1])
    graded(db, p["alice"], regler, days=200)
    graded(db, p["bruno"], regler, days=10)
    graded(db, p["chloe"], regler, days=-5)
    graded(db, p["david"], regler, days=None)
    graded(db, p["alice"], mesurer, days=50)
    graded(db, p["david"], mesurer, days=0)
    graded(db, p["david"], monter, days=30)
    graded(db, p["frank"], monter, days=100)
    return Plant(map=m, people=p, modules={"régler": regler, "mesurer": mesurer, "monter": monter})


def levels(none: int, single: int, covered: int, under: int) -> dict[str, int]:
    """Functions by coverage level, and how many are under their minimum (3 unless changed)."""
    return {"none": none, "single": single, "covered": covered, "underMinimum": under}


def get(client, headers, url: str):
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def test_every_cartography_seen_with_its_qualifications_and_coverage(client, manager, plant):
    answer = get(client, manager, CARTOGRAPHIES)
    assert [(c["siteName"], c["name"]) for c in answer] == [
        ("Second site", "Éclairage public"),
        ("Site de test", "Atelier de test"),
        ("Site de test", "Ligne de test"),
    ]
    c3, c1, c2 = answer
    assert c3 == {
        "id": plant.map.cartography("C3"),
        "name": "Éclairage public",
        "siteName": "Second site",
        "qualifications": 0,
        "functions": levels(2, 0, 0, 2),
    }
    # C1: F1 by alice, bruno (Réglage) and david (Contrôle), F2 by alice and david, F3 by nobody: F2 and
    # F3 under the minimum of 3.
    assert (c1["qualifications"], c1["functions"]) == (3, levels(1, 0, 2, 2))
    # C2: G1 by david alone; frank holds 'Monter' through a qualification that does not name C2.
    assert (c2["qualifications"], c2["functions"]) == (1, levels(0, 1, 0, 1))


def test_the_figures_are_those_of_each_cartographys_dashboard(client, db, manager, plant):
    """Once alice's 'Mesurer' has expired, F2 rests on david alone, here and on C1's dashboard."""
    graded(db, plant.people["alice"], plant.modules["mesurer"], days=-1, graded_days_ago=1)
    for cartography in get(client, manager, CARTOGRAPHIES):
        board = get(client, manager, f"{API}/dashboards/qualifications/cartography/{cartography['id']}")
        counted = levels(0, 0, 0, 0)
        for function in board["coverage"]:
            counted[function["level"]] += 1
            counted["underMinimum"] += function["underMinimum"]
        assert cartography["functions"] == counted, cartography["name"]
        assert cartography["qualifications"] == len(board["elements"]), cartography["name"]
    c1 = next(c for c in get(client, manager, CARTOGRAPHIES) if c["id"] == plant.map.cartography("C1"))
    assert c1["functions"] == levels(1, 1, 1, 2)


def test_only_what_the_manager_sees(client, db, make_user, login, plant):
    """A manager whose group sees the function F2 of C1 alone: C1 with that function, nothing else."""
    user = make_user(permissions=[BOARD])
    db.add(
        CartographyVisibility(
            group_id=user.groups[0].id, item_type="function", item_id=plant.map.function("F2")
        )
    )
    db.commit()
    answer = get(client, login(user), CARTOGRAPHIES)
    assert [(c["name"], c["qualifications"], c["functions"]) for c in answer] == [
        ("Atelier de test", 3, levels(0, 0, 1, 1))
    ]


def test_no_cartography(client, manager):
    assert get(client, manager, CARTOGRAPHIES) == []
