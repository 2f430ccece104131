"""Qualifications of the demo plant, on its two cartographies (demo.mapping) over the demo modules
(demo.modules), tracked for the operators' group, so that the qualification list and view, the
qualification dashboards (cartography, group, user, with the coverage of the cartography's functions),
My qualifications, My dashboard's periodic modules and the bell have something real after `make run`.

The holders are in every validity state (qualifications.validity): permanent (a module that is not
periodic), good (more than 30 days left), warn (30 days or fewer), expired, never validated (one of
them failed their grading) and in progress (a path of demo.paths where the module is not graded yet).
They hold them from paths made through the path service like demo.paths' (created, accepted, started,
elements opened, graded, signed by the learner, closed, signed) and then dated back to the day of
their grading: every date and time of the path moves back by the same number of days, the validity of
each grading is computed again from its new day (grading day + the module's periodicity), and the
signatures vouch for the content as it is then (their hash computed again), as if the service had run
that day. Grading days are relative to today, so the states stay what they are over time.

What the demo shows: `apprenant` (Gabriel Roux) holds qualifications in five states (all but never
validated, which others show); in the
assembly line, the quality controller function is covered by one person only (`referent`), and
maintenance technicians by nobody. The managers (`manager`'s group) hold perm_TableauBord,
perm_QualificationAdmin and perm_VisuTrack. Idempotent: a qualification whose name exists, a path
whose title exists for its learner and a discussion that holds a typed message are left as they are."""

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.account.service import principal_of
from spot.core import signatures
from spot.core.errors import ApiError
from spot.core.time import today
from spot.demo import paths as demo_paths
from spot.demo.mapping import SITE_CODE
from spot.discussions import service as discussions
from spot.discussions.models import DiscussionMessage
from spot.mapping.models import Cartography, Site
from spot.permissions.models import GroupPermission
from spot.permissions.names import Permission
from spot.qualifications import service
from spot.qualifications.models import Qualification
from spot.qualifications.schemas import QualificationSave
from spot.training.modules.models import TrainingModule
from spot.training.paths import service as paths
from spot.training.paths.models import ModuleStatus as M
from spot.training.paths.models import PathStatus as P
from spot.training.paths.models import (
    TrainingPath,
    TrainingPathGrading,
    TrainingPathHistory,
    TrainingPathVisit,
)
from spot.users.models import Group, User

AUTHOR = "manager"
MANAGERS = "Encadrement"
MANAGER_PERMISSIONS = (Permission.TableauBord, Permission.QualificationAdmin, Permission.VisuTrack)
OPERATORS = "Opérateurs"
REFERENTS = "Référents"

# The demo modules' names (demo.modules, demo.paths).
FORKLIFT, LATHE, GRINDING = demo_paths.FORKLIFT, demo_paths.LATHE, demo_paths.GRINDING
LOCKOUT, MAINTENANCE, METROLOGY = demo_paths.LOCKOUT, demo_paths.MAINTENANCE, demo_paths.METROLOGY
WELCOME, ELECTRICITY = demo_paths.WELCOME, demo_paths.ELECTRICITY


@dataclass(frozen=True)
class Held:
    """A closed and signed path of `learner` in which `referent` graded `modules`, on the day that is
    `months` calendar months then `days` days before today (days > 0: later than those months)."""

    title: str
    learner: str
    referent: str
    modules: tuple[str, ...]
    months: int
    days: int = 0
    grade: float = 9
    comment: str = "Gestes sûrs et maîtrisés au poste."


# With the gradings of demo.paths (`operatrice`: forklift, grinding, lockout, TMS for years, the
# welcome for good) and its paths in progress (`apprenant`: welcome, lockout and TMS to accept; lathe,
# metrology and maintenance under way).
HELD = [
    # Forklift, every 60 months: `apprenant` 20 days left, `referent` expired for about 45 days.
    Held("Habilitation cariste", "apprenant", "referent", (FORKLIFT,), months=60, days=20),
    Held("Habilitation cariste", "referent", "mediateur", (FORKLIFT,), months=61, days=-14),
    # Lathe (not periodic) and grinding (12 months): `referent` is the only lathe setter.
    Held("Régleur tour : validation des acquis", "referent", "mediateur", (LATHE, GRINDING), months=4),
    Held("Rectification en sécurité", "apprenant", "referent", (GRINDING,), months=2, grade=8.5),
    # Lockout, every 36 months: `mediateur`'s expired 10 days ago.
    Held(
        "Maintenance de premier niveau", "mediateur", "referent", (MAINTENANCE, LOCKOUT), months=36, days=-10
    ),
    # Metrology (not periodic); `referent` did not pass it.
    Held("Métrologie : validation au poste", "operatrice", "referent", (METROLOGY,), months=14),
    Held("Métrologie : validation au poste", "mediateur", "referent", (METROLOGY,), months=30, grade=8),
    Held(
        "Métrologie : validation au poste",
        "referent",
        "mediateur",
        (METROLOGY,),
        months=9,
        grade=5,
        comment="Étalonnage du comparateur à reprendre.",
    ),
    # The welcome (not periodic).
    Held("Accueil sécurité : session d'intégration", "apprenant", "referent", (WELCOME,), months=8, grade=10),
    # Julien (demo.people.LEFT) drove forklifts until he left the plant; he stays named on his path.
    Held("Habilitation cariste", "jbernard", "referent", (FORKLIFT,), months=30),
    # Electrical clearance, every 36 months: `apprenant`'s expired about 25 days ago.
    Held("Habilitation électrique", "apprenant", "mediateur", (ELECTRICITY,), months=37, days=5),
    Held("Habilitation électrique", "referent", "mediateur", (ELECTRICITY,), months=6, grade=8.5),
]


