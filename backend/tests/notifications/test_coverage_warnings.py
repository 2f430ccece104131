"""The daily scan's coverage warnings (notifications.coverage): a manager told by e-mail, once per
(manager, function, day it falls), that a function of a cartography they see falls under its minimum of
qualified people within 60 days, in their language, with a link to the cartography's qualification
dashboard; nothing to those who may not see it, have no perm_TableauBord or left; a fall moved to another
day told again, one that no longer holds marked resolved; two processes at once tell it once."""

import os
import subprocess
import sys
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select, update

from dashboards.data import BOARD, T0, held
from mapping.maps import document, load
from qualifications.world import in_progress
from qualifications.world import module as spot_module
from spot.core.time import midnight, today
from spot.db import session_factory
from spot.mapping.models import CartographyVisibility, Function
from spot.notifications import scan
from spot.notifications.models import OutboxMessage
from spot.notifications.scan_models import CoverageWarning
from spot.qualifications.models import (
    Qualification,
    QualificationCartography,
    QualificationFunction,
    QualificationGroup,
    QualificationModule,
)
from spot.users.models import Group, User, user_group

D0 = date(2026, 4, 15)
KIND = "functionUnderMinimum"
SPOT = str(Path(sys.executable).parent / "spot")


def at(day: date, hour: int = 7) -> datetime:
    return midnight(day) + timedelta(hours=hour)


def run(day: date) -> dict:
    return scan.run(session_factory(), now=at(day))


def warnings(db) -> list[OutboxMessage]:
    db.expire_all()
    return list(
        db.scalars(select(OutboxMessage).where(OutboxMessage.kind == KIND).order_by(OutboxMessage.id))
    )


def hold(db, user_id: int, module_id: int, *, days: int, day: date) -> None:
    held(db, user_id, module_id, days=days, today=day)
    db.commit()


@pytest.fixture
def plant(db, make_user):
    """The test map's C1 (functions F1, F2, F3); 'Contrôle' names C1, covers F2 (module 'Mesurer', a spot
    element on F2), for the team Atelier: Marie (perm_TableauBord, English) and Paul (perm_TableauBord,
    French) manage it; Anne, Bruno, Chloé and David are operators. Olga has perm_TableauBord outside
    the team and sees C2 only; Zoé, an operator, has no perm_TableauBord."""
    test_map = load(db, document())
    team = Group(name="Atelier")
    db.add(team)
    db.flush()
    people = {
        login: make_user(
            login,
            [BOARD] if login in ("marie", "paul", "olga") else [],
            first_name=login.title(),
            last_name="Test",
            email=f"{login}@usine.example",
        )
        for login in ("marie", "paul", "olga", "anne", "bruno", "chloe", "david", "zoe")
    }
    people["marie"].language = "en"
    for login in ("marie", "paul", "anne", "bruno", "chloe", "david", "zoe"):
        db.execute(user_group.insert().values(user_id=people[login].id, group_id=team.id))
    mesurer = spot_module(db, "Mesurer", functions=[test_map.function("F2")])
    controle = Qualification(name="Contrôle", created_at=T0, updated_at=T0)
    db.add(controle)
    db.flush()
    db.add(QualificationGroup(qualification_id=controle.id, group_id=team.id))
    db.add(QualificationModule(qualification_id=controle.id, module_id=mesurer, position=0))
    db.add(QualificationCartography(qualification_id=controle.id, cartography_id=test_map.cartography("C1")))
    olga_sees = CartographyVisibility(
        group_id=people["olga"].groups[0].id, item_type="cartography", item_id=test_map.cartography("C2")
    )
    db.add(olga_sees)
    db.commit()
    return {
        **people,
        "team": team,
        "map": test_map,
        "mesurer": mesurer,
        "controle": controle.id,
        "olga_sees": olga_sees,
    }


