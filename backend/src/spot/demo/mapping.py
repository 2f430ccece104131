"""The demo map: the Lyon plant with two cartographies, built as a map bundle (plans drawn
with Pillow at seed time) and loaded through the bundle importer, then brought to life by
demo users who follow, rate, resolve and standardize some subjects. Idempotent: a second
run re-imports the same bundle (no change) and skips marks already set."""

import io
import json
import zipfile
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont
from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.account.service import principal_of
from spot.mapping import bundle
from spot.mapping.models import Activity, Cartography, CartographyVisibility, Site, Subject
from spot.subjects import service as subjects
from spot.subjects.schemas import Ratings
from spot.users.models import Group, User

SITE_CODE = "LYON"
# This group sees only the machining shop, to show what a hidden cartography looks like.
RESTRICTED_GROUP = "Opérateurs"
RESTRICTED_TO = "USI"
# This group sees the machining shop limited to its maintenance activity (and those below it): the
# map shows it only that branch, its zones and its subjects (spot.mapping.policy).
LIMITED_GROUP = "Maintenance"
LIMITED_TO_ACTIVITY = ("USI", "USI-MNT")


@dataclass(frozen=True)
class Area:
    code: str
    name: str
    box: tuple[int, int, int, int]
    colour: str
    children: tuple["Area", ...] = ()


@dataclass(frozen=True)
class Post:
    code: str
    name: str
    box: tuple[int, int, int, int]


@dataclass(frozen=True)
class Plan:
    code: str
    name: str
    areas: tuple[Area, ...]
    posts: tuple[Post, ...]


USINAGE = Plan(
    "USI",
    "Atelier d'usinage",
    (
        Area("USI-REC", "Réception matière", (40, 40, 380, 400), "#cfe3f5"),
        Area(
            "USI-USI",
            "Usinage",
            (420, 40, 1140, 600),
            "#d8ecd2",
            (
                Area("USI-TOU", "Tournage", (440, 90, 660, 580), "#b9dcae"),
                Area("USI-FRA", "Fraisage", (680, 90, 900, 580), "#a5d195"),
                Area("USI-RECT", "Rectification", (920, 90, 1120, 580), "#93c782"),
            ),
        ),
        Area("USI-CTL", "Contrôle dimensionnel", (1180, 40, 1560, 400), "#fbe3c2"),
        Area(
            "USI-MNT",
            "Maintenance",
            (40, 640, 760, 960),
            "#f3d0d0",
            (
                Area("USI-PREV", "Maintenance préventive", (60, 690, 390, 940), "#eab8b8"),
                Area("USI-DEP", "Dépannage", (410, 690, 740, 940), "#e19f9f"),
            ),
        ),
    ),
    (
        Post("OPR", "Opérateur régleur", (800, 660, 1140, 760)),
        Post("TMA", "Technicien maintenance", (800, 800, 1140, 900)),
        Post("CAR", "Cariste", (1180, 440, 1560, 540)),
        Post("CQU", "Contrôleur qualité", (1180, 580, 1560, 680)),
    ),
)

ASSEMBLAGE = Plan(
    "ASM",
    "Ligne d'assemblage",
    (
        Area("ASM-APP", "Approvisionnement des postes", (40, 40, 420, 600), "#cfe3f5"),
        Area(
            "ASM-MON",
            "Montage",
            (460, 40, 1180, 480),
            "#d8ecd2",
            (
                Area("ASM-PRE", "Pré-montage", (480, 90, 700, 460), "#b9dcae"),
                Area("ASM-VIS", "Vissage", (720, 90, 940, 460), "#a5d195"),
                Area("ASM-SER", "Sertissage", (960, 90, 1160, 460), "#93c782"),
            ),
        ),
        Area("ASM-ESS", "Essais et tests", (1220, 40, 1560, 480), "#fbe3c2"),
        Area(
            "ASM-CON",
            "Conditionnement",
            (460, 520, 1180, 960),
            "#e6dcf3",
            (
                Area("ASM-EMB", "Emballage", (480, 570, 810, 940), "#d3c4ec"),
                Area("ASM-EXP", "Expédition", (830, 570, 1160, 940), "#c0ace4"),
            ),
        ),
    ),
    (
        Post("OPM", "Opérateur de montage", (40, 660, 420, 760)),
        Post("CEQ", "Chef d'équipe", (40, 800, 420, 900)),
        Post("CAR", "Cariste", (1220, 540, 1560, 640)),
        Post("CQU", "Contrôleur qualité", (1220, 680, 1560, 780)),
        Post("TMA", "Technicien maintenance", (1220, 820, 1560, 920)),
    ),
)

