"""The training path lists: POST /training/path/query with every filter field
of spec 2 §3 and the dashboards' (each checked against a plain-Python selection of generated paths),
sorts, visibility and totalItems; POST /training/path/modules/query (assigned modules with their
grading's validity)."""

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import pytest
from sqlalchemy.orm import Session

from spot.training.paths.models import (
    TrainingPath,
    TrainingPathGrading,
    TrainingPathModule,
    TrainingPathReferent,
    TrainingPathVisibleGroup,
    TrainingPathVisiblePerson,
)
from support import assert_error
from training.catalogue import reference
from training.elements_support import ADMIN, PATHS, make_module, url_item

STATUSES = ("notAccepted", "accepted", "started", "finished", "validated", "archived", "canceled")
MODULE_STATUSES = ("notStarted", "started", "finished", "validated", "archived", "disabled")
BASE = date(2026, 3, 1)


def _noon(day: date) -> datetime:
    """Midday UTC: the same calendar day in the organisation's zone, whatever it is in Europe."""
    return datetime.combine(day, time(12), UTC)


@dataclass
class Module:
    id: int
    module_id: int
    status: str
    referents: set[int]
    is_success: bool | None
    valid_until: date | None
    grade: float | None


@dataclass
class Path:
    id: int
    title: str
    reference: str | None
    learner: int
    creator: int
    status: str
    created: date
    start: date
    stop: date
    accepted: date | None
    validator: int | None
    validated: date | None
    signed: date | None
    modules: list[Module] = field(default_factory=list)


@dataclass
class World:
    paths: list[Path]
    users: dict[str, Any]
    headers: dict[str, dict[str, str]]
    module_ids: list[int]
    references: dict[str, int]


TITLES = ("Consignation électrique", "Conduite de chariot", "Habilitation", "Levage et élingage", "Accueil")


