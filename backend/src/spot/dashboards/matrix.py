"""The skills matrix of a cartography (docs/qualifications.md, "The skills matrix"): one column per
function of the cartography that the user sees, one row per person concerned by a qualification naming
the cartography, each cell the person's state for that function by the rule of
qualifications.coverage (their best hold among the qualifications covering the function that concern
them):

- `valid`: held more than 30 days ahead, or for good (permanent, no date);
- `expiring`: held, its last valid day within 30 days (0 to 30 days left);
- `inProgress`: not held, and a path in progress will grade it (a requalification, or a first path);
- `expired`: not held any more, nothing in progress;
- `never`: never held (or no qualification covering the function concerns the person).

A person **holds** a function in the first two states: the people holding a function are exactly the
people qualified for it, which the dashboards count against its minimum. Each column's foot gives those
(over everyone concerned, whatever the filters) with the minimum, the level and tomorrow's coverage
(qualifications.forecast: the people qualified at +30, +60 and +90 days), and the cells of the rows
shown by state; each row, the functions the person
holds among the columns shown.

Filters: groups (the rows of their members), functions (the columns), states (the rows with a cell
shown in one of them); sorts: by name, or by the number of functions held (most first) then name. The
Excel and PDF files (dashboards.matrix_files) are made from the same answer."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.core.principal import Principal
from spot.db import plain
from spot.mapping import service as mapping
from spot.mapping.models import Site
from spot.qualifications import coverage, forecast, validity
from spot.qualifications import dashboards as qualification_dashboards
from spot.qualifications import policy as qualification_policy
from spot.qualifications.models import QualificationCartography, QualificationGroup
from spot.qualifications.validity import ModuleValidity
from spot.querylang.text import fold
from spot.users.models import Group, user_group


class CellState(StrEnum):
    valid = "valid"
    expiring = "expiring"
    inProgress = "inProgress"
    expired = "expired"
    never = "never"


HELD = frozenset({CellState.valid.value, CellState.expiring.value})


class Sort(StrEnum):
    name = "name"
    held = "held"


_VALID, _EXPIRING, _IN_PROGRESS = CellState.valid.value, CellState.expiring.value, CellState.inProgress.value
_EXPIRED, _NEVER = CellState.expired.value, CellState.never.value
_SENTINELS = (validity.NONE, validity.UNLIMITED)


def cell_state(hold: ModuleValidity | None) -> str:
    """The state of a cell from the person's best hold for the function (None: no covering
    qualification concerns them). Plain strings: a matrix has tens of thousands of cells."""
    if hold is None:
        return _NEVER
    days = hold.remaining_days
    if days > validity.WARN_DAYS:
        return _VALID
    if days >= 0:
        return _EXPIRING
    if hold.requalification_path_id is not None:
        return _IN_PROGRESS
    if days == validity.NONE:
        return _NEVER
    return _EXPIRED


# The cell of a person no covering qualification concerns (shared: the JSON writer reads it as often).
_NEVER_CELL: dict[str, Any] = {"state": _NEVER, "validUntil": None}


def _cell(hold: ModuleValidity) -> dict[str, Any]:
    days = hold.remaining_days
    return {"state": cell_state(hold), "validUntil": None if days in _SENTINELS else hold.valid_until}


@dataclass(frozen=True)
class Filters:
    groups: frozenset[int] = frozenset()
    functions: frozenset[int] = frozenset()
    states: frozenset[str] = frozenset()
    sort: Sort = Sort.name


NO_FILTER = Filters()


@dataclass
class Matrix:
    """The answer as data (the route writes it as JSON, the files as cells)."""

    cartography: dict[str, Any]
    columns: list[dict[str, Any]]
    rows: list[dict[str, Any]]
    groups: list[dict[str, Any]]
    functions: list[dict[str, Any]]
    total_people: int
    can_edit_minimum: bool
    filters: Filters = field(default_factory=Filters)

    def as_json(self) -> dict[str, Any]:
        return {
            "cartography": self.cartography,
            "columns": self.columns,
            "rows": self.rows,
            "groups": self.groups,
            "functions": self.functions,
            "totalPeople": self.total_people,
            "can": {"editMinimum": self.can_edit_minimum},
        }


def _sort_key(name: str, person_id: int) -> tuple[str, int]:
    return fold(name), person_id


def matrix(
    db: Session, *, user: Principal, cartography_id: int, today: date, filters: Filters = NO_FILTER
) -> Matrix:
    """404 unknown cartography, 403 hidden from the user (mapping.policy)."""
    found = mapping.get_cartography(db, user=user, cartography_id=cartography_id)
    site_name = db.scalar(select(Site.name).where(Site.id == found.site_id)) or ""
    naming = sorted(
        plain(db).scalars(
            select(QualificationCartography.qualification_id).where(
                QualificationCartography.cartography_id == cartography_id
            )
        )
    )
    holds = qualification_dashboards.holds_of(db, naming, today)
    covering = coverage.covering(db, [cartography_id])
    seen = coverage.seen_functions(db, user, [cartography_id])
    shown = [f for f in seen if not filters.functions or f.id in filters.functions]

    people: dict[int, str] = {u: name for rows in holds.values() for u, name, _ in rows}
    order = sorted(people, key=lambda u: _sort_key(people[u], u))
    groups = _groups(db, naming)
    if filters.groups:
        members = set(
            plain(db).scalars(
                select(user_group.c.user_id).where(user_group.c.group_id.in_(sorted(filters.groups)))
            )
        )
        order = [u for u in order if u in members]

    # Per column, every concerned person's cell: their best hold for the function (coverage.best), one
    # cell per distinct hold (a qualification covering several functions gives them the same).
    made: dict[int, dict[str, Any]] = {}
    columns_cells: list[dict[int, dict[str, Any]]] = []
    holders: list[set[int]] = []
    for function in shown:
        cells: dict[int, dict[str, Any]] = {}
        for u, hold in coverage.best_holds(covering.get(function.id, ()), holds).items():
            cell = made.get(id(hold))
            if cell is None:
                cell = made[id(hold)] = _cell(hold)
            cells[u] = cell
        columns_cells.append(cells)
        holders.append({u for u, cell in cells.items() if cell["state"] in HELD})
    held = dict.fromkeys(order, 0)
    for holding in holders:
        for u in holding:
            if u in held:
                held[u] += 1

    rows: list[dict[str, Any]] = []
    for u in order:
        row_cells = [cells.get(u, _NEVER_CELL) for cells in columns_cells]
        if filters.states and not any(c["state"] in filters.states for c in row_cells):
            continue
        rows.append({"id": u, "name": people[u], "held": held[u], "cells": row_cells})
    if filters.sort == Sort.held:
        rows.sort(key=lambda r: -r["held"])  # stable: by name among equals

    shown_people = {row["id"] for row in rows}
    # Tomorrow's coverage counts valid holds only: it is given those alone (the same answer, a fraction
    # of the people to look at).
    valid_holds = coverage.holders(covering, holds)
    columns = []
    for function, cells, holding in zip(shown, columns_cells, holders, strict=True):
        # Qualified: over everyone concerned (the dashboards' count); counts: over the rows shown.
        qualified = len(holding)
        counts = dict.fromkeys((s.value for s in CellState), 0)
        for u, cell in cells.items():
            if u in shown_people:
                counts[cell["state"]] += 1
        counts[_NEVER] += len(rows) - sum(counts.values())
        columns.append(
            {
                "id": function.id,
                "code": function.code,
                "name": function.name,
                "minimum": function.minimum,
                "qualified": qualified,
                "level": coverage.level(qualified),
                "underMinimum": coverage.under_minimum(qualified, function.minimum),
                "counts": counts,
                "forecast": forecast.as_json(
                    forecast.of_function(function, sorted(covering.get(function.id, ())), valid_holds, today)
                ),
            }
        )
    return Matrix(
        cartography={"id": found.id, "name": found.name, "siteName": site_name},
        columns=columns,
        rows=rows,
        groups=groups,
        functions=[{"id": f.id, "name": f.name} for f in seen],
        total_people=len(people),
        can_edit_minimum=qualification_policy.can_edit_minimum(user),
        filters=filters,
    )


def _groups(db: Session, qualification_ids: Sequence[int]) -> list[dict[str, Any]]:
    """The qualifiable groups of the qualifications naming the cartography, by name: the groups its
    people come from, which the group filter offers."""
    found = plain(db).execute(
        select(Group.id, Group.name)
        .where(
            Group.id.in_(
                select(QualificationGroup.group_id).where(
                    QualificationGroup.qualification_id.in_(list(qualification_ids))
                )
            )
        )
        .distinct()
    )
    return [{"id": i, "name": n} for i, n in sorted(found, key=lambda g: (fold(g[1]), g[0]))]
