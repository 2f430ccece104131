"""Training path elements (spec 2 §3 Result per item, §9 completion; docs/training-paths.md 'Elements done'):
when each kind of element is done for the learner, what the reader sees of it, completion, and the
element actions (open, attach, detach) with who may do them in which statuses."""

import re
import uuid
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import event, select
from sqlalchemy.orm import Session

from mapping.maps import Map, restrict
from spot import db as database
from spot.account.service import principal_of
from spot.core.signatures import Signature
from spot.core.time import utcnow
from spot.history.models import HistoryEntry
from spot.lms.models import LmsAttempt, LmsCompletion, LmsStatement
from spot.mediations.models import Mediation, MediationParticipant, MediationVisiblePerson
from spot.training.modules.models import TrainingModule, TrainingModuleItem
from spot.training.paths import elements
from spot.training.paths.models import (
    TrainingPath,
    TrainingPathMediation,
    TrainingPathModule,
    TrainingPathReferent,
    TrainingPathVisit,
)
from support import API
from training import paths_support as support
from training.catalogue import Course

PATHS = f"{API}/training/path"
ADMIN = "perm_TrainingPathAdmin"


# Building paths directly in the database -----------------------------------------------------------


def make_module(
    db: Session, items: list[dict[str, Any]], *, name: str = "Consignation", **fields: Any
) -> int:
    """A module whose elements are these columns of training_module_item (kind first)."""
    module = TrainingModule(name=name, created_at=utcnow(), **fields)
    db.add(module)
    db.flush()
    for position, item in enumerate(items):
        db.add(TrainingModuleItem(module_id=module.id, position=position, **item))
    db.commit()
    return module.id


def url_item(label: str = "INRS") -> dict[str, Any]:
    return {"kind": "url", "url": "https://www.inrs.fr", "label": label}


def spot_item(kind: str, item_id: int) -> dict[str, Any]:
    return {"kind": "spot", "spot_item_type": kind, "spot_item_id": item_id}


def mediation_item(title: str = "Démonstration") -> dict[str, Any]:
    return {"kind": "mediation", "title": title, "description": "Au poste"}


def lms_item(item_id: int) -> dict[str, Any]:
    return {"kind": "lms", "lms_item_id": item_id}


def make_path(
    db: Session,
    *,
    learner_id: int | None,
    creator_id: int | None = None,
    modules: list[tuple[int, list[int]]],
    status: str = "started",
    module_status: str = "started",
    started_at: datetime | None = None,
    title: str = "Parcours",
    **fields: Any,
) -> int:
    """A path assigning these (module id, referent ids), every module in `module_status`."""
    now = utcnow()
    today = date.today()
    values: dict[str, Any] = {
        "title": title,
        "learner_id": learner_id,
        "creator_id": creator_id,
        "status": status,
        "created_at": now,
        "status_changed_at": now,
        "start_date": today - timedelta(days=10),
        "stop_date": today + timedelta(days=30),
        **fields,
    }
    path = TrainingPath(**values)
    db.add(path)
    db.flush()
    for position, (module_id, referents) in enumerate(modules):
        row = TrainingPathModule(
            path_id=path.id,
            position=position,
            module_id=module_id,
            start_date=values["start_date"],
            stop_date=values["stop_date"],
            status=module_status,
            status_changed_at=now,
            started_at=started_at if started_at is not None else (now - timedelta(days=1)),
        )
        db.add(row)
        db.flush()
        for user_id in referents:
            db.add(TrainingPathReferent(path_module_id=row.id, user_id=user_id, path_id=path.id))
    db.commit()
    return path.id


def loaded(db: Session, path_id: int) -> tuple[TrainingPath, list[TrainingPathModule]]:
    db.expire_all()
    path = db.get(TrainingPath, path_id)
    assert path is not None
    modules = list(
        db.scalars(
            select(TrainingPathModule)
            .where(TrainingPathModule.path_id == path_id)
            .order_by(TrainingPathModule.position)
        )
    )
    return path, modules


def progress_of(db: Session, path_id: int) -> list[tuple[int, int]]:
    path, modules = loaded(db, path_id)
    by_id = elements.progress(db, path=path, modules=modules)
    return [by_id[m.id] for m in modules]


def results_of(db: Session, user_id: int, path_id: int) -> list[list[dict[str, Any]]]:
    path, modules = loaded(db, path_id)
    by_id = elements.results(db, user=principal_of(db, user_id=user_id), path=path, modules=modules)
    return [[r.model_dump(mode="json", by_alias=True) for r in by_id[m.id]] for m in modules]