# (code, name, type, function, activity, frequency, gravity, mind-map nodes (name, status))
SubjectRow = tuple[str, str, str, str, str, int, int, tuple[tuple[str, str], ...]]
SUBJECTS: dict[str, list[SubjectRow]] = {
    "USI": [
        (
            "USI-001",
            "Contrôle des bons de livraison à réception",
            "quality",
            "CAR",
            "USI-REC",
            2,
            2,
            (("Vérifier les références", "validated"), ("Signaler les écarts", "inProgress")),
        ),
        (
            "USI-002",
            "Déchargement des barres d'acier",
            "risk",
            "CAR",
            "USI-REC",
            4,
            5,
            (("Élingage", "validated"), ("Zone d'exclusion", "inProgress")),
        ),
        (
            "USI-003",
            "Stockage des matières en racks",
            "risk",
            "CAR",
            "USI-REC",
            2,
            4,
            (("Charge maximale", "toValidate"),),
        ),
        (
            "USI-004",
            "Identification des lots matière",
            "quality",
            "CQU",
            "USI-REC",
            3,
            3,
            (("Étiquetage", "validated"), ("Traçabilité", "inProgress")),
        ),
        (
            "USI-005",
            "Réglage du tour à commande numérique",
            "quality",
            "OPR",
            "USI-TOU",
            4,
            3,
            (
                ("Prise d'origine", "validated"),
                ("Correcteurs d'outils", "inProgress"),
                ("Premier article", "empty"),
            ),
        ),
        (
            "USI-006",
            "Changement des plaquettes de coupe",
            "risk",
            "OPR",
            "USI-TOU",
            4,
            2,
            (("Consignation de la broche", "validated"), ("Port des gants", "validated")),
        ),
        (
            "USI-007",
            "Évacuation des copeaux longs",
            "risk",
            "OPR",
            "USI-TOU",
            3,
            4,
            (("Crochet à copeaux", "inProgress"),),
        ),
        (
            "USI-008",
            "Serrage de la pièce dans le mandrin",
            "risk",
            "OPR",
            "USI-TOU",
            2,
            5,
            (("Couple de serrage", "toValidate"), ("Clé de mandrin", "validated")),
        ),
        (
            "USI-009",
            "Dérive dimensionnelle en tournage",
            "quality",
            "CQU",
            "USI-TOU",
            3,
            3,
            (("Carte de contrôle", "inProgress"),),
        ),
        (
            "USI-010",
            "Montage des fraises sur le porte-outil",
            "quality",
            "OPR",
            "USI-FRA",
            3,
            2,
            (("Nettoyage des cônes", "validated"), ("Banc de préréglage", "inProgress")),
        ),
        (
            "USI-011",
            "Projection de liquide de coupe",
            "risk",
            "OPR",
            "USI-FRA",
            4,
            2,
            (("Carter fermé", "validated"), ("Concentration", "empty")),
        ),
        (
            "USI-012",
            "Bridage des pièces sur la table",
            "risk",
            "OPR",
            "USI-FRA",
            2,
            4,
            (("Brides adaptées", "toValidate"),),
        ),
        (
            "USI-013",
            "Bavures après fraisage",
            "quality",
            "CQU",
            "USI-FRA",
            4,
            2,
            (("Ébavurage", "inProgress"), ("Critères d'acceptation", "empty")),
        ),
        (
            "USI-014",
            "Dressage de la meule",
            "quality",
            "OPR",
            "USI-RECT",
            2,
            3,
            (("Fréquence de dressage", "validated"),),
        ),
        (
            "USI-015",
            "Éclatement de meule",
            "risk",
            "OPR",
            "USI-RECT",
            1,
            5,
            (("Essai au son", "validated"), ("Vitesse maximale", "validated"), ("Protecteur", "inProgress")),
        ),
        (
            "USI-016",
            "Brûlures de rectification",
            "quality",
            "CQU",
            "USI-RECT",
            2,
            4,
            (("Attaque nital", "toValidate"),),
        ),
        (
            "USI-017",
            "Étalonnage des instruments de mesure",
            "quality",
            "CQU",
            "USI-CTL",
            2,
            4,
            (("Calendrier d'étalonnage", "validated"), ("Étiquettes", "inProgress")),
        ),
        (
            "USI-018",
            "Mesure sur machine tridimensionnelle",
            "quality",
            "CQU",
            "USI-CTL",
            3,
            3,
            (("Programme de mesure", "inProgress"), ("Température du local", "empty")),
        ),
        (
            "USI-019",
            "Gestion des pièces non conformes",
            "quality",
            "CQU",
            "USI-CTL",
            3,
            4,
            (("Zone rouge", "validated"), ("Fiche de non-conformité", "inProgress")),
        ),
        (
            "USI-020",
            "Graissage des glissières",
            "quality",
            "TMA",
            "USI-PREV",
            3,
            2,
            (("Plan de graissage", "validated"),),
        ),
        (
            "USI-021",
            "Consignation électrique avant intervention",
            "risk",
            "TMA",
            "USI-PREV",
            2,
            5,
            (
                ("Séparation", "validated"),
                ("Condamnation", "validated"),
                ("Vérification d'absence de tension", "inProgress"),
            ),
        ),
        (
            "USI-022",
            "Remplacement du filtre hydraulique",
            "risk",
            "TMA",
            "USI-PREV",
            2,
            3,
            (("Décompression du circuit", "toValidate"),),
        ),
        (
            "USI-023",
            "Diagnostic d'une panne de broche",
            "quality",
            "TMA",
            "USI-DEP",
            3,
            4,
            (("Lecture des alarmes", "inProgress"), ("Historique des pannes", "empty")),
        ),
        (
            "USI-024",
            "Intervention sur machine en mode dégradé",
            "risk",
            "TMA",
            "USI-DEP",
            5,
            4,
            (("Autorisation", "toValidate"), ("Vitesse réduite", "inProgress")),
        ),
    ],
    "ASM": [
        (
            "ASM-001",
            "Approvisionnement en flux tiré",
            "quality",
            "CAR",
            "ASM-APP",
            3,
            2,
            (("Cartes kanban", "validated"), ("Tournée du train logistique", "inProgress")),
        ),
        (
            "ASM-002",
            "Circulation des chariots élévateurs",
            "risk",
            "CAR",
            "ASM-APP",
            4,
            5,
            (("Plan de circulation", "validated"), ("Croisement piétons", "inProgress")),
        ),
        (
            "ASM-003",
            "Erreur de référence en bord de ligne",
            "quality",
            "OPM",
            "ASM-APP",
            3,
            3,
            (("Détrompage", "toValidate"),),
        ),
        (
            "ASM-004",
            "Préparation des sous-ensembles",
            "quality",
            "OPM",
            "ASM-PRE",
            3,
            2,
            (("Gamme de montage", "validated"), ("Contrôle visuel", "inProgress")),
        ),
        (
            "ASM-005",
            "Postures contraignantes au pré-montage",
            "risk",
            "OPM",
            "ASM-PRE",
            4,
            3,
            (("Hauteur du plan de travail", "inProgress"), ("Rotation des postes", "empty")),
        ),
        (
            "ASM-006",
            "Couple de vissage non atteint",
            "quality",
            "OPM",
            "ASM-VIS",
            3,
            4,
            (("Visseuse asservie", "validated"), ("Traçabilité des couples", "inProgress")),
        ),
        (
            "ASM-007",
            "Troubles musculo-squelettiques au vissage",
            "risk",
            "OPM",
            "ASM-VIS",
            5,
            3,
            (("Bras de réaction", "toValidate"),),
        ),
        (
            "ASM-008",
            "Étalonnage des visseuses",
            "quality",
            "TMA",
            "ASM-VIS",
            2,
            3,
            (("Banc de contrôle", "validated"),),
        ),
        (
            "ASM-009",
            "Pincement des doigts à la sertisseuse",
            "risk",
            "OPM",
            "ASM-SER",
            2,
            5,
            (("Commande bimanuelle", "validated"), ("Barrière immatérielle", "inProgress")),
        ),
        (
            "ASM-010",
            "Hauteur de sertissage hors tolérance",
            "quality",
            "CQU",
            "ASM-SER",
            3,
            3,
            (("Coupe micrographique", "inProgress"),),
        ),
        (
            "ASM-011",
            "Démarrage de ligne en début de poste",
            "quality",
            "CEQ",
            "ASM-MON",
            3,
            2,
            (("Check-list de démarrage", "validated"), ("Premier produit bon", "inProgress")),
        ),
        (
            "ASM-012",
            "Accueil d'un nouvel opérateur sur la ligne",
            "quality",
            "CEQ",
            "ASM-MON",
            2,
            3,
            (("Parrainage", "inProgress"), ("Matrice de polyvalence", "empty")),
        ),
        (
            "ASM-013",
            "Test d'étanchéité",
            "quality",
            "CQU",
            "ASM-ESS",
            3,
            4,
            (("Pression d'essai", "validated"), ("Fuite de référence", "toValidate")),
        ),
        (
            "ASM-014",
            "Essai électrique haute tension",
            "risk",
            "CQU",
            "ASM-ESS",
            1,
            5,
            (("Cabine fermée", "validated"), ("Habilitation", "validated")),
        ),
        (
            "ASM-015",
            "Réglage du banc de test",
            "quality",
            "TMA",
            "ASM-ESS",
            2,
            3,
            (("Gabarit de référence", "inProgress"),),
        ),
        (
            "ASM-016",
            "Protection des produits à l'emballage",
            "quality",
            "OPM",
            "ASM-EMB",
            3,
            2,
            (("Calage", "validated"), ("Film étirable", "empty")),
        ),
        (
            "ASM-017",
            "Coupures au cutter",
            "risk",
            "OPM",
            "ASM-EMB",
            3,
            3,
            (("Cutter à lame rétractable", "validated"),),
        ),
        (
            "ASM-018",
            "Étiquetage des colis",
            "quality",
            "CAR",
            "ASM-EXP",
            3,
            3,
            (("Étiquette client", "inProgress"), ("Scan de contrôle", "toValidate")),
        ),
        (
            "ASM-019",
            "Chargement des camions",
            "risk",
            "CAR",
            "ASM-EXP",
            2,
            5,
            (("Cales de roues", "validated"), ("Quai niveleur", "inProgress")),
        ),
        (
            "ASM-020",
            "Remontée d'un défaut au chef d'équipe",
            "quality",
            "CEQ",
            "ASM-ESS",
            3,
            3,
            (("Andon", "inProgress"), ("Réunion de cinq minutes", "empty")),
        ),
    ],
}