def falling(db, plant, day: date = D0) -> None:
    """F2 (minimum 3): Anne and David hold Mesurer beyond 90 days, Bruno until +20 (being requalified),
    Chloé until +45: it falls to 2 on +46."""
    for login, days in (("anne", 200), ("bruno", 20), ("chloe", 45), ("david", 120)):
        hold(db, plant[login].id, plant["mesurer"], days=days, day=day)
    in_progress(db, plant["bruno"].id, plant["mesurer"])


def test_each_manager_is_told_once_in_their_language(db, plant):
    falling(db, plant)
    result = run(D0)
    assert result["coverageWarnings"] == 2
    marie, paul = warnings(db)
    c1 = plant["map"].cartography("C1")
    assert (marie.to_address, marie.language) == ("marie@usine.example", "en")
    fall = (D0 + timedelta(days=46)).isoformat()
    assert (
        marie.subject == f"“Contrôleur” (Atelier de test) falls under its minimum on {fall}: 2 qualified of 3"
    )
    body = marie.text_body.splitlines()
    listed = body[
        body.index("These functions will have fewer qualified people than their minimum within 60 days:")
        + 3 :
    ][:2]
    assert listed == [
        f"- Contrôleur (Atelier de test): 2 qualified from {fall}, minimum 3",
        f"  http://127.0.0.1:8000/spotv2/dashboards/qualifications/cartography/{c1}",
    ]
    assert (paul.to_address, paul.language) == ("paul@usine.example", "fr")
    assert (
        paul.subject
        == "« Contrôleur » (Atelier de test) passe sous son minimum le 31/05/2026 : 2 qualifié(s) sur 3"
    )
    assert f"/spotv2/dashboards/qualifications/cartography/{c1}" in paul.html_body
    rows = db.execute(
        select(CoverageWarning.manager_id, CoverageWarning.falls_on, CoverageWarning.warned_on)
    ).all()
    assert sorted(rows) == sorted(
        [(plant["marie"].id, D0 + timedelta(days=46), D0), (plant["paul"].id, D0 + timedelta(days=46), D0)]
    )
    # The next days: the same fall, nothing new.
    for n in (1, 2, 30):
        assert run(D0 + timedelta(days=n))["coverageWarnings"] == 0
    assert len(warnings(db)) == 2


def test_a_fall_moved_to_another_day_is_told_again(db, plant):
    falling(db, plant)
    run(D0)
    # Chloé renewed until +50: F2 now falls on +51.
    hold(db, plant["chloe"].id, plant["mesurer"], days=50, day=D0)
    assert run(D0 + timedelta(days=1))["coverageWarnings"] == 2
    marie, paul = warnings(db)[2:]
    assert "on 2026-06-05:" in marie.subject and "le 05/06/2026 :" in paul.subject
    assert db.scalar(select(func.count()).select_from(CoverageWarning)) == 4


def test_a_fall_beyond_60_days_or_already_under_is_not_told(db, plant):
    for login, days in (("anne", 200), ("bruno", 61), ("chloe", 65), ("david", 120)):
        hold(db, plant[login].id, plant["mesurer"], days=days, day=D0)
    assert run(D0)["coverageWarnings"] == 0  # falls on +62
    # Under its minimum of 5 already today: the dashboards show it, no fall to tell.
    db.execute(update(Function).where(Function.id == plant["map"].function("F2")).values(minimum_qualified=5))
    db.commit()
    assert run(D0 + timedelta(days=1))["coverageWarnings"] == 0
    assert warnings(db) == []