@pytest.fixture
def world(db: Session, make_user, login) -> World:
    rng = random.Random(16)
    users = {
        "admin": make_user("admin", [ADMIN]),
        "learner1": make_user("learner1"),
        "learner2": make_user("learner2"),
        "learner3": make_user("learner3"),
        "creator1": make_user("creator1", ["perm_TrainingManagement"]),
        "creator2": make_user("creator2", ["perm_TrainingManagement"]),
        "referent1": make_user("referent1"),
        "referent2": make_user("referent2"),
        "referent3": make_user("referent3"),
        "viewer": make_user("viewer"),
        "member": make_user("member"),
        "stranger": make_user("stranger"),
    }
    references = {code: reference(db, code, type="path") for code in ("PA", "PB")}
    module_ids = [
        make_module(db, [url_item()], name="Périodique", module_type="qualification", periodicity=12),
        make_module(db, [url_item(), url_item()], name="Formation", module_type="training"),
        make_module(db, [url_item()], name="Autre", module_type="other", periodicity=6),
        make_module(db, [], name="Vide", module_type="training"),
    ]
    learners = [users[f"learner{i}"].id for i in (1, 2, 3)]
    creators = [users["creator1"].id, users["creator2"].id]
    referents = [users[f"referent{i}"].id for i in (1, 2, 3)]
    paths: list[Path] = []
    for n in range(36):
        status = STATUSES[n % len(STATUSES)]
        created = BASE + timedelta(days=rng.randrange(20))
        start = BASE + timedelta(days=rng.randrange(-5, 25))
        accepted = None if status == "notAccepted" else created + timedelta(days=rng.randrange(1, 4))
        closed = status in ("validated", "archived") or (status == "canceled" and rng.random() < 0.5)
        validated = created + timedelta(days=rng.randrange(5, 15)) if closed else None
        signed = (
            validated + timedelta(days=rng.randrange(0, 3)) if validated and status == "archived" else None
        )
        code = rng.choice([None, "PA", "PB"])
        path = Path(
            id=0,
            title=f"{rng.choice(TITLES)} {n}",
            reference=code,
            learner=rng.choice(learners),
            creator=rng.choice(creators),
            status=status,
            created=created,
            start=start,
            stop=start + timedelta(days=rng.randrange(0, 40)),
            accepted=accepted,
            validator=rng.choice(creators) if validated else None,
            validated=validated,
            signed=signed,
        )
        row = TrainingPath(
            title=path.title,
            reference_id=references[code] if code else None,
            learner_id=path.learner,
            creator_id=path.creator,
            status=status,
            created_at=_noon(created),
            status_changed_at=_noon(created),
            start_date=start,
            stop_date=path.stop,
            accepted_at=_noon(accepted) if accepted else None,
            validator_id=path.validator,
            validated_at=_noon(validated) if validated else None,
            signed_at=_noon(signed) if signed else None,
        )
        db.add(row)
        db.flush()
        path.id = row.id
        for position, module_id in enumerate(rng.sample(module_ids, rng.randrange(1, 4))):
            graded = rng.random() < 0.5
            is_success = rng.random() < 0.6 if graded else None
            valid_until = (
                BASE + timedelta(days=rng.randrange(0, 400)) if is_success and rng.random() < 0.7 else None
            )
            module_row = TrainingPathModule(
                path_id=row.id,
                position=position,
                module_id=module_id,
                start_date=start,
                stop_date=path.stop,
                status=rng.choice(MODULE_STATUSES),
                status_changed_at=_noon(created),
                grade=round(rng.uniform(0, 10), 1) if graded else None,
                is_success=is_success,
                valid_until=valid_until,
                graded_at=_noon(created) if graded else None,
            )
            db.add(module_row)
            db.flush()
            chosen = set(rng.sample(referents, rng.randrange(1, 3)))
            for user_id in chosen:
                db.add(
                    TrainingPathReferent(
                        path_module_id=module_row.id, user_id=user_id, path_id=module_row.path_id
                    )
                )
            if graded:
                db.add(
                    TrainingPathGrading(
                        path_module_id=module_row.id,
                        grade=module_row.grade,
                        comment="Bien",
                        is_success=bool(is_success),
                        referent_id=min(chosen),
                        referent_name="Référent",
                        valid_until=valid_until,
                        graded_at=_noon(created),
                    )
                )
            path.modules.append(
                Module(
                    module_row.id,
                    module_id,
                    module_row.status,
                    chosen,
                    is_success,
                    valid_until,
                    module_row.grade,
                )
            )
        if n % 5 == 0:
            db.add(TrainingPathVisiblePerson(path_id=row.id, user_id=users["viewer"].id))
        if n % 7 == 0:
            db.add(TrainingPathVisibleGroup(path_id=row.id, group_id=users["member"].groups[0].id))
        paths.append(path)
    db.commit()
    headers = {role: login(user) for role, user in users.items()}
    return World(paths, {role: user.id for role, user in users.items()}, headers, module_ids, references)


