"""Training paths of the demo plant, made through the area's own services by the training manager
(`formation`) over the demo modules (demo.modules) and path references (demo.references), one in each
status, so that the paths list, the path view, the dashboards and the bell have something real after
`make run`:

- `apprenant` has a path to accept, and a started one where a module is under way (two elements
  opened), one is finished (all its elements opened: `referent` and `mediateur` are to grade it) and
  one is not started yet (`mediateur` and `formation` are to start it);
- `operatrice` has a started path with a graded module to sign, a signed one whose mediation element
  is done by the validated mediation she signed (demo.mediations), one under way and one disabled; a
  closed path to sign; and an archived one;
- `createur` has an accepted path, a canceled one, and a finished one awaiting its closing by
  `formation` (with a module not passed, which the closing warns about).

Elements are done the way the learner does them (opening url and spot elements from the path; the
attached mediation), never by learning-platform attempts or completions: `apprenant` and `operatrice`
have none (the end-to-end tests expect so). Dates are relative to today. Idempotent: a path whose
title exists for its learner is left as it is."""

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.account.service import principal_of
from spot.core.principal import Principal
from spot.core.time import today
from spot.demo import references as refs
from spot.demo.mediations import _signed_in as signed_in
from spot.mediations.models import Mediation
from spot.permissions.names import Permission
from spot.training.modules.models import ItemKind, TrainingModule, TrainingModuleItem
from spot.training.paths import element_actions, service
from spot.training.paths.models import ModuleStatus as M
from spot.training.paths.models import PathStatus as P
from spot.training.paths.models import TrainingPath
from spot.training.paths.schemas import AssignedModuleIn, GradeBody, PathCreate, SignBody, ValidateBody
from spot.users.models import Group, User

CREATOR = "formation"

# The demo modules' names (demo.modules).
WELCOME = "Accueil sécurité sur le site de Lyon"
LOCKOUT = "Consignation des énergies avant intervention"
LATHE = "Réglage du tour à commande numérique"
FORKLIFT = "Conduite de chariot élévateur en atelier"
TMS = "Prévention des troubles musculo-squelettiques au vissage"
ELECTRICITY = "Habilitation électrique : rappel avant essais"
METROLOGY = "Métrologie au contrôle dimensionnel"
GRINDING = "Rectification : prévenir l'éclatement de meule"
MAINTENANCE = "Maintenance préventive des machines-outils"

# A validated mediation that `operatrice` signed (demo.mediations): it completes a mediation element.
SIGNED_MEDIATION = "Revue des sujets critiques de la fraiseuse"


@dataclass(frozen=True)
class Assigned:
    module: str
    referents: tuple[str, ...]
    # Where it is brought once the path is started (the path's own status permitting).
    status: M = M.notStarted
    # How many of its url and spot elements the learner opens (all of them for a finished or graded
    # module).
    opened: int = 0
    grade: float | None = None
    comment: str = ""
    # A mediation attached to its first mediation element by its first referent.
    mediation: str | None = None


@dataclass(frozen=True)
class Demo:
    title: str
    reference: str | None
    learner: str
    status: P
    # The path runs from this many days ago for `days` days.
    since: int
    days: int
    modules: tuple[Assigned, ...]
    threshold: int = 7
    visible_to_groups: tuple[str, ...] = ()
    closing: str = "Parcours suivi jusqu'au bout ; les acquis sont à entretenir au poste."


