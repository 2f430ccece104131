"""Which paths a report shows (docs/reports.md 'Selection'), checked against a plain-Python selection on
generated organisations: by period, learners and groups, path statuses, module statuses and types, the
paths the user may see (reports.policy.paths_visible), the order, the paths table's rows, and the
learners' lines (selection.learners by batches, selection.learner_lines) with the placeholder X."""

import random
from datetime import date, timedelta
from typing import Any

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from reports.reports_support import (
    DASHBOARD,
    MANAGE,
    MODULE_STATUSES,
    MODULE_TYPES,
    PATH_ADMIN,
    PATH_STATUSES,
    REPORTS,
    YEAR,
    World,
    generate,
    request_body,
)
from spot.account.service import principal_of
from spot.core.errors import ApiError
from spot.reports import policy, selection
from spot.reports.schemas import ReportRequest
from spot.training.paths.models import TrainingPath, TrainingPathModule
from spot.users.models import User
from support import API
from training.paths_support import Cast, get, make_module, make_path, move_to

VIEWERS = {"dashboard": [DASHBOARD], "path administrator": [MANAGE, PATH_ADMIN], "training manager": [MANAGE]}


def subset(rng: random.Random, values: tuple[str, ...]) -> list[str]:
    return rng.sample(values, rng.randrange(1, len(values) + 1))


def random_selectors(rng: random.Random, world: World) -> dict[str, Any]:
    start = date(YEAR, 1, 1) + timedelta(days=rng.randrange(-120, 300))
    stop = start + timedelta(days=rng.randrange(0, 240))
    if rng.random() < 0.5:
        # On the edges: the period starts on a path's last day or ends on a path's first day (or just beside).
        path = rng.choice(world.paths)
        if rng.random() < 0.5:
            start = path.stop + timedelta(days=rng.choice((0, 1)))
            stop = max(stop, start)
        else:
            stop = path.start - timedelta(days=rng.choice((0, 1)))
            start = min(start, stop)
    learners = rng.sample(sorted(world.learners), rng.randrange(0, len(world.learners) + 1))
    groups = rng.sample(sorted(world.groups), rng.randrange(0 if learners else 1, len(world.groups) + 1))
    return {
        "start": start.isoformat(),
        "stop": stop.isoformat(),
        "learnerIdList": learners,
        "groupIdList": groups,
        "pathStatutes": subset(rng, PATH_STATUSES),
        "moduleStatutes": subset(rng, MODULE_STATUSES),
        "moduleTypes": subset(rng, MODULE_TYPES),
    }