def page(client, headers, filter="", sort="", *, url=f"{PATHS}/query", size=200, number=1) -> dict[str, Any]:
    body = {"filter": filter, "sort": sort, "page": number, "pageSize": size}
    response = client.post(url, json=body, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def ids(client, headers, filter="", sort="", **options: Any) -> list[int]:
    return [card["id"] for card in page(client, headers, filter, sort, **options)["results"]]


def _on(day: date | None, operator: str, value: date) -> bool:
    if day is None:
        return False
    return {
        "sameDay": day == value,
        "before": day < value,
        "beforeOrSameDay": day <= value,
        "after": day > value,
        "afterOrSameDay": day >= value,
    }[operator]


def _day(offset: int) -> date:
    return BASE + timedelta(days=offset)


def _filters(w: World) -> list[tuple[str, Callable[[Path], bool]]]:
    u = w.users
    m = w.module_ids
    d5, d10, d12, d100 = _day(5), _day(10), _day(12), _day(100)
    return [
        ("title contains consignation", lambda p: "Consignation" in p.title),
        ("title startsWith conduite", lambda p: p.title.startswith("Conduite")),
        ("reference oneOf PA", lambda p: p.reference == "PA"),
        ("reference noneOf PA", lambda p: p.reference != "PA"),
        (
            f"learner oneOf {u['learner1']},{u['learner3']}",
            lambda p: p.learner in (u["learner1"], u["learner3"]),
        ),
        ("status oneOf started,finished", lambda p: p.status in ("started", "finished")),
        ("status noneOf canceled", lambda p: p.status != "canceled"),
        (f"creator oneOf {u['creator2']}", lambda p: p.creator == u["creator2"]),
        (f"creation_date after {d10}", lambda p: _on(p.created, "after", d10)),
        (f"creation_date sameDay {d5}", lambda p: _on(p.created, "sameDay", d5)),
        (f"start_date beforeOrSameDay {d5}", lambda p: _on(p.start, "beforeOrSameDay", d5)),
        (f"stop_date afterOrSameDay {_day(30)}", lambda p: _on(p.stop, "afterOrSameDay", _day(30))),
        (f"acceptance_date before {d10}", lambda p: _on(p.accepted, "before", d10)),
        (f"validator oneOf {u['creator1']}", lambda p: p.validator == u["creator1"]),
        (f"validator noneOf {u['creator1']}", lambda p: p.validator != u["creator1"]),
        (f"validation_date afterOrSameDay {d12}", lambda p: _on(p.validated, "afterOrSameDay", d12)),
        (f"signature_date before {_day(40)}", lambda p: _on(p.signed, "before", _day(40))),
        (f"module oneOf {m[0]}", lambda p: any(x.module_id == m[0] for x in p.modules)),
        (f"module noneOf {m[0]},{m[1]}", lambda p: not any(x.module_id in (m[0], m[1]) for x in p.modules)),
        (f"referent oneOf {u['referent2']}", lambda p: any(u["referent2"] in x.referents for x in p.modules)),
        (
            f"referent noneOf {u['referent1']}",
            lambda p: not any(u["referent1"] in x.referents for x in p.modules),
        ),
        (
            "module_status oneOf validated,archived",
            lambda p: any(x.status in ("validated", "archived") for x in p.modules),
        ),
        ("module_status noneOf disabled", lambda p: not any(x.status == "disabled" for x in p.modules)),
        ("module_is_succeeded equals true", lambda p: any(x.is_success is True for x in p.modules)),
        ("module_is_succeeded equals false", lambda p: any(x.is_success is False for x in p.modules)),
        ("path_is_canceled equals true", lambda p: p.status == "canceled"),
        ("path_is_canceled equals false", lambda p: p.status != "canceled"),
        (
            f"grading_valid_until beforeOrSameDay {d100}",
            lambda p: any(_on(x.valid_until, "beforeOrSameDay", d100) for x in p.modules),
        ),
        (
            f"grading_valid_until after {d100}",
            lambda p: any(_on(x.valid_until, "after", d100) for x in p.modules),
        ),
        (
            f"learner oneOf {u['learner2']} & path_is_canceled equals false"
            f" & grading_valid_until afterOrSameDay {d12}",
            lambda p: (
                p.learner == u["learner2"]
                and p.status != "canceled"
                and any(_on(x.valid_until, "afterOrSameDay", d12) for x in p.modules)
            ),
        ),
        (
            f"module_status oneOf started | referent oneOf {u['referent3']}",
            lambda p: any(x.status == "started" or u["referent3"] in x.referents for x in p.modules),
        ),
    ]


def test_every_filter_field_selects_what_it_says(client, world: World) -> None:
    admin = world.headers["admin"]
    checked = 0
    for text, keep in _filters(world):
        expected = {p.id for p in world.paths if keep(p)}
        result = page(client, admin, text)
        assert set(card["id"] for card in result["results"]) == expected, text
        assert result["totalItems"] == len(expected), text
        checked += bool(expected) and len(expected) < len(world.paths)
    # The data makes most filters keep some paths and leave others out.
    assert checked >= 25


def test_the_filter_fields_are_those_of_the_spec(client, world: World) -> None:
    response = client.get("/backend/api/v2/querylang/trainingPath/fields", headers=world.headers["admin"])
    assert response.status_code == 200, response.text
    names = {entry["name"] for entry in response.json()["fields"]}
    assert names == {
        "title",
        "reference",
        "learner",
        "status",
        "creator",
        "creation_date",
        "start_date",
        "stop_date",
        "acceptance_date",
        "validator",
        "validation_date",
        "signature_date",
        "module",
        "referent",
        "module_status",
        "module_is_succeeded",
        "path_is_canceled",
        "grading_valid_until",
    }


def test_sorts_default_newest_first_and_stable_pages(client, world: World) -> None:
    admin = world.headers["admin"]
    newest_first = sorted(world.paths, key=lambda p: (-p.created.toordinal(), p.id))
    assert ids(client, admin) == [p.id for p in newest_first]
    by_start = sorted(world.paths, key=lambda p: (p.start, p.id))
    assert ids(client, admin, sort="start_date") == [p.id for p in by_start]
    by_stop = sorted(world.paths, key=lambda p: (-p.stop.toordinal(), p.id))
    assert ids(client, admin, sort="-stop_date") == [p.id for p in by_stop]
    titles = [card["title"] for card in page(client, admin, sort="title")["results"]]
    assert titles[0].startswith("Accueil") and titles[-1].startswith("Levage")
    pages = [ids(client, admin, size=10, number=n) for n in (1, 2, 3, 4)]
    assert sum(pages, []) == [p.id for p in newest_first]
    assert page(client, admin, size=10, number=2)["totalItems"] == len(world.paths)


def test_a_card_of_the_list(client, world: World) -> None:
    path = next(p for p in world.paths if p.reference == "PA" and p.validated)
    card = page(client, world.headers["admin"], f"title equals {path.title}")["results"][0]
    assert card["id"] == path.id
    assert card["reference"]["code"] == "PA"
    assert card["learner"]["id"] == path.learner
    assert card["creator"]["id"] == path.creator
    assert card["status"] == path.status
    assert card["totalAssignedModules"] == len(path.modules)
    assert card["validationDate"].startswith(path.validated.isoformat())
    assert card["completion"] == -1


@pytest.mark.parametrize(
    "role", ["learner1", "creator2", "referent1", "viewer", "member", "stranger", "admin"]
)
def test_the_list_holds_the_paths_the_user_may_read(client, world: World, role: str) -> None:
    u = world.users
    user_id = u[role]

    def readable(p: Path) -> bool:
        if role == "admin":
            return True
        index = world.paths.index(p)
        return (
            p.learner == user_id
            or p.creator == user_id
            or any(user_id in x.referents for x in p.modules)
            or (role == "viewer" and index % 5 == 0)
            or (role == "member" and index % 7 == 0)
        )

    expected = {p.id for p in world.paths if readable(p)}
    result = page(client, world.headers[role])
    assert {card["id"] for card in result["results"]} == expected
    assert result["totalItems"] == len(expected)
    # A filter narrows what the user may read, never widens it.
    started = page(client, world.headers[role], "status oneOf started")
    assert {card["id"] for card in started["results"]} == {
        p.id for p in world.paths if readable(p) and p.status == "started"
    }
    if role == "stranger":
        assert expected == set()


def test_a_bad_filter_answers_400(client, world: World) -> None:
    response = client.post(
        f"{PATHS}/query", json={"filter": "module_status oneOf nowhere"}, headers=world.headers["admin"]
    )
    assert_error(response, 400)
    response = client.post(f"{PATHS}/query", json={"sort": "learner"}, headers=world.headers["admin"])
    assert_error(response, 400)


# Assigned modules -------------------------------------------------------------------------------------

MODULES_QUERY = f"{PATHS}/modules/query"


def _every_module(w: World) -> list[tuple[Path, Module]]:
    return [(p, x) for p in w.paths for x in p.modules]


def _module_filters(w: World) -> list[tuple[str, Callable[[Path, Module], bool]]]:
    u = w.users
    m = w.module_ids
    periodic = {m[0], m[2]}
    types = {m[0]: "qualification", m[1]: "training", m[2]: "other", m[3]: "training"}
    d100 = _day(100)
    return [
        (f"learner oneOf {u['learner2']}", lambda p, x: p.learner == u["learner2"]),
        (f"module oneOf {m[1]}", lambda p, x: x.module_id == m[1]),
        (f"path oneOf {w.paths[3].id},{w.paths[4].id}", lambda p, x: p.id in (w.paths[3].id, w.paths[4].id)),
        ("status oneOf validated,archived", lambda p, x: x.status in ("validated", "archived")),
        ("status noneOf disabled", lambda p, x: x.status != "disabled"),
        ("path_status noneOf canceled", lambda p, x: p.status != "canceled"),
        ("module_type oneOf training", lambda p, x: types[x.module_id] == "training"),
        ("periodic equals true", lambda p, x: x.module_id in periodic),
        ("periodic equals false", lambda p, x: x.module_id not in periodic),
        ("is_succeeded equals true", lambda p, x: x.is_success is True),
        ("is_succeeded equals false", lambda p, x: x.is_success is not True),
        (
            f"grading_valid_until afterOrSameDay {d100}",
            lambda p, x: _on(x.valid_until, "afterOrSameDay", d100),
        ),
        (f"referent oneOf {u['referent1']}", lambda p, x: u["referent1"] in x.referents),
        (
            f"periodic equals true & path_status noneOf canceled & grading_valid_until after {_day(60)}",
            lambda p, x: (
                x.module_id in periodic and p.status != "canceled" and _on(x.valid_until, "after", _day(60))
            ),
        ),
    ]


def _module_keys(result: dict[str, Any]) -> list[tuple[int, int]]:
    return [(card["pathId"], card["index"]) for card in result["results"]]


def test_every_module_filter_selects_what_it_says(client, world: World) -> None:
    admin = world.headers["admin"]
    positions = {x.id: i for p in world.paths for i, x in enumerate(p.modules)}
    for text, keep in _module_filters(world):
        expected = {(p.id, positions[x.id]) for p, x in _every_module(world) if keep(p, x)}
        result = page(client, admin, text, url=MODULES_QUERY)
        assert set(_module_keys(result)) == expected, text
        assert result["totalItems"] == len(expected), text


def test_modules_come_by_validity_first_and_carry_their_grading(client, world: World) -> None:
    admin = world.headers["admin"]
    result = page(client, admin, url=MODULES_QUERY)
    positions = {x.id: i for p in world.paths for i, x in enumerate(p.modules)}
    ordered = sorted(
        _every_module(world),
        key=lambda pair: (pair[1].valid_until is None, pair[1].valid_until or date.min, pair[1].id),
    )
    assert _module_keys(result) == [(p.id, positions[x.id]) for p, x in ordered]
    path, module = ordered[0]
    card = result["results"][0]
    assert (card["pathTitle"], card["pathStatus"], card["status"]) == (path.title, path.status, module.status)
    assert card["learner"]["id"] == path.learner
    assert card["module"]["id"] == module.module_id
    assert card["grading"]["grade"] == module.grade
    assert card["grading"]["validUntil"] == module.valid_until.isoformat()
    assert card["grading"]["isSuccess"] is module.is_success
    assert card["grading"]["comment"] == "Bien"
    assert card["grading"]["referent"]["id"] == min(module.referents)
    assert [c["grading"] for c in result["results"] if c["grading"] is None] == [None] * sum(
        1 for _, x in _every_module(world) if x.grade is None
    )


def test_modules_of_the_paths_the_user_may_read_grading_for_those_who_see_it(client, world: World) -> None:
    viewer = world.users["viewer"]
    visible = [p for i, p in enumerate(world.paths) if i % 5 == 0]
    result = page(client, world.headers["viewer"], url=MODULES_QUERY)
    assert {card["pathId"] for card in result["results"]} == {p.id for p in visible if p.modules}
    assert result["totalItems"] == sum(len(p.modules) for p in visible)
    # Visible to them only: they read the modules without their grading.
    assert all(card["grading"] is None for card in result["results"])
    assert viewer not in {p.learner for p in visible}
    learner = world.users["learner1"]
    own = page(client, world.headers["learner1"], url=MODULES_QUERY)
    mine = [(p, x) for p, x in _every_module(world) if p.learner == learner]
    assert own["totalItems"] == len(mine)
    assert sum(card["grading"] is not None for card in own["results"]) == sum(
        x.grade is not None for _, x in mine
    )
    assert page(client, world.headers["stranger"], url=MODULES_QUERY) == {"results": [], "totalItems": 0}