# (subject code, login, action); each happens once.
MARKS = [
    ("USI-002", "referent", "follow"),
    ("USI-002", "createur", "standardize"),
    ("USI-005", "mediateur", "follow"),
    ("USI-005", "referent", "resolve"),
    ("USI-006", "createur", "standardize"),
    ("USI-011", "apprenant", "follow"),
    ("USI-015", "referent", "follow"),
    ("USI-015", "createur", "resolve"),
    ("USI-015", "createur", "standardize"),
    ("USI-019", "operatrice", "follow"),
    ("USI-021", "createur", "standardize"),
    ("USI-021", "referent", "resolve"),
    ("USI-024", "mediateur", "follow"),
    ("ASM-002", "referent", "follow"),
    ("ASM-006", "createur", "standardize"),
    ("ASM-007", "mediateur", "follow"),
    ("ASM-009", "createur", "resolve"),
    ("ASM-013", "referent", "follow"),
    ("ASM-014", "createur", "standardize"),
    ("ASM-019", "mediateur", "resolve"),
]
# The mind maps' deeper levels: under a first-level node of SUBJECTS (by name), its children, each
# (name, status, text, children). Codes follow the first level's, depth first (mind_map_nodes).
DemoNode = tuple[str, str, str, tuple["DemoNode", ...]]
TREES: dict[str, dict[str, tuple[DemoNode, ...]]] = {
    "USI-002": {
        "Élingage": (
            (
                "Danger : chute de la charge",
                "validated",
                "Barres de 6 m, jusqu'à 2 t par botte.",
                (
                    ("Cause : élingue usée ou sous-dimensionnée", "validated", "", ()),
                    ("Cause : botte mal équilibrée", "toValidate", "", ()),
                ),
            ),
            ("Bonne pratique : élinguer en panier à deux brins", "validated", "", ()),
            (
                "Contrôle : état des élingues avant chaque levée",
                "inProgress",
                "Registre au poste de pontier.",
                (),
            ),
        ),
        "Zone d'exclusion": (
            ("Danger : heurt d'une personne par la charge", "validated", "", ()),
            ("Bonne pratique : baliser la zone au sol", "inProgress", "", ()),
            ("Contrôle : personne sous la charge", "toValidate", "", ()),
        ),
    },
    "USI-006": {
        "Consignation de la broche": (
            (
                "Danger : démarrage intempestif",
                "validated",
                "",
                (
                    ("Cause : programme lancé par un tiers", "validated", "", ()),
                    ("Cause : porte ouverte shuntée", "inProgress", "", ()),
                ),
            ),
            ("Bonne pratique : arrêt d'urgence enclenché", "validated", "", ()),
        ),
        "Port des gants": (
            ("Danger : coupure par l'arête de la plaquette", "validated", "", ()),
            (
                "Bonne pratique : gants anti-coupure niveau 5",
                "validated",
                "Référence au magasin : GAC-5.",
                (),
            ),
            ("Contrôle : gants en bon état", "toValidate", "", ()),
        ),
    },
    "USI-011": {
        "Carter fermé": (
            (
                "Danger : projection dans les yeux",
                "validated",
                "",
                (
                    ("Cause : carter ouvert pendant l'usinage", "validated", "", ()),
                    ("Cause : joint de porte usé", "toValidate", "", ()),
                ),
            ),
            ("Contrôle : sécurité de porte testée chaque semaine", "inProgress", "", ()),
        ),
        "Concentration": (
            ("Danger : dermatose", "inProgress", "Contact prolongé avec un liquide trop concentré.", ()),
            ("Contrôle : réfractomètre, 5 à 7 %", "toValidate", "", ()),
        ),
    },
    "USI-021": {
        "Séparation": (("Bonne pratique : ouvrir le sectionneur général", "validated", "", ()),),
        "Condamnation": (
            (
                "Bonne pratique : cadenas personnel par intervenant",
                "validated",
                "",
                (("Contrôle : clé conservée par l'intervenant", "validated", "", ()),),
            ),
            ("Danger : remise sous tension par un tiers", "validated", "", ()),
        ),
        "Vérification d'absence de tension": (
            ("Contrôle : VAT sur chaque conducteur", "inProgress", "", ()),
            ("Cause d'erreur : VAT non testé avant usage", "toValidate", "", ()),
        ),
    },
    "ASM-002": {
        "Plan de circulation": (
            (
                "Danger : collision entre chariots",
                "validated",
                "",
                (
                    ("Cause : vitesse excessive", "validated", "", ()),
                    ("Cause : angle mort en bout d'allée", "inProgress", "", ()),
                ),
            ),
            ("Bonne pratique : sens unique dans les allées", "validated", "", ()),
        ),
        "Croisement piétons": (
            ("Danger : piéton renversé", "validated", "", ()),
            ("Bonne pratique : passages piétons marqués au sol", "inProgress", "", ()),
            ("Contrôle : audit mensuel des croisements", "toValidate", "", ()),
        ),
    },
    "ASM-007": {
        "Bras de réaction": (
            (
                "Danger : épaule et poignet sollicités",
                "validated",
                "",
                (
                    ("Cause : couple repris par le poignet", "validated", "", ()),
                    ("Cause : vissage au-dessus des épaules", "toValidate", "", ()),
                ),
            ),
            ("Bonne pratique : bras articulé équilibré", "inProgress", "", ()),
            ("Contrôle : rotation des postes toutes les deux heures", "toValidate", "", ()),
        ),
    },
    "ASM-017": {
        "Cutter à lame rétractable": (
            (
                "Danger : coupure à la main",
                "validated",
                "",
                (
                    ("Cause : lame fixe", "validated", "", ()),
                    ("Cause : geste vers soi", "inProgress", "", ()),
                ),
            ),
            ("Bonne pratique : gants anti-coupure", "validated", "", ()),
            ("Contrôle : cutters à lame fixe retirés des postes", "toValidate", "", ()),
        ),
    },
}


