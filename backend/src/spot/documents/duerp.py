"""What the document unique (DUERP) of a site says, read from the map (docs/documents.md).

- A **work unit** is an activity of a cartography of the site with one of its functions: the place
  where the map records risks. The units are those of the site's risks, in the map's order: the
  cartographies' order, the activities' tree (each activity before its sub-activities), the functions'.
- A **risk** is a subject of type risk, in its work unit, with its frequency, gravity, criticity and
  band (subjects.service.criticity_level), who rated it and when, its marks (followed, resolved,
  standardized, each with its date and author) and its prevention measures. In a unit, the most
  critical first (not rated last), then by id.
- The **action plan** is the risks followed and not resolved, the most critical first, then by id.

The rows are read as they are written (`yield_per`): a site of 100,000 risks never sits in memory.
The order is the database's (each unit's rank handed to it), so that the PDF and the workbook read
the rows once each, in the order they print them."""

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, case, func, select
from sqlalchemy.orm import Session, aliased

from spot.mapping.models import Activity, Cartography, Function, Site, Subject, SubjectType
from spot.subjects.service import criticity_bands, criticity_level
from spot.users.models import User

_BATCH = 2000


@dataclass(frozen=True)
class WorkUnit:
    cartography: str
    activity: str
    function: str

    def label(self) -> str:
        return f"{self.cartography} › {self.activity} › {self.function}"


@dataclass(frozen=True)
class Mark:
    at: datetime
    by: str


@dataclass(frozen=True)
class Risk:
    unit: WorkUnit
    id: int
    code: str
    name: str
    frequency: int
    gravity: int
    criticity: int | None
    band: str
    rated: Mark | None
    followed: Mark | None
    resolved: Mark | None
    standardized: Mark | None
    measures: str


@dataclass(frozen=True)
class UnitSummary:
    unit: WorkUnit
    risks: int
    high: int
    medium: int
    low: int
    not_rated: int
    highest: int | None
    actions: int


@dataclass(frozen=True)
class Map:
    """The site's tree: each unit's part by id, and its rank in the map's order."""

    site: Site
    cartographies: dict[int, tuple[int, str]]
    activities: dict[int, tuple[int, str]]
    functions: dict[int, tuple[int, str]]

    def unit(self, cartography_id: int, activity_id: int, function_id: int) -> WorkUnit:
        return WorkUnit(
            self.cartographies[cartography_id][1],
            self.activities[activity_id][1],
            self.functions[function_id][1],
        )

    def rank(self, cartography_id: int, activity_id: int, function_id: int) -> tuple[int, int, int]:
        return (
            self.cartographies[cartography_id][0],
            self.activities[activity_id][0],
            self.functions[function_id][0],
        )


def read_map(db: Session, site: Site) -> Map:
    cartographies = db.execute(
        select(Cartography.id, Cartography.name)
        .where(Cartography.site_id == site.id)
        .order_by(Cartography.ordering, Cartography.id)
    ).all()
    ids = [c.id for c in cartographies]
    children: dict[int | None, list[Any]] = {}
    for row in db.execute(
        select(Activity.id, Activity.parent_id, Activity.name, Activity.cartography_id)
        .where(Activity.cartography_id.in_(ids))
        .order_by(Activity.ordering, Activity.id)
    ):
        children.setdefault(row.parent_id, []).append(row)
    activities: dict[int, tuple[int, str]] = {}

    def walk(parent_id: int | None, path: str) -> None:
        for row in children.get(parent_id, ()):
            name = f"{path} › {row.name}" if path else row.name
            activities[row.id] = (len(activities), name)
            walk(row.id, name)

    walk(None, "")
    functions = db.execute(
        select(Function.id, Function.name)
        .where(Function.cartography_id.in_(ids))
        .order_by(Function.cartography_id, Function.ordering, Function.id)
    ).all()
    return Map(
        site=site,
        cartographies={c.id: (rank, c.name) for rank, c in enumerate(cartographies)},
        activities=activities,
        functions={f.id: (rank, f.name) for rank, f in enumerate(functions)},
    )


