"""A learner's quiz attempts are readable by the referents of a module of one of the learner's training
paths (they grade it, and the path's quiz results name the attempts); not by the referents of other
learners' paths, nor by those who only see a path."""

from datetime import timedelta

import pytest
from sqlalchemy.orm import Session

from lms.conftest import course_package, leaves, upload
from spot.core.time import today, utcnow
from spot.training.modules.models import TrainingModule
from spot.training.paths.models import (
    TrainingPath,
    TrainingPathModule,
    TrainingPathReferent,
    TrainingPathVisiblePerson,
)
from spot.users.models import User
from support import API, assert_error


def path_of(db: Session, learner: User, *, referents: list[User], visible_to: list[User]) -> None:
    """A training path of the learner, written in the tables, with one module followed by `referents`."""
    now = utcnow()
    module = TrainingModule(name="Consignation", created_at=now)
    path = TrainingPath(
        title="Parcours",
        learner_id=learner.id,
        created_at=now,
        status="started",
        status_changed_at=now,
        start_date=today(),
        stop_date=today() + timedelta(days=30),
    )
    db.add_all([module, path])
    db.flush()
    assigned = TrainingPathModule(
        path_id=path.id,
        position=0,
        module_id=module.id,
        start_date=path.start_date,
        stop_date=path.stop_date,
        status_changed_at=now,
    )
    db.add(assigned)
    db.flush()
    db.add_all(
        TrainingPathReferent(path_module_id=assigned.id, user_id=user.id, path_id=path.id)
        for user in referents
    )
    db.add_all(TrainingPathVisiblePerson(path_id=path.id, user_id=user.id) for user in visible_to)
    db.commit()


@pytest.fixture
def world(client, db, make_user, login, manager, launch):
    """A learner who passed a quiz; the referent of their path, the referent of someone else's path
    and a person their path is visible to."""
    course_id = upload(client, manager, course_package()).json()["id"]
    quiz = leaves(client.get(f"{API}/lms/courses/{course_id}", headers=manager).json())["Quiz"]["id"]
    learner, someone = make_user("learner"), make_user("someone")
    runtime = launch(login(learner), quiz).begin()
    assert (
        runtime.put(runtime.statement("passed", {"score": {"scaled": 0.9}, "success": True})).status_code
        == 204
    )
    users = {role: make_user(role) for role in ("referent", "otherReferent", "viewer")}
    path_of(db, learner, referents=[users["referent"]], visible_to=[users["viewer"]])
    path_of(db, someone, referents=[users["otherReferent"]], visible_to=[])
    body = {"learnerId": learner.id, "quizIds": [quiz]}
    attempts = client.post(f"{API}/lms/quiz-attempts", json=body, headers=manager).json()
    assert len(attempts) == 1
    return {
        "headers": {role: login(user) for role, user in users.items()},
        "body": body,
        "attempt": attempts[0],
    }


def test_the_referent_of_the_learners_path_reads_their_attempts(client, world):
    headers = world["headers"]["referent"]
    attempts = client.post(f"{API}/lms/quiz-attempts", json=world["body"], headers=headers)
    assert attempts.status_code == 200, attempts.text
    assert [a["id"] for a in attempts.json()] == [world["attempt"]["id"]]
    detail = client.get(f"{API}/lms/attempts/{world['attempt']['id']}", headers=headers)
    assert detail.status_code == 200, detail.text
    assert detail.json()["grade"] == 9.0


@pytest.mark.parametrize("role", ["otherReferent", "viewer"])
def test_other_referents_and_readers_of_the_path_do_not(client, world, role):
    headers = world["headers"][role]
    assert_error(client.post(f"{API}/lms/quiz-attempts", json=world["body"], headers=headers), 403)
    assert_error(client.get(f"{API}/lms/attempts/{world['attempt']['id']}", headers=headers), 403)
