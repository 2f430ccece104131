"""The functions the demo's qualifications open and the minimums of the machining workshop's functions
(qualifications.coverage), so that the skills matrix, the cartography's coverage and tomorrow's coverage
(its plan, its dashboard, the managers' bell) have something to show after `make run`.

- 'Cariste en atelier' names the forklift driver function (CAR) of both cartographies among the
  functions it opens (its module's spot elements said so already; the form now shows them).
- In the machining workshop (USI), the forklift driver function needs 2 qualified people: `operatrice`
  and `apprenant` are (demo.qualifications), but `apprenant`'s forklift licence runs out within a month,
  so the function is about to fall under its minimum. The others keep the default 3: the lathe setters
  (OPR) have 3, the quality controllers (CQU) 2, the maintenance technicians (TMA) nobody.

Idempotent: a function named already stays named, and the minimums are set to the same values."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.demo.mapping import SITE_CODE
from spot.mapping.models import Cartography, Function, Site
from spot.qualifications.models import Qualification, QualificationFunction

FORKLIFT_QUALIFICATION = "Cariste en atelier"
# (cartography code, function code) the forklift qualification opens.
FORKLIFT_FUNCTIONS = (("USI", "CAR"), ("ASM", "CAR"))
# (cartography code, function code) -> minimum of qualified people.
MINIMUMS = {("USI", "CAR"): 2}


def _functions(db: Session) -> dict[tuple[str, str], int]:
    rows = db.execute(
        select(Cartography.code, Function.code, Function.id)
        .join(Cartography, Cartography.id == Function.cartography_id)
        .join(Site, Site.id == Cartography.site_id)
        .where(Site.code == SITE_CODE)
    )
    return {(cartography, function): function_id for cartography, function, function_id in rows}


def seed(db: Session) -> None:
    functions = _functions(db)
    qualification_id = db.scalar(select(Qualification.id).where(Qualification.name == FORKLIFT_QUALIFICATION))
    if qualification_id is not None:
        named = set(
            db.scalars(
                select(QualificationFunction.function_id).where(
                    QualificationFunction.qualification_id == qualification_id
                )
            )
        )
        for key in FORKLIFT_FUNCTIONS:
            if key in functions and functions[key] not in named:
                db.add(QualificationFunction(qualification_id=qualification_id, function_id=functions[key]))
    for key, minimum in MINIMUMS.items():
        if key in functions:
            db.get_one(Function, functions[key]).minimum_qualified = minimum
    db.flush()
