import pytest
from sqlalchemy.orm import Session

from conftest import kept
from mapping.maps import Map, document, load
from qualifications.world import ADMIN, BOARD, TODAY
from spot.core import time as clock


@pytest.fixture
def today(monkeypatch: pytest.MonkeyPatch):
    """Today is TODAY for the qualifications' computations."""
    monkeypatch.setattr(clock, "today", lambda: TODAY)
    return TODAY


@pytest.fixture
def test_map(db: Session) -> Map:
    """The test map, with a third function F3 in C1 that no module names (imported once per test
    process and put back: `kept`)."""
    doc = document()
    doc["cartographies"][0]["functions"].append({"code": "F3", "name": "Magasinier"})
    kept("qualifications_map", db, lambda: load(db, doc) and None)
    return Map(db)


@pytest.fixture
def manager(test_map, make_user, login) -> dict[str, str]:
    """Dashboards and qualification administration (the test map first: it is put back into an empty
    database only)."""
    return login(make_user("responsable", [BOARD, ADMIN], first_name="Rémi", last_name="Responsable"))
