"""The requalification the demo shows (demo.requalification): Spot opened `apprenant`'s forklift
requalification by itself, followed by `referent` who validated his licence, until its last valid day,
told to him by e-mail; seeded twice or scanned again the same day, still one."""

from sqlalchemy import select

from spot import demo
from spot.db import session_factory
from spot.demo import paths as demo_paths
from spot.notifications import scan
from spot.notifications.models import OutboxMessage
from spot.qualifications.models import ModuleHold, Qualification, QualificationReferent
from spot.training.modules.models import TrainingModule
from spot.training.paths.models import TrainingPath, TrainingPathModule, TrainingPathReferent
from spot.users.models import User


def _opened(db) -> list[TrainingPath]:
    db.expire_all()
    return list(db.scalars(select(TrainingPath).where(TrainingPath.opened_by_spot)))


def test_spot_opened_apprenants_forklift_requalification_once(demo_org, db):
    users = dict(db.execute(select(User.login, User.id)).tuples().all())
    [path] = _opened(db)
    forklift = db.scalar(select(TrainingModule.id).where(TrainingModule.name == demo_paths.FORKLIFT))
    assert (path.learner_id, path.creator_id, path.status) == (users["apprenant"], None, "notAccepted")
    assert path.title == f"Requalification — {demo_paths.FORKLIFT}"
    [assigned] = db.scalars(select(TrainingPathModule).where(TrainingPathModule.path_id == path.id))
    assert assigned.module_id == forklift
    hold = db.get(ModuleHold, (users["apprenant"], forklift))
    assert hold.requalification_path_id == path.id and path.stop_date == hold.valid_until
    referents = set(
        db.scalars(select(TrainingPathReferent.user_id).where(TrainingPathReferent.path_id == path.id))
    )
    assert referents == {users["referent"]}
    cariste = db.scalar(select(Qualification.id).where(Qualification.name == "Cariste en atelier"))
    defaults = set(
        db.scalars(
            select(QualificationReferent.user_id).where(QualificationReferent.qualification_id == cariste)
        )
    )
    assert defaults == {users["formation"]}
    told = db.scalars(
        select(OutboxMessage.subject).where(
            OutboxMessage.kind == "trainingPathToAccept", OutboxMessage.user_id == users["apprenant"]
        )
    ).all()
    assert any(demo_paths.FORKLIFT in subject for subject in told)

    demo.seed(db)
    db.commit()
    [step] = [s for s in scan.SCANS if s.name == "requalify"]
    assert scan.run_one(session_factory(), step, now=path.created_at) == 0
    assert [p.id for p in _opened(db)] == [path.id]