@dataclass(frozen=True)
class Demo:
    name: str
    modules: tuple[str, ...]
    # Cartography codes of the demo site.
    cartographies: tuple[str, ...]
    groups: tuple[str, ...] = (OPERATORS,)


QUALIFICATIONS = [
    Demo("Cariste en atelier", (FORKLIFT,), ("USI", "ASM")),
    Demo("Régleur sur tour à commande numérique", (LATHE, GRINDING), ("USI",)),
    Demo("Rectification en sécurité", (GRINDING,), ("USI",)),
    Demo("Maintenance préventive et consignation", (MAINTENANCE, LOCKOUT), ("USI",)),
    Demo("Contrôle dimensionnel", (METROLOGY,), ("USI",)),
    Demo("Accueil sécurité du site de Lyon", (WELCOME,), ("USI", "ASM")),
    Demo("Habilitation électrique aux essais", (ELECTRICITY,), ("ASM",), (OPERATORS, REFERENTS)),
]

# (qualification, [(login, message)]), in the order they are posted.
CONVERSATIONS = [
    (
        "Cariste en atelier",
        [
            (AUTHOR, "L'habilitation de Gabriel expire dans moins d'un mois, celle d'Émilie a expiré."),
            ("formation", "Je les inscris tous les deux à la prochaine session de recyclage."),
        ],
    ),
]


def _grant_managers(db: Session) -> None:
    """The managers' group holds the dashboards' permissions (a demo seeded before them gets them)."""
    group = db.scalar(select(Group).where(Group.name == MANAGERS))
    if group is None:
        return
    held = {p.name for p in group.permissions}
    for permission in MANAGER_PERMISSIONS:
        if permission.value not in held:
            group.permissions.append(GroupPermission(name=permission.value))
    db.flush()


def _age(db: Session, path_id: int, days: int) -> None:
    """Date the path back by `days`: every date and time of it and of its modules, gradings, history
    and visits; each successful grading's validity from its new day (a failure is valid for nothing);
    its signatures' content hashes."""
    shift = timedelta(days=days)
    db.flush()
    db.expire_all()
    path = db.get_one(TrainingPath, path_id)
    for name in ("created_at", "start_date", "stop_date", "status_changed_at", "accepted_at"):
        setattr(path, name, getattr(path, name) - shift)
    for name in ("validated_at", "signed_at"):
        if getattr(path, name) is not None:
            setattr(path, name, getattr(path, name) - shift)
    modules = paths.modules_of(db, path_id)
    periodicity = dict(
        db.execute(
            select(TrainingModule.id, TrainingModule.periodicity).where(
                TrainingModule.id.in_([m.module_id for m in modules])
            )
        )
        .tuples()
        .all()
    )
    graded_day = today() - shift
    valid_until = {
        m.id: paths.add_months(graded_day, periodicity[m.module_id]) if periodicity[m.module_id] else None
        for m in modules
    }
    for module in modules:
        for name in ("start_date", "stop_date", "status_changed_at"):
            setattr(module, name, getattr(module, name) - shift)
        for name in ("started_at", "graded_at", "signed_at"):
            if getattr(module, name) is not None:
                setattr(module, name, getattr(module, name) - shift)
        if module.graded_at is not None:
            module.valid_until = valid_until[module.id] if module.is_success else None
    module_ids = [m.id for m in modules]
    for grading in db.scalars(
        select(TrainingPathGrading).where(TrainingPathGrading.path_module_id.in_(module_ids))
    ):
        grading.graded_at -= shift
        grading.valid_until = valid_until[grading.path_module_id] if grading.is_success else None
    for entry in db.scalars(select(TrainingPathHistory).where(TrainingPathHistory.path_id == path_id)):
        entry.at -= shift
    for visit in db.scalars(
        select(TrainingPathVisit).where(TrainingPathVisit.path_module_id.in_(module_ids))
    ):
        visit.done_at -= shift
    db.flush()
    names = dict(
        db.execute(
            select(TrainingModule.id, TrainingModule.name).where(
                TrainingModule.id.in_([m.module_id for m in modules])
            )
        )
        .tuples()
        .all()
    )
    contents = [(paths.PATH_RECORD, path_id, paths.path_content(path, modules))]
    for module in modules:
        comment = db.scalar(
            select(TrainingPathGrading.comment)
            .where(TrainingPathGrading.path_module_id == module.id)
            .order_by(TrainingPathGrading.graded_at.desc(), TrainingPathGrading.id.desc())
            .limit(1)
        )
        content = paths.module_content(path, module, module_name=names[module.module_id], comment=comment)
        contents.append((paths.MODULE_RECORD, module.id, content))
    for record_type, record_id, content in contents:
        for signature in db.scalars(
            select(signatures.Signature).where(
                signatures.Signature.record_type == record_type, signatures.Signature.record_id == record_id
            )
        ):
            signature.signed_at -= shift
            signature.content_hash = signatures.content_hash(content)
    db.flush()


