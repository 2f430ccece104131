"""The process's copy of the map's paths (mapping.service.map_paths) and the map_version that the
triggers of migration 63bf24d87e00 move on every change to sites, cartographies, activities and
functions."""

import pytest
from sqlalchemy import text, update
from sqlalchemy.orm import Session

from mapping.maps import Map
from spot import db as database
from spot.mapping import service
from spot.mapping.models import Activity, Cartography, Function, Site
from support import API


def version() -> int:
    with database.get_engine().connect() as connection:
        return connection.scalar(text("SELECT version FROM map_version"))


def activity_names(db: Session, m: Map) -> list[str]:
    activity_id = m.activity("A121")
    path = service.map_paths(db, activity_ids=[activity_id]).activity(activity_id)
    return [step.name for step in path or [] if step.type == "activity"]


@pytest.mark.parametrize("model", [Site, Cartography, Activity, Function])
def test_every_change_to_the_hierarchy_moves_the_version(db: Session, test_map: Map, model) -> None:
    item_id = db.query(model.id).order_by(model.id).limit(1).scalar()
    before = version()
    db.execute(update(model).where(model.id == item_id).values(name="Renommé"))
    db.commit()
    renamed = version()
    db.execute(model.__table__.delete().where(model.id == item_id))
    db.commit()
    assert before < renamed < version()


def test_inserts_move_the_version(db: Session) -> None:
    before = version()
    db.add(Site(code="NEW", name="Nouveau site"))
    db.commit()
    assert version() > before


def test_the_copy_serves_until_the_map_changes(db: Session, test_map: Map) -> None:
    db.commit()
    assert activity_names(db, test_map) == ["Usinage", "Fraisage", "Ébavurage"]

    db.execute(update(Activity).where(Activity.code == "A12").values(name="Fraisage CN"))
    db.commit()
    assert activity_names(db, test_map) == ["Usinage", "Fraisage CN", "Ébavurage"]


def test_a_request_sees_its_own_uncommitted_change_and_a_rollback_leaves_no_trace(
    db: Session, test_map: Map
) -> None:
    db.commit()
    assert activity_names(db, test_map) == ["Usinage", "Fraisage", "Ébavurage"]
    db.execute(update(Activity).where(Activity.code == "A1").values(name="Usinage provisoire"))
    assert activity_names(db, test_map) == ["Usinage provisoire", "Fraisage", "Ébavurage"]
    db.rollback()
    # The rollback gives the version back, and a different change takes it again: what the rolled-back
    # transaction saw at that version must not be what serves it now.
    db.execute(update(Function).where(Function.code == "F2").values(name="Contrôleur final"))
    db.commit()
    with database.session_factory()() as other:
        assert activity_names(other, test_map) == ["Usinage", "Fraisage", "Ébavurage"]


def test_a_subject_page_shows_a_renamed_activity_at_once(
    client, db: Session, test_map: Map, make_user, login
) -> None:
    headers = login(make_user("lecteur"))
    url = f"{API}/subject/{test_map.subject('S1')}"

    def path_names() -> list[list[str]]:
        response = client.get(url, headers=headers)
        assert response.status_code == 200, response.text
        return [[step["name"] for step in path] for path in response.json()["contexts"]]

    assert ["Site de test", "Atelier de test", "Usinage", "Tournage"] in path_names()
    db.execute(update(Activity).where(Activity.code == "A11").values(name="Tournage CN"))
    db.commit()
    assert ["Site de test", "Atelier de test", "Usinage", "Tournage CN"] in path_names()
