"""The demo shows a usage chart with something in it, and seeding it again adds nothing."""

from datetime import date, timedelta

from sqlalchemy import func, select

from spot import demo
from spot.core.history_models import HistoryEntry
from spot.core.time import today
from spot.mapping.models import Cartography
from support import API


def test_the_demo_cartographies_have_78_weeks_of_usage(demo_org, client, db):
    entries = db.scalar(select(func.count()).select_from(HistoryEntry))
    token = client.post(
        f"{API}/account/login", json={"username": "manager", "password": demo.DEMO_PASSWORD}
    ).json()["token"]
    usi = db.scalar(select(Cartography.id).where(Cartography.code == "USI"))
    now = today()
    from_year = now.year - 2
    january = date(from_year, 1, 1)
    current = (
        (now - timedelta(days=now.weekday())) - (january - timedelta(days=january.weekday()))
    ).days // 7
    response = client.post(
        f"{API}/history/contributions",
        json={"itemIds": [usi], "fromYear": from_year, "start": current - 77, "count": 78},
        headers={"x-access-token": token},
    )
    assert response.status_code == 200, response.text
    periods = response.json()["periods"]
    assert sum(1 for p in periods if p["views"] > 0) >= 60
    assert sum(1 for p in periods if p["contributions"] > 0) >= 30
    demo.seed(db)
    db.commit()
    assert db.scalar(select(func.count()).select_from(HistoryEntry)) == entries
