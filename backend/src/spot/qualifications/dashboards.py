"""Qualification dashboards and status records (spec 2 §2 Dashboards, §3 Dashboard element, §4
Qualification validity state; docs/qualifications.md for the coverage).

Who a qualification concerns: the members of its qualifiable groups. A person's hold on a
qualification is their earliest (minimum) remaining days over its modules (validity.earliest), with the
validation and requalification paths of that limiting module; NONE without module. Every figure comes
from qualifications.validity, for the whole dashboard in one statement (module_validities); the other
statements read names and links, never one per person or qualification.

A dashboard is a list of elements {item, children}: an item counts its children (total), those valid
today at least (obtained), and takes the minimum of their remaining days; children are sorted by
remaining days, most first, then name (ignoring case and accents).

- by cartography: items the qualifications naming it, children the people concerned; and the coverage
  of its functions by the rule of qualifications.coverage (the people qualified for each function,
  its level none, single or covered, and whether it is under its minimum), and tomorrow's coverage
  (qualifications.forecast: the qualified people today and at +30, +60 and +90 days);
- by group: items the qualifications whose groups include it, children that group's members;
- by user: items the qualifications concerning the user, children their modules;
- a qualification by user (items the people concerned, children its modules) or by module (items its
  modules, children the people);
- the cartographies' figures (the Dashboard manager, docs/qualifications.md): per cartography, the
  qualifications naming it and its functions by coverage level, counted as its dashboard counts them."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from spot.core.errors import not_found
from spot.core.principal import Principal
from spot.db import plain
from spot.mapping import service as mapping
from spot.mapping.models import Site
from spot.qualifications import coverage, forecast, validity
from spot.qualifications.models import (
    Qualification,
    QualificationCartography,
    QualificationGroup,
    QualificationModule,
)
from spot.qualifications.validity import ModuleValidity
from spot.querylang.text import fold
from spot.training.modules.models import TrainingModule
from spot.users.models import Group, User, user_group

QG, QM = QualificationGroup, QualificationModule
_SENTINELS = (validity.NONE, validity.UNLIMITED)


@dataclass
class Board:
    """What a dashboard is computed from: the modules of its qualifications (in the form's order),
    module names, and the validity of every (person, module) pair it shows."""

    modules: dict[int, list[int]]
    module_names: dict[int, str]
    validities: dict[tuple[int, int], ModuleValidity]

    def module(self, user_id: int, module_id: int) -> ModuleValidity:
        return validity.of(self.validities, user_id, module_id)

    def hold(self, user_id: int, qualification_id: int) -> ModuleValidity:
        """The person's hold on the qualification: its limiting module's validity (the first, in the
        form's order, of those with the earliest expiry); NEVER without module."""
        found = None
        for module_id in self.modules.get(qualification_id, ()):
            v = self.validities.get((user_id, module_id), validity.NEVER)
            if found is None or v.remaining_days < found.remaining_days:
                found = v
        return validity.NEVER if found is None else found


def _board(db: Session, *, qualifications: Select[Any], learners: Select[Any], today: date) -> Board:
    """`qualifications`: a SELECT of qualification ids; `learners`: a SELECT of the user ids shown."""
    modules: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    rows = plain(db).execute(
        select(QM.qualification_id, QM.module_id, TrainingModule.name)
        .join(TrainingModule, TrainingModule.id == QM.module_id)
        .where(QM.qualification_id.in_(qualifications))
        .order_by(QM.qualification_id, QM.position, QM.module_id)
    )
    for qualification_id, module_id, name in rows:
        modules.setdefault(qualification_id, []).append(module_id)
        names[module_id] = name
    validities = validity.module_validities(
        db,
        learners=learners,
        modules=select(QM.module_id).where(QM.qualification_id.in_(qualifications)),
        today=today,
    )
    return Board(modules=modules, module_names=names, validities=validities)


def _named_qualifications(db: Session, qualifications: Select[Any]) -> list[tuple[int, str]]:
    return [
        (i, n)
        for i, n in plain(db).execute(
            select(Qualification.id, Qualification.name)
            .where(Qualification.id.in_(qualifications))
            .order_by(Qualification.name_folded, Qualification.id)
        )
    ]


def _concerned(db: Session, qualifications: Select[Any]) -> dict[int, list[tuple[int, str]]]:
    """Per qualification, the people concerned (members of its groups), by name: the groups of each
    qualification, then each of those groups' members once, however many qualifications share them."""
    groups: dict[int, list[int]] = {}
    for qualification_id, group_id in plain(db).execute(
        select(QG.qualification_id, QG.group_id).where(QG.qualification_id.in_(qualifications))
    ):
        groups.setdefault(qualification_id, []).append(group_id)
    # The groups' ids as a list: SQLite would scan every user for a sub-select of them.
    group_ids = sorted({g for found in groups.values() for g in found})
    members: dict[int, list[tuple[int, str]]] = {}
    for group_id, user_id, name in plain(db).execute(
        select(user_group.c.group_id, User.id, User.display_name)
        .join(User, User.id == user_group.c.user_id)
        .where(user_group.c.group_id.in_(group_ids), User.active)
    ):
        members.setdefault(group_id, []).append((user_id, name))
    # Everyone sorted once; each qualification's people in that order.
    everyone = sorted(
        {p for found in members.values() for p in found}, key=lambda p: (_sort_name(p[1]), p[0])
    )
    rank = {person: i for i, person in enumerate(everyone)}
    people: dict[int, list[tuple[int, str]]] = {}
    for qualification_id, group_ids in groups.items():
        found = {person for g in group_ids for person in members.get(g, [])}
        people[qualification_id] = sorted(found, key=rank.__getitem__)
    return people


@lru_cache(maxsize=8192)
def _sort_name(name: str) -> str:
    """The name as lists sort it (case and accents ignored); a dashboard sorts thousands of rows by a
    few hundred names."""
    return fold(name)


def _concerned_learners(qualifications: Select[Any]) -> Select[Any]:
    return (
        select(user_group.c.user_id)
        .join(QG, QG.group_id == user_group.c.group_id)
        .where(QG.qualification_id.in_(qualifications))
    )


# Elements ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    """Which children an answer carries: those in the legend's states, the first `limit` of each item
    but the `expanded` items' (all of theirs). An item of 500 people is read 25 at a time, not 500 rows
    per item in every answer (DESIGN §8); its counts cover all its children whatever is shown."""

    states: frozenset[str] = frozenset(s.value for s in validity.State)
    limit: int = 25
    expanded: frozenset[int] = frozenset()


ALL = Shown()
# (child id, name, validity): an element's children before they are sorted, counted and cut; a
# qualification's people with their holds on it (coverage.Holds).
Row = coverage.Row


def real_date(v: ModuleValidity) -> date | None:
    """The last valid day, when the validity is a date (neither permanent nor never validated)."""
    return None if v.remaining_days in _SENTINELS else v.valid_until


def _child(item_id: int, name: str, link: str, v: ModuleValidity) -> dict[str, Any]:
    return {
        "id": item_id,
        "name": name,
        "remainingDays": v.remaining_days,
        "state": validity.state(v.remaining_days).value,
        "validUntil": real_date(v),
        "validationTrainingPath": v.validation_path_id,
        "requalificationTrainingPath": v.requalification_path_id,
        "link": {"type": link, "id": item_id},
    }


def _element(
    item_id: int, name: str, link: str, child_link: str, rows: list[Row], shown: Shown
) -> dict[str, Any]:
    """The item counts every child (by state too); the children shown are those of `shown`, sorted by
    remaining days, most first, then name: `rows` come in name order (ignoring case and accents),
    which the sort keeps among equal days (it is stable)."""
    rows.sort(key=_remaining_days, reverse=True)
    counts = {"good": 0, "warn": 0, "none": 0}
    for _, _, v in rows:
        # A State is its value as a key (a StrEnum): no .value per child.
        counts[validity.state(v.remaining_days)] += 1
    limiting = rows[-1][2] if rows else None
    remaining = limiting.remaining_days if limiting is not None else validity.NONE
    selected = (
        rows
        if len(shown.states) == len(counts)
        else [r for r in rows if validity.state(r[2].remaining_days).value in shown.states]
    )
    if item_id not in shown.expanded:
        selected = selected[: shown.limit]
    return {
        "item": {
            "id": item_id,
            "name": name,
            "total": len(rows),
            "obtained": counts["good"] + counts["warn"],
            "counts": counts,
            "remainingDays": remaining,
            "state": validity.state(remaining).value,
            "validUntil": real_date(limiting) if limiting is not None else None,
            "link": {"type": link, "id": item_id},
        },
        "children": [_child(i, n, child_link, v) for i, n, v in selected],
    }


def _remaining_days(row: Row) -> int:
    return row[2].remaining_days


def _by_name(rows: list[Row]) -> list[Row]:
    """`rows` in name order (ignoring case and accents), then id: the order _element expects."""
    return sorted(rows, key=lambda r: (_sort_name(r[1]), r[0]))


def _holds(board: Board, people: dict[int, list[tuple[int, str]]]) -> dict[int, list[Row]]:
    """Per qualification, each person concerned with their hold on it, computed once for the elements
    and the coverage."""
    return {q: [(u, person, board.hold(u, q)) for u, person in found] for q, found in people.items()}


def _by_people(
    named: Iterable[tuple[int, str]], holds: dict[int, list[Row]], shown: Shown
) -> list[dict[str, Any]]:
    """Items the qualifications, children the people (their hold on it)."""
    return [_element(q, name, "qualification", "user", list(holds.get(q, [])), shown) for q, name in named]


# Dashboards -------------------------------------------------------------------------------------------


def cartography(
    db: Session, *, user: Principal, cartography_id: int, today: date, shown: Shown = ALL
) -> dict[str, Any]:
    """404 unknown cartography, 403 hidden (mapping.policy)."""
    found = mapping.get_cartography(db, user=user, cartography_id=cartography_id)
    site_name = db.scalar(select(Site.name).where(Site.id == found.site_id)) or ""
    qualifications = select(QualificationCartography.qualification_id).where(
        QualificationCartography.cartography_id == cartography_id
    )
    named = _named_qualifications(db, qualifications)
    people = _concerned(db, qualifications)
    board = _board(
        db, qualifications=qualifications, learners=_concerned_learners(qualifications), today=today
    )
    holds = _holds(board, people)
    return {
        "cartography": {"id": found.id, "name": found.name, "siteName": site_name},
        "elements": _by_people(named, holds, shown),
        "coverage": _coverage(db, user, cartography_id, holds),
        "forecast": [
            forecast.as_json(f)
            for f in forecasts(db, user=user, cartography_ids=[cartography_id], today=today, holds=holds)
        ],
    }


def _coverage(
    db: Session, user: Principal, cartography_id: int, holds: dict[int, list[Row]]
) -> list[dict[str, Any]]:
    functions = coverage.seen_functions(db, user, [cartography_id])
    covering = coverage.covering(db, [cartography_id])
    holders = coverage.holders(covering, holds)
    answer: list[dict[str, Any]] = []
    for function in functions:
        best = coverage.qualified(covering.get(function.id, ()), holders)
        qualified: list[dict[str, Any]] = sorted(
            (
                {
                    "user": {"id": u, "name": b.name},
                    "remainingDays": b.hold.remaining_days,
                    "validUntil": real_date(b.hold),
                    "qualificationId": b.qualification_id,
                }
                for u, b in best.items()
            ),
            key=lambda p: (-p["remainingDays"], _sort_name(p["user"]["name"]), p["user"]["id"]),
        )
        answer.append(
            {
                "function": {"id": function.id, "name": function.name},
                "qualified": qualified,
                "level": coverage.level(len(qualified)),
                "minimum": function.minimum,
                "underMinimum": coverage.under_minimum(len(qualified), function.minimum),
            }
        )
    answer.sort(
        key=lambda f: (coverage.LEVEL_ORDER[f["level"]], fold(f["function"]["name"]), f["function"]["id"])
    )
    return answer


@dataclass(frozen=True)
class CoverageCount:
    """A cartography's figures on its dashboard: the qualifications naming it, the functions the user
    sees at each coverage level, and how many of them are under their minimum."""

    qualifications: int
    levels: dict[str, int]
    under_minimum: int


def holds_of(db: Session, qualification_ids: Sequence[int], today: date) -> dict[int, list[Row]]:
    """Per qualification of `qualification_ids`, every person it concerns (by name) with their hold on
    it: what coverage.best and coverage.holders weigh."""
    if not qualification_ids:
        return {}
    qualifications = select(Qualification.id).where(Qualification.id.in_(qualification_ids))
    board = _board(
        db, qualifications=qualifications, learners=_concerned_learners(qualifications), today=today
    )
    return _holds(board, _concerned(db, qualifications))


def coverage_counts(
    db: Session, *, user: Principal, cartography_ids: Sequence[int], today: date
) -> dict[int, CoverageCount]:
    """Per cartography of `cartography_ids` (those the user sees), what its dashboard counts, for all of
    them at once: one board over the qualifications that cover a function of any of them."""
    naming: dict[int, int] = dict.fromkeys(cartography_ids, 0)
    for cartography_id, count in plain(db).execute(
        select(QualificationCartography.cartography_id, func.count())
        .where(QualificationCartography.cartography_id.in_(cartography_ids))
        .group_by(QualificationCartography.cartography_id)
    ):
        naming[cartography_id] = count
    covering = coverage.covering(db, cartography_ids)
    holders = coverage.holders(covering, holds_of(db, coverage.covering_ids(covering), today))
    levels = {c: dict.fromkeys(coverage.LEVELS, 0) for c in cartography_ids}
    under = dict.fromkeys(cartography_ids, 0)
    for function in coverage.seen_functions(db, user, cartography_ids):
        count = len(coverage.qualified(covering.get(function.id, ()), holders))
        levels[function.cartography_id][coverage.level(count)] += 1
        under[function.cartography_id] += coverage.under_minimum(count, function.minimum)
    return {
        c: CoverageCount(qualifications=naming[c], levels=levels[c], under_minimum=under[c])
        for c in cartography_ids
    }


def forecasts(
    db: Session,
    *,
    user: Principal,
    cartography_ids: Sequence[int],
    today: date,
    holds: dict[int, list[Row]] | None = None,
) -> list[forecast.Forecast]:
    """Tomorrow's coverage of the functions of the cartographies that the user sees
    (qualifications.forecast), from `holds` when the caller has read them (every qualification naming
    the cartographies, with the people it concerns), else read here."""
    covering = coverage.covering(db, cartography_ids)
    if holds is None:
        holds = holds_of(db, coverage.covering_ids(covering), today)
    return forecast.forecast(coverage.seen_functions(db, user, cartography_ids), covering, holds, today)


def group(db: Session, *, group_id: int, today: date, shown: Shown = ALL) -> dict[str, Any]:
    """404 groupNotFound."""
    name = db.scalar(select(Group.name).where(Group.id == group_id))
    if name is None:
        raise not_found("groupNotFound")
    qualifications = select(QG.qualification_id).where(QG.group_id == group_id)
    members = [
        (u, n)
        for u, n in plain(db).execute(
            select(User.id, User.display_name)
            .join(user_group, user_group.c.user_id == User.id)
            .where(user_group.c.group_id == group_id, User.active)
        )
    ]
    members.sort(key=lambda p: (_sort_name(p[1]), p[0]))
    named = _named_qualifications(db, qualifications)
    learners = select(user_group.c.user_id).where(user_group.c.group_id == group_id)
    board = _board(db, qualifications=qualifications, learners=learners, today=today)
    return {
        "group": {"id": group_id, "name": name},
        "elements": _by_people(named, _holds(board, {q: members for q, _ in named}), shown),
    }


def person(db: Session, *, user_id: int, today: date, shown: Shown = ALL) -> dict[str, Any]:
    """404 userNotFound."""
    name = db.scalar(select(User.display_name).where(User.id == user_id))
    if name is None:
        raise not_found("userNotFound")
    qualifications = (
        select(QG.qualification_id)
        .join(user_group, user_group.c.group_id == QG.group_id)
        .where(user_group.c.user_id == user_id)
    )
    named = _named_qualifications(db, qualifications)
    board = _board(
        db, qualifications=qualifications, learners=select(User.id).where(User.id == user_id), today=today
    )
    elements = [
        _element(
            q,
            q_name,
            "qualification",
            "module",
            _by_name(
                [(m, board.module_names[m], board.module(user_id, m)) for m in board.modules.get(q, [])]
            ),
            shown,
        )
        for q, q_name in named
    ]
    return {"user": {"id": user_id, "name": name}, "elements": elements}


def qualification(
    db: Session, *, qualification_id: int, by: str, today: date, shown: Shown = ALL
) -> list[dict[str, Any]]:
    """The dashboard of the qualification view: by user (items the people concerned, children its
    modules) or by module (items its modules, children the people). 404 qualificationNotFound."""
    if db.scalar(select(Qualification.id).where(Qualification.id == qualification_id)) is None:
        raise not_found("qualificationNotFound")
    qualifications = select(Qualification.id).where(Qualification.id == qualification_id)
    people = _concerned(db, qualifications).get(qualification_id, [])
    board = _board(
        db, qualifications=qualifications, learners=_concerned_learners(qualifications), today=today
    )
    modules, names = board.modules.get(qualification_id, []), board.module_names
    if by == "module":
        return [
            _element(m, names[m], "module", "user", [(u, n, board.module(u, m)) for u, n in people], shown)
            for m in modules
        ]
    return [
        _element(
            u, n, "user", "module", _by_name([(m, names[m], board.module(u, m)) for m in modules]), shown
        )
        for u, n in people
    ]


# Status records ---------------------------------------------------------------------------------------


def statuses(db: Session, *, rows: Sequence[Any], today: date) -> list[dict[str, Any]]:
    """QualificationStatus of each (qualification id, user id, qualification name, user name) row, as
    JSON-ready data, the validities of the whole page in one statement."""
    if not rows:
        return []
    qualification_ids = sorted({row[0] for row in rows})
    user_ids = sorted({row[1] for row in rows})
    board = _board(
        db,
        qualifications=select(Qualification.id).where(Qualification.id.in_(qualification_ids)),
        learners=select(User.id).where(User.id.in_(user_ids)),
        today=today,
    )
    records = []
    for q, u, q_name, u_name in rows:
        hold = board.hold(u, q)
        modules = []
        for m in board.modules.get(q, []):
            v = board.module(u, m)
            modules.append(
                {
                    "module": m,
                    "moduleName": board.module_names[m],
                    "validationTrainingPath": v.validation_path_id,
                    "requalificationTrainingPath": v.requalification_path_id,
                    "state": v.state.value,
                    "remainingDays": v.remaining_days,
                    "validUntil": real_date(v),
                }
            )
        records.append(
            {
                "qualification": q,
                "qualificationName": q_name,
                "user": u,
                "userName": u_name,
                "remainingDays": hold.remaining_days,
                "state": hold.state.value,
                "validUntil": real_date(hold),
                "modules": modules,
            }
        )
    return records