PATHS = [
    Demo(
        "Accueil des nouveaux arrivants",
        refs.PATH_REFERENCES[0].code,
        "apprenant",
        P.notAccepted,
        since=-3,
        days=60,
        modules=(
            Assigned(WELCOME, ("referent",)),
            Assigned(LOCKOUT, ("mediateur",)),
            Assigned(TMS, ("referent",)),
        ),
    ),
    Demo(
        "Devenir régleur sur le tour",
        refs.PATH_REFERENCES[2].code,
        "apprenant",
        P.started,
        since=20,
        days=120,
        visible_to_groups=("Encadrement",),
        modules=(
            Assigned(LATHE, ("referent",), M.started, opened=2),
            Assigned(METROLOGY, ("referent", "mediateur"), M.finished),
            Assigned(MAINTENANCE, ("mediateur", "formation")),
        ),
    ),
    Demo(
        "Parcours opérateur de l'usinage",
        refs.PATH_REFERENCES[1].code,
        "operatrice",
        P.started,
        since=45,
        days=90,
        visible_to_groups=("Encadrement",),
        modules=(
            Assigned(GRINDING, ("referent",), M.validated, grade=8.5, comment="Montage et essai maîtrisés."),
            Assigned(
                TMS,
                ("mediateur",),
                M.archived,
                opened=1,
                grade=7,
                comment="Bonnes postures ; le réglage du poste reste à automatiser.",
                mediation=SIGNED_MEDIATION,
            ),
            Assigned(WELCOME, ("referent",), M.started, opened=1),
            Assigned(ELECTRICITY, ("mediateur",), M.disabled),
        ),
    ),
    Demo(
        "Requalification sécurité",
        refs.PATH_REFERENCES[3].code,
        "operatrice",
        P.validated,
        since=30,
        days=60,
        modules=(
            Assigned(FORKLIFT, ("referent",), M.archived, grade=9, comment="Circulation et gerbage sûrs."),
            Assigned(
                LOCKOUT, ("mediateur",), M.archived, grade=8, comment="Consignation complète et vérifiée."
            ),
        ),
    ),
    Demo(
        "Accueil des nouveaux arrivants",
        refs.PATH_REFERENCES[0].code,
        "operatrice",
        P.archived,
        since=90,
        days=100,
        modules=(Assigned(WELCOME, ("referent",), M.archived, grade=10, comment="Consignes connues."),),
    ),
    Demo(
        "Parcours opérateur de l'assemblage",
        refs.PATH_REFERENCES[1].code,
        "createur",
        P.accepted,
        since=0,
        days=90,
        modules=(Assigned(TMS, ("referent",)), Assigned(ELECTRICITY, ("mediateur",))),
    ),
    Demo(
        "Devenir régleur sur le tour",
        refs.PATH_REFERENCES[2].code,
        "createur",
        P.canceled,
        since=10,
        days=120,
        modules=(Assigned(LATHE, ("referent",)),),
    ),
    Demo(
        "Métrologie au contrôle",
        None,
        "createur",
        P.finished,
        since=15,
        days=45,
        modules=(
            Assigned(METROLOGY, ("referent",), M.validated, grade=6, comment="Étalonnage à reprendre."),
        ),
    ),
]

_SIGN = SignBody(comment="Merci pour l'accompagnement.", satisfaction=4)
# What the learner opens from the path (the other kinds are done otherwise).
_OPENED = (ItemKind.url.value, ItemKind.spot.value)


class _Cast:
    """The demo people as Principals, by login."""

    def __init__(self, db: Session, users: dict[str, int]) -> None:
        self.db, self.users = db, users
        self.principals: dict[str, Principal] = {}

    def __getitem__(self, login: str) -> Principal:
        if login not in self.principals:
            self.principals[login] = principal_of(self.db, user_id=self.users[login])
        return self.principals[login]


def _kinds(db: Session, module_id: int) -> list[str]:
    """The kind of each of the module's elements, by result index."""
    return list(
        db.scalars(
            select(TrainingModuleItem.kind)
            .where(TrainingModuleItem.module_id == module_id)
            .order_by(TrainingModuleItem.position)
        )
    )


