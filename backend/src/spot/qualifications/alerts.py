"""The bell's qualification kinds (DESIGN §10, docs/qualifications.md 'The bell'): qualifications about to
expire.

- qualificationExpiring: the user's own qualifications (those of their groups) whose hold is 0 to 30
  days, dated at midnight 30 days before the last valid day;
- teamQualificationExpiring: for perm_TableauBord holders, the people of the holder's groups (the
  holder excluded) whose hold on a qualification that one of those groups is qualifiable for is 0 to
  90 days, with the window it
  entered (the smallest of 90, 60, 30 and 7 days that is at least the days left), dated at midnight of
  that window's first day, so that it comes back as new at each step.

A person's hold on a qualification is the earliest expiry of its modules (qualifications.validity, the
one computation of it); a qualification without module is never held. Each provider reads the
(person, qualification, module) triples of the people concerned in one statement and their validities
in one more (validity.module_validities), whatever the number of people."""

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlalchemy import Date, Integer, Select, bindparam, select
from sqlalchemy.orm import Session

from spot.alerts import service as bell
from spot.alerts.schemas import Alert, AlertKind, AlertTarget
from spot.core.principal import Principal
from spot.core.time import midnight, today
from spot.qualifications import policy, validity
from spot.qualifications.models import Qualification, QualificationGroup, QualificationModule
from spot.training.paths.models import TrainingPath, TrainingPathModule
from spot.users.models import User, user_group

# The windows a manager is told of, in days before the last valid day, smallest first.
WINDOWS = (7, 30, 60, 90)
OWN_DAYS = validity.WARN_DAYS

_HOLDER = bindparam("holder_id", type_=Integer)
_mine, _team = user_group.alias("mine"), user_group.alias("team")
QG, QM = QualificationGroup, QualificationModule
# The user alone.
_OWN = select(User.id).where(User.id == _HOLDER)
# The people a manager is told of: the members of a group the manager belongs to that is qualifiable
# for some qualification (the manager excluded); a group of everyone that no qualification names
# (20,000 people on the bench) adds nobody.
_TEAM = (
    select(_team.c.user_id)
    .select_from(_mine)
    .join(QG, QG.group_id == _mine.c.group_id)
    .join(_team, _team.c.group_id == _mine.c.group_id)
    .where(_mine.c.user_id == _HOLDER, _team.c.user_id != _HOLDER)
)
# Of them, those with a module whose validity ends within the largest window: only they can hold a
# qualification that does (a hold is the earliest end of its modules).
_TEAM_EXPIRING = (
    select(TrainingPath.learner_id)
    .join(TrainingPathModule, TrainingPathModule.path_id == TrainingPath.id)
    .where(
        TrainingPathModule.valid_until.between(
            bindparam("today", type_=Date), bindparam("horizon", type_=Date)
        ),
        TrainingPathModule.is_success.is_(True),
        TrainingPath.learner_id.in_(_TEAM),
    )
)


def concerning(learners: Select[Any], *, through_holder: bool) -> tuple[Select[Any], Select[Any]]:
    """For the people of `learners`: each (person, name, qualification concerning them, its name,
    one of its modules), and the modules of those qualifications; `through_holder`: only through the
    groups the holder belongs to (a manager's team)."""
    concerning = (
        select(
            user_group.c.user_id,
            User.display_name.label("user_name"),
            Qualification.id.label("qualification_id"),
            Qualification.name,
            QM.module_id,
        )
        .join(User, User.id == user_group.c.user_id)
        .join(QG, QG.group_id == user_group.c.group_id)
        .join(Qualification, Qualification.id == QG.qualification_id)
        .join(QM, QM.qualification_id == Qualification.id)
        .where(user_group.c.user_id.in_(learners))
        .distinct()
    )
    modules = (
        select(QM.module_id)
        .join(QG, QG.qualification_id == QM.qualification_id)
        .join(user_group, user_group.c.group_id == QG.group_id)
        .where(user_group.c.user_id.in_(learners))
    )
    if through_holder:
        holder_groups = select(_mine.c.group_id).where(_mine.c.user_id == _HOLDER)
        concerning = concerning.where(QG.group_id.in_(holder_groups))
        modules = modules.where(QG.group_id.in_(holder_groups))
    return concerning, modules