def mind_map_nodes(
    code: str,
    name: str,
    nodes: tuple[tuple[str, str], ...],
    trees: dict[str, dict[str, tuple[DemoNode, ...]]] = TREES,
) -> list[dict[str, object]]:
    """A demo subject's mind map as bundle nodes: the main node (code 0, the first node's status),
    the first level of SUBJECTS (codes 1, 2…: those of the flat maps of older demo databases), then
    the deeper levels of `trees`, depth first."""
    out: list[dict[str, object]] = [{"code": 0, "name": name, "status": nodes[0][1], "position": 0}]
    out += [
        {"code": i, "name": node, "status": status, "parentCode": 0, "position": i - 1}
        for i, (node, status) in enumerate(nodes, 1)
    ]
    details = trees.get(code, {})
    next_code = len(nodes) + 1

    def below(parent: int, children: tuple[DemoNode, ...]) -> None:
        nonlocal next_code
        for position, (child, status, text, grandchildren) in enumerate(children):
            own = next_code
            next_code += 1
            out.append(
                {
                    "code": own,
                    "name": child,
                    "status": status,
                    "parentCode": parent,
                    "position": position,
                    "text": text,
                }
            )
            below(own, grandchildren)

    for i, (node, _status) in enumerate(nodes, 1):
        below(i, details.get(node, ()))
    return out