def visit(db: Session, path_id: int, index: int, position: int, at: datetime | None = None) -> None:
    path_module = db.scalar(
        select(TrainingPathModule).where(
            TrainingPathModule.path_id == path_id, TrainingPathModule.position == index
        )
    )
    assert path_module is not None
    item_id = db.scalar(
        select(TrainingModuleItem.id).where(
            TrainingModuleItem.module_id == path_module.module_id, TrainingModuleItem.position == position
        )
    )
    db.add(TrainingPathVisit(path_module_id=path_module.id, module_item_id=item_id, done_at=at or utcnow()))
    db.commit()


def read_subject(db: Session, user_id: int, subject_id: int, at: datetime) -> None:
    db.add(HistoryEntry(at=at, user_id=user_id, item_type="subject", item_id=subject_id, mode="R"))
    db.commit()


def make_mediation(
    db: Session, *, status: str = "validated", title: str = "Tour d'atelier", **fields: Any
) -> int:
    now = utcnow()
    row = Mediation(title=title, status=status, created_at=now, updated_at=now, **fields)
    db.add(row)
    db.commit()
    return row.id


def sign_mediation(db: Session, mediation_id: int, user_id: int, *, revoked: bool = False) -> datetime:
    at = utcnow().replace(microsecond=0)
    db.add(
        Signature(
            record_type="mediation",
            record_id=mediation_id,
            signer_id=user_id,
            signer_name="Léa",
            signed_at=at,
            meaning="attendanceAndAgreement",
            content_hash="0" * 64,
            revoked_at=utcnow() if revoked else None,
        )
    )
    db.commit()
    return at


def attach_directly(db: Session, path_id: int, index: int, position: int, mediation_id: int) -> None:
    path_module = db.scalar(
        select(TrainingPathModule).where(
            TrainingPathModule.path_id == path_id, TrainingPathModule.position == index
        )
    )
    assert path_module is not None
    item_id = db.scalar(
        select(TrainingModuleItem.id).where(
            TrainingModuleItem.module_id == path_module.module_id, TrainingModuleItem.position == position
        )
    )
    db.add(
        TrainingPathMediation(
            path_module_id=path_module.id,
            module_item_id=item_id,
            mediation_id=mediation_id,
            attached_at=utcnow(),
        )
    )
    db.commit()


def _statement(db: Session, user_id: int, item_id: int, verb: str = "completed") -> int:
    row = LmsStatement(
        statement_id=str(uuid.uuid4()),
        user_id=user_id,
        item_id=item_id,
        registration=str(uuid.uuid4()),
        verb=f"http://adlnet.gov/expapi/verbs/{verb}",
        content="{}",
        stored_at=utcnow(),
    )
    db.add(row)
    db.flush()
    return row.id


def complete(db: Session, user_id: int, item_id: int) -> datetime:
    at = utcnow().replace(microsecond=0)
    db.add(
        LmsCompletion(
            user_id=user_id, item_id=item_id, statement_id=_statement(db, user_id, item_id), completed_at=at
        )
    )
    db.commit()
    return at


def attempt(
    db: Session, user_id: int, quiz_id: int, grade: float, *, success: bool, minutes_ago: int = 0
) -> int:
    row = LmsAttempt(
        user_id=user_id,
        item_id=quiz_id,
        statement_id=_statement(db, user_id, quiz_id, "passed" if success else "failed"),
        registration="r",
        grade=grade,
        success=success,
        at=utcnow().replace(microsecond=0) - timedelta(minutes=minutes_ago),
    )
    db.add(row)
    db.commit()
    return row.id


@pytest.fixture
def people(make_user) -> dict[str, Any]:
    return {
        "learner": make_user("apprenant", first_name="Léa", last_name="Apprenant"),
        "creator": make_user("createur", ["perm_TrainingManagement"]),
        "referent": make_user("referent"),
        "admin": make_user("admin", [ADMIN]),
        "other": make_user("autre"),
    }


# Completion ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("done", "total", "expected"),
    [(0, 0, -1), (0, 3, 0), (1, 3, 33), (2, 3, 67), (1, 8, 13), (1, 200, 1), (1, 400, 0), (3, 3, 100)],
)
def test_completion_is_rounded_half_up_and_minus_one_when_nothing_counts(done, total, expected) -> None:
    assert elements.completion(done, total) == expected


def test_totals_leave_disabled_modules_out(db, people) -> None:
    first = make_module(db, [url_item(), url_item("Deux")])
    second = make_module(db, [url_item(), url_item(), url_item()])
    path_id = make_path(db, learner_id=people["learner"].id, modules=[(first, []), (second, [])])
    visit(db, path_id, 0, 0)
    visit(db, path_id, 1, 0)
    path, modules = loaded(db, path_id)
    progress = elements.progress(db, path=path, modules=modules)
    assert elements.totals(modules, progress) == (2, 5)
    modules[1].status = "disabled"
    assert elements.totals(modules, progress) == (1, 2)
    modules[0].status = "disabled"
    done, total = elements.totals(modules, progress)
    assert (done, total, elements.completion(done, total)) == (0, 0, -1)


