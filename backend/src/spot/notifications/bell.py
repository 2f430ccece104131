"""The bell by e-mail (docs/notifications.md): what the bell shows a person, told to them once by e-mail.

`tell(db, user_ids)` reads, for each person, the alerts the bell shows them now, through the bell's
own providers (alerts.service: the one source of what the bell says), and queues each occurrence not
told yet (outbox.queue, kind the AlertKind's value), in the person's language, with the bell's sentence
and a link to the page where the action is done. It runs in the transaction of the change that
causes it, for the people of that change only and the kinds that go to them: a mediation (its mediator,
its participants), a training path (its learner, the referents of its modules; the bell has no kind
for its creator), a subject (its follower).
`scan_due` tells what comes with time rather than with a change: a scheduled mediation becomes to
start on its day, in the organisation's time zone (the daily scan calls it).

An occurrence is told once (its dedupe key): the same alert still shown after another change is not
told again; one that comes again is a new occurrence:
- a mediation to start: by its scheduling date (its creation when unscheduled); rescheduled, it is
  told again on its new day;
- to report, to validate, to sign: by the mediation's last status change (its history): a report
  rewritten or another participant's signature tells nothing, an invalidated then validated
  mediation asks the participants to sign again;
- a training path or module: by the status change that made it awaited (the bell's date);
- a followed subject changed: by the follower's last visit (never visited: once): changes before they
  come back are one occurrence, a change after their visit another.

The qualification kinds are the daily scan's (notifications.scan, notifications.coverage), not the
bell's changes."""

import hashlib
from collections.abc import Collection, Iterable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from sqlalchemy.orm import Session

# The areas whose providers the bell reads and whose changes this module listens to.
import spot.mediations.actionable
import spot.subjects.alerts
import spot.training.paths.alerts  # noqa: F401
from spot.account.service import principal_of
from spot.alerts import service as alerts
from spot.alerts.schemas import Alert, AlertKind
from spot.config import get_settings
from spot.core import i18n
from spot.core.history import Event
from spot.core.history_models import HistoryEntry
from spot.core.principal import Principal
from spot.core.time import midnight
from spot.mapping.models import Subject
from spot.mediations import service as mediations
from spot.mediations.models import Mediation, MediationParticipant, MediationStatus
from spot.notifications import outbox
from spot.notifications.compose import compose
from spot.permissions.names import Permission
from spot.subjects import service as subjects
from spot.subjects.models import SubjectVisit
from spot.training.paths import service as paths
from spot.training.paths.models import PathStatus, TrainingPath, TrainingPathReferent
from spot.users import service as users
from spot.users.models import User

MEDIATION_KINDS = (
    AlertKind.mediationToStart,
    AlertKind.mediationToReport,
    AlertKind.mediationToValidate,
    AlertKind.mediationToSign,
)
PATH_KINDS = (
    AlertKind.trainingPathToAccept,
    AlertKind.trainingModuleToStart,
    AlertKind.trainingModuleToGrade,
    AlertKind.trainingModuleToSign,
    AlertKind.trainingPathToSign,
    AlertKind.trainingPathToClose,
)
SUBJECT_KINDS = (AlertKind.subjectChanged,)
# Whom each kind goes to, as its provider reads it: only those kinds are read for them.
MEDIATOR_KINDS = (AlertKind.mediationToStart, AlertKind.mediationToReport, AlertKind.mediationToValidate)
PARTICIPANT_KINDS = (AlertKind.mediationToSign,)
LEARNER_KINDS = (AlertKind.trainingPathToAccept, AlertKind.trainingModuleToSign, AlertKind.trainingPathToSign)
REFERENT_KINDS = (AlertKind.trainingModuleToStart, AlertKind.trainingModuleToGrade)
CREATOR_KINDS = (AlertKind.trainingPathToClose,)
# Every kind the bell e-mails as things change.
KINDS = (*SUBJECT_KINDS, *MEDIATION_KINDS, *PATH_KINDS)
# Each kind's newest alerts read per person: an occurrence older than these was told when it came.
LIMIT = 200
# How far back scan_due looks for mediations that came to start (a missed day or two is caught up).
DUE_DAYS = 7
# What the target of an alert is: (type, id), as AlertTarget says.
Target = tuple[str, int]


