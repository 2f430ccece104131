"""Training path elements (spec 2 §3 Result per item, §9 completion; docs/training-paths.md 'Elements done'):
when each kind of element is done for the learner, what the reader sees of it, completion, and the
element actions (open, attach, detach) with who may do them in which statuses."""

from datetime import datetime, timedelta
from typing import Any

import pytest

from mapping.maps import Map, restrict
from spot.account.service import principal_of
from spot.core.history_models import HistoryEntry
from spot.core.time import utcnow
from spot.lms.models import LmsAttempt
from spot.mediations.models import MediationVisiblePerson
from spot.training.paths import elements
from spot.training.paths.completion import colour, completion
from spot.training.paths.models import (
    TrainingPathModule,
)
from training.catalogue import Course
from training.elements_support import (
    attach_directly,
    attempt,
    complete,
    counted,
    lms_item,
    loaded,
    make_mediation,
    make_module,
    make_path,
    mediation_item,
    people_of,
    progress_of,
    read_subject,
    results_of,
    sign_mediation,
    spot_item,
    url_item,
    visit,
)


@pytest.fixture
def people(make_user) -> dict[str, Any]:
    return people_of(make_user)


# Completion ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("done", "total", "expected"),
    [(0, 0, -1), (0, 3, 0), (1, 3, 33), (2, 3, 67), (1, 8, 13), (1, 200, 1), (1, 400, 0), (3, 3, 100)],
)
def test_completion_is_rounded_half_up_and_minus_one_when_nothing_counts(done, total, expected) -> None:
    assert completion(done, total) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [(-1, None), (0, "error"), (32, "error"), (33, "accent"), (65, "accent"), (66, "success")]
    + [(100, "success")],
)
def test_a_completion_s_colour_follows_the_spec_s_bands(value, expected) -> None:
    assert colour(value) == expected


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
    assert (done, total, completion(done, total)) == (0, 0, -1)


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


def test_a_spot_element_lists_the_subjects_read_since_the_module_started(db, test_map: Map, people) -> None:
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


def test_a_spot_element_of_a_module_not_started_lists_no_subject(db, test_map: Map, people) -> None:
    learner = people["learner"].id
    module = make_module(db, [spot_item("subject", test_map.subject("S1"))])
    path_id = make_path(db, learner_id=learner, modules=[(module, [])], module_status="notStarted")
    db.execute(TrainingPathModule.__table__.update().values(started_at=None))
    db.commit()
    read_subject(db, learner, test_map.subject("S1"), utcnow())
    assert results_of(db, learner, path_id)[0][0]["subjects"] == []


def test_a_spot_element_the_reader_may_not_see_is_not_named(db, test_map: Map, people) -> None:
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
        "launchMode": "Normal",
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


def test_the_statements_of_a_path_do_not_grow_with_its_modules_and_elements(
    db, test_map: Map, people
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
            return counted(lambda: elements.progress(db, path=path, modules=modules))
        elements.results(db, user=user, path=path, modules=modules)  # caches filled
        return counted(lambda: elements.results(db, user=user, path=path, modules=modules))

    assert count(small, "progress") == count(large, "progress") <= 5
    assert count(small, "results") == count(large, "results") <= 8