def test_a_module_without_elements_counts_nothing(db, people) -> None:
    empty = make_module(db, [])
    path_id = make_path(db, learner_id=people["learner"].id, modules=[(empty, [])])
    assert progress_of(db, path_id) == [(0, 0)]
    assert results_of(db, people["learner"].id, path_id) == [[]]


# Each kind of element ---------------------------------------------------------------------------------


def test_a_url_element_is_done_once_opened(db, people) -> None:
    module = make_module(db, [url_item("Fiche INRS"), url_item("Autre")])
    path_id = make_path(db, learner_id=people["learner"].id, modules=[(module, [])])
    assert progress_of(db, path_id) == [(0, 2)]
    opened = utcnow().replace(microsecond=0)
    visit(db, path_id, 0, 1, opened)
    assert progress_of(db, path_id) == [(1, 2)]
    first, second = results_of(db, people["other"].id, path_id)[0]
    assert first == {
        "index": 0,
        "title": "Fiche INRS",
        "description": "",
        "doneAt": None,
        "type": "url",
        "url": "https://www.inrs.fr",
    }
    assert second["index"] == 1
    assert datetime.fromisoformat(second["doneAt"]) == opened


def test_a_spot_element_lists_the_subjects_read_since_the_module_started(db, people, test_map: Map) -> None:
    m = test_map
    learner = people["learner"].id
    module = make_module(
        db,
        [
            spot_item("activity", m.activity("A11")),
            spot_item("function", m.function("F1")),
            spot_item("cartography", m.cartography("C1")),
            spot_item("site", m.site_id),
            spot_item("subject", m.subject("T1")),
        ],
    )
    started = utcnow() - timedelta(hours=2)
    path_id = make_path(db, learner_id=learner, modules=[(module, [])], started_at=started)
    read_subject(db, learner, m.subject("S1"), started - timedelta(minutes=5))  # before: not counted
    read_subject(db, learner, m.subject("S3"), started + timedelta(minutes=5))
    read_subject(db, learner, m.subject("T1"), started)  # at the start: counted
    read_subject(db, people["other"].id, m.subject("S2"), started + timedelta(minutes=5))  # someone else
    db.add(HistoryEntry(at=utcnow(), user_id=learner, item_type="subject", item_id=m.subject("S2"), mode="W"))
    db.commit()
    results = results_of(db, learner, path_id)[0]
    assert [r["subjects"] for r in results] == [
        [],  # A11 holds S1 only, read before the start
        [m.subject("S3")],  # F1 holds S1 and S3
        [m.subject("S3")],  # C1 holds S1, S2, S3
        sorted([m.subject("S3"), m.subject("T1")]),  # the site holds them all
        [m.subject("T1")],
    ]
    assert [r["doneAt"] for r in results] == [None] * 5
    assert progress_of(db, path_id) == [(0, 5)]
    visit(db, path_id, 0, 0)
    assert progress_of(db, path_id) == [(1, 5)]
    first = results_of(db, learner, path_id)[0][0]
    assert (first["type"], first["title"], first["readable"], first["spotItemType"]) == (
        "spot",
        "Tournage",
        True,
        "activity",
    )
    assert [entry["name"] for entry in first["context"]][-1] == "Usinage"


def test_a_spot_element_of_a_module_not_started_lists_no_subject(db, people, test_map: Map) -> None:
    learner = people["learner"].id
    module = make_module(db, [spot_item("subject", test_map.subject("S1"))])
    path_id = make_path(db, learner_id=learner, modules=[(module, [])], module_status="notStarted")
    db.execute(TrainingPathModule.__table__.update().values(started_at=None))
    db.commit()
    read_subject(db, learner, test_map.subject("S1"), utcnow())
    assert results_of(db, learner, path_id)[0][0]["subjects"] == []


def test_a_spot_element_the_reader_may_not_see_is_not_named(db, people, test_map: Map) -> None:
    other = people["other"]
    restrict(db, other, test_map.cartography("C2"))
    module = make_module(
        db, [spot_item("subject", test_map.subject("S1")), spot_item("subject", test_map.subject("T1"))]
    )
    path_id = make_path(db, learner_id=people["learner"].id, modules=[(module, [])])
    hidden, shown = results_of(db, other.id, path_id)[0]
    assert (hidden["readable"], hidden["title"], hidden["context"]) == (False, "", [])
    assert (shown["readable"], shown["title"]) == (True, "Visser")
    assert results_of(db, people["learner"].id, path_id)[0][0]["readable"] is True


