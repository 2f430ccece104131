"""The demo's references: both lists have some, one module reference is disabled, seeding twice adds
nothing, and every reference the demo modules name is there."""

from sqlalchemy import func, select

from spot.demo import references as demo
from spot.references.models import Reference


def _count(db, type_):
    return db.scalar(select(func.count()).select_from(Reference).where(Reference.type == type_))


def test_the_demo_references_are_seeded_once(demo_org, db):
    demo.seed(db)
    assert _count(db, "module") == len(demo.MODULE_REFERENCES) >= 5
    assert _count(db, "path") == len(demo.PATH_REFERENCES) >= 3
    disabled = db.scalars(select(Reference.code).where(Reference.disabled.is_(True))).all()
    assert disabled == ["HABILITATION-ELEC"]


def test_a_demo_reference_changed_by_a_user_stays_as_it_is(demo_org, db):
    reference = db.scalar(select(Reference).where(Reference.type == "module", Reference.code == demo.SAFETY))
    reference.label = "Sécurité"
    db.flush()
    demo.seed(db)
    assert db.scalar(select(Reference.label).where(Reference.id == reference.id)) == "Sécurité"


def test_every_reference_of_the_demo_modules_is_a_demo_module_reference():
    from spot.demo.modules import MODULES

    codes = {reference.code for reference in demo.MODULE_REFERENCES if not reference.disabled}
    named = {module.reference for module in MODULES if module.reference}
    assert named and named <= codes