MARK_COLUMNS = {"follow": "followed_at", "resolve": "resolved_at", "standardize": "standardized_at"}
STANDARD_COMMENT = "Validé en revue de poste"


FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu when installed (it has the French accents); else Pillow's own font."""
    try:
        return ImageFont.truetype(FONT, size)
    except OSError:
        return ImageFont.load_default(size=size)


def _plan_png(plan: Plan) -> bytes:
    """A floor plan: walls, coloured areas for activities, hatched posts for functions, labels."""
    image = Image.new("RGB", (1600, 1000), "#f4f4f2")
    draw = ImageDraw.Draw(image)
    draw.rectangle((10, 10, 1590, 990), outline="#404040", width=8)
    for x in range(40, 1600, 80):
        draw.line((x, 975, x + 20, 975), fill="#9a9a9a", width=3)

    def area(item: Area, depth: int) -> None:
        draw.rectangle(item.box, fill=item.colour, outline="#555555", width=3 if depth == 0 else 2)
        size = 26 - 4 * depth
        while size > 12 and draw.textlength(item.name, font=_font(size)) > item.box[2] - item.box[0] - 24:
            size -= 2
        draw.text((item.box[0] + 12, item.box[1] + 10), item.name, fill="#222222", font=_font(size))
        for child in item.children:
            area(child, depth + 1)

    for item in plan.areas:
        area(item, 0)
    for post in plan.posts:
        draw.rounded_rectangle(post.box, radius=14, fill="#ffffff", outline="#0074c8", width=4)
        draw.text((post.box[0] + 14, post.box[1] + 30), post.name, fill="#0074c8", font=_font(24))
    draw.text((40, 950), plan.name, fill="#404040", font=_font(18))
    return _png(image)