def _language(user: User) -> i18n.Language:
    return "en" if user.language == "en" else "fr"


def _status_mark(db: Session, mediation_id: int) -> int:
    """The mediation's last status change: an id of its history (0 before any)."""
    return (
        db.scalar(
            select(func.max(HistoryEntry.id)).where(
                HistoryEntry.item_type == mediations.ITEM_TYPE,
                HistoryEntry.item_id == mediation_id,
                HistoryEntry.event == Event.statusChanged.value,
            )
        )
        or 0
    )


def _visit_mark(db: Session, user_id: int, subject_id: int) -> str:
    visited = db.scalar(
        select(SubjectVisit.visited_at).where(
            SubjectVisit.user_id == user_id, SubjectVisit.subject_id == subject_id
        )
    )
    return visited.isoformat() if visited is not None else "never"


def occurrence(db: Session, user: User, alert: Alert) -> str:
    """The alert's dedupe key: one per person and occurrence (see the module's docstring)."""
    if alert.kind == AlertKind.subjectChanged:
        mark = _visit_mark(db, user.id, alert.target.id)
    elif alert.kind in MEDIATION_KINDS and alert.kind != AlertKind.mediationToStart:
        mark = str(_status_mark(db, alert.target.id))
    else:
        mark = alert.date.isoformat()
    module = alert.args.get("module")
    # A module's name may be long: its digest keeps the key short and tells modules apart.
    part = hashlib.sha256(str(module).encode()).hexdigest()[:16] if module is not None else ""
    return f"bell:{alert.kind.value}:{alert.target.type}:{alert.target.id}:{part}:{user.id}:{mark}"


def _path(alert: Alert) -> str:
    """The client's page where the action is done (frontend lib/alerts.ts, TARGET_PATHS)."""
    target = alert.target
    if target.type == "mediation":
        return f"/mediation/view/{target.id}"
    if target.type == "trainingPath":
        return f"/training/path/view/{target.id}"
    if target.type == "subject":
        return f"/subject/{target.id}"
    if target.type == "cartographyQualifications":
        return f"/dashboards/qualifications/cartography/{target.id}"
    return f"/dashboard/qualifications/user/{target.id}"


def content(user: User, alert: Alert) -> outbox.Content:
    """The message of one alert, in the person's language: the bell's sentence as its subject and in
    its body, and the link to where it is done."""
    language = _language(user)
    sentence = i18n.text(language, f"mail.bell_{alert.kind.value}", **alert.args)
    if alert.kind == AlertKind.subjectChanged:
        paragraphs = [i18n.text(language, "mail.bell_changed"), sentence]
    else:
        paragraphs = [
            i18n.text(language, "mail.bell_awaits"),
            sentence,
            i18n.text(language, "mail.bell_also"),
        ]
    return compose(
        language,
        name=user.first_name or user.login,
        subject=sentence,
        paragraphs=paragraphs,
        path=_path(alert),
    )


def _bare(user: User) -> Principal:
    """The person as the mediation and path providers read them: their id (their conditions name the
    person as mediator, participant, learner or referent, who always reads what they are named in)."""
    return Principal(
        id=user.id,
        display_name=user.display_name,
        permission_names=frozenset(),
        group_ids=frozenset(),
        sees_every_cartography=False,
    )


def tell(
    db: Session,
    user_ids: Iterable[int | None],
    *,
    kinds: Collection[AlertKind] = KINDS,
    about: Collection[Target] | None = None,
) -> int:
    """Queue, for each person, the alerts of `kinds` the bell shows them now (about these targets only
    when given) that were not told yet; how many messages were queued. People without an e-mail
    address or who left are skipped before their bell is read (the bell only)."""
    ids = sorted({user_id for user_id in user_ids if user_id is not None})
    if not ids:
        return 0
    people = db.scalars(
        select(User).where(User.id.in_(ids), User.active, User.email.is_not(None), User.email != "")
    )
    providers = alerts.providers_of(kinds)
    # Only the subjects' provider (what they may see) and the paths to close (whether they administer
    # paths) read more of the person than their id.
    full = any(kind in SUBJECT_KINDS or kind in CREATOR_KINDS for kind in kinds)
    told = 0
    for user in list(people):
        principal = principal_of(db, user_id=user.id) if full else _bare(user)
        for provider in providers:
            found, _count = provider(db, user=principal, limit=LIMIT)
            for alert in found:
                if about is not None and (alert.target.type, alert.target.id) not in about:
                    continue
                message = outbox.queue(
                    db,
                    user=user,
                    kind=alert.kind.value,
                    content=content(user, alert),
                    dedupe_key=occurrence(db, user, alert),
                )
                told += message is not None
    return told