def test_a_mediation_element_is_done_when_an_attached_mediation_is_validated_and_signed_by_the_learner(
    db, people
) -> None:
    learner = people["learner"].id
    module = make_module(db, [mediation_item("Démonstration au poste")])
    path_id = make_path(db, learner_id=learner, modules=[(module, [])])
    stopped = make_mediation(db, status="stopped", title="Pas encore validée", creator_id=people["other"].id)
    validated = make_mediation(db, status="validated", title="Validée", creator_id=people["other"].id)
    attach_directly(db, path_id, 0, 0, stopped)
    attach_directly(db, path_id, 0, 0, validated)
    sign_mediation(db, stopped, learner)  # signed but not validated
    sign_mediation(db, validated, people["referent"].id)  # validated, signed by someone else
    sign_mediation(db, validated, learner, revoked=True)  # a revoked signature does not count
    assert progress_of(db, path_id) == [(0, 1)]
    result = results_of(db, people["other"].id, path_id)[0][0]
    assert result["doneAt"] is None
    assert result["mediationIds"] == [stopped, validated]
    assert [(m["signedByLearner"], m["readable"]) for m in result["mediations"]] == [
        (True, True),
        (False, True),
    ]
    signed = sign_mediation(db, validated, learner)
    assert progress_of(db, path_id) == [(1, 1)]
    result = results_of(db, people["other"].id, path_id)[0][0]
    assert datetime.fromisoformat(result["doneAt"]) == signed
    assert result["mediations"][1] == {
        "id": validated,
        "title": "Validée",
        "status": "validated",
        "readable": True,
        "signedByLearner": True,
    }
    assert (result["title"], result["description"]) == ("Démonstration au poste", "Au poste")


def test_an_attached_mediation_the_reader_may_not_read_is_not_named(db, people) -> None:
    module = make_module(db, [mediation_item()])
    path_id = make_path(db, learner_id=people["learner"].id, modules=[(module, [])])
    mediation = make_mediation(db, title="Secrète", creator_id=people["creator"].id)
    db.add(MediationVisiblePerson(mediation_id=mediation, user_id=people["referent"].id))
    db.commit()
    attach_directly(db, path_id, 0, 0, mediation)
    assert results_of(db, people["other"].id, path_id)[0][0]["mediations"] == [
        {"id": mediation, "title": None, "status": None, "readable": False, "signedByLearner": False}
    ]
    assert results_of(db, people["referent"].id, path_id)[0][0]["mediations"][0]["title"] == "Secrète"


def test_lms_elements_a_completed_resource_and_a_passed_quiz_with_its_best_grade(db, people) -> None:
    learner = people["learner"].id
    course = Course(db)
    module = make_module(db, [lms_item(course.resource), lms_item(course.quiz)])
    path_id = make_path(db, learner_id=learner, modules=[(module, [])])
    complete(db, people["other"].id, course.resource)  # someone else's
    failed = attempt(db, learner, course.quiz, 6.0, success=False, minutes_ago=30)
    assert progress_of(db, path_id) == [(0, 2)]
    resource, quiz = results_of(db, people["other"].id, path_id)[0]
    assert resource == {
        "index": 0,
        "title": "Lire la procédure",
        "description": "",
        "doneAt": None,
        "type": "lms",
        "lmsItemId": course.resource,
        "lmsType": "resource",
        "courseId": course.id,
        "found": True,
        "resources": [{"resourceId": course.resource, "doneAt": None}],
        "quizes": [],
    }
    assert (quiz["doneAt"], quiz["quizes"]) == (
        None,
        [{"quizId": course.quiz, "result": 6.0, "attemptsIds": [failed]}],
    )
    completed = complete(db, learner, course.resource)
    passed = attempt(db, learner, course.quiz, 9.2, success=True, minutes_ago=20)
    later = attempt(db, learner, course.quiz, 8.0, success=True, minutes_ago=10)
    assert progress_of(db, path_id) == [(2, 2)]
    resource, quiz = results_of(db, learner, path_id)[0]
    assert datetime.fromisoformat(resource["doneAt"]) == completed
    assert resource["resources"][0]["doneAt"] == resource["doneAt"]
    assert quiz["quizes"] == [{"quizId": course.quiz, "result": 9.2, "attemptsIds": [failed, passed, later]}]
    first_passed = db.get(LmsAttempt, passed)
    assert first_passed is not None
    assert datetime.fromisoformat(quiz["doneAt"]) == first_passed.at


def test_an_lms_element_whose_item_or_course_is_gone_is_not_found(db, people) -> None:
    course = Course(db)
    module = make_module(db, [lms_item(course.resource), lms_item(course.quiz)])
    path_id = make_path(db, learner_id=people["learner"].id, modules=[(module, [])])
    course.remove_item(course.quiz)
    resource, quiz = results_of(db, people["learner"].id, path_id)[0]
    assert (resource["found"], quiz["found"]) == (True, False)
    assert (quiz["title"], quiz["lmsType"]) == ("", "quiz")
    course.remove()
    resource, _quiz = results_of(db, people["learner"].id, path_id)[0]
    assert resource["found"] is False


