"""The history of each validation in the demo (docs/qualifications.md): `apprenant` (Gabriel Roux) has
more than one grading of two modules of his qualifications, so that his qualification status shows
timelines worth reading after `make run`, and his audit pack a validation history:

- forklift driving (every 60 months, valid 20 days more from demo.qualifications): his initial
  training ten years ago, failed at first (6 / 10) and then passed once the referent changed the grade
  after a second assessment; that validation ran out the day the current one renewed it;
- the electrical clearance (every 36 months), expired about 25 days ago (demo.qualifications): a
  refresher six days ago that he did not pass, which leaves the clearance expired, not "never
  validated".

Paths made through the path service as demo.paths makes them (accepted, started, elements opened,
graded, signed, closed, signed) and dated back to their grading day as demo.qualifications does.
Idempotent: a path whose title exists for its learner is left as it is."""

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.core.time import today
from spot.demo import paths as demo_paths
from spot.demo import qualifications as demo_qualifications
from spot.demo.mediations import _signed_in as signed_in
from spot.permissions.names import Permission
from spot.training.modules.models import TrainingModule
from spot.training.paths import service as paths
from spot.training.paths.models import ModuleStatus as M
from spot.training.paths.models import PathStatus as P
from spot.training.paths.models import TrainingPath
from spot.training.paths.schemas import GradeBody, SignBody, ValidateBody
from spot.users.models import Group, User

LEARNER = "apprenant"
FORKLIFT, TMS, ELECTRICITY = demo_paths.FORKLIFT, demo_paths.TMS, demo_paths.ELECTRICITY
INITIAL = "Habilitation cariste : formation initiale"
REFRESHER = "Habilitation électrique : recyclage"
_SIGN = SignBody(comment="Merci.", satisfaction=4)
# The paths this module adds: (title, learner, status).
PATHS = ((INITIAL, LEARNER, P.archived.value), (REFRESHER, LEARNER, P.archived.value))


def _path_id(db: Session, title: str, learner_id: int) -> int | None:
    return db.scalar(
        select(TrainingPath.id)
        .where(TrainingPath.title == title, TrainingPath.learner_id == learner_id)
        .order_by(TrainingPath.id.desc())
        .limit(1)
    )


def _initial(db: Session, cast: demo_paths._Cast, modules: dict[str, int], groups: dict[str, int]) -> None:
    """The forklift graded 6 then 8.5 in the same path (a grade changed while the path runs), then
    closed and signed, ten years before the current validation's renewal."""
    demo = demo_paths.Demo(
        INITIAL,
        None,
        LEARNER,
        P.started,
        since=10,
        days=20,
        modules=(
            demo_paths.Assigned(
                FORKLIFT, ("referent",), M.validated, grade=6, comment="Gerbage hésitant, à revoir en allée."
            ),
            demo_paths.Assigned(TMS, ("referent",), M.started),
        ),
    )
    demo_paths._make(db, cast, demo, modules, groups)
    path_id = _path_id(db, INITIAL, cast.users[LEARNER])
    if path_id is None:
        return
    referent, learner, creator = cast["referent"], cast[LEARNER], cast[demo_paths.CREATOR]
    regrade = GradeBody(grade=8.5, comment="Deuxième évaluation en allée : gerbage et dépose maîtrisés.")
    paths.grade(db, user=referent, path_id=path_id, module_index=0, data=regrade)
    tms = GradeBody(grade=8, comment="Postures de vissage correctes.")
    paths.grade(db, user=referent, path_id=path_id, module_index=1, data=tms)
    for index in (0, 1):
        paths.sign_module(
            db, user=learner, session=signed_in(learner), path_id=path_id, module_index=index, data=_SIGN
        )
    paths.refresh(db, paths.load(db, user=creator, path_id=path_id))
    closing = ValidateBody(comment="Formation initiale validée après la seconde évaluation.")
    paths.validate(db, user=creator, session=signed_in(creator), path_id=path_id, data=closing)
    paths.sign(db, user=learner, session=signed_in(learner), path_id=path_id, data=_SIGN)
    graded = paths.add_months(today(), -120) + timedelta(days=20)
    demo_qualifications._age(db, path_id, (today() - graded).days)


def _refresher(db: Session, cast: demo_paths._Cast, modules: dict[str, int], groups: dict[str, int]) -> None:
    """The electrical clearance's refresher, not passed, six days ago."""
    demo = demo_paths.Demo(
        REFRESHER,
        None,
        LEARNER,
        P.archived,
        # It ended the day it was graded: not one of his current paths.
        since=10,
        days=10,
        modules=(
            demo_paths.Assigned(
                ELECTRICITY,
                ("mediateur",),
                M.archived,
                grade=4.5,
                comment="Analyse des risques avant consignation à reprendre.",
            ),
        ),
    )
    demo_paths._make(db, cast, demo, modules, groups)
    path_id = _path_id(db, REFRESHER, cast.users[LEARNER])
    if path_id is not None:
        demo_qualifications._age(db, path_id, 6)


def seed(db: Session) -> None:
    users = {login: user_id for user_id, login in db.execute(select(User.id, User.login))}
    groups = {name: group_id for group_id, name in db.execute(select(Group.id, Group.name))}
    modules = {
        name: module_id
        for module_id, name in db.execute(
            select(TrainingModule.id, TrainingModule.name).where(TrainingModule.enabled)
        )
    }
    logins = {demo_paths.CREATOR, LEARNER, "referent", "mediateur"}
    if not logins <= users.keys() or not {FORKLIFT, TMS, ELECTRICITY} <= modules.keys():
        return
    cast = demo_paths._Cast(db, users)
    if not cast[demo_paths.CREATOR].may(Permission.TrainingManagement):
        return
    existing = set(db.execute(select(TrainingPath.title, TrainingPath.learner_id)).tuples())
    if (INITIAL, users[LEARNER]) not in existing:
        _initial(db, cast, modules, groups)
    if (REFRESHER, users[LEARNER]) not in existing:
        _refresher(db, cast, modules, groups)
    db.flush()