def _pictogram_png(colour: str, letter: str) -> bytes:
    image = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((2, 2, 62, 62), fill=colour, outline="#333333", width=3)
    draw.text((32, 33), letter, fill="#222222", font=_font(32), anchor="mm")
    return _png(image)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def _zone(kind: str, code: str, box: tuple[int, int, int, int]) -> dict[str, object]:
    return {
        "type": kind,
        "target": code,
        "x": box[0],
        "y": box[1],
        "width": box[2] - box[0],
        "height": box[3] - box[1],
    }


def _cartography(plan: Plan, files: dict[str, bytes]) -> dict[str, object]:
    image_name = f"images/{plan.code.lower()}.png"
    files[image_name] = _plan_png(plan)

    def activity(item: Area) -> dict[str, object]:
        return {"code": item.code, "name": item.name, "activities": [activity(c) for c in item.children]}

    zones, pictograms = [], []
    for item in plan.areas:
        for sub in (item, *item.children):
            zones.append(_zone("activity", sub.code, sub.box))
        name = f"images/picto-{item.code.lower()}.png"
        files[name] = _pictogram_png(item.colour, item.name[0])
        pictograms.append({"activity": item.code, "image": name})
    zones += [_zone("function", post.code, post.box) for post in plan.posts]
    subjects = [
        {
            "code": code,
            "name": name,
            "type": kind,
            "function": function,
            "activity": activity_code,
            "mindMap": mind_map_nodes(code, name, nodes),
            **({"preventionMeasures": MEASURES[code]} if code in MEASURES else {}),
        }
        for code, name, kind, function, activity_code, _f, _g, nodes in SUBJECTS[plan.code]
    ]
    return {
        "code": plan.code,
        "name": plan.name,
        "image": image_name,
        "activities": [activity(a) for a in plan.areas],
        "functions": [{"code": p.code, "name": p.name} for p in plan.posts],
        "zones": zones,
        "pictograms": pictograms,
        "subjects": subjects,
    }


