"""Training modules of the demo plant (the Lyon site of demo.mapping), made through the area's own
service by the training manager: every element kind (places of the map of each type, mediations to run
at the workstation, public pages of the INRS, the demo course's resource and quiz from demo.lms), most
classified by the demo's module references (demo.references, seeded before), one of them disabled.
Idempotent: a module whose name exists is left as it is."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.account.service import principal_of
from spot.core.principal import Principal
from spot.demo import lms
from spot.demo import references as refs
from spot.demo.mapping import SITE_CODE
from spot.lms.models import LaunchMode
from spot.mapping.models import Activity, Cartography, Function, Site, Subject
from spot.training.modules import policy, service
from spot.training.modules.models import SpotItemType, TrainingModule
from spot.training.modules.schemas import (
    LmsItemIn,
    MediationItemIn,
    ModuleItemIn,
    ModuleSave,
    SpotItemIn,
    UrlItemIn,
)
from spot.users.models import User

# An element as written below, resolved against the demo's map and course when the module is made.
Element = Callable[[Session], ModuleItemIn | None]


def place(kind: str, *codes: str) -> Element:
    """A spot element: the site, or an item of a cartography of it by (cartography code, item code)."""

    def resolve(db: Session) -> ModuleItemIn | None:
        site = select(Site.id).where(Site.code == SITE_CODE)
        cartography = select(Cartography.id).where(Cartography.site_id.in_(site))
        if kind == "site":
            item_id = db.scalar(site)
        elif kind == "cartography":
            item_id = db.scalar(cartography.where(Cartography.code == codes[0]))
        else:
            model: Any = {"activity": Activity, "function": Function, "subject": Subject}[kind]
            of_map = cartography.where(Cartography.code == codes[0])
            item_id = db.scalar(
                select(model.id).where(model.cartography_id.in_(of_map), model.code == codes[1])
            )
        if item_id is None:
            return None
        return SpotItemIn(type="spot", spot_item_type=SpotItemType(kind), spot_item_id=item_id)

    return resolve


def mediation(title: str, description: str) -> Element:
    return lambda _db: MediationItemIn(type="mediation", title=title, description=description)


def page(url: str, label: str) -> Element:
    return lambda _db: UrlItemIn(type="url", url=url, label=label)


def course_unit(
    activity_id: str, course: str = lms.COURSE_ACTIVITY_ID, mode: LaunchMode = LaunchMode.normal
) -> Element:
    """A demo course's resource or quiz (demo.lms), once the course is imported, opened in `mode`."""

    def resolve(db: Session) -> ModuleItemIn | None:
        item_id = lms.item_id(db, activity_id, course)
        return None if item_id is None else LmsItemIn(type="lms", lms_course_id=item_id, launch_mode=mode)

    return resolve


INRS_CONSIGNATION = "https://www.inrs.fr/media.html?refINRS=ED%206109"
INRS_MACHINES = "https://www.inrs.fr/risques/machines.html"
INRS_ELECTRICITY = "https://www.inrs.fr/risques/electriques/ce-qu-il-faut-retenir.html"
INRS_TMS = "https://www.inrs.fr/risques/tms-troubles-musculosquelettiques/ce-qu-il-faut-retenir.html"
INRS_NOISE = "https://www.inrs.fr/risques/bruit/ce-qu-il-faut-retenir.html"
INRS_LOGISTICS = "https://www.inrs.fr/metiers/logistique.html"


@dataclass(frozen=True)
class Demo:
    name: str
    module_type: str
    goals: str
    # Minutes, months (0: not periodic), out of 10.
    duration: int
    periodicity: int
    threshold: int
    reference: str | None
    elements: tuple[Element, ...]
    creator: str = "formation"
    enabled: bool = True