def test_who_is_not_told(db, plant):
    falling(db, plant)
    # Paul no longer sees F2 (his groups see F1 only); Marie left; Olga sees C2 only; Zoé has no
    # perm_TableauBord.
    paul = db.get(User, plant["paul"].id)
    for group_id in (paul.groups[0].id, plant["team"].id):
        db.add(
            CartographyVisibility(
                group_id=group_id, item_type="function", item_id=plant["map"].function("F1")
            )
        )
    db.execute(update(User).where(User.id == plant["marie"].id).values(active=False))
    db.commit()
    assert run(D0)["coverageWarnings"] == 0
    assert warnings(db) == []
    assert db.scalar(select(func.count()).select_from(CoverageWarning)) == 0
    # Olga sees C1 once her group is no longer limited: a manager is told of what they see, in their
    # team or not.
    db.delete(db.merge(plant["olga_sees"]))
    db.commit()
    assert run(D0 + timedelta(days=1))["coverageWarnings"] == 1
    assert [m.to_address for m in warnings(db)] == ["olga@usine.example"]


def test_a_fall_that_no_longer_holds_is_resolved_and_not_told_again_when_it_comes_back(db, plant):
    falling(db, plant)
    run(D0)
    f2 = plant["map"].function("F2")

    def recorded():
        db.expire_all()
        return sorted(
            db.execute(
                select(CoverageWarning.valid, CoverageWarning.minimum, CoverageWarning.resolved_on).where(
                    CoverageWarning.manager_id == plant["marie"].id
                )
            ).all()
        )

    assert recorded() == [(2, 3, None)]
    # F2 needs 2 only: Anne and David stay beyond 90 days, no fall.
    db.execute(update(Function).where(Function.id == f2).values(minimum_qualified=2))
    db.commit()
    assert run(D0 + timedelta(days=1))["coverageWarnings"] == 0
    assert recorded() == [(2, 3, D0 + timedelta(days=1))]
    # Back to 3: the same fall, found again, not told again.
    db.execute(update(Function).where(Function.id == f2).values(minimum_qualified=3))
    db.commit()
    assert run(D0 + timedelta(days=2))["coverageWarnings"] == 0
    assert recorded() == [(2, 3, None)]
    assert len(warnings(db)) == 2


def test_two_falls_of_a_manager_make_one_message(db, plant):
    falling(db, plant)
    # Contrôle names F1 and F2: both covered by it; F1 needs 4 (Bruno's last day is +20).
    db.add(QualificationFunction(qualification_id=plant["controle"], function_id=plant["map"].function("F1")))
    db.add(QualificationFunction(qualification_id=plant["controle"], function_id=plant["map"].function("F2")))
    db.execute(update(Function).where(Function.id == plant["map"].function("F1")).values(minimum_qualified=4))
    db.execute(update(User).where(User.id == plant["paul"].id).values(active=False))
    db.commit()
    run(D0)
    (message,) = warnings(db)
    assert message.subject == "Functions of your cartographies falling under their minimum: 2"
    lines = [line for line in message.text_body.splitlines() if line.startswith("- ")]
    first, second = (D0 + timedelta(days=n) for n in (21, 46))
    assert lines == [
        f"- Opérateur régleur (Atelier de test): 3 qualified from {first}, minimum 4",
        f"- Contrôleur (Atelier de test): 2 qualified from {second}, minimum 3",
    ]


def _notify() -> subprocess.Popen:
    return subprocess.Popen(
        [SPOT, "notify"], env=os.environ.copy(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def test_two_processes_at_once_tell_each_fall_once(db, plant):
    falling(db, plant, day=today())
    processes = [_notify(), _notify()]
    outputs = [process.communicate(timeout=300)[0] for process in processes]
    assert all(process.returncode == 0 for process in processes), outputs
    said = sorted(
        line for output in outputs for line in output.splitlines() if line.startswith("coverageWarnings:")
    )
    assert said in (
        ["coverageWarnings: 0 queued", "coverageWarnings: 2 queued"],
        ["coverageWarnings: 2 queued", "coverageWarnings: not run here (another process runs it)"],
    ), outputs
    assert sorted(m.to_address for m in warnings(db)) == ["marie@usine.example", "paul@usine.example"]
    assert db.scalar(select(func.count()).select_from(CoverageWarning)) == 2