def test_a_path_without_learner_has_nothing_done(db, people) -> None:
    course = Course(db)
    module = make_module(db, [url_item(), lms_item(course.resource)])
    path_id = make_path(db, learner_id=None, modules=[(module, [])])
    assert progress_of(db, path_id) == [(0, 2)]


# A fixed number of statements --------------------------------------------------------------------------


def _counted(action: Callable[[], Any]) -> int:
    engine = database.get_engine()
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        action()
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return len(seen)


def test_the_statements_of_a_path_do_not_grow_with_its_modules_and_elements(
    db, people, test_map: Map
) -> None:
    m = test_map
    learner = people["learner"].id
    course = Course(db)
    one_of_each = [
        spot_item("site", m.site_id),
        spot_item("cartography", m.cartography("C2")),
        spot_item("function", m.function("F1")),
        spot_item("activity", m.activity("A12")),
        spot_item("subject", m.subject("S1")),
        lms_item(course.quiz),
        lms_item(course.resource),
        mediation_item(),
        url_item(),
    ]
    small_module = make_module(db, one_of_each)
    large_module = make_module(db, one_of_each * 4)
    small = make_path(db, learner_id=learner, modules=[(small_module, [])])
    large = make_path(db, learner_id=learner, modules=[(large_module, [])] * 3 + [(small_module, [])])
    for path_id in (small, large):
        attach_directly(db, path_id, 0, 7, make_mediation(db))
        visit(db, path_id, 0, 8)
    read_subject(db, learner, m.subject("S1"), utcnow())
    complete(db, learner, course.resource)
    attempt(db, learner, course.quiz, 9.0, success=True)
    user = principal_of(db, user_id=people["other"].id)

    def count(path_id: int, what: str) -> int:
        path, modules = loaded(db, path_id)
        if what == "progress":
            return _counted(lambda: elements.progress(db, path=path, modules=modules))
        elements.results(db, user=user, path=path, modules=modules)  # caches filled
        return _counted(lambda: elements.results(db, user=user, path=path, modules=modules))

    assert count(small, "progress") == count(large, "progress") <= 5
    assert count(small, "results") == count(large, "results") <= 8


# The element calls -------------------------------------------------------------------------------------


def _element(path_id: int, module_index: int = 0, result_index: int = 0) -> str:
    return f"{PATHS}/{path_id}/{module_index}/{result_index}"


@pytest.fixture
def headers(people, login) -> dict[str, dict[str, str]]:
    return {role: login(user) for role, user in people.items()}


def _events(db: Session, path_id: int) -> list[tuple[str, int | None]]:
    from spot.training.paths.models import TrainingPathHistory

    db.expire_all()
    return [
        (row.event, row.position)
        for row in db.scalars(
            select(TrainingPathHistory)
            .where(TrainingPathHistory.path_id == path_id)
            .order_by(TrainingPathHistory.id)
        )
    ]


def _referent_path(db: Session, people: dict[str, Any], items: list[dict[str, Any]], **fields: Any) -> int:
    module = make_module(db, items)
    other_module = make_module(db, items, name="Autre")
    return make_path(
        db,
        learner_id=people["learner"].id,
        creator_id=people["creator"].id,
        modules=[(module, [people["referent"].id]), (other_module, [people["other"].id])],
        **fields,
    )


def test_the_learner_opens_a_url_element_once(client, db, people, headers) -> None:
    path_id = _referent_path(db, people, [url_item(), url_item("Deux")])
    response = client.post(f"{_element(path_id)}/url", headers=headers["learner"])
    assert response.status_code == 200, response.text
    module = response.json()["assignedModules"][0]
    assert module["results"][0]["doneAt"] is not None
    assert (module["doneItems"], module["totalItems"], module["completion"]) == (1, 2, 50)
    assert response.json()["doneSubModuleItems"] == 1
    first = module["results"][0]["doneAt"]
    version = response.json()["version"]
    again = client.post(f"{_element(path_id)}/url", headers=headers["learner"]).json()
    assert again["assignedModules"][0]["results"][0]["doneAt"] == first
    assert again["version"] == version
    assert _events(db, path_id) == [("elementOpened", 0)]


def test_opening_every_element_finishes_the_module(client, db, people, headers, test_map: Map) -> None:
    path_id = _referent_path(db, people, [url_item(), spot_item("subject", test_map.subject("S1"))])
    client.post(f"{_element(path_id, 0, 0)}/url", headers=headers["learner"])
    response = client.post(f"{_element(path_id, 0, 1)}/url", headers=headers["learner"])
    assert response.status_code == 200, response.text
    module = response.json()["assignedModules"][0]
    assert (module["status"], module["completion"]) == ("finished", 100)
    # A finished module's elements may still be opened.
    assert client.post(f"{_element(path_id, 0, 0)}/url", headers=headers["learner"]).status_code == 200