# The prevention measures of the demo's risks, which the site's DUERP prints (spot.demo.documents).
MEASURES = {
    "USI-002": (
        "Déchargement au pont roulant avec élingues contrôlées.\n"
        "Zone de déchargement balisée, personne sous la charge."
    ),
    "USI-003": ("Racks fixés au sol et contrôlés chaque année.\nCharge maximale affichée sur chaque rack."),
    "USI-006": ("Gants anti-coupure EN 388 niveau C.\nMachine consignée pendant le changement."),
    "USI-007": "Crochet à copeaux obligatoire ; carter fermé pendant le cycle.",
    "USI-008": ("Clé de mandrin à éjection automatique.\nVérification du serrage avant le départ cycle."),
    "USI-011": "Écran de protection en place ; lunettes de sécurité au poste.",
    "USI-012": "Brides adaptées à la pièce, contrôle du couple de bridage.",
    "USI-015": ("Meule vérifiée au son avant montage, vitesse maximale affichée.\nCarter de meule en place."),
    "USI-021": (
        "Procédure de consignation en 6 étapes ; cadenas personnel.\nHabilitation électrique vérifiée."
    ),
    "USI-024": "Mode dégradé réservé aux régleurs habilités ; commande à action maintenue.",
    "ASM-002": (
        "Allées piétonnes marquées au sol ; vitesse limitée à 6 km/h.\nCACES à jour pour les caristes."
    ),
    "ASM-005": "Poste réglable en hauteur ; rotation des opérateurs toutes les 2 heures.",
    "ASM-007": "Visseuses à réaction compensée ; échauffement en début de poste.",
    "ASM-009": "Commande bimanuelle et barrière immatérielle contrôlées chaque jour.",
    "ASM-014": "Cabine d'essai fermée pendant le test ; habilitation électrique.",
    "ASM-017": "Cutters à lame rétractable ; gants anti-coupure.",
    "ASM-019": "Cales de roues et quai niveleur ; gilet haute visibilité.",
}