def _held(db: Session, users: dict[str, int], modules: dict[str, int], groups: dict[str, int]) -> None:
    existing = set(db.execute(select(TrainingPath.title, TrainingPath.learner_id)).tuples().all())
    cast = demo_paths._Cast(db, users)
    if not cast[demo_paths.CREATOR].may(Permission.TrainingManagement):
        return
    for held in HELD:
        if {held.learner, held.referent} - users.keys() or set(held.modules) - modules.keys():
            continue
        if (held.title, users[held.learner]) in existing:
            continue
        demo = demo_paths.Demo(
            held.title,
            None,
            held.learner,
            P.archived,
            since=10,
            days=20,
            modules=tuple(
                demo_paths.Assigned(
                    name, (held.referent,), M.archived, grade=held.grade, comment=held.comment
                )
                for name in held.modules
            ),
        )
        demo_paths._make(db, cast, demo, modules, groups)
        path_id = db.scalar(
            select(TrainingPath.id)
            .where(TrainingPath.title == held.title, TrainingPath.learner_id == users[held.learner])
            .order_by(TrainingPath.id.desc())
            .limit(1)
        )
        graded = paths.add_months(today(), -held.months) + timedelta(days=held.days)
        if path_id is not None:
            _age(db, path_id, (today() - graded).days)


def _qualifications(
    db: Session, users: dict[str, int], modules: dict[str, int], groups: dict[str, int]
) -> None:
    if AUTHOR not in users:
        return
    author = principal_of(db, user_id=users[AUTHOR])
    cartographies = dict(
        db.execute(
            select(Cartography.code, Cartography.id)
            .join(Site, Site.id == Cartography.site_id)
            .where(Site.code == SITE_CODE)
        )
        .tuples()
        .all()
    )
    existing = set(db.scalars(select(Qualification.name)))
    for demo in QUALIFICATIONS:
        if demo.name in existing or set(demo.modules) - modules.keys():
            continue
        data = QualificationSave(
            name=demo.name,
            cartographies=[cartographies[c] for c in demo.cartographies if c in cartographies],
            qualifiable_groups=[groups[g] for g in demo.groups if g in groups],
            modules=[modules[m] for m in demo.modules],
        )
        try:
            service.create(db, user=author, data=data)
        except ApiError:  # an existing 'manager' kept by seed-demo who may not create qualifications
            return
    db.flush()


def _conversations(db: Session, users: dict[str, int]) -> None:
    for name, messages in CONVERSATIONS:
        discussion_id = db.scalar(select(Qualification.discussion_id).where(Qualification.name == name))
        if discussion_id is None:
            continue
        typed = db.scalar(
            select(DiscussionMessage.id).where(
                DiscussionMessage.discussion_id == discussion_id, DiscussionMessage.system_type.is_(None)
            )
        )
        if typed is not None:
            continue
        for login, content in messages:
            if login in users:
                author = principal_of(db, user_id=users[login])
                discussions.post(db, user=author, discussion_id=discussion_id, content=content)
    db.flush()


def seed(db: Session) -> None:
    _grant_managers(db)
    users = {login: user_id for user_id, login in db.execute(select(User.id, User.login))}
    groups = {name: group_id for group_id, name in db.execute(select(Group.id, Group.name))}
    modules = {
        name: module_id
        for module_id, name in db.execute(
            select(TrainingModule.id, TrainingModule.name).where(TrainingModule.enabled)
        )
    }
    if demo_paths.CREATOR in users:
        _held(db, users, modules, groups)
    _qualifications(db, users, modules, groups)
    _conversations(db, users)
