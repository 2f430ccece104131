"""Discussions: a few messages on the machining shop, one of its functions and its subjects, so that
the panel has a conversation to show and the administrator's teamwork menu has new messages (on the
cartography where they posted, and on a subject they follow) after `make run`. The system messages
the rest of the demo wrote (ratings, resources) count as read by then, so that the menu shows these.
Idempotent: a discussion that already holds a typed message is left as it is."""

from sqlalchemy import exists, func, insert, literal, select
from sqlalchemy.orm import Session

from spot.account.service import principal_of
from spot.core.errors import ApiError
from spot.core.time import utcnow
from spot.discussions import service as discussions
from spot.discussions.models import DiscussionMessage, DiscussionRead
from spot.mapping.models import Cartography, Function, Subject
from spot.users.models import User

CARTOGRAPHY = "USI"
FUNCTION = "OPR"
# (item type, code, [(login, message)]), in the order they are posted.
CONVERSATIONS: list[tuple[str, str, list[tuple[str, str]]]] = [
    (
        "subject",
        "USI-001",
        [
            ("referent", "La fiche de changement de plaquette est-elle à jour avec la consignation ?"),
            ("createur", "Oui, mise à jour la semaine dernière.\nLes photos sont dans la galerie."),
            ("admin", "Merci, je la relis avant l'audit de jeudi."),
        ],
    ),
    (
        "cartography",
        CARTOGRAPHY,
        [
            ("admin", "Revue des sujets critiques de l'atelier jeudi à 10 h, salle B."),
            ("mediateur", "Je présenterai les deux sujets de la fraiseuse."),
        ],
    ),
    ("function", FUNCTION, [("referent", "Qui accompagne les nouveaux régleurs ce mois-ci ?")]),
    # A subject the administrator follows (demo.alerts).
    ("subject", "USI-003", [("operatrice", "Le capteur a encore signalé un défaut ce matin.")]),
]


def _discussion_ids(db: Session) -> dict[tuple[str, str], int | None]:
    cartography = db.scalar(select(Cartography).where(Cartography.code == CARTOGRAPHY))
    if cartography is None:
        return {}
    found: dict[tuple[str, str], int | None] = {("cartography", CARTOGRAPHY): cartography.discussion_id}
    function = db.scalar(
        select(Function).where(Function.cartography_id == cartography.id, Function.code == FUNCTION)
    )
    if function is not None:
        found[("function", FUNCTION)] = function.discussion_id
    codes = [code for kind, code, _ in CONVERSATIONS if kind == "subject"]
    for subject in db.scalars(select(Subject).where(Subject.code.in_(codes))):
        found[("subject", subject.code)] = subject.discussion_id
    return found


def _all_read(db: Session, user_id: int) -> None:
    """Every discussion with messages, read by the user up to its newest (where no mark is yet)."""
    latest = (
        select(
            literal(user_id),
            DiscussionMessage.discussion_id,
            literal(utcnow(), DiscussionRead.read_at.type),
            func.max(DiscussionMessage.id),
        )
        .where(
            ~exists().where(
                DiscussionRead.user_id == user_id,
                DiscussionRead.discussion_id == DiscussionMessage.discussion_id,
            )
        )
        .group_by(DiscussionMessage.discussion_id)
    )
    db.execute(
        insert(DiscussionRead).from_select(["user_id", "discussion_id", "read_at", "read_up_to"], latest)
    )


def seed(db: Session) -> None:
    users = {u.login: u.id for u in db.scalars(select(User))}
    ids = _discussion_ids(db)
    if (
        db.scalar(select(DiscussionMessage.id).where(DiscussionMessage.system_type.is_(None)).limit(1))
        is None
    ):
        for user_id in users.values():
            _all_read(db, user_id)
    for kind, code, messages in CONVERSATIONS:
        discussion_id = ids.get((kind, code))
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
            if login not in users:
                continue
            try:
                author = principal_of(db, user_id=users[login])
                discussions.post(db, user=author, discussion_id=discussion_id, content=content)
            except ApiError:  # an existing user of that login who does not see the item
                continue
    db.flush()