def _work(
    db: Session, cast: _Cast, demo: Demo, path_id: int, index: int, a: Assigned, module_id: int
) -> None:
    """Bring one module of a started path to its status: start, elements, grade, the learner's
    signature; or disable it."""
    learner, referent = cast[demo.learner], cast[a.referents[0]]
    if a.status == M.disabled:
        service.disable(db, user=cast[CREATOR], path_id=path_id, module_index=index)
        return
    if a.status == M.notStarted:
        return
    service.start_now(db, user=referent, path_id=path_id, module_index=index)
    kinds = _kinds(db, module_id)
    opened = [index for index, kind in enumerate(kinds) if kind in _OPENED]
    # A graded module was worked through first: every url and spot element opened.
    for position in opened if a.status in (M.finished, M.validated, M.archived) else opened[: a.opened]:
        path = service.load(db, user=learner, path_id=path_id)
        module = service.module_at(db, path, index)
        element_actions.record_open(db, user=learner, path=path, module=module, result_index=position)
    mediation_position = next((i for i, kind in enumerate(kinds) if kind == ItemKind.mediation.value), None)
    if a.mediation is not None and mediation_position is not None:
        mediation_id = db.scalar(select(Mediation.id).where(Mediation.title == a.mediation))
        if mediation_id is not None:
            path = service.load(db, user=referent, path_id=path_id)
            module = service.module_at(db, path, index)
            element_actions.attach(
                db,
                user=referent,
                path=path,
                module=module,
                result_index=mediation_position,
                mediation_id=mediation_id,
            )
    if a.status not in (M.validated, M.archived):
        return
    body = GradeBody(grade=a.grade, comment=a.comment)
    service.grade(db, user=referent, path_id=path_id, module_index=index, data=body)
    if a.status == M.archived:
        service.sign_module(
            db, user=learner, session=signed_in(learner), path_id=path_id, module_index=index, data=_SIGN
        )


def _make(db: Session, cast: _Cast, demo: Demo, modules: dict[str, int], groups: dict[str, int]) -> None:
    creator, learner = cast[CREATOR], cast[demo.learner]
    start = today() - timedelta(days=demo.since)
    data = PathCreate(
        title=demo.title,
        reference=demo.reference,
        start_date=start,
        stop_date=start + timedelta(days=demo.days),
        pass_threshold=demo.threshold,
        visible_by_groups=[groups[g] for g in demo.visible_to_groups if g in groups],
        assigned_modules=[
            AssignedModuleIn(module_id=modules[a.module], referents=[cast.users[r] for r in a.referents])
            for a in demo.modules
        ],
        learner_ids=[learner.id],
    )
    (path_id,) = service.create(db, user=creator, data=data)
    if demo.status == P.notAccepted:
        return
    service.accept(db, user=learner, path_id=path_id)
    if demo.status == P.canceled:
        service.cancel(db, user=creator, path_id=path_id)
        return
    if demo.status == P.accepted:
        return
    service.start(db, user=creator, path_id=path_id)
    for index, a in enumerate(demo.modules):
        _work(db, cast, demo, path_id, index, a, modules[a.module])
    # What the elements and gradings say now: finished modules, and the path once all are graded.
    service.refresh(db, service.load(db, user=creator, path_id=path_id))
    if demo.status not in (P.validated, P.archived):
        return
    service.validate(
        db,
        user=creator,
        session=signed_in(creator),
        path_id=path_id,
        data=ValidateBody(comment=demo.closing),
    )
    if demo.status == P.archived:
        service.sign(db, user=learner, session=signed_in(learner), path_id=path_id, data=_SIGN)


def seed(db: Session) -> None:
    users = {login: user_id for user_id, login in db.execute(select(User.id, User.login))}
    groups = {name: group_id for group_id, name in db.execute(select(Group.id, Group.name))}
    modules = {
        name: module_id
        for module_id, name in db.execute(
            select(TrainingModule.id, TrainingModule.name).where(TrainingModule.enabled)
        )
    }
    existing = set(db.execute(select(TrainingPath.title, TrainingPath.learner_id)).tuples())
    if CREATOR not in users:
        return
    cast = _Cast(db, users)
    if not cast[CREATOR].may(Permission.TrainingManagement):
        return
    for demo in PATHS:
        logins = {CREATOR, demo.learner, *(r for a in demo.modules for r in a.referents)}
        if not logins <= users.keys() or not {a.module for a in demo.modules} <= modules.keys():
            continue
        if (demo.title, users[demo.learner]) in existing:
            continue
        _make(db, cast, demo, modules, groups)
    db.flush()
