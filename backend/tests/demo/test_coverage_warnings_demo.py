"""Tomorrow's coverage in the demo (demo.coverage's data, demo.coverage_warnings): the machining workshop's
forklift drivers fall under their minimum within 60 days; its plan's answer says so, the manager's bell
shows it and the outbox holds the warning of the day it was loaded, told once however often the demo is
seeded."""

from sqlalchemy import func, select

from mapping.test_mapping_demo import demo_login
from spot import demo
from spot.mapping.models import Cartography, Function
from spot.notifications.models import OutboxMessage
from spot.notifications.scan_models import CoverageWarning
from support import API


def test_the_workshops_forklift_drivers_are_flagged_on_the_plan_and_in_the_bell(demo_org, client, db):
    usi = db.scalar(select(Cartography.id).where(Cartography.code == "USI"))
    car = db.scalar(select(Function.id).where(Function.cartography_id == usi, Function.code == "CAR"))
    headers = demo_login(client, db, "manager")
    plan = client.get(f"{API}/dashboards/cartography/{usi}/coverage", headers=headers)
    assert plan.status_code == 200, plan.text
    outlooks = {f["function"]["id"]: f["outlook"] for f in plan.json()["functions"]}
    assert outlooks[car] == "falling"
    bell = [
        a
        for a in client.get(f"{API}/account/alerts", headers=headers).json()["alerts"]
        if a["kind"] == "functionUnderMinimum"
    ]
    assert [(a["target"], a["args"]["minimum"], a["args"]["valid"]) for a in bell] == [
        ({"type": "cartographyQualifications", "id": usi}, 2, 1)
    ]
    warned = db.scalars(select(CoverageWarning.function_id)).all()
    assert set(warned) == {car}
    messages = db.scalars(select(OutboxMessage).where(OutboxMessage.kind == "functionUnderMinimum")).all()
    assert len(messages) == len(warned) >= 1
    assert all(a["args"]["name"] in m.subject for m in messages for a in bell)
    # Seeded again: told once.
    demo.seed(db)
    db.commit()
    assert db.scalar(select(func.count()).select_from(CoverageWarning)) == len(warned)