def _ranked(ranks: dict[int, tuple[int, str]], column: Any) -> Any:
    """The column's rank in the map's order, in SQL."""
    return case({key: rank for key, (rank, _name) in ranks.items()}, value=column, else_=len(ranks))


def _risks(site_map: Map) -> Select[Any]:
    return select(Subject.id).where(
        Subject.cartography_id.in_(list(site_map.cartographies)), Subject.type == SubjectType.risk.value
    )


_PEOPLE = ("criticity", "followed", "resolved", "standardized")


def _rows(site_map: Map) -> Select[Any]:
    people = {name: aliased(User) for name in _PEOPLE}
    statement: Any = select(
        Subject.id,
        Subject.code,
        Subject.name,
        Subject.cartography_id,
        Subject.activity_id,
        Subject.function_id,
        Subject.frequency,
        Subject.gravity,
        Subject.criticity_score,
        Subject.prevention_measures,
        *(getattr(Subject, f"{name}_at") for name in _PEOPLE),
        *(people[name].display_name.label(f"{name}_name") for name in _PEOPLE),
    ).where(Subject.id.in_(_risks(site_map)))
    for name, person in people.items():
        statement = statement.outerjoin(person, person.id == getattr(Subject, f"{name}_by"))
    return statement


def _mark(at: datetime | None, by: str | None) -> Mark | None:
    return Mark(at, by or "") if at is not None else None


def _risk(site_map: Map, row: Any) -> Risk:
    return Risk(
        unit=site_map.unit(row.cartography_id, row.activity_id, row.function_id),
        id=row.id,
        code=row.code,
        name=row.name,
        frequency=row.frequency,
        gravity=row.gravity,
        criticity=row.criticity_score,
        band=criticity_level(row.criticity_score) or "none",
        rated=_mark(row.criticity_at, row.criticity_name),
        followed=_mark(row.followed_at, row.followed_name),
        resolved=_mark(row.resolved_at, row.resolved_name),
        standardized=_mark(row.standardized_at, row.standardized_name),
        measures=row.prevention_measures,
    )


def _streamed(db: Session, site_map: Map, statement: Select[Any]) -> Iterator[Risk]:
    for row in db.execute(statement.execution_options(yield_per=_BATCH)):
        yield _risk(site_map, row)


def risks(db: Session, site_map: Map) -> Iterator[Risk]:
    """The site's risks by work unit, in the map's order; in a unit, the most critical first."""
    statement = _rows(site_map).order_by(
        _ranked(site_map.cartographies, Subject.cartography_id),
        _ranked(site_map.activities, Subject.activity_id),
        _ranked(site_map.functions, Subject.function_id),
        Subject.criticity_score.desc().nulls_last(),
        Subject.id,
    )
    return _streamed(db, site_map, statement)


def action_plan(db: Session, site_map: Map) -> Iterator[Risk]:
    """The risks followed and not resolved, the most critical first."""
    statement = (
        _rows(site_map)
        .where(Subject.followed_at.is_not(None), Subject.resolved_at.is_(None))
        .order_by(Subject.criticity_score.desc().nulls_last(), Subject.id)
    )
    return _streamed(db, site_map, statement)


def summary(db: Session, site_map: Map) -> list[UnitSummary]:
    """A line per work unit that has risks, in the map's order."""
    bands = criticity_bands(Subject.criticity_score)

    def count(condition: Any) -> Any:
        return func.count(case((condition, 1)))

    rows = list(
        db.execute(
            select(
                Subject.cartography_id,
                Subject.activity_id,
                Subject.function_id,
                func.count(),
                *(count(bands[band]) for band in ("high", "medium", "low", "none")),
                func.max(Subject.criticity_score),
                count(Subject.followed_at.is_not(None) & Subject.resolved_at.is_(None)),
            )
            .where(Subject.id.in_(_risks(site_map)))
            .group_by(Subject.cartography_id, Subject.activity_id, Subject.function_id)
        )
    )
    rows.sort(key=lambda row: site_map.rank(row[0], row[1], row[2]))
    return [
        UnitSummary(site_map.unit(c, a, f), risks, high, medium, low, not_rated, highest, actions)
        for c, a, f, risks, high, medium, low, not_rated, highest, actions in rows
    ]
