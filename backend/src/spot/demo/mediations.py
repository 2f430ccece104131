"""Mediations among the demo people, one in each status, made through the area's own services so that
every mediation screen has something real after `make run`: one created for tomorrow, one running,
one stopped awaiting its report, one stopped with its report (awaiting validation by the
administrator), one validated and signed by one participant of two (the administrator, the other,
has still to sign), one canceled, and one not scheduled that the administrator is to start.

The periods of the stopped ones lie over real demo history (demo.usage): around the latest reads and
writes of their mediator and participants, so that the report page lists tracked actions and the
reports name some of them. Idempotent: a mediation whose title exists is left as it is."""

from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.account.models import SessionToken
from spot.account.service import principal_of
from spot.config import get_settings
from spot.core.history_models import HistoryEntry
from spot.core.principal import Principal
from spot.core.time import today, utcnow
from spot.mediations import reporting, service
from spot.mediations.models import Mediation
from spot.mediations.models import MediationStatus as S
from spot.mediations.schemas import MediationSave, Period, ReportItemIn, TrackedAction
from spot.users.models import Group, User

# How far a period reaches on each side of the history entry it is laid over.
REACH = timedelta(minutes=25)


@dataclass(frozen=True)
class Demo:
    title: str
    description: str
    creator: str
    mediator: str
    participants: tuple[str, ...]
    # The status it is brought to, through the transitions.
    status: S
    scheduled_tomorrow: bool = False
    visible_to_groups: tuple[str, ...] = ()
    visible_to_persons: tuple[str, ...] = ()
    comment: str = ""
    # The participants who have signed (validated ones).
    signers: tuple[str, ...] = field(default=())


MEDIATIONS = [
    Demo(
        "Préparation de l'audit de l'atelier d'usinage",
        "Relire ensemble les sujets critiques avant l'audit.\nApporter les fiches de poste à jour.",
        creator="admin",
        mediator="mediateur",
        participants=("referent", "operatrice"),
        status=S.created,
        scheduled_tomorrow=True,
        visible_to_groups=("Encadrement",),
    ),
    Demo(
        "Point d'équipe du lundi",
        "Tour de table des incidents de la semaine.",
        creator="manager",
        mediator="admin",
        participants=("mediateur", "apprenant"),
        status=S.created,
    ),
    Demo(
        "Accueil d'un nouveau régleur",
        "Présentation des postes de la ligne et des consignes de sécurité.",
        creator="createur",
        mediator="mediateur",
        participants=("apprenant",),
        status=S.started,
    ),
    Demo(
        "Consignation de la presse",
        "Revoir pas à pas la consignation avant une intervention.",
        creator="referent",
        mediator="mediateur",
        participants=("operatrice", "apprenant"),
        status=S.stopped,
    ),
    Demo(
        "Retour d'expérience sur le changement de plaquette",
        "Ce qui a changé depuis la mise à jour de la fiche.",
        creator="createur",
        mediator="admin",
        participants=("referent", "createur"),
        status=S.stopped,
        visible_to_persons=("manager",),
        comment="La fiche est à jour ; les photos de la galerie suffisent aux nouveaux arrivants.",
    ),
    Demo(
        "Revue des sujets critiques de la fraiseuse",
        "Les deux sujets signalés par la maintenance.",
        creator="mediateur",
        mediator="mediateur",
        participants=("admin", "operatrice"),
        status=S.validated,
        comment="Les deux sujets sont compris de tous ; un rappel sera affiché au poste.",
        signers=("operatrice",),
    ),
    Demo(
        "Point sécurité reporté",
        "Remplacé par la revue des sujets critiques.",
        creator="admin",
        mediator="referent",
        participants=("operatrice",),
        status=S.canceled,
    ),
]


def _tomorrow_at_ten() -> datetime:
    zone = ZoneInfo(get_settings().timezone)
    return datetime.combine(today() + timedelta(days=1), time(10), tzinfo=zone).astimezone(UTC)