MODULES = [
    Demo(
        "Consignation des énergies avant intervention",
        "training",
        "Identifier les énergies d'une machine.\nConsigner, vérifier l'absence d'énergie, déconsigner.",
        120,
        36,
        8,
        refs.SAFETY,
        (
            course_unit(lms.RESOURCE_ACTIVITY_ID),
            course_unit(lms.QUIZ_ACTIVITY_ID),
            page(INRS_CONSIGNATION, "INRS : consignations et déconsignations (ED 6109)"),
            place("subject", "USI", "USI-021"),
            mediation(
                "Consignation accompagnée sur le tour",
                "Le référent fait consigner la broche du tour par l'apprenant,\npuis vérifie chaque étape.",
            ),
        ),
    ),
    Demo(
        "Réglage du tour à commande numérique",
        "training",
        "Régler le tour, réaliser et contrôler le premier article.",
        240,
        0,
        7,
        refs.TRADE,
        (
            place("activity", "USI", "USI-TOU"),
            place("subject", "USI", "USI-005"),
            place("subject", "USI", "USI-006"),
            place("function", "USI", "OPR"),
            mediation("Réglage en binôme", "Un réglage complet avec le référent, sur une série courte."),
        ),
    ),
    Demo(
        "Conduite de chariot élévateur en atelier",
        "qualification",
        "Circuler et manutentionner en sécurité dans les ateliers et sur les quais.",
        420,
        60,
        8,
        refs.SAFETY,
        (
            place("function", "USI", "CAR"),
            place("subject", "USI", "USI-002"),
            place("subject", "ASM", "ASM-002"),
            page(INRS_LOGISTICS, "INRS : métiers de la logistique"),
            mediation("Parcours commenté", "Le référent accompagne un approvisionnement complet des postes."),
        ),
    ),
    Demo(
        "Prévention des troubles musculo-squelettiques au vissage",
        "training",
        "Reconnaître les postures à risque et régler son poste de vissage.",
        60,
        24,
        6,
        refs.HEALTH,
        (
            place("subject", "ASM", "ASM-007"),
            place("activity", "ASM", "ASM-VIS"),
            page(INRS_TMS, "INRS : troubles musculo-squelettiques"),
            mediation("Observation au poste", "Une heure d'observation au vissage, suivie d'un échange."),
        ),
    ),
    Demo(
        "Accueil sécurité sur le site de Lyon",
        "other",
        "Connaître les ateliers, les circulations et les consignes générales du site.",
        90,
        0,
        10,
        refs.WELCOME,
        (
            place("site"),
            place("cartography", "USI"),
            place("cartography", "ASM"),
            mediation("Visite du site", "Visite des deux ateliers avec le chef d'équipe."),
            page(INRS_NOISE, "INRS : le bruit au travail"),
            # The site's rules, to look through on arrival; the quiz records the result.
            course_unit(lms.SCORM_READING_ID, lms.SCORM_ACTIVITY_ID, LaunchMode.browse),
            course_unit(lms.SCORM_QUIZ_ID, lms.SCORM_ACTIVITY_ID),
        ),
    ),
    Demo(
        "Habilitation électrique : rappel avant essais",
        "qualification",
        "Appliquer les règles d'habilitation lors des essais haute tension.",
        180,
        36,
        8,
        refs.SAFETY,
        (
            place("subject", "ASM", "ASM-014"),
            place("activity", "ASM", "ASM-ESS"),
            page(INRS_ELECTRICITY, "INRS : risques électriques"),
            course_unit(lms.QUIZ_ACTIVITY_ID),
        ),
    ),
    Demo(
        "Métrologie au contrôle dimensionnel",
        "training",
        "Étalonner ses instruments et mesurer sur machine tridimensionnelle.",
        150,
        0,
        7,
        refs.QUALITY,
        (
            place("activity", "USI", "USI-CTL"),
            place("subject", "USI", "USI-017"),
            place("subject", "USI", "USI-018"),
            place("function", "USI", "CQU"),
        ),
    ),
    Demo(
        "Rectification : prévenir l'éclatement de meule",
        "training",
        "Monter, dresser et contrôler une meule avant sa mise en rotation.",
        90,
        12,
        8,
        refs.SAFETY,
        (
            place("subject", "USI", "USI-015"),
            place("subject", "USI", "USI-014"),
            page(INRS_MACHINES, "INRS : machines"),
            mediation(
                "Montage de meule commenté", "Le référent monte une meule et fait l'essai de rotation."
            ),
        ),
        creator="admin",
    ),
    Demo(
        "Maintenance préventive des machines-outils",
        "training",
        "Réaliser les graissages et les remplacements du plan de maintenance.",
        300,
        0,
        7,
        refs.TRADE,
        (
            place("activity", "USI", "USI-PREV"),
            place("subject", "USI", "USI-020"),
            place("subject", "USI", "USI-022"),
            place("function", "USI", "TMA"),
            course_unit(lms.RESOURCE_ACTIVITY_ID),
        ),
    ),
    Demo(
        "Sertissage : ancienne procédure",
        "other",
        "Régler la hauteur de sertissage (remplacée par le module de la ligne rénovée).",
        45,
        0,
        10,
        None,
        (
            place("subject", "ASM", "ASM-010"),
            place("subject", "ASM", "ASM-009"),
            mediation("Démonstration", "Réglage de la sertisseuse par le chef d'équipe."),
        ),
        enabled=False,
    ),
]


TRAINING_MANAGER = "formation"


def _author(db: Session, login: str) -> Principal | None:
    """The demo login as a Principal, when it may write modules (an existing 'admin' kept by seed-demo
    may hold other permissions than the demo's)."""
    user_id = db.scalar(select(User.id).where(User.login == login))
    if user_id is None:
        return None
    user = principal_of(db, user_id=user_id)
    return user if policy.can_manage(user) else None


def seed(db: Session) -> None:
    existing = set(db.scalars(select(TrainingModule.name)))
    for demo in MODULES:
        if demo.name in existing:
            continue
        user = _author(db, demo.creator) or _author(db, TRAINING_MANAGER)
        if user is None:
            continue
        elements = [element for resolve in demo.elements if (element := resolve(db)) is not None]
        data = ModuleSave(
            name=demo.name,
            module_type=demo.module_type,
            goals=demo.goals,
            estimated_duration=demo.duration,
            reference=demo.reference,
            periodicity=demo.periodicity,
            pass_threshold=demo.threshold,
            module_items=elements,
        )
        module_id = service.create(db, user=user, data=data)
        if not demo.enabled:
            service.set_enabled(db, user=user, module_id=module_id, enabled=False)
    db.flush()