_OWN_CONCERNED, _OWN_MODULES = concerning(_OWN, through_holder=False)
_TEAM_CONCERNED, _TEAM_MODULES = concerning(_TEAM_EXPIRING, through_holder=True)


@dataclass(frozen=True)
class Hold:
    """A person's hold on a qualification concerning them, valid for `days` more days (0: the last)."""

    user_id: int
    user_name: str
    qualification_id: int
    name: str
    days: int

    def valid_until(self, day: date) -> date:
        return day + timedelta(days=self.days)

    def args(self, day: date) -> dict[str, str | int]:
        """The alert's name, last valid day and days left as My dashboard counts them."""
        until = self.valid_until(day)
        return {"name": self.name, "days": validity.days_left(until, day), "validUntil": until.isoformat()}


def holds(
    db: Session,
    *,
    concerned: Select[Any],
    modules: Select[Any],
    learners: Select[Any],
    holder_id: int,
    day: date,
) -> list[Hold]:
    """The holds of every (person, qualification) pair that `concerned` names."""
    params = {"holder_id": holder_id, "today": day, "horizon": day + timedelta(days=WINDOWS[-1])}
    pairs: dict[tuple[int, int], tuple[str, str, list[int]]] = {}
    for user_id, user_name, qualification_id, name, module_id in db.execute(concerned, params):
        pairs.setdefault((user_id, qualification_id), (user_name, name, []))[2].append(module_id)
    if not pairs:
        return []
    validities = validity.module_validities(db, learners=learners, modules=modules, today=day, params=params)
    return [
        Hold(
            user_id=user_id,
            user_name=user_name,
            qualification_id=qualification_id,
            name=name,
            days=validity.earliest(
                validity.of(validities, user_id, module_id).remaining_days for module_id in module_ids
            ),
        )
        for (user_id, qualification_id), (user_name, name, module_ids) in pairs.items()
    ]


def window(days: int) -> int:
    """The smallest window that holds `days` (at most the largest)."""
    return next((w for w in WINDOWS if w >= days), WINDOWS[-1])


def _newest(found: list[tuple[Alert, int, int]], limit: int) -> tuple[list[Alert], int]:
    found.sort(key=lambda entry: (entry[0].date, entry[1], entry[2]), reverse=True)
    return [alert for alert, _user, _qualification in found[:limit]], len(found)


def own(db: Session, *, user: Principal, limit: int) -> tuple[list[Alert], int]:
    day = today()
    found = [
        (
            Alert(
                kind=AlertKind.qualificationExpiring,
                args=hold.args(day),
                date=midnight(hold.valid_until(day) - timedelta(days=OWN_DAYS)),
                target=AlertTarget(type="userQualifications", id=user.id),
            ),
            hold.user_id,
            hold.qualification_id,
        )
        for hold in holds(
            db, concerned=_OWN_CONCERNED, modules=_OWN_MODULES, learners=_OWN, holder_id=user.id, day=day
        )
        if 0 <= hold.days <= OWN_DAYS
    ]
    return _newest(found, limit)


def team(db: Session, *, user: Principal, limit: int) -> tuple[list[Alert], int]:
    if not policy.can_see_dashboards(user):
        return [], 0
    day = today()
    found = []
    for hold in holds(
        db,
        concerned=_TEAM_CONCERNED,
        modules=_TEAM_MODULES,
        learners=_TEAM_EXPIRING,
        holder_id=user.id,
        day=day,
    ):
        if not 0 <= hold.days <= WINDOWS[-1]:
            continue
        days_window = window(hold.days)
        alert = Alert(
            kind=AlertKind.teamQualificationExpiring,
            args={**hold.args(day), "user": hold.user_name, "window": days_window},
            date=midnight(hold.valid_until(day) - timedelta(days=days_window)),
            target=AlertTarget(type="userQualifications", id=hold.user_id),
        )
        found.append((alert, hold.user_id, hold.qualification_id))
    return _newest(found, limit)


bell.register(AlertKind.qualificationExpiring, own)
bell.register(AlertKind.teamQualificationExpiring, team)