def test_reading_a_path_writes_nothing_and_reloading_it_stores_its_progress(
    client, db, people, headers
) -> None:
    """GET reads the progress stored where what the learner did changed; it writes nothing, even when
    the elements say more than what is stored (here a visit written behind the actions' back). The
    page's reload (POST …/update) stores it."""
    path_id = _referent_path(db, people, [url_item(), url_item("Deux")])
    visit(db, path_id, 0, 0)
    engine = database.get_engine()
    writes: list[str] = []

    def seen(_conn, _cursor, statement: str, *_args) -> None:
        if re.search(r"\b(INSERT|UPDATE|DELETE)\b", statement.upper()):
            writes.append(statement)

    event.listen(engine, "before_cursor_execute", seen)
    try:
        pages = [client.get(f"{PATHS}/{path_id}", headers=headers[role]) for role in ("learner", "creator")]
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert [page.status_code for page in pages] == [200, 200]
    assert writes == []
    assert pages[0].json()["assignedModules"][0]["results"][0]["doneAt"] is not None
    assert pages[0].json()["doneSubModuleItems"] == 0
    reloaded = client.post(f"{PATHS}/{path_id}/update", headers=headers["learner"])
    assert reloaded.status_code == 200, reloaded.text
    assert reloaded.json()["doneSubModuleItems"] == 1
    assert reloaded.json()["assignedModules"][0]["completion"] == 50


@pytest.mark.parametrize(
    ("role", "status"),
    [("learner", 200), ("referent", 403), ("creator", 403), ("admin", 403), ("other", 403)],
)
def test_only_the_learner_opens_elements(client, db, people, headers, role, status) -> None:
    path_id = _referent_path(db, people, [url_item()])
    assert client.post(f"{_element(path_id)}/url", headers=headers[role]).status_code == status


@pytest.mark.parametrize(
    ("path_status", "module_status", "expected"),
    [
        ("accepted", "notStarted", (409, "accepted")),
        ("started", "notStarted", (409, "notStarted")),
        ("started", "started", (200, None)),
        ("started", "finished", (200, None)),
        ("started", "validated", (409, "validated")),
        ("started", "archived", (409, "archived")),
        ("started", "disabled", (409, "disabled")),
        ("finished", "validated", (409, "finished")),
        ("canceled", "started", (409, "canceled")),
    ],
)
def test_elements_open_while_the_path_and_the_module_are_under_way(
    client, db, people, headers, path_status, module_status, expected
) -> None:
    path_id = _referent_path(db, people, [url_item()], status=path_status, module_status=module_status)
    response = client.post(f"{_element(path_id)}/url", headers=headers["learner"])
    assert response.status_code == expected[0], response.text
    if expected[1]:
        assert response.json()["message"] == "illegalTransition"
        assert response.json()["errors"] == [{"field": "status", "code": expected[1]}]


def test_only_url_and_spot_elements_are_opened(client, db, people, headers) -> None:
    course = Course(db)
    path_id = _referent_path(db, people, [mediation_item(), lms_item(course.resource)])
    for index, kind in enumerate(("mediation", "lms")):
        response = client.post(f"{_element(path_id, 0, index)}/url", headers=headers["learner"])
        assert response.status_code == 409
        assert response.json()["errors"] == [{"field": "type", "code": kind}]


def test_element_calls_out_of_range_or_unknown(client, db, people, headers) -> None:
    path_id = _referent_path(db, people, [url_item()])
    assert (
        client.post(f"{_element(path_id, 0, 1)}/url", headers=headers["learner"]).json()["message"]
        == "notFound"
    )
    assert client.post(f"{_element(path_id, 2, 0)}/url", headers=headers["learner"]).status_code == 404
    unknown = client.post(f"{_element(path_id + 100)}/url", headers=headers["learner"])
    assert (unknown.status_code, unknown.json()["message"]) == (404, "trainingPathNotFound")


def _readable_mediation(db: Session, people: dict[str, Any], **fields: Any) -> int:
    """A mediation the referent and the admin may read (visible to them), validated."""
    mediation = make_mediation(db, creator_id=people["referent"].id, **fields)
    db.add(MediationVisiblePerson(mediation_id=mediation, user_id=people["admin"].id))
    db.commit()
    return mediation


