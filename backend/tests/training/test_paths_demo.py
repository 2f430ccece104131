"""The demo's training paths (demo.paths): one in each status, made by the training manager for the demo
learners, that the bell of the learners, the referents and the training manager shows; seeded twice,
the same paths; no learning-platform attempt or completion for `apprenant` and `operatrice`."""

from collections import Counter

from sqlalchemy import func, select

from mapping.test_mapping_demo import demo_login
from spot import demo
from spot.demo import paths as demo_paths
from spot.demo import qualifications as demo_qualifications
from spot.demo import validation_history as demo_history
from spot.lms.models import LmsAttempt, LmsCompletion
from spot.training.paths.models import TrainingPath
from spot.users.models import User
from support import API

# The path Spot opens for `apprenant` (demo.requalification).
REQUALIFICATION = f"Requalification — {demo_paths.FORKLIFT}"


def path_alerts(client, headers) -> Counter[tuple[str, str]]:
    alerts = client.get(f"{API}/account/alerts", headers=headers).json()["alerts"]
    return Counter((a["kind"], a["args"]["title"]) for a in alerts if a["target"]["type"] == "trainingPath")


def test_the_demo_has_a_path_in_each_status_seeded_once(demo_org, client, db):
    demo.seed(db)
    db.commit()
    logins = {user_id: login for user_id, login in db.execute(select(User.id, User.login))}
    found = Counter(
        (title, logins[learner], status)
        for title, learner, status in db.execute(
            select(TrainingPath.title, TrainingPath.learner_id, TrainingPath.status)
        )
    )
    # The closed paths in which demo.qualifications' holders were graded come on top, and those of
    # demo.validation_history.
    held = Counter((h.title, h.learner, "archived") for h in demo_qualifications.HELD)
    held += Counter(demo_history.PATHS)
    # And the requalification Spot opens for `apprenant`'s forklift licence (demo.requalification).
    held[(REQUALIFICATION, "apprenant", "notAccepted")] += 1
    assert found == Counter((d.title, d.learner, d.status.value) for d in demo_paths.PATHS) + held
    assert {status for _title, _learner, status in found} == {
        "notAccepted",
        "accepted",
        "started",
        "finished",
        "validated",
        "archived",
        "canceled",
    }
    learners = [user_id for user_id, login in logins.items() if login in ("apprenant", "operatrice")]
    for model in (LmsAttempt, LmsCompletion):
        assert db.scalar(select(func.count()).select_from(model).where(model.user_id.in_(learners))) == 0


def test_the_demo_bells_show_paths_to_each_role(demo_org, client, db):
    bells = {
        login: path_alerts(client, demo_login(client, db, login))
        for login in ("apprenant", "operatrice", "referent", "mediateur", "formation", "createur")
    }
    assert bells["apprenant"] == Counter(
        {
            ("trainingPathToAccept", "Accueil des nouveaux arrivants"): 1,
            ("trainingPathToAccept", REQUALIFICATION): 1,
        }
    )
    assert bells["operatrice"] == Counter(
        {
            ("trainingModuleToSign", "Parcours opérateur de l'usinage"): 1,
            ("trainingPathToSign", "Requalification sécurité"): 1,
        }
    )
    assert bells["referent"] == Counter({("trainingModuleToGrade", "Devenir régleur sur le tour"): 1})
    assert bells["mediateur"] == Counter(
        {
            ("trainingModuleToGrade", "Devenir régleur sur le tour"): 1,
            ("trainingModuleToStart", "Devenir régleur sur le tour"): 1,
        }
    )
    # Its creator is asked to close the finished path (every module graded, the learner's signature to come).
    assert bells["formation"] == Counter(
        {
            ("trainingModuleToStart", "Devenir régleur sur le tour"): 1,
            ("trainingPathToClose", "Métrologie au contrôle"): 1,
        }
    )
    assert bells["createur"] == Counter({("trainingModuleToSign", "Métrologie au contrôle"): 1})


def test_the_demo_paths_show_their_progress_and_closing(demo_org, client, db):
    formation = demo_login(client, db, "formation")
    ids = {
        (title, status): path_id
        for path_id, title, status in db.execute(
            select(TrainingPath.id, TrainingPath.title, TrainingPath.status)
        )
    }

    def view(title: str, status: str) -> dict:
        response = client.get(f"{API}/training/path/{ids[title, status]}", headers=formation)
        assert response.status_code == 200, response.text
        return response.json()

    lathe, metrology, maintenance = view("Devenir régleur sur le tour", "started")["assignedModules"]
    assert (lathe["status"], metrology["status"], maintenance["status"]) == (
        "started",
        "finished",
        "notStarted",
    )
    assert 0 < sum(r["doneAt"] is not None for r in lathe["results"]) < len(lathe["results"])
    assert all(r["doneAt"] is not None for r in metrology["results"])

    machining = view("Parcours opérateur de l'usinage", "started")["assignedModules"]
    assert [m["status"] for m in machining] == ["validated", "archived", "started", "disabled"]
    mediation = next(r for r in machining[1]["results"] if r["type"] == "mediation")
    assert mediation["doneAt"] is not None and mediation["mediationIds"]

    assert "atLeastOneModuleNotPassed" in view("Métrologie au contrôle", "finished")["closingWarnings"]
    assert len(view("Accueil des nouveaux arrivants", "archived")["signatures"]) == 2