def _periods(db: Session, user_ids: list[int]) -> list[Period]:
    """Two periods around the latest entries of these users more than a day old, that do not touch; one
    period of yesterday morning when they have no history."""
    entries = db.scalars(
        select(HistoryEntry.at)
        .where(HistoryEntry.user_id.in_(user_ids), HistoryEntry.at < utcnow() - timedelta(days=1))
        .order_by(HistoryEntry.at.desc())
        .limit(200)
    ).all()
    periods: list[Period] = []
    for at in entries:
        start, stop = service.minute(at - REACH), service.minute(at + REACH)
        if all(
            stop + reporting.MINUTE < p.start or start > p.stop + reporting.MINUTE for p in periods if p.stop
        ):
            periods.append(Period(start=start, stop=stop))
        if len(periods) == 2:
            break
    if not periods:
        yesterday = datetime.combine(
            today() - timedelta(days=1), time(9), tzinfo=ZoneInfo(get_settings().timezone)
        )
        periods = [Period(start=yesterday, stop=yesterday + timedelta(minutes=45))]
    return sorted(periods, key=lambda p: p.start)


def _report(db: Session, mediator: Principal, mediation: Mediation, demo: Demo, user_ids: list[int]) -> None:
    """Periods over real history, then the report: the comment and the first tracked actions."""
    periods = _periods(db, user_ids)
    reporting.save_tracking(
        db, user=mediator, mediation_id=mediation.id, periods=periods, version=mediation.version
    )
    if not demo.comment:
        return
    actions: list[TrackedAction] = []
    for period in periods:
        assert period.stop is not None
        actions += reporting.tracked_actions(
            db, user=mediator, mediation_id=mediation.id, start=period.start, stop=period.stop
        )
    items = [ReportItemIn(tracking_id=a.id) for a in actions[:3]]
    db.refresh(mediation)
    reporting.save_report(
        db,
        user=mediator,
        mediation_id=mediation.id,
        comment=demo.comment,
        items=items,
        version=mediation.version,
    )


def _signed_in(user: Principal) -> SessionToken:
    """A session of the user who has just given their password: what a signature requires."""
    now = utcnow()
    return SessionToken(
        user_id=user.id, issued_at=now, authenticated_at=now, expires_at=now + timedelta(hours=1)
    )


def _make(db: Session, demo: Demo, users: dict[str, int], groups: dict[str, int]) -> None:
    people = {
        login: principal_of(db, user_id=users[login])
        for login in {demo.creator, demo.mediator, *demo.participants}
    }
    creator, mediator = people[demo.creator], people[demo.mediator]
    data = MediationSave(
        title=demo.title,
        description=demo.description,
        scheduling_date=_tomorrow_at_ten() if demo.scheduled_tomorrow else None,
        mediator=mediator.id,
        participants=[users[p] for p in demo.participants],
        visible_by_groups=[groups[g] for g in demo.visible_to_groups if g in groups],
        visible_by_persons=[users[p] for p in demo.visible_to_persons if p in users],
    )
    mediation = service.create(db, user=creator, data=data)

    def go(status: S, by: Principal = mediator) -> None:
        service.change_status(db, user=by, mediation_id=mediation.id, status=status)

    if demo.status == S.canceled:
        go(S.canceled, creator)
        return
    if demo.status == S.created:
        return
    go(S.started)
    if demo.status == S.started:
        return
    go(S.stopped)
    _report(db, mediator, mediation, demo, [mediator.id, *data.participants])
    if demo.status != S.validated:
        return
    go(S.validated)
    for login in demo.signers:
        signer = people[login]
        service.sign(db, user=signer, session=_signed_in(signer), mediation_id=mediation.id)


def seed(db: Session) -> None:
    users = {login: user_id for user_id, login in db.execute(select(User.id, User.login))}
    groups = {name: group_id for group_id, name in db.execute(select(Group.id, Group.name))}
    existing = set(db.scalars(select(Mediation.title)))
    for demo in MEDIATIONS:
        logins = {demo.creator, demo.mediator, *demo.participants}
        if demo.title in existing or not logins <= users.keys():
            continue
        _make(db, demo, users, groups)
    db.flush()
