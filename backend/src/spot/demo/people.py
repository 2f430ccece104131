import unicodedata
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.account.service import principal_of
from spot.apitokens import service as tokens
from spot.apitokens.models import ApiToken
from spot.core.errors import ApiError
from spot.core.passwords import hash_password
from spot.core.time import utcnow
from spot.permissions.models import GroupPermission
from spot.permissions.names import ALL_PERMISSIONS, Permission
from spot.users import service as users
from spot.users.models import Group, User

DEMO_PASSWORD = "spot-demo-2026"
# A reserved domain (RFC 2606): nothing is ever delivered there.
EMAIL_DOMAIN = "usine-demo.example"

P = Permission
GROUPS: dict[str, list[str]] = {
    "Administrateurs": ALL_PERMISSIONS,
    "Encadrement": [P.TableauBord, P.QualificationAdmin, P.VisuTrack, P.TrainingPathView],
    "Responsables formation": [
        P.TrainingManagement,
        P.TrainingPathAdmin,
        P.TrainingReferenceAdmin,
        P.QualificationAdmin,
        P.TrainingPathView,
        P.TableauBord,
    ],
    "Médiateurs": [P.VisuTrack, P.EditPdv],
    "Référents": [P.EditPdv, P.EditNotHaute, P.EditNotBasse, P.EditResourcesVideos, P.TrainingPathView],
    "Créateurs": [
        P.EditPdv,
        P.RemPdv,
        P.ValidNotHaute,
        P.EditNotHaute,
        P.EditNotBasse,
        P.EditResourcesVideos,
    ],
    "Opérateurs": [],
    # No demo login: the visibility screen shows it limited to one activity (demo.mapping.LIMITED_GROUP).
    "Maintenance": [],
}


@dataclass(frozen=True)
class DemoLogin:
    login: str
    first_name: str
    last_name: str
    groups: tuple[str, ...]
    role: str

    @property
    def email(self) -> str:
        """first.last at the demo plant's domain, without accents (alice.martin@usine-demo.example)."""
        name = f"{self.first_name}.{self.last_name}".lower()
        plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
        return f"{plain}@{EMAIL_DOMAIN}"


LOGINS = [
    DemoLogin("admin", "Alice", "Martin", ("Administrateurs",), "administrator"),
    DemoLogin("manager", "Bernard", "Dubois", ("Encadrement",), "manager"),
    DemoLogin("formation", "Claire", "Lefèvre", ("Responsables formation",), "training manager"),
    DemoLogin("mediateur", "David", "Moreau", ("Médiateurs", "Opérateurs"), "mediator"),
    DemoLogin("referent", "Émilie", "Laurent", ("Référents", "Opérateurs"), "referent"),
    DemoLogin("createur", "François", "Girard", ("Créateurs",), "creator"),
    DemoLogin("apprenant", "Gabriel", "Roux", ("Opérateurs",), "learner"),
    DemoLogin("operatrice", "Hélène", "Fournier", ("Opérateurs",), "learner"),
]


# People who left the plant: they cannot sign in, and stay named, marked as inactive, on what they
# signed (demo.qualifications gives Julien a forklift path he signed, then deactivates him).
LEFT = [DemoLogin("jbernard", "Julien", "Bernard", ("Opérateurs",), "former operator")]


def seed(db: Session) -> list[DemoLogin]:
    groups: dict[str, Group] = {}
    for name, permissions in GROUPS.items():
        group = db.scalar(select(Group).where(Group.name == name))
        if group is None:
            group = Group(name=name, permissions=[GroupPermission(name=str(p)) for p in permissions])
            db.add(group)
        groups[name] = group
    db.flush()
    password_hash = hash_password(DEMO_PASSWORD)
    for demo in LOGINS + LEFT:
        if db.scalar(select(User).where(User.login == demo.login)) is None:
            db.add(
                User(
                    login=demo.login,
                    first_name=demo.first_name,
                    last_name=demo.last_name,
                    email=demo.email,
                    password_hash=password_hash,
                    groups=[groups[g] for g in demo.groups],
                )
            )
    return LOGINS


def deactivate_leavers(db: Session) -> None:
    """Once their history is there: the people who left are deactivated (not in an organisation that has
    no administrator yet, where nothing may be deactivated)."""
    for demo in LEFT:
        user = db.scalar(select(User).where(User.login == demo.login))
        if user is None or not user.active:
            continue
        try:
            with db.begin_nested():
                users.set_active(db, user=user, active=False, by=None)
        except ApiError:
            db.refresh(user)


def seed_api_tokens(db: Session) -> None:
    """The token the plant's identity provider provisions people with (its value is not kept), and an
    older one, revoked."""
    if db.scalar(select(ApiToken.id).limit(1)) is not None:
        return
    admin = db.scalar(select(User).where(User.login == "admin"))
    by = principal_of(db, user_id=admin.id) if admin is not None else None
    tokens.create(db, name="Microsoft Entra ID", scope="scim", by=by)
    old, _ = tokens.create(db, name="Ancien connecteur RH", scope="scim", by=by)
    old.revoked_at = utcnow()
