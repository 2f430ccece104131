"""Module and path references of the demo plant, so that both reference lists have something real to
show and the demo modules (demo.modules) and paths are classified. One module reference is disabled:
the list shows its marker and the autocomplete leaves it out. Idempotent: a reference whose code exists
(for its type) is left as it is."""

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.references.models import Reference, ReferenceType
from spot.references.schemas import ReferenceSave


@dataclass(frozen=True)
class DemoReference:
    code: str
    label: str
    description: str
    disabled: bool = False


# The codes the demo modules use (demo.modules).
SAFETY, TRADE, HEALTH, WELCOME, QUALITY = "SECU", "METIER", "SANTE", "ACCUEIL", "QUALITE"

MODULE_REFERENCES = [
    DemoReference(
        SAFETY,
        "Sécurité au poste de travail",
        "Risques du poste, équipements de protection individuelle, consignation des énergies.\n"
        "Conduite à tenir en cas d'incident.",
    ),
    DemoReference(
        TRADE,
        "Savoir-faire métier",
        "Gestes, réglages et contrôles propres aux postes de l'usinage et de l'assemblage.",
    ),
    DemoReference(
        HEALTH,
        "Santé et ergonomie",
        "Postures, manutention manuelle, bruit : prévenir les troubles musculo-squelettiques.",
    ),
    DemoReference(
        WELCOME,
        "Accueil des nouveaux arrivants",
        "Découverte du site, des règles de vie et des interlocuteurs de l'atelier.",
    ),
    DemoReference(
        QUALITY,
        "Qualité",
        "Autocontrôle, traçabilité des pièces et traitement des non-conformités.",
    ),
    DemoReference(
        "ENVIRONNEMENT",
        "Environnement",
        "Tri des déchets, stockage des produits dangereux, économies d'énergie.",
    ),
    DemoReference(
        "HABILITATION-ELEC",
        "Habilitation électrique",
        "Préparation aux habilitations B0 et BS, remplacée par le module du prestataire.",
        disabled=True,
    ),
]

PATH_REFERENCES = [
    DemoReference(
        "PARC-ACCUEIL",
        "Parcours d'accueil",
        "Premières semaines d'un nouvel arrivant : sécurité, règles du site, découverte du poste.",
    ),
    DemoReference(
        "PARC-OPE",
        "Parcours opérateur",
        "Devenir autonome sur un poste de production, jusqu'à l'autocontrôle.",
    ),
    DemoReference(
        "PARC-REGLEUR",
        "Parcours régleur",
        "Régler les machines de l'usinage et former les opérateurs au réglage de premier niveau.",
    ),
    DemoReference(
        "PARC-REQUALIF",
        "Requalification périodique",
        "Modules à renouveler avant la fin de leur validité (sécurité, habilitations).",
    ),
]


def _seed_type(db: Session, type: ReferenceType, demos: list[DemoReference]) -> None:
    existing = set(db.scalars(select(Reference.code).where(Reference.type == type.value)))
    for demo in demos:
        if demo.code in existing:
            continue
        # The text rule of the dialog, as for any reference a user types.
        data = ReferenceSave(
            code=demo.code, label=demo.label, description=demo.description, disabled=demo.disabled
        )
        db.add(
            Reference(
                type=type.value,
                code=data.code,
                label=data.label,
                description=data.description,
                disabled=data.disabled,
            )
        )
    db.flush()


def seed(db: Session) -> None:
    _seed_type(db, ReferenceType.module, MODULE_REFERENCES)
    _seed_type(db, ReferenceType.path, PATH_REFERENCES)