@pytest.mark.parametrize(
    ("role", "status"),
    [("referent", 200), ("admin", 200), ("learner", 403), ("creator", 403), ("other", 403)],
)
def test_who_attaches_and_detaches_mediations(client, db, people, headers, role, status) -> None:
    """`other` refers the path's second module only: a referent of another module may not."""
    path_id = _referent_path(db, people, [mediation_item()])
    mediation = _readable_mediation(db, people)
    if role not in ("referent", "admin"):
        db.add(MediationVisiblePerson(mediation_id=mediation, user_id=people[role].id))
        db.commit()
    attached = client.post(f"{_element(path_id)}/mediation/attach/{mediation}", headers=headers[role])
    assert attached.status_code == status, attached.text
    if status != 200:
        attach_directly(db, path_id, 0, 0, mediation)
    detached = client.post(f"{_element(path_id)}/mediation/detach/{mediation}", headers=headers[role])
    assert detached.status_code == status, detached.text


def test_an_attached_mediation_validated_and_signed_by_the_learner_finishes_the_element(
    client, db, people, headers
) -> None:
    path_id = _referent_path(db, people, [mediation_item()])
    mediation = _readable_mediation(db, people)
    response = client.post(f"{_element(path_id)}/mediation/attach/{mediation}", headers=headers["referent"])
    assert response.status_code == 200, response.text
    result = response.json()["assignedModules"][0]["results"][0]
    assert (result["mediationIds"], result["doneAt"]) == ([mediation], None)
    # Attaching again changes nothing.
    again = client.post(f"{_element(path_id)}/mediation/attach/{mediation}", headers=headers["referent"])
    assert again.json()["version"] == response.json()["version"]
    sign_mediation(db, mediation, people["learner"].id)
    refreshed = client.post(f"{PATHS}/{path_id}/update", headers=headers["learner"]).json()
    module = refreshed["assignedModules"][0]
    assert module["results"][0]["doneAt"] is not None
    assert (module["status"], module["completion"]) == ("finished", 100)
    assert module["results"][0]["mediations"][0]["signedByLearner"] is True
    detached = client.post(f"{_element(path_id)}/mediation/detach/{mediation}", headers=headers["referent"])
    assert detached.json()["assignedModules"][0]["results"][0]["mediationIds"] == []
    assert _events(db, path_id)[:2] == [("mediationAttached", 0), ("moduleFinished", 0)]
    assert _events(db, path_id)[-1] == ("mediationDetached", 0)


def test_mediation_unknown_hidden_not_attached_or_element_of_another_kind(
    client, db, people, headers
) -> None:
    path_id = _referent_path(db, people, [mediation_item(), url_item()])
    hidden = make_mediation(db, creator_id=people["other"].id)
    shown = _readable_mediation(db, people)
    referent = headers["referent"]
    unknown = client.post(f"{_element(path_id)}/mediation/attach/{hidden + shown + 1}", headers=referent)
    assert (unknown.status_code, unknown.json()["message"]) == (404, "mediationNotFound")
    assert client.post(f"{_element(path_id)}/mediation/attach/{hidden}", headers=referent).status_code == 403
    not_attached = client.post(f"{_element(path_id)}/mediation/detach/{shown}", headers=referent)
    assert (not_attached.status_code, not_attached.json()["message"]) == (404, "notFound")
    on_url = client.post(f"{_element(path_id, 0, 1)}/mediation/attach/{shown}", headers=referent)
    assert (on_url.status_code, on_url.json()["errors"]) == (409, [{"field": "type", "code": "url"}])
    assert (
        client.post(f"{_element(path_id, 0, 2)}/mediation/attach/{shown}", headers=referent).status_code
        == 404
    )


def test_a_canceled_mediation_is_not_attached(client, db, people, headers) -> None:
    """A canceled mediation is never validated: the element it would hold could never be done. One
    attached before its cancellation may still be detached."""
    path_id = _referent_path(db, people, [mediation_item()])
    canceled = _readable_mediation(db, people, status="canceled")
    response = client.post(f"{_element(path_id)}/mediation/attach/{canceled}", headers=headers["referent"])
    assert (response.status_code, response.json()["message"]) == (409, "mediationCanceled")
    assert db.scalar(select(TrainingPathMediation.mediation_id)) is None
    attach_directly(db, path_id, 0, 0, canceled)
    detached = client.post(f"{_element(path_id)}/mediation/detach/{canceled}", headers=headers["referent"])
    assert detached.status_code == 200, detached.text