# The demo user who imports the map.
IMPORTER = "admin"


def bundle_bytes() -> bytes:
    """The demo map as a bundle, exactly as an administrator would upload it."""
    files: dict[str, bytes] = {}
    document = {
        "format": bundle.FORMAT,
        "code": SITE_CODE,
        "name": "Usine de Lyon",
        "cartographies": [_cartography(USINAGE, files), _cartography(ASSEMBLAGE, files)],
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(bundle.MANIFEST, json.dumps(document, ensure_ascii=False, indent=1))
        for name, content in files.items():
            archive.writestr(name, content)
    return out.getvalue()


def seed(db: Session) -> None:
    users = {u.login: principal_of(db, user_id=u.id) for u in db.scalars(select(User))}
    # Imported by its administrator, as in production: the subject page names who created each subject.
    importer = users.get(IMPORTER)
    bundle.import_bundle(db, data=bundle_bytes(), user=importer)
    site = db.scalar(select(Site).where(Site.code == SITE_CODE))
    assert site is not None
    cartographies = {c.code: c for c in db.scalars(select(Cartography).where(Cartography.site_id == site.id))}
    by_code = {
        s.code: s
        for s in db.scalars(
            select(Subject).where(Subject.cartography_id.in_([c.id for c in cartographies.values()]))
        )
    }
    if importer is not None:
        # Demo databases seeded before the import had a user.
        for subject in by_code.values():
            if subject.created_by is None:
                subject.created_by = importer.id
            if subject.updated_by is None:
                subject.updated_by = importer.id
    rater = users.get("referent")
    for rows in SUBJECTS.values():
        for code, *_rest, frequency, gravity, _nodes in rows:
            subject = by_code[code]
            if rater is not None and subject.criticity_at is None:
                subjects.rate(
                    db,
                    user=rater,
                    subject=subject,
                    ratings=Ratings(frequency=frequency, gravity=gravity, detectability=0),
                )
    for code, login, action in MARKS:
        subject, user = by_code[code], users.get(login)
        if user is None or getattr(subject, MARK_COLUMNS[action]) is not None:
            continue
        if action == "follow":
            subjects.follow(db, user=user, subject=subject)
        elif action == "resolve":
            subjects.resolve(db, user=user, subject=subject)
        else:
            subjects.standardize(db, user=user, subject=subject, comment=STANDARD_COMMENT)
    group = db.scalar(select(Group).where(Group.name == RESTRICTED_GROUP))
    restricted = cartographies[RESTRICTED_TO]
    if group is not None and db.get(CartographyVisibility, (group.id, "cartography", restricted.id)) is None:
        db.add(CartographyVisibility(group_id=group.id, item_type="cartography", item_id=restricted.id))
    limited = db.scalar(select(Group).where(Group.name == LIMITED_GROUP))
    cartography_code, activity_code = LIMITED_TO_ACTIVITY
    activity = db.scalar(
        select(Activity).where(
            Activity.cartography_id == cartographies[cartography_code].id, Activity.code == activity_code
        )
    )
    if limited is not None and activity is not None:
        if db.get(CartographyVisibility, (limited.id, "activity", activity.id)) is None:
            db.add(CartographyVisibility(group_id=limited.id, item_type="activity", item_id=activity.id))
    db.flush()