def lines_of(db: Session, viewer_id: int, body: dict[str, Any], batch: int) -> list[selection.LearnerLines]:
    request = ReportRequest.model_validate(body)
    return list(
        selection.learners(
            db, user=principal_of(db, user_id=viewer_id), request=request, language="fr", batch=batch
        )
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("viewer_role", VIEWERS)
def test_the_selection_is_the_plain_python_one(client, db, make_user, login, seed, viewer_role) -> None:
    viewer = make_user("viewer", VIEWERS[viewer_role])
    headers = login(viewer)
    rng = random.Random(seed)
    world = generate(db, rng, viewer_id=viewer.id, viewer_group_id=viewer.groups[0].id)
    sees_all = viewer_role != "training manager"
    nonempty = 0
    for _ in range(12):
        selectors = random_selectors(rng, world)
        body = request_body(**selectors)
        expected = world.select(
            selectors, sees_all=sees_all, viewer_id=viewer.id, viewer_groups=[viewer.groups[0].id]
        )
        nonempty += bool(expected)
        # The table.
        response = client.post(f"{REPORTS}/paths", json=body, headers=headers)
        assert response.status_code == 200, response.text
        table = response.json()
        rows = [(p, learner, len(shown)) for learner, paths in expected for p, shown in paths]
        assert [(r["id"], r["learner"]["id"], r["modules"]) for r in table["results"]] == rows
        assert table["totalItems"] == len(rows)
        # The learners' lines, by batches smaller than the report.
        lines = lines_of(db, viewer.id, body, batch=2)
        assert [
            (le.user_id, [(p.id, [m.index for m in p.modules]) for p in le.paths]) for le in lines
        ] == expected
        principal = principal_of(db, user_id=viewer.id)
        count = selection.count_learners(db, user=principal, request=ReportRequest.model_validate(body))
        assert count == len(expected)
    assert nonempty >= 3, "the generated selections should not all be empty"


@pytest.mark.parametrize("viewer_role", VIEWERS)
def test_grades_are_shown_as_the_path_page_shows_them(client, db, make_user, login, viewer_role) -> None:
    """One rule for who sees grades (training.paths.policy.sees_grading): a training manager to whom a
    path is merely visible reads it without grades, on its page as in the report."""
    viewer = make_user("viewer", VIEWERS[viewer_role])
    headers = login(viewer)
    world = generate(db, random.Random(4), viewer_id=viewer.id, viewer_group_id=viewer.groups[0].id)
    body = request_body(learners=list(world.learners), start=f"{YEAR - 2}-01-01", stop=f"{YEAR + 2}-12-31")
    hidden = shown = 0
    for learner in lines_of(db, viewer.id, body, batch=5):
        for line in learner.paths:
            page = client.get(f"{API}/training/path/{line.id}", headers=headers)
            if page.status_code == 403:
                # Dashboard holders report on paths they cannot open, and see every grading.
                assert viewer_role == "dashboard"
                assert [m.grade for m in line.modules] == [m.grade for m in generated(world, line.id, line)]
                continue
            assert page.status_code == 200, page.text
            modules = {m["index"]: m for m in page.json()["assignedModules"]}
            assert line.average_grade == page.json()["averageGrade"], line.id
            for module in line.modules:
                grading = modules[module.index]["grading"]
                assert module.grade == (grading["grade"] if grading else None), (line.id, module.index)
                assert module.comment == (grading["comment"] if grading else None)
                given = next(m for m in generated(world, line.id, line) if m.index == module.index)
                if module.grade is None and given.grade is not None:
                    assert module.is_success is None and module.valid_until is None
                    hidden += 1
                shown += module.grade is not None
    assert shown > 0
    assert (hidden > 0) == (viewer_role == "training manager")


def generated(world: Any, path_id: int, line: selection.PathLine) -> list[Any]:
    """The generated modules of a path that its report line shows, in its order."""
    modules = {m.index: m for p in world.paths if p.id == path_id for m in p.modules}
    return [modules[m.index] for m in line.modules]


def test_paths_visible_is_every_path_or_the_readable_ones(db, make_user) -> None:
    viewers = {role: make_user(role.replace(" ", ""), permissions) for role, permissions in VIEWERS.items()}
    world = generate(db, random.Random(5), viewer_id=viewers["training manager"].id)
    for role, viewer in viewers.items():
        principal = principal_of(db, user_id=viewer.id)
        visible = set(db.scalars(select(TrainingPath.id).where(policy.paths_visible(principal))))
        if role == "training manager":
            wanted = {p.id for p in world.paths if world.visible(p, viewer.id, set())}
            assert wanted and wanted != {p.id for p in world.paths}
        else:
            wanted = {p.id for p in world.paths}
        assert visible == wanted, role


def test_lines_carry_the_paths_and_modules_with_placeholder_x(db, make_user) -> None:
    viewer = make_user("viewer", [DASHBOARD])
    world = generate(db, random.Random(11), viewer_id=viewer.id, learners=8)
    body = request_body(learners=list(world.learners), start=f"{YEAR - 2}-01-01", stop=f"{YEAR + 2}-12-31")
    lines = lines_of(db, viewer.id, body, batch=3)
    by_id = {p.id: p for p in world.paths}
    seen_x = {"creator": 0, "grader": 0, "signer": 0, "mediator": 0}
    for learner in lines:
        first, last = world.learners[learner.user_id]
        assert learner.name == f"{first} {last}"
        for line in learner.paths:
            path = by_id[line.id]
            assert (line.title, line.start_date, line.stop_date, line.status) == (
                path.title,
                path.start,
                path.stop,
                path.status,
            )
            assert (line.creator_name == "X") == (path.creator_id is None)
            seen_x["creator"] += line.creator_name == "X"
            live = [m.grade for m in path.modules if m.status != "disabled"]
            assert line.average_grade == selection.average_grade(live)
            for signature in line.signatures:
                assert signature.modified_after_signature  # the generated hashes are not the content's
                seen_x["signer"] += signature.signer_name == "X"
            for module in line.modules:
                generated = next(m for m in path.modules if m.index == module.index)
                assert (module.status, module.grade) == (generated.status, generated.grade)
                if module.grade is not None:
                    assert module.comment == f"Commentaire {module.index}"
                    assert module.grader_name is not None
                    seen_x["grader"] += module.grader_name == "X"
                    seen_x["signer"] += sum(s.signer_name == "X" for s in module.signatures)
                else:
                    assert module.grader_name is None and module.signatures == []
                seen_x["mediator"] += sum(m.mediator_name == "X" for m in module.mediations)
    assert all(seen_x.values()), seen_x


def printed_people(learner: selection.LearnerLines) -> dict[str, list[str]]:
    """Every person a learner's lines print, by what they are to the path."""
    people: dict[str, list[str]] = {"learner": [learner.name], "creator": [], "validator": [], "signer": []}
    people |= {"referent": [], "grader": [], "mediator": []}
    for path in learner.paths:
        people["creator"].append(path.creator_name)
        people["validator"] += [path.validator_name] if path.validator_name is not None else []
        people["signer"] += [s.signer_name for s in path.signatures]
        for module in path.modules:
            people["referent"] += module.referents
            people["grader"] += [module.grader_name] if module.grader_name is not None else []
            people["signer"] += [s.signer_name for s in module.signatures]
            people["mediator"] += [m.mediator_name for m in module.mediations if m.mediator_name is not None]
    return people


@pytest.mark.parametrize(("language", "mark"), [("fr", " (inactif)"), ("en", " (inactive)")])
def test_lines_mark_the_people_who_left_in_the_report_s_language(db, make_user, language, mark) -> None:
    viewer = make_user("viewer", [DASHBOARD])
    world = generate(db, random.Random(11), viewer_id=viewer.id, learners=8)
    body = request_body(learners=list(world.learners), start=f"{YEAR - 2}-01-01", stop=f"{YEAR + 2}-12-31")
    request = ReportRequest.model_validate(body)
    principal = principal_of(db, user_id=viewer.id)

    def people() -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for learner in selection.learners(db, user=principal, request=request, language=language, batch=3):
            for role, names in printed_people(learner).items():
                found.setdefault(role, []).extend(names)
        return found

    everyone = people()
    assert all(everyone.values()), {role: len(names) for role, names in everyone.items()}
    assert not any(name.endswith(mark) for names in everyone.values() for name in names)
    # Everybody leaves (the viewer too: they are a creator and referent of some paths).
    db.execute(update(User).values(active=False))
    db.commit()
    left = people()
    for role, names in left.items():
        assert [name for name in names if name != "X" and not name.endswith(mark)] == [], role
        assert sorted(n.removesuffix(mark) for n in names) == sorted(everyone[role]), role


def test_learner_lines_and_the_path_page_agree_on_signatures(client, db, make_user, login) -> None:
    cast = Cast.of(make_user, login)
    path_id = make_path(client, cast, [make_module(db), make_module(db, "Deux")])
    move_to(client, cast, path_id, "archived")
    page = get(client, cast, path_id)
    lines = selection.learner_lines(db, user_id=cast.id("learner"), language="fr")
    (line,) = lines.paths
    assert lines.name == "Learner Test"

    def signatures_of(entries: list[dict[str, Any]]) -> list[tuple[str, str, bool]]:
        return [(s["userName"], s["meaning"], s["modifiedAfterSignature"]) for s in entries]

    def lines_of_signatures(entries: list[selection.SignatureLine]) -> list[tuple[str, str, bool]]:
        return [(s.signer_name, s.meaning, s.modified_after_signature) for s in entries]

    assert lines_of_signatures(line.signatures) == signatures_of(page["signatures"])
    assert len(line.signatures) == 2
    for module, shown in zip(line.modules, page["assignedModules"], strict=True):
        assert lines_of_signatures(module.signatures) == signatures_of(shown["signatures"])
        assert module.signatures and module.grade == shown["grading"]["grade"]
        assert module.comment == shown["grading"]["comment"] and module.grader_name == "Referent Test"
        assert module.referents == ["Referent Test"]
    assert (line.average_grade, line.completion) == (page["averageGrade"], page["completion"])
    assert line.validator_name == "Creator Test" and line.creator_name == "Creator Test"
    # A grade changed behind the signatures: both say 'modified after signature'.
    db.execute(
        update(TrainingPathModule)
        .where(TrainingPathModule.path_id == path_id, TrainingPathModule.position == 0)
        .values(grade=2.0)
    )
    db.commit()
    page = get(client, cast, path_id)
    (line,) = selection.learner_lines(db, user_id=cast.id("learner"), language="fr").paths
    assert lines_of_signatures(line.signatures) == signatures_of(page["signatures"])
    assert lines_of_signatures(line.modules[0].signatures) == signatures_of(
        page["assignedModules"][0]["signatures"]
    )
    assert all(s.modified_after_signature for s in line.signatures + line.modules[0].signatures)


def test_learner_lines_of_an_unknown_user_is_404(db) -> None:
    with pytest.raises(ApiError) as raised:
        selection.learner_lines(db, user_id=999_999, language="fr")
    assert (raised.value.status, raised.value.message) == (404, "userNotFound")


def test_the_table_shows_at_most_max_rows_and_counts_them_all(
    client, db, make_user, login, monkeypatch
) -> None:
    viewer = make_user("viewer", [DASHBOARD])
    headers = login(viewer)
    world = generate(db, random.Random(3), viewer_id=viewer.id)
    selectors = {
        "start": f"{YEAR - 2}-01-01",
        "stop": f"{YEAR + 2}-12-31",
        "learnerIdList": list(world.learners),
    }
    expected = world.select(request_body(**selectors)["selectors"], sees_all=True)
    every = [p for _learner, paths in expected for p, _shown in paths]
    assert len(every) > 5
    monkeypatch.setattr("spot.reports.service.MAX_ROWS", 5)
    table = client.post(f"{REPORTS}/paths", json=request_body(**selectors), headers=headers).json()
    assert [r["id"] for r in table["results"]] == every[:5]
    assert table["totalItems"] == len(every)


def test_a_row_shows_the_path_as_the_table_needs_it(client, db, make_user, login) -> None:
    cast = Cast.of(make_user, login)
    viewer = make_user("viewer", [DASHBOARD])
    headers = login(viewer)
    path_id = make_path(client, cast, [make_module(db), make_module(db, "Deux", items=3)])
    page = move_to(client, cast, path_id, "finished")
    start, stop = page["startDate"], page["stopDate"]
    body = request_body(learners=[cast.id("learner")], start=start, stop=stop)
    body["documentOptions"]["displayExternalIds"] = False
    (row,) = client.post(f"{REPORTS}/paths", json=body, headers=headers).json()["results"]
    assert row == {
        "id": path_id,
        "title": "Parcours consignation",
        "reference": None,
        "learner": {"id": cast.id("learner"), "name": "Learner Test", "active": True},
        "status": "finished",
        "startDate": start,
        "stopDate": stop,
        "modules": 2,
        "completion": page["completion"],
        "completionColour": page["completionColour"],
        "averageGrade": page["averageGrade"],
    }
    # Module types and statuses narrow the modules counted; a path left with none is left out.
    db.execute(
        update(TrainingPathModule)
        .where(TrainingPathModule.path_id == path_id, TrainingPathModule.position == 1)
        .values(status="disabled")
    )
    db.commit()
    body["selectors"]["moduleStatutes"] = ["archived"]
    assert client.post(f"{REPORTS}/paths", json=body, headers=headers).json()["results"][0]["modules"] == 1
    body["selectors"]["moduleStatutes"] = ["notStarted"]
    assert client.post(f"{REPORTS}/paths", json=body, headers=headers).json() == {
        "results": [],
        "totalItems": 0,
    }
    # The period: a report ending the day before the path starts does not show it.
    body["selectors"] |= {"moduleStatutes": list(MODULE_STATUSES), "start": "2000-01-01"}
    body["selectors"]["stop"] = (date.fromisoformat(start) - timedelta(days=1)).isoformat()
    assert client.post(f"{REPORTS}/paths", json=body, headers=headers).json()["totalItems"] == 0


@pytest.mark.parametrize(
    ("edge", "shown"),
    [("starts on its last day", True), ("starts the day after", False), ("ends on its first day", True)]
    + [("ends the day before", False)],
)
def test_a_period_meets_a_path_on_its_first_and_last_days(client, db, make_user, login, edge, shown) -> None:
    viewer = make_user("viewer", [DASHBOARD])
    headers = login(viewer)
    world = generate(db, random.Random(8), viewer_id=viewer.id)
    path = next(p for p in world.paths if p.modules)
    one = timedelta(days=1)
    start, stop = {
        "starts on its last day": (path.stop, path.stop + 10 * one),
        "starts the day after": (path.stop + one, path.stop + 10 * one),
        "ends on its first day": (path.start - 10 * one, path.start),
        "ends the day before": (path.start - 10 * one, path.start - one),
    }[edge]
    body = request_body(learners=[path.learner_id], start=start.isoformat(), stop=stop.isoformat())
    ids = [r["id"] for r in client.post(f"{REPORTS}/paths", json=body, headers=headers).json()["results"]]
    assert (path.id in ids) is shown