# Who each change concerns --------------------------------------------------------------------------------


def mediation_changed(db: Session, mediation_id: int) -> None:
    """Its mediator (to start, to report, to validate) and its participants (to sign)."""
    mediator = db.scalar(select(Mediation.mediator_id).where(Mediation.id == mediation_id))
    participants = db.scalars(
        select(MediationParticipant.user_id).where(MediationParticipant.mediation_id == mediation_id)
    )
    about = {("mediation", mediation_id)}
    tell(db, [mediator], kinds=MEDIATOR_KINDS, about=about)
    tell(db, participants, kinds=PARTICIPANT_KINDS, about=about)


def path_changed(db: Session, path_id: int) -> None:
    """Its learner (to accept, to sign, a module to sign), the referents of its modules (a module to
    start, to grade) and its creator (a finished path to close; the path administrators, of one Spot
    opened). Only the kinds the path's status may await are read (training.paths.alerts' conditions;
    the providers still decide): a path made for a hundred learners reads one kind for each."""
    row = db.execute(
        select(
            TrainingPath.learner_id, TrainingPath.creator_id, TrainingPath.status, TrainingPath.opened_by_spot
        ).where(TrainingPath.id == path_id)
    ).first()
    if row is None:
        return
    learner, creator, status, opened_by_spot = row
    about = {("trainingPath", path_id)}
    if status == PathStatus.notAccepted:
        tell(db, [learner], kinds=(AlertKind.trainingPathToAccept,), about=about)
    elif status not in (PathStatus.accepted, PathStatus.canceled):
        tell(db, [learner], kinds=(AlertKind.trainingModuleToSign, AlertKind.trainingPathToSign), about=about)
    if status == PathStatus.started:
        referents = db.scalars(
            select(TrainingPathReferent.user_id).where(TrainingPathReferent.path_id == path_id)
        )
        tell(db, referents, kinds=REFERENT_KINDS, about=about)
    if status == PathStatus.finished:
        # A path Spot opened has no creator: its administrators close it (training.paths.alerts).
        closers = users.holders(db, Permission.TrainingPathAdmin) if opened_by_spot else [creator]
        tell(db, closers, kinds=CREATOR_KINDS, about=about)


def subject_changed(db: Session, subject_id: int) -> None:
    follower = db.scalar(select(Subject.followed_by).where(Subject.id == subject_id))
    tell(db, [follower], kinds=SUBJECT_KINDS, about={("subject", subject_id)})


def scan_due(db: Session, *, now: datetime) -> int:
    """Tell what came with time: the mediations scheduled up to the end of `now`'s day (in the
    organisation's time zone), over the last DUE_DAYS days, still to start, to their mediators; how
    many messages were queued (each occurrence once, however often it runs). `now` chooses the
    mediations looked at; whether one is to start is the bell's own answer, on the clock of today.
    The caller commits."""
    day = now.astimezone(ZoneInfo(get_settings().timezone)).date()
    due = db.execute(
        select(Mediation.id, Mediation.mediator_id).where(
            Mediation.status == MediationStatus.created.value,
            Mediation.scheduling_date >= midnight(day - timedelta(days=DUE_DAYS)),
            Mediation.scheduling_date < midnight(day + timedelta(days=1)),
            Mediation.mediator_id.is_not(None),
        )
    ).all()
    by_mediator: dict[int | None, set[Target]] = {}
    for mediation_id, mediator_id in due:
        by_mediator.setdefault(mediator_id, set()).add(("mediation", mediation_id))
    return sum(
        tell(db, [mediator_id], kinds=(AlertKind.mediationToStart,), about=targets)
        for mediator_id, targets in by_mediator.items()
    )


mediations.on_change(mediation_changed)
paths.on_change(path_changed)
subjects.on_change(subject_changed)