@pytest.mark.parametrize(
    ("path_status", "module_status", "expected"),
    [
        ("accepted", "notStarted", (409, "accepted")),
        ("started", "notStarted", (409, "notStarted")),
        ("started", "started", (200, None)),
        ("started", "finished", (200, None)),
        ("started", "validated", (409, "validated")),
        ("finished", "validated", (409, "finished")),
        ("validated", "archived", (409, "validated")),
    ],
)
def test_mediations_are_managed_while_the_path_and_the_module_are_under_way(
    client, db, people, headers, path_status, module_status, expected
) -> None:
    path_id = _referent_path(db, people, [mediation_item()], status=path_status, module_status=module_status)
    mediation = _readable_mediation(db, people)
    for action in ("attach", "detach"):
        response = client.post(
            f"{_element(path_id)}/mediation/{action}/{mediation}", headers=headers["admin"]
        )
        assert response.status_code == expected[0], response.text
        if expected[1]:
            assert response.json()["errors"] == [{"field": "status", "code": expected[1]}]


def test_a_disabled_module_is_out_of_the_paths_totals(client, db, people, headers) -> None:
    first = make_module(db, [url_item(), url_item("Deux")])
    second = make_module(db, [url_item(), url_item(), url_item()], name="Désactivé")
    path_id = make_path(
        db,
        learner_id=people["learner"].id,
        creator_id=people["creator"].id,
        modules=[(first, []), (second, [])],
    )
    db.execute(
        TrainingPathModule.__table__.update()
        .where(TrainingPathModule.path_id == path_id, TrainingPathModule.position == 1)
        .values(status="disabled")
    )
    db.commit()
    response = client.post(f"{_element(path_id)}/url", headers=headers["learner"])
    assert response.status_code == 200, response.text
    path = response.json()
    assert (path["doneSubModuleItems"], path["totalSubModuleItems"], path["completion"]) == (1, 2, 50)
    disabled = path["assignedModules"][1]
    assert (disabled["status"], disabled["totalItems"], disabled["completion"]) == ("disabled", 3, 0)


def test_the_statements_of_a_path_page_do_not_grow_with_a_modules_elements(
    client, db, people, headers, test_map
) -> None:
    m = test_map
    course = Course(db)
    one_of_each = [
        spot_item("site", m.site_id),
        spot_item("subject", m.subject("S1")),
        lms_item(course.quiz),
        lms_item(course.resource),
        mediation_item(),
        url_item(),
    ]
    small_module = make_module(db, one_of_each)
    large_module = make_module(db, one_of_each * 4)
    referent = [people["referent"].id]
    small = make_path(db, learner_id=people["learner"].id, modules=[(small_module, referent)])
    large = make_path(db, learner_id=people["learner"].id, modules=[(large_module, referent)])

    def statements(path_id: int) -> int:
        address = f"{PATHS}/{path_id}"
        client.get(address, headers=headers["referent"])  # caches filled, progress stored
        return _counted(lambda: client.get(address, headers=headers["referent"]))

    assert statements(small) == statements(large)


def test_a_module_edited_shows_its_new_elements_in_the_path_cards_at_once(
    client, db, make_user, login
) -> None:
    """The cards read the path's stored totals: editing the module (before any path assigning it is
    accepted) stores them again, without anyone opening the path."""
    cast = support.Cast.of(make_user, login)
    module_id = support.make_module(db, items=0)
    path_id = support.make_path(client, cast, [module_id])

    def completion() -> int:
        response = client.post(f"{PATHS}/query", json={"pageSize": 200}, headers=cast.headers["creator"])
        return next(c["completion"] for c in response.json()["results"] if c["id"] == path_id)

    assert completion() == -1
    body = {
        "name": "Consignation",
        "moduleType": "training",
        "goals": "Savoir consigner",
        "estimatedDuration": 60,
        "reference": None,
        "periodicity": 0,
        "passThreshold": 7,
        "moduleItems": [{"type": "url", "url": "https://www.inrs.fr", "label": "INRS"}],
    }
    response = client.post(f"{API}/training/module/{module_id}", json=body, headers=cast.headers["creator"])
    assert response.status_code in (200, 204), response.text
    assert completion() == 0


def test_a_mediation_signed_by_the_learner_shows_in_the_path_cards_at_once(
    client, db, people, headers
) -> None:
    """Signing the attached mediation (the mediations' own call) stores the path's progress: the list
    shows it without anyone opening the path."""
    path_id = _referent_path(db, people, [mediation_item(), url_item()])
    mediation = _readable_mediation(db, people)
    db.add(MediationParticipant(mediation_id=mediation, user_id=people["learner"].id))
    db.commit()
    attached = client.post(f"{_element(path_id)}/mediation/attach/{mediation}", headers=headers["referent"])
    assert attached.status_code == 200, attached.text

    def completion() -> int:
        response = client.post(f"{PATHS}/query", json={"pageSize": 200}, headers=headers["learner"])
        return next(c["completion"] for c in response.json()["results"] if c["id"] == path_id)

    assert completion() == 0
    signed = client.post(f"{API}/mediation/{mediation}/sign", headers=headers["learner"])
    assert signed.status_code == 200, signed.text
    assert completion() == 25
