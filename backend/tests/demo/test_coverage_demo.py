"""The demo's functions and minimums (demo.coverage): the forklift qualification names the forklift driver
functions; in the machining workshop that function needs 2 people and is about to fall under its
minimum, which its skills matrix and tomorrow's coverage show; seeded twice, the same data."""

from sqlalchemy import func, select

from mapping.test_mapping_demo import demo_login
from spot import demo
from spot.mapping.models import Cartography, Function
from spot.qualifications.models import Qualification, QualificationFunction
from support import API


def _ids(db, cartography: str) -> tuple[int, dict[str, int]]:
    cartography_id = db.scalar(select(Cartography.id).where(Cartography.code == cartography))
    functions = dict(
        db.execute(select(Function.code, Function.id).where(Function.cartography_id == cartography_id))
        .tuples()
        .all()
    )
    return cartography_id, functions


def test_the_forklift_qualification_opens_the_forklift_driver_functions(demo_org, client, db):
    usi, usi_functions = _ids(db, "USI")
    asm, asm_functions = _ids(db, "ASM")
    forklift = db.scalar(select(Qualification.id).where(Qualification.name == "Cariste en atelier"))
    named = set(
        db.scalars(
            select(QualificationFunction.function_id).where(
                QualificationFunction.qualification_id == forklift
            )
        )
    )
    assert named == {usi_functions["CAR"], asm_functions["CAR"]}
    demo.seed(db)
    db.commit()
    assert db.scalar(select(func.count()).select_from(QualificationFunction)) == 2


def test_the_workshops_forklift_drivers_are_about_to_fall_under_their_minimum(demo_org, client, db):
    usi, functions = _ids(db, "USI")
    headers = demo_login(client, db, "manager")
    matrix = client.get(f"{API}/dashboards/cartography/{usi}/matrix", headers=headers)
    assert matrix.status_code == 200, matrix.text
    columns = {c["code"]: c for c in matrix.json()["columns"]}
    car, opr = columns["CAR"], columns["OPR"]
    assert (car["qualified"], car["minimum"], car["underMinimum"]) == (2, 2, False)
    assert (opr["qualified"], opr["minimum"], opr["underMinimum"]) == (3, 3, False)
    assert [columns[f]["forecast"]["outlook"] for f in ("OPR", "TMA", "CAR", "CQU")] == [
        "enough",
        "nobody",
        "falling",
        "under",
    ]
    # apprenant's forklift licence ends within 30 days: one valid at +30, under the minimum of 2.
    assert car["forecast"]["outlook"] == "falling"
    assert [p["valid"] for p in car["forecast"]["points"]] == [2, 1, 1, 1]
    rows = {r["name"]: r for r in matrix.json()["rows"]}
    states = {name: row["cells"][list(columns).index("CAR")]["state"] for name, row in rows.items()}
    assert states["Gabriel Roux"] == "expiring"
    assert set(states.values()) == {"valid", "expiring", "expired", "never"}
    # The Excel and PDF files of it.
    for suffix in ("/excel", "/pdf"):
        response = client.get(f"{API}/dashboards/cartography/{usi}/matrix{suffix}", headers=headers)
        assert response.status_code == 200 and len(response.content) > 1000
